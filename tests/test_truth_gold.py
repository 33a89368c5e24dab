"""Issue 20 items 1 and 3 against hand-labelled gold sets of release games in ../shared (skipped when absent).

The gold sets are structured labels only (night, actor seat, action, target seat; seat, how it left), read by
hand from each game's annotator log and host announcements; no text of the release is copied here.

Night actions: every night fact the log states as a fact (never a claim at the table), and (issue 30) the facts
the other sources state, each checked by hand against the game: the host's recap (Season 1 game 05's seer's first
check, game 06's last kill), the true seer's own report at the table (Season 3 game 02), the kill a lone dawn death
and the log's account of the night agree on (Season 1 game 09's fourth night). In one game a
self-destruct in the sheriff election sends the table to a night the recording skips; the importer adds that night
(werebench.hidden_nights), so the log's later nights land where they happened. In another the log's nights and the
announcements disagree (a poisoned seat never announced dead, a check of a seat already out): those facts are
withheld, which costs recall, never truth. Measured: 36 of 38 (0.95), no false fact; with the other sources 40 of 42 (the same two withheld).
Issue 30 added Season 1 game 13 and Season 3 game 12 whole, and Season 1 game 09's third night (the recap's kill and
the witch's dying poison, the dawn's two deaths): 55 of 59 (0.93), no false fact; the four missed are the two withheld
above, a poison the recap states with words between the witch and her potion, and a guard's protection he states
only as "yesterday" ("昨天守的"), a word the reader does not take for a night.
Issue 41's second reading corrected Season 1 game 05's last kills (night 4 seat 4, night 5 seat 10, as the host's
dawns and the recap say; the log numbers them one off): 54 of 60 (0.90) at the first round, the log's off-by-one kill
its one known false fact; read right since the second round (KNOWN_FALSE is empty)."""

from __future__ import annotations

import pytest


W = None  # the wolves' kill: the pack's decision, no one wolf's

NIGHT_GOLD: dict[str, list[tuple[int, int | None, str, int | None]]] = {
    "data/Season_1/05.json": [(1, W, "wolf_kill", 8), (1, 12, "witch_save", 8), (1, 1, "seer_check", 4), (2, W, "wolf_kill", 2), (2, 2, "stalker_assassinate", 11),
                              (2, 12, "witch_poison", 11), (3, W, "wolf_kill", 12), (4, W, "wolf_kill", 4), (5, W, "wolf_kill", 10)],
    "data/Season_1/06.json": [(1, W, "wolf_kill", 11), (1, 2, "witch_save", 11), (1, 7, "seer_check", 8), (2, W, "wolf_kill", 4),
                              (2, 7, "seer_check", 11), (3, W, "wolf_kill", 11), (3, 2, "witch_poison", 8), (4, W, "wolf_kill", 2)],
    "data/Season_1/07.json": [(1, W, "wolf_kill", 12), (1, 11, "witch_save", 12), (1, 10, "seer_check", 5), (2, W, "wolf_kill", 10),
                              (2, 10, "seer_check", 7),  # by the badge convention (tests/gold/night_facts_s1.json: stated)
                              (2, 11, "witch_poison", 9), (3, W, "wolf_kill", 12), (3, 12, "stalker_assassinate", 3), (4, W, "wolf_kill", 11)],
    "data/Season_1/08.json": [(1, W, "wolf_kill", 8), (1, 8, "witch_poison", 6), (1, 9, "seer_check", 12), (2, W, "wolf_kill", 9),
                              (2, 9, "seer_check", 2), (3, W, "wolf_kill", 10), (4, W, "wolf_kill", 4)],
    "data/Season_1/09.json": [(1, W, "wolf_kill", 9), (1, 10, "witch_save", 9), (1, 12, "seer_check", 8), (1, 2, "silence", 12),
                              (2, W, "wolf_kill", 12), (3, W, "wolf_kill", 10), (3, 10, "witch_poison", 1), (4, W, "wolf_kill", 2)],
    # issue 30, each night checked by hand against the log, the recap, the host's dawn and the holder's own words
    "data/Season_1/13.json": [(1, W, "wolf_kill", 1), (1, 10, "seer_check", 7), (2, W, "wolf_kill", 5), (2, 11, "witch_save", 5),
                              (3, W, "wolf_kill", 7), (3, 11, "witch_poison", 8)],
    "data/Season_3/12.json": [(1, W, "wolf_kill", 6), (1, 3, "seer_check", 10), (1, 5, "guard_protect", None), (2, W, "wolf_kill", 4),
                              (2, 2, "witch_save", 4), (2, 5, "guard_protect", 2), (3, W, "wolf_kill", 2), (3, 2, "witch_poison", 10),
                              (4, W, "wolf_kill", 11)],
    "data/Season_3/02.json": [(1, W, "wolf_kill", 6), (1, 8, "witch_save", 6), (2, W, "wolf_kill", 8), (2, 8, "witch_poison", 11),
                              (1, 5, "seer_check", 11)],
}

