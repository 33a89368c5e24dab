"""The claim decision (issue 31): at a player's turn, do they claim a role now, and which? One kind with both legs:
the options are "no claim" and every role on the board (option A is always "no claim", then the roles in catalogue
order: a fixed order, no permutation); the key is what the turn claimed (werealign.game.claims reads it). Scored by
exact match, with the first leg alone (`claimed_accuracy`: claim or not, whatever the role) and the MVP's turns as
their own slices.

Floors (`truth_floors`, werealign.tasks.claim_floors): `never` (no claim), `majority-so-far`, `last-claimed`,
`own-role`, the rules a player would use (issue 42: `repeat-own`, `said-of-me`, `own-if-accused`, ...) and the
learned floors (classifiers over shallow features of the shown turns, games held out). Chance: a uniform option.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from werealign.render.lines import phase_label
from werealign.render.phrases import role_name
from werealign.schema import OPTION_KEYS, GameLog
from werealign.schema.decisions import MVP_MARK, ClaimItem
from werealign.schema.roles import catalogue_for
from werealign.tasks import vote
from werealign.tasks.base import ItemChecks, Parsed, Sample, Scorer, Task
from werealign.tasks.common import correct_value, mean_value, rounded
from werealign.tasks.decisions import derive_of
from werealign.tasks.speech import option_shown

NONE = "none"
_NO_CLAIM = {"en": "I claim no role in this turn", "zh": "本轮发言不起跳（不报身份）"}


def _keys(item: ClaimItem) -> list[str]:
    return [NONE, *item.candidates]


def question_vars(game: GameLog, item: ClaimItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    catalogue = catalogue_for(game.rules.declared_roles)
    texts = [_NO_CLAIM.get(lang, _NO_CLAIM["en"]), *(role_name(r, lang, catalogue) for r in item.candidates)]
    phase = next((p for p in game.phases if p.id == item.phase), None)
    return {"options": [{"key": OPTION_KEYS[i], "text": t} for i, t in enumerate(texts)], "decision_phase": phase_label(phase, lang),
            "question": ""}


def parse(value: str, item: ClaimItem, option_order: list[int] | None, game: GameLog | None = None) -> Parsed:
    shown, error = option_shown(value, len(_keys(item)))
    return Parsed(None, error) if shown is None else Parsed(_keys(item)[shown], None)


def gold(item: ClaimItem, game: GameLog | None = None) -> str:
    return item.answer or NONE


def _claimed_right(sample: Sample) -> float:
    """The first leg alone: claimed or not, as the key did (an unparsed reply counts as wrong)."""
    if sample.get("answer") is None:
        return 0.0
    return float((sample["answer"] == NONE) == (sample["gold"] == NONE))


def score(samples: Sequence[Sample]) -> dict[str, Any]:
    mvp = [s for s in samples if s["item_id"].endswith(MVP_MARK)]
    return {**vote.score(samples), "claimed_accuracy": rounded(mean_value(samples, _claimed_right)),
            "mvp_accuracy": rounded(mean_value(mvp, correct_value)),
            "mvp_items": len({s["item_id"] for s in mvp})}


def check(item: ClaimItem, out) -> None:
    if len(set(item.candidates)) != len(item.candidates):
        out.error("duplicate-candidates", "candidates", f"candidates {item.candidates} name a role twice")
    if len(_keys(item)) > len(OPTION_KEYS):
        out.error("too-many-roles", "candidates", f"{len(item.candidates)} roles and 'no claim' do not fit the options A-{OPTION_KEYS[-1]}")
    if item.answer is not None and item.answer not in item.candidates:
        out.error("answer-not-candidate", "answer", f"answer {item.answer!r} is not among the candidates {item.candidates}")


def cutoff_phase(item: ClaimItem, idx, out) -> str | None:
    if item.phase not in idx.phases:
        out.error("unknown-phase", "phase", f"phase {item.phase!r} is not a phase of game {idx.game.game_id}")
    return None


def truth_floors(asked: Sequence[tuple[GameLog, Any]], metric: str) -> dict[str, float | None]:
    """The rules over the shown turns and the learned shallow floors (werealign.tasks.claim_floors)."""
    from werealign.tasks.claim_floors import truth_floors as floors  # builds contexts: loaded when floors are computed

    return floors(asked, _keys, gold, TASK.context_kwargs)


TASK = Task(
    name="claim",
    description="decision: whether a player claims a role at their turn, and which",
    item_model=ClaimItem,
    variants=("base", "osr", "no-context", "options-only"),
    question_vars=question_vars,
    parse=parse,
    scorer=Scorer(
        metric="accuracy",
        score=score,
        shortcuts=("own-last-call", "lexical"),
        chance=lambda item, metric, game: (1 / len(_keys(item)), 1),
        truth_floors=truth_floors,
        macro_group="decisions",  # one of the decision kinds: in their macro column
        macro_over_floor=True,
    ),
    gold=gold,
    answer_shape="option",
    answer_forms=("<letter of your move>", "<你的选择的字母>"),
    derive=derive_of("claim"),  # read in the decisions' pass (werealign.game.claims finds the claims)
    checks=ItemChecks(looks_like=lambda row: row.get("decision") == "claim", check=check, cutoff_phase=cutoff_phase,
                      same_question=lambda item: (item.game_id, item.viewpoint_seat, item.turn)),
)
