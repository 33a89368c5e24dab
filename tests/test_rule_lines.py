"""Issue 20 item 5: every role in a prompt has a rule line (the game's own rules text, a declaration or the
catalogue), or the prompt says once that its rules are not given. Invented games only."""

from __future__ import annotations

from crafted_game import VIEWPOINT, crafted_game, crafted_vote_item
from werealign.eval.prompts import render_messages
from werealign.render.lines import rules_for_prompt
from werealign.schema import RoleCount
from werealign.schema.roles import RoleDeclaration


def _with_cards(game, *extra: RoleCount, text=None, declared=()):
    rules = game.rules.model_copy(update={"composition": [*game.rules.composition, *extra], "text": text, "declared_roles": list(declared)})
    return game.model_copy(update={"rules": rules})


def test_a_rules_text_that_does_not_name_a_card_gets_its_rule_line_from_the_catalogue():
    game = _with_cards(crafted_game(), RoleCount(role="guard", faction="good", count=1),
                       text="Each werewolf kills at night. The seer checks a player. The witch has two potions. Villagers vote.")
    text = rules_for_prompt(game)
    assert text.startswith("Each werewolf kills at night.")
    added = [line for line in text.splitlines()[1:]]
    assert len(added) == 1 and added[0].startswith("Guard (") and "not given" not in text  # only the card the text lacks


def test_a_card_nobody_describes_is_named_once_as_not_given():
    odd = RoleCount(role="moon_dancer", faction="good", count=1, original_label="moon_dancer")
    game = _with_cards(crafted_game(), odd, RoleCount(role="sky_weaver", faction="wolf", count=1),
                       text="Each werewolf kills at night. The seer checks a player. The witch has two potions. Villagers vote.")
    text = rules_for_prompt(game)
    assert text.count("not given") == 1 and "moon_dancer" in text and "sky_weaver" in text
    # the generated summary (no rules text) never shows a bare "Role (side): " line either
    summary = rules_for_prompt(_with_cards(crafted_game(), odd))
    assert not any(line.rstrip().endswith(":") for line in summary.splitlines()), summary
    assert summary.count("The rules of these roles are not given: moon_dancer (the good side).") == 1
    # a declaration that gives the rule is used instead
    declared = RoleDeclaration(id="moon_dancer", faction="good", rule={"en": "Dances once per game."})
    summary = rules_for_prompt(_with_cards(crafted_game(), odd, declared=[declared]))
    assert "Dances once per game." in summary and "not given" not in summary


def test_the_prompt_carries_the_rule_lines():
    game = _with_cards(crafted_game(), RoleCount(role="moon_dancer", faction="good", count=1), text="Each werewolf kills at night.")
    prompt = render_messages(game, crafted_vote_item())[1]["content"]
    assert prompt.count("The rules of these roles are not given: moon_dancer (the good side).") == 1 and VIEWPOINT == 3
