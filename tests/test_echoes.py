"""Generated fields that echo the prompt's instructions or hold placeholder text are caught (issue 24 #12).

The replies are invented; the filter is built from the templates themselves, so the attacks below
include wordings it was not written from (another template's sentence, a lower-cased heading).
"""

from __future__ import annotations

import pytest

from werealign.dataset import load_dataset
from werealign.generation import echoes, filters


@pytest.mark.parametrize("text", [
    "What Seat 7 ACTUALLY DID NEXT (for the key only; the question must not reveal it)",
    "what seat 7 actually did next (for the key only; the question must not reveal it)?",
    "BAD MESSAGE",
    "Rule reminder: GOOD ANSWER HERE",
    "...",
    "",
    "Seat <n> should vote for <seat>.",
    "{explanation}",
    "TODO",
])
def test_echoes_and_placeholders_are_caught(text):
    assert echoes.problem(text)


def test_a_sentence_from_any_template_is_an_echo():
    # Taken from the templates as they ship: any of them, not a list kept in the filter.
    runs = echoes.template_runs()
    assert len(runs) > 50
    some = sorted(runs)[len(runs) // 2]
    assert echoes.problem("Well, " + " ".join(some) + ", I think.")


@pytest.mark.parametrize("text", [
    "You claim seer and push the vote onto Seat 4 to save the witch.",
    "I think... no, Seat 3 is the wolf; I checked him last night.",
    "我先跳预言家，昨晚查杀5号，今天大家跟我出5号。",
    "The MVP votes Seat 2 because of the badge flow.",
    None,
])
def test_ordinary_game_talk_passes(text):
    assert echoes.problem(text) is None


def test_bundled_items_pass_and_a_doctored_one_is_dropped_or_flagged():
    ds = load_dataset(None)
    assert not [i.item_id for i in ds.speech if echoes.field_problems(
        {"question": i.question, **{o.key: o.text for o in i.options}, "explanation": i.explanation})]
    item = ds.speech[0]
    echoed = item.model_copy(update={"question": "What you know AT THIS MOMENT (for the key only; the question must not reveal it)"})
    assert any(r.startswith("question:") for r in filters.hard_failures(echoed))
    options = [o.model_copy(update={"text": "BAD MESSAGE"}) if o.key != item.answer else o for o in item.options][:9]
    assert any(r.startswith("option ") and "BAD MESSAGE" in r for r in filters.hard_failures(item.model_copy(update={"options": options})))
    flagged = item.model_copy(update={"rule_reminder": "BAD MESSAGE"})
    assert any(f.startswith("rule_reminder:") for f in filters.soft_flags(flagged, [], 0))
