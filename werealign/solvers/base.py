"""The solver seam: what a solver sees (State), what it may do (Steps), and what it is (Solver).

A solver turns one sample into a reply through steps. A model step (`Steps.ask`) is one request, keyed by
its content (werealign.llm.keys) and stored the moment it arrives, so a solver of several steps resumes
like a single call: a rerun replays the stored steps for free and pays only for the first missing one.
A plain-Python step (`Steps.note`: retrieval, a tool, a rule) is recorded beside them, never paid.

Replay is exact only if a solver is a deterministic function of the state and the replies it got: no
clock, no unseeded randomness (draw from `derived seed`s of the state instead).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Shown:
    """What a sample's messages show, as data, for whoever answers without reading text (the built-in baselines):
    the answer space and the shown transcript, never the gold or the hidden game. Built by whoever rendered the
    messages (eval's prompts), so it holds exactly what they show."""

    lang: str  # the prompt's language ("zh", "en")
    options: tuple[tuple[str, str], ...] = ()  # (shown letter, text) in shown order, for an option question
    candidates: tuple[int, ...] = ()  # the seats the answer line may name
    role_cards: tuple[str, ...] = ()  # the card names a roles prompt lists, as shown (most common first)
    question: str = ""  # the question stem as shown ("" when the prompt shows none, e.g. options-only)
    speech_by_seat: dict[int, str] = field(default_factory=dict)  # the shown transcript's text per seat
    own_speech: tuple[str, ...] = ()  # the viewpoint's own shown turns, in order
    seat_names: dict[int, tuple[str, ...]] = field(default_factory=dict)  # seat -> the names and nicknames the prompt ties to it


@dataclass(frozen=True)
class State:
    """One sample as data: the rendered prompt and the item it asks, for solvers that need more than text.

    `others` are the dataset's other games (never the item's own): where a solver may draw experience from
    (werealign.solvers.experience). Everything of the item's own game a model may see is in `messages`."""

    messages: list[dict[str, str]]  # the task's prompt, as the default solver sends it
    params: dict[str, Any]  # sampling params of this decode (temperature, seed, max_tokens)
    decode: int
    task: str
    item: Any  # the item model (options, candidates, viewpoint seat, ...)
    game: Any  # the GameLog the prompt was rendered from
    option_order: list[int] | None = None
    mode: str | None = None
    variant: str = "base"
    key: str | None = None  # the request key of `messages` with `params` as planned (saves re-hashing the prompt)
    others: tuple[Any, ...] = ()  # the other games of the dataset (GameLog), for experience pools
    # The task's reader, as the run scores a reply: reply text -> its answer (None when none can be read). Set by
    # whoever builds the state (eval's plan, the arena), so a solver that compares its samples' answers
    # (self-consistency) reads them as the task does without knowing any task.
    read: Callable[[str | None], Any] | None = field(default=None, compare=False, repr=False)
    # What `messages` show, as data (Shown), computed on demand: set by whoever renders the messages (eval's plan).
    shown: Callable[[], Shown] | None = field(default=None, compare=False, repr=False)
    # A live game (the arena): `moment` names the point of the game this decision follows (after the night, the
    # debate, the vote of a day), and `memory` is the seat's own scratch across that game's decisions, which a
    # solver may write (sa keeps its strategy there until the next point, as its paper does). Both None in eval,
    # where each sample stands alone. Replay stays exact: a game is always replayed from its first decision.
    moment: str | None = None
    # The arena's recorded experiences of earlier games (werealign.solvers.experience.recorded: reflection, decision,
    # action, outcome), which the experience pool holds in place of those games' turns. Empty in eval.
    pool: tuple[Any, ...] = ()
    memory: dict[str, Any] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class StepRecord:
    """What one step did; written into the sample row (schema.runs.StepRow)."""

    name: str
    kind: str  # "model" | "python"
    output: str | None
    key: str | None = None
    error: str | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    cost: float | None = None
    latency: float | None = None
    attempts: int = 0
    finish_reason: str | None = None


class Steps(Protocol):
    """Handed to a solver: the only way it reaches a model."""

    async def ask(self, step: str, messages: list[dict[str, str]], *, params: dict[str, Any] | None = None) -> str:
        """One model call (the state's params, updated with `params`); returns the reply text.

        Raises StepFailed when the request finally failed (the sample is then a request error)."""
        ...

    def note(self, step: str, output: str) -> None:
        """Record a plain-Python step (retrieval, a tool) and its result."""
        ...


class StepFailed(Exception):
    """A model step's request finally failed; the sample is recorded as a request error."""


SolveFn = Callable[..., Awaitable[str]]  # (state, steps, **options) -> the reply the task parses


@dataclass(frozen=True)
class Solver:
    """A named way of answering. `solve(state, steps, **options)` returns the reply the task parses (its last
    answer line counts). `options` are the solver's settings with their defaults (`--solver NAME:k=v,...`);
    `calls(options)` is how many model calls it makes per sample (for `eval --dry-run`)."""

    name: str
    solve: SolveFn
    description: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    calls: Callable[[Mapping[str, Any]], int] = lambda options: 1
    spec: str = ""  # the configured name with its options (`xu:questions=6`); set by werealign.solvers.get_solver
    paper: str = ""  # the published work it reproduces, named beside its results
    # Its one model step asks the task's prompt as planned (State.messages with State.params, under State.key): each
    # sample's request is known before the solver runs, so a run looks its requests up in bulk (store, shared cache)
    # and reads its samples without a replay. Any solver may say so; the default one does.
    planned: bool = False
