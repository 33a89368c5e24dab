"""A scripted provider for generation tests: deterministic replies keyed by stage (the user message's
"Task: <stage>" line), shaped like litellm responses, counting every call and every reply it gives.

Its items are the pipeline's best case and its worst: keys and distractors come from one word list
(nothing but form could tell them apart), and the M2 negatives come back twice too long, so the
restyle stage must fix them before the length filter lets the item through.
"""

from __future__ import annotations

import hashlib
import json
import re
from types import SimpleNamespace
from typing import Any

# Words by length, so a text of any length can be written exactly (a model hits a length only roughly,
# but the fake must not add an artifact of its own: keys and distractors come from the same words).
POOLS = {3: "elk fox owl yew ash", 4: "moss reed pine kelp dune", 5: "amber birch coral delta ember",
         6: "parcel thorny willow meadow falcon", 7: "harvest lantern thistle orchard sparrow"}
POOLS = {n: [w for w in ws.split() if len(w) == n] for n, ws in POOLS.items()}


def exact(seed: str, length: int) -> str:
    """Words (3 to 7 letters) whose letters add up to exactly `length`, chosen by the seed."""
    length = max(3, length)
    k = -(-length // 7)
    base, extra = divmod(length, k)
    h = hashlib.sha256(seed.encode()).digest()
    sizes = [base + 1] * extra + [base] * (k - extra)
    return " ".join(POOLS[n][h[i % 32] % len(POOLS[n])] for i, n in enumerate(sizes))


def words(seed: str) -> str:
    """A key: 30 to 59 letters, by the seed."""
    return exact(seed, 30 + hashlib.sha256(seed.encode()).digest()[0] % 30)


def _targets(user: str) -> list[int]:
    return [int(n) for n in re.findall(r"answer \d+ about (\d+) characters", user)]


def _line(text: str, label: str) -> str:
    m = re.search(rf"^{label}: (.*)$", text, re.M)
    return m.group(1) if m else ""


class Killed(BaseException):
    """What a kill -9 looks like from inside: the run stops mid-stage, nothing is cleaned up by us."""


class FakeProvider:
    def __init__(self, *, malformed_once: set[str] = frozenset(), malformed_always: set[str] = frozenset(), kill_after: int | None = None,
                 long_m2: bool = True) -> None:
        self.calls = 0
        self.replied: list[str] = []  # identity of every request that got a reply
        self.malformed_once = malformed_once  # stages whose first answer in a conversation is not JSON
        self.malformed_always = malformed_always
        self.kill_after = kill_after
        self.long_m2 = long_m2

    @staticmethod
    def identity(messages: list[dict[str, str]], kwargs: dict[str, Any]) -> str:
        return json.dumps([messages, kwargs.get("seed"), kwargs.get("max_tokens")], sort_keys=True)

    async def __call__(self, *, model: str, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        self.calls += 1
        if self.kill_after is not None and self.calls > self.kill_after:
            raise Killed  # the process dies mid-run
        stage = _line(messages[1]["content"], "Task")
        user = messages[1]["content"]
        repaired = len(messages) > 2
        if stage in self.malformed_always or (stage in self.malformed_once and not repaired):
            content = "Sure! Here are my thoughts, no JSON though."
        else:
            content = json.dumps(self.reply(stage, user))
        self.replied.append(self.identity(messages, kwargs))
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=content), finish_reason="stop")],
                               usage=SimpleNamespace(prompt_tokens=len(user) // 4, completion_tokens=len(content) // 4, total_tokens=0),
                               _hidden_params={"response_cost": 0.001})

    def reply(self, stage: str, user: str) -> dict[str, Any]:
        if stage == "question":
            question = f"You are the viewpoint player. What is your best move here ({hashlib.sha256(user.encode()).hexdigest()[:8]})?"
            return {"question": question, "key": words(question)}
        if stage.startswith("negatives") or stage == "restyle":
            # end like the key, as the prompt asks (a sentence mark or none)
            key = _line(user, "CORRECT ANSWER \\(the key\\)") or _line(user, "KEY \\(do not change\\)")
            end = key[-1] if key and key[-1] in ".。!！?？" else ""
            return {"options": self._options(stage, user, end)}
        return self._extras(stage, user)

    def _options(self, stage: str, user: str, end: str) -> Any:
        if stage == "negatives_m1":
            q = _line(user, "QUESTION")
            mechs = ["role_perturbation", "information_occlusion", "faction_inversion", "role_perturbation"]
            return [{"mechanism": m, "text": exact(f"{q}-m1-{i}", t) + end} for i, (m, t) in enumerate(zip(mechs, _targets(user)))]
        if stage == "negatives_m2":
            q = _line(user, "QUESTION")
            return [{"text": exact(f"{q}-m2-{i}", t * (2 if self.long_m2 else 1)) + end} for i, t in enumerate(_targets(user))]
        asked = re.findall(r"^([A-I]) \(about (\d+) characters\): ", user, re.M)  # restyle
        return {k: exact(f"{user}-{k}", int(t)) + end for k, t in asked}

    def _extras(self, stage: str, user: str) -> dict[str, Any]:
        if stage == "explain":
            answer = _line(user, "CORRECT")
            key_text = re.search(rf"^{answer}\. (.*)$", user, re.M).group(1)
            return {"explanation": f"{key_text}: that is what the evidence supports.", "rule_reminder": "The seer checks one player each night."}
        if stage == "judge":
            key = words(_line(user, "QUESTION"))
            letter = next((m.group(1) for m in re.finditer(r"^([A-I])\. (.*)$", user, re.M) if m.group(2) == key), "A")
            return {"answer": letter, "single_best": True}
        if stage == "osr":
            return {"text": "Objective rewrite: " + " ".join(user.splitlines()[1].split()[:8])}
        raise AssertionError(f"unscripted stage {stage!r}")
