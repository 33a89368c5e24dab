"""Attacks on speech items that read which seats the game talks about, fixed before any result was seen
(issue 32: an attack the minimal-pair and human-voiced generators were not tuned against).

    python bench/seat_talk.py DATASET_DIR [DATASET_DIR ...]     # from the checkout's root

Per item, the shown transcript (werealign.shortcuts.context.shown_at: what the prompt shows) gives each
seat a count of mentions in every seat form. Each option scores the sum of the counts of the distinct
seats it names, other than the viewpoint's:
- `seat-talk-most`: picks the option whose seats the table talked about most (ties split evenly);
- `seat-talk-least`: the fewest.
Nothing is fitted: no direction, weight or threshold was chosen on data. Also printed: the dead-seat
share (items where exactly one option names a seat out or absent; how often it is the key) with its
binomial p against 1/9.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign


def measure(root: Path) -> dict[str, object]:
    from werealign.shortcuts.context import dead_seat_rate, features, shown_at
    from werealign.shortcuts.verdicts import binom_p
    from werealign.shortcuts.seats import mentions
    from werealign.dataset import load_dataset

    ds = load_dataset(root)
    items = ds.speech
    hits = {"seat-talk-most": 0.0, "seat-talk-least": 0.0}
    for it in items:
        talk = Counter(m.seat for m in mentions(shown_at(ds.games.get(it.game_id), it).transcript))
        scores = [sum(talk[s] for s in {m.seat for m in mentions(o.text)} - {it.viewpoint_seat}) for o in it.options]
        for name, sign in (("seat-talk-most", 1), ("seat-talk-least", -1)):
            top = [o for o, s in zip(it.options, scores) if s * sign == max(x * sign for x in scores)]
            hits[name] += sum(o.key == it.answer for o in top) / len(top)
    share, chance, lone = dead_seat_rate(items, features(items, ds.games))
    n = len(items)
    return {"dataset": root.name if root.name != "dataset" else root.parent.name, "items": n,
            **{k: round(v / n, 4) for k, v in hits.items()},
            "dead_seat": {"lone_items": lone, "key_share": round(share, 4), "chance": round(chance, 4),
                          "binomial_p": round(binom_p(share * lone, lone, chance), 4) if lone else None}}


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps(measure(Path(arg)), ensure_ascii=False))
