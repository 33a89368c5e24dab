"""Cohen's kappa between two annotators, checked against numbers worked out by hand."""

from __future__ import annotations

import json

import pytest

from cli_inproc import run_cli
from werealign.annotate.agreement import ABSENT, event_agreement, kappa, speaker_agreement
from werealign.annotate.build import build_from_files
from werealign.files import write_json

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
EXAMPLE_SRT = REPO / "annotation" / "examples" / "six_seat.srt"


@pytest.fixture(scope="module")
def base():
    return build_from_files(EXAMPLE_SRT, TEMPLATE).game


def _with_speakers(game, speakers: list):
    """The game with one single-segment turn per entry: segment i+1 spoken by speakers[i]."""
    turns = [
        {"index": i, "segment_ids": [i + 1], "start": float(i), "end": i + 0.5, "phase": "day-1", "speaker": s, "text": f"t{i}"}
        for i, s in enumerate(speakers)
    ]
    return game.model_copy(update={"utterances": [game.utterances[0].model_validate(t) for t in turns]})


def test_speaker_kappa_by_hand(base):
    # Ten segments. A: 1 1 1 2 2 2 h h 1 2 ; B: 1 1 2 2 2 2 h 1 1 2
    # observed agreement p_o = 8/10 = 0.8 (segments 3 and 8 differ)
    # A's labels: seat 1 x4, seat 2 x4, host x2; B's: seat 1 x4, seat 2 x5, host x1
    # chance agreement p_e = (4*4 + 4*5 + 2*1) / 100 = 0.38
    # kappa = (0.8 - 0.38) / (1 - 0.38) = 0.42 / 0.62 = 0.677419...
    a = _with_speakers(base, [1, 1, 1, 2, 2, 2, "host", "host", 1, 2])
    b = _with_speakers(base, [1, 1, 2, 2, 2, 2, "host", 1, 1, 2])
    m = speaker_agreement(a, b)
    assert m["n"] == 10 and m["disagreements"] == 2
    assert m["observed"] == pytest.approx(0.8)
    assert m["kappa"] == pytest.approx(0.42 / 0.62)


def test_segment_missing_on_one_side_is_a_disagreement(base):
    a = _with_speakers(base, [1, 2, 1])
    b = _with_speakers(base, [1, 2])
    m = speaker_agreement(a, b)
    assert m["n"] == 3 and m["disagreements"] == 1 and f"B '{ABSENT}'" in m["examples"][0]


def _events(game, events: list[dict]):
    return game.model_copy(update={"events": [game.events[0].model_validate({"public": True, "segment_id": 17, **e}) for e in events]})


def test_event_kappa_by_hand(base):
    # Event keys and labels (ABSENT when the annotator has no event under the key):
    #   vote(day-1, seat 1):        A 2       B 2        agree
    #   vote(day-1, seat 3):        A 2       B 4
    #   vote(day-1, seat 4):        A 2       B absent
    #   elimination(day-1, seat 2): A exiled  B exiled   agree
    #   night_outcome(day-2, 1):    A absent  B killed
    # p_o = 2/5 = 0.4; A: '2' x3, exiled x1, absent x1; B: '2','4',absent,exiled,killed x1 each
    # p_e = (3*1 + 1*1 + 1*1) / 25 = 0.2; kappa = (0.4 - 0.2) / (1 - 0.2) = 0.25
    a = _events(base, [
        {"kind": "vote", "phase": "day-1", "actor": 1, "target": 2},
        {"kind": "vote", "phase": "day-1", "actor": 3, "target": 2},
        {"kind": "vote", "phase": "day-1", "actor": 4, "target": 2},
        {"kind": "elimination", "phase": "day-1", "target": 2, "result": "exiled"},
    ])
    b = _events(base, [
        {"kind": "vote", "phase": "day-1", "actor": 1, "target": 2},
        {"kind": "vote", "phase": "day-1", "actor": 3, "target": 4},
        {"kind": "elimination", "phase": "day-1", "target": 2, "result": "exiled"},
        {"kind": "night_outcome", "phase": "day-2", "segment_id": 20, "target": 1, "result": "killed"},
    ])
    m = event_agreement(a, b)
    assert (m["n"], m["disagreements"]) == (5, 3)
    assert m["observed"] == pytest.approx(0.4)
    assert m["kappa"] == pytest.approx(0.25)


