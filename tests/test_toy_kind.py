"""A task kind from another package goes through derive, dataset, validate, eval, leaderboard and release with no
edit to werealign (issues 21, 46). The kind (tests/toykind: EXILE, "whom will the table exile today?") is
registered the way an installed package registers it, through the `werealign.tasks` entry point group:
the test writes a dist-info beside it on the path, so nothing is installed and nothing is patched. Its items are
made by `werealign derive` from the games, by the derive function its one module declares.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_inproc import run_cli
from plugin_site import plugin_site

from werealign.dataset import load_dataset, write_dataset
from werealign.llm.store import Store
from werealign.schema.runs import STORE_NAME
from werealign.tasks import TASKS

TESTS = Path(__file__).resolve().parent
pytestmark = pytest.mark.xdist_group("toy-kind")  # one worker registers and unregisters the kind


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = plugin_site(tmp_path_factory.mktemp("site"), "toykind", {"werealign.tasks": {"exile": "toykind:TASK"}})
    sys.path[:0] = [str(site), str(TESTS)]
    TASKS.refresh()
    yield site
    sys.path.remove(str(site))
    sys.path.remove(str(TESTS))
    TASKS.unregister("exile")
    TASKS.refresh()


@pytest.fixture(scope="module")
def derived(site, tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The sample's games and items (no exile item), then `werealign derive` with the kind installed."""
    sample = load_dataset()
    src = tmp_path_factory.mktemp("toy") / "source"
    m = sample.manifest
    write_dataset(src, name="toy", version="1", licence=m.licence, games=list(sample.games.values()),
                  items=sample.items, osr=sample.osr, description="with a toy kind")
    root = src.parent / "dataset"
    return root, _cli(site, "derive", src, "--out", root)


@pytest.fixture(scope="module")
def dataset(derived) -> Path:
    root, r = derived
    assert r.returncode == 0, r.stderr
    return root


