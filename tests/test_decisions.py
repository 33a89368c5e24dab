"""Decision items (issue 31) on invented games: the legal moves per board rule, who is asked, the cut-off and the
prompt, the floors, and that an arena game yields the same kinds. Nothing here comes from real data."""

from __future__ import annotations

import json

import pytest
from cli_inproc import run_cli

from werealign.dataset import load_dataset, write_dataset
from werealign.eval.prompts import render_messages
from werealign.game.decisions import derive_decisions
from werealign.schema import Event, GameLog, Mvp, Phase, Provenance, RoleCount, Rules, SeatInfo, Segment, Utterance
from werealign.schema.models import EVERYONE, Audience, MoveRules
from werealign.tasks import TASKS, parse_reply

ACTOR = Audience(kind="actor")
WOLVES = Audience(kind="team", team="wolf")
ROLES = {1: "seer", 2: "guard", 3: "witch", 4: "werewolf", 5: "werewolf", 6: "villager", 7: "villager", 8: "villager"}
MARK_N2 = "PANGOLIN-NIGHT-TWO-CHECK"  # the seer's second-night result: never in a prompt of night 2


def _skill(phase, skill, actor, target, audience=ACTOR, result=None, segment=None):
    return Event(kind="skill_use", phase=phase, segment_id=segment, audience=audience, actor=actor, target=target, skill=skill, result=result)


