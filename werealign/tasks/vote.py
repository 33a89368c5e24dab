"""Vote items (VA): the viewpoint player's actual day vote. Answer: one seat, or "abstain" where the game's
rules allow abstaining (item.abstention_allowed; a null gold is an abstention); score: exact-match accuracy."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from werealign.errors import UserError
from werealign.game.derivation import Deriving, Made, notes_about
from werealign.game.derive import SHARED_CODES, mvp_votes
from werealign.render.lines import phase_label, seat_list
from werealign.schema import GameLog, VoteItem
from werealign.schema.models import VOTE_PHASE_KINDS
from werealign.tasks.answers import one_seat_or_none
from werealign.schema.runs import VoteScores
from werealign.tasks.base import ItemChecks, Parsed, Sample, Scorer, Task
from werealign.tasks.checks import check_distinct_seats, check_seats_exist
from werealign.tasks.common import by_role, correct_value, counts, decode_std, mean_answered, mean_value, rounded


def question_vars(game: GameLog, item: VoteItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    seats = sorted(item.candidates)
    return {"candidates": seat_list(seats), "candidate_seats": seats, "vote_phase": phase_label(_phase(game, item), lang),
            "abstention_allowed": item.abstention_allowed}


# The answer value of an abstention (samples' `answer` and `gold`), and the words a reply may use for it
# (after NFKC and lower-casing), in either template language.
ABSTAIN = "abstain"
_ABSTAIN_WORDS = frozenset({"abstain", "abstained", "abstention", "no vote", "none", "弃票", "弃权", "棄票", "棄權"})


def gold(item: VoteItem, game: GameLog | None = None) -> int | str:
    return ABSTAIN if item.answer is None else item.answer


# How much of the voter's own speech the prompt shows (`werealign eval --mode vote=...`, alias `--va-mode`):
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


def parse(value: str, item: VoteItem, option_order: list[int] | None, game: GameLog | None = None) -> Parsed:
    return Parsed(*one_seat_or_none(value, item.candidates, item.abstention_allowed, _ABSTAIN_WORDS, ABSTAIN,
                                    "abstaining is not an option: the game's rules do not allow it"))


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


def derive(at: Deriving) -> Made:
    """VA items of one game: the MVP's annotated day votes, or the deciders' recorded ballots (werealign.game.derive,
    one pass with OI's); each vote dropped is listed."""
    made = at.shared(mvp_votes)
    return Made(made.vote, notes_about(made.notes, "va_", "vote_item", *SHARED_CODES), listed=True)


# --------------------------------------------------------------------------- validation (werealign.validate)
# The checks import werealign.validate when they run: it reads the registry, so not at import time.


def looks_like(row: dict[str, Any]) -> bool:
    return not isinstance(row.get("answer"), list) and ("phase" in row or "candidates" in row)


def check(item: VoteItem, out) -> None:

    check_distinct_seats(item.candidates, "candidates", out)
    if item.answer is None:
        if not item.abstention_allowed:
            out.error("abstention-not-allowed", "answer", "answer is null (the voter abstained) but abstention_allowed is false: the model could not give it")
    elif item.answer not in item.candidates:
        out.error("answer-not-candidate", "answer", f"answer {item.answer} is not among the candidates {item.candidates}")
    if item.viewpoint_seat in item.candidates:
        out.warning("viewpoint-in-candidates", "candidates", f"the voter (seat {item.viewpoint_seat}) is among the candidates")


def cutoff_phase(item: VoteItem, idx, out) -> str | None:
    """The vote's phase: the cut-off must lie in it."""

    phase = idx.phases.get(item.phase)
    if phase is None:
        out.error("unknown-phase", "phase", f"phase {item.phase!r} is not a phase of game {idx.game.game_id}")
        return None
    if phase.kind not in VOTE_PHASE_KINDS:
        out.error("vote-outside-day", "phase", f"a vote in {phase.kind} phase {phase.id}; votes happen by day or in the sheriff election")
    return phase.id


def check_refs(item: VoteItem, idx, out) -> None:

    check_seats_exist(item.candidates, "candidates", idx, out)
    if item.answer is not None:  # None: the voter abstained (checked against abstention_allowed)
        check_seats_exist([item.answer], "answer", idx, out)


SCORER = Scorer(
    metric="accuracy",
    score=score,
    results_models=(VoteScores,),
    # An item that allows abstaining has one more answer than its candidates.
    chance=lambda item, metric, game: (1 / (len(item.candidates) + item.abstention_allowed), 1),
    shortcuts=("own-last-call", "longest", "lexical"),
    label="VA",
    board_metrics=("accuracy",),
    always_shown=True,
    board_group="va-oi",
    card_text="VA: the seat {asked} voted for, at the cut-off before the vote",  # {asked}: the release card's who (werealign.release.card)
)

TASK = Task(
    name="vote",
    description="VA: whom the winning side's MVP voted for",
    item_model=VoteItem,
    variants=("base", "osr", "no-context", "options-only"),
    question_vars=question_vars,
    parse=parse,
    scorer=SCORER,
    gold=gold,
    answer_shape="seat",
    answer_forms=("<seat number>", "<座位号>"),
    context_kwargs=context_kwargs,
    modes=MODES,
    modes_about={"decision": "not the voter's own turns of the vote's day", "mask-mvp": "none of the voter's lines (release authors)",
                 "full": "everything up to the cut-off"},
    mode_alias="va",
    derive=derive,
    checks=ItemChecks(looks_like=looks_like, check=check, cutoff_phase=cutoff_phase, check_refs=check_refs,
                      same_question=lambda item: (item.game_id, item.viewpoint_seat, item.phase, item.cutoff_segment)),
)
