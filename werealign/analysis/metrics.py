"""The metrics of one game, read from its log (and, for an arena game, its decision trace).

Every metric is computed from what the log records, never guessed: when a game lacks what a metric
needs (no seer, no recorded votes, no seer checks, no role names in its language, no bids), the metric
is absent and `missing` says why, per game.

A seat named in a turn is read in every form a transcript or a model writes it, whatever the game's language
("3号", "3 号", "３号", "三号", "seat 3", "player 3": werealign.text.seat_mentions, the audit's reader too).

Definitions (Werewolf Arena's where it has one):
- seer reveal: a day turn of a seer (a seat whose role holds the seer's check, `seer_check`, by the game's role
  catalogue whatever its id, or one that used it) that names such a role in the game's language (the catalogue's
  names of the board's roles holding the check; none on the board: of the catalogue's); the checked seats it names
  are revealed targets, each with the verdict the turn states for it (the first side word in the clause
  after the seat: a wolf-side role name or 查杀 -> wolf; a good-side role name, good, 好人, 金水 -> good;
  none: no verdict). Counted once per (day, target), the claim itself once per day. Unmasked wolf %
  (Werewolf Arena): target reveals that called a wolf a wolf; believed %: those whose target was exiled
  that day; backfired %: those after which the seer was exiled that day.
- a round's vote: the ballots of one day phase and round. Consensus: the leader's share of the ballots;
  ballot entropy: Shannon entropy (bits) of the round's ballots over targets. Werewolf Arena's voting
  entropy H is of votes polled after every debate turn: measured from an arena trace's polls
  (`arena --poll-votes`), H per (day, debate turn), else not measured; ballot entropy is not it. A vote change: a ballot for another seat than the one the
  voter named last in their own speech that day (voters who named no candidate are not counted);
  exiled-was-wolf: day exiles whose seat is on the wolf side.
- participation: a player's day turns and characters, per player alive at the start of each day, and
  the top talker's share of each day's characters (a share, so comparable across languages, where
  characters are not: a Chinese character carries about a word).
- bids (Werewolf Arena): the levels bid, apart for seats the last speaker named and the others.
- estimation: a side guess (an agent's "3号=狼" in its vote, a rule agent's suspicion) is right or wrong; the
  estimation accuracy by day is the share right (each guess counted).
- Est (Strategy Adaptation, eq. 1-2): from an agent's 0-4 ratings of every role for a seat j (the trace's
  `ratings`, recorded by `--solver sa` at each of its estimates), Acc(i, j) = the rating of j's true role over
  the sum of i's ratings of j (no Acc when all are 0); Est(j) = the mean of Acc(i, j) over the other agents i
  that rated j, per day (each one's last rating of j that day). As in the paper every other agent is a rater,
  a wolf rating its partner included. Only agents that rate roles have it.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for
from werealign.solvers.sa import acc  # the paper's Acc(i, j), as eval scores sa's samples
from werealign.text.seat_mentions import mentions

VOTED_OUT = "voted_out"  # the elimination result of an exile (werealign.render.phrases.RESULT)


@dataclass
class GameMetrics:
    game_id: str
    winner: str | None
    days: int
    seats: dict[int, str]  # seat -> faction
    roles: dict[int, str]  # seat -> role
    seer: dict[str, Any] = field(default_factory=dict)
    seer_seats: tuple[int, ...] = ()  # seats whose role holds the seer's check (the catalogue's rule): the seer metrics' players
    rounds: list[dict[str, Any]] = field(default_factory=list)  # one per vote round
    vote_changes: list[tuple[int, bool]] = field(default_factory=list)  # (voter seat, changed)
    exiles: list[tuple[int, bool]] = field(default_factory=list)  # (seat, was a wolf)
    turns: dict[int, list[int]] = field(default_factory=dict)  # seat -> [turns, characters, player-days alive]
    bids: dict[int, list[int]] = field(default_factory=dict)  # seat -> bids
    bids_mentioned: dict[int, list[int]] = field(default_factory=dict)  # seat -> bids when the last speaker named it
    top_share: list[float] = field(default_factory=list)  # per day: the top talker's share of the day's characters
    estimates: dict[int, dict[int, list[bool]]] = field(default_factory=dict)  # seat -> day -> side guesses right or wrong
    est: dict[int, dict[int, float]] = field(default_factory=dict)  # target seat -> day -> Est (Strategy Adaptation, from 0-4 ratings)
    poll_entropy: dict[int, dict[int, float]] = field(default_factory=dict)  # day -> debate turn -> H of the polled votes
    missing: dict[str, str] = field(default_factory=dict)  # metric -> why this game has none


def _spans(text: str, seat: int) -> list[tuple[int, int]]:
    """Where a text names `seat`, in any form a transcript or a model writes it (werealign.text.seat_mentions:
    "3号", "3 号", "３号", "三号", "seat 3", "player 3"), whatever the game's language."""
    return [(m.start, m.end) for m in mentions(text) if m.seat == seat]


