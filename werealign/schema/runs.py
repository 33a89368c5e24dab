"""The run directory's files as typed models: run.json, samples.jsonl rows and results.json.

These are the contract for everything that reads a run (leaderboards, `werealign score`, other tools);
`data/schemas/{run,sample,results}.schema.json` are generated from them. Read run files ONLY through
`read_run_record`, `read_sample_row` and `read_results` (or `werealign.eval.rundir`, which uses them):
they accept every older format version and return the current model.

Format versions:
- 1: the first release. run.json and results.json carried `"format": "werealign-run/1"`; sample rows
  carried no marker. The fields were otherwise those of version 2.
- 2 (current): `format_version: 2` in run.json, in results.json and in every sample row.
A reader upgrades an older file in memory; files on disk are never rewritten by reading them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, ValidationInfo, field_validator, model_serializer

RUN_FORMAT_VERSION = 2
STORE_NAME = "responses.sqlite"  # a run's (or an arena's) stored requests and replies (werealign.llm.store)
DEFAULT_SOLVER = "single"  # one model call per sample: the prompt as rendered, the reply parsed
LEGACY_RUN_FORMAT = "werealign-run/1"  # the marker of format version 1 files

FormatVersion = Annotated[
    Literal[2],
    Field(description="Version of this file format. Readers accept older versions and upgrade them (see werealign.schema.runs)."),
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- run.json


class RunConfig(_Model):
    """Everything that decides which requests are sent and how they are scored. Two runs with equal configs
    on the same dataset send the same requests; a run directory only resumes under its own config."""

    model: str = Field(description="The model as given to --model: a litellm model string or a built-in (werealign/random, ...).")
    dataset: str | None = Field(None, description="--dataset as the user gave it (never made absolute); null = the bundled sample.")
    tasks: tuple[str, ...] = Field(description="Item kinds evaluated, in order (speech, vote, opponent, or any registered kind).")
    variants: tuple[str, ...] = Field(("base",), description="Ablation variants: base, rr (rule reminder), osr (objective speech rewrites), no-context (no transcript, no events), options-only (only the options or candidates).")
    protocol: str = Field("paired", description="paired: every variant on every item; randomized: one variant per item, drawn with the seed.")
    decodes: int = Field(5, description="Independent decodes (requests) per item and variant.")
    permute: bool = Field(True, description="Speech options are shuffled per decode, seeded by (seed, item, decode).")
    seed: int = Field(0, description="Seed of option orders, variant assignment and the per-request sampling seed.")
    limit: int | None = Field(None, description="N items of each task, drawn with the seed, round-robin across the dimensions "
                              "where items have them (werealign.eval.plan.limited), not the first N; null = all.")
    temperature: float = Field(0.7, description="Sampling temperature sent with every request.")
    max_tokens: int | None = Field(
        None, description="Maximum completion tokens per request; null = no cap of ours (the provider's own limit), so reasoning models are not cut off.")
    modes: dict[str, str] = Field(
        default_factory=dict,
        description="The mode each evaluated task was asked in, e.g. {'vote': 'decision', 'opponent': 'set'} (see werealign.tasks); "
        "a task with modes that is missing here is asked in its default mode.")
    split: str = Field("all", description="Which items: 'faithful' leaves out items whose viewpoint lacks a required night fact "
                       "or whose stem pins a hidden role (werealign.splits); 'all' is every item. The eval command defaults to "
                       "faithful; left out of the file when 'all', so runs made before splits keep their identity.")
    solver: str = Field(DEFAULT_SOLVER, description="How the model answers (werealign.solvers): 'single' = one call per sample. "
                        "Left out of the file when it is the default, so runs made before solvers keep their identity.")
    context_budget: int | None = Field(
        None, description="--context-budget: the prompt tokens a request may take (older turns are cut first, werealign.eval.context_budget); "
        "null = the model's context where its metadata gives one (werealign.llm.model_limits), 0 = no budget. Left out when null.")

    @property
    def label(self) -> str:
        """How people see the run named (progress, summaries, the leaderboard): the model, and its solver unless
        the default (`openai/gpt-4o-mini [cot]`)."""
        return self.model if self.solver == DEFAULT_SOLVER else f"{self.model} [{self.solver}]"

    @model_serializer(mode="wrap")
    def _default_solver_left_out(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if data.get("solver") == DEFAULT_SOLVER:
            del data["solver"]
        if data.get("split") == "all":
            del data["split"]
        if data.get("context_budget") is None:
            data.pop("context_budget", None)
        return data


class RunExecution(_Model):
    """How requests were sent. Does not change results, so a resumed run may use other values."""

    api_base: str | None = Field(None, description="The endpoint (scheme, host, port, path only: never credentials or a query).")
    max_connections: int = Field(16, description="Requests in flight at once.")
    timeout: float = Field(120.0, description="Seconds per attempt.")
    max_attempts: int = Field(6, description="Attempts per request before it is recorded as a request error.")
    backoff_base: float = Field(1.0, description="First retry wait in seconds (doubled per attempt, jittered).")
    backoff_max: float = Field(60.0, description="Longest retry wait in seconds.")


class DatasetRecord(_Model):
    """Which dataset a run read, by content: a run is re-scored only against the same bytes."""

    path: str | None = Field(description="--dataset as given; null = the bundled sample.")
    name: str = Field(description="dataset.json name.")
    version: str = Field(description="dataset.json version.")
    manifest_sha256: str = Field(description="sha256 of dataset.json.")
    content_sha256: str = Field(description="sha256 over the games, items and rewrites eval reads, by relative path.")


class Versions(_Model):
    """Software that produced the run. A resumed run may differ here (it is warned about, not refused)."""

    werealign: str = Field(description="werealign package version.")
    litellm: str | None = Field(description="litellm version installed, null when it was not installed.")
    prompt_version: str = Field(description="Version of the prompt templates (e.g. v1).")
    templates_sha256: str = Field(description="sha256 over every prompt template file and the phrase tables (werealign.render).")
    solver_templates_sha256: str | None = Field(
        None, exclude_if=lambda v: v is None,
        description="sha256 over the solvers' step templates (render/templates/<lang>/solvers/); absent for the default "
        "solver, whose only prompt is the task's. A change is warned about on resume, like templates_sha256.")


class RunRecord(_Model):
    """run.json: the full configuration of a run. Never holds a secret or a machine path."""

    format_version: FormatVersion = RUN_FORMAT_VERSION
    config: RunConfig
    execution: RunExecution
    dataset: DatasetRecord
    versions: Versions


# --------------------------------------------------------------------------- samples.jsonl


Answer = str | int | list[int] | dict[str, str]  # dict: seat -> role id (OI mode roles)


class StepRow(_Model):
    """One step of a solver: a model call (its messages are the `request` of `key` in responses.sqlite) or a
    plain-Python step (retrieval, a tool) with its output."""

    name: str = Field(description="The solver's name for the step (e.g. answer, reflect).")
    kind: str = Field(description="'model' (a stored, keyed request) or 'python' (computed, not paid).")
    key: str | None = Field(None, description="Model steps: the request key in responses.sqlite (its messages are stored there).")
    output: str | None = Field(description="The reply (model) or the step's result (python); null when the request failed.")
    error: str | None = Field(None, description="'ErrorClass: message' when the request finally failed.")
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = Field(None, description="Prompt tokens the provider read from its prompt cache (its usage report).")
    cost: float | None = Field(None, description="USD price litellm computed for this call; null when unknown.")


class SampleRow(_Model):
    """One row of samples.jsonl: one item x variant x decode, the reply as received and how it was scored."""

    format_version: FormatVersion = RUN_FORMAT_VERSION
    task: str = Field(description="Item kind: speech, vote, opponent, or another registered kind.")
    item_id: str
    game_id: str
    dimension: str | None = Field(description="Speech dimension (RI, SJ, DR, PS, CT); null for other kinds.")
    viewpoint_seat: int | None = Field(description="The seat the item is asked from; null = an observer item (public information only).")
    viewpoint_role: str | None = Field(description="True role of the viewpoint seat ('observer' for observer items; null if the seat has none).")
    variant: str = Field(description="Ablation variant the prompt was rendered with.")
    decode: int = Field(description="Decode index, 0-based.")
    option_order: list[int] | None = Field(description="Speech: shown position i held original option option_order[i]; null = not permuted.")
    key: str = Field(description="Request key: sha256 of (model, params, messages, decode); the row's key in responses.sqlite.")
    gold: Answer = Field(description="The correct answer: an option key (speech), a seat (vote), the sorted seat list (opponent) "
                         "or, in OI mode roles, each asked seat's role id by seat.")
    reply: str | None = Field(description="The model's raw reply; null when the request failed.")
    answer: Answer | None = Field(description="The parsed answer in the gold's terms (original option key); null when unparsed or failed.")
    correct: bool | None = Field(description="answer == gold; null when the request failed.")
    parse_error: str | None = Field(description="Why the reply could not be read strictly; such a sample counts as wrong.")
    request_error: str | None = Field(description="'ErrorClass: message' when the request finally failed; the sample is left out of scores.")
    attempts: int = Field(description="Attempts made for the request.")
    finish_reason: str | None = Field(description="The provider's finish reason ('length' = cut at max_tokens); null on failure.")
    prompt_tokens: int | None
    completion_tokens: int | None
    cost: float | None = Field(description="USD price litellm computed for the reply; null when unknown (never guessed).")
    latency: float | None = Field(description="Seconds of the successful (or last) attempt.")
    cached_tokens: int | None = Field(None, description="Prompt tokens the provider read from its prompt cache, summed over the steps.")
    cache_saving_usd: float | None = Field(None, description="USD those cached tokens saved against fresh input (litellm's prices); null when unknown.")
    steps: list[StepRow] | None = Field(None, description="The solver's steps in order (null in rows written before solvers).")
    score: float | None = Field(None, description="This sample's contribution to its task's headline (failed requests score 0); "
                                "null in rows written before it was recorded.")
    turns_cut: int = Field(0, description="The oldest transcript turns left out of this sample's prompt to fit the run's context budget.",
                           exclude_if=lambda v: v == 0)


# --------------------------------------------------------------------------- results.json


class Floors(_Model):
    """A score is read against these: what no judgment at all achieves on the same items and prompts."""

    metric: str = Field(description="The metric of the floors (the task's primary metric in the run's mode).")
    chance: float | None = Field(description="Expected score of a uniformly random answer (werealign/random's policy).")
    shortcuts: dict[str, float | None] = Field(description="Built-in shortcut model -> its score on the run's prompts (every decode, as the run's own scores).")
    best: str | None = Field(description="The shortcut (or 'chance') with the highest floor.")
    best_score: float | None


class RoleScore(_Model):
    score: float | None = Field(description="Mean per-sample primary score of this viewpoint role's answered samples.")
    answered: int


class Counts(_Model):
    samples: int = Field(description="Samples with a stored outcome.")
    answered: int = Field(description="Samples whose request succeeded (parse failures included).")
    request_errors: int = Field(description="Samples whose request finally failed; left out of every score.")
    parse_failures: int = Field(description="Answered samples whose reply could not be parsed; scored as wrong.")
    items: int = Field(description="Distinct items.")
    coverage: float | None = Field(None, description="Samples with a readable answer / samples: neither a failed request nor an unparsable reply.")


class TaskScores(Counts):
    """Scores of one item kind under one variant. `metric` names the primary score field; `primary` reads it."""

    model_config = ConfigDict(extra="allow", frozen=True)  # a task kind may report more fields
    metric: str = Field(description="Name of the field holding the primary score.")
    by_viewpoint_role: dict[str, RoleScore] = Field(description="Primary score per true role of the viewpoint seat.")
    floors: Floors | None = Field(None, description="What chance and the built-in shortcut models score on the same prompts, in the same metric.")

    @property
    def primary(self) -> float | None:
        value = getattr(self, self.metric, None)
        return value if isinstance(value, int | float) and not isinstance(value, bool) else None


class DimensionScore(Counts):
    accuracy: float | None = Field(description="Correct / samples (failed requests count as wrong).")
    accuracy_answered: float | None = Field(None, description="Correct / answered samples.")


class SpeechScores(TaskScores):
    model_config = ConfigDict(extra="forbid", frozen=True)
    metric: Literal["macro_accuracy"]
    macro_accuracy: float | None = Field(description="Unweighted mean of the per-dimension accuracies.")
    macro_accuracy_std: float | None = Field(description="Population std of the per-decode macro accuracies; null with fewer than two decodes.")
    per_decode_macro_accuracy: list[float | None]
    accuracy: float | None = Field(description="Accuracy pooled over all speech samples.")
    macro_accuracy_answered: float | None = Field(None, description="The macro accuracy over answered samples only.")
    accuracy_answered: float | None = Field(None, description="Pooled accuracy over answered samples only.")
    dimensions: list[str] | None = Field(None, description="The dimensions the macro average covers.")
    by_dimension: dict[str, DimensionScore]


class VoteScores(TaskScores):
    model_config = ConfigDict(extra="forbid", frozen=True)
    metric: Literal["accuracy"]
    accuracy: float | None = Field(description="Exact match of the seat with the human's vote (failed requests count as wrong).")
    accuracy_answered: float | None = Field(None, description="The same over answered samples only.")
    accuracy_std: float | None
    per_decode_accuracy: list[float | None]


class OpponentScores(TaskScores):
    model_config = ConfigDict(extra="forbid", frozen=True)
    metric: Literal["mean_jaccard", "exact_match"] = Field(description="mean_jaccard (mode set) or exact_match (mode set-accuracy, the paper's).")
    mean_jaccard: float | None = Field(description="Mean per-sample Jaccard between predicted seats and the true opposing faction.")
    mean_jaccard_std: float | None
    per_decode_mean_jaccard: list[float | None]
    exact_match: float | None
    mean_jaccard_answered: float | None = None
    exact_match_answered: float | None = None
    precision: float | None
    recall: float | None
    f1: float | None
    micro_precision: float | None
    micro_recall: float | None
    micro_f1: float | None


class OpponentRoleScores(TaskScores):
    """OI mode `roles`: the role card of every other seat."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    metric: Literal["role_accuracy"]
    role_accuracy: float | None = Field(description="Seats labelled with their true role / seats asked, over all samples (micro average; failed requests count as wrong).")
    role_accuracy_std: float | None
    per_decode_role_accuracy: list[float | None]
    role_accuracy_answered: float | None = Field(None, description="The same over answered samples only.")
    mean_item_role_accuracy: float | None = Field(description="Mean per-sample share of seats labelled right (macro over samples).")
    exact_match: float | None = Field(description="Share of samples with every seat right.")
    seats: int = Field(description="Seats asked, summed over samples (the micro average's denominator).")


