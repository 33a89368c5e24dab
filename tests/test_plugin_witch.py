"""The witch's rules found from the role catalogue, not from the id "witch" (issue 41's follow-ups): a game that declares
its own role with her rules under another id (an invented "apothecary": told the wolves' victim until she uses her
antidote, `knows_each_night` 'wolf_kill until witch_save'; her own kill the poison, `night_kill`) is read, derived and
told as the witch is: her decision items, her owed knowledge, the victim she is told, the night facts the readers take
from her clause and her words. A role with only one of the potions is no potion holder. The night's killing skills are
the wolves' kill and every `night_kill` of the board (an invented "hexer"). A death a stated reflection explains is not
reported unexplained. Every role, seat, night and sentence is invented."""

from __future__ import annotations

from test_decisions import invented_game

from werealign.game.decisions import derive_decisions
from werealign.game.knowledge import night_kills, owed_and_missing
from werealign.importers.toolkit.nights.claims import statements_in
from werealign.importers.toolkit.nights.night_truth import settle_night_actions, unexplained_dawns
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Event, GameLog, Phase, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE, Audience
from werealign.schema.roles import NightKill, RoleDeclaration, builtin_catalogue, catalogue_for

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

APOTHECARY = RoleDeclaration(id="apothecary", faction="good", team="gods", alters_night_deaths=True,
                             night_kill=NightKill(skill="witch_poison", once=True), knows_each_night=["wolf_kill until witch_save"],
                             names={"zh": ["药剂师"], "en": ["apothecary"]})
# the antidote's rule alone: told the victim until she saves, but no poison of her own
HALF = RoleDeclaration(id="half_apothecary", faction="good", team="gods", knows_each_night=["wolf_kill until witch_save"],
                       names={"en": ["half apothecary"]})
HEXER = RoleDeclaration(id="hexer", faction="good", team="gods", alters_night_deaths=True, night_kill=NightKill(skill="hex", once=True),
                        names={"en": ["hexer"]})
WOLVES = Audience(kind="team", team="wolf")


def _as(game: GameLog, seat: int, role: str, *declared: RoleDeclaration) -> GameLog:
    """The same game with `seat` holding `role`, declared by the game."""
    seats = [s.model_copy(update={"role": role}) if s.seat == seat else s for s in game.seats]
    return game.model_copy(update={"seats": seats, "rules": game.rules.model_copy(update={"declared_roles": list(declared)})})


def _potion_items(game: GameLog) -> list[tuple]:
    made = derive_decisions(game, "all").items
    return [(k, i.phase, i.viewpoint_seat, i.candidates, i.answer, i.none_allowed) for k in ("witch_save", "witch_poison") for i in made[k]]


def test_a_declared_role_with_both_potions_gets_the_witchs_decisions_even_with_no_potion_in_the_log():
    # seat 3 never uses a potion in this game: only the catalogue can say she holds them
    witch = invented_game(witch_saves=False)
    expected = _potion_items(witch)
    assert expected and {k for k, *_ in expected} == {"witch_save", "witch_poison"}
    assert _potion_items(_as(witch, 3, "apothecary", APOTHECARY)) == expected
    # a role with the antidote's rule but no poison is no potion holder: no item without a potion in the log
    assert _potion_items(_as(witch, 3, "half_apothecary", HALF)) == []
    # a seat the log has use a potion is asked whatever its role (as before)
    saved = invented_game()
    assert _potion_items(_as(saved, 3, "half_apothecary", HALF)) == _potion_items(saved)


def test_the_declared_potion_holder_owes_the_witchs_knowledge():
    witch = invented_game()
    plug = _as(witch, 3, "apothecary", APOTHECARY)
    assert owed_and_missing(plug, 3) == owed_and_missing(witch, 3)
    owed, _ = owed_and_missing(plug, 3)
    assert [(f.night, f.fact) for f in owed] == [("night-1", "wolf_kill")]  # she saved on night 1: not told night 2's victim


def test_the_nights_killing_skills_are_the_wolves_and_every_night_kill_of_the_board():
    game = invented_game()
    assert night_kills(game, catalogue_for(())) == {"wolf_kill", "witch_poison"}
    hexed = _as(game, 3, "hexer", HEXER)  # no potion holder on this board, a hexer instead
    assert night_kills(hexed, catalogue_for([HEXER])) == {"wolf_kill", "hex"}
    plain = _as(game, 3, "villager")
    assert night_kills(plain, catalogue_for(())) == {"wolf_kill"}


def test_a_seat_hexed_the_night_before_a_death_labelled_with_the_next_night_died_of_the_hex():
    """A death announced in a turn labelled night-2 (a dawn announcement running on into nightfall) of a seat a
    night kill of the board struck on night 1: the seat left at night 1, so night 2's facts are not owed to it."""
    base = _as(invented_game(), 3, "hexer", HEXER)
    # the wolves' night-2 knife on seat 1 left out: the hex alone struck it
    events = [e for e in base.events if not (e.kind == "elimination" and e.target == 1) and not (e.skill == "wolf_kill" and e.phase == "night-2")] + [
        Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=3, target=1, skill="hex"),
        Event(kind="elimination", phase="night-2", segment_id=8, audience=EVERYONE, target=1, result="night_death")]
    game = base.model_copy(update={"events": events})
    assert [f.night for f in owed_and_missing(game, 1)[0]] == ["night-1"]  # the seer's night-2 check is not owed
    unhexed = game.model_copy(update={"events": [e for e in events if e.skill != "hex"]})
    assert [f.night for f in owed_and_missing(unhexed, 1)[0]] == ["night-1", "night-2"]


PHASES = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]
WOLF = {"werewolf", "nightmare_knight"}


