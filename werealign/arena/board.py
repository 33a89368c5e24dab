"""A board is data: a role list, the table rules and the language, never code per board.

Named boards live in `boards.json` beside this module; `--board FILE.json` reads one of the user's own
in the same shape, a werealign game log, whose cards, win rule, sheriff, language, rulebook text and
move rules become the board (`board_of_game`), or a board file that names a game log (`{"game": "g.json",
...}`) and adds what that game does not say: roles it declares (`declared_roles`), their moves (`abilities`)
and rules (`moves`). A board may declare roles the catalogue lacks (`declared_roles`, as a game log does)
and give any role an ability the moderator loop (werealign.arena.moderator) knows (`abilities`: role id ->
{"action": ...}).
Actions: `check` (learns wolf or good), `protect` (the night kill fails on that seat; `no_repeat`: not
the same seat two nights running), `potions` (one save, one poison), `shoot` (takes a seat along when out,
except when poisoned), `take` (takes a seat along when it self-destructs: the white wolf king), `silence`
(the seat chosen at night says nothing the next day: the silencer elder), `charm` (a wolf who charms a seat
each night; it leaves with her: the wolf beauty), `assassinate` (once a game, at night, a seat it voted for
that is still in: the stalker), `idiot` (voted out, shows the card and stays in without a vote), `check_god`
(learns at night whether a seat holds a god role: the demon), `swap` (first thing at night, may swap two seats'
numbers: that night every move aimed at one lands on the other: the magician), `tails` (starts with `tails` tails, loses
`tail_cost[team]` at each death of a seat of that team, learns the count each night, that night's deaths counted, and
leaves the game when none is left: the nine-tailed fox), `swallow` (first thing at night, alone, swallows another seat,
`no_repeat`: not the same two nights running; that seat's exile the next day is void and night falls: the sky dog),
`moon` (once a day's vote is over, may put night off: another round of talk and vote that day, at most once a day, on
any day; not after a void exile, which ends the day: the moon girl), `link` (night 1: links lovers who die together,
`witness`, `side_switch` to a third side, `third_kill`, `plays_for`: the ghost bride and cupid; werealign.arena.lovers), `none`
(a card with no move of its own). `disables_voters: TEAM`: the seats of that team that voted the card out have no
night move the next night (the sky dog's).
A wolf-side card joins the pack's night kill unless its ability says `joins_kill: false` or
`joins_kill_after: ROLE` (only once that role's holder is out); `solo_kill_after: ROLE` kills alone the night
after that role's holder leaves (the wolf brothers); `seen_good_while: ROLE` shows good to a seer's check
while that role's holder is in; `self_destruct: false` may not self-destruct.
The rules boards differ on (the witch's self-save, whom the wolf beauty charms, ...) are `moves`
(werealign.schema.MoveRules); one a board leaves out is the engine's (`ENGINE_RULES`).
A role the board declares with no night ability and no rule text is a plain card. Any other role with no action in
the table and none declared by the board is one the moderator loop cannot play: the
board is refused in one line naming it and the declaration to add (a wolf beauty played as a plain wolf would
not be her game).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from werealign.errors import UserError
from werealign.files import parse_model, read_json
from werealign.game.moves import rules_of
from werealign.schema import GameLog
from werealign.schema.models import MoveRules
from werealign.schema.roles import RoleCatalogue, RoleDeclaration, builtin_catalogue, catalogue_for, normalise_label

BOARDS_FILE = Path(__file__).with_name("boards.json")
ACTIONS = ("check", "protect", "potions", "shoot", "take", "silence", "charm", "assassinate", "idiot", "check_god", "swap", "tails", "swallow", "moon", "link", "none")
FACTIONS_PLAYABLE = ("good", "wolf", "third")


class Ability(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["check", "protect", "potions", "shoot", "take", "silence", "charm", "assassinate", "idiot", "check_god", "swap", "tails", "swallow", "moon", "link", "none"]
    skill: str | None = Field(None, description="Event skill id written to the log (default: by action).")
    no_repeat: bool = False
    joins_kill: bool = Field(True, description="A wolf-side card joins the pack's night kill.")
    joins_kill_after: str | None = Field(None, description="Role id: the card joins the pack's kill only once that role's holder is out.")
    solo_kill_after: str | None = Field(None, description="Role id: the night after that role's holder leaves, the card kills alone, once "
                                        "(a second kill that night; the same seat as the pack's: neither protection nor antidote saves it; "
                                        "the witch is not told it). Alone in the pack that night, it waits one night.")
    seen_good_while: str | None = Field(None, description="Role id: a seer's check shows the card good while that role's holder is in.")
    self_destruct: bool | None = Field(None, description="Whether the card may self-destruct (absent: a wolf-side card may, the wolf beauty aside).")
    disables_voters: str | None = Field(None, description="A team: its seats that voted the card out have no night move the next night.")
    tails: int = Field(9, ge=1, description="`tails`: how many the card starts with.")
    tail_cost: dict[str, int] = Field(default_factory=lambda: {"village": 1, "gods": 2},
                                      description="`tails`: tails lost per death of a seat of each team (a team not named: none).")
    plays_for: Literal["good", "wolf", "third"] | None = Field(
        None, description="The side the card starts on, where its catalogue faction is not one ('variable': the ghost bride's is third, cupid's good).")
    link: Literal["self", "pair"] = Field("self", description="`link`: the card links itself and a seat it picks (self), or two seats it picks (pair).")
    witness: bool = Field(False, description="`link`: the lovers name one other seat their witness, told who they are.")
    side_switch: Literal["always", "mixed", "never"] = Field(
        "always", description="`link`: the lovers and the witness join the card's third side always, or only when the lovers' cards are on "
        "different sides (mixed: the lovers and the card form it), or never.")
    third_kill: bool = Field(False, description="`link`: once no wolf-side seat is in, the third side makes the night kill (the lovers, else the witness).")


# The move rules the engine plays where a board declares none (each one is shown in the game's rules text).
ENGINE_RULES = MoveRules(guard_repeat=False, guard_may_skip=False, witch_self_save="never", witch_both_potions=False,
                         wolves_may_skip=False, wolves_may_kill_wolf=False, charm_target="any", stalker_window="any_day",
                         campaign_self_destruct="badge_lost", sheriff_tie="revote")


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
    moves: MoveRules = Field(default_factory=MoveRules, description="The board's move rules; one left out is the engine's (ENGINE_RULES).")
    rules_text: str | None = Field(None, description="The board's rulebook text, shown in every prompt with the rules it leaves out "
                                   "(a human game's own text when the board is that game's).")


DEFAULT_SKILL = {"check": "seer_check", "protect": "guard_protect", "potions": "witch", "shoot": "hunter_shoot"}


@dataclass(frozen=True)
class Board:
    name: str
    spec: BoardSpec
    catalogue: RoleCatalogue
    abilities: dict[str, Ability] = field(default_factory=dict)

    def faction(self, role: str) -> str:
        return self.catalogue.faction(role)

    def side(self, role: str) -> str:
        """The side a card starts the game on: its ability's `plays_for`, else its catalogue faction."""
        a = self.abilities.get(role)
        return a.plays_for if a is not None and a.plays_for is not None else self.faction(role)

    def ability(self, role: str) -> Ability | None:
        return self.abilities.get(role)

    @property
    def rules(self) -> MoveRules:
        """The move rules played: the board's, else the engine's."""
        declared = self.spec.moves
        return MoveRules(**{k: v if (v := getattr(declared, k)) is not None else getattr(ENGINE_RULES, k) for k in MoveRules.model_fields})


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
        name = path.stem
        if isinstance(raw, dict) and "game_id" in raw and "rules" in raw:
            spec = board_of_game(parse_model(GameLog, raw, str(path)), str(path))
        elif isinstance(raw, dict) and "game" in raw:
            spec = _over_game(raw, path)
        else:
            spec = parse_model(BoardSpec, raw, str(path))
    return make_board(name, spec, where=name_or_file)


