"""Build the release folder: data/<config>/test.parquet for each config, and README.md (the card)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from werealign.dataset import Dataset, load_dataset
from werealign.dataset.release_layout import FAITHFUL_SUFFIX, configs, item_configs
from werealign.errors import UserError
from werealign.files import atomic_write_text, make_parent
from werealign.release.card import data_path, dataset_card
from werealign.splits import apply_split
from werealign.release.tables import config_table, configs_of
from werealign.files.output_dir import check_inputs, check_replaceable, output_directory
from werealign.schema import SpeechItem
from werealign.tasks import kind_of_model


@dataclass(frozen=True)
class Release:
    folder: Path
    rows: dict[str, int]  # config -> rows written


def parse_extra(spec: str) -> tuple[str, Path]:
    """`NAME=DIR` of --extra-config: a config name the Hub accepts and that no built-in config uses."""
    name, sep, folder = spec.partition("=")
    if not sep or not folder:
        raise UserError(f"--extra-config {spec}: expected NAME=DIR (a dataset directory)")
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise UserError(f"--extra-config {spec}: name {name!r} must be lower-case letters, digits, - or _")
    if name in configs():
        raise UserError(f"--extra-config {spec}: {name!r} is a built-in config; choose another name")
    return name, Path(folder)


def _check_extra(name: str, extra: Dataset, main: Dataset) -> None:
    """An extra config ships speech items only: each must be cut from a game of the release, unchanged."""
    if not extra.speech:
        raise UserError(f"--extra-config {name}: {extra.root} has no speech items")
    for item in extra.speech:
        game = main.games.get(item.game_id)
        if game is None:
            raise UserError(f"--extra-config {name}: item {item.item_id}: game {item.game_id} is not in the released dataset")
        if extra.games.get(item.game_id) != game:
            raise UserError(f"--extra-config {name}: game {item.game_id} differs from the released dataset's; "
                            "build the extra set from the same dataset directory")


def build_release(dataset_dir: Path | None, out: Path, *, overwrite: bool = False,
                  extras: dict[str, Path] | None = None, reference: str | None = None) -> Release:
    """The dataset directory (None: the bundled sample) as a Hugging Face dataset folder, all or nothing.

    `extras`: config name -> a dataset directory whose speech items ship as that config (an audit-filtered
    split, a human-voiced set). `reference`: how the card tells `eval --dataset` to read the release."""
    import datasets

    datasets.disable_progress_bars()  # a bar per tiny parquet file is noise on stderr
    ds = load_dataset(dataset_dir)
    inputs = ([dataset_dir] if dataset_dir is not None else []) + list((extras or {}).values())
    check_inputs(out, inputs)
    check_replaceable(out, "release", overwrite)
    found = configs_of(ds)
    # The faithful split of every item kind it changes, beside the full one (werealign.splits): what
    # `eval --split faithful` evaluates, for readers of the Hub folder who do not run werealign.
    for kind, model in item_configs().items():
        if kind in found:
            kept, left = apply_split(found[kind][1], ds.games, "faithful")
            if left:
                found[f"{kind}{FAITHFUL_SUFFIX}"] = (model, kept)
    extra_sets = {name: load_dataset(folder) for name, folder in (extras or {}).items()}
    for name, extra in extra_sets.items():
        _check_extra(name, extra, ds)
        found[name] = (SpeechItem, list(extra.items_of(kind_of_model(SpeechItem))))  # an extra config holds speech items
    num_bytes = {}
    with output_directory(out, command="release", inputs=inputs, overwrite=overwrite) as stage:
        for name, (model, rows) in found.items():
            path = stage / data_path(name)
            make_parent(path)
            table = config_table(model, rows)
            table.to_parquet(str(path))
            num_bytes[name] = table.data.nbytes
        card = dataset_card(ds, found, num_bytes, extras=extra_sets, reference=reference or ".")
        atomic_write_text(stage / "README.md", card)
    return Release(out, {name: len(rows) for name, (_, rows) in found.items()})
