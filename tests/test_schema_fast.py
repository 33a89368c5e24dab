"""The compiled schema verdict (werealign.validate.schema_fast) is jsonschema's: on every shipped file model, on
objects broken in many ways (invented: the bundled sample's games and items, and items derived from its games),
and on the keywords no shipped model uses yet. check_schema trusts a "valid" from it without asking jsonschema,
so a wrong "valid" would hide a finding: the verdicts must agree both ways. And an invalid object's messages come
from jsonschema entering only the values found invalid (explaining_validator): every error must be jsonschema's."""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator

from werealign.dataset import load_dataset
from werealign.game.decisions import derive_decisions
from werealign.schema import FILE_MODELS
from werealign.tasks import TASKS
from werealign.validate.findings import Sink
from werealign.validate.schema_checks import check_schema
from werealign.validate.schema_fast import compile_schema, explaining_validator

MODELS = {**FILE_MODELS, **{f"item:{kind}": task.item_model for kind, task in TASKS.items()}}
ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 1.5, -0.5, 10**12, "", "x", "A", "seer", "night-1", [], [1], ["a"], {}, {"x": 1}]


def jsonschema_says(schema: dict, obj) -> bool:
    return not any(True for _ in Draft202012Validator(schema).iter_errors(obj))


def errors(validator, obj) -> list:
    """Every error, in jsonschema's order, with all a finding is made of (the anyOf branches' errors included)."""
    def flat(errs):
        return [(e.message, list(e.absolute_path), list(e.absolute_schema_path), e.validator, repr(e.validator_value),
                 flat(e.context)) for e in errs]
    return flat(validator.iter_errors(obj))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_shipped_schema_compiles(name):
    # A keyword the compiler does not know would silently take the fast path away (validate 2x slower), not break it.
    assert compile_schema(MODELS[name].model_json_schema()) is not None


def _paths(obj, at=()):
    yield at
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*at, i))


def _mutate(obj, rng: random.Random):
    """A copy of `obj` with one place broken or changed: a value replaced, a key dropped or added, a list grown or
    emptied, a number nudged."""
    obj = json.loads(json.dumps(obj))  # a deep copy (faster than copy.deepcopy)
    path = rng.choice([p for p in _paths(obj) if p])
    parent = obj
    for step in path[:-1]:
        parent = parent[step]
    key, value = path[-1], parent[path[-1]]
    how = rng.randrange(6)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
    elif how == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "Game_id", key + "_"])] = rng.choice(ODD_VALUES)
    elif how == 2 and isinstance(value, list):
        parent[key] = value + value[:1] if value and rng.random() < 0.5 else []
    elif how == 3 and isinstance(value, (int, float)) and not isinstance(value, bool):
        parent[key] = value + rng.choice([-1000, -1, 1, 0.5, -0.5])
    else:
        parent[key] = json.loads(json.dumps(rng.choice(ODD_VALUES)))
    return obj


def _valid_objects() -> list[tuple[str, dict]]:
    ds = load_dataset(None)
    out = [("dataset_manifest", ds.manifest.model_dump(mode="json"))]
    out += [("game", g.model_dump(mode="json")) for g in ds.games.values()]
    out += [(f"item:{kind}", i.model_dump(mode="json")) for kind, items in ds.items.items() for i in items[:4]]
    out += [("osr_rewrite", r.model_dump(mode="json")) for rows in ds.osr.values() for r in rows[:3]]
    for game in ds.games.values():
        for kind, items in derive_decisions(game, "all").items.items():
            out += [(f"item:{kind}", i.model_dump(mode="json")) for i in items[:2]]
    return out


def test_the_verdict_is_jsonschemas_on_broken_objects_of_every_kind():
    rng = random.Random(46)
    objects = _valid_objects()
    kinds = {name for name, _ in objects}
    assert {"game", "dataset_manifest", "osr_rewrite", "item:speech", "item:vote", "item:opponent", "item:ballot"} <= kinds
    seen = {True: 0, False: 0}
    built = {}  # one schema and its three validators per kind (the explaining one checks its schema: 0.1 s for a game)
    for name, valid in objects:
        if name not in built:
            schema = MODELS[name].model_json_schema()
            built[name] = compile_schema(schema), Draft202012Validator(schema), explaining_validator(schema)
        fast, slow, explain = built[name]
        assert fast(valid) and slow.is_valid(valid), name
        for _ in range(16 if name == "game" else 10):
            broken = _mutate(valid, rng)
            found = errors(slow, broken)
            assert fast(broken) == (not found), (name, json.dumps(broken, ensure_ascii=False)[:300])
            assert errors(explain, broken) == found, (name, json.dumps(broken, ensure_ascii=False)[:300])
            seen[not found] += 1
    assert seen[False] > 250 and seen[True] > 50, seen  # both verdicts exercised


