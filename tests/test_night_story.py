"""Issue 41: the wolves' kill told where the text names no night (toolkit.nights.night_story), and the smaller readers
added with it. Every sentence here is invented for these tests (no WereBench text); the wordings differ from the
release's on purpose, and the negative cases (plans, denials, talk, a dawn that says otherwise) must stay unread."""

from __future__ import annotations

import pytest

from werealign.importers.toolkit.nights.night_facts import read_night_facts
from werealign.importers.toolkit.nights.night_record import DERIVED_NOTE
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import EVERYONE
from werealign.schema.roles import builtin_catalogue

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

# 1 witch, 2 seer, 3 hunter, 4 and 6 werewolves, 5 and 7 villagers, 8 guard; nights 1-4, the recording ends on night 4.
SEATS = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good", original_role_label=label)
         for s, r, label in [(1, "witch", "女巫"), (2, "seer", "预言家"), (3, "hunter", "猎人"), (4, "werewolf", "狼人"),
                             (5, "villager", "村民"), (6, "werewolf", "狼人"), (7, "villager", "村民"), (8, "guard", "守卫")]]
PHASES = [Phase(id=f"{kind}-{n}", kind=kind, day=n, start=20 * n + (10 if kind == "day" else 0), end=20 * n + (19 if kind == "day" else 9))
          for n in (1, 2, 3) for kind in ("night", "day")] + [Phase(id="night-4", kind="night", day=4, start=80, end=89)]


def _exit(seat: int, phase: str, how: str = "night_death") -> Event:
    return Event(kind="elimination", phase=phase, segment_id=None, audience=EVERYONE, target=seat, result=how)


# the host: seat 2 dead at the dawn after night 2, seat 7 after night 3; seat 4 blew up on day 2, seat 6 on day 3
EXITS = [_exit(2, "day-2"), _exit(4, "day-2", "self_destruct"), _exit(7, "day-3"), _exit(6, "day-3", "self_destruct")]


def _read(text: str, *, recap: bool = False) -> list[tuple]:
    return [(r.event.phase, r.event.target, r.event.note == DERIVED_NOTE) for r in read_night_actions(text, SEATS, PHASES, "zh", transcribed=recap, catalogue=BUILTIN)
            if r.event is not None and r.event.skill == "wolf_kill"]


def _kept(text: str, *, recap: bool = False, exits=EXITS) -> set[tuple]:
    nf = read_night_facts(None if recap else text, text if recap else None, [], SEATS, PHASES, "zh", exits, catalogue=BUILTIN)
    return {(e.phase, e.target) for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "team"}


@pytest.mark.parametrize("text, night, seat", [
    # a self-destruct ends the day: the kill told next is the next night's
    ("第一天白天大家互相怀疑，4 号当即自爆，狼队随后刀了预言家 2 号", "night-2", 2),
    # the kill and the self-destruct in one run, the night named before them
    ("首夜狼人空刀；4 号自爆后狼人刀杀 2 号", "night-2", 2),
    # a nightfall said of the day named
    ("第二天白天 6 号被投票出局，当天晚上狼人刀死了 7 号", "night-3", 7),
    # the show's count: "第三天晚上" is the night after day 2, a named night
    ("到了第三天晚上狼队落刀村民 7 号", "night-3", 7),
])
def test_a_kill_after_a_self_destruct_or_a_nightfall_takes_the_next_night(text, night, seat):
    assert (night, seat) in {(n, s) for n, s, _ in _read(text)}


def test_a_knife_whose_wolf_subject_the_clause_before_names_is_the_packs():
    # the subject goes unsaid in the second clause; a wolf seat or the pack names it in the first
    assert _read("第二天白天 6 号想了很久，6 号直接选择自爆进入黑夜，顺手刀了 7 号") == [("night-3", 7, True)]
    assert _read("第一天白天，狼人们决定自爆，一刀带走预言家 2 号") == [("night-2", 2, True)]
    # a wolf named by its seat alone: the seat must truly be a wolf (7 is a villager: nothing)
    assert _read("第二天白天 4 号自爆，让 6 号刀死 7 号") == [("night-3", 7, True)]
    assert _read("第二天白天 4 号自爆，让 7 号刀死 2 号") == []
    # a transcript's space between the wolf told to knife and its knife (the recap's sentence break)
    assert _read("第二天白天 4 号直接自爆 让 6 号 刀死7 号", recap=True) == [("night-3", 7, True)]
    assert _read("第二天白天 4 号直接自爆 让 5 号 刀死7 号", recap=True) == []  # 5 is no wolf


