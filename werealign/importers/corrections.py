"""Per-game corrections of night facts (issue 41): what an annotator or a user fixes by hand, with its evidence.

A corrections directory holds `<game_id>.json` files (werealign.schema.corrections). Each correction sets or removes
one night fact of its game; the import applies them to the facts its readers found, before settling them against
the host's dawns (a correction the dawns contradict is refused like any other fact, and reported). Every quote must
be in the source it names, checked at import (a bad file stops the import, naming file, correction and field) and
kept as the fact's evidence, which `werealign validate` checks again.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from werealign.errors import UserError
from werealign.files import describe_validation_error, read_json
from werealign.schema import Event, Evidence, Utterance
from werealign.schema.corrections import Correction, GameCorrections
from werealign.schema.models import ACTOR, Audience
from werealign.validate.evidence_checks import quote_missing

_PACK = Audience(kind="team", team="wolf")


def load_corrections(folder: Path | None) -> dict[str, GameCorrections]:
    """game id -> its corrections (their `file` set to the path read, for messages); {} when no folder is given."""
    if folder is None:
        return {}
    if not folder.is_dir():
        raise UserError(f"{folder}: --corrections must be a directory of <game_id>.json files")
    out: dict[str, GameCorrections] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            gc = GameCorrections.model_validate(read_json(path))
        except ValidationError as e:
            raise UserError(f"{path}: not a corrections file: {describe_validation_error(e)}") from None
        if gc.game_id != path.stem:
            raise UserError(f"{path}: game_id: {gc.game_id!r} differs from the file name ({path.stem}.json)")
        out[gc.game_id] = gc.model_copy(update={"file": str(path)})
    return out


def check_quotes(gc: GameCorrections, phases: set[str], seats: set[int], utterances: Sequence[Utterance],
                 annotator_log: str | None, recap: str | None, file: str) -> None:
    """Raise UserError naming the file, the correction and the field when a correction points nowhere or quotes
    words its source does not hold."""
    for i, c in enumerate(gc.corrections):
        where = f"{file}: corrections[{i}]"
        if c.night not in phases:
            raise UserError(f"{where}.night: game {gc.game_id} has no phase {c.night!r}")
        for field, seat in (("actor", c.actor), ("target", c.target)):
            if seat is not None and seat not in seats:
                raise UserError(f"{where}.{field}: seat {seat} is not a seat of game {gc.game_id}")
        missing = quote_missing(c.source, c.segment_id, c.quote, utterances, annotator_log, recap)
        if missing is not None:
            raise UserError(f"{where}.{'segment_id' if missing[0] == 'evidence-segment-unknown' else 'quote'}: {missing[1]}")


def apply_corrections(facts: list[Event], corrections: Sequence[Correction]) -> tuple[list[Event], list[str]]:
    """(the night facts with each correction applied, a line per correction for the import report). A correction
    replaces whatever the readers put on its (actor, skill, night)."""
    out = list(facts)
    done = []
    for c in corrections:
        key = (c.actor, c.skill, c.night)
        replaced = [e for e in out if (e.actor, e.skill, e.phase) == key]
        out = [e for e in out if (e.actor, e.skill, e.phase) != key]
        was = ", ".join(f"target {e.target}" for e in replaced) or "nothing read"
        who = f"seat {c.actor}" if c.actor is not None else "the wolves"
        if c.action == "set":
            out.append(Event(kind="skill_use", phase=c.night, segment_id=None, audience=_PACK if c.skill == "wolf_kill" else ACTOR, actor=c.actor,
                             target=c.target, skill=c.skill, result=c.result, note=c.note or "set by the game's corrections file",
                             evidence=[Evidence(source=c.source, segment_id=c.segment_id, quote=c.quote, by="correction")]))
            done.append(f"{who} {c.night} {c.skill} set to target {c.target} (was: {was}), as {c.source} says: '{c.quote}'")
        else:
            done.append(f"{who} {c.night} {c.skill} removed (was: {was}), as {c.source} says: '{c.quote}'")
    return out, done
