"""Issue 41: a lone dawn death that a killing role could explain is the wolves' kill when the log or the recap says the
seat met the knife (toolkit.nights.knife_said). Invented seats, nights and sentences only."""

from __future__ import annotations

import pytest

from werealign.importers.toolkit.nights.knife_said import knife_evidence, knife_statements
from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_truth import settle_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

PHASES = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]


def _seats(two: str = "witch") -> list[SeatInfo]:
    return [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good") for s, r in
            [(1, "seer"), (2, two), (3, "villager"), (4, "werewolf"), (5, "villager"), (6, "hunter"), (7, "werewolf")]]


def _dawn(seat: int, day: int, how: str = "night_death") -> Event:
    return Event(kind="elimination", phase=f"day-{day}", segment_id=20 * day + 11, audience=EVERYONE, target=seat, result=how,
                 evidence=[{"source": "utterance", "segment_id": 20 * day + 11, "quote": f"昨天晚上{seat}号玩家出局"}])


def _kills(events) -> set[tuple[str, int | None]]:
    return {(e.phase, e.target) for e in events if e.skill == "wolf_kill" and e.audience.kind == "team"}


@pytest.mark.parametrize("text, seat, night", [
    ("村民 8 号最终 被狼队 刀死", 8, None),
    ("而 11 号自己也吃了一刀", 11, None),
    ("9 号睁眼便遭遇首刀", 9, 1),
    ("第二晚狼人击杀了 3 号", 3, 2),
    ("狼团队在第三晚袭击了 12 号", 12, 3),
])
def test_a_seat_said_to_meet_the_knife_in_words_it_never_met(text, seat, night):
    assert [(k.seat, k.night) for k in knife_statements([("recap", text)], 12)] == [(seat, night)]


@pytest.mark.parametrize("text", [
    "8 号称自己昨晚被刀",  # a claim at the table
    "狼人本想刀 8 号",  # a plan
    "8 号没有被刀",  # denied
    "8 号遭遇首刀，女巫开药救下",  # saved, in the next clause
    "8 号被女巫毒死",  # another cause
    "第一晚刀 3 号第二晚刀 8 号",  # two nights in one clause
    "8 号被票出局",
])
def test_no_knife_is_read_from_a_claim_a_plan_a_save_a_poison_or_two_nights(text):
    assert not [k for k in knife_statements([("recap", text)], 12) if k.seat is not None]


def test_a_target_named_by_its_role_alone():
    said = knife_statements([("recap", "狼人直接刀死了预言家"), ("annotator_log", "第二晚狼队刀民")], 12)
    assert {(k.seat, k.night, k.role) for k in said} == {(None, None, "seer"), (None, 2, "villager")}
    knifed = knife_evidence(None, "狼人直接刀死了预言家，第二晚狼队刀民", _seats())
    assert knifed(1, 3)  # the board's one seer, the night not named
    assert knifed(3, 2) and not knifed(3, 3) and not knifed(5, 1)  # a villager (two on the board): only on the night named


def _settle(recap: str, exits, actions=(), two: str = "witch"):
    seats = _seats(two)
    return settle_night_actions(list(actions), exits, seats, PHASES, knifed=knife_evidence(None, recap, seats), catalogue=BUILTIN)


def test_the_knife_said_settles_a_lone_dawn_death_a_witch_or_a_stalker_could_have_caused():
    # seat 3 dies alone at the dawn after night 2; the witch (seat 2) is alive, her poison's night unknown
    kept, _ = _settle("", [_dawn(3, 2)])
    assert not _kills(kept)  # the poison may have killed it: not known
    kept, _ = _settle("村民 3 号被狼人刀死", [_dawn(3, 2)])
    kill = next(e for e in kept if e.skill == "wolf_kill" and e.audience.kind == "team")
    assert (kill.phase, kill.target) == ("night-2", 3)
    assert {ev.source for ev in kill.evidence} == {"utterance", "recap"}  # the host's dawn and the recap's words
    kept, _ = _settle("村民 3 号被狼人刀死", [_dawn(3, 2)], two="stalker")
    assert ("night-2", 3) in _kills(kept)


