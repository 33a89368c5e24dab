"""`werealign restyle` end to end with a fake model: every option rewritten, seats and origins kept,
originals in provenance, the options-only attack in the loop, resume for free, dry-run pricing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from test_generate_human import invented_game
from werealign.cli import app
from werealign.dataset import load_dataset, write_dataset
from werealign.errors import UserError
from werealign.schema import Option, SpeechItem
from werealign.generation.human_text import seats_named
from werealign.generation.restyle import RestyleConfig, estimate, keys_found, run_restyle

MARK = "zqxj"  # what the fake's first draft gives every key: an artifact the attack must catch


class FakeRestyler:
    """Rewrites each option it is shown; on a first draft the keys (which it is told, a model is not) carry MARK."""

    def __init__(self, keys: set[str]):
        self.keys = keys
        self.calls = 0

    async def __call__(self, *, model: str, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        self.calls += 1
        user = messages[1]["content"]
        first = "earlier drafts" not in user
        options = dict(re.findall(r"^([A-I]): (.*)$", user, re.M))
        out = {k: f"plainly {t}" + (f" {MARK}" if first and t in self.keys else "") for k, t in options.items()}
        content = json.dumps({"options": out})
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=content), finish_reason="stop")],
                               usage=SimpleNamespace(prompt_tokens=len(user) // 4, completion_tokens=len(content) // 4, total_tokens=0),
                               _hidden_params={"response_cost": 0.001})


class Refuse:
    async def __call__(self, **kwargs: Any) -> Any:
        raise AssertionError("a resumed run must not send anything")


def invented_items(games: list) -> list[SpeechItem]:
    """Speech items of the invented games shaped as human-voiced ones are (restyle reads the items, not how they were
    chosen): the key a sentence of the viewpoint's next turn, eight distractors sentences of other games' turns, each
    naming the seats its words name; five items per game."""
    rng = random.Random(46)
    turns = {g.game_id: [(u, [s.strip() + "." for s in u.text.split(".") if s.strip()]) for u in g.utterances
                         if isinstance(u.speaker, int) and u.phase.startswith("day")] for g in games}
    items = []
    for g in games:
        others = sorted({s for gid, rows in turns.items() if gid != g.game_id for _, said in rows for s in said})
        for u, said in rng.sample(turns[g.game_id], 5):
            key = rng.choice(said)
            texts = [key, *rng.sample([s for s in others if s != key], 8)]
            order = rng.sample(range(9), 9)
            options = [Option(key=k, text=texts[i], origin="ground_truth" if i == 0 else "human_utterance") for k, i in zip("ABCDEFGHI", order)]
            items.append(SpeechItem(item_id=f"{g.game_id}-s{u.index}", game_id=g.game_id, language=g.language, dimension="PS",
                                    viewpoint_seat=u.speaker, cutoff_segment=min(u.segment_ids) - 1,
                                    question=f"You are Seat {u.speaker}, and it is your turn to speak. What do you say now?",
                                    options=options, answer="ABCDEFGHI"[order.index(0)]))
    return items


@pytest.fixture(scope="module")
def human_items(tmp_path_factory) -> Path:
    """Speech items of invented games, enough of them (50) for a cross-fitted attack to learn from, written once for the
    file; every test only reads them and writes elsewhere. Cut directly (invented_items), not by `generate --negatives
    human` (seconds of learned choosing restyle never looks at: tests/test_generate_human.py proves that generator)."""
    root = tmp_path_factory.mktemp("restyle-input")
    games = [invented_game(n, turns=40, highlights=()) for n in range(10)]
    write_dataset(root / "h" / "dataset", name="invented", version="0", licence="CC0", games=games,
                  items={"speech": invented_items(games), "vote": [], "opponent": []}, osr={})
    return root / "h" / "dataset"


def test_restyle_end_to_end_with_the_attack_in_the_loop(human_items, tmp_path):
    before = load_dataset(human_items).speech
    keys = {next(o.text for o in it.options if o.key == it.answer) for it in before}
    fake = FakeRestyler(keys)
    config = RestyleConfig(model="fake/model", dataset=str(human_items), max_redrafts=2)
    items, notes, session = run_restyle(config, tmp_path / "r", acompletion=fake, quiet=True)
    after = {it.item_id: it for it in load_dataset(tmp_path / "r" / "dataset").speech}
    assert len(after) == len(before) == len(items)
    # the first drafts gave every key away; the attack caught them and the redrafts removed it
    first = [it.model_copy(update={"options": [o.model_copy(update={"text": o.text + (f" {MARK}" if o.key == it.answer else "")}) for o in it.options]})
             for it in before]
    assert len(first) >= 40 and len(keys_found(first)) >= len(first) / 2  # (chance: 1/9)
    marked = [it for it in after.values() if any(MARK in o.text for o in it.options)]
    assert fake.calls > len(before) and len(marked) < len(before) / 2  # every key carried it at first
    for old in before:
        new = after[old.item_id]
        assert new.answer == old.answer and new.provenance.review == "unreviewed"
        assert new.provenance.generator_model == "fake/model" and new.provenance.source_ref["restyled_from"] == old.item_id
        for o, n in zip(old.options, new.options):
            assert n.origin == o.origin and n.text != o.text and seats_named(n.text) == seats_named(o.text)
            assert new.provenance.source_ref[f"original_{o.key}"] == o.text
    assert {n["item_id"] for n in notes} == set(after)
    assert estimate(config, tmp_path / "r").requests == 0  # the first drafts are all stored: pricing says so
    # rerun: every reply is stored, nothing is sent, the same bytes come out
    first_bytes = (tmp_path / "r" / "dataset" / "items" / "speech.jsonl").read_bytes()
    run_restyle(config, tmp_path / "r", acompletion=Refuse(), quiet=True)
    assert (tmp_path / "r" / "dataset" / "items" / "speech.jsonl").read_bytes() == first_bytes


def test_a_reply_that_drops_a_seat_is_repaired_or_flagged(human_items, tmp_path):
    class SeatDropper(FakeRestyler):
        async def __call__(self, *, model, messages, **kwargs):
            reply = await super().__call__(model=model, messages=messages, **kwargs)
            text = re.sub(r"(?i)seat \d+", "someone", reply.choices[0].message.content)
            reply.choices[0].message.content = text
            return reply

    before = load_dataset(human_items).speech
    items, notes, _ = run_restyle(RestyleConfig(model="fake/model", dataset=str(human_items), max_redrafts=0, limit=3),
                                  tmp_path / "r", acompletion=SeatDropper(set()), quiet=True)
    for it, note in zip(items, notes):
        if any(seats_named(o.text) for o in it.options):
            assert it in before and note["flags"] and "seats" in note["flags"][0]


def test_dry_run_prices_and_writes_nothing(human_items, tmp_path):
    r = CliRunner().invoke(app, ["restyle", str(human_items), "--model", "werealign/random", "--out", str(tmp_path / "r"), "--dry-run"])
    assert r.exit_code == 0, r.output
    n = len(load_dataset(human_items).speech)
    assert f"{n} items to restyle: {n} requests (0 stored)" in r.output and "$0.0000" in r.output
    assert not (tmp_path / "r").exists()


def test_review_shows_each_option_before_and_after(human_items, tmp_path):
    from werealign.generation.review import open_review
    from werealign.generation.review_server import item_view
    from werealign.validate import check_paths, count

    run_restyle(RestyleConfig(model="fake/model", dataset=str(human_items), max_redrafts=0, limit=4), tmp_path / "r",
                acompletion=FakeRestyler(set()), quiet=True)
    assert count(check_paths([tmp_path / "r" / "dataset"]).findings)[0] == 0
    session = open_review(tmp_path / "r")
    original = {it.item_id: it for it in load_dataset(human_items).speech}
    view = item_view(session, 0)
    old = original[view["item"]["item_id"]]
    assert view["before"] == {o.key: o.text for o in old.options}
    assert all(o["text"] == f"plainly {view['before'][o['key']]}" for o in view["item"]["options"])
    assert item_view(open_review(human_items.parent), 0)["before"] == {}  # never restyled: nothing to compare


def test_out_is_never_an_input_nor_a_folder_restyle_did_not_write(human_items, tmp_path):
    config = RestyleConfig(model="fake/model", dataset=str(human_items), max_redrafts=0, limit=1)
    stranger = tmp_path / "notes"
    stranger.mkdir()
    (stranger / "mine.txt").write_text("keep me")
    for out, why in ((stranger, "not empty"), (human_items / "sub", "inside the input")):
        with pytest.raises(UserError, match=why):
            run_restyle(config, out, acompletion=FakeRestyler(set()), quiet=True)
    assert sorted(p.name for p in stranger.iterdir()) == ["mine.txt"] and not (human_items / "sub").exists()
    run_restyle(config, tmp_path / "r", acompletion=FakeRestyler(set()), quiet=True)
    run_restyle(config, tmp_path / "r", acompletion=FakeRestyler(set()), quiet=True)  # its own folder: resumed
