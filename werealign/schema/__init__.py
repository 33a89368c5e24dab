"""File formats of werealign. Imports nothing else of the project (DESIGN.md)."""

from werealign.schema.models import (  # noqa: F401
    DIMENSION_NAMES,
    DIMENSIONS,
    OPTION_KEYS,
    SCHEMA_VERSION,
    DatasetCounts,
    DatasetManifest,
    Event,
    Evidence,
    GameLog,
    Highlight,
    ItemProvenance,
    MoveRules,
    Mvp,
    MvpVote,
    Option,
    OpponentItem,
    OsrRewrite,
    Phase,
    Provenance,
    RoleCount,
    Rules,
    SeatInfo,
    Segment,
    SpeechItem,
    Utterance,
    VoteItem,
)
from werealign.schema.arena import ArenaSummary  # noqa: F401
from werealign.schema.annotation import AnnotatorConfig  # noqa: F401
from werealign.schema.corrections import GameCorrections  # noqa: F401
from werealign.schema.runs import RunRecord, Results, SampleRow  # noqa: F401
from werealign.schema.roles import ROLE_LABELS, ROLES, canonical_role, faction_of, is_god, is_host_label  # noqa: F401

# File kind -> model; the JSON Schemas in data/schemas/ are named after these keys.
FILE_MODELS = {
    "arena": ArenaSummary,
    "game": GameLog,
    "speech_item": SpeechItem,
    "vote_item": VoteItem,
    "opponent_item": OpponentItem,
    "osr_rewrite": OsrRewrite,
    "dataset_manifest": DatasetManifest,
    "annotator_config": AnnotatorConfig,
    "corrections": GameCorrections,
    "run": RunRecord,
    "sample": SampleRow,
    "results": Results,
}
