"""The context ablations' prompts (issue 19): no-context shows strictly less than base, options-only shows
nothing of the game; on an invented game, in every template language."""

from __future__ import annotations

import pytest

from crafted_game import PLAYER_NAME, SECRETS, crafted_game, crafted_opponent_item, crafted_speech_item, crafted_vote_item
from werealign.errors import UserError
from werealign.eval.prompts import render_messages
from werealign.render.prompt_templates import template_languages
from werealign.tasks import TASKS, VARIANTS, WITHOUT_GAME, prompt_shape

ITEMS = {"speech": crafted_speech_item, "vote": crafted_vote_item, "opponent": crafted_opponent_item}
# What the invented game says at the table before the cut-off: none of it may reach a prompt without the game.
SPOKEN = ("I am the seer and seat 2 is a wolf.", "I checked seat 1 and seat 1 is a wolf", "I trust seat 3 completely.",
          "Seat 6 died last night.")


def _game(lang: str):
    return crafted_game().model_copy(update={"language": lang})


def _item(task: str, lang: str):
    return ITEMS[task]().model_copy(update={"language": lang})


def _cases():
    for lang in sorted(template_languages()):
        for task in ITEMS:
            for mode in TASKS[task].modes or (None,):
                yield lang, task, mode


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def test_every_task_takes_both_context_ablations():
    for variant in WITHOUT_GAME:
        assert variant in VARIANTS
        assert all(variant in task.variants for task in TASKS.values())


@pytest.mark.parametrize(("lang", "task", "mode"), list(_cases()))
def test_no_context_shows_strictly_less_than_base(lang, task, mode):
    game, item = _game(lang), _item(task, lang)
    base = render_messages(game, item, mode=mode)[1]["content"]
    bare = render_messages(game, item, variant="no-context", mode=mode)[1]["content"]
    added = _lines(bare) - _lines(base)
    # Only the heading and the one line saying what is left out are new; every other line is the base's.
    assert len(added) == 2, added
    assert _lines(base) - _lines(bare), "no-context must leave something out"
    for text in SPOKEN:
        assert text in base or task == "vote"  # VA's decision view withholds the voter's own turns of the day
        assert text not in bare
    assert "Seat 6" not in bare.split("\n## ")[-1].split("\n", 1)[0]  # the question heading is untouched
    # What the seat's role knows stays: its own night check (the crafted viewpoint is a seer who checked seat 1).
    own_check = [line for line in _lines(base) if line.startswith(("- [", "- 【")) and line in _lines(bare)]
    assert own_check, "the viewpoint's own night result is knowledge of its role, kept in no-context"
    for secret in SECRETS.values():
        assert secret not in bare
    assert prompt_shape(bare) == prompt_shape(base)  # the same answer line: parsed and scored alike


@pytest.mark.parametrize(("lang", "task", "mode"), list(_cases()))
def test_options_only_shows_nothing_of_the_game(lang, task, mode):
    game, item = _game(lang), _item(task, lang)
    messages = render_messages(game, item, variant="options-only", mode=mode)
    text = "\n".join(m["content"] for m in messages)
    forbidden = [*SPOKEN, *SECRETS.values(), PLAYER_NAME, game.rules.text, "seer", "预言家", "Seat 3", "3号"]
    frame = text
    if task == "speech":
        forbidden.append(item.question)
        for option in item.options:
            assert option.text in text  # the options are all it shows
            frame = frame.replace(option.text, "")
    if mode == "roles":  # the role cards (with how many of each) are the answer space of this mode: its options
        frame = "\n".join(line for line in frame.splitlines() if not line.startswith(("Role cards", "身份牌")))
    for word in forbidden:
        assert word not in frame, word
    # The same fixed instruction for every item of a task: two different items render the same frame.
    other = item.model_copy(update={"item_id": "x", "cutoff_segment": 1})
    again = "\n".join(m["content"] for m in render_messages(game, other, variant="options-only", mode=mode))
    assert again == text
    assert prompt_shape(text) == prompt_shape(render_messages(game, item, mode=mode)[1]["content"])


def test_an_unknown_variant_is_one_clear_error():
    with pytest.raises(UserError, match="unknown variant 'no-game'.*no-context"):
        render_messages(crafted_game(), crafted_speech_item(), variant="no-game")


def test_the_system_message_says_what_the_variant_shows():
    game, item = crafted_game(), crafted_speech_item()
    systems = {v: render_messages(game, item, variant=v)[0]["content"] for v in ("base", "no-context", "options-only")}
    assert len(set(systems.values())) == 3
    assert "not what has happened" in systems["no-context"]
    assert "not the question, not the game" in systems["options-only"]
