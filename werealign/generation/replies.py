"""Reading a model's reply for one generation stage: one JSON object with the fields the stage needs.

A reply that does not fit raises `BadReply` with a message the model can act on: the pipeline
sends it back (the repair template) and asks again, then records the item as skipped.
"""

from __future__ import annotations

import json
import re
from typing import Any

from werealign.schema.models import OPTION_KEYS

M1_MECHANISMS = ("role_perturbation", "information_occlusion", "faction_inversion")


class BadReply(ValueError):
    """The reply cannot be used; the message says why, in words fit to send back to the model."""


_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)


def json_object(reply: str | None) -> dict[str, Any]:
    """The first JSON object in the reply (code fences and reasoning blocks around it are ignored)."""
    text = _THINK.sub("", reply or "").strip()
    start = text.find("{")
    if start < 0:
        raise BadReply("no JSON object found")
    try:
        obj, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as e:
        raise BadReply(f"invalid JSON ({e.msg} at character {e.pos})") from None
    if not isinstance(obj, dict):
        raise BadReply("the reply is not a JSON object")
    return obj


def text_field(obj: dict[str, Any], name: str) -> str:
    value = obj.get(name)
    if not isinstance(value, str) or not value.strip():
        raise BadReply(f'field "{name}" must be a non-empty string')
    return " ".join(value.split())


def parse_question(reply: str | None) -> dict[str, str]:
    obj = json_object(reply)
    return {"question": text_field(obj, "question"), "key": text_field(obj, "key")}


def parse_negatives(reply: str | None, *, m1: bool) -> list[dict[str, str]]:
    """Four options, each {"origin": ..., "text": ...}; M1 ones carry their mechanism, all three used."""
    obj = json_object(reply)
    options = obj.get("options")
    if not isinstance(options, list) or len(options) != 4:
        raise BadReply('"options" must be a list of exactly four objects')
    out = []
    for i, o in enumerate(options):
        if not isinstance(o, dict):
            raise BadReply(f"options[{i}] must be an object")
        text = text_field(o, "text")
        if m1:
            mech = o.get("mechanism")
            if mech not in M1_MECHANISMS:
                raise BadReply(f'options[{i}].mechanism must be one of {", ".join(M1_MECHANISMS)}')
            out.append({"origin": f"m1_{mech}", "text": text})
        else:
            out.append({"origin": "m2_biased_rationale", "text": text})
    if m1 and {o["origin"] for o in out} != {f"m1_{m}" for m in M1_MECHANISMS}:
        raise BadReply("use each mechanism (role_perturbation, information_occlusion, faction_inversion) at least once")
    return out


def parse_restyle(reply: str | None, keys: list[str]) -> dict[str, str]:
    obj = json_object(reply)
    options = obj.get("options")
    if not isinstance(options, dict):
        raise BadReply('"options" must be an object from option letter to text')
    missing = [k for k in keys if k not in options]
    if missing:
        raise BadReply(f"missing rewritten options: {', '.join(missing)}")
    return {k: text_field(options, k) for k in keys}


def parse_explain(reply: str | None) -> dict[str, str]:
    obj = json_object(reply)
    return {"explanation": text_field(obj, "explanation"), "rule_reminder": text_field(obj, "rule_reminder")}


def parse_judge(reply: str | None) -> dict[str, Any]:
    obj = json_object(reply)
    answer = str(obj.get("answer", "")).strip().upper()[:1]
    if answer not in OPTION_KEYS:
        raise BadReply('"answer" must be one option letter A-I')
    return {"answer": answer, "single_best": obj.get("single_best") is not False}


def parse_osr(reply: str | None) -> dict[str, str]:
    return {"text": text_field(json_object(reply), "text")}
