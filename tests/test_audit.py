"""`werealign audit`: each check on invented items built to trip it (and not to), the CLI, the release."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from cli_inproc import run_cli
from crafted_game import CUTOFF, VIEWPOINT, crafted_game
from werealign.audit import audit_items, duplicate_pairs, explanation_favours, stem_leaks
from werealign.cli import app
from werealign.dataset import Dataset, write_dataset
from werealign.schema import DatasetCounts, DatasetManifest, Option, SpeechItem

WORDS = "amber birch cobalt dune ember fjord gale heath inlet jade kelp loam moss nectar ochre pine quartz reed".split()


def _item(i: int, texts: list[str], answer: str, *, dimension: str = "RI", game_id: str = "crafted-1", question: str = "", explanation: str | None = None, cutoff: int = CUTOFF) -> SpeechItem:
    return SpeechItem(
        item_id=f"t-{dimension}-{i}", game_id=game_id, language="en", dimension=dimension, viewpoint_seat=VIEWPOINT,
        cutoff_segment=cutoff, question=question or f"Invented question {i}?",
        options=[Option(key="ABCDEFGHI"[j], text=t, origin="imported") for j, t in enumerate(texts)],
        answer=answer, explanation=explanation)


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _dataset(items: list[SpeechItem]) -> Dataset:
    manifest = DatasetManifest(name="invented", version="0", languages=["en"], licence="CC0",
                               counts=DatasetCounts(games=1, speech=len(items), vote=0, opponent=0), content_hashes={})
    return Dataset(manifest=manifest, games={"crafted-1": crafted_game()}, items={"speech": items})


def _population(rng: random.Random, n: int, *, key_extra: int, answers: str = "ABCDEFGHI", dims: tuple[str, ...] = ("RI",)) -> list[SpeechItem]:
    """n items of nine random-word options; the key gets `key_extra` more words than the others."""
    items = []
    for i in range(n):
        answer = answers[i % len(answers)]
        texts = [_words(rng, 6 + (key_extra if "ABCDEFGHI"[j] == answer else rng.randint(0, 2))) for j in range(9)]
        items.append(_item(i, texts, answer, dimension=dims[i % len(dims)]))
    return items


def test_length_bias_fails_and_the_options_only_classifier_finds_it():
    report = audit_items(_dataset(_population(random.Random(1), 60, key_extra=8)))
    assert report.find("key-longest").verdict == "fail" and report.find("key-longest").value == 1.0
    assert report.find("key-shortest").verdict == "pass"
    assert report.find("options-only").verdict == "fail" and report.find("options-only").value > 0.9
    assert report.find("key-position").verdict == "pass"  # answers cycle A..I
    assert report.verdict == "fail" and report.failed()


def test_matched_options_pass_and_per_dimension_scopes_exist():
    items = _population(random.Random(2), 90, key_extra=1, dims=("RI", "SJ", "DR", "PS", "CT"))
    report = audit_items(_dataset(items))
    for scope in ("all", "RI", "SJ", "DR", "PS", "CT"):
        assert report.find("key-longest", scope).verdict in ("pass", "warn") if scope != "all" else True
    assert report.find("key-longest").verdict == "pass"
    assert report.find("options-only").verdict == "pass", report.find("options-only").detail
    # 18 items per dimension is just enough for a verdict; fewer is "skip", never a guess
    assert report.find("key-position", "PS").verdict != "skip"
    small = audit_items(_dataset(items[:40]))
    assert small.find("key-position", "PS").verdict == "skip" and small.find("key-position").verdict != "skip"


def test_the_same_content_is_audited_once_per_process_and_its_report_is_a_copy(monkeypatch):
    """audit_items remembers its last reports by the content it reads (werealign.audit.core._MEMO): an equal dataset
    (another object) is answered without auditing again, with an equal report no caller can spoil; changing any one
    thing the audit reads (an option, the game, the name, the items passed) audits anew."""
    from werealign.audit import core
    from werealign.shortcuts import context

    monkeypatch.setattr(core, "_MEMO", type(core._MEMO)())
    runs = []
    real = core._audit_items
    monkeypatch.setattr(core, "_audit_items", lambda *a: runs.append(1) or real(*a))
    items = _population(random.Random(3), 27, key_extra=4)
    first = audit_items(_dataset(items))
    first.checks.clear(), first.item_scores.clear()  # a caller that changes its report
    again = audit_items(_dataset([it.model_copy(deep=True) for it in items]))
    assert len(runs) == 1 and again.checks and len(again.item_scores) == 27
    core._MEMO.clear()
    context.clear_memos()
    assert audit_items(_dataset(items)).to_dict() == again.to_dict()  # what the memo gave is what an audit gives
    assert len(runs) == 2
    changed = [items[0].model_copy(update={"options": [o.model_copy(update={"text": o.text + " x"}) for o in items[0].options]}), *items[1:]]
    game = crafted_game().model_copy(update={"annotator_log": "an invented note the prompts never show"})
    other_game = Dataset(manifest=_dataset(items).manifest, games={"crafted-1": game}, items={"speech": items})
    keys = {core._memo_key(ds, subset, name) for ds, subset, name in (
        (_dataset(items), None, None), (_dataset(changed), None, None), (other_game, None, None),
        (_dataset(items), None, "renamed"), (_dataset(items), items[:18], None), (_dataset(items), items, None))}
    assert len(keys) == 6 and None not in keys  # the items passed are not "the dataset's own" (no decision check)


def test_answer_always_in_one_position_fails():
    report = audit_items(_dataset(_population(random.Random(3), 45, key_extra=1, answers="C")))
    check = report.find("key-position")
    assert check.verdict == "fail" and "C:45" in check.detail


def test_duplicates_exact_and_near():
    rng = random.Random(5)
    texts = [_words(rng, 7) for _ in range(9)]
    exact = texts[:8] + [texts[0].upper() + " ."]  # same as A after normalisation
    near = texts[:8] + [texts[0] + "s"]
    assert duplicate_pairs(_item(0, exact, "B"))[0] == [("A", "I")]
    assert duplicate_pairs(_item(1, near, "B")) == ([], [("A", "I")])
    assert duplicate_pairs(_item(2, texts, "B")) == ([], [])
    report = audit_items(_dataset([_item(0, exact, "B"), _item(1, near, "B"), _item(2, texts, "B")]))
    assert report.find("duplicate-options").verdict == "fail" and report.find("duplicate-options").examples == ["t-RI-0", "t-RI-1"]


def test_explanation_that_argues_for_another_option():
    texts = ["Seat 4 is the hidden witch protecting herself", "Seat 2 bluffed the seer card to split the village"] + [f"{w} {w} unrelated filler" for w in WORDS[:7]]
    agrees = _item(0, texts, "B", explanation="Seat 2 bluffed the seer card, splitting the village.")
    argues = _item(1, texts, "B", explanation="Seat 4 is the hidden witch: she is protecting herself.")
    assert explanation_favours(agrees) is None
    assert explanation_favours(argues) == "A"
    assert explanation_favours(_item(2, texts, "B")) is None
    report = audit_items(_dataset([agrees, argues]))
    assert report.find("explanation-key").verdict == "fail" and report.find("explanation-key").examples == ["t-RI-1"]


def test_stems_that_leak_a_hidden_role_or_the_future():
    game = crafted_game()
    later = game.utterances[5].model_copy(update={"text": "I vote seat 3 because the seer claim came far too late today.", "segments": None})
    game = game.model_copy(update={"utterances": [*game.utterances[:5], later, *game.utterances[6:]]})
    texts = [f"option {w}" for w in WORDS[:9]]
    # seat 5 is the witch; nothing visible at the cut-off says "witch": a leak
    role_leak = _item(0, texts, "A", question="You are seat 3. Seat 5 is the witch; whom do you trust?")
    # seat 1 claimed seer at the table: naming that claim is public talk (and it is not seat 1's true role)
    public = _item(1, texts, "A", question="You are seat 3. Seat 1 is a seer claimant; what is he?")
    # seat 1 IS a werewolf, and "wolf" was said at the table: no leak
    said = _item(2, texts, "A", question="You are seat 3. Seat 1 is a wolf by your check; what now?")
    # copies a turn after the cut-off
    future = _item(3, texts, "A", question="You are seat 3. Seat 4 will say he votes seat 3 because the seer claim came far too late today. Why?")
    # copies the recap (hidden)
    game = game.model_copy(update={"recap": "The wolves won the sheriff badge by a single swing vote on day one."})
    recap = _item(4, texts, "A", question="Given that the wolves won the sheriff badge by a single swing vote, what next?")
    assert stem_leaks(game, role_leak) and "seat 5" in stem_leaks(game, role_leak)[0]
    assert stem_leaks(game, public) == [] and stem_leaks(game, said) == []
    assert "hidden text" in stem_leaks(game, future)[0]
    assert "hidden text" in stem_leaks(game, recap)[0]
    # the same words at a later cut-off are no longer the future
    assert stem_leaks(game, _item(5, texts, "A", question=future.question, cutoff=16)) == []


def test_leak_check_reads_chinese_without_word_breaks():
    game = crafted_game().model_copy(update={"recap": "三号女巫在第二夜毒死了一号狼人然后好人阵营赢了"})
    texts = [f"选项{w}" for w in "一二三四五六七八九"]
    short = _item(0, texts, "A", question="你是3号，好人阵营赢了吗？")  # 6 characters in common: a phrase, not a quote
    long = _item(1, texts, "A", question="你是3号，已知女巫在第二夜毒死了一号狼人然后好人阵营赢了，该怎么办？")  # 21 characters: a quote
    assert stem_leaks(game, short) == []
    assert stem_leaks(game, long)


def test_cli_text_json_and_strict(tmp_path):
    items = _population(random.Random(4), 30, key_extra=8)
    ds = _dataset(items)
    root = tmp_path / "ds"
    write_dataset(root, name="invented", version="0", licence="CC0", games=list(ds.games.values()), items={"speech": items, "vote": [], "opponent": []})
    runner = CliRunner()
    text = runner.invoke(app, ["audit", str(root)])
    assert text.exit_code == 0 and "FAIL  all  key-longest" in text.stdout
    first = runner.invoke(app, ["audit", str(root), "--format", "json"]).stdout
    doc = json.loads(first)
    assert doc["verdict"] == "fail" and doc["items"] == 30
    assert {c["name"] for c in doc["checks"]} == {"key-position", "key-longest", "key-shortest", "options-only", "duplicate-options", "explanation-key", "context", "dead-seat", "stem-leak",
                                                  "key-rank", "ensemble", "future-option"}
    assert runner.invoke(app, ["audit", str(root), "--strict"]).exit_code == 1
    # deterministic: the same dataset gives the same report (each audit fits a classifier: one more run is enough),
    # audited again, not answered from the process's memo of its last reports
    from werealign.audit import core
    from werealign.shortcuts import context

    core._MEMO.clear()
    context.clear_memos()  # its features and cross-fits computed again too
    assert runner.invoke(app, ["audit", str(root), "--format", "json"]).stdout == first


def test_cli_bad_input_is_one_line(tmp_path):
    r = run_cli("audit", tmp_path / "missing")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "dataset directory not found" in r.stderr


@pytest.mark.werebench
@pytest.mark.slow
def test_release_length_bias_is_a_failed_check(werebench_audit):
    # the session's one `werealign audit --filtered-out ... --format json --strict` of the imported release (conftest):
    # the audit it prints is the plain audit's, and --strict exits 1 on a failed check
    r = werebench_audit.result
    assert r.returncode == 1, r.stderr
    checks = {(c["name"], c["scope"]): c for c in json.loads(r.stdout)["checks"]}
    assert checks[("key-longest", "all")]["verdict"] == "fail"
    assert checks[("key-longest", "PS")]["verdict"] == "fail" and checks[("key-longest", "PS")]["value"] > 0.3
    assert checks[("options-only", "all")]["verdict"] == "fail"


def test_the_audits_hidden_text_lookup_is_the_index_stem_leaks_builds():
    """hidden_text_index (validate's, stem_leaks' and item_leaks' one index) reads from the per-game run index
    future_options also reads: every run of the turns at its latest first segment, the recap's and the log's never
    visible, and runs the game does not hold, the same as a dict built turn by turn."""
    from werealign.shortcuts.leaks import hidden_text_index, leak_grams, text_grams

    game = crafted_game()
    turns = list(game.utterances)
    said = "Seat three says the same long sentence again here, word for word, as before."
    turns[1] = turns[1].model_copy(update={"text": said})
    turns[-1] = turns[-1].model_copy(update={"text": said})  # a run said twice: its latest first segment counts
    game = game.model_copy(update={"utterances": turns, "annotator_log": "三号女巫在第二夜毒死了一号狼人然后好人阵营赢了",
                                   "recap": "The wolves won the sheriff badge by a single swing vote on day one."})
    full: dict = {}
    for u in game.utterances:
        for gram in text_grams(u.text):
            full[gram] = max(full.get(gram, -1), min(u.segment_ids))
    for text in (game.recap, game.annotator_log):
        full.update((gram, float("inf")) for gram in leak_grams(text))
    lazy = hidden_text_index(game)
    assert any(v == float("inf") for v in full.values()) and any(v != float("inf") for v in full.values())
    assert full[next(iter(leak_grams(said)))] == min(turns[-1].segment_ids) > min(turns[1].segment_ids)
    for gram in [*full, ("no",) * 8]:
        assert lazy.get(gram, -1) == full.get(gram, -1), gram
