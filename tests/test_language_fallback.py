"""A language without a template set is asked in English, and the run says so (issue 12)."""

from __future__ import annotations

from crafted_game import crafted_game, crafted_vote_item
from werealign.eval.prompts import render_messages
from werealign.render.prompt_templates import fallback_notices, template_language


def test_a_language_without_templates_falls_back_to_english_with_a_notice():
    assert template_language("zh") == "zh" and template_language("en") == "en"
    assert template_language("tlh") == "en" and template_language("pt-BR") == "en"  # invented / unbundled tags
    notices = fallback_notices(["tlh", "en", "zh", "tlh", "pt-BR"])
    assert len(notices) == 2 and notices[0].startswith("language 'pt-BR':") and notices[1].startswith("language 'tlh':")
    assert all("\n" not in n and "English" in n for n in notices)
    assert fallback_notices(["en", "zh"]) == []


def test_fallback_prompt_is_the_english_prompt():
    game, item = crafted_game(), crafted_vote_item()
    klingon = game.model_copy(update={"language": "tlh"})
    assert render_messages(klingon, item.model_copy(update={"language": "tlh"})) == render_messages(game, item)


def test_has_sheriff_absent_is_inferred_and_validate_warns():
    from werealign.validate.game_checks import check_game

    game = crafted_game()  # no sheriff election phase or event, rules.has_sheriff not given
    assert game.rules.has_sheriff is None and game.sheriff_in_play() is False
    assert "has_sheriff" not in game.rules.model_dump(mode="json")  # an old file round-trips as it was
    with_phase = game.model_copy(update={"phases": [*game.phases, game.phases[1].model_copy(update={"id": "badge", "kind": "sheriff_election"})]})
    assert with_phase.sheriff_in_play() is True
    explicit = game.model_copy(update={"rules": game.rules.model_copy(update={"has_sheriff": True})})
    assert explicit.sheriff_in_play() is True

    warned: list[str] = []

    class Sink:
        def error(self, code, where, message):
            pass

        def warning(self, code, where, message):
            warned.append(f"{code} {where} {message}")

    check_game(game, Sink())
    assert any(w.startswith("has-sheriff-inferred rules.has_sheriff not given; inferred false") for w in warned)
    summary_game = crafted_game(rules_text=None)  # no rulebook text: the rules summary is shown
    assert "There is no sheriff." in render_messages(summary_game, crafted_vote_item())[1]["content"]
