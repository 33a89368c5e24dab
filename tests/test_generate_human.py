"""`werealign generate --negatives human` on invented games: seat remapping, no own game / no future,
length matching, determinism, the CLI; and the `werealign/own-style` shortcut."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from werealign.cli import app
from werealign.dataset import load_dataset, write_dataset
from werealign.game.derive import alive_at
from werealign.generation import human_text as ht
from werealign.generation.filters import LENGTH_BAND, text_length
from werealign.generation.human import HumanConfig, Span, remap, run_human
from werealign.llm.builtin_models import builtin_model_names
from werealign.llm.own_style import own_style_option
from werealign.schema.models import EVERYONE, Audience
from werealign.schema import Event, GameLog, Highlight, Mvp, Phase, Provenance, RoleCount, Rules, SeatInfo, SpeechItem, Utterance
from werealign.tasks import TASKS
from werealign.validate import check_paths, count

WORDS = "quiet amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra".split()
DEAD = 2  # out before every cut-off of every invented game


def _clause(rng: random.Random, seats: int) -> str:
    words = rng.sample(WORDS, rng.randint(2, 5))
    if rng.random() < 0.5:
        words.insert(1, f"seat {rng.randint(1, seats)}")
    return " ".join(words)


def invented_game(n: int, seats: int = 9, turns: int = 14, language: str = "xx", highlights: tuple[int, ...] = (30, 70, 110)) -> GameLog:
    rng = random.Random(n)
    utts = [Utterance(index=0, segment_ids=[0], start=0, end=1, phase="night-1", speaker="host", text="night falls"),
            # what the table never heard: the wolves' chat, and a player's aside in the night
            Utterance(index=1, segment_ids=[1], start=1, end=2, phase="night-1", speaker=3, audience=Audience(kind="team", team="wolf"),
                      text=f"wolfchat{n} we take seat 5 tonight, then blame seat 7 tomorrow"),
            Utterance(index=2, segment_ids=[2], start=2, end=3, phase="night-1", speaker=4, text=f"aside{n} I am so sleepy, seat 8 keeps moving")]
    for i in range(3, turns + 1):
        speaker = 1 + (i % seats)
        if speaker == DEAD and i > 2:
            speaker = 3
        text = f"tag{n}word " + ", ".join(_clause(rng, seats) for _ in range(rng.randint(2, 6)))  # every turn names its game
        if i > turns // 2:
            text = f"FUTURE{n}X{i} {text}"  # a marker only this game's later turns carry
        utts.append(Utterance(index=i, segment_ids=[10 * i], start=10 * i, end=10 * i + 5, phase="day-1", speaker=speaker, text=text))
    mvp = 4
    return GameLog(
        game_id=f"invented-{n}", language=language, provenance=Provenance(source="invented for a test"),
        rules=Rules(text="Invented rules.", variant="invented", composition=[
            RoleCount(role="werewolf", faction="wolf", count=seats // 3), RoleCount(role="villager", faction="good", count=seats - seats // 3)]),
        seats=[SeatInfo(seat=s, role="villager" if s % 3 else "werewolf", faction="good" if s % 3 else "wolf") for s in range(1, seats + 1)],
        phases=[Phase(id="night-1", kind="night", day=1, start=0, end=5), Phase(id="day-1", kind="day", day=1, start=5, end=10_000)],
        utterances=utts,
        events=[Event(kind="elimination", phase="day-1", segment_id=5, target=DEAD, result="night_death", audience=EVERYONE)],
        mvp=Mvp(seat=mvp), highlights=[Highlight(segment_id=s, kind="other", note="invented") for s in highlights],
        winner="good",
    )


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    games = [invented_game(n) for n in range(8)]
    root = tmp_path / "corpus"
    write_dataset(root, name="invented", version="0", licence="CC0", games=games, items={"speech": [], "vote": [], "opponent": []}, osr={})
    return root


def _items(out: Path) -> list[SpeechItem]:
    return load_dataset(out / "dataset").speech


def test_items_valid_length_matched_and_provenanced(corpus, tmp_path):
    outcome = run_human(HumanConfig(dataset=str(corpus)), tmp_path / "h")
    items = _items(tmp_path / "h")
    assert len(items) >= 12 and len(items) == len(outcome.items)
    errors, _ = count(check_paths([tmp_path / "h" / "dataset"]).findings)
    assert errors == 0
    ds = load_dataset(corpus)
    for it in items:
        key = next(o for o in it.options if o.key == it.answer)
        assert key.origin == "ground_truth" and it.provenance.review == "unreviewed"
        # the key is the opening of what the viewpoint said next, right after the cut-off (so not in the prompt)
        turn = ds.games[it.game_id].utterances[int(it.provenance.source_ref["key_turn"])]
        assert turn.speaker == it.viewpoint_seat and min(turn.segment_ids) > it.cutoff_segment
        assert turn.text.startswith(key.text.rstrip(".").split(", ")[0])
        assert not any(u.speaker == it.viewpoint_seat for u in ds.games[it.game_id].utterances
                       if it.cutoff_segment < min(u.segment_ids) < min(turn.segment_ids))
        assert sum(o.origin == "human_utterance" for o in it.options) == 8
        for o in it.options:
            if o is not key:
                assert 1 / LENGTH_BAND <= text_length(o.text) / text_length(key.text) <= LENGTH_BAND
                assert re.fullmatch(r"invented-\d+#\d+", str(it.provenance.source_ref[f"option_{o.key}"]))
        assert it.provenance.source_ref["method"].startswith("human-voiced")


def test_no_distractor_from_own_game_or_its_future(corpus, tmp_path):
    run_human(HumanConfig(dataset=str(corpus)), tmp_path / "h")
    ds = load_dataset(corpus)
    for it in _items(tmp_path / "h"):
        n = it.game_id.split("-")[1]
        for o in it.options:
            if o.key == it.answer:
                continue
            assert not str(it.provenance.source_ref[f"option_{o.key}"]).startswith(f"{it.game_id}#")
            assert f"FUTURE{n}X" not in o.text  # nothing the game says later
            assert f"tag{n}word" not in o.text  # nothing of its own game at all
            assert "wolfchat" not in o.text and "aside" not in o.text  # nor what the table never heard
        assert f"tag{n}word" in next(o.text for o in it.options if o.key == it.answer)
    assert ds.games  # (the tags tell each game's turns apart)


def test_seats_remapped_onto_live_seats(corpus, tmp_path):
    run_human(HumanConfig(dataset=str(corpus)), tmp_path / "h")
    ds = load_dataset(corpus)
    named = 0
    for it in _items(tmp_path / "h"):
        live = set(alive_at(ds.games[it.game_id], it.cutoff_segment))
        for o in it.options:
            if o.key != it.answer:
                seats = ht.seats_named(o.text)
                named += len(seats)
                assert DEAD not in seats and set(seats) <= live
    assert named > 20  # the invented texts name seats often: the check above was exercised


def test_remap_is_consistent_speaker_becomes_viewpoint_and_never_over_assigns():
    span = Span("g", "xx", 1, 5, "day", False, ((0, ""),), frozenset())
    text = "seat 5 here, seat 7 lies, and seat 7 voted seat 1"
    out = remap(text, span, me=3, live=[1, 2, 4, 8], seed="s")
    a, b, c, d = ht.seats_named(out)
    assert a == 3 and b == c and b != d and {b, d} <= {1, 2, 4, 8}
    assert remap(text, span, me=3, live=[1], seed="s") is None  # two other seats, one live seat to give them
    zh = Span("g", "zh", 1, 5, "day", True, ((0, ""),), frozenset())
    assert ht.seats_named(remap("5号说7 号是狼", zh, me=9, live=[2], seed="s")) == [9, 2]


def test_filler_is_found_in_the_corpus_not_listed():
    turns = {f"g{i}": [Utterance(index=0, segment_ids=[0], start=0, end=1, phase="d", speaker=1, text=f"hmm, zrk, unique clause number {i}")]
             for i in range(4)}
    filler = ht.find_filler(turns)
    assert {"hmm", "zrk"} <= filler and not any("unique" in f for f in filler)
    assert ht.clauses(turns["g0"][0], filler) == ["unique clause number 0"]


def test_deterministic_and_seeded(corpus, tmp_path):
    trees = []
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        run_human(HumanConfig(dataset=str(corpus), seed=seed), tmp_path / name)
        trees.append({p.relative_to(tmp_path / name).as_posix(): p.read_bytes() for p in sorted((tmp_path / name).rglob("*")) if p.is_file()})
    assert trees[0] == trees[1] and trees[0] != trees[2]


def test_cli_flags(corpus, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["generate", str(corpus), "--negatives", "human", "--out", str(tmp_path / "o"), "--limit", "3"])
    assert ok.exit_code == 0, ok.output
    assert len(_items(tmp_path / "o")) <= 3 and "human-voiced items" in ok.output
    assert all(len(line) <= 80 for line in ok.output.splitlines() if str(tmp_path) not in line)
    assert json.loads((tmp_path / "o" / "generation.json").read_text())["negatives"] == "human"
    both = runner.invoke(app, ["generate", str(corpus), "--negatives", "human", "--model", "x/y", "--out", str(tmp_path / "p")])
    assert both.exit_code != 0 and "--model" in str(both.exception) and not (tmp_path / "p").exists()
    none = runner.invoke(app, ["generate", str(corpus), "--out", str(tmp_path / "q")])
    assert none.exit_code != 0 and "--model" in str(none.exception)
    for extra in (["--redraft"], ["--dry-run"], ["--games", "nope"], ["--limit", "0"]):
        bad = runner.invoke(app, ["generate", str(corpus), "--negatives", "human", "--out", str(tmp_path / "s"), *extra])
        assert bad.exit_code != 0 and extra[0].removeprefix("--").split("-")[0] in str(bad.exception)
        assert not (tmp_path / "s").exists()


def test_own_style_picks_the_option_in_the_viewpoints_words():
    options = [(k, f"{w} and more words" ) for k, w in zip("ABCDEFGHI", WORDS)]
    options[6] = ("G", "zanzibar quokka zanzibar, my usual words")
    assert own_style_option(options, ["zanzibar quokka, as I always say"])[0] == "G"
    assert own_style_option(options, [])[0] == "A"
    assert "werealign/own-style" in builtin_model_names() and "own-style" in TASKS["speech"].shortcuts


def test_only_turns_the_table_heard_are_keys_or_distractors(corpus):
    from werealign.generation.human import build_pool, find_human_moments

    ds = load_dataset(corpus)
    pool = build_pool(ds, frozenset())
    assert pool and not any(s.turn_index in (1, 2) for s in pool)  # the wolves' chat and the night aside
    game = ds.games["invented-0"]
    game.highlights.append(type(game.highlights[0])(segment_id=0, kind="other", note="before the aside"))
    moments, skipped = find_human_moments(ds, [game])
    assert all(m.turn.index not in (1, 2) for m in moments) and any("off the table" in w for w in skipped)
