"""The night rules the truth check uses are role catalogue fields (issue 41's follow-up, issue 46's open world):
`night_kill` (a role's own kill: its skill, once a game, only a seat voted for by day) and `survives` (night skills
that do not kill the holder). A role a game declares with a field is settled by it with no code edit; a role without
it is not; a role the catalogue does not know is not known. Every role, seat, night and sentence is invented."""

from __future__ import annotations

import pytest

from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_truth import NotKnown, own_kill_skills, settle_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE, Audience
from werealign.schema.roles import NightKill, RoleDeclaration, builtin_catalogue, catalogue_for

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

PHASES = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]

# a plug-in ranger who, once a game, shoots at night a seat he voted for by day; an archer who shoots with no such rule
RANGER = RoleDeclaration(id="night_ranger", faction="good", team="gods", alters_night_deaths=True, names={"en": ["night ranger"]},
                         night_kill=NightKill(skill="ranger_shot", once=True, voted_targets_only=True))
ARCHER = RoleDeclaration(id="night_archer", faction="good", team="gods", alters_night_deaths=True, names={"en": ["night archer"]})
# a wolf-side golem a poison does not kill, and a wolf-side bruiser declared without that field
GOLEM = RoleDeclaration(id="stone_golem", faction="wolf", team="wolves", survives=["witch_poison"], names={"en": ["stone golem"]})
BRUISER = RoleDeclaration(id="bruiser", faction="wolf", team="wolves", names={"en": ["bruiser"]})


def _seats(two: str, four: str = "werewolf") -> list[SeatInfo]:
    good = {"night_ranger", "night_archer", "witch", "seer", "villager", "hunter"}
    return [SeatInfo(seat=s, role=r, faction="good" if r in good else "wolf") for s, r in
            [(1, "seer"), (2, two), (3, "villager"), (4, four), (5, "villager"), (6, "hunter"), (7, "werewolf")]]


def _dawn(seat: int, day: int) -> Event:
    return Event(kind="elimination", phase=f"day-{day}", segment_id=20 * day + 11, audience=EVERYONE, target=seat, result="night_death")


def _act(actor: int, skill: str, target: int, night: int) -> Event:
    return Event(kind="skill_use", phase=f"night-{night}", segment_id=None, audience=ACTOR, actor=actor, target=target, skill=skill)


def _kills(events) -> set[tuple[str, int | None]]:
    return {(e.phase, e.target) for e in events if e.skill == "wolf_kill" and e.audience.kind == "team"}


def _lone_death(two: str, declared=(), actions=(), voted=lambda seat, night: None, knifed=lambda seat, night: []):
    """The wolves' kills the truth check infers when seat 3 dies alone at the dawn after night 2."""
    kept, _ = settle_night_actions(list(actions), [_dawn(3, 2)], _seats(two), PHASES, voted=voted, knifed=knifed,
                                   catalogue=catalogue_for(declared))
    return _kills(kept)


def test_a_declared_role_whose_kill_falls_only_on_a_seat_it_voted_for_gets_the_stalkers_rule():
    never_voted_3 = lambda seat, night: {5, 7} if seat == 2 else set()  # noqa: E731
    assert _lone_death("night_ranger", [RANGER], voted=never_voted_3) == {("night-2", 3)}
    # he voted for seat 3 by day: his shot may be the death
    assert _lone_death("night_ranger", [RANGER], voted=lambda seat, night: {3} if seat == 2 else set()) == set()
    # his ballots are not known
    assert _lone_death("night_ranger", [RANGER]) == set()
    # an archer declared without the rule may shoot anyone; a role the catalogue does not know may do anything
    assert _lone_death("night_archer", [ARCHER], voted=never_voted_3) == set()
    assert _lone_death("night_ranger", [], voted=never_voted_3) == set()


def test_a_declared_once_a_game_kill_stated_on_another_night_explains_no_later_death():
    shot_n1 = _act(2, "ranger_shot", 5, 1)
    exits = [_dawn(5, 1), _dawn(3, 2)]
    kept, _ = settle_night_actions([shot_n1], exits, _seats("night_ranger"), PHASES, catalogue=catalogue_for([RANGER]))
    assert ("night-2", 3) in _kills(kept)
    # the same kill declared without `once`: it may have been used again
    again = RANGER.model_copy(update={"night_kill": NightKill(skill="ranger_shot")})
    kept, _ = settle_night_actions([shot_n1], exits, _seats("night_ranger"), PHASES, catalogue=catalogue_for([again]))
    assert ("night-2", 3) not in _kills(kept)


def test_a_declared_kill_stated_that_night_is_its_dawns_cause_and_a_knife_said_rules_out_a_pure_killer():
    # two deaths at the dawn after night 2: the ranger's stated shot explains seat 5, the other is the wolves'
    kept, _ = settle_night_actions([_act(2, "ranger_shot", 5, 2)], [_dawn(5, 2), _dawn(3, 2)], _seats("night_ranger"), PHASES,
                                   catalogue=catalogue_for([RANGER]))
    assert _kills(kept) == {("night-2", 3)}
    assert "ranger_shot" in own_kill_skills(catalogue_for([RANGER])) and "ranger_shot" not in own_kill_skills(builtin_catalogue())
    # a written source says seat 3 met the knife: a role that changes deaths only by its own kill did not do it
    knifed = lambda seat, night: [{"source": "recap", "segment_id": None, "quote": "三号被刀"}] if seat == 3 else []  # noqa: E731
    assert _lone_death("night_ranger", [RANGER], knifed=knifed) == {("night-2", 3)}
    # an archer (no `night_kill`: it may move or block a kill as far as the catalogue says) still may have
    assert _lone_death("night_archer", [ARCHER], knifed=knifed) == set()


