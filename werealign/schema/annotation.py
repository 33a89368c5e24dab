"""The annotator config: what an annotator writes (YAML) beside a transcript to describe one game.

`werealign annotate build --srt T.srt --config C.yaml` turns the two into a game log. The config
holds everything the transcript cannot say: who each speaker label is, the true roles, when each
phase starts, and the game state as events. `annotation/config.template.yaml` is a commented example;
`data/schemas/annotator_config.schema.json` is generated from this model.

Conventions (same as the game log): seats are 1-based ints, the host is "host", segment ids are
the transcript's cue numbers, timestamps are "HH:MM:SS,mmm" (SRT style) or seconds.

Seat values are validated strictly (an int; not true, "6" or 6.0): YAML reads `yes` as true, and
lax validation would quietly make it seat 1 (and "6" seat 6) although the JSON Schema refuses both.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, Strict as StrictMode

from werealign.schema.models import SCHEMA_VERSION, Audience, EventKind, HighlightKind, Identifier, Language, MoveRules, Mvp, MvpVote, Provenance, Seat, Strict
from werealign.schema.roles import Faction, RoleDeclaration

ConfigSeat = Annotated[Seat, StrictMode()]


def _seat_key(value: Any) -> Any:
    # Keys of `roles` / `names`: a JSON object's keys are always strings, so "6" stays a seat there
    # (and in YAML, where `6` and `'6'` are one key); YAML's yes (true) and 6.0 are refused.
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"expected a seat number, got {value!r}")
    return value


SeatKey = Annotated[int, BeforeValidator(_seat_key)]

TIMESTAMP_PATTERN = r"^\d{1,2}:\d{2}:\d{2}([,.]\d{3})?$"
Timestamp = Annotated[
    str,
    Field(pattern=TIMESTAMP_PATTERN, description="'HH:MM:SS,mmm' as in SRT files (a '.' before the milliseconds is accepted)."),
] | Annotated[float, Field(ge=0, description="Seconds from the start of the recording.")]


class ConfigRules(Strict):
    """Every rule a game log's board holds (werealign.schema.models.Rules) but the composition, which the roles give."""

    text: str | None = Field(None, description="The rulebook text as given to the players.")
    variant: str | None = Field(None, description="Variant id; derived from the special roles when absent.")
    win_condition: Literal["side_elimination", "all_elimination", "parity", "other"] = "side_elimination"
    has_sheriff: bool | None = Field(
        None, description="Whether a sheriff is elected. When absent it is inferred (a sheriff_election phase or a sheriff entry) and the build says so.")
    self_vote_allowed: bool = Field(False, description="Whether a player may vote for themself (VA candidates then include the voter).")
    abstention_allowed: bool = Field(False, description="Whether a player may abstain from a day vote (an abstention is then a VA item).")
    moves: MoveRules | None = Field(None, description="The board's rules of night moves, e.g. {wolves_may_kill_wolf: false} (decision items' legal moves).")
    public_cards: list[str] | None = Field(None, description="The card list announced to the players, when the seats' roles are not the whole deck.")
    family: str | None = Field(None, description="Game family: werewolf, mafia, ... (the words prompts use); absent: read from the roles.")
    terms: dict[str, str] = Field(default_factory=dict, description="The board's own words over its family's (see werealign/render/families.json).")


class ConfigPhase(Strict):
    kind: Literal["night", "sheriff_election", "day"]
    day: int = Field(ge=1, description="Which night/day of the game; the sheriff election belongs to day 1.")
    start: Timestamp | None = Field(None, description="When the phase starts; it ends where the next phase (or the game) starts.")
    start_segment: int | None = Field(
        None, ge=0, description="The cue the phase starts at, instead of (or over) `start`: cues from it on, in file order, are in the phase. "
        "Needed where time stamps share a second across a phase change (whole-second chat logs).")
    original_label: str | None = None


class SheriffChange(Strict):
    """The badge goes to `seat`: the first entry is the election, later ones are transfers."""

    seat: ConfigSeat | None = Field(description="New sheriff; null when the badge is torn up.")
    segment: int | None = Field(None, ge=0, description="Segment where the change is announced.")
    time: Timestamp | None = Field(None, description="Alternative to `segment`: the change holds from the first segment starting at or after this time.")


