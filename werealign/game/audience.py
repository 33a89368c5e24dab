"""Who perceived an event or a turn, and where a cut-off falls: shared by the context builder (what a seat is shown)
and the knowledge rules (what a seat must have learned), so both read a game the same way."""

from __future__ import annotations

from werealign.schema import GameLog
from werealign.schema.models import Audience, SeatInfo, Speaker
from werealign.schema.roles import RoleCatalogue


def perceives(audience: Audience, actor: Speaker | None, me: SeatInfo | None, catalogue: RoleCatalogue) -> bool:
    """Whether the player `me` (None: an observer, who perceives only what everyone does) perceived it."""
    if audience.kind == "everyone":
        return True
    if me is None:
        return False
    if audience.kind == "actor":
        return actor == me.seat
    if audience.kind == "seats":
        return me.seat in audience.seats
    role = catalogue.get(me.role)
    return audience.team in (me.faction, role.team if role is not None else None)


def cutoff_phase(game: GameLog, cutoff: int) -> str | None:
    """Phase of the last turn that has a segment at or before the cut-off."""
    phase = None
    for u in game.utterances:
        if u.segment_ids[0] <= cutoff:
            phase = u.phase
    return phase
