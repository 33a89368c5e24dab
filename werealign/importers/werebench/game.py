"""Convert one WereBench game log into our GameLog, repairing what is sound and reporting the rest.

The steps live in werebench.seats (seats, roles, winner), werebench.timeline (phases, turns),
werebench.hidden_nights (nights the recording skips), werebench.events (sheriff, eliminations, MVP votes) and toolkit.nights.nights (night actions).

Rules (each repair or drop goes into the import report with file, game and field):
- seats come from `user_aliases` (speaker label -> "N号" or "host"); true roles from `real_role`,
  keyed by the same speaker label; role labels go through the canonical role table;
- the timeline comes from `game_status`: keys that are not phase names are dropped; a phase
  whose timestamp is empty or out of game order is re-derived (day-1 starts at the first turn
  that carries the elected sheriff) or dropped; when the timeline was repaired, every turn's
  phase is recomputed from its start time (the release computed `status` the same way);
- eliminations are read from the host's formulaic announcements (see `toolkit.exits.host_exits`) and
  anchored to the last segment of the announcing turn, so they are known from then on;
- sheriff events come from the per-turn `sheriff` field: the first seat seen is the election,
  every later change a badge transfer, anchored to the first segment of the turn showing it;
- MVP vote cut-offs that fall after the game are clamped to its last segment, and a cut-off on
  the host's vote-result announcement (which names the answer) is moved to the last segment
  before that turn.
"""

from __future__ import annotations

import re
from collections import Counter

from pydantic import ValidationError

from werealign.files import describe_validation_error
from werealign.importers.report import ImportReport
from werealign.importers.toolkit.ctx import Ctx, GameDropped
from werealign.importers.werebench.events import eliminations, read_mvp, sheriff_events
from werealign.importers.corrections import check_quotes
from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_truth import unexplained_dawns
from werealign.importers.werebench.reconcile import SeatTruth, reconcile_roles
from werealign.importers.werebench.hidden_nights import add_final_night, add_hidden_nights, split_turn_nights
from werealign.importers.werebench.seats import read_seats, read_winner
from werealign.importers.werebench.segments import Transcripts, attach_segments
from werealign.importers.werebench.source import RawMetadata, SourceGame, unknown_fields
from werealign.importers.werebench.text import RELEASE_ROLES
from werealign.importers.toolkit.tallies import day_ballots
from werealign.importers.werebench.timeline import check_segments, read_timeline, read_utterances
from werealign.schema import Event, GameLog, Phase, Provenance, RoleCount, Rules, SeatInfo, Utterance
from werealign.schema.corrections import GameCorrections
from werealign.schema.models import MoveRules
from werealign.schema.roles import RoleCatalogue, catalogue_for, variant_id

SHOW = "Pandakill"
_EPISODE = re.compile(r"Season\s+(\d+),\s*Episode\s+(\d+)", re.I)

# Report codes of MVP votes dropped while converting the game (before any VA item is derived).
VOTE_DROP_CODES = frozenset({"vote_of_bad_mvp", "bad_vote_key", "vote_target_not_a_seat", "cutoff_before_game", "cutoff_leaks_vote"})


def convert_game(sg: SourceGame, report: ImportReport, transcripts: Transcripts | None = None,
                 truth: dict[str, SeatTruth] | None = None, corrections: GameCorrections | None = None) -> GameLog | None:
    """The converted game, or None when it had to be dropped (the reason is in the report).

    `transcripts`: the release's `clean_process/` transcripts, where per-segment text comes from.
    `truth`: filled with the game's reconciled seats (werebench.reconcile), so items that depend on a
    disputed or corrected seat can be withheld or named.
    """
    ctx = Ctx(report, sg.rel, sg.game_id)
    try:
        game = _convert(sg, ctx, transcripts, truth if truth is not None else {}, corrections)
    except GameDropped as e:
        ctx.add("dropped", "game_unusable", None, f"game {sg.raw.metadata.game_id}", str(e))
        return None
    except ValidationError as e:  # a value our schema cannot hold that no rule above anticipated
        ctx.add("dropped", "game_unusable", None, f"game {sg.raw.metadata.game_id}", f"does not fit the game schema: {describe_validation_error(e)}")
        return None
    ctx.add("converted", "game", None, f"game {sg.raw.metadata.game_id} ({len(game.utterances)} turns, {len(game.events)} events)", f"games/{sg.game_id}.json")
    return game


