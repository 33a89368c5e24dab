"""scripts/claim_labels.py and werealign.game.claim_labels (issue 42): the claim reader scored against a labels file
of structured labels (game, turn, seat, role), per set and together, with every disagreement listed; a label that
does not point at its turn is an error naming it. Invented games and labels only."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from test_decision_claim import ZH, _said

from werealign.dataset import write_dataset
from werealign.game.claim_labels import LabelError, load_labels, score_labels

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("claim_labels_script", REPO / "scripts" / "claim_labels.py")
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)


def _game():
    # segment 1: seat 1 claims the seer; 3: seat 6 says nothing of its card; 5: seat 4 counter-claims the seer
    return _said(ZH, {1: "我是预言家，4 号查杀", 3: "我听发言，没什么说的", 5: "我才是预言家，1 号是狼"})


def _labels(game) -> list[dict]:
    turn = {u.segment_ids[0]: u for u in game.utterances}
    return [{"game": game.game_id, "utterance": turn[1].index, "seat": turn[1].speaker, "claim": "seer", "set": "X"},
            {"game": game.game_id, "utterance": turn[3].index, "seat": turn[3].speaker, "claim": "villager", "set": "X"},
            {"game": game.game_id, "utterance": turn[5].index, "seat": turn[5].speaker, "claim": None, "set": "Y"}]


def test_recall_precision_and_every_miss():
    game = _game()
    labels = _labels(game)
    x = score_labels(labels, {game.game_id: game}, ["X"])
    assert (x.turns, x.claims, x.read, x.right) == (2, 2, 1, 1) and x.recall == 0.5 and x.precision == 1.0
    assert [(m["label"], m["read"]) for m in x.misses] == [("villager", None)]
    y = score_labels(labels, {game.game_id: game}, ["Y"])
    assert (y.claims, y.read, y.right, y.precision) == (0, 1, 0, 0.0) and y.misses[0]["read"] == "seer"
    both = score_labels(labels, {game.game_id: game})
    assert (both.turns, both.claims, both.read, both.right) == (3, 2, 2, 1)


def test_a_label_off_its_turn_is_an_error_naming_it():
    game = _game()
    bad = [{**_labels(game)[0], "seat": 8}]
    with pytest.raises(LabelError, match="no turn"):
        score_labels(bad, {game.game_id: game})


def test_the_script_prints_each_set_and_the_union_and_fails_clearly(tmp_path, capsys):
    game = _game()
    write_dataset(tmp_path / "ds", name="invented", version="1", licence="test", games=[game], items={})
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": _labels(game)}), encoding="utf-8")
    assert len(load_labels(path)) == 3
    assert script.main([str(tmp_path / "ds"), str(path), "X", "Y"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("X\tturns=2\tclaims=2\tread=1\tright=1\trecall=50.0%")
    assert out[2].startswith("X+Y\tturns=3") and any("miss Y" in line and "none -> seer" in line for line in out)
    assert script.main([str(tmp_path / "ds"), str(path), "Z"]) == 2  # no such set
    assert "no label of set Z" in capsys.readouterr().err
    path.write_text(json.dumps({"labels": [{"game": game.game_id}]}), encoding="utf-8")
    assert script.main([str(tmp_path / "ds"), str(path)]) == 2
    assert "lacks utterance" in capsys.readouterr().err
