"""`werealign generate --negatives human` on invented games: the key a move span, distractors cut by the same
procedure from other games (never what the prompt shows, never the item's own later turns), every seat form
renumbered, clean sentence-ending spans, determinism, the CLI; and the `werealign/own-style` shortcut."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from werealign.cli import app
from werealign.dataset import load_dataset, write_dataset
from werealign.generation import human_text as ht
from werealign.generation.human import HumanConfig, Span, move_spans, remap, run_human
from werealign.llm.builtin_models import builtin_model_names
from werealign.baselines.own_style import own_style_option
from werealign.schema.models import EVERYONE, Audience
from werealign.schema import Event, GameLog, Highlight, Mvp, Phase, Provenance, RoleCount, Rules, SeatInfo, SpeechItem, Utterance
from werealign.tasks import TASKS
from werealign.validate import check_paths, count

WORDS = "quiet amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra".split()
MOVES = ("vote", "wolf", "trust", "suspect")  # move words (human_text.MOVE_WORDS) the invented clauses make moves with
DEAD = 2  # out before every cut-off of every invented game


def _clause(rng: random.Random, seats: int) -> str:
    words = rng.sample(WORDS, rng.randint(2, 5))
    if rng.random() < 0.5:
        words.insert(1, f"seat {rng.randint(1, seats)}")
        words.insert(2, rng.choice(MOVES))
    elif rng.random() < 0.5:
        words[:0] = ["I", rng.choice(MOVES)]
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
        parts = [_clause(rng, seats) for _ in range(rng.randint(2, 6))]
        # sentences of one or two clauses: an option ends where a sentence does
        text = f"tag{n}word " + "".join(p + (", " if rng.random() < 0.4 else ". ") for p in parts).rstrip(", .") + "."  # every turn names its game
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


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Eight invented games, written once for the file: every test only reads them."""
    games = [invented_game(n) for n in range(8)]
    root = tmp_path_factory.mktemp("human") / "corpus"
    write_dataset(root, name="invented", version="0", licence="CC0", games=games, items={"speech": [], "vote": [], "opponent": []}, osr={})
    return root


@pytest.fixture(scope="module")
def generated(corpus, tmp_path_factory):
    """`generate --negatives human` of the corpus with the defaults, run once for the tests that only read its output
    (each run builds the pool of every game's turns: seconds)."""
    out = tmp_path_factory.mktemp("human-run") / "h"
    return run_human(HumanConfig(dataset=str(corpus)), out), out


def _items(out: Path) -> list[SpeechItem]:
    return load_dataset(out / "dataset").speech


def _key_turn(ds, it):
    return ds.games[it.game_id].utterances[int(it.provenance.source_ref["key_turn"])]


def test_items_valid_cut_alike_and_provenanced(corpus, generated):
    outcome, out = generated
    items = _items(out)
    assert len(items) >= 12 and len(items) == len(outcome.items)
    errors, _ = count(check_paths([out / "dataset"]).findings)
    assert errors == 0
    ds = load_dataset(corpus)
    filler = ht.find_filler({g: [u for u in ds.games[g].utterances if isinstance(u.speaker, int)] for g in ds.games})
    for it in items:
        key = next(o for o in it.options if o.key == it.answer)
        assert key.origin == "ground_truth" and it.provenance.review == "unreviewed"
        # the key is a span of what the viewpoint said next, right after the cut-off (so not in the prompt), opening at a move
        turn = _key_turn(ds, it)
        assert turn.speaker == it.viewpoint_seat and min(turn.segment_ids) > it.cutoff_segment
        assert key.text in move_spans(turn, filler).values()
        assert not any(u.speaker == it.viewpoint_seat for u in ds.games[it.game_id].utterances
                       if it.cutoff_segment < min(u.segment_ids) < min(turn.segment_ids))
        assert sum(o.origin == "human_utterance" for o in it.options) == 8
        for o in it.options:
            if o is not key:
                # cut by the key's own procedure from a turn of another game (then its seats renumbered)
                source, turn_index = str(it.provenance.source_ref[f"option_{o.key}"]).split("#")
                assert source != it.game_id and re.fullmatch(r"invented-\d+", source)
                spans = move_spans(ds.games[source].utterances[int(turn_index)], filler).values()
                assert re.sub(r"seat \d+", "seat N", o.text) in {re.sub(r"seat \d+", "seat N", t) for t in spans}
        assert it.provenance.source_ref["method"].startswith("human-voiced")
        assert float(it.provenance.source_ref["predictability"]) < 1


