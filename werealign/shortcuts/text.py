"""How the audit reads option and question text: normalised, measured and tokenised in any language."""

from __future__ import annotations

import functools
import re

# Option text as a reader compares it (width, case, spacing, invisible characters, end punctuation):
# the validator's definition of "the same option", so audit and validate agree on duplicates.
from werealign.text.norm import norm_text as normalise

_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
# A run of letters or digits stops at a CJK character: "11号是狼人" is "11" and five characters, not one word.
_TOKEN = re.compile(rf"{_CJK}|(?:(?!{_CJK})[^\W_])+")
_CJK_RE = re.compile(_CJK)

__all__ = ["normalise", "text_length", "tokens", "is_cjk", "mostly_cjk", "roles_named"]


def text_length(text: str) -> int:
    """Visible characters: language-neutral (a Chinese option has no words to count)."""
    return len(re.sub(r"\s+", "", normalise(text)))


def tokens(text: str) -> list[str]:
    """Words, with every CJK character its own token (those scripts do not separate words)."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=16384)
def _tokens(text: str) -> tuple[str, ...]:
    # cached: the audit reads each option's tokens in several checks (its n-grams per scope, the scope's script, the
    # words attack, the leak runs)
    return tuple(_TOKEN.findall(normalise(text)))


@functools.lru_cache(maxsize=65536)  # a token is a word or one CJK character: a few thousand distinct ones per dataset
def is_cjk(token: str) -> bool:
    return _CJK_RE.fullmatch(token) is not None


def mostly_cjk(texts: list[str]) -> bool:
    """True when most tokens of `texts` are CJK characters: n-grams are then read in characters,
    else in words. Detected from the text, so no language code has to be right."""
    toks = [t for text in texts for t in _tokens(text)]
    return bool(toks) and sum(map(is_cjk, toks)) * 2 > len(toks)


def _role_words() -> list[tuple[str, str]]:
    from werealign.schema.roles import ROLE_LABELS

    # one-letter ASCII labels would match inside any word
    return sorted(((label.casefold(), role) for label, role in ROLE_LABELS.items() if len(label) > 1 or not label.isascii()),
                  key=lambda lr: -len(lr[0]))


_ROLE_WORDS: list[tuple[str, str]] = []


@functools.lru_cache(maxsize=65536)  # the same spans are read again and again (each grid cell, each statistic, each audit)
def roles_named(text: str) -> frozenset[str]:
    """The catalogue roles a text names (any language's label): the stance a span takes, e.g. a claim.
    A label in a script with spaces is a whole word ("cop" is not in "copper")."""
    if not _ROLE_WORDS:
        _ROLE_WORDS.extend(_role_words())
    folded = text.casefold()
    return frozenset(role for label, role in _ROLE_WORDS
                     if label in folded and (not label.isascii() or re.search(rf"\b{re.escape(label)}\b", folded)))
