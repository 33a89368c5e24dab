"""Issue 44 must-have 1: a seat out never speaks at the table again but for its last words. On invented games
(nothing from the release): a dead player's aside kept off the table, an annotation slip re-attributed to the seat
the host's call, the turn's own words, its neighbours or the round's order establish, a slip no rule settles kept
off the table, legitimate last words left alone, and `validate` rejecting a dead seat's speech in a transcribed log
as in an arena log. The real release (skipped when ../shared is absent): 0 such errors, every settled turn named."""

from __future__ import annotations

import json

import pytest

from werealign.importers.report import ImportReport
from werealign.importers.toolkit.crosscheck import cross_check_exits, late_turns
from werealign.importers.toolkit.dead_speech import settle_dead_turns
from werealign.schema import Event, GameLog, Phase, Provenance, RoleCount, Rules, SeatInfo, Utterance
from werealign.schema.models import ACTOR, EVERYONE
from werealign.validate import validate_game

PHASES = ["night-1", "day-1", "night-2", "day-2", "night-3", "day-3"]
LONG = "我觉得这一轮的票型很清楚，大家跟我一起出掉那张最可疑的牌吧"  # more than a fragment, names no seat


def game_with(turns: list[tuple[str, int | str, str]], *, exits: tuple[tuple[int, int, str], ...] = ((3, 2, "voted_out"),),
              sheriff: int | None = None, seats: int = 8, labels: bool = True) -> GameLog:
    """A game of `turns` ((phase, speaker, text), one segment each from 1); `exits`: (seat, segment, result), in the
    phase of that segment's turn; `sheriff`: elected at segment 1. `labels`: the seats have transcript speaker labels."""
    phases = [Phase(id=p, kind="night" if p.startswith("night") else "day", day=int(p[-1]), start=0, end=0) for p in PHASES]
    utts = [Utterance(index=i, segment_ids=[i + 1], start=float(i), end=i + 0.5, phase=p, speaker=sp, text=t) for i, (p, sp, t) in enumerate(turns)]
    events = [Event(kind="elimination", phase=turns[seg - 1][0], segment_id=seg, audience=EVERYONE, target=seat, result=how) for seat, seg, how in exits]
    if sheriff is not None:
        events.insert(0, Event(kind="sheriff_election", phase="day-1", segment_id=1, audience=EVERYONE, target=sheriff))
    return GameLog(
        game_id="dead-speech-test", language="zh", provenance=Provenance(source="invented"),
        rules=Rules(text=None, variant="v", composition=[RoleCount(role="villager", faction="good", count=seats)]),
        seats=[SeatInfo(seat=s, role="villager", faction="good", speaker_labels=[f"说话人 {s}"] if labels else []) for s in range(1, seats + 1)],
        phases=phases, utterances=utts, events=events)


def settle(game: GameLog) -> tuple[GameLog, ImportReport]:
    report = ImportReport(source="invented")
    return settle_dead_turns(game, late_turns(game), report, "invented.json"), report


def entries(report: ImportReport, code: str) -> list:
    return [e for kind in ("repaired", "dropped") for e in report.entries[kind] if e.code == code]


def dead_speech_errors(game: GameLog) -> list:
    return [f for f in validate_game(game, "game.json") if f.code == "speaks-after-elimination"]


# Seat 3 is voted out at segment 2 (day-1) and speaks its last words; day-2 is two phases later.
OPENING = [("day-1", "host", "所有玩家请投票，3 号玩家出局，3 号玩家请留遗言"), ("day-1", 3, LONG), ("night-2", "host", "天黑请闭眼")]


def test_last_words_and_a_next_phase_declaration_stay_legal():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，昨天晚上死亡的是 5 号玩家，5 号玩家请留遗言"), ("day-2", 5, LONG), ("day-2", 6, LONG)],
                  exits=((3, 1, "voted_out"), (5, 4, "night_death")))
    assert late_turns(g) == {} and dead_speech_errors(g) == []
    settled, report = settle(g)
    assert settled == g and not report.entries["repaired"] and not report.entries["dropped"]


