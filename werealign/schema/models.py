"""Pydantic models of every werealign file format.

These are the contract: `data/schemas/*.schema.json` is generated from them
(`python -m werealign.schema.export`), and a test fails when the two drift.
The models check the *shape* of a file; cross-field and cross-file rules
(seats exist, cut-offs fall in their phase, ...) live in `werealign.validate`.

Conventions:
- seats are 1-based integers; the host is the string "host";
- times are seconds from the start of the recording (float);
- `segment_id` is a transcript segment id (one SRT cue), the unit of cut-offs;
- a cut-off is inclusive: the model sees every segment whose id is <= the cut-off.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from werealign.schema.roles import Faction, RoleDeclaration

SCHEMA_VERSION = "1.0"
# Game logs: 1.1 says who perceived each event and turn (`audience`) where 1.0 had `public: bool`.
# A 1.0 game is still read: `public` becomes the audience everyone (true) or the actor (false).
GAME_SCHEMA_VERSION = "1.1"

Seat = Annotated[int, Field(ge=1, le=30, description="1-based seat number")]
# Game and item ids become file names and keys: letters, digits, '.', '_', '-', not starting with punctuation.
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")]
Speaker = int | Literal["host"]
# Any language: a BCP 47-style tag ('zh', 'en', 'pt-BR'). Prompts fall back to English wording for a
# language without templates, and say so.
Language = Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$", description="Language tag, e.g. 'zh', 'en', 'pt-BR'.")]
Dimension = Literal["RI", "SJ", "DR", "PS", "CT"]
DIMENSIONS: tuple[str, ...] = ("RI", "SJ", "DR", "PS", "CT")
DIMENSION_NAMES = {
    "RI": "Role Inference",
    "SJ": "Strategic Judgment",
    "DR": "Deception Reasoning",
    "PS": "Persuasive Statements",
    "CT": "Counterfactual Trade-off",
}
OPTION_KEYS: tuple[str, ...] = tuple("ABCDEFGHI")


def _empty(value: object) -> bool:
    """Fields added after a format's first version are left out of files while empty, so files
    that do not use them keep their bytes (and their content hashes)."""
    return value is None or value == []


class Strict(BaseModel):
    """Base for all file models: unknown fields are an error, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


# --------------------------------------------------------------------------- game log


class Provenance(Strict):
    source: str = Field(description="Human-readable source, e.g. 'Pandakill Season 1, Episode 1'.")
    show: str | None = None
    season: int | None = None
    episode: int | None = None
    original_file: str | None = Field(None, description="Path of the file this game was converted from, relative to its release.")
    original_game_id: str | None = None
    annotators: list[str] = Field(default_factory=list)


class RoleCount(Strict):
    role: str = Field(description="Canonical role id (see werealign.schema.roles), or the original label of a role nobody declared.")
    faction: Faction
    count: int = Field(ge=1)
    original_label: str | None = None


class MoveRules(Strict):
    """The rules of moves a board declares, where boards differ (werealign.game.moves says what an absent one means
    and reads the ones a rulebook text states)."""

    guard_repeat: bool | None = Field(None, description="Whether the guard may protect the same seat two nights running (absent: no, the catalogue's guard rule).")
    guard_may_skip: bool | None = Field(None, description="Whether the guard may protect nobody (absent: no).")
    witch_self_save: Literal["never", "first_night", "always"] | None = Field(
        None, description="When the witch may save herself (absent: unknown; a recorded self-save shows it is allowed).")
    witch_both_potions: bool | None = Field(None, description="Whether the witch may use both potions in one night (absent: no, the catalogue's witch rule).")
    wolves_may_skip: bool | None = Field(None, description="Whether the wolves may kill nobody (absent: no).")
    wolves_may_kill_wolf: bool | None = Field(None, description="Whether the wolves may kill one of their own (absent: yes, any living seat).")
    charm_target: Literal["good", "any"] | None = Field(
        None, description="Whom the wolf beauty may charm: a good-side seat only, or any other living seat (absent: any).")
    stalker_window: Literal["same_day", "any_day"] | None = Field(
        None, description="Whose vote arms the stalker: a seat voted for that day only (assassinated the night after), or on any day (absent: any day).")
    campaign_self_destruct: Literal["badge_lost", "election_resumes"] | None = Field(
        None, description="A wolf self-destructing in the sheriff campaign: the badge is lost, or the election resumes the next "
        "morning and only a second self-destruct loses it (absent: the badge is lost).")
    sheriff_tie: Literal["revote", "badge_lost"] | None = Field(
        None, description="A tie in the sheriff vote: the tied runners are voted on again and a second tie loses the badge, "
        "or the badge is lost at once (absent: revote).")


