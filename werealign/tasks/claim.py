"""The claim decision (issue 31): at a player's turn, do they claim a role now, and which? One kind with both legs:
the options are "no claim" and every role on the board (option A is always "no claim", then the roles in catalogue
order: a fixed order, no permutation); the key is what the turn claimed (werealign.game.claims reads it). Scored by
exact match, with the first leg alone (`claimed_accuracy`: claim or not, whatever the role) and the MVP's turns as
their own slices.

Floors (`truth_floors`): `never` (no claim), `majority-so-far` (the move most earlier turns of the game made),
`last-claimed` (the role the game's last claim before the turn named; none before any claim), `own-role` (claim
one's own role, which the prompt tells) and `learned` (issue 42: a classifier over shallow features of the shown
turns, games held out). Chance: a uniform option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from werealign.render.lines import phase_label
from werealign.render.phrases import role_name
from werealign.schema import OPTION_KEYS, GameLog
from werealign.schema.decisions import MVP_MARK, ClaimItem
from werealign.schema.models import WITHDREW
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
    """The floors, each a policy over the turns the prompt shows (earlier turns of the game, read by the claim reader),
    and the learned shallow floors (werealign.tasks.learned_floor) over each option's features: the viewpoint's own
    role and side (the prompt tells them), what earlier turns claimed, how often the shown turns (its own, the last
    three, all) name the role, whether it stood for sheriff, the phase, the day, the turn's place in it."""
    import re

    from werealign.game.claims import ClaimReader, claim_turns
    from werealign.tasks.learned_floor import LEARNERS, OptionRows, learned_floors

    names = ("never", "majority-so-far", "last-claimed", "own-role", *LEARNERS)
    if not asked:
        return {name: None for name in names}
    turns, words = {}, {}
    values: dict[str, list[float]] = {name: [] for name in names[:-len(LEARNERS)]}
    rows: list[OptionRows] = []
    for game, item in asked:
        if game.game_id not in turns:
            turns[game.game_id] = claim_turns(game)
            names = ClaimReader(game).names
            pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.I)
            words[game.game_id] = {u.index: Counter(names[m.group(0).lower()] for m in pattern.finditer(u.text)) for u, _ in turns[game.game_id]}
        shown = [(u, role) for u, role in turns[game.game_id] if u.segment_ids[-1] <= item.cutoff_segment]
        before = [role for _, role in shown]
        key = gold(item)
        moves = Counter(role or NONE for role in before)
        majority = max(sorted(moves), key=lambda m: (moves[m], m == NONE)) if moves else NONE  # ties: no claim
        last = next((role for role in reversed(before) if role is not None), None) or NONE
        own = next((s.role for s in game.seats if s.seat == item.viewpoint_seat), None)
        for name, pick in (("never", NONE), ("majority-so-far", majority), ("last-claimed", last), ("own-role", own if own in item.candidates else NONE)):
            values[name].append(float(pick == key))
        claimed = Counter(role for role in before if role is not None)
        mine = sum(1 for u, _ in shown if u.speaker == item.viewpoint_seat)
        in_phase = sum(1 for u, _ in shown if u.phase == item.phase)
        kind = next((p.kind for p in game.phases if p.id == item.phase), "")
        day = next((p.day for p in game.phases if p.id == item.phase), 0)
        opts = _keys(item)
        wolf = float(catalogue_for(game.rules.declared_roles).faction(own) == "wolf") if own else 0.0
        ran = float(any(e.kind == "sheriff_run" and e.actor == item.viewpoint_seat and e.result != WITHDREW and e.audience.kind == "everyone"
                        and e.segment_id is not None and e.segment_id <= item.cutoff_segment for e in game.events))
        said = words[game.game_id]
        named = [sum((said[u.index] for u, _ in ts), Counter())
                 for ts in ([t for t in shown if t[0].speaker == item.viewpoint_seat], shown[-3:], shown)]
        rows.append(OptionRows(game.game_id, [[
            float(o == NONE), float(o == own), float(o == "seer"), float(claimed.get(o, 0)), float(o == last), float(o == majority),
            float(o == NONE) * mine, float(o == NONE) * in_phase, float(o == NONE and kind == "sheriff_election"), float(o == NONE) * day,
            float(o == own) * mine, float(o == own and kind == "sheriff_election"), float(o == "seer" and sum(claimed.values()) == 0),
            *(float(n[o]) for n in named), float(o == own) * ran, float(o == NONE) * ran, float(o == "seer") * wolf, float(o == NONE) * wolf,
            float(o == NONE) * sum(claimed.values()),
        ] for o in opts], opts.index(key)))
    return {**{name: rounded(fmean(v)) for name, v in values.items()}, **learned_floors(rows)}


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
