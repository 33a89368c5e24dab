"""The claim reader (werealign.game.claims) against hand labels: recall, precision and the misses, per set.

    python scripts/claim_labels.py DATASET LABELS.json [SET ...] [--text] [--limit N]
    python scripts/claim_labels.py DATASET LABELS.json [SET ...] --model MODEL [--api-base URL] [--concurrency K] [--dry-run]

DATASET is a werealign dataset imported from the WereBench release (`werealign import werebench
../shared/werebench/dataset --out DATASET`); LABELS a labels file (werealign.game.claim_labels says its shape;
tests/data/claim_labels_werebench.json is one); SET the labelled sets to score, each on its own line and then all
together (none given: every set in the file). Each disagreement is listed (game, turn, seat: labelled -> read);
`--text` prints each missed turn's words too (on the terminal only: never copy them into the repository).
Exit 2 on a labels file that does not point at the dataset's turns.

`--model`: the model reader (werealign.annotate.claim_model) is scored instead, on the same lines, plus the count of
unreadable replies (each listed with its reason; read as no claim). Replies come from the shared response cache when
it has them. `--dry-run`: the number of calls and an estimate of prompt tokens, nothing sent. `--limit N`: the first N
labels of the sets given, in the file's order.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from werealign.analysis.aggregate import wilson
from werealign.annotate.claim_model import MAX_TOKENS, ModelReads, estimate, read_claims
from werealign.dataset import load_dataset
from werealign.errors import UserError
from werealign.game.claim_labels import LabelError, LabelScore, labelled_turns, load_labels, rule_reader, score_labels
from werealign.llm.connect import Acompletion
from werealign.llm.credentials import check_credentials


def _line(name: str, s: LabelScore) -> str:
    r = wilson(s.right, s.claims) or [0.0, 0.0]
    p = wilson(s.right, s.read) or [0.0, 0.0]
    return (f"{name}\tturns={s.turns}\tclaims={s.claims}\tread={s.read}\tright={s.right}\t"
            f"recall={100 * s.recall:.1f}% ({100 * r[0]:.1f}-{100 * r[1]:.1f})\t"
            f"precision={100 * s.precision:.1f}% ({100 * p[0]:.1f}-{100 * p[1]:.1f})")


def _unreadable(name: str, model: ModelReads) -> None:
    print(f"model {name}: unreadable={len(model.unreadable)} of {len(model.reads)} turns (read as no claim)\t"
          f"sent={model.sent}\tcached={model.cached}")
    for u in model.unreadable:
        print(f"  unreadable {u['game']} t{u['utterance']}: {u['reason']}")


def main(argv: list[str], acompletion: Acompletion | None = None) -> int:
    """`acompletion` replaces litellm's (tests' fake providers)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("labels", type=Path)
    ap.add_argument("sets", nargs="*")
    ap.add_argument("--text", action="store_true", help="print each missed turn's words (terminal only)")
    ap.add_argument("--limit", type=int, help="only the first N labels of the sets, in the file's order")
    ap.add_argument("--model", help="score a language model as the reader (litellm's model string)")
    ap.add_argument("--api-base", help="the model's endpoint (an OpenAI-compatible server)")
    ap.add_argument("--concurrency", type=int, default=4, help="requests in flight at once (default 4)")
    ap.add_argument("--max-tokens", type=int, default=MAX_TOKENS,
                    help=f"reply tokens per call (default {MAX_TOKENS}; more for a model that reasons first)")
    ap.add_argument("--dry-run", action="store_true", help="print the calls and an estimate of tokens; send nothing")
    args = ap.parse_args(argv)
    if args.limit is not None and args.limit < 1 or args.concurrency < 1 or args.max_tokens < 1:
        ap.error("--limit, --concurrency and --max-tokens take a positive number")
    model = None
    try:
        labels = load_labels(args.labels)
        sets = args.sets or sorted({row["set"] for row in labels})
        unknown = [s for s in sets if not any(row["set"] == s for row in labels)]
        if unknown:
            raise LabelError(f"{args.labels}: no label of set {', '.join(unknown)}")
        labels = [row for row in labels if row["set"] in sets][: args.limit]
        games = load_dataset(args.dataset).games
        turns = {(g.game_id, t.index): (g, t) for _, g, t in labelled_turns(labels, games)}  # checked before any call
        if args.dry_run:
            calls, tokens = estimate(turns.values())
            print(f"dry run: {calls} calls, ~{tokens} prompt tokens (one per CJK character, word or symbol), at most "
                  f"{calls * args.max_tokens} reply tokens; nothing sent")
            return 0
        read = rule_reader
        if args.model:
            check_credentials(args.model, args.api_base)
            model = read_claims(list(turns.values()), args.model, api_base=args.api_base,
                                concurrency=args.concurrency, max_tokens=args.max_tokens, acompletion=acompletion)
            read = lambda game, turn: model.reads[(game.game_id, turn.index)]  # noqa: E731
        scores = {name: score_labels(labels, games, [name], read) for name in sets}
        total = score_labels(labels, games, sets, read) if len(sets) > 1 else None
    except (LabelError, UserError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, s in scores.items():
        print(_line(name, s))
    if total is not None:
        print(_line("+".join(sets), total))
    if model is not None:
        _unreadable(args.model, model)
    for name, s in scores.items():
        for m in s.misses:
            print(f"  miss {name} {m['game']} t{m['utterance']} s{m['seat']}: {m['label'] or 'none'} -> {m['read'] or 'none'}")
            if args.text:
                turn = next(u for u in games[m["game"]].utterances if u.index == m["utterance"])
                print(f"      {turn.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
