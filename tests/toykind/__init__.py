"""A task kind werealign has never seen, in a package of its own (issues 21, 46): EXILE, "whom will the table exile
today?", answered with one seat. It is registered only through the `werealign.tasks` entry point group (the
test writes a dist-info beside it, installing nothing) and uses only werealign's public task contract, all in this
one module: how its items are derived from a game log (`derive`, asked by `werealign derive`), an item model, its
template folder, parsing, scoring and floors. No file of werealign names it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from werealign.game.derive import alive_at
from werealign.game.visibility import build_context
from werealign.schema.models import ItemBase, Seat
from werealign.tasks.answers import read_seat, seat_value, short
from werealign.tasks.base import DeriveNote, Deriving, ItemChecks, Made, Parsed, Scorer, Task
from werealign.tasks.common import by_role, correct_value, counts, mean_value, rounded


class ExileItem(ItemBase):
    viewpoint_seat: Seat
    day: str  # the day phase whose exile is asked
    cutoff_segment: int
    candidates: list[Seat]
    answer: Seat  # the seat the table exiled that day


def derive(at: Deriving) -> Made:
    """One item per MVP vote: asked of the MVP at the vote's cut-off, the key the first seat announced out of that
    day after it (the exile). A vote with no such exit, or whose exiled seat was no candidate, gives a note instead."""
    game, made = at.game, Made()
    if game.mvp is None:
        made.notes.append(DeriveNote("dropped", "exile_no_mvp", "mvp", "the game names no MVP", "no item: it is asked at the MVP's votes"))
        return made
    seen: set[str] = set()
    for v in game.mvp.votes:
        key = v.original_label or v.phase
        exits = sorted((e.segment_id, e.target) for e in game.events if e.kind == "elimination" and e.phase == v.phase
                       and e.segment_id is not None and e.segment_id > v.cutoff_segment and e.target is not None)
        candidates = [s for s in alive_at(game, v.cutoff_segment) if s != game.mvp.seat]
        item_id = f"{game.game_id}-EX-{key.replace('_', '-')}"
        if not exits:
            made.notes.append(DeriveNote("dropped", "exile_none", key, f"nobody left the game in {v.phase} after segment {v.cutoff_segment}", "no item"))
        elif exits[0][1] not in candidates:
            made.notes.append(DeriveNote("dropped", "exile_not_candidate", key, f"seat {exits[0][1]} was out or the MVP", "no item"))
        elif item_id not in seen:
            seen.add(item_id)
            made.items.append(ExileItem(item_id=item_id, game_id=game.game_id, language=game.language, viewpoint_seat=game.mvp.seat,
                                        day=v.phase, cutoff_segment=v.cutoff_segment, candidates=candidates, answer=exits[0][1]))
            made.notes.append(DeriveNote("converted", "exile_item", key, f"seat {exits[0][1]} exiled", f"items/exile.jsonl {item_id}"))
    return made


def most_named(asked: Sequence[tuple[Any, ExileItem]], metric: str) -> dict[str, float | None]:
    """A floor that needs the game: the candidate the shown talk of the day named most (chance where it names none)."""
    scores = []
    for game, item in asked:
        ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
        reader = ctx.seat_reader()
        named = Counter(s for u in ctx.utterances if u.phase == item.day for s in reader.seats(u.text) if s in item.candidates)
        top = named.most_common(1)
        scores.append(float(top[0][0] == item.answer) if top else 1 / len(item.candidates))
    return {"most-named": rounded(fmean(scores)) if scores else None}


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
        truth_floors=most_named,
        label="EX",  # its own column in the leaderboard
        titles={"accuracy": "exiles foreseen"},
        card_text="EXILE: the seat the table exiled that day, asked at the vote's cut-off",
    ),
    answer_shape="seat",
    answer_forms=("<exiled seat>",),
    templates=Path(__file__).parent / "templates",
    checks=ItemChecks(looks_like=lambda row: "day" in row and "candidates" in row, check=check),
    derive=derive,
)
