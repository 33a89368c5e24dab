"""`import werebench` attaches per-segment text from the release's clean_process/*.srt transcripts.

A turn gets `segments` only when its cues reproduce the release's turn text exactly; every other
turn keeps `segments: null` with a `segments_unavailable` report entry. The context builder can
then cut a turn at an item's cut-off instead of leaving the whole turn out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from werealign.dataset import load_dataset
from werealign.eval.prompts import render_messages
from werealign.importers.werebench.importer import import_werebench
from werealign.importers.werebench.segments import transcript_rel

# --------------------------------------------------------------------------- an invented release with a transcript

# (cue id, start, speaker label, text). Cue 9 is deliberately absent from the transcript.
CUES = [
    (1, "00:00:01,000", "说话人 1", "演示开场天黑请闭眼"),
    (2, "00:00:10,000", "说话人 2", "甲段我先起跳预言家"),
    (3, "00:00:12,000", "说话人 2", "乙段昨晚验了四号"),
    (4, "00:00:14,000", "说话人 2", "丙段结论他是坏人"),
    (5, "00:00:21,000", "说话人 5", "丁段我才是预言家"),
    (6, "00:00:23,000", "说话人 5", "戊段一号在演戏"),
    (7, "00:01:00,000", "说话人 1", "演示白天一号当选警长"),
    (8, "00:01:06,000", "说话人 3", "己段我跟一号走"),
    (10, "00:01:21,000", "说话人 2", "庚段大家投四号"),
]
# The hand edit the release made to turn 5-6 after its build (an "ASR correction").
EDITED_TURN_TEXT = "丁段我才是真预言家 戊段一号在演戏"


def _ts(t: str, plus: int = 1) -> str:
    h, m, rest = t.split(":")
    s, ms = rest.split(",")
    total = int(h) * 3600 + int(m) * 60 + int(s) + plus
    return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d},{ms}"


def _srt() -> str:
    return "\n".join(f"{i}\n{start} --> {_ts(start)}\n{label}: {text}\n" for i, start, label, text in CUES)


def _turn(segs: list[int], status: str, speaker: str, text: str | None = None, sheriff: str | None = None) -> dict:
    by_id = {c[0]: c for c in CUES}
    known = [by_id[s] for s in segs if s in by_id]
    return {
        "utterance_id": segs,
        "start_time": known[0][1],
        "end_time": _ts(known[-1][1]),
        "status": status,
        "speaker_id": speaker,
        "sheriff": sheriff,
        "text": text if text is not None else " ".join(c[3] for c in known),
    }


def _game() -> dict:
    return {
        "metadata": {
            "game_id": 7,
            "source": "Demo Season 1, Episode 1",
            "game_rules": "演示规则：六人局，屠边。",
            "game_roles": ["预言家", "女巫", "猎人", "狼人", "村民"],
            "game_status": {"first_night": "00:00:01,000", "sheiff_election": "00:00:10,000", "first_day": "00:01:00,000", "end_time": "00:02:00,000"},
            "user_aliases": {"说话人 1": ["host"], **{f"说话人 {i + 1}": [f"{i}号"] for i in range(1, 7)}},
            "real_role": {"说话人 1": "host", "说话人 2": "预言家", "说话人 3": "女巫", "说话人 4": "猎人", "说话人 5": "狼人", "说话人 6": "狼人", "说话人 7": "村民"},
            "MVP": {"id": "1号", "votes": {"first_day_votes": {"vote_to": "4号", "cut_off_time": 3}}},
            "summary": "演示回顾，好人阵营胜利",
        },
        "utterances": [
            _turn([1], "first_night", "host"),
            _turn([2, 3, 4], "sheiff_election", "1号"),
            _turn([5, 6], "sheiff_election", "4号", text=EDITED_TURN_TEXT),
            _turn([7], "first_day", "host", sheriff="1号"),
            _turn([8, 9], "first_day", "2号", sheriff="1号"),
            _turn([10], "first_day", "1号", sheriff="1号"),
        ],
    }


def _question(qid: int, seg: int) -> dict:
    return {"id": qid, "utterance_id": seg, "role": "3号", "text": f"你是 3号，演示问题 {qid}？", "options": [{"key": k, "text": f"演示选项 {k}"} for k in "ABCDEFGHI"],
            "answerKey": "A", "reference": "data/Season_1/01.json", "explanation": ""}


def write_release(root: Path, srt: str | None = None, with_clean_process: bool = True) -> Path:
    (root / "data" / "Season_1").mkdir(parents=True)
    (root / "WereBench").mkdir()
    (root / "data" / "Season_1" / "01.json").write_text(json.dumps(_game(), ensure_ascii=False), encoding="utf-8")
    # Item 1 cuts inside the matching turn 2-4, item 2 inside the hand-edited turn 5-6.
    items = {"categories": [{"categoryName": "Role Inference", "questions": [_question(1, 3), _question(2, 5)]}]}
    (root / "WereBench" / "WereBench.json").write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    if with_clean_process:
        (root / "clean_process" / "Season_1").mkdir(parents=True)
        if srt is not None:
            (root / "clean_process" / "Season_1" / "01.srt").write_text(srt, encoding="utf-8")
    return root


def _entries(out: Path, kind: str, code: str) -> list[dict]:
    report = json.loads((out / "import_report.json").read_text(encoding="utf-8"))
    return [e for e in report[kind] if e["code"] == code]


def _prompt(game, item) -> str:
    return "\n".join(m["content"] for m in render_messages(game, item))


def test_transcript_path_mirrors_the_game_path():
    assert transcript_rel("data/Season_3/07.json") == "clean_process/Season_3/07.srt"


def test_matching_turn_gets_segments_edited_and_incomplete_turns_are_reported(tmp_path):
    out = tmp_path / "out"
    summary = import_werebench(write_release(tmp_path / "rel", _srt()), out)
    game = load_dataset(out).games["pandakill-s1-01"]
    by_first = {u.segment_ids[0]: u for u in game.utterances}
    seer = by_first[2]
    assert [(s.id, s.text) for s in seer.segments] == [(2, "甲段我先起跳预言家"), (3, "乙段昨晚验了四号"), (4, "丙段结论他是坏人")]
    assert (seer.segments[0].start, seer.segments[-1].end) == (10.0, 15.0)
    assert seer.text == " ".join(s.text for s in seer.segments)
    # Hand-edited text and a cue missing from the transcript: no segments, the release text stays.
    assert by_first[5].segments is None and by_first[5].text == EDITED_TURN_TEXT
    assert by_first[8].segments is None
    assert all(u.segments is not None for u in game.utterances if u.segment_ids[0] not in (5, 8))

    unavailable = {e["item"]: e for e in _entries(out, "warning", "segments_unavailable")}
    assert sorted(unavailable) == ["segments 5-6", "segments 8-9"]
    assert "edited by hand" in unavailable["segments 5-6"]["what"] and "真" in unavailable["segments 5-6"]["what"]
    assert "[9]" in unavailable["segments 8-9"]["what"] and "not cues" in unavailable["segments 8-9"]["what"]
    assert all(e["source_file"] == "clean_process/Season_1/01.srt" and e["game"] == "pandakill-s1-01" for e in unavailable.values())
    assert [e["what"] for e in _entries(out, "converted", "segments")] == ["per-segment text attached to 4 of 6 turns"]
    assert (summary.counts["turns"], summary.counts["turns_with_segments"]) == (6, 4)
    assert "Per-segment text attached to 4 of 6 turns." in (out / "IMPORT_REPORT.md").read_text(encoding="utf-8")
    # The MVP cut-off inside the matching turn is simply cut there: no warning about it.
    assert not [e for e in _entries(out, "warning", "cutoff_inside_turn") if e["source_file"] == "data/Season_1/01.json"]


def test_context_cuts_a_matching_turn_and_leaves_out_an_edited_one(tmp_path):
    out = tmp_path / "out"
    import_werebench(write_release(tmp_path / "rel", _srt()), out)
    ds = load_dataset(out)
    game = ds.games["pandakill-s1-01"]
    by_cutoff = {i.cutoff_segment: i for i in ds.speech}
    cut_in_matching = _prompt(game, by_cutoff[3])
    assert "甲段我先起跳预言家" in cut_in_matching and "乙段昨晚验了四号" in cut_in_matching
    assert "丙段" not in cut_in_matching and "丁段" not in cut_in_matching
    cut_in_edited = _prompt(game, by_cutoff[5])
    assert "丙段结论他是坏人" in cut_in_edited  # the whole earlier turn
    assert "丁段" not in cut_in_edited and "戊段" not in cut_in_edited  # left out, never partly shown


def test_without_clean_process_import_works_and_says_so_once(tmp_path):
    out = tmp_path / "out"
    summary = import_werebench(write_release(tmp_path / "rel", with_clean_process=False), out)
    game = load_dataset(out).games["pandakill-s1-01"]
    assert all(u.segments is None for u in game.utterances)
    [entry] = _entries(out, "warning", "segments_unavailable")
    assert entry["source_file"] == "clean_process/" and "no clean_process/ folder" in entry["what"]
    assert summary.counts["turns_with_segments"] == 0 and summary.counts["turns"] == len(game.utterances)


@pytest.mark.parametrize("srt, needle", [(None, "no transcript for this game"), ("this is not\nan srt file\n", "unreadable transcript")])
def test_missing_or_broken_transcript_costs_only_the_segments(tmp_path, srt, needle):
    out = tmp_path / "out"
    summary = import_werebench(write_release(tmp_path / "rel", srt), out)
    assert summary.counts["games_converted"] == 1 and summary.counts["turns_with_segments"] == 0
    [entry] = _entries(out, "warning", "segments_unavailable")
    assert needle in entry["what"] and entry["source_file"] == "clean_process/Season_1/01.srt"
    assert str(tmp_path) not in (out / "import_report.json").read_text(encoding="utf-8")  # no machine paths in outputs


def test_reimport_is_byte_identical(tmp_path):
    src = write_release(tmp_path / "rel", _srt())
    import_werebench(src, tmp_path / "a")
    import_werebench(src, tmp_path / "b")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files)


# --------------------------------------------------------------------------- the real release subset


@pytest.fixture(scope="module")
def real(werebench_import, werebench_dataset):
    """(the import's counts, the dataset, its report) of the session's one import of the real release (conftest)."""
    report = json.loads((werebench_import.path / "import_report.json").read_text(encoding="utf-8"))
    return report["counts"], werebench_dataset, report


@pytest.mark.werebench
def test_real_nearly_every_turn_gets_its_segments_and_every_other_is_reported(real):
    counts, ds, report = real
    turns = [(g, u) for g in ds.games.values() for u in g.utterances]
    with_segments = [(g, u) for g, u in turns if u.segments is not None]
    print(f"per-segment text attached to {len(with_segments)} of {len(turns)} turns")
    assert counts["turns_with_segments"] == len(with_segments) and counts["turns"] == len(turns)
    assert len(with_segments) >= 0.99 * len(turns)
    for g, u in with_segments:
        assert [s.id for s in u.segments] == u.segment_ids, (g.game_id, u.index)
        assert " ".join(s.text for s in u.segments) == u.text, (g.game_id, u.index)
    reported = {(e["game"], e["item"]) for e in report["warning"] if e["code"] == "segments_unavailable"}
    missing = {(g.game_id, f"segments {u.segment_ids[0]}-{u.segment_ids[-1]}") for g, u in turns if u.segments is None}
    assert reported == missing


@pytest.mark.werebench
def test_real_items_cut_inside_a_turn_now_see_its_first_part_only(real):
    _, ds, _ = real
    checked = 0
    for item in [*ds.speech, *ds.vote, *ds.opponent]:
        game = ds.games[item.game_id]
        turn = next((u for u in game.utterances if item.cutoff_segment in u.segment_ids), None)
        if turn is None or turn.segments is None or item.cutoff_segment == turn.segment_ids[-1]:
            continue
        night = {p.id for p in game.phases if p.kind == "night"}
        if turn.speaker != "host" and turn.phase in night:
            continue  # players' night talk is never shown
        prompt = _prompt(game, item)
        before = [s.text.strip() for s in turn.segments if s.id <= item.cutoff_segment]
        said_before = "\n".join([*before, *(u.text for u in game.utterances if u.segment_ids[-1] <= item.cutoff_segment),
                                 getattr(item, "question", ""), *(o.text for o in getattr(item, "options", []))])
        assert any(len(t) >= 4 and t in prompt for t in before), f"{item.item_id}: partial turn {turn.index} not shown"
        for s in turn.segments:
            if s.id > item.cutoff_segment and len(s.text.strip()) >= 6 and s.text.strip() not in said_before:
                assert s.text.strip() not in prompt, f"{item.item_id}: segment {s.id} after the cut-off leaked"
        checked += 1
    print(f"{checked} items cut inside a turn get its first part")
    assert checked >= 15
