"""Build the release folder: data/<config>/test.parquet for each config, and README.md (the card)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from werealign.dataset import load_dataset
from werealign.files import atomic_write_text, make_parent
from werealign.leaderboards.release.card import data_path, dataset_card
from werealign.leaderboards.release.tables import config_table, configs_of
from werealign.output_dir import check_inputs, check_replaceable, output_directory


@dataclass(frozen=True)
class Release:
    folder: Path
    rows: dict[str, int]  # config -> rows written


def build_release(dataset_dir: Path | None, out: Path, *, overwrite: bool = False) -> Release:
    """The dataset directory (None: the bundled sample) as a Hugging Face dataset folder, all or nothing."""
    import datasets

    datasets.disable_progress_bars()  # a bar per tiny parquet file is noise on stderr
    ds = load_dataset(dataset_dir)
    inputs = [dataset_dir] if dataset_dir is not None else []
    check_inputs(out, inputs)
    check_replaceable(out, "release", overwrite)
    configs = configs_of(ds)
    num_bytes = {}
    with output_directory(out, command="release", inputs=inputs, overwrite=overwrite) as stage:
        for name, (model, rows) in configs.items():
            path = stage / data_path(name)
            make_parent(path)
            table = config_table(model, rows)
            table.to_parquet(str(path))
            num_bytes[name] = table.data.nbytes
        atomic_write_text(stage / "README.md", dataset_card(ds, configs, num_bytes))
    return Release(out, {name: len(rows) for name, (_, rows) in configs.items()})
