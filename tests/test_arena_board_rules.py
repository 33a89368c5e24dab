"""The board's own rules and the roles it declares, played by the arena and read by the independent checker
(tests/arena_rule_check.py): the rules boards differ on (`moves`, read from a game's rules text), the human boards'
roles (wolf brothers, magician, nine-tailed fox, sky dog, moon girl) and roles invented here."""

from __future__ import annotations

import json

import pytest
from arena_rule_check import rule_breaks
from cli_inproc import run_cli
from arena_table import SEVEN, play_board_file, table

from werealign.arena.board import load_board
from werealign.dataset import load_dataset
from werealign.schema import GameLog


# ---------------------------------------------------------------------------------------------- the board's own rules


def test_the_witch_saves_herself_as_the_board_says():
    kill_witch = {4: {("kill", 1): 2}, 5: {("kill", 1): 2}, 2: {("save", 1): 2, ("poison", 1): None}}
    game, asked = table(SEVEN, kill_witch, max_days=1, moves={"witch_self_save": "first_night"})
    (save,) = [d for d in asked[2] if d.kind == "save"]
    assert save.about == 2 and save.candidates == (2,)
    assert [e.target for e in game.events if e.skill == "witch_save"] == [2]
    assert not [e for e in game.events if e.kind == "elimination" and e.target == 2]
    assert game.rules.moves.witch_self_save == "first_night" and "first night only" in game.rules.text
    assert rule_breaks(game) == []
    from werealign.game.decisions import derive_decisions

    (item,) = [i for i in derive_decisions(game, "all").items["witch_save"] if i.viewpoint_seat == 2]
    assert (item.about, item.candidates, item.answer) == (2, [2], 2), "the decision item's legal moves follow the declared rule"
    game, asked = table(SEVEN, kill_witch, max_days=1)  # the engine's rule: never
    assert not [d for d in asked[2] if d.kind == "save"] and "may not save herself" in game.rules.text
    assert not [i for i in derive_decisions(game, "all").items["witch_save"] if i.about == 2 and 2 in i.candidates]
    # The checker reads the rule from the log: a self-save under "never" is a break.
    lied = game.model_copy(update={"events": [*game.events, game.events[0].model_copy(update={"skill": "witch_save", "actor": 2, "target": 2})]})
    assert any("saved herself" in x for x in rule_breaks(lied))


def test_the_wolf_beauty_charms_as_the_board_says():
    roles = ["seer", "witch", "wolf_beauty", "werewolf", "villager", "villager", "villager"]
    game, asked = table(roles, {}, max_days=1, moves={"charm_target": "good"})
    (charm,) = [d for d in asked[3] if d.kind == "charm"]
    assert set(charm.candidates) == {1, 2, 5, 6, 7}, "a good-side player only"
    assert rule_breaks(game) == []
    lied = game.model_copy(update={"events": [e.model_copy(update={"target": 4}) if e.skill == "wolf_beauty_charm" else e for e in game.events]})
    assert any("not a good-side seat" in x for x in rule_breaks(lied)), "the checker reads the rule from the log"
    _, asked = table(roles, {}, max_days=1)
    (charm,) = [d for d in asked[3] if d.kind == "charm"]
    assert 4 in charm.candidates and 3 not in charm.candidates


def test_the_stalkers_vote_window():
    roles = ["seer", "stalker", "werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"]
    # Day 1: the stalker votes 5, seats 6 and 7 exile 8; day 2: it votes 6, seats 3 and 4 exile 7. Night 3: that day's
    # vote only, or any day's.
    script = {s: {("vote", 1): None, ("vote", 2): None, ("kill", 1): 9, ("kill", 2): 1, ("assassinate", 2): None, ("assassinate", 3): None}
              for s in range(1, 10)}
    script[2].update({("vote", 1): 5, ("vote", 2): 6})
    for s in (6, 7):
        script[s][("vote", 1)] = 8
    for s in (3, 4):
        script[s][("vote", 2)] = 7
    for window, night3 in (("same_day", {6}), ("any_day", {5, 6})):
        game, asked = table(roles, script, max_days=3, moves={"stalker_window": window})
        strike = {d.day: set(d.candidates) for d in asked[2] if d.kind == "assassinate"}
        assert strike[2] == {5} and strike[3] == night3, (window, strike)
        assert rule_breaks(game) == []
    # The checker: a strike on night 3 at the seat voted for on day 1 breaks the same-day window only.
    strike = game.events[0].model_copy(update={"kind": "skill_use", "skill": "stalker_assassinate", "actor": 2, "target": 5, "phase": "night-3",
                                               "result": None})
    for window, broken in (("same_day", True), ("any_day", False)):
        moved = game.model_copy(update={"events": [*game.events, strike],
                                        "rules": game.rules.model_copy(update={"moves": game.rules.moves.model_copy(update={"stalker_window": window})})})
        assert any("not voted for that day" in x for x in rule_breaks(moved)) == broken, window


