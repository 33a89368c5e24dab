"""Filters of a drafted item: what drops it (hard) and what the reviewer is told (soft).

Length and style matching is what keeps the key from being found from the options alone (the
imported release's key is the longest option in a quarter of its items). Matching every distractor
to the key's length is not enough: the key would then sit in the middle of its options, which an
options-only reader learns as well (the audit's classifier does). So each item draws, with its seed,
how many distractors are shorter than the key (0 to 8, uniformly: the key's length rank is uniform)
and a target length for each within LENGTH_BAND of the key's (`length_targets`); the prompts ask for
those lengths. A distractor outside the band, or not ending like the key (a sentence mark or none),
or repeating another option, is sent to the restyle stage once, asked again for the length first drawn
for it; an item still off afterwards is dropped. A model decoding under a JSON Schema is held to
`length_range` of each target and to the key's ending as it writes (replies.negatives_schema).
"""

from __future__ import annotations

import math
import random
from typing import Any

from werealign.generation.echoes import field_problems
from werealign.shortcuts.checks import duplicate_option_pairs, duplicate_pairs, explanation_favours
from werealign.shortcuts.text import text_length
from werealign.schema import Option, SpeechItem

__all__ = ["LENGTH_BAND", "ends_with_mark", "hard_failures", "length_range", "length_targets", "outliers", "repeats_an_option", "soft_flags",
           "text_length", "to_rewrite"]

LENGTH_BAND = 1.25  # a distractor's length / the key's must lie in [1/LENGTH_BAND, LENGTH_BAND]
_END_MARKS = ".。!！?？"


def length_targets(key_length: int, seed: str, n: int = 8) -> list[int]:
    """n distractor lengths around the key's: a uniform number of them shorter, the rest longer, in random order."""
    rng = random.Random(seed)
    shorter = rng.randrange(n + 1)
    low, high = 1 / LENGTH_BAND + 0.02, LENGTH_BAND - 0.02  # inside the band, so a target met is never filtered
    targets = [round(key_length * rng.uniform(low, 0.97)) for _ in range(shorter)] + [round(key_length * rng.uniform(1.03, high)) for _ in range(n - shorter)]
    rng.shuffle(targets)
    return [max(1, t) for t in targets]


def length_range(key_length: int, target: int) -> tuple[int, int]:
    """The lengths a schema-constrained model may write for a target: within 5% of it, inside the band,
    and on the target's side of the key (so the key's drawn length rank survives)."""
    low = max(math.ceil(key_length / LENGTH_BAND), round(target * 0.95))
    high = min(math.floor(key_length * LENGTH_BAND), round(target * 1.05))
    if target < key_length:
        high = min(high, key_length - 1)
    elif target > key_length:
        low = max(low, key_length + 1)
    return (low, high) if low <= high else (target, target)


def ends_with_mark(text: str) -> bool:
    return _ending(text) == "mark"


def _ending(text: str) -> str:
    """The form of an option's end: a sentence mark (any of them counts as one kind), or none."""
    stripped = text.rstrip()
    return "mark" if stripped and stripped[-1] in _END_MARKS else "none"


def outliers(options: list[Option], answer: str) -> list[str]:
    """Letters of distractors whose length or ending stands out from the key's."""
    key = next(o for o in options if o.key == answer)
    target = max(1, text_length(key.text))
    off = []
    for o in options:
        if o.key == answer:
            continue
        ratio = text_length(o.text) / target
        if not (1 / LENGTH_BAND <= ratio <= LENGTH_BAND) or _ending(o.text) != _ending(key.text):
            off.append(o.key)
    return off


def to_rewrite(options: list[Option], answer: str) -> list[str]:
    """Distractors the restyle stage rewrites: those that stand out from the key, and one of each pair of
    (near-)duplicate options (never the key) — a repeated distractor is cheaper to rewrite than the item
    is to lose, and small models repeat themselves."""
    off = set(outliers(options, answer))
    exact, near = duplicate_option_pairs(options)
    for a, b in exact + near:
        if b not in off and a not in off:
            off.add(b if b != answer else a)
    return sorted(off)


def repeats_an_option(text: str, kept: list[str]) -> bool:
    """`text` is an exact or near duplicate (duplicate_option_pairs) of one of `kept`, each pair read kept first: what
    duplicate_option_pairs finds among [*kept, text] when the options kept were checked as each was added (a
    generator adding options one at a time), at the cost of one pair per kept option instead of every pair again."""
    # model_construct: the check reads the two fields only, and validating thousands of throwaway options cost more
    new = Option.model_construct(key="B", text=text, origin="imported")
    return any(any(duplicate_option_pairs([Option.model_construct(key="A", text=k, origin="imported"), new])) for k in kept)


def hard_failures(item: SpeechItem) -> list[str]:
    reasons = []
    exact, near = duplicate_pairs(item)
    if exact or near:
        reasons.append("duplicate options " + ", ".join(f"{a}={b}" for a, b in exact + near))
    if off := outliers(item.options, item.answer):
        reasons.append(f"length/style: options {', '.join(off)} still stand out from the key after restyling")
    fields = {"question": item.question, "question_short": item.question_short,
              **{f"option {o.key}": o.text for o in item.options}}
    reasons += field_problems(fields)
    return reasons


def soft_flags(item: SpeechItem, votes: list[dict[str, Any]], judges: int) -> list[str]:
    flags = []
    if judges:
        for_key = sum(v["answer"] == item.answer for v in votes)
        if for_key * 2 <= judges:
            others = sorted({v["answer"] for v in votes if v["answer"] != item.answer})
            flags.append(f"judge: the key got {for_key} of {judges} answers (others chose {', '.join(others) or 'nothing usable'})")
        if any(not v["single_best"] for v in votes):
            flags.append("judge: an answer said no single option is best")
    if (other := explanation_favours(item)) is not None:
        flags.append(f"explanation: reads closer to option {other} than to the key")
    # Written after the item is drafted: the reviewer is told (and edits or rejects), the item is kept.
    flags += field_problems({"explanation": item.explanation, "rule_reminder": item.rule_reminder})
    return flags
