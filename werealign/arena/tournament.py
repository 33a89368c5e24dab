"""Who plays whom: Werewolf Arena's tournament. One model plays itself; two or more play every pairing,
each pairing `games` times with the sides alternating (even games: the first model is the village);
`--self-play` adds each model's games against itself, as Werewolf Arena's first phase did.
Seats are dealt from the seed, so the same seed gives the same tables."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from werealign.arena.agents import Agent
from werealign.arena.board import Board
from werealign.arena.moderator import Played, play_game
from werealign.schema.models import Provenance


@dataclass(frozen=True)
class Match:
    game_id: str
    village: str  # model playing the good side
    wolves: str  # model playing the wolf side
    seed: int


def schedule(models: list[str], games: int, seed: int, board: Board, self_play: bool = False) -> list[Match]:
    """Every pairing `games` times, sides alternating; with `self_play` (always, for one model) each model also plays itself."""
    models = list(dict.fromkeys(models))
    pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1:]]
    if self_play or len(models) == 1:
        pairs = [(m, m) for m in models] + pairs
    out = []
    for p, (a, b) in enumerate(pairs, start=1):
        for g in range(games):
            village, wolves = (a, b) if g % 2 == 0 else (b, a)
            out.append(Match(f"arena-{board.name}-s{seed}-p{p}-g{g + 1}", village, wolves, seed))
    return out


def deal(board: Board, match: Match) -> list[str]:
    roles = list(board.spec.roles)
    random.Random(f"deal|{match.seed}|{match.game_id}").shuffle(roles)
    return roles


def play_all(board: Board, matches: list[Match], agent_for: Callable[[str, Match, str], Agent]) -> Iterator[tuple[Match, Played]]:
    """Each match played in turn; `agent_for(model, match, role)` seats a player."""
    for m in matches:
        yield m, play_match(board, m, agent_for)


def play_match(board: Board, m: Match, agent_for: Callable[[str, Match, str], Agent]) -> Played:
    """One match: the seats dealt from its seed, each seated by `agent_for(model, match, role)`, the game played."""
    roles = deal(board, m)
    agents = {i + 1: agent_for(m.wolves if board.faction(r) == "wolf" else m.village, m, r) for i, r in enumerate(roles)}
    prov = Provenance(source=f"werealign arena, board {board.name}: village {m.village}, wolves {m.wolves}",
                      original_game_id=m.game_id)
    return play_game(board, roles, agents, m.game_id, m.seed, prov)


FALLBACK_FLAG = 0.2  # a model whose moves fell back more often than this in a game: its result there is flagged


def moves_by_model(trace: list[dict]) -> dict[str, dict[str, int]]:
    """Each agent's decisions in one game, how many were unreadable replies played as fallbacks, and how many of its
    solver's intermediate replies it could not read (xu's question pick, mg's reflection, sa's strategy: a move was
    still made, without what the step should have given)."""
    out: dict[str, dict[str, int]] = {}
    for row in trace:
        m = out.setdefault(row.get("agent", "?"), {"decisions": 0, "unreadable": 0, "unreadable_steps": 0})
        m["decisions"] += 1
        m["unreadable"] += bool(row["failed"])
        m["unreadable_steps"] += row.get("unreadable_steps", 0)
    return dict(sorted(out.items()))


def flagged(moves: dict[str, int]) -> bool:
    return moves["decisions"] > 0 and moves["unreadable"] > FALLBACK_FLAG * moves["decisions"]


def summary(board: Board, results: list[tuple[Match, Played, dict]]) -> dict:
    """The tournament's table: each game's sides, winner and unreadable moves per model, and each model's wins
    by side with its unreadable moves and the games where more than FALLBACK_FLAG of its moves fell back."""
    games = []
    models: dict[str, dict] = {}
    for m, played, usage in results:
        g = played.game
        days = max((p.day for p in g.phases), default=0)
        moves = moves_by_model(played.trace)
        games.append({"game_id": g.game_id, "village": m.village, "wolves": m.wolves, "winner": g.winner, "days": days,
                      "decisions": len(played.trace), "unreadable_replies": sum(r["failed"] for r in played.trace),
                      "moves": moves, **usage})
        for side, model in (("good", m.village), ("wolf", m.wolves)):
            row = models.setdefault(model, {"games": 0, "wins": 0, "good": {"games": 0, "wins": 0}, "wolf": {"games": 0, "wins": 0},
                                            "decisions": 0, "unreadable": 0, "unreadable_steps": 0, "flagged_games": []})
            row[side]["games"] += 1
            row[side]["wins"] += g.winner == side
            if m.village != m.wolves:  # self-play wins are the side's, not the model's
                row["games"] += 1
                row["wins"] += g.winner == side
        for model, counts in moves.items():
            row = models[model]
            row["decisions"] += counts["decisions"]
            row["unreadable"] += counts["unreadable"]
            row["unreadable_steps"] += counts["unreadable_steps"]
            if flagged(counts):
                row["flagged_games"].append(g.game_id)
    return {"board": board.name, "roles": board.spec.roles, "debate": board.spec.debate, "language": board.spec.language,
            "fallback_flag": FALLBACK_FLAG, "games": games, "models": models}
