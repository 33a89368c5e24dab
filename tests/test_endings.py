"""Issue 46: every ending says what happened. A run that could send nothing, or read no reply, exits non-zero (also
with --quiet); a shortcut's floor and its own score come from the same decodes; `leaderboard runs/*` skips an
unfinished run and a run on another dataset with one line each, naming datasets; a run of a newer format says so;
role columns show display names; runs decoded a different number of times are ranked with a note."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

import run_factory
from cli_inproc import run_cli
from run_factory import write_run
from werealign.errors import UserError
from werealign.eval.config import EvalConfig
from werealign.eval.runner import Execution, run_eval
from werealign.leaderboards.collect import collect
from werealign.leaderboards.tables import build

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import mock_server  # noqa: E402

CANDIDATE = re.compile(r"^Candidates: (\d+)", re.M)


def test_a_run_whose_every_prompt_is_over_the_context_budget_exits_1_even_quiet(tmp_path: Path) -> None:
    done = run_cli("eval", "--model", "werealign/random", "--tasks", "vote", "--decodes", "1", "--context-budget", "40",
                   "--quiet", "--no-cache", "--out", str(tmp_path / "r"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no sample could be sent: all" in done.stderr and "over the context budget" in done.stderr
    assert "(first: None)" not in done.stderr and "(first: " in done.stderr  # the first sample's reason, not None
    totals = json.loads((tmp_path / "r" / "results.json").read_text())["totals"]
    assert totals["over_budget"] == totals["samples"] > 0  # what was planned is still written


def test_a_run_whose_every_reply_is_unparsable_exits_1_even_quiet(tmp_path: Path) -> None:
    with mock_server.spawn("--reply", "garbage-answer") as base:
        done = run_cli("eval", "--model", "openai/mock", "--api-base", base + "/v1", "--tasks", "vote", "--decodes", "1", "--quiet",
                       "--no-cache", "--out", str(tmp_path / "r"), env={"OPENAI_API_KEY": "sk-unused"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no reply could be read" in done.stderr and "no answer line" in done.stderr  # the first parse error
    totals = json.loads((tmp_path / "r" / "results.json").read_text())["totals"]
    assert totals["parse_failures"] == totals["answered"] > 0


def test_a_run_with_one_readable_reply_is_not_a_failure(tmp_path: Path) -> None:
    from fake_llm import FakeCompletion

    first = []

    def reply(user: str) -> str:  # the first request names the first candidate, every other one answers nothing
        first.append(user)
        return "Answer: " + CANDIDATE.search(user).group(1) if len(first) == 1 else "I cannot decide."

    config = EvalConfig(model="openai/fake", decodes=1, tasks=("vote",))
    summary = run_eval(config, Execution(max_connections=1), out=tmp_path / "r", acompletion=FakeCompletion(reply_for=reply), cache=False)
    totals = summary.results.totals
    assert totals.parse_failures == totals.answered - 1 and summary.failure is None


def _equally_long_options(tmp_path: Path) -> Path:
    """The bundled sample with every speech option rewritten to one length (invented words): werealign/longest then
    answers by position, which the decodes shuffle."""
    import shutil

    from werealign.dataset import bundled_sample_path

    ds = tmp_path / "ds"
    shutil.copytree(bundled_sample_path(), ds)
    speech = ds / "items" / "speech.jsonl"
    rows = [json.loads(line) for line in speech.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        for k, option in enumerate(row["options"]):
            option["text"] = f"Reading number {k} of the table, invented for this test."
    speech.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return ds


def test_a_shortcuts_floor_is_its_own_score_over_the_same_decodes(tmp_path: Path, monkeypatch) -> None:
    """werealign/longest breaks ties between equally long options by position: over five shuffled decodes it answers
    differently than on the first, so a floor of the first decode alone differs from its own score (issue 46)."""
    monkeypatch.setenv("WEREALIGN_CACHE", "off")
    config = EvalConfig(model="werealign/longest", dataset=str(_equally_long_options(tmp_path)), decodes=5,
                        tasks=("speech", "vote", "opponent"))
    results = run_eval(config, Execution(), out=tmp_path / "r", cache=False).results
    checked = 0
    for task, block in results.variants["base"].items():
        floor = block.floors.shortcuts.get("werealign/longest")
        if floor is not None:
            assert floor == block.primary, (task, floor, block.primary)
            checked += 1
    assert checked == 3


def _rename_dataset(run: Path, name: str) -> None:
    for file in ("run.json", "results.json"):
        data = json.loads((run / file).read_text())
        data["dataset"]["name"] = name
        (run / file).write_text(json.dumps(data))


def test_leaderboard_skips_an_unfinished_run_and_one_on_another_dataset_one_line_each(tmp_path: Path) -> None:
    for name in ("a", "b"):
        write_run(tmp_path / "runs" / name, f"prov/{name}")
    other = write_run(tmp_path / "runs" / "c", "prov/c", dataset_sha="e" * 64)
    _rename_dataset(other, "another-set")
    (write_run(tmp_path / "runs" / "d", "prov/d") / "results.json").unlink()  # interrupted before it was scored
    runs = [f"runs/{n}" for n in "cabd"]  # the odd dataset first: the dataset most runs share is ranked
    done = run_cli("leaderboard", *runs, "--format", "json", "--resamples", "100", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = {ln.split()[1].rstrip(":"): ln for ln in done.stderr.splitlines() if ln.startswith("skipped")}
    assert sorted(lines) == ["runs/c", "runs/d"]  # one line each
    assert "another-set 1 (the bundled sample)" in lines["runs/c"] and "invented 1" in lines["runs/c"]
    assert "e" * 12 not in done.stderr  # datasets are named, not their content hashes
    assert "no results.json" in lines["runs/d"]
    assert sorted(m["model"] for m in json.loads(done.stdout)["models"]) == ["prov/a", "prov/b"]
    # only unfinished runs: nothing to rank, one line
    nothing = run_cli("leaderboard", "runs/d", cwd=tmp_path)
    assert nothing.returncode == 1 and "no finished run" in nothing.stderr


def test_runs_on_another_dataset_given_to_collect_are_refused_naming_the_datasets(tmp_path: Path) -> None:
    a = write_run(tmp_path / "a", "prov/a")
    b = write_run(tmp_path / "b", "prov/b", dataset_sha="e" * 64)
    _rename_dataset(b, "another-set")
    with pytest.raises(UserError, match=r"evaluated another-set 1 \(the bundled sample\), not invented 1") as e:
        collect([a, b])
    assert "eeee" not in str(e.value)


def test_a_run_of_a_newer_format_says_so(tmp_path: Path) -> None:
    run = write_run(tmp_path / "new", "prov/a")
    for file in ("run.json", "results.json"):
        data = json.loads((run / file).read_text())
        data.pop("format", None)
        (run / file).write_text(json.dumps({**data, "format_version": 3, "a_later_field": True}))
    for args in (("leaderboard", "new"), ("score", "new")):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == 1
        assert "written by a newer werealign (run format 3; this one reads formats 1 to 2)" in done.stderr, done.stderr
        assert "Input should be" not in done.stderr and done.stderr.count("\n") == 1


def test_role_columns_show_display_names_and_say_which_labels_the_catalogue_lacks(tmp_path: Path, monkeypatch) -> None:
    # Two catalogue ids and a label no catalogue knows (invented), as a release's by-role scores hold them.
    monkeypatch.setattr(run_factory, "ROLES", ("wolf_beauty", "white_wolf_king", "moon-priestess"))
    run = write_run(tmp_path / "a", "prov/a")
    board = build(collect([run]), resamples=100)
    table = next(t for t in board.tables if t.key == "roles-speech")
    assert [c.name for c in table.columns] == ["white wolf king", "wolf beauty", "moon-priestess"]  # catalogue order, unknown last
    by_role = json.loads((run / "results.json").read_text())["variants"]["base"]["speech"]["by_viewpoint_role"]
    cell = table.rows[0].cells["white wolf king"]
    assert cell.value == by_role["white_wolf_king"]["score"]
    assert any("not in the role catalogue" in n and "moon-priestess" in n for n in table.notes)


def test_runs_with_different_decode_counts_are_ranked_with_a_note(tmp_path: Path) -> None:
    same = build(collect([write_run(tmp_path / "a", "prov/a"), write_run(tmp_path / "b", "prov/b")]), resamples=100)
    assert not any("decodes per item" in w for w in same.warnings)
    mixed = build(collect([write_run(tmp_path / "a", "prov/a"), write_run(tmp_path / "c", "prov/c", decodes=5)]), resamples=100)
    note = "the runs differ in decodes per item (3: prov/a; 5: prov/c)"
    assert any(w.startswith(note) for w in mixed.warnings)
    assert any(n.startswith(note) for n in next(t for t in mixed.tables if t.key == "main").notes)
