"""The task registry: one module per item kind, asked by everything else instead of kind names."""

from __future__ import annotations


import pytest

from werealign.dataset import load_dataset
from werealign.errors import UserError
from werealign.eval.config import EvalConfig, validate_config
from werealign.render.prompt_templates import templates_root
from werealign.tasks import TASKS, VARIANTS, ItemChecks, get_task, task_names, task_of, task_of_prompt, tasks_with_variant


def test_every_registered_task_is_complete() -> None:
    templates = templates_root()
    for name, task in TASKS.items():
        assert task.name == name
        assert set(task.variants) <= set(VARIANTS) and "base" in task.variants
        for lang in ("en", "zh"):
            assert (templates / lang / f"{name}.v1.j2").is_file(), f"{name} has no {lang} template"


def test_every_template_ends_with_an_answer_form_of_its_task() -> None:
    """How a rendered prompt tells its task (what the built-in models read): each template's last line."""
    templates = templates_root()
    for lang_dir in templates.iterdir():
        for name, task in TASKS.items():
            for template in (t for t in lang_dir.iterdir() if t.name.startswith(f"{name}.") and t.name.endswith(".j2")):
                last = template.read_text(encoding="utf-8").rstrip().splitlines()[-1]
                assert any(last.endswith(form) for form in task.answer_forms), f"{lang_dir.name}/{template.name}: {last!r}"
                assert task_of_prompt(f"context\n{last}\n") is task


def test_a_prompt_tells_its_task_by_its_answer_form(monkeypatch) -> None:
    from dataclasses import replace

    invented = replace(TASKS["vote"], name="alibi", answer_forms=("<seat number>, <reason>",))
    with TASKS.added(invented):
        assert task_of_prompt("## Question\nWho?\nAnswer: <seat number>, <reason>\n\n") is invented
    assert task_of_prompt("Answer: <seat number>") is TASKS["vote"]
    assert task_of_prompt("Answer: <seat>, <seat>, ...") is TASKS["opponent"]
    assert task_of_prompt("Seat 2: Answer: <letter>\nno answer line here") is None


def test_items_find_their_task_and_the_dataset_is_read_by_task() -> None:
    from test_decision_sheriff_run import election_game
    from test_decisions import invented_game

    from werealign.game.decisions import derive_decisions
    from werealign.importers.toolkit.candidacy import candidacy_events
    from werealign.schema.decisions import ALL_DECISION_MODELS

    ds = load_dataset()
    for name in task_names():
        items = ds.items_of(name)
        if name in ALL_DECISION_MODELS:  # the bundled sample holds none: derived from its games and an invented one
            assert not items
            invented = [invented_game(), candidacy_events(election_game("Standing for sheriff: 2, 6."))]
            items = [i for g in [*ds.games.values(), *invented] for i in derive_decisions(g, "all").items[name]]
        assert items and all(task_of(i) is TASKS[name] for i in items)
    with pytest.raises(TypeError):
        task_of(object())
    with pytest.raises(UserError, match="unknown task 'bargain'"):
        get_task("bargain")


def test_the_variant_rules_come_from_the_registry() -> None:
    assert tasks_with_variant("rr") == ("speech",)
    assert tasks_with_variant("base") == task_names()
    assert EvalConfig(model="m").tasks == task_names()
    with pytest.raises(UserError, match="no chosen variant applies to vote items"):
        validate_config(EvalConfig(model="m", tasks=("vote",), variants=("rr",)))


def test_validation_asks_the_task_of_an_invented_kind(request, tmp_path) -> None:
    """Adding a kind is one task module: file detection, item checks and duplicate keys come from it."""
    from dataclasses import replace

    from crafted_game import crafted_vote_item
    from werealign.schema import VoteItem
    from werealign.validate.file_checks import detect_jsonl_kind
    from werealign.validate.findings import Sink
    from werealign.validate.item_checks import check_item, item_key

    class AlibiItem(VoteItem):
        pass

    def check(item, out):
        out.error("alibi-unproven", "answer", f"seat {item.answer} has no alibi")

    alibi = replace(TASKS["vote"], name="alibi", item_model=AlibiItem,
                    checks=ItemChecks(looks_like=lambda row: "alibi" in row, check=check, same_question=lambda item: (item.game_id, item.answer)))
    request.addfinalizer(lambda: TASKS.unregister("alibi"))
    TASKS.register(alibi)
    assert detect_jsonl_kind(tmp_path / "unnamed.jsonl", [(1, {"alibi": "at home"})]) == "alibi"
    assert detect_jsonl_kind(tmp_path / "unnamed.jsonl", [(1, {"answer": [2, 3]})]) == "opponent"
    item = AlibiItem.model_validate(crafted_vote_item().model_dump())
    out = Sink(file="alibi.jsonl")
    check_item(item, out)
    assert [(f.code, f.message) for f in out.findings] == [("alibi-unproven", f"seat {item.answer} has no alibi")]
    assert item_key(item) == ("alibi", item.game_id, item.answer)


@pytest.mark.parametrize(("name", "message"), [("games", "taken by a dataset file"), ("Seer Check", "lower-case letters")])
def test_a_kind_name_a_file_or_config_could_not_carry_is_refused(name, message) -> None:
    from dataclasses import replace

    with pytest.raises(UserError, match=message):
        TASKS.register(replace(TASKS["vote"], name=name))
    assert name not in TASKS.names()
