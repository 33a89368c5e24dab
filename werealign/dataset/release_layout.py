"""What a release holds, config by config: the contract between the writer (werealign.release) and the
reader (werealign.dataset.release_reader). One config per registered task kind (named after it), then games,
osr and manifest; each config's rows are one pydantic model; one split."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from werealign.schema import DatasetManifest, GameLog, OsrRewrite
from werealign.tasks import TASKS

SPLIT = "test"  # a benchmark is evaluated, not trained on: its one split is the test split
MANIFEST_CONFIG = "manifest"
CONFIG_SEP = "#"  # `RELEASE#CONFIG`: one config of a release read in place of its speech items

# The configs beside the item kinds: config name -> (model of a row, how to get the rows from a dataset directory).
DATA_CONFIGS: dict[str, tuple[type[BaseModel], Any]] = {
    "games": (GameLog, lambda ds: [ds.games[g] for g in sorted(ds.games)]),
    "osr": (OsrRewrite, lambda ds: [r for g in sorted(ds.osr) for r in ds.osr[g]]),
    # One row: name, version, licence, counts, so `eval --dataset RELEASE` rebuilds the directory exactly.
    MANIFEST_CONFIG: (DatasetManifest, lambda ds: [ds.manifest]),
}


FAITHFUL_SUFFIX = "_faithful"  # `<kind>_faithful`: the kind's items of the faithful split (werealign.splits)


def item_configs() -> dict[str, type[BaseModel]]:
    """One config per registered task kind (werealign.tasks), named after it: kind -> its item model."""
    return {name: task.item_model for name, task in TASKS.items()}


def configs() -> dict[str, tuple[type[BaseModel], Any]]:
    """Every config a release can hold: the item kinds (registry order), then games, osr and manifest."""
    items = {name: (model, lambda ds, name=name: ds.items_of(name)) for name, model in item_configs().items()}
    return {**items, **DATA_CONFIGS}
