"""Open world by the catalogue (task ow41): code that played or measured "the seer" by its id now asks the role
catalogue which roles hold the seer's check, so an invented role with the seer's rules under another id is played
and measured as the seer is. Every role here is invented; none comes from real data."""

from __future__ import annotations

import pytest

from werealign.arena.board import BoardSpec, make_board
from werealign.arena.heuristic import HeuristicAgent
from werealign.arena.moderator import play_game
from werealign.schema.models import Provenance
from werealign.schema.roles import RoleDeclaration

# The seer's nightly check under another id and other names (no name of the built-in seer).
ORACLE = RoleDeclaration(id="oracle", faction="good", team="gods", names={"en": ["oracle"], "zh": ["神谕者"]},
                         knows_each_night=["seer_check"])
ROLES = ["witch", "hunter", "werewolf", "werewolf", "werewolf", "villager", "villager", "villager"]


def _play(seer: str, language: str, seed: int):
    roles = [seer, *ROLES]
    extra = {"declared_roles": [ORACLE], "abilities": {"oracle": {"action": "check"}}} if seer == "oracle" else {}
    board = make_board("t", BoardSpec(roles=roles, language=language, **extra))
    agents = {s: HeuristicAgent(seed) for s in range(1, len(roles) + 1)}
    return play_game(board, roles, agents, "t-1", seed, Provenance(source="test")).game


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_heuristic_plays_a_role_holding_the_seers_check_as_the_seer(language, seed):
    """The same table with the seer's card renamed: the same moves, and the same words with the oracle's name for the
    seer's (its own claims, the wolves' fake claims, the village believing a lone claimant)."""
    seer, oracle = _play("seer", language, seed), _play("oracle", language, seed)
    moves = lambda g: [(e.kind, e.phase, e.actor, e.target, e.skill, e.result) for e in g.events]  # noqa: E731
    assert moves(oracle) == moves(seer) and oracle.winner == seer.winner
    name = {"en": ("oracle", "seer"), "zh": ("神谕者", "预言家")}[language]
    said = [u.text for u in oracle.utterances]
    assert any(name[0] in t for t in said), "the oracle claims its own card"
    assert [t.replace(*name) for t in said] == [u.text for u in seer.utterances]
