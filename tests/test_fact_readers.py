"""Issue 41: night facts true, read wherever they are stated, with evidence. Every sentence here is invented for these
tests (no WereBench text); each reader meets wordings it was not written from."""

from __future__ import annotations

import pytest
from test_import_nights import PHASES, SEATS
from test_knowledge import _zh_game

from werealign.importers.toolkit.nights.check_talk import check_reports
from werealign.importers.toolkit.nights.claims import read_log_claims, read_statements, statement_events
from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_truth import settle_night_actions
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import EVERYONE
from werealign.schema.roles import builtin_catalogue, catalogue_for

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

# test_import_nights SEATS: 1 witch, 2 seer, 3 guard, 4 and 6 werewolves, 5 villager, 7 silencer elder; nights 1-2.
# test_knowledge _zh_game: 1 and 4 werewolves, 2 and 6 villagers, 3 seer, 5 witch, 7 guard; nights 1-3.


# --------------------------------------------------------------------------- a seer's own report, and what is not one


@pytest.mark.parametrize("text, seat, result", [
    ("各位，我昨天晚上查验了八号，八号是一张金水", 8, "金水"),
    ("先把信息给出来：5 号是我验出来的查杀", 5, "查杀"),
    ("我的查杀就是 11 号，没有第二种可能", 11, "查杀"),
    ("我给了 9 号一张金水，希望他能站我这边", 9, "金水"),
    ("我直接查杀 3 号，今天出他", 3, "查杀"),
    ("上警了，十二金水，警徽流先四后七", 12, "金水"),  # the bare idiom of a seer's jump
    ("验了 6 号他是个好人", 6, "好人"),
    ("大家听我说，我昨晚验人就是七号，是我的查杀牌", 7, "查杀"),  # the verb's object "人", then the seat, then "是我的"
])
def test_a_seers_own_report_in_unseen_wordings_is_read(text, seat, result):
    assert [(s, r) for _, s, r, _ in check_reports(text)] == [(seat, result)]


@pytest.mark.parametrize("text", [
    "警徽流先验七号再验二号，验到谁是狼就出谁",  # a plan
    "如果我今晚能活，我会去验 4 号，他要是好人就是金水",  # a hypothesis
    "10 号也是帮着好人投票的，他应该是个好人",  # a vote, a judgment
    "上一局我验了 8 号是查杀，这局不一样",  # another game
    "她昨晚跟我说 2 号是她的金水",  # someone else's words
    "4 号是 9 号的查杀，我不信",  # a rival claimant's check
    "我判断 3 号是狼",  # a judgment, no check
    "昨晚我验出来一个查杀，先不说是谁",  # "一个" is a count, not seat 1
    "6 号查杀 2 号，说明 6 号在悍跳",  # 6 claims a check of 2: not the speaker's
    "大家看，5查杀的2号，8查杀了2号，那2就是狼",  # 5 and 8 claim checks of 2: neither is the speaker's
    "今晚我要验人就是 10 号，是我的查杀就出他",  # a plan, in the verb-object wording
])
def test_plans_votes_quotes_other_games_and_rivals_checks_are_not_her_check(text):
    assert check_reports(text) == []


def _placed(turns, known=()):
    seats, phases, utts = _zh_game(turns)
    events, refused, disputed = statement_events(read_statements(utts, seats, phases, catalogue=BUILTIN), seats, phases, list(known), catalogue_for(()), True)
    return {(e.phase, e.skill, e.target) for e in events}, refused, disputed


def _written(phase: str, actor: int | None, skill: str, target: int | None) -> Event:
    return Event(kind="skill_use", phase=phase, segment_id=None, audience=EVERYONE if actor is None else {"kind": "actor"}, actor=actor,
                 target=target, skill=skill)


