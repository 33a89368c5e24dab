"""The HTML leaderboard in a real headless browser (Debian chromium via Playwright): it renders, is
self-contained, sorts by a clicked column; the screenshot is kept for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from run_factory import write_run

from werealign.leaderboards.collect import collect
from werealign.leaderboards.render import to_html
from werealign.leaderboards.tables import build


@pytest.fixture()
def page(chromium_module):
    pg = chromium_module.new_page(viewport={"width": 1300, "height": 900})
    # Self-contained: any request for another resource would be a missing stylesheet or script.
    requests: list[str] = []
    pg.on("request", lambda r: requests.append(r.url) if not r.url.startswith("file:") else None)
    pg.requests = requests
    yield pg
    pg.close()


def _number(text: str) -> float:
    return float(re.match(r"[\d.]+", text).group())


def _column(page, table: str, index: int) -> list[str]:
    return page.eval_on_selector_all(f"#{table} tbody tr", f"rows => rows.map(r => r.cells[{index}].innerText.trim())")


def test_html_renders_and_sorts_in_chromium(page, tmp_path):
    runs = [write_run(tmp_path / "a", "prov/alpha", 0.8), write_run(tmp_path / "b", "prov/beta", 0.3, tasks=("speech",)),
            write_run(tmp_path / "c", "werealign/random", 0.5, missing=3)]
    html = tmp_path / "leaderboard.html"
    html.write_text(to_html(build(collect(runs), resamples=200)), encoding="utf-8")
    page.goto(html.as_uri())
    assert page.title() == "werealign leaderboard"
    assert page.requests == []
    headers = page.eval_on_selector_all("#main thead th", "ths => ths.map(t => t.innerText.trim())")
    assert headers == ["model", "RI", "SJ", "DR", "PS", "CT", "Avg", "VA", "OI"]
    assert page.locator("#main .best").count() >= 8 and page.locator("#main .partial").count() == 1
    # Sort by VA: click once -> descending, a model without VA last; again -> ascending, still last.
    va = headers.index("VA")
    page.click(f"#main thead th:nth-child({va + 1})")
    values = _column(page, "main", va)
    assert values[-1] == "—"
    shown = [_number(v) for v in values[:-1]]
    assert shown == sorted(shown, reverse=True)
    assert page.get_attribute(f"#main thead th:nth-child({va + 1})", "aria-sort") == "descending"
    page.click(f"#main thead th:nth-child({va + 1})")
    values = _column(page, "main", va)
    assert values[-1] == "—" and [_number(v) for v in values[:-1]] == sorted(shown)
    # Sort by name.
    page.click("#main thead th:nth-child(1)")
    names = [n.replace(" (partial)", "") for n in _column(page, "main", 0)]
    assert names == sorted(names, reverse=True)
    # Bold and underline are real styles, not only class names.
    assert page.eval_on_selector("#main .best", "e => getComputedStyle(e).fontWeight") in ("700", "bold")
    shot = Path(__import__("os").environ.get("WEREALIGN_SCREENSHOT_DIR", tmp_path)) / "leaderboard.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_the_headline_table_fits_1400_px_with_intervals_on_a_second_line(chromium_module, tmp_path):
    """Issue 36: eight score columns, each with an interval resting on its own number of games (the release's case),
    and long model names: the main table fits a 1400 px screen; the games behind an interval are on hover."""
    import json

    from werealign.eval.scoring import score_samples

    names = ["openrouter/anthropic/claude-3.5-sonnet-20241022", "openai/gpt-4o-mini-2024-07-18", "werealign/lexical",
             "together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo", "werealign/random"]
    runs = []
    for i, name in enumerate(names):
        root = write_run(tmp_path / f"r{i}", name, 0.3 + 0.1 * i, games=30, decodes=2)
        # VA and OI asked on fewer games than speech, as in the release: each cell then names its own game count
        rows = [json.loads(line) for line in (root / "samples.jsonl").read_text().splitlines()]
        rows = [r for r in rows if r["task"] == "speech" or int(r["game_id"].split("-")[1]) % 3]
        (root / "samples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        results = json.loads((root / "results.json").read_text())
        results.update(score_samples(rows, planned=len(rows)))
        (root / "results.json").write_text(json.dumps(results))
        runs.append(root)
    lb = build(collect(runs), resamples=100)
    html = tmp_path / "wide.html"
    html.write_text(to_html(lb), encoding="utf-8")
    page = chromium_module.new_page(viewport={"width": 1400, "height": 900})
    page.goto(html.as_uri())
    width = page.eval_on_selector("#main", "t => t.getBoundingClientRect().right")
    assert width <= 1400, f"the main table ends at {width} px"
    assert "g=" not in page.inner_text("#main")
    titles = page.eval_on_selector_all("#main .detail[title]", "es => es.map(e => e.title)")
    assert titles and all(re.fullmatch(r"95% interval over \d+ games", t) for t in titles)
    assert len({t for t in titles}) > 1  # speech and VA/OI rest on different numbers of games
    # the interval is on its own line, under the score
    top = page.eval_on_selector("#main tbody td:nth-child(2) .detail", "e => e.getBoundingClientRect().top")
    score_bottom = page.eval_on_selector("#main tbody td:nth-child(2) span", "e => e.getBoundingClientRect().bottom")
    assert top >= score_bottom - 1
    shot = Path(__import__("os").environ.get("WEREALIGN_SCREENSHOT_DIR", tmp_path)) / "leaderboard-1400.png"
    page.screenshot(path=str(shot), full_page=True)
    page.close()