def _over_game(raw: dict, path: Path) -> BoardSpec:
    """A board file naming a game log (`"game"`, relative to the file) and adding declarations, abilities and rules to its board."""
    game_path = (path.parent / str(raw["game"])).resolve()
    if not game_path.is_file():
        raise UserError(f"{path}: game: no game log at {game_path}")
    base = board_of_game(parse_model(GameLog, read_json(game_path), str(game_path)), str(game_path))
    extra = parse_model(BoardSpec, {"roles": base.roles, **{k: v for k, v in raw.items() if k != "game"}}, str(path))
    given = extra.model_fields_set - ({"roles"} if "roles" not in raw else set())
    moves = MoveRules(**{**base.moves.model_dump(exclude_none=True), **extra.moves.model_dump(exclude_none=True)})
    return base.model_copy(update={**{k: getattr(extra, k) for k in given}, "moves": moves,
                                   "declared_roles": [*base.declared_roles, *extra.declared_roles]})


def board_of_game(game: GameLog, where: str) -> BoardSpec:
    """The board a game log was played on: its cards, win rule, sheriff and language. The human games'
    table rules the log does not record are the human games' (talk in seat order, the tied players
    spoken on and voted again, self-destruct allowed, abstention allowed: the logs never say it is not)."""
    from werealign.arena.lines import LANGUAGES

    if game.language not in LANGUAGES:
        raise UserError(f"{where}: language: the arena speaks {', '.join(LANGUAGES)}, not {game.language!r}")
    roles = [rc.role for rc in game.rules.composition for _ in range(rc.count)] or [s.role for s in game.seats]
    win = game.rules.win_condition if game.rules.win_condition != "other" else _win_in_text(game.rules.text)
    if win is None:
        raise UserError(f"{where}: rules.win_condition: 'other', and the rules text states no win rule the arena plays; "
                        f'name it in a board file: {{"game": {json.dumps(where)}, "win": "side_elimination" or "all_elimination" or "parity"}}')
    moves = rules_of(game)  # as the log declares them, else as its rulebook text states them
    if moves.campaign_self_destruct is None:  # the human hosts resume the election the next morning
        moves = moves.model_copy(update={"campaign_self_destruct": "election_resumes"})
    return BoardSpec(description=f"the setup of game {game.game_id}", roles=roles, win=win, debate="round-robin",
                     sheriff=game.sheriff_in_play(), self_destruct=True, language=game.language,
                     declared_roles=game.rules.declared_roles, moves=moves, rules_text=game.rules.text)


