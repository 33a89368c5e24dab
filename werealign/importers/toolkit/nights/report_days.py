"""A seer reports a check only after she made it: the first day she names a seat's result bounds its night (issue 41).

A seer's checks form one list, and where two sources put one seat on two nights nights.claims leaves both out,
since which is right is not known. Often it is known: a seat she reported on day d was checked on a night no later
than d, so a source that puts it on a later night (the annotator log's own numbering, a recap's slip, the badge
convention reading an old 金水, her own words misnumbering a night) is wrong there, and the night her earlier words
allow is not in dispute. Only her own words at the table count as the bound (their day is the turn's; the annotator
log's account of a day may be loose), and only those the truth bears out (the seat is not herself, and its true
side as the seer sees it agrees with the result she states); the later placement is dropped with its reason, and the
settling that follows (nights.claims) sees one list.
"""

from __future__ import annotations

from collections.abc import Sequence

from werealign.importers.toolkit.nights.check_talk import result_side
from werealign.importers.toolkit.nights.claims import Statement, seen_by_seer
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.roles import RoleCatalogue


def first_report_days(statements: Sequence[Statement], seats: Sequence[SeatInfo], catalogue: RoleCatalogue) -> dict[tuple[int, int], int]:
    """(seer, seat) -> the first day the true seer reports a result for the seat that the truth bears out."""
    by_seat = {s.seat: s for s in seats}
    first: dict[tuple[int, int], int] = {}
    for st in statements:
        target = by_seat.get(st.target) if st.target is not None else None
        if st.skill != "seer_check" or st.source != "utterance" or target is None or target.seat == st.seat:
            continue
        if result_side(st.result or "") in seen_by_seer(target, catalogue):
            first[(st.seat, target.seat)] = min(st.day, first.get((st.seat, target.seat), st.day))
    return first


def drop_checks_after_their_report(written: Sequence[Event], statements: Sequence[Statement], seats: Sequence[SeatInfo],
                                   phases: Sequence[Phase], catalogue: RoleCatalogue
                                   ) -> tuple[list[Event], list[Statement], list[tuple[Event, str]], list[tuple[Statement, str]]]:
    """(the written facts kept, the statements kept, the written facts dropped with why, the statements dropped with
    why): a seer check placed on a night after the day she first reported that seat is dropped."""
    day_of_night = {p.id: p.day for p in phases if p.kind == "night"}
    first = first_report_days(statements, seats, catalogue)
    kept_w, dropped_w = [], []
    for e in written:
        day = first.get((e.actor, e.target)) if e.skill == "seer_check" and isinstance(e.actor, int) and e.target is not None else None
        if day is not None and day_of_night.get(e.phase, 0) > day:
            dropped_w.append((e, f"seat {e.target} is put on {e.phase}, but the seer reported its result on day {day}, before that night"))
        else:
            kept_w.append(e)
    kept_s, dropped_s = [], []
    for st in statements:
        day = first.get((st.seat, st.target)) if st.skill == "seer_check" and st.target is not None else None
        if day is not None and st.night is not None and st.night > day:
            dropped_s.append((st, f"it names night {st.night}, but the seer reported seat {st.target}'s result on day {day}, before that night"))
        else:
            kept_s.append(st)
    return kept_w, kept_s, dropped_w, dropped_s
