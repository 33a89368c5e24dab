"""werealign.files and the CLI's output paths: every bad input or output path is one clear line, never a traceback."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from werealign.errors import UserError
from werealign.files import atomic_write_text, read_jsonl, read_text, staged_directory

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
EXAMPLE_SRT = REPO / "annotation" / "examples" / "six_seat.srt"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "werealign.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120)


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
