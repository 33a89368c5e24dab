"""The audit explains and filters (issue 19 item 2), on invented games with a planted artifact: the
n-grams that give keys away, per-item artifact scores cross-fitted across games, and the
`--filtered-out` split, which must hold against attacks it was not filtered with."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cli_inproc import run_cli
from crafted_game import crafted_game, crafted_opponent_item, crafted_osr, crafted_vote_item
from werealign.audit import audit_items, render_text
from werealign.shortcuts.checks import key_longest_rate
from werealign.dataset import Dataset, load_dataset, write_dataset
from werealign.schema import DatasetCounts, DatasetManifest, Option, SpeechItem

WORDS = "amber birch cobalt dune ember fjord gale heath inlet jade kelp loam moss nectar ochre pine quartz reed sage tarn".split()
ZH = "山水云风雨雪花草木石河湖海田林竹松月星光"
PLANT = "reckon"  # the register word the keys of "artifact" items carry
GAMES = [f"g{k}" for k in range(1, 9)]


def _options(rng: random.Random, answer: int, *, plant: str | None, vocab, joiner: str = " ") -> list[str]:
    texts = []
    for j in range(9):
        words = [rng.choice(vocab) for _ in range(rng.randint(6, 9))]
        if plant and j == answer:
            words[rng.randrange(len(words))] = plant
        texts.append(joiner.join(words))
    return texts


def _items(rng: random.Random, per_game: int, *, plant_share: float, plant=PLANT, vocab=WORDS, joiner=" ", language="en",
           games=GAMES, unique_plant: bool = False) -> list[SpeechItem]:
    items = []
    for g in games:
        for i in range(per_game):
            answer = rng.randrange(9)
            planted = i < per_game * plant_share
            word = f"{plant}{g}" if unique_plant else plant
            texts = _options(rng, answer, plant=word if planted else None, vocab=vocab, joiner=joiner)
            items.append(SpeechItem(
                item_id=f"{g}-{'art' if planted else 'clean'}-{i}", game_id=g, language=language, dimension="SJ" if i % 2 else "PS",
                viewpoint_seat=3, cutoff_segment=14, question=f"Invented question {i}?",
                options=[Option(key="ABCDEFGHI"[j], text=t, origin="imported") for j, t in enumerate(texts)], answer="ABCDEFGHI"[answer]))
    return items


def _games():
    return [crafted_game().model_copy(update={"game_id": g}) for g in GAMES]


def _dataset(items: list[SpeechItem]) -> Dataset:
    manifest = DatasetManifest(name="invented", version="0", languages=["en"], licence="CC0",
                               counts=DatasetCounts(games=len(GAMES), speech=len(items), vote=0, opponent=0), content_hashes={})
    return Dataset(manifest=manifest, games={g.game_id: g for g in _games()}, items={"speech": items})


def _write(root: Path, items: list[SpeechItem]) -> None:
    games = _games()
    vote = [crafted_vote_item().model_copy(update={"item_id": f"{g}-VA", "game_id": g}) for g in GAMES]
    opp = [crafted_opponent_item().model_copy(update={"item_id": f"{g}-OI", "game_id": g}) for g in GAMES]
    osr = {g.game_id: [r.model_copy(update={"game_id": g.game_id}) for r in crafted_osr(g)] for g in games}
    write_dataset(root, name="invented", version="0", licence="CC0", games=games, items={"speech": items, "vote": vote, "opponent": opp}, osr=osr)


def _planted_attack(items) -> float:
    """The attack that knows the artifact: the option carrying the planted word, else A. Not one the filter used."""
    hits = 0
    for it in items:
        pick = next((o.key for o in it.options if PLANT in o.text.split()), "A")
        hits += pick == it.answer
    return hits / len(items)


def test_the_audit_names_the_planted_ngram_in_english_and_chinese():
    report = audit_items(_dataset(_items(random.Random(1), 12, plant_share=0.5)))
    top = report.artifacts["all"][0]
    assert top["ngram"] == PLANT and top["side"] == "key" and top["weight"] > 0 and top["key_share"] > top["distractor_share"]
    assert PLANT in report.to_dict()["artifacts"]["SJ"][0]["ngram"]
    text = render_text(report)
    assert f"'{PLANT}'" in text and all(len(line) <= 80 for line in text.splitlines())
    # Chinese options have no spaces: characters are read as n-grams (detected from the text, the
    # language field says "en" here on purpose)
    zh = audit_items(_dataset(_items(random.Random(2), 12, plant_share=0.5, plant="咱们", vocab=list(ZH), joiner="")))
    named = [g["ngram"] for g in zh.artifacts["all"] if g["side"] == "key"]
    assert named and all(ch in "咱们" for ch in named[0])


def test_scopes_counted_once_name_what_each_scope_alone_names():
    """separating_ngrams_by_scope counts the n-grams once over every scope: each scope's n-grams and weights must be the
    ones a vectoriser fitted on that scope alone gives, with scopes in two scripts (mixed and Chinese-only: other
    n-grams), a scope whose n-grams reach MIN_OPTIONS only with the other scopes' options, and a scope without a key."""
    from werealign.audit.explain import separating_ngrams, separating_ngrams_by_scope

    en = _items(random.Random(5), 6, plant_share=0.5)
    zh = _items(random.Random(6), 6, plant_share=0.5, plant="咱们", vocab=list(ZH), joiner="")
    few = en[:1]  # one item: most of its n-grams sit in fewer than MIN_OPTIONS of its own options
    keyless = [it.model_copy(update={"answer": "Z"}) for it in en[:4]]
    scopes = [("all", en + zh), ("en", en), ("zh", zh), ("few", few), ("keyless", keyless), ("half", en[::2] + zh[::2])]
    got = separating_ngrams_by_scope(scopes)
    assert got == {scope: separating_ngrams(items) for scope, items in scopes}
    assert got["zh"] and got["en"] and got["zh"] != got["all"] and got["keyless"] == []


