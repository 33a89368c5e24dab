"""Speech items: single-answer 9-way multiple choice on one of five dimensions (RI SJ DR PS CT).

Answer: one option letter; the options may be shown in a per-decode order and the answer is mapped back
to the ORIGINAL option key. Score: accuracy per dimension and their unweighted mean (`macro_accuracy`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from werealign.errors import UserError
from werealign.schema import DIMENSIONS, OPTION_KEYS, GameLog, SpeechItem
from werealign.tasks.answers import short
from werealign.schema.runs import SpeechScores
from werealign.tasks.base import ItemChecks, Parsed, Sample, Scorer, Task
from werealign.tasks.checks import path
from werealign.text.norm import norm_text
from werealign.tasks.scorer import BoardColumn, Block
from werealign.tasks.common import by_role, correct_value, counts, decode_std, mean_answered, mean_value, rounded

_LETTER = re.compile(r"^(?:option\s*|选项\s*|选\s*)?[(\[【]?(?P<k>[A-Ia-i])[)\]】]?(?:\s*选?项)?(?:\s*$|\s*[.。,，、:;!)\]]|\s*\(|\s+[-—–]\s)", re.I)
# A lower-case letter is read only when it stands alone ("b", "(b)", "b."): "i think ..." is prose.
_LOWER_ALONE = re.compile(r"[(\[【]?[a-i][)\]】]?[.。!]?")
# Two or more letters and nothing else ("B, C", "B or C", "B/C", "B. C", "B (C)") is a hedge, not an answer.
# (Capitals standing alone, so "C. Head" is still option C with a reason; lower case is handled above.)
_ONE_LETTER = r"(?:[Oo]ption\s*|选项\s*)?[(\[【]?[A-I](?![A-Za-z])[)\]】]?"
_HEDGE = re.compile(rf"{_ONE_LETTER}(?:(?:\s*(?:[,，、/;&+.。]|(?i:or|and)\b|或|和|与))*\s*{_ONE_LETTER})+\s*[.。!]?")


def check_option_order(item: SpeechItem, option_order: list[int] | None) -> list[int]:
    n = len(item.options)
    if option_order is None:
        return list(range(n))
    if sorted(option_order) != list(range(n)):
        raise UserError(f"item {item.item_id}: option_order {option_order} is not a permutation of 0..{n - 1}")
    return list(option_order)


def shown_options(item: SpeechItem, option_order: list[int] | None) -> list[tuple[str, str]]:
    """(shown letter, text) in display order. Position i shows original option option_order[i]."""
    order = check_option_order(item, option_order)
    return [(OPTION_KEYS[i], item.options[j].text) for i, j in enumerate(order)]


def question_vars(game: GameLog, item: SpeechItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    return {
        # The sanitised stem (the release's text1) is what the release's authors prompt with; the full
        # question may tell the viewpoint more than it knew at the cut-off (another seat's role, a later event).
        "question": (item.question_short or item.question).strip(),
        "options": [{"key": k, "text": t.strip()} for k, t in shown_options(item, option_order)],
    }


def option_shown(value: str, n_options: int) -> tuple[int | None, str | None]:
    """(position of the option letter an answer line names among the shown options, error); the claim kind reads its
    options with it too (werealign.tasks.claim)."""
    m = _LETTER.match(value)
    if not m:
        return None, f"answer '{short(value)}' is not one option letter A-I"
    letter = m.group("k")
    if (letter.islower() and not _LOWER_ALONE.fullmatch(value.strip())) or _HEDGE.fullmatch(value.strip()):
        return None, f"answer '{short(value)}' is not one option letter A-I"
    shown = OPTION_KEYS.index(letter.upper())
    if shown >= n_options:
        return None, f"option {letter.upper()} does not exist"
    return shown, None


def parse(value: str, item: SpeechItem, option_order: list[int] | None, game: GameLog | None = None) -> Parsed:
    shown, error = option_shown(value, len(item.options))
    if shown is None:
        return Parsed(None, error)
    order = option_order if option_order is not None else list(range(len(item.options)))
    return Parsed(item.options[order[shown]].key, None)


def _macro(samples: Sequence[Sample], mean=mean_value) -> float | None:
    dims: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        dims[s["dimension"]].append(s)
    accs = [a for a in (mean(dims[d], correct_value) for d in DIMENSIONS if d in dims) if a is not None]
    return fmean(accs) if accs else None


def score(samples: Sequence[Sample]) -> dict[str, Any]:
    by_dim: dict[str, Any] = {}
    for dim in DIMENSIONS:
        group = [s for s in samples if s["dimension"] == dim]
        if group:
            by_dim[dim] = {"accuracy": rounded(mean_value(group, correct_value)),
                           "accuracy_answered": rounded(mean_answered(group, correct_value)), **counts(group)}
    per_decode, std = decode_std(samples, _macro)
    return {
        "metric": "macro_accuracy",
        "macro_accuracy": rounded(_macro(samples)),
        "macro_accuracy_std": std,
        "per_decode_macro_accuracy": per_decode,
        "accuracy": rounded(mean_value(samples, correct_value)),
        "macro_accuracy_answered": rounded(_macro(samples, mean_answered)),
        "accuracy_answered": rounded(mean_answered(samples, correct_value)),
        "dimensions": [d for d in DIMENSIONS if d in by_dim],
        "by_dimension": by_dim,
        "by_viewpoint_role": by_role(samples, correct_value),
        **counts(samples),
    }


# --------------------------------------------------------------------------- validation (werealign.validate)
# The checks get what they need of werealign.validate through their `out` (findings) and `idx` (game index):
# validate reads this registry, so the tasks never import it.

DISTRACTOR_ORIGINS = ("m1_role_perturbation", "m1_information_occlusion", "m1_faction_inversion", "m2_biased_rationale", "human_utterance")


def looks_like(row: dict[str, Any]) -> bool:
    return "options" in row or "dimension" in row


def check(item: SpeechItem, out) -> None:
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
        norm = norm_text(o.text)
        if norm in first:
            other = item.options[first[norm]]
            if item.answer in (o.key, other.key):
                out.error("duplicate-option", where, f"option {o.key} has the same text as option {other.key}, one of them the answer: the item has two right answers")
            else:
                out.warning("duplicate-option", where, f"option {o.key} repeats option {other.key}; replace one distractor")
        first.setdefault(norm, j)


def check_refs(item: SpeechItem, idx, out) -> None:
    """The stem a prompt shows (the sanitised one when the item has it) must not tell the viewpoint what it
    could not know at the cut-off: one implementation with `werealign audit` (werealign.shortcuts.leaks.stem_leaks)."""
    if item.viewpoint_seat is not None and item.viewpoint_seat not in idx.seats:
        return  # a seat the common checks report
    field = "question_short" if item.question_short else "question"
    try:
        reasons = idx.stem_leaks(item, item.question_short or item.question)
    except UserError:  # a cut-off or seat the other checks already report
        return
    for why in reasons:
        out.warning("stem-leak", field, f"the stem shown to the model {why}; sanitise it (question_short)")


def same_question(item: SpeechItem) -> tuple:
    return (item.game_id, item.dimension, item.viewpoint_seat, item.cutoff_segment,
            norm_text(item.question), tuple(sorted(norm_text(o.text) for o in item.options)))


def truth_floors(asked: Sequence[tuple[GameLog, SpeechItem]], metric: str) -> dict[str, float | None]:
    """The best context attack (werealign.shortcuts.context): options and game read, no move weighed."""
    from werealign.shortcuts.context import context_floor

    return context_floor(asked, metric)


def board_columns(blocks: Sequence[Block]) -> tuple[BoardColumn, ...]:
    """One column per dimension (the five always: a missing one is a finding; any other the runs report after
    them), then their macro average."""
    found = {d for b in blocks for d in b.get("by_dimension", {})}
    dims = [*DIMENSIONS, *sorted(found - set(DIMENSIONS))]
    return (*(BoardColumn(d, ("by_dimension", d, "accuracy"), dimension=d) for d in dims),
            BoardColumn("Avg", ("macro_accuracy",), macro=True))


SCORER = Scorer(
    metric="macro_accuracy",
    score=score,
    results_models=(SpeechScores,),
    chance=lambda item, metric, game: (1 / len(item.options), 1),
    shortcuts=("longest", "options-only", "own-style"),
    truth_floors=truth_floors,
    board_metrics=("macro_accuracy",),
    titles={"macro_accuracy": "speech accuracy"},
    columns=board_columns,
    always_shown=True,
    board_group="speech",
    card_text="9-way multiple-choice questions in five dimensions (RI SJ DR PS CT), one key each",
)

TASK = Task(
    name="speech",
    description="9-way multiple choice: RI SJ DR PS CT",
    item_model=SpeechItem,
    variants=("base", "rr", "osr", "no-context", "options-only"),
    question_vars=question_vars,
    parse=parse,
    scorer=SCORER,
    answer_shape="option",
    answer_forms=("<letter>", "<字母>"),
    permutes_options=True,
    checks=ItemChecks(looks_like=looks_like, check=check, check_refs=check_refs, same_question=same_question),
    items_from="generation (werealign generate) or an importer",  # an LLM drafts them, a human reviews them: derive keeps them
)
