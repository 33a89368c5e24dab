"""Vote items (VA): the viewpoint player's actual day vote. Answer: one seat, or "abstain" where the game's
rules allow abstaining (item.abstention_allowed; a null gold is an abstention); score: exact-match accuracy."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from werealign import context as ctxmod
from werealign.errors import UserError
from werealign.schema import GameLog, VoteItem
from werealign.tasks.answers import read_seat, seat_value, short
from werealign.tasks.base import Parsed, Sample, Task
from werealign.tasks.common import by_role, correct_value, counts, decode_std, mean_answered, mean_value, rounded, seat_list


def question_vars(game: GameLog, item: VoteItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    return {"candidates": seat_list(sorted(item.candidates)), "vote_phase": ctxmod.phase_label(_phase(game, item), lang),
            "abstention_allowed": item.abstention_allowed}


# The answer value of an abstention (samples' `answer` and `gold`), and the words a reply may use for it
# (after NFKC and lower-casing), in either template language.
ABSTAIN = "abstain"
_ABSTAIN_WORDS = frozenset({"abstain", "abstained", "abstention", "no vote", "none", "弃票", "弃权", "棄票", "棄權"})


def gold(item: VoteItem) -> int | str:
    return ABSTAIN if item.answer is None else item.answer


# How much of the voter's own speech the prompt shows (`werealign eval --va-mode`):
# decision: the vote is asked where the player must decide: its own turns of the vote's day are withheld
#   (its own "归票，2号" would hand it the answer); what it knew from its role and nights stays;
# mask-mvp: every line of the voter (the MVP) is withheld, the WereBench release authors' protocol;
# full: everything said up to the cut-off, the voter's own calls of the day included.
MODES: tuple[str, ...] = ("decision", "mask-mvp", "full")


def context_kwargs(game: GameLog, item: VoteItem, mode: str | None) -> dict[str, Any]:
    # The viewpoint's own ballot of the asked phase is the answer: it is never shown.
    kw: dict[str, Any] = {"exclude_own_vote_phase": item.phase, "exclude_own_vote_round": item.round}
    if mode == "mask-mvp":
        kw["withhold_own_turns_from_day"] = 0
    elif mode in (None, "decision"):
        kw["withhold_own_turns_from_day"] = _phase(game, item).day
    return kw


def _phase(game: GameLog, item: VoteItem):
    phase = next((p for p in game.phases if p.id == item.phase), None)
    if phase is None:
        raise UserError(f"item {item.item_id}: phase '{item.phase}' is not a phase of game {game.game_id}")
    return phase


def parse(value: str, item: VoteItem, option_order: list[int] | None) -> Parsed:
    value = seat_value(value)
    if not value:
        return Parsed(None, "answer line is empty")
    if value.strip().strip(".。").lower() in _ABSTAIN_WORDS:
        if not item.abstention_allowed:
            return Parsed(None, "abstaining is not an option: the game's rules do not allow it")
        return Parsed(ABSTAIN, None)
    seat = read_seat(value)
    if seat is None:
        return Parsed(None, f"answer '{short(value)}' is not one seat number")
    if seat not in item.candidates:
        return Parsed(None, f"seat {seat} is not a candidate")
    return Parsed(seat, None)


def score(samples: Sequence[Sample]) -> dict[str, Any]:
    per_decode, std = decode_std(samples, partial(mean_value, value=correct_value))
    return {
        "metric": "accuracy",
        "accuracy": rounded(mean_value(samples, correct_value)),
        "accuracy_answered": rounded(mean_answered(samples, correct_value)),
        "accuracy_std": std,
        "per_decode_accuracy": per_decode,
        "by_viewpoint_role": by_role(samples, correct_value),
        **counts(samples),
    }


TASK = Task(
    name="vote",
    item_model=VoteItem,
    variants=("base", "osr"),
    metric="accuracy",
    question_vars=question_vars,
    parse=parse,
    score=score,
    gold=gold,
    context_kwargs=context_kwargs,
    modes=MODES,
)
