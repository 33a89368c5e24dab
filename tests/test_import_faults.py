"""`werealign import werebench` on broken sources: bad timestamps, unreadable folders, unknown fields,
colliding item ids, SIGTERM. Never a traceback, never a silent loss, never a half-written output.

Synthetic releases come from test_import_werebench (invented text); tests on the real release copy it (or the
games they break) to tmp_path and break the copy, so nothing of it is stored here.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO
from test_import_werebench import _assert_clean_error, _game, _items, _question, _report, run_cli, write_release

from werealign.dataset import load_dataset

# --------------------------------------------------------------------------- 1. bad phase timestamps


@pytest.mark.parametrize("bad_key", ["first_night", "sheiff_election"])
def test_unreadable_phase_before_an_empty_day_one_is_dropped_not_a_crash(tmp_path, bad_key):
    # Day 1's start is re-derived from its neighbours; one of them was already dropped (KeyError before).
    game = _game()
    game["metadata"]["game_status"].update({bad_key: "xx", "first_day": ""})
    src = write_release(tmp_path / "release", game=game)
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "out"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "games: 1/1 converted" in r.stdout
    report = _report(tmp_path / "out")
    dropped = [e["field"] for e in report["dropped"] if e["code"] == "phase_unusable"]
    rederived = [e["field"] for e in report["repaired"] if e["code"] == "phase_start_rederived"]
    assert dropped == [f"metadata.game_status.{bad_key}"] and rederived == ["metadata.game_status.first_day"]
    phases = load_dataset(tmp_path / "out").games["pandakill-s1-01"].phases
    gone = "night-1" if bad_key == "first_night" else "sheriff-election"
    assert gone not in [p.id for p in phases]
    assert next(p for p in phases if p.id == "day-1").start == 60.0  # the first turn carrying the elected sheriff


def _real_part(werebench_src: Path, root: Path, season: str, numbers: tuple[str, ...]) -> Path:
    """A release folder of some of the real release's games: their logs copied (to be broken), their transcripts and
    configs and the item file linked. The items of the games left out are dropped with a reason, as any missing game's."""
    (root / "data" / season).mkdir(parents=True)
    (root / "clean_process" / season).mkdir(parents=True)
    (root / "WereBench").symlink_to(werebench_src / "WereBench", target_is_directory=True)
    for n in numbers:
        shutil.copy(werebench_src / "data" / season / f"{n}.json", root / "data" / season)
        for f in (werebench_src / "clean_process" / season).glob(f"{n}[ .]*"):
            (root / "clean_process" / season / f.name).symlink_to(f)
    return root


@pytest.mark.werebench
def test_real_games_with_a_broken_timeline_still_import(werebench_src, werebench_import, tmp_path):
    """Two real games, one with unreadable phase times: both convert, the broken one with its repairs and drops named,
    the other byte for byte as in the whole release's import (a game's conversion reads no other game)."""
    src = _real_part(werebench_src, tmp_path / "release", "Season_1", ("01", "02"))
    path = src / "data" / "Season_1" / "01.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["metadata"]["game_status"].update({"first_night": "xx", "first_day": ""})
    path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "out"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "games: 2/2 converted" in r.stdout
    fields = {(e["code"], e["field"]) for e in _report(tmp_path / "out")["dropped"] + _report(tmp_path / "out")["repaired"] if e["game"] == "pandakill-s1-01"}
    assert {("phase_unusable", "metadata.game_status.first_night"), ("phase_start_rederived", "metadata.game_status.first_day")} <= fields
    whole = werebench_import.path / "games"
    assert (tmp_path / "out" / "games" / "pandakill-s1-02.json").read_bytes() == (whole / "pandakill-s1-02.json").read_bytes()
    assert (tmp_path / "out" / "games" / "pandakill-s1-01.json").read_bytes() != (whole / "pandakill-s1-01.json").read_bytes()


# --------------------------------------------------------------------------- 2. unreadable source folders


