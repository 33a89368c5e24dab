"""Night rules the catalogue states since issue 41's follow-ups: `reflects` (a move on the holder kills its maker at
dawn: the nightmare knight reflects a seer's check and a witch's poison), every `night_kill` skill judged by its dawn,
and the seat told the wolves' victim found from `knows_each_night` ('wolf_kill until OWN_SKILL'), not from a role id.
The importer (night_truth) and the arena (night, checked by tests/arena_rule_check.py) follow the same rule. Every
role, seat, night and sentence is invented; plug-in roles prove a declaration is enough, with no code of its own."""

from __future__ import annotations

from arena_rule_check import rule_breaks
from arena_table import day_events, table

from werealign.importers.toolkit.nights.night_truth import NotKnown, settle_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE, Audience
from werealign.schema.roles import NightKill, RoleDeclaration, builtin_catalogue, catalogue_for

PHASES = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]

# a plug-in oracle whose nightly gaze a plug-in mirror wolf reflects; a plug-in hexer whose hex kills; a plug-in
# herbalist told the wolves' victim until she uses her cure (the witch's rule, under other ids)
ORACLE = RoleDeclaration(id="oracle", faction="good", team="gods", knows_each_night=["oracle_gaze"], names={"en": ["oracle"]})
MIRROR = RoleDeclaration(id="mirror_wolf", faction="wolf", team="wolves", knows_each_night=["wolf_kill"], reflects=["oracle_gaze"],
                         names={"en": ["mirror wolf"]})
HEXER = RoleDeclaration(id="hexer", faction="good", team="gods", alters_night_deaths=True, night_kill=NightKill(skill="hex", once=True),
                        names={"en": ["hexer"]})
HEX_PROOF = RoleDeclaration(id="hex_proof_wolf", faction="wolf", team="wolves", survives=["hex"], names={"en": ["hex-proof wolf"]})
HERBALIST = RoleDeclaration(id="herbalist", faction="good", team="gods", knows_each_night=["wolf_kill until herb_cure"], names={"en": ["herbalist"]})
PLUG_INS = [ORACLE, MIRROR, HEXER, HEX_PROOF, HERBALIST]
WOLF = {"werewolf", "nightmare_knight", "mirror_wolf", "hex_proof_wolf"}


def _seats(roles: list[str]) -> list[SeatInfo]:
    return [SeatInfo(seat=i, role=r, faction="wolf" if r in WOLF else "good") for i, r in enumerate(roles, 1)]


def _dawn(seat: int, day: int) -> Event:
    return Event(kind="elimination", phase=f"day-{day}", segment_id=20 * day + 11, audience=EVERYONE, target=seat, result="night_death")


def _act(actor: int, skill: str, target: int | None, night: int) -> Event:
    return Event(kind="skill_use", phase=f"night-{night}", segment_id=None, audience=ACTOR, actor=actor, target=target, skill=skill)


def _settle(roles: list[str], actions=(), exits=(), declared=PLUG_INS):
    return settle_night_actions(list(actions), list(exits), _seats(roles), PHASES, catalogue=catalogue_for(declared))


def _kills(kept) -> set[tuple[str, int]]:
    return {(e.phase, e.target) for e in kept if e.skill == "wolf_kill" and e.audience.kind == "team"}


# seat 1 seer, 2 witch (or a guard: no seat that kills), 3 villager, 4 the reflecting card (or a plain wolf), 5 wolf, 6 villager, 7 hunter
KNIGHT = ["seer", "witch", "villager", "nightmare_knight", "werewolf", "villager", "hunter"]
PLAIN = ["seer", "witch", "villager", "werewolf", "werewolf", "villager", "hunter"]
GUARDED = ["seer", "guard", "villager", "nightmare_knight", "werewolf", "villager", "hunter"]
GUARDED_PLAIN = ["seer", "guard", "villager", "werewolf", "werewolf", "villager", "hunter"]


