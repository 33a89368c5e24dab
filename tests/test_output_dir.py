"""Issue 25: no command deletes what it did not write (werealign/files/output_dir.py), and --strict.

Every release, dataset and folder here is invented in a tmp dir (the tiny WereBench-shaped release of
test_import_werebench, the bundled sample, the crafted game); nothing is cut from real data.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_inproc import run_cli
from crafted_game import crafted_game
from test_import_werebench import _items, write_release

from werealign.dataset import bundled_sample_path, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import STAGING, _lock, staged_directory
from werealign.files.output_dir import MARKER, claim_directory, output_directory, owner
from werealign.schema import MvpVote

REPO = Path(__file__).resolve().parents[1]


def digest(root: Path) -> dict[str, str]:
    """Every file under root (hidden ones too) -> sha256: 'not a byte lost' made checkable."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def one_error(r: subprocess.CompletedProcess, *needles: str) -> str:
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.stderr, r.stderr
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def a_folder_of_mine(path: Path) -> Path:
    """A user's folder that no werealign command wrote: notes and a sub-folder."""
    (path / "sub").mkdir(parents=True)
    (path / "notes.txt").write_text("my own notes, not a werealign output\n", encoding="utf-8")
    (path / "sub" / "data.bin").write_bytes(os.urandom(64))
    return path


@pytest.fixture()
def sample(tmp_path: Path) -> Path:
    return Path(shutil.copytree(bundled_sample_path(), tmp_path / "sample"))


# --------------------------------------------------------------------------- the helper itself


def test_out_equal_inside_or_containing_an_input_is_refused_also_through_a_symlink(tmp_path):
    src = a_folder_of_mine(tmp_path / "in")
    (tmp_path / "link").symlink_to(src)
    before = digest(tmp_path)
    for out in (src, src / "sub", src / "new", tmp_path, tmp_path / "link", tmp_path / "link" / "sub"):
        with pytest.raises(UserError, match="--out is (the input .* or contains it|inside the input)"):
            with output_directory(out, command="test", inputs=[src], overwrite=True) as stage:
                (stage / "x").write_text("x")
    # an input given through the symlink is the same real folder
    with pytest.raises(UserError, match="contains it"):
        with output_directory(src, command="test", inputs=[tmp_path / "link"], overwrite=True):
            pass
    assert digest(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "link"]  # no staging left either


def test_overwrite_replaces_only_the_commands_own_marked_output(tmp_path):
    out = tmp_path / "out"
    with output_directory(out, command="alpha") as stage:
        (stage / "a.txt").write_text("1")
    assert owner(out) == "alpha" and (out / "a.txt").read_text() == "1"
    with pytest.raises(UserError, match="not empty .*--overwrite"):
        with output_directory(out, command="alpha"):
            pass
    with pytest.raises(UserError, match="not an output of `werealign beta`"):  # another command's output
        with output_directory(out, command="beta", overwrite=True):
            pass
    with output_directory(out, command="alpha", overwrite=True) as stage:
        (stage / "a.txt").write_text("2")
    assert (out / "a.txt").read_text() == "2"
    mine = a_folder_of_mine(tmp_path / "mine")
    before = digest(mine)
    with pytest.raises(UserError, match="nothing deleted"):
        with output_directory(mine, command="alpha", overwrite=True):
            pass
    assert digest(mine) == before
    # a marker that is not werealign's (other JSON, not JSON) does not make a folder ours
    (mine / MARKER).write_text('{"command": "alpha"}')
    with pytest.raises(UserError, match="nothing deleted"):
        with output_directory(mine, command="alpha", overwrite=True):
            pass
    (tmp_path / "empty").mkdir()
    with output_directory(tmp_path / "empty", command="alpha") as stage:  # an empty folder is reused
        (stage / "a.txt").write_text("3")
    assert (tmp_path / "empty" / "a.txt").read_text() == "3"


def test_claim_directory_refuses_a_foreign_folder_and_resumes_its_own(tmp_path):
    mine = a_folder_of_mine(tmp_path / "mine")
    before = digest(mine)
    with pytest.raises(UserError, match="not an output of `werealign gen`"):
        claim_directory(mine, command="gen")
    assert digest(mine) == before
    claim_directory(tmp_path / "g", command="gen")
    (tmp_path / "g" / "store").write_text("paid for")
    claim_directory(tmp_path / "g", command="gen")  # a rerun resumes its own folder
    assert (tmp_path / "g" / "store").read_text() == "paid for"
    with pytest.raises(UserError, match="is inside the input"):
        claim_directory(mine / "g", command="gen", inputs=[mine])