# The typed shapes first; any other block is read as generic TaskScores. Which kind must have which shapes is the
# kinds' own (werealign.tasks.results_shapes), given to `read_results`.
AnyTaskScores = Annotated[SpeechScores | VoteScores | OpponentScores | OpponentRoleScores | TaskScores, Field(union_mode="left_to_right")]


class Totals(Counts):
    missing: int = Field(description="Planned requests with no stored outcome (an interrupted run).")
    truncated_replies: int = Field(description="Replies the provider cut at max_tokens.")
    turns_cut: int = Field(0, description="Transcript turns left out to fit the context budget, summed over samples.",
                           exclude_if=lambda v: v == 0)
    samples_cut: int = Field(0, description="Samples whose prompt had turns cut to fit the context budget.", exclude_if=lambda v: v == 0)
    over_budget: int = Field(0, description="Samples whose prompt did not fit the context budget even with every turn cut: never sent, "
                             "counted among request_errors.", exclude_if=lambda v: v == 0)


class Usage(_Model):
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None = Field(description="Summed cost; null unless litellm priced every answered sample.")
    cost_known_for: int = Field(description="Answered samples with a known price.")
    cached_prompt_tokens: int = Field(0, description="Prompt tokens the provider served from its prompt cache (its usage report).")
    cache_saving_usd: float | None = Field(None, description="USD the prompt cache saved against fresh input; null unless priced.")


