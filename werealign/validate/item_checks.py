"""Checks of items (speech, vote, opponent) and OSR rewrites: alone, and against their game."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from werealign.errors import UserError
from werealign.schema import OPTION_KEYS, OpponentItem, OsrRewrite, SpeechItem, VoteItem
from werealign.validate.findings import Sink, path
from werealign.validate.game_checks import VOTE_PHASE_KINDS, check_cutoff
from werealign.validate.index import GameIndex

Item = SpeechItem | VoteItem | OpponentItem
DISTRACTOR_ORIGINS = ("m1_role_perturbation", "m1_information_occlusion", "m1_faction_inversion", "m2_biased_rationale")


# --------------------------------------------------------------------------- one item alone


def check_item(item: Item, out: Sink) -> None:
    if isinstance(item, SpeechItem):
        check_speech_item(item, out)
    elif isinstance(item, VoteItem):
        check_vote_item(item, out)
    else:
        check_opponent_item(item, out)


def _norm(text: str) -> str:
    """Option text as a reader compares it: width, case, spacing, invisible format characters
    (a zero-width space makes no other option) and trailing punctuation and spaces ignored."""
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")
    return re.sub(r"\s+", " ", text).strip().rstrip("。.!！?？;； ").casefold()


def check_speech_item(item: SpeechItem, out: Sink) -> None:
    if not item.question.strip():
        out.error("empty-question", "question", "the question is blank")
    keys = [o.key for o in item.options]
    if keys != list(OPTION_KEYS):
        out.error("option-keys", "options", f"options must be keyed A..I once each, in order; found {''.join(keys)}")
    truths = [o.key for o in item.options if o.origin == "ground_truth"]
    answer = next((o for o in item.options if o.key == item.answer), None)
    if len(truths) > 1:
        out.error("multiple-correct", "options", f"options {', '.join(truths)} are all marked ground_truth; exactly one option is correct")
    elif truths and truths[0] != item.answer:
        out.error("answer-not-ground-truth", "answer", f"answer is {item.answer} but option {truths[0]} is the ground_truth option")
    elif answer is not None and answer.origin in DISTRACTOR_ORIGINS:
        out.error("answer-is-distractor", "answer", f"answer {item.answer} is a generated distractor ({answer.origin}), not the ground truth")

    first: dict[str, int] = {}
    for j, o in enumerate(item.options):
        where = path("options", j, "text")
        if not o.text.strip():
            out.error("empty-option", where, f"option {o.key} is blank")
            continue
        norm = _norm(o.text)
        if norm in first:
            other = item.options[first[norm]]
            if item.answer in (o.key, other.key):
                out.error("duplicate-option", where, f"option {o.key} has the same text as option {other.key}, one of them the answer: the item has two right answers")
            else:
                out.warning("duplicate-option", where, f"option {o.key} repeats option {other.key}; replace one distractor")
        first.setdefault(norm, j)


def _duplicates(seats: Sequence[int], field: str, out: Sink) -> None:
    seen: set[int] = set()
    for j, s in enumerate(seats):
        if s in seen:
            out.error("duplicate-seat", path(field, j), f"seat {s} is listed twice")
        seen.add(s)


def check_vote_item(item: VoteItem, out: Sink) -> None:
    _duplicates(item.candidates, "candidates", out)
    if item.answer is None:
        if not item.abstention_allowed:
            out.error("abstention-not-allowed", "answer", "answer is null (the voter abstained) but abstention_allowed is false: the model could not give it")
    elif item.answer not in item.candidates:
        out.error("answer-not-candidate", "answer", f"answer {item.answer} is not among the candidates {item.candidates}")
    if item.viewpoint_seat in item.candidates:
        out.warning("viewpoint-in-candidates", "candidates", f"the voter (seat {item.viewpoint_seat}) is among the candidates")


def check_opponent_item(item: OpponentItem, out: Sink) -> None:
    _duplicates(item.candidates, "candidates", out)
    _duplicates(item.answer, "answer", out)
    outside = [s for s in item.answer if s not in item.candidates]
    if outside:
        out.error("answer-not-candidate", "answer", f"answer seat(s) {outside} are not among the candidates {item.candidates}")
    if item.viewpoint_seat in item.answer:
        out.error("viewpoint-in-answer", "answer", f"the viewpoint seat {item.viewpoint_seat} cannot be its own opponent")
    if list(item.answer) != sorted(item.answer):
        out.warning("answer-not-sorted", "answer", f"answer seats should be ascending: {sorted(item.answer)}")


# --------------------------------------------------------------------------- against the game


def check_item_refs(item: Item, idx: GameIndex, out: Sink) -> None:
    game = idx.game
    if item.language != game.language:
        out.warning("language-mismatch", "language", f"item is {item.language!r} but game {game.game_id} is {game.language!r}")
    # A speech item with no viewpoint seat is an observer item (public information only): no seat to check.
    if item.viewpoint_seat is not None and item.viewpoint_seat not in idx.seats:
        out.error("viewpoint-not-seat", "viewpoint_seat", f"viewpoint seat {item.viewpoint_seat} is not a seat of game {game.game_id} (seats {idx.seat_range()})")
    phase_id = None
    if isinstance(item, VoteItem):
        phase = idx.phases.get(item.phase)
        if phase is None:
            out.error("unknown-phase", "phase", f"phase {item.phase!r} is not a phase of game {game.game_id}")
        else:
            phase_id = phase.id
            if phase.kind not in VOTE_PHASE_KINDS:
                out.error("vote-outside-day", "phase", f"a vote in {phase.kind} phase {phase.id}; votes happen by day or in the sheriff election")
    check_cutoff(idx, item.cutoff_segment, phase_id, "cutoff_segment", out)
    if isinstance(item, (VoteItem, OpponentItem)):
        _seats_exist(item.candidates, "candidates", idx, out)
        answers = [item.answer] if isinstance(item, VoteItem) else item.answer
        _seats_exist(answers, "answer", idx, out)
    if isinstance(item, OpponentItem) and item.viewpoint_seat in idx.seats:
        _check_opponents(item, idx, out)
    if isinstance(item, SpeechItem) and (item.viewpoint_seat is None or item.viewpoint_seat in idx.seats):
        _check_stem(item, idx, out)


def _check_stem(item: SpeechItem, idx: GameIndex, out: Sink) -> None:
    """The stem a prompt shows (the sanitised one when the item has it) must not tell the viewpoint what it
    could not know at the cut-off: one implementation with `werealign audit` (werealign.audit.stem_leaks)."""
    from werealign.audit import hidden_text_index, stem_leaks  # the audit imports this module

    if idx.hidden_text is None:
        idx.hidden_text = hidden_text_index(idx.game)
    field = "question_short" if item.question_short else "question"
    try:
        reasons = stem_leaks(idx.game, item, idx.hidden_text, stem=item.question_short or item.question)
    except UserError:  # a cut-off or seat the other checks already report
        return
    for why in reasons:
        out.warning("stem-leak", field, f"the stem shown to the model {why}; sanitise it (question_short)")


def _seats_exist(seats: Sequence[int], field: str, idx: GameIndex, out: Sink) -> None:
    bad = [s for s in seats if s not in idx.seats]
    if bad:
        out.error("not-a-seat", field, f"seat(s) {bad} are not seats of game {idx.game.game_id} (seats {idx.seat_range()})")


def _check_opponents(item: OpponentItem, idx: GameIndex, out: Sink) -> None:
    """The answer should be exactly the opposing faction; only decidable between good and wolf."""
    mine = idx.seats[item.viewpoint_seat]
    other = {"good": "wolf", "wolf": "good"}.get(mine)
    if other is None:
        return
    expected = {s for s, f in idx.seats.items() if f == other}
    allies = sorted(s for s in item.answer if idx.seats.get(s) == mine)
    missing = sorted(expected - set(item.answer))
    if allies:
        out.warning("answer-faction-mismatch", "answer", f"answer names seat(s) {allies} of the viewpoint's own faction ({mine})")
    if missing:
        out.warning("answer-faction-mismatch", "answer", f"answer leaves out {other} seat(s) {missing}")


# --------------------------------------------------------------------------- duplicates across items


def item_key(item: Item) -> tuple:
    """What makes two items the same question, whatever their ids."""
    if isinstance(item, SpeechItem):
        return ("speech", item.game_id, item.dimension, item.viewpoint_seat, item.cutoff_segment,
                _norm(item.question), tuple(sorted(_norm(o.text) for o in item.options)))
    if isinstance(item, VoteItem):
        return ("vote", item.game_id, item.viewpoint_seat, item.phase, item.cutoff_segment)
    return ("opponent", item.game_id, item.viewpoint_seat, item.cutoff_segment)


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