def _convert(sg: SourceGame, ctx: Ctx, transcripts: Transcripts | None, truth: dict[str, SeatTruth], corrections: GameCorrections | None) -> GameLog:
    meta = sg.raw.metadata
    ctx.report.add_unknown_fields(unknown_fields(sg.raw), source_file=sg.rel, game=sg.game_id)
    seats, host_labels, label_to_speaker = read_seats(meta, ctx)
    n_seats = max(s.seat for s in seats)
    utterances_raw = sg.raw.utterances
    phases, recompute = read_timeline(meta.game_status, utterances_raw, ctx)
    utterances = read_utterances(utterances_raw, label_to_speaker, phases, recompute, seats, ctx)
    if not utterances:
        raise GameDropped("no usable utterances")
    check_segments(meta.total_utterances, utterances, ctx)
    if transcripts is not None:
        utterances = attach_segments(transcripts, sg.rel, sg.game_id, utterances, ctx.report)
    # Nights the timeline lacks, from the host's words, before anything reads a phase (issue 41).
    phases, utterances = split_turn_nights(phases, utterances, ctx)
    phases = add_final_night(phases, utterances, ctx)
    events = sheriff_events(utterances_raw, utterances, phases, n_seats, ctx) + eliminations(utterances, phases, n_seats, ctx)
    phases, utterances, events = add_hidden_nights(phases, utterances, events, ctx)
    # One truth before anything uses the roles (night actions, rules, items): real_role against the log, the
    # recap and the public self-destructs.
    blew_up = {int(e.actor) for e in events if e.kind == "self_destruct" and isinstance(e.actor, int)}
    truth[sg.game_id] = reconciled = reconcile_roles(seats, meta.logs, meta.summary, ctx, blew_up)
    seats = reconciled.seats
    language = _language(meta.language, ctx)
    rules = _rules(meta, seats, phases, ctx)
    # the day ballots the host's tallies give, before the game's vote events exist (a stalker kills only a seat he voted for)
    ballots = day_ballots(GameLog.model_construct(game_id=sg.game_id, language=language, rules=rules, seats=seats, phases=phases,
                                                  utterances=utterances, events=events, mvp=None))
    events += _night_actions(meta.logs, meta.summary, utterances, seats, phases, language, events, ctx, corrections, ballots,
                             catalogue=catalogue_for(rules.declared_roles))
    events.sort(key=lambda e: (e.segment_id if e.segment_id is not None else -1, _EVENT_ORDER[e.kind], e.target or 0, e.actor if isinstance(e.actor, int) else 0))
    mvp = read_mvp(meta, utterances, phases, n_seats, ctx, events)
    season, episode = _provenance_numbers(sg, meta.source, ctx)
    return GameLog(
        game_id=sg.game_id,
        language=language,
        provenance=Provenance(
            source=meta.source,
            show=SHOW,
            season=season,
            episode=episode,
            original_file=sg.rel,
            original_game_id=str(meta.game_id),
        ),
        rules=rules,
        seats=seats,
        host_labels=host_labels,
        phases=phases,
        utterances=utterances,
        events=events,
        mvp=mvp,
        recap=(meta.summary or None),
        annotator_log=(meta.logs or None),
        winner=read_winner(meta.summary, meta.logs, ctx),
    )


_EVENT_ORDER = {"sheriff_election": 0, "badge_transfer": 1, "self_destruct": 2, "elimination": 3, "vote": 4, "night_outcome": 5, "skill_use": 6}


# --------------------------------------------------------------------------- rules, provenance, winner


def _rules(meta: RawMetadata, seats: list[SeatInfo], phases: list[Phase], ctx: Ctx) -> Rules:
    counts = Counter((s.role, s.original_role_label) for s in seats)
    by_role: dict[str, list[str]] = {}
    for (role, label), _ in sorted(counts.items()):
        by_role.setdefault(role, []).append(label or "")
    faction = {s.role: s.faction for s in seats}
    composition = [
        RoleCount(role=role, faction=faction[role], count=sum(1 for s in seats if s.role == role), original_label="/".join(sorted(by_role[role])))
        for role in sorted(by_role, key=RELEASE_ROLES.order)
    ]
    listed = list(dict.fromkeys(RELEASE_ROLES.canonical(r) or r for r in meta.game_roles))
    unseated = sorted(r for r in listed if r not in by_role)
    public_cards = None
    if unseated:
        # Spare cards (a thief's) or roles handed out during play: the seats are not the whole deck, so
        # the rules summary must list the announced cards, not the seats' (it would tell which are buried).
        public_cards = listed + [r for r in by_role if r not in listed]
        ctx.add("warning", "listed_role_unseated", "metadata.game_roles", f"roles listed but held by no seat: {unseated}",
                "composition taken from the true roles of the seats (hidden); rules summaries use the listed cards (rules.public_cards)")
    variant = variant_id(by_role, RELEASE_ROLES)
    text = (meta.game_rules or "").strip() or None
    if text is None:
        ctx.add("repaired", "rules_text_missing", "metadata.game_rules", "empty rulebook text", "rules.text null; win condition assumed side_elimination (the show's standard rule)")
        win = "side_elimination"
    elif "屠边" in text:
        win = "side_elimination"
    elif "屠城" in text:
        win = "all_elimination"
    else:
        ctx.add("warning", "win_condition_unstated", "metadata.game_rules", "the rules text names no win condition", "win condition set to 'other'")
        win = "other"
    has_sheriff = any(p.kind == "sheriff_election" for p in phases)
    # The show's standing rules, stated in no rulebook text: a player may abstain (its hosts read abstentions out in
    # most games' tallies) and the guard may guard nobody (the annotators record empty guards).
    return Rules(text=text, variant=variant, composition=composition, win_condition=win, has_sheriff=has_sheriff, public_cards=public_cards,
                 abstention_allowed=True, moves=MoveRules(guard_may_skip=True))