def _campaign(destructs: dict[int, int], moves: dict) -> tuple[GameLog, dict]:
    """Seven seats, 4 and 5 wolves running with 1; `destructs`: seat -> the day its campaign speech self-destructs."""
    script = {s: {("run", 1): None, ("save", 1): None, ("save", 2): None, ("poison", 1): None, ("poison", 2): None} for s in range(1, 8)}
    for s in (1, 4, 5):
        script[s][("run", 1)] = s
    for w in (4, 5):
        script[w].update({("kill", 1): 7, ("kill", 2): 6, ("campaign", 1): {"text": "..."}, ("campaign", 2): {"text": "..."}})
    for seat, day in destructs.items():
        script[seat][("campaign", day)] = {"text": "I am a wolf.", "destruct": True}
    return table(SEVEN, script, max_days=3, sheriff=True, self_destruct=True, moves=moves)


def test_a_campaign_self_destruct_resumes_the_election_next_morning_where_the_board_says_so():
    game, asked = _campaign({4: 1}, {"campaign_self_destruct": "election_resumes"})
    assert [p.id for p in game.phases][:6] == ["night-1", "sheriff_election-1", "day-1", "night-2", "sheriff_election-2", "day-2"]
    results = [(e.phase, e.target) for e in game.events if e.kind == "sheriff_election"]
    assert [p for p, _ in results] == ["sheriff_election-2"], "no result on day 1: the election is only broken off"
    assert not [d for d in asked[1] if d.kind == "campaign" and d.day == 2], "seat 1 spoke on day 1 and does not speak again"
    assert [d.day for d in asked[5] if d.kind == "campaign"] == [2], "seat 5 had not spoken: it speaks when the election resumes"
    assert "resumes the next morning" in game.rules.text
    assert rule_breaks(game) == []
    # A second self-destruct loses the badge.
    game, _ = _campaign({4: 1, 5: 2}, {"campaign_self_destruct": "election_resumes"})
    assert [(e.phase, e.target) for e in game.events if e.kind == "sheriff_election"] == [("sheriff_election-2", None)]
    assert rule_breaks(game) == []


def test_a_tie_for_sheriff_loses_the_badge_at_once_where_the_board_says_so():
    script = {s: {("run", 1): None, ("withdraw", 1): None, ("sheriff_vote", 1): 1} for s in range(1, 8)}
    script[1][("run", 1)] = 1
    script[2][("run", 1)] = 2
    for s in (3, 4):
        script[s][("sheriff_vote", 1)] = 2
    script[5][("sheriff_vote", 1)] = None
    for s in (4, 5):
        script[s][("kill", 1)] = 7
    game, _ = table(SEVEN, script, max_days=1, sheriff=True, moves={"sheriff_tie": "badge_lost"})
    assert {v.round or 1 for v in game.events if v.kind == "vote" and v.phase == "sheriff_election-1"} == {1}
    assert [e.target for e in game.events if e.kind == "sheriff_election"] == [None]
    assert rule_breaks(game) == []


BROTHERS = ["seer", "witch", "guard", "wolf_brother", "wolf_younger_brother", "werewolf", "villager", "villager", "villager", "villager"]


