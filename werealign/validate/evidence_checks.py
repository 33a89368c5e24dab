"""Every fact's evidence is in its source (issue 41): the quoted words of each event's `evidence` are found, whitespace
aside, in the table turn holding the segment named (its merged text or its segments'), in the annotator log or in the
host's recap. A quote that is not there is an error: the fact claims a source that does not say it (a reader's slip,
or a correction that quotes the wrong words). A structured field of the source release (`release_field`) is not kept
in the game log, so it is not checked here. The importer checks a corrections file's quotes with the same function."""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.schema import GameLog, Utterance
from werealign.validate.findings import Sink, path
from werealign.validate.index import GameIndex

_SPACE = re.compile(r"\s+")


def compact(text: str | None) -> str:
    """The text without whitespace: transcripts and recaps space words unevenly, and a reader may read across a space."""
    return _SPACE.sub("", text or "")


def quote_missing(source: str, segment_id: int | None, quote: str, utterances: Sequence[Utterance], annotator_log: str | None,
                  recap: str | None) -> tuple[str, str] | None:
    """(finding code, message) when the quote is not in its source, else None."""
    words = compact(quote)
    if source in ("annotator_log", "recap"):
        text = annotator_log if source == "annotator_log" else recap
        return None if words in compact(text) else ("evidence-not-in-source", f"{quote!r} is not in the game's {source}")
    if source != "utterance":
        return None
    turn = next((u for u in utterances if segment_id in u.segment_ids), None) if segment_id is not None else None
    if turn is None:
        return "evidence-segment-unknown", f"segment {segment_id} is in no turn of the game"
    if words in compact(turn.text) or words in compact("".join(x.text for x in turn.segments or [])):
        return None
    return "evidence-not-in-source", f"{quote!r} is not in the turn holding segment {segment_id}"


def check_evidence(game: GameLog, idx: GameIndex, out: Sink) -> None:
    for i, e in enumerate(game.events):
        for j, ev in enumerate(e.evidence):
            where = path("events", i, "evidence", j)
            missing = quote_missing(ev.source, ev.segment_id, ev.quote, game.utterances, game.annotator_log, game.recap)
            if missing is not None:
                code, message = missing
                field = "segment_id" if code == "evidence-segment-unknown" else "quote"
                out.error(code, path(where, field), message + (f" (segments {idx.segment_range()})" if field == "segment_id" else ""))
