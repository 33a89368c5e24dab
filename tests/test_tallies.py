"""The host's tallies read into vote events (issue 31), on invented wordings: countdowns run into seats, "the rest",
sheriff candidates and re-vote pairs who do not vote, ties, and tallies that cannot be read without doubt."""

from __future__ import annotations

import pytest

from werealign.importers.report import ImportReport
from werealign.importers.toolkit.tallies import read_tallies, tally_events
from werealign.schema import Event, GameLog, Mvp, MvpVote, Phase, Provenance, RoleCount, Rules, SeatInfo, Segment, Utterance
from werealign.schema.models import EVERYONE


def game_with(host_lines: list[tuple[str, str]], *, language: str = "zh", seats: int = 9, out: tuple[int, ...] = (),
              mvp: tuple[int, str, int | None] | None = None) -> GameLog:
    """A game whose host says `host_lines` ((phase, text), one turn each, after a player's turn); seats in `out` left before."""
    phases = [Phase(id="sheriff-election", kind="sheriff_election", day=1, start=0, end=0), Phase(id="day-1", kind="day", day=1, start=0, end=0)]
    turns = [("sheriff-election", 1, "I will run.")] + [(p, "host", t) for p, t in host_lines]
    utts = [Utterance(index=i, segment_ids=[10 + i], start=float(i), end=i + 0.5, phase=p, speaker=sp, text=t,
                      segments=[Segment(id=10 + i, start=float(i), end=i + 0.5, text=t)]) for i, (p, sp, t) in enumerate(turns)]
    events = [Event(kind="elimination", phase="sheriff-election", segment_id=10, audience=EVERYONE, target=s, result="self_destruct") for s in out]
    return GameLog(
        game_id="tally-test", language=language, provenance=Provenance(source="invented"),
        rules=Rules(text=None, variant="v", composition=[RoleCount(role="villager", faction="good", count=seats)]),
        seats=[SeatInfo(seat=s, role="villager", faction="good") for s in range(1, seats + 1)], phases=phases, utterances=utts, events=events,
        mvp=Mvp(seat=mvp[0], votes=[MvpVote(phase=mvp[1], target=mvp[2], cutoff_segment=10)]) if mvp else None)


def ballots(game: GameLog) -> list[dict]:
    tallies, _ = read_tallies(game)
    return [t.ballots for t in tallies]


def test_countdown_rest_and_abstention_in_a_day_vote():
    g = game_with([("day-1", "发言结束，全体请投票 3212号、5号投给7号，8号弃票，其余玩家投给1号，1号玩家出局")])
    assert ballots(g) == [{2: 7, 5: 7, 8: None, 3: 1, 4: 1, 6: 1, 7: 1, 9: 1}]  # seat 1 is not among "the rest" voting for 1


def test_sheriff_candidates_do_not_vote_and_out_seats_are_not_the_rest():
    g = game_with([("sheriff-election", "3号、6号仍在警上，警下玩家请投票，321，2号投给3号，其余所有玩家投给6号，6号玩家当选")], out=(9,))
    assert ballots(g) == [{2: 3, 1: 6, 4: 6, 5: 6, 7: 6, 8: 6}]


def test_a_candidate_who_withdrew_is_not_among_the_rest():
    from werealign.importers.toolkit.candidacy import candidacy_events

    g = candidacy_events(game_with([("sheriff-election", "4号、3号和6号一共 3 位玩家参加竞选"),
                                    ("sheriff-election", "4号退出竞选。3号、6号仍在警上，没有上警的玩家请投票，321，2号投给3号，其余所有玩家投给6号，6号玩家当选")]))
    assert ballots(g) == [{2: 3, 1: 6, 5: 6, 7: 6, 8: 6, 9: 6}]  # seat 4 stood, then withdrew: no ballot
    wider = candidacy_events(game_with([("sheriff-election", "4号、3号和6号一共 3 位玩家参加竞选"),
                                        ("sheriff-election", "3号、6号仍在警上，其余玩家请投票，2号投给3号，其余所有玩家投给6号，6号玩家当选")]))
    assert 4 in ballots(wider)[0]  # a call on everyone else: the call's words decide, not the candidacy


