"""OI mode `roles` (issue 13 item 3, the WereBench release authors' protocol): the role card of every other
seat, read through the role catalogue, scored as accuracy micro-averaged over seats, with chance and the
majority-role shortcut as floors. Crafted games and invented replies only."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter

from crafted_game import VIEWPOINT, crafted_game, crafted_opponent_item
from run_factory import write_run
from werealign.dataset import Dataset
from werealign.errors import UserError
from werealign.eval.floors import run_floors
from werealign.eval.plan import plan_run
from werealign.eval.prompts import render_messages
from werealign.eval.samples import build_sample
from werealign.eval.scoring import primary_value, score_samples
from werealign.leaderboards.collect import collect
from werealign.baselines.models import BASELINES
from werealign.llm.builtin_models import in_process_reply
from werealign.llm.store import StoredResponse
from werealign.schema import RoleCount, Rules
from werealign.schema.runs import AnyTaskScores, OpponentRoleScores, RunConfig
from werealign.tasks import TASKS, modes_of, prompt_shape, task_of_prompt
from werealign.tasks import parse_reply
from werealign.tasks.opponent import UNKNOWN_ROLE, roles_gold

OPP = TASKS["opponent"]
# The crafted game: 1 werewolf, 2 villager, 3 seer (the viewpoint), 4 werewolf, 5 witch, 6 villager.
GOLD = {"1": "werewolf", "2": "villager", "4": "werewolf", "5": "witch", "6": "villager"}


def _zh_game():
    """The crafted game told in Chinese (its roles unchanged): the prompt names the cards in Chinese."""
    return crafted_game().model_copy(update={"language": "zh"})


def _prompt(game=None, mode="roles") -> str:
    game = game or crafted_game()
    item = crafted_opponent_item()
    if game.language != item.language:
        item = item.model_copy(update={"language": game.language})
    return render_messages(game, item, mode=mode)[1]["content"]


def _read(value: str, game=None):
    return parse_reply(f"Some reasoning.\nAnswer: {value}", crafted_opponent_item(), game=game or crafted_game(), mode="roles")


def test_roles_is_a_mode_of_opponent_items_and_recorded():
    assert "roles" in OPP.modes
    assert modes_of({"opponent": "roles"}, ("opponent",)) == {"opponent": "roles"}
    assert OPP.metric_for("roles") == "role_accuracy" and OPP.metric_for("set") == "mean_jaccard"
    with pytest.raises(UserError, match="opponent mode 'role'"):
        modes_of({"opponent": "role"}, ("opponent",))


def test_the_prompt_asks_every_other_seat_with_the_card_list_most_common_first():
    prompt = _prompt()
    # every seat but the viewpoint's, also the item's non-candidates (seat 6 is not among the set candidates)
    assert "Candidates: 1, 2, 4, 5, 6" in prompt
    assert "Role cards: villager ×2, werewolf ×2, seer ×1, witch ×1" in prompt
    assert prompt.rstrip().endswith("Answer: <seat>: <role>; <seat>: <role>; ...")
    assert task_of_prompt(prompt) is OPP and prompt_shape(prompt) == (OPP, "roles")
    assert prompt_shape(_prompt(mode="set")) == (OPP, "seats")
    zh = _prompt(_zh_game())
    assert "身份牌：村民 ×2、狼人 ×2、预言家 ×1、女巫 ×1" in zh
    assert zh.rstrip().endswith("答案：<座位号>: <身份>; <座位号>: <身份>; ...") and prompt_shape(zh) == (OPP, "roles")


def test_only_the_listed_cards_without_counts_when_the_seats_are_not_the_deck():
    game = crafted_game()
    rules = game.rules.model_copy(update={"public_cards": ["seer", "witch", "werewolf", "villager", "hunter"]})
    prompt = _prompt(game.model_copy(update={"rules": rules}))
    assert "Role cards: villager, seer, witch, hunter, werewolf" in prompt  # catalogue order, no counts
    assert "How many of each card is not announced" in prompt


def test_gold_is_every_other_seats_true_role():
    assert roles_gold(crafted_opponent_item(), crafted_game()) == GOLD


@pytest.mark.parametrize("value", [
    "1: werewolf; 2: villager; 4: werewolf; 5: witch; 6: villager",
    "Seat 1: Werewolf, seat 2: Plain Villager, seat 4: wolf, seat 5: witch, seat 6: villager.",
    "1号：狼人；2号：平民；4号：狼人；5号：女巫；6号：村民",
    "1: 狼人/werewolf; 2: 村民/villager; 4: 狼人 (werewolf); 5: 女巫/witch; 6: villager",
    "1=werewolf | 2=villager | 4=werewolf | 5=witch | 6=villager",
])
def test_role_names_and_synonyms_of_either_language_are_read_through_the_catalogue(value):
    parsed = _read(value)
    assert parsed.error is None and parsed.answer == GOLD


@pytest.mark.parametrize("reply", [
    "Reasoning.\nAnswer:\n1: werewolf\n2: villager\n4: werewolf\n5: witch\n6: villager\n\nGood luck.",
    "Reasoning.\n**Answer:**\n- Seat 1: werewolf\n- Seat 2: villager\n- Seat 4: wolf\n- Seat 5: witch\n- Seat 6: villager",
    "理由。\n答案：\n1号：狼人\n2号：平民\n4号：狼人\n5号：女巫\n6号：村民",
])
def test_one_seat_per_line_under_a_bare_answer_label_is_read(reply):
    parsed = parse_reply(reply, crafted_opponent_item(), game=crafted_game(), mode="roles")
    assert parsed.error is None and parsed.answer == GOLD


def test_an_unknown_label_or_a_left_out_seat_is_a_wrong_seat_not_a_failure():
    parsed = _read("1: werewolf; 2: dragon rider; 4: werewolf")
    assert parsed.error is None
    assert parsed.answer == {"1": "werewolf", "2": UNKNOWN_ROLE + "dragon rider", "4": "werewolf"}


@pytest.mark.parametrize("value, why", [
    ("1, 4", "not a list of 'seat: role' pairs"),
    ("3: seer; 1: werewolf", "seat 3 is not one of the seats asked"),
    ("9: werewolf", "seat 9 is not one of the seats asked"),
    ("1: werewolf; 1: villager", "seat 1 is given two different roles"),
    ("", "answer line is empty"),
])
def test_unreadable_answers_are_parse_failures(value, why):
    parsed = _read(value)
    assert parsed.answer is None and why in parsed.error


def _sample(answer, gold=GOLD, *, decode=0, request_error=None, item="i1") -> dict:
    return {"task": "opponent", "item_id": item, "variant": "base", "decode": decode, "gold": gold, "answer": answer,
            "correct": answer == gold, "parse_error": None if answer is not None else "x", "request_error": request_error,
            "viewpoint_role": "seer", "viewpoint_seat": VIEWPOINT, "cost": 0.0, "prompt_tokens": 1, "completion_tokens": 1}


def test_accuracy_is_micro_averaged_over_seats_and_failures_count_as_wrong():
    small = {"1": "werewolf", "2": "villager"}
    samples = [
        _sample(GOLD, item="i1"),  # 5 of 5
        _sample({"1": "villager", "2": "villager"}, small, item="i2"),  # 1 of 2
        _sample(None, small, item="i3"),  # parse failure: 0 of 2
        _sample(None, GOLD, item="i4", request_error="Timeout: slow"),  # failed request: 0 of 5
    ]
    block = score_samples(samples, modes={"opponent": "roles"})["variants"]["base"]["opponent"]
    assert block["metric"] == "role_accuracy"
    assert block["role_accuracy"] == pytest.approx(6 / 14, abs=1e-6)
    assert block["role_accuracy_answered"] == pytest.approx(6 / 9, abs=1e-6)
    assert block["mean_item_role_accuracy"] == pytest.approx((1 + 0.5 + 0 + 0) / 4, abs=1e-6)
    assert block["exact_match"] == 0.25 and block["seats"] == 14
    assert primary_value(samples[1]) == 0.5
    # the results schema reads the block as the roles kind, not as a generic task block
    assert isinstance(TypeAdapter(AnyTaskScores).validate_python(block), OpponentRoleScores)


def _dataset(game) -> Dataset:
    item = crafted_opponent_item().model_copy(update={"language": game.language})
    return Dataset(manifest=None, games={game.game_id: game}, items={"opponent": [item]})


def test_every_builtin_answers_a_roles_prompt_in_the_format(tmp_path):
    for game in (crafted_game(), _zh_game()):
        plan = plan_run(_dataset(game), RunConfig(model="werealign/random", tasks=("opponent",), decodes=1, modes={"opponent": "roles"}))
        for name in (m.name for m in BASELINES):
            reply = in_process_reply(name, plan[0].state())
            parsed = parse_reply(reply, plan[0].item, game=game, mode="roles")
            assert parsed.error is None, (name, reply)
            assert set(parsed.answer) == set(GOLD)
            assert not any(role.startswith(UNKNOWN_ROLE) for role in parsed.answer.values()), (name, reply)
    # the majority shortcut labels every seat with the most common card (villager: first among the two-card roles)
    assert parse_reply(in_process_reply("werealign/majority-role", plan[0].state()), plan[0].item, game=_zh_game(), mode="roles").answer == \
        {s: "villager" for s in GOLD}


def test_floors_chance_is_exact_and_majority_role_is_a_shortcut():
    game = crafted_game()
    config = RunConfig(model="werealign/random", tasks=("opponent",), decodes=1, modes={"opponent": "roles"})
    plan = plan_run(_dataset(game), config)
    floors = run_floors(plan, config.modes)["base"]["opponent"]
    assert floors["metric"] == "role_accuracy"
    assert floors["chance"] == 0.25  # four cards, every asked seat's role among them
    assert floors["shortcuts"]["werealign/majority-role"] == pytest.approx(2 / 5, abs=1e-6)  # seats 2 and 6
    assert floors["best"] == "werealign/majority-role"
    # a seat whose role is not on the card list can never be guessed: chance counts it as a miss
    odd = game.model_copy(update={"rules": Rules(text=None, variant="x", composition=[
        RoleCount(role="werewolf", faction="wolf", count=2), RoleCount(role="villager", faction="good", count=4)])})
    floors = run_floors(plan_run(_dataset(odd), config), config.modes)["base"]["opponent"]
    assert floors["chance"] == pytest.approx(4 / 5 * 1 / 2, abs=1e-6)


def test_samples_record_the_seat_role_gold_and_the_parsed_labels():
    plan = plan_run(_dataset(crafted_game()), RunConfig(model="m/x", tasks=("opponent",), decodes=1, modes={"opponent": "roles"}))
    stored = StoredResponse(key=plan[0].key, request={}, status="ok", response="Answer: 1: wolf; 2: villager", usage=None,
                            cost=None, latency=None, error_class=None, error_message=None, attempts=1)
    row = build_sample(plan[0], stored)
    assert row.gold == GOLD and row.answer == {"1": "werewolf", "2": "villager"} and row.correct is False
    assert json.loads(row.model_dump_json())["gold"] == GOLD


def test_a_leaderboard_refuses_runs_of_different_oi_modes(tmp_path):
    a, b = write_run(tmp_path / "a", "m/a"), write_run(tmp_path / "b", "m/b")
    for path, mode in ((a, "roles"), (b, "set")):
        record = json.loads((path / "run.json").read_text())
        record["config"]["modes"] = {"vote": "decision", "opponent": mode}
        (path / "run.json").write_text(json.dumps(record))
    with pytest.raises(UserError, match="opponent mode differs"):
        collect([a, b])
    # a run that does not evaluate OI does not conflict with either
    c = write_run(tmp_path / "c", "m/c", tasks=("speech",))
    record = json.loads((c / "run.json").read_text())
    record["config"].update(tasks=["speech"], modes={})
    (c / "run.json").write_text(json.dumps(record))
    assert len(collect([a, c])) == 2


def test_a_run_in_mode_roles_records_the_mode_and_reports_floors_beside_the_score(tmp_path):
    """In-process, on the bundled sample: a fake model that answers like majority-role scores exactly its floor."""
    from types import SimpleNamespace

    from werealign.eval.config import EvalConfig
    from werealign.eval.runner import Execution, run_eval

    from werealign.dataset import load_dataset

    config = EvalConfig(model="openai/mock", tasks=("opponent",), decodes=1, modes={"opponent": "roles"})
    states = {json.dumps(p.messages): p.state() for p in plan_run(load_dataset(), config)}

    async def majority(*, model, messages, **kwargs):
        reply = in_process_reply("werealign/majority-role", states[json.dumps(messages)])
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=reply), finish_reason="stop")],
                               usage=SimpleNamespace(prompt_tokens=1, completion_tokens=1, total_tokens=2), _hidden_params={})

    out = tmp_path / "run"
    run_eval(config, Execution(), out=out, acompletion=majority, cache=False)
    assert json.loads((out / "run.json").read_text())["config"]["modes"] == {"opponent": "roles"}
    block = json.loads((out / "results.json").read_text())["variants"]["base"]["opponent"]
    assert block["metric"] == "role_accuracy" and block["parse_failures"] == 0
    floors = block["floors"]
    assert floors["metric"] == "role_accuracy" and 0 < floors["chance"] < floors["best_score"]
    assert block["role_accuracy"] == floors["shortcuts"]["werealign/majority-role"]
