"""A seer's recount: the checks she tells one after another in one turn, placed on her nights in the order she tells them.

A seer who speaks late (her last words, the last turn of a game) often goes through her nights in order without naming
them: "第一晚验的 4 号查杀 … 那我验了 3 号是个好人 … 我就验了 5 号是个金水 … 那就把 7 验了，7 是个查杀". Each report
alone names no night, and nights.claims places an unnamed report only when one night is free. A recount is placed
only when everything fits (issue 41: a check is one per night, of a seat not checked before, agreeing with every
source; a false fact is worse than a missing one):
- the turn's unnamed reports of checks not known from another source or a named report are all told with the check
  verb done ("验了", "验的", "把…验了": she tells what she did), or form one list told in one breath ("6 号金水，10 号
  查杀": a few characters at most between them; bare reports scattered through a turn are in no order), at least two,
  all of distinct seats;
- they are as many as her nights before the turn's day that no source or named report fills, and they take those
  nights in the order she tells them.
Anything else (a bare report of a seat not known among them, one report too many or too few) places none of them:
nights.claims then refuses them as it would any unnamed report. The truth checks still follow (the result against
the seat's true role; a seat on two nights is disputed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from werealign.importers.toolkit.nights.claims import Statement
from werealign.schema import Event, Phase

_RUN_GAP = 6  # characters between two reports of one list ("，", "，然后", "、还有")
# The check verb, done, in the words read: she tells a check she made.
_TOLD_DONE = re.compile(r"(?:查验|验|摸)\s*(?:了|的|过)|把\s*\S{1,4}?\s*(?:查验|验|摸)\s*了")


def place_recounts(statements: Sequence[Statement], known: Sequence[Event], phases: Sequence[Phase]) -> list[Statement]:
    """`statements` with the checks of each recount (module docstring) given their nights; the rest unchanged."""
    nights = {p.day: p.id for p in phases if p.kind == "night"}
    out = list(statements)
    turns: dict[tuple[int, int, int], list[int]] = {}  # (seer, day, turn) -> the indices of its unnamed checks
    for i, st in enumerate(out):
        if st.skill == "seer_check" and st.night is None and st.turn is not None and st.source == "utterance":
            turns.setdefault((st.seat, st.day, st.turn), []).append(i)
    for (seer, day, _), idx in turns.items():
        known_targets = {e.target for e in known if e.skill == "seer_check" and e.actor == seer}
        known_targets |= {st.target for st in statements if st.skill == "seer_check" and st.seat == seer and st.night is not None}
        filled = {e.phase for e in known if e.skill == "seer_check" and e.actor == seer}
        filled |= {nights.get(st.night) for st in statements if st.skill == "seer_check" and st.seat == seer and st.night is not None}
        new = [i for i in idx if out[i].target not in known_targets]
        told = [i for i in new if _TOLD_DONE.search(out[i].text)]
        if not {out[i].target for i in new} - {out[i].target for i in told}:
            # each seat once, where she first tells it with the verb (a bare mention of it elsewhere is the same check)
            ordered = [i for k, i in enumerate(told) if out[i].target not in {out[j].target for j in told[:k]}]
        elif _one_run(out, new):
            ordered = new  # her list, told in one breath: "6 号金水，10 号查杀"
        else:
            continue  # a new seat listed with no verb, apart from the rest: the turn is no recount in order
        free = [n for n in sorted(nights) if n <= day and nights[n] not in filled]
        if len(ordered) < 2 or len(ordered) != len(free):
            continue
        for i, n in zip(ordered, free):
            out[i] = replace(out[i], night=n, placed=f"a recount of {len(ordered)} checks in one turn, placed in the order told")
    return out


def _one_run(statements: Sequence[Statement], idx: Sequence[int]) -> bool:
    """The reports are of distinct seats and follow one another with at most a few characters between them."""
    spans = sorted(statements[i].span or (-1, -1) for i in idx)
    if len({statements[i].target for i in idx}) != len(idx) or spans[0][0] < 0:
        return False
    return all(0 <= b[0] - a[1] <= _RUN_GAP for a, b in zip(spans, spans[1:]))
