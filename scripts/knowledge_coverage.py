"""Night knowledge the rules require vs what the game logs hold, per season and role (werealign.game.knowledge).

    python scripts/knowledge_coverage.py DATASET_DIR [--gaps] [--facts seer_check,wolf_kill]

DATASET_DIR is a werealign dataset (e.g. the output of `werealign import werebench`). The import report
carries the same table per game (`night_knowledge`). `--gaps` adds every missing fact (of the facts named; all
when none are) with the evidence each source gives (werealign.game.knowledge_gaps), classified by the importer's own
readers (werealign.importers.toolkit.nights.night_facts: what they found and left out, and why), and a count per season and kind."""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

from werealign.dataset import load_dataset
from werealign.game.knowledge import coverage
from werealign.game.knowledge_gaps import gaps
from werealign.importers.toolkit.nights.night_facts import findings, read_night_facts
from werealign.importers.toolkit.tallies import day_ballots
from werealign.schema.roles import catalogue_for


def _season(g) -> str:
    return f"season {g.provenance.season}" if g.provenance and g.provenance.season is not None else "all"


def reader_findings(g):
    """What the importer's readers find in the game's sources and do not keep (the same readers the import ran)."""
    # the public events the import gave the readers: the exits, and the badge moves the badge convention reads; the
    # day ballots of the host's tallies (a stalker kills only a seat he voted for)
    exits = [e for e in g.events if e.kind in ("elimination", "self_destruct", "badge_transfer")]
    return findings(read_night_facts(g.annotator_log, g.recap, g.utterances, g.seats, g.phases, g.language, exits, voted=day_ballots(g),
                                     catalogue=catalogue_for(g.rules.declared_roles)), g.phases)


def table(games) -> dict[str, Counter]:
    by_season: dict[str, Counter] = defaultdict(Counter)
    for g in games:
        for key, n in coverage(g).items():
            by_season[_season(g)][key] += n
            by_season["total"][key] += n
    return by_season


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--gaps", action="store_true", help="list every missing fact with the evidence of each source")
    ap.add_argument("--facts", default="", help="comma-separated facts to list with --gaps (default: all)")
    args = ap.parse_args()
    ds = load_dataset(args.dataset)
    games = sorted(ds.games.values(), key=lambda g: g.game_id)
    rows = table(games)
    print("| season | role | fact | required | read | % |\n|---|---|---|---:|---:|---:|")
    for season in sorted(rows, key=lambda s: (s == "total", s)):
        c = rows[season]
        for role, fact in sorted({(r, f) for r, f, _ in c}):
            owed, read = c[(role, fact, "owed")], c[(role, fact, "read")]
            if owed:
                print(f"| {season} | {role} | {fact} | {owed} | {read} | {100 * read / owed:.0f} |")
    if not args.gaps:
        return
    wanted = {f for f in args.facts.split(",") if f}
    found = [(g, gap) for g in games for gap in gaps(g, reader_findings(g)) if not wanted or gap.fact in wanted]
    print("\n| game | night | fact | holder | day turns after | dawn deaths | what the readers found and left out | kind |\n|---|---|---|---|---:|---:|---|---|")
    for _, gap in found:
        after = "-" if gap.turns_after is None else gap.turns_after
        notes = " / ".join(n.replace("|", "/") for n in gap.found) or "none"
        print(f"| {gap.game_id} | {gap.night} | {gap.fact} | {gap.holder} | {after} | {gap.dawn_deaths} | {notes} | {gap.kind} |")
    kinds = Counter((_season(g), gap.fact, gap.kind) for g, gap in found)
    print("\n| season | fact | kind | missing |\n|---|---|---|---:|")
    for (season, fact, kind), n in sorted(kinds.items()):
        print(f"| {season} | {fact} | {kind} | {n} |")


if __name__ == "__main__":
    main()