def invented_game(*, moves: MoveRules | None = None, night1_victim: int = 6, witch_saves: bool = True, night2_guard: int = 8,
                  winner: str = "good") -> GameLog:
    """8 seats; night 1: seer checks 4, guard protects 7, wolves attack `night1_victim`, the witch saves; day 1: 4 is voted
    out (seat 8 abstains); night 2: seer checks 5, guard protects `night2_guard`, wolves kill 1, no poison; day 2: 1 is
    announced dead, 5 is voted out."""
    texts = {  # segment -> (phase, speaker, text)
        0: ("night-1", "host", "Night falls."), 1: ("night-1", "host", "Seer, guard, witch, wolves: act."),
        2: ("day-1", "host", "Day breaks. A peaceful night."), 3: ("day-1", 1, "I think seat 4 is lying."),
        4: ("day-1", 6, "Seat 4 sounds off to me too."), 5: ("day-1", 4, "Seat 1 is the wolf."),
        6: ("day-1", "host", "Please vote now."), 7: ("day-1", "host", "Seat 4 is exiled."),
        8: ("night-2", "host", "Night falls again."), 9: ("day-2", "host", "Day breaks: seat 1 died."),
        10: ("day-2", 7, "Seat 5 defended seat 4 all day."), 11: ("day-2", "host", "Please vote now."), 12: ("day-2", "host", "Seat 5 is exiled."),
    }
    utterances = [Utterance(index=i, segment_ids=[s], start=float(s), end=s + 0.9, phase=ph, speaker=sp, text=t,
                            segments=[Segment(id=s, start=float(s), end=s + 0.9, text=t)]) for i, (s, (ph, sp, t)) in enumerate(texts.items())]
    events = [
        _skill("night-1", "seer_check", 1, 4, result="wolf"), _skill("night-1", "guard_protect", 2, 7),
        _skill("night-1", "wolf_kill", None, night1_victim, WOLVES), _skill("night-1", "wolf_kill", None, night1_victim, Audience(kind="seats", seats=[3])),
        *([_skill("night-1", "witch_save", 3, night1_victim)] if witch_saves else []),
        *[Event(kind="vote", phase="day-1", segment_id=7, audience=EVERYONE, actor=v, target=t)
          for v, t in {1: 4, 2: 4, 3: 4, 6: 4, 7: 5, 8: None, 4: 1, 5: 1}.items()],
        Event(kind="elimination", phase="day-1", segment_id=7, audience=EVERYONE, target=4, result="voted_out"),
        _skill("night-2", "seer_check", 1, 5, result=MARK_N2), _skill("night-2", "guard_protect", 2, night2_guard),
        _skill("night-2", "wolf_kill", None, 1, WOLVES),
        Event(kind="elimination", phase="day-2", segment_id=9, audience=EVERYONE, target=1, result="night_death"),
        *[Event(kind="vote", phase="day-2", segment_id=12, audience=EVERYONE, actor=v, target=t) for v, t in {2: 5, 3: 5, 6: 5, 7: 5, 8: 5, 5: 7}.items()],
        Event(kind="elimination", phase="day-2", segment_id=12, audience=EVERYONE, target=5, result="voted_out"),
    ]
    return GameLog(
        game_id="invented-1", language="en", provenance=Provenance(source="invented for tests"),
        rules=Rules(text=None, variant="seer-witch-guard", moves=moves, abstention_allowed=True,
                    composition=[RoleCount(role=r, faction="wolf" if r == "werewolf" else "good", count=list(ROLES.values()).count(r)) for r in dict.fromkeys(ROLES.values())]),
        seats=[SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good") for s, r in ROLES.items()],
        phases=[Phase(id=p, kind=p.split("-")[0], day=int(p[-1]), start=0, end=0) for p in ("night-1", "day-1", "night-2", "day-2")],
        utterances=utterances, events=events, mvp=Mvp(seat=7), winner=winner)


def _one(items, phase, seat=None):
    found = [i for i in items if i.phase == phase and (seat is None or i.viewpoint_seat == seat)]
    assert len(found) == 1, found
    return found[0]


def test_seer_checks_any_living_seat_but_her_own():
    items = derive_decisions(invented_game(), "all").items["seer_check"]
    assert _one(items, "night-1").candidates == [2, 3, 4, 5, 6, 7, 8] and _one(items, "night-1").answer == 4
    n2 = _one(items, "night-2")
    assert n2.candidates == [2, 3, 5, 6, 7, 8] and n2.answer == 5  # seat 4 was voted out on day 1


def test_guard_may_not_repeat_last_nights_seat_unless_the_board_allows_it():
    items = derive_decisions(invented_game(), "all").items["guard_protect"]
    assert _one(items, "night-1").candidates == [1, 2, 3, 4, 5, 6, 7, 8]  # himself included
    assert _one(items, "night-2").candidates == [1, 2, 3, 5, 6, 8] and not _one(items, "night-2").none_allowed
    # Protecting seat 7 again breaks the default rule: no item, and a note that says so.
    made = derive_decisions(invented_game(night2_guard=7), "all")
    assert not [i for i in made.items["guard_protect"] if i.phase == "night-2"]
    assert any(n.code == "guard_protect_illegal" for n in made.notes)
    # A board that allows repeats (and skipping) has 7 among the legal moves, and "none".
    free = derive_decisions(invented_game(night2_guard=7, moves=MoveRules(guard_repeat=True, guard_may_skip=True)), "all").items["guard_protect"]
    n2 = _one(free, "night-2")
    assert 7 in n2.candidates and n2.answer == 7 and n2.none_allowed


def test_witch_save_and_the_one_potion_a_night_rule():
    made = derive_decisions(invented_game(), "all").items
    save = _one(made["witch_save"], "night-1")
    assert (save.candidates, save.answer, save.none_allowed, save.about) == ([6], 6, True, 6)
    # Night 1 she saved: no poison that night; night 2 nobody but the wolves' victim died, so "no poison" is proven.
    assert [i.phase for i in made["witch_poison"]] == ["night-2"] and made["witch_poison"][0].answer is None
    assert 3 not in made["witch_poison"][0].candidates
    both = derive_decisions(invented_game(moves=MoveRules(witch_both_potions=True)), "all").items["witch_poison"]
    assert [i.phase for i in both] == ["night-1", "night-2"]


@pytest.mark.parametrize("rule, saves, expect", [
    (None, False, "unknown"),  # undeclared and not shown by the log: no item
    (None, True, "item"),  # the log shows her saving herself: allowed
    ("never", False, "none"),
    ("first_night", True, "item"),
    ("always", True, "item"),
])
def test_witch_self_save_follows_the_board(rule, saves, expect):
    game = invented_game(night1_victim=3, witch_saves=saves, moves=MoveRules(witch_self_save=rule) if rule else None)
    made = derive_decisions(game, "all")
    saves_made = [i for i in made.items["witch_save"] if i.phase == "night-1"]
    if expect == "item":
        assert saves_made and saves_made[0].candidates == [3]
    else:
        assert not saves_made
    assert any(n.code == "witch_save_rule_unknown" for n in made.notes) == (expect == "unknown")


def test_a_no_save_the_log_cannot_prove_gives_no_item():
    made = derive_decisions(invented_game(witch_saves=False), "all")  # seat 6 attacked, not saved, yet not announced dead
    assert not [i for i in made.items["witch_save"] if i.phase == "night-1"] and any(n.code == "witch_save_unproven" for n in made.notes)
    night2 = _one(made.items["witch_save"], "night-2")  # she still holds the antidote; seat 1's night death proves no save
    assert (night2.candidates, night2.answer) == ([1], None)


def test_wolves_kill_is_asked_of_one_wolf_and_the_board_decides_whether_a_wolf_is_prey():
    kills = derive_decisions(invented_game(), "all").items["wolf_kill"]
    assert [(i.phase, i.viewpoint_seat, i.answer) for i in kills] == [("night-1", 4, 6), ("night-2", 5, 1)]
    assert 5 in kills[0].candidates
    strict = derive_decisions(invented_game(moves=MoveRules(wolves_may_kill_wolf=False)), "all").items["wolf_kill"]
    assert 4 not in strict[0].candidates and 5 not in strict[0].candidates
    assert not derive_decisions(invented_game(), "winners").items["wolf_kill"], "the wolves lost: not asked by default"


def _abstaining(game: GameLog, allowed: bool = True) -> GameLog:
    return game.model_copy(update={"rules": game.rules.model_copy(update={"abstention_allowed": allowed})})


def test_abstention_is_offered_by_the_boards_rule_not_by_what_the_game_recorded():
    # Issue 42: a board that allows abstaining offers it on every ballot, a day whose record has none included;
    # a board that does not makes no item of a recorded abstention, and says so by reason.
    allowed = derive_decisions(_abstaining(invented_game()), "all").items["ballot"]
    assert all(i.none_allowed for i in allowed) and any(i.phase == "day-2" for i in allowed)
    strict = derive_decisions(_abstaining(invented_game(), False), "all")
    assert not any(i.none_allowed for i in strict.items["ballot"]) and 8 not in {i.viewpoint_seat for i in strict.items["ballot"] if i.phase == "day-1"}
    assert [n.code for n in strict.notes if n.code == "ballot_none_illegal"] == ["ballot_none_illegal"]


def test_ballots_of_every_voter_with_abstention_and_who_is_asked():
    everyone = derive_decisions(invented_game(), "all").items["ballot"]
    day1 = [i for i in everyone if i.phase == "day-1"]
    assert sorted(i.viewpoint_seat for i in day1) == [1, 2, 3, 4, 5, 6, 7, 8]
    abstainer = _one(day1, "day-1", 8)
    assert abstainer.answer is None and abstainer.none_allowed and abstainer.candidates == [1, 2, 3, 4, 5, 6, 7]
    assert _one(everyone, "day-2", 2).candidates == [3, 5, 6, 7, 8]  # 1 died at night, 4 was voted out
    assert all(i.cutoff_segment == 6 for i in day1)  # before the tally is read
    winners = derive_decisions(invented_game(), "winners").items["ballot"]
    assert {i.viewpoint_seat for i in winners} == {1, 2, 3, 6, 7, 8}
    mvp = derive_decisions(invented_game(), "mvp").items["ballot"]
    assert {i.viewpoint_seat for i in mvp} == {7} and all(i.item_id.endswith("-mvp") and "mvp" in i.deciders for i in mvp)
    assert not any(i.item_id.endswith("-mvp") for i in winners if i.viewpoint_seat != 7)


def test_sheriff_ballots_and_the_badge():
    game = invented_game()
    phases = [p.model_copy(update={"kind": "sheriff_election"}) if p.id == "day-1" else p for p in game.phases]
    events = [e for e in game.events if not (e.kind == "vote" and e.phase == "day-1" and e.actor in (4, 5))]
    events.append(Event(kind="badge_transfer", phase="day-2", segment_id=9, audience=EVERYONE, actor=1, target=7))
    made = derive_decisions(game.model_copy(update={"phases": phases, "events": events}), "all").items
    sheriff = made["sheriff_ballot"]
    assert sorted(i.viewpoint_seat for i in sheriff) == [1, 2, 3, 6, 7, 8] and all(i.candidates == [4, 5] for i in sheriff)
    assert _one(sheriff, "day-1", 8).answer is None and not [i for i in made["ballot"] if i.phase == "day-1"]
    badge = _one(made["badge"], "day-2", 1)
    assert (badge.candidates, badge.answer, badge.none_allowed, badge.cutoff_segment) == ([2, 3, 5, 6, 7, 8], 7, True, 8)


def test_prompts_are_the_deciders_view_at_the_decision():
    made = derive_decisions(invented_game(), "all").items
    game = invented_game()
    seer2 = _one(made["seer_check"], "night-2")
    text = render_messages(game, seer2)[-1]["content"]
    assert "4" in text and MARK_N2 not in text and "Night falls again." in text and "seat 1 died" not in text
    assert text.rstrip().endswith("Answer: <seat to check>")
    save = render_messages(game, _one(made["witch_save"], "night-1"))[-1]["content"]
    assert "attacked seat 6" in save and 'answer "none"' in save
    ballot = render_messages(game, _one(made["ballot"], "day-1", 1))[-1]["content"]
    assert "Seat 4 is exiled." not in ballot and "Seat 4 sounds off to me too." in ballot and "You checked Seat 4 (wolf)" in ballot
    assert "I think seat 4 is lying." not in ballot  # the voter's own turns of the day: withheld at the decision (VA's rule)
    item = _one(made["witch_poison"], "night-2")
    assert parse_reply("Answer: none", item).answer == "none" and parse_reply("Answer: 3", item).error  # herself: illegal
    assert parse_reply("Answer: 6", item).answer == 6


def test_derive_and_eval_give_every_kind_its_floors(tmp_path):
    src = tmp_path / "ds"
    write_dataset(src, name="invented", version="1", licence="test", games=[invented_game()], items={})
    r = run_cli("derive", src, "--deciders", "all")
    assert r.returncode == 0, r.stderr
    assert "(deciders: all): 0 vote, 0 opponent, 2 seer_check, 2 guard_protect, 1 witch_save, 1 witch_poison, 2 wolf_kill, 14 ballot, 0 sheriff_run, 0 sheriff_ballot, 0 badge" in r.stdout
    ds = load_dataset(src)
    kinds = ("seer_check", "guard_protect", "witch_save", "witch_poison", "wolf_kill", "ballot")
    assert all(ds.items_of(k) for k in kinds)
    assert run_cli("validate", src).returncode == 0
    out = tmp_path / "run"
    r = run_cli("eval", "--model", "werealign/random", "--dataset", src, "--tasks", ",".join(kinds), "--decodes", "1",
                "--variant", "base,no-context", "--out", out)
    assert r.returncode == 0, r.stderr
    results = json.loads((out / "results.json").read_text())
    for kind in kinds:
        floors = results["variants"]["base"][kind]["floors"]
        assert {"most-accused", "last-named", "consensus", "same-as-last"} <= set(floors["shortcuts"]), kind
        assert floors["best"] and floors["best_score"] is not None and 0 < floors["chance"] <= 0.5
    assert results["variants"]["base"]["ballot"]["mvp_items"] == 2  # seat 7's two ballots, the MVP slice
    gains = results["context_gain"]
    assert gains is not None and all(kind in json.dumps(gains) for kind in kinds)
    board = tmp_path / "board.md"
    r = run_cli("leaderboard", out, "--out", board)
    assert r.returncode == 0, r.stderr
    header = next(line for line in board.read_text().splitlines() if "seer_check" in line)
    assert all(kind in header for kind in kinds) and "decisions" in header
    release = tmp_path / "release"
    r = run_cli("release", src, "--out", release)
    assert r.returncode == 0, r.stderr
    card = (release / "README.md").read_text()
    assert "## Decision items" in card and "most-accused" in card
    assert all((release / "data" / kind / "train.parquet").is_file() or f"config_name: {kind}" in card for kind in kinds)


def test_an_arena_game_yields_the_same_kinds(tmp_path):
    out = tmp_path / "arena"
    r = run_cli("arena", "--model", "rule/heuristic", "--games", "1", "--seed", "3", "--board", "standard12", "--out", out)
    assert r.returncode == 0, r.stderr
    game = next(iter(load_dataset(out).games.values()))
    made = derive_decisions(game, "all")
    for kind in ("seer_check", "guard_protect", "wolf_kill", "ballot"):
        assert made.items[kind], kind
    for kind, items in made.items.items():
        for item in items:
            assert item.answer is None or item.answer in item.candidates
            if kind == "claim":  # asked at a turn, which may follow a vote (a tie's second speeches): before the turn
                assert item.cutoff_segment < next(u.segment_ids[0] for u in game.utterances if u.index == item.turn)
                continue
            assert item.cutoff_segment < min(e.segment_id for e in game.events if e.phase == item.phase and e.segment_id is not None
                                             and (e.kind == "vote" or e.actor == item.viewpoint_seat or e.skill == "wolf_kill"))
    guards = made.items["guard_protect"]
    for before, after in zip(guards, guards[1:]):
        assert before.answer not in after.candidates  # no repeat, as the arena's guard plays
    assert set(TASKS) >= set(made.items)


def test_an_unknown_deciders_value_is_one_clear_line(tmp_path):
    src = tmp_path / "ds"
    write_dataset(src, name="invented", version="1", licence="test", games=[invented_game()], items={})
    before = sorted(p.name for p in (src / "items").iterdir()) if (src / "items").exists() else []
    r = run_cli("derive", src, "--deciders", "losers")
    assert r.returncode == 1 and r.stderr.strip().splitlines() == ["error: --deciders losers: choose one of winners, mvp, all"], r.stderr
    assert (sorted(p.name for p in (src / "items").iterdir()) if (src / "items").exists() else []) == before


@pytest.mark.parametrize("language, text, expect", [
    ("zh", "女巫仅首夜能自救，守卫不可连续两夜守同一人。", {"witch_self_save": "first_night", "guard_repeat": False}),
    ("zh", "女巫两瓶药，不得自救。", {"witch_self_save": "never"}),
    ("en", "The witch can save herself. The guard may not protect the same seat two nights running.", {"witch_self_save": "always", "guard_repeat": False}),
    ("en", "The witch may save herself only on the first night.", {"witch_self_save": "first_night"}),
    ("fr", "La sorcière peut se sauver.", {}),
])
def test_move_rules_stated_in_the_rulebook_text(language, text, expect):
    from werealign.game.moves import rules_in_text

    got = {k: v for k, v in rules_in_text(text, language).model_dump().items() if v is not None}
    assert got == expect


def test_a_declared_rule_wins_over_the_text_and_the_text_over_the_default():
    game = invented_game(night1_victim=3, witch_saves=False)
    stated = game.model_copy(update={"rules": game.rules.model_copy(update={"text": "The witch may save herself only on the first night."})})
    assert not [i for i in derive_decisions(game, "all").items["witch_save"] if i.phase == "night-1"]  # undeclared: unknown
    assert any(n.code == "witch_save_unproven" for n in derive_decisions(stated, "all").notes)  # allowed now; the no-save is unproven
    declared = stated.model_copy(update={"rules": stated.rules.model_copy(update={"moves": MoveRules(witch_self_save="never")})})
    made = derive_decisions(declared, "all")
    assert not any(n.code in ("witch_save_unproven", "witch_save_rule_unknown") for n in made.notes)


def test_a_revote_is_between_the_seats_tied_before_and_unknown_without_that_round():
    game = invented_game()
    day2 = [e for e in game.events if not (e.kind == "vote" and e.phase == "day-2")]
    first = [Event(kind="vote", phase="day-2", segment_id=11, audience=EVERYONE, actor=v, target=t, round=1)
             for v, t in {2: 5, 3: 5, 6: 7, 8: 7, 5: 2, 7: 3}.items()]
    second = [Event(kind="vote", phase="day-2", segment_id=12, audience=EVERYONE, actor=v, target=5, round=2) for v in (2, 3, 6, 8)]
    made = derive_decisions(game.model_copy(update={"events": [*day2, *first, *second]}), "all")
    again = [i for i in made.items["ballot"] if i.phase == "day-2" and i.round == 2]
    assert sorted(i.viewpoint_seat for i in again) == [2, 3, 6, 8] and all(i.candidates == [5, 7] for i in again)
    assert all(i.cutoff_segment == 11 for i in again)  # the first round's tally is heard before the re-vote
    lost = derive_decisions(game.model_copy(update={"events": [*day2, *second]}), "all")
    assert not [i for i in lost.items["ballot"] if i.phase == "day-2"] and any(n.code == "ballot_revote_unknown" for n in lost.notes)


@pytest.mark.werebench
def test_real_release_yields_decision_items_that_hide_their_answer(werebench_dataset, werebench_decisions):
    """On the imported release (the host's tallies read into ballots): enough decision items in enough kinds, every
    key a legal move, and no prompt showing the move asked (sampled: every third item)."""
    from werealign.render.lines import event_line, phase_label

    ds = werebench_dataset  # loaded and derived once per session (conftest)
    made: dict[str, list] = {}
    for game in ds.games.values():
        for kind, items in werebench_decisions[game.game_id].items.items():
            made.setdefault(kind, []).extend(items)
    assert sum(map(len, made.values())) >= 800 and sum(1 for v in made.values() if v) >= 4, {k: len(v) for k, v in made.items()}
    items = [i for v in made.values() for i in v]
    assert all(i.answer is None or i.answer in i.candidates for i in items)
    items = [i for i in items if i.decision != "claim"]  # a claim's own turn is what its prompt withholds (test_decision_claim)
    for item in items[::3]:
        game = ds.games[item.game_id]
        text = render_messages(game, item)[-1]["content"]
        assert text.rstrip().endswith(TASKS[item.decision].answer_forms[1]), item.item_id
        label = phase_label(next(p for p in game.phases if p.id == item.phase), game.language)
        mine = [e for e in game.events if e.phase == item.phase and (e.actor == item.viewpoint_seat or e.skill == "wolf_kill")]
        for e in mine:
            if {"ballot": e.kind == "vote" and (e.round or 1) == (item.round or 1), "badge": e.kind == "badge_transfer"}.get(
                    item.decision.removeprefix("sheriff_"), e.kind == "skill_use" and e.skill == item.decision):
                line = f"- 【{label}】{event_line(e, item.viewpoint_seat, game.language)}\n"
                # the same words may stand once for each earlier round's own ballot (heard before a re-vote)
                earlier = sum(1 for o in mine if o.kind == "vote" and (o.round or 1) < (item.round or 1) and o.target == e.target)
                assert text.count(line) == earlier, item.item_id
