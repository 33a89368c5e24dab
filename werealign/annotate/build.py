"""Transcript + annotator config -> game log.

The rules (the same ones the WereBench release used, so its games can be rebuilt):
- a segment is part of the game when first-phase start <= its start < game_end; earlier segments
  (rules read-out, introductions) and later ones (recap, chat) are not turns;
- a segment's phase is the last phase that started at or before the segment started;
- consecutive in-game segments of one speaker (seat or host) in one phase (and one `turn_audiences`
  range) form one turn, unless the config lists a segment in `turn_breaks` (it starts a new turn); the turn keeps every segment's id,
  time and text, and its text is the segments' texts joined by a space;
- the recap is the text of the config's recap segment range, joined the same way.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from werealign.annotate.config import ConfigSource, parse_timestamp, phase_id, segment_not_in
from werealign.annotate.transcript import TranscriptSegment, read_transcript
from werealign.errors import UserError
from werealign.files import parse_model
from werealign.schema import GameLog
from werealign.schema.annotation import AnnotatorConfig
from werealign.schema.roles import RoleCatalogue, catalogue_for, variant_id

# skill_use is hidden by default (a seer's check is private); everything else is announced.
PRIVATE_BY_DEFAULT = {"skill_use"}


@dataclass
class BuildResult:
    game: GameLog
    notes: list[str] = field(default_factory=list)  # what the build dropped or assumed, for the user


def _audience(ev) -> dict:
    """The event's audience as the config gives it (or its 1.0 `public`), else the kind's default."""
    if ev.audience is not None:
        return ev.audience.model_dump()
    if ev.public is None and ev.kind == "skill_use" and ev.skill == "wolf_kill":
        return {"kind": "team", "team": "wolf"}  # the pack decides together: every wolf knows the target
    public = ev.public if ev.public is not None else ev.kind not in PRIVATE_BY_DEFAULT
    return {"kind": "everyone" if public else "actor"}


def seat_role(label: str, catalogue: RoleCatalogue) -> tuple[str, str]:
    """(role, faction) of a true-role label: the canonical id, or the label itself with faction `unknown`."""
    role = catalogue.canonical(label)
    return (role, catalogue.faction(role)) if role is not None else (label.strip(), "unknown")


def _rules(config: AnnotatorConfig, catalogue: RoleCatalogue, notes: list[str]) -> dict:
    counts: Counter[str] = Counter()
    first_label: dict[str, str] = {}
    for seat in sorted(config.roles):
        label = config.roles[seat]
        role, _ = seat_role(label, catalogue)
        counts[role] += 1
        first_label.setdefault(role, label)
    composition = [
        {"role": r, "faction": seat_role(first_label[r], catalogue)[1], "count": counts[r],
         "original_label": None if first_label[r] == r else first_label[r]}
        for r in sorted(counts, key=catalogue.order)
    ]
    has_sheriff = config.rules.has_sheriff
    if has_sheriff is None:
        has_sheriff = bool(config.sheriff) or any(p.kind == "sheriff_election" for p in config.phases)
        notes.append(f"rules.has_sheriff: not given; inferred {str(has_sheriff).lower()} "
                     f"({'a sheriff election or badge entry' if has_sheriff else 'no sheriff election phase or badge entry'}); write it to be sure")
    return {
        "text": config.rules.text,
        "variant": config.rules.variant or variant_id(counts, catalogue),
        "composition": composition,
        "win_condition": config.rules.win_condition,
        "has_sheriff": has_sheriff,
        "self_vote_allowed": config.rules.self_vote_allowed,
        "abstention_allowed": config.rules.abstention_allowed,
        "declared_roles": [d.model_dump(exclude_defaults=True) for d in config.declared_roles],
        "moves": None if config.rules.moves is None else config.rules.moves.model_dump(exclude_none=True),
        "public_cards": config.rules.public_cards,
        "family": config.rules.family,
        "terms": config.rules.terms,
    }


def build_game(
    config: AnnotatorConfig,
    source: ConfigSource,
    segments: list[TranscriptSegment],
    srt_path: Path,
    unknown_speakers: str = "error",
) -> BuildResult:
    """The game log. `unknown_speakers`: 'error' (annotator configs) or 'drop' (the release's configs, noted)."""
    notes: list[str] = []
    by_id = {s.id: s for s in segments}
    phase_ids = [phase_id(p.kind, p.day) for p in config.phases]
    position = {s.id: i for i, s in enumerate(segments)}  # file order: what decides between cues that share a second
    for i, p in enumerate(config.phases):
        if p.start_segment is not None and p.start_segment not in by_id:
            raise segment_not_in(source, ("phases", i, "start_segment"), p.start_segment, srt_path)
    starts = [by_id[p.start_segment].start if p.start_segment is not None else parse_timestamp(p.start) for p in config.phases]
    game_start, game_end = starts[0], parse_timestamp(config.game_end)
    by_cue = any(p.start_segment is not None for p in config.phases)
    # A phase placed by time starts at the first cue, in file order, at or after that time.
    first_at = [position[p.start_segment] if p.start_segment is not None
                else next((k for k, s in enumerate(segments) if s.start >= starts[i]), len(segments)) for i, p in enumerate(config.phases)]

    def phase_of(seg: TranscriptSegment) -> int:
        if by_cue:
            return max(bisect.bisect_right(first_at, position[seg.id]) - 1, 0)
        return phase_at(seg.start)

    def phase_at(t: float) -> int:
        return max(bisect.bisect_right(starts, t) - 1, 0)

    # 1. In-game segments with their speaker and phase.
    kept: list[tuple[TranscriptSegment, int | str, int]] = []
    dropped_labels: Counter[str] = Counter()
    for seg in segments:
        if not game_start <= seg.start < game_end:
            continue
        speaker = config.speakers.get(seg.label)
        if speaker is None:
            if unknown_speakers == "error":
                raise UserError(
                    f"{srt_path}: cue {seg.id}: unknown speaker label {seg.label!r}; map it in {source.where('speakers')}"
                )
            dropped_labels[seg.label] += 1
            continue
        kept.append((seg, speaker, phase_of(seg)))
    for label, n in sorted(dropped_labels.items()):
        notes.append(f"speaker label {label!r} is not mapped to a seat or the host: {n} in-game segment(s) dropped")
    if not kept:
        raise UserError(f"{srt_path}: no transcript segment falls inside the game ({source.where('phases')} to {source.where('game_end')})")

    # 2. Merge runs of one speaker within one phase (and one audience) into turns; a turn break starts a new one.
    def heard_by(segment_id: int, p: int) -> int | str | None:
        """Index of the turn_audiences range holding the segment (the first one), else the phase's audience key, or None: the table's."""
        i = next((i for i, r in enumerate(config.turn_audiences) if r.first_segment <= segment_id <= r.last_segment), None)
        return i if i is not None else _phase_audience_key(config, phase_ids[p], config.phases[p].kind)

    def audience_of(key: int | str | None) -> dict | None:
        if key is None:
            return None
        return (config.turn_audiences[key].audience if isinstance(key, int) else config.phase_audiences[key]).model_dump()

    breaks = set(config.turn_breaks)
    utterances: list[dict] = []
    for seg, speaker, p in kept:
        last = utterances[-1] if utterances else None
        audience = heard_by(seg.id, p)
        if last is not None and last["speaker"] == speaker and last["_phase"] == p and last["_audience"] == audience and seg.id not in breaks:
            last["segment_ids"].append(seg.id)
            last["segments"].append(seg)
        else:
            utterances.append({"speaker": speaker, "_phase": p, "_audience": audience, "segment_ids": [seg.id], "segments": [seg]})
    turns = [
        {
            "index": i,
            "segment_ids": u["segment_ids"],
            "start": u["segments"][0].start,
            "end": u["segments"][-1].end,
            "phase": phase_ids[u["_phase"]],
            "speaker": u["speaker"],
            "text": " ".join(s.text for s in u["segments"]),
            "segments": [{"id": s.id, "start": s.start, "end": s.end, "text": s.text} for s in u["segments"]],
            "audience": audience_of(u["_audience"]),
        }
        for i, u in enumerate(utterances)
    ]
    in_game = {seg.id: p for seg, _, p in kept}

    def anchor(segment: int, path: tuple) -> int:
        """Phase index of an in-game segment named by the config at `path`."""
        if segment not in by_id:
            raise segment_not_in(source, path, segment, srt_path)
        if segment not in in_game:
            s = by_id[segment]
            if not game_start <= s.start < game_end:
                raise source.error(path, f"segment {segment} ({s.start:.3f}s) is outside the game")
            return phase_of(s)
        return in_game[segment]

    # 3. Events: sheriff changes first (they come as times or segments), then the annotated events.
    events: list[tuple[int, int, dict]] = []
    previous: int | None = None
    for i, change in enumerate(config.sheriff):
        if change.segment is not None:
            seg_id = change.segment
            p = anchor(seg_id, ("sheriff", i, "segment"))
        else:
            t = parse_timestamp(change.time)
            after = [s for s, _, _ in kept if s.start >= t]
            if not after:
                raise source.error(("sheriff", i, "time"), f"no in-game segment starts at or after {change.time}")
            seg_id, p = after[0].id, in_game[after[0].id]
        events.append(
            (seg_id, len(events), {
                "kind": "sheriff_election" if i == 0 else "badge_transfer",
                "phase": phase_ids[p],
                "segment_id": seg_id,
                "audience": {"kind": "everyone"},
                "actor": previous if i > 0 else None,
                "target": change.seat,
            })
        )
        previous = change.seat
    for i, ev in enumerate(config.events):
        p = anchor(ev.segment, ("events", i, "segment"))
        if ev.kind == "vote" and ev.phase is None and config.phases[p].kind == "night":
            why = _vote_in_night(config, phase_ids, starts, p, by_id[ev.segment], by_cue)
            # a team's night vote is fine where the night has its audience, unless a shared second may have misplaced it
            if why is not None:
                raise source.error(("events", i, "segment"), why)
        key = _phase_audience_key(config, phase_ids[p], config.phases[p].kind)
        heard = (config.phase_audiences[key].model_dump() if key is not None and ev.kind == "vote" and ev.audience is None and ev.public is None
                 else _audience(ev))
        events.append(
            (ev.segment, len(events), {
                "kind": ev.kind,
                "phase": ev.phase or phase_ids[p],
                "segment_id": ev.segment,
                "audience": heard,
                "round": ev.round,
                "actor": ev.actor,
                "target": ev.target,
                "skill": ev.skill,
                "result": ev.result,
                "note": ev.note,
            })
        )
    events.sort(key=lambda e: (e[0], e[1]))

    for i, h in enumerate(config.highlights):
        anchor(h.segment, ("highlights", i, "segment"))
    for i, segment in enumerate(config.turn_breaks):
        anchor(segment, ("turn_breaks", i))
    if config.mvp is not None:
        for i, v in enumerate(config.mvp.votes):
            if v.cutoff_segment not in by_id:
                raise segment_not_in(source, ("mvp", "votes", i, "cutoff_segment"), v.cutoff_segment, srt_path)

    recap = None
    if config.recap is not None:
        r = config.recap
        if r.first_segment is not None:
            recap_segs = [s.text for s in segments if r.first_segment <= s.id <= r.last_segment]
            if not recap_segs:
                raise source.error(("recap",), f"no segment of {srt_path} in {r.first_segment}..{r.last_segment}")
            recap = " ".join(recap_segs)
        if r.text is not None:
            recap = r.text if recap is None else f"{recap}\n{r.text}"

    catalogue = catalogue_for(config.declared_roles)
    for seat in sorted(config.roles):
        if catalogue.canonical(config.roles[seat]) is None:
            notes.append(f"roles.{seat}: role label {config.roles[seat]!r} is in neither the role catalogue nor declared_roles: "
                         "kept as given with faction 'unknown' (items that need this seat's side are skipped); declare it to fix")
    labels: dict[int, list[str]] = {}
    for label, who in config.speakers.items():
        if isinstance(who, int):
            labels.setdefault(who, []).append(label)
    names = seat_names(config, labels, notes)
    game = {
        "game_id": config.game_id,
        "language": config.language,
        "provenance": config.provenance.model_dump(),
        "rules": _rules(config, catalogue, notes),
        "seats": [
            {
                "seat": seat,
                "role": seat_role(config.roles[seat], catalogue)[0],
                "faction": seat_role(config.roles[seat], catalogue)[1],
                "original_role_label": None if seat_role(config.roles[seat], catalogue)[0] == config.roles[seat] else config.roles[seat],
                "speaker_labels": sorted(labels.get(seat, [])),
                "name": names[seat][0] if names.get(seat) else None,
                "aliases": names.get(seat, [])[1:],
                "agent": config.agents.get(seat),
            }
            for seat in sorted(config.roles)
        ],
        "host_labels": sorted(label for label, who in config.speakers.items() if who == "host"),
        "phases": [
            {
                "id": phase_ids[i],
                "kind": p.kind,
                "day": p.day,
                "start": starts[i],
                "end": starts[i + 1] if i + 1 < len(starts) else game_end,
                "original_label": p.original_label,
            }
            for i, p in enumerate(config.phases)
        ],
        "utterances": turns,
        "events": [e for _, _, e in events],
        "mvp": None if config.mvp is None else config.mvp.model_dump(),
        "highlights": [{"segment_id": h.segment, "kind": h.kind, "note": h.note} for h in config.highlights],
        "recap": recap,
        "annotator_log": config.annotator_log,
        "winner": config.winner,
    }
    return BuildResult(parse_model(GameLog, game, f"{source.file}: built game {config.game_id}"), notes)


# A speaker label that only numbers a voice ("Speaker 3", "P3", "7号") is no name players call anyone by.
_NOT_A_NAME = re.compile(r"(?i)^(?:speaker|player|seat|voice|p|spk)?\s*[-_#]?\s*\d+\s*号?$")


def seat_names(config: AnnotatorConfig, labels: dict[int, list[str]], notes: list[str]) -> dict[int, list[str]]:
    """Seat -> [name, nickname, ...]: the config's `names`, else the seat's speaker labels that are names."""
    out: dict[int, list[str]] = {}
    defaulted = []
    for seat in sorted(config.roles):
        given = config.names.get(seat)
        if given is not None:
            out[seat] = [given] if isinstance(given, str) else list(given)
        else:
            named = [label for label in sorted(labels.get(seat, [])) if not _NOT_A_NAME.match(label.strip())]
            if named:
                out[seat] = named
                defaulted.append(seat)
    if defaulted and config.names:
        notes.append(f"names: seat(s) {defaulted} take their names from their speaker labels; give `names` to add nicknames")
    return out


def _phase_audience_key(config: AnnotatorConfig, pid: str, kind: str) -> str | None:
    """The `phase_audiences` key that applies to a phase: its id first, then its kind."""
    return pid if pid in config.phase_audiences else (kind if kind in config.phase_audiences else None)


def _vote_in_night(config: AnnotatorConfig, phase_ids: list[str], starts: list[float], p: int, seg: TranscriptSegment, by_cue: bool) -> str | None:
    """Why a vote lands in a night phase, for its error: a time stamp that shares its second with a phase change,
    or a team's night vote without the phase's audience. None: a team's vote in a night that declares its audience."""
    msg = f"a vote at cue {seg.id} falls in {phase_ids[p]}, a night phase"
    near = [i for i in (p, p + 1) if i < len(starts) and int(starts[i]) == int(seg.start)]
    if near and not by_cue:
        i = near[0]
        return (f"{msg}: the cue starts at {seg.start:g}s, the second {phase_ids[i]} starts; time stamps that share a second cannot tell "
                f"which comes first: start the phases at their cues (phases[{i}].start_segment)")
    if _phase_audience_key(config, phase_ids[p], "night") is not None:
        return None
    return (f"{msg}: votes by day go in a day phase (check the phase starts); a team's night vote (the mafia's) is heard by the team only: "
            f"declare it (phase_audiences: {{night: {{kind: team, team: wolf}}}}) or give the event its audience")


def build_from_files(srt_path: Path, config_path: Path) -> BuildResult:
    """Build a game from a transcript and an annotator config (YAML, or the same as JSON)."""
    from werealign.annotate.config import load_config

    segments = read_transcript(srt_path)
    config, source = load_config(config_path, (srt_path, {s.id for s in segments}))
    return build_game(config, source, segments, srt_path)


def validate_built(game: GameLog, file: str) -> list:
    """The same checks as `werealign validate`: the one place the builder calls the validator."""
    from werealign.validate import validate_game

    return validate_game(game, file)