class GainEstimate(_Model):
    """Base minus no-context on one task or speech dimension, with its 95% cluster-bootstrap interval."""

    gain: float = Field(description="Score under base minus score under no-context (fractions, not %), on the items below.")
    low: float = Field(description="2.5th percentile of the bootstrap replicates of the gain.")
    high: float = Field(description="97.5th percentile.")
    above_zero: bool = Field(description="low > 0 over at least 5 games: the model demonstrably uses the game here.")
    p_value: float = Field(description="Two-sided bootstrap p-value of gain = 0.")
    design: Literal["paired", "unpaired"] = Field(
        description="paired: items asked in both variants (paired protocol), games resampled once for both; "
        "unpaired: one variant per item (randomized protocol), every item of each variant, games resampled once for both.")
    items: int = Field(description="Items the estimate covers (paired: asked in both variants; unpaired: of either variant).")
    games: int = Field(description="Games those items come from: the clusters resampled.")


class TaskGain(GainEstimate):
    metric: str = Field(description="The per-sample score whose mean is compared (speech: macro accuracy over the dimensions present).")
    by_dimension: dict[str, GainEstimate] = Field(description="Speech: the gain per dimension (accuracy); empty for other kinds.")


class ContextGain(_Model):
    """How much of the score needs the game: base minus no-context (werealign.eval.context_gain)."""

    against: Literal["no-context"] = Field(description="The variant subtracted from base.")
    resamples: int = Field(description="Bootstrap replicates (games x decodes resampled).")
    tasks: dict[str, TaskGain] = Field(description="task -> its gain, on answered samples only.")


