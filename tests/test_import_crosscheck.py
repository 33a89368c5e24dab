"""Issue 30 must-have 5: public exits checked against what the table heard afterwards, and against the host's
tally and the annotator log; on invented host lines and an invented release game (nothing from the release)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_inproc import run_cli
from test_import_werebench import _game, _utt, write_release

from werealign.importers.toolkit.crosscheck import contradicting_turns, stated_exit
from werealign.importers.toolkit.exits import host_exits
from werealign.schema import GameLog


def test_a_skill_used_on_leaving_takes_a_seat_it_is_not_a_vote_or_a_departure():
    assert host_exits("3 号玩家可以发动技能， 6 号玩家死亡， 3 号 6 号请离场", 12) == [(6, "taken"), (3, "left_table")]
    assert host_exits("其余玩家投给 11 号，11 号玩家可以发动技能带走， 5 号玩家出局", 12) == [(5, "taken")]
    assert host_exits("所有玩家请投票，其余玩家投给 5 号，5 号玩家出局", 12) == [(5, "voted_out")]
    assert host_exits("发动技能，从 5 号玩家开始发言", 12) == []
    # a transcript's homophone of 自爆 is still a self-destruct; stating one's own role is not
    assert host_exits("3 号玩家自报，游戏继续，天黑请闭眼", 12) == [(3, "self_destruct")]
    assert host_exits("请 3 号玩家自报身份", 12) == []


def test_the_log_states_an_exit_next_to_the_seat_or_in_the_seats_own_entry():
    log = "1 号是村民，参与警长竞选，第二晚被狼人刀死；2 号是狼人，白天自爆；投票 4 号出局；第三晚毒 5 号；11、12 号死亡"
    assert stated_exit([log], 1, "night_death") and not stated_exit([log], 1, "voted_out")
    assert stated_exit([log], 2, "self_destruct") and stated_exit([log], 4, "voted_out")
    assert stated_exit([None, log], 5, "poisoned") and stated_exit([log], 11, "night_death") and stated_exit([log], 12, "night_death")
    assert not stated_exit([log], 3, "left_table")  # nobody says seat 3 left


def _import(tmp_path: Path, game: dict) -> tuple[GameLog, dict, Path]:
    src = write_release(tmp_path / "release", game=game)
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert run_cli("validate", str(out)).returncode == 0
    game_out = GameLog.model_validate_json(next((out / "games").glob("*.json")).read_text(encoding="utf-8"))
    return game_out, json.loads((out / "import_report.json").read_text(encoding="utf-8")), out


def _later_turn(game: dict, seat: int, text: str) -> dict:
    """Seat `seat` speaks on day 2 after seat 1 (segment 13); the host's last turn moves to segment 14."""
    game["utterances"][10]["text"] = "我是预言家，这轮大家跟我出 5 号"  # seat 1: more than a fragment
    final = game["utterances"][-1]
    game["utterances"][-1] = _utt([13], "00:02:21,000", "00:02:24,000", "second_day", f"说话人 {seat + 1}", text, sheriff="1号")
    game["utterances"].append({**final, "utterance_id": [14], "start_time": "00:02:25,000"})
    game["metadata"]["total_utterances"] = 14
    return game


def test_a_turn_under_the_label_of_a_seat_the_log_also_sends_out_is_heard_by_nobody(tmp_path):
    game = _later_turn(_game(), 4, "我觉得 5 号一定是狼，大家跟我投 5 号吧")  # seat 4 was voted out on day 1
    game["metadata"]["logs"] = "1 号是预言家，带队；4 号是狼人，第一天被投票出局"
    out, report, _ = _import(tmp_path, game)
    [turn] = [u for u in out.utterances if u.segment_ids == [13]]
    assert turn.audience is not None and turn.audience.kind == "actor"  # kept, not heard at the table
    [entry] = [e for e in report["dropped"] if e["code"] == "dead_turn_off_table"]  # no rule names its speaker
    assert "segment(s) 13 " in entry["what"] and entry["game"] == out.game_id
    assert contradicting_turns(out) == []