def test_a_dead_seats_turn_two_phases_later_is_an_error_in_a_transcribed_log_too():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 3, LONG)], exits=((3, 1, "voted_out"),))
    [f] = dead_speech_errors(g)
    assert f.severity == "error" and f.field == "utterances[4].speaker" and "seat 3 speaks in day-2" in f.message
    kept_off = g.model_copy(update={"utterances": [*g.utterances[:4], g.utterances[4].model_copy(update={"audience": ACTOR})]})
    assert dead_speech_errors(kept_off) == []  # heard by nobody: not speech at the table
    night = g.model_copy(update={"utterances": [*g.utterances[:4], g.utterances[4].model_copy(update={"phase": "night-3"})]})
    assert dead_speech_errors(night) == []  # a player's night-phase turn without an audience is off-table commentary


def test_an_aside_inside_another_seats_turn_is_kept_off_the_table():
    g = game_with([*OPENING, ("day-2", "host", "从 5 号玩家开始发言"), ("day-2", 5, LONG), ("day-2", 3, "哈哈哈"), ("day-2", 5, LONG)])
    settled, report = settle(g)
    turn = settled.utterances[5]
    assert turn.speaker == 3 and turn.audience == ACTOR  # a fragment is never given to the seat whose turn it falls in
    [e] = entries(report, "dead_turn_off_table")
    assert "segment(s) 6 " in e.what and "an aside of 3 characters" in e.why and e.game == g.game_id
    assert dead_speech_errors(settled) == []


def test_a_slip_after_the_hosts_call_goes_to_the_seat_it_names():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜，从 6 号玩家开始发言"), ("day-2", 3, LONG), ("day-2", 7, LONG)])
    settled, report = settle(g)
    assert settled.utterances[4].speaker == 6 and settled.utterances[4].audience is None
    [e] = entries(report, "dead_turn_reattributed")
    assert "segment(s) 5 " in e.what and "re-attributed to seat 6" in e.why and "6 号玩家开始发言" in e.why
    assert dead_speech_errors(settled) == []


def test_a_call_on_the_sheriff_goes_to_the_seat_holding_the_badge():
    g = game_with([*OPENING, ("day-2", 6, LONG), ("day-2", "host", "发言完毕，警长请归票"), ("day-2", 3, "归票 4 号，大家都投 4 号")], sheriff=2)
    settled, report = settle(g)
    assert settled.utterances[5].speaker == 2
    [e] = entries(report, "dead_turn_reattributed")
    assert "the sheriff, seat 2" in e.why


def test_a_slip_inside_one_seats_turn_goes_to_that_seat():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 5, LONG), ("day-2", 3, LONG), ("day-2", 5, LONG)])
    settled, report = settle(g)
    assert settled.utterances[5].speaker == 5
    [e] = entries(report, "dead_turn_reattributed")
    assert "inside seat 5's turn" in e.why


def test_two_dead_labels_in_one_seats_talk_are_a_conversation_not_a_slip():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 5, LONG), ("day-2", 3, LONG), ("day-2", 5, LONG), ("day-2", 3, LONG),
                   ("day-2", 5, LONG)])
    settled, report = settle(g)
    assert [u.audience for u in settled.utterances if u.speaker == 3][1:] == [ACTOR, ACTOR]
    assert len(entries(report, "dead_turn_off_table")) == 2 and not entries(report, "dead_turn_reattributed")


def test_the_round_order_names_the_one_seat_between_its_neighbours():
    # seats 1..8, seat 3 out: after seat 2 and before seat 5 round the table upward only seat 4 is left
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 2, LONG), ("day-2", 3, LONG), ("day-2", 5, LONG)])
    settled, report = settle(g)
    assert settled.utterances[5].speaker == 4
    [e] = entries(report, "dead_turn_reattributed")
    assert "seat 4 the one seat in the game between them" in e.why


def test_the_round_order_skips_a_seat_silenced_the_night_before():
    turns = [*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 2, LONG), ("day-2", 3, LONG), ("day-2", 6, LONG)]
    settled, report = settle(game_with(turns))  # seats 4 and 5 both between 2 and 6: the order names nobody
    assert settled.utterances[5].audience == ACTOR and not entries(report, "dead_turn_reattributed")
    g = game_with(turns)
    silenced = Event(kind="skill_use", phase="night-2", segment_id=None, audience=ACTOR, actor=7, target=4, skill="silence")
    settled, _ = settle(g.model_copy(update={"events": [*g.events, silenced]}))
    assert settled.utterances[5].speaker == 5


def test_a_host_line_ending_a_seats_turn_does_not_give_it_the_floor():
    g = game_with([*OPENING, ("day-2", "host", "5 号玩家发言结束"), ("day-2", 3, LONG), ("day-2", "host", "发言完毕")])
    settled, report = settle(g)
    assert settled.utterances[4].audience == ACTOR and not entries(report, "dead_turn_reattributed")