def _provenance_numbers(sg: SourceGame, source: str, ctx: Ctx) -> tuple[int, int | None]:
    m = _EPISODE.search(source)
    if not m:
        ctx.add("warning", "source_unparsed", "metadata.source", f"'{source}' names no season/episode", "episode unknown")
        return sg.season, None
    if int(m.group(1)) != sg.season:
        ctx.add("warning", "season_mismatch", "metadata.source", f"'{source}' but the file is under Season_{sg.season}", "season taken from the folder")
    return sg.season, int(m.group(2))


def _language(lang: str | None, ctx: Ctx) -> str:
    if lang not in (None, "chinese", "zh", "Chinese"):
        ctx.add("warning", "language", "metadata.language", f"'{lang}'", "imported as zh (the release is Chinese)")
    return "zh"


def _night_actions(logs: str | None, recap: str | None, utterances: list[Utterance], seats: list[SeatInfo], phases: list[Phase],
                   language: str, exits: list[Event], ctx: Ctx, corrections: GameCorrections | None, ballots=lambda seat, night: None,
                   *, catalogue: RoleCatalogue) -> list[Event]:
    """The night facts of every source and reader, settled (toolkit.nights.night_facts), with the import report's account."""
    if corrections is not None:
        check_quotes(corrections, {p.id for p in phases}, {s.seat for s in seats}, utterances, logs, recap, corrections.file or f"{corrections.game_id}.json")
    nf = read_night_facts(logs, recap, utterances, seats, phases, language, exits, corrections.corrections if corrections else (), ballots, catalogue=catalogue)
    for line in nf.corrected:
        ctx.add("repaired", "night_fact_corrected", "corrections", line, "applied from the game's corrections file (its quote is the fact's evidence)")
    for r in nf.unread:
        ctx.add("warning", "night_action_unread", "metadata.logs", f"seat {r.seat}: '{r.text}'", f"not imported: {r.why}")
    for (actor, skill, phase), why in nf.disputed.items():
        who = f"seat {actor}" if actor is not None else "the wolves"
        ctx.add("dropped", "night_fact_disputed", "metadata.logs", f"{who} {phase} {skill}", f"not shown, named missing: {why}; neither is taken")
    if nf.refused:  # one entry a game: a seer names many seats in passing, and most of those readings are no report at all
        shown = "; ".join(f"seat {st.seat} day {st.day} '{st.text}': {why}" for st, why in nf.refused[:3])
        ctx.add("warning", "night_statement_unread", "utterances[].text", f"{len(nf.refused)} statement(s) of a role holder not read as its night, e.g. {shown}",
                "not imported: the truth or the game's nights do not bear them out")
    for e, why in nf.dropped:
        ctx.add("dropped", "night_action_contradicted", "metadata.logs", f"{_action(e)} ({e.note})", f"not shown: {why}")
    for what in unexplained_dawns(nf.kept, exits, phases, catalogue, seats):
        ctx.add("warning", "dawn_unexplained", "utterances[].text", what, "kept as announced: a misread, or a role effect the sources leave unsaid")
    if nf.kept:
        ctx.add("converted", "night_actions", "metadata.logs",
                f"{len(nf.kept)} night fact(s) from the annotator log, the recap and the role holders' statements: " + "; ".join(
                    _action(e) + (f" (seen by {e.audience.kind} {e.audience.team or e.audience.seats})" if e.audience.kind != "actor" else "") for e in nf.kept),
                "skill_use events seen by those who knew them, each with its evidence (the sources' words it was read from)")
    return nf.kept


def _action(e: Event) -> str:
    who = f"seat {e.actor}" if e.actor is not None else "the wolves"
    return f"{who} {e.phase} {e.skill} {e.target}" + (f" ({e.result})" if e.result else "")
