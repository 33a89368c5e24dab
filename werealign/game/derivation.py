"""How a task kind's items are made from one game log: the contract between `werealign derive` and every kind.

A kind (werealign.tasks.base.Task) that is derived has a `derive` function: it gets a `Deriving` (one game, the
command's options) and returns what it `Made` of that game: its items, and a note for every fact of the game that
gave no item (and why). `werealign derive` asks every registered kind, a plug-in's too (werealign.dataset.derive);
nothing lists the kinds. Kinds that read the same events in one pass (VA and OI; the night moves, ballots and
claims) share the pass through `Deriving.shared`, so it runs once per game whichever kind asks first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from werealign.schema import GameLog

R = TypeVar("R")

Deciders = Literal["winners", "mvp", "all"]
DECIDERS: tuple[str, ...] = ("winners", "mvp", "all")
VA_OI_FROM: tuple[str, ...] = ("mvp", "deciders")

NoteKind = Literal["converted", "dropped", "warning"]


@dataclass(frozen=True)
class DeriveNote:
    kind: NoteKind
    code: str  # e.g. va_abstention, oi_faction_unknown, vote_item
    vote: str  # what in the game it is about: the MVP vote's key (original label or phase), a phase, ...
    what: str
    why: str


@dataclass(frozen=True)
class DeriveOptions:
    """What `werealign derive` is asked to do, for every kind alike."""

    deciders: Deciders = "winners"  # whose decisions are asked: the winning side, the MVP, every player
    include_agents: bool = False  # seats played by an agent are asked too
    va_oi_from: str = "mvp"  # VA and OI from the MVP's votes where a game names one, or from the deciders' ballots


class Deriving:
    """One game being derived: the game, the options, and the passes over it that kinds share (`shared`)."""

    def __init__(self, game: GameLog, options: DeriveOptions | None = None) -> None:
        self.game = game
        self.options = options or DeriveOptions()
        self._passes: dict[Callable[[Deriving], Any], Any] = {}

    def shared(self, make: Callable[[Deriving], R]) -> R:
        """`make(self)`, computed once for this game whichever kind asks first (a pass yielding several kinds)."""
        if make not in self._passes:
            self._passes[make] = make(self)
        return self._passes[make]


@dataclass
class Made:
    """What one kind made of one game."""

    items: list[Any] = field(default_factory=list)  # instances of the kind's item model
    # A note for each item made ("converted") and each fact of the game that gave none ("dropped", with why). A note
    # about several kinds (the game has no decider) is the same object in each kind's list: reports count it once.
    notes: list[DeriveNote] = field(default_factory=list)
    # Its items stand for annotations (the MVP's votes) rather than facts read from the log: derive lists each
    # one dropped, and `--strict` fails on it. Otherwise derive counts the dropped facts by reason.
    listed: bool = False


def notes_about(notes: Iterable[DeriveNote], prefix: str, *codes: str) -> list[DeriveNote]:
    """The notes of a shared pass about one kind: those whose code starts with `prefix` or is one of `codes`."""
    return [n for n in notes if n.code.startswith(prefix) or n.code in codes]
