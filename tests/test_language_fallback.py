"""A language without a template set is asked in English, and the run says so (issue 12)."""

from __future__ import annotations

from crafted_game import crafted_game, crafted_vote_item
from werealign.eval.prompts import fallback_notices, render_messages, template_language


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