def test_a_declared_kill_explains_its_dawn_so_a_stated_knife_is_not_taken_for_a_night_off():
    # the log: the wolves knifed seat 5 on night 1; the host: seat 3 dead after night 1, seat 5 after night 2
    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=Audience(kind="team", team="wolf"), target=5, skill="wolf_kill")
    exits = [_dawn(3, 1), _dawn(5, 2)]
    cat = catalogue_for([RANGER])
    # the ranger's stated shot explains seat 3: night 1's count is not off, and the knife stands where the log puts it
    kept, dropped = settle_night_actions([kill1, _act(2, "ranger_shot", 3, 1)], exits, _seats("night_ranger"), PHASES, catalogue=cat)
    assert ("night-1", 5) in _kills(kept) and not dropped
    # nothing explains seat 3: the log's night count is a night off the host's, and the dawns decide
    kept, dropped = settle_night_actions([kill1], exits, _seats("night_ranger"), PHASES, catalogue=cat)
    assert ("night-1", 5) not in _kills(kept) and "a night off" in dropped[0][1]


def test_a_role_declared_with_a_night_kill_but_not_alters_night_deaths_still_counts_as_a_cause():
    quiet = RANGER.model_copy(update={"alters_night_deaths": False})
    assert _lone_death("night_ranger", [quiet]) == set()  # its ballots not known: its shot may be the death


def _poison_kept(four: str, declared=(), *, dies: bool = False):
    """Seat 2 (the witch) poisons seat 4 on night 1; seat 4 is or is not announced dead at that dawn."""
    exits = [_dawn(4, 1)] if dies else []
    kept, dropped = settle_night_actions([_act(2, "witch_poison", 4, 1)], exits, _seats("witch", four), PHASES, catalogue=catalogue_for(declared))
    why = next((w for e, w in dropped if e.skill == "witch_poison"), None)
    return any(e.skill == "witch_poison" for e in kept), why


def test_a_poison_on_a_role_that_survives_it_is_kept_with_no_death_and_on_one_that_does_not_is_contradicted():
    assert _poison_kept("stone_golem", [GOLEM]) == (True, None)
    assert _poison_kept("demon") == (True, None)  # the catalogue's demon
    kept, why = _poison_kept("bruiser", [BRUISER])
    assert not kept and "not announced dead" in why and not isinstance(why, NotKnown)
    kept, why = _poison_kept("werewolf")
    assert not kept and not isinstance(why, NotKnown)
    # borne out by the dawn: kept whatever the role
    assert _poison_kept("bruiser", [BRUISER], dies=True) == (True, None)
    assert _poison_kept("石头怪", dies=True) == (True, None)


def test_a_poison_on_a_role_the_catalogue_does_not_know_that_lived_is_not_known_not_false():
    kept, why = _poison_kept("石头怪")  # a label no catalogue or declaration knows
    assert not kept and isinstance(why, NotKnown) and "not known" in why
    # through the whole pipeline: named missing (disputed), not reported as a contradiction
    seats = _seats("witch", "石头怪")
    nf = read_night_facts("第一晚女巫 2 号毒 4 号", None, [], seats, PHASES, "zh", [], catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "witch_poison"]
    assert (2, "witch_poison", "night-1") in nf.disputed and not [e for e, _ in nf.dropped if e.skill == "witch_poison"]
    # the same seat declared as a golem: kept; as a bruiser: contradicted
    golem = read_night_facts("第一晚女巫 2 号毒 4 号", None, [], seats, PHASES, "zh", [], catalogue=catalogue_for([GOLEM.model_copy(update={"id": "石头怪"})]))
    assert [(e.actor, e.target) for e in golem.kept if e.skill == "witch_poison"] == [(2, 4)]
    bruiser = read_night_facts("第一晚女巫 2 号毒 4 号", None, [], seats, PHASES, "zh", [],
                               catalogue=catalogue_for([BRUISER.model_copy(update={"id": "石头怪"})]))
    assert [e.skill for e, _ in bruiser.dropped] == ["witch_poison"] and not bruiser.disputed


def test_the_catalogue_says_which_roles_kill_and_which_survive_and_a_declaration_changes_only_what_it_gives():
    cat = builtin_catalogue()
    assert cat.get("witch").night_kill == NightKill(skill="witch_poison", once=True)
    assert cat.get("stalker").night_kill == NightKill(skill="stalker_assassinate", once=True, voted_targets_only=True)
    assert {r.id for r in cat.roles.values() if "witch_poison" in r.survives} == {"demon", "witch_hunter", "nightmare_knight"}
    assert own_kill_skills(cat) == {"witch_poison", "stalker_assassinate"}
    # names only: the witch keeps her kill; a declaration that gives the fields replaces them
    renamed = catalogue_for([RoleDeclaration(id="witch", names={"fr": ["sorcière"]})])
    assert renamed.get("witch").night_kill == cat.get("witch").night_kill and renamed.get("witch").name("fr") == "sorcière"
    changed = catalogue_for([RoleDeclaration(id="demon", survives=[]), RoleDeclaration(id="stalker", night_kill=NightKill(skill="stalker_assassinate"))])
    assert changed.get("demon").survives == () and not changed.get("stalker").night_kill.voted_targets_only


@pytest.mark.parametrize("bad", [{"night_kill": {"skill": "x", "twice": True}}, {"night_kill": {"once": True}}, {"survives": "witch_poison"}])
def test_a_misspelt_or_incomplete_night_rule_is_refused(bad):
    with pytest.raises(ValueError):
        RoleDeclaration.model_validate({"id": "odd_role", "faction": "good", **bad})
