"""A task kind werealign has never seen, in a package of its own (issue 21): EXILE, "whom will the table exile
today?", answered with one seat. It is registered only through the `werealign.tasks` entry point group (the
test writes a dist-info beside it, installing nothing) and uses only werealign's public task contract: an
item model, its template folder, parsing, scoring. No file of werealign names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from werealign.schema.models import ItemBase, Seat
from werealign.tasks.answers import read_seat, seat_value, short
from werealign.tasks.base import ItemChecks, Parsed, Scorer, Task
from werealign.tasks.common import by_role, correct_value, counts, mean_value, rounded


class ExileItem(ItemBase):
    viewpoint_seat: Seat
    day: str  # the day phase whose exile is asked
    cutoff_segment: int
    candidates: list[Seat]
    answer: Seat  # the seat the table exiled that day


def question_vars(game, item: ExileItem, lang: str, option_order) -> dict[str, Any]:
    seats = sorted(item.candidates)
    return {"candidates": ", ".join(map(str, seats)), "candidate_seats": seats, "day": item.day}


def parse(value: str, item: ExileItem, option_order, game) -> Parsed:
    seat = read_seat(seat_value(value))
    if seat is None:
        return Parsed(None, f"answer '{short(value)}' is not one seat number")
    if seat not in item.candidates:
        return Parsed(None, f"seat {seat} is not a candidate")
    return Parsed(seat, None)


def score(samples) -> dict[str, Any]:
    return {"metric": "accuracy", "accuracy": rounded(mean_value(samples, correct_value)),
            "by_viewpoint_role": by_role(samples, correct_value), **counts(samples)}


def check(item: ExileItem, out) -> None:
    if item.answer not in item.candidates:
        out.error("exile-not-candidate", "answer", f"answer {item.answer} is not among the candidates")


TASK = Task(
    name="exile",
    description="toy: whom the table exiles today",
    item_model=ExileItem,
    variants=("base", "no-context", "options-only"),
    question_vars=question_vars,
    parse=parse,
    scorer=Scorer(
        metric="accuracy",
        score=score,
        shortcuts=("longest",),
        chance=lambda item, metric, game: (1 / len(item.candidates), 1),
        label="EX",  # its own column in the leaderboard
        titles={"accuracy": "exiles foreseen"},
        card_text="EXILE: the seat the table exiled that day, asked at the vote's cut-off",
    ),
    answer_shape="seat",
    answer_forms=("<exiled seat>",),
    templates=Path(__file__).parent / "templates",
    checks=ItemChecks(looks_like=lambda row: "day" in row and "candidates" in row, check=check),
)
