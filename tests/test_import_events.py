"""Issue 20 items 3 and 6: announcements read right and every event in the phase it happened, on invented
host lines and an invented release game (nothing from the real release)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_inproc import run_cli
from test_import_werebench import _game, _utt, write_release
from werealign.importers.toolkit.exits import host_exits


def test_host_exits_tell_a_shot_a_poisoning_and_a_skills_take_from_a_vote():
    assert host_exits("猎人开枪，5 号玩家出局", 12) == [(5, "shot")]
    assert host_exits("3 号玩家发动技能，开枪带走 9 号玩家", 12) == [(9, "shot")]
    assert host_exits("十号玩家被猎人开枪带走", 12) == [(10, "shot")]
    assert host_exits("昨天晚上死亡的是 2 号，被毒杀的是 6 号", 12) == [(2, "night_death"), (6, "poisoned")]
    assert host_exits("4 号玩家被女巫毒死", 12) == [(4, "poisoned")]
    # a wolf king blows up and takes a seat with it: a trailing seat from the words before is not a second self-destruct
    assert host_exits("6 号11 号玩家自爆发动技能带走 6 号玩家", 12) == [(11, "self_destruct"), (6, "taken")]
    # a vote is still a vote, and a shot mentioned in an earlier sentence does not make it one
    assert host_exits("猎人开枪了。所有玩家请投票，其余所有玩家投给 7 号，7 号玩家出局", 12) == [(7, "voted_out")]


def _convert(tmp_path: Path, game: dict) -> tuple[dict, dict]:
    src = write_release(tmp_path / "release", game=game)
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    game_out = json.loads(next((out / "games").glob("*.json")).read_text(encoding="utf-8"))
    report = json.loads((out / "import_report.json").read_text(encoding="utf-8"))
    return game_out, report


def test_a_day_1_self_destruct_announced_as_night_falls_is_day_1(tmp_path):
    game = _game()
    # the host's turn that says the self-destruct and sends everyone to sleep starts on the night's timestamp
    game["utterances"][6]["text"] = "所有玩家请投票"
    game["utterances"][8]["text"] = "4 号玩家自爆，游戏继续，天黑请闭眼"
    out, _ = _convert(tmp_path, game)
    by_kind = {(e["kind"], e.get("actor") or e.get("target")): e for e in out["events"]}
    assert by_kind[("self_destruct", 4)]["phase"] == "day-1"
    assert by_kind[("elimination", 4)]["phase"] == "day-1" and by_kind[("elimination", 4)]["result"] == "self_destruct"
    # a death announced at dawn stays in the day it was announced
    assert by_kind[("elimination", 6)]["phase"] == "day-2"


def test_a_badge_passed_on_a_turn_after_nightfall_is_passed_in_the_day(tmp_path):
    game = _game()
    # seat 1, the sheriff, is voted out on day 1; the badge goes to seat 2 in the host's turn that ends the day
    game["utterances"][6]["text"] = "所有玩家请投票，其余所有玩家投给1 号，1 号玩家出局"
    game["utterances"][8].update(text="1 号玩家请离场，2 号玩家成为警长，天黑请闭眼", sheriff="2号")
    for u in game["utterances"][9:]:
        u["sheriff"] = "2号"
    out, _ = _convert(tmp_path, game)
    badge = [e for e in out["events"] if e["kind"] == "badge_transfer"]
    assert [(e["actor"], e["target"], e["phase"]) for e in badge] == [(1, 2, "day-1")]


def test_a_seat_misread_as_out_who_plays_on_is_out_only_when_announced_again(tmp_path):
    game = _game()
    # segment 5: an aside the reader takes for an exit of seat 5; seat 5 speaks on day 2 and is voted out then
    game["utterances"][3]["text"] = "1 号当选警长，昨天晚上是平安夜，5 号玩家请离场"
    game["utterances"][10].update(speaker_id="5号", text="我是好人，别出我", role="狼人")
    out, report = _convert(tmp_path, game)
    exits = [(e["target"], e["phase"], e["result"]) for e in out["events"] if e["kind"] == "elimination"]
    assert (5, "day-2", "voted_out") in exits and (5, "day-1", "left_table") not in exits
    assert [e["code"] for e in report["repaired"] if e["code"] == "exit_reannounced"] == ["exit_reannounced"]
    # nobody leaves twice
    seats = [t for t, _, _ in exits]
    assert len(seats) == len(set(seats))


def test_a_vote_cutoff_includes_the_sheriffs_final_call(tmp_path):
    game = _game()
    utts = game["utterances"]
    # day 1: the MVP (seat 1, not the sheriff here) speaks last, the host asks the sheriff (seat 2) for the final call
    for u in utts[3:]:
        u["sheriff"] = "2号"
    utts[5].update(text="我觉得 4 号是狼，过", role="预言家")  # the MVP's own last words, the release's cut-off (segment 6)
    utts[6:6] = [_utt([70], "00:01:20,500", "00:01:20,800", "first_day", "host", "发言完毕，警长请归票", sheriff="2号"),
                 _utt([71], "00:01:20,800", "00:01:20,900", "first_day", "2号", "警长归票 4 号", sheriff="2号", role="女巫")]
    for i, u in enumerate(utts):  # segment ids must ascend: renumber
        u["utterance_id"] = [i + 1]
    game["metadata"]["MVP"]["votes"] = {"first_day_votes": {"vote_to": "4号", "cut_off_time": 6}}
    game["metadata"]["total_utterances"] = len(utts)
    out, report = _convert(tmp_path, game)
    vote = out["mvp"]["votes"][0]
    assert vote["cutoff_segment"] == 8, vote  # the sheriff's call (segment 8) is heard; the ballot (segment 9) is not
    assert [e["item"] for e in report["repaired"] if e["code"] == "cutoff_before_final_call"] == ["first_day_votes"]
    # another player still speaking after the cut-off: the cut-off is not about the final call and stays
    utts[7].update(speaker_id="3号", text="我再说两句", role="阔人")
    out, _ = _convert(tmp_path / "b", game)
    assert out["mvp"]["votes"][0]["cutoff_segment"] == 6


def test_a_self_destruct_in_the_sheriff_election_adds_the_night_the_recording_skips(tmp_path):
    """Invented game: seat 4 blows up in the election, the table goes to night, and the recording resumes with
    'first_day' (whose host announces that night's death). The log counts that night as the second."""
    game = _game()
    game["metadata"]["logs"] = "1 号是预言家；第二晚狼人刀 3 号；第三晚狼人刀 6 号"
    game["metadata"]["MVP"]["votes"]["first_day_votes"]["vote_to"] = "5号"
    game["utterances"][2].update(speaker_id="host", text="4 号玩家自爆，天黑请闭眼", role=None)
    game["utterances"][3]["text"] = "1 号当选警长，昨天晚上死亡的是 3 号玩家，3 号玩家请离场"
    game["utterances"][4].update(speaker_id="1号", role="预言家")
    game["utterances"][6]["text"] = "所有玩家请投票，其余所有玩家投给5 号，5 号玩家出局"
    game["utterances"][11]["text"] = "所有玩家请投票，其余所有玩家投给2 号，2 号玩家出局"
    out, report = _convert(tmp_path, game)
    phases = {p["id"]: p for p in out["phases"]}
    assert list(phases) == ["night-1", "sheriff-election", "night-2", "day-2", "night-3", "day-3"]
    assert phases["night-2"]["start"] == phases["night-2"]["end"] == phases["day-2"]["start"]
    assert phases["day-2"]["original_label"] == "first_day" and phases["night-3"]["original_label"] == "second_night"
    assert [e["code"] for e in report["repaired"] if e["code"] == "hidden_night"] == ["hidden_night"]
    kills = {(e["phase"], e["target"]) for e in out["events"] if e.get("skill") == "wolf_kill"}
    assert kills == {("night-2", 3), ("night-3", 6)}  # where the announcements confirm them, so both are shown
    exits = {(e["target"], e["phase"]) for e in out["events"] if e["kind"] == "elimination"}
    assert {(4, "sheriff-election"), (3, "day-2"), (5, "day-2"), (6, "day-3")} <= exits
    assert [v["phase"] for v in out["mvp"]["votes"]] == ["day-2", "day-3"]
    assert {u["phase"] for u in out["utterances"]} <= set(phases) - {"night-2"}
    assert run_cli("validate", tmp_path / "out").returncode == 0


def test_a_day_without_a_night_before_it_after_a_dropped_night_phase_is_not_a_hidden_night():
    from werealign.importers.toolkit.ctx import Ctx
    from werealign.importers.werebench.hidden_nights import add_hidden_nights
    from werealign.importers.report import ImportReport
    from werealign.schema import Event, Phase
    from werealign.schema.models import EVERYONE

    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=1), Phase(id="day-1", kind="day", day=1, start=1, end=2),
              Phase(id="day-2", kind="day", day=2, start=2, end=3)]  # night-2 was dropped as unusable
    blew = Event(kind="self_destruct", phase="day-1", segment_id=None, audience=EVERYONE, actor=4)
    ctx = Ctx(ImportReport(source="invented"), "f.json", "g")
    assert add_hidden_nights(phases, [], [blew], ctx)[0] == phases


