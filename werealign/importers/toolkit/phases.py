"""Where an act belongs in a game's phases: the day a night act ended, for an importer that reads acts in time
order but must file each one in the phase the rules put it in."""

from __future__ import annotations

from werealign.schema import Phase


def day_phase(phases: list[Phase], phase: str) -> str:
    """`phase`, or when it is a night, the latest phase before it that is not one (the day it ended)."""
    ids = [p.id for p in phases]
    if phase not in ids:
        return phase
    i = ids.index(phase)
    while i > 0 and phases[i].kind == "night":
        i -= 1
    return phases[i].id if phases[i].kind != "night" else phase
