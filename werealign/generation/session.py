"""Asking the model for one stage's replies: content-keyed, resumable, with malformed replies repaired.

`Session.ask(drafts)` sends every draft's request that the store does not hold yet (all of a stage's
requests at once, up to max_connections in flight), parses each reply with the draft's parser and,
when the reply does not fit, asks again in the same conversation with the error fed back (up to
`repairs` times). Every request, repairs included, is keyed by its content and stored the moment
its reply arrives, so a killed run resumes without paying again for any reply it received. What
still fails is recorded with its error and skipped — never a crash.

Each draft leaves one provenance record (stage, unit, model, template and version, seed, request
keys, raw reply, parsed value or error, cost), written to `stages/<stage>.jsonl`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from werealign.generation.model import Outcome, Request, RetryPolicy, Store, StoredResponse, send_all
from werealign.generation.progress import GenProgress
from werealign.live_line import display_mode
from werealign.generation.prompts import repair_message
from werealign.generation.replies import BadReply


@dataclass
class Draft:
    request: Request
    parse: Callable[[str | None], Any]


@dataclass
class Result:
    value: Any  # the parsed reply, or None when the draft was skipped
    record: dict[str, Any]


@dataclass
class Spend:
    sent: int = 0
    failed: int = 0  # of `sent`: requests that finally failed
    first_error: str | None = None
    unparsable: int = 0  # drafts dropped because their reply could not be read, repairs included
    stored: int = 0
    retries: int = 0
    repairs: int = 0
    skipped: int = 0
    cost: float = 0.0
    cost_known: bool = True


@dataclass
class Session:
    store: Store
    model: str  # the model name as the user gave it (what provenance records)
    seed: int
    acompletion: Any = None  # None: nothing may be sent (dry run)
    routed_model: str = ""
    kwargs: dict[str, Any] = field(default_factory=dict)
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    max_connections: int = 4
    repairs: int = 2
    base_params: dict[str, Any] = field(default_factory=dict)  # sent with every request (e.g. max_tokens), part of its key
    json_schema: bool = False  # the provider decodes under a JSON Schema: each request carries its stage's (replies.py)
    quiet: bool = False  # no progress at all; otherwise live on a terminal, plain lines elsewhere
    spend: Spend = field(default_factory=Spend)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    progress: GenProgress = field(init=False)

    def __post_init__(self) -> None:
        self.progress = GenProgress(self.spend, display_mode(self.quiet))

    def request(self, stage: str, unit: str, template: str, messages: list[dict[str, str]], params: dict[str, Any] | None = None,
                schema: dict[str, Any] | None = None) -> Request:
        params = {**self.base_params, **(params or {})}
        if self.json_schema and schema is not None:
            params["response_format"] = {"type": "json_schema", "json_schema": {"name": stage, "schema": schema}}
        return Request(stage=stage, unit=unit, template=template, messages=messages, params=params, model=self.model)

    def ask(self, stage: str, drafts: list[Draft]) -> list[Result]:
        self._ok = self.store.ok_keys()
        current = [d.request for d in drafts]
        chains: list[list[str]] = [[] for _ in drafts]
        results: list[Result | None] = [None] * len(drafts)
        for round_ in range(self.repairs + 1):
            pending = [i for i in range(len(drafts)) if results[i] is None]
            if not pending:
                break
            self._send([current[i] for i in pending], stage, round_)
            rows = self.store.load(with_request=False)
            for i in pending:
                req = current[i]
                chains[i].append(req.key)
                row = rows.get(req.key)
                if row is None or not row.ok:
                    error = f"{row.error_class}: {row.error_message}" if row is not None else "not sent"
                    results[i] = self._skip(stage, drafts[i], chains[i], row, error)
                    continue
                try:
                    value = drafts[i].parse(row.response)
                    results[i] = Result(value, {**self._record(stage, drafts[i], chains[i], row, None), "parsed": value})
                except BadReply as e:
                    if round_ == self.repairs:
                        self.spend.unparsable += 1
                        results[i] = self._skip(stage, drafts[i], chains[i], row, f"malformed reply: {e}")
                    else:
                        self.spend.repairs += 1
                        messages = [*req.messages, {"role": "assistant", "content": row.response or ""}, repair_message(str(e))]
                        current[i] = Request(stage=req.stage, unit=req.unit, template=req.template, messages=messages, params=req.params, model=req.model)
        done = [r for r in results if r is not None]
        self.records.setdefault(stage, []).extend(r.record for r in done)
        return done

    # ------------------------------------------------------------------ internals

    def _send(self, requests: list[Request], stage: str, round_: int) -> None:
        unique = {r.key: r for r in requests}
        todo = [r for k, r in unique.items() if k not in self._ok]
        self.spend.stored += len(unique) - len(todo)
        label = stage if round_ == 0 else f"{stage} (repair {round_})"
        if not todo:
            self.progress.note(f"{label}: {len(unique)} replies already stored")
            return
        if self.acompletion is None:
            raise RuntimeError("a dry run sends nothing")

        def on_event(event: str) -> None:
            if event == "retry_wait":
                self.spend.retries += 1
            self.progress.event(event)

        def on_done(outcome: Outcome) -> None:
            self.spend.sent += 1
            if not outcome.ok:
                self.spend.failed += 1
                self.spend.first_error = self.spend.first_error or f"{outcome.error_class}: {outcome.error_message}"
            if outcome.cost is None:
                self.spend.cost_known = self.spend.cost_known and not outcome.ok
            else:
                self.spend.cost += outcome.cost
            self.progress.done()

        self.progress.stage_start(label, len(todo), len(unique) - len(todo))
        try:
            asyncio.run(send_all(todo, self.store, acompletion=self.acompletion, routed_model=self.routed_model, kwargs=self.kwargs,
                                 policy=self.policy, max_connections=self.max_connections, seed=self.seed, on_event=on_event, on_done=on_done))
        except BaseException:  # a live display must not outlive an interrupted stage
            self.progress.stage_end(interrupted=True)
            raise
        self.progress.stage_end()
        self._ok = self.store.ok_keys()

    def cost_text(self) -> str:
        return self.progress.cost_text()

    def _record(self, stage: str, draft: Draft, chain: list[str], row: StoredResponse | None, error: str | None) -> dict[str, Any]:
        req = draft.request
        return {
            "stage": stage, "unit": req.unit, "model": self.model, "template": req.template,
            "seed": req.params.get("seed", self.seed), "keys": list(chain),
            "reply": row.response if row is not None else None, "error": error,
            "cost": row.cost if row is not None else None, "attempts": row.attempts if row is not None else 0, "parsed": None,
        }

    def _skip(self, stage: str, draft: Draft, chain: list[str], row: StoredResponse | None, error: str) -> Result:
        self.spend.skipped += 1
        return Result(None, self._record(stage, draft, chain, row, error))