def _host_turn(phase: str, start: float, parts: list[str]):
    from werealign.schema import Utterance
    from werealign.schema.models import Segment
    segs = [Segment(id=40 + i, start=start + 10 * i, end=start + 10 * i + 9, text=t) for i, t in enumerate(parts)]
    return Utterance(index=0, segment_ids=[s.id for s in segs], start=start, end=segs[-1].end, phase=phase, speaker="host",
                     text="".join(parts), segments=segs)


def _twelve_seat_phases():
    from werealign.schema import Phase
    spans = [("night-1", "night", 1, 0, 50), ("day-1", "day", 1, 50, 200), ("night-2", "night", 2, 200, 260),
             ("day-2", "day", 2, 260, 260), ("night-3", "night", 3, 260, 300), ("day-3", "day", 3, 300, 500)]
    return [Phase(id=i, kind=k, day=d, start=s, end=e) for i, k, d, s, e in spans]


def test_a_self_destruct_after_the_dawn_in_a_turn_across_the_night_is_the_next_days():
    """Issue 41: one host turn ends day 1 with a self-destruct, runs through the night and the next dawn, and says a
    second self-destruct there (before the sheriff election, say): the second is day 2's, not day 1's. A seat number
    inside a longer one is not the quote's place (seat 2 is not found inside "12 号")."""
    from werealign.importers.werebench.events import _announcements
    phases = _twelve_seat_phases()
    turn = _host_turn("night-2", 200, ["12 号玩家自爆，游戏继续，天黑请闭眼，天亮了，现在开始竞选", "2 号玩家自爆，本局没有警长"])
    got = {(seat, how): phase for seat, how, _seg, phase, _ev in _announcements(turn, phases, 12)}
    assert got == {(12, "self_destruct"): "day-1", (2, "self_destruct"): "day-2"}
    # the same with a dawn's death before it: the death and the self-destruct after the dawn are both the next day's
    turn = _host_turn("night-3", 260, ["天黑请闭眼，狼人请闭眼，天亮了", "昨天晚上死亡的是 11 号玩家，1 号玩家自爆，游戏继续，天黑请闭眼"])
    got = {(seat, how): phase for seat, how, _seg, phase, _ev in _announcements(turn, phases, 12)}
    assert got == {(11, "night_death"): "day-3", (1, "self_destruct"): "day-3"}
    # negative: a self-destruct before the nightfall stays the day's, with no dawn in the turn at all
    turn = _host_turn("night-2", 200, ["1 号玩家自爆，游戏继续，天黑请闭眼"])
    assert [(s, p) for s, _h, _g, p, _e in _announcements(turn, phases, 12)] == [(1, "day-1")]