@pytest.mark.parametrize("text", [
    "第一天白天 4 号想自爆，狼队刀了 2 号",  # a self-destruct only thought of moves no clock
    "第一天白天 4 号没有自爆，狼人刀死 2 号",  # denied
    "第二天白天 5 号自爆身份，刀死 7 号",  # "自爆身份" reveals a role: no self-destruct, no night
    "第二天白天 5 号被投出局，刀死 7 号",  # no self-destruct, no nightfall: still the day
    "第一天白天 4 号自爆，被刀死的 2 号",  # a passive is no knife of an unsaid subject
    "第一天白天 5 号说 4 号会自爆，然后狼人刀 2 号",  # talk: the self-destruct is what someone said (the 会 of a guess)
    "第一天白天 5 号认为 4 号自爆是好事，狼人刀 2 号",  # talk: a self-destruct someone talks about
    "第一天白天 4 号自爆，守卫 8 号刀死 2 号",  # the clause names no wolf: 8 is the guard
    "第一天白天 4 号自爆，刀死狼人 6 号",  # a wolf-side victim is not read as an unsaid pack's knife
    "第一天白天狼人 4 号自爆，本来准备刀 2 号",  # a plan
    "第一天白天投票 6 号出局，天黑后刀了 2 号",  # 6 (a wolf) is mentioned, not the subject: nobody named knifes
])
def test_plans_denials_talk_and_other_killers_are_not_read(text):
    assert _read(text) == []


