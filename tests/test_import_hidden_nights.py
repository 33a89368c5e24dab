"""Issue 41 must-have 3: nights missing from the timeline are recovered from the host's words (werebench.hidden_nights),
on an invented release game and invented host lines (nothing from the real release)."""

from __future__ import annotations

from cli_inproc import run_cli
from test_import_events import _convert
from test_import_werebench import _game
from werealign.importers.report import ImportReport
from werealign.importers.toolkit.ctx import Ctx
from werealign.importers.werebench.hidden_nights import add_final_night, split_turn_nights
from werealign.schema import Phase, Utterance


def _night_inside_a_day_turn() -> dict:
    """Seat 5 blows up on day 2 and the host runs on through the whole night to the next dawn in one turn;
    `game_status` has no third night. The log counts that night."""
    game = _game()
    game["metadata"]["logs"] = "1 号是预言家；第二晚狼人刀 6 号；第三晚狼人刀 2 号"
    game["metadata"]["MVP"]["votes"]["second_day_votes"] = {"vote_to": "3号", "cut_off_time": 12}
    game["utterances"][9]["text"] = ("天亮了，昨天晚上死亡的是 6 号玩家， 6 号玩家请离场，5 号玩家自爆，游戏继续，天黑请闭眼，"
                                     "狼人请杀人，狼人请闭眼，天亮了，昨天晚上死亡的是 2 号玩家， 2 号玩家请离场")
    game["utterances"][11]["text"] = "所有玩家请投票，其余所有玩家投给3 号，3 号玩家出局"
    return game


def test_a_night_run_through_inside_one_day_turn_is_added_and_later_phases_follow(tmp_path):
    out, report = _convert(tmp_path, _night_inside_a_day_turn())
    phases = {p["id"]: p for p in out["phases"]}
    assert list(phases) == ["night-1", "sheriff-election", "day-1", "night-2", "day-2", "night-3", "day-3"]
    assert phases["night-3"]["start"] == phases["night-3"]["end"] == phases["day-2"]["end"] == phases["day-3"]["start"]
    assert phases["day-3"]["original_label"] is None and phases["day-2"]["original_label"] == "second_day"
    assert [e["code"] for e in report["repaired"] if e["code"] == "hidden_night"] == ["hidden_night"]
    kills = {(e["phase"], e["target"]) for e in out["events"] if e.get("skill") == "wolf_kill"}
    assert kills == {("night-2", 6), ("night-3", 2)}  # the log's third night has a night, and its dawn confirms it
    exits = {(e["target"], e["phase"], e["result"]) for e in out["events"] if e["kind"] == "elimination"}
    assert {(6, "day-2", "night_death"), (5, "day-2", "self_destruct"), (2, "day-3", "night_death"), (3, "day-3", "voted_out")} <= exits
    assert [(u["segment_ids"][0], u["phase"]) for u in out["utterances"] if u["segment_ids"][0] >= 11] == [
        (11, "day-2"), (12, "day-3"), (13, "day-3")]  # the turn stays in its day; the talk after the dawn is the next day's
    assert [v["phase"] for v in out["mvp"]["votes"]] == ["day-1", "day-3"]  # the vote follows its cut-off into the new day
    assert not [e for e in report["warning"] if e["code"] == "night_missing"]  # recovered, so no longer named as missing
    assert run_cli("validate", tmp_path / "out").returncode == 0


def test_a_recording_that_ends_on_a_nightfall_gets_that_night(tmp_path):
    game = _game()
    game["metadata"]["logs"] = "1 号是预言家；第二晚狼人刀 6 号；第三晚狼人刀 2 号"
    game["utterances"][-1]["text"] = "所有玩家请投票，其余所有玩家投给5 号，5 号玩家出局，5 号请离场，游戏继续，天黑请闭眼"
    out, report = _convert(tmp_path, game)
    assert [p["id"] for p in out["phases"]][-2:] == ["day-2", "night-3"]
    assert out["phases"][-1]["start"] == out["phases"][-1]["end"] == out["phases"][-2]["end"]
    assert ("night-3", 2) in {(e["phase"], e["target"]) for e in out["events"] if e.get("skill") == "wolf_kill"}
    assert [e["code"] for e in report["repaired"] if e["code"] == "hidden_night"] == ["hidden_night"]
    assert run_cli("validate", tmp_path / "out").returncode == 0
    # the game ends in the day (no nightfall after the last words): no night is invented
    out, _ = _convert(tmp_path / "b", _game())
    assert out["phases"][-1]["kind"] == "day"