def test_a_seers_checks_form_one_list_that_agrees_with_every_source():
    # the recap (say) puts seat 2 on night 1; her own words put seat 6 there: neither is taken, the gap is named
    facts, _, disputed = _placed([("day-1", 3, "昨晚我验了 6 号，是个好人")], known=[_written("night-1", 3, "seer_check", 2)])
    assert facts == set() and (3, "seer_check", "night-1") in disputed
    # one seat on two nights: one of them is wrong, which is not known
    facts, _, disputed = _placed([("day-1", 3, "第一晚验的 6 号，好人"), ("day-2", 3, "第二晚我查验的是 6 号，是金水")])
    assert facts == set() and {(3, "seer_check", "night-1"), (3, "seer_check", "night-2")} <= set(disputed)
    # herself is no check
    facts, refused, _ = _placed([("day-1", 3, "我昨晚验了 3 号是金水")])
    assert facts == set() and refused


def test_an_unnamed_report_takes_only_the_night_before_its_day_when_every_earlier_night_is_known():
    facts, refused, _ = _placed([("day-2", 3, "说一下，2 号是我的金水")])  # night 1 unknown: it may be night 1's
    assert facts == set() and any("not said" in why for _, why in refused)
    facts, _, _ = _placed([("day-1", 3, "我验了 2 号，金水"), ("day-2", 3, "6 号是我的金水")])
    assert facts == {("night-1", "seer_check", 2), ("night-2", "seer_check", 6)}
    # night 2 already known and night 1 not: an unnamed report on day 2 is not pushed back to night 1
    facts, refused, _ = _placed([("day-2", 3, "6 号是我的金水")], known=[_written("night-2", 3, "seer_check", 2)])
    assert facts == set()


def test_an_antidote_whose_night_is_not_said_is_placed_only_on_day_one():
    facts, _, _ = _placed([("day-1", 5, "我是女巫，我救了 2 号")])
    assert facts == {("night-1", "witch_save", 2)}
    facts, refused, _ = _placed([("day-3", 5, "2 号是我的银水")])  # on day 3 it may be night 1's, 2's or 3's
    assert facts == set() and any("antidote may be" in why for _, why in refused)


def test_the_logs_account_of_a_seer_clause_without_a_copula():
    seats, phases, _ = _zh_game([])
    claims = read_log_claims("3 号预言家，上警后报 4 号查杀，归票 4 号；6 号村民", seats, phases, catalogue=BUILTIN)
    assert [(c.seat, c.target, c.result, c.day) for c in claims] == [(3, 4, "查杀", 1)]


# --------------------------------------------------------------------------- the written sources


def _read(text: str, transcribed: bool = False):
    return [r.event for r in read_night_actions(text, SEATS, PHASES, "zh", transcribed=transcribed, catalogue=BUILTIN) if r.event is not None]


def test_a_check_named_by_its_night_in_the_recap_is_the_seers():
    events = _read("警长竞选后 2 号第一晚的金水 5 号站了出来，2 号将警徽交给第二晚的金水村民7 号")
    assert {(e.phase, e.actor, e.target, e.result) for e in events} == {("night-1", 2, 5, "好人"), ("night-2", 2, 7, "好人")}
    assert _read("第二晚预言家验到 4 号是狼人")[0].target == 4
    # a bluffing wolf's "金水" named by its night is not the seer's; nor a seat that is not the seer
    assert _read("悍跳狼第一晚的金水 5 号") == [] and _read("6 号第一晚的金水 5 号") == []


def test_the_witchs_antidote_by_nickname_or_seat_alone_and_never_when_denied():
    assert [(e.phase, e.actor, e.skill) for e in _read("第一晚狼人刀了 5 号，女巫小花毛决定用了解药")] \
        == [("night-1", None, "wolf_kill"), ("night-1", 1, "witch_save")]
    assert [e.actor for e in _read("第二晚 1 号决定开药救人") if e.skill == "witch_save"] == [1]
    assert not [e for e in _read("第一晚女巫阿花并没有使用解药") if e.skill == "witch_save"]
    assert not [e for e in _read("第一晚 5 号选择开药解救") if e.skill == "witch_save"]  # seat 5 is no witch
    # a recap's transcript breaks at the space after the witch's seat: the antidote still is hers
    assert [e.actor for e in _read("第一晚狼队刀 5 号 女巫 1 号 使用了解药 形成平安夜 警上发言", transcribed=True) if e.skill == "witch_save"] == [1]


