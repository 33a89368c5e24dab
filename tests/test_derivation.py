"""Issue 46: a kind declares how its items are derived (`Task.derive`), and `werealign derive` asks every registered
kind, built-in or added, for the items of every game (werealign.game.derivation, werealign.dataset.derive).

The kinds made in the tests are invented (their item models and rules); the games are the bundled sample's
(invented) and test_decisions' invented game; the real release only checks that no reason is lost."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_decisions import invented_game

from werealign.dataset import load_dataset, write_dataset
from werealign.dataset.derive import derive_dataset, derive_games
from werealign.errors import UserError
from werealign.game.decisions import decisions_of, derive_decisions
from werealign.game.derivation import DeriveNote, DeriveOptions, Deriving, Made
from werealign.game.derive import derive_decision_items, mvp_votes
from werealign.schema.models import ItemBase, Seat
from werealign.tasks import TASKS, get_task
from werealign.tasks.base import Parsed, Scorer, Task


class LastWordItem(ItemBase):
    viewpoint_seat: Seat
    answer: Seat  # the seat that spoke the game's last turn


class FirstWordItem(ItemBase):
    viewpoint_seat: Seat
    answer: Seat


def _speakers(at: Deriving) -> list[int]:
    """A pass two invented kinds share: who spoke, in order (counted, to see it run once per game)."""
    getattr(at, "counter", []).append(at.game.game_id)
    return [u.speaker for u in at.game.utterances if isinstance(u.speaker, int)]


def _kind(name: str, model: type, pick) -> Task:
    def derive(at: Deriving) -> Made:
        speakers = at.shared(_speakers)
        if not speakers:
            return Made(notes=[DeriveNote("dropped", f"{name}_silent", "game", "nobody spoke", "no item")])
        return Made([model(item_id=f"{at.game.game_id}-{name}", game_id=at.game.game_id, language=at.game.language,
                           viewpoint_seat=speakers[0], answer=pick(speakers))])

    return Task(name=name, item_model=model, variants=("base",), question_vars=lambda *a: {}, answer_shape="seat",
                parse=lambda value, item, order, game: Parsed(None, "not asked"), answer_forms=(f"<{name}>",),
                scorer=Scorer(metric="accuracy", score=lambda samples: {}), derive=derive)


LAST = _kind("last-word", LastWordItem, lambda speakers: speakers[-1])
FIRST = _kind("first-word", FirstWordItem, lambda speakers: speakers[0])


def _sample_source(tmp_path):
    sample = load_dataset()
    src = tmp_path / "src"
    write_dataset(src, name="s", version="1", licence="CC0", games=list(sample.games.values()), items=sample.items, osr=sample.osr)
    return sample, src


def test_derive_asks_a_kind_added_through_the_registry_and_keeps_the_builtins_as_they_were(tmp_path, monkeypatch):
    sample, src = _sample_source(tmp_path)
    before = derive_dataset(src, tmp_path / "plain")
    calls: list[str] = []
    monkeypatch.setattr(Deriving, "counter", calls, raising=False)
    with TASKS.added(LAST), TASKS.added(FIRST):
        result = derive_dataset(src, tmp_path / "more")
        items = load_dataset(tmp_path / "more").items_of("last-word")
    assert list(result.kinds)[-2:] == ["last-word", "first-word"] and result.counts()["last-word"] == len(sample.games)
    assert sorted(calls) == sorted(sample.games), "the shared pass runs once per game, whichever kind asks first"
    for item in items:
        assert item.answer == [u.speaker for u in sample.games[item.game_id].utterances if isinstance(u.speaker, int)][-1]
    for kind in before.kinds:  # the built-in kinds' files are the same bytes with or without the added kinds
        assert (tmp_path / "more" / "items" / f"{kind}.jsonl").read_bytes() == (tmp_path / "plain" / "items" / f"{kind}.jsonl").read_bytes()
    assert before.kept == {"speech": len(sample.speech)} and "speech" not in before.kinds  # speech is generated: kept
    assert "last-word" not in TASKS  # the with-block is over


def test_a_kind_whose_derive_fails_is_named_with_its_game_and_nothing_is_written(tmp_path):
    _, src = _sample_source(tmp_path)

    def boom(at: Deriving) -> Made:
        raise KeyError("turn")

    def foreign(at: Deriving) -> Made:
        return Made([FirstWordItem(item_id="x", game_id=at.game.game_id, language="en", viewpoint_seat=1, answer=1)])

    with TASKS.added(replace(LAST, derive=boom)):
        with pytest.raises(UserError, match=r"game sample-en-01: task kind 'last-word' could not derive its items: KeyError"):
            derive_dataset(src, tmp_path / "out")
    with TASKS.added(replace(LAST, derive=foreign)):
        with pytest.raises(UserError, match=r"task kind 'last-word': derive made FirstWordItem, not a LastWordItem"):
            derive_dataset(src, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_kind_says_why_it_got_nothing(tmp_path):
    game = invented_game().model_copy(update={"utterances": []})
    with TASKS.added(LAST):
        made = derive_games([game], DeriveOptions())["last-word"]
    assert made.items == [] and [n.code for n in made.notes[game.game_id]] == ["last-word_silent"]


def _builtin_derived() -> dict[str, Task]:
    return {name: get_task(name) for name in ("vote", "opponent", "seer_check", "ballot", "claim", "sheriff_run")}


@pytest.mark.parametrize("deciders", ["winners", "all", "mvp"])
def test_each_builtin_kind_derives_its_part_of_the_shared_pass_and_no_reason_is_lost(deciders):
    """Reachable from its kind: each built-in kind's `derive` gives exactly its items of the one pass, and every note of
    the pass is some kind's (the report counts reasons per kind)."""
    nobody = invented_game().model_copy(update={"winner": None, "mvp": None})  # notes about the whole game: no decider
    games = [invented_game(), invented_game(winner="wolf"), nobody, *load_dataset().games.values()]
    for game in games:
        _all_notes_are_some_kinds(game, DeriveOptions(deciders))
    assert all(t.derive is not None for t in _builtin_derived().values()) and get_task("speech").derive is None


