"""Issue 41, seer checks: recall without losing precision. Every sentence here is invented for these tests (no
WereBench text); each reader meets wordings it was not written from, and the plans, votes, rivals' checks and quotes
that must not be read."""

from __future__ import annotations

import pytest
from test_knowledge import _zh_game

from werealign.importers.toolkit.nights.badge_checks import badge_checks
from werealign.importers.toolkit.nights.check_talk import check_reports
from werealign.schema import Event, Utterance
from werealign.schema.models import EVERYONE
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

# test_knowledge _zh_game: 1 and 4 werewolves, 2 and 6 villagers, 3 seer, 5 witch, 7 guard; nights 1-3.


def _say(i: int, seg: int, phase: str, speaker, text: str) -> Utterance:
    return Utterance(index=i, segment_ids=[seg], start=seg, end=seg + 0.5, phase=phase, speaker=speaker, text=text)


def _badge(target: int) -> Event:
    return Event(kind="badge_transfer", phase="day-3", segment_id=72, audience=EVERYONE, actor=3, target=target,
                 evidence=[{"source": "release_field", "segment_id": 72, "quote": f"utterances[9].sheriff = {target}号"}])


def _badge_read(plan: str, table: str, target: int = 6, plan_phase: str = "day-2") -> list[tuple]:
    seats, phases, _ = _zh_game([])
    found = badge_checks([_say(0, 41, plan_phase, 3, plan), _say(1, 75, "day-3", 2, table)], seats, phases, [_badge(target)], True, catalogue=BUILTIN)
    return [(e.phase, e.target, e.result) for e in found]


@pytest.mark.parametrize("plan", [
    "我先把警徽流留了，晚上验个靠后坐的， 6 号，然后再看",  # the verb, a few words and a comma, then the seat
    "警徽流就是六二，我今晚验六二",  # a badge flow's run of seats
    "警徽流 6 我先验一下，剩下的明天说",  # the seat, then the verb
    "今天晚上我就去查这张 6 号",
])
def test_the_badge_conventions_plan_in_unseen_wordings(plan):
    assert _badge_read(plan, "6 号是一张 3 号发的金水牌，我信") == [("night-3", 6, "好人")]


@pytest.mark.parametrize("table", [
    "6 是个金水，这个不用怀疑",  # a bare seat right before it
    "那 6 号不用多说是预言家验出来的金水",  # a few words between ("不用" is no doubt)
    "我这里好人有两个，金水 6 号和女巫",
])
def test_the_table_calling_the_seat_gold_in_unseen_wordings(table):
    assert _badge_read("今晚验 6 号", table) == [("night-3", 6, "好人")]


@pytest.mark.parametrize("plan", [
    "我验了 6 号，明天再说",  # a check done, not a plan
    "我昨晚验 6 号金水，今天警徽流 2",  # a report: a result follows the seat
    "我不想验 6 号，我想看票型",  # a refusal
    "今晚验 2 号",  # another seat
])
def test_no_plan_no_badge_check(plan):
    assert _badge_read(plan, "6 号是金水") == []


@pytest.mark.parametrize("table", [
    "6 号不是金水，他是被狼人骗了",
    "6 号是不是金水我不知道",
    "6 号是个假金水",
    "那 6 号是金水吗",
    "16 号是金水",  # another seat (no such seat: no match on 6)
])
def test_the_table_doubting_or_denying_it_is_no_call(table):
    assert _badge_read("今晚验 6 号", table) == []


def test_a_plan_from_an_earlier_day_is_not_tonights():
    """She may have checked the seat the night after that plan and now pass the badge to that old 金水."""
    assert _badge_read("今晚验 6 号", "6 号是金水", plan_phase="day-1") == []


# --------------------------------------------------------------------------- her own report at the table




@pytest.mark.parametrize("text, seat, result", [
    ("你们要听我就报给你们 8 号玩家第二天晚上验的查杀", 8, "查杀"),  # a condition ("要听") before her report holds not it
    ("我可能今天就出局了 所以我验了 6 六是个好人", 6, "好人"),  # the seat said again in the other numeral
    ("我当时就验了九九是个金水", 9, "金水"),  # a numeral said twice over
    ("后来没办法，就把 11 验了，11 是个查杀", 11, "查杀"),  # the seat before the verb, done
    ("我把四号查验了，是张金水", 4, "金水"),
    ("好了不说了，八是一张查杀牌，出他", 8, "查杀"),  # the idiom with its copula and a classifier
    ("十一号就是个金水，我保他", 11, "金水"),
    ("就这样，五斤水，过", 5, "斤水"),  # a transcript's homophone of 金水
])
def test_her_report_after_a_distant_condition_a_repeated_seat_or_the_seat_before_the_verb(text, seat, result):
    assert [(s, r) for _, s, r, _ in check_reports(text)] == [(seat, result)]


