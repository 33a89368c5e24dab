"""What a person watching a run sees: a live line while requests are in flight, a summary at the end.

- On a terminal: a live line per run (percentage, ETA, errors, retries, tokens, cost), refreshed 4 times
  a second and gone when the run ends.
- Without one (stderr is a file, a pipe, a CI log): occasional plain lines, one per 10% of the requests
  and otherwise at most one per `PLAIN_EVERY` seconds (more widely spaced as the run gets longer), so a
  log shows that the run advances without being flooded.
- `--quiet`: nothing.
A resumed run says so before sending, with what its store already holds and what that cost.
The summary fits an 80-column terminal: one main table, then the details (per dimension, OI set scores,
by the viewpoint's role, floors, the context gain when base and no-context both ran) in small tables of their own. Everything goes to stderr; stdout is
left for data.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from werealign.live_line import display_mode, start_live, stop_live
from werealign.llm.client import Outcome
from werealign.llm.store import Paid
from werealign.schema.runs import Results

PLAIN_EVERY = 30.0  # seconds: the shortest gap between two time-based plain progress lines
WIDTH = 80  # the summary is laid out for this many columns (and printed at it when stderr is not a terminal)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def _money(cost: float | None) -> str:
    return "cost unknown" if cost is None else f"${cost:.4f}"


class Progress:
    """Counters fed by the runner (event/done) and their display: live on a TTY, plain lines, or none."""

    def __init__(
        self, total: int, cached: int, *, live: bool, plain: bool = False, label: str | None = None, announce: bool | None = None
    ) -> None:
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
        self.label = label
        self._live_enabled = live
        self._plain = plain and not live
        self._announce = (live or plain) if announce is None else announce  # say "resuming" (not with --quiet)
        self._live: Any = None
        self._started = time.perf_counter()
        self._last_line = self._started
        self._said = -1  # done_count when the last plain line was printed
        self._next_step = self._step_of(cached) + 1  # the next 10% step that earns a plain line

    # ---- hooks the runner calls
    def event(self, name: str) -> None:
        if name == "attempt":
            self.attempts += 1
        elif name == "retry_wait":
            self.retries += 1
            self.retries_in_flight += 1
        elif name == "retry_done":
            self.retries_in_flight -= 1
        if self._plain:
            self._maybe_plain_line()  # a run stuck in retries still shows a line now and then

    def done(self, outcome: Outcome) -> None:
        self.done_count += 1
        if not outcome.ok:
            self.errors += 1
        else:
            self.tokens += (outcome.usage or {}).get("total_tokens", 0)
            if outcome.cost is None:
                self.cost_known = False
            else:
                self.cost += outcome.cost
        if self._plain:
            self._maybe_plain_line()

    def resuming(self, paid: Paid, *, missing: int, from_cache: int = 0) -> None:
        """Said once, before sending: this run continues a directory that already holds replies."""
        if not self._announce:
            return
        cached = f"{from_cache} more from the shared response cache; " if from_cache else ""
        left = f"{missing} request(s) left to send" if missing else "nothing left to send"
        self._say(f"resuming: {paid.requests} replies already stored ({_money(paid.cost)} already paid); {cached}{left}")

    # ---- display
    def start(self) -> None:
        self._started = self._last_line = time.perf_counter()
        if self._plain:
            self._say(self.line(), labelled=True)
        if self._live_enabled:
            self._live = start_live(self._render)

    def stop(self) -> None:
        if self._live is not None:
            stop_live(self._live)
            self._live = None
        elif self._plain and self.done_count > self.cached and self._said != self.done_count:
            self._say(self.line(), labelled=True)  # the last count, unless the last line already said it

    def percent(self) -> float:
        return 100.0 * self.done_count / self.total if self.total else 100.0

    def eta(self) -> float | None:
        """Seconds left at this session's rate; None before the first reply of this session."""
        sent = self.done_count - self.cached
        elapsed = time.perf_counter() - self._started
        if sent <= 0 or elapsed <= 0:
            return None
        return (self.total - self.done_count) * elapsed / sent

    def line(self) -> str:
        elapsed = time.perf_counter() - self._started
        sent = self.done_count - self.cached
        rate = sent / elapsed if elapsed > 0 else 0.0
        cost = f"${self.cost:.4f}" if self.cost_known else "cost unknown"
        eta = self.eta()
        when = "done" if self.done_count >= self.total else ("ETA --" if eta is None else f"ETA {_duration(eta)}")
        head = f"{self.label}: " if self.label else ""
        cached = f" ({self.cached} cached)" if self.cached else ""  # kept short: a log line fits 80 columns
        retrying = f"retrying {self.retries_in_flight} ({self.retries} retries)" if self.retries else ""
        core = f"{self.percent():.0f}% {self.done_count}/{self.total} done{cached} | {when} | errors {self.errors}"
        # A labelled line (several models at once, in a log) fits 80 columns: the least needed figures
        # go first (the rate, the cost, the tokens, then the retries, then the word "done"), and only
        # then is the label shortened.
        extras = [*([retrying] if retrying else []), f"{_compact(self.tokens)} tokens", cost, f"{rate:.1f} req/s"]
        while head and extras and len(" | ".join([head + core, *extras])) > LINE_WIDTH:
            extras.pop()
        line = " | ".join([head + core, *extras])
        if len(line) > LINE_WIDTH and head:  # "26% 51/200" says it without "done"
            line = line.replace(f"{self.total} done", f"{self.total}", 1)
        if len(line) > LINE_WIDTH and head:
            keep = max(8, len(head) - (len(line) - LINE_WIDTH) - 1)
            line = head[: keep // 2] + "…" + head[len(head) - (keep - keep // 2):] + line[len(head):]
        return line

    def _render(self) -> Any:
        from rich.text import Text

        return Text(self.line())

    def _step_of(self, count: int) -> int:
        return int(10 * count / self.total) if self.total else 10

    def _maybe_plain_line(self) -> None:
        """A line at each 10% step, or when none was printed for PLAIN_EVERY s (or a third of the run so far)."""
        now = time.perf_counter()
        step = self._step_of(self.done_count)
        quiet_for = max(PLAIN_EVERY, (now - self._started) / 3)
        if step >= self._next_step or now - self._last_line >= quiet_for:
            self._next_step = max(self._next_step, step + 1)
            self._say(self.line(), labelled=True)

    def _say(self, text: str, labelled: bool = False) -> None:
        self._last_line = time.perf_counter()
        self._said = self.done_count
        prefix = f"{self.label}: " if self.label and not labelled and not text.startswith(f"{self.label}: ") else ""
        print(prefix + text, file=sys.stderr, flush=True)


LINE_WIDTH = 80


class Board:
    """The progress of several runs sent at once: one Progress per model, one live display for all."""

    def __init__(self, *, live: bool, plain: bool) -> None:
        self._live_enabled = live
        self._plain = plain
        self.rows: list[Progress] = []
        self._live: Any = None

    def add(self, label: str, total: int, cached: int) -> Progress:
        # On a terminal the board draws every row in one live display; each row still says "resuming" itself.
        row = Progress(total, cached, live=False, plain=self._plain, label=label, announce=True)
        self.rows.append(row)
        return row

    def start(self) -> None:
        for row in self.rows:
            row.start()
        if self._live_enabled:
            self._live = start_live(self._render)

    def stop(self) -> None:
        stop_live(self._live)
        self._live = None
        for row in self.rows:
            row.stop()

    def _render(self) -> Any:
        from rich.console import Group
        from rich.text import Text

        return Group(*(Text(row.line(), overflow="ellipsis", no_wrap=True) for row in self.rows))


def make_progress(quiet: bool):
    """A factory for the runner: live on a terminal, plain lines otherwise, nothing with --quiet."""
    mode = display_mode(quiet)
    live, plain = mode == "live", mode == "lines"

    def factory(total: int, cached: int) -> Progress:
        return Progress(total, cached, live=live, plain=plain)

    return factory


def make_board(quiet: bool) -> Board | None:
    """The display of a several-model eval (None with --quiet)."""
    mode = display_mode(quiet)
    return None if mode == "off" else Board(live=mode == "live", plain=mode == "lines")


def _compact(n: int) -> str:
    """12, 9876, 146k, 2.4M: a token count that keeps the progress line short."""
    return str(n) if n < 10_000 else f"{n / 1000:.0f}k" if n < 1_000_000 else f"{n / 1_000_000:.1f}M"


def _fmt(x: Any, pct: bool = True) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}" if pct else str(x)