def test_a_killed_runs_staging_is_cleaned_and_a_live_ones_is_respected(tmp_path):
    out = tmp_path / "out"
    with output_directory(out, command="alpha") as stage:
        (stage / "a.txt").write_text("old")
    # killed mid-build: a staging folder with half an output and nobody holding its lock
    (tmp_path / f".out{STAGING}dead1" / "new").mkdir(parents=True)
    # killed mid-swap: the old output moved aside, the new one not yet in place
    out.rename(tmp_path / "aside")
    (tmp_path / f".out{STAGING}dead2").mkdir()
    (tmp_path / "aside").rename(tmp_path / f".out{STAGING}dead2" / "old")
    assert not out.exists()
    with output_directory(out, command="alpha", overwrite=True) as stage:
        assert (out / "a.txt").read_text() == "old"  # the earlier output was put back first
        (stage / "a.txt").write_text("new")
    assert (out / "a.txt").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    # a staging folder whose run is alive (its lock held) is neither deleted nor written over
    live = tmp_path / f".out{STAGING}live"
    live.mkdir()
    fd = _lock(live)
    try:
        with pytest.raises(UserError, match="another werealign command is writing"):
            with staged_directory(out, overwrite=True):
                pass
    finally:
        os.close(fd)
    assert live.is_dir() and (out / "a.txt").read_text() == "new"


def test_kill_9_mid_import_then_the_next_import_leaves_no_staging(tmp_path):
    src = write_release(tmp_path / "release")
    out = tmp_path / "out"
    code = (
        "import sys, time\n"
        "import werealign.importers.werebench.importer as wb\n"
        "write = wb.write_dataset\n"
        "def write_then_wait(*args, **kwargs):\n"
        "    write(*args, **kwargs)\n"
        "    time.sleep(120)\n"
        "wb.write_dataset = write_then_wait\n"
        "from werealign.cli import main\n"
        "sys.argv = ['werealign', 'import', 'werebench', sys.argv[1], '--out', sys.argv[2]]\n"
        "main()\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(src), str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(f".out{STAGING}*/new/dataset.json")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGKILL)  # nothing of the process runs: its staging folder stays behind
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert list(tmp_path.glob(f".out{STAGING}*")) and not out.exists()
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "release"]


# --------------------------------------------------------------------------- one test per command


def test_import_refuses_an_out_inside_the_release_or_a_foreign_folder_and_loses_no_byte(tmp_path):
    src = write_release(tmp_path / "release")
    before = digest(src)
    # the probe: an --out inside the source replaced the source's own game files
    one_error(run_cli("import", "werebench", str(src), "--out", str(src / "data" / "Season_1"), "--overwrite"), "inside the input")
    # the other probe: `--out . --overwrite` wiped the current folder
    here = a_folder_of_mine(tmp_path / "here")
    mine = digest(here)
    one_error(run_cli("import", "werebench", str(src), "--out", ".", "--overwrite", cwd=here), "not an output of `werealign import werebench`")
    assert digest(src) == before and digest(here) == mine
    # its own earlier output is replaced, and marked again
    assert run_cli("import", "werebench", str(src), "--out", str(tmp_path / "ds")).returncode == 0
    assert run_cli("import", "werebench", str(src), "--out", str(tmp_path / "ds"), "--overwrite").returncode == 0
    assert owner(tmp_path / "ds") == "import werebench"
    # a derive output is not an import's to delete
    assert run_cli("derive", str(tmp_path / "ds"), "--out", str(tmp_path / "derived")).returncode == 0
    kept = digest(tmp_path / "derived")
    one_error(run_cli("import", "werebench", str(src), "--out", str(tmp_path / "derived"), "--overwrite"), "nothing deleted")
    assert digest(tmp_path / "derived") == kept


def test_derive_refuses_inputs_and_foreign_folders_and_in_place_keeps_the_marker(tmp_path, sample):
    before = digest(sample)
    one_error(run_cli("derive", str(sample), "--out", str(sample / "games"), "--overwrite"), "inside the input")
    one_error(run_cli("derive", str(sample), "--out", str(tmp_path), "--overwrite"), "contains it")
    mine = a_folder_of_mine(tmp_path / "mine")
    kept = digest(mine)
    one_error(run_cli("derive", str(sample), "--out", str(mine), "--overwrite"), "not an output of `werealign derive`")
    assert digest(sample) == before and digest(mine) == kept
    out = tmp_path / "d"
    assert run_cli("derive", str(sample), "--out", str(out)).returncode == 0
    assert run_cli("derive", str(sample), "--out", str(out), "--overwrite").returncode == 0
    assert owner(out) == "derive" and MARKER not in load_dataset(out).manifest.content_hashes
    # in place (no --out) rewrites the dataset itself and keeps whose output it is
    ds = tmp_path / "imported"
    assert run_cli("import", "werebench", str(write_release(tmp_path / "rel")), "--out", str(ds)).returncode == 0
    assert run_cli("derive", str(ds)).returncode == 0
    assert owner(ds) == "import werebench" and run_cli("validate", str(ds)).returncode == 0


