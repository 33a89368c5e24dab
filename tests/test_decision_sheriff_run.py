"""The sheriff election's run-or-not decision (issue 31) on invented games and invented host wordings: the host's
list of candidates read into `sheriff_run` events, the items (every living seat: stand or not), their cut-off and
prompt, the floors, and the arena's record of who ran. Nothing here comes from real data."""

from __future__ import annotations

import pytest
from cli_inproc import run_cli
from test_decisions import invented_game

from werealign.dataset import load_dataset
from werealign.eval.prompts import render_messages
from werealign.game.decisions import derive_decisions
from werealign.importers.report import ImportReport
from werealign.importers.toolkit.candidacy import candidacy_events, read_candidacies
from werealign.schema import Event, GameLog, Segment
from werealign.schema.models import EVERYONE
from werealign.tasks import parse_reply


def election_game(host_call: str, *, language: str = "en", later: str | None = None) -> GameLog:
    """invented_game with day 1 as a sheriff election: segment 2 is the host's `host_call`, segment 6 `later`."""
    game = invented_game()
    phases = [p.model_copy(update={"kind": "sheriff_election"}) if p.id == "day-1" else p for p in game.phases]
    texts = {2: host_call, **({6: later} if later else {})}
    utterances = [u.model_copy(update={"text": texts[u.segment_ids[0]], "segments": [Segment(id=u.segment_ids[0], start=u.start, end=u.end, text=texts[u.segment_ids[0]])]})
                  if u.segment_ids[0] in texts else u for u in game.utterances]
    return game.model_copy(update={"phases": phases, "utterances": utterances, "language": language})


@pytest.mark.parametrize("language, call, seats", [
    ("zh", "天亮了，请想上警的玩家举手。三号、7号和 8 号，总共 3 位玩家参加竞选，由 7 号先说", [3, 7, 8]),
    ("zh", "好，上警的人有：2 号 6 号", [2, 6]),
    ("zh", "一号、二号、六号参与了警长竞选", [1, 2, 6]),
    ("en", "Day breaks. Standing for sheriff: seats 2, 6 and 7. Seat 6 speaks first.", [2, 6, 7]),
    ("en", "Candidates for sheriff are 1, 3", [1, 3]),
])
def test_the_hosts_list_of_candidates_in_invented_wordings(language, call, seats):
    game = candidacy_events(election_game(call, language=language))
    runs = [e for e in game.events if e.kind == "sheriff_run"]
    assert sorted(e.actor for e in runs) == seats
    assert {(e.phase, e.segment_id, e.audience.kind) for e in runs} == {("day-1", 2, "everyone")}


@pytest.mark.parametrize("language, call, later, why", [
    ("zh", "2 号、6 号、7 号共 4 名玩家参与竞选", None, "says 4 candidates but names 3"),  # a seat lost in the transcript
    ("zh", "2 号、6 号共 2 名玩家参与竞选", "发言完毕，6 号 8 号仍在警上，请投票", "still running"),  # seat 8 ran, the list misses it
    ("zh", "2 号、2 号、6 号参与竞选", None, "twice"),
    ("zh", "2 号、19 号参与竞选", None, "not all seats"),
    ("zh", "共 5 名玩家参与竞选，从 7 号开始发言", None, "no seat list"),
])
def test_a_doubtful_list_gives_no_event_and_says_why(language, call, later, why):
    game = election_game(call, language=language, later=later)
    found, refused = read_candidacies(game)
    assert not found and len(refused) == 1 and why in refused[0][1], refused
    report = ImportReport(source="invented")
    assert candidacy_events(game, report) is game
    assert [e.code for kind in report.entries.values() for e in kind] == ["candidacy_unread"]
    assert not derive_decisions(game, "all").items["sheriff_run"]  # who ran is unknown: no item


def test_a_language_without_a_wording_reads_no_list():
    assert read_candidacies(election_game("1 号、2 号参与竞选", language="fr")) == ([], [])


