"""Per-segment text for imported WereBench turns, from the release's own raw transcripts.

The processed logs (`data/Season_N/NN.json`) only hold each turn's merged text, so a cut-off
inside a turn would leave the whole turn out of the context. The release also ships the ASR
transcript each log was built from, `clean_process/Season_N/NN.srt` (segment id = cue number).
A turn gets `segments` only when every one of its segment ids is a cue of that file AND the cue
texts, joined by a single space (how the release built turn text), reproduce the release's turn
text exactly; otherwise the release was edited by hand after its build (or the cue is missing)
and cutting the turn at a cue boundary could show text the release does not contain, so the
turn keeps `segments: null` and the report says why. The release's text stays the turn text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from werealign.annotate.transcript import TranscriptSegment, read_transcript
from werealign.errors import UserError
from werealign.importers.report import ImportReport
from werealign.importers.werebench.faithfulness import text_diff
from werealign.importers.werebench.source import season_files
from werealign.schema import Segment, Utterance

TRANSCRIPT_DIR = "clean_process"
# The release's build glued a cue written with no blank line before it (number and time line
# included) into the previous cue's text: such a turn text holds an SRT time line.
_GLUED_TIME_LINE = re.compile(r"\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->")


@dataclass(frozen=True)
class Transcripts:
    root: Path  # the release root
    files: frozenset[str]  # release-relative paths of every clean_process/Season_*/*.srt


def find_transcripts(root: Path) -> Transcripts | None:
    """The release's transcripts, or None when it has no clean_process/ folder.

    Every transcript folder is listed up front: one that cannot be read is an error naming it,
    not a game after game of "no transcript" warnings (or a PermissionError half-way through).
    """
    files = season_files(root, TRANSCRIPT_DIR, "*.srt")
    return None if files is None else Transcripts(root, frozenset(files))


def transcript_rel(game_rel: str) -> str:
    """'clean_process/Season_1/01.srt' for 'data/Season_1/01.json'."""
    p = PurePosixPath(game_rel)
    return f"{TRANSCRIPT_DIR}/{p.parent.name}/{p.stem}.srt"


def read_cues(path: Path) -> dict[int, TranscriptSegment]:
    """Cue id -> cue. Unlabelled cues are kept (label ''): the text check decides whether they fit a turn."""
    return {seg.id: seg for seg in read_transcript(path, require_labels=False)}


def attach_segments(transcripts: Transcripts, game_rel: str, game_id: str, utterances: list[Utterance], report: ImportReport) -> list[Utterance]:
    """The turns, with `segments` filled where the transcript reproduces the release's text exactly."""
    srt_rel = transcript_rel(game_rel)
    path = transcripts.root / srt_rel
    if srt_rel not in transcripts.files:
        report.add("warning", "segments_unavailable", source_file=srt_rel, game=game_id, field=None,
                   what="no transcript for this game", why=f"all {len(utterances)} turns kept without per-segment text")
        return utterances
    try:
        cues = read_cues(path)
    except UserError as e:  # a broken optional file costs the per-segment text, not the game
        report.add("warning", "segments_unavailable", source_file=srt_rel, game=game_id, field=None,
                   # The message starts with the absolute path; the report names files relative to the release.
                   what=f"unreadable transcript: {str(e).replace(str(path), srt_rel)}", why=f"all {len(utterances)} turns kept without per-segment text")
        return utterances
    out: list[Utterance] = []
    for u in utterances:
        problem = _mismatch(u, cues)
        if problem is None:
            segments = [Segment(id=s, start=cues[s].start, end=cues[s].end, text=cues[s].text) for s in u.segment_ids]
            out.append(u.model_copy(update={"segments": segments}))
            continue
        report.add("warning", "segments_unavailable", source_file=srt_rel, game=game_id, item=f"segments {u.segment_ids[0]}-{u.segment_ids[-1]}",
                   field="utterances[].text", what=f"turn {u.index}: {problem}",
                   why="turn kept without per-segment text: a cut-off inside it leaves the whole turn out of the context")
        out.append(u)
    attached = sum(1 for u in out if u.segments is not None)
    report.add("converted", "segments", source_file=srt_rel, game=game_id, field=None,
               what=f"per-segment text attached to {attached} of {len(out)} turns", why=f"games/{game_id}.json utterances[].segments")
    return out


def _mismatch(u: Utterance, cues: dict[int, TranscriptSegment]) -> str | None:
    """Why the transcript cannot give this turn's per-segment text, or None when it can."""
    missing = [s for s in u.segment_ids if s not in cues]
    if missing:
        return f"segment(s) {missing[:10]} are not cues of the transcript"
    built = " ".join(cues[s].text for s in u.segment_ids)
    if built == u.text:
        return None
    if _GLUED_TIME_LINE.search(u.text) and not _GLUED_TIME_LINE.search(built):
        return "the release's turn text has a following cue glued into it (its build read a cue with no blank line before it as text)"
    return f"the release's turn text differs from its transcript cues (edited by hand after the build): {text_diff(u.text, built)}"
