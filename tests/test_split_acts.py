"""Issue 41 (round s41c): a night act split across two sub-clauses, and the poison's target after a description that
names another seat (toolkit.nights.split_acts, night_words.NAMED). Every sentence is invented (no WereBench text),
with the other nights, other roles, second victims and staged words that must not be read."""

from __future__ import annotations

from test_fact_readers import _read

from werealign.importers.toolkit.nights.split_acts import quote_across

# test_import_nights SEATS: 1 witch, 2 seer, 3 guard, 4 and 6 werewolves, 5 villager, 7 silencer elder.


def _poisons(text: str, transcribed: bool = False) -> set[tuple]:
    return {(e.phase, e.actor, e.target) for e in _read(text, transcribed=transcribed) if e.skill == "witch_poison"}


def test_the_poisoner_ending_one_sub_clause_and_the_poison_opening_the_next():
    # a recap transcript: the space after "女巫 1 号" becomes a sentence break
    assert _poisons("第二晚狼人刀了 5 号 女巫 1 号 选择撒毒了狼人 4 号", transcribed=True) == {("night-2", 1, 4)}
    assert _poisons("第二晚狼人刀了 5 号，女巫，毒死了狼人 6 号") == {("night-2", 1, 6)}  # the role word alone: the one witch
    # the verb ends the first, the target alone is the next
    assert _poisons("第一晚狼人刀中女巫 1 号，1 号盲毒了，村民 5 号") == {("night-1", 1, 5)}
    # not read: a seat that is no witch, another night, a second victim joined, more than the target after the verb
    assert _poisons("第二晚狼人刀了 5 号，守卫 3 号，毒死了狼人 6 号") == set()
    assert _poisons("第二晚狼人刀了 5 号，3 号盲毒了，村民 5 号") == set()
    assert _poisons("第二晚，女巫 1 号，前一晚毒了 4 号") == set()
    assert _poisons("第二晚，女巫 1 号，毒死了 4 号和 6 号") == set()
    assert _poisons("第二晚，1 号开毒了，村民 5 号出局后发言") == set()


def test_a_poisons_target_described_by_another_seat_and_a_particle_after_the_witch():
    assert _poisons("第二晚狼人刀了 5 号，女巫 1 号则毒死了帮 2 号冲票的狼人 6 号") == {("night-2", 1, 6)}
    assert _poisons("第二晚狼人刀了 2 号，而 1 号则盲毒了村民 5 号") == {("night-2", 1, 5)}
    # the description must end in 的 right before the role word and seat: a seat after other words is no target
    assert _poisons("第二晚女巫 1 号毒了 4 号的同时狼人刀了 5 号") == {("night-2", 1, 4)}
    assert _poisons("第二晚女巫 1 号毒了帮 2 号冲票的 6 号") == set()  # no role word: the seat in the description stays unread
    assert _poisons("第二晚 3 号则毒死了狼人 6 号") == set()  # seat 3 is no witch


def test_a_quote_across_two_sub_clauses_keeps_the_sources_separator():
    assert quote_across("而守卫 9 号，当晚选择守自己", "守卫 9 号", "当晚选择守自己") == "守卫 9 号，当晚选择守自己"
    assert quote_across("女巫 7 号 选择撒毒", "女巫 7 号", "选择撒毒") == "女巫 7 号选择撒毒"  # a space is no separator
