"""The arena plays the human games' rules: each rule is played out on a table whose seats and moves the test
scripts, and every game of the shipped boards is read by an independent rule checker written from the rules
(not from the engine: tests/arena_rule_check.py)."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from arena_rule_check import rule_breaks
from arena_table import SEVEN, Scripted, day_events, table
from cli_inproc import run_cli

from werealign.arena.agents import resolve_agent
from werealign.arena.board import BoardSpec, load_board, make_board
from werealign.arena.moderator import play_game
from werealign.arena.heuristic import HeuristicAgent
from werealign.arena.moves import Action
from werealign.arena.tournament import play_all, schedule
from werealign.dataset import load_dataset
from werealign.schema import GameLog
from werealign.schema.models import Provenance

# ---------------------------------------------------------------------------------------------- the rules



def test_a_hunter_poisoned_the_night_the_wolves_attack_him_has_no_shot():
    game, asked = table(SEVEN, {4: {("kill", 1): 1}, 5: {("kill", 1): 1}, 2: {("save", 1): None, ("poison", 1): 1}}, max_days=1)
    assert day_events(game, "skill_use", 1, skill="witch_poison", target=1)
    assert [e.target for e in day_events(game, "elimination", 1, result="night_death")] == [1]
    assert not [d for d in asked[1] if d.kind == "shoot"], "the poisoned hunter is never asked to shoot"
    assert not [e for e in game.events if e.skill == "hunter_shoot"]
    # Attacked but not poisoned, he shoots.
    game, asked = table(SEVEN, {4: {("kill", 1): 1}, 5: {("kill", 1): 1}, 2: {("save", 1): None, ("poison", 1): None},
                                1: {("shoot", 1): 4}}, max_days=1)
    assert [e.target for e in game.events if e.skill == "hunter_shoot"] == [4]


def test_a_poison_does_not_kill_a_role_the_catalogue_says_survives_it():
    # the demon (seat 1) poisoned on night 1 lives (catalogue `survives`); the potion is spent all the same
    demon = ["demon", "witch", "seer", "werewolf", "werewolf", "villager", "villager"]
    game, asked = table(demon, {4: {("kill", 1): 6}, 5: {("kill", 1): 6}, 2: {("save", 1): None, ("poison", 1): 1}}, max_days=2)
    assert day_events(game, "skill_use", 1, skill="witch_poison", target=1)
    assert [e.target for e in day_events(game, "elimination", 1, result="night_death")] == [6]
    assert not [d for d in asked[2] if d.kind == "poison" and d.day == 2] and rule_breaks(game) == []
    # a plain wolf poisoned the same way dies at that dawn
    game, _ = table(SEVEN, {4: {("kill", 1): 6}, 5: {("kill", 1): 6}, 2: {("save", 1): None, ("poison", 1): 4}}, max_days=1)
    assert sorted(e.target for e in day_events(game, "elimination", 1, result="night_death")) == [4, 6]


def test_the_witch_is_told_when_she_is_the_victim_and_cannot_save_herself():
    game, asked = table(SEVEN, {4: {("kill", 1): 2}, 5: {("kill", 1): 2}, 2: {("poison", 1): None}}, max_days=1)
    told = [e for e in game.events if e.skill == "wolf_kill" and e.audience.kind == "seats"]
    assert [(e.target, e.audience.seats) for e in told] == [(2, [2])]
    assert not [d for d in asked[2] if d.kind == "save"]
    assert [e.target for e in day_events(game, "elimination", 1, result="night_death")] == [2]


def test_abstention_is_a_ballot_when_the_board_allows_it():
    script = {s: {("vote", 1): None} for s in range(1, 8)}
    game, asked = table(SEVEN, {**script, 4: {("kill", 1): 6, ("vote", 1): None}, 5: {("kill", 1): 6, ("vote", 1): None}}, max_days=1)
    votes = day_events(game, "vote", 1)
    assert votes and all(v.target is None for v in votes)
    assert not day_events(game, "elimination", 1, result="voted_out"), "nobody goes when everyone abstains"
    assert game.rules.abstention_allowed
    _, asked = table(SEVEN, {}, max_days=1, abstention=False)
    assert all(not d.none_ok for ds in asked.values() for d in ds if d.kind == "vote")


def test_a_tie_is_spoken_on_and_voted_again_by_the_others_and_a_second_tie_exiles_nobody():
    # Night 1: the wolves kill 7; the witch saves nobody. Day 1: 1, 2 vote 4; 3, 4 vote 5... a 2-2 tie 4/5 with 6 abstaining.
    first = {1: 4, 2: 4, 3: 5, 4: 5, 5: None, 6: None}
    second = {1: 4, 2: 5, 3: None, 6: None}  # 4 and 5, tied, are not asked
    scripts = {s: {("vote", 1): first[s]} for s in first}
    scripts[4].update({("kill", 1): 7})
    scripts[5].update({("kill", 1): 7})
    scripts[2].update({("save", 1): None, ("poison", 1): None})

    class Rounds(Scripted):
        def act(self, view, decision):
            if decision.kind == "vote" and decision.day == 1 and len(decision.candidates) == 2 and set(decision.candidates) == {4, 5}:
                self.asked.append(decision)
                return Action(choice=second[self_seat[id(self)]])
            return super().act(view, decision)

    self_seat: dict[int, int] = {}
    board = make_board("t", BoardSpec(roles=SEVEN, debate="round-robin", win="side_elimination", max_days=1))
    asked: dict[int, list] = defaultdict(list)
    agents = {}
    for s in range(1, 8):
        agents[s] = Rounds(scripts.get(s, {}), asked[s])
        self_seat[id(agents[s])] = s
    game = play_game(board, SEVEN, agents, "t-2", 1, Provenance(source="test")).game
    rounds = defaultdict(dict)
    for v in day_events(game, "vote", 1):
        rounds[v.round][v.actor] = v.target
    assert rounds[1] == first and rounds[2] == second
    assert {4, 5}.isdisjoint(rounds[2]), "the tied players do not vote in the re-vote"
    texts = [(u.speaker, u.text) for u in game.utterances if u.phase == "day-1"]
    pk = next(i for i, (sp, t) in enumerate(texts) if sp == "host" and "speaks once more" in t)
    assert [sp for sp, _ in texts[pk + 1:pk + 3]] == [4, 5], "the tied players speak once more before the re-vote"
    assert not day_events(game, "elimination", 1, result="voted_out")


def test_werewolf_arena_board_needs_a_majority():
    board = load_board("arena8")
    assert board.spec.exile == "majority"
    roles = ["seer", "doctor", "werewolf", "werewolf", "villager", "villager", "villager", "villager"]
    # Night 1 kills 8; day 1: 3 votes for 5, 2 for 6, 2 abstain-like splits -> 3 of 7 is no majority.
    votes = {1: 5, 2: 5, 3: 5, 4: 6, 5: 6, 6: 7, 7: 1}
    asked: dict[int, list] = defaultdict(list)
    agents = {s: Scripted({("vote", 1): votes.get(s), ("kill", 1): 8, ("protect", 1): 1}, asked[s]) for s in range(1, 9)}
    game = play_game(make_board("a8", board.spec.model_copy(update={"max_days": 1})), roles, agents, "t-3", 1, Provenance(source="test")).game
    assert len(day_events(game, "vote", 1)) == 7
    assert not day_events(game, "elimination", 1, result="voted_out")
    assert {v.round for v in day_events(game, "vote", 1)} == {1}, "no re-vote under the majority rule"


def test_candidates_are_shuffled_per_request_and_seeded():
    b = load_board("standard12")
    matches = schedule(["rule/heuristic"], 1, 4, b)
    orders = []
    for _ in range(2):
        seen: list = []
        list(play_all(b, matches, lambda m, match, role, seen=seen: Recorder(resolve_agent(m, "single", match.seed), seen)))
        orders.append([d.candidates for d in seen if len(d.candidates) > 2])
    assert orders[0] == orders[1], "the same seed shows the same orders"
    assert any(list(c) != sorted(c) for c in orders[0]), "candidates are not listed in seat order"
    assert len({tuple(sorted(c)) for c in orders[0]}) < len(set(orders[0])), "one candidate set is shown in several orders"


class Recorder:
    def __init__(self, inner, seen):
        self.inner, self.seen, self.name = inner, seen, inner.name

    def act(self, view, decision):
        self.seen.append(decision)
        return self.inner.act(view, decision)


def test_parity_is_logged_as_parity():
    b = load_board("arena8")
    _, played = next(iter(play_all(b, schedule(["rule/random"], 1, 1, b), lambda m, match, role: resolve_agent(m, "single", match.seed))))
    assert played.game.rules.win_condition == "parity" and b.spec.win == "parity"
    assert "Parity" in played.game.rules.text


def test_the_sheriffs_vote_counts_one_and_a_half():
    # 7 seats, no night kill is fatal (the witch saves), the sheriff (seat 3) and seat 6 vote 4, seats 1, 2 vote 5: 2.5 to 2.
    script = {1: {("vote", 1): 5}, 2: {("vote", 1): 5, ("save", 1): 7, ("poison", 1): None}, 3: {("vote", 1): 4, ("run", 1): 3},
              4: {("vote", 1): None, ("kill", 1): 7}, 5: {("vote", 1): None, ("kill", 1): 7}, 6: {("vote", 1): 4}, 7: {("vote", 1): None}}
    for s in (1, 2, 4, 5, 6, 7):
        script[s][("run", 1)] = None
    game, _ = table(SEVEN, script, max_days=1, sheriff=True)
    assert [e.target for e in game.events if e.kind == "sheriff_election"] == [3]
    assert [e.target for e in day_events(game, "elimination", 1, result="voted_out")] == [4]
    assert game.rules.has_sheriff


SPECIAL = ["seer", "idiot", "silencer_elder", "stalker", "wolf_beauty", "werewolf", "villager", "villager"]


def test_the_idiot_voted_out_stays_in_without_a_vote():
    votes = {1: 2, 3: 2, 4: 2, 5: 3, 6: 3, 7: 2, 8: 2}
    game, asked = table(SPECIAL, {s: {("vote", 1): t, ("kill", 1): 8, ("silence", 1): None, ("charm", 1): 1} for s, t in votes.items()},
                        max_days=2)
    assert [e.actor for e in game.events if e.skill == "idiot_reveal"] == [2]
    assert not [e for e in game.events if e.kind == "elimination" and e.target == 2 and e.result == "voted_out" and e.phase == "day-1"]
    assert not [d for d in asked[2] if d.kind == "vote" and d.day == 2], "a revealed idiot has no vote"


def test_the_silenced_seat_says_nothing_the_next_day():
    game, asked = table(SPECIAL, {3: {("silence", 1): 7}, 5: {("kill", 1): 8, ("charm", 1): 1}, 6: {("kill", 1): 8}}, max_days=1)
    assert not [d for d in asked[7] if d.kind in ("speak", "last_words") and d.day == 1]
    assert any(u.speaker == "host" and "Seat 7 is silenced" in u.text for u in game.utterances)
    assert rule_breaks(game) == []
    # The checker: seat 7 speaking on day 1 (the day after the night it was silenced) is a break.
    turn = next(u for u in game.utterances if u.phase == "day-1" and isinstance(u.speaker, int) and u.speaker != 7)
    spoke = game.model_copy(update={"utterances": [u.model_copy(update={"speaker": 7}) if u is turn else u for u in game.utterances]})
    assert any("silenced seat 7 speaks on day 1" in x for x in rule_breaks(spoke))


def test_the_wolf_beautys_charmed_seat_leaves_with_her_and_the_stalker_strikes_once():
    # Day 1 exiles the wolf beauty (5); she charmed 1 (the seer), who leaves with her, with no skill.
    votes = {1: 5, 2: 5, 3: 5, 4: 5, 7: 5, 5: 4, 6: 4}
    script = {s: {("vote", 1): t, ("silence", 1): None} for s, t in votes.items()}
    script[5].update({("kill", 1): 8, ("charm", 1): 1})
    script[6][("kill", 1)] = 8
    game, asked = table(SPECIAL, script, max_days=2)
    charmed = [e for e in game.events if e.kind == "elimination" and e.result == "charmed"]
    assert [e.target for e in charmed] == [1] and rule_breaks(game) == []
    assert not [e for e in game.events if e.actor == 1 and e.phase == "night-2"], "the charmed seer acts no more"
    stalker = [d for d in asked[4] if d.kind == "assassinate"]
    assert stalker == [], "its only ballot went to the wolf beauty, who is out: nobody to assassinate"


# ---------------------------------------------------------------------------------------------- an independent checker


@pytest.mark.parametrize("board", ["wwk12", "beauty12", "elder12", "idiot12", "demon12", "standard12", "arena8"])
def test_every_shipped_board_plays_without_breaking_a_rule(tmp_path, board):
    out = tmp_path / board
    r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "3", "--board", board, "--out", out)
    assert r.returncode == 0, r.stderr
    v = run_cli("validate", out)
    assert v.returncode == 0 and "0 errors" in v.stdout, v.stdout
    games = load_dataset(out).games.values()
    for g in games:
        assert rule_breaks(g) == [], g.game_id
    if board == "wwk12":
        assert all(g.language == "zh" and g.rules.has_sheriff for g in games)
        assert all(any(e.kind == "sheriff_election" for e in g.events) for g in games)
        assert all(re.search(r"[\u4e00-\u9fff]", u.text) for g in games for u in g.utterances if u.speaker == "host")


def test_the_checker_catches_what_it_checks():
    """The checker is no rubber stamp: a log that breaks each rule is caught."""
    b = load_board("wwk12")
    _, played = next(iter(play_all(b, schedule(["rule/heuristic"], 1, 2, b), lambda m, match, role: resolve_agent(m, "single", match.seed))))
    game = played.game
    assert rule_breaks(game) == []
    check = next(e for e in game.events if e.skill == "seer_check")
    lied = game.model_copy(update={"events": [e.model_copy(update={"result": "good" if e.result == "wolf" else "wolf"}) if e is check else e
                                              for e in game.events]})
    assert any("seer check" in x for x in rule_breaks(lied))
    out = next(e for e in game.events if e.kind == "elimination")
    twice = game.model_copy(update={"events": [*game.events, out]})
    assert any("twice" in x for x in rule_breaks(twice))
    other = {"good": "wolf", "wolf": "good", None: "good"}[game.winner]
    assert any("the log records" in x for x in rule_breaks(game.model_copy(update={"winner": other})))
    early = game.model_copy(update={"phases": [*game.phases, game.phases[-1].model_copy(update={"id": "night-99"})]})
    assert game.winner is None or any("goes on after" in x for x in rule_breaks(early))


def test_self_destruct_and_the_white_wolf_kings_take_end_the_day():
    b = load_board("wwk12")
    seen = 0
    for seed in range(12):
        for _, played in play_all(b, schedule(["rule/heuristic"], 1, seed, b), lambda m, match, role: resolve_agent(m, "single", match.seed)):
            g = played.game
            for e in (e for e in g.events if e.kind == "self_destruct"):
                seen += 1
                assert any(x.kind == "elimination" and x.target == e.actor and x.result == "self_destruct" for x in g.events)
                assert not [v for v in g.events if v.kind == "vote" and v.phase == e.phase and v.segment_id > e.segment_id]
                takes = [x for x in g.events if x.skill == "white_wolf_king_take"]
                assert all(g.seats[x.actor - 1].role == "white_wolf_king" for x in takes)
            assert rule_breaks(g) == []
    assert seen, "some wolf self-destructs in a dozen seeded games"


def test_the_rule_seer_announces_its_checks_as_they_came_out():
    for name in ("standard12", "wwk12"):
        b = load_board(name)
        for _, played in play_all(b, schedule(["rule/heuristic"], 4, 3, b), lambda m, match, role: resolve_agent(m, "single", match.seed)):
            g = played.game
            seer = next(s.seat for s in g.seats if s.role == "seer")
            checks = {e.target: e.result for e in g.events if e.skill == "seer_check"}
            for u in g.utterances:
                if u.speaker != seer:
                    continue
                m = re.search(r"(?:checked Seat (\d+) and Seat \d+ is (a werewolf|good))|(?:查验了(\d+)号，\d+号是(狼人|好人))", u.text)
                if m:
                    seat = int(m.group(1) or m.group(3))
                    said = "wolf" if (m.group(2) or m.group(4)) in ("a werewolf", "狼人") else "good"
                    assert checks[seat] == said, (g.game_id, u.text)


# ---------------------------------------------------------------------------------------------- boards from game logs


def test_a_game_log_is_a_board(tmp_path):
    """An arena game log (any werealign game log) given to --board: its cards, sheriff, win rule and language."""
    first = tmp_path / "a"
    assert run_cli("arena", "--model", "rule/heuristic", "--games", "1", "--board", "wwk12", "--out", first).returncode == 0
    log = next((first / "games").glob("*.json"))
    board = load_board(str(log))
    source = load_board("wwk12").spec
    assert sorted(board.spec.roles) == sorted(source.roles)
    assert (board.spec.sheriff, board.spec.language, board.spec.win) == (True, "zh", "side_elimination")
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", log, "--out", tmp_path / "b")
    assert r.returncode == 0, r.stderr
    assert run_cli("validate", tmp_path / "b").returncode == 0


def test_a_role_the_engine_cannot_play_is_refused_in_one_line(tmp_path):
    board = {"roles": ["seer", "moon_charmer", "werewolf", "werewolf", "villager", "villager", "villager"],
             "declared_roles": []}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and "moon_charmer" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    # A catalogue role with powers the engine lacks is refused by name, not played as a plain card.
    board["roles"][1] = "knight"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and "'knight'" in r.stderr and "cannot play" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_the_releases_setups_play_or_are_refused_by_name(werebench_import, tmp_path):
    """One game of each setup of the release as --board: a setup the engine plays gives seeded games in the
    game's language with its sheriff that break no rule; any other is refused in one line naming a role (none of
    the release's since the ghost bride plays)."""
    seen: set = set()
    played, refused = set(), 0
    for path in sorted((werebench_import.path / "games").glob("*.json")):
        g = GameLog.model_validate_json(path.read_text(encoding="utf-8"))
        setup = tuple(sorted((rc.role, rc.count) for rc in g.rules.composition))
        if setup in seen:
            continue
        seen.add(setup)
        roles = {rc.role for rc in g.rules.composition}
        r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "1", "--board", path,
                    "--out", tmp_path / path.stem)
        if roles <= {"seer", "witch", "hunter", "guard", "white_wolf_king", "werewolf", "villager", "idiot", "silencer_elder",
                     "stalker", "wolf_beauty", "demon", "wolf_brother", "wolf_younger_brother", "magician", "nine_tailed_fox", "tiangou", "moon_girl", "ghost_bride"}:
            assert r.returncode == 0, (path.name, r.stderr)
            assert run_cli("validate", tmp_path / path.stem).returncode == 0
            for game in load_dataset(tmp_path / path.stem).games.values():
                assert game.language == g.language and game.rules.has_sheriff == g.sheriff_in_play()
                assert rule_breaks(game) == [], game.game_id
            played |= roles
        else:
            assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
            assert any(repr(x) in r.stderr for x in roles), r.stderr
            refused += 1
    assert {"white_wolf_king", "wolf_beauty", "silencer_elder", "wolf_brother", "magician", "nine_tailed_fox", "tiangou", "ghost_bride"} <= played
    assert refused == 0


