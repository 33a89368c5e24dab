"""Issue 42, seventh round of the claim reader: skills read from the role catalogue's rules, and refusals by structure (a mocked wolf claim, a hypothesis over its sentence).
Invented sentences only (nothing here comes from real data); each rule has positives and the negatives it must not
swallow."""

from __future__ import annotations

import pytest
from test_decision_claim import _board

from werealign.game.claims import ClaimReader, _rule_names
from werealign.schema.roles import catalogue_for

@pytest.mark.parametrize("text, speaker, role, extra", [
    ("我昨晚魅惑了 3 号，你们看着办", 5, "wolf_beauty", ("wolf_beauty",)),  # a skill only the wolf beauty has
    ("我昨天晚上吞了 7 号", 5, "tiangou", ("tiangou",)),
    ("我的技能是禁言，今晚禁 5", 4, "silencer_elder", ("silencer_elder",)),
    ("3 号发动技能带走 6 号", 3, "hunter", ("hunter",)),  # the speaker's own seat as the subject
    ("我拿到的牌是预言家，4 号查杀", 1, "seer", ()),  # the card drawn, then what it is
    ("我摸的身份是女巫的牌，昨晚救了人", 3, "witch", ()),
    ("我刚刚没有毒，留着", 3, "witch", ()),  # the poison kept: the witch's alone
    ("我第一晚的毒没用出去", 3, "witch", ()),
    ("我昨晚把你救起来，结果你却怀疑我", 3, "witch", ()),
    ("我当时立刻救了 4 号", 3, "witch", ()),  # words between the speaker and the save
])
def test_acts_read_from_the_catalogue_and_the_witchs_potions(text, speaker, role, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker, extra", [
    ("我昨晚魅惑了 3 号", 5, ()),  # no wolf beauty on the board: nobody's skill
    ("3 号发动技能带走 6 号", 5, ("hunter",)),  # another seat's move
    ("我投票救了 4 号，他是好人", 6, ()),  # a vote saves too: no potion
    ("我觉得女巫救了他", 6, ()),  # a belief about another
    ("你们让我验 5 号", 6, ()),  # a request: another's move
])
def test_acts_that_are_no_claim(text, speaker, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) is None


def test_a_skill_is_read_from_the_rule_and_a_denied_skill_is_none():
    catalogue = catalogue_for()
    assert _rule_names(catalogue, "werewolf", "zh", "自爆")
    assert not _rule_names(catalogue, "nightmare_knight", "zh", "自爆")  # "不能自爆"
    assert not _rule_names(catalogue, "villager", "zh", "自爆") and not _rule_names(catalogue, "no_such_role", "zh", "自爆")


@pytest.mark.parametrize("text, speaker, role", [
    ("对对对，我是狼，行了吧", 6, None),  # agreement repeated before a wolf claim: mockery
    ("好，我是狼，你们满意了吧", 6, None),  # a concession after it
    ("我是狼，我是狼好了吧，可我就是个平民", 6, "villager"),  # the good side said later takes the wolf back
    ("你们说我是狼，我是个好人", 6, None),
    ("行，我是狼人，自爆", 5, "werewolf"),  # a real wolf's claim stands
    ("如果我是预言家，我会这么想，5 号是我的金水", 1, None),  # a hypothesis over its whole sentence
    ("要是有人跳出来说昨晚我守的 2 号，我就信", 2, None),  # a hypothetical speaker's words
    ("如果我拿到狼，早就走了，但是我是女巫，昨晚救了 4 号", 3, "witch"),  # a contrast closes the hypothesis
])
def test_refusals_by_structure(text, speaker, role):
    assert ClaimReader(_board()).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker, role, extra", [
    # the seventh round's second step (read on set G's misses), each form on invented words
    ("这把又拿到一张最难玩的预言家牌，先听", 1, "seer", ()),  # the card drawn, said without a subject
    ("好，发动技能带走 8 号", 2, "hunter", ("hunter",)),  # a last word: the skill bare
    ("昨晚那刀我秒救了，别怀疑我", 3, "witch", ()),
    ("所以说我今晚还是去验 9 号吧", 1, "seer", ()),  # "所以说": the speaker's own connective, no one else's words
    ("我告诉你们，我就是个民，别投我", 6, "villager", ()),  # the speaker telling: no one else's words
])
def test_claims_of_the_seventh_round(text, speaker, role, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker, extra", [
    ("他就是那个长老，别怀疑", 4, ("silencer_elder",)),  # another's card
    ("他拿到一张预言家牌，我不信", 6, ()),  # another's draw
    ("好，发动技能带走 8 号", 2, ()),  # no role of the board holds that skill
    ("我是一个真女巫的情况下，早就毒他了", 6, ()),  # a premise, not a claim
    ("我在想如果是，我是一个预言家，那头一晚就查出了金水", 6, ()),  # a hypothesis over its sentence
    ("我是守卫我也守了，大家都会守", 6, ()),  # "I'd have guarded too": a paratactic condition
    ("他告诉大家，我是预言家，结果呢", 6, ()),  # another telling: his words
])
def test_no_claims_of_the_seventh_round(text, speaker, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) is None
