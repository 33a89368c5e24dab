"""The built-in baselines' policies: each answers one item as shown, from an `ItemView` (werealign.baselines.view:
a solver State as data, never the prompt text re-parsed). What each model does is listed in werealign.baselines.models.
Ties are broken towards the earliest option or the lowest seat.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
from collections.abc import Callable
from typing import Any

from werealign.baselines.view import ItemView
from werealign.text.seat_names import SeatReader
from werealign.text.similarity import tfidf_cosines

Policy = Callable[[ItemView, Any], tuple[str, str]]  # (view, request seed) -> (answer, why)


def _seat_answer(view: ItemView, seats: list[int]) -> str:
    return ", ".join(map(str, seats))


def random_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    rng = random.Random(_seed(view.messages, seed))
    if view.shape == "roles":
        labels = {c: rng.choice(view.role_cards) for c in view.candidates}
        return _roles(view, labels), "a uniformly random card per seat"
    if view.shape == "option":
        answer = rng.choice([k for k, _ in view.options])
    elif view.shape == "seat":
        answer = str(rng.choice(view.candidates))
    else:
        answer = _seat_answer(view, [c for c in view.candidates if rng.random() < 0.5] or [rng.choice(view.candidates)])
    return answer, "uniformly random choice"


def longest_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    if view.shape == "option":
        return max(view.options, key=lambda o: len(o[1]))[0], "the longest option"  # max() keeps the first of equals
    return _seats_by(view, {c: len(view.speech_by_seat.get(c, "")) for c in view.candidates}, "who have spoken the most")


def lexical_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    if view.shape == "option":
        return _lexical_option(view, view.context), "the option with the highest TF-IDF overlap with the context"
    return _seats_by(view, {c: _mentions(c, view) for c in view.candidates}, "mentioned most often")


def _seats_by(view: ItemView, scores: dict[int, int], who: str) -> tuple[str, str]:
    """The top seats by `scores`: one, the top third, or (roles) the top third labelled wolves."""
    if view.shape == "roles":
        return _wolves_by(view, scores), f"the seats {who} are wolves, the rest the first other card"
    return _top(scores, view.shape), f"the candidates {who}"


def options_only_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    if view.shape == "option":
        return _lexical_option(view, view.question), "the option with the highest TF-IDF overlap with the question alone (no game context)"
    return _no_rule(view, "no context")


def own_last_call_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    read = SeatReader(view.seat_names)  # names and nicknames are seats too (issue 45)
    named = [seat for text in view.own_speech for seat in read.seats(text) if seat in view.candidates]
    if view.shape == "option":
        return view.options[0][0], "no own-call shortcut for speech items: option A"
    if view.shape == "seat":
        if named:
            return str(named[-1]), "the last candidate you named yourself"
        return str(min(view.candidates)), "you named no candidate: the lowest-numbered one"
    if view.shape == "seats":
        if named:
            return _seat_answer(view, sorted(set(named))), "the candidates you named yourself"
        return _seat_answer(view, list(view.candidates)), "you named no candidate: every candidate"
    return _no_rule(view, "")


def all_candidates_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    if view.shape == "option":
        return view.options[0][0], "no candidates in a speech item: option A"
    if view.shape == "seat":
        return str(min(view.candidates)), "one seat only: the lowest-numbered candidate"
    if view.shape == "seats":
        return _seat_answer(view, list(view.candidates)), "every candidate"
    return _no_rule(view, "")


def majority_role_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    if view.shape == "roles":
        return _roles(view, {c: view.role_cards[0] for c in view.candidates}), "every seat the most common card"
    return all_candidates_policy(view, seed)


def own_style_policy(view: ItemView, seed: Any) -> tuple[str, str]:
    from werealign.baselines.own_style import own_style_reply

    if view.shape == "roles":
        return _no_rule(view, "")
    return own_style_reply(view.shape, view.options, view.candidates, view.own_speech)


def _no_rule(view: ItemView, why: str) -> tuple[str, str]:
    """A shortcut with no rule of its own for this shape: the lowest seat, every seat, or the first card."""
    if view.shape == "roles":
        return _roles(view, {c: view.role_cards[0] for c in view.candidates}), "no rule of its own for roles: every seat the first card listed"
    if view.shape == "seat":
        return str(min(view.candidates)), f"{why}: the lowest-numbered candidate"
    return _seat_answer(view, list(view.candidates)), f"{why}: every candidate"


def _roles(view: ItemView, labels: dict[int, str]) -> str:
    return "; ".join(f"{c}: {labels[c]}" for c in view.candidates)


def _wolves_by(view: ItemView, scores: dict[int, int]) -> str:
    """Roles: the top ceil(n/3) seats by `scores` get the first wolf-faction card listed, the rest the first other."""
    from werealign.schema.roles import canonical_role, faction_of

    first = view.role_cards[0]
    wolf = next((c for c in view.role_cards if faction_of(canonical_role(c) or c) == "wolf"), first)
    other = next((c for c in view.role_cards if c != wolf), first)
    picked = {int(x) for x in _top(scores, "seats").split(", ")}
    return _roles(view, {c: wolf if c in picked else other for c in view.candidates})


def _seed(messages: list[dict], seed: Any) -> int:
    blob = json.dumps([messages, seed], sort_keys=True, ensure_ascii=False, default=str).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


def _top(scores: dict[int, int], shape: str) -> str:
    ranked = sorted(scores, key=lambda c: (-scores[c], c))
    if shape == "seat":
        return str(ranked[0])
    k = max(1, math.ceil(len(ranked) / 3))
    return ", ".join(map(str, sorted(ranked[:k])))


def _mentions(seat: int, view: ItemView) -> int:
    transcript = " ".join(view.speech_by_seat.values())
    pattern = rf"(?<!\d){seat}\s*号" if view.zh else rf"(?i)\bseat\s+{seat}\b"
    by_name = SeatReader(view.seat_names).count_by_name(seat, transcript)
    # a name is counted apart from the number form, so a game without names counts exactly as before
    return len(re.findall(pattern, transcript)) + by_name


def _lexical_option(view: ItemView, against: str) -> str:
    sims = tfidf_cosines(against, [t for _, t in view.options], sublinear_tf=True)
    best = max(range(len(sims)), key=lambda i: (sims[i], -i))
    return view.options[best][0]