def test_an_exit_nothing_else_supports_is_dropped_when_the_seat_plays_on(tmp_path):
    game = _game()
    game["utterances"][9]["text"] = "天亮了，昨天晚上是平安夜，3 号玩家请离场"  # garbled: seat 3 never left
    game = _later_turn(game, 3, "我是女巫，昨晚我没有用药，这一轮我跟预言家走")
    out, report, _ = _import(tmp_path, game)
    assert not [e for e in out.events if e.kind == "elimination" and e.target == 3]
    assert [e["code"] for e in report["repaired"] if e["code"] == "exit_misread"] == ["exit_misread"]
    assert contradicting_turns(out) == []


def test_an_unresolved_contradiction_withholds_the_items_after_it(tmp_path):
    game = _later_turn(_game(), 6, "我还在场上，我是村民，这一轮请大家听我说完")  # announced dead at dawn (segment 11)
    game["metadata"]["logs"] = "1 号是预言家，带队；6 号是村民，最后被投票出局"  # an exit, but not that one
    out, report, ds = _import(tmp_path, game)
    assert [e["code"] for e in report["warning"] if e["code"] == "exit_contradicted"] == ["exit_contradicted"]
    withheld = {e["item"] for e in report["dropped"] if e["code"] == "item_after_unresolved_exit"}
    assert withheld == {"pandakill-s1-01-va-second-day", "pandakill-s1-01-oi-second-day"}
    kept = [json.loads(line) for line in (ds / "items" / "vote.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [it["item_id"] for it in kept] == ["pandakill-s1-01-va-first-day"]


def test_the_tally_names_the_exile_the_garbled_words_miss(tmp_path):
    game = _game()
    # "4 号玩家出局" garbled away; seat 4 is recorded leaving only later
    game["utterances"][6]["text"] = "所有玩家请投票，其余所有玩家投给4 号玩家出翻箱倒柜"
    out, report, _ = _import(tmp_path, game)
    [exit_4] = [e for e in out.events if e.kind == "elimination" and e.target == 4]
    assert (exit_4.result, exit_4.segment_id) == ("voted_out", 8)
    assert [e["code"] for e in report["repaired"] if e["code"] == "exile_from_tally"] == ["exile_from_tally"]


def test_a_self_destruct_the_host_line_misses_comes_from_the_log_and_the_recap_together(tmp_path):
    game = _later_turn(_game(), 5, "我不装了，我就是狼，我自爆，带走 3 号")
    game["utterances"][-1]["text"] = "游戏结束，好人阵营胜利"  # no host line says the self-destruct
    game["metadata"]["logs"] = "1 号是预言家，带队；第二天 5 号自爆带走 3 号"
    game["metadata"]["summary"] = "演示回顾：第二天白天 5 号选择自爆带走了 3 号，好人阵营胜利"
    out, report, _ = _import(tmp_path, game)
    added = {(e.kind, e.actor, e.target, e.result, e.phase) for e in out.events if e.segment_id == 13}
    assert added == {("elimination", 5, 3, "taken", "day-2"), ("elimination", None, 5, "self_destruct", "day-2"),
                     ("self_destruct", 5, None, None, "day-2")}
    assert [e["code"] for e in report["repaired"] if e["code"] == "self_destruct_from_sources"] == ["self_destruct_from_sources"]
    # one source alone, or a day the seat's last turn is not in, adds nothing
    game["metadata"]["summary"] = "演示回顾，好人阵营胜利"
    out, _, _ = _import(tmp_path / "one", game)
    assert not [e for e in out.events if e.segment_id == 13]
    game["metadata"]["summary"] = game["metadata"]["logs"] = "第一天 5 号自爆带走 3 号"
    out, _, _ = _import(tmp_path / "day", game)
    assert not [e for e in out.events if e.segment_id == 13]
