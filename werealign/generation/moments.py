"""Where items are asked: the MVP's highlighted moments, each with its cut-off and the MVP's actual next move.

The cut-off is the last segment before the MVP's turn at (or right after) the highlight, so the
question is asked just before the decisive move; the move itself (that turn and the MVP's own
actions anchored in it) is what the key paraphrases. A game without an MVP or highlights, or a
highlight with no MVP turn after it, gives no moment, with the reason said.
"""

from __future__ import annotations

from dataclasses import dataclass

from werealign.render.lines import event_line, seat_label
from werealign.schema import GameLog


@dataclass(frozen=True)
class Moment:
    game_id: str
    seat: int
    cutoff_segment: int
    highlight_segment: int
    kind: str
    next_move: str  # the MVP's turn and own actions right after the cut-off: hidden from the question


def find_moments(game: GameLog) -> tuple[list[Moment], list[str]]:
    """(moments, reasons for highlights that give none), in highlight order, one per distinct cut-off."""
    if game.mvp is None:
        return [], [f"game {game.game_id}: no MVP, so no viewpoint to ask from"]
    if not game.highlights:
        return [], [f"game {game.game_id}: the MVP has no highlights"]
    seat = game.mvp.seat
    all_segments = sorted({s for u in game.utterances for s in u.segment_ids})
    moments: list[Moment] = []
    skipped: list[str] = []
    for h in sorted(game.highlights, key=lambda h: h.segment_id):
        turn = next((u for u in game.utterances if u.speaker == seat and max(u.segment_ids) >= h.segment_id), None)
        if turn is None:
            skipped.append(f"game {game.game_id}: highlight at segment {h.segment_id}: the MVP says nothing at or after it")
            continue
        before = [s for s in all_segments if s < min(turn.segment_ids)]
        if not before:
            skipped.append(f"game {game.game_id}: highlight at segment {h.segment_id}: the MVP's turn opens the game, nothing to ask before it")
            continue
        cutoff = before[-1]
        if any(m.cutoff_segment == cutoff for m in moments):
            continue
        actions = [event_line(e, None, game.language) for e in game.events
                   if e.actor == seat and e.segment_id is not None and cutoff < e.segment_id <= max(turn.segment_ids)]
        move = "\n".join([f"{seat_label(seat, game.language)}: {turn.text}", *actions])
        moments.append(Moment(game.game_id, seat, cutoff, h.segment_id, h.kind, move))
    return moments, skipped
