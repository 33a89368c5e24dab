"""`werealign generate` with a scripted provider: schema-valid items, provenance, filters, resume, re-drafting."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gen_fake import FakeProvider, Killed
from werealign.audit import audit_items
from werealign.cli import app
from werealign.game.visibility import build_context
from werealign.dataset import bundled_sample_path, load_dataset
from werealign.generation.pipeline import GenConfig, run_generation
from werealign.validate import check_paths, count

GAME = "sample-en-01"
SMALL = GenConfig(model="fake/model", games=(GAME,), dimensions=("RI", "PS"), osr=False)


def _run(out: Path, config: GenConfig = SMALL, audited: bool = True, **fake_kw) -> tuple:
    """A run with the scripted provider; a re-draft's items audited before and after (audit.*.json) unless `audited` is
    False (the audit takes most of such a run's time: a test that reads neither file leaves it out)."""
    fake = FakeProvider(**fake_kw)
    outcome, session = run_generation(config, out, acompletion=fake, quiet=True, audit=audit_items if audited else None)
    return outcome, session, fake


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_items_are_schema_valid_unreviewed_and_tagged(tmp_path):
    outcome, session, fake = _run(tmp_path / "g")
    ds = load_dataset(tmp_path / "g" / "dataset")
    assert len(ds.speech) == 8 and not outcome.dropped  # 4 MVP moments x 2 dimensions
    errors, _ = count(check_paths([tmp_path / "g" / "dataset"]).findings)
    assert errors == 0
    for item in ds.speech:
        origins = Counter(o.origin for o in item.options)
        assert origins["ground_truth"] == 1 and origins["m2_biased_rationale"] == 4
        assert {"m1_role_perturbation", "m1_information_occlusion", "m1_faction_inversion"} <= set(origins)
        assert next(o for o in item.options if o.key == item.answer).origin == "ground_truth"
        assert item.viewpoint_seat == ds.games[GAME].mvp.seat and item.explanation and item.rule_reminder
        p = item.provenance
        assert (p.generator_model, p.seed, p.review) == ("fake/model", 0, "unreviewed") and p.prompt_version.startswith("gen:question.v2")
    # every stage left provenance records: template + version, model, seed, raw reply, cost
    rec = _jsonl(tmp_path / "g" / "stages" / "question.jsonl")[0]
    assert rec["template"] == "question.v2" and rec["model"] == "fake/model" and rec["reply"] and rec["cost"] == 0.001 and rec["parsed"]["key"]
    assert {p.name for p in (tmp_path / "g" / "stages").iterdir()} == {"question.jsonl", "negatives.jsonl", "restyle.jsonl", "explain.jsonl", "judge.jsonl"}
    # the M2 negatives came back twice too long: restyle fixed them, so length matching holds
    assert all(_jsonl(tmp_path / "g" / "stages" / "restyle.jsonl"))
    assert session.spend.sent == fake.calls


def test_same_inputs_same_bytes_and_a_rerun_sends_nothing(tmp_path):
    _run(tmp_path / "a")
    _run(tmp_path / "b")
    assert _tree(tmp_path / "a" / "dataset") == _tree(tmp_path / "b" / "dataset")
    _, session, fake = _run(tmp_path / "a")
    assert fake.calls == 0 and session.spend.sent == 0 and session.spend.stored > 0


def test_only_what_changed_is_asked_again(tmp_path):
    _run(tmp_path / "g")
    from dataclasses import replace

    _, _, fake = _run(tmp_path / "g", replace(SMALL, judges=4))
    assert fake.calls == 8  # one more judge answer per item; every other reply is reused


def test_a_killed_run_resumes_without_repaying_any_reply(tmp_path):
    first = FakeProvider(kill_after=23)
    with pytest.raises(Killed):
        run_generation(SMALL, tmp_path / "k", acompletion=first, quiet=True)
    second = FakeProvider()
    run_generation(SMALL, tmp_path / "k", acompletion=second, quiet=True)
    assert first.replied and not set(first.replied) & set(second.replied)
    _run(tmp_path / "clean")
    assert _tree(tmp_path / "k" / "dataset") == _tree(tmp_path / "clean" / "dataset")
    assert not any(p.name.startswith(".") for p in (tmp_path / "k").iterdir())  # no staging left behind


def test_malformed_replies_are_repaired_then_recorded_and_skipped(tmp_path):
    outcome, session, _ = _run(tmp_path / "once", malformed_once={"question", "judge"})
    assert len(outcome.items) == 8 and session.spend.repairs == 8 + 24
    outcome, session, _ = _run(tmp_path / "always", malformed_always={"explain"})
    assert len(outcome.items) == 8 and all("no explanation" in " ".join(n["flags"]) for n in outcome.notes)
    recs = _jsonl(tmp_path / "always" / "stages" / "explain.jsonl")
    assert all(r["error"].startswith("malformed reply: no JSON object") and len(r["keys"]) == 3 for r in recs)
    outcome, _, _ = _run(tmp_path / "noquestion", malformed_always={"question"})
    assert outcome.items == [] and {d["stage"] for d in outcome.dropped} == {"question"}
    assert all(d["reason"].startswith("malformed reply: no JSON object") for d in outcome.dropped)
    assert load_dataset(tmp_path / "noquestion" / "dataset").speech == []


def test_length_filter_drops_items_whose_distractors_stay_long(tmp_path):
    outcome, _, _ = _run(tmp_path / "g", malformed_always={"restyle"})
    assert outcome.items == [] and all("length/style" in d["reason"] for d in outcome.dropped)


def test_generated_items_pass_the_audit_on_length(tmp_path):
    config = GenConfig(model="fake/model", osr=False, judges=0)  # every moment, every dimension: 45 items
    outcome, _, _ = _run(tmp_path / "g", config)
    report = audit_items(load_dataset(tmp_path / "g" / "dataset"))
    # the fake's small word pools now and then give two near-identical options: the filter drops those
    assert report.items >= 40 and all(d["reason"].startswith("duplicate options") for d in outcome.dropped)
    for check in ("key-longest", "key-shortest", "options-only", "duplicate-options", "stem-leak"):
        assert report.find(check).verdict == "pass", report.find(check).detail


class LeakyProvider(FakeProvider):
    """Writes questions that quote what the MVP says next: the leak filter must drop them."""

    def reply(self, stage, user):
        out = super().reply(stage, user)
        if stage == "question":
            move = user.split("WHAT Seat 7 ACTUALLY DID NEXT")[1].splitlines()[1]
            out["question"] = f"You are about to say: {move.split(':', 1)[1].strip()} Why?"
        return out


def test_a_question_that_quotes_the_next_move_is_dropped(tmp_path):
    outcome, _ = run_generation(SMALL, tmp_path / "g", acompletion=LeakyProvider(), quiet=True)
    assert outcome.items == [] and all("leak: copies hidden text" in d["reason"] for d in outcome.dropped)  # the fake's small word pools may add a duplicate


def test_osr_variant_is_written_and_usable(tmp_path):
    from dataclasses import replace

    from werealign.dataset import write_dataset

    sample = load_dataset(bundled_sample_path())  # without its OSR files: the stage writes them
    write_dataset(tmp_path / "bare", name="bare", version="1", licence="CC0", games=list(sample.games.values()), items={"speech": [], "vote": [], "opponent": []})
    _run(tmp_path / "g", replace(SMALL, osr=True, dimensions=("RI",), dataset=str(tmp_path / "bare")))
    ds = load_dataset(tmp_path / "g" / "dataset")
    game = ds.games[GAME]
    assert len(ds.osr[GAME]) == len(game.utterances)
    item = ds.speech[0]
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment, osr=ds.osr[GAME])
    assert ctx.utterances and all(u.text.startswith("Objective rewrite:") for u in ctx.utterances)


