"""An experience pool: turns of winning players in *other* games, for the `xu` and `mg` solvers.

Xu et al. and MetaGPT both let an agent learn from earlier games. Here the earlier games are the
dataset's other games (`State.others`; never the item's own, whatever its cut-off), in the item's
language. A turn qualifies when its speaker's side won that game and, where the viewpoint has a role,
the speaker held the same role: "a winning player in my position". Turns are ranked by similarity
(TF-IDF over character n-grams) to the current situation, ties by game and order: deterministic.
"""

from __future__ import annotations

from werealign.solvers.base import State
from werealign.text_similarity import TfidfIndex

MIN_CHARS = 20  # a turn shorter than this carries no usable experience ("I pass")
# One pool per (games of a language, role): fitted once, queried by every sample that draws on it. The
# value keeps the games alive, so the ids in its key stay theirs.
_POOLS: dict[tuple, tuple[tuple, list[tuple[str, str]], TfidfIndex | None]] = {}  # (games, pool, index)


def _viewpoint_role(state: State) -> str | None:
    seat = getattr(state.item, "viewpoint_seat", None)
    return next((s.role for s in state.game.seats if s.seat == seat), None) if seat is not None else None


def _winners(game, role: str | None) -> set[int]:
    return {s.seat for s in game.seats if s.faction == game.winner and (role is None or s.role == role)}


def experience_for(state: State, situation: str, k: int) -> list[tuple[str, str]]:
    """Up to k (game id, turn text) most like `situation`, from other games' winning players."""
    if k < 1:
        return []
    role = _viewpoint_role(state)
    own = state.game.game_id
    # One index over every game of the language (the item's own too), fitted once per dataset and role;
    # the item's own game is left out of every answer below.
    games = sorted((g for g in (state.game, *state.others) if g.language == state.game.language), key=lambda g: g.game_id)
    key = (tuple(id(g) for g in games), role)
    if key not in _POOLS:
        pool = []
        for game in games:
            winners = _winners(game, role) if game.winner is not None else set()
            pool += [(game.game_id, u.text) for u in game.utterances if u.speaker in winners and len(u.text) >= MIN_CHARS
                     and (u.audience is None or u.audience.kind == "everyone")]
        _POOLS[key] = (tuple(games), pool, TfidfIndex([t for _, t in pool]) if pool else None)
    _, pool, index = _POOLS[key]
    if index is None:
        return []
    scores = index.cosines(situation)
    allowed = [i for i in range(len(pool)) if pool[i][0] != own]
    best = sorted(allowed, key=lambda i: (-scores[i], pool[i][0], i))[:k]
    return [(pool[i][0], _clipped(pool[i][1])) for i in best]


def _clipped(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
