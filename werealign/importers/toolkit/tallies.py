"""Ballots from the host's tallies (issue 31): the host reads each vote out ("1号、5号投给3号，7号弃票，其余玩家投给
9号"), and this module turns every tally it can read without doubt into the game's vote events.

A tally follows the host's call to vote in a host turn of a day or sheriff-election phase. The call is the one
werealign.game.announcements reads (`Lexicon.vote_call`): a ballot's round counted here is the round whose tally a
decision's cut-off keeps out of its prompt there, so both must count the same calls. It is
a run of clauses: seats then "votes for" and a seat; seats then "abstain"; "the rest" then either. "The rest" are
the eligible voters the tally has not named: the seats alive at the tally, but the candidates on the stage in a
sheriff election ("X号、Y号仍在警上"), every seat that stood for sheriff where the host calls on those who did not
("没有上警的玩家请投票"; its `sheriff_run` events, toolkit.candidacy: a candidate who withdrew does not vote either) and
the seats a re-vote leaves out ("除X号、Y号以外的玩家请投票").

Transcription makes tallies ambiguous: the host's countdown ("3、2、1") runs into the first seat ("3216号" is the
countdown and seat 6; "3211号" may be seat 1 or seat 11). Every reading of the countdown is tried; a reading must
name only eligible voters, each once, living targets, no self-vote the rules forbid, agree with the MVP's annotated
vote of that round, and leave no vote clause unread. Exactly one set of ballots must survive; otherwise the tally
gives no event and the report says why. Each event is anchored to the segment where the tally is read, round by
round within a phase (a PK re-vote is round 2).

Wordings are data (`WORDINGS`, by game language); a language without one reads no tally.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from werealign.game.announcements import LEXICONS
from werealign.game.derive import alive_at
from werealign.importers.report import ImportReport
from werealign.importers.toolkit.evidence import quoted, segment_at
from werealign.schema import Event, GameLog, Utterance
from werealign.schema.models import EVERYONE, VOTE_PHASE_KINDS


@dataclass(frozen=True)
class Wording:
    call_rest: re.Pattern  # after the host's call to vote (LEXICONS' vote_call), the rest of its sentence: who votes, not how
    seat: re.Pattern  # one seat token: group 1 the digits
    separator: re.Pattern
    votes_for: re.Pattern
    abstain: re.Pattern
    rest: re.Pattern  # "everyone else"
    excluded: re.Pattern  # group 1: the seats that do not vote in this call (candidates on the stage, a re-vote's pair)
    on_stage: re.Pattern  # group 1: the sheriff candidates still running (they do not vote)
    non_runners: re.Pattern  # a call on the seats that did not stand for sheriff (a candidate who withdrew does not vote)
    end: re.Pattern  # where a tally is over (the outcome)
    elected: re.Pattern  # an outcome that elects a sheriff (the tally was a sheriff vote)
    tie: re.Pattern  # an outcome that names the tied seats just before it (they are no voters)
    outcome: re.Pattern  # an outcome that may name its seat just before it ("9号玩家出局")
    countdowns: tuple[str, ...]  # digit strings the host counts down before the tally, longest first


_ZH_SEATS = r"((?:\d+\s*号?\s*[、，,和及 ]*\s*)+)"
WORDINGS: dict[str, Wording] = {
    "zh": Wording(
        call_rest=re.compile(r""),
        seat=re.compile(r"(\d+)\s*号?(?:玩家)?"),
        separator=re.compile(r"[\s、，,和及]+"),
        votes_for=re.compile(r"投给了?|投了|投"),
        abstain=re.compile(r"弃票|弃权"),
        rest=re.compile(r"其余(?:所有)?(?:的)?玩家|其他(?:所有)?(?:的)?玩家|其余人|剩下的?(?:所有)?玩家|所有(?:的)?玩家|全部玩家"),
        excluded=re.compile(r"除(?:了)?\s*" + _ZH_SEATS + r"(?:以外|之外)"),
        on_stage=re.compile(_ZH_SEATS + r"仍在警上"),
        non_runners=re.compile(r"(?:没有|没|未)(?:上警|参与竞选|参加竞选)"),
        end=re.compile(r"(?:玩家)?\s*(?:出局|当选|平票)|PK|警长拥有|。"),
        elected=re.compile(r"(?:玩家)?\s*当选"),
        tie=re.compile(r"平票"),
        outcome=re.compile(r"(?:玩家)?\s*(?:出局|当选)"),
        countdowns=("321", "32"),
    ),
    "en": Wording(
        call_rest=re.compile(r"(?<![.!:])[^.:]*[.:]?"),  # "Please vote, everyone except seats 3 and 5." (not past its stop)
        seat=re.compile(r"(?i)(?:seats?\s+)?(\d+)\b"),
        separator=re.compile(r"(?i)(?:\s|,|;|\band\b)+"),
        votes_for=re.compile(r"(?i)\bvot(?:e|es|ed)\s+(?:for\s+)?(?=(?:seat\s+)?\d)"),
        abstain=re.compile(r"(?i)\babstain(?:ed|s)?\b"),
        rest=re.compile(r"(?i)\b(?:everyone|all)\s+else\b|\bthe\s+rest\b"),
        excluded=re.compile(r"(?i)\bexcept\s+((?:(?:seats?\s+)?\d+(?:\s*,\s*|\s+and\s+|\s+)?)+)"),
        on_stage=re.compile(r"(?i)\bcandidates?(?:\s+still\s+running)?\s*:?\s*((?:(?:seats?\s+)?\d+(?:\s*,\s*|\s+and\s+|\s+)?)+)"),
        non_runners=re.compile(r"(?i)\b(?:did not|didn't) (?:run|stand)\b"),
        end=re.compile(r"(?i)\bis (?:exiled|eliminated|out|elected)\b|\b(?:a )?tie\b|\.(?:\s|$)"),
        elected=re.compile(r"(?i)is elected\b"),
        tie=re.compile(r"(?i)(?:a )?tie\b"),
        outcome=re.compile(r"(?i)is (?:exiled|eliminated|out|elected)\b"),
        countdowns=("321",),
    ),
}


@dataclass(frozen=True)
class Tally:
    phase: str
    round: int
    segment: int
    ballots: dict[int, int | None]  # voter -> target (None: abstained)
    quote: str = ""  # the host's words read: the call and the tally after it (the events' evidence)


@dataclass(frozen=True)
class TallyNote:
    phase: str
    segment: int
    what: str
    why: str


def read_tallies(game: GameLog) -> tuple[list[Tally], list[TallyNote]]:
    """Every tally of the game's host turns read without doubt, and a note for every one that is not."""
    wording, lexicon = WORDINGS.get(game.language), LEXICONS.get(game.language)
    kinds = {p.id: p.kind for p in game.phases}
    if wording is None or lexicon is None:
        return [], []
    tallies: list[Tally] = []
    notes: list[TallyNote] = []
    rounds: dict[str, int] = defaultdict(int)
    for u in game.utterances:
        if u.speaker != "host" or kinds.get(u.phase) not in VOTE_PHASE_KINDS:
            continue
        for m in lexicon.vote_call.finditer(u.text):
            rest = wording.call_rest.match(u.text, m.end())
            call = (m.start(), rest.end() if rest else m.end())
            rounds[u.phase] += 1
            segment = segment_at(u, call[1])
            read = _read(game, u, call, wording, segment, rounds[u.phase])
            if isinstance(read, Tally):
                tallies.append(read)
            else:
                notes.append(TallyNote(u.phase, segment, f"the host's tally in turn {u.index} ({u.phase}, round {rounds[u.phase]})", read))
    return tallies, notes


