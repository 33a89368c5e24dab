"""Issue 41: the true seer's checks as the host's recap tells them (toolkit.nights.recap_checks). Every sentence is
invented for these tests (no WereBench text): the structure (the recap's night and day parts, actor / verb or idiom /
target / result in one sub-clause, in either order) is tested on wordings it was not written from, with the bluffs,
plans, negations and other seats' checks that must not be read."""

from __future__ import annotations

import pytest
from test_knowledge import _zh_game

from werealign.importers.toolkit.nights.claims import statement_events
from werealign.importers.toolkit.nights.recap_checks import recap_checks
from werealign.schema.roles import catalogue_for

# test_knowledge _zh_game: 1 and 4 werewolves, 2 and 6 villagers, 3 seer, 5 witch, 7 guard; nights 1-3.
OPENING = "本局 1 号阿青、4 号大毛是狼人，3 号小满是预言家，5 号是女巫，7 号是守卫 "


def _read(recap: str) -> list[tuple]:
    seats, phases, _ = _zh_game([])
    return [(st.target, st.night, st.result) for st in recap_checks(OPENING + recap, seats, phases, catalogue_for(()))]


def _kept(recap: str) -> set[tuple]:
    """What the import keeps of them: placed, checked against the true roles (toolkit.nights.claims)."""
    seats, phases, _ = _zh_game([])
    events, _, _ = statement_events(recap_checks(OPENING + recap, seats, phases, catalogue_for(())), seats, phases, [], catalogue_for(()), True)
    return {(e.phase, e.target, e.result) for e in events}


@pytest.mark.parametrize("recap, want", [
    ("第一晚狼队刀了 2 号 预言家 3 号验了 4 号是狼人 白天大家都很安静", (4, 1, "狼人")),  # in a night's part: that night
    ("首夜女巫没有开药，预言家验出六号是好人", (6, 1, "好人")),  # the role word alone, a seat in Chinese numerals
    ("第一晚平安夜 小满查验了大毛，狼人身份", (4, 1, "查杀")),  # her nickname; the result after a comma is not read: the truth gives it
    ("第一晚无事 第二晚风平浪静，真预言家小满则验出坐在后面的大毛是狼人", (4, 2, "狼人")),  # her nickname, the target's too
    ("第一晚无事 第二天白天，预言家 3 号爆出 6 号金水", (6, None, "金水")),  # in a day's part: the night is not said
    ("第一晚无事 第一天白天，预言家 3 号前置位发村民 2 号金水", (2, None, "金水")),  # the idiom given, a role before the target
    ("第一晚无事 竞选环节 3 号首验 7 号", (7, 1, "金水")),  # 首验: night 1; no result said: the target's side
    ("第一晚无事 第一天白天，4 号是预言家 3 号的查杀", (4, None, "查杀")),  # the target first, then hers
    ("第一晚无事 第一天白天，大毛被预言家查杀", (4, None, "查杀")),  # the passive
    ("第二晚狼人刀了 3 号 3 号死后把警徽给了当晚的金水 6 号", (6, 2, "金水")),  # 当晚: the night of its part
    ("第一晚无事 竞选环节，3 号前置位发言直接查杀 4 号", (4, None, "查杀")),  # 发言 (speaking) is no giving
    # her night named between her and the verb, told in a day's part: that night (the mark splits no part)
    ("第一晚无事 竞选环节，真预言家小满第一晚验了大毛是一个查杀，于是反水", (4, 1, "查杀")),
    ("第一晚无事 第二晚无事 第二天白天，预言家阿珍第二晚就验了 6 号", (6, 2, "金水")),
])
def test_the_seers_check_in_the_recaps_structure(recap, want):
    assert _read(recap) == ([want] if want else [])


@pytest.mark.parametrize("recap", [
    "第一晚无事 竞选环节，狼人 1 号悍跳预言家查杀 6 号",  # a bluffing wolf's check, the role word after 悍跳
    "第一晚无事 竞选环节，村民 2 号发言跳预言家发 4 号查杀",  # a villager claiming the seer
    "第一晚无事 竞选环节，1 号假预言家发了 2 号金水",  # a seat that is not the seer
    "第一晚无事 第一天白天，预言家 3 号准备验 4 号",  # a plan
    "第一晚无事 第一天白天，预言家 3 号如果验 4 号是查杀",  # a condition
    "第一晚无事 第一天白天，预言家 3 号没有爆出 4 号查杀",  # a negation
    "第一晚无事 第一天白天，预言家 3 号说 1 号验了 4 号",  # another seat's words between
    "第一晚无事 第一天白天，预言家 3 号发了 6 号",  # giving, with no result word: no report of a check
    "3 号预言家验 4 号是狼人",  # in the opening: no night yet
    "第一晚无事 第一天白天，预言家 3 号验出女巫 6 号是好人",  # the role named is not the seat's
    "第一晚无事 竞选环节，预言家小满第一晚没有验人",  # her night named, then a negation: no check
    "第一晚无事 竞选环节，悍跳预言家阿青第一晚验了 6 号是狼人",  # a bluff before the role word, her night named
    "第一晚无事 竞选环节，预言家小满第一晚准备验 4 号",  # her night named, then a plan
])
def test_what_the_recap_reader_refuses(recap):
    assert _read(recap) == []


def test_the_recaps_checks_are_settled_like_every_seer_report():
    # a day's report takes the one free night before the day, a result the truth contradicts is dropped
    assert _kept("第一晚狼队刀了 2 号 预言家 3 号验了 4 号是狼人 第二天白天，预言家 3 号爆出 6 号金水") == {
        ("night-1", 4, "狼人"), ("night-2", 6, "好人")}
    assert _kept("第一晚无事 预言家 3 号验了 2 号是查杀") == set()  # 2 is a villager
    # a day's report with two nights unknown before it is placed nowhere
    assert _kept("第一晚无事 第二晚无事 第二天白天，预言家 3 号爆出 6 号金水") == set()
