"""Seats a text names, by number or by the names players call each other (issue 45): the one reader of a game's
seats that the floors (`last-named`, `consensus`), the built-in shortcuts (own-last-call, lexical), validate's night
checks and the derive of role reveals share.

Names are a property of the game: each seat's name and nicknames (`seats[].name`, `seats[].aliases`, from the
annotator config's `names`, else its speaker labels). Players who call each other "Ben" or "Benny" name seat 2 as
surely as "2号" or "seat 2" does, so a rule that reads mentions must score the same whether a table uses names or
numbers. Numbers are read in the narrow digit form of werealign.text.seat_numbers; a name is matched as a whole
word, case-insensitively (Latin script), or as written (other scripts, which have no word boundaries). A name two
seats share names neither: it cannot tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from werealign.text.seat_numbers import seats_in_digits



def _bounded(name: str) -> str:
    """A name as a pattern: whole-word where it starts or ends with a Latin letter or digit."""
    left = r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", name) else ""
    right = r"(?![A-Za-z0-9_'’])" if re.search(r"[A-Za-z0-9_]$", name) else ""
    return left + re.escape(name) + right


@dataclass(frozen=True)
class SeatReader:
    """Reads the seats a text names, in order; `names` maps each seat to every name players call it by."""

    names: Mapping[int, tuple[str, ...]]

    def __post_init__(self) -> None:
        owners: dict[str, set[int]] = {}
        for seat, ns in self.names.items():
            for n in ns:
                if n and n.strip():
                    owners.setdefault(n.strip().casefold(), set()).add(seat)
        table = {n: next(iter(s)) for n, s in owners.items() if len(s) == 1}
        object.__setattr__(self, "_table", table)
        if table:
            alternation = "|".join(_bounded(n) for n in sorted(table, key=len, reverse=True))
            pattern = rf"(?:{alternation})|(?<!\d)(\d{{1,2}})\s*号|\bseats?\s+(\d{{1,2}})\b"
            object.__setattr__(self, "_pattern", re.compile(pattern, re.IGNORECASE))
        else:
            object.__setattr__(self, "_pattern", None)

    def seats(self, text: str) -> list[int]:
        """Every seat `text` names, in order of mention (a number or a name)."""
        if self._pattern is None:  # type: ignore[attr-defined]
            return seats_in_digits(text)
        return [seat for seat, _ in self._mentions(text)]

    def _mentions(self, text: str) -> list[tuple[int, bool]]:
        """(seat, named by a name) of every mention, in order."""
        out = []
        for m in self._pattern.finditer(text):  # type: ignore[attr-defined]
            if m.group(1) or m.group(2):
                out.append((int(m.group(1) or m.group(2)), False))
            else:
                out.append((self._table[m.group(0).casefold()], True))  # type: ignore[attr-defined]
        return out

    def name_spans(self, text: str) -> list[tuple[int, int, int]]:
        """(start, end, seat) of every mention by a name or nickname, in order."""
        if self._pattern is None:  # type: ignore[attr-defined]
            return []
        return [(m.start(), m.end(), self._table[m.group(0).casefold()]) for m in self._pattern.finditer(text)  # type: ignore[attr-defined]
                if not (m.group(1) or m.group(2))]

    def count_by_name(self, seat: int, text: str) -> int:
        """How often `text` names `seat` by a name or nickname (numbers not counted)."""
        if self._pattern is None:  # type: ignore[attr-defined]
            return 0
        return sum(s == seat and by_name for s, by_name in self._mentions(text))

    @property
    def has_names(self) -> bool:
        return bool(self._table)  # type: ignore[attr-defined]


def names_of_seats(seats: Iterable) -> dict[int, tuple[str, ...]]:
    """Seat -> (name, *aliases) of a game's `seats` (werealign.schema SeatInfo), for seats with a name."""
    return {s.seat: (s.name, *s.aliases) for s in seats if s.name}


def reader_of(seats: Iterable) -> SeatReader:
    """The reader of a game's seats (GameLog.seats)."""
    return SeatReader(names_of_seats(seats))


NUMBERS_ONLY = SeatReader({})