def _exit(seat: int, phase: str, how: str = "night_death") -> Event:
    return Event(kind="elimination", phase=phase, segment_id=None, audience=EVERYONE, target=seat, result=how)


_THREE = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]


def test_a_kill_a_night_off_the_hosts_dawns_is_dropped_and_the_dawn_decides():
    seats = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good") for s, r in
             [(1, "seer"), (2, "villager"), (3, "villager"), (4, "werewolf"), (5, "villager")]]
    kill2 = Event(kind="skill_use", phase="night-2", segment_id=None, audience={"kind": "team", "team": "wolf"}, target=5, skill="wolf_kill")
    # 5 dies at the dawn after night 3; night 2's dawn has 3 dead, which no poison explains: the log counted a night short
    kept, dropped = settle_night_actions([kill2], [_exit(3, "day-2"), _exit(5, "day-3")], seats, _THREE, catalogue=BUILTIN)
    assert [why for e, why in dropped if e is kill2] and ("night-2", 3) in {(e.phase, e.target) for e in kept if e.skill == "wolf_kill"}
    assert ("night-3", 5) in {(e.phase, e.target) for e in kept if e.skill == "wolf_kill"}
    # a protection stated with the kill explains the survival: kept
    guard = [SeatInfo(seat=2, role="guard", faction="good")]
    protect = Event(kind="skill_use", phase="night-2", segment_id=None, audience={"kind": "actor"}, actor=2, target=5, skill="guard_protect")
    kept, dropped = settle_night_actions([kill2, protect], [_exit(3, "day-2"), _exit(5, "day-3")], [*seats[:1], *guard, *seats[2:]], _THREE, catalogue=BUILTIN)
    assert not [e for e, _ in dropped if e is kill2]


@pytest.mark.parametrize("role, inferred", [("villager", True), ("magician", False), ("stalker", False), ("某种新角色", False)])
def test_a_lone_dawn_death_is_the_wolves_kill_only_when_no_seat_the_catalogue_says_can_kill_could_have(role, inferred):
    seats = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good") for s, r in
             [(1, "seer"), (2, role), (3, "villager"), (4, "werewolf"), (5, "villager")]]
    kept, _ = settle_night_actions([], [_exit(3, "day-1")], seats, _THREE, catalogue=BUILTIN)
    assert (("night-1", 3) in {(e.phase, e.target) for e in kept if e.skill == "wolf_kill"}) is inferred


def test_a_witch_learns_no_victim_after_any_antidote_a_source_states():
    # the antidote on night 1, its target unknown: kept, spent; night 2's victim is not hers to know
    seats, phases, _ = _zh_game([])
    nf = read_night_facts("5 号是女巫，第一晚用了解药；第二晚狼人刀 2 号", None, [], seats, phases, "zh", [_exit(2, "day-2")], catalogue=BUILTIN)
    assert ("night-1", "witch_save", None) in {(e.phase, e.skill, e.target) for e in nf.kept}
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "seats"]
    # the log and the recap name different seats saved on night 1: neither save is kept, and still she is told no
    # victim after night 1
    nf = read_night_facts("5 号是女巫，第一晚救 2 号；第二晚狼人刀 6 号", "第一晚女巫5 号救了 7 号", [], seats, phases, "zh", [_exit(6, "day-2")], catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "witch_save"]
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "seats" and e.phase != "night-1"]