def test_the_wolf_brothers():
    # Day 1 exiles the elder brother (4); night 2: the pack (6) kills 9, the younger brother (5) kills 10 alone.
    votes = {s: {("vote", 1): 4, ("check", 1): 5, ("check", 2): 5, ("protect", 2): 9, ("save", 1): None, ("poison", 1): None,
                 ("save", 2): None, ("poison", 2): None} for s in range(1, 11)}
    for w in (4, 5, 6):
        votes[w].update({("vote", 1): 7, ("kill", 1): 8, ("kill", 2): 9, ("solo_kill", 2): 10, ("kill", 3): 7})
    game, asked = table(BROTHERS, votes, max_days=3)
    checks = [(e.phase, e.result) for e in game.events if e.skill == "seer_check" and e.target == 5]
    assert checks[:2] == [("night-1", "good"), ("night-2", "wolf")], "good while the elder brother is in"
    assert not [d for d in asked[5] if d.kind == "kill" and d.day <= 2], "the younger joins the kill only after the elder leaves"
    assert [d.day for d in asked[5] if d.kind == "solo_kill"] == [2]
    assert [d.day for d in asked[5] if d.kind == "kill"] == [3], "then with the pack"
    night2 = sorted(e.target for e in game.events if e.kind == "elimination" and e.phase == "day-2" and e.result == "night_death")
    assert night2 == [10], "the guard saved the pack's victim (9), not the lone kill"
    assert not any(d.may_destruct for d in asked[4] if d.kind == "speak"), "the elder brother may not self-destruct"
    told = [e.target for e in game.events if e.skill == "wolf_kill" and e.audience.kind == "seats"]
    assert 10 not in told, "the witch is not told the lone kill"
    assert rule_breaks(game) == []


# ---------------------------------------------------------------------------------------------- roles nobody listed


INVENTED = [
    {"id": "lantern_keeper", "names": {"en": ["lantern keeper"]}, "faction": "good", "team": "gods", "knows_each_night": ["lantern_look"],
     "rule": {"en": "Each night learns whether one player is a werewolf."}},
    {"id": "mist_hound", "names": {"en": ["mist hound"]}, "faction": "wolf", "team": "wolves",
     "rule": {"en": "A werewolf who joins the kill once the pack leader is out; a seer sees it as good until then."}},
    {"id": "pack_leader", "names": {"en": ["pack leader"]}, "faction": "wolf", "team": "wolves", "rule": {"en": "A werewolf who may not self-destruct."}},
]
INVENTED_MORE = [
    {"id": "ember_fox", "names": {"en": ["ember fox"]}, "faction": "good", "team": "gods",
     "rule": {"en": "Starts with three embers; loses one whenever a villager dies; told the count each night; out when none is left."}},
    {"id": "dusk_maw", "names": {"en": ["dusk maw"]}, "faction": "wolf", "team": "wolves",
     "rule": {"en": "A werewolf who first swallows a player each night: that player's exile the next day is void."}},
]
INVENTED_ABILITIES = {"ember_fox": {"action": "tails", "skill": "ember_count", "tails": 3, "tail_cost": {"village": 1}},
                      "dusk_maw": {"action": "swallow", "skill": "maw_swallow", "no_repeat": False},
                      "lantern_keeper": {"action": "check", "skill": "lantern_look"},
                      "mist_hound": {"action": "none", "joins_kill_after": "pack_leader", "seen_good_while": "pack_leader"},
                      "pack_leader": {"action": "none", "self_destruct": False}}


def test_invented_roles_are_declared_and_played(tmp_path):
    roles = ["seer", "lantern_keeper", "witch", "pack_leader", "mist_hound", "villager", "villager", "villager", "villager"]
    board = {"roles": roles, "declared_roles": INVENTED, "abilities": INVENTED_ABILITIES, "debate": "round-robin",
             "win": "side_elimination", "sheriff": True, "self_destruct": True, "moves": {"witch_self_save": "always"}}
    games = play_board_file(tmp_path, board, 4)
    seen = 0
    for g in games:
        assert any(e.skill == "lantern_look" for e in g.events), "the invented good role checks under its own skill"
        seat = {x.role: x.seat for x in g.seats}  # seats are dealt per game
        assert not [e for e in g.events if e.kind == "self_destruct" and e.actor == seat["pack_leader"]]
        hound = seat["mist_hound"]
        leader_out = [e.phase for e in g.events if e.kind == "elimination" and e.target == seat["pack_leader"]]
        checked = [e for e in g.events if e.kind == "skill_use" and e.target == hound and e.skill in ("seer_check", "lantern_look")]
        seen += len(checked)
        for e in checked:
            before = not leader_out or [p.id for p in g.phases].index(e.phase) <= [p.id for p in g.phases].index(leader_out[0])
            assert e.result == ("good" if before else "wolf"), (g.game_id, e)
        assert "The witch may save herself on any night." in g.rules.text and "lantern keeper" in g.rules.text.lower()
    assert seen, "the hound was checked at least once in four games"


