"""Seat mentions in every form a transcript writes them, found and renumbered in one place.

Forms: digits with 号 or 号位 ("7号", "7 号", "7号位"), Chinese numerals with 号 or 号位 ("七号",
"十二号位"), and "seat 7" / "player 7". A renumbered mention keeps its form: digits stay digits (with
the same spacing), numerals stay numerals, so the form says nothing about whether a seat was changed.
The audit reads seats named by options with it (dead or absent seats), and human-voiced generation
renumbers distractors with it (werealign.generation.human_text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# The reader itself is shared with the game metrics (werealign.text.seat_mentions); renumbering is the audit's.
from werealign.text.seat_mentions import SEAT_FORM, Mention, mentions, numeral, seats_named  # noqa: F401 - re-exported
from werealign.text.zh_numbers import chinese_number


def renumber(text: str, table: Mapping[int, int]) -> str:
    """Every seat mention whose seat is in `table` renumbered, in one pass, each in its own form."""
    def sub(m: re.Match[str]) -> str:
        if m.group("num") is not None:
            seat = chinese_number(m.group("num"))
            if seat is None or seat not in table:
                return m.group(0)
            new = table[seat]
            num = str(new) if m.group("num").isdigit() else numeral(new)
            return f"{num}{m.group('gap')}{m.group('hao')}"
        seat = int(m.group("wnum"))
        return f"{m.group('word')}{m.group('wgap')}{table[seat]}" if seat in table else m.group(0)
    return SEAT_FORM.sub(sub, text)
