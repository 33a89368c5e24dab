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


# --------------------------------------------------------------------------- reply schemas
# The JSON Schema of each stage's reply, for providers that decode under a schema (llama.cpp turns
# it into a grammar). A small model left free copies the prompt's `"..."` placeholders, forgets the
# fourth option or a mechanism, and misses every length it is asked for; under the schema, whatever
# it writes parses, and distractor lengths and endings are those the length filter accepts.
# Only constructs llama.cpp's converter supports are used (const, enum, prefixItems, min/maxLength,
# pattern with classes and {m,n}); each schema accepts only replies its parser above accepts.

_CHAR = r'[^ \t\n\r"\\.。!！?？;；]'  # one visible character that shortcuts.text.text_length counts (no sentence mark)
_MARK = "[.。!！?？]"
# After the first character no capital letter (A-Z): a small model under a grammar otherwise drifts
# into shouted runs ("REAL SIGNIFICANTLY MISSING"), which generation/echoes.py then drops as placeholders.
_LATER = r'[^ \t\n\r"\\.。!！?？;；A-Z]'


def option_pattern(low: int, high: int, mark: bool) -> str:
    """Text of `low`..`high` visible characters (as shortcuts.text.text_length counts them), single spaces
    between, ending with a sentence mark or not (the key's form); only the first may be a capital A-Z."""
    low, high = max(1, low), max(1, low, high)
    return f"^{_CHAR}( ?{_LATER}){{{low - 1},{high - 1}}}{_MARK if mark else ''}$"


def _text(low: int = 10, high: int = 400) -> dict[str, Any]:
    return {"type": "string", "minLength": low, "maxLength": high}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def question_schema() -> dict[str, Any]:
    return _object({"question": _text(15, 300), "key": _text(15, 300)})


def negatives_schema(ranges: list[tuple[int, int]], mark: bool, *, m1: bool) -> dict[str, Any]:
    """Four options, each in its length range; M1 ones tagged with every mechanism in turn (the fourth free)."""
    mechanisms: list[dict[str, Any]] = [{"const": m} for m in M1_MECHANISMS] + [{"enum": list(M1_MECHANISMS)}]
    items = []
    for i, (low, high) in enumerate(ranges):
        text = {"type": "string", "pattern": option_pattern(low, high, mark)}
        items.append(_object({"mechanism": mechanisms[i], "text": text} if m1 else {"text": text}))
    return _object({"options": {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}})


def restyle_schema(ranges: dict[str, tuple[int, int]], mark: bool) -> dict[str, Any]:
    return _object({"options": _object({k: {"type": "string", "pattern": option_pattern(lo, hi, mark)} for k, (lo, hi) in ranges.items()})})


def explain_schema() -> dict[str, Any]:
    return _object({"explanation": _text(20, 600), "rule_reminder": _text(10, 400)})


def judge_schema() -> dict[str, Any]:
    return _object({"answer": {"enum": list(OPTION_KEYS)}, "single_best": {"type": "boolean"}})


def osr_schema() -> dict[str, Any]:
    return _object({"text": _text(1, 2000)})
