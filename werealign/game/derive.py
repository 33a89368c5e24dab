"""Decision items from game logs, without an LLM: VA (the MVP's vote) and OI (the MVP's opponents).

The one implementation behind `werealign derive`, the WereBench importer, the sample builder and
games made with `annotate build`.

VA (vote) items, one per MVP vote: viewpoint = the MVP, answer = the seat voted for, candidates =
every seat still alive at the cut-off except the voter. A seat is out once the host's announcement
of its exit (an `elimination` event) is at or before the cut-off segment. Where the rules allow
abstaining (rules.abstention_allowed) an abstention is an item with a null answer, and every VA item
of the game offers abstaining; elsewhere an abstention gives no item. Votes for oneself (unless the
rules allow a self-vote: then the voter is a candidate too) and votes whose voter or target is
already out give no item, each with a reason. A vote's round (a re-vote after a
tie) is carried to its item, so the prompt hides only the ballot of that round.

OI (opponent) items, one per distinct MVP-vote cut-off: for a good-side MVP the answer is every
wolf-faction seat (eliminated or not: the question is who the opponents are), candidates = all
seats but the MVP's; an MVP already out at the cut-off gets none (with the reason). A wolf-side MVP knows every wolf, so the good side would be exactly the
remaining seats: the item would be trivial and is skipped, as is a variable/third-party MVP whose
opposing side is not fixed by the card. When the MVP's or any seat's faction is `unknown` (a role
nobody declared), the answer cannot be known: that game's OI items are skipped, with the reason;
its VA items, which need no faction, are kept.

Item ids: `<game_id>-<tag>-<stem>`, the stem from the vote's original label ('second_day_votes'
-> 'second-day') or its phase; two votes giving one id keep the first.
"""

from __future__ import annotations


from collections.abc import Callable
from dataclasses import dataclass, field

from werealign.game.derivation import DeriveNote, Deriving, NoteKind
from werealign.schema import GameLog, ItemProvenance, MvpVote, OpponentItem, VoteItem

# "dropped" notes that lose nothing: no item is made there by rule (a wolf MVP's OI would be trivial).
# Everything else dropped is a game fact that did not become an item: what --strict fails on.
BY_RULE = frozenset({"oi_not_good_mvp"})
# The notes about the whole pass (no MVP, no decider), each about VA and OI alike.
SHARED_CODES = ("no_mvp", "no_decider", "mvp_is_agent")


@dataclass
class Derived:
    vote: list[VoteItem] = field(default_factory=list)
    opponent: list[OpponentItem] = field(default_factory=list)
    notes: list[DeriveNote] = field(default_factory=list)


def alive_at(game: GameLog, cutoff: int) -> list[int]:
    """Seats not announced out at or before the cut-off segment."""
    out = {e.target for e in game.events if e.kind == "elimination" and e.segment_id is not None and e.segment_id <= cutoff}
    return [s.seat for s in game.seats if s.seat not in out]


def _exit_of(game: GameLog, seat: int) -> str:
    e = next(e for e in game.events if e.kind == "elimination" and e.target == seat)
    return f"was announced out ({e.result}) by the host at segment {e.segment_id}"


def default_provenance(game: GameLog, vote_key: str) -> ItemProvenance:
    return ItemProvenance(source=game.provenance.original_file or game.game_id,
                          source_ref={"mvp_vote": vote_key, "derived": "werealign derive"})


