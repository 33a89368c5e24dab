"""The claim reader (werealign.game.claims) against hand labels: recall, precision and the misses, per set.

    python scripts/claim_labels.py DATASET LABELS.json [SET ...] [--text]

DATASET is a werealign dataset imported from the WereBench release (`werealign import werebench
../shared/werebench/dataset --out DATASET`); LABELS a labels file (werealign.game.claim_labels says its shape;
tests/data/claim_labels_werebench.json is one); SET the labelled sets to score, each on its own line and then all
together (none given: every set in the file). Each disagreement is listed (game, turn, seat: labelled -> read);
`--text` prints each missed turn's words too (on the terminal only: never copy them into the repository).
Exit 2 on a labels file that does not point at the dataset's turns.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from werealign.analysis.aggregate import wilson
from werealign.dataset import load_dataset
from werealign.game.claim_labels import LabelError, LabelScore, load_labels, score_labels


def _line(name: str, s: LabelScore) -> str:
    r = wilson(s.right, s.claims) or [0.0, 0.0]
    p = wilson(s.right, s.read) or [0.0, 0.0]
    return (f"{name}\tturns={s.turns}\tclaims={s.claims}\tread={s.read}\tright={s.right}\t"
            f"recall={100 * s.recall:.1f}% ({100 * r[0]:.1f}-{100 * r[1]:.1f})\t"
            f"precision={100 * s.precision:.1f}% ({100 * p[0]:.1f}-{100 * p[1]:.1f})")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("labels", type=Path)
    ap.add_argument("sets", nargs="*")
    ap.add_argument("--text", action="store_true", help="print each missed turn's words (terminal only)")
    args = ap.parse_args(argv)
    try:
        labels = load_labels(args.labels)
        sets = args.sets or sorted({row["set"] for row in labels})
        unknown = [s for s in sets if not any(row["set"] == s for row in labels)]
        if unknown:
            raise LabelError(f"{args.labels}: no label of set {', '.join(unknown)}")
        games = load_dataset(args.dataset).games
        scores = {name: score_labels(labels, games, [name]) for name in sets}
        total = score_labels(labels, games, sets) if len(sets) > 1 else None
    except LabelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, s in scores.items():
        print(_line(name, s))
    if total is not None:
        print(_line("+".join(sets), total))
    for name, s in scores.items():
        for m in s.misses:
            print(f"  miss {name} {m['game']} t{m['utterance']} s{m['seat']}: {m['label'] or 'none'} -> {m['read'] or 'none'}")
            if args.text:
                turn = next(u for u in games[m["game"]].utterances if u.index == m["utterance"])
                print(f"      {turn.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