def test_a_lone_dawn_death_of_a_seer_who_may_have_checked_the_knight_is_not_the_wolves_kill():
    lone: list[Event] = []
    assert _kills(_settle(GUARDED_PLAIN, lone, [_dawn(1, 2)])[0]) == {("night-2", 1)}  # no reflecting card: the wolves' (as before)
    assert ("night-2", 1) not in _kills(_settle(GUARDED, lone, [_dawn(1, 2)])[0])  # her check that night is not stated
    # her checks of that night and the night before stated on other seats: the knight reflected none, the death is the wolves'
    checks = [_act(1, "seer_check", 3, 1), _act(1, "seer_check", 5, 2)]
    assert ("night-2", 1) in _kills(_settle(GUARDED, [*lone, *checks], [_dawn(1, 2)])[0])
    # her check of the night before not stated, or stated on the knight: boards word the reflection "the next day", which
    # may mean a dawn late, so her death is not known to be the wolves'
    assert ("night-2", 1) not in _kills(_settle(GUARDED, [*lone, checks[1]], [_dawn(1, 2)])[0])
    assert ("night-2", 1) not in _kills(_settle(GUARDED, [*lone, _act(1, "seer_check", 4, 1), checks[1]], [_dawn(1, 2)])[0])
    # stated on the knight: the reflection explains her death, so the other death of that dawn is the wolves'
    kept, _ = _settle(GUARDED, [*lone, _act(1, "seer_check", 4, 2)], [_dawn(1, 2), _dawn(3, 2)])
    assert ("night-2", 1) not in _kills(kept) and ("night-2", 3) in _kills(kept)
    # the knight voted out on day 1 reflects nothing on night 2 (her night-1 check stated on another seat)
    out = Event(kind="elimination", phase="day-1", segment_id=31, audience=EVERYONE, target=4, result="voted_out")
    assert ("night-2", 1) in _kills(_settle(GUARDED, [checks[0]], [out, _dawn(1, 2)])[0])
    # a villager holds no reflected skill: her lone death stays the wolves'
    assert ("night-2", 3) in _kills(_settle(GUARDED, lone, [_dawn(3, 2)])[0])


def test_a_stated_reflection_explains_its_dawn_so_a_stated_knife_is_not_taken_for_a_night_off():
    # the log: the wolves knifed seat 5 on night 1; the host: the seer dead after night 1, seat 5 after night 2
    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=Audience(kind="team", team="wolf"), target=5, skill="wolf_kill")
    exits = [_dawn(1, 1), _dawn(5, 2)]
    roles = GUARDED[:4] + ["villager"] + GUARDED[5:]
    kept, dropped = _settle(roles, [kill1, _act(1, "seer_check", 4, 1)], exits)
    assert ("night-1", 5) in _kills(kept) and not dropped
    # her check stated on another seat: nothing explains her death, the log's count is a night off the host's
    kept, dropped = _settle(roles, [kill1, _act(1, "seer_check", 3, 1)], exits)
    assert ("night-1", 5) not in _kills(kept) and "a night off" in dropped[0][1]


def test_a_witch_who_may_have_poisoned_the_knight_dies_of_it_and_the_poison_on_him_is_kept():
    # her antidote stated (its target not), her poison not: she may have poisoned the knight, so her lone death is not
    # known to be the wolves'; on a board with no such card the rule is what it was
    assert ("night-2", 2) not in _kills(_settle(KNIGHT, [_act(2, "witch_save", None, 2)], [_dawn(2, 2)])[0])
    assert ("night-2", 2) in _kills(_settle(PLAIN, [_act(2, "witch_save", None, 2)], [_dawn(2, 2)])[0])
    # her once-a-game poison stated on another seat, which died: the knight reflected nothing, her death is the wolves'
    assert ("night-2", 2) in _kills(_settle(KNIGHT, [_act(2, "witch_poison", 3, 2)], [_dawn(2, 2), _dawn(3, 2)])[0])
    # spent on night 1 on another seat: her lone death at the dawn after night 2 is the wolves' too
    kept, _ = _settle(KNIGHT, [_act(2, "witch_poison", 3, 1), _act(2, "witch_save", None, 2)], [_dawn(3, 1), _dawn(2, 2)])
    assert ("night-2", 2) in _kills(kept)
    # her poison stated on the knight: he lives (`survives`), she dies of it, and the poison stands with no death of his
    kept, dropped = _settle(KNIGHT, [_act(2, "witch_poison", 4, 2)], [_dawn(2, 2)])
    assert [(e.actor, e.target) for e in kept if e.skill == "witch_poison"] == [(2, 4)] and not dropped
    assert ("night-2", 2) not in _kills(kept)


