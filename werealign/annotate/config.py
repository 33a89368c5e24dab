"""Load and check an annotator config (YAML) with errors that name `file:line: field`.

PyYAML's composer gives every node a start mark, so we keep a map from field path to line and use
it for both shape errors (pydantic) and the game-sense checks below (seats in range, phases in time
order, no vote by an eliminated player, ...). The same walk refuses a key given twice in one mapping,
which the YAML loader would otherwise resolve silently (last one wins).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from werealign.errors import UserError
from werealign.files.located_yaml import ConfigSource, Path_, read_yaml  # noqa: F401 - read_yaml is this module's public reader too
from werealign.schema.annotation import AnnotatorConfig
from werealign.schema.roles import CATALOGUE

# A transcript file and its segment ids, when known before the config is checked (`annotate build`).
KnownSegments = tuple[Path, Collection[int]]

_TS = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})(?:[,.](\d{3}))?$")


def parse_timestamp(value: str | float | int) -> float:
    """Seconds for 'HH:MM:SS,mmm' (or '.mmm') or a number of seconds; ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"not a timestamp: {value!r}")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"negative timestamp: {value!r}")
        return float(value)
    m = _TS.match(str(value).strip())
    if not m or int(m.group(2)) >= 60 or int(m.group(3)) >= 60:
        raise ValueError(f"unparsable timestamp {value!r} (expected HH:MM:SS,mmm)")
    h, mi, s, ms = m.groups()
    return int(h) * 3600 + int(mi) * 60 + int(s) + int(ms or 0) / 1000


def phase_id(kind: str, day: int) -> str:
    """Our phase ids: 'night-1', 'sheriff-election' (day 1; 'sheriff-election-2' on a later day), 'day-1'."""
    if kind == "sheriff_election":
        return "sheriff-election" if day == 1 else f"sheriff-election-{day}"
    return f"{kind}-{day}"


def validate_config(data: Any, source: ConfigSource, segments: KnownSegments | None = None) -> AnnotatorConfig:
    """Shape (pydantic) then game sense; the first problem becomes a UserError naming line and field."""
    if not isinstance(data, dict):
        raise source.error((), "expected a mapping of config fields")
    try:
        config = AnnotatorConfig.model_validate(data)
    except ValidationError as e:
        raise _shape_error(e, source) from None
    check_config(config, source, segments)
    return config


def _shape_error(e: ValidationError, source: ConfigSource) -> UserError:
    """The first pydantic error as `file:line: field: message`; union branches of one field count once."""
    seen: dict[tuple, dict] = {}
    branches: dict[tuple, set[str]] = {}
    for err in e.errors():
        # Union members add their type to the location ("str", "constrained-str", "int", ...): drop it.
        def is_branch(p: Any) -> bool:
            return isinstance(p, str) and (p in {"str", "float", "int", "bool"} or p.startswith(("constrained-", "literal[")))

        loc = tuple(p for p in err["loc"] if not is_branch(p))
        seen.setdefault(loc, err)
        branches.setdefault(loc, set()).update(p for p in err["loc"] if is_branch(p))
    loc, err = next(iter(seen.items()))
    msg = err["msg"].removeprefix("Value error, ")  # our own validators' messages need no pydantic prefix
    # A timestamp is the config's only string-or-number field; whichever branch failed first
    # ("Input should be a valid string" for -3), say what a timestamp is.
    if {"constrained-str", "constrained-float"} <= branches[loc]:
        msg = f"unparsable timestamp {err['input']!r} (expected HH:MM:SS,mmm or non-negative seconds)"
    elif "literal['host']" in branches[loc] and any(b.endswith("int") for b in branches[loc]):
        msg = f"expected a seat number or 'host', got {err['input']!r}"
    elif err["type"].endswith("_type"):  # a value of the wrong type: show it ("6" is not the seat 6)
        msg = f"{msg}, got {repr(err['input'])[:60]}"
    more = len(seen) - 1
    return source.error(loc, msg + (f" (+{more} more problem(s))" if more > 0 else ""))