def _table(title: str, columns: list[str], *, left: int = 1) -> Any:
    """A borderless table, columns two spaces apart: the narrowest rich layout that stays readable."""
    from rich.table import Table

    # min_width: a title is never wrapped into the width of a narrow table
    table = Table(title=title, box=None, pad_edge=False, title_justify="left", header_style="bold", min_width=len(title))
    for i, col in enumerate(columns):  # a long name (a model, a shortcut list) wraps within its cell, never cut with "…"
        table.add_column(col, justify="left" if i < left else "right", overflow="fold")
    return table


def _short(model: str | None) -> str:
    return "-" if not model else model.removeprefix("werealign/")


def summary_table(results: Results, *, run_dir: str, sent: int, cached: int) -> Any:
    """The main table: one row per variant and task, headline score in %, what it covers, margin over the floors."""
    totals = results.totals
    usage = results.usage
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "unknown"
    table = _table(
        f"{results.model} on {results.dataset.name} {results.dataset.version} (scores in %)",
        ["variant", "task", "metric", "score", "± std", "answered\nonly", "coverage", "vs best\nfloor"],
        left=3,
    )
    table.caption = (
        f"{run_dir}: {sent} requests sent, {cached} cached; request errors {totals.request_errors}, "
        f"parse failures {totals.parse_failures}, missing {totals.missing}; "
        f"tokens {usage.prompt_tokens}+{usage.completion_tokens}, cost {cost}"
    )
    table.caption_justify = "left"
    for variant, tasks in results.variants.items():
        for task, r in tasks.items():
            floors = r.floors
            margin = r.primary - floors.best_score if floors and r.primary is not None and floors.best_score is not None else None
            table.add_row(
                variant,
                task,
                r.metric,
                _fmt(r.primary),
                _fmt(getattr(r, f"{r.metric}_std", None)),  # every task names its decode std <metric>_std
                _fmt(getattr(r, f"{r.metric}_answered", None)),
                _fmt(r.coverage),
                "-" if margin is None else f"{100 * margin:+.1f}",
            )
    return table