def _u(i: int, phase: str, start: float, speaker, text: str) -> Utterance:
    return Utterance(index=i, segment_ids=[i + 1], start=start, end=start + 1, phase=phase, speaker=speaker, text=text)


PH = [Phase(id="night-1", kind="night", day=1, start=0, end=10), Phase(id="day-1", kind="day", day=1, start=10, end=20),
      Phase(id="night-2", kind="night", day=2, start=20, end=30), Phase(id="day-2", kind="day", day=2, start=30, end=40)]


def _ctx() -> Ctx:
    return Ctx(ImportReport(source="invented"), "f.json", "g")


def test_only_a_nightfall_then_a_dawn_that_opens_no_night_of_the_timeline_splits_a_day():
    # the ordinary day's end: the nightfall opens night-2, which starts within the turn; the dawn is night-2's
    plain = [_u(0, "day-1", 19.5, "host", "3 号请离场，天黑请闭眼"), _u(1, "day-2", 30, "host", "天亮了，昨天晚上是平安夜")]
    assert split_turn_nights(PH, plain, _ctx()) == (PH, plain)
    # a nightfall and no dawn in a day turn, or a dawn and no nightfall: nothing to split
    for text in ("4 号玩家自爆，天黑请闭眼", "天亮了，昨天晚上死亡的是 5 号", "天亮了，天黑请闭眼"):
        utts = [_u(0, "day-1", 12, "host", text)]
        assert split_turn_nights(PH, utts, _ctx())[0] == PH, text
    # a player quoting the host is no host turn
    quoted = [_u(0, "day-1", 12, 3, "主持人说天黑请闭眼，然后天亮了")]
    assert split_turn_nights(PH, quoted, _ctx())[0] == PH
    # the host runs through a night inside day-1 (no per-segment text: the split is at the turn's end)
    utts = [_u(0, "day-1", 12, "host", "6 号玩家自爆，天黑请闭眼，天亮了，昨天晚上死亡的是 2 号"), _u(1, "day-1", 14, 2, "我是好人"),
            _u(2, "night-2", 21, "host", "天黑请闭眼"), _u(3, "day-2", 31, 1, "过")]
    ctx = _ctx()
    phases, out = split_turn_nights(PH, utts, ctx)
    assert [(p.id, p.start, p.end) for p in phases] == [("night-1", 0, 10), ("day-1", 10, 13), ("night-2", 13, 13), ("day-2", 13, 20),
                                                        ("night-3", 20, 30), ("day-3", 30, 40)]
    assert [u.phase for u in out] == ["day-1", "day-2", "night-3", "day-3"]
    assert [e.code for e in ctx.report.entries["repaired"]] == ["hidden_night"]


def test_a_final_nightfall_adds_a_night_only_after_a_day():
    ends_in_night = [_u(0, "day-2", 35, "host", "5 号玩家出局，天黑请闭眼")]
    assert [p.id for p in add_final_night(PH, ends_in_night, _ctx())][-1] == "night-3"
    # the timeline already ends with a night; the last turn is a player's; the last nightfall has its dawn
    assert add_final_night(PH[:3], [_u(0, "night-2", 25, "host", "天黑请闭眼")], _ctx()) == PH[:3]
    assert add_final_night(PH, [_u(0, "day-2", 35, 4, "天黑请闭眼吧")], _ctx()) == PH
    assert add_final_night(PH, [_u(0, "day-2", 35, "host", "天黑请闭眼，天亮了，游戏结束")], _ctx()) == PH


def test_a_second_dawns_news_after_the_day_ended_with_no_nightfall_between_is_a_night_cut_out():
    utts = [_u(0, "day-1", 11, "host", "昨天晚上是平安夜，从 3 号开始发言"), _u(1, "day-1", 12, 3, "过"),
            _u(2, "day-1", 13, "host", "发言完毕，请投票，4 号出局。闭眼，天亮了，昨天晚上死亡的是 5 号，5 号请离场"), _u(3, "day-1", 15, 1, "我是好人"),
            _u(4, "night-2", 21, "host", "天黑请闭眼"), _u(5, "day-2", 31, "host", "天亮了，昨天晚上死亡的是 6 号")]
    ctx = _ctx()
    phases, out = split_turn_nights(PH, utts, ctx)
    assert [p.id for p in phases] == ["night-1", "day-1", "night-2", "day-2", "night-3", "day-3"]
    assert (phases[2].start, phases[2].end) == (14, 14)  # no per-segment text: at the turn's end
    assert [u.phase for u in out] == ["day-1", "day-1", "day-1", "day-2", "night-3", "day-3"]
    assert [e.code for e in ctx.report.entries["repaired"]] == ["hidden_night"]
    # a self-destruct ends the day as a ballot does
    blown = [utts[0], _u(2, "day-1", 13, "host", "7 号玩家自爆"), _u(3, "day-1", 15, "host", "天亮了，昨天晚上死亡的是 5 号")]
    assert len(split_turn_nights(PH, blown, _ctx())[0]) == 6


