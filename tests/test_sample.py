"""The bundled sample dataset: rebuilt byte for byte from its sources in annotation/sample/, complete, consistent, clean."""

from __future__ import annotations

import importlib.util
import shutil
from collections import Counter
from pathlib import Path

import pytest

from werealign.dataset import bundled_sample_path, load_dataset
from werealign.errors import UserError
from werealign.schema import DIMENSIONS

from cli_inproc import run_cli
from conftest import REPO

BUILDER = REPO / "scripts" / "build_sample.py"


@pytest.fixture(scope="module")
def builder():
    spec = importlib.util.spec_from_file_location("build_sample", BUILDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample():
    return load_dataset()


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_builder_reproduces_the_bundled_sample_byte_for_byte(builder, tmp_path):
    out = tmp_path / "sample"
    builder.build(out)
    built, bundled = _files(out), _files(bundled_sample_path())
    assert sorted(built) == sorted(bundled)
    stale = [name for name in built if built[name] != bundled[name]]
    assert stale == [], f"werealign/sample is stale: run `python scripts/build_sample.py` ({stale})"


def test_the_default_dataset_is_the_sample(sample):
    assert sample.root == bundled_sample_path()
    assert (sample.manifest.name, sample.manifest.version, sample.manifest.licence) == (
        "werealign-sample", "1.0.0", "Apache-2.0")
    assert sample.manifest.languages == ["en"]
    c = sample.manifest.counts
    assert (c.games, c.speech, c.vote, c.opponent, c.osr_games) == (
        len(sample.games), len(sample.speech), len(sample.vote), len(sample.opponent), len(sample.osr))


def test_games_are_complete_twelve_seat_games(sample):
    assert len(sample.games) >= 2
    variants = set()
    for game in sample.games.values():
        assert game.language == "en"
        assert sorted(s.seat for s in game.seats) == list(range(1, 13))
        variants.add(game.rules.variant)
        kinds = {p.kind for p in game.phases}
        assert kinds == {"night", "sheriff_election", "day"}
        assert {e.kind for e in game.events} >= {"vote", "elimination", "night_outcome", "skill_use", "sheriff_election"}
        assert any(e.kind == "skill_use" and not e.public for e in game.events)
        assert any(u.speaker == "host" for u in game.utterances)
        assert 40 <= len(game.utterances) <= 120
        assert game.mvp is not None and len(game.mvp.votes) >= 2
        mvp_faction = next(s.faction for s in game.seats if s.seat == game.mvp.seat)
        assert game.winner == mvp_faction
        assert len(game.highlights) >= 3 and game.recap and game.annotator_log
    assert len(variants) == len(sample.games), "each sample game plays a different variant"
    all_kinds = {e.kind for g in sample.games.values() for e in g.events}
    assert {"self_destruct", "badge_transfer"} <= all_kinds


def test_utterances_carry_exact_segments(sample):
    for game in sample.games.values():
        expected_id, last_end = 0, 0.0
        for i, u in enumerate(game.utterances):
            assert u.index == i and u.segments
            assert [s.id for s in u.segments] == u.segment_ids == list(range(expected_id, expected_id + len(u.segments)))
            expected_id += len(u.segments)
            assert u.text == " ".join(s.text for s in u.segments)
            for s in u.segments:
                assert last_end <= s.start < s.end
                last_end = s.end
            assert (u.start, u.end) == (u.segments[0].start, u.segments[-1].end)
            phase = next(p for p in game.phases if p.id == u.phase)
            assert phase.start <= u.start and u.end <= phase.end


def test_items_cover_every_dimension_per_game(sample):
    for game_id in sample.games:
        dims = Counter(i.dimension for i in sample.speech if i.game_id == game_id)
        assert all(dims[d] >= 2 for d in DIMENSIONS), dims
        assert any(v.game_id == game_id for v in sample.vote)
        assert any(o.game_id == game_id for o in sample.opponent)


def test_speech_items_are_well_formed(sample):
    for item in sample.speech:
        origins = Counter(o.origin for o in item.options)
        assert origins["ground_truth"] == 1
        assert next(o for o in item.options if o.key == item.answer).origin == "ground_truth"
        assert set(origins) == {"ground_truth", "m1_role_perturbation", "m1_information_occlusion",
                                "m1_faction_inversion", "m2_biased_rationale"}
        assert item.rule_reminder and item.explanation
        assert len({o.text for o in item.options}) == 9
        assert item.provenance.generator_model == "human"
        assert item.provenance.review == "accepted" and item.provenance.prompt_version == "sample-1"
        game = sample.games[item.game_id]
        assert item.viewpoint_seat == game.mvp.seat
        assert item.cutoff_segment <= game.utterances[-1].segment_ids[-1]


def test_trivial_baselines_do_not_ace_the_sample(sample):
    def accuracy(pick) -> float:
        return sum(pick(i.options).key == i.answer for i in sample.speech) / len(sample.speech)

    assert accuracy(lambda opts: max(opts, key=lambda o: len(o.text))) <= 0.25
    assert accuracy(lambda opts: min(opts, key=lambda o: len(o.text))) <= 0.25
    letters = Counter(i.answer for i in sample.speech)
    assert len(letters) >= 6 and max(letters.values()) <= len(sample.speech) // 3


def test_vote_and_opponent_items_follow_the_game(sample):
    for item in sample.vote:
        game = sample.games[item.game_id]
        ballot = [e for e in game.events if e.kind == "vote" and e.phase == item.phase and e.actor == item.viewpoint_seat]
        assert [e.target for e in ballot] == [item.answer]
        dead = {e.target for e in game.events if e.kind == "elimination" and e.segment_id <= item.cutoff_segment}
        assert item.candidates == sorted(set(range(1, 13)) - dead - {item.viewpoint_seat})
    for item in sample.opponent:
        game = sample.games[item.game_id]
        own = next(s.faction for s in game.seats if s.seat == item.viewpoint_seat)
        assert item.answer == sorted(s.seat for s in game.seats if s.faction != own)
        assert item.viewpoint_seat not in item.candidates and set(item.answer) <= set(item.candidates)


def test_every_utterance_has_an_objective_rewrite(sample):
    assert set(sample.osr) == set(sample.games)
    for game_id, rewrites in sample.osr.items():
        game = sample.games[game_id]
        assert [(r.utterance_index, r.segment_ids) for r in rewrites] == [(u.index, u.segment_ids) for u in game.utterances]
        for r, u in zip(rewrites, game.utterances):
            assert r.text.strip()
            # A rewrite of a player's turn is a neutral third-person report, not a copy of the speech.
            if u.speaker != "host":
                assert r.text != u.text and r.text.startswith(f"Seat {u.speaker} ")


def _sources_copy(tmp_path: Path) -> Path:
    src = tmp_path / "sources"
    shutil.copytree(REPO / "annotation" / "sample", src)
    return src


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_build_refuses_an_inconsistent_game_and_writes_nothing(builder, tmp_path):
    """The consistency replay of the old builder is now the validator's: the build stops on any finding."""
    src = _sources_copy(tmp_path)
    # Night 2 of game 1: the seer checks seat 1 (a villager); claim a wolf result.
    _edit(src / "sample-en-01" / "config.yaml", "seer_check, target: 1, result: good", "seer_check, target: 1, result: wolf")
    out = tmp_path / "out"
    with pytest.raises(UserError, match=r"events\[\d+\]\.result: warning: .*seat 1.*\[seer-result-contradicts-role\]"):
        builder.build(out, src)
    assert not out.exists()


def test_a_rewrite_must_name_the_cues_of_one_turn(builder, tmp_path):
    src = _sources_copy(tmp_path)
    _edit(src / "sample-en-02" / "osr.yaml", "segment_ids: [3, 4]", "segment_ids: [3]")
    with pytest.raises(UserError, match=r"osr\.yaml: rewrites\[2\]: segment_ids \[3\] are not the cues of one turn of sample-en-02"):
        builder.build(tmp_path / "out", src)


def test_a_speech_item_error_names_the_file_and_the_item(builder, tmp_path):
    src = _sources_copy(tmp_path)
    _edit(src / "sample-en-01" / "speech_items.yaml", "item_id: sample-en-01-RI-1\n    dimension: RI", "item_id: sample-en-01-RI-1\n    dimension: XX")
    with pytest.raises(UserError, match=r"speech_items\.yaml: items\[0\].*dimension"):
        builder.build(tmp_path / "out", src)


def test_the_sources_are_clean_annotator_files():
    """What annotators read as an example: every game folder holds the four files, no stray ones."""
    root = REPO / "annotation" / "sample"
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    assert [p.name for p in folders] == sorted(load_dataset().games)
    for folder in folders:
        assert sorted(p.name for p in folder.iterdir()) == ["config.yaml", "osr.yaml", "speech_items.yaml", "transcript.srt"]
        assert (folder / "config.yaml").read_text(encoding="utf-8").startswith("# Annotator config")


def test_werealign_validate_reports_no_errors(tmp_path):
    try:
        from werealign.validate import check_paths  # noqa: F401
    except ImportError:
        pytest.skip("werealign validate is not available yet")
    done = run_cli("validate", bundled_sample_path())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors" in done.stdout
