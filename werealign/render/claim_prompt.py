"""The prompt of the model claim reader (werealign.annotate.claim_model, issue 42): one table turn, the board's roles,
the labelling rules; the template is `claim_templates/claim_reader.v<N>.j2` beside this module.

The roles are the board's (werealign.game.claims.board_roles), each by its catalogue id and its display name in the
game's language (and in English beside it), so a role only the game declared is offered like any other. The rules are
those the hand labellers followed (tests/data/claim_labels_werebench.json "rules"). No earlier turn is shown: every
rule is decided within the turn (a restatement is still a claim; a quote, a denial or a hypothesis is read in the
turn's own words), and the speaker's seat is given, as a turn may open on it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import jinja2

from werealign.game.claims import board_roles
from werealign.render.generation import LANGUAGE_NAMES
from werealign.render.phrases import role_name, terms
from werealign.schema import GameLog, Utterance
from werealign.schema.roles import catalogue_for

TEMPLATE = "claim_reader.v1"  # bump (and add a file) when the wording changes: the cache keys on the messages


@cache
def _template() -> jinja2.Template:
    root = resources.files("werealign.render") / "claim_templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(root)), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=False, autoescape=False)
    return env.get_template(f"{TEMPLATE}.j2")


def board_choices(game: GameLog) -> list[dict[str, Any]]:
    """The roles a turn may claim, in catalogue order: id, name in the game's language, English name when different."""
    catalogue = catalogue_for(game.rules.declared_roles)
    out = []
    for role in board_roles(game):
        name = role_name(role, game.language, catalogue)
        english = role_name(role, "en", catalogue) if game.language != "en" else None
        out.append({"id": role, "name": name, "english": english if english not in (None, name) else None})
    return out


def claim_messages(game: GameLog, turn: Utterance) -> list[dict[str, str]]:
    """The chat messages asking whether `turn` claims a role for its speaker (one user message)."""
    text = _template().render(
        game_name=terms(game, "en")["game"], seat=turn.speaker, roles=board_choices(game),
        language=LANGUAGE_NAMES.get(game.language, game.language), text=turn.text,
    ).strip()
    return [{"role": "user", "content": text}]
