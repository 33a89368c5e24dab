"""Issue 42, fifth round of the claim reader (werealign.game.claims): the structure of a claim as a player hears it,
on invented sentences only (nothing here comes from real data). Each rule has positives and the negatives it must
not swallow: the speaker in apposition with a role, the badge's check order, a move said with words between the
speaker and the verb, the witch's potions, the wolves' "we", direct speech across the transcript's spaces,
another's words in the claim's clause, a condition's "的话" told from a topic's."""

from __future__ import annotations

import pytest
from test_decision_claim import _board

from werealign.game.claims import ClaimReader


@pytest.mark.parametrize("text, speaker, role, extra", [
    # the speaker in apposition: the role may carry the speaker's view or a condition's "的话"
    ("我作为一个村民的话，只能听发言站边", 6, "villager", ()),
    ("从我一个普通村民的角度看，3 号最像狼", 6, "villager", ()),
    ("你们别为难我小小平民了，过", 6, "villager", ()),
    ("我一个村民的眼里，5 号最可疑", 6, "villager", ()),
    ("我自己一张民牌，不多说", 6, "villager", ()),
    ("我是一张平民牌，我就没什么可藏的", 6, "villager", ()),  # "我就" narrates; only "我就会/能/直接…" is a consequent
    ("8 号，一张村民牌，先听后面", 8, "villager", ()),  # a turn opening on its own seat, a comma, a card
    ("2 号是拿到一个守卫，昨晚守了自己", 2, "guard", ()),
    ("我就一张闭眼牌，没有信息", 6, "villager", ()),  # a card, not only what one knows
    ("我们村民这轮得抱团", 6, "villager", ()),
    # the seer's own moves: the badge's check order, a check with words before the verb
    ("今晚我的警徽流留 4 和 9，票给我", 1, "seer", ()),
    ("5 号发言，交代下警徽流，2 号 11 号", 5, "seer", ()),
    ("我最后还是验过了，10 号好人", 1, "seer", ()),
    ("我之前就打算验 7 号，现在不变", 1, "seer", ()),
    # the witch's potions and poison
    ("骗了我的解药的那位，我记住了", 3, "witch", ()),
    ("我当时想毒掉 8 号，后来忍住了", 3, "witch", ()),
    ("昨天的话我救了 4 号", 3, "witch", ()),  # a topic's "的话" is no condition
    # the wolves' "we": the side, or the wolf card the turn names
    ("我们第一晚刀的是 3 号，没想到被救了", 5, "werewolf", ()),
    ("我们狼队这把输得不冤", 5, "werewolf", ()),
    ("我们狼人输得不冤，我是白狼王", 5, "white_wolf_king", ("white_wolf_king",)),
    ("最后一句话，我是女巫，别投我", 3, "witch", ()),  # the speaker's own last sentence
    ("换我 1 号来当这个家，我今晚就验 3 号", 1, "seer", ()),  # the speaker's own seat: its own words
])
def test_claims_heard(text, speaker, role, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker", [
    ("我是闭眼玩家，什么信息都没有", 6),  # what one knows, not a card
    ("你们一直在咬，我是一张狼人牌，那 7 号呢", 6),  # others' reasoning carried into the next clause
    ("你的警徽流我听不懂", 1),
    ("他讲的那套警徽流跟我的警徽流一样", 3),  # another's words in the clause
    ("还有 9 发言是我今晚验 3 号", 1),  # the transcript's space after a seat number splits no clause
    ("我希望预言家验一下 5 号", 6),  # a request: another does the move
    ("我搞不懂为什么要验 4 号", 6),
    ("我们明天接着追刀，先投 3 号", 6),  # "追刀": the good side's vote, not a kill
    ("我们好人被刀了两个", 6),
    ("我今天被投出去的话我要带走 5 号", 7),  # a condition's "的话"
    ("换成他那边来想的话，我是一张狼牌，也不会这么聊", 6),  # a condition held over the next clause
    ("她说得很急 哇，我是一张守卫牌", 4),  # direct speech across the transcript's space
    ("轮到 3 号还没人报查杀的情况下，我是预言家也会着急", 6),  # a condition as a whole clause
    ("我是狼人，我昨天就不会投他了", 6),  # a counterfactual: a consequent after a time
    ("我是狼人，我就会直接自爆了", 6),  # a counterfactual: "我就会"
    ("你们叫我毒 2 号，我偏不", 3),  # the speaker as the object of a request
    ("光看 4 号的一句话，我是守卫也看不出来", 2),  # another's sentence quoted
    ("换我 8 号来当这个家，我今晚就验 3 号", 2),  # the speaker voicing seat 8
    ("如果我一个村民的眼里都看得出，预言家早该看出", 6),  # the apposition inside a hypothesis
])
def test_no_claims_heard(text, speaker):
    # the hunter and a wolf card on the board too: their words must be read and still refused
    assert ClaimReader(_board("hunter", "white_wolf_king")).claim(text, speaker) is None


def test_each_reading_says_why_it_is_no_claim():
    """`readings` lists every candidate with its reason, the reader's own account of a turn."""
    reader = ClaimReader(_board())
    reasons = {why for _, _, _, why in reader.readings("如果我是预言家，他说我是女巫，反正我自己清楚，我是一张平民牌", 6)}
    assert {"hypothesis", "report", None} <= reasons
    assert reader.first_claim("如果我是预言家，他说我是女巫，反正我自己清楚，我是一张平民牌", 6)[1] == "villager"


