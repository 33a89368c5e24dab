"""A board is data: a role list, the win rule and the debate style, never code per board.

Named boards live in `boards.json` beside this module; `--board FILE.json` reads one of the user's own
in the same shape, which may declare roles the catalogue lacks (`declared_roles`, as a game log does)
and give any role an ability the engine knows (`abilities`: role id -> {"action": ...}). Actions: `check`
(learns wolf or good), `protect` (the night kill fails on that seat; `no_repeat`: not the same seat
two nights running), `potions` (one save, one poison), `shoot` (takes a seat along when eliminated,
except by poison). Every wolf-faction role joins the night kill; any other role without an action
simply votes and talks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from werealign.errors import UserError
from werealign.files import parse_model, read_json
from werealign.schema.roles import RoleCatalogue, RoleDeclaration, catalogue_for

BOARDS_FILE = Path(__file__).with_name("boards.json")
ACTIONS = ("check", "protect", "potions", "shoot")
FACTIONS_PLAYABLE = ("good", "wolf")


class Ability(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["check", "protect", "potions", "shoot"]
    skill: str | None = Field(None, description="Event skill id written to the log (default: by action).")
    no_repeat: bool = False


class BoardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = ""
    roles: list[str] = Field(min_length=3)
    win: Literal["parity", "side_elimination"] = "parity"
    debate: Literal["bid", "round-robin"] = "bid"
    debate_turns: int = Field(8, ge=1, description="Turns per day's debate under bidding (Werewolf Arena: 8).")
    max_days: int = Field(12, ge=1)
    last_words: Literal["exiled", "exiled+first-night", "none"] = "exiled+first-night"
    declared_roles: list[RoleDeclaration] = Field(default_factory=list)
    abilities: dict[str, Ability] = Field(default_factory=dict)


DEFAULT_SKILL = {"check": "seer_check", "protect": "guard_protect", "potions": "witch", "shoot": "hunter_shoot"}


@dataclass(frozen=True)
class Board:
    name: str
    spec: BoardSpec
    catalogue: RoleCatalogue
    abilities: dict[str, Ability] = field(default_factory=dict)

    def faction(self, role: str) -> str:
        return self.catalogue.faction(role)

    def ability(self, role: str) -> Ability | None:
        return self.abilities.get(role)


@lru_cache(maxsize=1)
def _builtin() -> dict:
    return json.loads(BOARDS_FILE.read_text(encoding="utf-8"))


def board_names() -> list[str]:
    return sorted(_builtin()["boards"])


def load_board(name_or_file: str) -> Board:
    """A named board (`arena8`, `standard12`, ...) or a JSON file of the same shape."""
    data = _builtin()
    if name_or_file in data["boards"]:
        spec = BoardSpec.model_validate(data["boards"][name_or_file])
        name = name_or_file
    else:
        path = Path(name_or_file)
        if not path.suffix == ".json" or not path.is_file():
            raise UserError(f"--board {name_or_file}: not a board name ({', '.join(board_names())}) nor a board .json file")
        spec = parse_model(BoardSpec, read_json(path), str(path))
        name = path.stem
    return make_board(name, spec, where=name_or_file)


def make_board(name: str, spec: BoardSpec, where: str = "board") -> Board:
    try:
        catalogue = catalogue_for(spec.declared_roles)
    except ValueError as e:
        raise UserError(f"{where}: declared_roles: {e}") from None
    defaults = {k: Ability.model_validate(v) for k, v in _builtin()["abilities"].items()}
    abilities = {**defaults, **spec.abilities}
    for i, role in enumerate(spec.roles):
        if role not in catalogue:
            raise UserError(f"{where}: roles[{i}]: {role!r} is neither in the role catalogue nor declared (declared_roles)")
        if catalogue.faction(role) not in FACTIONS_PLAYABLE:
            raise UserError(f"{where}: roles[{i}]: {role!r} is on the {catalogue.faction(role)} side; the arena plays good against wolf")
    factions = [catalogue.faction(r) for r in spec.roles]
    if "wolf" not in factions or "good" not in factions:
        raise UserError(f"{where}: roles: a board needs at least one wolf-side and one good-side role")
    if factions.count("wolf") * 2 >= len(factions):
        raise UserError(f"{where}: roles: the wolves must start outnumbered")
    used = {r: a for r, a in abilities.items() if r in spec.roles}
    return Board(name=name, spec=spec, catalogue=catalogue, abilities=used)
