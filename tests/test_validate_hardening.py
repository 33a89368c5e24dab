"""`werealign validate` on hostile or broken inputs: leaks, unreadable paths, bad lines, vague messages.

Each test corrupts a copy of the bundled sample dataset (or the invented test game) one way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import validate_fixtures as fx
from validate_fixtures import mutate
from cli_inproc import run_cli
from werealign.dataset import bundled_sample_path
from werealign.validate import check_paths, validate_game, validate_paths
from werealign.validate.findings import Finding

REPO = Path(__file__).resolve().parents[1]


def sample_copy(tmp_path: Path) -> Path:
    root = tmp_path / "ds"
    shutil.copytree(bundled_sample_path(), root)
    return root


def run(*args: str) -> subprocess.CompletedProcess:
    # Bytes, not text: the output itself must be valid UTF-8 (no raw surrogate bytes).
    r = subprocess.run([sys.executable, "-m", "werealign.cli", "validate", *args], capture_output=True, cwd=REPO, timeout=120)
    assert b"Traceback" not in r.stdout + r.stderr, r.stderr.decode("utf-8", "replace")
    return r


def errors(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.code, f.field) for f in findings if f.severity == "error"]


# --------------------------------------------------------------------------- 1. segment ids in timeline order


def test_turns_whose_segment_ids_go_back_in_time_are_errors(tmp_path):
    """Swapped ids would let a day-1 cut-off show a day-3 turn; within each turn they still ascend."""
    src = bundled_sample_path() / "games" / "sample-en-01.json"
    game = json.loads(src.read_text(encoding="utf-8"))
    early, late = game["utterances"][5], game["utterances"][50]
    assert early["segment_ids"] == [15, 16, 17] and late["segment_ids"] == [123, 124, 125]
    early["segment_ids"], late["segment_ids"] = late["segment_ids"], early["segment_ids"]
    for a, b in zip(early["segments"], late["segments"]):
        a["id"], b["id"] = b["id"], a["id"]
    p = tmp_path / "sample-en-01.json"
    p.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    findings = validate_paths([p])
    assert errors(findings) == [("segment-timeline-order", "utterances[6].segment_ids"),
                                ("segment-timeline-order", "utterances[50].segment_ids")]
    assert "segment 18, not after segment 125 that ends utterances[5]" in findings[0].message
    assert "segment 15, not after segment 122 that ends utterances[49]" in findings[1].message
    assert findings[0].game_id == "sample-en-01"


# --------------------------------------------------------------------------- 2-3. what json.loads chokes on


@pytest.mark.parametrize("text,needle", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"game_id": ' + "1" * 5000 + "}", "digits"),
    ('{"game_id": NaN}', "NaN is not a JSON value"),
    ("  \n", "empty file"),
    ('{"game_id": "g1\\udc00"}', "lone UTF-16 surrogate"),
], ids=["deep", "long-int", "nan", "empty", "surrogate"])
def test_unparsable_game_files_are_one_finding_line(tmp_path, text, needle):
    p = tmp_path / "g1.json"
    p.write_text(text, encoding="utf-8")
    r = run(str(p))
    assert r.returncode == 1
    lines = r.stdout.decode("utf-8").splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{p}: -: -: error: ") and needle in lines[0], lines


def test_a_lone_surrogate_in_an_item_line_is_named_by_line(tmp_path):
    root = sample_copy(tmp_path)
    p = root / "items" / "vote.jsonl"
    rows = p.read_text(encoding="utf-8").split("\n")
    rows[2] = rows[2].replace('"language"', '"language\\ud800"', 1)
    p.write_text("\n".join(rows), encoding="utf-8")
    r = run(str(p))
    lines = r.stdout.decode("utf-8").splitlines()
    assert r.returncode == 1 and lines[0] == f"{p}:3: -: -: error: invalid JSON line: lone UTF-16 surrogate escape \\ud800 " \
        "(half of a character); escape the whole pair or write the character itself [invalid-json]"


# --------------------------------------------------------------------------- 4. paths that are not readable regular files


def test_a_fifo_does_not_hang_validate(tmp_path):
    root = sample_copy(tmp_path)
    os.mkfifo(root / "games" / "x.json")
    os.mkfifo(tmp_path / "lone.json")
    r = run(str(root))  # the timeout of run() fails a regression instead of hanging
    out = r.stdout.decode("utf-8")
    assert r.returncode == 1 and f"{root}/games/x.json: -: -: error: not a regular file (a FIFO, socket or device)" in out
    r = run(str(tmp_path / "lone.json"))
    assert r.returncode == 1 and r.stderr.decode().strip() == \
        f"error: {tmp_path}/lone.json: not a regular file (a FIFO, socket or device), expected a game .json or items .jsonl file"


def test_a_directory_where_a_listed_file_should_be_is_called_a_directory(tmp_path):
    root = sample_copy(tmp_path)
    (root / "items" / "speech.jsonl").unlink()
    (root / "items" / "speech.jsonl").mkdir()
    found = {(f.code, f.field): f.message for f in validate_paths([root])}
    assert ("hash-missing-file", "content_hashes.items/speech.jsonl") not in found
    assert found[("hash-unreadable", "content_hashes.items/speech.jsonl")] == \
        f"{root}/items/speech.jsonl: is a directory, expected a regular file"
    assert found[("invalid-json", "")] == "is a directory, expected a JSONL file"
    assert ("count-mismatch", "counts.speech") not in found  # nothing was counted, so nothing to blame the manifest for


def test_an_unreadable_file_is_a_finding_not_a_traceback(tmp_path, monkeypatch):
    """As root nothing is denied: make the one call fail as it does for other users."""
    root = sample_copy(tmp_path)
    speech = root / "items" / "speech.jsonl"
    real_open = Path.open

    def open_(self, *a, **k):
        if self == speech:
            raise PermissionError(13, "Permission denied")
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "open", open_)
    found = [(f.code, f.field, f.file, f.message) for f in validate_paths([root]) if f.severity == "error"]
    assert found == [
        ("hash-unreadable", "content_hashes.items/speech.jsonl", str(root / "dataset.json"), f"{speech}: cannot read: Permission denied"),
        ("invalid-json", "", str(speech), "cannot read: Permission denied"),
    ]


def _unprivileged(tmp_path: Path) -> list[str]:
    """A command prefix under which chmod 000 really denies access (root: drop every capability)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    probe = tmp_path / "probe"
    probe.write_text("x", encoding="utf-8")
    probe.chmod(0)
    prefix = [setpriv, "--bounding-set", "-all", "--inh-caps", "-all"] if setpriv else []
    denied = f"try: open({str(probe)!r})\nexcept PermissionError: raise SystemExit(3)"
    if not setpriv or subprocess.run([*prefix, sys.executable, "-c", denied], capture_output=True).returncode != 3:
        pytest.skip("cannot drop root's capabilities here (no setpriv, or it has no effect)")
    return prefix


