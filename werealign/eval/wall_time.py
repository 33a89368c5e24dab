"""How long a local model would take on a run, from a short timed probe, before anything of the run is sent.

A local model (a served built-in, local/smollm2) is only as fast as this machine is now: the release with defaults
planned 2,340 requests, and on two shared cores its first reply came after ten minutes (issue 46). So before
sending, eval asks the model once (werealign.llm.speed_probe: a real prompt of the run, of median length, with a
reply of a few tokens) how fast it reads and writes, and estimates the run from the requests still to send:

- the prompt tokens each request makes the model read: its tokens as the model counts them (our count, scaled by
  the probe's ratio of the model's count to ours), less the prefix it shares with the request sent before it (the
  server keeps the last prompt: the decodes of one item, sent together, differ only in their options' order);
- the reply tokens: the reply budget (--max-tokens), or ANSWER_LINE_TOKENS when the model answers under the answer
  line's grammar (werealign.eval.answer_grammar), at the probe's writing speed.

A run over an hour is refused unless --limit or --yes is given, naming a command that fits (werealign.commands.eval).
What is not measured: a machine that gets busier or idler during the run, and replies shorter than the budget.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from werealign.eval.plan import Planned, plan_run
from werealign.llm.model_limits import prompt_counter
from werealign.llm.speed_probe import Speed, probe_speed
from werealign.llm.store import STORE_NAME, Store
from werealign.schema.runs import RunConfig

HOUR = 3600.0
ANSWER_LINE_TOKENS = 16  # "Answer: " and a letter, a seat or a few seats, as SmolLM2's tokenizer cuts them
FIT_SHARE = 0.8  # a suggested command is sized for 80% of the hour: the estimate is not exact
# The slowest SmolLM2-135M measured here: two cores under a load average of 12 (BENCHMARKS.md, issue 46) read 11-15
# prompt tokens/s and wrote 1.9-2.3 reply tokens/s. A run within the hour even at these speeds is not probed.
SLOWEST = Speed(prompt_tokens_per_s=10.0, reply_tokens_per_s=1.5, prompt_tokens=0, seconds=0.0)


@dataclass(frozen=True)
class WallTime:
    seconds: float
    requests: int
    speed: Speed
    fits: int | None  # the largest --limit whose run with --decodes 1 fits FIT_SHARE of an hour (None: not even --limit 1)
    fits_seconds: float | None  # that run's estimated wall time
    probed: bool = True  # False: estimated at the SLOWEST speed, an upper bound that needed no probe

    def line(self, label: str) -> str:
        speed = f"{self.speed.prompt_tokens_per_s:.0f} prompt tokens/s, {self.speed.reply_tokens_per_s:.1f} reply tokens/s"
        if not self.probed:
            return (f"{label}: estimated wall time at most {duration(self.seconds)} for {self.requests} request(s) "
                    f"(at {speed}, the slowest measured on a busy machine: no timing probe needed)")
        return f"{label}: estimated wall time {duration(self.seconds)} for {self.requests} request(s) on this machine now (timing probe: {speed})"


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def shared_prefix(a: str, b: str) -> int:
    """len(os.path.commonprefix([a, b])), found by halving with slice comparisons (C speed): commonprefix walks the
    strings a character at a time in Python, and consecutive requests share nearly all of their characters (an item's
    decodes differ in the options' order only), which took 2 ms a request on the bundled sample's plan."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # a[:low] == b[:low] and a[:high] != b[:high]: the first difference is at an index in [low, high)
    while high - low > 1:
        mid = (low + high) // 2
        if a[low:mid] == b[low:mid]:
            low = mid
        else:
            high = mid
    return low


def _text(p: Planned) -> str:
    return "\n".join(str(m.get("content") or "") for m in p.messages)


def _reply_tokens(p: Planned, config: RunConfig) -> int:
    if "extra_body" in p.params and "grammar" in p.params["extra_body"]:
        return ANSWER_LINE_TOKENS
    return config.max_tokens or 256


def estimate_wall_time(config: RunConfig, timeout: float, run_dir: Path | None = None, plan: Sequence[Planned] | None = None) -> WallTime:
    """The run's wall time for the requests `run_dir`'s store does not already hold, from a timed probe of the model."""
    from werealign.dataset import load_dataset
    from werealign.dataset.refs import dataset_path
    from werealign.eval.runner import by_prefix

    if plan is None:
        plan = plan_run(load_dataset(dataset_path(config.dataset)), config)
    done: set[str] = set()
    if run_dir is not None and (run_dir / STORE_NAME).is_file():
        with Store(run_dir / STORE_NAME, readonly=True) as store:
            done = store.ok_keys()
    seen: set[str] = set()
    todo = []
    for p in plan:
        if p.over_budget is None and p.key not in done and p.key not in seen:
            seen.add(p.key)
            todo.append(p)
    todo = by_prefix(todo)
    count = prompt_counter(config.model)

    def estimate(speed: Speed, scale: float) -> WallTime:
        def seconds(p: Planned, before: str | None) -> float:
            text, tokens = _text(p), count(p.messages) * scale
            shared = shared_prefix(before, text) / max(1, len(text)) if before is not None else 0.0
            return tokens * (1 - shared) / speed.prompt_tokens_per_s + _reply_tokens(p, config) / speed.reply_tokens_per_s

        total, before = 0.0, None
        for p in todo:
            total += seconds(p, before)
            before = _text(p)
        return WallTime(total, len(todo), speed, *_fitting_limit(plan, seconds), probed=speed is not SLOWEST)

    # A run that fits the hour even at the slowest speed measured, counted with our upper bound of its tokens, needs no
    # probe (a small run, a test): it would take longer to start the model twice than to know this.
    bound = estimate(SLOWEST, 1.0)
    if bound.seconds <= FIT_SHARE * HOUR:
        return bound
    sendable = [p for p in plan if p.over_budget is None] or list(plan)
    probe = sorted(sendable, key=lambda p: len(_text(p)))[len(sendable) // 2]  # a real prompt of median length
    speed = probe_speed(config.model, probe.messages, timeout)
    return estimate(speed, speed.prompt_tokens / max(1, count(probe.messages)))  # scaled: the model's count over ours


def _fitting_limit(plan: Sequence[Planned], seconds) -> tuple[int | None, float | None]:
    """The largest --limit N whose run with --decodes 1 is estimated within FIT_SHARE of an hour, from each task's mean
    time per item (a first decode's request, read whole); (None, None) when not even N = 1 fits."""
    per_task: dict[str, list[float]] = defaultdict(list)
    items: dict[str, set[str]] = defaultdict(set)
    for p in plan:
        if p.decode == 0 and p.over_budget is None:
            per_task[p.task].append(seconds(p, None))
            items[p.task].add(p.item.item_id)

    def run(n: int) -> float:  # a task's requests per item: its variants
        return sum(min(n, len(items[t])) * sum(v) / len(items[t]) for t, v in per_task.items())

    most = max((len(v) for v in items.values()), default=0)
    if not most or run(1) > FIT_SHARE * HOUR:
        return None, None
    low, high = 1, most
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if run(mid) <= FIT_SHARE * HOUR else (low, mid - 1)
    return low, run(low)
