"""Checks of items and OSR rewrites: alone, and against their game.

What is common to every item is checked here; what is particular to a kind, by its task
(werealign.tasks: `check`, `cutoff_phase`, `check_refs`, `same_question`), with the helpers below.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from werealign.game.knowledge import missing_knowledge
from werealign.schema import OsrRewrite
from werealign.tasks import task_of
from werealign.validate.findings import Sink
from werealign.validate.game_checks import check_cutoff
from werealign.validate.index import GameIndex
from werealign.tasks.checks import check_distinct_seats, check_seats_exist  # noqa: F401 - re-exported: validate's own users
from werealign.text.norm import norm_text  # noqa: F401 - re-exported: validate's own users

Item = BaseModel  # an item of any registered task


# --------------------------------------------------------------------------- one item alone


def check_item(item: Item, out: Sink) -> None:
    task_of(item).checks.check(item, out)


# --------------------------------------------------------------------------- against the game


def check_item_refs(item: Item, idx: GameIndex, out: Sink) -> None:
    game = idx.game
    task = task_of(item)
    if item.language != game.language:
        out.warning("language-mismatch", "language", f"item is {item.language!r} but game {game.game_id} is {game.language!r}")
    # An item with no viewpoint seat is an observer item (public information only): no seat to check.
    if item.viewpoint_seat is not None and item.viewpoint_seat not in idx.seats:
        out.error("viewpoint-not-seat", "viewpoint_seat", f"viewpoint seat {item.viewpoint_seat} is not a seat of game {game.game_id} (seats {idx.seat_range()})")
    check_cutoff(idx, item.cutoff_segment, task.checks.cutoff_phase(item, idx, out), "cutoff_segment", out)
    task.checks.check_refs(item, idx, out)
    _check_knowledge_missing(item, idx, out)


def _check_knowledge_missing(item: Item, idx: GameIndex, out: Sink) -> None:
    """`knowledge_missing` must say what the game lacks (werealign.game.knowledge): an item claiming completeness its
    viewpoint lacks would enter the faithful split; one naming facts the game holds would be left out for nothing."""
    if "knowledge_missing" not in type(item).model_fields or item.viewpoint_seat not in idx.seats:
        return
    expected = missing_knowledge(idx.game, item.viewpoint_seat, item.cutoff_segment)
    if expected != item.knowledge_missing:
        said = ", ".join(f"{f.night} {f.fact}" for f in item.knowledge_missing) or "nothing"
        lacks = ", ".join(f"{f.night} {f.fact}" for f in expected) or "nothing"
        out.warning("knowledge-missing-stale", "knowledge_missing",
                    f"the item says its viewpoint lacks {said}, but game {idx.game.game_id} lacks {lacks}; "
                    "rewrite the dataset (any werealign command that writes it recomputes the field)")


# --------------------------------------------------------------------------- duplicates across items


def item_key(item: Item) -> tuple:
    """What makes two items the same question, whatever their ids (its task says)."""
    task = task_of(item)
    return (task.name, *task.checks.same_question(item))


def check_duplicate_items(rows: Sequence[tuple[Item, Sink]]) -> None:
    """Duplicate ids are errors (ids key responses and scores); duplicate content is a warning."""
    ids: dict[str, Sink] = {}
    contents: dict[tuple, tuple[Item, Sink]] = {}
    for item, out in rows:
        prev = ids.get(item.item_id)
        if prev is not None:
            out.error("duplicate-item-id", "item_id", f"item id {item.item_id} is already used at {_where(prev)}")
        else:
            ids[item.item_id] = out
        key = item_key(item)
        if key in contents:
            other, other_out = contents[key]
            if other.item_id != item.item_id:
                out.warning("duplicate-item", "", f"same question as item {other.item_id} ({_where(other_out)})")
        else:
            contents[key] = (item, out)


def _where(out: Sink) -> str:
    return f"{out.file}:{out.line}" if out.line is not None else out.file


# --------------------------------------------------------------------------- OSR rewrites


def check_osr(rows: Sequence[tuple[OsrRewrite, Sink]], game_id: str, idx: GameIndex | None, file_out: Sink) -> None:
    """Rewrites of variants/osr/<game_id>.jsonl: one per utterance, same segments as the original turn."""
    seen: dict[int, Sink] = {}
    for rw, out in rows:
        if rw.game_id != game_id:
            out.error("osr-game-id", "game_id", f"game_id {rw.game_id!r} differs from the file name ({game_id}.jsonl)")
        if not rw.text.strip():
            out.error("osr-empty-text", "text", f"rewrite of turn {rw.utterance_index} is blank")
        if rw.utterance_index in seen:
            out.error("osr-duplicate", "utterance_index", f"turn {rw.utterance_index} is rewritten again (first at {_where(seen[rw.utterance_index])})")
            continue
        seen[rw.utterance_index] = out
        if idx is None:
            continue
        if rw.utterance_index >= len(idx.game.utterances):
            out.error("osr-unknown-utterance", "utterance_index",
                      f"game {game_id} has no turn {rw.utterance_index} (turns 0..{len(idx.game.utterances) - 1})")
        elif rw.segment_ids != idx.game.utterances[rw.utterance_index].segment_ids:
            out.error("osr-segment-mismatch", "segment_ids",
                      f"segment ids differ from turn {rw.utterance_index} of game {game_id}; a rewrite must cover the same segments")
    if idx is not None:
        # Host turns are procedure, not speech; a rewrite set may leave them out.
        missing = [u.index for u in idx.game.utterances if u.speaker != "host" and u.index not in seen]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            file_out.warning("osr-missing-utterance", "", f"{len(missing)} player turn(s) of game {game_id} have no rewrite: {shown}")
