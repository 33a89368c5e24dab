"""Filters of a drafted item: what drops it (hard) and what the reviewer is told (soft).

Length and style matching is what keeps the key from being found from the options alone (the
imported release's key is the longest option in a quarter of its items): every distractor must
be within LENGTH_BAND of the key's length and end like the key, and the key may not be the longest
or the shortest option by itself. Distractors that break the first two rules are sent to the
restyle stage once; an item still off afterwards is dropped. The price of the third rule is that a
generated key is never the unique extreme (the audit's key-longest rate then sits below chance,
which no options-only reader can exploit beyond ruling out the two extremes).
"""

from __future__ import annotations

from typing import Any

from werealign.audit import duplicate_pairs, explanation_favours, text_length
from werealign.schema import Option, SpeechItem

__all__ = ["LENGTH_BAND", "hard_failures", "outliers", "soft_flags", "text_length"]

LENGTH_BAND = 1.25  # a distractor's length / the key's must lie in [1/LENGTH_BAND, LENGTH_BAND]
_END_MARKS = ".。!！?？"


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


def key_extreme(options: list[Option], answer: str) -> str | None:
    lengths = {o.key: text_length(o.text) for o in options}
    others = [n for k, n in lengths.items() if k != answer]
    if lengths[answer] > max(others):
        return "longest"
    if lengths[answer] < min(others):
        return "shortest"
    return None


def hard_failures(item: SpeechItem) -> list[str]:
    reasons = []
    exact, near = duplicate_pairs(item)
    if exact or near:
        reasons.append("duplicate options " + ", ".join(f"{a}={b}" for a, b in exact + near))
    if off := outliers(item.options, item.answer):
        reasons.append(f"length/style: options {', '.join(off)} still stand out from the key after restyling")
    if extreme := key_extreme(item.options, item.answer):
        reasons.append(f"length: the key is the {extreme} option")
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
    return flags
