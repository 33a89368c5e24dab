"""hidden_role_flags (issue 30 must-have 7): an item whose shown stem or options pin a seat's true role that the
viewpoint neither knows nor heard said at the table by the cut-off; on invented items of the crafted game."""

from __future__ import annotations

from crafted_game import crafted_game, crafted_opponent_item, crafted_vote_item
from test_audit_leaks import FILLER, ZH_FILLER, _item, _zh_game

from werealign.shortcuts.leaks import hidden_role_flags


def test_options_pinning_a_true_role_with_a_word_for_the_true_one():
    game = _zh_game()  # seat 5 is truly the witch; nobody says so before the cut-off
    zh = dict(language="zh")
    for option in ("守卫先守真女巫5号", "5号真女巫今晚会用毒", "5号真正的女巫"):
        flags = hidden_role_flags(game, _item("你怎么做？", options=[option, *ZH_FILLER[1:]], **zh))
        assert flags and "seat 5's hidden role (witch)" in flags[0], option
    # the same words on a seat that is not the witch pin nothing true; a claim put forward is an answer to weigh
    assert hidden_role_flags(game, _item("你怎么做？", options=["6号真女巫今晚会用毒", *ZH_FILLER[1:]], **zh)) == []
    assert hidden_role_flags(game, _item("你怎么做？", options=["5号是真女巫", *ZH_FILLER[1:]], **zh)) == []
    # a "真" of another word ("认真") leaves no label behind
    assert hidden_role_flags(game, _item("你怎么做？", options=["5号认真女巫的发言", *ZH_FILLER[1:]], **zh)) == []
    # the witch herself knows
    assert hidden_role_flags(game, _item("你怎么做？", viewpoint=5, options=["5号真女巫今晚会用毒", *ZH_FILLER[1:]], **zh)) == []


def test_english_true_one_and_stems():
    game = crafted_game()
    flags = hidden_role_flags(game, _item("What now?", options=["Protect the real witch seat 5", *FILLER[1:]]))
    assert flags and "seat 5's hidden role (witch)" in flags[0]
    assert hidden_role_flags(game, _item("Seat 4 (wolf)'s last words: what do they hide?"))
    assert hidden_role_flags(game, _item("Seat 2, called a wolf by seat 1, spoke next. Why?")) == []  # heard at the table


def test_the_shown_stem_is_checked_and_other_kinds_are_clean():
    game = crafted_game()
    leaky = _item("Seat 4 (wolf)'s last words: what do they hide?")
    assert hidden_role_flags(game, leaky.model_copy(update={"question_short": "Seat 4's last words: what do they hide?"})) == []
    assert hidden_role_flags(game, crafted_vote_item()) == [] and hidden_role_flags(game, crafted_opponent_item()) == []


def test_a_role_only_the_game_declares_is_pinned_by_its_own_words():
    from werealign.schema.roles import RoleDeclaration

    game = crafted_game()
    rules = game.rules.model_copy(update={"declared_roles": [RoleDeclaration(id="lantern_keeper", faction="good", names={"xx": ["lampwright"]})]})
    seats = [s.model_copy(update={"role": "lantern_keeper"}) if s.seat == 6 else s for s in game.seats]
    game = game.model_copy(update={"rules": rules, "seats": seats})
    flags = hidden_role_flags(game, _item("What now?", options=["Seat 6 the real lampwright goes first", *FILLER[1:]]))
    assert flags and "seat 6's hidden role (lantern_keeper)" in flags[0]
    assert hidden_role_flags(game, _item("What now?", options=["Seat 5 the real lampwright goes first", *FILLER[1:]])) == []