@pytest.mark.parametrize("target,needle", [
    ("items/speech.jsonl", "{root}/items/speech.jsonl: -: -: error: cannot read: Permission denied [invalid-json]"),
    ("games", "{root}: -: -: error: {root}/games: cannot list the directory: Permission denied [unreadable]"),
])
def test_permission_denied_for_real(tmp_path, target, needle):
    prefix = _unprivileged(tmp_path)
    root = sample_copy(tmp_path)
    for p in [root, *root.rglob("*")]:  # the copy must be readable for everyone but the one target
        p.chmod(0o755 if p.is_dir() else 0o644)
    (root / target).chmod(0)
    try:
        r = subprocess.run([*prefix, sys.executable, "-m", "werealign.cli", "validate", str(root)],
                           capture_output=True, text=True, cwd=REPO, timeout=120)
    finally:
        (root / target).chmod(0o755)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    lines = r.stdout.splitlines()
    assert needle.format(root=root) in lines
    assert not [line for line in lines if "[count-mismatch]" in line or "[unknown-game]" in line], lines


# --------------------------------------------------------------------------- 5. one bad line does not hide the rest


def test_every_bad_line_is_reported_and_the_count_is_not_blamed(tmp_path):
    root = sample_copy(tmp_path)
    p = root / "items" / "speech.jsonl"
    rows = p.read_text(encoding="utf-8").split("\n")
    rows[1] = rows[1][:40]
    rows[5] = json.dumps(dict(json.loads(rows[5]), answer="Z"))
    p.write_text("\n".join(rows), encoding="utf-8")
    found = [(f.code, f.line, f.field) for f in validate_paths([root]) if f.file == str(p) or f.code == "count-mismatch"]
    assert found == [("invalid-json", 2, ""), ("schema", 6, "answer")]
    # A line really gone is still a count mismatch.
    p.write_text("\n".join(rows[:1] + rows[2:]), encoding="utf-8")
    assert ("count-mismatch", "counts.speech") in {(f.code, f.field) for f in validate_paths([root])}


