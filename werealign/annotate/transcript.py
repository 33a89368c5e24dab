"""Read an ASR transcript (SRT) into labelled segments: one per cue, "<speaker label>: <text>".

The cue number is the segment id (the unit of cut-offs), so it must be unique and ascending.
The label is everything before the first colon (ASCII or full-width), e.g. "说话人 3" or "Speaker 3";
the text is the rest, stripped. Parsing uses the `srt` library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from werealign.errors import UserError
from werealign.files import read_text

# A label is short and has no colon; the space after the colon is optional (ASR exports differ).
_LABELLED = re.compile(r"^\s*([^:：\n]{1,40}?)\s*[:：]\s*(.*)$", re.DOTALL)


@dataclass(frozen=True)
class TranscriptSegment:
    id: int
    start: float
    end: float
    label: str
    text: str


def split_label(content: str) -> tuple[str, str] | None:
    """('说话人 3', 'text') for '说话人 3: text'; None when the cue has no speaker label."""
    m = _LABELLED.match(content)
    if not m:
        return None
    # Multi-line cues are one utterance: join their lines with a space.
    return m.group(1).strip(), " ".join(m.group(2).split("\n")).strip()


def read_srt_text(path: Path) -> str:
    return read_text(path, "SRT", encoding="utf-8-sig")  # utf-8-sig: ASR tools often write a BOM


def parse_cues(path: Path) -> list:
    """The raw `srt.Subtitle` cues of a file, in file order, with clear errors."""
    import srt

    text = read_srt_text(path)
    try:
        cues = list(srt.parse(text))
    except srt.SRTParseError as e:
        line = text.count("\n", 0, e.actual_start) + 1
        raise UserError(f"{path}:{line}: not a valid SRT cue (expected 'N', 'HH:MM:SS,mmm --> HH:MM:SS,mmm', text)") from None
    if not cues:
        raise UserError(f"{path}: no subtitle cues found")
    return cues


def read_transcript(path: Path, require_labels: bool = True) -> list[TranscriptSegment]:
    """Every cue as a TranscriptSegment; cues without a label are an error (or get label '' when allowed)."""
    segments: list[TranscriptSegment] = []
    previous = -1
    for cue in parse_cues(path):
        if cue.index <= previous:
            raise UserError(f"{path}: cue {cue.index}: cue numbers must be unique and ascending (previous was {previous})")
        previous = cue.index
        split = split_label(cue.content)
        if split is None:
            if require_labels:
                raise UserError(f"{path}: cue {cue.index}: no speaker label (expected '<label>: <text>')")
            split = ("", " ".join(cue.content.split("\n")).strip())
        label, text = split
        segments.append(
            TranscriptSegment(
                id=cue.index,
                start=round(cue.start.total_seconds(), 3),
                end=round(cue.end.total_seconds(), 3),
                label=label,
                text=text,
            )
        )
    return segments


def plain_text(path: Path) -> str:
    """The spoken text of a transcript file: SRT cues without labels, or a plain text file as is."""
    if path.suffix.lower() == ".srt":
        return " ".join(seg.text for seg in read_transcript(path, require_labels=False))
    text = read_srt_text(path)
    return " ".join(text.split())
