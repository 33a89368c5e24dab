"""Why the filtered split is as small as it is: per filter, how many speech items it removes, and what a
looser threshold would keep and let through (issue 32).

    python bench/filtered_split.py DATASET_DIR     # from the checkout's root

The same inputs as `werealign audit --filtered-out`: the audit's leak and hidden-role flags, the
filter's options-only attacks (werealign.shortcuts.filtering.ATTACKS, scored release-wide with games held
out) and the learned context attack's probability of each key. Printed (JSON):
- `removed_by`: items each filter removes on its own (an item can fall to several), and `survive_all`;
- `sweep`: per threshold, the items no filter reaches (release-wide scorings only: an upper bound on
  what `adversarial_filter` keeps, which also refits on the shrinking pool) and the top-1 accuracy on
  them of the attacks the filter never uses (word 1-2-grams by logistic regression and naive Bayes,
  every context attack), so whether any threshold gives 100 items under the 20% bound is measured.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign

THRESHOLDS = (0.15, 0.2, 0.25, 0.3, 0.4, 0.5)


def measure(root: Path, seed: int = 0) -> dict[str, object]:
    from werealign.audit import audit_items
    from werealign.shortcuts.attacks import cross_fitted_probs, top1_hits
    from werealign.shortcuts.context import context_attacks
    from werealign.shortcuts.filtering import ATTACKS, INDEPENDENT, PARTITIONS, predictability
    from werealign.dataset import load_dataset

    ds = load_dataset(root)
    items = ds.speech
    report = audit_items(ds)
    scores = report.item_scores
    leaking = {it.item_id for it in items if it.game_id not in ds.games or scores[it.item_id]["leaks"]}
    by_attack = {f"{f}-{lrn}": predictability(items, [(f, lrn)], PARTITIONS, seed) for f, lrn in ATTACKS}
    by_attack["context-learned"] = [scores[it.item_id]["context_score"] for it in items]
    clean = [i for i, it in enumerate(items) if it.item_id not in leaking]
    threshold = 0.15
    removed_by = {name: sum(p[i] >= threshold for i in clean) for name, p in by_attack.items()}
    options_only = [n for n in by_attack if n != "context-learned"]
    removed_by["any options-only"] = sum(any(by_attack[n][i] >= threshold for n in options_only) for i in clean)
    best = [max(p[i] for p in by_attack.values()) for i in range(len(items))]
    independent = {f"{f}-{lrn}": top1_hits(items, cross_fitted_probs(items, f, learner=lrn)) for f, lrn in INDEPENDENT}
    ctx = context_attacks(items, ds.games)
    independent |= {f"context-{a}": ctx.hits(items, a) for a in ctx.probs}
    sweep = []
    for t in THRESHOLDS:
        kept = [i for i in clean if best[i] < t]
        acc = {n: round(sum(h[i] for i in kept) / len(kept), 4) for n, h in independent.items()} if kept else {}
        sweep.append({"threshold": t, "kept": len(kept), "strongest": max(acc.items(), key=lambda kv: kv[1]) if acc else None,
                      "words": {n: a for n, a in acc.items() if n.startswith("words")}})
    return {"items": len(items), "leaking_or_unchecked": len(leaking), "not_leaking": len(clean), "threshold": threshold,
            "removed_by": removed_by, "survive_all": sum(best[i] < threshold for i in clean), "sweep": sweep}


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1])), ensure_ascii=False, indent=1))
