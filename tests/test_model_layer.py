"""The model layer (werealign/llm): the response cache shared across runs and the credential check."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fake_llm import FakeCompletion
from werealign.errors import UserError
from werealign.eval.runner import EvalConfig, Execution, run_eval
from werealign.llm.cache import cache_path
from werealign.llm.credentials import check_credentials, missing_api_keys

MODEL = "openai/fake-model"


def _run(tmp_path: Path, name: str, fake: FakeCompletion, tasks=("vote",), api_base=None, **kw):
    config = EvalConfig(model=MODEL, tasks=tasks, decodes=2)
    return run_eval(config, Execution(api_base=api_base), out=tmp_path / name, acompletion=fake, **kw)


def _rows(run: Path) -> int:
    with sqlite3.connect(run / "responses.sqlite") as db:
        return db.execute("SELECT COUNT(*) FROM responses WHERE status = 'ok'").fetchone()[0]


def test_widening_tasks_in_a_new_run_directory_pays_only_for_the_new_requests(tmp_path: Path) -> None:
    fake = FakeCompletion()
    first = _run(tmp_path, "a", fake)
    assert first.sent == len(fake.calls) > 0 and first.from_cache == 0
    wider = _run(tmp_path, "b", fake, tasks=("vote", "opponent"))
    assert wider.from_cache == first.sent  # every vote request came from the cache
    assert wider.sent == len(fake.calls) - first.sent > 0  # only the opponent requests were sent
    # the new run directory is complete on its own: its store holds every reply, cached ones included
    assert _rows(tmp_path / "b") == wider.unique_requests
    assert wider.results.variants["base"]["vote"] == first.results.variants["base"]["vote"]
    assert cache_path().is_file()


def test_the_cache_is_easy_to_turn_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeCompletion()
    first = _run(tmp_path, "a", fake)
    assert _run(tmp_path, "b", fake, cache=False).sent == first.sent
    monkeypatch.setenv("WEREALIGN_CACHE", "off")
    assert _run(tmp_path, "c", fake).sent == first.sent
    assert len(fake.calls) == 3 * first.sent


def test_the_cache_keeps_endpoints_apart_and_never_keeps_errors(tmp_path: Path) -> None:
    broken = FakeCompletion(fail_with=ValueError("not a provider error: not retried"))
    failed = _run(tmp_path, "a", broken)
    assert failed.request_errors == failed.sent > 0
    fake = FakeCompletion()
    assert _run(tmp_path, "b", fake).sent == failed.sent  # the errors were not cached
    other = _run(tmp_path, "c", fake, api_base="http://127.0.0.1:9/v1")
    assert other.from_cache == 0 and other.sent == failed.sent  # another server under the same model name


def test_cache_location_is_overridable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert cache_path() == tmp_path / "elsewhere" / "responses.sqlite"
    monkeypatch.delenv("WEREALIGN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_path() == tmp_path / "xdg" / "werealign" / "responses.sqlite"


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_a_missing_key_is_named_before_anything_is_sent(no_keys, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"--model openai/gpt-4o-mini: OPENAI_API_KEY is not set.*nothing was sent"):
        check_credentials("openai/gpt-4o-mini")
    assert missing_api_keys("anthropic/claude-3-haiku-20240307") == ["ANTHROPIC_API_KEY"]
    assert set(missing_api_keys("gemini/gemini-1.5-flash")) == {"GOOGLE_API_KEY", "GEMINI_API_KEY"}  # either will do
    out = tmp_path / "run"
    with pytest.raises(UserError, match="OPENAI_API_KEY is not set"):
        run_eval(EvalConfig(model="openai/gpt-4o-mini", tasks=("vote",), decodes=1, limit=1), Execution(), out=out)
    assert not out.exists()  # refused before a run directory was made


def test_no_false_alarm_for_builtins_local_endpoints_or_keyless_providers(no_keys, monkeypatch: pytest.MonkeyPatch) -> None:
    assert missing_api_keys("werealign/random") == []
    assert missing_api_keys("local/smollm2") == []
    assert missing_api_keys("openai/my-vllm-model", api_base="http://127.0.0.1:8000/v1") == []
    assert missing_api_keys("ollama/llama3") == []  # a local default endpoint, no key
    assert missing_api_keys("vertex_ai/gemini-pro") == []  # gcloud credentials, not an API key
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    assert missing_api_keys("openai/gpt-4o-mini") == []
