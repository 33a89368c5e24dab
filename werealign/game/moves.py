"""The legal moves of a decision under the board's rules (`rules.moves`), and who is alive when it is taken.

A rule `rules.moves` leaves out is read from the rulebook text where it states it (`TEXT_RULES`, by language: "the
witch may save herself on the first night only", "the guard may not protect one player two nights running"). A rule
neither declares takes the role catalogue's rule where the catalogue states one (the guard
never protects one seat two nights running; the witch never uses both potions in one night) and is unknown
otherwise: the witch's self-save is then allowed only where the log shows her saving herself, and a decision
that depends on it is no item (werealign.game.decisions says so in a note).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.schema import GameLog
from werealign.schema.models import MoveRules


@dataclass(frozen=True)
class Board:
    guard_repeat: bool
    guard_may_skip: bool
    witch_self_save: str | None  # never | first_night | always | None (undeclared)
    witch_both_potions: bool
    wolves_may_skip: bool
    wolves_may_kill_wolf: bool


# Rulebook sentences that state a move rule: (field, value, pattern), the first match per field wins, so a
# narrower wording comes before a wider one ("only the first night may she save herself" before "may save herself").
TEXT_RULES: dict[str, list[tuple[str, object, re.Pattern]]] = {
    "zh": [
        ("witch_self_save", "first_night", re.compile(r"(?:第一|首)(?:晚|夜)(?:才)?(?:可以|可|能)自救")),
        ("witch_self_save", "never", re.compile(r"(?:不可以|不可|不能|无法|不得)自救")),
        ("witch_self_save", "always", re.compile(r"(?:全程|每晚|每夜)(?:都)?(?:可以|可|能)自救")),
        ("guard_repeat", False, re.compile(r"(?:不可以|不可|不能|不得)连续两(?:晚|夜|天)守(?:护)?同一")),
        ("witch_both_potions", False, re.compile(r"同(?:一)?(?:晚|夜)不(?:可|能)(?:两用|同时使用|使用两瓶)")),
    ],
    "en": [
        ("witch_self_save", "first_night", re.compile(r"(?i)save herself (?:only )?on the first night(?! or)|only on the first night[^.]*save herself")),
        ("witch_self_save", "never", re.compile(r"(?i)(?:cannot|can't|may not|never) save herself")),
        ("witch_self_save", "always", re.compile(r"(?i)(?:may|can) save herself")),
        ("guard_repeat", False, re.compile(r"(?i)not (?:protect )?the same (?:player|seat) (?:twice|two nights) (?:in a row|running)")),
        ("witch_both_potions", False, re.compile(r"(?i)(?:cannot|can't|may not) use both (?:potions )?(?:on|in) (?:one|the same) night")),
    ],
}


def rules_in_text(text: str | None, language: str) -> MoveRules:
    """The move rules a rulebook text states (fields it does not state stay None)."""
    found: dict[str, object] = {}
    for name, value, pattern in TEXT_RULES.get(language, []):
        if name not in found and text and pattern.search(text):
            found[name] = value
    return MoveRules(**found)


def board_of(game: GameLog) -> Board:
    declared = game.rules.moves or MoveRules()
    stated = rules_in_text(game.rules.text, game.language)
    m = MoveRules(**{name: getattr(declared, name) if getattr(declared, name) is not None else getattr(stated, name)
                     for name in MoveRules.model_fields})
    return Board(
        guard_repeat=bool(m.guard_repeat), guard_may_skip=bool(m.guard_may_skip), witch_self_save=m.witch_self_save,
        witch_both_potions=bool(m.witch_both_potions), wolves_may_skip=bool(m.wolves_may_skip),
        wolves_may_kill_wolf=m.wolves_may_kill_wolf is not False)


def phase_index(game: GameLog) -> dict[str, int]:
    return {p.id: i for i, p in enumerate(game.phases)}


def alive_before_phase(game: GameLog, phase_id: str, first_segment: int | None) -> list[int]:
    """Seats alive when `phase_id` begins: not eliminated in an earlier phase, nor announced out by its first segment."""
    order = phase_index(game)
    here = order[phase_id]
    out = set()
    for e in game.events:
        if e.kind != "elimination" or e.target is None:
            continue
        if order.get(e.phase, here) < here or (first_segment is not None and e.segment_id is not None and e.segment_id < first_segment):
            out.add(e.target)
    return [s.seat for s in game.seats if s.seat not in out]


def wolf_kill_targets(game: GameLog, alive: list[int], wolves: set[int], board: Board) -> list[int]:
    return [s for s in alive if board.wolves_may_kill_wolf or s not in wolves]


def protect_targets(alive: list[int], last_protected: int | None, no_repeat: bool) -> list[int]:
    """A protector may take any living seat, itself included; under no-repeat, not last night's seat."""
    return [s for s in alive if not (no_repeat and s == last_protected)]


def self_save_allowed(board: Board, night_number: int, saved_herself_ever: bool) -> bool | None:
    """Whether the witch may save herself on this night (None: the board does not say and the log does not show it)."""
    rule = board.witch_self_save
    if rule == "always":
        return True
    if rule == "never":
        return False
    if rule == "first_night":
        return night_number == 1
    return True if saved_herself_ever else None
