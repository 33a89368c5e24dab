"""Seat numbers a turn names in digits ("2号", "seat 2"): what the own-call shortcuts read, the built-in
`own-last-call` baseline (werealign.baselines) and the decision kinds' `last-named` floor (werealign.tasks.decision_floors)
alike, so the two floors of one shortcut read a turn the same way. The audit's reader (werealign.shortcuts.seats) also
reads Chinese numerals and other seat forms; this one stays the narrow form both floors were defined with."""

from __future__ import annotations

import re

_SEAT_MENTION = re.compile(r"(?<!\d)(\d{1,2})\s*号|(?i:\bseats?\s+)(\d{1,2})\b")


def seats_in_digits(text: str) -> list[int]:
    """Seat numbers a turn names in digits, in order ("2号", "seat 2")."""
    return [int(a or b) for a, b in _SEAT_MENTION.findall(text)]
