"""A built Leaderboard as Markdown, LaTeX, CSV, HTML or JSON text (stable bytes for the same input)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from werealign.leaderboards.stats import MIN_GAMES
from werealign.leaderboards.tables import Cell, Leaderboard, Row, Table, shown

FORMATS = ("md", "latex", "csv", "html", "json")
MISSING = "—"
PARTIAL = " (partial)"
STATISTICS = "95% percentile interval, cluster bootstrap over games × decodes; pairs compared by paired bootstrap"


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + shown(abs(x))


def _label(row: Row) -> str:
    return row.label + (PARTIAL if row.partial else "")


def _mixed_games(table: Table | None) -> bool:
    """Whether a table's intervals rest on different numbers of games (then each cell says its own)."""
    return table is not None and len({c.games for r in table.rows for c in r.cells.values() if c.games is not None}) > 1


def _parts(cell: Cell, table: Table | None = None) -> tuple[str, str] | None:
    """(main text, detail text) of a cell, or None when it has no value."""
    if cell.value is None:
        return None
    main = shown(cell.value) + ("*" if cell.significant else "")
    if cell.change is not None:
        return main, f"({_signed(cell.change)}{'*' if cell.change_significant else ''})"
    if cell.low is not None:
        games = f" g={cell.games}" if _mixed_games(table) and cell.games is not None else ""
        return main, f"[{shown(cell.low)}, {shown(cell.high)}]{games}"
    return main, ""


# --------------------------------------------------------------------------- Markdown


def _md_cell(cell: Cell, table: Table | None = None) -> str:
    parts = _parts(cell, table)
    if parts is None:
        return MISSING
    main = {1: f"**{parts[0]}**", 2: f"<u>{parts[0]}</u>"}.get(cell.rank, parts[0])
    return f"{main} {parts[1]}".strip()


def _md_text(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(lb: Leaderboard) -> str:
    out = ["# Leaderboard", "", f"Scores in %. {STATISTICS} ({lb.resamples} resamples, seed {lb.seed}).", ""]
    for t in lb.tables:
        out += [f"## {t.title}", "", "| model | " + " | ".join(c.name for c in t.columns) + " |",
                "| --- |" + " ---: |" * len(t.columns)]
        out += ["| " + _md_text(_label(r)) + " | " + " | ".join(_md_cell(r.cells[c.name], t) for c in t.columns) + " |" for r in t.rows]
        out += [""] + [f"_{n}_" for n in t.notes] + ([""] if t.notes else [])
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- LaTeX

_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}", "−": "$-$", "×": r"$\times$"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex_cell(cell: Cell, table: Table | None = None) -> str:
    parts = _parts(cell, table)
    if parts is None:
        return "--"
    main = latex_escape(parts[0])
    main = {1: rf"\textbf{{{main}}}", 2: rf"\underline{{{main}}}"}.get(cell.rank, main)
    return main + (rf" {{\scriptsize {latex_escape(parts[1])}}}" if parts[1] else "")


def to_latex(lb: Leaderboard) -> str:
    out = [f"% werealign leaderboard: scores in %. {STATISTICS} ({lb.resamples} resamples, seed {lb.seed}).",
           r"% needs \usepackage{booktabs}", ""]
    for t in lb.tables:
        spec = "l" + "".join(("|" if c.group_start else "") + "r" for c in t.columns)
        out += [r"\begin{table}[t]", r"\centering", rf"\caption{{{latex_escape(t.title)}}}", rf"\label{{tab:{t.key}}}",
                rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
                "Model & " + " & ".join(latex_escape(c.name) for c in t.columns) + r" \\", r"\midrule"]
        out += [latex_escape(_label(r)) + " & " + " & ".join(_latex_cell(r.cells[c.name], t) for c in t.columns) + r" \\" for r in t.rows]
        out += [r"\bottomrule", r"\end{tabular}"]
        out += [rf"\par\smallskip{{\footnotesize {latex_escape(n.replace('**', ''))}}}" for n in t.notes]
        out += [r"\end{table}", ""]
    return "\n".join(out)


# --------------------------------------------------------------------------- CSV (one long table)

CSV_FIELDS = ["table", "row", "model", "variant", "partial", "column", "value", "low", "high", "rank", "significant",
              "change", "change_low", "change_high", "change_significant", "games"]


def to_csv(lb: Leaderboard) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for t in lb.tables:
        for r in t.rows:
            for c in t.columns:
                w.writerow({"table": t.key, "row": r.label, "model": r.model or "", "variant": r.variant, "partial": r.partial,
                            "column": c.name, **{k: "" if v is None else v for k, v in _cell_json(r.cells[c.name]).items()}})
    return buf.getvalue()


# --------------------------------------------------------------------------- JSON


def _cell_json(cell: Cell) -> dict[str, Any]:
    return {"value": _r(cell.value), "low": _r(cell.low), "high": _r(cell.high), "rank": cell.rank,
            "significant": cell.significant, "change": _r(cell.change), "change_low": _r(cell.change_low),
            "change_high": _r(cell.change_high), "change_significant": cell.change_significant, "games": cell.games}


def _table_json(t: Table) -> dict[str, Any]:
    return {"key": t.key, "title": t.title, "columns": [c.name for c in t.columns], "notes": t.notes,
            "rows": [{"label": r.label, "model": r.model, "variant": r.variant, "partial": r.partial, "baseline": r.baseline,
                      "cells": {c.name: _cell_json(r.cells[c.name]) for c in t.columns}} for r in t.rows]}


def leaderboard_json(lb: Leaderboard) -> dict[str, Any]:
    return {
        "format": "werealign-leaderboard/1",
        "statistics": {"interval": STATISTICS, "level": 0.95, "resamples": lb.resamples, "seed": lb.seed,
                       "min_games": MIN_GAMES},
        "warnings": lb.warnings,
        "models": [{"model": e.model, "partial": e.partial, "baseline": e.baseline,
                    "runs": [r.path.name for r in e.runs],  # names only: a full path is a machine detail
                    "dataset": e.runs[0].dataset} for e in lb.entries],
        "tables": [_table_json(t) for t in lb.tables],
        "comparisons": [{k: _r(v) if isinstance(v, float) else v for k, v in c.items()} for c in lb.comparisons],
    }


def to_json(lb: Leaderboard) -> str:
    return json.dumps(leaderboard_json(lb), ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------- HTML (self-contained, sortable)


def to_html(lb: Leaderboard) -> str:
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    template = env.from_string((resources.files("werealign.leaderboards") / "templates" / "leaderboard.html.j2").read_text("utf-8"))
    from werealign.leaderboards.plots import embedded

    return template.render(lb=lb, parts=_parts, label=_label, statistics=STATISTICS, missing=MISSING, plots=embedded(lb))


RENDERERS: dict[str, Callable[[Leaderboard], str]] = {
    "md": to_markdown, "latex": to_latex, "csv": to_csv, "html": to_html, "json": to_json}
