"""Issue 25: keys given twice in configs and logs, and `annotate faithfulness` reading logs as import does.

Every file is invented here (the 3-seat game of test_annotate_release, the tiny release of
test_import_werebench); nothing comes from the WereBench data.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inproc import run_cli
from test_annotate_release import CONFIG, _release_game, _turn
from test_import_werebench import _game, write_release

from werealign.files.duplicate_keys import json_duplicates
from werealign.errors import UserError
from werealign.importers.python_literal import literal_assignment
from werealign.importers.werebench.config import load_release_config
from werealign.importers.werebench.faithfulness import check_release, check_release_game

PY_CONFIG = """# an invented config, as the annotators write them
GAME_CONFIG = {
    "metadata": {
        "source": "first copy",
        "game_id": 7,
        "source": "edited copy",
    },
    "flags": OrderedDict([("x", 1),
                          ("x", 2)]),
}
"""


def test_python_literal_duplicate_names_both_lines_and_keeps_the_later_value():
    warnings: list[str] = []
    data = literal_assignment(PY_CONFIG, "GAME_CONFIG", Path("cfg.py"), warnings)
    assert data == {"metadata": {"source": "edited copy", "game_id": 7}, "flags": {"x": 2}}
    assert warnings == [
        "cfg.py:6: key 'source' in GAME_CONFIG.metadata given twice, on lines 4 and 6; the later value is used",
        "cfg.py:9: key 'x' in GAME_CONFIG.flags given twice, on lines 8 and 9; the later value is used",
    ]
    # the later copy breaks the structure (a string where a dict was): an error naming both lines,
    # not a misleading one about whatever field the string lacks
    broken = 'GAME_CONFIG = {\n    "metadata": {"game_status": {}},\n    "metadata": "cut here",\n}\n'
    with pytest.raises(UserError, match=r"cfg.py:3: key 'metadata' in GAME_CONFIG given twice, on lines 2 and 3, as an object and a string"):
        literal_assignment(broken, "GAME_CONFIG", Path("cfg.py"), [])


def test_json_duplicate_in_a_nested_object_names_both_lines_and_ignores_other_objects():
    text = '{\n "a": [\n  {"k": 1},\n  {"k": 2}\n ],\n "b": {"k": 1,\n  "k": 2},\n "k": null\n}\n'
    assert json_duplicates(text, Path("log.json")) == [
        "log.json:7: key 'k' in b given twice, on lines 6 and 7; the later value is used"]
    with pytest.raises(UserError, match=r"log.json:3: key 'a' given twice, on lines 2 and 3, as an array and a number"):
        json_duplicates('{\n "a": [1],\n "a": 2}', Path("log.json"))
    assert json_duplicates('{"a": {}, "b": ["a", "a", {"a": "}"}]}', Path("x")) == []


def test_release_config_duplicate_is_a_note_wherever_the_config_is_read(tmp_path):
    path, _ = _release_game(tmp_path, [])
    text = path.read_text(encoding="utf-8")
    py = path.with_name("01-GAME_CONFIG.py")
    # the same config as a Python literal, with the source given twice
    meta = json.dumps(CONFIG["metadata"], ensure_ascii=False)
    py.write_text(f'GAME_CONFIG = {{\n"metadata": {meta},\n"metadata": {meta},\n"summary_id_range": [8, 8]}}\n', encoding="utf-8")
    _, _, notes = load_release_config(py)
    assert notes[0].endswith("key 'metadata' in GAME_CONFIG given twice, on lines 2 and 3; the later value is used"), notes
    # and as JSON: the build (annotate convert-release / build / faithfulness) says so too
    path.write_text(text.replace('"logs":', '"logs": "first", "logs":', 1), encoding="utf-8")
    _, _, notes = load_release_config(path)
    assert "key 'logs' in metadata given twice, on lines 1 and 1" in notes[0], notes


def test_import_reports_a_duplicated_key_and_drops_a_game_whose_copies_differ_in_type(tmp_path):
    src = write_release(tmp_path / "release")
    log = src / "data" / "Season_1" / "01.json"
    game = json.dumps(_game(), ensure_ascii=False, indent=1)
    log.write_text(game.replace('"logs":', '"logs": "an earlier note",\n  "logs":', 1), encoding="utf-8")
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    report = json.loads((tmp_path / "out" / "import_report.json").read_text(encoding="utf-8"))
    (w,) = [e for e in report["warning"] if e["code"] == "duplicate_key"]
    assert w["source_file"] == "data/Season_1/01.json" and "key 'logs' in metadata given twice" in w["what"]
    assert str(tmp_path) not in w["what"]  # the report names the release's file, not this machine's path
    log.write_text(game.replace('"logs":', '"logs": {"a": 1},\n  "logs":', 1), encoding="utf-8")
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "out2"), "--strict")
    assert r.returncode == 1, r.stderr  # the only game is unreadable: no dataset
    assert "given twice" in r.stderr and "as an object and a string" in r.stderr and "01.json" in r.stderr


def _processed() -> list[dict]:
    return [
        _turn([2], "00:00:05,000", "00:00:06,000", "first_night", "host", "night falls"),
        _turn([3, 4], "00:00:10,000", "00:00:12,000", "first_day", "1号", "I am the seer seat 3 is a wolf"),
    ]


def test_faithfulness_converts_string_segment_ids_as_import_does(tmp_path):
    path, data = _release_game(tmp_path, _processed())
    plain = check_release_game(path, data)
    as_strings = [dict(t, utterance_id=[str(i) for i in t["utterance_id"]]) for t in _processed()]
    path, data = _release_game(tmp_path / "s", as_strings)
    report = check_release_game(path, data)
    # the same outcome as with numbers, not one "unexplained" difference per turn
    assert report.exact == plain.exact == 1 and report.differences == plain.differences


def test_faithfulness_names_the_log_that_failed_not_the_config(tmp_path):
    bad = [dict(t, utterance_id=["three"]) for t in _processed()]
    path, data = _release_game(tmp_path, bad)
    release = check_release(path.parent.parent, data)
    ((file, error),) = release.failed.items()
    assert file == "data/Season_1/01.json" and "01.json" in error and "utterance_id" in error
    r = run_cli("annotate", "faithfulness", path.parent.parent, data)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "data/Season_1/01.json" in r.stderr and "config" not in r.stderr, r.stderr
    # a key given twice in the log is a warning in the report, naming both lines
    log = data / "Season_1" / "01.json"
    doc = json.dumps({"metadata": dict(CONFIG["metadata"], summary="recap: the seer won"), "utterances": _processed()},
                     ensure_ascii=False, indent=1)
    log.write_text(doc.replace('"summary":', '"summary": "draft",\n  "summary":', 1), encoding="utf-8")
    r = run_cli("annotate", "faithfulness", path.parent.parent, data)
    assert "warning: " in r.stdout and "key 'summary' in metadata given twice" in r.stdout, r.stdout


def test_validate_warns_on_a_key_given_twice_in_a_game_log_and_errs_when_the_types_differ(tmp_path):
    import validate_fixtures as fx

    from werealign.validate import check_paths

    text = json.dumps(fx.game(), ensure_ascii=False, indent=1)
    path = tmp_path / "g.json"
    path.write_text(text.replace('"winner":', '"winner": "wolf",\n "winner":', 1), encoding="utf-8")
    (f,) = [f for f in check_paths([path]).findings if f.code == "duplicate-key"]
    assert f.severity == "warning" and f.line is not None and "key 'winner' given twice" in f.message
    path.write_text(text.replace('"winner":', '"winner": ["wolf"],\n "winner":', 1), encoding="utf-8")
    errors = [f for f in check_paths([path]).findings if f.severity == "error"]
    assert errors and "as an array and a string" in errors[0].message