def test_redraft_keeps_question_and_key_and_audits_before_and_after(tmp_path):
    config = GenConfig(model="fake/model", redraft=True, osr=False, judges=1)
    outcome, _, fake = _run(tmp_path / "g", config)
    before = {it.item_id: it for it in load_dataset(bundled_sample_path()).speech}
    after = load_dataset(tmp_path / "g" / "dataset")
    assert len(after.speech) == len(before) and len(after.vote) == len(load_dataset(bundled_sample_path()).vote)
    for item in after.speech:
        old = before[item.item_id]
        key = lambda it: next(o.text for o in it.options if o.key == it.answer)  # noqa: E731
        assert item.question == old.question and key(item) == key(old)
        if item.provenance.review == "unreviewed":
            # new options, so a new explanation (the old one named other letters and distractors); the RR is kept
            assert item.provenance.source_ref["redrafted_from"] == old.item_id and item.rule_reminder == old.rule_reminder
            assert item.explanation != old.explanation and item.explanation.startswith(key(item))
            assert item.provenance.source_ref["explanation"] == "rewritten by fake/model for the new options"
    assert (tmp_path / "g" / "audit.before.json").is_file() and json.loads((tmp_path / "g" / "audit.after.json").read_text())["items"] == 20


def test_redraft_without_a_new_explanation_keeps_the_old_only_if_it_still_points_to_the_key(tmp_path):
    config = GenConfig(model="fake/model", redraft=True, osr=False, judges=0, games=(GAME,))
    # no audit: the audits of a re-draft are test_redraft_keeps_question_and_key_and_audits_before_and_after's
    outcome, _, _ = _run(tmp_path / "g", config, audited=False, malformed_always={"explain"})
    before = {it.item_id: it for it in load_dataset(bundled_sample_path()).speech}
    notes = {n["item_id"]: n["flags"] for n in outcome.notes}
    assert outcome.items
    for item in outcome.items:
        ref = item.provenance.source_ref["explanation"]
        if item.explanation is not None:  # kept: the filter found it closest to the (unchanged) key
            assert item.explanation == before[item.item_id].explanation and ref.startswith("kept from the source item")
            assert any(f.startswith("explanation: kept from the source item") for f in notes[item.item_id])
        else:
            assert ref.startswith("removed") and any(f.startswith("no explanation") for f in notes[item.item_id])