def test_every_fact_read_carries_the_words_it_was_read_from():
    seats, phases, utts = _zh_game([("day-1", 3, "各位，昨晚我验了 4 号，他是查杀")])
    nf = read_night_facts("第一晚狼人刀 6 号", "首夜狼队刀死 6 号", utts, seats, phases, "zh", [_exit(6, "day-1")], catalogue=BUILTIN)
    for e in nf.kept:
        assert e.evidence, e
        for ev in e.evidence:
            source = {"annotator_log": "第一晚狼人刀 6 号", "recap": "首夜狼队刀死 6 号"}.get(ev.source)
            assert ev.quote.replace(" ", "") in (source or utts[0].text).replace(" ", "")
    assert {ev.source for e in nf.kept if e.skill == "wolf_kill" for ev in e.evidence} == {"annotator_log", "recap"}
    check = next(e for e in nf.kept if e.skill == "seer_check")
    assert check.evidence[0].segment_id == utts[0].segment_ids[0]


# --------------------------------------------------------------------------- public events: a host turn across a nightfall


def test_a_host_turn_across_nightfall_and_dawn_is_two_moments():
    from werealign.importers.report import ImportReport
    from werealign.importers.toolkit.ctx import Ctx
    from werealign.importers.werebench.events import eliminations
    from werealign.schema import Segment, Utterance

    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=10), Phase(id="day-1", kind="day", day=1, start=10, end=100),
              Phase(id="night-2", kind="night", day=2, start=100, end=100), Phase(id="day-2", kind="day", day=2, start=100, end=200),
              Phase(id="night-3", kind="night", day=3, start=200, end=210), Phase(id="day-3", kind="day", day=3, start=210, end=300)]

    def turn(i: int, seg: int, start: float, phase: str, text: str) -> Utterance:
        return Utterance(index=i, segment_ids=[seg], start=start, end=start + 5, phase=phase, speaker="host", text=text,
                         segments=[Segment(id=seg, start=start, end=start + 5, text=text)])

    utts = [
        # the self-destruct ends day 1; night 2 (zero length at the turn's start) falls; its dawn names seat 3
        turn(0, 5, 100, "day-2", "四号玩家自爆，游戏继续，天黑请闭眼，天亮了，昨天晚上死亡的是 3 号玩家"),
        # a turn labelled night 3 that runs on: the exile before the nightfall is day 2's, the death after the dawn night 3's
        turn(1, 9, 201, "night-3", "6 号玩家出局，请留遗言。遗言结束，天黑请闭眼。天亮了，昨天晚上死亡的是 7 号"),
    ]
    events = eliminations(utts, phases, 8, Ctx(ImportReport(source="t"), "t.json", "g"))
    assert {(e.target, e.result, e.phase) for e in events if e.kind == "elimination"} == {
        (4, "self_destruct", "day-1"), (3, "night_death", "day-2"), (6, "voted_out", "day-2"), (7, "night_death", "day-3")}
    assert all(e.evidence and e.evidence[0].quote in utts[0].text + utts[1].text for e in events)


def test_a_take_announced_before_nightfall_in_a_turn_labelled_with_the_night_is_that_days_death():
    from werealign.importers.report import ImportReport
    from werealign.importers.toolkit.ctx import Ctx
    from werealign.importers.werebench.events import eliminations
    from werealign.schema import Utterance

    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=10), Phase(id="day-1", kind="day", day=1, start=10, end=100),
              Phase(id="night-2", kind="night", day=2, start=100, end=120), Phase(id="day-2", kind="day", day=2, start=120, end=200)]
    u = Utterance(index=0, segment_ids=[4], start=100, end=104, phase="night-2", speaker="host",
                  text="猎人开枪带走 8 号玩家，8 号玩家请离场，游戏继续，天黑请闭眼")
    events = eliminations([u], phases, 9, Ctx(ImportReport(source="t"), "t.json", "g"))
    assert [(e.target, e.result, e.phase) for e in events if e.kind == "elimination"] == [(8, "shot", "day-1")]


