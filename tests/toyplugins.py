"""Plug-ins of an invented package for tests/test_registry.py: a baseline model, an importer, a solver."""

from __future__ import annotations

import json
from pathlib import Path

from werealign.dataset import write_dataset
from werealign.errors import UserError
from werealign.importers import Imported, Importer
from werealign.baselines.models import baseline
from werealign.files.output_dir import output_directory
from werealign.schema import GameLog, VoteItem
from werealign.solvers import Solver


def _highest(view, seed):
    """acme/highest: the highest-numbered candidate (or the last option): a policy no built-in has."""
    if view.shape == "option":
        return view.options[-1][0], "the last option"
    return str(max(view.candidates)), "the highest seat"


HIGHEST = baseline("acme/highest", "the highest seat or the last option", _highest)


def _read_bundle(src: Path, out: Path, overwrite: bool) -> Imported:
    """An invented format: one JSON file {"name": ..., "games": [...], "vote": [...]}."""
    try:
        bundle = json.loads(src.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UserError(f"{src}: not a bundle: {e}") from None
    games = [GameLog.model_validate(g) for g in bundle["games"]]
    votes = [VoteItem.model_validate(v) for v in bundle["vote"]]
    with output_directory(out, command="import bundle", inputs=[src], overwrite=overwrite) as stage:
        write_dataset(stage, name=bundle["name"], version="1", licence="CC0", games=games, items={"vote": votes})
    return Imported(out=out, lines=(f"games: {len(games)}, vote items: {len(votes)}",), lost=0)


BUNDLE = Importer("bundle", "a JSON bundle of games and VA items", _read_bundle)


async def _twice(state, steps) -> str:
    first = await steps.ask("first", state.messages)
    steps.note("echo", first[:20])
    return first


TWICE = Solver("acme-echo", _twice, "asks once, notes the reply's start")
