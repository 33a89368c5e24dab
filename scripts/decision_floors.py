"""Per decision kind: items, the key's class, chance, every floor (the rules, the majority class, the learned
shallow floor) and the best, on a derived dataset: `python scripts/decision_floors.py DATASET`.

The floors are the ones results.json reports for each kind (werealign.tasks: each kind's `truth_floors`), computed
on the dataset's items and their base prompts, with no model.
"""

from __future__ import annotations

import sys
from pathlib import Path

from werealign.dataset import load_dataset
from werealign.tasks import TASKS


def main(argv: list[str]) -> None:
    ds = load_dataset(Path(argv[0]))
    for name, task in TASKS.items():
        items = ds.items_of(name)
        if not items or task.scorer.macro_group != "decisions":
            continue
        asked = [(ds.games[it.game_id], it) for it in items if it.game_id in ds.games]
        floors = task.scorer.truth_floors(asked, task.scorer.metric)
        chance = sum(task.scorer.chance(it, task.scorer.metric, g)[0] for g, it in asked) / len(asked)
        none = sum(it.answer is None for _, it in asked) / len(asked)
        known = {k: v for k, v in floors.items() if v is not None}
        best = max(known, key=known.get) if known else None
        cells = " ".join(f"{k}={v * 100:.1f}" for k, v in floors.items() if v is not None)
        print(f"{name}\titems={len(asked)}\tgames={len({g.game_id for g, _ in asked})}\tkey_none={none * 100:.1f}\tchance={chance * 100:.1f}\t"
              f"best={best}:{known[best] * 100:.1f}\t{cells}" if best else f"{name}\titems={len(asked)}")


if __name__ == "__main__":
    main(sys.argv[1:])
