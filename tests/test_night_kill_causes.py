"""Issue 41 (branch k41): a dawn's deaths each given one cause by the seats' own clauses, the stalker's assassination
among them; and a self-destruct told right after the night it led into. Every sentence is invented for these tests
(no WereBench text), in wordings the release does not use, with the negative cases beside them."""

from __future__ import annotations

from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_record import DERIVED_NOTE
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import EVERYONE
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

# 1 witch, 2 seer, 3 stalker, 4 and 6 werewolves, 5 and 7 villagers, 8 hunter; nights 1-4, the recording ends on night 4.
SEATS = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good", original_role_label=label)
         for s, r, label in [(1, "witch", "女巫"), (2, "seer", "预言家"), (3, "stalker", "潜行者"), (4, "werewolf", "狼人"),
                             (5, "villager", "村民"), (6, "werewolf", "狼人"), (7, "villager", "村民"), (8, "hunter", "猎人")]]
PHASES = [Phase(id=f"{kind}-{n}", kind=kind, day=n, start=20 * n + (10 if kind == "day" else 0), end=20 * n + (19 if kind == "day" else 9))
          for n in (1, 2, 3) for kind in ("night", "day")] + [Phase(id="night-4", kind="night", day=4, start=80, end=89)]


def _exit(seat: int, phase: str, how: str = "night_death") -> Event:
    return Event(kind="elimination", phase=phase, segment_id=None, audience=EVERYONE, target=seat, result=how)


# the host: seats 5 and 7 dead at the dawn after night 3; seat 2 at night 2's
EXITS = [_exit(2, "day-2"), _exit(5, "day-3"), _exit(7, "day-3")]


def _night3(log: str, seats=SEATS) -> set[tuple]:
    nf = read_night_facts(log, None, [], seats, PHASES, "zh", EXITS, catalogue=BUILTIN)
    return {(e.skill, e.actor, e.target) for e in nf.kept if e.phase == "night-3" and e.audience.kind != "seats"}


def test_a_stalkers_assassination_is_one_cause_of_a_dawn_and_the_knife_the_other():
    log = "5 号是村民，白天投了 6 号，后来在夜里被潜行者刺杀；7 号是村民，夜间被狼人刀死"
    assert _night3(log) == {("stalker_assassinate", 3, 5), ("wolf_kill", None, 7)}
    # the stalker named by its seat
    assert _night3("5 号是村民，夜间被 3 号暗杀身亡；7 号是村民，最终被狼刀死亡") == {("stalker_assassinate", 3, 5), ("wolf_kill", None, 7)}


def test_an_assassination_by_no_stalker_or_only_said_or_one_death_left_unaccounted_places_no_kill():
    # seat 2 is no stalker: 5's cause is not known, so which death is the knife's is not either
    assert _night3("5 号是村民，夜间被 2 号暗杀；7 号是村民，夜间被狼人刀死") == set()
    # talk is not a deed
    assert _night3("5 号是村民，称自己会被潜行者暗杀；7 号是村民，夜间被狼人刀死") == set()
    # a board with no stalker: the role word alone names nobody
    no_stalker = [s if s.seat != 3 else SeatInfo(seat=3, role="villager", faction="good", original_role_label="村民") for s in SEATS]
    assert _night3("5 号是村民，夜间被潜行者暗杀；7 号是村民，夜间被狼人刀死", no_stalker) == set()
    # both seats "assassinated": no seat's clause gives the knife
    assert not {k for k in _night3("5 号是村民，夜间被潜行者暗杀；7 号是村民，夜间被潜行者暗杀") if k[0] == "wolf_kill"}


def _read(text: str) -> list[tuple]:
    return [(r.event.phase, r.event.target, r.event.note == DERIVED_NOTE) for r in read_night_actions(text, SEATS, PHASES, "zh", catalogue=BUILTIN)
            if r.event is not None and r.event.skill == "wolf_kill"]


def test_a_self_destruct_told_first_under_a_named_night_led_into_that_night():
    # "night 3: seat 6 blew up, then the last wolf knifed 7": the self-destruct is the day's end before night 3
    assert _read("第三晚 6 号当即自爆，剩下的狼 4 号刀死 7 号") == [("night-3", 7, True)]
    # a deed of the night before the self-destruct: the night told comes first, the kill after it is the next night's
    assert _read("第二晚狼人刀 2 号，6 号随即自爆，狼人刀死 7 号") == [("night-2", 2, False), ("night-3", 7, True)]
    # a quiet night told before the self-destruct: that night is over, the kill after it is the next night's
    assert _read("第二晚平安夜 6 号随即自爆，狼人刀死 7 号") == [("night-3", 7, True)]


