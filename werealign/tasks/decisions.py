"""Decision kinds (issue 31): the seer's check, the guard's protection, the witch's save and poison, the wolves'
kill and every player's day ballot. One family, one shape (werealign.schema.decisions.DecisionItem): the answer
is one legal seat, or "none" where not acting is legal; score: exact-match accuracy, with the MVP's decisions
and the winning side's as their own slices.

Floors (`truth_floors`, werealign.tasks.decision_floors): the most accused seat, the seat the viewpoint last named,
the public consensus so far and the same move as last time, each a policy over what the prompt shows; chance is
the random legal move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from werealign.game.announcements import result_shown
from werealign.game.decisions import SHARED_CODES, decisions_of
from werealign.game.derivation import DeriveNote, Deriving, Made
from werealign.render.lines import phase_label, seat_list
from werealign.render.phrases import every_family, investigators, night_killers
from werealign.schema import GameLog
from werealign.schema.decisions import DECISION_MODELS, MVP_MARK, DecisionItem
from werealign.tasks import vote
from werealign.tasks.answers import one_seat_or_none
from werealign.tasks.base import ItemChecks, Parsed, Sample, Scorer, Task
from werealign.tasks.checks import check_distinct_seats, check_seats_exist
from werealign.tasks.common import correct_value, mean_value, rounded

NONE = "none"
# What a reply may say for not acting (after NFKC and lower-casing), in either template language.
_NONE_WORDS = frozenset({"none", "no", "nobody", "no one", "skip", "pass", "no save", "no poison", "abstain", "abstention",
                         "无", "不", "空", "不救", "不用", "不毒", "不使用", "撕毁", "撕警徽", "不上", "不上警", "tear", "tear up", "torn", "弃票", "弃权", "放弃", "棄票", "棄權"})


def question_vars(game: GameLog, item: DecisionItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    phase = next((p for p in game.phases if p.id == item.phase), None)
    seats = sorted(item.candidates)
    return {"candidates": seat_list(seats), "candidate_seats": seats, "decision_phase": phase_label(phase, lang),
            "none_allowed": item.none_allowed, "about": item.about, "vote_round": item.round or 1}


def gold(item: DecisionItem, game: GameLog | None = None) -> int | str:
    return NONE if item.answer is None else item.answer


def parse(value: str, item: DecisionItem, option_order: list[int] | None, game: GameLog | None = None) -> Parsed:
    return Parsed(*one_seat_or_none(value, item.candidates, item.none_allowed, _NONE_WORDS, NONE, "'none' is not a legal move here"))


def score(samples: Sequence[Sample]) -> dict[str, Any]:
    """VA's scores, and the MVP's own decisions as a slice of the same samples (None: no MVP decision asked)."""
    mvp = [s for s in samples if s["item_id"].endswith(MVP_MARK)]
    return {**vote.SCORER.score(samples), "mvp_accuracy": rounded(mean_value(mvp, correct_value)), "mvp_items": len({s["item_id"] for s in mvp})}


def context_kwargs(game: GameLog, item: DecisionItem, mode: str | None) -> dict[str, Any]:
    cut = {"cutoff_chars": item.cutoff_chars} if item.cutoff_chars is not None else {}  # the call shown, not the result
    if item.decision not in ("ballot", "sheriff_ballot"):
        return cut
    # The ballot is VA's question asked of every voter, at VA's default (`decision`): the voter's own ballot and
    # own turns of the day are withheld.
    return {**vote.context_kwargs(game, item, "decision"), **cut}


def check(item: DecisionItem, out) -> None:
    check_distinct_seats(item.candidates, "candidates", out)
    if item.answer is None and not item.none_allowed:
        out.error("none-not-allowed", "answer", "answer is null (the player did not act) but none_allowed is false: the model could not give it")
    elif item.answer is not None and item.answer not in item.candidates:
        out.error("answer-not-candidate", "answer", f"answer {item.answer} is not among the candidates {item.candidates}")


def cutoff_phase(item: DecisionItem, idx, out) -> str | None:
    if item.phase not in idx.phases:
        out.error("unknown-phase", "phase", f"phase {item.phase!r} is not a phase of game {idx.game.game_id}")
    return None  # a night move is asked at its night's first segment, or before it when the night has none


def check_refs(item: DecisionItem, idx, out) -> None:
    check_seats_exist(item.candidates, "candidates", idx, out)
    if item.answer is not None:
        check_seats_exist([item.answer], "answer", idx, out)
    told = result_shown(idx.game, item)
    if told is not None:
        out.error("key-announced", "cutoff_segment", f"the prompt shows the decision's result: {told}")


def truth_floors(asked: Sequence[tuple[GameLog, Any]], metric: str) -> dict[str, float | None]:
    from werealign.tasks.decision_floors import floor_scores  # builds contexts: loaded when floors are computed

    return floor_scores(asked, context_kwargs)


DESCRIPTIONS = {
    "seer_check": ("whom {investigator} checked that night", "<seat to check>", "<查验座位号>"),
    "guard_protect": ("whom the guard protected that night", "<seat to protect>", "<守护座位号>"),
    "witch_save": ("whether the witch used her antidote on the night's victim", "<seat to save or none>", "<救的座位号或不救>"),
    "witch_poison": ("whom the witch poisoned, or nobody", "<seat to poison or none>", "<毒的座位号或不毒>"),
    "wolf_kill": ("whom {killers} killed that night, asked of one of them", "<seat to kill>", "<击杀座位号>"),
    "ballot": ("whom each player voted for by day (abstaining where allowed)", "<seat to vote for>", "<投票座位号>"),
    "sheriff_run": ("whether each player stood for sheriff", "<your seat to run or none>", "<上警答自己座位号，否则答无>"),
    "sheriff_ballot": ("whom each player voted for as sheriff", "<seat to elect>", "<警长投票座位号>"),
    "badge": ("to whom the outgoing sheriff passed the badge, or tore it up", "<seat to pass the badge to or none>", "<移交警徽座位号或撕毁>"),
}


def describe(kind: str, words: list[dict[str, str]]) -> str:
    """A decision kind's one line in the words of the games' families (`terms` of each; issue 45: a Mafia card says
    'the mafia'); `werealign list`, about no one game, names every family's."""
    return "decision: " + DESCRIPTIONS[kind][0].format(killers=night_killers(words), investigator=investigators(words))