def day_ballots(game: GameLog) -> Callable[[int, str], set[int] | None]:
    """(seat, phase) -> every seat `seat` voted for in the day ballots before `phase`, from the host's tallies; None when
    a ballot before it is not known (a day whose call to vote gives no tally read, or whose exile has none). What a
    stalker may assassinate (a seat he voted for by day: nights.night_truth) asks it before the game's votes exist."""
    order = {p.id: i for i, p in enumerate(game.phases)}
    days = [p.id for p in game.phases if p.kind == "day"]
    tallies, notes = read_tallies(game)
    read = {t.phase for t in tallies}
    unknown = {n.phase for n in notes} | ({e.phase for e in game.events if e.kind == "elimination" and e.result == "voted_out"} - read)

    def voted(seat: int, phase: str) -> set[int] | None:
        before = [d for d in days if order[d] < order.get(phase, -1)]
        if any(d in unknown for d in before):
            return None
        return {t.ballots.get(seat) for t in tallies if t.phase in before} - {None}
    return voted


def tally_events(game: GameLog, report: ImportReport | None = None) -> GameLog:
    """`game` with the ballots of its readable tallies as vote events; a phase that already has vote events is kept as it is."""
    has_votes = {e.phase for e in game.events if e.kind == "vote"}
    tallies, notes = read_tallies(game)
    events = [Event(kind="vote", phase=t.phase, segment_id=t.segment, audience=EVERYONE, actor=voter, target=target, round=t.round,
                    note="read from the host's tally", evidence=quoted(t.segment, t.quote))
              for t in tallies if t.phase not in has_votes for voter, target in sorted(t.ballots.items())]
    if report is not None:
        mvp = {(v.phase, v.round or 1): v.target for v in (game.mvp.votes if game.mvp else [])}
        for t in tallies:
            if game.mvp is not None and game.mvp.seat in t.ballots and (t.phase, t.round) in mvp and mvp[(t.phase, t.round)] != t.ballots[game.mvp.seat]:
                report.add("warning", "tally_mvp_disagrees", source_file=game.provenance.original_file or "", game=game.game_id, field=None,
                           what=f"{t.phase} round {t.round}: the host's tally gives MVP seat {game.mvp.seat} the ballot {t.ballots[game.mvp.seat]}, "
                                f"the MVP annotation {mvp[(t.phase, t.round)]}",
                           why="the vote events follow the host's tally (what the table heard); the VA item keeps the annotation")
        for n in notes:
            report.add("dropped", "tally_unread", source_file=game.provenance.original_file or "", game=game.game_id, field=None,
                       what=n.what, why=f"no vote events: {n.why}")
    if not events:
        return game
    return game.model_copy(update={"events": [*game.events, *events]})


