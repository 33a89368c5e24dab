"""Own night actions read from the WereBench annotator log (issue 13 item 5): each rule of
werealign.importers.toolkit.nights.nights pinned on an invented game and invented log sentences."""

from __future__ import annotations

from werealign.game.visibility import build_context
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Phase, SeatInfo
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

SEATS = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good", original_role_label=label)
         for s, r, label in [(1, "witch", "女巫"), (2, "seer", "预言家"), (3, "guard", "守卫"), (4, "werewolf", "狼人"),
                             (5, "villager", "村民"), (6, "werewolf", "狼人"), (7, "silencer_elder", "禁言长老")]]
PHASES = [Phase(id="night-1", kind="night", day=1, start=0, end=9), Phase(id="day-1", kind="day", day=1, start=10, end=19),
          Phase(id="night-2", kind="night", day=2, start=20, end=29), Phase(id="day-2", kind="day", day=2, start=30, end=39)]


def _read(log: str):
    return read_night_actions(log, SEATS, PHASES, "zh", catalogue=BUILTIN)


def _facts(log: str) -> list[tuple]:
    return [(r.event.actor, r.event.phase, r.event.skill, r.event.target, r.event.result) for r in _read(log) if r.event]


def test_stated_own_actions_with_their_night_become_actor_only_events():
    log = ("1 号是女巫，首夜救 5 号，第二晚毒 6 号；2 号是预言家，首验 4 号是狼，第二验 5 号是好人；"
           "3 号是守卫，第二晚守 2 号；7 号是禁言长老，第一晚禁言 6 号。")
    assert _facts(log) == [
        (1, "night-1", "witch_save", 5, None), (1, "night-2", "witch_poison", 6, None),
        (2, "night-1", "seer_check", 4, "狼人"), (2, "night-2", "seer_check", 5, "好人"),
        (3, "night-2", "guard_protect", 2, None), (7, "night-1", "silence", 6, None),
    ]
    events = [r.event for r in _read(log) if r.event]
    assert all(e.audience.kind == "actor" and e.segment_id is None for e in events)
    # the log's words never travel with the event
    assert not any("首夜" in (e.note or "") + (e.result or "") for e in events)


def test_a_check_without_a_stated_result_takes_the_targets_true_side_and_a_kill_check_means_wolf():
    assert _facts("2 号是预言家，第一晚验 6 号，第二晚查杀 4 号") == [
        (2, "night-1", "seer_check", 6, "狼人"), (2, "night-2", "seer_check", 4, "狼人")]
    assert _facts("2 号是预言家，首验 5 号") == [(2, "night-1", "seer_check", 5, "好人")]
    assert _facts("2 号是预言家，首验 5 号金水") == [(2, "night-1", "seer_check", 5, "好人")]


def test_what_a_seat_said_is_not_what_it_did():
    # claims at the table (称, 跳, 遗言, 发言) are what a bluffing wolf makes: never read
    assert _facts("2 号是预言家，警上跳预言家称首验 6 号是狼，遗言说第二晚验了 4 号") == []
    assert _facts("1 号是女巫，发言称第一晚救 5 号") == []


def test_an_action_counts_only_in_the_clause_of_a_seat_whose_true_role_has_the_skill():
    assert _facts("4 号是狼人，第一晚救 6 号，首验 5 号是好人") == []  # a wolf has no potion or check
    # a clause stating a role the seat does not hold is no clause of its own: nothing is read in it
    assert _facts("5 号是女巫，首夜救 1 号") == []
    # after another seat's clause starts, the earlier seat's actions stop
    assert _facts("1 号是女巫，首夜救 5 号；5 号是村民，第二晚毒 6 号") == [(1, "night-1", "witch_save", 5, None)]


def test_a_second_night_after_a_listing_comma_is_read_too():
    assert _facts("1 号是女巫，第一晚救 3 号、第二晚毒 4 号") == [
        (1, "night-1", "witch_save", 3, None), (1, "night-2", "witch_poison", 4, None)]


def test_unplaceable_or_impossible_readings_are_dropped_with_a_reason():
    assert _facts("3 号是守卫，守 2 号；1 号是女巫，夜间毒 4 号") == []  # no night stated: nothing to place
    readings = _read("1 号是女巫，第三晚毒 4 号")
    assert [r.event for r in readings] == [None] and "no night-3" in readings[0].why
    readings = _read("2 号是预言家，首验 5 号是狼")  # seat 5 is a villager: the log contradicts the true roles
    assert readings[0].event is None and "contradicts" in readings[0].why
    readings = _read("1 号是女巫，第一晚救 5 号，第一晚毒 6 号")  # both potions on one night: against the rules
    assert [r.event for r in readings] == [None, None] and all("conflicting" in r.why for r in readings)
    readings = _read("1 号是女巫，第一晚救 15 号")
    assert readings[0].event is None and "not a seat" in readings[0].why