def _all_notes_are_some_kinds(game, options: DeriveOptions) -> None:
    at = Deriving(game, options)
    derived = {name: t.derive(at) for name, t in TASKS.items() if t.derive is not None}
    decisions = derive_decisions(game, options.deciders, options.include_agents)  # computed again: the same items
    votes = derive_decision_items(game, deciders=options.deciders, include_agents=options.include_agents)
    assert derived["vote"].items == votes.vote and derived["opponent"].items == votes.opponent
    for kind, made in derived.items():
        if kind not in ("vote", "opponent"):
            assert made.items == decisions.items.get(kind, []), kind
    assert sum(len(m.items) for m in derived.values()) == decisions.count() + len(votes.vote) + len(votes.opponent)
    decisions, votes = at.shared(decisions_of), at.shared(mvp_votes)  # the pass the kinds read
    attributed = {id(n) for made in derived.values() for n in made.notes}
    lost = [n for n in [*decisions.notes, *votes.notes] if id(n) not in attributed]
    assert lost == [], f"{game.game_id}: notes no kind reports: {lost}"


@pytest.mark.werebench
def test_on_the_release_no_reason_is_lost(werebench_dataset):
    for game in werebench_dataset.games.values():
        for deciders in ("winners", "all"):
            _all_notes_are_some_kinds(game, DeriveOptions(deciders))


def test_a_derive_that_is_no_function_is_refused_when_registered():
    with pytest.raises(UserError, match="'last-word': derive must be a function"):
        TASKS.register(replace(LAST, derive="generation"))  # type: ignore[arg-type] - items_from says that
    assert "last-word" not in TASKS