def derive_decision_items(
    game: GameLog,
    provenance: Callable[[GameLog, str], ItemProvenance] = default_provenance,
    tags: tuple[str, str] = ("va", "oi"),
    deciders: str = "mvp",
    include_agents: bool = False,
    from_deciders: bool = False,
) -> Derived:
    """VA and OI items of one game, and a note for every item made or not made (with why).

    The MVP's votes when the game names an MVP. A game without one (issue 45: online games name none) asks its
    `deciders` instead, `winners` or `all`: each decider's recorded day ballots, cut off before the round's first
    ballot as ballot items are; with `mvp` it gets none, and a note says so. `from_deciders` asks the deciders in
    every game, one with an MVP too. A seat played by an agent (`seats[].agent`) is asked only with `include_agents`."""
    out = Derived()
    agents = {s.seat for s in game.seats if s.agent is not None and not include_agents}
    if game.mvp is not None and not from_deciders:
        if game.mvp.seat in agents:
            out.notes.append(DeriveNote("dropped", "mvp_is_agent", "mvp", f"MVP seat {game.mvp.seat} was played by an agent",
                                        "no VA or OI item: an agent's choices are no human keys (derive --include-agents asks them)"))
            return out
        _voter_items(game, game.mvp.seat, list(game.mvp.votes), "", provenance, tags, out)
        return out
    if deciders == "mvp" and from_deciders and game.mvp is not None:
        for seat in [] if game.mvp.seat in agents else [game.mvp.seat]:
            _voter_items(game, seat, ballots_of(game, seat), f"-s{seat}", provenance, tags, out)
        return out
    if deciders not in ("winners", "all"):
        out.notes.append(DeriveNote("dropped", "no_mvp", "mvp", "the game names no MVP",
                                    "no VA or OI item: no MVP: use --deciders winners|all to ask the winning side's players or every player"))
        return out
    winners = {s.seat for s in game.seats if game.winner is not None and s.faction == game.winner}
    asked = sorted(s.seat for s in game.seats if (deciders == "all" or s.seat in winners) and s.seat not in agents)
    if not asked:
        why = "the game records no winner" if deciders == "winners" and game.winner is None else "no human seat is asked"
        out.notes.append(DeriveNote("dropped", "no_decider", deciders, f"--deciders {deciders}", f"no VA or OI item: {why}"))
    for seat in asked:
        _voter_items(game, seat, ballots_of(game, seat), f"-s{seat}", provenance, tags, out)
    return out


def mvp_votes(at: Deriving) -> Derived:
    """The VA and OI items of the game being derived: one pass, shared by the two kinds (Deriving.shared)."""
    o = at.options
    return derive_decision_items(at.game, deciders=o.deciders, include_agents=o.include_agents, from_deciders=o.va_oi_from == "deciders")


def ballots_of(game: GameLog, seat: int) -> list[MvpVote]:
    """A seat's recorded day ballots as votes to ask: each cut off before the first ballot of its round."""
    kinds = {p.id: p.kind for p in game.phases}
    votes = [e for e in game.events if e.kind == "vote" and kinds.get(e.phase) == "day" and e.segment_id is not None]
    first: dict[tuple[str, int], int] = {}
    for e in votes:
        key = (e.phase, e.round or 1)
        first[key] = min(first.get(key, e.segment_id), e.segment_id)
    return [MvpVote(phase=e.phase, target=e.target, cutoff_segment=first[(e.phase, e.round or 1)] - 1, round=e.round,
                    original_label=f"{e.phase}-r{e.round}" if e.round and e.round > 1 else None)
            for e in votes if e.actor == seat and first[(e.phase, e.round or 1)] >= 1]