def test_an_old_explanation_pointing_to_a_new_distractor_is_removed():
    from werealign.generation.pipeline import redraft_explanation

    item = next(it for it in load_dataset(bundled_sample_path()).speech if it.game_id == GAME)
    other = next(o for o in item.options if o.key != item.answer)
    stale = item.model_copy(update={"explanation": f"Because {other.text}"})  # now reads like a distractor
    out, flags = redraft_explanation(stale, None, "m")
    assert out.explanation is None and out.provenance.source_ref["explanation"].startswith("removed") and flags
    out, flags = redraft_explanation(item, None, "m")  # the sample's own explanation still points to its key
    assert out.explanation == item.explanation and out.provenance.source_ref["explanation"].startswith("kept")
    out, flags = redraft_explanation(stale, {"explanation": "New.", "rule_reminder": "RR."}, "m")
    assert (out.explanation, out.rule_reminder, flags) == ("New.", item.rule_reminder or "RR.", [])
    assert out.provenance.source_ref["explanation"] == "rewritten by m for the new options"


def test_cli_dry_run_and_bad_options(tmp_path):
    runner = CliRunner()
    # A built-in baseline cannot draft and is refused (test_new_user.py); the built-in LLM can.
    r = runner.invoke(app, ["generate", str(bundled_sample_path()), "--model", "local/smollm2", "--out", str(tmp_path / "g"), "--dry-run", "--games", GAME, "--no-osr"])
    assert r.exit_code == 0, r.output
    assert "20 items to draft; at most 160 requests (0 question replies already stored)" in r.stdout and not (tmp_path / "g").exists()
    assert "estimated cost $0.0000" in r.stdout  # a built-in model is free, not "unknown"
    r = runner.invoke(app, ["generate", str(bundled_sample_path()), "--model", "x", "--out", str(tmp_path / "g"), "--dimensions", "RI,XX"])
    assert r.exit_code != 0 and "XX" in str(r.exception)
    r = runner.invoke(app, ["generate", str(bundled_sample_path()), "--model", "x", "--out", str(tmp_path / "g"), "--games", "nope"])
    assert "no game 'nope'" in str(r.exception)


