"""What generation asks about: the dimensions' goals and the annotators' example-question bank. The prompts
themselves (templates, the game context as text) are worded in werealign.render.generation."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from werealign.render.generation import (  # noqa: F401 - the wording, re-exported for generation's stages
    LANGUAGE_NAMES,
    TEMPLATES,
    context_text,
    prompt_version,
    render,
    repair_message,
)
from werealign.render.lines import seat_label
from werealign.render.phrases import families, family_of
from werealign.schema import GameLog
from werealign.schema.models import DIMENSION_NAMES

DIMENSION_GOALS = {
    "RI": "what the evidence so far says about who holds which role",
    "SJ": "the best move for the viewpoint's side right now",
    "DR": "seeing through (or carrying out) deception in what was said",
    "PS": "what to say to persuade the table",
    "CT": "weighing an alternative move against what was done, and its consequences",
}


def viewpoint_name(seat: int | None, language: str) -> str:
    return seat_label(seat, language) if seat is not None else ("an observer" if language != "zh" else "旁观者")


def dimension_vars(dimension: str, game: GameLog) -> dict[str, str]:
    return {"dimension": dimension, "dimension_name": DIMENSION_NAMES.get(dimension, dimension),
            "dimension_goal": DIMENSION_GOALS.get(dimension, ""), "examples": example_questions(dimension, game)}


def _bank_text(bank: str) -> str:
    """The bank ships in the wheel (force-included by pyproject.toml); in a source checkout it is read
    from annotation/, its one home."""
    packaged = resources.files("werealign.generation") / "examples" / bank
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "annotation" / bank
    return source.read_text(encoding="utf-8") if source.is_file() else ""


def example_questions(dimension: str, game: GameLog) -> str:
    """The section for a dimension ('## RI — ...' up to the next '## ') of the bank of the game's family
    (families.json `examples`: the annotators' bank is of Werewolf games, so a Mafia prompt gets none), or a note."""
    bank = families().get(family_of(game), {}).get("examples")
    if not bank:
        return "(no examples for this game family)"
    match = re.search(rf"^## {re.escape(dimension)}\b.*?$(.*?)(?=^## |\Z)", _bank_text(bank), flags=re.M | re.S)
    return match.group(1).strip() if match else "(no examples for this dimension)"
