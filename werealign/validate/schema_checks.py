"""JSON Schema validation of one object against the schema generated from its pydantic model.

The schemas are generated at run time (`model_json_schema()`), never read from data/schemas/,
which does not ship in the wheel. The pydantic parse afterwards gives the semantic checks a
typed object; it only fails where pydantic is stricter than the schema.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from werealign.schema import FILE_MODELS
from werealign.validate.findings import Sink, path
from werealign.validate.schema_fast import compile_schema, explaining_validator

_MAX_REPR = 60


@cache
def _schema(model: type[BaseModel]) -> dict:
    return model.model_json_schema()


@cache
def _validator(model: type[BaseModel]):
    """jsonschema's validator of the model's schema, entering only the values found invalid: built (and the schema
    checked against its metaschema, 0.1 s for a game) only when an object is found invalid and its messages are
    wanted. jsonschema is imported there: keeps `werealign --help` fast."""
    return explaining_validator(_schema(model))


@cache
def _valid(model: type[BaseModel]):
    """The compiled yes/no check of the model's schema (werealign.validate.schema_fast), or None."""
    return compile_schema(_schema(model))


def check_schema(kind: str | type[BaseModel], obj: Any, out: Sink) -> BaseModel | None:
    """Report every schema violation of `obj` against a file model (a FILE_MODELS name, or a task kind's item
    model); return the parsed model when there were none."""
    model = FILE_MODELS[kind] if isinstance(kind, str) else kind
    valid = _valid(model)
    # A valid object has no violation to report: jsonschema (10x slower on the release's games) walks only the others, for their messages.
    errors = [] if valid is not None and valid(obj) else [e for err in _validator(model).iter_errors(obj) for e in _actionable(err)]
    errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
    for err in errors:
        field, message = _describe(err)
        out.error("schema", field, message)
    if errors:
        return None
    try:
        return model.model_validate(obj)
    except ValidationError as e:  # pydantic stricter than the schema: still a finding, never a traceback
        for pe in e.errors():
            out.error("schema", path(*pe["loc"]), pe["msg"])
        return None


def _actionable(err) -> list:
    """The errors behind `err` that a person can act on.

    A nullable field is `anyOf [X, null]`; when it holds a non-null value that breaks a rule of X
    (possibly deep inside, like a vote target of 0 inside `mvp`), jsonschema only says the value is
    valid under neither branch. The real rule is among the errors of the X branch (`err.context`,
    whose schema paths start with the branch's position), so report those, recursively: X may
    hold nullable fields of its own. Any other anyOf keeps its 'expected X or Y' message.
    """
    if err.validator not in ("anyOf", "oneOf") or err.instance is None:
        return [err]
    branches = [i for i, s in enumerate(err.validator_value) if not (isinstance(s, dict) and s.get("type") == "null")]
    if len(branches) != 1:
        return [err]
    inner = [e for c in err.context if c.relative_schema_path[0] == branches[0] for e in _actionable(c)]
    # A value of the wrong kind altogether reads best as 'expected X or null, got ...'; and a oneOf
    # that fails because both branches match has no branch errors to show.
    if all(e.validator == "type" and e.absolute_path == err.absolute_path for e in inner):
        return [err]
    return inner


def _describe(err) -> tuple[str, str]:
    """(field path, short message a person can act on) for one jsonschema error."""
    parts = list(err.absolute_path)
    kind = err.validator
    if kind == "required":
        m = re.match(r"^'(.*)' is a required property$", err.message)
        name = m.group(1) if m else str(err.validator_value)
        return path(*parts, name), "required field is missing"
    if kind == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {}))) if isinstance(err.instance, dict) else []
        names = ", ".join(repr(x) for x in extra)
        return path(*parts), f"unknown field(s) {names}: remove them or fix their spelling"
    if kind == "type":
        return path(*parts), f"expected {_types(err.validator_value)}, got {_json_type(err.instance)} {_short(err.instance)}"
    if kind in ("anyOf", "oneOf"):
        options = [_expected(s) for s in err.validator_value]
        return path(*parts), f"expected {' or '.join(options)}, got {_json_type(err.instance)} {_short(err.instance)}"
    if kind in ("enum", "const"):
        allowed = err.validator_value if kind == "enum" else [err.validator_value]
        return path(*parts), f"{_short(err.instance)} is not one of {', '.join(_short(a) for a in allowed)}"
    if kind in ("minItems", "maxItems"):
        n = len(err.instance) if isinstance(err.instance, list) else "?"
        bound = "at least" if kind == "minItems" else "at most"
        return path(*parts), f"has {n} entries, needs {bound} {err.validator_value}"
    bounds = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}
    if kind in bounds:
        return path(*parts), f"must be {bounds[kind]} {err.validator_value}, got {_short(err.instance)}"
    if kind in ("minLength", "maxLength"):
        return path(*parts), f"must be {'at least' if kind == 'minLength' else 'at most'} {err.validator_value} characters long, got {_short(err.instance)}"
    if kind == "pattern":
        return path(*parts), f"{_short(err.instance)} does not match the pattern {err.validator_value}"
    message = err.message if len(err.message) <= 160 else err.message[:157] + "..."
    return path(*parts), message


def _expected(schema: dict) -> str:
    if "const" in schema:
        return _short(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(_short(v) for v in schema["enum"])
    if "$ref" in schema:
        return "an object (" + schema["$ref"].rsplit("/", 1)[-1] + ")"
    if "type" in schema:
        return _types(schema["type"])
    return "a valid value"


_ARTICLES = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
             "number": "a number", "boolean": "true/false", "null": "null"}


def _types(t: str | list[str]) -> str:
    return " or ".join(_ARTICLES.get(x, x) for x in ([t] if isinstance(t, str) else t))


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _short(v: Any) -> str:
    if isinstance(v, dict):
        return "{...}"
    if isinstance(v, list):
        return f"[{len(v)} entries]"
    r = repr(v) if not isinstance(v, bool) else ("true" if v else "false")
    if v is None:
        r = "null"
    return r if len(r) <= _MAX_REPR else r[: _MAX_REPR - 3] + "..."