@pytest.mark.parametrize("text", [
    "他昨晚验了 3 号是金水",  # his check
    "你验了五号是好人，我不信",  # yours
    "10 号验的 2 号查杀，那 2 号要出",  # another seat's, and no weaker reading of its words
    "那 8 号报 4 查杀，我不认",  # another seat reporting
    "我觉得 9 号金水",  # a judgment right before it
    "他要是狼的话 7 号查杀",  # a condition right before it
    "验了 3 号，5 号是金水",  # the seat said again is another seat
    "他把 7 验了，7 是个查杀",  # his, with the seat before the verb
    "先验六，后验十",  # a plan
    "3 号是一张查杀，11 号发的，我不认",  # another seat's check, named right after
    "2 号是一张金水，他给的",
    "我感觉 5 号是一张查杀",  # a judgment
    "那 4 号你是被 10 号查杀的吧",  # passive: 10 did it
    "8 号你为什么 2 查杀",  # said to another, about hers
    "后来就又发给了这个 6 号 金水",  # given by another (no 我)
    "打个比方，我验了个五金水，那又怎样",  # an example
    "如果说我明天验出来 6 号，他不是女巫，验出来 6 号是查杀，就出他",  # a condition holds its whole sentence
    "6 号是个金水吗",  # a question
])
def test_anothers_check_a_judgment_or_a_plan_is_not_her_report(text):
    assert check_reports(text) == []


# --------------------------------------------------------------------------- a recount in one turn, in order

def _night_checks(turns) -> set[tuple]:
    from werealign.importers.toolkit.nights.night_facts import read_night_facts

    seats, phases, utts = _zh_game(turns)
    return {(e.phase, e.target, e.result) for e in read_night_facts(None, None, utts, seats, phases, "zh", [], catalogue=BUILTIN).kept if e.skill == "seer_check"}


def test_a_recount_of_her_checks_in_one_turn_takes_her_free_nights_in_the_order_told():
    told = "我是预言家，4 查杀。第一晚验的 7 号金水，后来我验了 2 号，是个好人，然后没办法就把 4 验了，4 是个查杀"
    assert _night_checks([("day-3", 3, told)]) == {("night-1", 7, "好人"), ("night-2", 2, "好人"), ("night-3", 4, "狼人")}
    # night 1 known from an earlier day: the two told after it take nights 2 and 3
    assert _night_checks([("day-1", 3, "昨晚验了 7 号，金水"), ("day-3", 3, "我验了六六是个好人，我又验了 4 号是查杀")]) == {
        ("night-1", 7, "好人"), ("night-2", 6, "好人"), ("night-3", 4, "狼人")}


@pytest.mark.parametrize("told", [
    "第一晚验的 7 号金水，我验了 2 号是个好人，其他的我先不说了，大家自己想，6 号金水",  # a new seat bare, apart: no order
    "我验了 2 号是个好人，我验了 4 号是查杀",  # two told, three nights free
    "第一晚验的 7 号金水，我验了 2 号是个好人",  # one told, two nights free
    "第一晚验的 7 号金水，我验了 2 号是个好人，他验了 6 号是金水，我验了 4 号是查杀",  # his check is not hers: 2 and 4 fit,
])
def test_no_recount_when_the_checks_told_do_not_fit_her_free_nights(told):
    got = _night_checks([("day-3", 3, told)])
    if "他验了" in told:  # his words are not read; hers are two for two free nights
        assert got == {("night-1", 7, "好人"), ("night-2", 2, "好人"), ("night-3", 4, "狼人")}
    else:
        assert {n for n, _, _ in got} <= {"night-1"}


# --------------------------------------------------------------------------- her first report bounds the night


def _facts_with(log: str | None, turns, recap: str | None = None):
    from werealign.importers.toolkit.nights.night_facts import read_night_facts

    seats, phases, utts = _zh_game(turns)
    nf = read_night_facts(log, recap, utts, seats, phases, "zh", [], catalogue=BUILTIN)
    return {(e.phase, e.target) for e in nf.kept if e.skill == "seer_check"}, nf


def test_a_source_putting_a_seat_on_a_night_after_she_reported_it_is_dropped_there_and_her_night_stands():
    # her day-1 words put 6 on night 1; the log puts 6 on night 2: before, both were left out as a dispute
    got, nf = _facts_with("第二晚预言家 3 号验 6 号是金水", [("day-1", 3, "昨晚我验了 6 号，是个金水")])
    assert got == {("night-1", 6)}
    assert any("reported its result on day 1" in why for _, why in nf.dropped)
    # the log and the recap disagree on night 2; the log's seat was reported on day 1, so the recap's stands
    got, _ = _facts_with("第二晚预言家 3 号验 6 号是金水", [("day-1", 3, "昨晚我验了 6 号，是个金水")], recap="第二晚预言家 3 号验 2 号是金水")
    assert got == {("night-1", 6), ("night-2", 2)}
    # her own later words naming a later night for the same seat: that night is dropped
    got, nf = _facts_with(None, [("day-1", 3, "昨晚我验了 6 号，是个金水"), ("day-3", 3, "第三晚我验的 6 号是金水")])
    assert got == {("night-1", 6)} and any("before that night" in why for _, why in nf.refused)


