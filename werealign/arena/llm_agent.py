"""The LLM agent: a model played through a solver (werealign.solvers), one decision at a time.

The prompt is the seat's context worded as in evaluation (werealign/render/templates/<lang>/context) plus
the decision asked (templates/<lang>/arena/ask), in the board's language. The solver turns it into a reply
through its steps (`single`: one request; `cot`, `xu`, `sa`, `mg`, plug-ins: several), run by the same
solver engine as eval (werealign.solvers.replay): every step is one request keyed by its content
(werealign.llm.keys), replayed from DIR's responses.sqlite when stored, else taken from the shared cache or
sent through the call engine (werealign.llm.call_engine: retries, prompt-cache markers, stored on arrival). A rerun
pays nothing again, and since every prompt follows from the seed and the replies before it, the same seed
replays the same games. A reply that cannot be read is played as a legal fallback and counted.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from werealign.schema.runs import DEFAULT_SOLVER
from werealign.arena.moves import BID_LEVELS, TEXT_KINDS, Action, Decision, fallback
from werealign.errors import UserError
from werealign.game.visibility import Context
from werealign.llm.call_engine import Engine
from werealign.llm.keys import request_key
from werealign.llm.store import StoredResponse, Store
from werealign.render.context import context_vars
from werealign.render.lines import phase_label, seat_label, seat_list
from werealign.render.prompt_templates import render_template, template_language
from werealign.schema import GameLog
from werealign.schema.models import VoteItem
from werealign.schema.roles import RoleDeclaration
from werealign.solvers.base import Solver, State
from werealign.solvers.prompting import UNREADABLE
from werealign.solvers.replay import Solved, run_solver
from werealign.tasks import parse_reply
from werealign.tasks.answers import answer_value, read_seat, seat_value, strip_reasoning

TEMPERATURE = 0.7
# A choice's reply budget (`--max-tokens`); talk gets TALK_FACTOR times as much for a few sentences.
DEFAULT_MAX_TOKENS = 128
TALK_FACTOR = 4
_ROLE_GUESS = re.compile(r"(\d{1,2})\s*号?\s*[=:：]\s*(wolf|werewolf|good|villager|狼人|狼|好人|好)", re.I)
_PASS = ("none", "no", "pass", "0", "abstain", "无", "弃票", "撕警徽")  # and any Chinese "不…" (不救, 不开枪, 不上警)
REFLECT = "reflect"  # the reflection step of the reflecting solvers (xu, mg): what an experience is retrieved by
_DESTRUCT = re.compile(r"^\W*(self[- ]?destruct|自爆)\W*$", re.I)


@dataclass
class Usage:
    requests: int = 0  # requests the games used (stored or sent)
    sent: int = 0  # requests sent to the model in this run
    tokens: int = 0
    cost: float | None = 0.0  # what the requests cost, stored ones included
    moves: int = 0  # decisions played (one game's usage: its progress line)
    unreadable: int = 0  # of them, replies with no readable move (played as a legal fallback)
    unreadable_steps: int = 0  # a solver's intermediate replies it could not read (werealign.solvers.prompting.UNREADABLE)

    spent: float | None = 0.0  # the cost of the requests sent in this run (None: one had no price)

    def add(self, tokens: int, cost: float | None, sent: bool) -> None:
        self.requests += 1
        self.sent += sent
        self.tokens += tokens
        self.cost = None if self.cost is None or cost is None else self.cost + cost
        if sent:
            self.spent = None if self.spent is None or cost is None else self.spent + cost


class Aborted(Exception):
    """Another game of the run failed: a game still in play stops at its next decision (its replies so far are stored)."""


class StoredRows(Mapping):
    """The store's successful rows, read key by key as a solver asks for them (the solver engine's `known`)."""

    def __init__(self, store: Store):
        self.store = store

    def __getitem__(self, key: str) -> StoredResponse:
        row = self.store.ok_rows([key]).get(key)
        if row is None:
            raise KeyError(key)
        return row

    def __iter__(self) -> Iterator[str]:
        return iter(())  # never listed: looked up one key at a time

    def __len__(self) -> int:
        return 0


@dataclass
class Caller:
    """One model's connection: the call engine (started by werealign.arena.run, which stops it at the end) and the
    event loop it runs on, in a thread of its own, shared by every game in play: each game's thread hands its
    solver to the loop and waits for the reply, so games wait for their models side by side (--parallel)."""

    model: str
    engine: Engine
    loop: asyncio.AbstractEventLoop
    usage: Usage = field(default_factory=Usage)  # the whole run's
    abort: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    inflight: dict[str, asyncio.Future] = field(default_factory=dict)  # request key -> its reply, while it is sent

    async def _send(self, key: str, messages: list[dict[str, str]], params: dict[str, Any], sent: set[str]) -> StoredResponse:
        cache = self.engine.cache
        if cache is not None and (hit := cache.lookup([key]).get(key)) is not None:
            await self.engine.keep(hit)
            return hit
        request = {"model": self.model, "params": params, "messages": messages, "stage": "arena"}
        row, outcome = await self.engine.call(key, request, messages, params, random.Random(key))
        sent.add(key)
        return row

    def solve(self, solver: Solver, state: State, usage: Usage | None = None) -> Solved:
        """Run `solver` on `state` (replayed from the store, else sent); its model steps are added to the run's usage
        and to `usage` (one game's)."""
        if self.abort.is_set():
            raise Aborted
        sent: set[str] = set()

        async def send(key: str, messages: list[dict[str, str]], params: dict[str, Any]) -> StoredResponse:
            # Two games side by side may ask the very same request (the same seat's view on the same deal): it is
            # sent once, and the other waits for it or finds it stored, as it would one game later. On the loop's
            # thread nothing runs between these checks, and a row is stored before it leaves the in-flight table.
            if key in self.inflight:
                return await asyncio.shield(self.inflight[key])
            if (stored := self.engine.store.ok_rows([key]).get(key)) is not None:
                return stored
            done = self.inflight[key] = self.loop.create_future()
            try:
                row = await self._send(key, messages, params, sent)
                done.set_result(row)
                return row
            except asyncio.CancelledError:
                done.cancel()
                raise
            except BaseException as e:
                done.set_exception(e)
                done.exception()  # retrieved: a failure no other game waited for is not logged as lost
                raise
            finally:
                del self.inflight[key]

        try:
            solved = asyncio.run_coroutine_threadsafe(run_solver(solver, self.model, state, StoredRows(self.engine.store), send),
                                                      self.loop).result()
        except (TypeError, ValueError, KeyError, AttributeError) as e:  # a solver made for benchmark items only
            raise UserError(f"--solver {solver.spec or solver.name}: cannot play an arena move ({type(e).__name__}: {e})") from None
        if solved.failed is not None:
            raise UserError(f"model {self.model}: request failed ({solved.failed.error}); "
                            "rerun the same command to resume from the stored replies")
        with self.lock:
            for step in solved.steps:
                if step.kind == "model":
                    for into in (self.usage, usage) if usage is not None else (self.usage,):
                        into.add(step.usage.get("total_tokens", 0) or 0, step.cost, step.key in sent)
        return solved


def move_as_item(view: Context, decision: Decision) -> VoteItem:
    """The decision as a solver sees an item (State.item): the seat deciding and its legal seats, read as a vote
    item reads a seat (a pass: abstaining), so a solver that reads its samples' answers (self-consistency)
    reads a move. Built unvalidated: a move has no answer, and a bid's levels are not seats."""
    return VoteItem.model_construct(id=f"{view.game_id}/{view.cutoff_segment}/{decision.seat}/{decision.kind}", game_id=view.game_id,
                                    viewpoint_seat=decision.seat, phase=view.current_phase or "", cutoff_segment=view.cutoff_segment,
                                    candidates=list(decision.candidates), answer=None, abstention_allowed=decision.none_ok)


def strategy_moment(view: Context, decision: Decision) -> str:
    """The latest point of the game at which Strategy Adaptation re-chooses (its 3.3): after a night's abilities
    (a day has begun), after a day's debate (the exile vote is asked), after a day's vote (its ballots are out).
    A night's moves follow the previous day's vote; night 1's, the start."""
    last = view.phases[-1] if view.phases else None
    if last is None or last.kind == "night":
        day = last.day if last is not None else 1
        return f"day {day - 1}: after the vote" if day > 1 else "the start"
    if decision.kind == "vote":  # a re-vote after a tie too: the voting is not over
        return f"day {last.day}: after the debate"
    if last.kind == "day" and any(e.kind == "vote" and e.phase == last.id for e in view.public_events):
        return f"day {last.day}: after the vote"
    return f"day {last.day}: after the night"


def render_messages(view: Context, decision: Decision, takes: bool = False, notes: list[tuple[int, str]] = ()) -> list[dict[str, str]]:
    lang = template_language(view.language)
    kw = context_vars_for(view)
    kw.update(kind=decision.kind, candidates=seat_list(list(decision.candidates)), none_ok=decision.none_ok,
              about=seat_label(decision.about, lang) if decision.about is not None else "", mentioned=decision.mentioned,
              may_destruct=decision.may_destruct, takes=takes, notes=list(notes), rule_reminder=None)
    return [{"role": "system", "content": render_template(lang, "arena/system", terms=kw["terms"])},
            {"role": "user", "content": render_template(lang, "arena/ask", **kw)}]


def context_vars_for(view: Context) -> dict[str, Any]:
    # context_vars reads the game only for its phases (the view has those begun so far), its language and its
    # rules (public, the board's declared roles among them): a shell of those, never the log itself.
    shell = GameLog.model_construct(phases=list(view.phases), rules=view.rules, game_id=view.game_id, language=view.language,
                                    events=list(view.public_events))
    return context_vars(shell, view, template_language(view.language))


def parse(reply: str, decision: Decision) -> Action | None:
    """The move a reply makes, or None when it makes no legal one."""
    if decision.kind in TEXT_KINDS:
        lines = strip_reasoning(reply).strip().splitlines()
        destruct = decision.may_destruct and bool(lines) and _DESTRUCT.match(lines[-1]) is not None
        text = "\n".join(lines[:-1] if destruct else lines).strip()
        return Action(text=text, destruct=destruct) if text or destruct else None
    value = answer_value(reply)
    if value is None:
        return None
    value = seat_value(value)
    if decision.kind == "bid":
        return Action(choice=int(value)) if value.isdigit() and int(value) in BID_LEVELS else None
    if decision.none_ok and (value.lower() in _PASS or value.startswith("不")):
        return Action(choice=None)
    seat = read_seat(value)
    if seat is None or seat not in decision.candidates:
        return None
    estimates = {int(s): ("wolf" if "狼" in r or "wolf" in r.lower() else "good") for s, r in _ROLE_GUESS.findall(strip_reasoning(reply))}
    return Action(choice=seat, estimates=estimates if decision.kind == "vote" else {})


class LlmAgent:
    """A model and a solver playing one seat. `game` gives the game so far and `others` the tournament's finished
    games: a solver's State carries them as eval's does (the item's game, the dataset's other games), for
    solvers that keep notes against the truth (sa's estimation) or draw on experience (xu, mg); what reaches
    the model is only the seat's prompt and what the solver adds from other games."""

    def __init__(self, model: str, caller: Caller, solver: Solver, declared: list[RoleDeclaration],
                 max_tokens: int = DEFAULT_MAX_TOKENS, takes: bool = False,
                 game: Callable[[], GameLog] | None = None, others: Callable[[], tuple[GameLog, ...]] = tuple,
                 memory: str = "transcript", usage: Usage | None = None, pool: Callable[[], tuple] = tuple):
        self.name = model
        self.usage = usage if usage is not None else Usage()  # this game's requests, moves and unreadable moves
        self.caller = caller
        self.solver = solver
        self.declared = declared
        self.takes = takes
        self.game = game
        self.others = others
        self.memory = memory
        self.notes: dict[int, str] = {}  # memory "summaries": day -> the seat's own summary of it
        self.scratch: dict[str, Any] = {}  # the solver's scratch across this seat's decisions (State.memory)
        self.pool = pool  # recorded experiences of earlier games (State.pool)
        # (seat, phase, decision, reflection, what it did) of each decision its solver reflected on: this game's
        # experience for later games (werealign.solvers.experience.recorded), as Xu et al. and MetaGPT store it
        self.records: list[tuple[int, str, str, str, str]] = []
        self.talk = {"temperature": TEMPERATURE, "max_tokens": max_tokens * TALK_FACTOR}
        self.choice = {"temperature": TEMPERATURE, "max_tokens": max_tokens}

    def sit(self, game: Callable[[], GameLog]) -> None:
        self.game = game

    def act(self, view: Context, decision: Decision) -> Action:
        notes: list[tuple[int, str]] = []
        if self.memory == "summaries":
            view, notes = self._remembered(view)
        messages = render_messages(view, decision, self.takes, notes)
        params = self.talk if decision.kind in TEXT_KINDS else self.choice
        key = request_key(self.name, params, messages)
        game = self.game() if self.game is not None else None
        item = move_as_item(view, decision)
        state = State(messages=messages, params=params, decode=None, task="arena", key=key, others=self.others(), game=game,
                      item=item, read=lambda reply: parse_reply(reply, item, game=game).answer,
                      moment=strategy_moment(view, decision), memory=self.scratch, pool=self.pool())
        solved = self.caller.solve(self.solver, state, self.usage)
        action = parse(solved.reply or "", decision)
        self.usage.moves += 1
        if action is None:
            action = fallback(decision, random.Random(key))
            action.failed = True
            self.usage.unreadable += 1
        action.ratings = _noted_ratings(solved, view)
        action.unreadable_steps = sum(step.kind == "python" and step.name == UNREADABLE for step in solved.steps)
        self.usage.unreadable_steps += action.unreadable_steps
        if decision.kind == "vote" and not action.estimates:
            action.estimates = _sides(action.ratings, self.declared)
        action.key = key
        reflection = next((strip_reasoning(step.output or "").strip() for step in solved.steps if step.kind == "model" and step.name == REFLECT), "")
        if reflection:
            phase = view.phases[-1] if view.phases else None
            self.records.append((decision.seat, phase_label(phase, view.language) if phase else "", decision.kind, reflection,
                                 described(action, decision, view.language)))
        return action


    def _remembered(self, view: Context) -> tuple[Context, list[tuple[int, str]]]:
        """Werewolf Arena's memory: each earlier day as the seat's own summary of it (one stored request per seat
        and day, made the first time a later day is played), today's talk in full."""
        day_of = {p.id: p.day for p in view.phases}
        today = max(day_of.values(), default=1)
        for day in range(1, today):
            if day not in self.notes:
                that_day = replace(view, utterances=tuple(u for u in view.utterances if day_of.get(u.phase) == day))
                lang = template_language(view.language)
                kw = context_vars_for(that_day)
                kw.update(summary_day=day, notes=sorted(self.notes.items()), rule_reminder=None)
                messages = [{"role": "system", "content": render_template(lang, "arena/system", terms=kw["terms"])},
                            {"role": "user", "content": render_template(lang, "arena/summary", **kw)}]
                from werealign.solvers import get_solver

                state = State(messages=messages, params=self.talk, decode=None, task="arena", key=request_key(self.name, self.talk, messages),
                              item=None, game=self.game() if self.game is not None else None, others=())
                self.notes[day] = strip_reasoning(self.caller.solve(get_solver(DEFAULT_SOLVER), state, self.usage).reply or "").strip()
        shown = replace(view, utterances=tuple(u for u in view.utterances if day_of.get(u.phase, today) == today))
        return shown, sorted(self.notes.items())


def described(action: Action, decision: Decision, language: str) -> str:
    """What a move did, as an experience tells it beside the decision asked: the words spoken, or the choice."""
    if decision.kind in TEXT_KINDS:
        return action.text + (" (self-destructs)" if action.destruct else "")
    if action.choice is None:
        return "none"
    return str(action.choice) if decision.kind == "bid" else seat_label(action.choice, template_language(language))


def _noted_ratings(solved: Solved, view: Context) -> dict[int, dict[str, int]]:
    """A solver's 0-4 role ratings of the other seats (sa's `estimation` step: by_seat -> ratings), for analyze's Est."""
    for step in solved.steps:
        if step.kind == "python" and step.name == "estimation" and step.output:
            by_seat = json.loads(step.output).get("by_seat", {})
            return {int(s): dict(v["ratings"]) for s, v in by_seat.items() if int(s) != view.viewpoint_seat and v.get("ratings")}
    return {}


def _sides(ratings: dict[int, dict[str, int]], declared: list[RoleDeclaration]) -> dict[int, str]:
    """Each rated seat's side guess: the side of its one highest-rated role (a tie across sides: no guess)."""
    from werealign.schema.roles import catalogue_for

    catalogue = catalogue_for(declared)
    out = {}
    for seat, r in ratings.items():
        top = max(r.values(), default=0)
        sides = {"wolf" if catalogue.faction(role) == "wolf" else "good" for role, v in r.items() if v == top}
        if top and len(sides) == 1:
            out[seat] = sides.pop()
    return out
