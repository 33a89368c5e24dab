"""The annotator config: the template is valid, and each kind of bad config gets an error naming line and field."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from cli_inproc import run_cli
from werealign.annotate.build import build_from_files
from werealign.annotate.config import load_config, parse_timestamp
from werealign.errors import UserError

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
EXAMPLE_SRT = REPO / "annotation" / "examples" / "six_seat.srt"


def _write_variant(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """The template with one line replaced; returns the file and the 1-based line number of the change."""
    text = TEMPLATE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    line = text[: text.index(old)].count("\n") + 1
    path = tmp_path / "config.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path, line


def test_template_loads_and_matches_the_json_schema():
    config, _ = load_config(TEMPLATE)
    assert config.players == 6 and config.speakers["Speaker 7"] == "host"
    schema = json.loads((REPO / "data" / "schemas" / "annotator_config.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(json.dumps(yaml.safe_load(TEMPLATE.read_text(encoding="utf-8")))), schema)


def test_parse_timestamp():
    assert parse_timestamp("00:01:02,500") == 62.5
    assert parse_timestamp("1:00:00.001") == 3600.001
    assert parse_timestamp(12) == 12.0
    for bad in ("00:61:00,000", "1:2:3", "00:00:01,72", "soon", -1):
        with pytest.raises(ValueError):
            parse_timestamp(bad)


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        # seat out of range (players: 6)
        ('  "Speaker 1": 6\n', '  "Speaker 1": 7\n', "speakers.Speaker 1", "seat 7 out of range"),
        # overlapping phases: day-1 starts before the sheriff election
        ('{kind: day, day: 1, start: "00:00:44,000"}', '{kind: day, day: 1, start: "00:00:09,000"}', "phases.2.start", "overlapping phases"),
        # unparsable timestamp
        ('{kind: night, day: 2, start: "00:01:32,000"}', '{kind: night, day: 2, start: "00:01:32:000"}', "phases.3.start", "unparsable timestamp '00:01:32:000'"),
        ('game_end: "00:02:02,000"', 'game_end: "two minutes"', "game_end", "unparsable timestamp 'two minutes'"),
        # vote by a dead player: seat 2 was exiled at segment 17
        ("{kind: vote, segment: 24, actor: 3, target: 5}", "{kind: vote, segment: 24, actor: 2, target: 5}", "events.18.actor", "vote by a dead player"),
        # vote for a dead player
        ("{kind: vote, segment: 24, actor: 4, target: 5}", "{kind: vote, segment: 24, actor: 4, target: 1}", "events.19.target", "vote for a dead player"),
        ('  "Speaker 7": host', '  "Speaker 7": hots', "speakers.Speaker 7", "expected a seat number or 'host', got 'hots'"),
        ("    - {phase: day-2, target: 5, cutoff_segment: 23}", "    - {phase: day-9, target: 5, cutoff_segment: 23}", "mvp.votes.1.phase", "unknown phase"),
        ("  - {seat: 3, segment: 8}", "  - {seat: 3}", "sheriff.0", "exactly one of segment or time"),
    ],
)
def test_bad_config_names_line_and_field(tmp_path, old, new, field, words):
    path, line = _write_variant(tmp_path, old, new)
    with pytest.raises(UserError) as e:
        load_config(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:{line}: "), msg
    if field:
        assert f": {field}: " in msg, msg
    if words:
        assert words in msg, msg


def test_unparsable_timestamp_mentions_the_value(tmp_path):
    path, line = _write_variant(tmp_path, 'game_end: "00:02:02,000"', "game_end: 99:99:99,000")
    with pytest.raises(UserError, match=rf":{line}: game_end: unparsable timestamp '99:99:99,000'"):
        load_config(path)


def test_missing_field_and_unknown_field(tmp_path):
    path, _ = _write_variant(tmp_path, "players: 6\n", "")
    with pytest.raises(UserError, match=r"config.yaml:\d+: players: Field required"):
        load_config(path)
    path, line = _write_variant(tmp_path, "players: 6\n", "players: 6\nplayerz: 6\n")
    with pytest.raises(UserError, match=rf"config.yaml:{line + 1}: playerz: Extra inputs are not permitted"):
        load_config(path)


def test_seat_without_role(tmp_path):
    path, _ = _write_variant(tmp_path, "  6: villager\n", "")
    with pytest.raises(UserError, match=r"roles: no true role for seat\(s\) \[6\]"):
        load_config(path)


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("game_id: x\nplayers: [1, 2\nlanguage: en\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"broken.yaml:\d+: invalid YAML"):
        load_config(path)


def test_cli_unknown_speaker_label_is_one_clean_line(tmp_path):
    path, line = _write_variant(tmp_path, '  "Speaker 5": 5\n', "")
    out = tmp_path / "game.json"
    r = run_cli("annotate", "build", "--srt", str(EXAMPLE_SRT), "--config", str(path), "--out", str(out))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "cue 13: unknown speaker label 'Speaker 5'" in r.stderr and f"{path}:" in r.stderr and ": speakers" in r.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "old, new, field, first",
    [
        # a second entry for one speaker label: the loader kept the last one silently
        ('  "Speaker 2": 3\n', '  "Speaker 2": 3\n  "Speaker 2": 4\n', "speakers.Speaker 2", "'Speaker 2'"),
        # a seat's role given twice, once as a number and once as a string: one key
        ("  3: seer\n", "  3: seer\n  '3': werewolf\n", "roles.3", "'3'"),
        # nested mappings are checked too
        ("  has_sheriff: true\n", "  has_sheriff: true\n  has_sheriff: false\n", "rules.has_sheriff", "'has_sheriff'"),
    ],
)
def test_duplicate_yaml_key_names_both_lines(tmp_path, old, new, field, first):
    path, line = _write_variant(tmp_path, old, new)
    with pytest.raises(UserError) as e:
        load_config(path)
    assert str(e.value) == f"{path}:{line + 1}: {field}: duplicate key {first} (first at line {line})"


def test_duplicate_key_in_a_lexicon(tmp_path):
    from werealign.annotate.wer import load_lexicon

    path = tmp_path / "lex.yaml"
    path.write_text("sear: seer\nto: two\nsear: sea\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"lex.yaml:3: sear: duplicate key 'sear' \(first at line 1\)"):
        load_lexicon(path)


@pytest.mark.parametrize(
    "old, new, field, words",
    [
        # night-2 starts with day-2: night-2 would hold no segment
        ('{kind: night, day: 2, start: "00:01:32,000"}', '{kind: night, day: 2, start: "00:01:36,000"}', "phases.4.start",
         "overlapping phases: day-2 starts at 00:01:36,000, at the same time as the previous phase (00:01:36,000); "
         "time stamps that share a second cannot tell the order: give each phase its start_segment"),
        # the game ends when the last phase starts
        ('game_end: "00:02:02,000"', 'game_end: "00:01:36,000"', "game_end",
         "game ends at 00:01:36,000, the same time as the last phase starts (00:01:36,000)"),
    ],
)
def test_empty_phase_is_an_error(tmp_path, old, new, field, words):
    path, line = _write_variant(tmp_path, old, new)
    if field == "phases.4.start":
        line += 1  # the error names day-2, the line after the change
    with pytest.raises(UserError) as e:
        load_config(path)
    assert str(e.value) == f"{path}:{line}: {field}: {words}"


@pytest.mark.parametrize(
    "old, new, field, got",
    [
        ('  "Speaker 1": 6\n', '  "Speaker 1": "6"\n', "speakers.Speaker 1", "got '6'"),
        ('  "Speaker 1": 6\n', '  "Speaker 1": yes\n', "speakers.Speaker 1", "got True"),
        ("{kind: vote, segment: 24, actor: 3, target: 5}", "{kind: vote, segment: 24, actor: 3, target: 5.0}", "events.18.target", "got 5.0"),
        ("{kind: vote, segment: 24, actor: 3, target: 5}", "{kind: vote, segment: 24, actor: yes, target: 5}", "events.18.actor", "got True"),
        ("  - {seat: 3, segment: 8}", '  - {seat: "3", segment: 8}', "sheriff.0.seat", "got '3'"),
        ("  seat: 3\n", "  seat: 3.0\n", "mvp.seat", "got 3.0"),
        ("{phase: day-2, target: 5, cutoff_segment: 23}", "{phase: day-2, target: yes, cutoff_segment: 23}", "mvp.votes.1.target", "got True"),
        ("  1: villager\n", "  yes: villager\n", "roles", "expected a seat number, got True"),
        ("  1: villager\n", "  1.0: villager\n", "roles", "expected a seat number, got 1.0"),
    ],
)
def test_seats_are_strict_integers(tmp_path, old, new, field, got):
    # Lax validation turned each of these into a seat (yes -> 1) although the JSON Schema rejects them.
    path, line = _write_variant(tmp_path, old, new)
    with pytest.raises(UserError) as e:
        load_config(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}:") and f": {field}" in msg and got in msg, msg
    schema = json.loads((REPO / "data" / "schemas" / "annotator_config.schema.json").read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # The JSON Schema refuses the same values, except where it cannot see them: key types (JSON keys
    # are strings) and 5.0 (a JSON Schema integer admits a zero fraction; we do not).
    if field != "roles" and not got.endswith(".0"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(json.loads(json.dumps(data)), schema)


def test_seat_keys_as_json_strings_still_work(tmp_path):
    # A config given as JSON can only write seats as object keys in strings: "1": "villager".
    from werealign.annotate.config import validate_config, ConfigSource

    data = json.loads(json.dumps(yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))))
    assert "1" in data["roles"]
    config = validate_config(data, ConfigSource(tmp_path / "c.json"))
    assert config.roles[1] == "villager" and config.names[1] == "Ava"


def test_negative_timestamp_says_what_a_timestamp_is(tmp_path):
    path, line = _write_variant(tmp_path, '{kind: night, day: 2, start: "00:01:32,000"}', "{kind: night, day: 2, start: -3}")
    with pytest.raises(UserError) as e:
        load_config(path)
    assert str(e.value) == f"{path}:{line}: phases.3.start: unparsable timestamp -3 (expected HH:MM:SS,mmm or non-negative seconds)"


def test_dead_voter_message_names_the_votes_own_segment(tmp_path):
    # Segment 99 is a typo for 19; without the transcript the replay can only say seat 1 was dead by then,
    # so the message names both segments.
    path, line = _write_variant(tmp_path, "{kind: vote, segment: 24, actor: 3, target: 5}", "{kind: vote, segment: 99, actor: 1, target: 5}")
    with pytest.raises(UserError) as e:
        load_config(path)
    assert str(e.value) == (f"{path}:{line}: events.18.actor: vote by a dead player: seat 1 votes at segment 99 "
                            "but was eliminated at segment 20 (events[17])")
    # annotate build knows the transcript's segments before replaying the events: it names the typo.
    with pytest.raises(UserError) as e:
        build_from_files(EXAMPLE_SRT, path)
    assert str(e.value) == f"{path}:{line}: events.18.segment: segment 99 is not in {EXAMPLE_SRT}"
