"""A yes/no answer to "is this object valid under this JSON Schema?", compiled once per schema into closures.

jsonschema walks a schema anew for every object, building a validator per keyword it descends into: checking the
games of the WereBench release took about 70% of `werealign validate`. Almost every object a user validates is
valid, and then the verdict is all that matters. So check_schema asks this verdict first and runs jsonschema only
on an object found invalid, for its messages: the findings are the same, byte for byte, as long as this verdict is
jsonschema's (Draft 2020-12, no format assertion).

To keep it jsonschema's, only the keywords pydantic writes are compiled, each with jsonschema's own rule: its type
checker, its equality (True is not 1), a keyword applying only to the type it is about, `pattern` as `re.search`,
`$ref` to the schema's own `$defs`. A schema using any other keyword compiles to None: no fast path, jsonschema
decides alone. tests/test_schema_fast.py compares both verdicts on many mutated objects of every file model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that never make an object invalid (annotations; `format` is not asserted by check_schema's validator).
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
                          "$comment", "format", "discriminator"})
_COMPILED = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf", "oneOf",
                       "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
                       "maxItems", "minLength", "maxLength", "pattern", "$ref", "$defs"})


class _Unsupported(Exception):
    pass


def compile_schema(schema: dict) -> Check | None:
    """A function telling whether an object is valid under `schema` (a root schema with its `$defs`), or None when
    the schema uses a keyword this module does not compile (then only jsonschema can tell)."""
    from jsonschema import Draft202012Validator
    from jsonschema._utils import equal  # jsonschema's own equality for enum and const: True != 1, 1 == 1.0

    is_type = Draft202012Validator.TYPE_CHECKER.is_type
    type_check = {t: _type_check(t, is_type) for t in ("array", "boolean", "integer", "null", "number", "object", "string")}
    defs = schema.get("$defs", {})
    compiled: dict[str, Check] = {}

    def ref(target: str) -> Check:
        if not target.startswith("#/$defs/") or target[len("#/$defs/"):] not in defs:
            raise _Unsupported(target)
        name = target[len("#/$defs/"):]
        if name not in compiled:
            cell: list[Check] = []
            compiled[name] = lambda x: cell[0](x)  # a recursive definition reaches itself through the cell
            cell.append(node(defs[name]))
        return compiled[name]

    def node(s: Any) -> Check:
        if s is True:
            return lambda x: True
        if s is False:
            return lambda x: False
        if not isinstance(s, dict):
            raise _Unsupported(repr(s))
        unknown = set(s) - _COMPILED - _ANNOTATIONS
        if unknown or ("$defs" in s and s is not schema):
            raise _Unsupported(", ".join(sorted(unknown)) or "$defs below the root")
        return _all([keyword(k, v, s) for k, v in s.items() if k in _COMPILED and k != "$defs"])

    def keyword(k: str, v: Any, s: dict) -> Check:  # noqa: C901 - one branch per keyword, each jsonschema's rule
        if k == "type":
            types = [type_check.get(t) or (lambda x, t=t: is_type(x, t)) for t in ([v] if isinstance(v, str) else v)]
            return types[0] if len(types) == 1 else _any(types)
        if k == "properties":
            props = [(name, node(sub)) for name, sub in v.items()]

            def properties(x: Any) -> bool:
                if isinstance(x, dict):
                    for name, check in props:
                        if name in x and not check(x[name]):
                            return False
                return True
            return properties
        if k == "required":
            return lambda x: not isinstance(x, dict) or all(p in x for p in v)
        if k == "additionalProperties":
            known = set(s.get("properties", {}))
            extra = node(v)
            return lambda x: not isinstance(x, dict) or all(extra(x[p]) for p in x if p not in known)
        if k == "items":
            each = node(v)
            return lambda x: not isinstance(x, list) or all(each(e) for e in x)
        if k in ("anyOf", "allOf", "oneOf"):
            branches = [node(b) for b in v]
            if k == "anyOf":
                return _any(branches)
            if k == "allOf":
                return _all(branches)
            return lambda x: sum(1 for b in branches if b(x)) == 1
        if k == "enum":
            return lambda x: any(equal(x, e) for e in v)
        if k == "const":
            return lambda x: equal(x, v)
        if k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            holds = {"minimum": lambda x: not x < v, "maximum": lambda x: not x > v,
                     "exclusiveMinimum": lambda x: x > v, "exclusiveMaximum": lambda x: x < v}[k]
            number = type_check["number"]
            return lambda x: not number(x) or holds(x)
        if k in ("minItems", "maxItems"):
            fits = (lambda n: n >= v) if k == "minItems" else (lambda n: n <= v)
            return lambda x: not isinstance(x, list) or fits(len(x))
        if k in ("minLength", "maxLength"):
            fits = (lambda n: n >= v) if k == "minLength" else (lambda n: n <= v)
            return lambda x: not isinstance(x, str) or fits(len(x))
        if k == "pattern":
            rx = re.compile(v)
            return lambda x: not isinstance(x, str) or rx.search(x) is not None
        if k == "$ref":
            return ref(v)
        raise _Unsupported(k)

    try:
        return node(schema)
    except _Unsupported:
        return None


def _type_check(name: str, is_type: Callable[[Any, str], bool]) -> Check:
    """jsonschema's check of a JSON type: a plain isinstance where its type checker holds its plain function for the
    type, else its own check (integer and number: bool excluded, 1.0 an integer in Draft 2020-12)."""
    from jsonschema import Draft202012Validator, _types

    plain = {"array": (_types.is_array, lambda x: isinstance(x, list)), "object": (_types.is_object, lambda x: isinstance(x, dict)),
             "string": (_types.is_string, lambda x: isinstance(x, str)), "null": (_types.is_null, lambda x: x is None),
             "boolean": (_types.is_bool, lambda x: isinstance(x, bool))}
    checkers = Draft202012Validator.TYPE_CHECKER._type_checkers
    if name in plain and checkers.get(name) is plain[name][0]:
        return plain[name][1]
    return lambda x: is_type(x, name)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) and b(x)

    def every(x: Any) -> bool:
        for check in checks:
            if not check(x):
                return False
        return True
    return every


def _any(checks: list[Check]) -> Check:
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) or b(x)

    def some(x: Any) -> bool:
        for check in checks:
            if check(x):
                return True
        return False
    return some