def test_the_stalker_assassinates_once_a_seat_it_voted_for_that_survived():
    script = {s: {("vote", 1): None, ("silence", 1): None, ("silence", 2): None} for s in range(1, 9)}
    for s in (1, 3, 7):
        script[s][("vote", 1)] = 2  # the idiot: shows the card and stays; 6, whom the stalker voted for, stays
    script[4].update({("vote", 1): 6, ("assassinate", 2): 6})
    script[5].update({("kill", 1): 8, ("kill", 2): 3, ("charm", 1): 3, ("charm", 2): 3})
    script[6].update({("kill", 1): 8, ("kill", 2): 3})
    game, asked = table(SPECIAL, script, max_days=3)
    (first,) = [d for d in asked[4] if d.kind == "assassinate" and d.day == 2]
    assert first.candidates == (6,) and first.none_ok
    assert [e.target for e in game.events if e.skill == "stalker_assassinate"] == [6]
    assert 6 in [e.target for e in day_events(game, "elimination", 2, result="night_death")]
    assert not [d for d in asked[4] if d.kind == "assassinate" and d.day > 2], "once a game"
    assert rule_breaks(game) == []


def test_a_self_destruct_in_the_campaign_loses_the_badge_and_ends_day_one():
    script = {s: {("run", 1): None} for s in range(1, 8)}
    script[4] = {("run", 1): 4, ("kill", 1): 7, ("campaign", 1): {"text": "I am a wolf.", "destruct": True}}
    script[5] = {("run", 1): 5, ("kill", 1): 7}
    script[2] = {("run", 1): None, ("save", 1): None, ("poison", 1): None}
    game, asked = table(SEVEN, script, max_days=2, sheriff=True, self_destruct=True)
    (sd,) = [e for e in game.events if e.kind == "self_destruct"]
    assert sd.actor == 4 and sd.phase.startswith("sheriff_election")
    assert [e.target for e in game.events if e.kind == "sheriff_election"] == [None]
    assert not [e for e in game.events if e.kind == "vote" and e.phase == "day-1"], "no vote on day 1"
    assert not [d for ds in asked.values() for d in ds if d.kind == "speak" and d.day == 1]
    assert [p.id for p in game.phases][:4] == ["night-1", "sheriff_election-1", "day-1", "night-2"]
    assert rule_breaks(game) == []


