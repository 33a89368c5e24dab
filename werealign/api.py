"""The Python API: evaluate a model, load a dataset, build a leaderboard from a notebook or a script.

    import werealign

    ev = werealign.evaluate("werealign/lexical", decodes=1)          # the bundled sample
    ev.results.variants["base"]["speech"].macro_accuracy             # results.json, typed
    board = werealign.leaderboard([ev.run_dir])                      # tables with 95% intervals

Each function takes the path of its command (`werealign eval`, `werealign leaderboard`): the same option
checks, the same run directory (resumable, shared response cache), the same scores; keyword arguments
stand for the options (`variants` for --variant, `protocol` for --ablation-protocol, `modes` for --mode)
and typed objects for the printed text. Bad input raises `werealign.errors.UserError` with the command's
one-line message, which names the option (`--decodes: must be at least 1`).

`werealign/__init__.py` re-exports these names lazily, so `import werealign` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from werealign.dataset import Dataset
    from werealign.leaderboards.table_model import Leaderboard
    from werealign.schema.runs import Results, RunConfig, SampleRow

__all__ = ["Evaluation", "evaluate", "leaderboard", "load_dataset"]


@dataclass(frozen=True)
class Evaluation:
    """What `evaluate` returns: the run's scores (results.json as a typed model) and where the run lives."""

    run_dir: Path
    config: RunConfig  # run.json `config`
    results: Results  # results.json
    planned: int  # samples planned (items x decodes x variants)
    sent: int  # requests sent by this call (0 when every reply was already stored)
    cached: int  # requests not sent: already in the run directory or in the shared response cache
    request_errors: int  # samples whose request finally failed; they count as wrong in the headline scores
    warnings: tuple[str, ...]

    def score(self, task: str, variant: str = "base") -> float | None:
        """The task's headline score under `variant` (its metric's value: speech macro accuracy, VA accuracy,
        OI mean Jaccard, or a plug-in kind's own metric); None when the run has no such block or value."""
        block = self.results.variants.get(variant, {}).get(task)
        return None if block is None else block.primary

    def samples(self) -> list[SampleRow]:
        """samples.jsonl, one typed row per item x decode x variant (prompt order, reply, answer, score)."""
        from werealign.eval.rundir import SAMPLES
        from werealign.files import read_jsonl
        from werealign.schema.runs import read_sample_row

        return [read_sample_row(row) for _, row in read_jsonl(self.run_dir / SAMPLES)]


def load_dataset(dataset: str | Path | None = None) -> Dataset:
    """A dataset as eval reads it: a dataset directory, a folder `werealign release` wrote, `hf:ORG/NAME`, or
    `RELEASE#CONFIG`; None is the bundled sample. Items by kind: `ds.items_of("speech")`; games: `ds.games`."""
    from werealign.dataset import load_dataset as load
    from werealign.dataset.refs import dataset_path

    return load(dataset_path(dataset))


def _listed(value: str | Sequence[str] | None) -> str | None:
    """A list argument as the command line gives it (comma-separated), so the command's own checks read it."""
    return value if value is None or isinstance(value, str) else ",".join(value)


def evaluate(
    model: str,
    *,
    dataset: str | Path | None = None,
    tasks: str | Sequence[str] | None = None,
    variants: str | Sequence[str] = "base",
    protocol: str = "paired",
    decodes: int = 5,
    permute: bool = True,
    seed: int = 0,
    limit: int | None = None,
    split: str = "faithful",
    temperature: float = 0.7,
    max_tokens: int | None = None,
    modes: Mapping[str, str] | None = None,
    solver: str = "single",
    api_base: str | None = None,
    max_connections: int = 16,
    timeout: float | None = None,
    max_attempts: int | None = None,
    context_budget: int | None = None,
    max_failed: float | None = None,
    out: str | Path | None = None,
    overwrite: bool = False,
    cache: bool = True,
    progress: bool = True,
    acompletion: Callable[..., Any] | None = None,
) -> Evaluation:
    """Evaluate `model` (a litellm model string or a built-in such as werealign/lexical), like `werealign eval`.

    The run directory is `out` (default runs/<model>-<config hash>, relative to the working directory); calling
    again with the same arguments resumes it and pays only for what is missing. `tasks` defaults to every
    registered kind; `timeout`, `max_attempts` and `context_budget` default to the model's own (a local model's
    longer timeout, its context); `max_failed` raises when more than that fraction of the samples failed; `split` is faithful (default) or all (werealign.splits); `modes` maps a task to its mode ({"vote": "full"}); `progress` shows the command's progress
    on stderr. `acompletion` replaces litellm.acompletion (an async function taking model= and messages=, as
    litellm's does), e.g. a test's fake. Raises UserError when every request failed; a run with some failed
    requests returns, with `request_errors` saying how many.
    """
    from werealign.commands.eval import _config, _execution  # the command's own option checks, not a copy
    from werealign.errors import UserError
    from werealign.eval.progress import make_progress
    from werealign.eval.runner import run_eval
    from werealign.llm.failures import check_max_failed, failed_too_often

    check_max_failed(max_failed)
    execution = _execution(model, api_base, max_connections, timeout, max_attempts)
    config = _config(model, dataset, _listed(tasks), _listed(variants), protocol, decodes, permute, seed, limit, temperature,
                     max_tokens, None, None, solver, dict(modes) if modes is not None else None, split=split, context_budget=context_budget)
    summary = run_eval(config, execution, out=Path(out) if out is not None else None, overwrite=overwrite,
                       progress_factory=make_progress(not progress), acompletion=acompletion, cache=cache)
    if summary.failure is not None:
        raise UserError(summary.failure)
    totals = summary.results.totals
    if max_failed is not None and (why := failed_too_often(totals.request_errors, totals.samples, max_failed)) is not None:
        raise UserError(f"{why.replace('requests', 'samples')}; the results are written in {summary.run_dir}")
    return Evaluation(run_dir=summary.run_dir, config=config, results=summary.results, planned=summary.planned, sent=summary.sent,
                      cached=summary.cached, request_errors=summary.request_errors, warnings=tuple(summary.warnings))


def leaderboard(runs: Sequence[str | Path | Evaluation], *, seed: int = 0, resamples: int = 2000) -> Leaderboard:
    """The tables of `werealign leaderboard RUN...` (main, ablations, context gain, solver gain, roles, floors),
    each value with its 95% interval and the pairwise comparisons (`board.comparisons`), as data.

    Runs of one model are merged; runs that are not comparable (another dataset, prompt version, protocol or
    limit) raise UserError naming the difference. Text in any of the command's formats:
    `werealign.leaderboards.render.RENDERERS["md"](board)` (md, latex, csv, html, json)."""
    from werealign.leaderboards.collect import collect
    from werealign.leaderboards.tables import build

    paths = [r.run_dir if isinstance(r, Evaluation) else Path(r) for r in runs]
    return build(collect(paths), seed=seed, resamples=resamples)