def test_distractors_never_from_the_items_game_nor_what_is_shown(corpus, generated):
    ds = load_dataset(corpus)
    from werealign.shortcuts.exchange import future_options

    for it in _items(generated[1]):
        n = it.game_id.split("-")[1]
        game = ds.games[it.game_id]
        assert future_options(it, game) == []  # the audit's check: nothing cut from, or repeating, a later turn
        for o in it.options:
            if o.key == it.answer:
                continue
            assert f"tag{n}word" not in o.text.casefold() and f"future{n}x" not in o.text.casefold()  # this game's markers
            assert "wolfchat" not in o.text and "aside" not in o.text  # nor what the table never heard
            shown = " ".join(x.text for x in game.utterances if max(x.segment_ids) <= it.cutoff_segment)
            assert o.text.rstrip(".") not in shown


def test_a_distractor_repeating_a_later_turn_of_the_game_is_not_used():
    """Another game's words can tell what this game announces later (the same witch's report): never used."""
    from werealign.generation.human import Moment, Picker, build_pool
    from werealign.generation.human_shown import shown_for

    a, b = invented_game(0), invented_game(1)
    day = [u for u in a.utterances if u.phase == "day-1" and isinstance(u.speaker, int)]
    me = day[3].speaker
    later = "I am the witch and I saved seat 5 on night one. Vote seat 6 today."
    a = a.model_copy(update={"utterances": [u.model_copy(update={"text": later, "segments": []}) if u.index == day[-1].index else u
                                            for u in a.utterances]})
    b = b.model_copy(update={"utterances": [u.model_copy(update={"text": later, "segments": []}) if u.index == 5 else u for u in b.utterances]})
    ds = type("D", (), {"games": {a.game_id: a, b.game_id: b}})()
    pool = build_pool(ds, frozenset())
    m = Moment(a.game_id, me, day[3], min(day[3].segment_ids) - 1, "test")
    shown = shown_for(a, m)
    picker = Picker(pool, 0)
    ranked = picker.candidates(a, m, "Seat 1 vote amber lantern river.")
    assert ranked and all(pool[i].game_id == b.game_id for i in ranked)
    said = [i for i in ranked if pool[i].turn_index == 5]
    assert said and picker._first_fit(said, set(), {s: 1 for s in shown.live}, m, "x", [], shown) is None


def test_every_seat_form_is_renumbered_in_its_own_form():
    from werealign.shortcuts.seats import mentions, renumber

    text = "7号 says, 7 号位 and 七号 and 十二号位 and seat 7 and Player 12 and 3号"
    out = renumber(text, {7: 4, 12: 9})
    assert out == "4号 says, 4 号位 and 四号 and 九号位 and seat 4 and Player 9 and 3号"
    assert [(m.seat, m.form) for m in mentions(out)] == [(4, "digit"), (4, "digit-space"), (4, "numeral"), (9, "numeral"),
                                                         (4, "word"), (9, "word"), (3, "digit")]
    assert renumber("十号和二十号", {10: 11, 20: 2}) == "十一号和二号"  # a numeral is read whole, never its last digit
    # a distractor from another game: every form of every seat renumbered, the speaker's to the viewpoint's
    zh = Span("g", "zh", 1, 5, "day", True, "", frozenset())
    out = remap("五号说7 号位是狼，十一号是好人", zh, me=9, live=[2, 3], seed="s")
    seats = ht.seats_named(out)
    assert seats[0] == 9 and set(seats[1:]) <= {2, 3} and seats[1] != seats[2] and "五" not in out and "十一" not in out
    assert "号位" in out and out.count("号") == 3


def test_seats_remapped_onto_the_games_seats_dead_at_the_keys_rate(corpus, generated):
    ds = load_dataset(corpus)
    named = 0
    for it in _items(generated[1]):
        seats = {s.seat for s in ds.games[it.game_id].seats}
        for o in it.options:
            if o.key != it.answer:
                named += len(ht.seats_named(o.text))
                assert set(ht.seats_named(o.text)) <= seats
    assert named > 20  # the invented texts name seats often: the check above was exercised


def test_remap_draws_dead_seats_at_the_given_rate():
    span = Span("g", "xx", 1, 5, "day", False, "", frozenset())
    text = "seat 5 here, seat 7 lies"
    drawn = [ht.seats_named(remap(text, span, me=3, live=[1, 4, 6, 8], seed=f"s{i}", dead=[2], dead_rate=0.3))[1] for i in range(400)]
    assert 0.2 < drawn.count(2) / len(drawn) < 0.4  # the key's own rate of seats already out
    assert all(ht.seats_named(remap(text, span, me=3, live=[1, 4], seed=f"s{i}", dead=[2]))[1] != 2 for i in range(50))