class Rules(Strict):
    text: str | None = Field(description="The rulebook text as given to the players (null when the source has none).")
    variant: str = Field(description="Variant id, e.g. 'seer-witch-hunter-guard'; derived from the special roles when not named.")
    composition: list[RoleCount] = Field(description="How many cards of each role are in the game.")
    win_condition: Literal["side_elimination", "all_elimination", "parity", "other"] = "side_elimination"
    # No default of true any more (a game without a sheriff got rules saying there is one): werealign's writers
    # always write it; a file without it (older or hand-written) is read, and GameLog.sheriff_in_play infers it.
    has_sheriff: bool | None = Field(
        None, exclude_if=lambda v: v is None,
        description="Whether a sheriff is elected. Absent: inferred from a sheriff election phase or event, with a validate warning.")
    self_vote_allowed: bool = Field(False, exclude_if=lambda v: not v, description="Whether a player may vote for themself (then VA candidates include the voter).")
    abstention_allowed: bool = Field(
        False, exclude_if=lambda v: not v, description="Whether a player may abstain from a day vote (then abstaining is a valid VA answer and an abstention an item).")
    declared_roles: list[RoleDeclaration] = Field(
        default_factory=list, exclude_if=_empty, description="Roles this game adds to the role catalogue, or catalogue roles it changes (werealign.schema.roles).")
    moves: MoveRules | None = Field(None, exclude_if=lambda v: v is None, description="The board's rules of night moves (decision items' legal moves).")
    family: str | None = Field(
        None, exclude_if=lambda v: v is None,
        description="The game family ('werewolf', 'mafia', ...): prompts use its words (werealign/render/families.json). Absent: read from the roles.")
    terms: dict[str, str] = Field(
        default_factory=dict, exclude_if=lambda v: not v,
        description="The board's own words over its family's (keys of werealign/render/families.json: game, evil_side, evil_member, ...).")
    public_cards: list[str] | None = Field(
        None,
        exclude_if=_empty,
        description="The card list announced to the players (role ids, no counts), when the seats' roles are not the whole deck "
        "(a thief's buried spare cards, roles handed out during play). Rules summaries are built from it, never from the seats; "
        "null: the composition itself is public.",
    )


class SeatInfo(Strict):
    seat: Seat
    role: str = Field(description="Canonical role id (or the original label of an undeclared role, faction 'unknown'): hidden information.")
    faction: Faction
    original_role_label: str | None = None
    speaker_labels: list[str] = Field(default_factory=list, description="Transcript speaker labels that map to this seat.")
    name: str | None = Field(None, description="Player's name or nickname, when known.")
    aliases: list[str] = Field(
        default_factory=list, exclude_if=_empty,
        description="Other names the players call this seat by (nicknames, short forms): every reader of the text maps them to the seat.")
    agent: str | None = Field(
        None, exclude_if=lambda v: v is None,
        description="The seat was played by an agent, not a human: the model's name. Its turns stay in the transcript; its choices are no keys "
                    "unless derive is asked (--include-agents).")


PhaseKind = Literal["night", "sheriff_election", "day"]
VOTE_PHASE_KINDS = ("day", "sheriff_election")  # the phases a ballot can be cast in


class Phase(Strict):
    id: str = Field(description="Unique phase id: 'night-1', 'sheriff-election', 'day-1', ...")
    kind: PhaseKind
    day: int = Field(ge=1, description="Which day/night of the game this phase belongs to.")
    start: float = Field(ge=0)
    end: float = Field(ge=0)
    original_label: str | None = None


class Segment(Strict):
    """One transcript cue inside an utterance; lets the context builder cut a turn exactly."""

    id: int = Field(ge=0)
    start: float = Field(ge=0)
    end: float = Field(ge=0)
    text: str


AudienceKind = Literal["everyone", "actor", "team", "seats"]


