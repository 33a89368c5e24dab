"""Issue 41: a true seer's report with its result unsaid, or the idiom after her night (toolkit.nights.own_checks). Every
sentence is invented for these tests (no WereBench text), with the plans, conditions, negations, questions and
other players' words that must not be read."""

from __future__ import annotations

import pytest
from test_knowledge import _zh_game

from werealign.importers.toolkit.nights.own_checks import own_checks
from werealign.schema.roles import catalogue_for

# test_knowledge _zh_game: 1 and 4 werewolves, 2 and 6 villagers, 3 seer, 5 witch, 7 guard; nights 1-3.


def _read(text: str, speaker: int = 3, phase: str = "day-2") -> list[tuple]:
    seats, phases, utts = _zh_game([(phase, speaker, text)])
    return [(st.target, st.night, st.result) for st in own_checks(utts, seats, phases, catalogue_for(()))]


@pytest.mark.parametrize("text, want", [
    ("大家好，我昨晚验的 6 号，后面再说", (6, 2, "金水")),  # her night named: that night; the result: the seat's side
    ("昨天晚上我查验了四号这张牌，我们今天出他", (4, 2, "查杀")),
    ("我验了 2 号，听他怎么说", (2, None, "金水")),  # no night named: toolkit.nights.claims places it
    ("第一晚我摸的是 7 号", (7, 1, "金水")),
    ("昨晚的金水 6 号，我保他", (6, 2, "金水")),  # the idiom after her night, its result said
    ("第一晚查杀的是 1 号", (1, 1, "查杀")),
    ("我验的人是 2 号，大家听听", (2, None, "金水")),
    ("我昨天验出来的就是这张 4 号", (4, 2, "查杀")),
    ("昨晚我发的金水是 6 号", (6, 2, "金水")),  # a few words between her night and the idiom
    ("昨天晚上呢我验了一，是查杀", (1, 2, "查杀")),
    ("我昨晚验了一下发言最差的 4 号", (4, 2, "查杀")),
    ("你们问我，我昨晚验的其实是 4 号", (4, 2, "查杀")),  # an adverb of assurance before the copula
    ("第一晚我验的真的是六号牌", (6, 1, "金水")),  # a description before the seat  # a filler; a bare numeral with its result right after it
])
def test_her_report_without_a_result_or_with_the_idiom_first(text, want):
    assert _read(text) == [want]


@pytest.mark.parametrize("text, speaker", [
    ("我今晚验 6 号", 3),  # a plan (no verb done)
    ("如果我昨晚验的 6 号，那就好了", 3),  # a condition
    ("我昨晚没验 6 号", 3),  # a negation
    ("我昨晚验的 6 号吗？不记得了", 3),  # a question
    ("他说我昨晚验的 6 号", 3),  # another's words
    ("我觉得昨晚验的 6 号", 3),  # a judgment
    ("我昨晚验的 6 号", 1),  # a wolf's bluff: only the true seer's turns are read
    ("我验了一个，不说是谁", 3),  # a numeral without 号 is no seat
    ("我验了三张，都是好人", 3),
    ("我验了你说的 6 号", 3),  # another's words in the description  # nor a count, its result after it
    ("我的金水 6 号", 3),  # the idiom without her night: check_talk's forms, not these
    ("我昨晚验的 3 号", 3),  # herself
    ("我验 6 号", 3),  # the verb not done: maybe a plan
    ("我昨晚查了 6 号的发言", 3),  # 查 alone is looking into, not her check
    ("昨晚你发的金水是 6 号", 3),  # another's idiom
    ("我昨晚验的确实不是 6 号", 3),  # the assurance with a negation
    ("他昨晚验的确实是 6 号", 3),  # another's check, assured
    ("我昨晚验的其实是 6 号吗", 3),
])
def test_what_is_not_her_report(text, speaker):
    assert _read(text, speaker) == []


def test_a_wolf_side_role_a_seer_may_see_either_way_takes_no_result():
    seats, phases, utts = _zh_game([("day-2", 3, "我昨晚验的 4 号")])
    seats = [s.model_copy(update={"role": "wolf_king"}) if s.seat == 4 else s for s in seats]
    catalogue = catalogue_for(())
    role = catalogue.get("wolf_king")
    got = [(st.target, st.result) for st in own_checks(utts, seats, phases, catalogue)]
    assert got == ([] if role is not None and role.seer_sees_good else [(4, "查杀")])