EXIT_GOLD: dict[str, list[tuple[int, str]]] = {
    "data/Season_1/01.json": [(2, "self_destruct"), (3, "night_death"), (9, "night_death"), (6, "voted_out"), (1, "night_death"),
                              (11, "night_death"), (4, "voted_out")],
    "data/Season_1/02.json": [(6, "voted_out"), (5, "night_death"), (10, "self_destruct"), (3, "night_death"), (11, "night_death"),
                              (9, "self_destruct"), (8, "night_death")],
    "data/Season_1/06.json": [(12, "self_destruct"), (4, "night_death"), (7, "voted_out"), (8, "night_death"), (10, "night_death"),
                              (11, "night_death"), (9, "self_destruct")],
    "data/Season_1/08.json": [(12, "self_destruct"), (2, "self_destruct"), (9, "night_death"), (10, "night_death"), (5, "voted_out"),
                              (4, "night_death")],
    "data/Season_3/05.json": [(1, "night_death"), (10, "night_death"), (11, "voted_out"), (8, "night_death"), (5, "self_destruct"),
                              (4, "night_death"), (9, "self_destruct")],
}


@pytest.fixture(scope="module")
def games(werebench_dataset):
    ds = werebench_dataset  # the session's one load of the shared import (conftest)
    return {g.provenance.original_file: g for g in ds.games.values()}


# Issue 41: the annotator log numbers Season 1 game 05's last nights one off (its fourth-night kill is seat 10), while the
# host's dawns (fourth_day: seat 4 dead; fifth_day: seat 10) and the recap's fourth-night kill agree on seat 4 for
# night 4 and seat 10 for night 5. The importer now reads them right (issue 41, second round): no false fact is known.
KNOWN_FALSE: set[tuple[str, tuple]] = set()


def _stated_in_the_full_gold_set() -> set[tuple[str, tuple]]:
    """(game file, (night, actor, skill, target)) of every fact issue 41's hand-read gold set (tests/gold: every night
    of every game, read by hand) holds as stated: a fact these older, partial labels leave out is not false when that
    set states it (branch s41b's readers took seer checks these labels never listed)."""
    import importlib.util
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("gold_report", repo / "scripts" / "gold_report.py")
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    return {(f["game"], (f["night"], None if f["fact"] == "wolf_kill" else f["actor"], f["fact"], f.get("target")))
            for f in report.load_gold(repo / "tests" / "gold") if f["status"] == "stated"}


def test_night_actions_recall_and_no_false_fact(games):
    hit = total = 0
    false: list = []
    full = _stated_in_the_full_gold_set()
    for rel, gold in NIGHT_GOLD.items():
        game = games[rel]
        got = {(int(e.phase.split("-")[1]), e.actor, e.skill, e.target) for e in game.events if e.kind == "skill_use"}
        total += len(gold)
        hit += len(set(gold) & got)
        false += [(rel, f) for f in sorted(got - set(gold), key=str) if (rel, f) not in full]
    assert not set(false) - KNOWN_FALSE, false  # nothing the log does not state as a fact, and no claim or contradicted action
    assert hit / total >= 0.90, (hit, total)


def test_every_wolf_sees_the_kill_and_the_witch_only_while_she_holds_her_antidote(games):
    from werealign.game.visibility import perceives
    from werealign.schema.roles import catalogue_for

    for rel in NIGHT_GOLD:
        game = games[rel]
        cat = catalogue_for(game.rules.declared_roles)
        kills = [e for e in game.events if e.skill == "wolf_kill"]
        saves = sorted(int(e.phase.split("-")[1]) for e in game.events if e.skill == "witch_save")
        for e in kills:
            seen = {s.seat for s in game.seats if perceives(e.audience, e.actor, s, cat)}
            night = int(e.phase.split("-")[1])
            if e.audience.kind == "team":
                assert seen == {s.seat for s in game.seats if s.faction == "wolf"}, (rel, e)
            else:  # the witch's share: she still held her antidote that night
                assert [s.role for s in game.seats if s.seat in seen] == ["witch"] and (not saves or night <= saves[0]), (rel, e)


def test_exits_read_from_the_host_match_the_gold_set(games):
    right = total = 0
    for rel, gold in EXIT_GOLD.items():
        game = games[rel]
        got = {(e.target, e.result) for e in game.events if e.kind == "elimination"}
        total += len(gold)
        right += len(set(gold) & got)
        assert len(got) == len({t for t, _ in got}), f"{rel}: a seat leaves twice"
        assert not got - set(gold), f"{rel}: exits the host never announced: {got - set(gold)}"
        kinds = {p.id: p.kind for p in game.phases}
        assert all(kinds[e.phase] != "night" for e in game.events if e.kind == "self_destruct"), rel  # a day's act
    assert right / total >= 0.95, (right, total)
