"""`werealign dataset build GAME.json... --out DIR` (issue 45): a dataset directory from built game logs, in one command.

Each game log (from `annotate build`, an importer or the arena) is read and validated like `werealign validate`;
a game with an error, a file that is no game log, or two files with one game id stop the build before anything is
written, each named. The dataset holds the games and no items: `werealign derive DIR` makes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from werealign.dataset import write_dataset
from werealign.errors import UserError
from werealign.files import parse_model, read_json
from werealign.files.output_dir import check_inputs, check_replaceable, output_directory
from werealign.schema import GameLog


@dataclass
class BuiltDataset:
    out: Path
    games: int
    agents: int  # seats played by an agent, over every game
    warnings: int


def build_dataset(files: Sequence[Path], out: Path, *, name: str, licence: str, version: str = "0.1.0", description: str = "",
                  overwrite: bool = False) -> BuiltDataset:
    from werealign.validate import validate_game

    if not files:
        raise UserError("dataset build: no game log given")
    check_inputs(out, list(files))
    check_replaceable(out, "dataset build", overwrite)
    games: dict[str, GameLog] = {}
    where: dict[str, Path] = {}
    warnings = 0
    for f in files:
        game = parse_model(GameLog, read_json(f, []), str(f))
        if game.game_id in games:
            raise UserError(f"{f}: game {game.game_id} is also in {where[game.game_id]}; a dataset holds each game once")
        findings = validate_game(game, str(f))
        errors = [x for x in findings if x.severity == "error"]
        if errors:
            raise UserError(f"{f}: game {game.game_id} has {len(errors)} validation error(s), first: {errors[0].to_text()}; "
                            "nothing written (`werealign validate` lists them all)")
        warnings += len(findings) - len(errors)
        games[game.game_id], where[game.game_id] = game, f
    with output_directory(out, command="dataset build", inputs=list(files), overwrite=overwrite) as stage:
        write_dataset(stage, name=name, version=version, licence=licence, games=list(games.values()), items={}, description=description)
    agents = sum(s.agent is not None for g in games.values() for s in g.seats)
    return BuiltDataset(out, len(games), agents, warnings)
