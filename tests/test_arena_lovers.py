"""Links and a third side at the arena table (werealign.arena.lovers), read by the independent checker
(tests/arena_rule_check.py): the ghost bride's groom and witness, lovers who leave together, the third side's kill
and win, cupid's couple (a third side only when the lovers' cards differ) and a linking card invented here."""

from __future__ import annotations

import json

from arena_rule_check import rule_breaks
from arena_table import play_board_file, table
from cli_inproc import run_cli



def _elims(game) -> dict[int, tuple[str, str]]:
    return {e.target: (e.phase, e.result) for e in game.events if e.kind == "elimination"}


def test_the_ghost_brides_groom_dies_with_her_and_the_checker_sees_it():
    roles = ["ghost_bride", "seer", "witch", "hunter", "werewolf", "werewolf", "villager", "villager", "villager"]
    wolves = {("kill", 1): 7}
    script = {1: {("link", 1): 7, ("witness", 1): 4}, 2: {("check", 1): 1}, 3: {("save", 1): None, ("poison", 1): None}, 5: wolves, 6: wolves}
    game, asked = table(roles, script, max_days=1, win="side_elimination")
    (link,) = [e for e in game.events if e.skill == "ghost_bride_link"]
    assert (link.actor, link.target) == (1, 7) and sorted(link.audience.seats) == [1, 7]
    assert sorted(e.target for e in game.events if e.skill == "side_switch") == [4, 7], "the groom and the witness switch; the bride is third already"
    assert sorted(e.target for e in game.events if e.skill == "lovers_told") == [1, 7]
    assert [e.result for e in game.events if e.skill == "seer_check"] == ["good"], "the bride's card shows good"
    assert _elims(game)[7] == ("day-1", "night_death") and _elims(game)[1] == ("day-1", "died_with_partner")
    assert not [d for d in asked[4] if d.kind == "shoot"] or _elims(game).get(4) is not None
    assert "witness" in game.rules.text and "third side" in game.rules.text
    assert rule_breaks(game) == []
    # The checker reads the rules from the log, not from the engine: a bride who outlives her groom is a break, and so
    # is a switch of a seat the link did not name.
    alone = game.model_copy(update={"events": [e for e in game.events if not (e.kind == "elimination" and e.target == 1)]})
    assert any("does not leave with them" in x for x in rule_breaks(alone))
    stray = game.model_copy(update={"events": [e.model_copy(update={"target": 8, "actor": 8}) if e.skill == "side_switch" and e.target == 4 else e
                                               for e in game.events]})
    assert any("switch side" in x for x in rule_breaks(stray))


def test_the_third_side_kills_once_the_wolves_are_out_and_wins_alone():
    roles = ["ghost_bride", "werewolf", "villager", "villager", "seer", "villager"]
    vote_wolf = {("vote", 1): 2}
    script = {1: {("link", 1): 3, ("witness", 1): 4, **vote_wolf, ("third_kill", 2): 5}, 2: {("kill", 1): 6}, 3: {**vote_wolf, ("third_kill", 2): 5},
              4: vote_wolf, 5: vote_wolf}
    game, asked = table(roles, script, max_days=3)
    assert _elims(game)[2][1] == "voted_out" and _elims(game)[5] == ("day-2", "night_death")
    (kill,) = [e for e in game.events if e.skill == "third_kill"]
    assert kill.actor in (1, 3) and kill.target == 5 and not [d for d in asked[4] if d.kind == "third_kill"], "the lovers kill, not the witness"
    assert game.winner == "third" and rule_breaks(game) == []
    by_witness = game.model_copy(update={"events": [e.model_copy(update={"actor": 4}) if e.skill == "third_kill" else e for e in game.events]})
    assert any("makes the third side's kill" in x for x in rule_breaks(by_witness))
    early = game.model_copy(update={"winner": "good"})
    assert any("records 'good'" in x for x in rule_breaks(early))


def test_cupids_couple_is_a_third_side_only_when_their_cards_differ():
    roles = ["cupid", "werewolf", "werewolf", "villager", "villager", "seer", "witch", "villager", "villager"]
    for pair, switched in (((2, 4), [1, 2, 4]), ((4, 5), [])):
        script = {1: {("link", 1): pair[0], ("link_with", 1): pair[1]}, 2: {("kill", 1): pair[1]}, 3: {("kill", 1): pair[1]},
                  7: {("save", 1): None, ("poison", 1): None}}
        game, _ = table(roles, script, max_days=1)
        assert sorted(e.target for e in game.events if e.skill == "cupid_link") == sorted(pair)
        assert sorted(e.target for e in game.events if e.skill == "side_switch") == switched
        assert _elims(game)[pair[1]][1] == "night_death" and _elims(game)[pair[0]][1] == "died_with_partner"
        assert rule_breaks(game) == [], (pair, rule_breaks(game))