def test_a_declared_card_reflects_the_skills_its_declaration_names_and_no_other():
    roles = ["oracle", "guard", "villager", "mirror_wolf", "werewolf", "villager", "seer"]
    stated: list[Event] = []
    assert ("night-2", 1) not in _kills(_settle(roles, stated, [_dawn(1, 2)])[0])  # the oracle's gaze that night not stated
    gazes = [_act(1, "oracle_gaze", 3, 1), _act(1, "oracle_gaze", 3, 2)]
    assert ("night-2", 1) in _kills(_settle(roles, [*stated, *gazes], [_dawn(1, 2)])[0])
    assert ("night-2", 7) in _kills(_settle(roles, stated, [_dawn(7, 2)])[0])  # it reflects no seer's check
    # without the declaration's `reflects` the oracle's death is the wolves' as on any board
    plain_mirror = MIRROR.model_copy(update={"reflects": None})
    assert ("night-2", 1) in _kills(_settle(roles, stated, [_dawn(1, 2)], [ORACLE, plain_mirror])[0])
    # a reflected skill whose user's role the catalogue does not know: it may hold the skill
    unknown = ["石头怪", "guard", "villager", "mirror_wolf", "werewolf", "villager", "seer"]
    assert ("night-2", 1) not in _kills(_settle(unknown, [*stated, _act(1, "strange_act", 5, 2)], [_dawn(1, 2)])[0])


def test_the_catalogue_declares_the_knights_reflection_and_a_declaration_replaces_it():
    cat = builtin_catalogue()
    assert {r.id: r.reflects for r in cat.roles.values() if r.reflects} == {"nightmare_knight": ("seer_check", "witch_poison")}
    assert cat.get("witch").night_skills == {"witch_save", "witch_poison"} and cat.get("seer").night_skills == {"seer_check"}
    renamed = catalogue_for([RoleDeclaration(id="nightmare_knight", names={"fr": ["chevalier"]})])
    assert renamed.get("nightmare_knight").reflects == ("seer_check", "witch_poison")
    assert catalogue_for([RoleDeclaration(id="nightmare_knight", reflects=[])]).get("nightmare_knight").reflects == ()


def test_every_catalogue_kill_needs_its_seat_dead_at_dawn_unless_its_role_survives_it():
    roles = ["seer", "hexer", "villager", "hex_proof_wolf", "werewolf", "villager", "石头怪"]
    why = {t: next((w for e, w in _settle(roles, [_act(2, "hex", t, 1)])[1] if e.skill == "hex"), None) for t in (3, 4, 7)}
    assert why[3] is not None and "not announced dead" in why[3] and not isinstance(why[3], NotKnown)  # a villager lived: false
    assert why[4] is None  # its role survives a hex
    assert isinstance(why[7], NotKnown) and "hex" in why[7]  # a role nobody declared: not known
    kept, dropped = _settle(roles, [_act(2, "hex", 3, 1)], [_dawn(3, 1)])
    assert [e.target for e in kept if e.skill == "hex"] == [3] and not dropped  # borne out by the dawn
    # the catalogue's stalker: an assassination whose seat lived is contradicted
    stalker = ["seer", "stalker", "villager", "werewolf", "werewolf", "villager", "hunter"]
    _, dropped = _settle(stalker, [_act(2, "stalker_assassinate", 3, 1)], declared=())
    assert [e.skill for e, w in dropped if not isinstance(w, NotKnown)] == ["stalker_assassinate"]


def _told(roles: list[str], actions, declared=PLUG_INS) -> list[tuple[str, int, tuple]]:
    kills = [Event(kind="skill_use", phase=f"night-{n}", segment_id=None, audience=Audience(kind="team", team="wolf"), target=t, skill="wolf_kill")
             for n, t in ((1, 6), (2, 3))]
    kept, _ = _settle(roles, [*kills, *actions], [_dawn(3, 2)], declared)
    return [(e.phase, e.target, tuple(e.audience.seats)) for e in kept if e.skill == "wolf_kill" and e.audience.kind == "seats"]


