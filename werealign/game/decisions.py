"""Decision items of one game log (issue 31): the night moves and the day ballots, read from its events.

Night (from skill-use events, by night phase):
- seer_check: each recorded check; candidates: every living seat but the seer's own.
- guard_protect (any `*_protect` skill): each recorded protection; candidates: every living seat, the guard's
  own included, but last night's seat under the guard's no-repeat rule (only the `guard_protect` skill; when the
  guard's previous night is not recorded the rule cannot be applied and every living seat is offered, the prompt
  naming the missing fact). "None" (an empty guard) where the board lets it skip, else a recorded empty guard is no item.
- witch_save: a night the witch (any seat whose role the catalogue gives both potions, `Role.night_skills`, or the log
  has use one) holds her antidote and the wolves' victim is known (the game tells her); answer
  the victim or none. A "no save" is kept only where the log proves it (the victim's night death was announced);
  a victim who is the witch herself needs the board's self-save rule (werealign.game.moves).
- witch_poison: a night the witch holds her poison and, unless the board allows both potions, provably did not
  save (she poisoned, or the wolves' victim died with no save recorded: a night she saved or may have holds no
  poison decision); answer a seat or none. A "none" is kept only where the log proves it: she poisoned on a later night, or nobody but the
  wolves' victim died that night.
- wolf_kill: the wolves' recorded kill, asked of one living wolf (the recorded actor, else the MVP, else the
  lowest-numbered wolf among the deciders).
Day:
- sheriff_run: at each sheriff election whose candidates the log records (`sheriff_run` events: every candidate, a
  later withdrawal included), every seat alive at the call: stand (the one candidate, the decider's own seat) or
  not ("none"). Asked before the segment that names the candidates. An election without them is no item.
- sheriff_ballot: every recorded ballot of a sheriff election; candidates: the living seats that did not vote in that
  round and have not withdrawn (a `sheriff_run` event, result "withdrew", by the round's ballots; without one a
  withdrawn seat that did not vote cannot be told apart), abstaining legal as for a ballot.
- claim (werealign.game.claims): at each day turn of a seat, up to its first claim, whether it claims a role and
  which; the answer is a role of the board or none.
- badge: every recorded badge transfer, asked of the outgoing sheriff; candidates: every other living seat, and
  "none" (tearing the badge up).
- ballot: every recorded day ballot (vote events, e.g. read from the host's tallies by an importer); candidates:
  every living seat but the voter (in a re-vote: the seats tied in the round before, which must be recorded);
  abstaining is a legal move where the board's rules allow it (`rules.abstention_allowed`), whatever the game recorded.

Cut-off: before the decision and anything that tells it. A night move is asked at the night's first segment (and
before any segment an event of that night is anchored to): unanchored events of that night are not shown by the
context builder (werealign.game.visibility), earlier nights' are. A ballot is asked before its round's first ballot,
the host's call to vote shown where the ballots' segment opens on it. Nothing announcing the result is shown
(werealign.game.announcements: the night's dawn, the badge's new holder, the tally), the cut falling inside a segment
that holds the call and then the result (the item's `cutoff_chars`). Every decision not made is a note with its reason.

Who is asked (`deciders`): `winners` (default: the players of the winning side), `mvp` or `all`. Every item
records whether its decider is the MVP and on the winning side, the slices results report.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from werealign.game.announcements import Cut, cut_before_dawn, cut_before_holder, cut_before_tally, cut_with_run_call, cut_with_vote_call, holder_since, night_since
from werealign.game.claims import board_roles, claim_items
from werealign.game.derivation import Deciders, DeriveNote, Deriving, NoteKind
from werealign.game.derive import alive_at
from werealign.game.moves import Board, alive_before_phase, board_of, protect_targets, self_save_allowed, wolf_kill_targets
from werealign.schema import OPTION_KEYS, Event, GameLog, ItemProvenance
from werealign.schema.models import WITHDREW
from werealign.schema.decisions import DECISION_MODELS, MVP_MARK
from werealign.schema.roles import catalogue_for

# The notes about every kind of the pass (no seat is asked in this game).
SHARED_CODES = ("decisions_no_decider",)


@dataclass
class DecisionsDerived:
    # kind -> its items (a kind with none may be absent: it reads as empty); each kind's own module picks its list
    items: defaultdict[str, list] = field(default_factory=lambda: defaultdict(list))
    notes: list[DeriveNote] = field(default_factory=list)

    def count(self) -> int:
        return sum(len(v) for v in self.items.values())


@dataclass(frozen=True)
class _Night:
    phase: str
    number: int  # 1 = the first night of the game
    cutoff: Cut | None
    alive: list[int]
    events: list[Event]


def decisions_of(at: Deriving) -> DecisionsDerived:
    """The decision items of the game being derived: one pass over its events, shared by the decision kinds (Deriving.shared)."""
    return derive_decisions(at.game, at.options.deciders, at.options.include_agents)


def derive_decisions(game: GameLog, deciders: Deciders = "winners", include_agents: bool = False) -> DecisionsDerived:
    out = DecisionsDerived()
    tags = _tags(game)
    # A seat an agent played (issue 45) keeps its turns, but its choices are no human keys unless asked for.
    asked = _asked(game, deciders) - (set() if include_agents else {s.seat for s in game.seats if s.agent is not None})

    def note(kind: NoteKind, code: str, key: str, what: str, why: str) -> None:
        out.notes.append(DeriveNote(kind, code, key, what, why))

    if not asked:
        why = "the game records no winner" if deciders == "winners" else "the game records no MVP (use --deciders winners|all)"
        note("dropped", "decisions_no_decider", deciders, f"--deciders {deciders}", f"no decision items: {why}")
        return out

    seen: set[str] = set()

    def add(kind: str, seat: int, phase: str, cut: Cut | int | None, candidates: list[int], answer: int | None, *,
            none_allowed: bool = False, about: int | None = None, rnd: int | None = None, key: str = "") -> None:
        key = key or phase
        cut = Cut(cut) if isinstance(cut, int) else cut
        cutoff = cut.segment if cut is not None else None
        if seat not in asked:
            return
        if cutoff is None or cutoff < 0:
            note("dropped", f"{kind}_no_cutoff", key, f"seat {seat}'s {kind} in {phase}", "no item: no segment is said before the decision")
            return
        if answer is None and not none_allowed:
            note("dropped", f"{kind}_none_illegal", key, f"seat {seat}'s {kind} in {phase}: no move is recorded",
                 "no item: not acting is not a legal move here, so the missing move is a gap in the log")
            return
        if answer is not None and answer not in candidates:
            note("dropped", f"{kind}_illegal", key, f"seat {seat}'s {kind} in {phase}: seat {answer} is not among the legal moves {candidates}",
                 "no item: the recorded move breaks the board's rules as declared (or a seat's exit is misplaced)")
            return
        item_id = f"{game.game_id}-{kind.replace('_', '-')}-{phase}{f'-r{rnd}' if rnd else ''}-s{seat}{MVP_MARK if 'mvp' in tags.get(seat, []) else ''}"
        if item_id in seen:
            note("dropped", f"{kind}_duplicate", key, f"{item_id} is made twice", "item dropped: the first one is kept")
            return
        seen.add(item_id)
        item = DECISION_MODELS[kind](
            item_id=item_id, game_id=game.game_id, language=game.language, viewpoint_seat=seat, phase=phase, cutoff_segment=cutoff,
            cutoff_chars=cut.chars if cut is not None else None, candidates=sorted(candidates), none_allowed=none_allowed, answer=answer, about=about, round=rnd, deciders=tags.get(seat, []),
            provenance=ItemProvenance(source=game.provenance.original_file or game.game_id, source_ref={"decision": kind, "derived": "werealign derive"}))
        out.items[kind].append(item)
        note("converted", "decision_item", key, f"seat {seat} {kind}: {'none' if answer is None else answer}", f"items/{kind}.jsonl {item_id}")

    nights = _nights(game)
    _night_items(game, nights, board_of(game), asked, add, note)
    _ballot_items(game, asked, add, note)
    _run_items(game, asked, add, note)
    roles = board_roles(game)
    if len(roles) + 1 > len(OPTION_KEYS):  # "no claim" and every role must fit the option letters
        note("dropped", "claim_too_many_roles", game.game_id, f"{len(roles)} roles on the board",
             f"no claim item: 'no claim' and the roles do not fit the options A-{OPTION_KEYS[-1]}")
    else:
        out.items["claim"] = claim_items(game, asked, tags)  # answers are roles, not seats (werealign.game.claims)
    for item in out.items["claim"]:
        note("converted", "decision_item", item.phase, f"seat {item.viewpoint_seat} claim: {item.answer or 'none'}", f"items/claim.jsonl {item.item_id}")
    return out


# --------------------------------------------------------------------------- who is asked


def _tags(game: GameLog) -> dict[int, list]:
    tags: dict[int, list] = defaultdict(list)
    if game.mvp is not None:
        tags[game.mvp.seat].append("mvp")
    for s in game.seats:
        if game.winner is not None and s.faction == game.winner:
            tags[s.seat].append("winner")
    return tags


def _asked(game: GameLog, deciders: Deciders) -> set[int]:
    if deciders == "all":
        return {s.seat for s in game.seats}
    if deciders == "mvp":
        return {game.mvp.seat} if game.mvp is not None else set()
    return {s.seat for s in game.seats if game.winner is not None and s.faction == game.winner}


# --------------------------------------------------------------------------- nights


def _segments_of(game: GameLog, phase: str) -> list[int]:
    return [sid for u in game.utterances if u.phase == phase for sid in u.segment_ids]


def _nights(game: GameLog) -> list[_Night]:
    by_phase: dict[str, list[Event]] = defaultdict(list)
    for e in game.events:
        if e.kind == "skill_use":
            by_phase[e.phase].append(e)
    out = []
    earlier: list[int] = []  # segments of the phases before
    start = min((s for u in game.utterances for s in u.segment_ids), default=0)
    for p in game.phases:
        own = _segments_of(game, p.id)
        if p.kind == "night":
            anchors = [e.segment_id for e in by_phase[p.id] if e.segment_id is not None]
            first = min(own, default=None)
            # never before the game's first segment: a cut-off there would show nothing and is no valid item
            bounds = [b for b in [first, *(a - 1 for a in anchors)] if b is not None and b >= start]
            # The night's first segment (its unanchored events stay hidden), else the last one said before it.
            cutoff = min(bounds) if bounds else (max(earlier) if earlier else None)
            # and before the night's dawn, where the segment shown holds it ("天黑请闭眼，天亮了，昨天晚上…")
            cut = cut_before_dawn(game, Cut(cutoff), night_since(game, p.id)) if cutoff is not None else None
            out.append(_Night(p.id, len(out) + 1, cut, alive_before_phase(game, p.id, first), by_phase[p.id]))
        earlier += own
    return out


def _night_deaths(game: GameLog, night: str) -> set[int] | None:
    """Seats announced dead of the night (the eliminations of the phases up to the next day), None when no day follows."""
    order = [p.id for p in game.phases]
    i = order.index(night)
    after = [p for p in game.phases[i + 1:]]
    day = next((k for k, p in enumerate(after) if p.kind == "day"), None)
    if day is None:
        return None
    phases = {p.id for p in after[:day + 1]}
    return {e.target for e in game.events if e.kind == "elimination" and e.phase in phases and e.result == "night_death" and e.target is not None}


def _night_items(game: GameLog, nights: list[_Night], board: Board, asked: set[int], add, note) -> None:
    wolves = {s.seat for s in game.seats if s.faction == "wolf"}
    roles = {s.seat: s.role for s in game.seats}
    last_protected: dict[int, int | None] = {}
    antidote_used: set[int] = set()
    poison_used: set[int] = set()
    catalogue = catalogue_for(game.rules.declared_roles)
    # the potion holders: every seat whose role holds both potions (the catalogue's rule, not the id "witch": a declared
    # role with her potions is asked as she is), and any seat the log has use one
    witches = {s for s, r in roles.items() if catalogue.holds(r, skill="witch_save") and catalogue.holds(r, skill="witch_poison")} | {
        e.actor for e in game.events if e.skill in ("witch_save", "witch_poison") and isinstance(e.actor, int)}
    saved_self = {e.actor for e in game.events if e.skill == "witch_save" and e.actor == e.target}
    later_poison = {(e.actor, e.phase) for e in game.events if e.skill == "witch_poison"}
    night_of = {n.phase: n.number for n in nights}

    for n in nights:
        ev = n.events
        for e in ev:
            acts = isinstance(e.actor, int) and ((e.skill or "").endswith("_protect") or e.skill == "seer_check")
            if acts and e.actor not in n.alive and e.actor in asked:  # a move recorded for a seat already out: an exit or the move misplaced
                note("dropped", f"{e.skill}_actor_out", n.phase, f"seat {e.actor}'s {e.skill}", "no item: the seat is out before this night")
            if e.skill == "seer_check" and isinstance(e.actor, int) and e.actor in n.alive:
                add("seer_check", e.actor, n.phase, n.cutoff, [s for s in n.alive if s != e.actor], e.target)
        protectors = {e.actor for e in ev if (e.skill or "").endswith("_protect") and isinstance(e.actor, int)}
        for e in ev:
            if not ((e.skill or "").endswith("_protect") and isinstance(e.actor, int)) or e.actor not in n.alive:
                continue
            no_repeat = e.skill == "guard_protect" and not board.guard_repeat
            if e.target is None and not board.guard_may_skip:
                if e.actor in asked:
                    note("dropped", "guard_protect_skip_illegal", n.phase, f"seat {e.actor}'s empty guard",
                         "no item: the log records no protection, and the board does not let the guard skip (rules.moves.guard_may_skip)")
                continue
            # Last night's protection unrecorded: the no-repeat rule cannot be applied, so every living seat is offered;
            # the prompt names the missing fact (werealign.game.knowledge: the guard's own protection of every night).
            known_last = n.number == 1 or e.actor in last_protected
            add("guard_protect", e.actor, n.phase, n.cutoff,
                protect_targets(n.alive, last_protected.get(e.actor), no_repeat and known_last), e.target, none_allowed=board.guard_may_skip)
        for g in protectors:
            last_protected[g] = next((e.target for e in ev if (e.skill or "").endswith("_protect") and e.actor == g), None)
        for g in list(last_protected):
            if g not in protectors:
                last_protected.pop(g)  # a night without the guard's move recorded: the next night's legal set is unknown
        kills = {e.target for e in ev if e.skill == "wolf_kill" and e.target is not None}
        victim = next(iter(kills)) if len(kills) == 1 else None
        if len(kills) > 1:
            note("dropped", "wolf_kill_conflict", n.phase, f"the wolves' kill is recorded as seats {sorted(kills)}", "no wolf-kill or witch item this night")
        elif victim is not None:
            actor = next((e.actor for e in ev if e.skill == "wolf_kill" and isinstance(e.actor, int)), None)
            living = sorted(w for w in wolves if w in n.alive)
            mvp = [game.mvp.seat] if game.mvp is not None else []
            order = [actor] if actor in living else [w for w in [*mvp, *living] if w in living]
            chosen = next((w for w in order if w in asked), None)
            if chosen is not None:
                add("wolf_kill", chosen, n.phase, n.cutoff, wolf_kill_targets(game, n.alive, wolves, board), victim, none_allowed=board.wolves_may_skip)
        deaths = _night_deaths(game, n.phase)
        for w in sorted(witches):
            if w not in n.alive:
                continue
            told = note if w in asked else (lambda *args: None)  # only the asked seats' decisions are accounted for
            saved = next((e.target for e in ev if e.skill == "witch_save" and e.actor == w), None)
            # an antidote stated spent on a victim no source names: no save item, and none on a later night
            spent = any(e.skill == "witch_save" and e.actor == w for e in ev)
            poisoned = next((e.target for e in ev if e.skill == "witch_poison" and e.actor == w), None)
            if w not in antidote_used and victim is not None:
                allowed = True if victim != w else self_save_allowed(board, n.number, w in saved_self)
                if allowed is None:
                    told("dropped", "witch_save_rule_unknown", n.phase, f"the victim is the witch (seat {w}) herself",
                         "no item: the board does not declare whether the witch may save herself (rules.moves.witch_self_save)")
                elif allowed is False:
                    pass  # no decision: she may not save herself
                elif spent and saved is None:
                    pass
                elif saved is not None or (deaths is not None and victim in deaths):
                    add("witch_save", w, n.phase, n.cutoff, [victim], saved, none_allowed=True, about=victim)
                else:
                    told("dropped", "witch_save_unproven", n.phase, f"seat {w} holds the antidote and seat {victim} was attacked; no save is recorded",
                         "no item: the victim's night death is not announced either, so a missing save cannot be told from no save")
            if spent:
                antidote_used.add(w)
            # One potion a night: the poison is a decision only where she provably did not save (she poisoned, or the
            # wolves' victim died with no save recorded); a night she saved, or may have, holds no poison decision.
            no_save = poisoned is not None or (not spent and victim is not None and deaths is not None and victim in deaths)
            if w not in poison_used and (board.witch_both_potions or no_save):
                kept = any(a == w and night_of.get(p, 0) > n.number for a, p in later_poison) or (
                    deaths is not None and deaths <= ({victim} if victim is not None else set()))
                if poisoned is not None or kept:
                    add("witch_poison", w, n.phase, n.cutoff, [s for s in n.alive if s != w], poisoned, none_allowed=True)
                else:
                    told("dropped", "witch_poison_unproven", n.phase, f"seat {w} holds the poison; no poison is recorded",
                         "no item: nothing in the log proves she kept it this night")
            elif w not in poison_used and saved is None:
                told("dropped", "witch_poison_maybe_saved", n.phase, f"seat {w} holds the poison; the wolves' victim {victim} is not announced dead"
                     if victim is not None else f"seat {w} holds the poison; the wolves' victim is not recorded",
                     "no item: she may have saved, and under one potion a night a save leaves no poison decision")
            if poisoned is not None:
                poison_used.add(w)


# --------------------------------------------------------------------------- ballots


def _ballot_items(game: GameLog, asked: set[int], add, note) -> None:
    kinds = {p.id: p.kind for p in game.phases}
    votes = [e for e in game.events if e.kind == "vote" and isinstance(e.actor, int) and kinds.get(e.phase) in ("day", "sheriff_election")
             and e.segment_id is not None]
    abstain = game.rules.abstention_allowed  # the board's rule, whatever this game happened to record
    rounds: dict[tuple[str, int], list[Event]] = defaultdict(list)
    for e in votes:
        rounds[(e.phase, e.round or 1)].append(e)
    for (phase, rnd), ballots in sorted(rounds.items(), key=lambda kv: min(e.segment_id for e in kv[1])):
        first = min(e.segment_id for e in ballots)
        # the call to vote shown, where its segment holds it, and no tally (ballots may be anchored after it is read)
        cut = cut_before_tally(game, cut_with_vote_call(game, first), min(_segments_of(game, phase), default=first), rnd)
        cutoff = first - 1
        alive = alive_at(game, cutoff)
        targets = alive
        sheriff = kinds[phase] == "sheriff_election"
        if sheriff:  # the candidates on the stage do not vote, and one who withdrew is no longer a candidate
            voters = {e.actor for e in ballots}
            withdrew = {e.actor for e in game.events if e.kind == "sheriff_run" and e.result == WITHDREW and e.phase == phase
                        and e.segment_id is not None and e.segment_id <= first}  # the call's own segment included
            targets = [s for s in alive if s not in voters and s not in withdrew]
        elif rnd > 1:  # a re-vote is between the seats tied in the round before
            tally = Counter(e.target for e in rounds.get((phase, rnd - 1), []) if e.target is not None)
            top = max(tally.values(), default=0)
            targets = sorted(s for s, n in tally.items() if n == top)
            if len(targets) < 2:
                if asked & {e.actor for e in ballots}:
                    note("dropped", "ballot_revote_unknown", phase, f"round {rnd} of {phase}",
                         "no item: the round before is not recorded as a tie, so the re-vote's candidates are unknown")
                continue
        for e in ballots:
            if e.actor not in alive:
                if e.actor in asked:
                    note("dropped", "ballot_voter_out", phase, f"seat {e.actor}'s ballot", "no item: the voter is out at the ballot")
                continue
            cands = [s for s in targets if s != e.actor or game.rules.self_vote_allowed]
            if cands:
                add("sheriff_ballot" if sheriff else "ballot", e.actor, phase, cut, cands, e.target, none_allowed=abstain, rnd=e.round)
            elif e.actor in asked:
                note("dropped", "ballot_no_candidates", phase, f"seat {e.actor}'s ballot", "no item: no seat is left to vote for")
    for e in game.events:
        if e.kind == "badge_transfer" and isinstance(e.actor, int) and e.segment_id is not None:
            # Before the new holder is named, which may precede the event's anchor, in the same segment as the call
            since = holder_since(game, e.actor, e.segment_id, e.phase)
            cut = cut_before_holder(game, Cut(e.segment_id - 1), since, e.actor) if e.segment_id - 1 >= 0 else None
            cands = [s for s in alive_at(game, e.segment_id) if s != e.actor]
            if cands:
                add("badge", e.actor, e.phase, cut, cands, e.target, none_allowed=True)
            elif e.actor in asked:
                note("dropped", "badge_no_candidates", e.phase, f"seat {e.actor}'s badge", "no item: no other living seat to pass it to")


def _run_items(game: GameLog, asked: set[int], add, note) -> None:
    by_phase: dict[str, list[Event]] = defaultdict(list)
    for e in game.events:
        if e.kind == "sheriff_run" and e.result != WITHDREW and isinstance(e.actor, int) and e.segment_id is not None:
            by_phase[e.phase].append(e)
    for phase in (p.id for p in game.phases if p.kind == "sheriff_election" and p.id not in by_phase):
        if asked:
            note("dropped", "sheriff_run_unknown", phase, f"who stood for sheriff in {phase}",
                 "no item: the log does not record the candidates (no sheriff_run event)")
    start = min((s for u in game.utterances for s in u.segment_ids), default=0)
    for phase, runs in by_phase.items():
        listed = min(e.segment_id for e in runs)
        cut: Cut | None = cut_with_run_call(game, listed)  # before anyone is seen standing, the call shown
        if cut.chars is None and cut.segment < start:  # the transcript opens on the list: nothing before it (add() notes it)
            cut = None
        alive = alive_at(game, listed - 1)
        ran = {e.actor for e in runs}
        if not ran <= set(alive):
            note("dropped", "sheriff_run_out", phase, f"seats {sorted(ran - set(alive))} stand for sheriff but are out",
                 "no item: the candidates or an exit are misplaced")
            continue
        for seat in alive:
            add("sheriff_run", seat, phase, cut, [seat], seat if seat in ran else None, none_allowed=True, about=seat)
