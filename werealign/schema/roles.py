"""Roles are data: the role catalogue shipped with the package, and the declarations that extend it.

`role_catalogue.json` (beside this module, in the wheel) lists Werewolf and Mafia roles: a
canonical id, names and synonyms per language, a faction, a team, the night ability and the
one-line rule text that rules summaries use. Real games bring roles nobody listed, so a game log
(`rules.declared_roles`), an annotator config (`declared_roles`) or an importer may declare more
roles, or override one (a declaration with a known id replaces the fields it gives and adds its
names). Everything downstream works with the canonical id; the label a file used is kept beside it.

A label that neither the catalogue nor a declaration knows is not an error by itself: the game
keeps the raw label as the role, its faction is `unknown`, and only what needs that faction is
skipped (see werealign.game.derive).

Factions: `good`, `wolf`, `third` (a third party: lovers, a solo role), `variable` (the side is
decided in play, e.g. the thief's card) and `unknown`. Teams refine a faction: `village` and `gods`
(good roles without / with a skill), `wolves`, `lovers`, `solo`, `variable`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import MISSING, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

Faction = Literal["good", "wolf", "third", "variable", "unknown"]
CATALOGUE_FILE = Path(__file__).with_name("role_catalogue.json")
HOST = "host"
# Labels that mean "the host / narrator", not a player, including a typo seen in real annotation.
HOST_LABELS = {"host", "hsot", "主持人", "法官", "narrator", "moderator", "gm", "game master"}

RoleId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_]*$", description="Canonical role id: lower-case letters, digits, '_'.")]


class NightKill(BaseModel):
    """A role's own kill at night (RoleDeclaration.night_kill): what the night-fact check may conclude from it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skill: str = Field(description="The kill's skill id, as events name it ('witch_poison', 'stalker_assassinate').")
    once: bool = Field(False, description="Once a game: stated on one night, it explains no death of another.")
    voted_targets_only: bool = Field(False, description="It may fall only on a seat the holder voted for in a day's exile vote (the stalker).")


class RoleDeclaration(BaseModel):
    """A role a game or config declares, or a change to a catalogue role (same id: given fields win, names add up)."""

    model_config = ConfigDict(extra="forbid")

    id: RoleId
    names: dict[str, list[str]] = Field(default_factory=dict, description="Language code -> names and synonyms; the first is the display name.")
    faction: Faction | None = Field(None, description="Required for a role the catalogue does not have.")
    team: str | None = Field(None, description="village, gods, wolves, lovers, solo, variable, or a team of the game's own.")
    night_ability: str | None = None
    knows_each_night: list[str] | None = Field(
        None, description="What the rules tell the role's holder every night it is alive, as skill ids of events "
        "('seer_check'; 'wolf_kill' for the pack's kill), or 'SKILL until OWN_SKILL' (the witch learns the victim "
        "until she has used her antidote: 'wolf_kill until witch_save'). Facts a viewpoint lacks are named on its items.")
    seer_sees_good: bool | None = Field(None, description="A wolf-side role a seer's check may show as good (a hidden wolf).")
    alters_night_deaths: bool | None = Field(None, description="Its night skill can kill or redirect a kill (a poison, an assassination, a swap): "
                                                              "a lone dawn death is the wolves' choice only when no such seat could act.")
    night_kill: NightKill | None = Field(None, description="Its own kill at night, when a kill is its only way to change the night's deaths "
                                                          "(the witch's poison, the stalker's assassination; not a swap, a dream, a charm).")
    survives: list[str] | None = Field(None, description="Night skills, as skill ids, that do not kill the holder when used on it ('witch_poison': "
                                                         "the demon, the witch hunter): such a use is borne out with no death at dawn.")
    reflects: list[str] | None = Field(None, description="Night skills, as skill ids, whose user dies at that night's dawn when it uses one on the "
                                                         "holder ('seer_check', 'witch_poison': the nightmare knight): a lone dawn death of a seat "
                                                         "that may have used one on the holder that night (or, as boards word it 'the next day', the night "
                                                         "before) is not known to be the wolves' kill.")
    rule: dict[str, str] = Field(default_factory=dict, description="Language code -> one-line rule text for rules summaries.")