def test_the_viewpoint_sees_its_own_night_actions_and_nobody_elses():
    from crafted_game import crafted_game

    game = crafted_game()  # seat 3 is its seer, seat 5 its witch; night-1 and night-2 exist
    extra = read_night_actions("3 号是预言家，第一晚验 4 号，第二晚验 2 号；5 号是女巫，第一晚毒 2 号", game.seats, game.phases, game.language, catalogue=BUILTIN)
    game = game.model_copy(update={"events": [*game.events, *(r.event for r in extra if r.event)]})
    seer = build_context(game, 3, 14)
    assert any(e.skill == "seer_check" and e.target == 4 and e.result == "wolf" for e in seer.private_events)
    assert not any(e.skill == "witch_poison" for e in seer.private_events + seer.public_events)
    witch = build_context(game, 5, 14)
    assert any(e.skill == "witch_poison" and e.target == 2 for e in witch.private_events)
    # an action of a night that has not ended by the cut-off is not known yet
    assert any(e.phase == "night-2" and e.actor == 3 for e in game.events)
    assert not any(e.phase == "night-2" for e in seer.private_events)


def test_a_run_of_nights_names_its_actors_and_carries_the_night_until_the_day():
    log = ("夜间行动：第一晚狼人刀 5 号，女巫 1 号救 5 号、预言家验 6 号金水；第二晚狼人刀 2 号，3 号守 2 号，1 号毒 4 号；"
           "白天 7 号禁言长老禁言 6 号；次晚守卫守 1 号")
    # issue 20: the wolves' kill of each night is read too (actor None: the pack's decision)
    assert _facts(log) == [(None, "night-1", "wolf_kill", 5, None), (1, "night-1", "witch_save", 5, None),
                           (None, "night-2", "wolf_kill", 2, None), (1, "night-2", "witch_poison", 4, None)]
    readings = _read(log)
    by_text = {r.text: r for r in readings}
    assert by_text["女巫 1 号救 5 号"].event.phase == "night-1"
    # "金水" (good) contradicts seat 6's true role (werewolf): refused
    assert by_text["预言家验 6 号金水"].event is None and "contradicts" in by_text["预言家验 6 号金水"].why
    assert (by_text["1 号毒 4 号"].event.skill, by_text["1 号毒 4 号"].event.phase) == ("witch_poison", "night-2")
    # the day came back: the silencer's line there has no night, so nothing is read from it
    assert not any(r.event and r.event.skill == "silence" for r in readings)
    # 次晚 is night 2; the guard then has two targets on night 2: both refused as conflicting
    guard = [r for r in readings if r.seat == 3]
    assert len(guard) == 2 and all(r.event is None and "conflicting" in r.why for r in guard)


def test_a_named_actor_must_hold_the_role_the_action_needs():
    night = "第一晚狼人刀 5 号，"
    kill = (None, "night-1", "wolf_kill", 5, None)  # issue 20: the wolves' kill is read too
    assert _facts(night + "4 号救 5 号") == [kill]  # seat 4 is a wolf: no potion
    assert _facts(night + "女巫 2 号救 5 号") == [kill]  # seat 2 is the seer, not the witch
    assert _facts(night + "女巫救 5 号") == [kill, (1, "night-1", "witch_save", 5, None)]  # the only witch
    two_witches = [s.model_copy(update={"role": "witch"}) if s.seat == 5 else s for s in SEATS]
    assert [r.event.skill for r in read_night_actions(night + "女巫救 6 号", two_witches, PHASES, "zh", catalogue=BUILTIN) if r.event] == ["wolf_kill"]
    # issue 41: a protection told from the protected seat is the guard's (seat 3 is the guard)
    assert _facts("第一晚狼人刀 5 号，5 号被 3 号守护") == [kill, (3, "night-1", "guard_protect", 5, None)]
    assert _facts("第一晚狼人刀 5 号，5 号被 4 号守护") == [kill]  # seat 4 is no guard
    assert _facts("1 号（女巫）首晚救 5 号；2 号玩家是预言家，第二晚验 4 号") == [
        (1, "night-1", "witch_save", 5, None), (2, "night-2", "seer_check", 4, "狼人")]


