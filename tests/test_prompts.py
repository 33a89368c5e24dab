"""Prompt templates: versioned, shipped in the package, deterministic, clear errors for missing variant data."""

from __future__ import annotations

import shutil

import pytest

from crafted_game import PLAYER_NAME, crafted_game, crafted_opponent_item, crafted_osr, crafted_speech_item, crafted_vote_item
from werealign.errors import UserError
from werealign.eval.prompts import render_messages
from werealign.render import prompt_templates
from werealign.render.prompt_templates import PROMPT_VERSION, templates_hash, templates_root
from werealign.schema import OPTION_KEYS


def test_every_template_is_in_the_package():
    root = templates_root()
    for lang in ("en", "zh"):
        for name in ("system", "context", "speech", "vote", "opponent"):
            assert (root / lang / f"{name}.{PROMPT_VERSION}.j2").is_file(), f"{lang}/{name}"


def test_messages_are_system_then_user_and_ask_for_the_answer_format():
    game = crafted_game()
    for item, line in [
        (crafted_speech_item(), "Answer: <letter>"),
        (crafted_vote_item(), "Answer: <seat number>"),
        (crafted_opponent_item(), "Answer: <seat>, <seat>, ..."),
    ]:
        msgs = render_messages(game, item)
        assert [m["role"] for m in msgs] == ["system", "user"]
        assert msgs[1]["content"].endswith(line)
        assert "\n\n\n" not in msgs[1]["content"]


def test_vote_and_opponent_list_the_candidates():
    game = crafted_game()
    assert "Candidates: 1, 2, 4, 5" in render_messages(game, crafted_vote_item())[1]["content"]
    assert "time to vote in Day 1" in render_messages(game, crafted_vote_item())[1]["content"]
    assert "Candidates: 1, 2, 4, 5" in render_messages(game, crafted_opponent_item())[1]["content"]


def test_player_names_are_shown_with_their_seats():
    # Names are public at the table: speech says "Heron", the model must know that is seat 1.
    game = crafted_game()
    for item in (crafted_speech_item(), crafted_vote_item(), crafted_opponent_item()):
        assert f"## Players\nSeat 1: {PLAYER_NAME}\n" in render_messages(game, item)[1]["content"]
    nameless = game.model_copy(update={"seats": [s.model_copy(update={"name": None}) for s in game.seats]})
    assert "## Players" not in render_messages(nameless, crafted_vote_item())[1]["content"]


def test_option_order_reletters_in_shown_order():
    game, item = crafted_game(), crafted_speech_item()
    order = [8, 0, 1, 2, 3, 4, 5, 6, 7]
    user = render_messages(game, item, option_order=order)[1]["content"]
    for shown, original in enumerate(order):
        assert f"\n{OPTION_KEYS[shown]}. {item.options[original].text}\n" in user + "\n"
    identity = render_messages(game, item)[1]["content"]
    assert f"\nA. {item.options[0].text}\n" in identity
    assert render_messages(game, item, option_order=list(range(9))) == render_messages(game, item)


@pytest.mark.parametrize("order", [[0, 1, 2], [0] * 9, list(range(1, 10))])
def test_bad_option_order_is_a_user_error(order):
    with pytest.raises(UserError, match="crafted-RI-1: option_order"):
        render_messages(crafted_game(), crafted_speech_item(), option_order=order)


def test_option_order_on_a_vote_item_is_a_user_error():
    with pytest.raises(UserError, match="option_order only applies to speech"):
        render_messages(crafted_game(), crafted_vote_item(), option_order=[0])


def test_rr_prepends_the_rule_reminder():
    user = render_messages(crafted_game(), crafted_speech_item(), variant="rr")[1]["content"]
    assert user.startswith("## Rule reminder\nRemember: the seer checks one player per night.")
    assert "Rule reminder" not in render_messages(crafted_game(), crafted_speech_item())[1]["content"]


def test_missing_variant_data_names_item_and_field():
    game = crafted_game()
    with pytest.raises(UserError, match="item crafted-RI-1: rule_reminder is missing"):
        render_messages(game, crafted_speech_item(rule_reminder=None), variant="rr")
    # the task registry says which variants a kind takes: vote items take no rule reminder
    with pytest.raises(UserError, match=r"item crafted-VA-1: variant rr does not apply to vote items \(it applies to speech items only\)"):
        render_messages(game, crafted_vote_item(), variant="rr")
    with pytest.raises(UserError, match="item crafted-OI-1: variant osr needs objective rewrites of game crafted-1"):
        render_messages(game, crafted_opponent_item(), variant="osr", osr=None)
    with pytest.raises(UserError, match="unknown variant 'xyz'"):
        render_messages(game, crafted_speech_item(), variant="xyz")
    other = crafted_speech_item().model_copy(update={"game_id": "other"})
    with pytest.raises(UserError, match="does not match game 'crafted-1'"):
        render_messages(game, other)
    bad_phase = crafted_vote_item().model_copy(update={"phase": "day-9"})
    with pytest.raises(UserError, match="phase 'day-9' is not a phase"):
        render_messages(game, bad_phase)