@dataclass(frozen=True)
class Role:
    id: str
    faction: Faction
    team: str | None
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    night_ability: str | None = None
    rule: dict[str, str] = field(default_factory=dict)
    knows_each_night: tuple[str, ...] = ()  # RoleDeclaration.knows_each_night
    seer_sees_good: bool = False  # RoleDeclaration.seer_sees_good
    alters_night_deaths: bool = False  # RoleDeclaration.alters_night_deaths
    night_kill: NightKill | None = None  # RoleDeclaration.night_kill
    survives: tuple[str, ...] = ()  # RoleDeclaration.survives
    reflects: tuple[str, ...] = ()  # RoleDeclaration.reflects

    @property
    def is_god(self) -> bool:
        return self.team == "gods"

    @property
    def night_skills(self) -> frozenset[str]:
        """The night skills the catalogue says the role HOLDS (uses itself): its own kill (`night_kill`), in 'SKILL until
        OWN_SKILL' the own skill that ends it ('witch_save'), and each plain entry, a skill it learns the result of by
        using it ('seer_check'; the pack's kill 'wolf_kill' for a wolf-side role), except the pack's kill on a role off the
        wolf side, which it is only told, not made. A role may hold more than the
        catalogue states (a swap, a charm): absence proves nothing."""
        own = {d.until or d.skill for d in map(night_duty, self.knows_each_night)
               if d.until is not None or d.skill != "wolf_kill" or self.faction == "wolf"}
        return frozenset(own | ({self.night_kill.skill} if self.night_kill is not None else set()))

    def name(self, language: str) -> str:
        """Display name in `language`, else English, else the id in words."""
        for lang in (language, "en"):
            if self.names.get(lang):
                return self.names[lang][0]
        return self.id.replace("_", " ")


class NightDuty(NamedTuple):
    skill: str  # the skill whose result the holder learns
    until: str | None  # the holder's own skill whose use ends it, or None


def night_duty(text: str) -> NightDuty:
    """A `knows_each_night` entry as (the skill learnt, the holder's own skill whose use ends it, or None):
    'wolf_kill until witch_save' -> ('wolf_kill', 'witch_save')."""
    skill, _, until = (w.strip() for w in text.partition(" until "))
    return NightDuty(skill, until or None)


def normalise_label(label: str) -> str:
    """How labels are compared: case, '_'/'-' and runs of spaces do not matter ('Nine_Tailed-Fox' = 'nine tailed fox')."""
    return re.sub(r"\s+", " ", re.sub(r"[_\-]", " ", label.strip().lower()))


class RoleCatalogue:
    """Roles by id, in catalogue order (declared roles last), and every label that names one."""

    def __init__(self, roles: Iterable[Role]):
        self.roles: dict[str, Role] = {r.id: r for r in roles}
        self._labels: dict[str, str] = {}
        for role in self.roles.values():
            for label in [role.id, *(n for names in role.names.values() for n in names)]:
                # The first role to claim a label keeps it: a declaration cannot silently steal a catalogue name.
                self._labels.setdefault(normalise_label(label), role.id)

    def __contains__(self, role_id: object) -> bool:
        return role_id in self.roles

    def get(self, role_id: str) -> Role | None:
        return self.roles.get(role_id)

    def canonical(self, label: str) -> str | None:
        """Canonical id for an original label (any language, any case), or None when unknown."""
        if label in self.roles:
            return label
        return self._labels.get(normalise_label(label))

    def holds(self, role_id: str, skill: str) -> bool:
        """Whether the catalogue says `role_id` holds the night skill `skill` (`Role.night_skills`): the rule a role's id
        would otherwise stand for ('witch_save': the witch, or a declared role with her rules under another id). An
        unknown role holds nothing the catalogue can vouch for."""
        role = self.roles.get(role_id)
        return role is not None and skill in role.night_skills

    def faction(self, role_id: str) -> Faction:
        role = self.roles.get(role_id)
        return role.faction if role is not None else "unknown"

    def order(self, role_id: str) -> tuple[int, str]:
        """Sort key: catalogue order, unknown roles last by label."""
        ids = list(self.roles)
        return (ids.index(role_id), "") if role_id in self.roles else (len(ids), role_id)

    def extended(self, declarations: Iterable[RoleDeclaration]) -> RoleCatalogue:
        """This catalogue with `declarations` applied; a new role without a faction is a ValueError."""
        roles = dict(self.roles)
        declared_labels: dict[str, str] = {}
        for d in declarations:
            roles[d.id] = _declared(d, roles.get(d.id))
            for label in [n for ns in d.names.values() for n in ns]:
                declared_labels[normalise_label(label)] = d.id
        extended = RoleCatalogue(roles.values())
        # A declared name wins over the catalogue's: the game says what its label means.
        extended._labels.update(declared_labels)
        return extended


