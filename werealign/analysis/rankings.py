"""Beyond survival: the arena ranking (win rate in games against other models) beside the
human-aligned ranking (eval's macro accuracy over the speech dimensions, else VA accuracy), and
their Kendall tau with a 95% interval from a bootstrap over arena games (human scores held fixed).
Self-play games rank no one and are left out."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from werealign.analysis.corpus import ARENA_SUMMARY
from werealign.errors import UserError
from werealign.files import parse_model, read_json
from werealign.schema import ArenaSummary


def arena_outcomes(dirs: list[Path]) -> list[tuple[str, str, str, str | None]]:
    """(game key, village model, wolves model, winner) of every game between two different models."""
    return _arena(dirs)[0]


def _arena(dirs: list[Path]) -> tuple[list[tuple[str, str, str, str | None]], tuple[str, str] | None]:
    """The games between two different models, and the (board, language) they were all played on: one ranking
    is read from one board in one language, so directories of different boards or languages are refused."""
    out = []
    setups: dict[tuple[str, str], Path] = {}
    for d in dirs:
        path = d / ARENA_SUMMARY
        if not path.is_file():
            raise UserError(f"{d}: not an arena directory (no {ARENA_SUMMARY})")
        summary = parse_model(ArenaSummary, read_json(path), str(path))
        setups.setdefault((summary.board, summary.language), d)
        rows = [(f"{d}:{g.game_id}", g.village, g.wolves, g.winner) for g in summary.games]
        out += [r for r in rows if r[1] != r[2]]
    if len(setups) > 1:
        (a, da), (b, db) = list(setups.items())[:2]
        raise UserError(f"--arena: {da} was played on board {a[0]} ({a[1]}), {db} on {b[0]} ({b[1]}); "
                        "rank one board in one language at a time")
    return out, next(iter(setups), None)


def win_rates(games: list[tuple[str, str, str, str | None]]) -> dict[str, float]:
    won: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _, village, wolves, winner in games:
        for model, side in ((village, "good"), (wolves, "wolf")):
            won[model][0] += winner == side
            won[model][1] += 1
    return {m: k / n for m, (k, n) in won.items() if n}


def _tau(a: dict[str, float], b: dict[str, float], models: list[str]) -> float | None:
    from scipy.stats import kendalltau

    tau = kendalltau([a[m] for m in models], [b[m] for m in models]).statistic
    return None if tau != tau else float(tau)  # NaN: a constant ranking


def beyond_survival(human: dict[str, float], arena_dirs: list[Path], *, seed: int = 0, resamples: int = 2000) -> dict[str, Any]:
    games, setup = _arena(arena_dirs)
    rates = win_rates(games)
    models = sorted(set(human) & set(rates))
    rows = [{"model": m, "human_aligned": round(human[m], 4), "arena_win_rate": round(rates[m], 4),
             "arena_games": sum(m in (v, w) for _, v, w, _ in games)} for m in models]
    result: dict[str, Any] = {"models": rows, "kendall_tau": None, "ci95": None, "games": len(games),
                              "board": setup[0] if setup else None, "language": setup[1] if setup else None,
                              "only_in_eval": sorted(set(human) - set(rates)), "only_in_arena": sorted(set(rates) - set(human))}
    if len(models) < 3:
        result["note"] = "a rank correlation needs at least 3 models with eval runs and arena games against each other"
        return result
    result["kendall_tau"] = _tau(human, rates, models)
    rng = random.Random(seed)
    taus = []
    for _ in range(resamples):
        sample = [games[rng.randrange(len(games))] for _ in games]
        r = win_rates(sample)
        if all(m in r for m in models) and (t := _tau(human, r, models)) is not None:
            taus.append(t)
    if taus:
        taus.sort()
        result["ci95"] = [round(taus[int(0.025 * (len(taus) - 1))], 3), round(taus[int(0.975 * (len(taus) - 1))], 3)]
    return result


def text_block(result: dict[str, Any]) -> str:
    where = f"board {result['board']} ({result['language']}), " if result.get("board") else ""
    lines = ["", "Beyond survival: human-aligned vs arena ranking"]
    if not result["models"]:  # a header over no rows says nothing: say why there is nothing to compare
        lines.append("no model has both a human-aligned score and arena games against another model "
                     f"(eval runs of: {', '.join(result.get('only_in_eval') or ()) or 'none'}; "
                     f"arena games of: {', '.join(result.get('only_in_arena') or ()) or 'none'})")
        return "\n".join(lines) + "\n"
    lines += [f"arena: {where}{result.get('games', 0)} games between models",
              f"{'model':<34}{'human-aligned':>16}{'arena win rate':>16}{'games':>8}"]
    for r in sorted(result["models"], key=lambda r: -r["human_aligned"]):
        name = r["model"]
        if len(name) > 32:  # the whole name on its own line, the scores under it: never cut
            lines.append(name)
            name = ""
        lines.append(f"{name:<34}{r['human_aligned'] * 100:>15.1f}%{r['arena_win_rate'] * 100:>15.1f}%{r.get('arena_games', 0):>8}")
    if result["kendall_tau"] is None:
        lines.append(result.get("note", "Kendall tau: undefined (a ranking without order)"))
    else:
        ci = result["ci95"]
        lines.append(f"Kendall tau {result['kendall_tau']:+.2f}" + (f" (95% CI {ci[0]:+.2f} to {ci[1]:+.2f}, bootstrap over "
                                                                    f"{result.get('games', 0)} arena games)" if ci else ""))
    return "\n".join(lines) + "\n"


def human_scores(entries: list[Any]) -> dict[str, float]:
    """A model's human-aligned headline from its leaderboard entry: the headline of the first registered kind it
    was scored on (speech macro accuracy, else VA accuracy, ...)."""
    from werealign.tasks import TASKS

    out = {}
    for e in entries:
        base = e.scores.get("base", {})
        value = next((v for name, task in TASKS.items() if (v := base.get(name, {}).get(task.scorer.metric)) is not None), None)
        if value is not None:
            out[e.model] = float(value)
    return out
