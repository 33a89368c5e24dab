"""What a human-voiced item's prompt shows of its game at its moment, and the option filters that read it
(werealign.generation.human): a repeat of the shown transcript, a role the board lacks, a seat out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from werealign.game.derive import alive_at
from werealign.generation import human_text as ht
from werealign.schema import GameLog
from werealign.text.seat_names import names_of_seats

if TYPE_CHECKING:
    from werealign.generation.human import Moment


@dataclass(frozen=True)
class Shown:
    """What the item's prompt shows of its game, as the filters need it."""
    grams: frozenset[tuple[str, ...]]  # the shown transcript's LEAK_NGRAM-grams
    board: frozenset[str]  # the roles of the board (catalogue ids)
    live: tuple[int, ...]  # seats alive at the cut-off
    dead: tuple[int, ...]  # seats out at the cut-off
    names: dict = field(default_factory=dict)  # seat -> its name and nicknames (issue 45): a seat named by name is a seat
    later: Callable[[str], bool] = lambda text: False  # repeats a later turn of the game (werealign.shortcuts.exchange.repeats_later)
    turns: tuple[tuple[int, str], ...] = ()  # (speaker, text) of the player turns shown: how the table talks of each seat


def shown_for(game: GameLog, moment: Moment) -> Shown:
    from werealign.shortcuts.exchange import repeats_later as later
    from werealign.shortcuts.leaks import leak_grams
    from werealign.game.visibility import build_context

    ctx = build_context(game, moment.seat, moment.cutoff)
    grams = frozenset(g for u in ctx.utterances for g in leak_grams(u.text))
    board = frozenset(r.role for r in game.rules.composition) | frozenset(s.role for s in game.seats if s.role)
    live = tuple(alive_at(game, moment.cutoff))
    return Shown(grams, board, live, tuple(s.seat for s in game.seats if s.seat not in live), names_of_seats(game.seats),
                 lambda text: later(text, game, moment.cutoff, moment.seat),
                 tuple((u.speaker, u.text) for u in ctx.utterances if isinstance(u.speaker, int)))


def repeats_transcript(text: str, shown: Shown) -> bool:
    from werealign.shortcuts.leaks import leak_grams

    return bool(leak_grams(text) & shown.grams)


def repeats_later(text: str, shown: Shown) -> bool:
    """Says what a turn of the game said after the cut-off (a distractor from another game can tell an event
    this game announces later: the same witch's report, the same death): the audit's future-option check."""
    return shown.later(text)


def foreign_roles(text: str, shown: Shown) -> bool:
    """Names a role the board lacks (a distractor from another board)."""
    return bool(ht.roles_named(text) - shown.board)


def names_seat_out(text: str, shown: Shown) -> bool:
    """Names a seat out at the cut-off or not in the game, in any form (as the audit's dead-seat attack reads it)."""
    return any(s not in shown.live for s in ht.seats_named(text, shown.names))


def dead_share(game: GameLog, moment: Moment, key: str) -> tuple[int, int]:
    """(seats out at the cut-off, seats) among those the key names other than the viewpoint's."""
    live = set(alive_at(game, moment.cutoff))
    named = [s for s in ht.seats_named(key, names_of_seats(game.seats)) if s != moment.seat and s in {x.seat for x in game.seats}]
    return sum(s not in live for s in named), len(named)