def _denying_prefix(probe: Path) -> list[str]:
    """A command prefix under which a chmod 000 folder really cannot be read (root reads anything)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root and setpriv is not available to drop the file-permission override")
    # Root without CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH obeys file modes like anyone else.
    prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    probe.mkdir()
    probe.chmod(0)
    try:
        r = subprocess.run([*prefix, sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])", str(probe)], capture_output=True, text=True)
    finally:
        probe.chmod(0o755)
    if r.returncode == 0 or "PermissionError" not in r.stderr:
        pytest.skip(f"cannot make a folder unreadable here: {r.stderr.strip()[-200:]}")
    return prefix


@pytest.mark.werebench
@pytest.mark.parametrize("folder", ["data/Season_3", "clean_process/Season_1", "clean_process", "WereBench"])
def test_unreadable_folder_is_an_error_naming_it_and_nothing_is_written(werebench_src, tmp_path, folder):
    # A glob skips an unreadable Season folder: its 27 games vanished with exit 0. A transcript
    # folder raised a PermissionError traceback. Both must stop the import with one clear line.
    prefix = _denying_prefix(tmp_path / "probe")
    src = shutil.copytree(werebench_src, tmp_path / "release")
    out = tmp_path / "out"
    (src / folder).chmod(0)
    try:
        r = subprocess.run([*prefix, sys.executable, "-m", "werealign.cli", "import", "werebench", str(src), "--out", str(out)],
                           capture_output=True, text=True, cwd=REPO, timeout=300)
    finally:
        (src / folder).chmod(0o755)
    _assert_clean_error(r, f"{src / folder}: cannot read folder")
    assert r.stdout == "" and not out.exists() and not list(tmp_path.glob(".out*"))


# --------------------------------------------------------------------------- 3. unknown fields


def test_every_unknown_field_is_reported_wherever_it_is(tmp_path):
    game = _game()
    game["extra_top"] = 1
    game["metadata"]["extra_meta"] = 1
    game["metadata"]["MVP"]["extra_mvp"] = 1
    game["metadata"]["MVP"]["votes"]["first_day_votes"]["extra_vote"] = 1
    game["utterances"][1]["extra_turn"] = 1
    items = _items()
    items["extra_items"] = 1
    items["categories"][0]["extra_category"] = 1
    items["categories"][0]["questions"][0]["extra_question"] = 1
    items["categories"][0]["questions"][0]["options"][3]["extra_option"] = 1
    src = write_release(tmp_path / "release", game=game, items=items)
    r = run_cli("import", "werebench", str(src), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    found = {(e["source_file"], e["game"], e["item"], e["field"]) for e in _report(tmp_path / "out")["warning"] if e["code"] == "unknown_field"}
    game_file, items_file, g = "data/Season_1/01.json", "WereBench/WereBench.json", "pandakill-s1-01"
    assert found == {
        (game_file, g, None, "extra_top"),
        (game_file, g, None, "metadata.extra_meta"),
        (game_file, g, None, "metadata.MVP.extra_mvp"),
        (game_file, g, None, "metadata.MVP.votes.first_day_votes.extra_vote"),
        (game_file, g, None, "utterances[1].extra_turn"),
        (items_file, None, None, "extra_items"),
        (items_file, None, "Role Inference", "categories[0].extra_category"),
        (items_file, None, "Role Inference#1", "categories[0].questions[0].extra_question"),
        (items_file, None, "Role Inference#1", "categories[0].questions[0].options[3].extra_option"),
    }
    # Reported, not imported: the converted records are those of the same release without the extras.
    clean = run_cli("import", "werebench", str(write_release(tmp_path / "clean")), "--out", str(tmp_path / "clean_out"))
    assert clean.returncode == 0, clean.stderr
    for rel in ("games/pandakill-s1-01.json", "items/speech.jsonl", "items/vote.jsonl", "items/opponent.jsonl"):
        assert (tmp_path / "out" / rel).read_bytes() == (tmp_path / "clean_out" / rel).read_bytes(), rel


# --------------------------------------------------------------------------- 4. colliding item ids


def test_two_vote_keys_naming_one_day_keep_the_first_item_and_report_the_second(tmp_path):
    game = _game()
    # 'second_day' and 'second_day_votes' both become '...-second-day'; different cut-offs, so OI collides too.
    game["metadata"]["MVP"]["votes"]["second_day"] = {"vote_to": "5号", "cut_off_time": 11}
    src = write_release(tmp_path / "release", game=game)
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    ds = load_dataset(out)
    assert [(i.item_id, i.provenance.source_ref["mvp_vote"]) for i in ds.vote] == [
        ("pandakill-s1-01-va-first-day", "first_day_votes"), ("pandakill-s1-01-va-second-day", "second_day_votes")]
    assert [(i.item_id, i.provenance.source_ref["mvp_vote"]) for i in ds.opponent] == [
        ("pandakill-s1-01-oi-first-day", "first_day_votes"), ("pandakill-s1-01-oi-second-day", "second_day_votes")]
    report = _report(out)
    dups = {e["code"]: e for e in report["dropped"] if e["code"].endswith("_duplicate_id")}
    assert sorted(dups) == ["oi_duplicate_id", "va_duplicate_id"]
    for e in dups.values():
        assert (e["source_file"], e["item"], e["field"]) == ("data/Season_1/01.json", "second_day", "metadata.MVP.votes.second_day")
        assert "already made from MVP vote second_day_votes" in e["what"] and "first one is kept" in e["why"]
    assert report["counts"]["vote_items_dropped"] == 1 and report["counts"]["opponent_items_skipped"] == 1
    v = run_cli("validate", str(out))
    assert v.returncode == 0, v.stdout + v.stderr


def test_two_category_names_for_one_dimension_keep_the_first_item_and_report_the_second(tmp_path):
    items = _items()
    # 'Persuasive Statements' is what the paper calls the release's 'Social Interaction': both are PS.
    items["categories"].append({"categoryName": "Persuasive Statements", "questions": [_question(1, 6, "2号", "你是 2号，你会怎么说？")]})
    src = write_release(tmp_path / "release", items=items)
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "speech items: 3/4 converted, 1 dropped" in r.stdout
    (ps,) = [i for i in load_dataset(out).speech if i.item_id == "werebench-ps-0001"]
    assert ps.provenance.source_ref == {"category": "Social Interaction", "id": 1}
    (e,) = [e for e in _report(out)["dropped"] if e["code"] == "duplicate_item_id"]
    assert (e["source_file"], e["item"], e["field"]) == ("WereBench/WereBench.json", "Persuasive Statements#1", "categories[3].questions[0].id")
    assert "WereBench/WereBench.json Social Interaction#1" in e["what"] and "first one is kept" in e["why"]
    v = run_cli("validate", str(out))
    assert v.returncode == 0, v.stdout + v.stderr


# --------------------------------------------------------------------------- 5. SIGTERM


def test_sigterm_mid_import_removes_the_staging_directory(tmp_path):
    src = write_release(tmp_path / "release")
    out = tmp_path / "out"
    # The real CLI, held inside its staging directory once the dataset is written there (before it is
    # moved into place), so the signal lands mid-import every time rather than by luck of timing.
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
    proc = subprocess.Popen([sys.executable, "-c", code, str(src), str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob(".out.staging.*")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None and list(tmp_path.glob(".out.staging.*")), "the import never reached its staging directory"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, (proc.returncode, err)
    assert "Traceback" not in err and "terminated" in err
    assert not list(tmp_path.glob(".out*")) and not out.exists()
