"""Leaks in items (issue 20 item 4), on invented items in English and Chinese: a stem or option that
attaches a seat's hidden role, side or night action the viewpoint cannot know at the cut-off, and an
item whose cut-off falls after the decision it asks about."""

from __future__ import annotations

from crafted_game import CUTOFF, crafted_game
from werealign.audit import stem_leaks
from werealign.schema import Event, Option, SpeechItem

# The crafted game: seat 1 wolf, 2 villager, 3 seer (checked seat 1 on night 1), 4 wolf, 5 witch (saved
# seat 6 on night 1), 6 villager. Before the cut-off seat 1 says "seat 2 is a wolf" and seat 3 "seat 1 is a wolf".
FILLER = [f"option {w}" for w in "amber birch cobalt dune ember fjord gale heath inlet".split()]
ZH_FILLER = [f"选项{c}" for c in "甲乙丙丁戊己庚辛壬"]


def _item(question: str, *, viewpoint: int = 3, cutoff: int = CUTOFF, options: list[str] | None = None, language: str = "en") -> SpeechItem:
    texts = options or (FILLER if language == "en" else ZH_FILLER)
    return SpeechItem(item_id="leak-1", game_id="crafted-1", language=language, dimension="SJ", viewpoint_seat=viewpoint,
                      cutoff_segment=cutoff, question=question,
                      options=[Option(key="ABCDEFGHI"[i], text=t, origin="imported") for i, t in enumerate(texts)], answer="A")


def _zh_game():
    """The crafted game retold in Chinese (invented lines, not from any release)."""
    game = crafted_game()
    lines = {2: "我是预言家，2号是狼。", 3: "我是真预言家，我查验了1号，1号是狼人。", 4: "我相信3号。"}
    utts = [u.model_copy(update={"text": lines[u.index], "segments": None}) if u.index in lines else u for u in game.utterances]
    return game.model_copy(update={"language": "zh", "utterances": utts})


def test_english_stems_that_pin_a_hidden_role_or_side_to_a_seat():
    game = crafted_game()
    # "wolf" is said at the table (about seats 1 and 2), which the old check took as licence for any seat
    assert any("seat 4's hidden role (werewolf)" in r for r in stem_leaks(game, _item("Seat 4 (wolf)'s last words: what do they hide?")))
    assert any("seat 6's hidden role (villager)" in r for r in stem_leaks(game, _item("Everyone was pointing at villager seat 6. Why?")))
    # what the seer may say: its own check, its own seat, a claim made at the table, a false label
    assert stem_leaks(game, _item("Seat 1 (wolf) attacked you. Why?")) == []
    assert stem_leaks(game, _item("You are seat 3, the seer. What now?")) == []
    assert stem_leaks(game, _item("Seat 2, called a wolf by seat 1, spoke next. Why?")) == []
    assert stem_leaks(game, _item("Seat 6 the werewolf spoke. Why?")) == []  # not seat 6's truth: nothing leaks
    # a wolf knows its teammate
    assert stem_leaks(game, _item("Seat 4 (wolf) is your teammate. What now?", viewpoint=1)) == []


def test_english_options_that_label_a_seat_and_hidden_night_actions():
    game = crafted_game()
    labelled = stem_leaks(game, _item("What do you do?", options=["Vote out witch seat 5 now", *FILLER[1:]]))
    assert labelled and "option labelling seat 5's hidden role (witch)" in labelled[0]
    # an option that puts a role forward as a claim is an answer to weigh, not a leak
    assert stem_leaks(game, _item("What is seat 5?", options=["Seat 5 is surely the witch here", *FILLER[1:]])) == []
    # the witch's save on night 1 was seen by the witch alone
    saved = stem_leaks(game, _item("Seat 6 was saved last night; whom do you trust?"))
    assert saved and "seat 6's night action (save)" in saved[0]
    assert stem_leaks(game, _item("Seat 6 was saved last night; whom do you trust?", viewpoint=5)) == []