def _cli(site: Path, *args, process: bool = False) -> subprocess.CompletedProcess:
    """`werealign ARGS` with the kind's package on the path: in this process (the site fixture put it on sys.path and
    read the entry points again), or with `process=True` in a fresh interpreter that finds the kind by its entry point
    alone (one test does: an interpreter that imports litellm for an eval costs seconds of CPU)."""
    if not process:
        return run_cli(*args, env={"WEREALIGN_CACHE": "off"})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(TESTS), os.environ.get("PYTHONPATH", "")]),
           "WEREALIGN_CACHE": "off"}
    return subprocess.run([sys.executable, "-m", "werealign.cli", *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=600)


def test_the_kind_comes_from_its_entry_point(site) -> None:
    import toykind

    assert TASKS["exile"] is toykind.TASK and list(TASKS)[-1] == "exile"  # built-ins first
    assert list(TASKS)[:3] == ["speech", "vote", "opponent"]


def test_derive_asks_the_plugin_for_its_items(derived, dataset) -> None:
    """Its items come from `werealign derive`: one per MVP vote, keyed by the first seat out of that day after the cut-off."""
    ds = load_dataset(dataset)
    items = ds.items_of("exile")
    assert "exile: 6 item(s)" in derived[1].stderr.splitlines()
    assert "items/exile.jsonl" not in {p.relative_to(dataset.parent / "source").as_posix() for p in (dataset.parent / "source").rglob("*")}
    for item in items:
        game = ds.games[item.game_id]
        exits = sorted((e.segment_id, e.target) for e in game.events if e.kind == "elimination" and e.phase == item.day
                       and e.segment_id > item.cutoff_segment)
        assert item.answer == exits[0][1] and item.viewpoint_seat == game.mvp.seat and item.viewpoint_seat not in item.candidates
    assert {i.item_id for i in items} == {v.item_id.replace("-VA-", "-EX-") for v in load_dataset().vote}
    # the built-in kinds derive as they did without it
    assert [i.item_id for i in ds.items_of("seer_check")] and len(ds.items_of("speech")) == len(load_dataset().speech)


def test_its_reasons_are_reported_per_kind(site, tmp_path) -> None:
    """A game without an MVP gives the kind no item, with its own reason in derive's report."""
    sample = load_dataset()
    games = [g.model_copy(update={"mvp": None}) if i == 0 else g for i, g in enumerate(sorted(sample.games.values(), key=lambda g: g.game_id))]
    src = tmp_path / "src"
    write_dataset(src, name="toy", version="1", licence="CC0", games=games, items={})
    r = _cli(site, "derive", src, "--out", tmp_path / "out", "--deciders", "all")
    assert r.returncode == 0, r.stderr
    assert "exile: 3 item(s); not derived: exile_no_mvp x1" in r.stderr.splitlines(), r.stderr
    assert "(deciders: all): " in r.stdout and ", 3 exile; wrote" in r.stdout


def test_the_dataset_writes_loads_and_counts_it(dataset) -> None:
    ds = load_dataset(dataset)
    assert len(ds.items_of("exile")) == 6 and ds.manifest.counts.count("exile") == 6
    assert json.loads((dataset / "dataset.json").read_text())["counts"]["exile"] == 6
    assert (dataset / "items" / "exile.jsonl").is_file()


def test_validate_checks_it_and_reports_its_own_errors(site, dataset, tmp_path) -> None:
    r = _cli(site, "validate", dataset, process=True)
    assert r.returncode == 0, r.stdout + r.stderr
    broken = tmp_path / "exile.jsonl"  # an items file is told by its name
    row = json.loads((dataset / "items" / "exile.jsonl").read_text().splitlines()[0])
    row["answer"] = next(s for s in range(1, 13) if s not in row["candidates"])
    broken.write_text(json.dumps(row) + "\n")
    r = _cli(site, "validate", broken)
    assert r.returncode == 1 and "exile-not-candidate" in r.stdout + r.stderr


def test_eval_leaderboard_and_release_handle_it(site, dataset, tmp_path) -> None:
    runs = []
    for model in ("werealign/random", "werealign/longest"):
        out = tmp_path / model.replace("/", "-")
        r = _cli(site, "eval", "--model", model, "--dataset", dataset, "--tasks", "vote,exile", "--decodes", "2", "--out", out)
        assert r.returncode == 0, r.stderr
        results = json.loads((out / "results.json").read_text())
        block = results["variants"]["base"]["exile"]
        assert block["samples"] == 12 and block["parse_failures"] == 0 and 0.0 <= block["accuracy"] <= 1.0
        # the majority-key floor (issue 45) is every single-answer kind's, a plug-in's too
        # and the floor its module declares, which reads the game (the seat the day's shown talk named most)
        assert set(block["floors"]["shortcuts"]) == {"werealign/longest", "majority-key", "most-named"} and 0 < block["floors"]["chance"] < 1
        assert 0 <= block["floors"]["shortcuts"]["most-named"] <= 1
        rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
        assert {row["task"] for row in rows} == {"vote", "exile"}
        with Store(out / STORE_NAME, readonly=True) as store:
            sent = store.load(with_request=True)
        prompts = [sent[row["key"]].request["messages"][-1]["content"] for row in rows if row["task"] == "exile"]
        assert prompts and all(p.endswith("Answer: <exiled seat>") and "## Question\nWhom will the table exile" in p for p in prompts)
        runs.append(out)
    # longest's score is its own floor: the same policy, scored twice
    longest = json.loads((runs[1] / "results.json").read_text())["variants"]["base"]["exile"]
    assert longest["accuracy"] == longest["floors"]["shortcuts"]["werealign/longest"]

    board = tmp_path / "board.md"
    r = _cli(site, "leaderboard", *runs, "--out", board)
    assert r.returncode == 0, r.stderr
    table = board.read_text()
    # Its own column (its scorer's label) after the paper's, and its own title.
    assert "| model | RI | SJ | DR | PS | CT | Avg | VA | OI | EX |" in table
    assert "By the viewpoint player's role: exiles foreseen" in table

    release = tmp_path / "release"
    r = _cli(site, "release", dataset, "--out", release)
    assert r.returncode == 0, r.stderr
    card = (release / "README.md").read_text()
    assert "| `exile` | 6 | EXILE: the seat the table exiled that day, asked at the vote's cut-off |" in card  # its own card text
    again = tmp_path / "again"
    r = _cli(site, "eval", "--model", "werealign/random", "--dataset", release, "--tasks", "exile", "--decodes", "1", "--out", again)
    assert r.returncode == 0, r.stderr
    assert json.loads((again / "results.json").read_text())["variants"]["base"]["exile"]["samples"] == 6


def test_a_language_the_kind_has_no_template_for_is_one_clear_error(site, dataset) -> None:
    from werealign.errors import UserError
    from werealign.eval.prompts import render_messages

    sample = load_dataset()
    item = load_dataset(dataset).items_of("exile")[0].model_copy(update={"language": "zh"})
    game = sample.games[item.game_id].model_copy(update={"language": "zh"})
    with pytest.raises(UserError, match=r"no prompt template zh/exile.v1.j2 in .*toykind"):
        render_messages(game, item)


@contextlib.contextmanager
def _without_the_kind(site: Path) -> Iterator[None]:
    """Another installation, in this process: the kind's dist-info off the path and the registry read again without
    it (as an interpreter without the package finds it), then both as they were."""
    sys.path.remove(str(site))
    TASKS.unregister("exile")
    TASKS.refresh()
    try:
        assert "exile" not in TASKS
        yield
    finally:
        sys.path.insert(0, str(site))
        TASKS.refresh()
        assert "exile" in TASKS


def test_without_the_package_its_items_are_named_as_left_out(site, dataset, tmp_path) -> None:
    """Another installation, without the kind: eval runs the kinds it knows and says what it leaves out."""
    with _without_the_kind(site):
        r = _cli(site, "eval", "--model", "werealign/random", "--dataset", dataset, "--tasks", "vote", "--decodes", "1",
                 "--out", tmp_path / "run")
        assert r.returncode == 0, r.stderr
        assert "items/exile.jsonl: task kind 'exile' is not registered here" in r.stderr
        # release would leave them out, so it refuses before writing anything
        r = _cli(site, "release", dataset, "--out", tmp_path / "release")
        assert r.returncode == 1 and "items/exile.jsonl holds items of task kind 'exile'" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "release").exists()
        # so do the commands that write the dataset again (derive in place would have deleted them)
        before = (dataset / "items" / "exile.jsonl").read_bytes()
        r = _cli(site, "derive", dataset)
    assert r.returncode == 1 and "would be left out" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert (dataset / "items" / "exile.jsonl").read_bytes() == before


def test_derive_again_gives_the_same_items(site, dataset, tmp_path) -> None:
    """derive rewrites a dataset: the kind's items derived again are the same bytes (issue 21: none is dropped)."""
    r = _cli(site, "derive", dataset, "--out", tmp_path / "derived")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "derived" / "items" / "exile.jsonl").read_bytes() == (dataset / "items" / "exile.jsonl").read_bytes()
    assert load_dataset(tmp_path / "derived").manifest.counts.count("exile") == 6