def test_extras_only_fills_rr_explanation_and_osr_and_keeps_options(tmp_path):
    from werealign.dataset import write_dataset

    sample = load_dataset(bundled_sample_path())
    bare = [it.model_copy(update={"rule_reminder": None, "explanation": None if i % 2 else it.explanation}) for i, it in enumerate(sample.speech)]
    write_dataset(tmp_path / "bare", name="bare", version="1", licence="CC0", games=list(sample.games.values()), items={"speech": bare, "vote": sample.vote, "opponent": sample.opponent})  # no OSR either, like the imported release
    config = GenConfig(model="fake/model", dataset=str(tmp_path / "bare"), extras_only=True, judges=0)
    outcome, _, fake = _run(tmp_path / "g", config, audited=False)  # the second pass's audits are read below
    out = load_dataset(tmp_path / "g" / "dataset")
    assert set(out.osr) == set(sample.games) and not outcome.dropped
    for old, new in zip(bare, out.speech):
        assert new.options == old.options and new.answer == old.answer and new.question == old.question
        assert new.rule_reminder and new.explanation
        assert new.explanation == (old.explanation or new.explanation)  # an existing explanation is kept
        assert new.provenance.source_ref["filled_by"] == "fake/model" and new.provenance.review == old.provenance.review
    # a second pass over the filled dataset asks nothing: nothing is missing any more
    _, session, fake = _run(tmp_path / "g2", GenConfig(model="fake/model", dataset=str(tmp_path / "g" / "dataset"), extras_only=True, judges=0))
    assert fake.calls == 0
    assert json.loads((tmp_path / "g2" / "audit.after.json").read_text())["items"] == len(bare)
    # generation never imports the audit: the command hands it in; without one, no audit file is written
    run_generation(GenConfig(model="fake/model", dataset=str(tmp_path / "g" / "dataset"), extras_only=True, judges=0), tmp_path / "g3",
                   acompletion=FakeProvider(), quiet=True)
    assert (tmp_path / "g3" / "dataset").is_dir() and not list((tmp_path / "g3").glob("audit.*.json"))
    from cli_inproc import run_cli  # nothing is missing, so no request is sent: the endpoint is never called

    r = run_cli("generate", tmp_path / "g" / "dataset", "--model", "openai/mock", "--api-base", "http://127.0.0.1:9/v1", "--extras-only",
                "--judges", "0", "--out", tmp_path / "g4", env={"OPENAI_API_KEY": "sk-unused"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads((tmp_path / "g4" / "audit.before.json").read_text()) == json.loads((tmp_path / "g2" / "audit.before.json").read_text())


def test_redrafting_removes_a_length_bias(tmp_path):
    """Invented items whose key is always the longest option (the imported release's artifact, made total)."""
    from werealign.dataset import write_dataset
    from werealign.schema import Option

    sample = load_dataset(bundled_sample_path())
    biased = []
    for it in sample.speech:  # 20 items: above the audit's MIN_ITEMS (18), so its length checks give a verdict
        n = len(biased)
        options = [Option(key=o.key, origin=o.origin, text=o.text if o.key != it.answer else f"{o.text} Said twice: {o.text}")
                   for o in it.options]
        biased.append(it.model_copy(update={"item_id": f"biased-{n}", "options": options}))
    write_dataset(tmp_path / "biased", name="biased", version="1", licence="CC0", games=list(sample.games.values()), items={"speech": biased, "vote": [], "opponent": []})
    config = GenConfig(model="fake/model", dataset=str(tmp_path / "biased"), redraft=True, osr=False, judges=0)
    outcome, _, _ = _run(tmp_path / "g", config)
    before = {(c["name"], c["scope"]): c for c in json.loads((tmp_path / "g" / "audit.before.json").read_text())["checks"]}
    after = {(c["name"], c["scope"]): c for c in json.loads((tmp_path / "g" / "audit.after.json").read_text())["checks"]}
    assert before[("key-longest", "all")]["verdict"] == "fail" and before[("key-longest", "all")]["value"] > 0.8
    assert len(outcome.items) == len(biased) and not outcome.dropped
    assert after[("key-longest", "all")]["verdict"] == "pass", after[("key-longest", "all")]["detail"]


def test_progress_lines_in_a_log_live_on_a_terminal_nothing_when_quiet(tmp_path, capsys, monkeypatch):
    import io

    from werealign.generation.progress import LINE_EVERY, GenProgress
    from werealign.live_line import display_mode as mode_for
    from werealign.generation.session import Spend

    _run(tmp_path / "q")  # quiet
    assert capsys.readouterr().err == ""
    run_generation(SMALL, tmp_path / "v", acompletion=FakeProvider(malformed_once={"judge"}), quiet=False)  # stderr is not a terminal here
    err = capsys.readouterr().err
    for stage in ("question", "negatives", "restyle", "explain", "judge", "judge (repair 1)"):
        assert f"[generate] {stage}: sending" in err and f"[generate] {stage}: done; sent" in err
    assert "24 repairs" in err and "spend $0." in err  # one repair per judge answer, and the money so far
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert (mode_for(False), mode_for(True)) == ("live", "off")

    # in a log, a long stage says it is alive at most every LINE_EVERY seconds
    now = [0.0]
    spend, buf = Spend(), io.StringIO()
    p = GenProgress(spend, "lines", clock=lambda: now[0], out=buf)
    p.stage_start("negatives", 3, 1)
    p.event("retry_wait")
    spend.retries += 1
    for t in (1.0, LINE_EVERY + 2, LINE_EVERY + 3):
        now[0] = t
        spend.sent += 1
        p.done()
    p.stage_end()
    lines = buf.getvalue().splitlines()
    assert lines[0] == "[generate] negatives: sending 3 requests (1 stored)" and len(lines) == 3
    assert lines[1].startswith("[generate] negatives: 2/3 replies (1 waiting to retry) | sent 2 in all, 1 retries")
    assert lines[2] == "[generate] negatives: done; sent 3 in all, 1 retries, 0 repairs, 0 skipped, spend $0.0000"
    first = FakeProvider(kill_after=5)  # on a "terminal", killed mid-stage: the live line ran, then the stage says what was sent
    with pytest.raises(Killed):
        run_generation(SMALL, tmp_path / "k", acompletion=first, quiet=False)
    err = capsys.readouterr().err
    # how many of the four requests in flight finished before the kill varies
    assert re.search(r"question: \d/8 replies \| sent \d in all", err) and re.search(r"\[generate\] question: interrupted; sent \d in all", err)
    live = GenProgress(Spend(), "live")  # the rich line starts and always stops with its stage
    live.stage_start("question", 1, 0)
    assert live._live is not None and "question: 0/1 replies" in live.line()
    live.stage_end()
    assert live._live is None


def test_every_prompt_of_a_unit_opens_with_the_same_system_message_and_context():
    """So a provider's prompt cache reuses the long opening from stage to stage."""
    from werealign.generation import prompts
    from werealign.generation.pipeline import _context, plan_units

    ds = load_dataset(bundled_sample_path())
    unit = plan_units(ds, SMALL)[0][1]
    game = ds.games[unit.game_id]
    ctx = _context(game, unit)
    rendered = [prompts.render("question", language="en", game=game, next_move=unit.next_move, **ctx, **prompts.dimension_vars("RI", game))[1],
                prompts.render("negatives_m1", language="en", game=game, question="Q?", key="K.", key_length=2, target_lengths=[2] * 4, **ctx)[1],
                prompts.render("explain", language="en", game=game, question="Q?", options=[], answer="A", **ctx)[1],
                prompts.render("judge", language="en", game=game, question="Q?", options=[], **ctx)[1]]
    assert len({m[0]["content"] for m in rendered}) == 1
    opening = f"WHAT {ctx['me']} KNOWS AT THIS MOMENT:\n{ctx['context']}\n\nTask: "
    assert all(m[1]["content"].startswith(opening) for m in rendered)


def test_a_repeated_distractor_is_rewritten_not_the_key():
    from werealign.generation.filters import to_rewrite
    from werealign.schema import Option

    texts = ["Vote seat 8 out today.", "Vote seat 8 out today.", "Trust seat 2 and wait.", "Vote seat 8 out today!"]
    options = [Option(key=k, text=t, origin="ground_truth" if k == "A" else "m2_biased_rationale") for k, t in zip("ABCD", texts)]
    assert to_rewrite(options, "A") == ["B", "D"]  # both repeat the key; the key itself stays
    assert to_rewrite(options, "C") == ["B", "D"]  # A=B=D: one of each pair, the later letter


def test_generation_names_a_declared_role_as_the_game_declares_it():
    """Issue 21: generation words the game through render/ like evaluation, so a role the game declares is
    shown by its declared name (not the bare id)."""
    from crafted_game import VIEWPOINT, crafted_game

    from werealign.game.visibility import build_context
    from werealign.render.generation import context_text
    from werealign.schema.roles import RoleDeclaration

    game = crafted_game()
    rules = game.rules.model_copy(update={"declared_roles": [RoleDeclaration(id="moon_oracle", faction="good", team="gods",
                                                                             names={"en": ["Lunar Seer"]})]})
    seats = [s.model_copy(update={"role": "moon_oracle"}) if s.seat == VIEWPOINT else s for s in game.seats]
    game = game.model_copy(update={"rules": rules, "seats": seats})
    text = context_text(game, build_context(game, VIEWPOINT, 5))
    assert "role: Lunar Seer" in text