def _mentioned(text: str, seats: list[int]) -> list[int]:
    """Seats a text names, in the order first named."""
    first: dict[int, int] = {}
    for m in mentions(text):
        if m.seat in seats:
            first.setdefault(m.seat, m.start)
    return sorted(first, key=first.__getitem__)


def _last_named(text: str, seats: list[int]) -> int | None:
    named = [m.seat for m in mentions(text) if m.seat in seats]
    return named[-1] if named else None


def game_metrics(game: GameLog, trace: list[dict] | None = None) -> GameMetrics:
    phases = {p.id: p for p in game.phases}
    faction = {s.seat: s.faction for s in game.seats}
    gm = GameMetrics(game.game_id, game.winner, max((p.day for p in game.phases if p.kind == "day"), default=0), faction,
                     {s.seat: s.role for s in game.seats})
    if game.winner is None:
        gm.missing["win"] = "no winner recorded"
    lang = game.language
    day_turns = [u for u in game.utterances if isinstance(u.speaker, int) and phases.get(u.phase) is not None
                 and phases[u.phase].kind != "night" and (u.audience is None or u.audience.kind == "everyone")]
    exile_of = _exiles(game, phases)
    _votes(game, gm, phases, day_turns, exile_of)
    _seer(game, gm, phases, day_turns, exile_of, lang)
    _participation(game, gm, phases, day_turns)
    _trace(gm, trace, faction)
    if gm.rounds and not gm.poll_entropy:
        gm.missing["per_turn_entropy"] = "no per-turn votes (arena --poll-votes: Werewolf Arena's voting entropy)"
    return gm


def _exiles(game: GameLog, phases: dict) -> dict[str, int]:
    """Day phase id -> the seat exiled by that phase's vote (an elimination anchored at or after its last ballot)."""
    out: dict[str, int] = {}
    last_vote: dict[str, int] = {}
    for e in game.events:
        if e.kind == "vote" and e.segment_id is not None and phases.get(e.phase) is not None and phases[e.phase].kind == "day":
            last_vote[e.phase] = max(last_vote.get(e.phase, -1), e.segment_id)
    for e in game.events:
        if e.kind != "elimination" or e.target is None or e.phase in out or phases.get(e.phase) is None or phases[e.phase].kind != "day":
            continue
        if e.phase in last_vote:
            if e.segment_id is not None and e.segment_id >= last_vote[e.phase]:
                out[e.phase] = e.target
        elif e.result == VOTED_OUT:  # a log with the exile but not the ballots (the WereBench release)
            out[e.phase] = e.target
    return out


def _votes(game, gm: GameMetrics, phases, day_turns, exile_of) -> None:
    ballots: dict[tuple[str, int], dict[int, int | None]] = defaultdict(dict)
    first_seg: dict[tuple[str, int], int] = {}
    for e in game.events:
        if e.kind == "vote" and isinstance(e.actor, int) and phases.get(e.phase) is not None and phases[e.phase].kind == "day":
            key = (e.phase, e.round or 1)
            ballots[key][e.actor] = e.target
            if e.segment_id is not None:
                first_seg[key] = min(first_seg.get(key, e.segment_id), e.segment_id)
    gm.exiles = [(seat, gm.seats.get(seat) == "wolf") for _, seat in sorted(exile_of.items(), key=lambda kv: phases[kv[0]].day)]
    if not ballots:
        gm.missing["votes"] = "no day ballots recorded: consensus, entropy and vote changes need them"
        return
    for (phase, rnd), b in ballots.items():
        counts = Counter(t for t in b.values() if t is not None)
        n = sum(counts.values())
        if not n:
            continue
        entropy = _entropy(counts)
        gm.rounds.append({"day": phases[phase].day, "round": rnd, "ballots": n, "consensus": max(counts.values()) / n, "entropy": entropy})
        if rnd != 1:
            continue
        cut = first_seg.get((phase, rnd))
        for voter, target in b.items():
            said = " ".join(u.text for u in day_turns if u.speaker == voter and u.phase == phase and (cut is None or u.segment_ids[-1] < cut))
            named = _last_named(said, [s for s in gm.seats if s != voter])
            if named is not None and target is not None:
                gm.vote_changes.append((voter, named != target))