def test_a_turn_that_names_its_speaker_goes_to_it():
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 7, LONG), ("day-2", 3, "好，我是 8 号，" + LONG), ("day-2", "host", "发言完毕")])
    settled, _ = settle(g)
    assert settled.utterances[5].speaker == 8


def test_a_slip_no_rule_settles_or_rules_that_disagree_keep_it_off_the_table():
    alone = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 7, LONG), ("day-2", 3, LONG), ("day-2", "host", "发言完毕")])
    settled, report = settle(alone)
    assert settled.utterances[5].audience == ACTOR
    [e] = entries(report, "dead_turn_off_table")
    assert "a turn no rule attributes" in e.why and "utterances[5] at segment(s) 6 in day-2 under the label of seat 3" in e.what
    torn = game_with([*OPENING, ("day-2", "host", "从 6 号玩家开始发言"), ("day-2", 3, "我是 7 号，" + LONG), ("day-2", "host", "发言完毕")])
    settled, report = settle(torn)
    assert settled.utterances[4].speaker == 3 and settled.utterances[4].audience == ACTOR
    [e] = entries(report, "dead_turn_off_table")
    assert "not one seat in the game" in e.why and "seat 6" in e.why and "seat 7" in e.why


def test_a_seat_out_is_never_given_a_turn():
    # the host's call names seat 4, who died at dawn: no seat the game has lost takes the turn
    g = game_with([*OPENING, ("day-2", "host", "天亮了，昨天晚上死亡的是 4 号玩家，从 4 号玩家开始发言"), ("day-2", 3, LONG), ("day-2", "host", "发言完毕")],
                  exits=((3, 1, "voted_out"), (4, 4, "night_death")))
    settled, report = settle(g)
    assert settled.utterances[4].audience == ACTOR and entries(report, "dead_turn_off_table")


def test_cross_check_settles_late_turns_whatever_the_sources_say():
    """No source states the exit and the turn is long: before, such a turn was only a warning; now it is settled."""
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜，从 5 号玩家开始发言"), ("day-2", 3, LONG), ("day-2", 6, LONG)])
    report = ImportReport(source="invented")
    checked = cross_check_exits(g, report, "invented.json")
    assert checked.game.utterances[4].speaker == 5
    assert [e.code for e in report.entries["repaired"]] == ["dead_turn_reattributed"]
    assert dead_speech_errors(checked.game) == []


@pytest.mark.werebench
def test_the_real_release_imports_with_no_dead_seat_speech(werebench_import, werebench_validated):
    findings = json.loads(werebench_validated.stdout)
    rows = findings["findings"] if isinstance(findings, dict) else findings
    assert not [f for f in rows if f["code"] == "speaks-after-elimination"]
    report = json.loads((werebench_import.path / "import_report.json").read_text(encoding="utf-8"))
    settled = [e for kind in ("repaired", "dropped") for e in report[kind] if e["code"].startswith("dead_turn_")]
    assert settled, "the release has turns under dead seats' labels: each must be named"
    for e in settled:
        assert e["game"] and "segment(s) " in e["what"] and "under the label of seat " in e["what"]
    counts = report["counts"]
    assert counts["dead_turns_reattributed"] + counts["dead_turns_off_table"] == len(settled)
    assert counts["games_converted"] == counts["games_in_source"] and counts["exits_contradicted_by_speech"] == 0


def test_a_self_destruct_with_no_elimination_after_it_is_an_exit_for_the_importer_as_for_validate():
    """Another source may log a wolf's self-destruct alone: its turns two phases later are settled by the importer
    (not left for the gate to drop the game), because validate reads the self-destruct as the exit."""
    g = game_with([*OPENING, ("day-2", "host", "天亮了，平安夜"), ("day-2", 6, LONG), ("day-2", 7, LONG)], exits=())
    g = g.model_copy(update={"events": [Event(kind="self_destruct", phase="day-1", segment_id=2, audience=EVERYONE, actor=3)]})
    g = g.model_copy(update={"utterances": [*g.utterances[:5], g.utterances[5].model_copy(update={"speaker": 3})]})
    assert dead_speech_errors(g) and set(late_turns(g)) == {5}
    settled, _ = settle(g)
    assert dead_speech_errors(settled) == []
