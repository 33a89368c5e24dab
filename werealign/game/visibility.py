"""The context builder: the ONE place that decides what a model sees (DESIGN.md invariant 1).

`build_context(game, seat, cutoff)` returns a `Context` holding only what the player in `seat`
legitimately knows at the inclusive cut-off segment `cutoff` (with `seat=None`, an *observer*: only
what every player at the table knows — no own role, no teammates, no private event, no "you"):

- the rules: the rulebook text with a rule line for each card in play it does not name, or (when the
  source has none) a summary generated from the role composition, win condition and sheriff flag — all
  public knowledge at the table;
- the viewpoint player's OWN role and faction, and what that role knows: a wolf-side player
  knows which other seats are wolf-side (not their exact wolf role); nobody else learns any
  other seat's role;
- events the viewpoint perceived but not everyone did (see Audiences below: their own skill
  uses, e.g. the seer's checks with results, a team's decision), anchored at or before the cut-off;
- public events anchored at or before the cut-off. An event with no anchor segment is shown
  only when its phase ended before the cut-off's phase began (we cannot tell when inside its
  own phase it became known, so we err on the side of hiding it);
- utterances up to and including the cut-off segment. A turn that straddles the cut-off is cut
  at the segment boundary when per-segment text exists (`Utterance.segments`), else it is left
  out entirely — its merged text cannot be split without risking text from after the cut-off. A decision item may
  cut inside its cut-off segment (`cutoff_chars`: the segment holds the call, then the result; its events are
  then hidden, as where in the segment they were told is unknown);
- the viewpoint player's OWN speech is shown like everyone else's (it is public and they said
  it) but labelled as "you", so the model knows which statements are its own claims;
- players' turns recorded during a NIGHT phase are not shown, the viewpoint's own included:
  players are silent at night, so such turns are off-table commentary (TV confessionals, often
  recorded after the game) that can reveal roles and later events. The host's night calls are
  shown, minus broadcast asides addressed to the audience rather than the table (e.g. the
  show's "this game is seen from seat N, whose role is X", see `_BROADCAST_ASIDES`).

Never shown: another seat's hidden role, the recap, the annotator log, highlights, MVP data,
other players' private events, event notes (annotator commentary), anything after the cut-off,
and the item's answer or explanation (items never reach this module).

Audiences: every event and turn says who perceived it (`Audience`): everyone, the actor, a team
(a faction such as 'wolf' or a catalogue team such as 'lovers') or listed seats. A seat sees exactly
what it perceived up to the cut-off: public events, plus the events whose audience includes it
(its own skill uses, the pack's kill decision for a wolf); a turn with an audience (the wolves'
night chat) is shown to that audience only. An observer perceives only what everyone does.

Vote items (VA) pass `exclude_own_vote_phase` (and `exclude_own_vote_round` when the item names a
round): the viewpoint's own ballot of that round is withheld even if anchored before the cut-off,
as it is the answer. Other ballots anchored at or before the cut-off were cast openly before the
viewpoint's and are shown; ballots announced later are after the cut-off anyway. Speech is
not filtered: a VA cut-off lies before the host announces the ballot asked about (the importer
moves cut-offs that fall on that announcement), so a tally the host has already read out is an
earlier round's — e.g. the first round before a tie-break (PK) re-vote — which everyone at the
table heard, the viewpoint player included.

Vote items also choose how much of the viewpoint's OWN speech is shown (`withhold_own_turns_from_day`,
set from the run's VA mode, see `werealign.tasks.vote.MODES`): the viewpoint's own turns of
every phase of that day or later are withheld and counted, so the prompt can say so in one line. At
the decision point (the default, the vote's day) the player's own calls of the day ("归票，2号")
cannot hand it the answer; from day 0 every line of the player is masked (the release authors'
protocol); what the player knew from its role and nights stays in its private section either way.

OSR variant: each shown utterance's text is replaced by its objective rewrite, matched by
(utterance_index, segment_ids). A straddling turn is left out under OSR (a rewrite cannot be
cut at a segment boundary); a shown turn without a matching rewrite is an error, not a silent
fallback to the raw text.

This module decides WHAT is seen, never how it is worded: labels, event sentences, role names and the
rules a prompt shows (the game's own text plus a rule line for each card it does not name, or a summary
generated from the public facts: `werealign.render.lines.rules_for_prompt`) are `werealign.render`'s, and
the prompt templates in `werealign/render/templates/` arrange them. The rules are public at the table: the
Context carries them as given (`rules`, and `rules_generated` when the source gave no rulebook text).
"""

from __future__ import annotations

from functools import lru_cache

import re
from dataclasses import dataclass

from werealign.errors import UserError
from werealign.schema import Event, GameLog, OsrRewrite, Phase
from werealign.schema.models import Rules
from werealign.schema.models import TELLING_ORDER, MissingFact, SeatInfo, Speaker
from werealign.text.seat_names import SeatReader
from werealign.schema.roles import RoleCatalogue, catalogue_for
from werealign.game.audience import cutoff_phase, perceives
from werealign.game.knowledge import missing_knowledge

# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class ShownUtterance:
    index: int
    phase: str
    speaker: Speaker
    text: str
    is_self: bool
    partial: bool  # cut at the cut-off segment boundary


@dataclass(frozen=True)
class Context:
    game_id: str
    language: str
    viewpoint_seat: int | None  # None: observer viewpoint, public information only
    cutoff_segment: int
    n_seats: int
    seats: tuple[int, ...]
    names: tuple[tuple[int, str], ...]  # (seat, player name) for seats whose name the game records: public at the table
    rules: Rules  # the game's rules as given (public at the table); render words them (render.lines.rules_for_prompt)
    rules_generated: bool  # True when the source has no rulebook text: a prompt shows a summary of the public facts
    own_role: str | None  # canonical role id; None for an observer
    own_faction: str | None
    allies: tuple[int, ...]  # other seats the viewpoint knows are on its side (wolf teammates)
    private_events: tuple[Event, ...]  # the viewpoint's own skill uses
    public_events: tuple[Event, ...]
    utterances: tuple[ShownUtterance, ...]
    left_out: tuple[int, ...]  # indices of straddling turns left out (no per-segment text / OSR)
    current_phase: str | None  # phase of the cut-off (the last shown turn's phase)
    phases: tuple[Phase, ...]  # phases that have begun by the cut-off, in order
    own_turns_withheld: int = 0  # the viewpoint's own turns not shown (VA decision point / masked MVP)
    own_turns_withheld_from_day: int | None = None  # the first day whose own turns are withheld (0: all)
    knowledge_missing: tuple[MissingFact, ...] = ()  # night facts the rules say the viewpoint held that the log lacks
    aliases: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (seat, nicknames) players call a named seat by: public at the table

    def seat_reader(self) -> SeatReader:
        """The seats a shown text names, by number, name or nickname (werealign.text.seat_names)."""
        return _seat_reader(self.names, self.aliases)


@lru_cache(maxsize=256)
def _seat_reader(names: tuple, aliases: tuple) -> SeatReader:
    """One reader per table of names: floors ask for it once per shown turn."""
    more = dict(aliases)
    return SeatReader({seat: (name, *more.get(seat, ())) for seat, name in names})


# --------------------------------------------------------------------------- building


def build_context(
    game: GameLog,
    viewpoint_seat: int | None,
    cutoff_segment: int,
    *,
    osr: list[OsrRewrite] | None = None,
    exclude_own_vote_phase: str | None = None,
    exclude_own_vote_round: int | None = None,
    withhold_own_turns_from_day: int | None = None,
    cutoff_chars: int | None = None,
) -> Context:
    seat_info = {s.seat: s for s in game.seats}
    me = seat_info.get(viewpoint_seat) if viewpoint_seat is not None else None
    if viewpoint_seat is not None and me is None:
        raise UserError(f"game {game.game_id}: viewpoint_seat {viewpoint_seat} is not a seat of the game")

    catalogue = catalogue_for(game.rules.declared_roles)
    rewrites = _index_rewrites(game, osr) if osr is not None else None
    utterances, left_out = _visible_utterances(game, me, cutoff_segment, rewrites, catalogue, cutoff_chars)
    withheld = 0
    if withhold_own_turns_from_day is not None and viewpoint_seat is not None:
        day_of = {p.id: p.day for p in game.phases}
        kept = [u for u in utterances if not (u.is_self and day_of.get(u.phase, 0) >= withhold_own_turns_from_day)]
        withheld = len(utterances) - len(kept)
        utterances = kept

    phase_order = {p.id: i for i, p in enumerate(game.phases)}
    current_phase = cutoff_phase(game, cutoff_segment)
    current_pos = phase_order.get(current_phase, -1) if current_phase is not None else -1

    def known_by_now(ev: Event) -> bool:
        if ev.segment_id is not None:  # inside a cut segment, where it was said is unknown: hidden
            return ev.segment_id < cutoff_segment or (ev.segment_id == cutoff_segment and cutoff_chars is None)
        return ev.phase in phase_order and phase_order[ev.phase] < current_pos

    public: list[Event] = []
    private: list[Event] = []
    for ev in game.events:
        if not known_by_now(ev):
            continue
        if exclude_own_vote_phase is not None and ev.kind == "vote" and ev.phase == exclude_own_vote_phase \
                and ev.actor == viewpoint_seat and (exclude_own_vote_round is None or ev.round in (None, exclude_own_vote_round)):
            continue  # the ballot asked about; the others cast before the cut-off were seen by the table
        if ev.audience.kind == "everyone":
            public.append(ev)
        elif perceives(ev.audience, ev.actor, me, catalogue):
            private.append(ev)

    allies: tuple[int, ...] = ()
    if me is not None and me.faction == "wolf":
        allies = tuple(sorted(s.seat for s in game.seats if s.faction == "wolf" and s.seat != viewpoint_seat))

    return Context(
        game_id=game.game_id,
        language=game.language,
        viewpoint_seat=viewpoint_seat,
        cutoff_segment=cutoff_segment,
        n_seats=len(game.seats),
        seats=tuple(sorted(seat_info)),
        names=tuple((seat, seat_info[seat].name) for seat in sorted(seat_info) if seat_info[seat].name),
        aliases=tuple((seat, tuple(seat_info[seat].aliases)) for seat in sorted(seat_info) if seat_info[seat].name and seat_info[seat].aliases),
        rules=game.rules,
        rules_generated=not (game.rules.text and game.rules.text.strip()),
        own_role=me.role if me is not None else None,
        own_faction=me.faction if me is not None else None,
        allies=allies,
        private_events=tuple(sorted(private, key=_event_key)),
        public_events=tuple(sorted(public, key=_event_key)),
        utterances=tuple(utterances),
        left_out=tuple(left_out),
        current_phase=current_phase,
        phases=tuple(p for p in game.phases if phase_order[p.id] <= current_pos),
        own_turns_withheld=withheld,
        own_turns_withheld_from_day=withhold_own_turns_from_day if viewpoint_seat is not None else None,
        knowledge_missing=tuple(missing_knowledge(game, viewpoint_seat, cutoff_segment)),
    )




