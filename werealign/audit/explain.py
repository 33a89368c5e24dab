"""Naming the artifact: the n-grams that most separate keys from distractors, with their weights.

Character n-grams where the options are mostly CJK (no spaces between words), word n-grams
otherwise: detected from the text, never from a language code. A positive weight marks wording
typical of keys, a negative one wording typical of distractors; `key_share` and
`distractor_share` say in how many keys / distractors the n-gram occurs, so a reader can see it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from werealign.shortcuts.text import mostly_cjk, tokens
from werealign.schema import SpeechItem

TOP = 8  # n-grams named per side
MIN_OPTIONS = 3  # an n-gram in fewer options is an anecdote, not a style


def _analyzer(cjk: bool):
    return functools.partial(_grams, cjk=cjk)


@functools.lru_cache(maxsize=16384)
def _grams(text: str, cjk: bool) -> tuple[str, ...]:
    # cached: every scope is counted in one pass over distinct texts (separating_ngrams_by_scope), so the cache serves a
    # later audit of the same options in one process (a test session, a notebook)
    lo, hi = (1, 3) if cjk else (1, 2)
    joiner = "" if cjk else " "
    toks = tokens(text)
    return tuple(joiner.join(toks[i : i + n]) for n in range(lo, hi + 1) for i in range(len(toks) - n + 1))


def separating_ngrams(items: Sequence[SpeechItem], top: int = TOP) -> list[dict[str, Any]]:
    """The `top` n-grams with the largest positive (key) and negative (distractor) weights of a
    logistic regression on n-gram presence, fitted on every option of `items`."""
    return separating_ngrams_by_scope([("", list(items))], top)[""]


def separating_ngrams_by_scope(scopes: Sequence[tuple[str, Sequence[SpeechItem]]], top: int = TOP) -> dict[str, list[dict[str, Any]]]:
    """separating_ngrams of each scope's items, the same numbers: the options' n-grams are counted once over every
    scope (per script), and a scope's matrix is its rows of that count with the columns its own MIN_OPTIONS keep
    (the columns a vectoriser fitted on the scope alone would have, in the same order)."""
    import numpy as np
    from sklearn.feature_extraction.text import CountVectorizer

    texts = {scope: [o.text for it in items for o in it.options] for scope, items in scopes}
    cjk = {scope: mostly_cjk(t) for scope, t in texts.items()}
    counted: dict[bool, tuple[Any, Any, dict[str, int]]] = {}  # script -> (presence matrix, n-gram names, text -> row)
    out: dict[str, list[dict[str, Any]]] = {}
    for scope, items in scopes:
        labels = [int(o.key == it.answer) for it in items for o in it.options]
        if len(set(labels)) < 2:
            out[scope] = []
            continue
        if cjk[scope] not in counted:
            every = list(dict.fromkeys(t for scope_, t_ in texts.items() if cjk[scope_] == cjk[scope] for t in t_))
            try:
                vec = CountVectorizer(analyzer=_analyzer(cjk[scope]), binary=True)
                counted[cjk[scope]] = (vec.fit_transform(every).tocsr(), vec.get_feature_names_out(), {t: i for i, t in enumerate(every)})
            except ValueError:  # no n-gram at all
                counted[cjk[scope]] = (None, None, {})
        whole, names, row_of = counted[cjk[scope]]
        if whole is None:
            out[scope] = []
            continue
        rows = whole[[row_of[t] for t in texts[scope]]]
        kept = np.flatnonzero(rows.getnnz(axis=0) >= MIN_OPTIONS)
        if not len(kept):  # no n-gram in MIN_OPTIONS options
            out[scope] = []
            continue
        out[scope] = _fitted(rows[:, kept], names[kept], labels, top)
    return out


def _fitted(X, names, labels: list[int], top: int) -> list[dict[str, Any]]:
    from sklearn.linear_model import LogisticRegression

    # class_weight: nine options per item, one key; balanced weights keep key-side n-grams visible.
    model = LogisticRegression(C=1.0, max_iter=2000, solver="liblinear", class_weight="balanced").fit(X, labels)
    weights = model.coef_[0]
    keys = X[[i for i, lab in enumerate(labels) if lab]].getnnz(axis=0) / max(1, sum(labels))
    others = X[[i for i, lab in enumerate(labels) if not lab]].getnnz(axis=0) / max(1, len(labels) - sum(labels))
    # Ties broken by the n-gram itself: the same items always name the same n-grams.
    order = sorted(range(len(names)), key=lambda i: (-weights[i], names[i]))
    picked = [i for i in order[:top] if weights[i] > 0] + [i for i in reversed(order[-top:]) if weights[i] < 0]
    return [{"ngram": str(names[i]), "weight": round(float(weights[i]), 3), "side": "key" if weights[i] > 0 else "distractor",
             "key_share": round(float(keys[i]), 3), "distractor_share": round(float(others[i]), 3)} for i in picked]