MATCHMAKER = [{"id": "matchmaker", "names": {"en": ["matchmaker"]}, "faction": "variable", "team": "lovers",
               "night_ability": "links two players and names their witness on night 1", "rule": {"en": "Links two players; the couple, "
               "their witness and the matchmaker form a third side that kills once the wolves are out."}}]


def test_a_linking_card_invented_here_plays_from_its_declaration(tmp_path):
    roles = ["matchmaker", "seer", "witch", "hunter", "werewolf", "werewolf", "villager", "villager", "villager", "villager"]
    board = {"roles": roles, "declared_roles": MATCHMAKER, "debate": "round-robin", "win": "side_elimination",
             "abilities": {"matchmaker": {"action": "link", "link": "pair", "witness": True, "side_switch": "always",
                                          "plays_for": "good", "third_kill": True}}}
    games = play_board_file(tmp_path, board, 8)
    together = 0
    for g in games:
        maker = next(x.seat for x in g.seats if x.role == "matchmaker")  # seats are dealt per game
        links = [e for e in g.events if e.skill == "link"]
        (witness,) = [e.target for e in g.events if e.skill == "witness"]
        assert len(links) == 2 and {e.actor for e in links} == {maker}
        assert {e.target for e in g.events if e.skill == "side_switch"} == {maker, witness, *(e.target for e in links)}
        together += sum(1 for e in g.events if e.kind == "elimination" and e.result == "died_with_partner")
        assert rule_breaks(g) == [], (g.game_id, rule_breaks(g))
    assert together, "in eight games a lover left with the other at least once"


def test_a_third_side_card_without_a_link_is_refused_with_the_declaration_to_add(tmp_path):
    roles = ["seer", "hermit", "werewolf", "werewolf", "villager", "villager", "villager"]
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"roles": roles, "declared_roles": [{"id": "hermit", "faction": "third", "team": "solo"}],
                                "abilities": {"hermit": {"action": "none"}}}))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1 and "'hermit'" in r.stderr and '"link"' in r.stderr, r.stderr


def test_validate_reads_a_seat_that_switched_to_the_winning_side():
    from werealign.validate import validate_game

    roles = ["ghost_bride", "werewolf", "villager", "villager", "seer", "villager"]
    vote_wolf = {("vote", 1): 2}
    script = {1: {("link", 1): 3, ("witness", 1): 4, ("vote", 1): None, ("third_kill", 2): 5}, 2: {("kill", 1): 6},
              3: {**vote_wolf, ("third_kill", 2): 5}, 4: vote_wolf, 5: vote_wolf, 6: vote_wolf}
    game, _ = table(roles, script, max_days=3)
    assert game.winner == "third" and game.mvp is not None and game.mvp.seat == 3, "the groom (a villager's card) is the MVP"
    codes = {f.code for f in validate_game(game, game.game_id)}
    assert "mvp-not-on-winning-side" not in codes
    unswitched = game.model_copy(update={"events": [e for e in game.events if e.skill != "side_switch"]})
    assert "mvp-not-on-winning-side" in {f.code for f in validate_game(unswitched, game.game_id)}


def test_a_wolf_groom_leaves_the_pack():
    roles = ["ghost_bride", "werewolf", "werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager", "villager"]
    script = {1: {("link", 1): 2, ("witness", 1): 7}, 3: {("kill", 1): 8}, 4: {("kill", 1): 8}, 6: {("save", 1): None, ("poison", 1): None}}
    game, asked = table(roles, script, max_days=1)
    assert not [d for d in asked[2] if d.kind in ("kill", "wolf_chat")], "the groom no longer wakes with the pack"
    pack = [e for e in game.events if e.skill == "wolf_kill" and e.actor is not None]
    assert pack and all(e.audience.kind == "seats" and sorted(e.audience.seats) == [3, 4] for e in pack)
    assert all(u.audience is None or u.audience.kind != "team" for u in game.utterances if u.phase == "night-1")
    assert rule_breaks(game) == []
