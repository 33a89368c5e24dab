"""Issue 44 must-have 4: the game metrics read a seat however a transcript or a model writes it ("3号", "3 号",
"３号", "三号", "十一号", "seat 3", "player 3"), so human and arena games are measured alike; and the counts on two
human games and two arena games match a count made by hand (structured counts only: seats, days, numbers)."""

from __future__ import annotations

import pytest
from test_analyze_arena_metrics import seer_game

from werealign.analysis.metrics import game_metrics
from werealign.arena.board import BoardSpec, make_board
from werealign.arena.record import Recorder
from werealign.schema.models import ACTOR, EVERYONE, Provenance
from werealign.text.seat_mentions import mentions, seats_named


@pytest.mark.parametrize("text, seats", [
    ("7 号", [7]), ("７号", [7]), ("７ 号位", [7]), ("七号", [7]), ("十一号", [11]), ("二十号位", [20]),
    ("Seat 7", [7]), ("player 7", [7]), ("PLAYER7", [7]), ("17号", [17]), ("第3天", []), ("三个人", []),
    ("十二号和 3 号", [12, 3]),
])
def test_the_shared_reader_reads_every_form(text, seats):
    assert seats_named(text) == seats


@pytest.mark.parametrize("says", [
    "我是预言家，昨晚查验了 2 号，2 号是狼人。",
    "我是预言家，昨晚查验了２号，２号是狼人。",
    "我是预言家，昨晚查验了二号，二号是查杀。",
])
def test_a_seer_reveal_in_any_zh_form_is_counted(says):
    gm = game_metrics(seer_game("zh", says))
    assert (gm.seer["reveals"], gm.seer["target_reveals"], gm.seer["wolf_reveals"], gm.seer["believed"]) == (2, 1, 1, 1)


@pytest.mark.parametrize("says", ["I am the seer. Player 2 is a werewolf.", "I am the seer. seat 2 is a werewolf."])
def test_a_seer_reveal_in_any_en_form_is_counted(says):
    gm = game_metrics(seer_game("en", says))
    assert (gm.seer["target_reveals"], gm.seer["wolf_reveals"]) == (1, 1)


def test_a_checked_seat_named_good_in_numerals_unmasks_nobody():
    gm = game_metrics(seer_game("zh", "我是预言家，二号是金水。"))
    assert gm.seer["target_reveals"] == 1 and gm.seer["wolf_reveals"] == 0


def test_vote_changes_read_the_last_seat_named_in_any_form():
    """Voters 3, 4 and 5 last name a seat in three forms; 3 and 4 vote for it, 5 does not."""
    board = make_board("tiny", BoardSpec(roles=["seer", "werewolf", "villager", "villager", "villager"]))
    rec = Recorder("t", board, list(board.spec.roles), "zh", Provenance(source="invented"))
    rec.begin("night", 1)
    rec.say("host", "...")
    rec.event("skill_use", ACTOR, actor=2, target=1, skill="wolf_kill")
    rec.begin("day", 1)
    rec.say("host", "...")
    rec.say(3, "我先怀疑 4 号，但现在觉得 二号 更像狼。")
    rec.say(4, "我投５号。")
    rec.say(5, "我听 three 的，出 3 号。")
    seg = rec.say("host", "...")
    for voter, target in ((3, 2), (4, 5), (5, 2), (2, 3)):
        rec.event("vote", EVERYONE, segment=seg, actor=voter, target=target, round=1)
    gm = game_metrics(rec.build(None, None))
    assert sorted(gm.vote_changes) == [(3, False), (4, False), (5, True)]


def test_mentions_keep_their_place_for_the_clause_that_follows():
    (m,) = mentions("他说 ３ 号位是狼")
    assert (m.seat, m.form) == (3, "digit-space") and "他说 ３ 号位是狼"[m.end:] == "是狼"


# --------------------------------------------------------------------------- hand counts on real games


def _human(werebench_dataset, game_id: str):
    return werebench_dataset.games[game_id]  # the session's one load of the shared import (conftest)


def test_hand_count_of_a_human_game_s1_01(werebench_dataset):
    """Counted by reading the game: the seer (seat 9) claims on day 1 and calls its one check (seat 2) a wolf
    (1 claim + 1 target = 2 reveals, 1 unmasked wolf, not exiled that day: seat 2 self-destructs). Day 2 and 3
    ballots: 5 of 8 on seat 6, 5 of 6 on seat 4; exiles 6 (good), 4 (wolf). Day 3's five voters who named a
    seat that day (4, 5, 7, 8, 10): 7 and 10 voted for another seat than the one they named last."""
    gm = game_metrics(_human(werebench_dataset, "pandakill-s1-01"))
    assert {k: gm.seer[k] for k in ("reveals", "target_reveals", "wolf_reveals", "believed", "backfired")} == \
        {"reveals": 2, "target_reveals": 1, "wolf_reveals": 1, "believed": 0, "backfired": 0}
    assert [(r["day"], r["ballots"], r["consensus"]) for r in gm.rounds] == [(2, 8, 5 / 8), (3, 6, 5 / 6)]
    assert gm.exiles == [(6, False), (4, True)]
    assert gm.vote_changes[-5:] == [(4, False), (5, False), (7, True), (8, False), (10, True)]