def test_a_kill_under_a_derived_night_stands_only_where_the_dawn_bears_it_out():
    # seat 2 is announced dead at night 2's dawn: kept
    assert _kept("第一天白天，4 号果断自爆，狼人刀死 2 号") == {("night-2", 2)}
    # seat 7 dies at night 3's dawn, not night 2's: the derived night is off, nothing is kept
    assert _kept("第一天白天，4 号果断自爆，狼人刀死 7 号") == set()
    # the night that ends the recording has no dawn: a seat out nowhere may have been saved, so one source is not
    # enough; the log and the recap both telling it are ...
    assert _kept("第三天白天 6 号直接自爆，狼队刀了 3 号") == set()
    both = read_night_facts("第三天白天 6 号直接自爆，狼队刀了 3 号", "第三天白天 6 号选择自爆 狼人刀死 3 号", [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert {(e.phase, e.target) for e in both.kept if e.skill == "wolf_kill" and e.audience.kind == "team"} == {("night-4", 3)}
    # ... and not when the host has the seat out already
    assert _kept("第三天白天 6 号直接自爆，狼队刀了 2 号") == set()
    # "当晚" after a day word is the next night (3), whose dawn has seat 7 dead, not 2: only night 2's kill stands
    assert _kept("第二晚狼人刀 5 号，天亮后 4 号出局，当晚刀了 2 号") == {("night-2", 5)}
    # a named night needs no dawn (the settling checks it as before)
    assert _kept("第二晚狼人刀 5 号") == {("night-2", 5)}


def test_the_recap_clock_counts_a_self_destruct_and_its_nightfall_once():
    recap = "第二天白天 狼人6 号果断选择自爆进入黑夜，刀死7 号 好人输了"
    assert _read(recap, recap=True) == [("night-3", 7, True)]
    # "进入第三天天黑" after a self-destruct names the night the self-destruct led into: the same night
    # (derived: the show does not always count "第N天" nights alike, so the dawn must bear it out)
    assert _read("第二天白天 6 号只能选择自爆，直接进入第三天天黑狼人刀死 7 号", recap=True) == [("night-3", 7, True)]


def test_a_role_word_before_a_listing_comma_stays_with_its_seat():
    # "首刀，村民、5 号…": the victim is the villager 5, the witch 1 named after it is another actor
    assert _read("首夜狼队首刀，村民、5 号女巫 1 号，1 号选择开药解救") == [("night-1", 5, False)]
    # the role must agree: seat 5 is no hunter
    assert _read("首夜狼队首刀，猎人、5 号女巫 1 号") == []
    # a seat that opens its own action after its label is the actor, not the victim
    assert _read("首夜狼队首刀，女巫、1 号使用解药救人") == []
    assert _read("首夜狼队首刀，守卫、8 号守护了 2 号") == []


def test_a_named_actor_after_another_seat_starts_its_own_sub_clause():
    # the guard's reasoning after the kill is talk; the knife before it is still read
    assert _read("第二晚，狼人选择落刀 村民5 号守卫8 号则认为 4 号是狼") == [("night-2", 5, False)]
    # a named actor alone, talking, still reads nothing
    assert _read("第二晚，守卫8 号认为 4 号是狼") == []


def test_the_logs_unnumbered_night_run_after_a_named_day_is_that_days_nightfall():
    log = "第一天白天 5 号发言后投票 7 号没出局；夜间行动 狼人刀 2 号，守卫 8 号守 5 号；天亮后 2 号死亡"
    assert _read(log) == [("night-2", 2, True)]
    assert _kept(log) == {("night-2", 2)}
    # what the dawn cannot bear out is not read under such a night: the guard's protection stays unread
    nf = read_night_facts(log, None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "guard_protect"]


# --------------------------------------------------------------------------- a magician's swaps (toolkit.nights.swaps)

MAGIC = [s if s.seat != 5 else SeatInfo(seat=5, role="magician", faction="good", original_role_label="魔术师") for s in SEATS]


@pytest.mark.parametrize("text, pair", [
    ("魔术师 5 号在第一晚把自己和 7 号交换了", None),  # the pair before the verb: not this wording, nothing read
    ("5 号魔术师当晚交换了预言家 2 号和自己的号码", {2, 5}),
    ("魔术师交换了 3 号与 7 号", {3, 7}),
    ("5 号选择交换猎人、3 号和村民 7 号的号码牌", {3, 7}),
])
def test_a_magicians_swap_is_read_as_the_pair_it_names(text, pair):
    from werealign.importers.toolkit.nights.swaps import stated_swaps

    assert stated_swaps([text], MAGIC) == ({frozenset(pair)} if pair else set())


@pytest.mark.parametrize("text", [
    "5 号没有选择交换号码",  # denied
    "6 号悍跳魔术师，称自己交换了 3 号和 7 号",  # a wolf's claim of a swap
    "7 号交换了 2 号和 3 号",  # seat 7 is no magician
    "魔术师 5 号想交换 2 号和 3 号",  # a plan
])
def test_a_swap_denied_claimed_planned_or_by_no_magician_is_not_read(text):
    from werealign.importers.toolkit.nights.swaps import stated_swaps

    assert stated_swaps([text], MAGIC) == set()


def test_a_kill_and_a_save_naming_a_swapped_pair_both_stand():
    log = "第一晚魔术师 5 号交换了 2 号和 3 号，狼人刀 2 号，女巫 1 号救 3 号"
    nf = read_night_facts(log, None, [], MAGIC, PHASES, "zh", [], catalogue=BUILTIN)
    kept = {(e.phase, e.skill, e.target, e.audience.kind) for e in nf.kept}
    assert ("night-1", "wolf_kill", 2, "team") in kept and ("night-1", "witch_save", 3, "actor") in kept
    # the witch saw the seat the knife landed on, not the pack's choice: she is told neither
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.audience.kind == "seats"]
    # without the swap stated, the two disagree: neither stands
    nf = read_night_facts("第一晚狼人刀 2 号，女巫 1 号救 3 号", None, [], MAGIC, PHASES, "zh", [], catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill in ("wolf_kill", "witch_save")]


def test_a_poison_stands_where_the_swap_moved_it_or_no_dawn_is_told():
    exits = [_exit(3, "day-2")]
    log = "第二晚魔术师 5 号交换 3 号和 7 号号码，女巫 1 号毒 7 号"
    assert [(e.phase, e.target) for e in read_night_facts(log, None, [], MAGIC, PHASES, "zh", exits, catalogue=BUILTIN).kept
            if e.skill == "witch_poison"] == [("night-2", 7)]
    # no swap stated: the poisoned seat lived, so the poison is not shown
    assert not [e for e in read_night_facts("第二晚女巫 1 号毒 7 号", None, [], MAGIC, PHASES, "zh", exits, catalogue=BUILTIN).kept if e.skill == "witch_poison"]
    # the recording ends in night 4 (no seat announced out after it): the poison of a seat out nowhere stands ...
    assert [e.target for e in read_night_facts("第四晚女巫 1 号毒 3 号", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN).kept
            if e.skill == "witch_poison"] == [3]
    # ... not one of a seat the host has out already, nor one on a night whose dawn is told
    assert not [e for e in read_night_facts("第四晚女巫 1 号毒 7 号", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN).kept if e.skill == "witch_poison"]
    assert not [e for e in read_night_facts("第三晚女巫 1 号毒 5 号", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN).kept if e.skill == "witch_poison"]


def test_the_witchs_own_word_names_the_save_the_log_left_implicit():
    from test_knowledge import _zh_game

    seats, phases, utts = _zh_game([("day-2", 5, "大家听好，我是女巫，我用解药救了 6 号")])
    # the log has the witch (seat 5) spend her antidote on night 1 without naming whom
    nf = read_night_facts("首夜 5 号女巫用解药", None, utts, seats, phases, "zh", [], catalogue=BUILTIN)
    assert {(e.phase, e.skill, e.target) for e in nf.kept if e.audience.kind != "seats"} >= {("night-1", "witch_save", 6), ("night-1", "wolf_kill", 6)}
    # one fact with both sources' evidence
    (save,) = [e for e in nf.kept if e.skill == "witch_save"]
    assert {ev.source for ev in save.evidence} == {"annotator_log", "utterance"}
    # no written save: said on day 2 without its night, her word is not placed (it may be any night's)
    nf = read_night_facts(None, None, utts, seats, phases, "zh", [], catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "witch_save"]


def test_a_seats_own_clause_goes_on_about_the_night_it_named():
    def acts(log):
        return [(r.event.phase, r.event.skill, r.event.target) for r in read_night_actions(log, SEATS, PHASES, "zh", catalogue=BUILTIN) if r.event is not None]

    assert acts("1 号是女巫，第二晚被狼人刀死，同时毒了 6 号") == [("night-2", "wolf_kill", 1), ("night-2", "witch_poison", 6)]
    assert acts("2 号是预言家，第二晚查验 6 号，并且查验了 4 号") == []  # two checks on one night: neither
    # without a word that carries the clause on, or after a day word, or in another seat's clause: nothing more
    assert acts("1 号是女巫，第二晚被狼人刀死，毒了 6 号") == [("night-2", "wolf_kill", 1)]
    assert acts("1 号是女巫，第二晚被狼人刀死，白天有人出局，同时毒了 6 号") == [("night-2", "wolf_kill", 1)]
    assert acts("1 号是女巫，第二晚被狼人刀死；5 号是村民，同时毒了 6 号") == [("night-2", "wolf_kill", 1)]


def test_a_seat_killed_on_a_night_its_clause_does_not_name_is_a_death_only_where_no_dawn_is_told():
    # annotators write "被狼人刀死" of poisoned seats too: where the host tells the seat's dawn (7, night 3), the words
    # add nothing (the host's lone-death rule decides, and the witch in play leaves it open)
    assert _kept("7 号是村民，白天站边 2 号，最终被狼人刀死") == set()
    no_witch = [*EXITS, _exit(1, "day-2")]
    assert {k for k in _kept("7 号是村民，最终被狼人刀死", exits=no_witch) if k[0] == "night-3"} == {("night-3", 7)}  # the host's rule
    # seat 3 is out nowhere and night 4's dawn is never told: the words stand for that dawn, a death the same rule settles
    assert _kept("3 号是猎人，后被狼人杀死", exits=no_witch) >= {("night-4", 3)}
    assert {k for k in _kept("3 号是猎人，后被狼人杀死") if k[0] == "night-4"} == set()  # the witch in play: maybe her poison
    assert {k for k in _kept("3 号是猎人，夜间被 4 号狼人刀死", exits=no_witch) if k[0] == "night-4"} == {("night-4", 3)}
    # not a death ("被狼人刀了": maybe saved), a killer who is no wolf, a wolf blown up by day
    assert {k for k in _kept("3 号是猎人，后被狼人刀了", exits=no_witch) if k[0] == "night-4"} == set()
    assert {k for k in _kept("3 号是猎人，夜间被 2 号刀死", exits=no_witch) if k[0] == "night-4"} == set()
    assert {k for k in _kept("6 号是狼人，最终被狼人刀死", exits=no_witch) if k[0] == "night-4"} == set()
    # a night named in force: the seat's own clause reads it as before
    assert _kept("7 号是村民，第三晚被狼人刀死") == {("night-3", 7)}


def test_a_dawn_every_death_of_which_the_clauses_account_for_places_the_kill_and_the_poison():
    exits = [*EXITS, _exit(5, "day-3")]  # night 3's dawn: seats 5 and 7
    log = "5 号是村民，白天站边 2 号，夜间被女巫毒死；7 号是村民，夜间被狼刀死亡"
    nf = read_night_facts(log, None, [], SEATS, PHASES, "zh", exits, catalogue=BUILTIN)
    assert {(e.phase, e.skill, e.target) for e in nf.kept if e.audience.kind != "seats" and e.phase == "night-3"} == {
        ("night-3", "witch_poison", 5), ("night-3", "wolf_kill", 7)}
    # one death left unaccounted, or two seats both "killed by the wolves": the kill is not placed (the poison is)
    nf = read_night_facts("7 号是村民，夜间被狼刀死亡", None, [], SEATS, PHASES, "zh", exits, catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.phase == "night-3"]
    nf = read_night_facts("5 号是村民，夜间被狼人刀死；7 号是村民，夜间被狼刀死亡", None, [], SEATS, PHASES, "zh", exits, catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "wolf_kill" and e.phase == "night-3"]
    # a poison alone is placed on its seat's dawn; one by a seat that is no witch is not read
    nf = read_night_facts("7 号是村民，夜间被女巫毒死", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert [(e.phase, e.target) for e in nf.kept if e.skill == "witch_poison"] == [("night-3", 7)]
    nf = read_night_facts("7 号是村民，夜间被 2 号毒死", None, [], SEATS, PHASES, "zh", EXITS, catalogue=BUILTIN)
    assert not [e for e in nf.kept if e.skill == "witch_poison"]


def test_a_death_the_log_tells_stands_for_a_dawn_the_host_never_tells():
    # night 4 ends the recording; the log has seat 3 die in it, and no seat that can kill at night is in play: the
    # witch (1) is out before night 4 in this variant, so the one death is the wolves' kill (night 3's is the host's)
    exits = [*EXITS, _exit(1, "day-2")]

    def night4(text, exits=exits):
        return {k for k in _kept(text, exits=exits) if k[0] == "night-4"}

    assert night4("第三天白天 6 号自爆，再次天黑 3 号死亡") == {("night-4", 3)}
    # the witch still in play: the death may be her poison, nothing is read
    assert night4("第三天白天 6 号自爆，再次天黑 3 号死亡", exits=EXITS) == set()
    # two deaths: nothing; a death denied: nothing
    assert night4("第三天白天 6 号自爆，再次天黑 3 号、8 号死亡") == set()
    assert night4("第三天白天 6 号自爆，再次天黑 3 号没有死亡") == set()
    # a dawn the host tells is the host's: the log's account of night 3 changes nothing there
    assert _kept("第三晚 5 号死亡", exits=exits) == {("night-3", 7)}


def test_a_guard_correcting_himself_is_read_as_corrected():
    from werealign.importers.toolkit.nights.claims import statements_in

    def guards(text):
        return [(st.night, st.target) for st in statements_in(text, 8, "guard", 3, catalogue=BUILTIN)]

    # "我是空手的": an empty guard in the first person
    assert guards("第一天晚上我是空手的，大家别怀疑我") == [(1, None)]
    # what he said before "记错了" about the same night gives way to what follows it
    assert guards("我第一天晚上守的是自己，哎不对我记错了，第一天晚上我是空手的") == [(1, None)]
    # a correction about another night leaves the first statement as it was
    assert guards("第一天晚上我守了自己，第二天晚上守的 5 号，说错了，第二天晚上守的 6 号") == [(1, 8), (2, 6)]
    # no correction: two statements of one night stay two (the settling disputes them)
    assert guards("第一天晚上我守了自己，第一天晚上我是空手的") == [(1, 8), (1, None)]