class EstimationInterval(_Model):
    """A mean with its 95% cluster-bootstrap interval over games."""

    value: float
    low: float
    high: float
    samples: int = Field(description="Observations behind it (samples for Acc, seat ratings for Est).")
    games: int


class SeatEstimation(_Model):
    role: str | None = Field(description="The seat's true role.")
    est: float = Field(description="Est(j): the mean Acc of the samples that rated this seat.")
    raters: int


class Estimation(_Model):
    """A solver's role estimates against the truth (werealign.eval.estimation; Strategy Adaptation's Acc and Est)."""

    metric: Literal["share", "acc"] = Field(
        "share", description="acc: Acc(i,j) = the 0-4 rating of seat j's true role over the sum of its ratings (Nakamori et al., eq. 1); "
        "share (runs before the 0-4 scale): the share of seats whose top-rated role is the true one.")
    accuracy: float = Field(description="Mean per sample of the metric over the seats it rated.")
    low: float
    high: float = Field(description="95% cluster-bootstrap interval over games.")
    samples: int
    seats: int = Field(description="Seat estimates scored in all.")
    unrated: int = Field(0, description="Seats asked but not rated (no line, or 0 on every role): no Acc.")
    games: int
    by_role: dict[str, float | EstimationInterval] = Field(description="Viewpoint's true role -> mean accuracy (acc: with its interval).")
    est_by_role: dict[str, EstimationInterval] = Field(default_factory=dict, description="Rated seat's true role -> its Est: how well that role is read.")
    by_seat: dict[str, dict[str, SeatEstimation]] = Field(default_factory=dict, description="Game -> seat -> Est(j).")
    strategies: dict[str, int] = Field(default_factory=dict, description="Strategy chosen -> samples (sa: support, attack; none: not named).")


