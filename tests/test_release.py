"""werealign release: dataset directory -> Hugging Face folder -> load_dataset (offline) -> the same items."""

from __future__ import annotations

import secrets
from fnmatch import fnmatch
import shutil
from pathlib import Path

import pytest
import yaml

from werealign.dataset import bundled_sample_path, load_dataset
from werealign.errors import UserError
from werealign.release.build import build_release
from werealign.splits import apply_split
from werealign.dataset.release_layout import FAITHFUL_SUFFIX, configs
from werealign.release.tables import configs_of

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


@pytest.fixture
def offline(monkeypatch, tmp_path):
    for k, v in OFFLINE.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))  # a fresh cache: nothing can come from an earlier load
    import datasets

    datasets.disable_progress_bars()
    return datasets


@pytest.fixture(scope="module")
def sample_release(tmp_path_factory) -> Path:
    """The bundled sample's release, built once for the tests that only read its files (each build audits the sample
    for its card: seconds). A test that loads it through `datasets` builds its own: that may write beside it."""
    folder = tmp_path_factory.mktemp("sample-release") / "release"
    build_release(None, folder)
    return folder


def card_header(folder: Path) -> dict:
    text = (folder / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def assert_round_trip(datasets, ds, folder: Path) -> dict[str, int]:
    """Every config of the release at `folder`, loaded by `datasets`, is the rows of `ds` (the loaded dataset directory
    it was built from)."""
    counts = {}
    for name in card_header(folder)["configs"]:
        config = name["config_name"]
        if config.endswith(FAITHFUL_SUFFIX):  # a kind's faithful split: its rows are those eval --split faithful keeps
            model, all_of = configs()[config[: -len(FAITHFUL_SUFFIX)]]

            def rows_of(d, all_of=all_of):
                return apply_split(list(all_of(d)), d.games, "faithful")[0]
        else:
            model, rows_of = configs()[config]
        # A cache of this test's own: HF_HOME set by `offline` is ignored once `datasets` was imported (an earlier test
        # built a release), and the shared cache may hold another checkout's rows for the same path and content.
        loaded = datasets.load_dataset(str(folder), config, split="test", cache_dir=str(folder.parent / "hf-cache"))
        got = [model.model_validate(row) for row in loaded]
        assert got == list(rows_of(ds)), config
        counts[config] = len(got)
    return counts


def test_sample_round_trips_through_load_dataset_offline(offline, tmp_path):
    folder = tmp_path / "release"
    build_release(None, folder)
    counts = assert_round_trip(offline, load_dataset(None), folder)
    assert counts == {"speech": 20, "vote": 6, "opponent": 6, "games": 2, "osr": 116, "manifest": 1}
    # Nested fields come back as the same structures, not as text.
    speech = offline.load_dataset(str(folder), "speech", split="test")
    assert isinstance(speech[0]["options"], list) and speech[0]["options"][0]["key"] == "A"
    games = offline.load_dataset(str(folder), "games", split="test")
    assert isinstance(games[0]["utterances"][0]["segment_ids"], list)


def test_card_header_describes_every_config(sample_release):
    folder = sample_release
    head = card_header(folder)
    assert head["license"] == "apache-2.0" and head["language"] == ["en"] and head["size_categories"] == ["n<1K"]
    assert {"multiple-choice"} <= set(head["task_categories"])
    configs = {c["config_name"]: c for c in head["configs"]}
    assert set(configs) == {"speech", "vote", "opponent", "games", "osr", "manifest"}
    for c in configs.values():
        assert (folder / c["data_files"][0]["path"]).is_file()
    info = {i["config_name"]: i for i in head["dataset_info"]}
    assert {f["name"]: f.get("dtype") for f in info["speech"]["features"]}["options"] == "json"
    assert info["vote"]["splits"][0]["num_examples"] == 6
    body = (folder / "README.md").read_text()
    for section in ("## How the items were made", "## How to evaluate", "## Known artifacts", "key is the longest option"):
        assert section in body



def test_card_artifacts_are_the_audit_checks(sample_release):
    """The card reports `werealign audit`'s own checks and verdicts, not a second measurement of its own."""
    from werealign.audit import audit_items
    from werealign.dataset import load_dataset

    body = (sample_release / "README.md").read_text()
    report = audit_items(load_dataset(None))
    assert report.checks
    for check in report.checks:
        assert (f"{check.verdict}: {check.detail}" if check.verdict != "skip" else "| skip |") in body, check
    assert f"Overall audit verdict: **{report.verdict}**" in body

def test_release_is_byte_identical_on_rerun(sample_release, tmp_path):
    from werealign.audit import core
    from werealign.shortcuts import context

    a = sample_release  # the file's build; then one more, its card's audit made again (not from the process's memo)
    core._MEMO.clear()
    context.clear_memos()  # its features and cross-fits computed again too
    build_release(None, tmp_path / "b")
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    for f in files:
        assert (a / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def test_a_dataset_without_some_item_kinds_ships_only_what_it_has(offline, tmp_path):
    src = tmp_path / "ds"
    shutil.copytree(bundled_sample_path(), src)
    (src / "items" / "vote.jsonl").unlink()
    shutil.rmtree(src / "variants")
    build_release(src, tmp_path / "release")
    assert {c["config_name"] for c in card_header(tmp_path / "release")["configs"]} == {"speech", "opponent", "games", "manifest"}
    assert_round_trip(offline, load_dataset(src), tmp_path / "release")


def test_bad_input_leaves_no_output(tmp_path):
    with pytest.raises(UserError, match="not a werealign dataset directory"):
        build_release(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep").write_text("x")
    with pytest.raises(UserError, match="not empty"):
        build_release(None, tmp_path / "full")
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["keep"]


def test_push_uploads_the_folder_with_the_environment_token(sample_release, monkeypatch):
    from huggingface_hub import HfApi

    from werealign.release.push import push_release

    token = "hf_" + secrets.token_hex(16)  # made at run time: no token-shaped string in the repository
    monkeypatch.setenv("HF_TOKEN", token)
    calls = []

    def fake_create(self, repo_id, **kw):
        calls.append(("create_repo", repo_id, kw))

    def fake_upload(self, **kw):
        folder = Path(kw["folder_path"])
        sent = [p for p in folder.rglob("*") if p.is_file() and not any(fnmatch(p.name, pat) for pat in kw.get("ignore_patterns") or [])]
        calls.append(("upload_folder", kw["repo_id"], sorted(str(p.relative_to(folder)) for p in sent), kw))
        return type("Info", (), {"commit_url": "https://huggingface.co/datasets/org/x/commit/abc"})()

    monkeypatch.setattr(HfApi, "create_repo", fake_create)
    monkeypatch.setattr(HfApi, "upload_folder", fake_upload)
    folder = sample_release
    url = push_release(folder, "org/werealign-sample")
    assert url.endswith("/commit/abc")
    assert calls[0][0] == "create_repo" and calls[0][1] == "org/werealign-sample" and calls[0][2]["repo_type"] == "dataset"
    assert calls[1][0] == "upload_folder" and calls[1][3]["repo_type"] == "dataset"
    assert calls[1][2] == ["README.md", *sorted(f"data/{c}/test.parquet" for c in configs_of(load_dataset()))]  # every config with rows
    # The token is huggingface_hub's business: never passed through werealign, never in any file.
    assert token not in repr(calls)
    for p in folder.rglob("*"):
        if p.is_file():
            assert token.encode() not in p.read_bytes()


def test_push_without_a_token_is_a_one_line_error(tmp_path, monkeypatch):
    from werealign.release.push import push_release

    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-home"))  # no stored login either
    with pytest.raises(UserError, match="HF_TOKEN"):
        push_release(tmp_path, "org/x")


@pytest.mark.werebench
@pytest.mark.slow
def test_real_werebench_round_trips(offline, werebench_import, werebench_dataset, tmp_path):
    dataset_dir = werebench_import.path  # the session's one import of the real release, and its load (conftest)
    build_release(dataset_dir, tmp_path / "release")
    counts = assert_round_trip(offline, werebench_dataset, tmp_path / "release")
    assert counts["speech"] > 100 and counts["games"] > 10
    assert "zh" in card_header(tmp_path / "release")["language"]


def test_release_command_is_registered(tmp_path):
    from typer.testing import CliRunner

    from werealign.cli import app

    done = CliRunner().invoke(app, ["release", "--out", str(tmp_path / "rel")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "rel" / "data" / "speech" / "test.parquet").is_file()
    assert "speech 20, vote 6, opponent 6, games 2, osr 116" in done.output


def test_a_default_drawn_anew_in_a_nested_models_factory_is_drawn_for_every_row():
    """release.tables computes a fixed default once per field; a model factory counts as fixed only when its own
    defaults all are (review: a plug-in provenance drawing a uuid got one value in every row)."""
    import uuid

    from pydantic import BaseModel, Field

    from werealign.release import tables

    class Stamp(BaseModel):
        run: str = Field(default_factory=lambda: uuid.uuid4().hex)

    class Plain(BaseModel):
        notes: list[str] = Field(default_factory=list)

    class Row(BaseModel):
        stamp: Stamp = Field(default_factory=Stamp)
        plain: Plain = Field(default_factory=Plain)

    assert tables._default(Row, "stamp") != tables._default(Row, "stamp")
    assert tables._default(Row, "plain") == {"notes": []} and tables._fixed_default(Row, "plain") is not None
    first = tables._default(Row, "plain")
    first["notes"].append("x")  # each row gets its own copy
    assert tables._default(Row, "plain") == {"notes": []}
