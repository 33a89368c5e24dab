"""werealign.files and the CLI's output paths: every bad input or output path is one clear line, never a traceback."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.errors import UserError
from werealign.files import atomic_write_text, path_kind, read_json, read_jsonl, read_text, sha256_file, staged_directory

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
EXAMPLE_SRT = REPO / "annotation" / "examples" / "six_seat.srt"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli(*args)


def _one_line_error(r: subprocess.CompletedProcess, *needles: str) -> str:
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_atomic_write_refuses_a_directory_and_a_file_parent(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(UserError, match="is a directory"):
        atomic_write_text(tmp_path / "d", "x")
    (tmp_path / "f").write_text("keep", encoding="utf-8")
    with pytest.raises(UserError, match=r"f is a file, not a directory"):
        atomic_write_text(tmp_path / "f" / "sub" / "out.json", "x")
    assert (tmp_path / "f").read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "f"]  # no temporary file left behind


def test_outputs_get_the_umask_mode_not_mkstemps_0600(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "a.json", "{}\n")
        with staged_directory(tmp_path / "ds") as stage:
            atomic_write_text(stage / "x.json", "{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "ds").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "ds" / "x.json").stat().st_mode) == 0o644


def test_staged_directory_refuses_an_existing_file(tmp_path):
    (tmp_path / "out").write_text("keep", encoding="utf-8")
    for overwrite in (False, True):
        with pytest.raises(UserError, match="not a directory"):
            with staged_directory(tmp_path / "out", overwrite=overwrite):
                pass
    assert (tmp_path / "out").read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no staging directory left behind


def test_readers_name_the_file_for_directories_and_binary(tmp_path):
    (tmp_path / "d.jsonl").mkdir()
    with pytest.raises(UserError, match="is a directory"):
        list(read_jsonl(tmp_path / "d.jsonl"))
    (tmp_path / "b.jsonl").write_bytes(b"\x00\xff\xfe\x89PNG")
    with pytest.raises(UserError, match="not UTF-8"):
        list(read_jsonl(tmp_path / "b.jsonl"))
    with pytest.raises(UserError, match="file not found"):
        read_text(tmp_path / "missing.srt", "SRT")


def test_cli_output_paths_that_cannot_be_written(tmp_path):
    a_file = tmp_path / "a_file"
    a_file.write_text("keep", encoding="utf-8")
    # A directory output (import) on an existing file; below a file; a file output (build) on a directory.
    from test_import_werebench import write_release  # the invented release of the importer tests

    src = write_release(tmp_path / "release")
    _one_line_error(_cli("import", "werebench", str(src), "--out", str(a_file)), "a_file", "not a directory")
    _one_line_error(_cli("import", "werebench", str(src), "--out", str(a_file / "ds")), "a_file is a file")
    _one_line_error(_cli("annotate", "build", "--srt", str(EXAMPLE_SRT), "--config", str(TEMPLATE), "--out", str(tmp_path)), "is a directory")
    _one_line_error(_cli("annotate", "build", "--srt", str(EXAMPLE_SRT), "--config", str(TEMPLATE), "--out", str(a_file / "g.json")), "a_file is a file")
    assert a_file.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "release"]


def test_annotate_out_that_is_an_input_is_refused(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_bytes(TEMPLATE.read_bytes())
    _one_line_error(_cli("annotate", "build", "--srt", str(EXAMPLE_SRT), "--config", str(config), "--out", str(config)), "also an input")
    assert config.read_bytes() == TEMPLATE.read_bytes()
    _one_line_error(_cli("annotate", "convert-release", str(config), "--out", str(config)), "also an input")
    assert config.read_bytes() == TEMPLATE.read_bytes()


def test_jsonl_rows_may_hold_unicode_line_separators(tmp_path):
    from werealign.files import write_jsonl

    rows = [{"text": "a\u2028b\u0085c\x0bd"}, {"text": "e"}]
    write_jsonl(tmp_path / "x.jsonl", rows)
    assert [obj for _, obj in read_jsonl(tmp_path / "x.jsonl")] == rows
    (tmp_path / "crlf.jsonl").write_bytes(b'{"a": 1}\r\n\r\n{"a": 2}\r\n')
    assert list(read_jsonl(tmp_path / "crlf.jsonl")) == [(1, {"a": 1}), (3, {"a": 2})]


# --------------------------------------------------------------------------- what json.loads lets through or chokes on


@pytest.mark.parametrize("text,needle", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # RecursionError inside json.loads
    ('{"a": ' + "7" * 5000 + "}", "more than"),  # ValueError: Python's int max str digits
    ('{"a": NaN}', "NaN is not a JSON value"),
    ('[1, Infinity]', "Infinity is not a JSON value"),
    ('{"a": -Infinity}', "-Infinity is not a JSON value"),
    ('{"a": 1.5e308, "b": -1e400}', "the number -1e400 is too large"),  # float() would give -inf silently
], ids=["deep", "long-int", "nan", "infinity", "minus-infinity", "huge-float"])
def test_json_readers_turn_every_parse_failure_into_one_line(tmp_path, text, needle):
    p = tmp_path / "x.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match=needle) as e:
        read_json(p)
    assert str(e.value).startswith(f"{p}: invalid JSON") and "\n" not in str(e.value)
    lines = tmp_path / "x.jsonl"
    lines.write_text('{"ok": 1}\n' + text + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=needle) as e:
        list(read_jsonl(lines))
    assert str(e.value).startswith(f"{lines}:2: invalid JSON line")


def test_an_empty_json_file_says_so(tmp_path):
    for text in ("", " \n\t\n"):
        p = tmp_path / "g.json"
        p.write_text(text, encoding="utf-8")
        with pytest.raises(UserError, match=r"empty file, expected JSON$"):
            read_json(p)


def test_lone_surrogate_escapes_are_refused_paired_ones_kept(tmp_path):
    p = tmp_path / "x.json"
    for text in ('{"a": "x\\ud800y"}', '{"\\uDC00": 1}', '[["deep", {"k": "\\udbff"}]]'):
        p.write_text(text, encoding="utf-8")
        with pytest.raises(UserError, match=r"lone UTF-16 surrogate escape \\u[0-9a-f]{4}") as e:
            read_json(p)
        assert str(e.value).startswith(f"{p}: invalid JSON")
    lines = tmp_path / "x.jsonl"
    lines.write_text('{"a": "ok"}\n\n{"a": "\\ud83d"}\n', encoding="utf-8")
    with pytest.raises(UserError, match=f"^{lines}:3: invalid JSON line: lone UTF-16 surrogate"):
        list(read_jsonl(lines))
    # A pair is an astral character; an escaped backslash before 'ud800' is plain text.
    p.write_text('{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}', encoding="utf-8")
    assert read_json(p) == {"a": "\U0001F600", "b": "\\ud800"}


def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    """Opening a FIFO blocks until a writer comes: run in a subprocess so a regression fails, not hangs."""
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    script = (
        "import sys; from pathlib import Path; from werealign.errors import UserError\n"
        "from werealign.files import read_json, read_jsonl, sha256_file\n"
        "for f in (read_json, lambda p: list(read_jsonl(p)), sha256_file):\n"
        "    try: f(Path(sys.argv[1]))\n"
        "    except UserError as e: print(e)\n"
    )
    r = subprocess.run([sys.executable, "-c", script, str(fifo)], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"{fifo}: not a regular file (a FIFO, socket or device), expected a {k} file"
                                     for k in ("JSON", "JSONL", "regular")]


def test_permission_problems_are_one_line(tmp_path, monkeypatch):
    """Root reads anything, so the failing calls are made to fail as they do for other users."""
    p = tmp_path / "x.json"
    p.write_text("{}", encoding="utf-8")
    real_stat, real_open = Path.stat, Path.open

    def denied(*_a, **_k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", lambda self, *a, **k: denied() if self == p else real_open(self, *a, **k))
    for read in (read_json, sha256_file):
        with pytest.raises(UserError, match=f"^{p}: cannot read: Permission denied$"):
            read(p)
    # A parent directory without search permission: even looking at the path fails.
    monkeypatch.setattr(Path, "stat", lambda self, *a, **k: denied() if self == p else real_stat(self, *a, **k))
    for check in (path_kind, read_json, sha256_file):
        with pytest.raises(UserError, match=f"^{p}: cannot read: Permission denied$"):
            check(p)


def test_sha256_refuses_a_directory_and_a_missing_file(tmp_path):
    with pytest.raises(UserError, match="is a directory"):
        sha256_file(tmp_path)
    with pytest.raises(UserError, match="file not found"):
        sha256_file(tmp_path / "nope")