def test_invented_roles_on_the_engines_other_moves(tmp_path):
    roles = ["seer", "ember_fox", "witch", "dusk_maw", "werewolf", "villager", "villager", "villager", "villager"]
    board = {"roles": roles, "declared_roles": INVENTED_MORE, "abilities": INVENTED_ABILITIES, "debate": "round-robin",
             "win": "side_elimination"}
    path = tmp_path / "more.json"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "4", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    assert run_cli("validate", tmp_path / "o").returncode == 0
    for g in load_dataset(tmp_path / "o").games.values():
        counts = [int(e.result) for e in g.events if e.skill == "ember_count"]
        villagers_out = [e for e in g.events if e.kind == "elimination" and g.seats[e.target - 1].role == "villager"]
        assert counts and counts == sorted(counts, reverse=True) and min(counts) >= 3 - len(villagers_out)
        fox = next(x.seat for x in g.seats if x.role == "ember_fox")  # seats are dealt per game
        fox_out = [e.result for e in g.events if e.kind == "elimination" and e.target == fox]
        assert len(villagers_out) < 3 or fox_out, "no ember left: the fox is out"
        assert [e for e in g.events if e.skill == "maw_swallow"] and rule_breaks(g) == []


def test_a_role_without_a_declaration_is_refused_with_the_declaration_to_add(tmp_path):
    roles = ["seer", "lantern_keeper", "werewolf", "werewolf", "villager", "villager", "villager"]
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"roles": roles}))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert "'lantern_keeper'" in r.stderr and '"declared_roles": [{"id": "lantern_keeper"' in r.stderr and '"abilities"' in r.stderr
    path.write_text(json.dumps({"roles": roles, "declared_roles": INVENTED[:1]}))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and '"abilities": {"lantern_keeper": {"action": "none"}}' in r.stderr, r.stderr
    # A label in another script gets a declaration with an id to fill in and the label as its name.
    path.write_text(json.dumps({"roles": ["seer", "月影", "werewolf", "werewolf", "villager", "villager", "villager"]}))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and '"names": {"zh": ["月影"]}' in r.stderr, r.stderr


def test_a_game_logs_board_reads_its_rules_text_and_takes_declarations_from_a_board_file(tmp_path):
    """A game log whose rules text states its rules and whose cards include a role nobody listed: the board file
    names the log and declares the role; the arena plays it by the text's rules."""
    first = tmp_path / "a"
    assert run_cli("arena", "--model", "rule/heuristic", "--games", "1", "--board", "standard12", "--out", first).returncode == 0
    log = next((first / "games").glob("*.json"))
    data = json.loads(log.read_text(encoding="utf-8"))
    data["rules"].pop("moves")
    data["rules"]["text"] = "Invented rules. The witch may save herself on the first night only. The wolf beauty charms a good player."
    seat = next(s for s in data["seats"] if s["role"] == "villager")
    seat["role"], seat["faction"] = "Lantern Keeper", "unknown"
    for rc in data["rules"]["composition"]:
        if rc["role"] == "villager":
            rc["count"] -= 1
    data["rules"]["composition"].append({"role": "Lantern Keeper", "faction": "unknown", "count": 1})
    log.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", log, "--out", tmp_path / "b")
    assert r.returncode == 1 and "'Lantern Keeper'" in r.stderr and '{"game": ' in r.stderr, r.stderr
    over = tmp_path / "over.json"
    over.write_text(json.dumps({"game": str(log), "declared_roles": INVENTED[:1], "abilities": {"lantern_keeper": INVENTED_ABILITIES["lantern_keeper"]}}))
    board = load_board(str(over))
    assert board.rules.witch_self_save == "first_night" and board.rules.charm_target == "good"
    assert board.rules.campaign_self_destruct == "election_resumes", "the human hosts' practice where the text is silent"
    assert "lantern_keeper" in board.spec.roles
    r = run_cli("arena", "--model", "rule/heuristic", "--games", "2", "--board", over, "--out", tmp_path / "c")
    assert r.returncode == 0, r.stderr
    for g in load_dataset(tmp_path / "c").games.values():
        assert g.rules.text.startswith("Invented rules.") and g.rules.moves.witch_self_save == "first_night"
        assert rule_breaks(g) == []


