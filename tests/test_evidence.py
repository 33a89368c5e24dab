"""Every fact carries the words it was read from, and `validate` checks them against the source (issue 41).

Invented game (tests/validate_fixtures); no WereBench text."""

from __future__ import annotations

import validate_fixtures as fx
from werealign.validate import validate_game


def _with_evidence(evidence: list[dict], recap: str | None = "Good wins.", log: str | None = None) -> dict:
    g = fx.game()
    g["recap"], g["annotator_log"] = recap, log
    g["events"][0]["evidence"] = evidence
    return g


def _codes(g: dict) -> set[tuple[str, str]]:
    return {(f.code, f.field) for f in validate_game(g, "g1.json")}


def test_quotes_found_in_their_sources_are_clean():
    g = _with_evidence([{"source": "utterance", "segment_id": 1, "quote": "part 1 of"},
                        {"source": "utterance", "segment_id": 5, "quote": "turn 2  text"},  # whitespace aside; a turn without segments
                        {"source": "recap", "quote": "Good wins"},
                        {"source": "annotator_log", "quote": "seat 1 checked seat 6", "by": "correction"},
                        {"source": "release_field", "segment_id": 0, "quote": "utterances[0].sheriff = 1"}],
                       log="Night one: seat 1 checked seat 6, a wolf.")
    assert validate_game(g, "g1.json") == []


def test_a_quote_missing_from_its_source_is_an_error():
    g = _with_evidence([{"source": "recap", "quote": "seat 6 is a wolf"}])
    assert ("evidence-not-in-source", "events[0].evidence[0].quote") in _codes(g)
    g = _with_evidence([{"source": "annotator_log", "quote": "anything"}], log=None)
    assert ("evidence-not-in-source", "events[0].evidence[0].quote") in _codes(g)
    # the words are in the game, but not in the turn the segment names
    g = _with_evidence([{"source": "utterance", "segment_id": 1, "quote": "part 2 of turn 1"}])
    assert ("evidence-not-in-source", "events[0].evidence[0].quote") in _codes(g)
    g = _with_evidence([{"source": "utterance", "segment_id": 99, "quote": "part 1"}])
    assert ("evidence-segment-unknown", "events[0].evidence[0].segment_id") in _codes(g)
    assert all(f.severity == "error" for f in validate_game(g, "g1.json") if f.code.startswith("evidence"))