class Results(_Model):
    """results.json: the scores of a run, per variant and task, with what identifies the run."""

    format_version: FormatVersion = RUN_FORMAT_VERSION
    model: str
    dataset: DatasetRecord
    versions: Versions
    complete: bool = Field(description="True when every planned request has a successful stored reply.")
    totals: Totals
    usage: Usage
    variants: dict[str, dict[str, AnyTaskScores]] = Field(description="variant -> task -> scores.")
    context_gain: ContextGain | None = Field(None, description="Base minus no-context with 95% intervals; null unless the run asked both variants.")
    estimation: Estimation | None = Field(None, description="Role estimates of a solver that makes them (sa), scored against the truth; null otherwise.",
                                          exclude_if=lambda v: v is None)

    @field_validator("variants")
    @classmethod
    def _known_tasks_have_their_own_shape(cls, variants: dict[str, dict[str, TaskScores]], info: ValidationInfo) -> dict[str, dict[str, TaskScores]]:
        # The union falls back to generic TaskScores; a known task that landed there is malformed (a missing or
        # mistyped field), and must be refused with its own model's error rather than read as generic scores.
        # The known shapes per kind come with the validation context (read_results).
        shapes: Mapping[str, tuple[type[TaskScores], ...]] = (info.context or {}).get(TASK_SHAPES, {})
        for tasks in variants.values():
            for task, scores in tasks.items():
                known = shapes.get(task)
                if known is not None and not isinstance(scores, known):
                    # The shape whose metric the block names (else the first): its error names the bad field.
                    shape = next((k for k in known if scores.metric in k.model_fields["metric"].annotation.__args__), known[0])
                    tasks[task] = shape.model_validate(scores.model_dump(), strict=True)
        return variants