def test_the_guards_own_words_and_a_protection_told_from_the_protected_seat():
    facts, _, _ = _placed([("day-3", 7, "我是守卫，第一个晚上我空守，第二天晚上守的 2 号，昨晚守了 6 号")])
    assert facts == {("night-1", "guard_protect", None), ("night-2", "guard_protect", 2), ("night-3", "guard_protect", 6)}
    # the guard speaking of "the guard" is talking about the role, not reporting his night
    facts, _, _ = _placed([("day-2", 7, "如果守卫第一晚空手了，那女巫的药就白用了")])
    assert facts == set()
    events = _read("第二晚 5 号被守卫 3 号成功守护，狼人刀 5 号")
    assert ("night-2", "guard_protect", 3, 5) in {(e.phase, e.skill, e.actor, e.target) for e in events}
    assert not [e for e in _read("第二晚 5 号被 4 号守护") if e.skill == "guard_protect"]  # 4 is no guard


def test_the_badge_convention_needs_the_plan_the_badge_move_and_the_table_calling_it_gold():
    from werealign.importers.toolkit.nights.badge_checks import badge_checks
    from werealign.schema import Utterance

    seats, phases, _ = _zh_game([])  # seat 3 is the seer; 2 and 6 villagers

    def say(i: int, seg: int, phase: str, speaker, text: str) -> Utterance:
        return Utterance(index=i, segment_ids=[seg], start=seg, end=seg + 0.5, phase=phase, speaker=speaker, text=text)

    plan = say(0, 41, "day-2", 3, "我拿警徽，今天晚上我去验 6 号，明天见")
    badge = Event(kind="badge_transfer", phase="day-3", segment_id=72, audience=EVERYONE, actor=3, target=6,
                  evidence=[{"source": "release_field", "segment_id": 72, "quote": "utterances[9].sheriff = 6号"}])
    table = say(1, 75, "day-3", 2, "警徽给了 6 号，那 6 号就是她的金水")
    found = badge_checks([plan, table], seats, phases, [badge], True, catalogue=BUILTIN)
    assert [(e.phase, e.actor, e.target, e.result) for e in found] == [("night-3", 3, 6, "好人")]
    assert [ev.quote for ev in found[0].evidence] == ["验 6 号", "utterances[9].sheriff = 6号", "6 号就是她的金水"]
    # any one of the three missing: nothing is read
    assert badge_checks([table], seats, phases, [badge], True, catalogue=BUILTIN) == []
    assert badge_checks([plan], seats, phases, [badge], True, catalogue=BUILTIN) == []
    assert badge_checks([plan, table], seats, phases, [badge.model_copy(update={"target": 2})], True, catalogue=BUILTIN) == []
    # the badge to a wolf is no 金水, whatever the table says
    wolf_plan = plan.model_copy(update={"text": "今天晚上验 4 号"})
    assert badge_checks([wolf_plan, table.model_copy(update={"text": "4 号是金水"})], seats, phases,
                        [badge.model_copy(update={"target": 4})], True, catalogue=BUILTIN) == []


def test_more_unseen_wordings_of_a_check_named_by_its_night():
    # the seat and its night first, then the check; the actor between the night and the verb in the recap
    assert [(s, r) for _, s, r, _ in check_reports("说实话 4 号玩家第一个晚上验的查杀")] == [(4, "查杀")]
    events = _read("第二晚，预言家 2 号照着警徽流验出 7 号 是好身份")
    assert [(e.phase, e.actor, e.target) for e in events if e.skill == "seer_check"] == [("night-2", 2, 7)]
    assert _read("第二晚，6 号照着警徽流验出 7 号是好身份") == []  # 6 is no seer


