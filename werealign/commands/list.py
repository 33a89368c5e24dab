"""`werealign list`: what a run can be made of (tasks, variants, modes, models, solvers, importers).

Names come from the registries themselves, so a task, variant, mode, built-in model or importer
added there is listed without touching this file; the one-line descriptions below are only looked
up (a name without one is still listed).
"""

from __future__ import annotations

import typer

WIDTH = 80
ABOUT = {
    "variants": {
        "base": "the item as recorded",
        "rr": "a rule reminder before the question",
        "osr": "speeches replaced by their objective rewrites",
        "no-context": "no transcript or events: rules, own role, question",
        "options-only": "only the options, with a fixed instruction",
    },
}
SOLVERS = "solvers (--solver NAME[:key=value,...])"


def _solvers() -> dict[str, str]:
    """Every registered solver (werealign.solvers)."""
    from werealign.solvers import solvers

    return {name: s.description for name, s in solvers().items()}


def _solver_options(name: str) -> str:
    """A solver's options with their defaults, for the line under it ('' when it has none)."""
    from werealign.solvers import solvers

    return ", ".join(f"{k}={v}" for k, v in solvers()[name].options.items())



def _boards() -> dict[str, str]:
    """The arena's shipped boards (werealign/arena/boards.json) with their seats and language."""
    from werealign.arena.board import board_names, load_board

    boards = {name: load_board(name).spec for name in board_names()}
    return {name: f"{len(b.roles)} seats, {b.language}: {b.description}" for name, b in boards.items()}


def _importers() -> dict[str, str]:
    from werealign.importers import IMPORTERS

    return {name: i.description for name, i in IMPORTERS.items()}


def sections() -> dict[str, dict[str, str]]:
    """Section -> name -> one-line description, every name read from its registry."""
    from werealign.llm.builtin_models import MODELS
    from werealign.tasks import TASKS, VARIANTS

    variants = list(dict.fromkeys([*VARIANTS, *(v for t in TASKS.values() for v in t.variants)]))
    modes = {f"{t.name}/{m}": t.modes_about.get(m, "") for t in TASKS.values() for m in t.modes}
    shorthands = "".join(f", --{t.mode_alias}-mode" for t in TASKS.values() if t.mode_alias and t.modes)

    def about(section: str, names) -> dict[str, str]:
        return {n: ABOUT[section].get(n, "") for n in names}

    by_task = {v: ", ".join(t.name for t in TASKS.values() if v in t.variants) for v in variants}
    return {
        "tasks (--tasks)": {name: t.description for name, t in TASKS.items()},
        "variants (--variant)": {v: " ".join(x for x in (ABOUT["variants"].get(v, ""), by_task[v] and f"[{by_task[v]}]") if x)
                                 for v in variants},
        f"modes (--mode TASK=MODE{shorthands}; first is default)": modes,
        "built-in models (--model)": {name: m.description for name, m in MODELS.items()},
        SOLVERS: _solvers(),
        "importers (werealign import NAME)": _importers(),
        "arena boards (arena --board NAME, a board .json or a game log)": _boards(),
    }


def _line(name: str, text: str, pad: int) -> str:
    """One entry; a description longer than the line wraps under itself, never cut."""
    import textwrap

    first = f"  {name:<{pad}}  "
    if not text:
        return first.rstrip()
    indent = " " * min(len(first), WIDTH // 2)
    return textwrap.fill(text, WIDTH, initial_indent=first, subsequent_indent=indent, break_on_hyphens=False)


def list_command() -> None:
    """List tasks, variants, modes, built-in models, solvers (with their options) and importers, one line each."""
    out = []
    for title, entries in sections().items():
        pad = max((len(n) for n in entries), default=0)
        out.append(title)
        for n, t in entries.items():
            out.append(_line(n, t, pad))
            if title == SOLVERS and (options := _solver_options(n)):
                out.append(_line("", f"options: {options}", pad))
        out.append("")
    typer.echo("\n".join(out).rstrip("\n"))