def test_remap_is_consistent_speaker_becomes_viewpoint_and_never_over_assigns():
    span = Span("g", "xx", 1, 5, "day", False, "", frozenset())
    text = "seat 5 here, seat 7 lies, and seat 7 voted seat 1"
    out = remap(text, span, me=3, live=[1, 2, 4, 8], seed="s")
    a, b, c, d = ht.seats_named(out)
    assert a == 3 and b == c and b != d and {b, d} <= {1, 2, 4, 8}
    assert remap(text, span, me=3, live=[1], seed="s") is None  # two other seats, one live seat to give them
    zh = Span("g", "zh", 1, 5, "day", True, "", frozenset())
    assert ht.seats_named(remap("5号说7 号是狼", zh, me=9, live=[2], seed="s")) == [9, 2]


def test_filler_is_found_in_the_corpus_not_listed():
    turns = {f"g{i}": [Utterance(index=0, segment_ids=[0], start=0, end=1, phase="d", speaker=1, text=f"hmm, zrk, unique clause number {i}")]
             for i in range(4)}
    filler = ht.find_filler(turns)
    assert {"hmm", "zrk"} <= filler and not any("unique" in f for f in filler)
    assert ht.clauses(turns["g0"][0], filler) == ["unique clause number 0"]


def test_deterministic_and_seeded(corpus, generated, tmp_path):
    # the file's run (the default seed, 0), then that seed again: the same bytes; and the seed changes them (shown on
    # runs of the first six moments, seed 0 and seed 1: the same config but the seed, at a fraction of a whole run)
    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    run_human(HumanConfig(dataset=str(corpus), seed=0), tmp_path / "b")
    assert tree(generated[1]) == tree(tmp_path / "b")
    for seed in (0, 1):
        run_human(HumanConfig(dataset=str(corpus), seed=seed, limit=6), tmp_path / f"limit-{seed}")
    a, b = tree(tmp_path / "limit-0"), tree(tmp_path / "limit-1")
    options = [[[o["text"] for o in json.loads(line)["options"]] for line in t["dataset/items/speech.jsonl"].splitlines()] for t in (a, b)]
    assert a.keys() == b.keys() and options[0] and options[1] and options[0] != options[1]  # not only the seed recorded


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
    assert "werealign/own-style" in builtin_model_names() and "own-style" in TASKS["speech"].scorer.shortcuts


def test_only_turns_the_table_heard_are_keys_or_distractors(corpus):
    from werealign.generation.human import build_pool, find_human_moments

    ds = load_dataset(corpus)
    pool = build_pool(ds, frozenset())
    assert pool and not any(s.turn_index in (1, 2) for s in pool)  # the wolves' chat and the night aside
    game = ds.games["invented-0"]
    game.highlights.append(type(game.highlights[0])(segment_id=0, kind="other", note="before the aside"))
    moments, skipped = find_human_moments(ds, [game])
    assert all(m.turn.index not in (1, 2) for m in moments) and any("off the table" in w for w in skipped)


def test_distractors_name_a_seat_out_at_the_keys_own_rate(corpus, tmp_path):
    """Whether an option names a seat already out is drawn per distractor at the keys' own rate: at rate 0
    none does, at rate 1 most do, and a whole run matches its keys' share."""
    from werealign.generation.human import Picker, build_pool, find_human_moments, item_id_of, key_opening
    from werealign.generation.human_shown import names_seat_out, shown_for

    ds = load_dataset(corpus)
    moments, _ = find_human_moments(ds, sorted(ds.games.values(), key=lambda g: g.game_id))
    pool = build_pool(ds, frozenset())
    for rate in (0.0, 1.0):
        picker, flags = Picker(pool, 0, dead_rate=0.5, out_rate=rate), []
        for m in [m for m in moments if shown_for(ds.games[m.game_id], m).dead][:8]:  # a seat out: before that, none is drawn
            key = key_opening(m.turn, frozenset())
            if key is not None:
                shown = shown_for(ds.games[m.game_id], m)
                negatives, _ = picker.pick(ds.games[m.game_id], m, item_id_of(m), key, shown)
                flags += [names_seat_out(n["text"], shown) for n in negatives]
        assert len(flags) >= 16
        # rate 1: each distractor names one whenever a candidate can (the invented games are small)
        assert (sum(flags) == 0) if rate == 0 else (sum(flags) / len(flags) > 0.8)
    # the viewpoint's turns after the death name only the seat out, so some keys name it
    games = [g.model_copy(update={"utterances": [u.model_copy(update={"text": re.sub(r"seat \d", f"seat {DEAD}", u.text)})
                                                 if u.speaker == g.mvp.seat and min(u.segment_ids) > 50 else u for u in g.utterances]})
             for g in ds.games.values()]
    write_dataset(tmp_path / "c", name="invented", version="0", licence="CC0", games=games, items={"speech": [], "vote": [], "opponent": []}, osr={})
    ds = load_dataset(tmp_path / "c")
    moments, _ = find_human_moments(ds, sorted(ds.games.values(), key=lambda g: g.game_id))
    # one candidate set per moment: every distractor as pick() draws it, none of the choice among sets in between
    run_human(HumanConfig(dataset=str(tmp_path / "c"), draws=1), tmp_path / "h")
    keys, distractors = [], []
    for it in _items(tmp_path / "h"):
        shown = shown_for(ds.games[it.game_id], next(m for m in moments if item_id_of(m) == it.item_id))
        for o in it.options:
            (keys if o.key == it.answer else distractors).append(names_seat_out(o.text, shown))
    assert 0 < sum(keys) < len(keys)  # the invented keys name the seat out now and then
    # (a tolerance for the small invented corpus: a slot falls back to any standing when no candidate of its own fits)
    assert abs(sum(distractors) / len(distractors) - sum(keys) / len(keys)) < 0.1


