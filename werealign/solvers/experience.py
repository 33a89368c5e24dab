"""An experience pool of *other* games' turns, for the `xu` and `mg` solvers.

Xu et al. and MetaGPT both let an agent learn from earlier games. Here the earlier games are the
dataset's other games (`State.others`; never the item's own, whatever its cut-off), in the item's
language. An experience is a public turn of a player who held the viewpoint's role (any player for an
observer item), scored as in Xu et al.: a winner's turn `1000 - d`, a loser's `d`, where `d` is the
number of days its game lasted (win fast, or at least lose slowly). Retrieval ranks turns by
similarity (TF-IDF over character n-grams) to the agent's reflection, ties by game and order, so it
is deterministic.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from werealign.solvers.base import State
from werealign.text_similarity import TfidfIndex

MIN_CHARS = 20  # a turn shorter than this carries no usable experience ("I pass")
CANDIDATES = 10  # the most similar turns Xu et al.'s suggestion step chooses from
CLIP = 300  # characters of a turn shown in a prompt


@dataclass(frozen=True)
class Experience:
    game_id: str
    text: str
    score: int
    won: bool


# One pool per (games of a language, role): fitted once, queried by every sample that draws on it. The
# value keeps the games alive, so the ids in its key stay theirs. Bounded: a run uses one pool per language
# and role (about a dozen), but a notebook that evaluates many datasets must not keep every one alive.
_POOLS: OrderedDict[tuple, tuple[tuple, list[Experience], TfidfIndex | None]] = OrderedDict()
_MAX_POOLS = 64


def _viewpoint_role(state: State) -> str | None:
    seat = getattr(state.item, "viewpoint_seat", None)
    return next((s.role for s in state.game.seats if s.seat == seat), None) if seat is not None else None


def _experiences(game, role: str | None) -> list[Experience]:
    days = max((p.day for p in game.phases), default=1)
    out = []
    for seat in game.seats:
        if role is not None and seat.role != role:
            continue
        won = seat.faction == game.winner
        score = 1000 - days if won else days
        out += [Experience(game.game_id, u.text, score, won) for u in game.utterances
                if u.speaker == seat.seat and len(u.text) >= MIN_CHARS and (u.audience is None or u.audience.kind == "everyone")]
    return out


def _ranked(state: State, query: str) -> list[Experience]:
    """Every experience of other games in the viewpoint's role, most similar to `query` first."""
    role = _viewpoint_role(state)
    games = sorted((g for g in (state.game, *state.others) if g.language == state.game.language and g.winner is not None),
                   key=lambda g: g.game_id)
    key = (tuple(id(g) for g in games), role)
    if key not in _POOLS:
        pool = [e for g in games for e in _experiences(g, role)]
        _POOLS[key] = (tuple(games), pool, TfidfIndex([e.text for e in pool]) if pool else None)
        while len(_POOLS) > _MAX_POOLS:
            _POOLS.popitem(last=False)  # the least recently used
    _POOLS.move_to_end(key)
    _, pool, index = _POOLS[key]
    if index is None:
        return []
    scores = index.cosines(query)
    own = state.game.game_id  # one index serves every game of the dataset; a game never learns from itself
    order = sorted((i for i in range(len(pool)) if pool[i].game_id != own), key=lambda i: (-scores[i], pool[i].game_id, i))
    return [_clipped(pool[i]) for i in order if scores[i] > 0]


def winners_like(state: State, query: str, k: int) -> list[Experience]:
    """MetaGPT-style recall: the k winners' turns most like `query`."""
    return [e for e in _ranked(state, query) if e.won][:k]


def bad_and_good(state: State, query: str, k: int) -> tuple[Experience | None, list[Experience]]:
    """Xu et al.'s suggestion input: among the most similar turns, the lowest-scored (likely a bad
    experience) and the k whose scores lie nearest the median (likely good ones)."""
    found = _ranked(state, query)[:CANDIDATES]
    if not found:
        return None, []
    bad = min(found, key=lambda e: e.score)
    rest = [e for e in found if e is not bad]
    median = sorted(e.score for e in rest)[len(rest) // 2] if rest else 0
    good = sorted(rest, key=lambda e: (abs(e.score - median), rest.index(e)))[:k]
    return bad, good


def _clipped(e: Experience) -> Experience:
    return e if len(e.text) <= CLIP else Experience(e.game_id, e.text[: CLIP - 1] + "…", e.score, e.won)