# --------------------------------------------------------------------------- 6. nullable fields name the real rule


@pytest.mark.parametrize("where,value,field,message", [
    ("mvp.votes[0].target", 0, "mvp.votes[0].target", "must be at least 1, got 0"),
    ("events[0].target", 99, "events[0].target", "must be at most 30, got 99"),
    ("utterances[1].segments[0].text", 5, "utterances[1].segments[0].text", "expected a string, got integer 5"),
    ("mvp.votes[1]", {"phase": "day-2", "target": 6}, "mvp.votes[1].cutoff_segment", "required field is missing"),
    # a value of the wrong kind altogether keeps the 'X or null' wording
    ("mvp", "seat 1", "mvp", "expected an object (Mvp) or null, got string 'seat 1'"),
    ("events[0].target", "x", "events[0].target", "expected an integer or null, got string 'x'"),
])
def test_nullable_fields_report_the_rule_inside(where, value, field, message):
    findings = validate_game(mutate(fx.game(), where, value), "g1.json")
    assert [(f.field, f.message) for f in findings] == [(field, message)]


def test_nullable_viewpoint_seat_reports_the_rule_inside(tmp_path):
    p = tmp_path / "speech.jsonl"
    p.write_text(json.dumps(mutate(fx.speech(), "viewpoint_seat", 0)) + "\n", encoding="utf-8")
    schema = [(f.field, f.message) for f in validate_paths([p]) if f.code == "schema"]
    assert schema == [("viewpoint_seat", "must be at least 1, got 0")]


# --------------------------------------------------------------------------- 7. one line per finding


def test_control_characters_in_names_and_ids_are_escaped(tmp_path):
    d = tmp_path / "a\nb\x1b[31m"
    d.mkdir()
    p = d / "g1\u2028.json"
    p.write_text(json.dumps(mutate(fx.game(), "mvp.seat", 9)), encoding="utf-8")
    r = run(str(p))
    lines = r.stdout.decode("utf-8").splitlines()
    assert r.returncode == 1 and len(lines) == 3, lines  # game-id-filename warning, mvp-not-seat error, summary
    assert all(line.startswith(f"{tmp_path}/a\\nb\\x1b[31m/g1\\u2028.json: g1: ") for line in lines[:2])
    f = Finding(file="f.jsonl", field="item_id", severity="error", code="c", message="bad id 'x\r\ny'", item_id="x\r\ny")
    assert f.to_text() == "f.jsonl: x\\r\\ny: item_id: error: bad id 'x\\r\\ny' [c]"


def test_a_file_name_that_is_not_utf8_prints_in_both_formats(tmp_path):
    name = os.fsencode(tmp_path) + b"/g\xff.json"
    with open(name, "w", encoding="utf-8") as f:
        f.write("{")
    p = os.fsdecode(name)
    text = run(p)
    assert text.returncode == 1 and text.stdout.decode("utf-8").startswith(f"{tmp_path}/g\\udcff.json:1: -: -: error: invalid JSON")
    doc = json.loads(run(p, "--format", "json").stdout.decode("utf-8"))
    assert doc["findings"][0]["file"] == p  # the escape reads back as the same name


def test_good_sample_copy_is_still_clean(tmp_path):
    assert check_paths([sample_copy(tmp_path)]).findings == []


def test_every_command_error_is_one_line(tmp_path):
    """cli.main prints UserErrors with the same escaping as findings: a newline in a path stays on the line."""
    bad = tmp_path / "two\nlines"
    r = run_cli("eval", "--model", "werealign/random", "--dataset", bad)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "two\\nlines" in r.stderr and "dataset directory not found" in r.stderr, r.stderr