@pytest.mark.parametrize(("schema", "cases"), [
    ({"type": "integer"}, [(1, True), (1.0, True), (1.5, False), (True, False), ("1", False)]),
    ({"type": ["number", "null"]}, [(None, True), (0.5, True), (False, False), ([], False)]),
    ({"enum": [1, "a", None]}, [(1, True), (1.0, True), (True, False), ("a", True), (None, True), (0, False)]),
    ({"const": False}, [(False, True), (0, False), (None, False)]),
    ({"const": [1, {"a": True}]}, [([1, {"a": True}], True), ([True, {"a": True}], False), ([1, {"a": 1}], False)]),
    ({"exclusiveMinimum": 0, "exclusiveMaximum": 3}, [(0, False), (0.1, True), (3, False), ("x", True)]),
    ({"minimum": 1, "maximum": 2}, [(1, True), (2, True), (2.01, False), (True, True), (None, True)]),
    ({"minLength": 2, "maxLength": 3}, [("ab", True), ("a", False), ("abcd", False), ("座位号", True), (5, True)]),
    ({"minItems": 1, "maxItems": 2, "items": {"type": "string"}}, [(["a"], True), ([], False), (["a", 1], False), ("ab", True)]),
    ({"items": False}, [([], True), ([1], False), ({}, True)]),
    ({"pattern": "^s[0-9]+$"}, [("s12", True), ("s12\n", True), ("xs1", False), (7, True)]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 5}]}, [(3, True), (7, False), (6.5, True), (3.5, False), ("x", True)]),
    ({"allOf": [{"required": ["a"]}, {"properties": {"a": {"type": "null"}}}]}, [({"a": None}, True), ({"a": 1}, False), ({}, False), ([], True)]),
    ({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
     [({"a": "x", "b": 1}, True), ({"b": "x"}, False), ({"a": 1}, False)]),
    ({"additionalProperties": False, "properties": {"a": True}}, [({"a": 1}, True), ({"b": 1}, False)]),
    ({"$defs": {"Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
                         "required": ["next"]}}, "$ref": "#/$defs/Node"},
     [({"next": None}, True), ({"next": {"next": None}}, True), ({"next": {"next": 1}}, False), ({"next": {}}, False)]),
    (True, [(1, True)]),
    ({"title": "t", "description": "d", "default": 3, "format": "date-time"}, [("not a date", True)]),
])
def test_keywords_no_shipped_model_uses_yet_follow_jsonschema(schema, cases):
    fast = compile_schema(schema) if isinstance(schema, dict) else compile_schema({"allOf": [schema]})
    for value, expected in cases:
        assert jsonschema_says(schema, value) == expected, (schema, value)  # the table itself is jsonschema's
        assert fast(value) == expected, (schema, value)


@pytest.mark.parametrize("schema", [
    {"patternProperties": {"^x": {"type": "integer"}}},
    {"properties": {"a": {"type": "integer"}}, "patternProperties": {"^x": True}, "additionalProperties": False},
    {"prefixItems": [{"type": "integer"}], "items": False},
    {"uniqueItems": True},
    {"not": {"type": "null"}},
    {"$ref": "https://example.org/other.json"},
    {"properties": {"a": {"$defs": {"X": True}, "$ref": "#/$defs/X"}}},
    {"if": {"type": "string"}, "then": {"minLength": 1}},
])
def test_a_keyword_it_does_not_compile_leaves_jsonschema_alone(schema):
    assert compile_schema(schema) is None


def test_check_schema_still_reports_every_finding_of_a_broken_game():
    """Found invalid, an object goes to jsonschema for its messages: all of them, as before the fast verdict."""
    obj = next(iter(load_dataset(None).games.values())).model_dump(mode="json")
    assert check_schema("game", obj, Sink(file="g.json")) is not None
    obj["seats"][0]["seat"] = 0
    obj["bogus"] = 1
    del obj["phases"]
    out = Sink(file="g.json")
    assert check_schema("game", obj, out) is None
    assert [(f.field, f.message) for f in out.findings] == [
        ("", "unknown field(s) 'bogus': remove them or fix their spelling"), ("phases", "required field is missing"),
        ("seats[0].seat", "must be at least 1, got 0")]
