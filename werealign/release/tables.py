"""Records of a dataset directory -> one `datasets.Dataset` per config, with features that round-trip.

Each top-level field of a record becomes a column. A field whose JSON Schema is a scalar (string,
integer, number, boolean, optionally null) is a plain typed column, a list of scalars (candidate
seats, segment ids) a typed list column; every other field (options,
segments, provenance, open key/value maps) is a `datasets.Json` column: stored as JSON text in the
parquet file (pandas and other readers see a string), decoded to the same lists and dicts by
`datasets`. Arrow structs would not round-trip here: a struct column gives every row every key
seen in any row (an open map such as `provenance.source_ref` would gain keys set to None).
Columns come from the pydantic model, not the data, so the features are the same in every release.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from pydantic import BaseModel

from werealign.dataset import Dataset as WereDataset
from werealign.dataset.release_layout import configs

_SCALARS = {"string": "string", "integer": "int64", "number": "float64", "boolean": "bool"}


def _scalar_dtype(prop: dict[str, Any], defs: dict[str, Any]) -> str | None:
    if "$ref" in prop:
        return _scalar_dtype(defs[prop["$ref"].rsplit("/", 1)[-1]], defs)
    if "anyOf" in prop:
        kinds = [p for p in prop["anyOf"] if p.get("type") != "null"]
        return _scalar_dtype(kinds[0], defs) if len(kinds) == 1 else None
    return _SCALARS.get(prop.get("type", ""))


def _list_dtype(prop: dict[str, Any], defs: dict[str, Any]) -> str | None:
    """The item dtype of a (non-null) list of scalars, such as candidate seats."""
    return _scalar_dtype(prop["items"], defs) if prop.get("type") == "array" and "items" in prop else None


@cache
def _columns(model: type[BaseModel]) -> tuple[tuple[str, str, str | None], ...]:
    """(name, "value" / "list" / "json", dtype) per column: read from the model's JSON Schema once per model (a
    release asks for a config's features three times, and the game model's schema takes tens of milliseconds)."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    columns = []
    for name, prop in schema["properties"].items():
        if dtype := _scalar_dtype(prop, defs):
            columns.append((name, "value", dtype))
        elif dtype := _list_dtype(prop, defs):
            columns.append((name, "list", dtype))
        else:
            columns.append((name, "json", None))
    return tuple(columns)


def features_for(model: type[BaseModel]):
    from datasets import Features, Json, List, Value

    return Features({name: Value(dtype) if kind == "value" else List(Value(dtype)) if kind == "list" else Json()
                     for name, kind, dtype in _columns(model)})


def json_columns(model: type[BaseModel]) -> list[str]:
    return [name for name, kind, _ in _columns(model) if kind == "json"]


def config_table(model: type[BaseModel], rows: Sequence[BaseModel]):
    """The rows as a datasets.Dataset with the model's features (an empty config keeps its columns)."""
    from datasets import Dataset

    features = features_for(model)
    # A model may leave a field out of its dump while it holds its default (files keep their bytes);
    # a column is still a column, so it is filled with that default.
    records = [_row(r.model_dump(mode="json"), model, features) for r in rows]
    return Dataset.from_list(records, features=features) if records else Dataset.from_dict({k: [] for k in features}, features=features)


def _row(record: dict[str, Any], model: type[BaseModel], features) -> dict[str, Any]:
    return {name: record[name] if name in record else _default(model, name) for name in features}


def _default(model: type[BaseModel], name: str) -> Any:
    """The field's default as JSON values, a fresh copy each time. Asking pydantic reads the factory's signature on
    every call (a third of a release's tables on the real data), so a default that is the same on every call (a
    value, or a list, dict or model made with no arguments) is computed once per field."""
    text = _fixed_default(model, name)
    return json.loads(text) if text is not None else _jsonable_default(model, name)


@cache
def _fixed_default(model: type[BaseModel], name: str) -> str | None:
    return json.dumps(_jsonable_default(model, name)) if _same_every_call(model, name) else None


@cache
def _same_every_call(model: type[BaseModel], name: str) -> bool:
    """The field's default is the same on every call: a value, an empty list or dict, or a model made with no arguments
    whose own defaults are all so (a plug-in's model may draw a uuid or read the clock in a factory of its own)."""
    factory = model.model_fields[name].default_factory
    if factory is None or factory in (list, dict):
        return True
    return isinstance(factory, type) and issubclass(factory, BaseModel) and all(_same_every_call(factory, f) for f in factory.model_fields)


def _jsonable_default(model: type[BaseModel], name: str) -> Any:
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(model.model_fields[name].get_default(call_default_factory=True))


def configs_of(ds: WereDataset) -> dict[str, tuple[type[BaseModel], list[BaseModel]]]:
    """The configs this dataset has rows for: an item kind the dataset lacks is left out, not shipped empty."""
    found = {}
    for name, (model, rows_of) in configs().items():
        rows = list(rows_of(ds))
        if rows:
            found[name] = (model, rows)
    return found