def test_english_cutoff_after_the_decision_asked_about():
    game = crafted_game()
    # seat 3 votes seat 1 at segment 14; seat 1's elimination is announced at segment 18
    after = stem_leaks(game, _item("Whom do you vote for, and why?", cutoff=20))
    assert after and "vote on seat 1" in after[0]
    assert stem_leaks(game, _item("Whom do you vote for, and why?", cutoff=CUTOFF)) == []
    assert stem_leaks(game, _item("What do you say next?", cutoff=20)) == []  # asks about no decision taken
    # the witch poisons seat 2 on night 1 and hears seat 2's death at dawn (segment 11)
    poison = Event(kind="skill_use", phase="night-1", segment_id=1, public=False, actor=5, target=2, skill="witch_poison")
    death = Event(kind="night_outcome", phase="day-1", segment_id=11, public=True, target=2)
    game = game.model_copy(update={"events": [*game.events, poison, death]})
    shown = stem_leaks(game, _item("Whom should you poison?", viewpoint=5))
    assert shown and "witch_poison on seat 2" in shown[0]
    assert stem_leaks(game, _item("Whom should you poison?", viewpoint=5, cutoff=1)) == []


def test_chinese_stems_options_and_decisions():
    game = _zh_game()
    zh = dict(language="zh")
    assert any("seat 4's hidden role (werewolf)" in r for r in stem_leaks(game, _item("4号（狼）的遗言说明了什么？", **zh)))
    assert any("seat 6's hidden role (villager)" in r for r in stem_leaks(game, _item("大家都指向了村民6号，为什么？", **zh)))
    assert stem_leaks(game, _item("1号（狼）为什么攻击你？", **zh)) == []  # the seer's own check
    assert any("seat 4's hidden role" in r for r in stem_leaks(game, _item("四号（狼）的遗言说明了什么？", **zh)))  # seats in words
    assert stem_leaks(game, _item("被1号说成狼的2号怎么办？", **zh)) == []  # a claim at the table
    opts = stem_leaks(game, _item("你怎么做？", options=["投出女巫5号", *ZH_FILLER[1:]], **zh))
    assert opts and "seat 5's hidden role (witch)" in opts[0]
    assert stem_leaks(game, _item("5号是什么身份？", options=["5号是女巫", *ZH_FILLER[1:]], **zh)) == []
    assert any("night action (save)" in r for r in stem_leaks(game, _item("6号昨晚被救了，你信谁？", **zh)))
    poison = Event(kind="skill_use", phase="night-1", segment_id=1, public=False, actor=5, target=2, skill="witch_poison")
    death = Event(kind="night_outcome", phase="day-1", segment_id=11, public=True, target=2)
    game = game.model_copy(update={"events": [*game.events, poison, death]})
    assert stem_leaks(game, _item("你今晚应该毒谁？", viewpoint=5, **zh))
    assert stem_leaks(game, _item("你今晚应该毒谁？", viewpoint=5, cutoff=1, **zh)) == []


def test_role_words_come_from_the_catalogue_and_the_games_declarations():
    from werealign.schema.roles import RoleDeclaration

    # an invented role, declared by the game in an invented language's words: no code knows it
    game = crafted_game()
    rules = game.rules.model_copy(update={"declared_roles": [RoleDeclaration(id="lantern_keeper", faction="good", names={"xx": ["lampwright"]})]})
    seats = [s.model_copy(update={"role": "lantern_keeper"}) if s.seat == 6 else s for s in game.seats]
    game = game.model_copy(update={"rules": rules, "seats": seats})
    assert any("seat 6's hidden role (lantern_keeper)" in r for r in stem_leaks(game, _item("The lampwright seat 6 spoke. Why?")))


def test_claims_and_what_a_wolf_knows_are_not_leaks():
    game = crafted_game()
    # seat 5 is truly the witch: a stem reporting a claim describes talk at the table (the claim is
    # taken at its word: the reader of turns may miss how it was phrased)
    assert stem_leaks(game, _item("Seat 5 claimed witch. What now?", viewpoint=1)) == []
    assert stem_leaks(_zh_game(), _item("5号起跳女巫，你怎么办？", viewpoint=1, language="zh")) == []
    assert stem_leaks(_zh_game(), _item("女巫5号，你怎么办？", viewpoint=1, language="zh"))
    # a wolf knows every seat outside its team is good: "villager seat 6" tells seat 1 nothing new...
    assert stem_leaks(game, _item("Everyone was pointing at villager seat 6. Why?", viewpoint=1)) == []
    # ...but not which good role a seat holds
    assert stem_leaks(game, _item("Vote out the witch seat 5?", viewpoint=1))
