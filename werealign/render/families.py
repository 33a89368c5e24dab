"""A game's family and its words (issue 45): Werewolf, Mafia, ... as werealign/render/families.json lists them.

A prompt for a Mafia game says "Mafia", "the mafia", "mafioso", "the town", never "Werewolf": every template and
sentence that names the game, a side or the night kill takes its word from `terms(game, language)`. A board names
its family (`rules.family`), else it is read from its roles (a board with a mafia role is a Mafia game), and may
change any word (`rules.terms`). An unknown family speaks Werewolf's words overlaid by its own terms.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from werealign.render.phrases import phrase_language

FAMILIES_FILE = Path(__file__).with_name("families.json")
DEFAULT_FAMILY = "werewolf"


@lru_cache(maxsize=1)
def families() -> dict[str, Any]:
    data = json.loads(FAMILIES_FILE.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def family_of(game: Any) -> str:
    """The game's family: `rules.family`, else the first family (besides Werewolf) one of whose roles is on the board."""
    if game.rules.family:
        return game.rules.family
    roles = {s.role for s in game.seats} | {c.role for c in game.rules.composition}
    return next((name for name, f in families().items() if roles & set(f["roles"])), DEFAULT_FAMILY)


def terms(game: Any, language: str) -> dict[str, str]:
    """The words of the game's family in the prompt's language (English where the table has none), the board's own over them."""
    fam = families().get(family_of(game), families()[DEFAULT_FAMILY])
    lang = phrase_language(language)
    return {**families()[DEFAULT_FAMILY][lang], **fam.get(lang, fam["en"]), **game.rules.terms}


def side_name(faction: str, language: str, words: dict[str, str] | None) -> str | None:
    """The family's name of a side ('the mafia', 'the town'), or None: the faction table's (werealign.render.phrases)."""
    if words is None:
        return None
    return {"wolf": words.get("evil_side"), "good": words.get("good_side")}.get(faction)
