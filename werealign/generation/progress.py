"""What a person watching `werealign generate` sees: the stage, its requests, retries, repairs and spend.

On a terminal, a rich Live line (refreshed 4 times a second, same style as evaluation's) while a
stage's requests are in flight, and one kept line per finished stage. In a pipe or a CI log, plain
lines: when a stage starts and ends, and at most every LINE_EVERY seconds in between, so a long
stage still shows it is alive without flooding the log. With --quiet, nothing. Everything goes to
stderr; stdout is left for the command's summary.

Counters of money and repairs live in the session's Spend (it owns them for the final summary);
this module only reads them and counts what is in flight.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol

from werealign.live_line import Mode, start_live, stop_live

LINE_EVERY = 30.0  # seconds between plain progress lines within one stage


class SpendView(Protocol):
    sent: int
    retries: int
    repairs: int
    skipped: int
    cost: float
    cost_known: bool


class GenProgress:
    def __init__(self, spend: SpendView, mode: Mode = "off", *, clock: Any = time.monotonic, out: Any = None) -> None:
        self.spend = spend
        self.mode = mode
        self._clock = clock
        self._out = out  # a file for plain lines (default: sys.stderr at the time of writing)
        self._live: Any = None
        self.label = ""
        self.total = 0
        self.stored = 0
        self.finished = 0
        self.waiting = 0  # requests sleeping before a retry right now
        self._started = 0.0
        self._last_line = 0.0

    # ---- the session's hooks
    def note(self, text: str) -> None:
        """A one-off line (a stage with every reply already stored, a skipped game)."""
        self._print(text)

    def stage_start(self, label: str, total: int, stored: int) -> None:
        self.label, self.total, self.stored, self.finished, self.waiting = label, total, stored, 0, 0
        self._started = self._last_line = self._clock()
        self._print(f"{label}: sending {total} request{'s' * (total != 1)} ({stored} stored)")
        if self.mode == "live":
            self._live = start_live(self._render)

    def event(self, name: str) -> None:
        if name == "retry_wait":
            self.waiting += 1
        elif name == "retry_done":
            self.waiting = max(0, self.waiting - 1)

    def done(self) -> None:
        self.finished += 1
        if self.mode == "lines" and self._clock() - self._last_line >= LINE_EVERY:
            self._print(self.line())

    def stage_end(self, interrupted: bool = False) -> None:
        stop_live(self._live)
        self._live = None
        self._print(f"{self.label}: {'interrupted' if interrupted else 'done'}; {self.totals()}")

    # ---- text
    def cost_text(self) -> str:
        return f"${self.spend.cost:.4f}" + ("" if self.spend.cost_known else " (+ unpriced)")

    def totals(self) -> str:
        s = self.spend
        return f"sent {s.sent} in all, {s.retries} retries, {s.repairs} repairs, {s.skipped} skipped, spend {self.cost_text()}"

    def line(self) -> str:
        elapsed = self._clock() - self._started
        waiting = f" ({self.waiting} waiting to retry)" if self.waiting else ""
        return f"{self.label}: {self.finished}/{self.total} replies{waiting} | {self.totals()} | {elapsed:.0f}s"

    def _render(self) -> Any:
        from rich.text import Text

        return Text(self.line())

    def _print(self, text: str) -> None:
        if self.mode == "off":
            return
        self._last_line = self._clock()
        if self._live is not None:
            self._live.console.print(f"[generate] {text}", markup=False, highlight=False)
        else:
            print(f"[generate] {text}", file=self._out or sys.stderr, flush=True)
