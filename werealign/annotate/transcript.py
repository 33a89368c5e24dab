"""Read an ASR transcript (SRT) into labelled segments: one per cue, "<speaker label>: <text>".

The cue number is the segment id (the unit of cut-offs), so it must be unique and ascending; a
cue must not end before it starts, and its minutes and seconds must be below 60 (the `srt` library
would read 00:00:88,600 as 88.6 s). The label is everything before the first colon (ASCII or
full-width), e.g. "说话人 3" or "Speaker 3"; the text is the rest, stripped. Parsing uses the `srt` library.

`plain_text` (for WER) reads transcripts that may have no labels, so there a prefix before a colon
is a label only when it looks like one (see `looks_like_label`): "I checked seat 3: wolf" keeps its words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from werealign.errors import UserError
from werealign.files import read_text

# A label is short and has no colon; the space after the colon is optional (ASR exports differ).
_LABELLED = re.compile(r"^\s*([^:：\n]{1,40}?)\s*[:：]\s*(.*)$", re.DOTALL)
# What ASR tools write as a speaker label: one non-numeric word, then a number ("说话人 3", "SPEAKER_01", "spk1").
_LABEL_FORM = re.compile(r"^[^\W\d_]+[ _]?\d+$")


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
    return m.group(1).strip(), _one_line(m.group(2))


def _one_line(text: str) -> str:
    # Multi-line cues are one utterance: join their lines with a space.
    return " ".join(text.split("\n")).strip()


def read_srt_text(path: Path) -> str:
    return read_text(path, "SRT", encoding="utf-8-sig")  # utf-8-sig: ASR tools often write a BOM


def parse_cues(path: Path) -> list:
    """The raw `srt.Subtitle` cues of a file, in file order, with clear errors."""
    import srt

    text = read_srt_text(path)
    try:
        cues = list(srt.parse(text))
    except srt.SRTParseError as e:
        # expected_start is where the unreadable cue begins; actual_start is where the next good one does.
        line = text.count("\n", 0, e.expected_start) + 1
        raise UserError(f"{path}:{line}: not a valid SRT cue (expected 'N', 'HH:MM:SS,mmm --> HH:MM:SS,mmm', text)") from None
    if not cues:
        raise UserError(f"{path}: no subtitle cues found")
    _check_timing(path, text, cues)
    return cues


def _check_timing(path: Path, text: str, cues: list) -> None:
    """Each cue's time line: fields in range and end not before start.

    The parsed cues hold timedeltas, which have already absorbed an out-of-range field, so the raw
    time lines are read again with the library's own regex: its matches are the cues, in order.
    """
    import srt

    line, pos = 1, 0
    for cue, m in zip(cues, srt.SRT_REGEX.finditer(text)):
        line += text.count("\n", pos, m.start(2))
        pos = m.start(2)
        where = f"{path}:{line}: cue {cue.index}"
        for raw in (m.group(2), m.group(3)):
            _, minutes, seconds, millis = srt.TS_REGEX.match(raw).groups()
            if int(minutes) >= 60 or int(seconds) >= 60 or int(millis or 0) >= 1000:
                raise UserError(f"{where}: timestamp {raw!r} out of range (minutes and seconds must be below 60, milliseconds below 1000)")
        if cue.end < cue.start:
            raise UserError(f"{where}: ends ({m.group(3)}) before it starts ({m.group(2)})")


def read_transcript(path: Path, require_labels: bool = True) -> list[TranscriptSegment]:
    """Every cue as a TranscriptSegment; cues without a label are an error (or get label '' when allowed)."""
    segments: list[TranscriptSegment] = []
    previous = -1
    for cue in parse_cues(path):
        if cue.index is None:  # the srt library accepts a cue without its number line
            raise UserError(f"{path}: the cue after cue {previous} has no cue number (segment ids are the cue numbers)")
        if cue.index <= previous:
            raise UserError(f"{path}: cue {cue.index}: cue numbers must be unique and ascending (previous was {previous})")
        previous = cue.index
        split = split_label(cue.content)
        if split is None:
            if require_labels:
                raise UserError(f"{path}: cue {cue.index}: no speaker label (expected '<label>: <text>')")
            split = ("", _one_line(cue.content))
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


def looks_like_label(prefix: str, prefix_counts: Counter[str]) -> bool:
    """Whether the text before a cue's colon is a speaker label, in a file that may have none.

    It is when it has a label's form ("Speaker 3") or starts at least two cues of the file (ASR
    labels repeat; a sentence such as "I checked seat 3" does not).
    """
    return prefix_counts[prefix] >= 2 or bool(_LABEL_FORM.match(prefix))


def plain_text(path: Path) -> str:
    """The spoken text of a transcript file: SRT cues without their labels, or a plain text file as is."""
    if path.suffix.lower() == ".srt":
        cues = parse_cues(path)
        splits = [split_label(cue.content) for cue in cues]
        counts = Counter(split[0] for split in splits if split)
        return " ".join(
            split[1] if split and looks_like_label(split[0], counts) else _one_line(cue.content)
            for cue, split in zip(cues, splits)
        )
    text = read_srt_text(path)
    return " ".join(text.split())