def _seats(roles: list[str], labels: dict[str, str] | None = None) -> list[SeatInfo]:
    return [SeatInfo(seat=i, role=r, faction="wolf" if r in WOLF else "good", original_role_label=(labels or {}).get(r))
            for i, r in enumerate(roles, 1)]


def _act(actor: int | None, skill: str, target: int | None, night: int, audience: Audience = ACTOR) -> Event:
    return Event(kind="skill_use", phase=f"night-{night}", segment_id=None, audience=audience, actor=actor, target=target, skill=skill)


def _dawn(seat: int, day: int) -> Event:
    return Event(kind="elimination", phase=f"day-{day}", segment_id=20 * day + 11, audience=EVERYONE, target=seat, result="night_death")


def test_the_declared_potion_holder_is_told_the_victim_as_the_witch_is():
    def told(role: str) -> list[tuple]:
        roles = ["seer", role, "villager", "werewolf", "werewolf", "villager"]
        kept, _ = settle_night_actions([_act(None, "wolf_kill", 3, 1, WOLVES), _act(None, "wolf_kill", 6, 2, WOLVES), _act(2, "witch_save", 6, 2)],
                                       [_dawn(3, 1)], _seats(roles), PHASES, catalogue=catalogue_for([APOTHECARY]))
        return [(e.phase, e.target, e.audience.seats, e.note) for e in kept if e.audience.kind == "seats"]
    assert told("apothecary") == told("witch") and [t[:3] for t in told("witch")] == [("night-1", 3, [2]), ("night-2", 6, [2])]


def test_the_readers_take_the_declared_potion_holders_own_clause_and_words():
    roles = ["seer", "apothecary", "villager", "werewolf", "werewolf", "villager"]
    seats = _seats(roles, {"apothecary": "药剂师"})
    log = "2 号是药剂师，第一晚救 3 号。6 号是村民，第二晚被 2 号毒死。"
    read = {(r.event.skill, r.event.actor, r.event.target, r.event.phase) for r in read_night_actions(log, seats, PHASES, "zh",
                                                                                                     catalogue=catalogue_for([APOTHECARY]))
            if r.event is not None and r.event.kind == "skill_use"}
    assert {("witch_save", 2, 3, "night-1"), ("witch_poison", 2, 6, "night-2")} <= read
    # the built-in catalogue does not know the role: nothing is taken as her potion
    unknown = [r.event for r in read_night_actions(log, seats, PHASES, "zh", catalogue=BUILTIN) if r.event is not None and r.event.actor == 2]
    assert unknown == []
    said = statements_in("我第一晚救了 3 号", 2, "apothecary", 2, catalogue=catalogue_for([APOTHECARY]))
    assert [(st.skill, st.target, st.night) for st in said] == [("witch_save", 3, 1)]
    assert statements_in("我第一晚救了 3 号", 2, "villager", 2, catalogue=catalogue_for([APOTHECARY])) == []


def test_a_death_a_stated_reflection_explains_is_not_reported_unexplained():
    # seat 1 checks the nightmare knight (seat 4) on night 1 and dies at that dawn with the wolves' victim, seat 3
    roles = ["seer", "witch", "villager", "nightmare_knight", "werewolf", "villager"]
    kept = [_act(None, "wolf_kill", 3, 1, WOLVES), _act(1, "seer_check", 4, 1), _act(2, "witch_poison", 5, 1)]
    exits = [_dawn(3, 1), _dawn(1, 1), _dawn(5, 1)]
    assert unexplained_dawns(kept, exits, PHASES, catalogue_for(()), _seats(roles)) == []
    # a fourth death nothing stated explains is still reported, with the reflected seat named among the explained
    (line,) = unexplained_dawns(kept, [*exits, _dawn(6, 1)], PHASES, catalogue_for(()), _seats(roles))
    assert line.startswith("night-1: seat(s) [6] announced dead") and "reflected skill's user ([1])" in line
    # without the seats the reflection cannot be seen (the old reading): seat 1 is reported
    assert "[1]" in unexplained_dawns(kept, exits, PHASES, catalogue_for(()))[0]


def test_what_a_check_read_from_the_log_can_show_is_the_catalogues_not_the_id_werewolf():
    """A stated result the target's card cannot show is refused for every wolf-side card the catalogue does not mark
    `seer_sees_good` (a declared one too), not only for the plain werewolf; an unstated one is the one it can show; an
    undeclared wolf-side card may show either."""
    mole = RoleDeclaration(id="mole_wolf", faction="wolf", team="wolves", seer_sees_good=True, names={"en": ["mole wolf"]})
    brute = RoleDeclaration(id="brute_wolf", faction="wolf", team="wolves", names={"en": ["brute wolf"]})
    log = "1 号是预言家，第一晚验 4 号金水，第二晚验 4 号。"

    def read(role: str) -> list[str | None]:
        seats = [SeatInfo(seat=1, role="seer", faction="good"), SeatInfo(seat=2, role="villager", faction="good"),
                 SeatInfo(seat=3, role="villager", faction="good"), SeatInfo(seat=4, role=role, faction="wolf")]
        out = read_night_actions(log, seats, PHASES, "zh", catalogue=catalogue_for([mole, brute]))
        return [r.event.result if r.event is not None else "refused" for r in out]
    assert read("werewolf") == read("wolf_king") == read("brute_wolf") == ["refused", "狼人"]
    assert read("mole_wolf") == read("hidden_wolf") == ["好人", None]  # may show either: the stated one, else none
    # a wolf-side card nobody declared: what a check shows is not known, so nothing is refused and nothing filled in
    assert read("stone_wolf_nobody_declared") == ["好人", None]
