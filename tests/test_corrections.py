"""Per-game corrections files (issue 41): import applies them, each fact keeps its quote as evidence, and a quote its
source does not hold stops the import with a clear error. Invented release (tests/test_import_werebench)."""

from __future__ import annotations

import json
from pathlib import Path

from test_import_werebench import _assert_clean_error, _report, run_cli, write_release

from werealign.dataset import load_dataset
from werealign.validate import validate_paths


def _write(folder: Path, corrections: list[dict], game_id: str = "pandakill-s1-01") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / f"{game_id}.json").write_text(json.dumps({"schema_version": "1.0", "game_id": game_id, "corrections": corrections},
                                                       ensure_ascii=False), encoding="utf-8")
    return folder


def test_corrections_set_and_remove_night_facts_with_their_evidence(tmp_path):
    src = write_release(tmp_path / "release")
    fixes = _write(tmp_path / "fixes", [
        # the pack's night-2 kill, from the host's dawn (a turn of the transcript)
        {"action": "set", "night": "night-2", "skill": "wolf_kill", "actor": None, "target": 6, "source": "utterance", "segment_id": 11,
         "quote": "死亡的是 6 号"},
        # the seer's night-1 check, taken out: say the annotator judged the report unreliable
        {"action": "remove", "night": "night-1", "skill": "seer_check", "actor": 1, "source": "annotator_log", "quote": "4 号是狼人，假跳"},
    ])
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out), "--corrections", str(fixes))
    assert r.returncode == 0, r.stderr
    game = load_dataset(out).games["pandakill-s1-01"]
    kills = [e for e in game.events if e.skill == "wolf_kill" and e.phase == "night-2"]
    assert {e.audience.kind for e in kills} >= {"team"} and {e.target for e in kills} == {6}
    (ev,) = kills[0].evidence
    assert (ev.source, ev.segment_id, ev.by) == ("utterance", 11, "correction")
    assert not any(e.skill == "seer_check" and e.phase == "night-1" for e in game.events)
    assert [e["code"] for e in _report(out)["repaired"]].count("night_fact_corrected") == 2
    assert not [f for f in validate_paths([out / "games" / "pandakill-s1-01.json"]) if f.severity == "error"]


def test_a_correction_whose_words_its_source_does_not_hold_stops_the_import(tmp_path):
    src = write_release(tmp_path / "release")
    fixes = _write(tmp_path / "fixes", [{"action": "set", "night": "night-2", "skill": "wolf_kill", "target": 5, "source": "recap",
                                         "quote": "第二晚狼人刀了 5 号"}])
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out), "--corrections", str(fixes))
    _assert_clean_error(r, "pandakill-s1-01.json", "corrections[0].quote", "recap")
    assert not out.exists()
    # a night the game does not have, a file for a game the release lacks, a file that is not a corrections file
    _write(fixes, [{"action": "remove", "night": "night-9", "skill": "wolf_kill", "source": "recap", "quote": "演示回顾"}])
    _assert_clean_error(run_cli("import", "werebench", str(src), "--out", str(out), "--corrections", str(fixes)), "corrections[0].night", "night-9")
    (fixes / "pandakill-s1-01.json").unlink()
    _write(fixes, [{"action": "remove", "night": "night-1", "skill": "wolf_kill", "source": "recap", "quote": "演示回顾"}], game_id="pandakill-s1-02")
    _assert_clean_error(run_cli("import", "werebench", str(src), "--out", str(out), "--corrections", str(fixes)), "pandakill-s1-02")
    (fixes / "pandakill-s1-02.json").write_text('{"game_id": "pandakill-s1-02", "corrections": [{"action": "add"}]}', encoding="utf-8")
    _assert_clean_error(run_cli("import", "werebench", str(src), "--out", str(out), "--corrections", str(fixes)), "not a corrections file")
    assert not out.exists()