def test_generate_refuses_an_out_inside_the_dataset_or_a_foreign_folder(tmp_path, sample):
    from gen_fake import FakeProvider

    from werealign.generation.pipeline import GenConfig, run_generation

    config = GenConfig(model="fake/model", dataset=str(sample), games=("sample-en-01",), dimensions=("RI",), osr=False, judges=0, limit=1)
    before = digest(sample)
    mine = a_folder_of_mine(tmp_path / "mine")
    kept = digest(mine)
    for out, needle in ((sample / "gen", "inside the input"), (mine, "not an output of `werealign generate`")):
        with pytest.raises(UserError, match=needle):
            run_generation(config, out, acompletion=FakeProvider(), quiet=True)
    assert digest(sample) == before and digest(mine) == kept
    run_generation(config, tmp_path / "g", acompletion=FakeProvider(), quiet=True)
    again = FakeProvider()
    run_generation(config, tmp_path / "g", acompletion=again, quiet=True)  # its own folder: resumed
    assert again.calls == 0 and (tmp_path / "g" / "dataset" / "dataset.json").is_file()


def test_release_refuses_an_out_around_the_dataset_or_a_foreign_folder(tmp_path, sample):
    before = digest(sample)
    one_error(run_cli("release", str(sample), "--out", str(tmp_path), "--overwrite"), "contains it")
    mine = a_folder_of_mine(tmp_path / "mine")
    kept = digest(mine)
    one_error(run_cli("release", str(sample), "--out", str(mine), "--overwrite"), "not an output of `werealign release`")
    assert digest(sample) == before and digest(mine) == kept
    out = tmp_path / "hf"
    assert run_cli("release", str(sample), "--out", str(out)).returncode == 0
    assert run_cli("release", str(sample), "--out", str(out), "--overwrite").returncode == 0
    assert owner(out) == "release"


def test_review_export_refuses_the_reviewed_dataset_and_a_foreign_folder(tmp_path, sample):
    before = digest(sample)
    one_error(run_cli("review", str(sample), "--export-only", "--export", str(sample / "items")), "inside the input")
    mine = a_folder_of_mine(tmp_path / "mine")
    kept = digest(mine)
    one_error(run_cli("review", str(sample), "--export-only", "--export", str(mine)), "not an output of `werealign review export`")
    assert digest(sample) == before and digest(mine) == kept
    for _ in range(2):  # re-exporting replaces its own earlier export
        r = run_cli("review", str(sample), "--export-only")
        assert r.returncode == 0, r.stderr
    assert owner(tmp_path / "sample-reviewed") == "review export"


# --------------------------------------------------------------------------- --strict


def test_import_strict_fails_on_a_dropped_item_and_still_writes_the_report(tmp_path):
    items = _items()
    # an invented second item with the id of the first one in its dimension: dropped as a duplicate
    items["categories"].append({"categoryName": "Persuasive Statements", "questions": [dict(items["categories"][1]["questions"][0])]})
    src = write_release(tmp_path / "release", items=items)
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "loose"))
    assert r.returncode == 0, r.stderr
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "strict"), "--strict")
    assert r.returncode == 1 and "--strict" in r.stderr and "dropped" in r.stderr, r.stderr
    assert (tmp_path / "strict" / "import_report.json").is_file() and (tmp_path / "strict" / "IMPORT_REPORT.md").is_file()
    clean = write_release(tmp_path / "clean")
    r = run_cli("import", "werebench", str(clean), "--out", str(tmp_path / "ok"), "--strict")
    drops = load_dataset(tmp_path / "ok")  # the clean release drops nothing: --strict passes
    assert r.returncode == 0 and drops.manifest.counts.games == 1, r.stderr


def test_derive_strict_fails_on_a_dropped_vote_and_still_writes(tmp_path):
    game = crafted_game()
    # an abstention in a game whose rules do not allow abstaining: no VA item can be made of it
    mvp = game.mvp.model_copy(update={"votes": [*game.mvp.votes, MvpVote(phase="day-1", target=None, cutoff_segment=game.mvp.votes[0].cutoff_segment)]})
    game = game.model_copy(update={"mvp": mvp, "rules": game.rules.model_copy(update={"abstention_allowed": False})})
    src = tmp_path / "ds"
    src.mkdir()
    write_dataset(src, name="invented", version="1", licence="none", games=[game], items={"speech": [], "vote": [], "opponent": []})
    assert run_cli("derive", str(src), "--out", str(tmp_path / "loose")).returncode == 0
    r = run_cli("derive", str(src), "--out", str(tmp_path / "strict"), "--strict")
    assert r.returncode == 1 and "--strict: 1 annotated decision(s) gave no item" in r.stderr, r.stderr
    assert load_dataset(tmp_path / "strict").manifest.counts.vote == 1
