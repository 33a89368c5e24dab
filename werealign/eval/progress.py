"""What a person watching a run sees: a live line while requests are in flight, a summary table at the end.

The live display only runs on a terminal (and not with --quiet); in a pipe or a CI log it stays silent,
so logs hold the summary and nothing else. The summary goes to stderr, stdout is left for data.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from werealign.llm.client import Outcome
from werealign.schema.runs import Results, TaskScores


class Progress:
    """Counters fed by the runner (event/done) and, on a TTY, a rich Live line refreshed 4 times a second."""

    def __init__(self, total: int, cached: int, *, live: bool) -> None:
        self.total = total
        self.done_count = cached
        self.cached = cached
        self.errors = 0
        self.attempts = 0
        self.retries_in_flight = 0
        self.retries = 0
        self.tokens = 0
        self.cost = 0.0
        self.cost_known = True
        self._live_enabled = live
        self._live: Any = None
        self._started = time.perf_counter()

    # ---- hooks the runner calls
    def event(self, name: str) -> None:
        if name == "attempt":
            self.attempts += 1
        elif name == "retry_wait":
            self.retries += 1
            self.retries_in_flight += 1
        elif name == "retry_done":
            self.retries_in_flight -= 1

    def done(self, outcome: Outcome) -> None:
        self.done_count += 1
        if not outcome.ok:
            self.errors += 1
            return
        self.tokens += (outcome.usage or {}).get("total_tokens", 0)
        if outcome.cost is None:
            self.cost_known = False
        else:
            self.cost += outcome.cost

    # ---- display
    def start(self) -> None:
        if not self._live_enabled:
            return
        from rich.console import Console
        from rich.live import Live

        self._live = Live(get_renderable=self._render, console=Console(stderr=True), refresh_per_second=4, transient=True)
        self._live.start()

    def stop(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def line(self) -> str:
        elapsed = time.perf_counter() - self._started
        sent = self.done_count - self.cached
        rate = sent / elapsed if elapsed > 0 else 0.0
        cost = f"${self.cost:.4f}" if self.cost_known else "cost unknown"
        return (
            f"{self.done_count}/{self.total} done ({self.cached} cached) | errors {self.errors} | "
            f"retrying {self.retries_in_flight} ({self.retries} retries) | {self.tokens} tokens | {cost} | {rate:.1f} req/s"
        )

    def _render(self) -> Any:
        from rich.text import Text

        return Text(self.line())


def make_progress(quiet: bool):
    """A factory for the runner: a live display only when stderr is a terminal and not --quiet."""
    live = not quiet and sys.stderr.isatty()

    def factory(total: int, cached: int) -> Progress:
        return Progress(total, cached, live=live)

    return factory


def _fmt(x: Any, pct: bool = True) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}" if pct else str(x)


def _detail(r: TaskScores) -> str:
    """The secondary numbers a task reports, when it has them."""
    by_dimension = getattr(r, "by_dimension", None)
    if by_dimension:
        return " ".join(f"{d}={_fmt(v.accuracy)}" for d, v in by_dimension.items())
    if getattr(r, "exact_match", None) is not None:
        return f"exact={_fmt(r.exact_match)} P={_fmt(r.precision)} R={_fmt(r.recall)} F1={_fmt(r.f1)}"
    return ""


def summary_table(results: Results, *, run_dir: str, sent: int, cached: int) -> Any:
    """A rich Table of the headline scores per variant and task."""
    from rich.table import Table

    totals = results.totals
    usage = results.usage
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "unknown"
    table = Table(
        title=f"{results.model} on {results.dataset.name} {results.dataset.version}",
        caption=(
            f"{run_dir}: {sent} requests sent, {cached} cached; request errors {totals.request_errors}, "
            f"parse failures {totals.parse_failures}, missing {totals.missing}; "
            f"tokens {usage.prompt_tokens}+{usage.completion_tokens}, cost {cost}"
        ),
    )
    for col in ("variant", "task", "metric", "score %", "± std", "answered", "parse fail", "req err", "detail"):
        table.add_column(col, justify="right" if col not in ("variant", "task", "metric", "detail") else "left")
    for variant, tasks in results.variants.items():
        for task, r in tasks.items():
            table.add_row(
                variant,
                task,
                r.metric,
                _fmt(r.primary),
                _fmt(getattr(r, f"{r.metric}_std", None)),  # every task names its decode std <metric>_std
                str(r.answered),
                str(r.parse_failures),
                str(r.request_errors),
                _detail(r),
            )
    return table


def print_summary(results: Results, *, run_dir: str, sent: int, cached: int) -> None:
    from rich.console import Console

    console = Console(stderr=True, width=160 if not sys.stderr.isatty() else None)
    console.print(summary_table(results, run_dir=run_dir, sent=sent, cached=cached))
    truncated = results.totals.truncated_replies
    if truncated:
        console.print(
            f"{truncated} replies were cut at --max-tokens (finish_reason 'length'); "
            "a larger --max-tokens lets them reach their answer line (a new run: it changes the requests)."
        )
