"""The legal moves of a decision under the board's rules (`rules.moves`), and who is alive when it is taken.

A rule `rules.moves` leaves out is read from the rulebook text where it states it (`TEXT_RULES`, by language: "the
witch may save herself on the first night only", "the guard may not protect one player two nights running"). A rule
neither declares takes the role catalogue's rule where the catalogue states one (the guard
never protects one seat two nights running; the witch never uses both potions in one night) and is unknown
otherwise: the witch's self-save is then allowed only where the log shows her saving herself, and a decision
that depends on it is no item (werealign.game.decisions says so in a note). The arena plays the same rules
(werealign.arena.board reads them with `rules_of`): whom the wolf beauty may charm, whose vote arms the stalker, what
a self-destruct in the sheriff campaign and a tied sheriff vote do.
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
    charm_target: str = "any"  # good | any
    stalker_window: str = "any_day"  # same_day | any_day


# Rulebook sentences that state a move rule: (field, value, pattern), the first match per field wins, so a
# narrower wording comes before a wider one ("only the first night may she save herself" before "may save herself").
TEXT_RULES: dict[str, list[tuple[str, object, re.Pattern]]] = {
    "zh": [
        ("witch_self_save", "first_night", re.compile(r"(?:第一|首)(?:晚|夜)(?:才)?(?:可以|可|能)自救")),
        ("witch_self_save", "never", re.compile(r"(?:不可以|不可|不能|无法|不得)自救")),
        ("witch_self_save", "always", re.compile(r"(?:全程|每晚|每夜)(?:都)?(?:可以|可|能)自救")),
        ("guard_repeat", False, re.compile(r"(?:不可以|不可|不能|不得)连续两(?:晚|夜|天)守(?:护)?同一")),
        ("witch_both_potions", False, re.compile(r"同(?:一)?(?:晚|夜)不(?:可|能)(?:两用|同时使用|使用两瓶)")),
        ("charm_target", "good", re.compile(r"魅惑(?:一名|一位|一个)?好人")),
        ("charm_target", "any", re.compile(r"魅惑(?:任意|任何)(?:一名|一位)?(?:玩家|人)")),
        ("stalker_window", "same_day", re.compile(r"投票(?:仅|只)(?:在|限)?当天有效|(?:仅|只)(?:限|能)?(?:暗杀|刺杀)当天")),
        ("campaign_self_destruct", "election_resumes", re.compile(r"(?:警上|竞选[^。；]{0,6})自爆[^。；]*(?:次日|第二天|下一天)[^。；]*(?:继续|重新)(?:警长)?竞选")),
        ("campaign_self_destruct", "badge_lost", re.compile(r"(?:警上|竞选[^。；]{0,6})自爆[^。；]*警徽(?:直接)?流失")),
        ("sheriff_tie", "revote", re.compile(r"(?:再次|第二次|两次)平票[^。；]*警徽(?:直接)?流失")),
        ("sheriff_tie", "badge_lost", re.compile(r"(?:警长|竞选)[^。；]*平票[^。；]*警徽(?:直接)?流失")),
    ],
    "en": [
        ("witch_self_save", "first_night", re.compile(r"(?i)save herself (?:only )?on the first night(?! or)|only on the first night[^.]*save herself")),
        ("witch_self_save", "never", re.compile(r"(?i)(?:cannot|can't|may not|never) save herself")),
        ("witch_self_save", "always", re.compile(r"(?i)(?:may|can) save herself")),
        ("guard_repeat", False, re.compile(r"(?i)not (?:protect )?the same (?:player|seat) (?:twice|two nights) (?:in a row|running)")),
        ("witch_both_potions", False, re.compile(r"(?i)(?:cannot|can't|may not) use both (?:potions )?(?:on|in) (?:one|the same) night")),
        ("charm_target", "good", re.compile(r"(?i)charms? (?:one |a )?(?:good|village)(?:-side)? (?:player|seat)")),
        ("charm_target", "any", re.compile(r"(?i)charms? any (?:other )?(?:player|seat)")),
        ("stalker_window", "same_day", re.compile(r"(?i)(?:vote|ballot)s? (?:counts?|is valid|are valid) (?:only )?(?:for |on )?(?:that|the same) day")),
        ("campaign_self_destruct", "election_resumes", re.compile(r"(?i)self-destruct[^.]*(?:campaign|election)[^.]*(?:election|campaign) (?:resumes|continues)")),
        ("campaign_self_destruct", "badge_lost", re.compile(r"(?i)self-destruct[^.]*(?:campaign|election)[^.]*badge is lost")),
        ("sheriff_tie", "revote", re.compile(r"(?i)(?:second|another) tie[^.]*badge is lost")),
        ("sheriff_tie", "badge_lost", re.compile(r"(?i)(?:sheriff|election)[^.]*\btie[^.]*badge is lost")),
    ],
}


def rules_in_text(text: str | None, language: str) -> MoveRules:
    """The move rules a rulebook text states (fields it does not state stay None)."""
    found: dict[str, object] = {}
    for name, value, pattern in TEXT_RULES.get(language, []):
        if name not in found and text and pattern.search(text):
            found[name] = value
    return MoveRules(**found)


def rules_of(game: GameLog) -> MoveRules:
    """The board's move rules: each as the log declares it (`rules.moves`), else as its rulebook text states it, else None."""
    declared = game.rules.moves or MoveRules()
    stated = rules_in_text(game.rules.text, game.language)
    return MoveRules(**{name: getattr(declared, name) if getattr(declared, name) is not None else getattr(stated, name)
                        for name in MoveRules.model_fields})


def board_of(game: GameLog) -> Board:
    return board_from_rules(rules_of(game))


def board_from_rules(m: MoveRules) -> Board:
    return Board(
        guard_repeat=bool(m.guard_repeat), guard_may_skip=bool(m.guard_may_skip), witch_self_save=m.witch_self_save,
        witch_both_potions=bool(m.witch_both_potions), wolves_may_skip=bool(m.wolves_may_skip),
        wolves_may_kill_wolf=m.wolves_may_kill_wolf is not False, charm_target=m.charm_target or "any",
        stalker_window=m.stalker_window or "any_day")


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


def charm_targets(alive: list[int], charmer: int, good: set[int], rule: str) -> list[int]:
    """Whom the wolf beauty may charm: any other living seat, or under `charm_target: good` a good-side one."""
    return [s for s in alive if s != charmer and (rule != "good" or s in good)]


def assassinate_targets(ballots: list[tuple[int, int | None]], alive: list[int], stalker: int, day: int, rule: str) -> list[int]:
    """The living seats the stalker may assassinate on the night after `day`: seats it voted for in a day vote (its
    ballots as (day, target)), that day's only under `stalker_window: same_day`."""
    return sorted({t for d, t in ballots if t in alive and t != stalker and (rule != "same_day" or d == day)})
