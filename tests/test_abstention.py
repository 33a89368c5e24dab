"""Abstaining is a VA answer where a game's rules allow it (issue 12), on an invented game."""

from __future__ import annotations

from crafted_game import CUTOFF, VIEWPOINT, crafted_game
from werealign.eval.prompts import render_messages
from werealign.game.derive import derive_decision_items
from werealign.schema import MvpVote
from werealign.tasks import task_of
from werealign.tasks import Parsed, parse_reply
from werealign.tasks.vote import check as check_vote_item


def _game(*, abstention_allowed: bool, target: int | None = None, language: str = "en"):
    game = crafted_game()
    rules = game.rules.model_copy(update={"abstention_allowed": abstention_allowed})
    mvp = game.mvp.model_copy(update={"votes": [MvpVote(phase="day-1", target=target, cutoff_segment=CUTOFF)]})
    return game.model_copy(update={"rules": rules, "mvp": mvp, "language": language})


def test_abstention_is_an_item_only_where_the_rules_allow_it():
    dropped = derive_decision_items(_game(abstention_allowed=False))
    assert dropped.vote == [] and [n.code for n in dropped.notes if n.kind == "dropped"] == ["va_abstention"]
    (item,) = derive_decision_items(_game(abstention_allowed=True)).vote
    assert (item.viewpoint_seat, item.answer, item.abstention_allowed) == (VIEWPOINT, None, True)
    assert VIEWPOINT not in item.candidates and item.candidates  # the voter is still no candidate
    assert task_of(item).gold(item, None) == "abstain"
    # A seat vote in such a game offers abstaining too; in a game without it the item is unchanged.
    (seat_vote,) = derive_decision_items(_game(abstention_allowed=True, target=4)).vote
    assert (seat_vote.answer, seat_vote.abstention_allowed) == (4, True)
    (plain,) = derive_decision_items(_game(abstention_allowed=False, target=4)).vote
    assert "abstention_allowed" not in plain.model_dump(mode="json", exclude_unset=False)


def test_abstain_answers_parse_in_either_language_and_score():
    (item,) = derive_decision_items(_game(abstention_allowed=True)).vote
    task = task_of(item)
    for reply in ("Answer: abstain", "答案：弃票", "**Answer:** Abstain.", "答案：棄權。"):
        assert parse_reply(reply, item) == Parsed("abstain", None)
    assert task.scorer.is_correct("abstain", task.gold(item, None)) and not task.scorer.is_correct(4, task.gold(item, None))
    assert parse_reply("Answer: 4", item) == Parsed(4, None)
    (no_abstain,) = derive_decision_items(_game(abstention_allowed=False, target=4)).vote
    parsed = parse_reply("Answer: abstain", no_abstain)
    assert parsed.answer is None and "not an option" in parsed.error


def test_prompt_offers_abstaining_only_where_allowed():
    (item,) = derive_decision_items(_game(abstention_allowed=True)).vote
    en = render_messages(_game(abstention_allowed=True), item)[1]["content"]
    # Offered in the instructions; the answer line stays the task's own form, by which built-ins know the task.
    assert 'you may also answer "abstain"' in en and 'seat number or "abstain"' in en and en.endswith("Answer: <seat number>")
    zh_game = _game(abstention_allowed=True, language="zh")
    zh = render_messages(zh_game, item.model_copy(update={"language": "zh"}))[1]["content"]
    assert "或“弃票”" in zh and zh.endswith("答案：<座位号>")
    (plain,) = derive_decision_items(_game(abstention_allowed=False, target=4)).vote
    text = render_messages(_game(abstention_allowed=False, target=4), plain)[1]["content"]
    assert "abstain" not in text.split("## Question")[1] and text.endswith("Answer: <seat number>")


class _Sink:
    def __init__(self):
        self.errors: list[str] = []

    def error(self, code, where, message):
        self.errors.append(code)

    def warning(self, code, where, message):
        pass


def test_validate_refuses_a_null_answer_the_model_could_not_give():
    (item,) = derive_decision_items(_game(abstention_allowed=True)).vote
    ok, bad = _Sink(), _Sink()
    check_vote_item(item, ok)
    check_vote_item(item.model_copy(update={"abstention_allowed": False}), bad)
    assert ok.errors == [] and bad.errors == ["abstention-not-allowed"]