# A rules text's win rule in words, where a log's win condition is 'other' (the importer reads only the names 屠边/屠城).
WIN_TEXT = (("side_elimination", re.compile(r"屠边|所有(?:普通)?村民[^。；]{0,4}或[^。；]{0,4}所有神|所有神[民明职]?[^。；]{0,4}或[^。；]{0,4}所有(?:普通)?村民"
                                            r"|(?i:all (?:the )?villagers or all (?:the )?(?:gods|special))")),
            ("all_elimination", re.compile(r"屠城|(?i:kill all (?:the )?good)")))


def _win_in_text(text: str | None) -> str | None:
    return next((win for win, pattern in WIN_TEXT if text and pattern.search(text)), None)


def make_board(name: str, spec: BoardSpec, where: str = "board") -> Board:
    try:
        catalogue = catalogue_for(spec.declared_roles)
    except ValueError as e:
        raise UserError(f"{where}: declared_roles: {e}") from None
    defaults = {k: Ability.model_validate(v) for k, v in _builtin()["abilities"].items()}
    abilities = {**defaults, **spec.abilities}
    # A label the board's declarations name ('天狗' declared as id 'tiangou') is played as that role.
    spec = spec.model_copy(update={"roles": [catalogue.canonical(r) or r for r in spec.roles]})
    # A role the board declares with neither a night ability nor a rule has nothing to play but its card.
    plain = {d.id: Ability(action="none") for d in spec.declared_roles if d.night_ability is None and not d.rule
             and d.id not in abilities and d.id not in builtin_catalogue()}
    abilities.update(plain)
    for i, role in enumerate(spec.roles):
        if role not in catalogue:
            raise UserError(f"{where}: roles[{i}]: {role!r} is not in the role catalogue and the board declares no role by that name; "
                            f"add it to the board's {_declaration(role)}{_game_hint(where)}")
        if role not in abilities:
            raise UserError(f"{where}: roles[{i}]: the arena cannot play {role!r}: no move of the engine is declared for it; add to the "
                            f"board \"abilities\": {{{json.dumps(role)}: {{\"action\": \"none\"}}}} if it has no move of its own, "
                            f"else an action among {', '.join(ACTIONS)} (werealign.arena.board){_game_hint(where)}")
        side = abilities[role].plays_for or catalogue.faction(role)
        if side not in FACTIONS_PLAYABLE:
            raise UserError(f"{where}: roles[{i}]: {role!r} is on the {catalogue.faction(role)} side and its ability names no side it starts on: "
                            f"add \"plays_for\": \"good\", \"wolf\" or \"third\" to the board's \"abilities\": {{{json.dumps(role)}: {{...}}}} "
                            f"(a third side is formed by a \"link\" ability: lovers, a witness, a side switch){_game_hint(where)}")
        if side == "third" and not (abilities[role].action == "link" and abilities[role].side_switch != "never"):
            raise UserError(f"{where}: roles[{i}]: {role!r} starts on a third side, which only a \"link\" ability with a side switch plays "
                            f"(its win: every seat still in is on it){_game_hint(where)}")
    factions = [abilities[r].plays_for or catalogue.faction(r) for r in spec.roles]
    if "wolf" not in factions or "good" not in factions:
        raise UserError(f"{where}: roles: a board needs at least one wolf-side and one good-side role")
    if factions.count("wolf") * 2 >= len(factions):
        raise UserError(f"{where}: roles: the wolves must start outnumbered")
    for i, role in enumerate(spec.roles):
        if abilities.get(role) is not None and abilities[role].action == "take" and not spec.self_destruct:
            raise UserError(f"{where}: roles[{i}]: {role!r} takes a seat when self-destructing, which this board does not allow "
                            '(set "self_destruct": true)')
        a = abilities[role]
        for ref in (a.joins_kill_after, a.solo_kill_after, a.seen_good_while):
            if ref is not None and ref not in spec.roles:
                raise UserError(f"{where}: abilities.{role}: {ref!r} is named but no seat of the board holds it")
    used = {r: a for r, a in abilities.items() if r in spec.roles}
    return Board(name=name, spec=spec, catalogue=catalogue, abilities=used)


def _declaration(label: str) -> str:
    """The exact declaration a board needs for a role label nobody declared."""
    slug = "_".join(normalise_label(label).split()) if re.fullmatch(r"[a-z0-9][a-z0-9_ \-]*", normalise_label(label)) else "custom_role"
    names = {"zh" if re.search(r"[\u4e00-\u9fff]", label) else "en": [label]}
    decl = {"id": slug, "names": names, "faction": "good|wolf", "team": "village|gods|wolves", "rule": {next(iter(names)): "..."}}
    return (f"\"declared_roles\": [{json.dumps(decl, ensure_ascii=False)}] (faction and team: choose one; knows_each_night: what it "
            f"learns) and its move in \"abilities\": {{{json.dumps(slug)}: {{\"action\": \"none\"}}}} or another action "
            f"({', '.join(ACTIONS)})")


def _game_hint(where: str) -> str:
    """For a board made from a game log: where the declaration goes (the log is the game's record, not the user's board)."""
    if where.endswith(".json") and Path(where).is_file() and "game_id" in read_json(Path(where)):
        return f'; a game log\'s board takes it from a board file: {{"game": {json.dumps(where)}, "declared_roles": [...], "abilities": {{...}}}}'
    return ""