def test_a_game_logs_win_rule_in_words_is_read_or_asked_for(tmp_path):
    first = tmp_path / "a"
    assert run_cli("arena", "--model", "rule/heuristic", "--games", "1", "--board", "wwk12", "--out", first).returncode == 0
    log = next((first / "games").glob("*.json"))
    data = json.loads(log.read_text(encoding="utf-8"))
    data["rules"]["win_condition"] = "other"
    data["rules"]["text"] = "本局：狼人杀死所有村民或所有神民则狼人阵营胜利。"
    log.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_board(str(log)).spec.win == "side_elimination"
    data["rules"]["text"] = "Invented rules that name no win rule."
    log.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", log, "--out", tmp_path / "b")
    assert r.returncode == 1 and "win_condition" in r.stderr and '"win": ' in r.stderr, r.stderr


def test_the_magicians_swap_sends_the_nights_moves_to_the_other_seat():
    roles = ["seer", "witch", "magician", "werewolf", "werewolf", "villager", "villager", "villager"]
    # Night 1: the magician swaps 4 (a wolf) and 6; the seer checks 4 and learns 6's side; the wolves aim at 6, which
    # lands on 4's number: the wolf 4 dies.
    script = {1: {("check", 1): 4}, 2: {("save", 1): None, ("poison", 1): None}, 3: {("swap", 1): 4, ("swap_with", 1): 6},
              4: {("kill", 1): 6}, 5: {("kill", 1): 6}}
    game, asked = table(roles, script, max_days=1)
    assert [e.target for e in game.events if e.skill == "magician_swap"] == [4, 6]
    assert [(e.target, e.result) for e in game.events if e.skill == "seer_check"] == [(4, "good")], "the check aimed at 4 tells 6's side"
    assert [e.target for e in game.events if e.kind == "elimination" and e.result == "night_death"] == [4]
    assert rule_breaks(game) == []
    lied = game.model_copy(update={"events": [e.model_copy(update={"result": "wolf"}) if e.skill == "seer_check" else e for e in game.events]})
    assert any("seer check" in x for x in rule_breaks(lied))


def test_the_nine_tailed_fox_counts_its_tails_and_leaves_with_the_last():
    # 3 gods die (6 tails) and 3 villagers (3 tails): the fox (2) has none left. Invented start of 4 tails instead of
    # nine makes it quick: night 1 kills a villager (3 left), day 1 exiles the seer, a god (1 left), night 2 kills
    # a villager (0 left): the fox dies at dawn with it.
    roles = ["seer", "nine_tailed_fox", "werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"]
    script = {s: {("vote", 1): 1, ("kill", 1): 5, ("kill", 2): 6} for s in range(1, 10)}
    game, asked = table(roles, script, max_days=2, abilities={"nine_tailed_fox": {"action": "tails", "skill": "fox_tails", "tails": 4}})
    told = [(e.phase, e.result) for e in game.events if e.skill == "fox_tails"]
    assert told == [("night-1", "3"), ("night-2", "0")], told
    assert sorted(e.target for e in game.events if e.kind == "elimination" and e.phase == "day-2") == [2, 6]
    assert not [d for d in asked[2] if d.day > 2]


