"""`werealign audit`: artifact checks of a dataset's speech items, per dimension, each with a verdict;
the wording that gives keys away; each item's artifact score; leaks; an adversarially filtered split.

A nine-way item measures strategy only if the key cannot be found without the game. Each check
looks for one way it can be found anyway, or one way the item is broken, and gives a verdict:

| check | what it measures | pass / warn / fail |
| --- | --- | --- |
| `key-position` | chi-square of the answer letters against uniform | p >= .05 / p < .05 / p < .01 |
| `key-longest`, `key-shortest` | share of items whose key is the longest (shortest) option, ties shared, vs 1/9 | see `verdicts.rate_verdict` |
| `options-only` | a logistic-regression classifier that sees only the nine options (length, style, words), cross-fitted with whole games held out | see `verdicts.rate_verdict` |
| `context` | the best context attack (werealign.shortcuts.context: dead seats named, overlap with the transcript, its last turns and the viewpoint's own words, transcription style, clause structure, length, and a learned combination), cross-fitted with whole games held out | see `verdicts.rate_verdict` |
| `dead-seat` | among items where exactly one option names a seat out (or absent) at the cut-off, the share where it is the key | see `verdicts.rate_verdict` |
| `duplicate-options` | items with two options the same after normalisation, or near-identical | none / near-duplicates / exact duplicates |
| `explanation-key` | items whose explanation overlaps another option clearly more than the key | < 25% / >= 25% / >= 50% of items with an explanation |
| `stem-leak` | items that tell what the viewpoint cannot know at the cut-off (stem, option labels, a decision already shown), or copy hidden text | none / any / >= 5% of items |

The checks, attacks, leaks and the adversarial filter live below the audit, in werealign.shortcuts, because the
tasks' floors, the dataset layer and generation use them too; the audit only consumes items. Its own modules:
`core` (`audit_items`: every check over a dataset), `report` (the checks with their verdicts), `explain` (the
separating n-grams), `render` (text). The filtered split is written by werealign.dataset.filtered.

The audit never calls a model and is deterministic: the same dataset gives the same report.
"""

from werealign.shortcuts.attacks import cross_fitted_probs, option_features, options_only_accuracy
from werealign.shortcuts.checks import (
    EXPLANATION_MARGIN,
    NEAR_DUPLICATE,
    duplicate_option_pairs,
    duplicate_pairs,
    explanation_favours,
    key_longest_rate,
)
from werealign.audit.core import audit_items, check_leaks
from werealign.audit.explain import separating_ngrams, separating_ngrams_by_scope
from werealign.shortcuts.filtering import adversarial_filter
from werealign.shortcuts.leaks import LEAK_NGRAM, hidden_text_index, item_leaks, leak_grams, stem_leaks
from werealign.audit.render import render_text
from werealign.audit.report import AuditReport
from werealign.shortcuts.text import normalise, text_length, tokens
from werealign.shortcuts.verdicts import CHANCE, MIN_ITEMS, VERDICTS, Check

__all__ = [
    "CHANCE", "EXPLANATION_MARGIN", "LEAK_NGRAM", "MIN_ITEMS", "NEAR_DUPLICATE", "VERDICTS", "AuditReport", "Check",
    "adversarial_filter", "audit_items", "check_leaks", "cross_fitted_probs", "duplicate_option_pairs", "duplicate_pairs",
    "explanation_favours", "hidden_text_index", "item_leaks", "key_longest_rate", "leak_grams", "normalise",
    "option_features", "options_only_accuracy", "render_text", "separating_ngrams", "separating_ngrams_by_scope", "stem_leaks", "text_length", "tokens",
]