def test_a_withdrawal_is_read_where_the_host_names_who_is_still_running_and_leaves_the_ballot():
    game = election_game("2 号、6 号、7 号共 3 名玩家参与竞选", language="zh", later="7 号退水。2 号、6 号仍在警上，没有上警的玩家请投票")
    runs = [e for e in candidacy_events(game).events if e.kind == "sheriff_run"]
    assert sorted((e.actor, e.result or "", e.segment_id) for e in runs) == [(2, "", 2), (6, "", 2), (7, "", 2), (7, "withdrew", 6)]
    game = candidacy_events(game)
    ballots = [e for e in game.events if e.kind == "vote" and e.phase == "day-1"]
    game = game.model_copy(update={"events": [e for e in game.events if e not in ballots or e.actor not in (2, 6, 7)]})
    made = derive_decisions(game, "all")
    sheriff = made.items["sheriff_ballot"]  # the invented day-1 ballots, read as a sheriff vote: seat 7 is no target
    assert sheriff and all(7 not in i.candidates for i in sheriff)
    assert {i.viewpoint_seat: i.answer for i in made.items["sheriff_run"]}[7] == 7  # withdrawing, seat 7 still ran
    later = next(i for i in made.items["ballot"] if i.phase == "day-2")
    assert "7号退水" in render_messages(game, later)[-1]["content"]
    lost = election_game("2 号、6 号、7 号共 3 名玩家参与竞选", language="zh", later="2 号仍在警上，没有上警的玩家请投票，其余玩家投给 7 号，7 号当选")
    assert not [e for e in candidacy_events(lost).events if e.result == "withdrew"]  # seat 7 elected: the list lost it


def test_every_living_seat_decides_and_a_withdrawal_still_ran():
    game = candidacy_events(election_game("Standing for sheriff: 2, 6 and 7.", later="Seat 7 withdraws. Please vote now."))
    made = derive_decisions(game, "all")
    items = made.items["sheriff_run"]
    assert sorted(i.viewpoint_seat for i in items) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {i.viewpoint_seat: i.answer for i in items} == {1: None, 2: 2, 3: None, 4: None, 5: None, 6: 6, 7: 7, 8: None}
    assert all(i.candidates == [i.viewpoint_seat] and i.none_allowed and i.cutoff_segment == 1 for i in items)
    winners = derive_decisions(game).items["sheriff_run"]  # the good side won: the wolves (4, 5) are not asked
    assert sorted(i.viewpoint_seat for i in winners) == [1, 2, 3, 6, 7, 8]
    assert not derive_decisions(election_game("Nobody's list here."), "all").items["sheriff_run"]


def test_a_seat_out_before_the_call_is_not_asked_and_a_candidate_out_drops_the_election():
    game = candidacy_events(election_game("Standing for sheriff: 2, 6."))
    out = Event(kind="elimination", phase="day-1", segment_id=2, audience=EVERYONE, target=3, result="night_death")
    early = game.model_copy(update={"events": [out.model_copy(update={"segment_id": 1}), *game.events]})
    assert 3 not in {i.viewpoint_seat for i in derive_decisions(early, "all").items["sheriff_run"]}
    gone = game.model_copy(update={"events": [out.model_copy(update={"segment_id": 1, "target": 6}), *game.events]})
    made = derive_decisions(gone, "all")
    assert not made.items["sheriff_run"] and any(n.code == "sheriff_run_out" for n in made.notes)