def test_artifact_scores_are_cross_fitted_across_games():
    # one artifact shared by every game: a model of the other games finds it
    shared = audit_items(_dataset(_items(random.Random(3), 12, plant_share=1.0)))
    scores = [s["artifact_score"] for s in shared.item_scores.values()]
    assert sum(scores) / len(scores) > 0.6
    # each game's keys carry a word no other game has: a model trained on the other games cannot know it
    unique = audit_items(_dataset(_items(random.Random(3), 12, plant_share=1.0, unique_plant=True)))
    scores = [s["artifact_score"] for s in unique.item_scores.values()]
    assert sum(scores) / len(scores) < 0.25


def test_filtered_split_is_complete_valid_deterministic_and_holds(tmp_path):
    rng = random.Random(4)
    items = _items(rng, 16, plant_share=0.5)  # 129 items: 22 kept (24 per game kept 61 for twice the CPU; BENCHMARKS.md)
    leak = items[-1].model_copy(update={"item_id": "g8-leak", "question": "Seat 4 (wolf)'s last words: why?"})
    items.append(leak)
    src = tmp_path / "src"
    _write(src, items)
    out = tmp_path / "split"
    r = run_cli("audit", src, "--filtered-out", out, "--seed", "7", "--format", "json")
    assert r.returncode == 0, r.stderr
    note = json.loads((out / "dataset.json").read_text())["filtering"]
    from werealign.shortcuts.filtering import ATTACKS, THRESHOLD

    assert note["method"] == "aflite" and note["seed"] == 7 and note["attacks"] and note["threshold"] == THRESHOLD == 0.15
    split = load_dataset(out)
    c = note["counts"]
    assert c["speech_in"] == len(items) and c["speech_kept"] == len(split.speech) and c["removed_leak"] >= 1
    assert c["speech_kept"] + c["removed_leak"] + c["removed_answerable"] == len(items)
    # which filter removes what: each attack alone, on the items that do not leak; every item one reaches is removed
    assert set(c["answerable_by"]) == {f"{f}-{lrn}" for f, lrn in ATTACKS} | {"context-learned", "ensemble"}
    assert 0 < max(c["answerable_by"].values()) <= c["removed_answerable"]
    # complete: every game, VA/OI item and OSR rewrite; only filtered speech items
    assert sorted(split.games) == GAMES and len(split.vote) == len(split.opponent) == len(split.osr) == len(GAMES)
    kept = split.speech
    assert "g8-leak" not in {it.item_id for it in kept}
    removed = {row["item_id"] for row in json.loads((out / "filter_report.json").read_text())["removed"]}
    assert removed | {it.item_id for it in kept} == {it.item_id for it in items}
    # holds against attacks it was not filtered with: the planted word itself, word features, length
    assert len(kept) >= 20
    assert _planted_attack(kept) <= 0.2 < _planted_attack(items)
    assert note["independent_attack"]["top1"] <= 0.2 and key_longest_rate(kept) <= 0.15
    assert sum("-art-" in it.item_id for it in kept) <= len(kept) * 0.2
    assert run_cli("validate", out).returncode == 0
    # an existing output is not replaced without --overwrite; with it, the split is written again, and deterministic
    # with --seed: the same bytes (one file spoilt first, so a rerun that left the old split in place would fail)
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    refused = run_cli("audit", src, "--filtered-out", out, "--seed", "7")
    assert refused.returncode == 1 and "not empty" in refused.stderr
    # --strict as well: the source fails its audit, so a CI gate exits non-zero (after writing the split)
    (out / "filter_report.json").write_text("{}")
    from werealign.audit import core
    from werealign.shortcuts import context

    core._MEMO.clear()  # audited again, not answered from the process's memo of its last reports
    context.clear_memos()  # its features and cross-fits computed again too
    assert run_cli("audit", src, "--filtered-out", out, "--seed", "7", "--overwrite", "--strict").returncode == 1
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == first
    stranger = tmp_path / "notes"
    stranger.mkdir()
    (stranger / "mine.txt").write_text("keep me")
    kept = run_cli("audit", src, "--filtered-out", stranger, "--overwrite")
    assert kept.returncode == 1 and (stranger / "mine.txt").read_text() == "keep me"
    inside = run_cli("audit", src, "--filtered-out", src / "sub")
    assert inside.returncode == 1 and "inside the input" in inside.stderr and not (src / "sub").exists()


