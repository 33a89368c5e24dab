"""Build human-voiced items on a dataset and measure them: time, peak memory, the audit, and two
attacks the generator was not built against.

    python bench/human_items.py DATASET_DIR OUT_DIR [SEED]     # from the checkout's root

Attacks (both see only the nine options, trained on other games):
- `centroid`: the option with the highest mean character TF-IDF cosine to the other eight (hard
  negatives are chosen by similarity to the key, so the key could sit at the centre);
- `char-ngram`: logistic regression on character 1-3-gram TF-IDF of each option, 5 folds of whole
  games (the audit's classifier uses hashed words and length features instead);
- `recurrence`: the option whose opening (digits removed) recurs most across the dataset's options
  (a turn can serve several items; the key's turn must not stand out by recurring more).
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign


def centroid_rate(items) -> float:
    from werealign.text.similarity import tfidf_cosines

    hits = 0
    for it in items:
        texts = [o.text for o in it.options]
        mean = [sum(tfidf_cosines(t, [u for j, u in enumerate(texts) if j != i])) for i, t in enumerate(texts)]
        hits += it.options[max(range(9), key=lambda i: (mean[i], -i))].key == it.answer
    return hits / len(items)


def char_ngram_rate(items) -> float:
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    texts = [o.text for it in items for o in it.options]
    y = np.asarray([int(o.key == it.answer) for it in items for o in it.options])
    item_of = np.repeat(np.arange(len(items)), 9)
    games = sorted({it.game_id for it in items})
    game_of = np.asarray([games.index(items[i].game_id) for i in item_of])
    hits = 0
    for train, test in GroupKFold(n_splits=5).split(texts, y, game_of):
        vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True).fit([texts[i] for i in train])
        model = LogisticRegression(max_iter=2000, class_weight="balanced").fit(vec.transform([texts[i] for i in train]), y[train])
        scores = model.decision_function(vec.transform([texts[i] for i in test]))
        for g in np.unique(item_of[test]):
            rows = np.flatnonzero(item_of[test] == g)
            hits += int(y[test][rows[int(np.argmax(scores[rows]))]] == 1)
    return hits / len(items)


def recurrence_rate(items) -> float:
    import re
    from collections import Counter

    def stem(text: str) -> str:
        return re.sub(r"\d", "", text)[:8]

    seen = Counter(stem(o.text) for it in items for o in it.options)
    return sum(it.options[max(range(9), key=lambda i: (seen[stem(it.options[i].text)], -i))].key == it.answer for it in items) / len(items)


def main() -> None:
    import sklearn  # noqa: F401 - imported first, so its import is not timed

    from werealign.audit import audit_items
    from werealign.dataset import load_dataset
    from werealign.generation.human import HumanConfig, run_human

    dataset, out = Path(sys.argv[1]), Path(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    start = time.perf_counter()
    outcome = run_human(HumanConfig(dataset=str(dataset), seed=seed), out)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ds = load_dataset(out / "dataset")
    items = ds.speech
    report = audit_items(ds)
    checks = {c.name: c.value for c in report.checks if c.scope == "all"}
    own_game = sum(str(v).startswith(f"{it.game_id}#") for it in items for k, v in it.provenance.source_ref.items() if k.startswith("option_"))
    print(f"items {len(items)}, moments dropped {len(outcome.dropped)}; build {seconds:.1f} s, peak RSS {peak_mb:.0f} MB")
    print(f"audit: verdict {report.verdict if hasattr(report, 'verdict') else '?'}; options-only {checks.get('options-only')}, "
          f"key-longest {checks.get('key-longest')}, key-shortest {checks.get('key-shortest')}")
    print(f"independent attacks: centroid {centroid_rate(items):.3f}, char-ngram {char_ngram_rate(items):.3f}, "
          f"recurrence {recurrence_rate(items):.3f} (chance 0.111)")
    print(f"distractors from the item's own game: {own_game}")


if __name__ == "__main__":
    main()
