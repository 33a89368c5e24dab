"""A per-game corrections file: night facts an annotator or a user states by hand, each with its evidence (issue 41).

`werealign import werebench SRC --out DIR --corrections CDIR` reads CDIR/<game_id>.json. A correction sets or removes
one night fact: the seat that acted (null for the wolves' kill), the
night, the skill, and for `set` the target and result. Each names the source that states it and the words there,
which the import checks and keeps as the fact's evidence (`by: correction`) for `werealign validate` to check again.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from werealign.schema.models import SCHEMA_VERSION, Identifier, Seat, Strict


class Correction(Strict):
    action: Literal["set", "remove"] = Field(description="set: this is the fact of that night (any other reading of it is replaced); "
                                                         "remove: no fact of that night (a reading the sources do not bear out).")
    night: str = Field(description="Night phase id, e.g. 'night-2'.")
    skill: str = Field(description="e.g. seer_check, wolf_kill, witch_save, witch_poison, guard_protect.")
    actor: Seat | None = Field(None, description="The seat that acted; null for the wolves' kill (the pack's).")
    target: Seat | None = Field(None, description="set: the target; null for an empty guard or knife.")
    result: str | None = Field(None, description="set, seer_check: the result as the game's language writes it (e.g. '狼人', '好人').")
    source: Literal["utterance", "annotator_log", "recap"] = Field(description="Where the fact is stated.")
    segment_id: int | None = Field(None, description="source utterance: a segment of the turn that says it.")
    quote: str = Field(min_length=1, description="The words that state it, verbatim (whitespace aside).")
    note: str | None = None


class GameCorrections(Strict):
    schema_version: Literal["1.0"] = SCHEMA_VERSION
    game_id: Identifier
    corrections: list[Correction] = Field(min_length=1)
    file: str | None = Field(None, exclude=True, description="Where it was read from (not written).")