def test_a_white_wolf_king_on_a_board_without_self_destruct_is_refused_and_no_rules_text_promises_it(tmp_path):
    board = {"roles": ["seer", "white_wolf_king", "werewolf", "villager", "villager", "villager", "villager"]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/random", "--games", "1", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 1 and "'white_wolf_king'" in r.stderr and "self_destruct" in r.stderr, r.stderr
    b = load_board("standard12")
    _, played = next(iter(play_all(b, schedule(["rule/random"], 1, 1, b), lambda m, match, role: resolve_agent(m, "single", match.seed))))
    assert "Nobody may self-destruct" in played.game.rules.text
    assert not [e for e in played.game.events if e.kind == "self_destruct"]


# ---------------------------------------------------------------------------------------------- one death per seat


def test_a_hunter_killed_at_night_cannot_shoot_a_seat_that_died_the_same_night():
    # Night 1: the wolves kill the hunter (1), the witch poisons seat 6: both are out before the hunter's shot.
    game, asked = table(SEVEN, {4: {("kill", 1): 1}, 5: {("kill", 1): 1}, 2: {("save", 1): None, ("poison", 1): 6},
                                1: {("shoot", 1): 6}}, max_days=1)
    (shot,) = [d for d in asked[1] if d.kind == "shoot"]
    assert 6 not in shot.candidates and 1 not in shot.candidates
    dead = [e.target for e in game.events if e.kind == "elimination"]
    assert len(dead) == len(set(dead)), dead
    assert rule_breaks(game) == []


def test_a_poisoned_wolf_who_self_destructs_in_the_campaign_does_not_die_again_at_dawn():
    script = {s: {("run", 1): None} for s in range(1, 8)}
    script[4] = {("run", 1): 4, ("kill", 1): 7, ("campaign", 1): {"text": "I am a wolf.", "destruct": True}}
    script[5] = {("run", 1): 5, ("kill", 1): 7}
    script[2] = {("run", 1): None, ("save", 1): None, ("poison", 1): 4}
    game, asked = table(SEVEN, script, max_days=2, sheriff=True, self_destruct=True)
    assert [e.result for e in game.events if e.kind == "elimination" and e.target == 4] == ["self_destruct"]
    assert not [d for d in asked[4] if d.kind == "last_words"], "no last words after leaving"
    assert 4 in [e.target for e in game.events if e.kind == "night_outcome"], "the night's death is still announced"
    assert rule_breaks(game) == []


def test_the_engine_refuses_to_eliminate_a_seat_twice():
    from werealign.arena.moderator import Table

    board = make_board("t", BoardSpec(roles=SEVEN))
    t = Table(board, SEVEN, {s: HeuristicAgent(0) for s in range(1, 8)}, "t-x", 0, Provenance(source="test"))
    t.rec.begin("day", 1)
    t.leave(6, "voted_out", shot=False)
    with pytest.raises(RuntimeError, match="seat 6 would leave the game twice"):
        t.leave(6, "voted_out", shot=False)