class Audience(Strict):
    """Who perceived an event or a turn: everyone at the table, the actor alone, a team, or listed seats."""

    kind: AudienceKind
    team: str | None = Field(None, exclude_if=_empty, description="kind=team: a faction ('wolf') or a team of the role catalogue ('wolves', 'lovers') whose members perceived it.")
    seats: list[Seat] = Field(default_factory=list, exclude_if=_empty, description="kind=seats: the seats that perceived it.")

    @model_validator(mode="after")
    def _complete(self) -> Audience:
        if self.kind == "team" and not self.team:
            raise ValueError("audience kind 'team' needs a team (e.g. 'wolf')")
        if self.kind == "seats" and not self.seats:
            raise ValueError("audience kind 'seats' needs the seats")
        return self


EVERYONE = Audience(kind="everyone")
ACTOR = Audience(kind="actor")


def _upgrade_public(data: object) -> object:
    """Schema 1.0 wrote `public: bool`; read it as the audience it meant."""
    if isinstance(data, dict) and data.get("audience") is None and isinstance(data.get("public"), bool):
        data = {**data, "audience": {"kind": "everyone" if data["public"] else "actor"}}
    return data


class Utterance(Strict):
    index: int = Field(ge=0, description="Position of this turn in the game, from 0.")
    segment_ids: list[int] = Field(min_length=1, description="Transcript segment ids this turn covers, ascending.")
    start: float = Field(ge=0)
    end: float = Field(ge=0)
    phase: str = Field(description="Phase id this turn was spoken in.")
    speaker: Speaker
    text: str
    segments: list[Segment] | None = Field(None, description="Per-segment text when known; null when only the merged text exists.")
    audience: Audience | None = Field(
        None, exclude_if=_empty,
        description="Who heard the turn (e.g. the wolves' night chat: kind team, team wolf). Absent: the table; a player's turn in a night phase "
                    "is then off-table commentary, shown to nobody.")


# sheriff_run (issue 31): the actor stood for sheriff at the election's call for candidates (one who withdrew later
# included: withdrawing is a later decision). An election with any sheriff_run event names every candidate by them,
# so a living seat without one did not stand. A sheriff_run with result "withdrew" (WITHDREW) is the candidate's
# withdrawal, anchored where it is known.
WITHDREW = "withdrew"
EventKind = Literal[
    "vote",
    "elimination",
    "night_outcome",
    "self_destruct",
    "sheriff_election",
    "sheriff_run",
    "badge_transfer",
    "skill_use",
    "role_reveal",  # issue 45: a seat's role announced to the table (at elimination): target = the seat, result = the role
]


# Events anchored to one segment are told in the order they happen at the table: ballots, then a
# self-destruct, the deaths it and the night caused, skills fired on leaving (the hunter's shot), and
# last where the badge goes. Sources order them otherwise (the WereBench import puts the badge first).
# The context builder (werealign.game.visibility) sorts by it; it shapes prompts, so templates_hash()
# hashes it with the templates (werealign.render.prompt_templates).
TELLING_ORDER = {"vote": 0, "sheriff_election": 1, "self_destruct": 2, "night_outcome": 3, "elimination": 4, "skill_use": 5, "badge_transfer": 6,
                 "sheriff_run": 7, "role_reveal": 8}  # a seat standing for sheriff (issue 31) is told alone, at the host's list of candidates


# Where a fact was read (issue 41): a table turn (its segment), the annotator log, the host's recap, or a structured
# field of the source release (a turn's `sheriff` field), which the game log does not keep.
EvidenceSource = Literal["utterance", "annotator_log", "recap", "release_field"]


class Evidence(Strict):
    """The words a fact was read from. `validate` checks that the quote is in its source (whitespace aside); a
    correction (`by: correction`) is checked the same way."""

    source: EvidenceSource
    segment_id: int | None = Field(None, exclude_if=_empty, description="source utterance: the segment holding the quote (or the turn's first).")
    quote: str = Field(min_length=1, description="The words read, verbatim (whitespace aside).")
    by: Literal["reader", "correction"] = Field("reader", description="An importer's reader, or a per-game corrections file.")