def dimension_table(results: Results) -> Any | None:
    """Accuracy per dimension and variant of the first kind scored by dimension (speech), None without one."""
    kind = next((k for t in results.variants.values() for k, r in t.items() if getattr(r, "by_dimension", None)), None)
    if kind is None:
        return None
    rows = {v: t[kind] for v, t in results.variants.items() if getattr(t.get(kind), "by_dimension", None)}
    dims = list(dict.fromkeys(d for r in rows.values() for d in r.by_dimension))
    table = _table(f"{kind}: accuracy by dimension (%)", ["variant", *dims, "macro"])
    for variant, r in rows.items():
        table.add_row(variant, *(_fmt(r.by_dimension[d].accuracy) if d in r.by_dimension else "-" for d in dims), _fmt(r.primary))
    return table


def set_table(results: Results) -> Any | None:
    """The set scores of a kind answered with a set of seats (OI), beside its headline (None without them)."""
    # Only blocks that score seat sets (OI roles mode has an exact_match too, but no set to score).
    found = {(v, k): r for v, t in results.variants.items() for k, r in t.items() if hasattr(r, "mean_jaccard")
             and (getattr(r, "exact_match", None) is not None or getattr(r, "f1", None) is not None)}
    if not found:
        return None
    rows = {v: r for (v, _), r in found.items()}
    table = _table(f"{next(iter(found))[1]}: set scores (%)", ["variant", "jaccard", "exact set", "precision", "recall", "F1"])
    for variant, r in rows.items():
        table.add_row(variant, *(_fmt(getattr(r, f, None)) for f in ("mean_jaccard", "exact_match", "precision", "recall", "f1")))
    return table


