"""The validator: each check fires on a minimal bad example and stays silent on the good one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import validate_fixtures as fx
from cli_inproc import run_cli
from validate_fixtures import DELETE, mutate
from werealign.files import write_jsonl
from werealign.validate import check_paths, collapse, validate_game, validate_paths
from werealign.validate.findings import Finding


def codes(findings: list[Finding]) -> set[tuple[str, str, str]]:
    return {(f.code, f.field, f.severity) for f in findings}


def assert_fires(findings: list[Finding], code: str, field: str, severity: str) -> None:
    assert (code, field, severity) in codes(findings), "\n".join(f.to_text() for f in findings)


# --------------------------------------------------------------------------- good examples


def test_good_game_is_clean():
    assert validate_game(fx.game(), "g1.json") == []


def test_good_game_model_is_clean():
    from werealign.schema import GameLog

    assert validate_game(GameLog.model_validate(fx.game()), "g1.json") == []


def test_good_dataset_is_clean(tmp_path):
    report = check_paths([fx.write(tmp_path / "ds")])
    assert report.findings == []
    assert len(report.files) == 6 and report.ok


# --------------------------------------------------------------------------- game checks

GAME_CASES = [
    # (dotted path, new value, code, field, severity)
    ("seats[1].seat", 1, "seat-duplicate", "seats[1].seat", "error"),
    ("seats[5].seat", 7, "seat-gap", "seats", "error"),
    # Open world: an undeclared role keeps the game usable (a warning); a catalogue name in place of its id is an error.
    ("seats[2].role", "dragon", "unknown-role", "seats[2].role", "warning"),
    ("seats[2].role", "Villager", "unknown-role", "seats[2].role", "error"),
    ("seats[0].faction", "wolf", "faction-mismatch", "seats[0].faction", "error"),
    ("rules.composition[3].faction", "good", "faction-mismatch", "rules.composition[3].faction", "error"),
    ("seats[1].speaker_labels", ["Speaker 1"], "speaker-label-ambiguous", "seats[0].speaker_labels[0]", "error"),
    ("host_labels", ["Host", "Speaker 3"], "speaker-label-ambiguous", "seats[2].speaker_labels[0]", "error"),
    ("rules.composition[3].count", 3, "composition-mismatch", "rules.composition", "error"),
    ("rules.variant", "seer-witch-hunter", "variant-mismatch", "rules.variant", "warning"),
    ("rules.variant", "seer", "variant-mismatch", "rules.variant", "warning"),
    ("phases[4].id", "day-1", "phase-duplicate-id", "phases[4].id", "error"),
    ("phases[2].end", 100, "phase-end-before-start", "phases[2].end", "error"),
    ("phases[3].start", 100, "phase-order", "phases[3].start", "error"),
    ("phases[1].start", 30, "phase-overlap", "phases[1].start", "warning"),
    ("phases[4].day", 1, "phase-day-order", "phases[4].day", "warning"),
    ("rules.has_sheriff", False, "sheriff-phase-without-sheriff", "phases[1].kind", "warning"),
    ("utterances[2].index", 7, "utterance-index", "utterances[2].index", "error"),
    ("utterances[1].end", 60, "utterance-end-before-start", "utterances[1].end", "error"),
    ("utterances[3].start", 120, "utterance-order", "utterances[3].start", "warning"),
    ("utterances[1].phase", "day-9", "utterance-unknown-phase", "utterances[1].phase", "error"),
    ("utterances[5].end", 700, "utterance-outside-phase", "utterances[5].start", "warning"),
    ("utterances[1].speaker", 9, "speaker-not-seat", "utterances[1].speaker", "error"),
    ("utterances[3].segment_ids", [6], "segment-duplicate", "utterances[3].segment_ids[0]", "error"),
    ("utterances[2].segment_ids", [4, 6, 5], "segment-order", "utterances[2].segment_ids[2]", "error"),
    ("utterances[1].segments[1].id", 4, "segments-mismatch", "utterances[1].segments", "error"),
    ("events[1].phase", "day-7", "event-unknown-phase", "events[1].phase", "error"),
    ("events[1].phase", "night-1", "vote-outside-day", "events[1].phase", "error"),
    ("events[1].actor", 8, "event-actor-not-seat", "events[1].actor", "error"),
    ("events[1].target", 8, "event-target-not-seat", "events[1].target", "error"),
    ("events[1].segment_id", 99, "event-unknown-segment", "events[1].segment_id", "warning"),
    ("events[0].skill", None, "skill-missing", "events[0].skill", "warning"),
    ("mvp.seat", 9, "mvp-not-seat", "mvp.seat", "error"),
    ("mvp.seat", 5, "mvp-not-on-winning-side", "mvp.seat", "warning"),
    ("mvp.votes[0].phase", "day-5", "mvp-vote-unknown-phase", "mvp.votes[0].phase", "error"),
    ("mvp.votes[0].phase", "night-2", "vote-outside-day", "mvp.votes[0].phase", "error"),
    ("mvp.votes[0].target", 12, "vote-target-not-seat", "mvp.votes[0].target", "error"),
    ("mvp.votes[0].target", 1, "mvp-votes-self", "mvp.votes[0].target", "warning"),
    ("mvp.votes[0].cutoff_segment", 99, "cutoff-outside-game", "mvp.votes[0].cutoff_segment", "error"),
    ("mvp.votes[0].cutoff_segment", 3, "cutoff-outside-phase", "mvp.votes[0].cutoff_segment", "error"),
    ("mvp.votes[0].cutoff_segment", 5, "cutoff-inside-turn", "mvp.votes[0].cutoff_segment", "warning"),
    ("highlights[0].segment_id", 50, "highlight-unknown-segment", "highlights[0].segment_id", "warning"),
    ("winner", "third", "winner-inconsistent", "winner", "warning"),
    # shape errors come from the JSON Schema, with the JSON path as the field
    ("seats[0].seat", "one", "schema", "seats[0].seat", "error"),
    ("language", DELETE, "schema", "language", "error"),
    ("utterances[0].speaker", "narrator", "schema", "utterances[0].speaker", "error"),
    ("phases[0].surprise", 1, "schema", "phases[0]", "error"),
    ("seats", [], "schema", "seats", "error"),
]


@pytest.mark.parametrize("where,value,code,field,severity", GAME_CASES, ids=[f"{c[2]}:{c[0]}" for c in GAME_CASES])
def test_game_check_fires(where, value, code, field, severity):
    findings = validate_game(mutate(fx.game(), where, value), "g1.json")
    assert_fires(findings, code, field, severity)
    assert all(f.file == "g1.json" and f.game_id == "g1" for f in findings)


def test_cutoff_on_a_missing_segment_inside_the_game_is_a_warning():
    g = mutate(fx.game(), "utterances[5].segment_ids", [10])
    g = mutate(g, "mvp.votes[1].cutoff_segment", 9)
    findings = validate_game(g, "g1.json")
    assert_fires(findings, "cutoff-unknown-segment", "mvp.votes[1].cutoff_segment", "warning")
    assert not [f for f in findings if f.severity == "error"]


def test_wolf_win_with_every_wolf_eliminated():
    g = fx.game()
    g["events"].append({"kind": "elimination", "phase": "day-2", "segment_id": 11, "public": True, "target": 6})
    assert validate_game(g, "g1.json") == []
    g["winner"] = "wolf"
    findings = validate_game(mutate(g, "mvp.seat", 5), "g1.json")
    assert_fires(findings, "end-contradicts-winner", "winner", "warning")
    assert not [f for f in findings if f.code == "winner-inconsistent"], "one finding for one fact"


def test_thief_composition_mismatch_is_only_a_warning():
    g = fx.game()
    g["rules"]["composition"].append({"role": "thief", "faction": "variable", "count": 1})
    g["rules"]["variant"] = "seer-witch-thief"
    findings = validate_game(g, "g1.json")
    assert codes(findings) == {("composition-mismatch", "rules.composition", "warning")}


def test_schema_errors_are_all_reported_and_skip_semantics():
    g = mutate(mutate(fx.game(), "seats[0].seat", "one"), "phases[1].day", 0)
    g = mutate(g, "mvp.votes[0].cutoff_segment", 999)  # semantic problem: not reported while the shape is wrong
    findings = validate_game(g, "g1.json")
    assert codes(findings) == {("schema", "seats[0].seat", "error"), ("schema", "phases[1].day", "error")}


def test_wrong_root_type_is_one_finding():
    findings = validate_game([1, 2], "g1.json")
    assert len(findings) == 1 and findings[0].code == "schema" and "expected an object" in findings[0].message


# --------------------------------------------------------------------------- item checks


def items_dir(tmp_path: Path, kind: str, rows: list[dict]) -> Path:
    """A dataset directory whose `kind` items are replaced by rows; returns the items file."""
    root = fx.write(tmp_path / "ds")
    p = root / "items" / f"{kind}.jsonl"
    write_jsonl(p, rows)
    return p


ITEM_CASES = [
    # (kind, dotted path, value, code, field, severity)
    ("speech", "options[1].key", "A", "option-keys", "options", "error"),
    ("speech", "options[0].origin", "ground_truth", "multiple-correct", "options", "error"),
    ("speech", "answer", "D", "answer-not-ground-truth", "answer", "error"),
    ("speech", "options[2].origin", "m2_biased_rationale", "answer-is-distractor", "answer", "error"),
    ("speech", "options[4].text", "Seat 4 because of reason D", "duplicate-option", "options[4].text", "warning"),
    ("speech", "options[4].text", "seat 3  because of reason C.", "duplicate-option", "options[4].text", "error"),
    ("speech", "options[4].text", "Seat 3 because of reason C .", "duplicate-option", "options[4].text", "error"),
    ("speech", "options[4].text", "\u200bＳeat 3 because of reason C", "duplicate-option", "options[4].text", "error"),
    ("speech", "options[5].text", "   ", "empty-option", "options[5].text", "error"),
    ("speech", "question", " ", "empty-question", "question", "error"),
    ("speech", "options", [{"key": "A", "text": "x", "origin": "imported"}] * 8, "schema", "options", "error"),
    ("speech", "game_id", "nope", "unknown-game", "game_id", "error"),
    ("speech", "language", "zh", "language-mismatch", "language", "warning"),
    ("speech", "viewpoint_seat", 7, "viewpoint-not-seat", "viewpoint_seat", "error"),
    ("speech", "cutoff_segment", 40, "cutoff-outside-game", "cutoff_segment", "error"),
    ("speech", "cutoff_segment", 5, "cutoff-inside-turn", "cutoff_segment", "warning"),
    ("vote", "answer", 1, "answer-not-candidate", "answer", "error"),
    ("vote", "candidates", [1, 2, 5], "viewpoint-in-candidates", "candidates", "warning"),
    ("vote", "candidates", [2, 5, 5], "duplicate-seat", "candidates[2]", "error"),
    ("vote", "candidates", [2, 5, 9], "not-a-seat", "candidates", "error"),
    ("vote", "answer", 9, "not-a-seat", "answer", "error"),
    ("vote", "phase", "day-4", "unknown-phase", "phase", "error"),
    ("vote", "phase", "night-2", "vote-outside-day", "phase", "error"),
    ("vote", "cutoff_segment", 10, "cutoff-outside-phase", "cutoff_segment", "error"),
    ("opponent", "answer", [5, 7], "answer-not-candidate", "answer", "error"),
    ("opponent", "answer", [6, 5], "answer-not-sorted", "answer", "warning"),
    ("opponent", "answer", [1, 5, 6], "viewpoint-in-answer", "answer", "error"),
    ("opponent", "answer", [5, 5, 6], "duplicate-seat", "answer[1]", "error"),
    ("opponent", "answer", [2, 5, 6], "answer-faction-mismatch", "answer", "warning"),
    ("opponent", "answer", [5], "answer-faction-mismatch", "answer", "warning"),
]


@pytest.mark.parametrize("kind,where,value,code,field,severity", ITEM_CASES, ids=[f"{c[0]}:{c[3]}:{c[1]}" for c in ITEM_CASES])
def test_item_check_fires(tmp_path, kind, where, value, code, field, severity):
    good = getattr(fx, kind)()
    p = items_dir(tmp_path, kind, [mutate(good, where, value)])
    findings = validate_paths([p])
    assert_fires(findings, code, field, severity)
    hit = next(f for f in findings if f.code == code)
    assert hit.line == 1 and hit.item_id == good["item_id"] and hit.file == str(p)


@pytest.mark.parametrize("kind", ["speech", "vote", "opponent"])
def test_good_items_alone_are_clean(tmp_path, kind):
    p = items_dir(tmp_path, kind, [getattr(fx, kind)()])
    assert validate_paths([p]) == []


def test_observer_speech_item_is_valid_but_vote_and_opponent_need_a_seat(tmp_path):
    """viewpoint_seat null = observer viewpoint (public information only): fine for speech items only."""
    p = items_dir(tmp_path, "speech", [mutate(fx.speech(), "viewpoint_seat", None)])
    assert validate_paths([p]) == []
    for kind in ("vote", "opponent"):
        p = items_dir(tmp_path / kind, kind, [mutate(getattr(fx, kind)(), "viewpoint_seat", None)])
        assert_fires(validate_paths([p]), "schema", "viewpoint_seat", "error")


def test_items_without_games_warn_that_references_were_not_checked(tmp_path):
    p = tmp_path / "speech.jsonl"
    write_jsonl(p, [mutate(fx.speech(), "viewpoint_seat", 7)])
    findings = validate_paths([p])
    assert codes(findings) == {("references-not-checked", "", "warning")}


def test_item_kind_detected_from_fields(tmp_path):
    p = tmp_path / "my_votes.jsonl"
    write_jsonl(p, [mutate(fx.vote(), "answer", 1)])
    assert "answer-not-candidate" in {f.code for f in validate_paths([p])}


def test_duplicate_items(tmp_path):
    again = mutate(fx.speech(), "item_id", "s-2")
    p = items_dir(tmp_path, "speech", [fx.speech(), fx.speech(), again])
    findings = validate_paths([p])
    dup_id = [f for f in findings if f.code == "duplicate-item-id"]
    assert [(f.line, f.severity) for f in dup_id] == [(2, "error")] and ":1" in dup_id[0].message
    dup = [f for f in findings if f.code == "duplicate-item"]
    assert [(f.line, f.item_id, f.severity) for f in dup] == [(3, "s-2", "warning")]


def test_items_referencing_a_broken_game(tmp_path):
    root = fx.write(tmp_path / "ds")
    (root / "games" / "g1.json").write_text(json.dumps(mutate(fx.game(), "seats[0].seat", "x")), encoding="utf-8")
    findings = validate_paths([root / "items" / "vote.jsonl"])
    assert codes(findings) == {("references-not-checked", "game_id", "warning")}


# --------------------------------------------------------------------------- OSR rewrites


def osr_file(tmp_path: Path, rows: list[dict]) -> Path:
    root = fx.write(tmp_path / "ds")
    p = root / "variants" / "osr" / "g1.jsonl"
    write_jsonl(p, rows)
    return p


OSR_CASES = [
    (lambda rows: [mutate(rows[0], "game_id", "g2")] + rows[1:], "osr-game-id", "game_id", "error"),
    (lambda rows: [mutate(rows[0], "text", " ")] + rows[1:], "osr-empty-text", "text", "error"),
    (lambda rows: rows + [rows[0]], "osr-duplicate", "utterance_index", "error"),
    (lambda rows: rows + [mutate(rows[0], "utterance_index", 30)], "osr-unknown-utterance", "utterance_index", "error"),
    (lambda rows: [mutate(rows[0], "segment_ids", [2])] + rows[1:], "osr-segment-mismatch", "segment_ids", "error"),
    (lambda rows: rows[1:], "osr-missing-utterance", "", "warning"),
    (lambda rows: [mutate(rows[0], "utterance_index", "one")] + rows[1:], "schema", "utterance_index", "error"),
]


@pytest.mark.parametrize("change,code,field,severity", OSR_CASES, ids=[c[1] for c in OSR_CASES])
def test_osr_check_fires(tmp_path, change, code, field, severity):
    p = osr_file(tmp_path, change(fx.osr()))
    assert_fires(validate_paths([p]), code, field, severity)


def test_good_osr_alone_is_clean(tmp_path):
    assert validate_paths([osr_file(tmp_path, fx.osr())]) == []


# --------------------------------------------------------------------------- dataset checks


def test_dataset_hash_count_and_file_checks(tmp_path):
    root = fx.write(tmp_path / "ds")
    manifest = json.loads((root / "dataset.json").read_text(encoding="utf-8"))
    manifest["counts"]["vote"] = 3
    manifest["languages"] = ["zh"]
    manifest["content_hashes"]["games/g0.json"] = "0" * 64
    (root / "dataset.json").write_text(json.dumps(manifest), encoding="utf-8")
    (root / "items" / "notes.jsonl").write_text("", encoding="utf-8")
    with (root / "items" / "vote.jsonl").open("a", encoding="utf-8") as f:
        f.write("\n")  # blank lines are not items, but the bytes changed
    found = codes(validate_paths([root]))
    assert {
        ("count-mismatch", "counts.vote", "error"),
        ("language-mismatch", "languages", "warning"),
        ("hash-missing-file", "content_hashes.games/g0.json", "error"),
        ("hash-mismatch", "content_hashes.items/vote.jsonl", "error"),
        ("hash-unlisted-file", "content_hashes", "warning"),
        ("unknown-file", "", "warning"),
    } <= found


def test_dataset_cross_references(tmp_path):
    speech_rows = [mutate(fx.speech(), "game_id", "g9")]
    vote_rows = [mutate(fx.vote(), "item_id", "s-1")]  # same id as the speech item: ids key runs and scores
    root = fx.write(tmp_path / "ds", speech_rows=speech_rows, vote_rows=vote_rows)
    findings = validate_paths([root])
    assert_fires(findings, "unknown-game", "game_id", "error")
    dup = [f for f in findings if f.code == "duplicate-item-id"]
    assert len(dup) == 1 and dup[0].file.endswith("vote.jsonl") and "speech.jsonl:1" in dup[0].message


def test_dataset_game_named_differently_from_its_id(tmp_path):
    root = fx.write(tmp_path / "ds")
    (root / "games" / "g1.json").rename(root / "games" / "other.json")
    findings = validate_paths([root])
    assert_fires(findings, "game-id-filename", "game_id", "error")
    assert "unknown-game" in {f.code for f in findings}  # items find games by file name


def test_lone_game_named_differently_is_a_warning(tmp_path):
    p = tmp_path / "other.json"
    p.write_text(json.dumps(fx.game()), encoding="utf-8")
    assert codes(validate_paths([p])) == {("game-id-filename", "game_id", "warning")}


def test_one_broken_file_does_not_hide_the_others(tmp_path):
    root = fx.write(tmp_path / "ds")
    g2 = mutate(mutate(fx.game(), "game_id", "g2"), "mvp.seat", 9)
    (root / "games" / "g2.json").write_text(json.dumps(g2), encoding="utf-8")
    text = (root / "games" / "g1.json").read_text(encoding="utf-8")
    (root / "games" / "g1.json").write_text(text[: len(text) // 2], encoding="utf-8")
    findings = validate_paths([root])
    bad = [f for f in findings if f.code == "invalid-json"]
    assert len(bad) == 1 and bad[0].file.endswith("g1.json") and bad[0].line is not None
    assert_fires(findings, "mvp-not-seat", "mvp.seat", "error")
    # items that point at the unreadable game are not reported as dangling, nor checked
    assert "unknown-game" not in {f.code for f in findings}


def test_truncated_jsonl_reports_the_line_and_keeps_the_lines_before(tmp_path):
    p = items_dir(tmp_path, "vote", [fx.vote(), mutate(fx.vote(), "item_id", "v-2")])
    with p.open("a", encoding="utf-8") as f:
        f.write('{"item_id": "v-3", "game_')
    findings = validate_paths([p])
    assert [(f.code, f.line) for f in findings] == [("invalid-json", 3), ("duplicate-item", 2)]


def test_findings_are_deterministic(tmp_path):
    root = fx.write(tmp_path / "ds", speech_rows=[mutate(fx.speech(), "answer", "D")])
    assert validate_paths([root]) == validate_paths([root])


def test_collapse_keeps_the_first_and_counts_the_rest():
    fs = [Finding(file="f", field=f"x[{i}]", severity="warning", code="c", message="m", game_id="g") for i in range(8)]
    out = collapse(fs + [Finding(file="f", field="y", severity="error", code="d", message="m", game_id="g")], 3)
    assert [f.field for f in out] == ["x[0]", "x[1]", "x[2]", "", "y"]
    assert out[3].message.startswith("5 more")


def test_bad_paths_raise_user_errors(tmp_path):
    from werealign.errors import UserError

    for p in (tmp_path / "missing.json", tmp_path, tmp_path / "notes.txt"):
        if p.suffix == ".txt":
            p.write_text("x", encoding="utf-8")
        with pytest.raises(UserError):
            validate_paths([p])


# --------------------------------------------------------------------------- the command


def run(*args: str) -> subprocess.CompletedProcess:
    return run_cli("validate", *args)  # in-process (tests/cli_inproc.py)


def test_cli_clean_dataset_text_and_json(tmp_path):
    root = fx.write(tmp_path / "ds")
    r = run(str(root))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines() == ["0 errors, 0 warnings in 6 files"]
    r = run(str(root), "--format", "json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == {"findings": [], "summary": {"errors": 0, "warnings": 0, "files": 6}}


def test_cli_errors_exit_1_with_one_line_per_finding(tmp_path):
    p = tmp_path / "g1.json"
    p.write_text(json.dumps(mutate(mutate(fx.game(), "mvp.seat", 9), "utterances[1].speaker", 8)), encoding="utf-8")
    r = run(str(p))
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "2 errors, 0 warnings in 1 file"
    assert f"{p}: g1: utterances[1].speaker: error: speaker 8 is not a seat (seats 1..6) [speaker-not-seat]" in lines
    doc = json.loads(run(str(p), "--format", "json").stdout)
    assert doc["summary"] == {"errors": 2, "warnings": 0, "files": 1}
    assert {f["code"] for f in doc["findings"]} == {"mvp-not-seat", "speaker-not-seat"}


def test_cli_warnings_only_exit_0(tmp_path):
    p = tmp_path / "g1.json"
    p.write_text(json.dumps(mutate(fx.game(), "highlights[0].segment_id", 50)), encoding="utf-8")
    r = run(str(p))
    assert r.returncode == 0 and r.stdout.strip().endswith("0 errors, 1 warning in 1 file")


def _one_line_error(r: subprocess.CompletedProcess, *needles: str) -> None:
    assert r.returncode == 1
    assert "Traceback" not in r.stderr + r.stdout
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), r.stderr
    for n in needles:
        assert n in err[0]


def test_cli_missing_file(tmp_path):
    _one_line_error(run(str(tmp_path / "nope.json")), "nope.json", "not found")


def test_cli_directory_that_is_not_a_dataset(tmp_path):
    _one_line_error(run(str(tmp_path)), str(tmp_path), "not a werealign dataset")


def test_cli_bad_format(tmp_path):
    _one_line_error(run(str(fx.write(tmp_path / "ds")), "--format", "xml"), "--format")


def test_cli_truncated_json_is_one_finding_line(tmp_path):
    p = tmp_path / "g1.json"
    p.write_text(json.dumps(fx.game())[:300], encoding="utf-8")
    r = run(str(p))
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2 and "invalid JSON" in lines[0] and lines[0].startswith(f"{p}:1: -: -: error:")


def test_cli_wrong_types_are_named_by_field(tmp_path):
    p = tmp_path / "g1.json"
    p.write_text(json.dumps(mutate(fx.game(), "phases", "night, day")), encoding="utf-8")
    r = run(str(p))
    assert r.returncode == 1 and "Traceback" not in r.stderr + r.stdout
    assert r.stdout.splitlines()[0] == f"{p}: g1: phases: error: expected a list, got string 'night, day' [schema]"


def test_a_different_format_is_one_clear_error(tmp_path):
    p = tmp_path / "release_log.json"
    p.write_text(json.dumps({"metadata": {"players": 12}, "utterances": [{"who": "A", "said": "hi"}] * 50}), encoding="utf-8")
    findings = validate_paths([p])
    assert [(f.code, f.severity) for f in findings] == [("not-a-game", "error")]
    assert "metadata, utterances" in findings[0].message and "werealign import" in findings[0].message


def test_unrecognisable_jsonl_is_one_error(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text('{"x": 1}\n{"x": 2}\n', encoding="utf-8")
    assert codes(validate_paths([p])) == {("unknown-kind", "", "error")}


def test_not_utf8_is_a_finding(tmp_path):
    for name in ("g1.json", "speech.jsonl"):
        p = tmp_path / name
        p.write_bytes(b"\xff\xfe{}")
        findings = validate_paths([p])
        assert [(f.code, f.severity) for f in findings][:1] == [("invalid-json", "error")] and "UTF-8" in findings[0].message


@pytest.mark.werebench
def test_real_import_validates_without_errors(werebench_validated):
    """The imported WereBench subset must be usable: no errors, and only a handful of precise warnings."""
    # `werealign validate --format json` of the session's one import of the real release (conftest)
    doc = json.loads(werebench_validated.stdout)
    findings = [Finding(**f) for f in doc["findings"]]
    errors = [f.to_text() for f in findings if f.severity == "error"]
    assert errors == [] and doc["summary"]["errors"] == 0
    assert doc["summary"]["files"] > 40
    # Warnings name a file, a game or item and a field, and stay few enough to read.
    warnings = [f for f in findings if f.severity == "warning"]
    assert len(warnings) == doc["summary"]["warnings"] < 100
    assert all(f.subject and f.field for f in warnings)


def test_bundled_sample_is_clean():
    from werealign.dataset import bundled_sample_path, is_dataset_dir

    sample = bundled_sample_path()
    if not is_dataset_dir(sample):
        pytest.skip("the bundled sample is not built yet")
    report = check_paths([sample])
    assert [f.to_text() for f in report.findings] == []


def _leaves(obj, prefix=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{prefix}[{i}]")
    if prefix:
        yield prefix


@pytest.mark.parametrize("make", [fx.game, fx.speech, fx.vote, fx.opponent], ids=lambda m: m.__name__)
def test_no_crash_on_any_single_bad_value(make):
    """Every field replaced by a wrong value or removed: findings, never an exception."""
    from werealign.validate.file_checks import check_items_rows
    from werealign.validate.findings import Sink

    good = make()
    for where in _leaves(good):
        for value in (None, "x", -1, 10**6, [], DELETE):
            bad = mutate(good, where, value)
            if make is fx.game:
                validate_game(bad, "g.json")
            else:
                check_items_rows(make.__name__, [(1, bad)], Sink(file="i.jsonl"), None)