def _voter_items(game: GameLog, mvp: int, votes: list[MvpVote], suffix: str, provenance: Callable[[GameLog, str], ItemProvenance],
                 tags: tuple[str, str], out: Derived) -> None:
    """The VA and OI items of one voter's votes (`mvp`: the MVP, or a decider when the game names no MVP)."""
    faction = {s.seat: s.faction for s in game.seats}
    label = "seat" if suffix else "MVP seat"
    unknown = sorted(s for s, f in faction.items() if f == "unknown")

    def note(kind: NoteKind, code: str, key: str, what: str, why: str) -> None:
        out.notes.append(DeriveNote(kind, code, key, what, why))

    made: dict[str, str] = {}  # item id -> the vote key it was made from

    def taken(item_id: str, key: str, code: str) -> bool:
        """Whether an earlier vote already made this id ('second_day' and 'second_day_votes' both give '...-second-day')."""
        if item_id not in made:
            made[item_id] = key
            return False
        note("dropped", code, key, f"would be item {item_id}, already made from MVP vote {made[item_id]}", "item dropped: item ids must be unique; the first one is kept")
        return True

    oi_cutoffs: set[int] = set()
    for v in votes:
        key = v.original_label or v.phase
        stem = key.removesuffix("_votes").replace("_", "-")
        va_id, oi_id = f"{game.game_id}-{tags[0]}-{stem}{suffix}", f"{game.game_id}-{tags[1]}-{stem}{suffix}"
        alive = alive_at(game, v.cutoff_segment)
        abstains = game.rules.abstention_allowed
        if v.target is None and not abstains:
            note("dropped", "va_abstention", key, "the MVP abstained",
                 "no VA item: the game's rules do not allow abstaining (rules.abstention_allowed), so it is no answer a model could give")
        elif v.target == mvp and not game.rules.self_vote_allowed:
            note("dropped", "va_self_vote", key, f"recorded vote for the MVP's own seat {mvp}",
                 "no VA item: the game's rules do not allow a self-vote (rules.self_vote_allowed), so the voter's seat is no candidate")
        elif mvp not in alive:
            note("dropped", "va_voter_out", key, f"{label} {mvp} {_exit_of(game, mvp)}, before the vote's cut-off {v.cutoff_segment}", "no VA item: a player who is out cannot vote")
        elif v.target is not None and v.target not in alive:
            note("dropped", "va_target_out", key, f"target seat {v.target} {_exit_of(game, v.target)}, before the vote's cut-off {v.cutoff_segment}", "no VA item: the answer would not be a candidate")
        elif not taken(va_id, key, "va_duplicate_id"):
            item = VoteItem(item_id=va_id, game_id=game.game_id, language=game.language, viewpoint_seat=mvp, phase=v.phase,
                            cutoff_segment=v.cutoff_segment, answer=v.target, abstention_allowed=abstains, round=v.round,
                            provenance=provenance(game, key), candidates=[s for s in alive if s != mvp or game.rules.self_vote_allowed])
            out.vote.append(item)
            what = "abstains" if v.target is None else f"votes seat {v.target}"
            note("converted", "vote_item", key, f"{label} {mvp} {what} at segment {v.cutoff_segment}", f"items/vote.jsonl {item.item_id}")
        if v.cutoff_segment in oi_cutoffs:
            continue
        oi_cutoffs.add(v.cutoff_segment)
        side = faction[mvp]
        if side == "unknown" or (side == "good" and unknown):
            who = f"{label} {mvp}" if side == "unknown" else f"seat(s) {unknown}"
            note("dropped", "oi_faction_unknown", key, f"the faction of {who} is unknown (a role label neither the catalogue nor a declaration knows)",
                 "no OI item: its answer needs every seat's side; declare the role to get it")
            continue
        if side != "good":
            note("dropped", "oi_not_good_mvp", key, f"{label} {mvp} is on the {side} side", "no OI item: a wolf knows the wolves, so the answer would be every other seat; a variable/third side has no fixed opponent")
            continue
        answer = sorted(s for s, f in faction.items() if f == "wolf")
        if not answer:
            note("dropped", "oi_no_wolves", key, "no wolf-faction seat in the game", "no OI item")
            continue
        if mvp not in alive:  # issue 20: out of the game, the player decides nothing more; a belief nobody acts on is no decision
            note("dropped", "oi_viewpoint_out", key, f"{label} {mvp} {_exit_of(game, mvp)}, before the OI cut-off {v.cutoff_segment}",
                 "no OI item: the viewpoint is already out of the game at the cut-off")
            continue
        if taken(oi_id, key, "oi_duplicate_id"):
            continue
        item = OpponentItem(item_id=oi_id, game_id=game.game_id, language=game.language, viewpoint_seat=mvp, cutoff_segment=v.cutoff_segment,
                            candidates=[s.seat for s in game.seats if s.seat != mvp], answer=answer, provenance=provenance(game, key))
        out.opponent.append(item)
        note("converted", "opponent_item", key, f"good {label} {mvp}: wolves {answer} at segment {v.cutoff_segment}", f"items/opponent.jsonl {item.item_id}")