# --------------------------------------------------------------------------- readers (every version)


def _upgrade(data: Any) -> Any:
    """A version-1 object (run.json / results.json with `format`, or an unmarked sample row) as version 2."""
    if isinstance(data, dict) and "format_version" not in data:
        data = {k: v for k, v in data.items() if not (k == "format" and v == LEGACY_RUN_FORMAT)}
        data["format_version"] = RUN_FORMAT_VERSION
        config = data.get("config")
        if isinstance(config, dict) and "modes" not in config and "vote" in (config.get("tasks") or ()):
            # Version 1 asked VA with the voter's own speech shown (today's `full`): re-scoring must rebuild those prompts.
            data["config"] = {**config, "modes": {"vote": "full"}}
    return data


def _read(model: type[BaseModel], data: Any, context: dict[str, Any] | None = None) -> Any:
    _refuse_newer(data)
    # Through JSON in strict mode: "3" is not 3 and a list is not a string, as in the file itself.
    return model.model_validate_json(json.dumps(_upgrade(data)), strict=True, context=context)


def _refuse_newer(data: Any) -> None:
    """A file of a later format version, written by a newer werealign, is refused as such, before its fields are read
    (each new field would otherwise be reported as an error of its own, and the version as "Input should be 2")."""
    version = data.get("format_version") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > RUN_FORMAT_VERSION:
        from pydantic_core import InitErrorDetails, PydanticCustomError, ValidationError

        why = PydanticCustomError("newer_format", "written by a newer werealign (run format {found}; this one reads formats 1 to {known}): "
                                  "upgrade werealign (pip install -U werealign) to read it", {"found": version, "known": RUN_FORMAT_VERSION})
        raise ValidationError.from_exception_data("run file", [InitErrorDetails(type=why, loc=("format_version",), input=version)])


def read_run_record(data: Any) -> RunRecord:
    """run.json content (any version) -> RunRecord. Raises pydantic.ValidationError naming the field."""
    return _read(RunRecord, data)


def read_sample_row(data: Any) -> SampleRow:
    """One samples.jsonl row (any version) -> SampleRow."""
    return _read(SampleRow, data)


TASK_SHAPES = "task_shapes"  # the validation context's key of the known shapes per kind


def read_results(data: Any, shapes: Mapping[str, tuple[type[TaskScores], ...]]) -> Results:
    """results.json content (any version) -> Results. `shapes`: kind -> the shapes its block must take
    (werealign.tasks.results_shapes()); a block of any other kind is read as generic TaskScores."""
    return _read(Results, data, {TASK_SHAPES: shapes})
