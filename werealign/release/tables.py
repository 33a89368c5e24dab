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

from collections.abc import Sequence
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


def features_for(model: type[BaseModel]):
    from datasets import Features, Json, List, Value

    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    columns = {}
    for name, prop in schema["properties"].items():
        if dtype := _scalar_dtype(prop, defs):
            columns[name] = Value(dtype)
        elif dtype := _list_dtype(prop, defs):
            columns[name] = List(Value(dtype))
        else:
            columns[name] = Json()
    return Features(columns)


def json_columns(model: type[BaseModel]) -> list[str]:
    from datasets import Json

    return [name for name, f in features_for(model).items() if isinstance(f, Json)]


def config_table(model: type[BaseModel], rows: Sequence[BaseModel]):
    """The rows as a datasets.Dataset with the model's features (an empty config keeps its columns)."""
    from datasets import Dataset

    features = features_for(model)
    # A model may leave a field out of its dump while it holds its default (files keep their bytes);
    # a column is still a column, so it is filled with that default.
    records = [_row(r.model_dump(mode="json"), model, features) for r in rows]
    return Dataset.from_list(records, features=features) if records else Dataset.from_dict({k: [] for k in features}, features=features)


def _row(record: dict[str, Any], model: type[BaseModel], features) -> dict[str, Any]:
    from pydantic_core import to_jsonable_python

    return {name: record[name] if name in record else to_jsonable_python(model.model_fields[name].get_default(call_default_factory=True))
            for name in features}


def configs_of(ds: WereDataset) -> dict[str, tuple[type[BaseModel], list[BaseModel]]]:
    """The configs this dataset has rows for: an item kind the dataset lacks is left out, not shipped empty."""
    found = {}
    for name, (model, rows_of) in configs().items():
        rows = list(rows_of(ds))
        if rows:
            found[name] = (model, rows)
    return found