def test_a_turn_that_opens_a_zero_length_night_puts_the_news_before_it_at_the_previous_dawn():
    from werealign.importers.report import ImportReport
    from werealign.importers.toolkit.ctx import Ctx
    from werealign.importers.werebench.events import eliminations
    from werealign.schema import Utterance

    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=10), Phase(id="day-1", kind="day", day=1, start=10, end=100),
              Phase(id="night-2", kind="night", day=2, start=100, end=110), Phase(id="day-2", kind="day", day=2, start=110, end=150),
              Phase(id="night-3", kind="night", day=3, start=150, end=150), Phase(id="day-3", kind="day", day=3, start=150, end=300)]
    # the news of night 2 comes late (after the day's election), then night 3 falls and dawns in the same turn
    u = Utterance(index=0, segment_ids=[9], start=150, end=160, phase="day-3", speaker="host",
                  text="昨天晚上死亡的是二号和五号，五号请离场，游戏继续，天黑请闭眼，天亮了，昨天晚上死亡的是 7 号玩家")
    report = ImportReport(source="t")
    events = eliminations([u], phases, 8, Ctx(report, "t.json", "g"))
    assert {(e.target, e.phase) for e in events if e.kind == "elimination"} == {(2, "day-2"), (5, "day-2"), (7, "day-3")}
    assert not report.entries["warning"]
    # a turn that opens with its own dawn, then a nightfall the timeline has no night for: kept, and named
    v = u.model_copy(update={"text": "天亮了，昨天晚上死亡的是二号，游戏继续，天黑请闭眼，天亮了，昨天晚上死亡的是 7 号玩家", "start": 155})
    eliminations([v], phases, 8, Ctx(report, "t.json", "g"))
    assert [e.code for e in report.entries["warning"]] == ["night_missing"]


# --------------------------------------------------------------------------- issue 41, second round: more forms, invented


def test_a_kill_with_a_described_target_or_its_night_after_the_killer():
    assert {(e.phase, e.target) for e in _read("第二晚狼人决定刀掉了昨天发言很像预言家的 2 号") if e.skill == "wolf_kill"} == {("night-2", 2)}
    assert {(e.phase, e.target) for e in _read("警长是 3 号，狼人团队于第二夜杀害了 5 号") if e.skill == "wolf_kill"} == {("night-2", 5)}
    assert not [e for e in _read("狼队在第二晚并没有刀 5 号") if e.skill == "wolf_kill"]
    assert not [e for e in _read("狼队在第二晚刀了守卫 5 号") if e.skill == "wolf_kill"]  # 5 is no guard


def test_a_poison_told_from_the_poisoned_seats_own_clause():
    assert [(e.phase, e.actor, e.target, e.skill) for e in _read("5 号是村民，白天站边 2 号，第二晚被女巫毒死")] == [("night-2", 1, 5, "witch_poison")]
    assert _read("5 号是村民，第二晚被 3 号毒死") == []  # seat 3 is no witch


def test_the_guards_night_told_by_the_recap_himself_or_empty():
    facts = lambda text: {(e.phase, e.actor, e.target) for e in _read(text) if e.skill == "guard_protect"}  # noqa: E731
    assert facts("第一晚 3 号选择守护自己，狼人刀 5 号") == {("night-1", 3, 3)}
    assert facts("第二晚守卫阿强空守，狼队刀了 5 号") == {("night-2", 3, None)}
    assert facts("第二晚 5 号选择空手") == set()  # seat 5 is no guard
    assert facts("第一晚守卫没有空手") == set()
    assert facts("第二晚守卫 3 号选择守护了预言家 2 号") == {("night-2", 3, 2)}
    assert facts("第二晚守卫 3 号守护了女巫 2 号") == set()  # seat 2 is the seer, not the witch


def test_a_seat_described_as_a_fake_claimer_is_no_word_of_speech():
    got = {(e.phase, e.skill, e.actor, e.target) for e in _read("第二晚，女巫 1 号毒死了汉跳狼 4 号，狼人刀了 5 号")}
    assert got == {("night-2", "witch_poison", 1, 4), ("night-2", "wolf_kill", None, 5)}
    assert _read("第二晚，4 号跳预言家说验了 5 号") == []