def _entropy(counts: Counter) -> float:
    n = sum(counts.values())
    return -sum(c / n * math.log2(c / n) for c in counts.values()) if n else 0.0


def _seer(game, gm: GameMetrics, phases, day_turns, exile_of, lang) -> None:
    checks = [e for e in game.events if e.kind == "skill_use" and e.skill == "seer_check" and isinstance(e.actor, int) and e.target is not None]
    catalogue = catalogue_for(game.rules.declared_roles)
    # The seer metrics are the metrics of the roles holding the seer's check (catalogue `Role.night_skills`), whatever their id.
    gm.seer_seats = tuple(s.seat for s in game.seats if catalogue.holds(s.role, skill="seer_check"))
    seers = sorted({*gm.seer_seats} | {e.actor for e in checks})
    if not seers:
        gm.missing["seer"] = "no seer in the game"
        return
    # The names a reveal claims: of the board's roles holding the check, else (a checker whose role the catalogue does
    # not say holds it) of the catalogue's.
    on_board = dict.fromkeys(s.role for s in game.seats if s.seat in gm.seer_seats)
    roles = [catalogue.roles[r] for r in on_board] or [r for r in catalogue.roles.values() if catalogue.holds(r.id, skill="seer_check")]
    names = [n for r in roles for n in r.names.get(lang, ())]
    if not names:
        shown = " or ".join(r.name("en") for r in roles) or "seer"
        gm.missing["seer"] = f"no name of the {shown} role in language {lang!r} (role catalogue)"
        return
    claim = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.I)
    sides = side_words(game, lang)
    exiled_day = {phases[p].day: s for p, s in exile_of.items()}
    order = {p.id: i for i, p in enumerate(game.phases)}
    reveals: set[tuple[int, int | None]] = set()
    wolf_reveals: list[tuple[int, int, int]] = []  # (day, target, seer)
    for u in day_turns:
        if u.speaker not in seers or not claim.search(u.text):
            continue
        day = phases[u.phase].day
        reveals.add((day, None))
        checked = {e.target for e in checks if e.actor == u.speaker and _before(e, u, order)}
        for t in _mentioned(u.text, sorted(checked)):
            if (day, t) not in reveals:
                reveals.add((day, t))
                if gm.seats.get(t) == "wolf" and stated_verdict(u.text, t, sides) == "wolf":
                    wolf_reveals.append((day, t, u.speaker))
    targets = [r for r in reveals if r[1] is not None]
    gm.seer = {"reveals": len(reveals), "first_reveal_day": min((d for d, _ in reveals), default=None),
               "target_reveals": len(targets), "wolf_reveals": len(wolf_reveals),
               "believed": sum(exiled_day.get(d) == t for d, t, _ in wolf_reveals),
               "backfired": sum(exiled_day.get(d) == s for d, _, s in wolf_reveals)}
    if not checks:
        gm.missing["seer_checks"] = "no seer checks recorded: unmasked, believed and backfired need them"
    if not exile_of:
        gm.missing["seer_exiles"] = "no exile recorded: believed and backfired need them"


VERDICT_WORDS = {"wolf": ("查杀",), "good": ("good", "innocent", "好人", "金水")}
CLAUSE_END = re.compile(r"[.。!！?？;；，,]")


def side_words(game: GameLog, lang: str) -> list[tuple[str, str]]:
    """(word, side) that state a seat's side in the game's language: role names by faction, and verdict words."""
    catalogue = catalogue_for(game.rules.declared_roles)
    words = [(n, r.faction) for r in catalogue.roles.values() if r.faction in ("wolf", "good") for n in r.names.get(lang, ())]
    words += [(w, side) for side, ws in VERDICT_WORDS.items() for w in ws]
    return sorted(words, key=lambda w: -len(w[0]))


