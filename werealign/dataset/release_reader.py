"""Read a release back as a dataset directory, so `werealign eval --dataset` takes what `release` wrote.

A release (a folder written by `werealign release`, README.md + data/<config>/test.parquet, or a
Hugging Face Hub repo; werealign.dataset.refs says which references name one) is read through
`datasets` (from the local Hugging Face cache when offline). An extra config (`release
--extra-config`) may stand in for the speech items. Its rows are written once, as an ordinary dataset
directory, into werealign's cache (beside the response cache) under the hash of its content: the same
rows give the same files, so a run on a release scores the same data as a run on the directory it was
built from, and `werealign score` can find it again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from werealign.dataset.release_layout import CONFIG_SEP, DATA_CONFIGS, MANIFEST_CONFIG, SPLIT, item_configs
from werealign.errors import UserError
from werealign.schema import SpeechItem
from werealign.tasks import kind_of_model


def _loader():
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()  # "using the latest cached version" on every config is noise
    return datasets


def _declared(datasets, source: str) -> set[str] | None:
    """The configs a release folder holds, asked of `datasets` once: one it does not hold is one `load_dataset` refuses
    (not found), and every ask reads and parses the dataset card anew (most of reading a small release, whose card
    names 6 of its 16 possible configs). None for a Hub repo (its cache is searched otherwise) or a card `datasets`
    cannot read: then every config is asked for, as before."""
    if not Path(source).is_dir():
        return None
    try:
        return set(datasets.get_dataset_config_names(source))
    except (ValueError, FileNotFoundError):
        return None


def _rows(datasets, source: str, config: str, ref: str, *, required: bool, declared: set[str] | None = None) -> list[dict[str, Any]] | None:
    """The rows of one config; None when an optional config is absent from the release (or the cache), or not among
    the configs it `declared`."""
    if not required and declared is not None and config not in declared:
        return None
    try:
        return list(datasets.load_dataset(source, config, split=SPLIT))
    except (ValueError, FileNotFoundError) as e:
        if not required:
            return None
        where = "the local Hugging Face cache (offline)" if "cache" in str(e).lower() else "the release"
        raise UserError(f"--dataset {ref}: config {config!r} not found in {where}: {str(e).splitlines()[0]}") from None
    except ConnectionError as e:
        raise UserError(f"--dataset {ref}: {str(e).splitlines()[0]} (load it online once to fill the cache)") from None


def _models(model, rows: list[dict[str, Any]], ref: str, config: str) -> list[Any]:
    from werealign.files import parse_model

    return [parse_model(model, row, f"{ref} config {config} row {i}") for i, row in enumerate(rows)]


def release_to_dataset(source: str, extra: str | None, ref: str, cache_root: Path) -> Path:
    """The release at `source` (a folder's absolute path, or a Hub repo id) as a dataset directory under
    `cache_root` (written once, by content); its path. `extra`: the config that stands in for the speech
    items; `ref`: the reference as the user gave it, for errors."""
    from werealign.dataset import load_dataset, write_dataset
    from werealign.schema import DatasetManifest, OsrRewrite

    datasets = _loader()
    manifest_rows = _rows(datasets, source, MANIFEST_CONFIG, ref, required=True)
    if len(manifest_rows) != 1:
        raise UserError(f"--dataset {ref}: config {MANIFEST_CONFIG!r} must hold one row, found {len(manifest_rows)}")
    manifest = _models(DatasetManifest, manifest_rows, ref, MANIFEST_CONFIG)[0]
    counts = manifest.counts
    declared = _declared(datasets, source)
    games = _models(DATA_CONFIGS["games"][0], _rows(datasets, source, "games", ref, required=True), ref, "games")
    items: dict[str, list[Any]] = {}
    kinds = item_configs()  # every registered kind: a release's config for each kind its manifest counts
    unknown = sorted(k for k, v in (counts.model_extra or {}).items() if v and k not in kinds)
    if unknown:
        raise UserError(f"--dataset {ref}: it holds {unknown[0]} items, a task kind werealign does not know here; "
                        "install the package that registers it (entry point group werealign.tasks)")
    for kind, model in kinds.items():
        rows = _rows(datasets, source, kind, ref, required=counts.count(kind) > 0, declared=declared)
        if rows is not None:
            items[kind] = _models(model, rows, ref, kind)
    if extra is not None:
        items[kind_of_model(SpeechItem)] = _models(SpeechItem, _rows(datasets, source, extra, ref, required=True), ref, extra)  # an extra config: speech items
    osr_rows = _rows(datasets, source, "osr", ref, required=counts.osr_games > 0, declared=declared) or []
    osr: dict[str, list[Any]] = {}
    for rewrite in _models(OsrRewrite, osr_rows, ref, "osr"):
        osr.setdefault(rewrite.game_id, []).append(rewrite)

    import hashlib
    import shutil
    import tempfile

    from werealign.dataset import content_sha256
    from werealign.files import sha256_file

    cache_root.mkdir(parents=True, exist_ok=True)
    # A private staging directory: two evals may read the same release at once.
    stage = Path(tempfile.mkdtemp(dir=cache_root, prefix=".incoming."))
    try:
        write_dataset(stage, name=manifest.name + (f"{CONFIG_SEP}{extra}" if extra else ""), version=manifest.version,
                      licence=manifest.licence, games=games, items=items, osr=osr, description=manifest.description, source=manifest.source)
        key = hashlib.sha256(f"{content_sha256(stage)}\0{sha256_file(stage / 'dataset.json')}".encode()).hexdigest()
        final = cache_root / key[:16]
        if not final.is_dir():
            stage.chmod(0o755)
            try:
                stage.rename(final)
            except OSError:
                if not final.is_dir():  # not another process that wrote the same rows first
                    raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    load_dataset(final)  # shape-checked like any dataset directory
    return final
