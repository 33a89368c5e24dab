"""Model entries -> the leaderboard tables (values, intervals, ranks, significance), ready to render.

Every value is read from its run's results.json; the statistics add the interval and the marks.
Tables: the main table (RI SJ DR PS CT Avg | VA OI on the base variant), the ablation table (each
other variant with its change against base), the context gain (werealign.leaderboards.context_gain), one
role-conditioned table per task (the viewpoint player's true role), and the shortcut floors (the built-in
baselines, and their best per column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from itertools import combinations
from typing import Any

from werealign.schema.roles import builtin_catalogue
from werealign.stats import bootstrap as stats
from werealign.tasks.common import OBSERVER_ROLE
from werealign.leaderboards.collect import ModelEntry
from werealign.leaderboards.context_gain import context_gain_table
from werealign.leaderboards.solver_gain import solver_gain_table
from werealign.leaderboards.table_model import (  # noqa: F401 - the shapes, re-exported for renderers and tests
    BASE,
    Cell,
    Column,
    Leaderboard,
    Row,
    Table,
    games_note,
    headline_column,
    main_columns,
    non_discriminating,
    task_title,
    tasks_in,
    shown,
)

def _estimate(entry: ModelEntry, column: Column, variant: str, seed: int, resamples: int) -> Cell:
    value = column.value(entry, variant)
    if value is None:
        return Cell(None)
    est = stats.estimate(column.observations(entry, variant), resamples=resamples, group_of=column.group_of(),
                         seed=stats.derived_seed(seed, "estimate", entry.model, variant, column.task, column.name))
    return Cell(value, est.low, est.high, games=est.games) if est else Cell(value)


def _rank(rows: Sequence[Row], columns: Sequence[Column]) -> None:
    for column in columns:
        cells = [r.cells[column.name] for r in rows if r.model is not None and r.cells[column.name].value is not None]
        if len(cells) < 2:
            continue
        distinct = sorted({Decimal(shown(c.value)) for c in cells}, reverse=True)
        if len(distinct) < 2:
            continue  # every model shows the same value: nothing to single out
        for cell in cells:
            at = distinct.index(Decimal(shown(cell.value)))
            cell.rank = at + 1 if at < 2 else None


def _compare(table: Table, variant: str, by_model: dict[str, ModelEntry], seed: int, resamples: int) -> list[dict[str, Any]]:
    """Every pair of models on every column (paired on common items); marks a best that beats all others."""
    found = []
    rows = [r for r in table.rows if r.model is not None]
    for column in table.columns:
        wins: dict[str, list[bool]] = {}
        for ra, rb in combinations(rows, 2):
            if ra.cells[column.name].value is None or rb.cells[column.name].value is None:
                continue
            a, b = sorted((ra.model, rb.model))
            c = stats.compare(column.observations(by_model[a], variant), column.observations(by_model[b], variant),
                              resamples=resamples, group_of=column.group_of(),
                              seed=stats.derived_seed(seed, "compare", table.key, column.name, a, b))
            if c is None:
                continue
            found.append({"table": table.key, "column": column.name, "a": a, "b": b, "difference": c.difference,
                          "low": c.low, "high": c.high, "p_value": c.p_value, "significant": c.significant, "items": c.items,
                          "games": c.games})
            wins.setdefault(a, []).append(c.significant and c.difference > 0)
            wins.setdefault(b, []).append(c.significant and c.difference < 0)
        for r in rows:
            cell = r.cells[column.name]
            others = sum(1 for o in rows if o is not r and o.cells[column.name].value is not None)
            beaten = wins.get(r.model, [])
            cell.significant = cell.rank == 1 and others > 0 and len(beaten) == others and all(beaten)
    return found


def _model_rows(entries: Sequence[ModelEntry], columns: Sequence[Column], variant: str, seed: int, resamples: int) -> list[Row]:
    return [Row(e.model, e.model, e.partial, e.baseline, variant,
                {c.name: _estimate(e, c, variant, seed, resamples) for c in columns}) for e in entries]


def _order(entries: Sequence[ModelEntry]) -> list[ModelEntry]:
    """Best headline first (the first kind's: speech Avg; none last), then by name: a stable order shared by every table."""
    avg = headline_column(entries)

    def key(e: ModelEntry) -> tuple[bool, float, str]:
        v = avg.value(e, BASE) if avg is not None else None
        return (v is None, -(v or 0.0), e.model)
    return sorted(entries, key=key)


def headline_and_grouped(columns: Sequence[Column]) -> tuple[list[Column], list[Column]]:
    """The headline keeps a macro group (the decision kinds) as its mean; its kinds, with the mean again, get a table
    of their own (issue 36: ten decision kinds beside the paper's columns pushed the headline past 1400 px)."""
    members = {t for c in columns if c.tasks for t in c.tasks} | {c.task for c in columns if c.silent}
    headline = [replace(c, group_start=True) if c.tasks else c for c in columns if c.task not in members]
    grouped = [replace(c, group_start=False) if i == 0 else c for i, c in enumerate(c for c in columns if c.task in members or c.tasks)]
    return headline, (grouped if members else [])


def _groups_title(grouped: Sequence[Column]) -> str:
    """'decisions': the macro groups' names, as their mean columns show them."""
    return ", ".join(c.name for c in grouped if c.tasks)


def _ranked_table(key: str, title: str, columns: Sequence[Column], entries: Sequence[ModelEntry], by_model: dict[str, ModelEntry],
                  seed: int, resamples: int) -> tuple[Table, list[dict[str, Any]]]:
    table = Table(key, title, list(columns), _model_rows(entries, columns, BASE, seed, resamples))
    table.notes += [f"{c.name} = the mean over its kinds of skill over each kind's best floor, (score − floor) / (1 − floor): "
                    "0 is no better than the best trivial rule or learned shallow floor, 1 is every answer right"
                    for c in columns if c.tasks and c.over_floor]
    _rank(table.rows, columns)
    return table, _compare(table, BASE, by_model, seed, resamples)


def main_tables(entries: Sequence[ModelEntry], by_model: dict[str, ModelEntry], seed: int, resamples: int) -> tuple[list[Table], list[dict[str, Any]]]:
    """The main table, and a table of each kind of a macro group (the decision kinds) when there is one."""
    headline, grouped = headline_and_grouped(main_columns(entries))
    main, comparisons = _ranked_table("main", "Main results (base variant)", headline, entries, by_model, seed, resamples)
    if not grouped:
        return [main], comparisons
    kinds, more = _ranked_table("main-kinds", f"{_groups_title(grouped)} by kind (base variant)", grouped, entries, by_model, seed, resamples)
    return [main, kinds], comparisons + more


def ablation_table(entries: Sequence[ModelEntry], seed: int, resamples: int) -> Table | None:
    columns = [c for c in main_columns(entries) if c.dimension is None]  # Avg, VA, OI and any other kind
    variants = sorted({v for e in entries for v in e.scores} - {BASE})
    if not variants:
        return None
    rows = []
    for variant in variants:
        having = [e for e in entries if variant in e.scores]
        group = _model_rows(having, columns, variant, seed, resamples)
        _rank(group, columns)
        for row, entry in zip(group, having):
            for c in columns:
                cell, base = row.cells[c.name], c.value(entry, BASE)
                if cell.value is None or base is None:
                    continue
                cell.change = cell.value - base
                cmp = stats.compare(c.observations(entry, variant), c.observations(entry, BASE), resamples=resamples,
                                    group_of=c.group_of(), seed=stats.derived_seed(seed, "ablation", entry.model, variant, c.name))
                if cmp is not None:
                    cell.change_low, cell.change_high, cell.change_significant = cmp.low, cmp.high, cmp.significant
            row.label = f"{entry.model} [{variant}]"
        rows.extend(group)
    return Table("ablation", "Ablations: each variant, change vs base", columns, rows,
                 ["change = variant − base of the same model, on that variant's items; * its 95% interval excludes 0"])


def role_names(roles: Sequence[str]) -> dict[str, str]:
    """Each role key of results.json (a catalogue id; an observer item's `observer`; or, for a role the catalogue does not
    know, the label as the dataset wrote it) -> the name a column shows: a catalogue role's English name, a label as written."""
    catalogue = builtin_catalogue()
    names = {}
    for role in roles:
        known = catalogue.get(role)
        names[role] = known.name("en") if known is not None else role
    if len(set(names.values())) < len(names):  # two keys one name: the keys themselves keep the columns apart
        return {role: role for role in roles}
    return names


def role_tables(entries: Sequence[ModelEntry], by_model: dict[str, ModelEntry], seed: int, resamples: int) -> tuple[list[Table], list[dict[str, Any]]]:
    tables, comparisons = [], []
    catalogue = builtin_catalogue()
    for task in tasks_in(entries):
        roles = sorted({role for e in entries for role in e.scores.get(BASE, {}).get(task, {}).get("by_viewpoint_role", {})},
                       key=lambda r: (r == OBSERVER_ROLE, catalogue.order(r)))  # catalogue order, unknown labels then observer last
        if not roles:
            continue
        names = role_names(roles)
        columns = [Column(names[role], task, ("by_viewpoint_role", role, "score"), role=role) for role in roles]
        title = task_title(task, entries)
        table = Table(f"roles-{task}", f"By the viewpoint player's role: {title}", columns,
                      _model_rows(entries, columns, BASE, seed, resamples))
        unknown = [role for role in roles if catalogue.get(role) is None and role != OBSERVER_ROLE]
        if unknown:
            table.notes.append(f"not in the role catalogue, shown as the dataset labels them: {', '.join(unknown)}")
        _rank(table.rows, columns)
        comparisons += _compare(table, BASE, by_model, seed, resamples)
        tables.append(table)
    return tables, comparisons


def floors_tables(entries: Sequence[ModelEntry], seed: int, resamples: int) -> list[Table]:
    """The built-in baselines and the best of them, split like the main tables."""
    baselines = [e for e in entries if e.baseline]
    if not baselines:
        return []
    headline, grouped = headline_and_grouped(main_columns(entries))
    tables = []
    for key, title, columns in (("floors", "Shortcut floors: the built-in baselines (base variant)", headline),
                                ("floors-kinds", f"Shortcut floors: {_groups_title(grouped)} by kind (base variant)", grouped)):
        if not columns:
            continue
        rows = _model_rows(baselines, columns, BASE, seed, resamples)
        _rank(rows, columns)
        floor = Row("shortcut floor (best baseline)", None)
        for c in columns:
            values = [r.cells[c.name].value for r in rows if r.cells[c.name].value is not None]
            floor.cells[c.name] = Cell(max(values) if values else None)
        tables.append(Table(key, title, columns, [*rows, floor],
                            ["a model at or below the floor does no better than a shortcut through the options"]))
    return tables


def decode_counts(entries: Sequence[ModelEntry]) -> str | None:
    """A note when the ranked runs decoded their items a different number of times (None when all agree): a mean over
    more decodes varies less, so two models' intervals and their std across decodes are not alike."""
    counts: dict[int, list[str]] = {}
    for e in entries:
        for run in e.runs:
            counts.setdefault(run.decodes, [])
            if e.model not in counts[run.decodes]:
                counts[run.decodes].append(e.model)
    if len(counts) < 2:
        return None
    parts = "; ".join(f"{n}: {', '.join(models)}" for n, models in sorted(counts.items()))
    return f"the runs differ in decodes per item ({parts}): a score over fewer decodes varies more (its interval tends to be wider), and the std across decodes is not alike"


def build(entries: Sequence[ModelEntry], *, seed: int = 0, resamples: int = stats.DEFAULT_RESAMPLES) -> Leaderboard:
    entries = _order(entries)
    by_model = {e.model: e for e in entries}
    mains, comparisons = main_tables(entries, by_model, seed, resamples)
    main = mains[0]
    main.notes = ["mean with its 95% interval (cluster bootstrap over games × decodes); **best** bold, second underlined; "
                  "* best is significantly above every other model (paired bootstrap, 95%)", *main.notes]
    roles, role_comparisons = role_tables(entries, by_model, seed, resamples)
    gains = context_gain_table(entries, seed, resamples)
    solver_gains = solver_gain_table(entries, seed, resamples)
    tables = [t for t in (*mains, ablation_table(entries, seed, resamples), gains, solver_gains, *roles, *floors_tables(entries, seed, resamples)) if t]
    split = next((r.identity.get("split") for e in entries for r in e.runs), None)
    if split is not None:
        main.notes.append(f"split: {split}" + (" (items whose viewpoint lacks a night fact the rules require, or whose stem names a hidden role, "
                                                "are left out; --split all in eval gives every item)" if split == "faithful" else " (every item)"))
    silent = non_discriminating(entries)
    for task, why in silent.items():  # issue 45: a kind that cannot discriminate is said, not averaged in
        for t in mains:
            t.notes.append(f"{task_title(task, entries)} cannot discriminate: {why}; left out of every headline and mean")
    warnings_silent = [f"{task}: cannot discriminate ({why}); not in any headline" for task, why in silent.items()]
    if any(e.partial for e in entries):
        main.notes.append("(partial): the run is unfinished or had failed requests; its scores cover what was answered")
    warnings = []
    if (decodes := decode_counts(entries)) is not None:
        main.notes.append(decodes)
        warnings.append(decodes)
    few = []
    for t in tables:
        note, warning = games_note(t)
        t.notes += [n for n in (note, warning and f"warning: {warning}") if n]
        few += [t.key] if warning else []
    # One line for the terminal (each table's note says which intervals): within 80 columns.
    least = min((c.games for t in tables for r in t.rows for c in r.cells.values() if c.games is not None), default=0)
    warnings += [f"intervals on fewer than {stats.MIN_GAMES} games (min {least}): no significance marks"] if few else []
    return Leaderboard(tables, comparisons + role_comparisons, list(entries), seed, resamples, warnings + warnings_silent)