# The fields a declaration replaces when it gives them (names add up and rule texts merge by language instead).
_REPLACED = ("team", "night_ability", "knows_each_night", "seer_sees_good", "alters_night_deaths", "night_kill", "survives", "reflects")
_DEFAULTS = {f.name: f.default for f in fields(Role) if f.default is not MISSING}


def _declared(d: RoleDeclaration, old: Role | None) -> Role:
    """The role `d` declares, over `old` (the catalogue's role of that id, or None): one rule for the catalogue's own
    entries and every declaration, so a field added to RoleDeclaration cannot be read one way here and another there."""
    if old is None and d.faction is None:
        raise ValueError(f"declared role {d.id!r} is not in the role catalogue, so it needs a faction")
    old_names = old.names if old else {}
    names = {lang: tuple(dict.fromkeys([*old_names.get(lang, ()), *d.names.get(lang, [])])) for lang in sorted({*old_names, *d.names})}
    given = {}
    for name in _REPLACED:
        value = getattr(d, name)
        given[name] = (getattr(old, name) if old else _DEFAULTS.get(name)) if value is None else tuple(value) if isinstance(value, list) else value
    return Role(id=d.id, faction=d.faction or old.faction, names=names, rule={**(old.rule if old else {}), **d.rule}, **given)


@lru_cache(maxsize=1)
def builtin_catalogue() -> RoleCatalogue:
    """The shipped catalogue; each entry is read as a declaration (a misspelt field or a missing faction fails here)."""
    data = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    return RoleCatalogue(_declared(RoleDeclaration.model_validate(r), None) for r in data["roles"])


# Catalogues built for declarations, by their JSON: every view, prompt and check of a game asks for its game's
# catalogue again (an arena game thousands of times), and building one normalises every label of the catalogue.
# Nothing mutates a RoleCatalogue after it is built, so one object serves every caller (as builtin_catalogue does).
_EXTENDED: dict[tuple[str, ...], RoleCatalogue] = {}
_EXTENDED_MAX = 1024


def catalogue_for(declarations: Iterable[RoleDeclaration] = ()) -> RoleCatalogue:
    declarations = list(declarations)
    if not declarations:
        return builtin_catalogue()
    key = tuple(d.model_dump_json() for d in declarations)
    catalogue = _EXTENDED.get(key)
    if catalogue is None:
        catalogue = builtin_catalogue().extended(declarations)  # a bad declaration raises here, and is not kept
        if len(_EXTENDED) >= _EXTENDED_MAX:
            _EXTENDED.clear()  # bounded: a long import of many games' own declarations does not grow it forever
        _EXTENDED[key] = catalogue
    return catalogue


CATALOGUE = builtin_catalogue()
# Read-only views kept for callers that only need the built-in catalogue.
ROLES: dict[str, tuple[Faction, bool, str]] = {r.id: (r.faction, r.is_god, r.rule.get("en", "")) for r in CATALOGUE.roles.values()}
ROLE_LABELS: dict[str, str] = dict(CATALOGUE._labels)


def canonical_role(label: str, catalogue: RoleCatalogue | None = None) -> str | None:
    """Canonical role id for an original label, or None when the label is unknown."""
    return (catalogue or CATALOGUE).canonical(label)


def is_host_label(label: str) -> bool:
    return normalise_label(label) in HOST_LABELS


def faction_of(role: str, catalogue: RoleCatalogue | None = None) -> Faction:
    """The role's faction; `unknown` for a role neither the catalogue nor a declaration knows."""
    return (catalogue or CATALOGUE).faction(role)


def is_god(role: str, catalogue: RoleCatalogue | None = None) -> bool:
    r = (catalogue or CATALOGUE).get(role)
    return r is not None and r.is_god


def variant_id(roles: Iterable[str], catalogue: RoleCatalogue | None = None) -> str:
    """Variant id named by a game's special roles in catalogue order, e.g. 'seer-witch-hunter-guard'.

    Plain villagers and werewolves are in every game, so they don't distinguish variants; a role
    the catalogue does not know is named by its label (slugged), after the known ones.
    """
    cat = catalogue or CATALOGUE
    present = sorted(set(roles), key=cat.order)
    slugs = [r if r in cat else re.sub(r"[^0-9a-z\u4e00-\u9fff]+", "_", r.lower()).strip("_") or "unknown" for r in present
             if r not in ("villager", "werewolf")]
    return "-".join(slugs) or "villagers-werewolves"
