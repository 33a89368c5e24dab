"""The release's per-game configs as published: Python-literal files, read as data, found by name pattern.

Every config here is invented (the same invented game as test_annotate_release), written in each
published style: `NN - GAME_CONFIG.txt` and `NN-GAME_CONFIG.py` with comments and OrderedDict.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.errors import UserError
from werealign.importers.python_literal import literal_assignment
from werealign.importers.werebench.config import build_release_game, find_config_files, load_release_config, sibling_with_number

from conftest import REPO
from test_annotate_release import CONFIG, SRT


def _as_python(config: dict) -> str:
    """CONFIG written the way the release writes it: comments, OrderedDict for the phases."""
    meta = dict(config["metadata"])
    status = meta.pop("game_status")
    body = json.dumps(dict(meta), ensure_ascii=False, indent=4)[1:-2]  # the metadata's entries, no braces
    pairs = ",\n".join(f"            ({k!r}, {v!r}), # 按时间顺序" for k, v in status.items())
    return (
        "GAME_CONFIG = {\n"
        "    # 1. 元数据 (invented)\n"
        '    "metadata": {\n'
        f"        {body.strip()},\n"
        f'        "game_status": OrderedDict([ # in time order!\n{pairs}\n        ]),\n'
        "    },\n"
        f'    "sheriff_appointments": {json.dumps(config["sheriff_appointments"], ensure_ascii=False)}, # who held the badge\n'
        f'    "summary_id_range": {config["summary_id_range"]}\n'
        "}\n"
    )


def _season(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "clean_process" / "Season_1"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", ["01 - GAME_CONFIG.txt", "01-GAME_CONFIG.py", "1_game_config.py", "01.config.json"])
def test_each_published_style_reads_like_the_json_copy(tmp_path, name):
    text = json.dumps(CONFIG, ensure_ascii=False) if name.endswith(".json") else _as_python(CONFIG)
    folder = _season(tmp_path, {name: text, "01.srt": SRT})
    json_copy = tmp_path / "copy" / "Season_1" / "01.config.json"
    json_copy.parent.mkdir(parents=True)
    json_copy.write_text(json.dumps(CONFIG, ensure_ascii=False), encoding="utf-8")
    configs, skipped = find_config_files(folder.parent)
    assert [(c.path.name, c.season, c.number) for c in configs] == [(name, 1, 1)] and skipped == []
    config, _, notes = load_release_config(folder / name)
    expected, _, expected_notes = load_release_config(json_copy)
    assert config.provenance.original_file == f"clean_process/Season_1/{name}"
    assert config.model_copy(update={"provenance": expected.provenance}) == expected and notes == expected_notes
    # The phases' OrderedDict order is kept: the converter's out-of-order note depends on it.
    assert [p.original_label for p in config.phases] == ["first_night", "first_day"]
    game = build_release_game(sibling_with_number(folder / name, 1, ".srt"), folder / name).game
    assert game.game_id == "pandakill-s1-01"


def test_templates_and_second_copies_are_passed_over_with_a_note(tmp_path):
    folder = _season(tmp_path, {
        "00-GAME_CONFIG_template copy 3.py": _as_python(CONFIG),
        "02-GAME_CONFIG.py": _as_python(CONFIG),
        "02 - GAME_CONFIG.txt": _as_python(CONFIG),
        "GAME_CONFIG notes.txt": "not a game",
        "02.srt": SRT,
        "readme.txt": "unrelated",
    })
    configs, skipped = find_config_files(folder.parent)
    assert [c.path.name for c in configs] == ["02 - GAME_CONFIG.txt"]
    assert any("template" in s and "00-GAME_CONFIG_template copy 3.py" in s for s in skipped)
    assert any("second config for game 2" in s for s in skipped)
    assert any("no game number" in s for s in skipped)
    assert len(skipped) == 3


def test_literal_reader_recognises_ordered_dict_and_refuses_code(tmp_path):
    path = tmp_path / "x.py"
    src = (
        "from collections import OrderedDict  # harmless, never run\n"
        "import collections\n"
        "GAME_CONFIG = {'a': OrderedDict([('k', 1), ('j', -2.5)]), 'b': collections.OrderedDict(), 'c': (1, None, True),\n"
        "               'd': dict(x='y')}\n"
    )
    assert literal_assignment(src, "GAME_CONFIG", path) == {"a": {"k": 1, "j": -2.5}, "b": {}, "c": [1, None, True], "d": {"x": "y"}}
    assert list(literal_assignment(src, "GAME_CONFIG", path)["a"]) == ["k", "j"]
    # A later assignment wins, as in Python.
    assert literal_assignment("GAME_CONFIG = 1\nGAME_CONFIG = 2\n", "GAME_CONFIG", path) == 2
    marker = tmp_path / "ran"
    for bad, line, named in [
        (f"GAME_CONFIG = {{\n  'a': open({str(marker)!r}, 'w'),\n}}\n", 2, "GAME_CONFIG at a: \"open("),
        ("GAME_CONFIG = {\n 'a': {'b': 1 + 2}}\n", 2, "GAME_CONFIG at a.b: '1 + 2' is not a literal"),
        ("GAME_CONFIG = {'a': __import__('os')}\n", 1, "is not a literal"),
        ("GAME_CONFIG = {**other}\n", 1, "unpacking"),
        ("GAME_CONFIG = OrderedDict([1, 2])\n", 1, "list of (key, value) pairs"),
        ("GAME_CONFIG = {\n'a': 1,,\n}\n", 2, "not valid Python source"),
    ]:
        with pytest.raises(UserError) as e:
            literal_assignment(bad, "GAME_CONFIG", path)
        assert str(e.value).startswith(f"{path}:{line}: ") and named in str(e.value), str(e.value)
    assert not marker.exists()
    with pytest.raises(UserError, match=r"x.py: no top-level `GAME_CONFIG = \.\.\.` assignment"):
        literal_assignment("CONFIG = {}\n", "GAME_CONFIG", path)
    # The reader uses ast only: nothing in the module compiles or evaluates the source.
    reader = (REPO / "werealign" / "importers" / "python_literal.py").read_text(encoding="utf-8")
    calls = {n.func.id for n in ast.walk(ast.parse(reader)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"eval", "exec", "compile", "__import__"}


def test_faithfulness_gives_each_game_its_own_outcome(tmp_path):
    from werealign.importers.werebench.faithfulness import check_release, summary

    folder = _season(tmp_path, {"01 - GAME_CONFIG.txt": _as_python(CONFIG), "01.srt": SRT,
                                "02 - GAME_CONFIG.txt": "GAME_CONFIG = {'metadata': broken}\n", "02.srt": SRT})
    data = tmp_path / "data" / "Season_1"
    data.mkdir(parents=True)
    (data / "01.json").write_text(json.dumps({"metadata": CONFIG["metadata"], "utterances": []}), encoding="utf-8")
    release = check_release(folder.parent, tmp_path / "data")
    assert [g.game_id for g in release.games] == ["pandakill-s1-01"]
    assert list(release.failed) == ["Season_1/02 - GAME_CONFIG.txt"]
    assert "02 - GAME_CONFIG.txt:1: GAME_CONFIG at metadata: 'broken' is not a literal" in release.failed["Season_1/02 - GAME_CONFIG.txt"]
    assert summary(release)["games_failed"] == 1


def test_cli_build_and_convert_read_a_published_config(tmp_path):
    folder = _season(tmp_path, {"01-GAME_CONFIG.py": _as_python(CONFIG), "01.srt": SRT})
    out = tmp_path / "g.json"
    r = run_cli("annotate", "build", "--srt", str(folder / "01.srt"), "--config", str(folder / "01-GAME_CONFIG.py"), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["game_id"] == "pandakill-s1-01"


def test_annotate_never_imports_importers():
    # annotate/ is the generic toolkit; release knowledge lives in importers/ (which may use annotate/).
    offenders = []
    for path in sorted((REPO / "werealign" / "annotate").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names] if isinstance(node, ast.Import) else []
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("werealign.importers")]
    assert offenders == []
    code = "import sys, werealign.annotate.build, werealign.annotate.config, werealign.annotate.agreement; " \
           "print(sorted(m for m in sys.modules if m.startswith('werealign.importers')))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stderr
