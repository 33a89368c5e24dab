"""A seer's last check, read from the table's badge convention (issue 41).

A seer who holds the badge names, by day, whom she checks tonight ("今天晚上验 7 号"); killed that night, she passes
the badge to that seat at dawn, and the table calls the seat her 金水: the badge tells her result without her saying
it. All three are required, each with its words as evidence:
- the plan: a turn of the true seer between the night before and this night that says she checks the seat ("验 X");
- the badge move: the seer passes the badge to that seat on the day after this night (she died in it);
- the table: a later turn, anyone's, that calls the seat 金水 ("X 号是金水", "金水 X 号").
The result is good (a badge is passed to a 金水; a wolf found is named, not given the badge), and the truth must agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.schema import Event, Evidence, Phase, SeatInfo, Utterance
from werealign.schema.models import ACTOR
from werealign.text.zh_numbers import chinese_number

_NUM = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})"


_PLAN = re.compile(r"(?:验|查)\s*(?:一下|一验)?\s*(?P<seat>" + _NUM + r")\s*号?")


def _called_gold(seat: int) -> re.Pattern:
    return re.compile(rf"(?<!\d){seat}\s*号[^，。,？?！!]{{0,4}}金水|金水[^，。,？?！!\d]{{0,4}}(?<!\d){seat}\s*号")


def badge_checks(utterances: Sequence[Utterance], seats: Sequence[SeatInfo], phases: Sequence[Phase], events: Sequence[Event],
                 zh: bool) -> list[Event]:
    """The seers' checks the badge convention states (module docstring), as skill_use events seen by the seer."""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p for p in phases if p.kind == "night"]
    by_seat = {s.seat: s for s in seats}
    out: list[Event] = []
    for e in events:
        seer = by_seat.get(e.actor) if isinstance(e.actor, int) else None
        target = by_seat.get(e.target) if e.target is not None else None
        if e.kind != "badge_transfer" or seer is None or seer.role != "seer" or target is None or target.faction != "good" or e.phase not in order:
            continue
        night = next((n for n in reversed(nights) if order[n.id] < order[e.phase]), None)
        if night is None or night.day < 2:
            continue
        before = next((n for n in reversed(nights) if order[n.id] < order[night.id]), None)
        lo = order[before.id] if before else -1
        plan = next(((u, m) for u in utterances if u.speaker == seer.seat and lo < order.get(u.phase, -1) < order[night.id]
                     for m in _PLAN.finditer(u.text) if chinese_number(m.group("seat")) == target.seat), None)
        table = next(((u, m) for u in utterances if e.segment_id is not None and u.segment_ids[0] > e.segment_id
                      for m in [_called_gold(target.seat).search(u.text)] if m), None)
        if plan is None or table is None:
            continue
        (pu, pm), (tu, tm) = plan, table
        out.append(Event(kind="skill_use", phase=night.id, segment_id=None, audience=ACTOR, actor=seer.seat, target=target.seat,
                         skill="seer_check", result="好人" if zh else "good",
                         note="the badge convention: her plan, the badge passed to the seat at her death, the table calling it 金水",
                         evidence=[Evidence(source="utterance", segment_id=pu.segment_ids[0], quote=pm.group(0)), *e.evidence,
                                   Evidence(source="utterance", segment_id=tu.segment_ids[0], quote=tm.group(0))]))
    return out