def test_hand_count_of_a_human_game_s1_10(werebench_dataset):
    """Counted by reading the game: the seer (seat 6) claims on days 1 and 2; day 1 it names its night-1 check
    (seat 2, good), day 2 its night-2 check (seat 12, a wolf) and seat 2 again: 2 claims + 3 targets = 5 reveals,
    1 unmasked wolf, believed (seat 12 exiled on day 2)."""
    gm = game_metrics(_human(werebench_dataset, "pandakill-s1-10"))
    assert {k: gm.seer[k] for k in ("reveals", "first_reveal_day", "target_reveals", "wolf_reveals", "believed", "backfired")} == \
        {"reveals": 5, "first_reveal_day": 1, "target_reveals": 3, "wolf_reveals": 1, "believed": 1, "backfired": 0}
    assert [seat for seat, _ in gm.exiles] == [10, 12, 4]


def _arena_game(tmp_path, board: str, game_id: str):
    from werealign.arena.run import run_arena
    from werealign.dataset import load_dataset

    run_arena(["rule/heuristic"], games=2, seed=3, out=tmp_path / board, board=board)
    return load_dataset(tmp_path / board).games[game_id]


def test_hand_count_of_an_arena_game_in_english(tmp_path):
    """arena8, seed 3, game 1 (rule agents), counted by reading it: the seer (seat 6) claims on days 1 and 2,
    calling its check seat 1 a wolf (day 1, exiled that day) and seat 5 good (day 2): 4 reveals, 1 unmasked wolf,
    believed. Ballots: 5 of 7, 5 of 6, 4 of 5; exiles 1 (wolf), 6 (the seer), 7 (wolf). Voters who named a seat:
    day 1 seats 1 (named 5, voted 6: a change), 5, 6; day 2 seats 5, 6 (named 5, voted 2); day 3 seats 3, 5, 7, 8.
    (Played by the engine: a change of its rules that changes this game needs a new count.)"""
    gm = game_metrics(_arena_game(tmp_path, "arena8", "arena-arena8-s3-p1-g1"))
    assert {k: gm.seer[k] for k in ("reveals", "target_reveals", "wolf_reveals", "believed", "backfired")} == \
        {"reveals": 4, "target_reveals": 2, "wolf_reveals": 1, "believed": 1, "backfired": 0}
    assert [(r["ballots"], r["consensus"]) for r in gm.rounds] == [(7, 5 / 7), (6, 5 / 6), (5, 4 / 5)]
    assert gm.exiles == [(1, True), (6, False), (7, True)]
    assert gm.vote_changes == [(1, True), (5, False), (6, False), (5, False), (6, True), (3, False), (5, False), (7, False), (8, False)]


def test_hand_count_of_an_arena_game_in_chinese(tmp_path):
    """wwk12, seed 3, game 2 (rule agents), counted by reading it: the seer (seat 4) claims in the sheriff
    campaign and on day 1, naming its check seat 6 a wolf, exiled on day 1: 2 reveals, 1 unmasked wolf, believed.
    Ballots: 8 of 12 on seat 6, 8 of 9, 6 of 7; every voter named a seat before voting: 12, 9 and 7 of them, of
    whom 0, 3 (seats 8, 10, 12) and 1 (seat 10) voted for another. (Played by the engine: see above.)"""
    gm = game_metrics(_arena_game(tmp_path, "wwk12", "arena-wwk12-s3-p1-g2"))
    assert {k: gm.seer[k] for k in ("reveals", "target_reveals", "wolf_reveals", "believed", "backfired")} == \
        {"reveals": 2, "target_reveals": 1, "wolf_reveals": 1, "believed": 1, "backfired": 0}
    assert [(r["ballots"], r["consensus"]) for r in gm.rounds] == [(12, 8 / 12), (9, 8 / 9), (7, 6 / 7)]
    assert gm.exiles == [(6, True), (8, False), (7, False)]
    days = [gm.vote_changes[:12], gm.vote_changes[12:21], gm.vote_changes[21:]]
    assert [len(d) for d in days] == [12, 9, 7]
    assert [sorted(v for v, changed in d if changed) for d in days] == [[], [8, 10, 12], [10]]