class ConfigEvent(Strict):
    kind: EventKind
    segment: int = Field(ge=0, description="Segment the event is anchored to; events are checked in segment order.")
    phase: str | None = Field(None, description="Phase id ('day-2'); derived from the segment when absent.")
    actor: ConfigSeat | Literal["host"] | None = None
    target: ConfigSeat | None = None
    skill: str | None = None
    result: str | None = None
    audience: Audience | None = Field(None, description="Who perceived it: {kind: everyone | actor | team | seats, team: wolf, seats: [..]}. Default: everyone, except skill_use (the actor).")
    public: bool | None = Field(None, description="Shorthand of schema 1.0: true = everyone, false = the actor.")
    round: int | None = Field(None, ge=1, description="For votes: the round within the phase (1 = first vote, 2 = a re-vote).")
    note: str | None = None


class TurnAudience(Strict):
    """Segments heard only by an audience: the wolves' night chat, a private message."""

    first_segment: int = Field(ge=0)
    last_segment: int = Field(ge=0, description="Inclusive.")
    audience: Audience


class ConfigHighlight(Strict):
    segment: int = Field(ge=0)
    kind: HighlightKind
    note: str = Field(min_length=1)


class Recap(Strict):
    first_segment: int | None = Field(None, ge=0, description="First segment of the host's recap in the transcript.")
    last_segment: int | None = Field(None, ge=0, description="Last segment of the recap (inclusive).")
    text: str | None = Field(None, description="The recap text, when it is not taken from the transcript.")


# The MVP block is the game log's own (a config's MVP is copied into the log as is), with its
# seats checked strictly (see the module docstring).
class ConfigMvpVote(MvpVote):
    model_config = ConfigDict(strict=True)


class ConfigMvp(Mvp):
    model_config = ConfigDict(strict=True)
    votes: list[ConfigMvpVote] = Field(default_factory=list)


class AnnotatorConfig(Strict):
    schema_version: Literal["1.0"] = SCHEMA_VERSION
    game_id: Identifier
    language: Language
    provenance: Provenance
    rules: ConfigRules = Field(default_factory=ConfigRules)
    players: int = Field(ge=1, le=30, description="Number of seats; every seat in the config must be 1..players.")
    speakers: dict[str, ConfigSeat | Literal["host"]] = Field(description="Transcript speaker label -> seat or 'host'. Several labels may share a seat.")
    roles: dict[SeatKey, str] = Field(description="Seat -> true role label: a canonical id, a name the role catalogue or `declared_roles` knows, or any other label (kept, faction unknown).")
    declared_roles: list[RoleDeclaration] = Field(
        default_factory=list, description="Roles this game adds to the role catalogue (id, names, faction, ability, rule), or catalogue roles it changes.")
    names: dict[SeatKey, str | list[str]] = Field(
        default_factory=dict, description="Seat -> the player's name, or [name, nickname, ...]: every name players call the seat by. "
        "Absent: the seat's speaker labels that are names (not 'Speaker 3').")
    agents: dict[SeatKey, str] = Field(default_factory=dict, description="Seat -> model name, for a seat played by an agent, not a human.")
    phases: list[ConfigPhase] = Field(min_length=1, description="In time order; the first starts the game.")
    game_end: Timestamp = Field(description="End of the game: later segments (the recap, chat) are not turns.")
    turn_breaks: list[int] = Field(
        default_factory=list,
        description="Segments that start a new turn although the same speaker goes on in the same phase "
        "(e.g. the host's vote result after the ballots, which would otherwise join the call to vote).")
    sheriff: list[SheriffChange] = Field(default_factory=list)
    events: list[ConfigEvent] = Field(default_factory=list)
    phase_audiences: dict[str, Audience] = Field(
        default_factory=dict, description="Phase kind ('night') or phase id ('night-2') -> who heard its turns and players' votes, "
        "e.g. night: {kind: team, team: wolf} for a team's night chat; turn_audiences and an event's own audience win.")
    turn_audiences: list[TurnAudience] = Field(
        default_factory=list, description="Segment ranges heard only by an audience (e.g. {kind: team, team: wolf} for the wolves' night chat); other turns are the table's.")
    mvp: ConfigMvp | None = None
    highlights: list[ConfigHighlight] = Field(default_factory=list)
    recap: Recap | None = None
    annotator_log: str | None = None
    winner: Faction | None = None
