from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from werealign.schema import FILE_MODELS, SpeechItem, canonical_role, faction_of
from werealign.schema.export import json_schemas

from conftest import REPO


def test_generated_schemas_match_the_models():
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (REPO / "data" / "schemas").glob("*.schema.json")}
    assert on_disk == json_schemas(), "data/schemas drifted from the models: run `python -m werealign.schema.export`"
    assert set(on_disk) == {f"{k}.schema.json" for k in FILE_MODELS}


def _speech(**over):
    item = {
        "item_id": "x-1", "game_id": "g", "language": "en", "dimension": "RI", "viewpoint_seat": 3,
        "cutoff_segment": 10, "question": "Who is the seer?",
        "options": [{"key": k, "text": f"option {k}", "origin": "imported"} for k in "ABCDEFGHI"],
        "answer": "B",
    }
    item.update(over)
    return item


def test_speech_item_shape():
    assert SpeechItem.model_validate(_speech()).answer == "B"
    with pytest.raises(ValidationError):
        SpeechItem.model_validate(_speech(options=_speech()["options"][:8]))
    with pytest.raises(ValidationError):
        SpeechItem.model_validate(_speech(answer="J"))
    with pytest.raises(ValidationError):
        SpeechItem.model_validate(_speech(surprise="unknown fields are errors"))


@pytest.mark.parametrize("label,role,faction", [
    ("预言家", "seer", "good"), ("Werewolf", "werewolf", "wolf"),
    ("白狼王", "white_wolf_king", "wolf"), ("盗贼", "thief", "variable"), ("nine-tailed fox", "nine_tailed_fox", "good"),
    ("Nine_Tailed-Fox", "nine_tailed_fox", "good"), ("石像鬼", "gargoyle", "wolf"), ("狼兄", "wolf_brother", "wolf"),
    ("丘比特", "cupid", "variable"), ("吹笛者", "pied_piper", "third"), ("Mafioso", "mafioso", "wolf"), ("cop", "detective", "good"),
    ("townie", "bystander", "good"), ("Jester", "jester", "third"), ("serial killer", "serial_killer", "third"),
])
def test_role_labels(label, role, faction):
    assert canonical_role(label) == role
    assert faction_of(role) == faction


def test_unknown_role_label():
    assert canonical_role("dragon") is None


def test_help_does_not_import_litellm():
    code = "import sys; from werealign.cli import app\ntry:\n    app(['--help'])\nexcept SystemExit: pass\nprint('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("False")
