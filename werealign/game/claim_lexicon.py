"""Per-language claim wording as data (werealign/game/claim_lexicon.json): what werealign.game.claims reads a claim
in a language without its own hand-written rules through. English today: "I am a bystander", "im bystander", "my
role is cop" are claims; "im not mafia" (a denial), "if I were the cop", "Im innocent" (a side, not a card) are not.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

LEXICON_FILE = Path(__file__).with_name("claim_lexicon.json")


@lru_cache(maxsize=1)
def lexicon() -> dict[str, dict[str, list[str]]]:
    data = json.loads(LEXICON_FILE.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def _alt(words: list[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


def claim_opening(language: str = "en") -> str:
    """The pattern before a role name: first person, fillers, an article (to be followed by the role group)."""
    w = lexicon()[language]
    fillers = "|".join(re.escape(f) for f in w["filler"])
    articles = "|".join(re.escape(a) for a in w["article"])
    return rf"(?i:(?<![\w'’])(?:{_alt(w['first_person'])})(?:\s+(?:{fillers}))?\s+(?:(?:{articles})\s+)?)"


def role_end(language: str = "en") -> str:
    """What must not follow a role name for it to be the speaker's own card."""
    w = lexicon()[language]
    return rf"(?!\w)(?!{_alt([re.escape(a) for a in w['after_not']])})(?!\s*\?)"


def not_before(language: str = "en") -> re.Pattern[str]:
    """Words shortly before a claim that make it none."""
    w = lexicon()[language]
    return re.compile(rf"(?i)\b(?:{_alt([re.escape(x) for x in w['not_before']])})\b")


def taken_back(language: str = "en") -> str:
    """A joke right after a claim that takes it back (matched at the start of the text that follows the claim)."""
    w = lexicon()[language]
    return rf"(?i)^\W{{0,3}}(?:{_alt([re.escape(x) for x in w.get('taken_back', [])]) or '(?!)'})\b"


def side_words() -> frozenset[str]:
    """Role synonyms in any language of the lexicon that name a side, not a card: never a claim."""
    return frozenset(w.lower() for lang in lexicon().values() for w in lang.get("side_words", []))
