"""How the audit reads option and question text: normalised, measured and tokenised in any language."""

from __future__ import annotations

import re

# Option text as a reader compares it (width, case, spacing, invisible characters, end punctuation):
# the validator's definition of "the same option", so audit and validate agree on duplicates.
from werealign.text.norm import norm_text as normalise

_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
# A run of letters or digits stops at a CJK character: "11号是狼人" is "11" and five characters, not one word.
_TOKEN = re.compile(rf"{_CJK}|(?:(?!{_CJK})[^\W_])+")
_CJK_RE = re.compile(_CJK)

__all__ = ["normalise", "text_length", "tokens", "is_cjk", "mostly_cjk"]


def text_length(text: str) -> int:
    """Visible characters: language-neutral (a Chinese option has no words to count)."""
    return len(re.sub(r"\s+", "", normalise(text)))


def tokens(text: str) -> list[str]:
    """Words, with every CJK character its own token (those scripts do not separate words)."""
    return _TOKEN.findall(normalise(text))


def is_cjk(token: str) -> bool:
    return _CJK_RE.fullmatch(token) is not None


def mostly_cjk(texts: list[str]) -> bool:
    """True when most tokens of `texts` are CJK characters: n-grams are then read in characters,
    else in words. Detected from the text, so no language code has to be right."""
    toks = [t for text in texts for t in tokens(text)]
    return bool(toks) and sum(map(is_cjk, toks)) * 2 > len(toks)