def test_a_revote_leaves_out_the_tied_pair_and_counts_as_round_two():
    g = game_with([("day-1", "请投票，4号投给2号，5号6号投给3号，其余玩家投给2号，2号3号平票"),
                   ("day-1", "除2号、3号以外的玩家请投票，其余所有玩家投给3号，3号玩家出局")])
    tallies, _ = read_tallies(g)
    assert [(t.round, t.ballots) for t in tallies] == [
        (1, {4: 2, 5: 3, 6: 3, 1: 2, 3: 2, 7: 2, 8: 2, 9: 2}), (2, {1: 3, 4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 3})]
    events = [e for e in tally_events(g).events if e.kind == "vote"]
    assert {e.round for e in events} == {1, 2} and all(e.segment_id == 11 for e in events if e.round == 1)


def test_an_ambiguous_countdown_gives_no_event_unless_the_mvp_annotation_picks_one():
    # 12 seats: "3211" is the countdown and seat 1, or "32" and seat 11; both fit.
    line = [("day-1", "请投票 3211号投给4号，其余玩家投给5号，5号玩家出局")]
    report = ImportReport(source="t", rules=[])
    g = tally_events(game_with(line, seats=12), report)
    assert not [e for e in g.events if e.kind == "vote"] and report.count("dropped", "tally_unread") == 1
    picked = ballots(game_with(line, seats=12, mvp=(11, "day-1", 5)))
    assert picked and picked[0][1] == 4 and picked[0][11] == 5


def test_a_tally_with_a_lost_voter_is_not_read():
    g = game_with([("day-1", "请投票，2号投给3号，投给4号，其余玩家投给5号，5号玩家出局")])
    tallies, notes = read_tallies(g)
    assert not tallies and "no voter" in notes[0].why


def test_an_english_tally():
    g = game_with([("day-1", "Time to vote. Seats 2 and 5 vote for seat 7, seat 8 abstains, everyone else votes for seat 1. Seat 1 is exiled.")],
                  language="en", seats=8)
    assert ballots(g) == [{2: 7, 5: 7, 8: None, 3: 1, 4: 1, 6: 1, 7: 1}]


def test_a_phase_with_vote_events_already_is_kept_and_an_unknown_language_reads_nothing():
    g = game_with([("day-1", "请投票，其余玩家投给2号，2号玩家出局")])
    g = g.model_copy(update={"events": [Event(kind="vote", phase="day-1", segment_id=11, audience=EVERYONE, actor=3, target=4)]})
    assert len([e for e in tally_events(g).events if e.kind == "vote"]) == 1
    assert ballots(game_with([("day-1", "请投票，其余玩家投给2号")], language="fr")) == []


@pytest.mark.parametrize("call", ["Please vote.", "Cast your votes now.", "Start voting!", "Time to vote:", "Please vote! "])
def test_every_english_call_to_vote_the_cut_offs_read_opens_a_tally_here_and_each_round_is_the_same_call(call):
    """One pattern of the call (game.announcements' vote_call): the round a tally is read under here is the round whose
    tally a decision's cut-off keeps out of its prompt there. A call the one read and the other did not shifted rounds."""
    from werealign.game.announcements import Cut, ballot_tally, cut_with_vote_call, shown

    rounds = [("day-1", f"{call} Seats 2 and 5 vote for seat 7, everyone else votes for seat 1. Seats 1 and 7 are a tie."),
              ("day-1", f"{call} Seat 2 votes for seat 7, everyone else votes for seat 1. Seat 1 is exiled.")]
    g = game_with(rounds, language="en", seats=8)
    tallies, notes = read_tallies(g)
    assert [t.round for t in tallies] == [1, 2] and not notes, notes
    for t in tallies:
        hit = ballot_tally(g, Cut(max(s for u in g.utterances for s in u.segment_ids)), 10, t.round)
        assert hit is not None and hit[0].id == t.segment  # the cut-off finds this round's tally where it was read
        cut = cut_with_vote_call(g, t.segment)
        text = shown(g, cut)[-1].text
        assert text.strip(" .:!") == call.strip(" .:!")  # the call shown, its tally not


def test_an_english_call_that_names_who_votes_reads_those_words_as_the_call():
    g = game_with([("day-1", "Please vote now, everyone except seats 3 and 4: seat 2 votes for seat 7, everyone else votes for seat 1. "
                             "Seat 1 is exiled.")], language="en", seats=8)
    assert ballots(g) == [{2: 7, 5: 1, 6: 1, 7: 1, 8: 1}]  # seats 3 and 4 do not vote; seat 1 may not vote for itself