def test_the_seat_told_the_wolves_victim_is_the_one_whose_role_learns_it_until_its_own_skill():
    herbal = ["seer", "herbalist", "villager", "werewolf", "werewolf", "villager", "hunter"]
    assert _told(herbal, []) == [("night-1", 6, (2,)), ("night-2", 3, (2,))]
    # her cure used on night 1: told that night's victim, not night 2's (her cure kept or only stated elsewhere alike)
    assert _told(herbal, [_act(2, "herb_cure", 6, 1)]) == [("night-1", 6, (2,))]
    # a witch's save is not her cure; the witch's rule is unchanged
    assert _told(herbal, [_act(2, "witch_save", 6, 1)]) == [("night-1", 6, (2,)), ("night-2", 3, (2,))]
    assert _told(PLAIN, [_act(2, "witch_save", 6, 1)]) == [("night-1", 6, (2,))]
    # a witch and a herbalist: which one the board tells is not known, so neither is told
    assert _told(["seer", "witch", "villager", "werewolf", "werewolf", "villager", "herbalist"], []) == []
    # the herbalist undeclared: a role the catalogue does not know is told nothing
    assert _told(herbal, [], declared=[]) == []


# ---------------------------------------------------------------------------------------------- the arena

def test_in_the_arena_a_check_or_a_poison_on_the_knight_kills_its_maker_at_dawn():
    base = {5: {("kill", 1): 6}, 4: {("kill", 1): 6}, 2: {("save", 1): None}}
    game, _ = table(KNIGHT, {**base, 1: {("check", 1): 4}, 2: {("save", 1): None, ("poison", 1): None}}, max_days=1)
    assert sorted(e.target for e in day_events(game, "elimination", 1, result="night_death")) == [1, 6]
    assert rule_breaks(game) == []
    # the witch poisons the knight: he lives, she dies
    game, _ = table(KNIGHT, {**base, 1: {("check", 1): 5}, 2: {("save", 1): None, ("poison", 1): 4}}, max_days=1)
    assert sorted(e.target for e in day_events(game, "elimination", 1, result="night_death")) == [2, 6]
    assert rule_breaks(game) == []
    # checks and poisons on anyone else do what they always did
    game, _ = table(KNIGHT, {**base, 1: {("check", 1): 5}, 2: {("save", 1): None, ("poison", 1): 3}}, max_days=1)
    assert sorted(e.target for e in day_events(game, "elimination", 1, result="night_death")) == [3, 6]
    assert rule_breaks(game) == []


def test_in_the_arena_a_declared_card_reflects_a_declared_skill_and_the_checker_reads_the_declaration():
    roles = ["oracle", "witch", "villager", "mirror_wolf", "werewolf", "villager", "hunter"]
    spec = {"declared_roles": [ORACLE, MIRROR], "abilities": {"oracle": {"action": "check", "skill": "oracle_gaze"},
                                                               "mirror_wolf": {"action": "none"}}}
    scripts = {5: {("kill", 1): 6}, 4: {("kill", 1): 6}, 2: {("save", 1): None, ("poison", 1): None}}
    game, _ = table(roles, {**scripts, 1: {("check", 1): 4}}, max_days=1, **spec)
    assert sorted(e.target for e in day_events(game, "elimination", 1, result="night_death")) == [1, 6]
    assert rule_breaks(game) == []
    # the checker is no rubber stamp: the oracle's death taken out of the log is caught
    kept = [e for e in game.events if not (e.kind == "elimination" and e.target == 1)]
    assert any("oracle_gaze on seat 4" in x for x in rule_breaks(game.model_copy(update={"events": kept})))
    # the same card declared without `reflects`: the gaze kills nobody
    plain = {**spec, "declared_roles": [ORACLE, MIRROR.model_copy(update={"reflects": None})]}
    game, _ = table(roles, {**scripts, 1: {("check", 1): 4}}, max_days=1, **plain)
    assert [e.target for e in day_events(game, "elimination", 1, result="night_death")] == [6]
    assert rule_breaks(game) == []
