"""Issue 35: a task kind is a Task composed with its Scorer and ItemChecks, and what the leaderboard and the
release card show of a kind is its scorer's. An invented kind (never seen by werealign) gets its own columns,
titles and card text, and the built-in kinds get theirs from the same place."""

from __future__ import annotations

from dataclasses import replace

from werealign.leaderboards.collect import ModelEntry
from werealign.leaderboards.table_model import main_columns, task_title
from werealign.tasks import TASKS, Scorer
from werealign.tasks.scorer import BoardColumn


def _entry(model: str, scores: dict) -> ModelEntry:
    return ModelEntry(model, (), {"base": scores}, ())


def _rumour(**scorer) -> object:
    """An invented kind: whom the village will suspect next, scored by a 'hit_rate' and a 'reach'."""
    base = TASKS["vote"]
    return replace(base, name="rumour", scorer=Scorer(metric="hit_rate", score=lambda samples: {}, **scorer))


def test_an_invented_kind_gets_its_own_columns_title_and_card_text() -> None:
    two = lambda blocks: (BoardColumn("RU hit", ("hit_rate",)), BoardColumn("RU reach", ("reach",)))  # noqa: E731
    rumour = _rumour(label="RU", columns=two, titles={"hit_rate": "rumours caught"}, card_text="RU: the next suspect")
    entries = [_entry("a/b", {"rumour": {"metric": "hit_rate", "hit_rate": 0.5, "reach": 0.25}})]
    with TASKS.added(rumour):
        columns = main_columns(entries)
        ours = [c for c in columns if c.task == "rumour"]
        assert [(c.name, c.path) for c in ours] == [("RU hit", ("hit_rate",)), ("RU reach", ("reach",))]
        assert ours[0].group_start and not ours[1].group_start  # a rule before a new group of kinds
        assert [c.value(entries[0], "base") for c in ours] == [0.5, 0.25]
        assert task_title("rumour", entries) == "rumours caught"

        from werealign.release.card import _config_text

        assert _config_text("rumour", []) == "RU: the next suspect"


def test_without_its_own_columns_a_kind_shows_its_runs_headline_under_its_label() -> None:
    entries = [_entry("a/b", {"rumour": {"metric": "hit_rate", "hit_rate": 0.5}})]
    with TASKS.added(_rumour(label="RU")):
        assert [(c.name, c.path) for c in main_columns(entries) if c.task == "rumour"] == [("RU", ("hit_rate",))]
        assert task_title("rumour", entries) == "RU hit rate"
    with TASKS.added(_rumour()):  # no label: its name
        assert [c.name for c in main_columns(entries) if c.task == "rumour"] == ["rumour"]
        from werealign.release.card import _config_text

        assert _config_text("rumour", []) == TASKS["vote"].description  # no card text: the task's description


def test_kinds_of_one_macro_group_get_their_mean_as_one_more_column() -> None:
    a, b = _rumour(macro_group="gossip"), replace(_rumour(macro_group="gossip"), name="whisper")
    entries = [_entry("a/b", {"rumour": {"metric": "hit_rate", "hit_rate": 0.5}, "whisper": {"metric": "hit_rate", "hit_rate": 0.25}})]
    with TASKS.added(a), TASKS.added(b):
        gossip = next(c for c in main_columns(entries) if c.name == "gossip")
        assert gossip.tasks == ("rumour", "whisper") and gossip.value(entries[0], "base") == 0.375


def test_a_macro_groups_kinds_leave_the_headline_for_a_table_of_their_own() -> None:
    """Issue 36: ten decision kinds beside the paper's columns pushed the headline past 1400 px. The headline keeps the
    group's mean; its kinds (and the mean again) go to a table of their own (leaderboards.tables.main_tables)."""
    from werealign.leaderboards.tables import headline_and_grouped

    a, b = _rumour(macro_group="gossip"), replace(_rumour(macro_group="gossip"), name="whisper")
    entries = [_entry("a/b", {"vote": {"metric": "accuracy", "accuracy": 0.5}, "rumour": {"metric": "hit_rate", "hit_rate": 0.5},
                              "whisper": {"metric": "hit_rate", "hit_rate": 0.25}})]
    with TASKS.added(a), TASKS.added(b):
        headline, grouped = headline_and_grouped(main_columns(entries))
    assert [c.name for c in headline][-3:] == ["VA", "OI", "gossip"] and headline[-1].group_start
    assert [c.name for c in grouped] == ["rumour", "whisper", "gossip"] and not grouped[0].group_start
    assert headline[-1].value(entries[0], "base") == 0.375
    assert headline_and_grouped(main_columns(entries)) == (main_columns(entries), [])  # no group: one table


def test_the_builtin_columns_come_from_their_scorers() -> None:
    """The paper's table (RI SJ DR PS CT Avg | VA OI) is what the built-in scorers define, shown with no run."""
    names = [(c.name, c.group_start) for c in main_columns([])]
    assert names == [("RI", False), ("SJ", False), ("DR", False), ("PS", False), ("CT", False), ("Avg", False),
                     ("VA", True), ("OI", False)]
    roles = [_entry("a/b", {"opponent": {"metric": "role_accuracy", "role_accuracy": 0.4}})]
    assert [c.path for c in main_columns(roles) if c.name == "OI"] == [("role_accuracy",)]
    assert task_title("opponent", roles) == "OI role accuracy" and task_title("opponent", []) == "OI mean Jaccard"


def test_a_mode_asking_its_own_question_is_a_task_of_its_own() -> None:
    opponent = TASKS["opponent"]
    roles = opponent.asked_in("roles")
    assert roles is not opponent and roles.name == opponent.name and roles.template_name == "opponent_roles"
    assert roles.scorer.metric == "role_accuracy" and opponent.asked_in("set") is opponent and opponent.asked_in(None) is opponent
    assert opponent.metric_for("roles") == "role_accuracy" and opponent.metric_for("set-accuracy") == "exact_match"


def test_a_mode_alias_two_kinds_claim_is_refused_by_name() -> None:
    import pytest

    from werealign.errors import UserError
    from werealign.tasks import task_of_mode_alias

    assert task_of_mode_alias("va") is TASKS["vote"] and task_of_mode_alias("zz") is None
    with TASKS.added(replace(TASKS["vote"], name="poll")):  # a copy of the vote kind: its alias too
        with pytest.raises(UserError, match=r"--va-mode: task kinds vote, poll all take this shorthand"):
            task_of_mode_alias("va")


def test_a_kind_whose_own_question_is_no_mode_of_it_is_refused() -> None:
    import pytest

    from werealign.errors import UserError

    opponent = TASKS["opponent"]
    bad = replace(opponent, name="suspects", modes=("set",), asks={"roles": replace(opponent.asked_in("roles"), name="suspects")})
    with pytest.raises(UserError, match=r"asks\['roles'\] is not one of its modes"):
        TASKS.register(bad)
    stray = replace(opponent, name="suspects", asks={"roles": opponent.asked_in("roles")})  # still named opponent
    with pytest.raises(UserError, match=r"mode 'roles' must ask the kind's own items under its name"):
        TASKS.register(stray)
    assert "suspects" not in TASKS