def test_the_witchs_and_the_guards_own_words_in_more_wordings():
    facts, _, _ = _placed([("day-2", 5, "我是女巫，第一夜救的是 2 号，昨天晚上毒的是这张 4 号牌")])
    assert facts == {("night-1", "witch_save", 2), ("night-2", "witch_poison", 4)}
    facts, _, _ = _placed([("day-2", 7, "守卫在这，昨天晚上我守的还是我自己")])
    assert facts == {("night-2", "guard_protect", 7)}
    # two targets for her one antidote: a slip or a mishearing, so neither is read
    facts, refused, _ = _placed([("day-1", 5, "晚上我救的是 2 号，我救的是 6 号，大家信我")])
    assert facts == set() and refused


def test_a_wolf_knifing_itself_with_the_pack_unnamed_and_a_transcripts_space_after_the_knife():
    assert {(e.phase, e.target) for e in _read("第二夜 6 号狼人决定自刀，1 号没有开药") if e.skill == "wolf_kill"} == {("night-2", 6)}
    assert not [e for e in _read("第二夜 5 号选择自刀") if e.skill == "wolf_kill"]  # seat 5 is no wolf: nothing read
    got = _read("第二晚 狼队选择落刀 村民5 号 女巫没有用药", transcribed=True)
    assert {(e.phase, e.target) for e in got if e.skill == "wolf_kill"} == {("night-2", 5)}


def test_the_witchs_own_words_naming_the_night_outrank_the_logs_numbering_of_her_potion():
    seats, phases, _ = _zh_game([])  # 5 is the witch; 1 and 4 wolves
    log = "5 号是女巫，第二晚救 2 号"  # the log puts her antidote on night 2, on seat 2
    facts = read_night_facts(log, None, _zh_game([("day-1", 5, "我是女巫，第一晚救的是 6 号")])[2], seats, phases, "zh", [], catalogue=BUILTIN)
    saves = {(e.phase, e.target) for e in facts.kept if e.skill == "witch_save"}
    assert ("night-1", 6) in saves and ("night-2", 2) not in saves
    # without her night named, her word does not overrule the log
    facts = read_night_facts(log, None, _zh_game([("day-2", 5, "我是女巫，救的是 6 号")])[2], seats, phases, "zh", [], catalogue=BUILTIN)
    assert ("night-2", 2) in {(e.phase, e.target) for e in facts.kept if e.skill == "witch_save"}


def test_targets_named_by_the_nicknames_the_recaps_opening_maps_to_seats():
    from werealign.importers.toolkit.nights.nicknames import recap_nicknames

    opening = "本局里 4 号阿豆、6 号Tom 和二号小葵是三张牌，5 号木头是村民，7 号阿豆是禁言长老 第一晚狼人刀了 5 号"
    # "阿豆" names two seats: no seat; "二号小葵" is seat 2
    assert recap_nicknames(opening, SEATS) == {"Tom": 6, "小葵": 2, "木头": 5}
    recap = opening + " 第二晚狼队选择落刀村民木头 女巫1 号毒死了悍跳狼Tom 虽然第一晚她已验出小葵是好人"
    got = {(e.phase, e.skill, e.actor, e.target) for e in _read(recap, transcribed=True)}
    # (seat 2 is the seer herself: a check of herself is refused by the truth checks downstream, not here)
    assert {("night-2", "wolf_kill", None, 5), ("night-2", "witch_poison", 1, 6)} <= got
    # a role given with the nickname must be the seat's; a name the opening never maps reads nothing
    assert not [e for e in _read(opening + " 第二晚狼队选择落刀狼人木头", transcribed=True) if e.phase == "night-2"]
    assert not [e for e in _read(opening + " 第二晚狼队选择落刀阿豆", transcribed=True) if e.phase == "night-2"]
    assert not [e for e in _read("第二晚狼队选择落刀木头", transcribed=True)]  # no opening, no map