class Event(Strict):
    kind: EventKind
    phase: str
    segment_id: int | None = Field(description="Segment the event is anchored to (when it became known or happened).")
    audience: Audience | None = Field(None, description="Who perceived the event (schema 1.1; required unless a 1.0 `public` is given).")
    public: bool | None = Field(
        None, exclude=True, description="Schema 1.0, read only: true = everyone, false = the actor. Always equals audience kind 'everyone' once read.")
    round: int | None = Field(None, ge=1, exclude_if=_empty, description="For votes: the round within the phase (1 = first vote, 2 = a re-vote).")
    actor: Speaker | None = None
    target: Seat | None = Field(None, description="Vote target, eliminated seat, skill target, new sheriff; null for an abstention or a peaceful night.")
    skill: str | None = Field(None, description="For skill_use: e.g. seer_check, witch_save, witch_poison, guard_protect, hunter_shoot.")
    result: str | None = Field(None, description="Outcome text, e.g. 'wolf' for a seer check, 'peaceful night'.")
    note: str | None = None
    evidence: list[Evidence] = Field(default_factory=list, exclude_if=_empty,
                                     description="Where the event was read (issue 41); several when sources agree or one fact gives another.")

    _upgrade = model_validator(mode="before")(_upgrade_public)

    @model_validator(mode="after")
    def _one_audience(self) -> Event:
        if self.audience is None:
            raise ValueError("audience: field required (who perceived the event)")
        self.public = self.audience.kind == "everyone"
        return self


class MvpVote(Strict):
    phase: str = Field(description="Day phase id of the vote, e.g. 'day-2'.")
    target: Seat | None = Field(description="Seat voted for; null for an abstention.")
    cutoff_segment: int = Field(ge=0, description="Last segment before the vote was cast.")
    original_label: str | None = None
    round: int | None = Field(None, ge=1, exclude_if=_empty, description="Vote round within the phase (1 = first vote, 2 = a re-vote); absent = the only or first.")


class Mvp(Strict):
    seat: Seat
    votes: list[MvpVote] = Field(default_factory=list)
    original_label: str | None = None


HighlightKind = Literal[
    "pivotal_claim",
    "contradiction_exposure",
    "coalition_call",
    "vote_pivot",
    "counter_claim",
    "sacrifice",
    "other",
]


class Highlight(Strict):
    segment_id: int = Field(ge=0)
    kind: HighlightKind
    note: str


class GameLog(Strict):
    schema_version: Literal["1.0", "1.1"] = Field(GAME_SCHEMA_VERSION, description="1.0 files are read and upgraded to 1.1.")
    game_id: Identifier
    language: Language
    provenance: Provenance
    rules: Rules
    seats: list[SeatInfo] = Field(min_length=1)
    host_labels: list[str] = Field(default_factory=list, description="Transcript speaker labels of the host.")
    phases: list[Phase] = Field(min_length=1)
    utterances: list[Utterance]
    events: list[Event] = Field(default_factory=list)
    mvp: Mvp | None = None
    highlights: list[Highlight] = Field(default_factory=list)
    recap: str | None = Field(None, description="The host's post-game recap: hidden information.")
    annotator_log: str | None = Field(None, description="The annotator's free-text log of the game: hidden information.")
    winner: Faction | None = None

    @model_validator(mode="after")
    def _upgraded(self) -> GameLog:
        self.schema_version = GAME_SCHEMA_VERSION  # the events' `public` was read as audiences above
        return self

    def sheriff_in_play(self) -> bool:
        """rules.has_sheriff, or when a file leaves it out: whether the game has a sheriff election (phase or event)."""
        if self.rules.has_sheriff is not None:
            return self.rules.has_sheriff
        return any(p.kind == "sheriff_election" for p in self.phases) or any(e.kind == "sheriff_election" for e in self.events)


# --------------------------------------------------------------------------- items

OptionOrigin = Literal[
    "ground_truth",
    "m1_role_perturbation",
    "m1_information_occlusion",
    "m1_faction_inversion",
    "m2_biased_rationale",
    "human_utterance",  # a real utterance from another game (generate --negatives human)
    "imported",
]
ReviewDecision = Literal["accepted", "edited", "rejected", "unreviewed", "imported"]


class ItemProvenance(Strict):
    generator_model: str | None = None
    prompt_version: str | None = None
    seed: int | None = None
    review: ReviewDecision = "unreviewed"
    reviewer: str | None = None
    source: str | None = Field(None, description="Where the item came from, e.g. 'WereBench/WereBench.json'.")
    source_ref: dict[str, str | int] = Field(default_factory=dict, description="Original keys, e.g. {'category': 'Role Inference', 'id': 1}.")


class Option(Strict):
    key: Literal["A", "B", "C", "D", "E", "F", "G", "H", "I"]
    text: str = Field(min_length=1)
    origin: OptionOrigin


class MissingFact(Strict):
    """A fact the rules say the viewpoint held that the game log does not record (werealign.game.knowledge)."""

    night: str = Field(description="Night phase id, e.g. 'night-2'.")
    fact: str = Field(description="What was learned that night, as a skill id: 'seer_check', 'guard_protect', 'wolf_kill' (the pack's kill, or the victim the witch is told).")


