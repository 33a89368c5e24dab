"""Issue 41 (round s41c): the guard's protections in more wordings, each on invented sentences (no WereBench text) with
the plans, negations, other players' words and other roles that must not be read: the guard's own "昨天我是守的 X",
the table's "自守" in the recap or the log, and the log's account of his words running on past its word of speech."""

from __future__ import annotations

import pytest
from test_fact_readers import _placed, _read
from test_knowledge import _zh_game

from werealign.importers.toolkit.nights.claims import read_log_claims
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

# test_knowledge _zh_game: 1 and 4 werewolves, 2 and 6 villagers, 3 seer, 5 witch, 7 guard; nights 1-3.
# test_import_nights SEATS (for _read, the written sources): 1 witch, 2 seer, 3 guard, 4 and 6 wolves, 5 villager.


@pytest.mark.parametrize("turn, want", [
    (("day-2", 7, "大家听我说，昨天我是守的 6 号，所以平安夜"), {("night-2", "guard_protect", 6)}),  # "昨天": last night
    (("day-2", 7, "我是守卫，第一天晚上我是守的二号"), {("night-1", "guard_protect", 2)}),  # the copula before his verb
    (("day-3", 7, "守卫跳出来，我昨天守的 5 号"), {("night-3", "guard_protect", 5)}),
    (("day-2", 7, "第一个晚上我是守的 3 号牌"), {("night-1", "guard_protect", 3)}),
])
def test_the_guards_own_report_in_more_wordings(turn, want):
    assert _placed([turn])[0] == want


@pytest.mark.parametrize("turn", [
    ("day-2", 7, "昨天我想守 6 号，后来没守"),  # a wish, not his act
    ("day-2", 7, "如果昨天我是守的 6 号，那就是同守同救"),  # a condition
    ("day-2", 6, "昨天我是守的 2 号"),  # a villager's words: only the true guard's turns are read
    ("day-2", 7, "你昨天守的 6 号吗"),  # another's act, a question
    ("day-2", 7, "昨天守卫的发言不好，6 号也不好"),  # 守卫 the role word, no act
    ("day-2", 7, "明天我是守 6 号"),  # a plan
])
def test_what_is_not_the_guards_report(turn):
    assert _placed([turn])[0] == set()


def test_the_tables_word_for_guarding_oneself_in_the_recap_or_the_log():
    facts = lambda text: {(e.phase, e.actor, e.target) for e in _read(text) if e.skill == "guard_protect"}  # noqa: E731
    assert facts("第二晚守卫 3 号自守，狼人刀了 5 号") == {("night-2", 3, 3)}
    assert facts("第二晚守卫阿强选择自守，狼队刀了 5 号") == {("night-2", 3, 3)}  # the role word, a name: the one guard
    assert facts("第一晚 3 号选择了自守") == {("night-1", 3, 3)}
    assert facts("第二晚守卫没有自守，狼队刀了 5 号") == set()  # denied
    assert facts("第二晚 5 号自守") == set()  # seat 5 is no guard
    assert facts("第二晚狼队刀了 5 号，3 号担心被刀所以想自守") == set()  # a wish under no act word the reader knows
    assert facts("第二晚守卫可以自守，狼队刀了 5 号") == set()  # a rule, not his act
    assert facts("第二晚守卫 3 号想空守，狼队刀了 5 号") == set()  # a wish


def test_the_logs_account_of_his_words_runs_on_past_its_word_of_speech():
    seats, phases, _ = _zh_game([])
    got = lambda log: [(c.seat, c.night, c.target) for c in read_log_claims(log, seats, phases, catalogue=BUILTIN) if c.skill == "guard_protect"]  # noqa: E731
    # "称" opens his account; the parts after it in the sentence are still his words
    assert got("7 号身为守卫，临走前称第一天空守，第二天守了 6 号，怀疑 1 号") == [(7, 1, None), (7, 2, 6)]
    # a part with no word of speech before it in the sentence is the annotator's own account: not his report
    assert got("7 号是守卫，第二天守了 6 号") == []
    # another seat's clause ends his account: its words need their own word of speech
    assert got("7 号是守卫，称第一天空守，6 号第二天守了 2 号") == [(7, 1, None)]


def test_the_guard_named_by_the_nickname_the_recaps_opening_gives_him():
    facts = lambda text: {(e.phase, e.actor, e.target) for e in _read(text, transcribed=True) if e.skill == "guard_protect"}  # noqa: E731
    opening = "本局 3 号阿强是守卫，5 号小山是村民，4 号大林、6 号二木是狼人 "
    assert facts(opening + "第一晚狼人刀中阿强，在阿强选择空手的情况下，女巫救了他") == {("night-1", 3, None)}
    assert facts(opening + "第一晚无事 第二晚阿强自守，狼队刀了 5 号") == {("night-2", 3, 3)}
    assert facts(opening + "第二晚小山选择空手") == set()  # a villager's nickname: no guard
    assert facts(opening + "第二晚阿强没有空手") == set()  # denied
    assert facts("本局 3 号是守卫 第二晚阿强自守") == set()  # a name the opening never maps


def test_the_guard_asking_his_night_then_answering_it():
    assert _placed([("day-3", 7, "第二天晚上我守的是谁呢？我守的是 6 号")])[0] == {("night-2", "guard_protect", 6)}
    assert _placed([("day-3", 7, "第二天晚上你守的是谁呢？我不知道")])[0] == set()  # asked of another, no answer
    assert _placed([("day-3", 7, "第二天晚上我守的是谁呢？你猜")])[0] == set()  # no seat given


def test_the_guard_ending_one_sub_clause_and_his_act_opening_the_next():
    facts = lambda text: {(e.phase, e.actor, e.target) for e in _read(text) if e.skill == "guard_protect"}  # noqa: E731
    assert facts("第二晚狼人刀了 5 号，而守卫 3 号，当晚选择守自己，5 号死亡") == {("night-2", 3, 3)}
    assert facts("第一晚狼人刀了 3 号，此人是守卫，选择了空手") == {("night-1", 3, None)}  # the role word alone: the one guard
    assert facts("第二晚狼人刀了 5 号，而守卫 3 号，前一晚选择守自己") == set()  # another night than the clause's
    assert facts("第二晚狼人刀了 5 号，而守卫 5 号，当晚选择守自己") == set()  # seat 5 is no guard
    assert facts("第二晚狼人刀了 5 号，守卫 3 号，当晚没有空手") == set()  # denied
    assert facts("第三晚守卫前一晚空手，狼人刀了 5 号") == set()  # a night word between the role word and the act


def test_an_appearance_staged_is_no_act():
    """"企图造成女巫毒了 8 号的假象": the wolves staged a poisoning; the clause reports no poison (nor anything else)."""
    got = lambda text: {(e.phase, e.skill, e.target) for e in _read(text)}  # noqa: E731
    assert got("第二晚女巫 1 号毒了 4 号，狼人刀了 5 号，想要造成女巫毒了 5 号的假象") == {
        ("night-2", "wolf_kill", 5), ("night-2", "witch_poison", 4)}
    assert got("第二晚，狼人伪装成女巫毒了 5 号的样子") == set()
    # without the staging word the same poison is read
    assert ("night-2", "witch_poison", 5) in got("第二晚狼人刀了 6 号，女巫 1 号毒了 5 号")