def test_the_prompt_asks_before_the_list_and_reads_run_or_none():
    game = candidacy_events(election_game("Standing for sheriff: 2, 6 and 7.", language="en"))
    item = next(i for i in derive_decisions(game, "all").items["sheriff_run"] if i.viewpoint_seat == 6)
    text = render_messages(game, item)[-1]["content"]
    assert "Standing for sheriff" not in text and "stood for sheriff" not in text
    assert "Answer seat 6 (your own seat) to run" in text and text.rstrip().endswith("Answer: <your seat to run or none>")
    assert parse_reply("Answer: 6", item).answer == 6 and parse_reply("Answer: none", item).answer == "none"
    assert parse_reply("Answer: 2", item).error  # another seat is no legal move
    later = next(i for i in derive_decisions(game, "all").items["ballot"] if i.phase == "day-2")
    assert "Seat 6 stood for sheriff" in render_messages(game, later)[-1]["content"]  # told to everyone once said
    zh = candidacy_events(election_game("三号、7号和 8 号，总共 3 位玩家参加竞选", language="zh"))
    zh_item = next(i for i in derive_decisions(zh, "all").items["sheriff_run"] if i.viewpoint_seat == 3)
    assert parse_reply("答案：不上警", zh_item).answer == "none" and parse_reply("答案：3", zh_item).answer == 3


def test_the_arena_records_who_ran_and_its_games_yield_the_item(tmp_path):
    out = tmp_path / "arena"
    r = run_cli("arena", "--model", "rule/heuristic", "--games", "1", "--seed", "3", "--board", "standard12-zh", "--out", out)
    assert r.returncode == 0, r.stderr
    game = next(iter(load_dataset(out).games.values()))
    ran = {e.actor for e in game.events if e.kind == "sheriff_run"}
    items = derive_decisions(game, "all").items["sheriff_run"]
    assert len(items) == len(game.seats)  # day 1, before any death is announced: every seat decides
    assert {i.viewpoint_seat for i in items if i.answer is not None} == ran
    line = next(u for u in game.utterances if u.speaker == "host" and any(e.segment_id in u.segment_ids for e in game.events if e.kind == "sheriff_run"))
    assert all(i.cutoff_segment < line.segment_ids[0] for i in items)


@pytest.mark.werebench
def test_real_release_lists_of_candidates(werebench_dataset, werebench_decisions):
    """On the imported release: most elections give their candidates; a prompt never shows the list it asks about."""
    ds = werebench_dataset  # loaded and derived once per session (conftest)
    elections = [g for g in ds.games.values() if any(p.kind == "sheriff_election" for p in g.phases)]
    listed = [g for g in elections if any(e.kind == "sheriff_run" for e in g.events)]
    assert len(listed) >= len(elections) * 2 // 3, (len(listed), len(elections))
    items = [i for g in listed for i in werebench_decisions[g.game_id].items["sheriff_run"]]
    assert items and 0 < sum(i.answer is not None for i in items) < len(items)
    for item in items[::7]:
        game = ds.games[item.game_id]
        text = render_messages(game, item)[-1]["content"]
        assert "上警竞选警长" not in text and "参与竞选" not in text, item.item_id


def test_yes_no_floors_always_and_never():
    from werealign.tasks.decision_floors import floor_scores
    from werealign.tasks.decisions import context_kwargs

    game = candidacy_events(election_game("Standing for sheriff: 2, 6 and 7."))
    runs = derive_decisions(game, "all").items["sheriff_run"]
    floors = floor_scores([(game, i) for i in runs], context_kwargs)
    assert (floors["always"], floors["never"]) == (3 / 8, 5 / 8)  # 3 of the 8 seats ran
    ballots = derive_decisions(game, "all").items["ballot"]
    assert "always" not in floor_scores([(game, i) for i in ballots], context_kwargs)  # no yes/no item: not reported


def test_a_transcript_that_opens_on_the_list_gives_no_item():
    game = candidacy_events(election_game("Standing for sheriff: 2, 6."))
    game = game.model_copy(update={"utterances": [u for u in game.utterances if u.segment_ids[0] >= 2]})
    made = derive_decisions(game, "all")
    assert not made.items["sheriff_run"] and any(n.code == "sheriff_run_no_cutoff" for n in made.notes)
    assert all(i.cutoff_segment >= 2 for i in made.items["claim"])  # nor a claim before the transcript's first segment
