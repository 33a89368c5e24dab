"""`werealign generate --negatives keys` on invented games and items: every distractor is another game's key of the
same dimension, its seats renumbered into the item's game; a wording shortcut of the original items (keys written
one way, distractors another) is gone; the CLI writes a dataset the validator accepts."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from pathlib import Path

from typer.testing import CliRunner

from werealign.cli import app
from werealign.dataset import load_dataset, write_dataset
from werealign.generation import human_text as ht
from werealign.generation.keyswap import DONORS_PER_ITEM, USES
from werealign.schema import Option, SpeechItem
from werealign.text.seat_names import names_of_seats
from werealign.validate import check_paths, count

from test_generate_human import invented_game  # the name pytest imported it under: not a second copy of the module

DIMS = ("RI", "SJ", "DR", "PS", "CT")
WORDS = "amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra quartz".split()


def _items(games: int, per_game: int, seed: int = 0) -> list[SpeechItem]:
    """Items whose key always carries the word "because" and whose distractors never do: a wording shortcut."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        for n in range(per_game):
            dim = DIMS[n % len(DIMS)]
            # a question names two of its dimension's three topic words and its key one of the three (the distractors of
            # the original items none): answers to like questions echo it as often, so each rank is realisable
            words = WORDS[3 * DIMS.index(dim):3 * DIMS.index(dim) + 3]
            topic = rng.sample(words, 2)
            said = [rng.choice(words), *rng.sample([w for w in WORDS if w not in words], 3)]
            key = f"Seat {rng.randint(3, 9)} is the {rng.choice(['wolf', 'villager'])} because {' '.join(said)}."
            others = [f"Seat {rng.randint(3, 9)} {' '.join(rng.sample(WORDS, 5))}." for _ in range(8)]
            at = rng.randrange(9)
            texts = others[:at] + [key] + others[at:]
            out.append(SpeechItem(item_id=f"invented-{g}-{n}", game_id=f"invented-{g}", language="xx", dimension=dim, viewpoint_seat=4,
                                  cutoff_segment=100, question=f"{dim} question {n}: what about {topic[0]} {topic[1]}?",
                                  options=[Option(key=k, text=t, origin="ground_truth" if i == at else "imported")
                                           for i, (k, t) in enumerate(zip("ABCDEFGHI", texts))], answer="ABCDEFGHI"[at]))
    return out


def _dataset(tmp_path: Path, games: int = 8, per_game: int = 15) -> Path:
    root = tmp_path / "ds"
    write_dataset(root, name="invented", version="0", licence="CC0", games=[invented_game(n) for n in range(games)],
                  items={"speech": _items(games, per_game), "vote": [], "opponent": []}, osr={})
    return root


def test_distractors_are_other_games_keys_of_the_same_dimension_renumbered(tmp_path: Path):
    root = _dataset(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["generate", str(root), "--negatives", "keys", "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    before = {it.item_id: it for it in load_dataset(root).speech}
    made = load_dataset(out / "dataset").speech
    recipients = {it.provenance.source_ref["from_item"] for it in made}
    assert 10 <= len(made) <= round(120 * (1 - DONORS_PER_ITEM / 9)) + 1  # the donors' items are not released; some ranks unrealisable
    game = invented_game(0)
    seats = {s.seat for s in game.seats}
    for it in made:
        src = before[it.provenance.source_ref["from_item"]]
        key = next(o.text for o in it.options if o.key == it.answer)
        assert key == next(o.text for o in src.options if o.key == src.answer)  # the key and question kept
        assert it.question == src.question and it.dimension == src.dimension
        for o in it.options:
            if o.key == it.answer:
                continue
            other = before[str(it.provenance.source_ref[f"option_{o.key}"]).split("#")[1]]
            assert other.game_id != it.game_id and other.dimension == it.dimension
            other_key = next(x.text for x in other.options if x.key == other.answer)
            assert re.sub(r"\d+", "#", o.text) == re.sub(r"\d+", "#", other_key)  # the same words, seats renumbered
            assert set(ht.seats_named(o.text, names_of_seats(game.seats))) <= seats
    # no text is told by memory: of each item's distractors, at least DONORS_PER_ITEM are keys of no released item
    for it in made:
        elsewhere = sum(str(it.provenance.source_ref[f"option_{o.key}"]).split("#")[1] in recipients for o in it.options if o.key != it.answer)
        assert elsewhere <= 8 - DONORS_PER_ITEM
    # and every text serves at most USES items, the key's own included
    uses = Counter(str(v).split("#")[1] for it in made for k, v in it.provenance.source_ref.items() if k.startswith("option_"))
    uses.update(recipients)
    assert max(uses.values()) <= USES
    # the original items fall to their wording; with every option a key, the same rule is chance
    def because(items):
        return sum(next(o.key for o in it.options if "because" in o.text) == it.answer for it in items) / len(items)

    assert because(list(before.values())) == 1.0
    assert all(sum("because" in o.text for o in it.options) == 9 for it in made)
    errors, _ = count(check_paths([out / "dataset"]).findings)
    assert errors == 0


def test_a_dataset_without_speech_items_is_refused(tmp_path: Path):
    root = tmp_path / "empty"
    write_dataset(root, name="invented", version="0", licence="CC0", games=[invented_game(0)], items={"speech": [], "vote": [], "opponent": []}, osr={})
    result = CliRunner().invoke(app, ["generate", str(root), "--negatives", "keys", "--out", str(tmp_path / "o")])
    assert result.exit_code != 0 and "no speech items" in result.output + str(result.exception)
    assert not (tmp_path / "o").exists()


def test_the_keys_rank_by_likeness_to_its_question_is_the_drawn_target(tmp_path: Path):
    # each drawn set puts the key at its item's target rank (a seeded uniform draw), or is not drawn at all
    from types import SimpleNamespace

    from werealign.generation.human_shown import shown_for
    from werealign.generation.keyswap import Drawer, _likeness, key_text

    ds = load_dataset(_dataset(tmp_path))
    drawn = 0
    unused = Drawer(ds, 0, 0.3, 0.0)
    for it in ds.speech:
        drawer = copy.copy(unused)  # fresh: every key unused, so the likeness is fitted as draw() fits it
        drawer.used = [Counter(u) for u in unused.used]
        if it.item_id in drawer.donors:
            continue
        picked, why = drawer.draw(it, shown_for(ds.games[it.game_id], SimpleNamespace(seat=it.viewpoint_seat, cutoff=it.cutoff_segment)), 0)
        if not picked:
            assert why
            continue
        drawn += 1
        like = _likeness(it.question, [key_text(it), *(s.text for s in drawer.eligible(it))])
        key = like(key_text(it))
        target = random.Random(f"0:{it.item_id}:question-rank").randrange(9)
        assert sum(like(t) <= key for t, _ in picked) == target
    assert drawn >= 5
