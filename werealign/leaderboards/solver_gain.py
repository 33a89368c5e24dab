"""The solver-gain table: what a solver adds to the same model, with a 95% interval.

Issue 22's question: does an agent design (cot, sa, xu, ...) make a model decide more like the humans
who won? Each row is one model with one solver; each cell its score minus the same model's score with
the default solver (`single`), paired on the items both answered (cluster bootstrap over games, the
leaderboard's seed and resamples); * the interval excludes 0 over enough games. Built only when some
model ran both the default and another solver, on the first variant both scored. Each row names the
published work its solver reproduces (`Solver.paper`; nothing for a solver that names none).
"""

from __future__ import annotations

from collections.abc import Sequence

from werealign.stats import bootstrap as stats
from werealign.leaderboards.collect import ModelEntry
from werealign.leaderboards.table_model import Cell, Row, Table, main_columns
from werealign.schema.runs import DEFAULT_SOLVER


def solver_gain_table(entries: Sequence[ModelEntry], seed: int, resamples: int) -> Table | None:
    plain = {e.base_model: e for e in entries if e.solver == DEFAULT_SOLVER}
    pairs = sorted(((e, plain[e.base_model]) for e in entries if e.solver != DEFAULT_SOLVER and e.base_model in plain),
                   key=lambda p: (p[0].base_model, p[0].solver))
    if not pairs:
        return None
    columns = main_columns(entries)
    rows = []
    for entry, base in pairs:
        variant = next((v for v in entry.scores if v in base.scores), None)
        cite = paper_of(entry.solver)
        row = Row(f"{entry.model} — {cite.split(',')[0]}" if cite else entry.model, entry.model, entry.partial or base.partial, entry.baseline)
        for c in columns:
            found = None if variant is None else stats.compare(
                c.observations(entry, variant), c.observations(base, variant), resamples=resamples, group_of=c.group_of(),
                seed=stats.derived_seed(seed, "solver-gain", entry.model, c.name))
            row.cells[c.name] = Cell(None) if found is None else Cell(
                found.difference, found.low, found.high, significant=found.significant, games=found.games)
        rows.append(row)
    notes = [f"gain = score with the solver − score of the same model with the default solver ({DEFAULT_SOLVER}), "
             "paired on the items both answered, with its 95% interval (cluster bootstrap over games); "
             "* the interval excludes 0"]
    papers = sorted({(name_of(e.solver), paper_of(e.solver)) for e, _ in pairs if paper_of(e.solver)})
    notes += [f"{name}: {paper}" for name, paper in papers]
    return Table("solver-gain", "Solver gain: each solver minus the same model's single call", columns, rows, notes)


def name_of(spec: str) -> str:
    return spec.partition(":")[0]


def paper_of(spec: str) -> str:
    """The work a solver reproduces, as it names it; "" for a solver this installation does not know."""
    from werealign.solvers import SOLVERS

    solver = SOLVERS[name_of(spec)] if name_of(spec) in SOLVERS else None
    return getattr(solver, "paper", "") if solver is not None else ""