def role_table(results: Results) -> Any | None:
    """The headline score by the viewpoint player's true role: score % (answered samples), per task."""
    tasks = list(dict.fromkeys(k for t in results.variants.values() for k in t))
    if not any(r.by_viewpoint_role for t in results.variants.values() for r in t.values()):
        return None
    table = _table("by viewpoint role: score % (n answered)", ["variant", "role", *tasks], left=2)
    for variant, by_task in results.variants.items():
        roles = list(dict.fromkeys(role for r in by_task.values() for role in r.by_viewpoint_role))
        for role in roles:
            cells = []
            for task in tasks:
                score = by_task[task].by_viewpoint_role.get(role) if task in by_task else None
                cells.append("-" if score is None else f"{_fmt(score.score)} ({score.answered})")
            table.add_row(variant, role, *cells)
    return table


def floor_table(results: Results) -> Any | None:
    """What chance and the shortcut models score on the same prompts, in each task's metric."""
    rows = [(v, k, r.floors) for v, t in results.variants.items() for k, r in t.items() if r.floors is not None]
    if not rows:
        return None
    table = _table("floors: the same prompts answered without judgment (%)", ["variant", "task", "chance", "shortcut models"], left=2)
    table.columns[3].justify = "left"
    for variant, task, floors in rows:
        shortcuts = ", ".join(f"{_short(m)} {_fmt(x)}" for m, x in floors.shortcuts.items())
        table.add_row(variant, task, _fmt(floors.chance), shortcuts or "-")
    return table


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def context_gain_table(results: Results) -> Any | None:
    """Base minus no-context per task and speech dimension, with its interval (None unless both ran)."""
    cg = results.context_gain
    if cg is None:
        return None
    table = _table("context gain: base minus no-context (points, 95% interval)",
                   ["task", "metric", "gain", "interval", "items", "games", "design"], left=2)
    table.columns[-1].justify = "left"
    flagged = False

    def row(name: str, metric: str, g: Any) -> None:
        nonlocal flagged
        flagged |= not g.above_zero
        mark = "" if g.above_zero else " !"
        table.add_row(name, metric, _points(g.gain) + mark, f"[{_points(g.low)}, {_points(g.high)}]",
                      str(g.items), str(g.games), g.design)

    for task, g in cg.tasks.items():
        row(task, g.metric, g)
        for dim, d in g.by_dimension.items():
            row(f"  {dim}", "accuracy", d)
    if flagged:
        table.caption = "! not above zero (interval reaches 0, or under 5 games): no sign the score needs the game"
        table.caption_justify = "left"
    return table


def summary(results: Results, *, run_dir: str, sent: int, cached: int) -> Any:
    """Everything the end-of-run summary shows, laid out for 80 columns."""
    from rich.console import Group

    parts: list[Any] = [summary_table(results, run_dir=run_dir, sent=sent, cached=cached)]
    for detail in (dimension_table(results), set_table(results), role_table(results), floor_table(results),
                   context_gain_table(results)):
        if detail is not None:
            parts += ["", detail]
    return Group(*parts)


def summary_warnings(results: Results, *, limit: int | None = None) -> list[str]:
    """What makes the headline numbers not comparable: macro averages over different dimensions, a --limit."""
    out = []
    sliced = dict.fromkeys(k for tasks in results.variants.values() for k, r in tasks.items() if hasattr(r, "dimensions"))
    for kind in sliced:  # a kind whose headline is a macro average over dimensions (speech)
        covered = {variant: tuple(getattr(tasks[kind], "dimensions", None) or ()) for variant, tasks in results.variants.items() if kind in tasks}
        if len(set(covered.values())) > 1:
            which = "; ".join(f"{v}: {','.join(d)}" for v, d in covered.items())
            out.append(f"the {kind} macro averages cover different dimensions per variant ({which}): they are not comparable")
    if limit is not None:
        out.append(f"--limit {limit}: scores cover a seeded sample of the items, not the dataset")
    return out