def test_the_self_destruct_that_opened_a_named_night_stands_only_where_the_dawn_bears_the_kill_out():
    nf = read_night_facts("第三晚 6 号当即自爆，剩下的狼 4 号刀死 7 号", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert {(e.phase, e.target) for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "team"} == {("night-3", 7)}
    # seat 2 died at night 2's dawn, not night 3's: nothing is kept
    nf = read_night_facts("第三晚 6 号当即自爆，剩下的狼 4 号刀死 2 号", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "team"]


def test_a_knife_told_right_after_a_self_destruct_is_the_packs_whoever_blew_up():
    # the wolf that blew up is named by a nickname, not a seat: the self-destruct alone says a wolf acted
    assert _read("第二天白天，小花选择自爆，随后刀死 7 号") == [("night-3", 7, True)]
    nf = read_night_facts(None, "第二天白天 小花选择自爆 随后刀死 7 号", [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert {(e.phase, e.target) for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "team"} == {("night-3", 7)}
    # no self-destruct (an exile), a self-destruct denied or planned: the knife after it has no subject
    assert _read("第二天白天，小花被投票出局，随后刀死 7 号") == []
    assert _read("第二天白天，小花没有自爆，随后刀死 7 号") == []
    assert _read("第二天白天，小花准备自爆，随后刀死 7 号") == []


def test_a_days_exile_told_by_role_and_nickname_maps_the_nickname_to_the_seat_the_host_exiled():
    from werealign.importers.toolkit.nights.nicknames import recap_nicknames

    exits = [*EXITS, _exit(5, "day-2", "voted_out")]
    recap = "第一晚狼人首刀村民阿木 女巫开药救人 第二天白天，大家成功扛推了村民阿木 第三晚…"
    assert recap_nicknames(recap, SEATS, exits) == {"阿木": 5}
    # the other wording: the nickname first, then its exile
    assert recap_nicknames("第二天白天 村民阿木被投票出局", SEATS, exits) == {"阿木": 5}
    # so the first night's knife on that nickname is read, with the witch's save
    nf = read_night_facts(None, recap, [], SEATS, PHASES, "zh", exits, catalogue=BUILTIN)
    assert {(e.phase, e.target) for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "team"} >= {("night-1", 5)}


def test_no_nickname_is_mapped_without_a_role_the_seat_holds_one_exile_that_day_and_a_name():
    exits = [*EXITS, _exit(5, "day-2", "voted_out")]
    from werealign.importers.toolkit.nights.nicknames import recap_nicknames

    # no role word; a role the exiled seat does not hold; a day with no exile; a night named between the day and the exile
    assert recap_nicknames("第二天白天，大家成功扛推了阿木", SEATS, exits) == {}
    assert recap_nicknames("第二天白天，大家成功扛推了女巫阿木", SEATS, exits) == {}
    assert recap_nicknames("第三天白天，大家成功扛推了村民阿木", SEATS, exits) == {}
    assert recap_nicknames("第二天白天过去，第三晚大家扛推了村民阿木", SEATS, exits) == {}
    # two exiles that day: which is meant is not known
    assert recap_nicknames("第二天白天，大家成功扛推了村民阿木", SEATS, [*exits, _exit(7, "day-2", "voted_out")]) == {}
    # words of time or of the game where a name would stand are no name
    assert recap_nicknames("第二天白天，大家成功扛推了村民出局后", SEATS, exits) == {}


def test_a_stalker_who_never_voted_for_the_dead_seat_by_day_cannot_explain_a_lone_dawn_death():
    from test_knife_said import PHASES as KS_PHASES, _dawn, _kills, _seats

    from werealign.importers.toolkit.nights.night_truth import settle_night_actions

    seats = _seats("stalker")  # seat 2 is the stalker; seat 3 dies alone at the dawn after night 2

    def settle(voted):
        kept, _ = settle_night_actions([], [_dawn(3, 2)], seats, KS_PHASES, voted=voted, catalogue=BUILTIN)
        return _kills(kept)
    assert settle(lambda seat, night: {5, 7} if seat == 2 else set()) == {("night-2", 3)}
    # he voted for seat 3 on a day before: his assassination may be the death
    assert settle(lambda seat, night: {3} if seat == 2 else set()) == set()
    # his ballots are not known (a tally unread): nothing is inferred
    assert settle(lambda seat, night: None) == set()
    # a witch on the board is not bound by votes
    kept, _ = settle_night_actions([], [_dawn(3, 2)], _seats("witch"), KS_PHASES, voted=lambda seat, night: set(), catalogue=BUILTIN)
    assert _kills(kept) == set()


def test_the_day_ballots_before_a_night_come_from_the_hosts_tallies_or_are_not_known():
    from test_tallies import game_with

    from werealign.importers.toolkit.tallies import day_ballots

    g = game_with([("day-1", "发言结束，全体请投票 3212号、5号投给7号，8号弃票，其余玩家投给1号，1号玩家出局")])
    g = g.model_copy(update={"phases": [*g.phases, Phase(id="night-2", kind="night", day=2, start=1, end=1)],
                             "events": [*g.events, Event(kind="elimination", phase="day-1", segment_id=11, audience=EVERYONE, target=1,
                                                         result="voted_out")]})
    voted = day_ballots(g)
    assert voted(2, "night-2") == {7} and voted(3, "night-2") == {1} and voted(8, "night-2") == set()
    assert voted(2, "day-1") == set()  # nothing before the first day
    # the day's exile with no tally read: its ballots are not known
    unread = g.model_copy(update={"utterances": g.utterances[:1]})
    assert day_ballots(unread)(2, "night-2") is None
    # a call to vote whose tally cannot be read
    garbled = game_with([("day-1", "发言结束，全体请投票 ，，，")])
    garbled = garbled.model_copy(update={"phases": [*garbled.phases, Phase(id="night-2", kind="night", day=2, start=1, end=1)]})
    assert day_ballots(garbled)(2, "night-2") is None