# --------------------------------------------------------------------------- reading one tally


def _seats_in(text: str, wording: Wording) -> set[int]:
    return {int(d) for d in wording.seat.findall(text)}


def _read(game: GameLog, u: Utterance, call: tuple[int, int], wording: Wording, segment: int, rnd: int) -> Tally | str:
    """The tally after the call to vote at `call` (its start and end in the turn's text), or why none is read."""
    (start, stop), text = call, u.text
    before, after = text[:start], text[stop:]
    end = wording.end.search(after)
    region = after[:end.start()] if end else after
    seats = {s.seat for s in game.seats}
    alive = set(alive_at(game, segment - 1))
    excluded: set[int] = set()
    for m in wording.excluded.finditer(text[:stop]):
        excluded |= _seats_in(m.group(1), wording)
    sheriff_vote = any(True for _ in wording.on_stage.finditer(before)) or bool(end and wording.elected.match(after, end.start()))
    for m in wording.on_stage.finditer(before):
        excluded |= _seats_in(m.group(1), wording)
    if sheriff_vote and next((p.kind for p in game.phases if p.id == u.phase), None) != "sheriff_election":
        return "a sheriff vote inside a day phase: its ballots would read as an exile vote"
    if sheriff_vote and wording.non_runners.search(text[max(0, start - 12):stop]):
        # The host calls on those who did not run ("没有上警的玩家请投票"): one who withdrew does not vote. (A re-vote
        # "除X号、Y号以外的玩家请投票" or a later election's call may let them: only this call's wording decides.)
        excluded |= {int(e.actor) for e in game.events if e.kind == "sheriff_run" and e.phase == u.phase and isinstance(e.actor, int)}
    eligible = (alive & seats) - excluded
    mvp_vote = _mvp_vote(game, u.phase, rnd)
    # Seats named last with no verb: the tied seats before a tie, the one seat before "is out"/"is elected".
    trailing = 0 if end is None else len(seats) if wording.tie.match(after, end.start()) else int(bool(wording.outcome.match(after, end.start())))
    outcomes: list[dict[int, int | None]] = []
    problems: list[str] = []
    for reading in _readings(region, wording):
        got = _clauses(reading, wording, trailing=trailing)
        if isinstance(got, str):
            problems.append(got)
            continue
        ballots = _ballots(got, eligible, alive, game.rules.self_vote_allowed)
        if isinstance(ballots, str):
            problems.append(ballots)
        elif ballots not in outcomes:
            outcomes.append(ballots)
    # The MVP's annotated ballot picks between readings; it never overrules the only one (annotations slip too).
    if mvp_vote is not None and game.mvp is not None and len(outcomes) > 1:
        agreeing = [b for b in outcomes if b.get(game.mvp.seat, mvp_vote[0]) == mvp_vote[0]]
        outcomes = agreeing or outcomes
    if len(outcomes) == 1:
        return Tally(u.phase, rnd, segment, outcomes[0], text[start:stop + len(region)])
    if outcomes:
        return f"{len(outcomes)} readings of the host's countdown and seats fit the game; which is meant cannot be told"
    return "; ".join(dict.fromkeys(problems)) if problems else "nothing after the call reads as a tally"