def test_osr_variant_uses_the_rewrites_for_every_item_kind():
    game = crafted_game()
    for item in (crafted_speech_item(), crafted_vote_item(), crafted_opponent_item()):
        user = render_messages(game, item, variant="osr", osr=crafted_osr(game))[1]["content"]
        assert "Seat 1: OSR rewrite of turn 2." in user
        assert "I am the seer and seat 2 is a wolf." not in user


def test_rendering_is_deterministic():
    game = crafted_game()
    for item in (crafted_speech_item(), crafted_vote_item(), crafted_opponent_item()):
        a = render_messages(game, item, option_order=None)
        b = render_messages(crafted_game(), item.model_copy(deep=True), option_order=None)
        assert a == b


def test_templates_hash_is_stable_and_tracks_template_bytes(tmp_path, monkeypatch):
    h = templates_hash()
    assert h == templates_hash() and len(h) == 64
    copy = tmp_path / "templates"
    shutil.copytree(str(templates_root()), copy)
    monkeypatch.setattr(prompt_templates, "templates_root", lambda: copy)
    assert templates_hash() == h
    (copy / "en" / f"speech.{PROMPT_VERSION}.j2").write_text("changed", encoding="utf-8")
    assert templates_hash() != h


def test_a_solver_step_template_changes_the_solver_hash_only(tmp_path, monkeypatch):
    """A step's wording is in the run identity of runs with that solver, and never moves a default run's."""
    from werealign.eval.rundir import versions_record

    h, s = templates_hash(), prompt_templates.solver_templates_hash()
    assert versions_record(("vote",)).solver_templates_sha256 is None
    assert versions_record(("vote",), "xu:questions=6").solver_templates_sha256 == s
    copy = tmp_path / "templates"
    shutil.copytree(str(templates_root()), copy)
    monkeypatch.setattr(prompt_templates, "templates_root", lambda: copy)
    (copy / "zh" / "solvers" / f"final.{PROMPT_VERSION}.j2").write_text("changed", encoding="utf-8")
    assert templates_hash() == h and prompt_templates.solver_templates_hash() != s


def test_the_phrase_table_words_the_prompt_and_the_hash_tracks_it_and_the_telling_order(monkeypatch):
    """The words come from werealign.render.phrases (no other copy renders them) and templates_hash() sees
    a change to them, and to the order the context builder tells events in."""
    from werealign.game import visibility as context
    from werealign.render import phrases

    game, item = crafted_game(), crafted_speech_item()
    h = templates_hash()
    assert "You checked Seat 1 (wolf)" in render_messages(game, item)[1]["content"]
    monkeypatch.setitem(phrases.SKILL["en"], "seer_check", "peeked at")
    assert "You peeked at Seat 1 (wolf)" in render_messages(game, item)[1]["content"]
    assert templates_hash() != h
    monkeypatch.undo()
    assert templates_hash() == h
    monkeypatch.setitem(context.TELLING_ORDER, "vote", 7)
    assert templates_hash() != h


def test_chinese_prompt_is_chinese_framed():
    game = crafted_game().model_copy(update={"language": "zh"})
    vote = crafted_vote_item().model_copy(update={"language": "zh"})
    user = render_messages(game, vote)[1]["content"]
    assert "现在是第1天白天的放逐投票" in user and "候选座位：1, 2, 4, 5" in user
    assert user.endswith("答案：<座位号>")
    assert "Answer" not in user


def test_each_option_order_fills_one_rendering_byte_identically():
    """An item's decodes share one rendering with slots for the question's strings (eval.prompts.Prepared._user):
    every order must give the bytes of rendering the filled-in variables from scratch, for every speech item of
    the sample in every variant it has data for, and for a game whose own text holds NUL characters."""
    from werealign.dataset import load_dataset
    from werealign.eval.prompts import prepare
    from werealign.tasks import TASKS

    speech = TASKS["speech"]

    def check(game, item, variant, osr=None):
        prepared = prepare(game, item, variant=variant, osr=osr)
        n = len(item.options)
        for order in (None, list(reversed(range(n))), [*range(1, n), 0], list(range(n)), None):
            question = speech.question_vars(game, item, prepared.lang, order)
            expected = prompt_templates.render_template(prepared.lang, "speech", **{**prepared.kw, **question})
            assert prepared.messages(order)[1]["content"] == expected

    ds = load_dataset(None)
    checked = 0
    for item in ds.items_of("speech"):
        for variant in speech.variants:
            try:
                check(ds.games[item.game_id], item, variant, ds.osr.get(item.game_id))
                checked += 1
            except UserError:  # the sample has no data for this variant of this item
                continue
    assert checked >= len(ds.items_of("speech")) * 3
    check(crafted_game(rules_text="Rules. \x001\x00 and \x00slot:1\x00 stay as written."), crafted_speech_item(), "base")
