"""Every fact's evidence is in its source (issue 41): the quoted words of each event's `evidence` are found, whitespace
aside, in the table turn holding the segment named (its merged text or its segments'), in the annotator log or in the host's recap. A quote that is not
there is an error: the fact claims a source that does not say it (a reader's slip, or a correction that quotes the
wrong words). A structured field of the source release (`release_field`) is not kept in the game log, so it is not
checked here."""

from __future__ import annotations

import re

from werealign.schema import GameLog
from werealign.validate.findings import Sink, path
from werealign.validate.index import GameIndex

_SPACE = re.compile(r"\s+")


def compact(text: str | None) -> str:
    """The text without whitespace: transcripts and recaps space words unevenly, and a reader may read across a space."""
    return _SPACE.sub("", text or "")


def check_evidence(game: GameLog, idx: GameIndex, out: Sink) -> None:
    written = {"annotator_log": compact(game.annotator_log), "recap": compact(game.recap)}
    for i, e in enumerate(game.events):
        for j, ev in enumerate(e.evidence):
            where = path("events", i, "evidence", j)
            quote = compact(ev.quote)
            if ev.source in written:
                if quote not in written[ev.source]:
                    out.error("evidence-not-in-source", path(where, "quote"), f"{ev.quote!r} is not in the game's {ev.source}")
            elif ev.source == "utterance":
                u = idx.utterance_of(ev.segment_id) if ev.segment_id is not None else None
                if u is None:
                    out.error("evidence-segment-unknown", path(where, "segment_id"),
                              f"segment {ev.segment_id} is in no turn of the game (segments {idx.segment_range()})")
                elif quote not in compact(u.text) and quote not in compact("".join(x.text for x in u.segments or [])):
                    out.error("evidence-not-in-source", path(where, "quote"), f"{ev.quote!r} is not in the turn holding segment {ev.segment_id}")