def stated_verdict(text: str, seat: int, sides: list[tuple[str, str]]) -> str | None:
    """The side a turn states for `seat`: the first side word in a clause that follows a mention of it."""
    for _, end_at in _spans(text, seat):
        rest = text[end_at:]
        clause = rest[:end.start()] if (end := CLAUSE_END.search(rest)) else rest
        found = [(i, side) for word, side in sides if (i := clause.lower().find(word.lower())) >= 0]
        if found:
            return min(found)[1]
    return None


def _before(e, u, order: dict[str, int]) -> bool:
    """Whether event e was known when turn u began: by its anchor, else (unanchored) by an earlier phase."""
    if e.segment_id is not None:
        return e.segment_id <= u.segment_ids[0]
    return order.get(e.phase, 1 << 30) < order.get(u.phase, -1)


def _participation(game, gm: GameMetrics, phases, day_turns) -> None:
    out: dict[int, list[int]] = {s: [0, 0, 0] for s in gm.seats}
    gone: set[int] = set()
    elim = sorted((e.segment_id, e.target) for e in game.events if e.kind == "elimination" and e.segment_id is not None and e.target is not None)
    first = {}
    for u in game.utterances:
        first.setdefault(u.phase, u.segment_ids[0])
    for p in game.phases:
        if p.kind != "day" or p.id not in first:
            continue
        gone = {t for seg, t in elim if seg <= first[p.id]}  # out by the day's first line (the night's news)
        for s in gm.seats:
            out[s][2] += s not in gone
    by_day: dict[str, Counter] = defaultdict(Counter)
    for u in day_turns:
        out[u.speaker][0] += 1
        out[u.speaker][1] += len(u.text)
        by_day[u.phase][u.speaker] += len(u.text)
    gm.top_share = [max(c.values()) / sum(c.values()) for c in by_day.values() if sum(c.values())]
    if not day_turns:
        gm.missing["participation"] = "no day turns recorded"
    gm.turns = out


def _trace(gm: GameMetrics, trace: list[dict] | None, faction: dict[int, str]) -> None:
    if trace is None:
        gm.missing["bids"] = "no bids (not an arena game)"
        gm.missing["estimates"] = "no role estimates recorded"
        gm.missing["est"] = "no 0-4 role ratings (not an arena game)"
        return
    last: dict[tuple[int, int, int], float] = {}  # (day, rater, target) -> Acc of the rater's day's last rating
    for row in trace:
        if row["kind"] == "bid" and row["choice"] is not None:
            into = gm.bids_mentioned if row.get("mentioned") else gm.bids
            into.setdefault(row["seat"], []).append(row["choice"])
        for seat, guess in (row.get("estimates") or {}).items():
            right = (guess == "wolf") == (faction.get(int(seat)) == "wolf")
            gm.estimates.setdefault(row["seat"], {}).setdefault(row["day"], []).append(right)
        for seat, ratings in (row.get("ratings") or {}).items():
            if int(seat) != row["seat"] and (a := acc(ratings, gm.roles.get(int(seat)))) is not None:
                last[row["day"], row["seat"], int(seat)] = a
    polls: dict[tuple[int, int], Counter] = defaultdict(Counter)
    for row in trace:
        if row["kind"] == "poll" and row["choice"] is not None:
            polls[row["day"], row.get("turn", 0)][row["choice"]] += 1
    for (day, turn), counts in sorted(polls.items()):
        gm.poll_entropy.setdefault(day, {})[turn] = _entropy(counts)
    by_target: dict[tuple[int, int], list[float]] = defaultdict(list)
    for (day, _, target), a in last.items():
        by_target[target, day].append(a)
    for (target, day), accs in sorted(by_target.items()):
        gm.est.setdefault(target, {})[day] = sum(accs) / len(accs)
    if not gm.bids and not gm.bids_mentioned:
        gm.missing["bids"] = "no bids (round-robin debate)"
    if not gm.estimates:
        gm.missing["estimates"] = "no role estimates recorded"
    if not gm.est:
        gm.missing["est"] = "no 0-4 role ratings recorded (Strategy Adaptation's Est: an agent that rates roles, e.g. --solver sa)"