def print_summary(results: Results, *, run_dir: str, sent: int, cached: int, limit: int | None = None) -> None:
    from rich.console import Console

    console = Console(stderr=True, width=WIDTH if not sys.stderr.isatty() else None)
    console.print(summary(results, run_dir=run_dir, sent=sent, cached=cached))
    for warning in summary_warnings(results, limit=limit):
        console.print(f"warning: {warning}")
    if (est := results.estimation) is not None:
        what = "mean Acc (0-4 ratings, Nakamori et al.)" if est.metric == "acc" else "of seats right"
        console.print(f"role estimates: {100 * est.accuracy:.1f}% [{100 * est.low:.1f}, {100 * est.high:.1f}] {what} "
                      f"({est.seats} seats, {est.samples} samples, {est.games} games)")
    truncated = results.totals.truncated_replies
    if truncated:
        console.print(
            f"{truncated} replies were cut at --max-tokens (finish_reason 'length'); "
            "a larger --max-tokens lets them reach their answer line (a new run: it changes the requests)."
        )


def comparison(outcomes: list[Any]) -> Any:
    """Several models side by side: the headline score of each task (first variant), and how each run ended.

    `outcomes`: werealign.eval.runner.ModelOutcome. Renders within 80 columns.
    """
    from rich.markup import escape

    scored = [o.summary.results for o in outcomes if o.summary is not None]
    variant = next((v for r in scored for v in r.variants), None)
    tasks = list(dict.fromkeys(t for r in scored for t in r.variants.get(variant, {})))
    # The context gain of each task beside the scores (points; "!" when its interval is not above zero).
    gains = list(dict.fromkeys(t for r in scored if r.context_gain is not None for t in r.context_gain.tasks))
    table = _table(f"models compared ({variant or 'no'} variant, scores in %)", ["model", *tasks, *(f"{t}\ngain" for t in gains), "run"])
    table.columns[-1].justify = "left"
    for o in outcomes:
        r = o.summary.results if o.summary is not None else None
        cells = [_fmt(r.variants[variant][t].primary) if r is not None and t in r.variants.get(variant, {}) else "-" for t in tasks]
        for t in gains:
            g = r.context_gain.tasks.get(t) if r is not None and r.context_gain is not None else None
            cells.append("-" if g is None else _points(g.gain) + ("" if g.above_zero else "!"))
        if not o.ok:
            status = "failed"
        elif not r.complete:
            status = f"partial ({r.totals.request_errors} request errors)"
        else:
            status = "complete"
        if r is not None and r.totals.parse_failures:  # replies that answered nothing, counted as wrong
            status += f", {r.totals.parse_failures} unparsable"
        table.add_row(escape(o.job.label), *cells, status)  # a solver label `m [cot]` is not rich markup
    return table


def leaderboard_command(outcomes: list[Any]) -> str | None:
    """The exact command that compares the scored runs with intervals and significance (None for fewer than two)."""
    import shlex

    done = [o.summary.run_dir for o in outcomes if o.summary is not None]
    if len(done) < 2:
        return None
    return "werealign leaderboard " + " ".join(shlex.quote(str(d)) for d in done) + " --format md"


def print_comparison(outcomes: list[Any]) -> None:
    from rich.console import Console

    if all(o.summary is None for o in outcomes):
        return  # nothing was scored: the errors below say why
    console = Console(stderr=True, width=WIDTH if not sys.stderr.isatty() else None)
    console.print(comparison(outcomes))
    if command := leaderboard_command(outcomes):
        console.print("\nintervals, significance and every variant:")
        console.print(command, soft_wrap=True, markup=False, highlight=False)  # one line, to copy as it is
