"""Issue 36: terminal text wraps instead of being cut with "…" (list, analyze, the eval summary, beyond survival), and
the view page groups decodes by item, in %, with unparsable replies as their own outcome."""

from __future__ import annotations

import re
from pathlib import Path

from cli_inproc import run_cli
from fake_llm import FakeCompletion
from werealign.analysis.rankings import text_block
from werealign.analysis.report import _short
from werealign.eval.config import EvalConfig
from werealign.eval.progress import summary
from werealign.eval.runner import Execution, run_eval
from werealign.eval.view import view_page
from werealign.baselines.models import baseline
from werealign.baselines.policies import all_candidates_policy
from werealign.llm.builtin_models import MODELS

LONG = "an invented baseline whose description is far longer than one line of eighty columns, so it has to wrap onto the next"


def test_list_wraps_a_long_description_whole() -> None:
    with MODELS.added(baseline("acme/very-long-named-invented-baseline", LONG, all_candidates_policy)):
        r = run_cli("list")
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout
    assert all(len(line) <= 80 for line in r.stdout.splitlines())
    assert LONG in " ".join(line.strip() for line in r.stdout.splitlines())  # every word, in order


def test_analyze_lines_wrap_never_cut() -> None:
    text = "[1] " + "arena-run-of-a-model-with-a-very-long-name/" * 3
    wrapped = _short(text, 80)
    assert "…" not in wrapped and all(len(line) <= 80 for line in wrapped.splitlines())
    assert wrapped.replace("\n    ", "").replace("\n", "") == text.strip()


def test_beyond_survival_without_rows_says_why_instead_of_a_bare_header() -> None:
    block = text_block({"models": [], "kendall_tau": None, "ci95": None, "only_in_eval": ["acme/a"], "only_in_arena": ["rule/random"],
                        "note": "a rank correlation needs at least 3 models"})
    assert "arena win rate" not in block  # no column header over nothing
    assert "no model has both" in block and "acme/a" in block and "rule/random" in block
    name = "openrouter/some-provider/an-invented-model-name-longer-than-the-column"
    block = text_block({"models": [{"model": name, "human_aligned": 0.5, "arena_win_rate": 0.25}], "kendall_tau": None, "ci95": None})
    assert name in block and "…" not in block and "50.0%" in block


def test_the_eval_summary_wraps_long_names(tmp_path: Path) -> None:
    from rich.console import Console

    model = "openai/an-invented-model-with-a-name-much-longer-than-a-summary-column-can-hold"
    result = run_eval(EvalConfig(model=model, decodes=1), Execution(), out=tmp_path / "r", acompletion=FakeCompletion(), cache=False)
    console = Console(width=80, record=True)
    console.print(summary(result.results, run_dir="r", sent=result.sent, cached=result.cached))
    text = console.export_text()
    assert "…" not in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_view_groups_decodes_by_item_in_percent_with_unparsable_apart(tmp_path: Path) -> None:
    replies = iter(["Answer: A", "I am not sure.", "Answer: B"] * 1000)
    fake = FakeCompletion(reply_for=lambda user: next(replies))
    result = run_eval(EvalConfig(model="openai/fake", decodes=3, tasks=("speech",)), Execution(), out=tmp_path / "r",
                      acompletion=fake, cache=False)
    page = view_page(tmp_path / "r")
    items = result.results.variants["base"]["speech"].items
    assert page.count('<details class="item"') == items
    assert page.count('<details class="sample') == 3 * items
    assert 'data-outcome="unparsable"' in page and "<option>unparsable</option>" in page
    macro = result.results.variants["base"]["speech"].macro_accuracy
    assert f"macro_accuracy {100 * macro:.1f}%" in page
    assert re.search(r"score \d+\.\d% over 3 decode\(s\)", page)
    unparsable = result.results.variants["base"]["speech"].parse_failures
    assert f"{unparsable} unparsable" in page