class ItemBase(Strict):
    """What every item file row starts with (speech, VA, OI); each kind adds its own fields after these."""

    schema_version: Literal["1.0"] = SCHEMA_VERSION
    item_id: Identifier
    game_id: str
    language: Language
    knowledge_missing: list[MissingFact] = Field(
        default_factory=list, exclude_if=_empty,
        description="Facts the rules say the viewpoint held at the cut-off that the game log lacks, by night (absent: complete). "
        "The prompt names them; the faithful split leaves such items out.")


class SpeechItem(ItemBase):
    dimension: Dimension
    viewpoint_seat: Seat | None = Field(
        description="Seat the question is asked from. null = observer viewpoint: the model sees only public "
        "information (rules, public events, speeches up to the cut-off), no own role, no private knowledge; "
        "the question itself says who 'you' are (e.g. one of the good players at the table)."
    )
    cutoff_segment: int = Field(ge=0)
    question: str = Field(min_length=1)
    question_short: str | None = Field(None, description="The question without its situational preamble, when the source has one.")
    options: list[Option] = Field(min_length=9, max_length=9)
    answer: Literal["A", "B", "C", "D", "E", "F", "G", "H", "I"]
    explanation: str | None = None
    rule_reminder: str | None = Field(None, description="Short rule reminder prepended in the RR ablation.")
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


class VoteItem(ItemBase):
    viewpoint_seat: Seat
    phase: str = Field(description="Day phase id of the vote.")
    cutoff_segment: int = Field(ge=0)
    candidates: list[Seat] = Field(min_length=1, description="Seats that may be voted for (alive, not the voter).")
    answer: Seat | None = Field(description="The seat the human actually voted for; null: the human abstained (needs abstention_allowed).")
    abstention_allowed: bool = Field(
        False, exclude_if=lambda v: not v, description="Whether abstaining is a valid answer (the game's rules allow it): the prompt offers it.")
    round: int | None = Field(None, ge=1, exclude_if=_empty, description="The vote round asked about (absent: the only or first round).")
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


class OpponentItem(ItemBase):
    viewpoint_seat: Seat
    cutoff_segment: int = Field(ge=0)
    candidates: list[Seat] = Field(min_length=1, description="Seats the model may name (every seat but the viewpoint's and those it knows are allies).")
    answer: list[Seat] = Field(min_length=1, description="Seats of the opposing faction, ascending.")
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


# --------------------------------------------------------------------------- variants and manifest


class OsrRewrite(Strict):
    """One line of variants/osr/<game_id>.jsonl: an objective rewrite of one utterance."""

    schema_version: Literal["1.0"] = SCHEMA_VERSION
    game_id: str
    utterance_index: int = Field(ge=0)
    segment_ids: list[int] = Field(min_length=1)
    text: str
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


class DatasetCounts(Strict):
    """How many games, items of each task kind and games with OSR rewrites a dataset holds. The built-in kinds
    are named fields; another package's kind (werealign.tasks) is counted under its own name."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Annotated[int, Field(ge=0)]] = Field(init=False)  # type: ignore[assignment]

    games: int = Field(ge=0)
    speech: int = Field(0, ge=0)
    vote: int = Field(0, ge=0)
    opponent: int = Field(0, ge=0)
    osr_games: int = Field(0, ge=0)

    @classmethod
    def of(cls, games: int, items: dict[str, int], osr_games: int) -> DatasetCounts:
        return cls(games=games, osr_games=osr_games, **items)

    def count(self, key: str) -> int:
        """The count under `key` (games, osr_games or a task kind); 0 for a kind the manifest does not name."""
        if key in type(self).model_fields:
            return getattr(self, key)
        return (self.model_extra or {}).get(key, 0)


class DatasetManifest(Strict):
    """dataset.json. No timestamps: the same content gives the same bytes."""

    schema_version: Literal["1.0"] = SCHEMA_VERSION
    name: str
    version: str
    description: str = ""
    languages: list[Language]
    licence: str
    source: str | None = None
    counts: DatasetCounts
    content_hashes: dict[str, str] = Field(description="sha256 of every other file of the dataset, keyed by path relative to the dataset root.")
    filtering: dict[str, Any] | None = Field(
        None, exclude_if=_empty, description="How the speech items were filtered (`werealign audit --filtered-out`): method, seed, attacks, thresholds, counts.")