def load_config(path: Path, segments: KnownSegments | None = None) -> tuple[AnnotatorConfig, ConfigSource]:
    data, source = read_yaml(path)
    return validate_config(data, source, segments), source


def segment_not_in(source: ConfigSource, path: tuple, segment: int, srt_path: Path) -> UserError:
    return source.error(path, f"segment {segment} is not in {srt_path}")


def _check_seat(seat: Any, players: int, source: ConfigSource, path: tuple) -> None:
    if isinstance(seat, int) and not 1 <= seat <= players:
        raise source.error(path, f"seat {seat} out of range (players: {players})")


def check_config(config: AnnotatorConfig, source: ConfigSource, segments: KnownSegments | None = None) -> None:
    """The checks a shape cannot express. Raises on the first problem, in file order.

    With `segments`, an event anchored to a segment the transcript lacks is named as such before the
    events are replayed (a typo like 99 would otherwise surface as a vote by a dead player).
    """
    n = config.players
    for label, seat in config.speakers.items():
        _check_seat(seat, n, source, ("speakers", label))
    for seat in config.roles:
        _check_seat(seat, n, source, ("roles", seat))
    for i, r in enumerate(config.turn_audiences):
        if r.last_segment < r.first_segment:
            raise source.error(("turn_audiences", i, "last_segment"), f"{r.last_segment} is before first_segment {r.first_segment}")
        for j, seat in enumerate(r.audience.seats):
            _check_seat(seat, n, source, ("turn_audiences", i, "audience", "seats", j))
    for i, declared in enumerate(config.declared_roles):
        if declared.id not in CATALOGUE and declared.faction is None:
            raise source.error(("declared_roles", i, "faction"), f"role {declared.id!r} is not in the role catalogue, so its faction is needed")
    missing = sorted(set(range(1, n + 1)) - set(config.roles))
    if missing:
        raise source.error(("roles",), f"no true role for seat(s) {missing} (players: {n})")
    for seat in config.names:
        _check_seat(seat, n, source, ("names", seat))

    # Phases: in order and unique; each ends where the next begins, the last at game_end. A phase starts at a
    # time or at a cue (`start_segment`): consecutive phases are compared in whichever both give.
    starts: list[float | None] = []
    ids: set[str] = set()
    for i, phase in enumerate(config.phases):
        if phase.start is None and phase.start_segment is None:
            raise source.error(("phases", i), "give the phase's start (a time) or start_segment (a cue number)")
        try:
            t = None if phase.start is None else parse_timestamp(phase.start)
        except ValueError as e:
            raise source.error(("phases", i, "start"), str(e)) from None
        pid = phase_id(phase.kind, phase.day)
        if pid in ids:
            raise source.error(("phases", i), f"duplicate phase {pid}")
        ids.add(pid)
        prev = config.phases[i - 1] if i else None
        if prev is not None and phase.start_segment is not None and prev.start_segment is not None and phase.start_segment <= prev.start_segment:
            raise source.error(("phases", i, "start_segment"), f"overlapping phases: {pid} starts at cue {phase.start_segment}, "
                               f"not after the previous phase's cue {prev.start_segment}")
        # Equal starts are refused too: the first phase would be empty (a segment belongs to the last
        # phase started at or before it), which is always a typo in an annotator's config. Phases placed
        # by cue may share a second (whole-second chat logs): only their cues must be in order.
        if t is not None and starts and starts[-1] is not None and (t < starts[-1] or (t == starts[-1] and phase.start_segment is None)):
            when = "at the same time as" if t == starts[-1] else "before"
            raise source.error(("phases", i, "start"), f"overlapping phases: {pid} starts at {phase.start}, {when} the previous phase ({config.phases[i - 1].start})"
                               + ("; time stamps that share a second cannot tell the order: give each phase its start_segment" if t == starts[-1] else ""))
        starts.append(t)
    try:
        end = parse_timestamp(config.game_end)
    except ValueError as e:
        raise source.error(("game_end",), str(e)) from None
    if starts[-1] is not None and end <= starts[-1]:
        when = "the same time as" if end == starts[-1] else "before"
        raise source.error(("game_end",), f"game ends at {config.game_end}, {when} the last phase starts ({config.phases[-1].start})")
    for key in config.phase_audiences:
        if key not in ids and key not in ("night", "day", "sheriff_election"):
            raise source.error(("phase_audiences", key), f"not a phase kind (night, day, sheriff_election) or a phase of this game ({', '.join(sorted(ids))})")
    for seat in config.agents:
        _check_seat(seat, n, source, ("agents", seat))

    for i, change in enumerate(config.sheriff):
        _check_seat(change.seat, n, source, ("sheriff", i, "seat"))
        if (change.segment is None) == (change.time is None):
            raise source.error(("sheriff", i), "give exactly one of segment or time")
        if change.time is not None:
            try:
                parse_timestamp(change.time)
            except ValueError as e:
                raise source.error(("sheriff", i, "time"), str(e)) from None

    _check_events(config, source, ids, segments)

    if config.mvp is not None:
        _check_seat(config.mvp.seat, n, source, ("mvp", "seat"))
        for i, vote in enumerate(config.mvp.votes):
            _check_seat(vote.target, n, source, ("mvp", "votes", i, "target"))
            if vote.phase not in ids:
                raise source.error(("mvp", "votes", i, "phase"), f"unknown phase {vote.phase!r} (phases: {', '.join(sorted(ids))})")
    if config.recap is not None:
        r = config.recap
        if (r.first_segment is None) != (r.last_segment is None):
            raise source.error(("recap",), "give both first_segment and last_segment, or neither")
        if r.first_segment is not None and r.last_segment is not None and r.first_segment > r.last_segment:
            raise source.error(("recap", "last_segment"), f"recap ends ({r.last_segment}) before it starts ({r.first_segment})")