# Issue 42, sixth round: forms a player hears as a claim that no earlier rule read, by role (the catalogue's names,
# the moves only that role makes), each with the negatives it must refuse. Invented sentences only.
SIXTH = ("hunter", "magician", "knight", "nine_tailed_fox", "white_wolf_king")


@pytest.mark.parametrize("text, speaker, role", [
    ("行吧，自爆", 5, "werewolf"),  # a self-destruct as a whole clause, no subject named before it
    ("好，我 5 号，自爆", 5, "werewolf"),
    ("开枪带走 3 号，好人加油", 7, "hunter"),  # a shot as a whole clause: the speaker's own
    ("开枪", 7, "hunter"),  # a last word of one move
    ("我手里有枪，别乱投", 7, "hunter"),  # the gun held
    ("我手上还有一瓶药，今晚看情况", 3, "witch"),  # the potions held
    ("我昨晚换了 2 号和 5 号", 8, "magician"),  # the magician's swap
    ("我把 2 和 5 换了", 8, "magician"),
    ("今晚我会跟 9 交换，狼别动 9", 8, "magician"),
    ("我要跟 3 号决斗", 9, "knight"),  # the knight's duel
    ("今晚我守 3 号，女巫别毒他", 2, "guard"),  # a guard's protection to come
    ("我的身份牌是守卫", 2, "guard"),
    ("我这张牌其实是预言家", 1, "seer"),  # the card named before the copula
    ("本人预言家，3 号查杀", 1, "seer"),  # 本人: the first person
    ("真预言家是我，3 号查杀", 1, "seer"),  # the inverted claim
    ("真预言家在这里，3 号查杀", 1, "seer"),
    ("我给 7 号发了金水", 1, "seer"),  # a check given to a seat
    ("6 号压轴，先想查杀一下 2 号", 6, "seer"),  # a subjectless check after the speaker's own seat
    ("这盘我才是真预言家，别信他", 1, "seer"),  # "这盘" (this game) is no "盘" (to analyse)
    ("我这里是张守卫牌，不多说", 2, "guard"),
    ("我这个九尾妖狐今天不躲了", 4, "nine_tailed_fox"),  # the card before its own verb
    ("我是九尾狐，过", 4, "nine_tailed_fox"),  # the table's short name
    ("谁也抢不走我这身女巫的衣服", 3, "witch"),  # the card as clothes the speaker owns
    ("谁让你抢我猎人的衣服，出你没商量", 7, "hunter"),
    ("我就是一个大白板，什么都不知道", 6, "villager"),  # a blank card: the villager
    ("从我们一个民的视角，5 号不对劲", 6, "villager"),
    ("这又成了我一个平民的锅", 6, "villager"),
    ("我就一平民，过", 6, "villager"),
    ("9 号就是我饮水", 3, "witch"),  # 饮水: the transcripts' homophone of 银水
    ("6 号发言，底牌平民，过", 6, "villager"),  # the card without a subject after the speaker's own seat
    ("1 号发言，昨晚验了 3 号，好人", 1, "seer"),  # a night move without a subject
    ("好，昨晚守的 4 号", 2, "guard"),
])
def test_sixth_round_claims(text, speaker, role):
    assert ClaimReader(_board(*SIXTH)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker", [
    ("我觉得他应该自爆，", 5),  # advice, another's move
    ("狼人要是想赢就自爆吧", 5),
    ("狼人赶紧自爆算了", 5),  # not a whole clause: a plan for others
    ("他如果是猎人，开枪带走 3 号", 7),  # a hypothesis
    ("我没有枪", 7),
    ("如果我有枪，早开了", 7),
    ("你把 2 和 5 换了", 8),  # another's swap
    ("我觉得魔术师换了 2 号和 5 号", 8),
    ("我想和 8 号换一下身份", 8),  # a swap of identities is a story, not the magician's move
    ("我希望守卫守 3 号", 2),  # a request
    ("他本人是预言家", 1),
    ("真预言家在这两个里面", 1),
    ("如果预言家是我，我就验 3", 1),
    ("你说预言家是我？", 1),
    ("你给 7 号发查杀", 1),
    ("他说我这个预言家是假的", 1),  # another's words
    ("我觉得，先查杀 2 号", 6),  # the nearest subject is a belief, not the speaker
    ("我穿猎人的衣服", 7),  # wearing a card's clothes is a counter-claim told, not one's own card
    ("大家别看我 九尾狐先藏着", 4),  # the transcript's space ends the sentence after 我
    ("刚才那局我是预言家，这盘不说", 1),  # an earlier game
    ("我一验就知道", 6),
    ("他底牌是平民", 6),
    ("3 号，底牌是平民", 6),  # another seat's card
    ("5 号说，昨晚验了 3 号", 1),  # another's words
    ("我觉得 5 号好，救了 5 号也没用", 3),
])
def test_sixth_round_refusals(text, speaker):
    assert ClaimReader(_board(*SIXTH)).claim(text, speaker) is None