def _event_key(ev: Event) -> tuple:
    # By anchor (unanchored first), then telling order; sorted() is stable, so ties keep the game's order.
    return (ev.segment_id if ev.segment_id is not None else -1, TELLING_ORDER[ev.kind])


def _index_rewrites(game: GameLog, osr: list[OsrRewrite]) -> dict[int, OsrRewrite]:
    if not osr:
        raise UserError(f"game {game.game_id}: variant osr needs objective rewrites (variants/osr/{game.game_id}.jsonl) but there are none")
    out: dict[int, OsrRewrite] = {}
    for r in osr:
        if r.game_id != game.game_id:
            raise UserError(f"variants/osr/{game.game_id}.jsonl: utterance_index {r.utterance_index}: game_id '{r.game_id}' does not match")
        out[r.utterance_index] = r
    return out


def _visible_utterances(
    game: GameLog, me: SeatInfo | None, cutoff: int, rewrites: dict[int, OsrRewrite] | None, catalogue: RoleCatalogue,
    cutoff_chars: int | None = None,
) -> tuple[list[ShownUtterance], list[int]]:
    seat = me.seat if me is not None else None
    shown: list[ShownUtterance] = []
    left_out: list[int] = []
    night = {p.id for p in game.phases if p.kind == "night"}
    for u in game.utterances:
        before = [s for s in u.segment_ids if s <= cutoff]
        if not before:
            continue
        if u.audience is not None:
            if not perceives(u.audience, u.speaker, me, catalogue):
                continue  # a team's night chat, a whisper: only its audience heard it
        elif u.speaker != "host" and u.phase in night:
            continue
        # A cut inside the cut-off segment (`cutoff_chars`: it holds a decision's call, then its result) shows the call only.
        partial = len(before) < len(u.segment_ids) or (cutoff_chars is not None and cutoff in u.segment_ids)
        if partial:
            if rewrites is not None or not u.segments:
                left_out.append(u.index)
                continue
            # Cues are joined with one space, as the merged turn text is built (annotate build, the release).
            text = " ".join(t for seg in u.segments if seg.id <= cutoff
                            and (t := (seg.text[:cutoff_chars] if seg.id == cutoff and cutoff_chars is not None else seg.text).strip()))
            if not text.strip():
                left_out.append(u.index)
                continue
        elif rewrites is not None:
            r = rewrites.get(u.index)
            if r is None or sorted(r.segment_ids) != sorted(u.segment_ids):
                why = "no rewrite" if r is None else f"rewrite covers segments {r.segment_ids}, turn has {u.segment_ids}"
                raise UserError(f"variants/osr/{game.game_id}.jsonl: utterance_index {u.index}: {why}")
            text = r.text
        else:
            text = u.text
        if u.speaker == "host":
            text = strip_broadcast_asides(text)
            if not text.strip():
                continue
        shown.append(ShownUtterance(index=u.index, phase=u.phase, speaker=u.speaker, text=text.strip(), is_self=seat is not None and u.speaker == seat, partial=partial))
    return shown, left_out


# Host lines spoken to the TV audience, not the table. Panda Kill opens some games with "本局游戏的
# 视角是11号，他的身份是狼人" (the episode follows seat 11, a werewolf): hidden information.
_BROADCAST_ASIDES = [
    re.compile(r"本局(?:游戏)?的?视角是\s*\d+\s*号[，,\s]*(?:他|她)?的?(?:身份|底牌)是[^，。,.\s]*[，,。.]?\s*"),
    re.compile(r"(?i)this (?:game|episode) (?:is seen|follows) (?:from )?seat\s*\d+[^.]*?\b(?:role|card) is [^.,]*[.,]?\s*"),
]


def strip_broadcast_asides(text: str) -> str:
    for pattern in _BROADCAST_ASIDES:
        text = pattern.sub("", text)
    return text