def _check_events(config: AnnotatorConfig, source: ConfigSource, phase_ids: set[str], segments: KnownSegments | None) -> None:
    """Seats in range, phases known, and nobody acts after leaving the game.

    Events are replayed in segment order (config order breaks ties): an `elimination` removes its
    target, a `self_destruct` its actor; a later vote by or against a removed seat is an error.
    """
    n = config.players
    if segments is not None:
        srt_path, known = segments
        for i, ev in enumerate(config.events):
            if ev.segment not in known:
                raise segment_not_in(source, ("events", i, "segment"), ev.segment, srt_path)
    dead: dict[int, int] = {}  # seat -> index of the event that removed it
    order = sorted(range(len(config.events)), key=lambda i: (config.events[i].segment, i))
    for i in order:
        ev = config.events[i]
        _check_seat(ev.actor, n, source, ("events", i, "actor"))
        _check_seat(ev.target, n, source, ("events", i, "target"))
        if ev.phase is not None and ev.phase not in phase_ids:
            raise source.error(("events", i, "phase"), f"unknown phase {ev.phase!r} (phases: {', '.join(sorted(phase_ids))})")
        if ev.kind == "vote":
            if ev.actor is None or ev.actor == "host":
                raise source.error(("events", i, "actor"), "a vote needs the voter's seat as actor")
            # Both segments are named: a typo in this event's segment (99 for 19) reads as a late vote.
            if ev.actor in dead:
                raise source.error(("events", i, "actor"), f"vote by a dead player: seat {ev.actor} votes at segment {ev.segment} but was eliminated at segment {config.events[dead[ev.actor]].segment} (events[{dead[ev.actor]}])")
            if ev.target in dead:
                raise source.error(("events", i, "target"), f"vote for a dead player: seat {ev.target} is voted for at segment {ev.segment} but was eliminated at segment {config.events[dead[ev.target]].segment} (events[{dead[ev.target]}])")
        elif ev.kind == "elimination" and ev.target is not None:
            first = dead.get(ev.target)
            # A self-destruct followed by its elimination is one exit, logged twice: fine.
            if first is not None and config.events[first].kind == "elimination":
                raise source.error(("events", i, "target"), f"seat {ev.target} is eliminated twice (first at events[{first}])")
            dead[ev.target] = i
        elif ev.kind == "self_destruct" and isinstance(ev.actor, int):
            dead.setdefault(ev.actor, i)
