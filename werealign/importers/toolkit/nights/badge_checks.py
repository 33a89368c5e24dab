"""A seer's last check, read from the table's badge convention (issue 41).

A seer who holds the badge names, by day, whom she checks tonight ("今天晚上验 7 号", "警徽流 3 8", "2 号我验一下");
killed that night, she passes the badge to that seat at dawn, and the table calls the seat her 金水: the badge tells
her result without her saying it. All three are required, each with its words as evidence:
- the plan: a turn of the true seer between the night before and this night that names the seat as one she checks:
  the verb then the seat ("验这张 7 号", "验个后置位的，2 号", a badge flow's run of seats "验三八" = 3 and 8) or the
  seat then the verb ("2 我验一下"); never a report (the verb done: "验了", "验过", "验出"; a result after it:
  "验 9 号金水") nor a refusal ("不验 6"). A plan from an earlier day is not taken: she may have checked the seat
  the night after it and now pass the badge to that old 金水;
- the badge move: the seer passes the badge to that seat on the day after this night (she died in it);
- the table: a later turn, anyone's, that calls the seat 金水 ("X 号是金水", "7 是个金水", "X 号是一张 <the seer>
  号发的金水", "金水 X 号"), never denied or doubted ("不是金水", "假金水", "是不是金水"; "不用说是…金水" is no doubt).
The result is good (a badge is passed to a 金水; a wolf found is named, not given the badge), and the truth must agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.schema import Event, Evidence, Phase, SeatInfo, Utterance
from werealign.schema.models import ACTOR
from werealign.schema.roles import RoleCatalogue
from werealign.text.zh_numbers import chinese_number

_SEATS = r"(?P<seat>(?<![\d])\d{1,2}(?!\d)|[一二三四五六七八九十]{1,3})\s*号?"
_STOP = r"，。,？?！!；;"
# The verb (not done: "验了 / 验过 / 验出 / 验的 / 验到"), a few words ("个后置位的", "这张"), then the seat(s).
_PLAN_VERB_FIRST = re.compile(r"(?:验|查)(?![了过出的到杀])\s*(?:一下|一验)?[^" + _STOP + r"\d号]{0,6}?[，,]?\s*" + _SEATS)
# The seat(s), then the verb: "2 我验一下", "3 号我先验".
_PLAN_SEAT_FIRST = re.compile(r"(?<![\d号])" + _SEATS + r"\s*(?:我|就|先|再|去|要)*\s*(?:验|查)(?:一下|一验)?(?![了过出的到杀])")
_REFUSED = re.compile(r"[不没别]\s*(?:想|要|会|用|需要)?\s*$")
# A result right after the seat makes the words a report of a check done, not a plan.
_RESULT_AFTER = re.compile(r"^[^" + _STOP + r"]{0,4}?(?:金水|查杀|好人|狼|银水)")
_DOUBT = re.compile(r"不是|不一定|不像|不算|不知|不确定|不清楚|没|非|假|吗|么|是否|或")


def _seats_named(word: str, valid: set[int]) -> list[int]:
    """'7' -> [7]; a run of single digits no seat holds ('三八', '38') is a badge flow of seats: [3, 8]."""
    n = chinese_number(word)
    if n in valid:
        return [n]
    parts = [chinese_number(c) for c in word] if len(word) == 2 else []
    return [p for p in parts if p in valid] if parts and all(p in valid for p in parts) else []


def _plans(text: str, target: int, valid: set[int]) -> re.Match[str] | None:
    for pattern in (_PLAN_VERB_FIRST, _PLAN_SEAT_FIRST):
        for m in pattern.finditer(text):
            if (target in _seats_named(m.group("seat"), valid) and not _REFUSED.search(text[max(0, m.start() - 3):m.start()])
                    and not _RESULT_AFTER.search(text[m.end():])):
                return m
    return None


def _called_gold(seat: int, seer: int) -> re.Pattern:
    """The table calling `seat` 金水: with 号, a few words between (the seer's seat may stand there: "一张 12 号发的"),
    a bare seat only right before it ("7 是个金水"); or 金水 then the seat."""
    gap = r"(?:(?<!\d)" + str(seer) + r"\s*号|[^\d" + _STOP + r"])"
    return re.compile(rf"(?<!\d){seat}\s*号{gap}{{0,12}}?金水|(?<![\d号]){seat}(?!\d)\s*(?:是|就是)?\s*(?:个|一个|一张)?\s*金水"
                      rf"|金水[^{_STOP}\d]{{0,4}}(?<!\d){seat}\s*号")


def badge_checks(utterances: Sequence[Utterance], seats: Sequence[SeatInfo], phases: Sequence[Phase], events: Sequence[Event],
                 zh: bool, catalogue: RoleCatalogue) -> list[Event]:
    """The seers' checks the badge convention states (module docstring), as skill_use events seen by the seer (a seat
    whose role the game's `catalogue` says holds 'seer_check')."""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p for p in phases if p.kind == "night"]
    by_seat = {s.seat: s for s in seats}
    valid = set(by_seat)
    out: list[Event] = []
    for e in events:
        seer = by_seat.get(e.actor) if isinstance(e.actor, int) else None
        target = by_seat.get(e.target) if e.target is not None else None
        if e.kind != "badge_transfer" or seer is None or not catalogue.holds(seer.role, skill="seer_check") or target is None or target.faction != "good" or e.phase not in order:
            continue
        night = next((n for n in reversed(nights) if order[n.id] < order[e.phase]), None)
        if night is None or night.day < 2:
            continue
        before = next((n for n in reversed(nights) if order[n.id] < order[night.id]), None)
        lo = order[before.id] if before else -1
        plan = next(((u, m) for u in utterances if u.speaker == seer.seat and lo < order.get(u.phase, -1) < order[night.id]
                     for m in [_plans(u.text, target.seat, valid)] if m), None)
        called = _called_gold(target.seat, seer.seat)
        table = next(((u, m) for u in utterances if e.segment_id is not None and u.segment_ids[0] > e.segment_id
                      for m in called.finditer(u.text) if not _DOUBT.search(m.group(0) + u.text[m.end():m.end() + 2])
                      and not _DOUBT.search(u.text[max(0, m.start() - 2):m.start()])), None)
        if plan is None or table is None:
            continue
        (pu, pm), (tu, tm) = plan, table
        out.append(Event(kind="skill_use", phase=night.id, segment_id=None, audience=ACTOR, actor=seer.seat, target=target.seat,
                         skill="seer_check", result="好人" if zh else "good",
                         note="the badge convention: her plan, the badge passed to the seat at her death, the table calling it 金水",
                         evidence=[Evidence(source="utterance", segment_id=pu.segment_ids[0], quote=pm.group(0)), *e.evidence,
                                   Evidence(source="utterance", segment_id=tu.segment_ids[0], quote=tm.group(0))]))
    return out
