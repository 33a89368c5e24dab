"""The experience store of *other* games' turns, for the `xu` and `mg` solvers.

Xu et al. and MetaGPT both let an agent learn from earlier games. Here the earlier games are the
dataset's other games (`State.others`; never the item's own, whatever its cut-off), in the item's
language, and an experience is a public day turn of a player who held the viewpoint's role (any player
for an observer item):

- `text`: what the player said (the paper's response; MetaGPT's action);
- `situation`: what the player faced when saying it, the public turns just before it in its game.
  Human games carry no written reflections: this is the stand-in for the stored reflection both papers
  retrieve by, and is labelled so in the prompts;
- `phase`: when it was said (MetaGPT's moderator instruction has no human counterpart; the phase is the
  nearest fact);
- `won`, `score`: the outcome for that player, scored as in Xu et al.: a winner's turn `1000 - d`, a
  loser's `d`, where `d` is the number of days its game lasted (win fast, or at least lose slowly);
- `reality`: that game's true roles (MetaGPT shows them: what the player could not know then).

A game of the arena played by an agent that reflects (xu, mg) stores what the papers store instead of its turns:
for each of that agent's decisions, its `reflection` then (the situation it is retrieved by, as in both papers), the
`instruction` (the decision asked: a vote, a night action, a speech) and the `text` of what it did (its move or its
words), with the outcome and the reality above (`recorded`; the arena passes them as `State.pool`). Votes, night
actions and reflections are then experiences too, not only speeches.

Retrieval ranks experiences by TF-IDF similarity (werealign.solvers.retrieval) of their situation to the
agent's reflection, keeps those at or above a threshold, ties by game and order: deterministic.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace

from werealign.solvers.base import State
from werealign.solvers.retrieval import Index

MIN_CHARS = 20  # a turn shorter than this carries no usable experience ("I pass")
CANDIDATES = 50  # at most this many retrieved experiences go to Xu et al.'s bad/good choice
SITUATION_TURNS = 3  # public turns before an experience that make its situation
CLIP = 300  # characters of a turn shown in a prompt


@dataclass(frozen=True)
class Experience:
    game_id: str
    seat: int
    phase: str
    text: str
    situation: str
    score: int
    won: bool
    reality: str
    similarity: float = 0.0
    reflection: str = ""  # the player's own reflection when it acted (recorded by the arena's reflecting agents)
    instruction: str = ""  # the decision it was asked (vote, speak, kill, ...; recorded experiences only)
    role: str = ""  # the player's role (recorded experiences; a game's turns carry theirs beside)


# One pool per set of games (a dataset's games of one language): every role's experiences, fitted once and
# queried by every sample of that language (a sample keeps its role's). The value keeps the games alive, so
# the ids in its key stay theirs. Bounded: a notebook that evaluates many datasets must not keep every one.
_POOLS: OrderedDict[tuple, tuple[tuple, list[Experience], list[str], Index | None]] = OrderedDict()
_MAX_POOLS = 16
_POOLS_LOCK = threading.Lock()  # the arena's games run in threads side by side (--parallel) and share the pools


def viewpoint_role(state: State) -> str | None:
    seat = getattr(state.item, "viewpoint_seat", None)
    return next((s.role for s in state.game.seats if s.seat == seat), None) if seat is not None else None


def _reality(game) -> str:
    from werealign.render.lines import seat_label
    from werealign.render.phrases import role_name
    from werealign.schema.roles import catalogue_for

    cat = catalogue_for(game.rules.declared_roles)
    sep = "，" if game.language == "zh" else ", "
    return sep.join(f"{seat_label(s.seat, game.language)}: {role_name(s.role, game.language, cat)}" for s in game.seats)


def _experiences(game) -> list[tuple[str, Experience]]:
    """(the speaker's role, experience) of every public day turn of a player in `game`."""
    from werealign.render.lines import phase_label, speaker_label

    days = max((p.day for p in game.phases), default=1)
    phases = {p.id: p for p in game.phases}
    public = [u for u in game.utterances if (u.audience is None or u.audience.kind == "everyone")
              and getattr(phases.get(u.phase), "kind", None) != "night"]  # a night turn to the table is commentary
    won_by = {s.seat: s.faction == game.winner for s in game.seats}
    roles = {s.seat: s.role for s in game.seats}
    reality = _reality(game)
    out = []
    for i, u in enumerate(public):
        if u.speaker == "host" or len(u.text) < MIN_CHARS:
            continue
        before = public[max(0, i - SITUATION_TURNS): i]
        situation = "\n".join(f"{speaker_label(b.speaker, None, game.language)}: {_clip(b.text)}" for b in before)
        won = won_by.get(u.speaker, False)
        out.append((roles.get(u.speaker, ""), Experience(game.game_id, int(u.speaker), phase_label(phases.get(u.phase), game.language),
                                                         _clip(u.text), situation, 1000 - days if won else days, won, reality)))
    return out


def recorded(game, records: list[tuple[int, str, str, str, str]]) -> list[Experience]:
    """The experiences of a finished arena game from its reflecting agents' records, (seat, phase label, instruction,
    reflection, what it did) per decision, each with that seat's outcome scored as Xu et al. score it."""
    if game.winner is None:  # no outcome to learn from (the day limit), as a game's turns without a winner
        return []
    days = max((p.day for p in game.phases), default=1)
    seats = {s.seat: s for s in game.seats}
    reality = _reality(game)
    out = []
    for seat, phase, instruction, reflection, did in records:
        won = seats[seat].faction == game.winner
        out.append(Experience(game.game_id, seat, phase, _clip(did), _clip(reflection), 1000 - days if won else days, won, reality,
                              reflection=_clip(reflection), instruction=instruction, role=seats[seat].role or ""))
    return out


def _ranked(state: State, query: str, threshold: float) -> list[Experience]:
    """Experiences of other games in the viewpoint's role (every player's, for an observer) whose situation is
    at least `threshold` similar to `query`, most similar first."""
    role = viewpoint_role(state)
    games = sorted((g for g in (state.game, *state.others) if g.language == state.game.language and g.winner is not None),
                   key=lambda g: g.game_id)
    key = (*(id(g) for g in games), id(state.pool))
    with _POOLS_LOCK:
        return _ranked_in(state, key, games, role, query, threshold)


def _ranked_in(state: State, key: tuple, games: list, role: str | None, query: str, threshold: float) -> list[Experience]:
    if key not in _POOLS:
        with_records = {e.game_id for e in state.pool}  # a game whose agents recorded their experience gives those, not its turns
        found = [x for g in games if g.game_id not in with_records for x in _experiences(g)]
        found += [(e.role, e) for e in state.pool]  # the arena's own games: its board, its language
        pool = [e for _, e in found]
        _POOLS[key] = ((tuple(games), state.pool), pool, [r for r, _ in found], Index([e.situation or e.text for e in pool]) if pool else None)
        while len(_POOLS) > _MAX_POOLS:
            _POOLS.popitem(last=False)  # the least recently used
    _POOLS.move_to_end(key)
    _, pool, roles, index = _POOLS[key]
    if index is None:
        return []
    scores = index.cosines(query)
    own = state.game.game_id  # one index serves every game of the dataset; a game never learns from itself
    mine = [i for i in range(len(pool)) if pool[i].game_id != own and (role is None or roles[i] == role)]
    order = sorted(mine, key=lambda i: (-scores[i], pool[i].game_id, i))
    return [replace(pool[i], similarity=round(scores[i], 4)) for i in order if scores[i] > 0 and scores[i] >= threshold]


def bad_and_good(state: State, reflection: str, k: int, threshold: float) -> tuple[Experience | None, list[Experience]]:
    """Xu et al.'s suggestion input: among the experiences at least `threshold` similar to the reflection (at
    most CANDIDATES), the lowest-scored (likely a bad one) and the k whose scores lie nearest the median
    (likely good ones)."""
    found = _ranked(state, reflection, threshold)[:CANDIDATES]
    if not found:
        return None, []
    bad = min(found, key=lambda e: e.score)
    rest = [e for e in found if e is not bad]
    median = sorted(e.score for e in rest)[len(rest) // 2] if rest else 0
    good = sorted(rest, key=lambda e: (abs(e.score - median), rest.index(e)))[:k]
    return bad, good


def recall(state: State, reflection: str, k: int, threshold: float) -> list[Experience]:
    """MetaGPT-style recall: the k experiences most like the reflection, wins and losses alike. When both
    outcomes are among those above the threshold, both are recalled (the most similar of the outcome the
    top k lacks takes the last place): a loss is what tells the agent to change its action, a win what
    confirms it."""
    found = _ranked(state, reflection, threshold)
    chosen = found[:k]
    for outcome in (False, True):
        if k >= 2 and chosen and all(e.won != outcome for e in chosen):
            other = next((e for e in found if e.won == outcome), None)
            if other is not None:
                keep = [e for e in chosen if e.won != outcome][: k - 1]
                chosen = sorted([*keep, other], key=found.index)
    return chosen


def _clip(text: str) -> str:
    return text if len(text) <= CLIP else text[: CLIP - 1] + "…"
