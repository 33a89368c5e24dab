"""A built Leaderboard as Markdown, LaTeX, CSV, HTML or JSON text (stable bytes for the same input)."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

from werealign.stats.bootstrap import MIN_GAMES
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


def _html_parts(cell: Cell, table: Table | None = None) -> tuple[str, str, str] | None:
    """(main text, interval, hover text) of an HTML cell: the interval goes on a second line and the games it
    rests on into a hover title, so a headline table of many columns fits a 1400 px screen."""
    parts = _parts(cell, None)  # never "g=N" inline
    if parts is None:
        return None
    hover = f"95% interval over {cell.games} games" if cell.low is not None and cell.games is not None else ""
    return parts[0], parts[1], hover


# --------------------------------------------------------------------------- Markdown


def _md_cell(cell: Cell, table: Table | None = None) -> str:
    """A cell in Markdown: the best bold, the second underlined (HTML <u>, which Markdown renders)."""
    parts = _parts(cell, table)
    if parts is None:
        return MISSING
    main = {1: f"**{parts[0]}**", 2: f"<u>{parts[0]}</u>"}.get(cell.rank, parts[0])
    return f"{main} {parts[1]}".strip()


def _md_text(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(lb: Leaderboard) -> str:
    """Each table's DataFrame as a pipe table (pandas' own to_markdown needs tabulate, not a dependency)."""
    out = ["# Leaderboard", "", f"Scores in %. {STATISTICS} ({lb.resamples} resamples, seed {lb.seed}).", ""]
    for t in lb.tables:
        frame = table_frame(t, _md_cell)
        out += [f"## {t.title}", "", "| model | " + " | ".join(map(str, frame.columns[1:])) + " |",
                "| --- |" + " ---: |" * len(t.columns)]
        out += ["| " + " | ".join([_md_text(row[0]), *row[1:]]) + " |" for row in frame.itertuples(index=False)]
        out += [""] + [f"_{n}_" for n in t.notes] + ([""] if t.notes else [])
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- LaTeX

_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}", "−": "$-$", "×": r"$\times$"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex_text(cell: Cell, table: Table) -> str:
    parts = _parts(cell, table)
    if parts is None:
        return "--"
    return latex_escape(parts[0]) + (rf" {{\scriptsize {latex_escape(parts[1])}}}" if parts[1] else "")


def table_frame(t: Table, text: Callable[[Cell, Table], str]):
    """One table as a DataFrame: a `Model` column, then one column per table column, each cell as `text` shows it.

    Columns come from the Table, so a column another module adds (a context gain) is a column here too."""
    import pandas as pd

    rows = [[_label(r), *(text(r.cells[c.name], t) for c in t.columns)] for r in t.rows]
    return pd.DataFrame(rows, columns=["Model", *(c.name for c in t.columns)], dtype=object)


def _rank_styles(t: Table):
    """Per cell: bold for the best, underline for the second (the Styler's LaTeX commands)."""
    import pandas as pd

    style = {1: "textbf: --rwrap;", 2: "underline: --rwrap;"}
    rows = [["", *(style.get(r.cells[c.name].rank, "") if r.cells[c.name].value is not None else "" for c in t.columns)]
            for r in t.rows]
    return pd.DataFrame(rows, columns=["Model", *(c.name for c in t.columns)])


def _latex_table(t: Table) -> str:
    frame = table_frame(t, _latex_text)
    frame.columns = [latex_escape(str(c)) for c in frame.columns]
    styles = _rank_styles(t)
    styles.columns = frame.columns
    spec = "l" + "".join(("|" if c.group_start else "") + "r" for c in t.columns)
    styler = frame.style.apply(lambda _: styles, axis=None).hide(axis="index")
    styler = styler.format(lambda v: v).format(latex_escape, subset=[frame.columns[0]])  # labels escaped; cells are
    text = styler.to_latex(hrules=True, column_format=spec, caption=latex_escape(t.title), label=f"tab:{t.key}",
                           position="t", position_float="centering")
    notes = "".join(rf"\par\smallskip{{\footnotesize {latex_escape(n.replace('**', ''))}}}" + "\n" for n in t.notes)
    return text.replace("\\end{table}", notes + "\\end{table}")


def to_latex(lb: Leaderboard) -> str:
    """Each table through pandas' Styler (booktabs rules, bold best, underlined second)."""
    out = [f"% werealign leaderboard: scores in %. {STATISTICS} ({lb.resamples} resamples, seed {lb.seed}).",
           r"% needs \usepackage{booktabs}", ""]
    out += [_latex_table(t) for t in lb.tables]
    return "\n".join(out)


# --------------------------------------------------------------------------- CSV (one long table)

CSV_FIELDS = ["table", "row", "model", "variant", "partial", "column", "value", "low", "high", "rank", "significant",
              "change", "change_low", "change_high", "change_significant", "games"]


def to_csv(lb: Leaderboard) -> str:
    """One long table (a row per table x row x column) written by pandas."""
    import pandas as pd

    records = [{"table": t.key, "row": r.label, "model": r.model or "", "variant": r.variant, "partial": r.partial,
                "column": c.name, **_cell_json(r.cells[c.name])} for t in lb.tables for r in t.rows for c in t.columns]
    # object dtype: a rank stays 1 (not 1.0) beside a missing one, a value is written as Python writes it
    return pd.DataFrame(records, columns=CSV_FIELDS, dtype=object).to_csv(index=False, lineterminator="\n", na_rep="")


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

    return template.render(lb=lb, parts=_html_parts, label=_label, statistics=STATISTICS, missing=MISSING, plots=embedded(lb))


RENDERERS: dict[str, Callable[[Leaderboard], str]] = {
    "md": to_markdown, "latex": to_latex, "csv": to_csv, "html": to_html, "json": to_json}
