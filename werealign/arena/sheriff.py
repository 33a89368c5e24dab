"""The sheriff election at the table (werealign.arena.moderator), before the night's news: candidacies, campaign
speeches, withdrawals, then the others vote. Under the board's rules (werealign.arena.board: `Board.rules`): a tie
is voted again among the tied runners and a second tie loses the badge (`sheriff_tie: revote`), or the tie loses it
at once (`badge_lost`); a wolf self-destructing in its campaign speech ends the day after the news and either loses
the badge (`campaign_self_destruct: badge_lost`) or suspends the election, which resumes the next morning with the
runners still in, those who spoke not speaking again; a second self-destruct loses the badge (`election_resumes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from werealign.arena.moves import Decision
from werealign.schema.models import EVERYONE, WITHDREW

if TYPE_CHECKING:
    from werealign.arena.moderator import Table


@dataclass
class Suspended:
    """An election a campaign self-destruct broke off: who runs, who has spoken."""

    runners: list[int]
    spoken: set[int] = field(default_factory=set)


def elect(t: Table) -> bool:
    """Hold (or resume) the election; True when a self-destruct ended the day."""
    rules = t.board.rules
    resumed = t.suspended
    t.rec.begin("sheriff_election", t.day)
    if resumed is None:
        t.host(t.line("election"))
        runners = [s for s in sorted(t.alive) if t.ask(Decision("run", s, t.day, (s,), none_ok=True)).choice == s]
        if not runners:
            seg = t.host(t.line("no_runner"))
            t.rec.event("sheriff_election", EVERYONE, segment=seg, target=None)
            return False
        seg = t.host(t.line("running", seats=runners))
        for s in runners:  # who stood, as the game's record of the run-or-not decision (issue 31)
            t.rec.event("sheriff_run", EVERYONE, segment=seg, actor=s)
        spoken: set[int] = set()
    else:
        t.suspended = None
        runners = [s for s in resumed.runners if s in t.alive]
        spoken = resumed.spoken
        t.host(t.line("election_again", seats=runners) if runners else t.line("no_runner"))
    for s in runners:
        if s in spoken:
            continue
        t.host(t.line("campaign", seat=s))
        spoken.add(s)
        if t.turn(s, "campaign"):
            if rules.campaign_self_destruct == "election_resumes" and resumed is None:
                t.suspended = Suspended([r for r in runners if r != s], spoken)
                t.host(t.line("election_suspended"))
                return True
            seg = t.host(t.line("no_sheriff"))
            t.rec.event("sheriff_election", EVERYONE, segment=seg, target=None)
            return True
    for s in list(runners):
        if len(runners) > 1 and t.ask(Decision("withdraw", s, t.day, (s,), none_ok=True)).choice == s:
            runners.remove(s)
            seg = t.host(t.line("withdraws", seat=s))
            t.rec.event("sheriff_run", EVERYONE, segment=seg, actor=s, result=WITHDREW)
    voters = [s for s in sorted(t.alive) if s not in runners]
    elected = runners[0] if len(runners) == 1 else None
    for rnd in (1, 2) if rules.sheriff_tie == "revote" else (1,):
        if elected is not None or not voters or len(runners) < 2:
            break
        cutoff = t.host(t.line("sheriff_vote", seats=runners))
        ballots = {s: t.ask(Decision("sheriff_vote", s, t.day, tuple(runners), none_ok=True)).choice for s in voters}
        leaders, said = t.count(ballots, weights={})
        seg = t.host(said + t.outcome(leaders, rnd, "sheriff"))
        t.record_ballots(ballots, seg, cutoff, rnd)
        if len(leaders) == 1:
            elected = leaders[0]
        runners = leaders
    seg = t.host(t.line("no_sheriff") if elected is None else t.line("sheriff", seat=elected))
    t.rec.event("sheriff_election", EVERYONE, segment=seg, target=elected)
    t.sheriff = elected
    return False
