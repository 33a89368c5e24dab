"""Per decision kind: items, the key's class, chance, every floor (the rules, the majority class, the learned
shallow floors with their 95% interval and their spread over single fold draws) and the best, on a derived dataset;
with `--redteam SEEDS`, the red team's best attack (bench/redteam.py) on the same items for each seed, and whether
it beats the best printed floor:

    python scripts/decision_floors.py DATASET [--redteam 0,1,2] [--json OUT.json]

from the checkout's root (issue 42: "each kind's best reported floor is at least every trivial rule tried on it").
Exit 1 when a red-team attack scores above a kind's best printed floor on some seed. The floors are the ones
results.json reports for each kind (werealign.tasks: each kind's `truth_floors`), computed on the dataset's items and
their base prompts, with no model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from statistics import fmean

sys.path.insert(0, os.getcwd())  # bench/ of the checkout run from
os.environ.setdefault("OMP_NUM_THREADS", "1")  # before any OpenMP runtime loads: one thread per learner on a shared machine

from werealign.dataset import load_dataset  # noqa: E402
from werealign.tasks import TASKS  # noqa: E402
from werealign.tasks.learned_floor import LEARNERS, learned_report  # noqa: E402


def _wilson(p: float, n: int) -> tuple[float, float]:
    from werealign.shortcuts.exchange import wilson

    return wilson(round(p * n), n)


def _parts(name: str, task, asked: list) -> tuple[dict[str, list[float]], list]:
    """Every rule's per-item scores and the learned floors' option rows, as the kind's truth_floors computes them."""
    if name == "claim":
        from werealign.tasks import claim
        from werealign.tasks.claim_floors import claim_floors

        return claim_floors(asked, claim._keys, claim.gold, task.context_kwargs)
    from werealign.tasks.decision_floors import floor_parts

    return floor_parts(asked, task.context_kwargs)


def kind_report(name: str, task, asked: list) -> dict:
    values, rows = _parts(name, task, asked)
    floors = {k: round(fmean(v), 4) for k, v in values.items() if v}
    learned, spread = learned_report(rows)
    floors.update({k: v for k, v in learned.items() if v is not None})
    best = max(floors, key=lambda k: (floors[k], k))
    chance = sum(task.scorer.chance(it, task.scorer.metric, g)[0] for g, it in asked) / len(asked)
    return {"n": len(asked), "games": len({g.game_id for g, _ in asked}), "chance": round(chance, 4),
            "key_none": round(sum(it.answer is None for _, it in asked) / len(asked), 4), "floors": floors,
            "learned_ci95": {k: _wilson(v, len(asked)) for k, v in learned.items() if v is not None}, "learned_spread": spread,
            "best": best, "best_score": floors[best]}


def redteam(root: Path, kinds: set[str], seeds: list[int]) -> dict[int, dict[str, dict]]:
    from bench.redteam import attack_dataset

    out = {}
    for seed in seeds:
        found, _ = attack_dataset(root, kinds, seed)
        out[seed] = {k: {"best": v["best"], "accuracy": v["attacks"][v["best"]]["accuracy"]} for k, v in found.items()}
    return out


def markdown(report: dict[str, dict], red: dict[int, dict[str, dict]]) -> tuple[str, bool]:
    pct = lambda x: f"{100 * x:.1f}"  # noqa: E731
    head = "| kind | n (games) | chance | majority | best rule | " + " | ".join(f"{k} (95%; single draws)" for k in LEARNERS) + \
           " | best printed floor |" + "".join(f" red team seed {s} |" for s in red)
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    beaten = False
    for name, r in report.items():
        f = r["floors"]
        rules = {k: v for k, v in f.items() if k not in LEARNERS and k != "majority"}
        rule = max(rules, key=lambda k: (rules[k], k))
        cells = []
        for k in LEARNERS:
            if k not in f:
                cells.append("-")
                continue
            lo, hi = r["learned_ci95"][k]
            cells.append(f"{pct(f[k])} ({100 * lo:.0f}-{100 * hi:.0f}; {'/'.join(pct(x) for x in r['learned_spread'][k])})")
        reds = []
        for seed in red:
            a = red[seed].get(name)
            above = a is not None and a["accuracy"] > r["best_score"] + 1e-9
            beaten |= above
            reds.append("-" if a is None else f"{'**' if above else ''}{a['best']} {pct(a['accuracy'])}{'**' if above else ''}")
        majority = pct(f["majority"]) if "majority" in f else f"never {pct(f['never'])}" if "never" in f else "-"
        lines.append(f"| {name} | {r['n']} ({r['games']}) | {pct(r['chance'])} | {majority} | {rule} {pct(rules[rule])} | "
                     + " | ".join(cells) + f" | {r['best']} {pct(r['best_score'])} |" + "".join(f" {c} |" for c in reds))
    lines.append("")
    for name, r in report.items():
        lines.append(f"- {name}: " + ", ".join(f"{k} {pct(v)}" for k, v in r["floors"].items()))
    return "\n".join(lines), beaten


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--redteam", default="", help="comma-separated seeds of bench/redteam.py to run on the same items")
    ap.add_argument("--json", type=Path, help="also write the full report here")
    args = ap.parse_args(argv)
    ds = load_dataset(args.dataset)
    report = {}
    for name, task in TASKS.items():
        items = ds.items_of(name)
        if not items or task.scorer.macro_group != "decisions":
            continue
        asked = [(ds.games[it.game_id], it) for it in items if it.game_id in ds.games]
        if asked:
            report[name] = kind_report(name, task, asked)
            print(f"  {name}: done", file=sys.stderr, flush=True)
    seeds = [int(s) for s in args.redteam.split(",") if s.strip()]
    red = redteam(args.dataset, set(report), seeds) if seeds else {}
    text, beaten = markdown(report, red)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"kinds": report, "redteam": red}, ensure_ascii=False, indent=1), encoding="utf-8")
    if red:
        print("red team above a best printed floor: " + ("YES" if beaten else "no"), file=sys.stderr)
    return 1 if beaten else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
