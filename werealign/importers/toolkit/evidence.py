"""Evidence for what an importer reads from a turn: the segment that says it, and the words read.

A fact read from the table is anchored where it is said, so a cut-off before that segment shows none of it, and
it carries the quoted words (`werealign validate` checks that they are in the anchored turn).
"""

from __future__ import annotations

from werealign.schema import Evidence, Utterance


def segment_at(u: Utterance, pos: int) -> int:
    """The segment of a turn holding character `pos` of its merged text (cues joined with one space)."""
    if not u.segments:
        return u.segment_ids[0]
    at = 0
    for seg in u.segments:
        at += len(seg.text.strip()) + 1
        if pos < at:
            return seg.id
    return u.segments[-1].id


def segment_of_quote(u: Utterance, quote: str) -> int:
    """The segment of a turn that holds `quote` (whitespace aside), else the turn's first: where a statement read by
    its words, not its offset, is anchored."""
    words = "".join(quote.split())
    return next((x.id for x in u.segments or [] if words in "".join(x.text.split())), u.segment_ids[0])


def quoted(segment: int | None, quote: str) -> list[Evidence]:
    """The words read at `segment` as an event's evidence; none when nothing was quoted."""
    return [Evidence(source="utterance", segment_id=segment, quote=quote)] if quote.strip() else []