def test_kappa_edge_cases():
    assert kappa(["x", "x"], ["x", "x"]) is None  # undefined: one label only
    assert kappa(["a", "b"], ["a", "b"]) == pytest.approx(1.0)
    assert kappa(["a", "b"], ["b", "a"]) == pytest.approx(-1.0)


def test_tie_revote_is_compared_ballot_by_ballot(base):
    # A tie revote: seat 1 votes twice in day-1. Units are (key, ordinal): seat 1's 1st and 2nd ballot.
    first, revote = {"kind": "vote", "phase": "day-1", "actor": 1, "target": 2}, {"kind": "vote", "phase": "day-1", "actor": 1, "target": 3}
    other = {"kind": "vote", "phase": "day-1", "actor": 4, "target": 2}
    a = _events(base, [first, other, revote])
    # Both annotators logged the revote, B with another target: 3 units, the 2nd ballot differs.
    b = _events(base, [first, other, dict(revote, target=4)])
    m = event_agreement(a, b)
    assert (m["n"], m["disagreements"]) == (3, 1)
    assert m["examples"] == ["('vote', 'day-1', '1', 2): A '3', B '4'"]
    assert event_agreement(a, a)["disagreements"] == 0
    # Only A logged the revote: B's missing 2nd ballot is a disagreement, the 1st ballots still agree.
    b = _events(base, [first, other])
    m = event_agreement(a, b)
    assert (m["n"], m["disagreements"]) == (3, 1)
    assert m["examples"] == [f"('vote', 'day-1', '1', 2): A '3', B '{ABSENT}'"]


def test_cli_agreement_on_configs_with_a_revote(tmp_path):
    # Through annotate build: a revote in a config used to build, then stop `annotate agreement`.
    text = TEMPLATE.read_text(encoding="utf-8")
    line = "  - {kind: vote, segment: 17, actor: 1, target: 2}\n"
    assert text.count(line) == 1
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(text.replace(line, line + "  - {kind: vote, segment: 17, actor: 1, target: 5}\n"), encoding="utf-8")
    b.write_text(text.replace(line, line + "  - {kind: vote, segment: 17, actor: 1, target: 3}\n"), encoding="utf-8")
    r = run_cli("annotate", "agreement", str(a), str(b), "--srt", str(EXAMPLE_SRT), "--format", "json")
    assert r.returncode == 0, r.stderr
    events = json.loads(r.stdout)["game_state_events"]
    assert events["disagreements"] == 1 and events["examples"] == ["('vote', 'day-1', '1', 2): A '5', B '3'"]


def test_cli_on_game_logs_and_on_configs(base, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    write_json(a, _with_speakers(base, [1, 1, 1, 2, 2, 2, "host", "host", 1, 2]))
    write_json(b, _with_speakers(base, [1, 1, 2, 2, 2, 2, "host", 1, 1, 2]))
    r = run_cli("annotate", "agreement", str(a), str(b), "--format", "json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["speaker_attribution"]["kappa"] == pytest.approx(0.42 / 0.62)
    assert got["game_state_events"]["kappa"] == pytest.approx(1.0)

    # Two configs of the same transcript: annotator B maps label "Speaker 1" to seat 1 instead of 6 (cue 14 only).
    other = tmp_path / "b.yaml"
    other.write_text(TEMPLATE.read_text(encoding="utf-8").replace('"Speaker 1": 6', '"Speaker 1": 1'), encoding="utf-8")
    r = run_cli("annotate", "agreement", str(TEMPLATE), str(other), "--srt", str(EXAMPLE_SRT))
    assert r.returncode == 0, r.stderr
    assert "speaker_attribution: kappa" in r.stdout and "over 23 segments; 1 disagreement(s)" in r.stdout
    assert "14: A 'seat 6', B 'seat 1'" in r.stdout
    # A config without --srt is a clean error.
    r = run_cli("annotate", "agreement", str(TEMPLATE), str(other))
    assert r.returncode == 1 and r.stderr.startswith("error: ") and "--srt" in r.stderr