def _kills(log: str) -> list[tuple]:
    return [(phase, target) for actor, phase, skill, target, _ in _facts(log) if skill == "wolf_kill"]


def test_issue30_kill_wordings_the_reader_never_met_landing_naming_and_passive():
    # the knife "landing" on a seat, with the target's role (and a short nickname) before its seat
    assert _kills("第二晚狼队刀到女巫 1 号") == [("night-2", 1)]
    assert _kills("第一晚狼人团队刀中预言家阿明 2 号") == [("night-1", 2)]
    assert _kills("第一晚狼人首刀、村民 5 号") == [("night-1", 5)]
    # the victim named first, the knife it met after
    assert _kills("首晚村民 5 号遭遇狼刀") == [("night-1", 5)]
    assert _kills("第二晚守卫 3 号遇到首刀") == [("night-2", 3)]
    # a wolf told to knife itself
    assert _kills("第二晚狼队让 6 号决定自刀") == [("night-2", 6)]


def test_issue30_a_target_role_that_the_seat_does_not_hold_reads_nothing():
    assert _kills("第一晚狼人刀中守卫 5 号") == []  # seat 5 is a villager
    assert _kills("首晚女巫 3 号遭遇狼刀") == []  # seat 3 is the guard
    assert _kills("第一晚狼队让 5 号自刀") == []  # a villager is no wolf
    # a plain wolf's name fits any wolf-side seat
    assert _kills("第二晚狼人刀中狼人 4 号") == [("night-2", 4)]
    # by day, or said at the table, nothing
    assert _kills("第一天白天村民 5 号遭遇狼刀") == []
    assert _kills("2 号是预言家，发言称第一晚 5 号遭遇狼刀") == []


def test_issue30_a_denied_kill_is_no_kill_and_a_transcripts_space_before_the_knife_is_no_break():
    assert _kills("第二夜狼人并没有刀 3 号") == []
    assert _kills("第二夜狼队未选择刀 3 号而是刀了 5 号") == []  # the second kill names no killer: not read either
    recap = "第二晚 村民 5 号 遭遇狼刀 白天大家发言"
    assert [(r.event.phase, r.event.target) for r in read_night_actions(recap, SEATS, PHASES, "zh", transcribed=True, catalogue=BUILTIN)
            if r.event and r.event.skill == "wolf_kill"] == [("night-2", 5)]
    # a role word with a stray character before it ("明女巫"), checked against the seat like any role word
    assert _kills("第一晚狼人刀死明女巫 1 号") == [("night-1", 1)]
    assert _kills("第一晚狼人刀死明女巫 2 号") == []


def test_issue30_a_wolfs_own_clause_names_the_packs_kill_and_a_victim_names_the_wolf_that_knifed_it():
    assert _kills("6 号是狼人，白天发言划水，第二晚刀死女巫 1 号") == [("night-2", 1)]
    assert _kills("6 号是狼人，第二晚刀死守卫 1 号") == []  # seat 1 is the witch: the role word disagrees
    assert _kills("5 号是村民，第二晚刀死 1 号") == []  # a villager knifes nobody
    assert _kills("1 号是女巫，第二晚被 4 号刀死") == [("night-2", 1)]
    assert _kills("1 号是女巫，第二晚被 5 号刀死") == []  # seat 5 is no wolf
    # in a recap's transcript, a space after the knife does not cut the victim off
    recap = "第二晚 狼人刀死 预言家 然后白天大家发言"
    assert [(r.event.phase, r.event.target) for r in read_night_actions(recap, SEATS, PHASES, "zh", transcribed=True, catalogue=BUILTIN)
            if r.event and r.event.skill == "wolf_kill"] == [("night-2", 2)]


def test_issue30_a_stated_empty_knife_is_the_nights_kill_with_no_target():
    assert _kills("第二晚狼队选择空刀，守卫 3 号守了 2 号") == [("night-2", None)]
    assert _kills("第一天白天狼人空刀的说法被质疑") == []  # by day: not a night's fact


def test_issue30_a_word_of_choosing_between_the_actor_and_the_verb():
    assert (3, "night-2", "guard_protect", 2, None) in _facts("第二晚守卫 3 号选择守护 2 号")
    assert (1, "night-1", "witch_save", None, None) in _facts("首夜女巫 1 号选择了开药解救")
