"""Strict answer extraction: last explicit answer line after reasoning is stripped; everything else is a parse failure."""

from __future__ import annotations

import pytest

from crafted_game import crafted_opponent_item, crafted_speech_item, crafted_vote_item
from werealign.tasks import Parsed, parse_reply
from werealign.tasks.answers import strip_reasoning

SPEECH = crafted_speech_item()
VOTE = crafted_vote_item()  # candidates 1, 2, 4, 5
OPP = crafted_opponent_item()  # candidates 1, 2, 4, 5


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Answer: C", "C"),
        ("Seat 1 bluffed.\nAnswer: A", "A"),
        ("**Answer:** (B)", "B"),
        ("**Answer**: D", "D"),
        ("## Final Answer: **E**", "E"),
        ("- answer: F.", "F"),
        ("Answer: G. Seat 5 is a werewolf.", "G"),
        ("Answer: H (seat 6 is alive)", "H"),
        ("Answer: Option I", "I"),
        ("答案：Ｃ", "C"),
        ("分析……\n最终答案：选项B", "B"),
        ("答案: 【A】", "A"),
        ("Answer: A\nOn reflection...\nAnswer: B", "B"),  # the last word counts
        ("<think>Answer: A</think>\nAnswer: D", "D"),
        ("<THINKING>\nAnswer: A\n</THINKING>Answer: E", "E"),
        ("reasoning without an opener</think>\nAnswer: F", "F"),
        ("Answer: b", "B"),
        ("答案：C。", "C"),
        ("Answer: **C**.", "C"),
        ("Answer: $\\boxed{D}$", "D"),
        ("Answer: `E`", "E"),
        ("Answer: b.", "B"),  # a lone lower-case letter with a full stop is still a letter
        ("Answer: (c)", "C"),
        ("Answer: B!", "B"),
        ('Answer: "D"', "D"),
        ("答案：「E」", "E"),
        ("Answer: C. Head for seat 4 first.", "C"),  # a reason that starts with capitals A-I is not a second letter
        ("Answer: F. I am sure.", "F"),
        ("答案：B选项", "B"),  # the Chinese way round: letter, then the word for option
        ("答案：C项。", "C"),
        ("答案： D 。", "D"),
    ],
)
def test_speech_answers_read(reply, expected):
    assert parse_reply(reply, SPEECH) == Parsed(expected, None)


@pytest.mark.parametrize(
    "reply,why",
    [
        (None, "empty reply"),
        ("", "empty reply"),
        ("The answer is C.", "no answer line"),
        ("I choose C", "no answer line"),
        ("<think>Answer: A", "no answer line"),  # unterminated reasoning: nothing after it counts
        ("<think>long thought</think>", "no answer line"),
        ("Answer: J", "not one option letter"),
        ("Answer: I think B", "not one option letter"),
        ("Answer: i think", "not one option letter"),
        ("Answer: C or D", "not one option letter"),
        ("Answer: CD", "not one option letter"),
        ("Answer: B, C", "not one option letter"),  # two letters are a hedge, whatever joins them
        ("Answer: B,C", "not one option letter"),
        ("Answer: B; C", "not one option letter"),
        ("Answer: B. C", "not one option letter"),
        ("Answer: B (C)", "not one option letter"),
        ("Answer: B, or C", "not one option letter"),
        ("Answer: Option B or Option C", "not one option letter"),
        ("答案：B、C", "not one option letter"),
        ("答案：B或C", "not one option letter"),
        ("Answer: b, c", "not one option letter"),
        ("Answer:", "answer line is empty"),
        ("Answer:\n\nC", "answer line is empty"),  # the value must be right below a bare label, not after a gap
        ("Answer:\nB\nC", "not one option letter"),  # a bare label's block of two letters is a hedge
        ("Answer: A\nAnswer: maybe", "not one option letter"),  # a bad last line is not rescued by an earlier one
    ],
)
def test_speech_failures_are_errors(reply, why):
    parsed = parse_reply(reply, SPEECH)
    assert parsed.answer is None and why in parsed.error


def test_a_bare_answer_label_takes_the_line_below_it():
    assert parse_reply("Reasoning.\n**Answer:**\nC\n\nHope this helps.", SPEECH) == Parsed("C", None)


def test_option_order_is_undone():
    order = [8, 7, 6, 5, 4, 3, 2, 1, 0]
    # shown letter C is position 2, which displayed original option order[2] = 6 -> "G"
    assert parse_reply("Answer: C", SPEECH, order) == Parsed("G", None)
    assert parse_reply("Answer: A", SPEECH, order) == Parsed("I", None)
    assert parse_reply("Answer: A", SPEECH, None) == Parsed("A", None)


@pytest.mark.parametrize(
    "reply,expected",
    [("Answer: 5", 5), ("Answer: Seat 2.", 2), ("答案：4号", 4), ("答案：１号玩家", 1), ("**Answer:** #4", 4), ("Answer: (2)", 2), ("Answer: player 1", 1), ("答案：**5号**。", 5), ("Answer: $\\boxed{4}$", 4), ("Answer: 5!", 5), ("Answer: \"Seat 4\"", 4)],
)
def test_vote_answers_read(reply, expected):
    assert parse_reply(reply, VOTE) == Parsed(expected, None)


@pytest.mark.parametrize(
    "reply,why",
    [("Answer: 3", "seat 3 is not a candidate"), ("Answer: 1, 2", "not one seat number"), ("Answer: abstain", "abstaining is not an option"), ("vote 5", "no answer line")],
)
def test_vote_failures(reply, why):
    parsed = parse_reply(reply, VOTE)
    assert parsed.answer is None and why in parsed.error


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("Answer: 1, 4", (1, 4)),
        ("Answer: 4,1", (1, 4)),
        ("Answer: Seat 4, Seat 1", (1, 4)),
        ("Answer: seats 1 and 4", (1, 4)),
        ("答案：1号、4号", (1, 4)),
        ("答案：4号和1号。", (1, 4)),
        ("Answer: 5", (5,)),
        ("Answer: 1 1 4", (1, 4)),
        ("Answer: 1; 2; 4; 5", (1, 2, 4, 5)),
    ],
)
def test_opponent_answers_read_as_sorted_sets(reply, expected):
    assert parse_reply(reply, OPP) == Parsed(expected, None)


@pytest.mark.parametrize(
    "reply,why",
    [("Answer: 1, 3", "3 not among the candidates"), ("Answer: the wolves", "not a list of seat numbers"), ("Answer: 1, x", "not a list of seat numbers")],
)
def test_opponent_failures(reply, why):
    parsed = parse_reply(reply, OPP)
    assert parsed.answer is None and why in parsed.error


def test_strip_reasoning():
    assert strip_reasoning("a<think>b</think>c") == "ac"
    assert strip_reasoning("a<think>b") == "a"
    assert strip_reasoning("b</think>c") == "c"