def test_a_repeated_dawn_news_before_the_day_ended_or_a_dawn_without_news_adds_no_night():
    repeat = [_u(0, "day-1", 11, "host", "天亮了，昨天晚上死亡的是 5 号"), _u(1, "day-1", 12, "host", "天亮了，昨天晚上死亡的是 5 号，5 号请留遗言")]
    assert split_turn_nights(PH, repeat, _ctx())[0] == PH
    no_news = [_u(0, "day-1", 11, "host", "昨天晚上是平安夜"), _u(1, "day-1", 12, "host", "请投票，4 号出局，天亮了")]
    assert split_turn_nights(PH, no_news, _ctx())[0] == PH
    # the day's end and the second dawn said by a player are no host's words
    quoted = [_u(0, "day-1", 11, "host", "昨天晚上是平安夜"), _u(1, "day-1", 12, 2, "请投票吧，天亮了昨天晚上死亡的是我")]
    assert split_turn_nights(PH, quoted, _ctx())[0] == PH
    # a turn the release labels day-1 but whose time lies in day-2: its dawn is day-2's own
    late = [_u(0, "day-1", 11, "host", "昨天晚上是平安夜，请投票，4 号出局"), _u(1, "day-1", 31, "host", "天亮了，昨天晚上死亡的是 5 号")]
    assert split_turn_nights(PH, late, _ctx())[0] == PH


def test_a_nightfall_then_a_dawn_in_a_later_turn_of_the_same_day_is_a_night_cut_out_too():
    fell = [_u(0, "day-1", 11, "host", "昨天晚上是平安夜"), _u(1, "day-1", 12, "host", "4 号出局，游戏继续，天黑请闭眼"),
            _u(2, "day-1", 13, "host", "天亮了，昨天晚上死亡的是 5 号")]
    assert [u.phase for u in split_turn_nights(PH, fell, _ctx())[1]] == ["day-1", "day-1", "day-1"]
    assert [p.id for p in split_turn_nights(PH, fell, _ctx())[0]] == ["night-1", "day-1", "night-2", "day-2", "night-3", "day-3"]


def test_a_final_call_to_the_wolves_is_a_nightfall_and_an_empty_closing_day_is_no_day():
    """(issue 41, k41) After a self-destruct the host may call the wolves at once, with no "天黑请闭眼"; and the release
    may close its timeline with a zero-length day after the night the last turn lies in: that night is the last."""
    called = [_u(0, "day-2", 35, "host", "8 号玩家自爆，游戏继续，狼人请睁眼，请选择要杀的人")]
    assert [p.id for p in add_final_night(PH, called, _ctx())][-1] == "night-3"
    assert add_final_night(PH, [_u(0, "day-2", 35, "host", "8 号玩家自爆，游戏继续")], _ctx()) == PH  # no call to the night
    closed = [*PH[:3], Phase(id="night-2", kind="night", day=2, start=20, end=30)][:3] + [Phase(id="day-2", kind="day", day=2, start=30, end=30)]
    in_night = [_u(0, "night-2", 21, "host", "4 号玩家自爆，游戏继续，天黑请闭眼，狼人请杀人")]
    assert add_final_night(closed, in_night, _ctx()) == closed
    # a dawn in that turn before its last nightfall: the nightfall opens the next night, which the timeline lacks
    dawn_first = [_u(0, "night-2", 21, "host", "天亮了，昨天晚上死亡的是 3 号，4 号玩家自爆，游戏继续，天黑请闭眼")]
    assert [p.id for p in add_final_night(closed, dawn_first, _ctx())][-1] == "night-3"
    # a closing day with length is a day that happened: its nightfall opens a night
    assert [p.id for p in add_final_night(PH, [_u(0, "night-2", 21, "host", "天黑请闭眼")], _ctx())][-1] == "night-3"
