"""A board is data: a role list, the table rules and the language, never code per board.

Named boards live in `boards.json` beside this module; `--board FILE.json` reads one of the user's own
in the same shape, or a werealign game log, whose cards, win rule, sheriff and language become the
board (`board_of_game`). A board may declare roles the catalogue lacks (`declared_roles`, as a game
log does) and give any role an ability the moderator loop (werealign.arena.moderator) knows
(`abilities`: role id -> {"action": ...}).
Actions: `check` (learns wolf or good), `protect` (the night kill fails on that seat; `no_repeat`: not
the same seat two nights running), `potions` (one save, one poison, not both in a night, no self-save),
`shoot` (takes a seat along when out, except when poisoned), `take` (takes a seat along when it
self-destructs: the white wolf king), `silence` (the seat chosen at night says nothing the next day:
the silencer elder), `charm` (a wolf who charms a seat each night; it leaves with her; she does not
self-destruct: the wolf beauty), `assassinate` (once a game, at night, a seat it voted for that is
still in: the stalker), `idiot` (voted out, shows the card and stays in without a vote), `check_god`
(learns at night whether a seat holds a god role: the demon), `none` (a plain card). Every wolf-side role joins the night kill.
A role with no action in the table and not declared by the board is one the moderator loop cannot play: the
board is refused in one line naming it (a wolf beauty played as a plain wolf would not be her game).
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
from werealign.schema import GameLog
from werealign.schema.roles import RoleCatalogue, RoleDeclaration, catalogue_for

BOARDS_FILE = Path(__file__).with_name("boards.json")
ACTIONS = ("check", "protect", "potions", "shoot", "take", "silence", "charm", "assassinate", "idiot", "check_god", "none")
FACTIONS_PLAYABLE = ("good", "wolf")


class Ability(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["check", "protect", "potions", "shoot", "take", "silence", "charm", "assassinate", "idiot", "check_god", "none"]
    skill: str | None = Field(None, description="Event skill id written to the log (default: by action).")
    no_repeat: bool = False


class BoardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = ""
    roles: list[str] = Field(min_length=3)
    win: Literal["parity", "side_elimination", "all_elimination"] = "parity"
    debate: Literal["bid", "round-robin"] = "bid"
    debate_turns: int = Field(8, ge=1, description="Turns per day's debate under bidding (Werewolf Arena: 8).")
    max_days: int = Field(12, ge=1)
    last_words: Literal["exiled", "exiled+first-night", "none"] = "exiled+first-night"
    exile: Literal["plurality", "majority"] = Field(
        "plurality", description="plurality (the human games): the most votes goes, a tie is voted again among the tied "
        "players by everyone else, a second tie exiles nobody; majority (Werewolf Arena): more than half the ballots cast, else nobody.")
    sheriff: bool = Field(False, description="A sheriff elected on day 1 (the human games): 1.5 votes, sets the speaking order, passes or tears up the badge.")
    self_destruct: bool = Field(False, description="A wolf may self-destruct on its day turn, ending the day (the human games).")
    language: Literal["en", "zh"] = Field("en", description="The language of the moderator, the rule agents and the prompts.")
    poll_votes: bool = Field(False, description="Measurement, not a rule: after every debate turn each seat is asked whom it would "
                             "vote for now (Werewolf Arena's synthetic votes, for voting entropy per turn); never a ballot.")
    abstention: bool = Field(True, description="Whether a player may abstain from a day vote (the human games: yes).")
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
    """A named board (`arena8`, `standard12`, ...), a board .json file, or a werealign game log (its rules become the board)."""
    data = _builtin()
    if name_or_file in data["boards"]:
        spec = BoardSpec.model_validate(data["boards"][name_or_file])
        name = name_or_file
    else:
        path = Path(name_or_file)
        if not path.suffix == ".json" or not path.is_file():
            raise UserError(f"--board {name_or_file}: not a board name ({', '.join(board_names())}) nor a board .json file")
        raw = read_json(path)
        if isinstance(raw, dict) and "game_id" in raw and "rules" in raw:
            spec, name = board_of_game(parse_model(GameLog, raw, str(path)), str(path)), path.stem
        else:
            spec = parse_model(BoardSpec, raw, str(path))
            name = path.stem
    return make_board(name, spec, where=name_or_file)


def board_of_game(game: GameLog, where: str) -> BoardSpec:
    """The board a game log was played on: its cards, win rule, sheriff and language. The human games'
    table rules the log does not record are the human games' (talk in seat order, the tied players
    spoken on and voted again, self-destruct allowed, abstention allowed: the logs never say it is not)."""
    from werealign.arena.lines import LANGUAGES

    if game.language not in LANGUAGES:
        raise UserError(f"{where}: language: the arena speaks {', '.join(LANGUAGES)}, not {game.language!r}")
    roles = [rc.role for rc in game.rules.composition for _ in range(rc.count)] or [s.role for s in game.seats]
    win = {"side_elimination": "side_elimination", "all_elimination": "all_elimination"}.get(game.rules.win_condition, "parity")
    return BoardSpec(description=f"the setup of game {game.game_id}", roles=roles, win=win, debate="round-robin",
                     sheriff=game.sheriff_in_play(), self_destruct=True, language=game.language,
                     declared_roles=game.rules.declared_roles)


def make_board(name: str, spec: BoardSpec, where: str = "board") -> Board:
    try:
        catalogue = catalogue_for(spec.declared_roles)
    except ValueError as e:
        raise UserError(f"{where}: declared_roles: {e}") from None
    defaults = {k: Ability.model_validate(v) for k, v in _builtin()["abilities"].items()}
    abilities = {**defaults, **spec.abilities}
    declared = {d.id for d in spec.declared_roles}
    for i, role in enumerate(spec.roles):
        if role not in catalogue:
            raise UserError(f"{where}: roles[{i}]: {role!r} is neither in the role catalogue nor declared (declared_roles)")
        if role not in abilities and role not in declared:
            raise UserError(f"{where}: roles[{i}]: the arena cannot play {role!r} (no ability of the engine stands for it; "
                            f"it plays {', '.join(sorted(abilities))} and roles the board declares)")
        if catalogue.faction(role) not in FACTIONS_PLAYABLE:
            raise UserError(f"{where}: roles[{i}]: {role!r} is on the {catalogue.faction(role)} side; the arena plays good against wolf")
    factions = [catalogue.faction(r) for r in spec.roles]
    if "wolf" not in factions or "good" not in factions:
        raise UserError(f"{where}: roles: a board needs at least one wolf-side and one good-side role")
    if factions.count("wolf") * 2 >= len(factions):
        raise UserError(f"{where}: roles: the wolves must start outnumbered")
    for i, role in enumerate(spec.roles):
        if abilities.get(role) is not None and abilities[role].action == "take" and not spec.self_destruct:
            raise UserError(f"{where}: roles[{i}]: {role!r} takes a seat when self-destructing, which this board does not allow "
                            '(set "self_destruct": true)')
    used = {r: a for r, a in abilities.items() if r in spec.roles and a.action != "none"}
    return Board(name=name, spec=spec, catalogue=catalogue, abilities=used)
