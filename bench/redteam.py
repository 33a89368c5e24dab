"""Red team of a dataset's items (issues 42 and 43): every item set attacked with fixed rules and learners the item
builders never saw, games held out.

    python bench/redteam.py NAME=DATASET_DIR[:KINDS] [NAME=DIR ...] [--seed 0] [--json OUT.json] [--folds 5]

from the checkout's root. KINDS (comma-separated task kinds, e.g. `:speech`) restricts a set to those kinds; without
it every items file of the directory is attacked. Speech items (nine options, one key): bench/redteam_speech.py;
decision items (candidates and an answer: ballots, night moves, the badge, claims, VA, OI...): bench/redteam_decisions.py.
Fixed rules fit nothing; learners and `best-rule-cv` (the rule that wins on the other folds' games) are fitted with
whole games held out (5 folds, seeded). A tie between top options is split evenly; a rule with no reading scores
chance. Per set and kind: n items, games, chance, every attack's accuracy (OI: mean Jaccard) with its 95% Wilson
interval, and the best. The best of many attacks is picked on the same items, so it is optimistic by construction;
`best-rule-cv` is the honest one-shot figure. Printed as Markdown tables (and JSON with --json); what could not be
attacked is named under the tables. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign
# One thread per learner, set before any OpenMP runtime loads: on a shared machine HGB's threads oversubscribe the cores
# and spin (10x slower); threadpoolctl below only reaches libraries already loaded.
os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.redteam_core import Case, chance, credit, cross_fit, rule_selected_on_other_games, row_learner, wilson  # noqa: E402

LEARNER_SEEDED = ("hgb", "rf", "lr")


def _model(family: str):
    def make(seed: int):
        if family == "hgb":
            from sklearn.ensemble import HistGradientBoostingClassifier

            return HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, max_leaf_nodes=15, max_bins=64,
                                                  l2_regularization=1.0, random_state=seed)
        if family == "rf":
            from sklearn.ensemble import RandomForestClassifier

            return RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=seed, n_jobs=1)
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        return make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=3000))
    return make


def attack(cases: list[Case], rules: tuple[str, ...], learners: dict, seed: int) -> dict[str, dict]:
    """Every attack's result on the cases: accuracy (or mean Jaccard), its interval, and how many items the attack read
    something on (`read`: a fixed rule's coverage; the rest score chance)."""
    out: dict[str, dict] = {}
    n = len(cases)

    def record(name: str, per_case: list[list[float] | None], kind: str) -> None:
        credits = [credit(c, s, seed) for c, s in zip(cases, per_case)]
        hits = sum(credits)
        lo, hi = wilson(hits, n)
        read = sum(1 for c, s in zip(cases, per_case) if s is not None and len(set(s)) > 1)
        out[name] = {"type": kind, "accuracy": round(hits / n, 4), "ci95": [round(lo, 4), round(hi, 4)], "read": read}

    for name in rules:
        record(name, [c.rules.get(name) for c in cases], "rule")
    record("best-rule-cv", rule_selected_on_other_games(cases, list(rules), seed), "rule-cv")
    import sklearn.ensemble  # noqa: F401  (loads the OpenMP runtime, so that the limit below reaches it)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        for name, fitter in learners.items():
            record(name, cross_fit(cases, fitter, seed), "learner")
    return out


def summary(cases: list[Case], results: dict[str, dict]) -> dict:
    from bench.redteam_core import group_folds

    best = max(results, key=lambda a: (results[a]["accuracy"], a))
    return {"n": len(cases), "games": len({c.group for c in cases}), "held_out": group_folds(cases, 0)[1],
            "chance": round(sum(chance(c) for c in cases) / len(cases), 4), "best": best, "attacks": results}


def attack_dataset(root: Path, kinds: set[str] | None, seed: int) -> tuple[dict[str, dict], list[str]]:
    from bench import redteam_decisions as dec
    from bench import redteam_speech as sp
    from bench.redteam_core import relational, relational_columns
    from werealign.dataset import load_dataset
    from werealign.tasks import TASKS

    ds = load_dataset(root)
    notes = list(ds.unknown_kind_notices())
    found: dict[str, dict] = {}
    for kind, items in ds.items.items():
        if kinds is not None and kind not in kinds:
            continue
        if not items:
            notes.append(f"{kind}: no items")
            continue
        if all(hasattr(it, "options") and hasattr(it, "question") for it in items):
            cases, why = sp.speech_cases(items, ds.games)
            for c in cases:
                c.rows = relational(c.rows)
            learners = {"lr-char": sp.char_lr, **{f"{f}-relational": row_learner(_model(f)) for f in LEARNER_SEEDED},
                        # lengths alone (length and band count, relational): does the length filter give the key away?
                        "hgb-length": row_learner(_model("hgb"), relational_columns(
                            [sp.FEATURES.index("length"), sp.FEATURES.index("band")], len(sp.FEATURES)))}
            rules = sp.RULES
        else:
            task = TASKS.get(kind) if kind in TASKS else None
            cases, why, rules = dec.decision_cases(kind, items, ds.games, task)
            learners = {f"{f}-shallow": row_learner(_model(f)) for f in ("hgb", "lr")}
        notes += why
        if not cases:
            continue
        t0 = time.monotonic()
        found[kind] = summary(cases, attack(cases, tuple(rules), learners, seed))
        print(f"  {kind}: {len(cases)} items attacked in {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    if kinds:
        notes += [f"{k}: not in {root}" for k in sorted(kinds - set(ds.items))]
    return found, notes


def _cell(r: dict | None) -> str:
    if r is None:
        return "-"
    lo, hi = r["ci95"]
    return f"{100 * r['accuracy']:.1f} ({100 * lo:.0f}-{100 * hi:.0f})"


def markdown(report: dict[str, dict]) -> str:
    """Per set, one table: attacks as rows, kinds as columns (accuracy % and its 95% interval); the best per column
    in bold. Then the notes."""
    lines = []
    for name, block in report["sets"].items():
        kinds = block["kinds"]
        if not kinds:
            continue
        cols = list(kinds)
        lines += [f"**{name}** (`{block['path']}`)", "", "| attack | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        lines.append("| n items (games) | " + " | ".join(f"{kinds[k]['n']} ({kinds[k]['games']})" for k in cols) + " |")
        lines.append("| chance | " + " | ".join(f"{100 * kinds[k]['chance']:.1f}" for k in cols) + " |")
        attacks = []
        for k in cols:
            attacks += [a for a in kinds[k]["attacks"] if a not in attacks]
        for a in attacks:
            cells = []
            for k in cols:
                r = kinds[k]["attacks"].get(a)
                cells.append(f"**{_cell(r)}**" if r is not None and kinds[k]["best"] == a else _cell(r))
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        lines.append("| best | " + " | ".join(f"{kinds[k]['best']} {100 * kinds[k]['attacks'][kinds[k]['best']]['accuracy']:.1f}" for k in cols) + " |")
        lines.append("")
        if block["notes"]:
            lines += [f"- {n}" for n in block["notes"]] + [""]
    return "\n".join(lines)


def speech_sets_main(argv: list[str] | None, description: str, attack_items) -> int:
    """The command line of a speech-only red team (bench/redteam_unseen.py, bench/redteam_blind.py): each NAME=DATASET_DIR's
    speech items through `attack_items(items, games, seed) -> (summary or None, notes)`, printed as the table above, then
    the attacks over 20% per set (and the full report with --json)."""
    from werealign.dataset import load_dataset

    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("sets", nargs="+", help="NAME=DATASET_DIR (its speech items are attacked)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    report: dict = {"seed": args.seed, "sets": {}}
    for spec in args.sets:
        name, sep, path = spec.partition("=")
        root = Path(path)
        if not sep or not name or not (root / "dataset.json").is_file():
            print(f"error: {spec!r}: expected NAME=DATASET_DIR holding a dataset.json", file=sys.stderr)
            return 2
        t0 = time.monotonic()
        ds = load_dataset(root)
        items = ds.items.get("speech") or []
        found, notes = attack_items(items, ds.games, args.seed) if items else (None, [f"speech: no items in {root}"])
        report["sets"][name] = {"path": str(root), "kinds": {"speech": found} if found else {}, "notes": notes}
        print(f"[{name}: {len(items)} speech items in {time.monotonic() - t0:.0f} s]", file=sys.stderr, flush=True)
    print(markdown(report))
    for name, block in report["sets"].items():
        for kind, s in block["kinds"].items():
            over = [f"{a} {100 * r['accuracy']:.1f}" for a, r in sorted(s["attacks"].items()) if r["accuracy"] > 0.20]
            print(f"- {name} {kind}: over 20%: {', '.join(over) or 'none'}")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="NAME=DATASET_DIR[:KIND,KIND]")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the full report here")
    args = ap.parse_args(argv)
    report: dict = {"seed": args.seed, "sets": {}}
    started = time.monotonic()
    for spec in args.sets:
        name, sep, rest = spec.partition("=")
        if not sep or not name:
            print(f"error: {spec!r}: expected NAME=DATASET_DIR[:KINDS]", file=sys.stderr)
            return 2
        path, _, kinds = rest.partition(":") if not Path(rest).exists() else (rest, "", "")
        root = Path(path)
        if not (root / "dataset.json").is_file():
            print(f"error: {spec!r}: {root} is not a dataset directory (no dataset.json)", file=sys.stderr)
            return 2
        t0 = time.monotonic()
        found, notes = attack_dataset(root, set(kinds.split(",")) if kinds else None, args.seed)
        report["sets"][name] = {"path": str(root), "kinds": found, "notes": notes}
        print(f"[{name}: {len(found)} kind(s) attacked in {time.monotonic() - t0:.0f} s]", file=sys.stderr)
    print(f"[all sets: {time.monotonic() - started:.0f} s]", file=sys.stderr)
    print(markdown(report))
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
