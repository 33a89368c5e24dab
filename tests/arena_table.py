"""A scripted table for the arena's rule tests: a heuristic player per seat whose listed moves are fixed."""

from __future__ import annotations

from collections import defaultdict

from werealign.arena.board import BoardSpec, make_board
from werealign.arena.heuristic import HeuristicAgent
from werealign.arena.moderator import play_game
from werealign.arena.moves import Action
from werealign.schema import GameLog
from werealign.schema.models import Provenance

SEVEN = ["hunter", "witch", "seer", "werewolf", "werewolf", "villager", "villager"]


class Scripted:
    """A heuristic player whose listed moves are fixed: script[(kind, day)] = seat, None (a pass) or, for talk, a
    dict of Action fields. Keeps every decision it was asked."""

    def __init__(self, script: dict, asked: list, seed: int = 0):
        self.inner, self.script, self.asked, self.name = HeuristicAgent(seed), script, asked, "scripted"

    def act(self, view, decision):
        self.asked.append(decision)
        key = (decision.kind, decision.day)
        if key in self.script:
            move = self.script[key]
            return Action(**move) if isinstance(move, dict) else Action(choice=move)
        return self.inner.act(view, decision)


def table(roles: list[str], scripts: dict[int, dict], seed: int = 1, **spec) -> tuple[GameLog, dict[int, list]]:
    board = make_board("t", BoardSpec(roles=roles, **{"debate": "round-robin", "win": "side_elimination", "max_days": 3, **spec}))
    asked: dict[int, list] = defaultdict(list)
    agents = {s: Scripted(scripts.get(s, {}), asked[s], seed) for s in range(1, len(roles) + 1)}
    played = play_game(board, roles, agents, "t-1", seed, Provenance(source="test"))
    return played.game, asked


def day_events(game: GameLog, kind: str, day: int, **match) -> list:
    return [e for e in game.events if e.kind == kind and e.phase.endswith(f"-{day}") and all(getattr(e, k) == v for k, v in match.items())]


def play_board_file(tmp_path, board: dict, games: int) -> list[GameLog]:
    """`board` written as a board file and played through the CLI by two rule agents; `validate` must pass every game."""
    import json

    from cli_inproc import run_cli

    from werealign.dataset import load_dataset

    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", str(games), "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    v = run_cli("validate", tmp_path / "o")
    assert v.returncode == 0 and "0 errors" in v.stdout, v.stdout
    return list(load_dataset(tmp_path / "o").games.values())