def test_no_bound_from_a_report_the_truth_contradicts_or_from_anyone_but_the_seer():
    # "2 号是我的查杀" is false (2 is a villager): it bounds nothing, and the log's night 2 check of 2 stands
    got, _ = _facts_with("第二晚预言家 3 号验 2 号是金水", [("day-1", 3, "2 号是我的查杀")])
    assert got == {("night-2", 2)}
    # a wolf saying "昨晚验了 2 号" is no report of the seer's
    got, _ = _facts_with("第二晚预言家 3 号验 2 号是金水", [("day-1", 1, "昨晚我验了 2 号，是个金水")])
    assert got == {("night-2", 2)}


def test_the_recaps_check_named_by_its_night_with_a_nickname_for_the_seat():
    from werealign.importers.toolkit.nights.nights import read_night_actions
    from test_import_nights import PHASES, SEATS  # 2 seer, 5 villager, 4 and 6 werewolves; nights 1-2

    opening = "本局里 6 号Tom 和 4 号阿豆是狼人，5 号木头是村民，2 号小葵是预言家 第一晚狼人刀了 5 号"
    got = {(e.phase, e.actor, e.target, e.result) for r in read_night_actions(opening + " 后来预言家把警徽给了第二晚的金水木头", SEATS, PHASES, "zh",
                                                                               transcribed=True, catalogue=BUILTIN) if (e := r.event) and e.skill == "seer_check"}
    assert got == {("night-2", 2, 5, "好人")}
    # the result the recap states must agree with the seat's truth; a name the opening never maps reads nothing
    for tail in (" 第二晚的查杀木头", " 第二晚的金水小明"):
        assert not [r for r in read_night_actions(opening + tail, SEATS, PHASES, "zh", transcribed=True, catalogue=BUILTIN) if r.event and r.event.skill == "seer_check"]


def test_her_list_told_in_one_breath_takes_her_free_nights_in_order_and_scattered_bare_reports_do_not():
    assert _night_checks([("day-2", 3, "我是预言家，报一下验人：6 号金水，4 号查杀，今天出 4")]) == {("night-1", 6, "好人"), ("night-2", 4, "狼人")}
    # the same two, apart in the turn: no order is told
    assert _night_checks([("day-2", 3, "6 号金水，我不多说。大家想想昨天谁投了票，谁没投，还有谁在划水，4 号查杀")]) == set()
    # a list of three for two free nights: none
    assert _night_checks([("day-2", 3, "6 号金水，4 号查杀，2 号金水")]) == set()


@pytest.mark.parametrize("text, speaker, seat", [
    ("我8 号验了 2 号是查杀", None, 2),  # she names herself by her seat
    ("我是 8 号，昨晚验的 2 号，查杀", None, 2),
    ("8 号验的 2 号查杀，我就是 8 号", 8, 2),  # her own seat as the subject, said by her
    ("我告诉你们 2 号查杀", None, 2),  # the audience she tells is no owner
    ("跟大家、跟你们说一下，我验了 2 号是查杀", None, 2),
])
def test_she_may_name_herself_by_her_seat_and_tell_you_all(text, speaker, seat):
    assert [s for _, s, _, _ in check_reports(text, speaker=speaker)] == [seat]
    if speaker is not None:
        assert check_reports(text, speaker=speaker + 1) == []  # said by another seat, it is that seat's check


def test_a_result_word_with_a_seat_after_it_is_a_verb_and_its_object():
    # "验 5 号" is a plan of the badge flow; "查杀 8 号" the check (read by the form for it)
    assert [(s, r) for _, s, r, _ in check_reports("10 号跳预言家，警上验 3 号警下验 5 号查杀 8 号", log=True)] == [(8, "查杀")]
    assert [(s, r) for _, s, r, _ in check_reports("我验了 5 号是查杀，8 号金水")] == [(5, "查杀"), (8, "金水")]


@pytest.mark.parametrize("text, want", [
    ("我首先验了 5 号，他是金水", [5]),  # "首先" is "first of all": the verb done is her report
    ("我先验了 5 号，是个金水", [5]),
    ("先验六，后验十是查杀", []),  # a plan still
    ("我先验 5 号是金水的话", []),
])
def test_first_of_all_is_no_plan_when_the_check_is_done(text, want):
    assert [seat for _, seat, _, _ in check_reports(text)] == want
