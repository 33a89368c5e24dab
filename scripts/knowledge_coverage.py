"""Night knowledge the rules require vs what the game logs hold, per season and role (werealign.game.knowledge).

    python scripts/knowledge_coverage.py DATASET_DIR [--markdown]

DATASET_DIR is a werealign dataset (e.g. the output of `werealign import werebench`). The import report
carries the same table per game (`night_knowledge`)."""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from werealign.dataset import load_dataset
from werealign.game.knowledge import coverage


def table(games) -> dict[str, Counter]:
    by_season: dict[str, Counter] = defaultdict(Counter)
    for g in games:
        season = f"season {g.provenance.season}" if g.provenance and g.provenance.season is not None else "all"
        for key, n in coverage(g).items():
            by_season[season][key] += n
            by_season["total"][key] += n
    return by_season


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    args = ap.parse_args()
    ds = load_dataset(args.dataset)
    rows = table(ds.games.values())
    print("| season | role | fact | required | read | % |\n|---|---|---|---:|---:|---:|")
    for season in sorted(rows, key=lambda s: (s == "total", s)):
        c = rows[season]
        for role, fact in sorted({(r, f) for r, f, _ in c}):
            owed, read = c[(role, fact, "owed")], c[(role, fact, "read")]
            print(f"| {season} | {role} | {fact} | {owed} | {read} | {100 * read / owed:.0f} |" if owed else "")


if __name__ == "__main__":
    main()
