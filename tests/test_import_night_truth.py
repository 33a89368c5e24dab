"""Issue 20 item 1: night actions settled against each other and the host's announcements, and shown to the seats
that knew them. Invented seats, nights and log sentences only."""

from __future__ import annotations

from test_import_nights import PHASES, SEATS
from werealign.importers.werebench_night_truth import settle_night_actions
from werealign.importers.werebench_nights import read_night_actions
from werealign.schema import Event
from werealign.schema.models import EVERYONE

# SEATS: 1 witch, 2 seer, 3 guard, 4 and 6 werewolves, 5 villager, 7 silencer elder. PHASES: night-1, day-1, night-2, day-2.


def _exit(seat: int, phase: str, how: str) -> Event:
    return Event(kind="elimination", phase=phase, segment_id=None, audience=EVERYONE, target=seat, result=how)


def _settle(log: str, exits=()):
    actions = [r.event for r in read_night_actions(log, SEATS, PHASES, "zh") if r.event is not None]
    kept, dropped = settle_night_actions(actions, list(exits), SEATS, PHASES)
    return kept, dropped


def _who(e: Event):
    return e.audience.team if e.audience.kind == "team" else tuple(e.audience.seats) if e.audience.kind == "seats" else e.actor


def _facts(events):
    return sorted((e.phase, e.skill, e.target, str(_who(e))) for e in events)


def test_the_wolves_kill_is_seen_by_the_pack_even_when_saved_and_the_witch_is_told_while_she_holds_her_antidote():
    kept, dropped = _settle("夜间行动：第一晚狼人刀 5 号，女巫 1 号救 5 号；第二晚狼刀 2 号", [_exit(2, "day-2", "night_death")])
    assert not dropped
    assert _facts(kept) == [
        ("night-1", "witch_save", 5, "1"),
        ("night-1", "wolf_kill", 5, "(1,)"),  # the witch is told the victim of the night she saves it
        ("night-1", "wolf_kill", 5, "wolf"),  # every wolf knows its kill, though the witch saved it
        ("night-2", "wolf_kill", 2, "wolf"),  # the antidote is gone: the witch is not told night 2's victim
    ]


def test_an_antidote_with_its_target_implicit_takes_the_nights_victim_or_is_dropped():
    kept, _ = _settle("第一晚狼人刀 5 号，女巫 1 号用了解药")
    assert ("night-1", "witch_save", 5, "1") in _facts(kept)
    kept, dropped = _settle("1 号是女巫，第一晚用解药")  # nobody says whom the wolves attacked
    assert not any(e.skill == "witch_save" for e in kept)
    assert [why for _, why in dropped] == ["the antidote's target is implicit and the log states no kill of night-1"]
    # a save alone names the victim: the wolves attacked that seat
    kept, _ = _settle("1 号是女巫，首夜救 3 号")
    assert ("night-1", "wolf_kill", 3, "wolf") in _facts(kept)


def test_actions_the_announcements_contradict_are_not_shown():
    # the guard protects 5 on night 2, the host announces 5 dead at dawn, nobody saved it: the protection is wrong
    kept, dropped = _settle("3 号是守卫，第二晚守 5 号", [_exit(5, "day-2", "night_death")])
    assert not kept and "announced dead" in dropped[0][1]
    # the same death with the witch's save too: the rules may kill a seat both save, nothing is contradicted
    kept, dropped = _settle("3 号是守卫，第二晚守 5 号；1 号是女巫，第二晚救 5 号", [_exit(5, "day-2", "night_death")])
    assert {e.skill for e in kept} >= {"guard_protect", "witch_save"} and not dropped
    # a poison must kill: the target announced dead at that dawn keeps it, a target alive later drops it
    kept, _ = _settle("1 号是女巫，第二晚毒 4 号", [_exit(4, "day-2", "night_death")])
    assert ("night-2", "witch_poison", 4, "1") in _facts(kept)
    kept, dropped = _settle("1 号是女巫，第二晚毒 4 号", [_exit(4, "day-2", "voted_out")])
    assert not kept and "not announced dead" in dropped[0][1]
    # a seat the host already announced out acts no more, and is no target
    kept, dropped = _settle("2 号是预言家，第二晚验 4 号", [_exit(2, "day-1", "voted_out")])
    assert not kept and "seat 2 (acting) was announced out" in dropped[0][1]
    kept, dropped = _settle("第二晚狼人刀 5 号", [_exit(5, "day-1", "voted_out")])
    assert not kept and "its target" in dropped[0][1]
    # the kill and the save name different seats: the antidote saves only the wolves' target, so one is wrong
    kept, dropped = _settle("第一晚狼人刀 5 号，女巫 1 号救 3 号")
    assert not kept and len(dropped) == 2


def test_the_wolves_kill_is_read_in_other_words_and_never_from_a_claim_or_an_ambiguous_pair():
    def kills(log):
        return [(r.event.phase, r.event.target) for r in read_night_actions(log, SEATS, PHASES, "zh") if r.event and r.event.skill == "wolf_kill"]

    assert kills("首夜狼队杀死 5 号") == [("night-1", 5)]
    assert kills("第一晚狼人 6 号自刀") == [("night-1", 6)]
    assert kills("4 号是狼人，首晚自刀骗药") == [("night-1", 4)]
    assert kills("5 号是村民，第二晚被狼人刀死") == [("night-2", 5)]
    assert kills("2 号是预言家，发言称第一晚狼人刀 5 号") == []  # what a seat said
    assert kills("第二晚狼人杀死 5 号和 2 号") == []  # which of the two the wolves killed is not said
    assert kills("5 号是村民，后夜间被狼人刀死") == []  # no night number


def test_a_wolf_and_the_witch_see_the_kill_in_their_prompt_and_a_villager_does_not():
    from werealign.game.visibility import build_context
    from werealign.render.lines import event_line
    from werealign.schema import GameLog, Provenance, Rules, RoleCount, Utterance

    kept, _ = _settle("夜间行动：第一晚狼人刀 5 号，女巫 1 号救 5 号")
    game = GameLog(game_id="inv", language="zh", provenance=Provenance(source="invented"),
                   rules=Rules(text="演示规则", variant="x", composition=[RoleCount(role="werewolf", faction="wolf", count=2)]),
                   seats=SEATS, phases=PHASES, events=kept,
                   utterances=[Utterance(index=0, segment_ids=[1], start=11, end=12, phase="day-1", speaker=5, text="演示发言")])
    for seat, sees in ((4, True), (6, True), (1, True), (5, False), (2, False)):
        ctx = build_context(game, seat, 1)
        lines = [event_line(e, seat, "zh") for e in ctx.private_events]
        assert ("狼人选择击杀5号" in lines) is sees, (seat, lines)
