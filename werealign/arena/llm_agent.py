"""The LLM agent: one stored model request per decision (solver `single`).

The prompt is the seat's context worded as in evaluation (werealign/render/templates/*/context) plus
the decision asked (templates/*/arena/ask). Every request goes through `Caller`, which keys it by its
content (model, parameters, messages) in DIR's responses.sqlite: a rerun replays the stored replies and
pays nothing again, and since every prompt follows from the seed and the replies before it, the same
seed replays the same games. A reply that cannot be read is played as a legal fallback and counted.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from werealign.arena.moves import BID_LEVELS, TEXT_KINDS, Action, Decision, fallback
from werealign.errors import UserError
from werealign.game.visibility import Context
from werealign.llm.engine import Engine
from werealign.llm.store import StoredResponse
from werealign.render.context import context_vars
from werealign.render.lines import seat_label, seat_list
from werealign.render.prompt_templates import render_template
from werealign.schema import GameLog
from werealign.schema.models import Rules
from werealign.schema.roles import RoleDeclaration
from werealign.tasks.answers import answer_value, read_seat, seat_value, strip_reasoning

ARENA_TEMPLATE_LANG = "en"  # the arena's prompts exist in English only so far
TEMPERATURE = 0.7
# A choice's reply budget (`--max-tokens`); talk gets TALK_FACTOR times as much for a few sentences.
DEFAULT_MAX_TOKENS = 128
TALK_FACTOR = 4
_ROLE_GUESS = re.compile(r"(\d{1,2})\s*[=:]\s*(wolf|werewolf|good|villager)", re.I)


def request_key(model: str, params: dict[str, Any], messages: list[dict[str, str]]) -> str:
    blob = json.dumps({"model": model, "params": params, "messages": messages}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class Usage:
    requests: int = 0  # requests the games used (stored or sent)
    sent: int = 0  # requests sent to the model in this run
    tokens: int = 0
    cost: float | None = 0.0

    def add(self, row: StoredResponse, sent: bool) -> None:
        self.requests += 1
        self.sent += sent
        self.tokens += (row.usage or {}).get("total_tokens", 0)
        self.cost = None if self.cost is None or row.cost is None else self.cost + row.cost


@dataclass
class Caller:
    """One model's requests: from the store if there, else from the shared cache, else sent through the call
    engine (werealign.llm.engine: retries, prompt-cache markers, kept in the store and cache on arrival).
    The moderator asks one decision at a time, so each request drives the loop itself."""

    model: str
    engine: Engine  # started by the caller's owner (werealign.arena.run), which stops it at the end
    loop: asyncio.AbstractEventLoop
    usage: Usage = field(default_factory=Usage)

    def complete(self, messages: list[dict[str, str]], params: dict[str, Any]) -> tuple[str, str]:
        key = request_key(self.model, params, messages)
        row = self.engine.store.ok_rows([key]).get(key)
        sent = False
        if row is None and self.engine.cache is not None and (hit := self.engine.cache.lookup([key]).get(key)) is not None:
            self.loop.run_until_complete(self.engine.keep(hit))
            row = hit
        if row is None:
            request = {"model": self.model, "params": params, "messages": messages, "stage": "arena"}
            row, outcome = self.loop.run_until_complete(self.engine.call(key, request, messages, params, random.Random(key)))
            if not outcome.ok:
                raise UserError(f"model {self.model}: request failed ({outcome.error_class}: {outcome.error_message}); "
                                "rerun the same command to resume from the stored replies")
            sent = True
        self.usage.add(row, sent)
        return row.response or "", key


def render_messages(view: Context, decision: Decision, declared: list[RoleDeclaration]) -> list[dict[str, str]]:
    lang = ARENA_TEMPLATE_LANG
    kw = context_vars_for(view, lang, declared)
    kw.update(kind=decision.kind, candidates=seat_list(list(decision.candidates)), none_ok=decision.none_ok,
              about=seat_label(decision.about, lang) if decision.about is not None else "", mentioned=decision.mentioned,
              rule_reminder=None)
    return [{"role": "system", "content": render_template(lang, "arena/system")},
            {"role": "user", "content": render_template(lang, "arena/ask", **kw)}]


def context_vars_for(view: Context, lang: str, declared: list[RoleDeclaration]) -> dict[str, Any]:
    # context_vars reads the game only for its phases (the view has those begun so far) and the roles
    # the board declares (public rules): a shell of those two, never the log itself.
    shell = GameLog.model_construct(phases=list(view.phases), rules=Rules.model_construct(declared_roles=declared), game_id=view.game_id)
    return context_vars(shell, view, lang)


def parse(reply: str, decision: Decision) -> Action | None:
    """The move a reply makes, or None when it makes no legal one."""
    if decision.kind in TEXT_KINDS:
        text = strip_reasoning(reply).strip()
        return Action(text=text) if text else None
    value = answer_value(reply)
    if value is None:
        return None
    value = seat_value(value)
    if decision.kind == "bid":
        return Action(choice=int(value)) if value.isdigit() and int(value) in BID_LEVELS else None
    if decision.none_ok and value.lower() in ("none", "no", "pass", "0"):
        return Action(choice=None)
    seat = read_seat(value)
    if seat is None or seat not in decision.candidates:
        return None
    estimates = {int(s): ("wolf" if "wolf" in r.lower() else "good") for s, r in _ROLE_GUESS.findall(strip_reasoning(reply))}
    return Action(choice=seat, estimates=estimates if decision.kind == "vote" else {})


class LlmAgent:
    def __init__(self, model: str, caller: Caller, declared: list[RoleDeclaration], max_tokens: int = DEFAULT_MAX_TOKENS):
        self.name = model
        self.caller = caller
        self.declared = declared
        self.talk = {"temperature": TEMPERATURE, "max_tokens": max_tokens * TALK_FACTOR}
        self.choice = {"temperature": TEMPERATURE, "max_tokens": max_tokens}

    def act(self, view: Context, decision: Decision) -> Action:
        messages = render_messages(view, decision, self.declared)
        reply, key = self.caller.complete(messages, self.talk if decision.kind in TEXT_KINDS else self.choice)
        action = parse(reply, decision)
        if action is None:
            action = fallback(decision, random.Random(key))
            action.failed = True
        action.key = key
        return action