def test_no_kill_where_the_knife_said_does_not_settle_the_dawn():
    # a role that moves a kill (the magician) still could explain it
    kept, _ = _settle("村民 3 号被狼人刀死", [_dawn(3, 2)], two="magician")
    assert not _kills(kept)
    # a source names the seat with a poison too: the cause is not known
    kept, _ = _settle("村民 3 号被狼人刀死，女巫毒了 3 号", [_dawn(3, 2)])
    assert not _kills(kept)
    # the knife is said of another night
    kept, _ = _settle("第一晚狼人刀死 3 号", [_dawn(3, 2)])
    assert ("night-2", 3) not in _kills(kept)
    # two deaths at that dawn (the witch poisoned one of them): which one the knife killed is not the lone rule's to say
    kept, _ = _settle("村民 3 号被狼人刀死", [_dawn(3, 2), _dawn(5, 2)])
    assert not _kills(kept)
    # the hunter shot seat 3 by day: no dawn death, nothing inferred
    shot = Event(kind="elimination", phase="day-2", segment_id=55, audience=EVERYONE, actor=6, target=3, result="taken")
    kept, _ = _settle("村民 3 号被狼人刀死", [shot])
    assert not _kills(kept)
    # the witch saved that night: the save names the victim, and the knife statement adds nothing false
    save = Event(kind="skill_use", phase="night-2", segment_id=None, audience=ACTOR, actor=2, target=5, skill="witch_save")
    kept, _ = _settle("村民 3 号被狼人刀死", [_dawn(3, 2)], [save])
    assert _kills(kept) == {("night-2", 5)}


def test_a_self_destruct_day_and_the_night_after_it():
    # a wolf blows itself up on day 1 (out before night 2); seat 3 dies alone at night 2's dawn and the recap says knifed
    boom = Event(kind="elimination", phase="day-1", segment_id=35, audience=EVERYONE, target=7, result="self_destruct")
    kept, _ = _settle("3 号当晚被狼人刀死", [boom, _dawn(3, 2)])
    assert ("night-2", 3) in _kills(kept)
    # and the recap puts that knife on night 1 instead: nothing for night 2
    kept, _ = _settle("首夜 3 号被狼人刀死", [boom, _dawn(3, 2)])
    assert not _kills(kept)


def test_read_night_facts_passes_the_knife_to_the_dawn():
    seats = _seats()
    nf = read_night_facts(None, "村民 5 号被狼人刀死", [], seats, PHASES, "zh", [_dawn(5, 3)], catalogue=BUILTIN)
    assert ("night-3", 5) in _kills(nf.kept)


def test_a_seat_saved_from_one_knife_and_dead_alone_at_a_later_dawn_was_knifed_again():
    seats = _seats("guard")  # no witch, no stalker: only the wolves kill at night
    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience={"kind": "team", "team": "wolf"}, target=5, skill="wolf_kill")
    guard1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=2, target=5, skill="guard_protect")
    kept, _ = settle_night_actions([kill1, guard1], [_dawn(5, 2)], seats, PHASES, catalogue=BUILTIN)
    assert _kills(kept) == {("night-1", 5), ("night-2", 5)}
    # nothing says seat 5 lived through night 1's knife: which night the wolves killed it is not known
    kept, _ = settle_night_actions([kill1], [_dawn(5, 2)], seats, PHASES, catalogue=BUILTIN)
    assert ("night-2", 5) not in _kills(kept)
    # the protection names another seat: no better
    guard_other = guard1.model_copy(update={"target": 3})
    kept, _ = settle_night_actions([kill1, guard_other], [_dawn(5, 2)], seats, PHASES, catalogue=BUILTIN)
    assert ("night-2", 5) not in _kills(kept)
