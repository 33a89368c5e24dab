"""The arena plays the human games' rules: each rule is played out on a table whose seats and moves the test
scripts, and every game of the shipped boards is read by an independent rule checker written from the rules
(not from the engine: tests/arena_rule_check.py)."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from arena_rule_check import rule_breaks
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


# ---------------------------------------------------------------------------------------------- the rules

SEVEN = ["hunter", "witch", "seer", "werewolf", "werewolf", "villager", "villager"]


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
    game's language with its sheriff that break no rule; any other is refused in one line naming a role."""
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
                     "stalker", "wolf_beauty", "demon", "wolf_brother", "wolf_younger_brother", "magician", "nine_tailed_fox"}:
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
    assert {"white_wolf_king", "wolf_beauty", "silencer_elder", "wolf_brother", "magician", "nine_tailed_fox"} <= played and refused


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
INVENTED_ABILITIES = {"lantern_keeper": {"action": "check", "skill": "lantern_look"},
                      "mist_hound": {"action": "none", "joins_kill_after": "pack_leader", "seen_good_while": "pack_leader"},
                      "pack_leader": {"action": "none", "self_destruct": False}}


def test_invented_roles_are_declared_and_played(tmp_path):
    roles = ["seer", "lantern_keeper", "witch", "pack_leader", "mist_hound", "villager", "villager", "villager", "villager"]
    board = {"roles": roles, "declared_roles": INVENTED, "abilities": INVENTED_ABILITIES, "debate": "round-robin",
             "win": "side_elimination", "sheriff": True, "self_destruct": True, "moves": {"witch_self_save": "always"}}
    path = tmp_path / "invented.json"
    path.write_text(json.dumps(board))
    r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "4", "--board", path, "--out", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    v = run_cli("validate", tmp_path / "o")
    assert v.returncode == 0 and "0 errors" in v.stdout, v.stdout
    games = list(load_dataset(tmp_path / "o").games.values())
    for g in games:
        assert any(e.skill == "lantern_look" for e in g.events), "the invented good role checks under its own skill"
        assert not [e for e in g.events if e.kind == "self_destruct" and e.actor == roles.index("pack_leader") + 1]
        hound = roles.index("mist_hound") + 1
        leader_out = [e.phase for e in g.events if e.kind == "elimination" and e.target == roles.index("pack_leader") + 1]
        for e in g.events:
            if e.kind == "skill_use" and e.target == hound and e.skill in ("seer_check", "lantern_look"):
                before = not leader_out or [p.id for p in g.phases].index(e.phase) <= [p.id for p in g.phases].index(leader_out[0])
                assert e.result == ("good" if before else "wolf"), (g.game_id, e)
        assert "The witch may save herself on any night." in g.rules.text and "lantern keeper" in g.rules.text.lower()


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
