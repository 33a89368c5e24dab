"""Naming the artifact: the n-grams that most separate keys from distractors, with their weights.

Character n-grams where the options are mostly CJK (no spaces between words), word n-grams
otherwise: detected from the text, never from a language code. A positive weight marks wording
typical of keys, a negative one wording typical of distractors; `key_share` and
`distractor_share` say in how many keys / distractors the n-gram occurs, so a reader can see it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from werealign.shortcuts.text import mostly_cjk, tokens
from werealign.schema import SpeechItem

TOP = 8  # n-grams named per side
MIN_OPTIONS = 3  # an n-gram in fewer options is an anecdote, not a style


def _analyzer(cjk: bool):
    lo, hi = (1, 3) if cjk else (1, 2)
    joiner = "" if cjk else " "

    def grams(text: str) -> list[str]:
        toks = tokens(text)
        return [joiner.join(toks[i : i + n]) for n in range(lo, hi + 1) for i in range(len(toks) - n + 1)]

    return grams


def separating_ngrams(items: Sequence[SpeechItem], top: int = TOP) -> list[dict[str, Any]]:
    """The `top` n-grams with the largest positive (key) and negative (distractor) weights of a
    logistic regression on n-gram presence, fitted on every option of `items`."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    texts = [o.text for it in items for o in it.options]
    labels = [int(o.key == it.answer) for it in items for o in it.options]
    if len(set(labels)) < 2:
        return []
    try:
        vec = CountVectorizer(analyzer=_analyzer(mostly_cjk(texts)), binary=True, min_df=MIN_OPTIONS)
        X = vec.fit_transform(texts)
    except ValueError:  # no n-gram in MIN_OPTIONS options
        return []
    # class_weight: nine options per item, one key; balanced weights keep key-side n-grams visible.
    model = LogisticRegression(C=1.0, max_iter=2000, solver="liblinear", class_weight="balanced").fit(X, labels)
    weights = model.coef_[0]
    names = vec.get_feature_names_out()
    keys = X[[i for i, lab in enumerate(labels) if lab]].getnnz(axis=0) / max(1, sum(labels))
    others = X[[i for i, lab in enumerate(labels) if not lab]].getnnz(axis=0) / max(1, len(labels) - sum(labels))
    # Ties broken by the n-gram itself: the same items always name the same n-grams.
    order = sorted(range(len(names)), key=lambda i: (-weights[i], names[i]))
    picked = [i for i in order[:top] if weights[i] > 0] + [i for i in reversed(order[-top:]) if weights[i] < 0]
    return [{"ngram": str(names[i]), "weight": round(float(weights[i]), 3), "side": "key" if weights[i] > 0 else "distractor",
             "key_share": round(float(keys[i]), 3), "distractor_share": round(float(others[i]), 3)} for i in picked]
