"""Own night actions stated in a recognisable form in the release's annotator log (`metadata.logs`).

The release records no night action in a structured field. Its annotator log describes each seat in
one clause, "N 号是<role>，…"; a few clauses state the seat's own night actions as facts with the night
they happened: "第一晚救 4 号", "第二晚毒 5 号", "首验 11 号是狼", "第一晚查杀 8 号", "第二晚守 3 号".
Only those become events, and only as structured facts (actor, night, skill, target, result) with the
actor alone as audience: the log's own words never reach a prompt. A phrase is read only when
- it sits in the clause of the seat it describes, whose TRUE role (real_role) has that skill;
- it starts with the night ("第N晚/夜", "首晚/夜", a seer's "首验 / 第N验") and names one seat;
- it carries no word of speech ("称", "跳", "说", "遗言", …): what a seat CLAIMED at the table is not
  what it did, and a claim is exactly what a bluffing wolf makes;
- the night exists in the game and the target is a seat; a witch using both potions on one night
  (against the rules) or two different targets for one skill on one night drop that night's reading.
A seer check takes the result the log states ("是狼", "金水", "查杀"); when it states none, the
result follows from the target's true role for the plain roles (a werewolf: wolf; a good role: good),
and a stated result that contradicts the true role drops the reading. Anything else — no night
("夜间暗杀 11 号", "守 2 号"), a blind "盲毒" with no seat, "死前毒 11 号" — is left alone, and the
viewpoint stays in the import report's `night_knowledge_missing`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from werealign.importers.werebench_text import RELEASE_ROLES
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import ACTOR

_NUMERALS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NIGHT = r"(?:第(?P<n>[一二三四五六七八九十\d]{1,2})(?:晚|夜)|(?P<first>首)(?:晚|夜))"
_SEAT = r"\s*(?P<seat>\d{1,2})\s*号"
_PREFIX = r"^(?:夜间|晚上)?"

# skill -> (the role that has it, the phrase). Each phrase starts the sub-clause (after an optional "夜间").
_PHRASES: dict[str, tuple[str, re.Pattern[str]]] = {
    "witch_save": ("witch", re.compile(_PREFIX + _NIGHT + r"(?:使用解药|开药|用药)?(?:解救|救)了?" + _SEAT)),
    "witch_poison": ("witch", re.compile(_PREFIX + _NIGHT + r"(?:使用毒药|开毒)?盲?毒(?:死|了)?" + _SEAT)),
    "seer_check": ("seer", re.compile(
        _PREFIX + r"(?:" + _NIGHT + r"(?P<verb>查验|验|查杀)了?|(?P<first_check>首)验|第(?P<k>[一二三四五六七八九十\d]{1,2})验)" + _SEAT
        + r"(?:是(?P<said>狼人?|好人|金水|查杀))?")),
    "guard_protect": ("guard", re.compile(_PREFIX + _NIGHT + r"守(?:护|卫)?了?" + _SEAT)),
    "silence": ("silencer_elder", re.compile(_PREFIX + _NIGHT + r"禁言?了?" + _SEAT)),
}
# Words of speech: a sub-clause with one reports what a seat said, not what it did.
_SPEECH = re.compile(r"称|跳|说|报|遗言|发言|认为|建议|号召|表示|质疑|怀疑|分析|猜|可能|应该|假装|谎")
_SEAT_CLAUSE = re.compile(r"^\s*(\d{1,2})\s*号是")
# Sub-clauses: split at commas and full stops, and at a "、" that starts another night ("第一晚救 10 号、第二晚毒 1 号").
_SUBCLAUSE = re.compile(r"[，,；;。]|、(?=(?:第[一二三四五六七八九十\d]{1,2}|首)(?:晚|夜|验))")
_WOLF_WORDS = {"狼", "狼人", "查杀"}
_GOOD_WORDS = {"好人", "金水"}


@dataclass(frozen=True)
class Reading:
    """One night action read from the log, or why a reading was dropped (event None)."""

    seat: int
    text: str  # the sub-clause read (for the import report only; never put in the game)
    event: Event | None
    why: str


def _states_role(label: str, seat: SeatInfo) -> bool:
    role = RELEASE_ROLES.get(seat.role)
    names = [*(role.names.get("zh", ()) if role else ()), seat.original_role_label or ""]
    return any(name and name in label for name in names)


def _number(text: str) -> int:
    return int(text) if text.isdigit() else (_NUMERALS[text] if len(text) == 1 else 10 + _NUMERALS.get(text[-1], 0))


def _night(m: re.Match[str]) -> int:
    groups = m.groupdict()
    if groups.get("first") or groups.get("first_check"):
        return 1
    return _number(groups.get("n") or groups["k"])


def _check_result(m: re.Match[str], target: SeatInfo, zh: bool) -> tuple[str | None, str | None]:
    """(result, None) or (None, why the reading is dropped)."""
    said = m.group("said") or ("查杀" if m.group("verb") == "查杀" else None)
    truth = "wolf" if target.role == "werewolf" else ("good" if target.faction == "good" else None)
    stated = "wolf" if said in _WOLF_WORDS else ("good" if said in _GOOD_WORDS else None)
    if stated is not None and truth is not None and stated != truth:
        return None, f"the stated result ({said}) contradicts seat {target.seat}'s true role ({target.role})"
    result = stated or truth
    if result is None:
        return None, None
    return ({"wolf": "狼人", "good": "好人"} if zh else {"wolf": "wolf", "good": "good"})[result], None


def read_night_actions(logs: str | None, seats: Sequence[SeatInfo], phases: Sequence[Phase], language: str) -> list[Reading]:
    """Every recognisable own night action of the log (module docstring), in log order."""
    if not logs:
        return []
    by_seat = {s.seat: s for s in seats}
    nights = {p.id for p in phases if p.kind == "night"}
    zh = language == "zh"
    readings: list[Reading] = []
    current: SeatInfo | None = None
    for part in (p.strip() for p in _SUBCLAUSE.split(logs)):
        start = _SEAT_CLAUSE.match(part)
        if start:
            # "1 号是女巫" starts the seat's clause, when the role it states is the seat's true one (else it is
            # no clause of the seat's own, e.g. a list of what someone claimed: nothing is read until the next).
            seat = by_seat.get(int(start.group(1)))
            current = seat if seat is not None and _states_role(part[start.end():], seat) else None
            continue
        if current is None or not part or _SPEECH.search(part):
            continue
        for skill, (role, phrase) in _PHRASES.items():
            m = phrase.search(part)
            if m is None or current.role != role:
                continue
            night, target = _night(m), by_seat.get(int(m.group("seat")))
            phase = f"night-{night}"
            if phase not in nights:
                readings.append(Reading(current.seat, part, None, f"the game has no {phase}"))
                continue
            if target is None:
                readings.append(Reading(current.seat, part, None, f"seat {m.group('seat')} is not a seat of the game"))
                continue
            result = None
            if skill == "seer_check":
                result, why = _check_result(m, target, zh)
                if why:
                    readings.append(Reading(current.seat, part, None, why))
                    continue
            event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=current.seat, target=target.seat,
                          skill=skill, result=result, note="read from the annotator log's statement of the seat's own night action")
            readings.append(Reading(current.seat, part, event, "read"))
            break
    return _drop_conflicts(readings)


def _drop_conflicts(readings: list[Reading]) -> list[Reading]:
    """Against the rules or ambiguous: both potions of a witch on one night, two targets for one skill on one night."""
    events = [r.event for r in readings if r.event is not None]
    bad: set[tuple[int, str]] = set()
    for e in events:
        same = {o.target for o in events if o.actor == e.actor and o.phase == e.phase and o.skill == e.skill}
        potions = {o.skill for o in events if o.actor == e.actor and o.phase == e.phase and o.skill in ("witch_save", "witch_poison")}
        if len(same) > 1 or len(potions) > 1:
            bad.add((int(e.actor), e.phase))
    out: list[Reading] = []
    seen: set[tuple] = set()
    for r in readings:
        e = r.event
        if e is None:
            out.append(r)
        elif (int(e.actor), e.phase) in bad:
            out.append(Reading(r.seat, r.text, None, f"conflicting night actions of seat {e.actor} on {e.phase}"))
        elif (e.actor, e.phase, e.skill, e.target) not in seen:  # the same action stated twice is one action
            seen.add((e.actor, e.phase, e.skill, e.target))
            out.append(r)
    return out