@pytest.mark.werebench
@pytest.mark.slow
def test_release_filtered_split_holds_against_independent_attacks(werebench_audit, werebench_import):
    # the session's one `werealign audit --filtered-out` of the imported release (conftest); it ran with --strict, which
    # exits 1 after writing the split (the release fails its audit: test_audit)
    out, r = werebench_audit.split, werebench_audit.result
    assert r.returncode == 1, r.stderr  # a failure before the split was written prints no JSON (below)
    doc = json.loads(r.stdout)
    note = doc["filtered_out"]
    # the release's own items are told apart by their wording: with the learned ensemble among the filter's
    # attacks 12 of 537 survive (13 before it; BENCHMARKS.md, issue 43). Filtered items come from generated sets.
    assert note["counts"]["speech_kept"] >= 8 and note["counts"]["removed_leak"] > 0
    assert note["independent_attack"]["top1"] <= 0.2 and note["independent_attack"]["key_longest"] <= 0.15
    assert all(0 <= s["artifact_score"] <= 1 for s in doc["item_scores"].values())
    assert doc["artifacts"]["all"] and {g["side"] for g in doc["artifacts"]["all"]} == {"key", "distractor"}
    # that a split validates is test_filtered_split_is_complete_valid_deterministic_and_holds's (invented games), that
    # the release's games and items validate is test_validate's test_real_import_validates_without_errors: the split
    # is those games and a subset of those items (validating it again cost ~4 CPU s)
    assert sorted(p.name for p in (out / "games").iterdir()) == sorted(p.name for p in (werebench_import.path / "games").iterdir())


def test_the_release_card_says_what_each_filter_removed_and_how_wide_a_small_split_is():
    from types import SimpleNamespace

    from werealign.release.card import filtering_lines

    note = {"threshold": 0.15, "counts": {"speech_in": 50, "speech_kept": 25, "removed_leak": 5, "removed_answerable": 20,
                                          "answerable_by": {"chars-lr": 12, "context-learned": 7}}}
    lines = filtering_lines(SimpleNamespace(manifest=SimpleNamespace(filtering=note)))
    text = " ".join(lines)
    assert "25 of 50" in text and "5 removed for leaks" in text and "chars-lr 12, context-learned 7" in text
    assert "±20%" in text  # 0.98 / sqrt(25): fewer than 100 items
    note["counts"] |= {"speech_in": 400, "speech_kept": 150}
    assert "interval" not in " ".join(filtering_lines(SimpleNamespace(manifest=SimpleNamespace(filtering=note))))
    assert filtering_lines(SimpleNamespace(manifest=SimpleNamespace(filtering=None))) == []
