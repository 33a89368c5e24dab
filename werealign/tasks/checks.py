"""Checks the task kinds share (werealign.validate calls each task's hooks with its findings sink `out` and
game index `idx`; the tasks need nothing else of validate, which sits above the task registry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def path(*parts: str | int) -> str:
    """Join JSON path parts: path('utterances', 3, 'speaker') -> 'utterances[3].speaker'."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += f".{p}" if out else p
    return out


def check_distinct_seats(seats: Sequence[int], field: str, out: Any) -> None:
    seen: set[int] = set()
    for j, s in enumerate(seats):
        if s in seen:
            out.error("duplicate-seat", path(field, j), f"seat {s} is listed twice")
        seen.add(s)


def check_seats_exist(seats: Sequence[int], field: str, idx: Any, out: Any) -> None:
    bad = [s for s in seats if s not in idx.seats]
    if bad:
        out.error("not-a-seat", field, f"seat(s) {bad} are not seats of game {idx.game.game_id} (seats {idx.seat_range()})")
