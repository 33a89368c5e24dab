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

An invalid object still needs jsonschema's messages, and jsonschema walked all of it: a game with one bad value cost a
whole walk of every turn and event. `explaining_validator` is jsonschema's validator that does not enter a property
or a list entry the compiled check finds valid there: such a value yields no error under any schema (no keyword
pydantic writes depends on a sibling's result), so the errors, their order and their messages are jsonschema's own.
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
    nodes = compile_nodes(schema)
    return None if nodes is None else nodes[id(schema)]


def compile_nodes(schema: dict) -> dict[int, Check] | None:
    """The check of every sub-schema (dict) of `schema`, by the sub-schema's id (the dicts belong to `schema`, which
    the caller keeps alive), the root's included; None when the schema uses a keyword this module does not compile."""
    from jsonschema import Draft202012Validator
    from jsonschema._utils import equal  # jsonschema's own equality for enum and const: True != 1, 1 == 1.0

    is_type = Draft202012Validator.TYPE_CHECKER.is_type
    type_check = {t: _type_check(t, is_type) for t in ("array", "boolean", "integer", "null", "number", "object", "string")}
    defs = schema.get("$defs", {})
    compiled: dict[str, Check] = {}
    by_id: dict[int, Check] = {}

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
        check = by_id[id(s)] = _all([keyword(k, v, s) for k, v in s.items() if k in _COMPILED and k != "$defs"])
        return check

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
        node(schema)
    except _Unsupported:
        return None
    return by_id


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
    if name in ("integer", "number"):
        # a plain int (and for a number, a plain float) is one under Draft 2020-12's checker; anything else (bool,
        # 1.0, Decimal...) is asked of it. Seats, segments and times are numbers: most checks of a game end here.
        exact = (int,) if name == "integer" else (int, float)
        return lambda x: type(x) in exact or is_type(x, name)
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


def explaining_validator(schema: dict):
    """jsonschema's Draft 2020-12 validator of `schema` (checked against its metaschema), whose `properties` and
    `items` skip the values the compiled checks find valid; plain jsonschema when the schema does not compile."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema import _keywords as keywords

    Draft202012Validator.check_schema(schema)
    nodes = compile_nodes(schema)
    if nodes is None:
        return Draft202012Validator(schema)

    def valid_there(subschema: Any, value: Any) -> bool:
        check = nodes.get(id(subschema)) if isinstance(subschema, dict) else None
        return check is not None and check(value)

    def properties(validator, props, instance, schema):
        # jsonschema's own keyword over the properties that may hold an error (it only iterates the mapping)
        if isinstance(instance, dict):
            props = {name: sub for name, sub in props.items() if name not in instance or not valid_there(sub, instance[name])}
        yield from keywords.properties(validator, props, instance, schema)

    def items(validator, each, instance, schema):
        if "prefixItems" in schema or not isinstance(each, dict) or not isinstance(instance, list):
            yield from keywords.items(validator, each, instance, schema)
            return
        for index, value in enumerate(instance):  # jsonschema's loop (no prefix), without the entries found valid
            if not valid_there(each, value):
                yield from validator.descend(instance=value, schema=each, path=index)

    pruned = validators.extend(Draft202012Validator, {"properties": properties, "items": items})
    return pruned(schema)