# A note of the decisions' pass about more kinds than its code's: a conflicting kill record stops the witch's items too.
_ALSO = {"wolf_kill_conflict": ("witch_save", "witch_poison")}


def notes_of(kind: str, notes: Sequence[DeriveNote]) -> list[DeriveNote]:
    """The notes of the decisions' pass (werealign.game.decisions) about one kind: its code starts with the kind's name
    (a move of any `*_protect` skill is the guard's kind), it is about the whole pass, or it made one of the kind's items."""
    return [n for n in notes if n.code.startswith(kind + "_") or n.code in SHARED_CODES or kind in _ALSO.get(n.code, ())
            or (kind == "guard_protect" and n.code.endswith("_protect_actor_out"))
            or (n.kind == "converted" and n.why.startswith(f"items/{kind}.jsonl "))]


def derive_of(kind: str) -> Callable[[Deriving], Made]:
    """How the decision kind `kind` is derived: its part of the one pass over the game's events (Deriving.shared)."""
    def derive(at: Deriving) -> Made:
        made = at.shared(decisions_of)
        return Made(list(made.items.get(kind, ())), notes_of(kind, made.notes))

    return derive


def _task(kind: str) -> Task:
    _, en_form, zh_form = DESCRIPTIONS[kind]
    model = DECISION_MODELS[kind]
    return Task(
        name=kind,
        description=describe(kind, every_family()),
        item_model=model,
        variants=("base", "osr", "no-context", "options-only"),
        question_vars=question_vars,
        parse=parse,
        scorer=SCORER,
        gold=gold,
        answer_shape="seat",
        answer_forms=(en_form, zh_form),
        context_kwargs=context_kwargs,
        derive=derive_of(kind),
        checks=ItemChecks(looks_like=lambda row, kind=kind: row.get("decision") == kind, check=check, cutoff_phase=cutoff_phase,
                          check_refs=check_refs,
                          same_question=lambda item: (item.game_id, item.viewpoint_seat, item.phase, item.round, item.cutoff_segment)),
    )


# Every decision kind is scored alike; the leaderboard adds their macro, `decisions`: each kind's skill over its best
# floor, (accuracy - floor) / (1 - floor), averaged.
SCORER = Scorer(
    metric="accuracy",
    score=score,
    shortcuts=("own-last-call", "lexical"),
    chance=lambda item, metric, game: (1 / (len(item.candidates) + item.none_allowed), 1),
    truth_floors=truth_floors,
    macro_group="decisions",
    macro_over_floor=True,  # issue 42: a kind answered by a constant or a rule cannot lift the headline
)

TASKS: tuple[Task, ...] = tuple(_task(kind) for kind in DECISION_MODELS)
