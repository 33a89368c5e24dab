"""`annotate build`: segments -> turns, phases, events, recap; validation; the CLI's all-or-nothing output."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.annotate.build import build_from_files, validate_built
from werealign.annotate.transcript import read_transcript, split_label
from werealign.errors import UserError

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
EXAMPLE_SRT = REPO / "annotation" / "examples" / "six_seat.srt"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli("annotate", *args)


def test_split_label():
    assert split_label("说话人 3: 我是预言家") == ("说话人 3", "我是预言家")
    assert split_label("说话人 5:没有空格") == ("说话人 5", "没有空格")  # the release's parser drops these; we do not
    assert split_label("Speaker 2：  full-width colon\nsecond line") == ("Speaker 2", "full-width colon second line")
    assert split_label("no label at all") is None


def test_example_game_turns_phases_and_events():
    result = build_from_files(EXAMPLE_SRT, TEMPLATE)
    game = result.game
    assert result.notes == []
    # Cue 1 (before night 1) and cues 25-27 (recap and chat, from game_end on) are not turns.
    ids = [s for u in game.utterances for s in u.segment_ids]
    assert ids == list(range(2, 25))
    # Consecutive cues of one speaker in one phase merge; the turn keeps each cue's id, time and text.
    seer = game.utterances[2]
    assert (seer.segment_ids, seer.speaker, seer.phase) == ([4, 5], 3, "sheriff-election")
    assert [s.id for s in seer.segments] == [4, 5]
    assert seer.text == " ".join(s.text for s in seer.segments)
    assert (seer.start, seer.end) == (seer.segments[0].start, seer.segments[-1].end) == (17.0, 28.6)
    # The seer's sheriff-election speech (cue 5) and day-2 speech (cue 21) are separate turns.
    assert [u.speaker for u in game.utterances].count(3) == 3
    assert [p.id for p in game.phases] == ["night-1", "sheriff-election", "day-1", "night-2", "day-2"]
    assert game.phases[2].start == 44.0 and game.phases[2].end == 92.0 and game.phases[-1].end == 122.0
    # Events: the sheriff change comes first at its segment; phase derived from the segment; skill uses private.
    sheriff = [e for e in game.events if e.kind == "sheriff_election"]
    assert len(sheriff) == 1 and sheriff[0].target == 3 and sheriff[0].segment_id == 8 and sheriff[0].phase == "sheriff-election"
    assert all(not e.public for e in game.events if e.kind == "skill_use")
    assert [e.segment_id for e in game.events] == sorted(e.segment_id for e in game.events)
    assert {e.phase for e in game.events if e.segment_id == 17} == {"day-1"}
    assert game.recap.startswith("Recap: seat 3 was the seer") and "Good game" not in game.recap
    assert game.rules.variant == "seer-witch"
    assert {s.seat: s.speaker_labels for s in game.seats}[3] == ["Speaker 2"]
    assert game.host_labels == ["Speaker 7"]
    assert [f for f in validate_built(game, "x.json") if f.severity == "error"] == []


def _srt(tmp_path: Path, lines: list[tuple[float, str]]) -> Path:
    def ts(x: float) -> str:
        return f"00:{int(x) // 60:02d}:{int(x) % 60:02d},{round((x % 1) * 1000):03d}"

    text = "\n".join(f"{i}\n{ts(t)} --> {ts(t + 0.5)}\n{content}\n" for i, (t, content) in enumerate(lines, 1))
    path = tmp_path / "t.srt"
    path.write_text(text, encoding="utf-8")
    return path


def _config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(
        "game_id: tiny\nlanguage: en\nprovenance: {source: test}\nplayers: 2\n"
        "speakers: {A: 1, B: 2, 'A2': 1, H: host}\nroles: {1: werewolf, 2: seer}\n"
        "phases:\n  - {kind: night, day: 1, start: 1}\n  - {kind: day, day: 1, start: 10}\n"
        "game_end: 20\n" + extra,
        encoding="utf-8",
    )
    return path


def test_merging_rules(tmp_path):
    srt = _srt(tmp_path, [
        (0.0, "H: before the game"),        # 1: dropped (before night 1)
        (1.0, "H: night falls"),            # 2
        (2.0, "A: one"),                    # 3
        (3.0, "A2: two"),                   # 4: another label of seat 1 -> same turn
        (9.9, "A:three"),                   # 5: still night-1 (no space after the colon is fine)
        (10.0, "A: four"),                  # 6: day-1 starts -> new turn even though the speaker is the same
        (11.0, "B: five"),                  # 7
        (12.0, "A: six"),                   # 8
        (20.0, "H: recap"),                 # 9: at game_end -> not a turn
    ])
    game = build_from_files(srt, _config(tmp_path)).game
    got = [(u.segment_ids, u.speaker, u.phase, u.text) for u in game.utterances]
    assert got == [
        ([2], "host", "night-1", "night falls"),
        ([3, 4, 5], 1, "night-1", "one two three"),
        ([6], 1, "day-1", "four"),
        ([7], 2, "day-1", "five"),
        ([8], 1, "day-1", "six"),
    ]
    assert [u.index for u in game.utterances] == [0, 1, 2, 3, 4]


def test_turn_breaks_split_one_speakers_run(tmp_path):
    # The host calls the vote, the ballots are cast in silence, the host announces the result.
    srt = _srt(tmp_path, [(1.0, "H: night falls"), (10.0, "H: vote now"), (14.0, "H: seat 2 is out"), (15.0, "H: last words, seat 2"),
                          (16.0, "B: last words")])
    game = build_from_files(srt, _config(tmp_path, "turn_breaks: [3]\n")).game
    assert [(u.segment_ids, u.text) for u in game.utterances] == [
        ([1], "night falls"), ([2], "vote now"), ([3, 4], "seat 2 is out last words, seat 2"), ([5], "last words")]
    # A break at a cue that starts a turn anyway changes nothing; one outside the game is named.
    assert build_from_files(srt, _config(tmp_path, "turn_breaks: [5]\n")).game.utterances[1].segment_ids == [2, 3, 4]
    with pytest.raises(UserError, match=r"c.yaml:\d+: turn_breaks.0: segment 9 is not in .*t.srt"):
        build_from_files(srt, _config(tmp_path, "turn_breaks: [9]\n"))


def test_event_anchor_must_be_in_the_game(tmp_path):
    srt = _srt(tmp_path, [(1.0, "H: night"), (2.0, "A: hi"), (25.0, "H: after")])
    config = _config(tmp_path, "events:\n  - {kind: elimination, segment: 3, target: 2}\n")
    with pytest.raises(UserError, match=r"c.yaml:\d+: events.0.segment: segment 3 \(25.000s\) is outside the game"):
        build_from_files(srt, config)
    config = _config(tmp_path, "events:\n  - {kind: elimination, segment: 99, target: 2}\n")
    with pytest.raises(UserError, match=r"events.0.segment: segment 99 is not in .*t.srt"):
        build_from_files(srt, config)


def test_transcript_errors(tmp_path):
    srt = tmp_path / "bad.srt"
    srt.write_text("1\n00:00:01,000 --> 00:00:02,000\nno label here\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.srt: cue 1: no speaker label"):
        read_transcript(srt)
    srt.write_text("1\nnot a time line\nA: x\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.srt:\d+: not a valid SRT cue"):
        read_transcript(srt)
    with pytest.raises(UserError, match="file not found"):
        read_transcript(tmp_path / "missing.srt")


def test_cli_build_is_deterministic_and_writes_nothing_on_error(tmp_path):
    out1, out2 = tmp_path / "a.json", tmp_path / "b.json"
    for out in (out1, out2):
        r = _cli("build", "--srt", str(EXAMPLE_SRT), "--config", str(TEMPLATE), "--out", str(out))
        assert r.returncode == 0, r.stderr
    assert out1.read_bytes() == out2.read_bytes()
    assert json.loads(out1.read_text(encoding="utf-8"))["game_id"] == "example-six-seat"
    # A config the validator rejects: the MVP's cut-off lies outside the vote's phase.
    bad = tmp_path / "bad.yaml"
    bad.write_text(TEMPLATE.read_text(encoding="utf-8").replace("{phase: day-2, target: 5, cutoff_segment: 23}", "{phase: day-2, target: 5, cutoff_segment: 12}"), encoding="utf-8")
    out3 = tmp_path / "c.json"
    r = _cli("build", "--srt", str(EXAMPLE_SRT), "--config", str(bad), "--out", str(out3))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "mvp.votes[1].cutoff_segment" in r.stderr and "not written" in r.stderr
    assert not out3.exists()


def test_the_guides_build_command_works_verbatim_and_validates_clean(tmp_path):
    # The first command block of annotation/GUIDE.md, run as written from the repository root
    # (only --out redirected into tmp_path, same file name): no error, no validator warning.
    import re
    import shlex

    guide = (REPO / "annotation" / "GUIDE.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(werealign annotate build .*?)\n```", guide, re.S).group(1)
    argv = shlex.split(block.replace("\\\n", " "))
    out = argv.index("--out") + 1
    argv[out] = str(tmp_path / argv[out])
    r = _cli(*argv[2:])
    assert r.returncode == 0, r.stderr
    v = run_cli("validate", argv[out])
    assert v.returncode == 0 and "0 errors, 0 warnings" in v.stdout, v.stdout


@pytest.mark.parametrize(
    "time_line, words",
    [
        ("00:00:29,000 --> 00:00:24,600", "cue 2: ends (00:00:24,600) before it starts (00:00:29,000)"),
        ("00:00:20,000 --> 00:00:88,600", "cue 2: timestamp '00:00:88,600' out of range (minutes and seconds must be below 60"),
        ("00:75:20,000 --> 00:75:21,000", "cue 2: timestamp '00:75:20,000' out of range"),
    ],
)
def test_transcript_timing_is_checked(tmp_path, time_line, words):
    # The srt library accepted all three: a cue ending before it starts, and 88 seconds read as 1:28.
    srt = tmp_path / "t.srt"
    srt.write_text(f"1\n00:00:01,000 --> 00:00:02,000\nA: one\n\n2\n{time_line}\nA: two\n", encoding="utf-8")
    with pytest.raises(UserError) as e:
        read_transcript(srt)
    assert str(e.value).startswith(f"{srt}:6: {words}"), str(e.value)  # line 6: the time line


def test_parse_error_names_the_line_where_the_bad_cue_starts(tmp_path):
    srt = tmp_path / "bad.srt"
    srt.write_text("garbage\nmore garbage\n", encoding="utf-8")
    with pytest.raises(UserError, match=rf"^{re.escape(str(srt))}:1: not a valid SRT cue"):
        read_transcript(srt)
    # Unreadable lines before good cues: where the unreadable part starts, not where the next good cue does (line 4).
    srt.write_text("oops\nno cue here\n\n1\n00:00:01,000 --> 00:00:02,000\nA: one\n", encoding="utf-8")
    with pytest.raises(UserError, match=rf"^{re.escape(str(srt))}:1: not a valid SRT cue"):
        read_transcript(srt)