@pytest.mark.parametrize("sublinear", [True, False])
def test_pool_likeness_is_tfidf_cosines_to_the_bit(sublinear):
    """The Picker's likeness (werealign.generation.likeness) gives tfidf_cosines' floats exactly, on invented texts of
    two scripts, repeated and empty texts, a key that is a pool text, queries short and long (past similarity.SHORT),
    and both ways of summing (numpy's running sum where Python's sum() is one, Python's sum() elsewhere)."""
    from werealign.generation import likeness
    from werealign.text.similarity import tfidf_cosines

    rng = random.Random(7)
    words = [*WORDS, "seat", "I", "a", "狼人", "预言家", "号", "查杀", "金水", "好人"] + ["".join(rng.choice("xyzkq") for _ in range(rng.randint(1, 7)))
                                                                              for _ in range(60)]

    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 25)))

    pool = [text() for _ in range(300)] + ["seat 4 wolf amber"] * 3
    pc = likeness.PoolCosines(pool, sublinear_tf=sublinear)
    checked = 0
    for trial in range(16):
        query = text() * rng.choice([1, 3, 150])
        key = rng.choice([text(), rng.choice(pool)])
        idx = rng.sample(range(len(pool)), rng.randint(1, 120))
        want = tfidf_cosines(query, [key, *(pool[i] for i in idx)], sublinear_tf=sublinear)
        assert pc.cosines(query, key, idx) == want, trial
        checked += sum(w > 0 for w in want)
    assert checked > 200  # most texts share grams with the query: the products were exercised, not only zeros
    values = np.asarray([rng.random() * 10 ** rng.randint(-8, 8) for _ in range(400)])
    lengths = np.asarray([0, 5, 0, 120, 1, 274])
    rows = np.split(values, np.cumsum(lengths)[:-1])
    for sequential in (True, False) if likeness.SEQUENTIAL_SUM else (False,):
        assert likeness._row_sums(np.stack([values, values[::-1]]), lengths, sequential) == [
            [float(sum(r.tolist())) for r in rows], [float(sum(r.tolist())) for r in np.split(values[::-1], np.cumsum(lengths)[:-1])]]


def test_a_new_option_is_checked_against_every_option_kept():
    """The generators add distractors one at a time and check each against those kept (werealign.generation.filters):
    the same verdict as the check of the whole set, when the set kept was clean."""
    from werealign.generation.filters import repeats_an_option
    from werealign.schema import Option
    from werealign.shortcuts.checks import duplicate_option_pairs

    rng = random.Random(3)
    found = 0
    for _ in range(300):
        kept: list[str] = []
        while len(kept) < 6:
            t = " ".join(rng.sample(WORDS[:6], rng.randint(2, 4)))
            if not any(duplicate_option_pairs([Option(key="ABCDEFGHI"[n], text=x, origin="imported") for n, x in enumerate([*kept, t])])):
                kept.append(t)
        new = rng.choice([*kept, kept[0] + ".", " ".join(rng.sample(WORDS[:6], 3))])
        whole = duplicate_option_pairs([Option(key="ABCDEFGHI"[n], text=x, origin="imported") for n, x in enumerate([*kept, new])])
        assert repeats_an_option(new, kept) == bool(whole[0] or whole[1])
        found += repeats_an_option(new, kept)
    assert 50 < found < 280  # both verdicts met