def test_the_checker_counts_the_foxs_tails():
    game, _ = table(["seer", "nine_tailed_fox", "werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"],
                    {s: {("kill", 1): 5} for s in range(1, 10)}, max_days=1)
    assert [e.result for e in game.events if e.skill == "fox_tails"] == ["8"] and rule_breaks(game) == []
    lied = game.model_copy(update={"events": [e.model_copy(update={"result": "9"}) if e.skill == "fox_tails" else e for e in game.events]})
    assert any("is told 9 tails" in x for x in rule_breaks(lied))


SKY = ["seer", "witch", "moon_girl", "tiangou", "werewolf", "villager", "villager", "villager", "villager"]


def test_the_sky_dogs_swallow_voids_the_exile_and_its_voters_lose_a_night():
    # Night 1: the sky dog (4) swallows 6; day 1 votes 6 out: void, night falls. Night 2 it may not swallow 6 again.
    script = {s: {("vote", 1): 6, ("kill", 1): 9, ("swallow", 1): 6, ("moon", 1): None, ("save", 1): None, ("poison", 1): None}
              for s in range(1, 10)}
    game, asked = table(SKY, script, max_days=2)
    assert [(e.phase, e.target) for e in game.events if e.skill == "exile_void"] == [("day-1", 6)]
    assert not [e for e in game.events if e.kind == "elimination" and e.target == 6 and e.result == "voted_out"]
    assert not [d for d in asked[3] if d.kind == "moon" and d.day == 1], "night falls at once: no moon"
    (second,) = [d for d in asked[4] if d.kind == "swallow" and d.day == 2]
    assert 6 not in second.candidates and 4 not in second.candidates
    assert rule_breaks(game) == []
    # Day 1 votes the sky dog out: the seer (a god) voted for it and has no check on night 2.
    script = {s: {("vote", 1): 4, ("kill", 1): 9, ("swallow", 1): 6, ("moon", 1): None, ("save", 1): None, ("poison", 1): None}
              for s in range(1, 10)}
    script[4][("vote", 1)] = 1
    game, asked = table(SKY, script, max_days=2)
    assert [d.day for d in asked[1] if d.kind == "check"] == [1]
    assert rule_breaks(game) == []
    acted = game.events[0].model_copy(update={"kind": "skill_use", "skill": "seer_check", "actor": 1, "target": 5, "phase": "night-2",
                                              "result": "wolf", "segment_id": game.events[-1].segment_id})
    assert any("still acts in night-2" in x for x in rule_breaks(game.model_copy(update={"events": [*game.events, acted]})))


def test_the_moon_girl_puts_night_off_for_another_vote():
    script = {s: {("vote", 1): 9, ("kill", 1): 8, ("swallow", 1): 5, ("moon", 1): 3, ("save", 1): None, ("poison", 1): None}
              for s in range(1, 10)}
    game, asked = table(SKY, script, max_days=1)
    assert [e.phase for e in game.events if e.skill == "moon_delay"] == ["day-1"]
    assert len([d for d in asked[3] if d.kind == "moon"]) == 1, "once a day"
    (moon,) = [e for e in game.events if e.skill == "moon_delay"]
    assert [e.target for e in game.events if e.kind == "elimination" and e.result == "voted_out"][0] == 9
    assert [e for e in game.events if e.kind == "vote" and e.phase == "day-1" and e.segment_id > moon.segment_id], "a second vote the same day"
    assert rule_breaks(game) == []
    early = game.model_copy(update={"events": [e.model_copy(update={"segment_id": 0}) if e.skill == "moon_delay" else e for e in game.events]})
    assert any("before that day's vote" in x for x in rule_breaks(early))


@pytest.mark.werebench
def test_the_releases_games_load_as_boards_or_name_the_declaration(werebench_import):
    """Every imported game is a board (the ghost bride's too: a third side, werealign.arena.lovers)."""
    from werealign.errors import UserError

    loaded, refused = 0, {}
    for path in sorted((werebench_import.path / "games").glob("*.json")):
        try:
            load_board(str(path))
            loaded += 1
        except UserError as e:
            refused[path.stem] = str(e)
    assert refused == {} and loaded == len(list((werebench_import.path / "games").glob("*.json")))