def _mvp_vote(game: GameLog, phase: str, rnd: int) -> tuple[int | None] | None:
    """The MVP's annotated ballot of this round, as a 1-tuple (its target may be None: an abstention); None: none annotated."""
    if game.mvp is None:
        return None
    return next(((v.target,) for v in game.mvp.votes if v.phase == phase and (v.round or 1) == rnd), None)


def _readings(region: str, wording: Wording) -> list[str]:
    """The region as written, and with each countdown taken off its first digits (across a separator). A countdown
    that runs into a seat ("3211号") is tried at every length the wording lists: seat 1 after "321", seat 11 after "32"."""
    out = [region]
    m = re.match(r"[\s\W]*", region)
    start = m.end() if m else 0
    for cd in wording.countdowns:
        i, k = start, 0
        # walk the region from `start`, matching the countdown's digits, skipping separators between them
        while k < len(cd) and i < len(region):
            if region[i] == cd[k]:
                k, i = k + 1, i + 1
            elif wording.separator.match(region, i) and k > 0:
                i = wording.separator.match(region, i).end()
            else:
                break
        if k == len(cd):
            out.append(region[i:])
            if i >= len(region) or not region[i].isdigit():
                break  # the whole countdown stands alone ("321, 2号"): a shorter one would cut it, not the seat after it
    return out


@dataclass(frozen=True)
class _Clause:
    voters: tuple[int, ...]
    rest: bool
    target: int | None  # None: abstained


def _clauses(text: str, wording: Wording, trailing: int = 0) -> list[_Clause] | str:
    """The clauses of a tally; up to `trailing` seats named last with no verb belong to the outcome, not the tally."""
    clauses: list[_Clause] = []
    voters: list[int] = []
    rest = False
    i = 0
    while i < len(text):
        if (m := wording.separator.match(text, i)) and m.end() > i:
            i = m.end()
            continue
        if m := wording.rest.match(text, i):
            rest, i = True, m.end()
            continue
        if m := wording.abstain.match(text, i):
            if not voters and not rest:
                return "an abstention with no voter named"
            clauses.append(_Clause(tuple(voters), rest, None))
            voters, rest, i = [], False, m.end()
            continue
        if m := wording.votes_for.match(text, i):
            j = i = m.end()
            while (s := wording.separator.match(text, j)) and s.end() > j:
                j = s.end()
            t = wording.seat.match(text, j)
            if t is None:
                return "a vote with no target seat"
            if not voters and not rest:
                return f"a vote for seat {t.group(1)} with no voter named"
            clauses.append(_Clause(tuple(voters), rest, int(t.group(1))))
            voters, rest, i = [], False, t.end()
            continue
        if m := wording.seat.match(text, i):
            voters.append(int(m.group(1)))
            i = m.end()
            continue
        break
    leftover = text[i:]
    if (voters and not (len(voters) <= trailing and not text[i:].strip())) or rest or wording.votes_for.search(leftover) or wording.abstain.search(leftover):
        return "part of the tally does not read as seats voting for a seat or abstaining"
    if not clauses:
        return "nothing after the call reads as a tally"
    return clauses


def _ballots(clauses: list[_Clause], eligible: set[int], alive: set[int], self_vote: bool) -> dict[int, int | None] | str:
    ballots: dict[int, int | None] = {}
    rest_target: list[int | None] = []
    for c in clauses:
        if c.target is not None and c.target not in alive:
            return f"seat {c.target} is not a living seat"
        for v in c.voters:
            if v not in eligible:
                return f"seat {v} is not an eligible voter"
            if v in ballots:
                return f"seat {v} is named twice"
            if v == c.target and not self_vote:
                return f"seat {v} would vote for itself"
            ballots[v] = c.target
        if c.rest:
            rest_target.append(c.target)
    if len(rest_target) > 1:
        return "'the rest' is named twice"
    if rest_target:
        rest = sorted(eligible - set(ballots))
        if not rest:
            return "'the rest' names nobody"
        for v in rest:
            if v != rest_target[0] or self_vote:  # the seat voted for is not among "the rest" who voted for it
                ballots[v] = rest_target[0]
    return ballots
