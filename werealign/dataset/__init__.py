"""The dataset directory: load it, write it (with its manifest), and find the bundled sample.

Beside it in this package: what a `--dataset` value names and the directory it resolves to (`refs`), a
release read back as a dataset directory (`release_reader`, by the configs of `release_layout`), a dataset
re-derived from its games (`derive`) and the audit's filtered split written as a dataset (`filtered`).

Layout (DESIGN.md):
    <dataset>/dataset.json
    <dataset>/games/<game_id>.json
    <dataset>/items/<kind>.jsonl          one file per task kind (werealign.tasks: speech, vote, opponent, ...)
    <dataset>/variants/osr/<game_id>.jsonl
"""

from __future__ import annotations

import hashlib

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.files import list_dir, parse_model, read_json, read_jsonl, sha256_file, write_json, write_jsonl
from werealign.game.knowledge import missing_knowledge
from werealign.schema import DatasetCounts, DatasetManifest, GameLog, OsrRewrite
from werealign.tasks import TASKS

MANIFEST = "dataset.json"


@dataclass
class Dataset:
    manifest: DatasetManifest
    games: dict[str, GameLog]
    items: dict[str, list[Any]] = field(default_factory=dict)  # task name -> items in file order
    osr: dict[str, list[OsrRewrite]] = field(default_factory=dict)  # game_id -> rewrites
    root: Path | None = None
    unknown_kinds: tuple[str, ...] = ()  # items/<kind>.jsonl of a kind no installed package registers: not read

    def unknown_kind_notices(self) -> list[str]:
        """One line per items file this installation cannot read, so a run says what it leaves out."""
        return [f"items/{kind}.jsonl: task kind {kind!r} is not registered here (install the package that registers "
                "it: entry point group werealign.tasks); its items are left out" for kind in self.unknown_kinds]

    def items_of(self, task: str) -> list[Any]:
        return self.items.get(task, [])

    def items_to_copy(self, game_ids: set[str] | frozenset[str] | None = None) -> dict[str, list[Any]]:
        """Every kind's items (of `game_ids` when given; kind -> items in file order), for a command that writes
        the dataset again. Refuses a dataset holding a kind this installation cannot read: the copy would
        silently leave those items out."""
        if self.unknown_kinds:
            kind = self.unknown_kinds[0]
            raise UserError(f"{self.root}: items/{kind}.jsonl holds items of task kind {kind!r}, which is not registered "
                            "here, and would be left out; install the package that registers it (entry point group werealign.tasks)")
        return {kind: [it for it in rows if game_ids is None or it.game_id in game_ids] for kind, rows in self.items.items()}

    def __getattr__(self, name: str) -> list[Any]:
        """Any registered kind's items by name, for readable callers (`ds.speech`, `ds.vote`): `items_of(name)`."""
        if not name.startswith("_") and name in TASKS:
            return self.items_of(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


@dataclass(frozen=True)
class DatasetFiles:
    """The files of a dataset directory that eval reads, found by listing (never a silent glob)."""

    games: list[Path]
    items: dict[str, Path]  # task name -> items/<task>.jsonl, for the files present
    osr: list[Path]
    unknown: tuple[str, ...] = ()  # the stems of items/*.jsonl that name no registered task

    def all(self) -> list[Path]:
        return [*self.games, *self.items.values(), *self.osr]


def dataset_files(root: Path) -> DatasetFiles:
    """List a dataset directory: an unreadable games/, items/ or variants/osr/ is a UserError naming it."""
    items_dir = root / "items"
    present = set(list_dir(items_dir))
    return DatasetFiles(
        games=[root / "games" / n for n in list_dir(root / "games") if n.endswith(".json")],
        items={task: items_dir / f"{task}.jsonl" for task in TASKS if f"{task}.jsonl" in present},
        osr=[root / "variants" / "osr" / n for n in list_dir(root / "variants" / "osr") if n.endswith(".jsonl")],
        unknown=tuple(sorted(n.removesuffix(".jsonl") for n in present if n.endswith(".jsonl") and n.removesuffix(".jsonl") not in TASKS)),
    )


def bundled_sample_path() -> Path:
    """The English sample dataset shipped inside the package: the default of every command."""
    return Path(str(resources.files("werealign") / "sample"))


def is_dataset_dir(path: Path) -> bool:
    return path.is_dir() and (path / MANIFEST).is_file()


def load_dataset(path: Path | None = None) -> Dataset:
    """Load and shape-check a dataset directory (None: the bundled sample).

    Fails on the first malformed file with a message naming file, line and field; run
    `werealign validate` for the full list of findings and the semantic checks.
    """
    root = Path(path) if path is not None else bundled_sample_path()
    if root.is_file():
        raise UserError(f"{root}: is a file; a dataset is a directory holding {MANIFEST}")
    if not root.is_dir():
        raise UserError(f"{root}: dataset directory not found")
    if not (root / MANIFEST).is_file():
        raise UserError(f"{root}: not a werealign dataset directory (no {MANIFEST}); a folder written by `werealign release` holds README.md and data/; convert another release with `werealign import`")
    manifest = parse_model(DatasetManifest, read_json(root / MANIFEST), str(root / MANIFEST))
    files = dataset_files(root)
    games: dict[str, GameLog] = {}
    for gpath in files.games:
        game = parse_model(GameLog, read_json(gpath), str(gpath))
        if game.game_id != gpath.stem:
            raise UserError(f"{gpath}: game_id '{game.game_id}' does not match the file name")
        games[game.game_id] = game
    ds = Dataset(manifest=manifest, games=games, root=root, unknown_kinds=files.unknown)
    for task, ipath in files.items.items():
        model = TASKS[task].item_model
        ds.items[task] = [parse_model(model, obj, f"{ipath}:{lineno}{_item_label(obj)}") for lineno, obj in read_jsonl(ipath)]
    for opath in files.osr:
        ds.osr[opath.stem] = [parse_model(OsrRewrite, obj, f"{opath}:{lineno}") for lineno, obj in read_jsonl(opath)]
    return ds


def content_sha256(root: Path) -> str:
    """sha256 over the files eval reads (games, items, rewrites), by relative path.

    The manifest's hash alone identifies the data only while the manifest tells the truth; an item edited
    by hand afterwards must not be scored, or a run resumed, under the old identity.
    """
    h = hashlib.sha256()
    for path in sorted(dataset_files(root).all(), key=lambda p: p.relative_to(root).as_posix()):
        h.update(f"{path.relative_to(root).as_posix()}\0{sha256_file(path)}\0".encode())
    return h.hexdigest()


def _item_label(obj: object) -> str:
    return f" item {obj.get('item_id')}" if isinstance(obj, dict) and obj.get("item_id") else ""


def write_dataset(
    root: Path,
    *,
    name: str,
    version: str,
    licence: str,
    games: list[GameLog],
    items: Mapping[str, Sequence[Any]],
    osr: dict[str, list[OsrRewrite]] | None = None,
    description: str = "",
    source: str | None = None,
    extra_files: dict[str, str] | None = None,
    filtering: dict[str, Any] | None = None,
) -> DatasetManifest:
    """Write a complete dataset directory into `root` (normally a staging dir) with its manifest.

    `items`: kind -> items, one file `items/<kind>.jsonl` per kind given (an empty list: an empty file); a kind
    must be a registered task. Output is deterministic: games sorted by id, items in the order given, no timestamps.
    `extra_files` (relative path -> text, e.g. an import report) are written and hashed too.
    """
    osr = osr or {}
    unknown = sorted(set(items) - set(TASKS))
    if unknown:
        raise UserError(f"write_dataset: unknown item kind {unknown[0]!r}; register its task (werealign.tasks)")
    for game in sorted(games, key=lambda g: g.game_id):
        write_json(root / "games" / f"{game.game_id}.json", game)
    by_id = {g.game_id: g for g in games}
    for kind, rows in items.items():
        write_jsonl(root / "items" / f"{kind}.jsonl", [with_knowledge_missing(item, by_id) for item in rows])
    for game_id in sorted(osr):
        write_jsonl(root / "variants" / "osr" / f"{game_id}.jsonl", osr[game_id])
    for rel, text in sorted((extra_files or {}).items()):
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    manifest = DatasetManifest(
        name=name,
        version=version,
        description=description,
        languages=[],
        licence=licence,
        source=source,
        counts=DatasetCounts(games=0),
        content_hashes={},
        filtering=filtering,
    )
    return _write_manifest(root, manifest, games, {kind: len(rows) for kind, rows in items.items()}, len(osr))


def with_knowledge_missing(item: Any, games: Mapping[str, GameLog]) -> Any:
    """The item with `knowledge_missing` as its game says (werealign.game.knowledge): every writer of a dataset
    states it, so no item claims a viewpoint knew everything the rules say it knew when the log lacks some of it."""
    game = games.get(getattr(item, "game_id", ""))
    seat, cutoff = getattr(item, "viewpoint_seat", None), getattr(item, "cutoff_segment", None)
    if game is None or cutoff is None or "knowledge_missing" not in type(item).model_fields:
        return item
    missing = missing_knowledge(game, seat, cutoff)
    return item if missing == item.knowledge_missing else item.model_copy(update={"knowledge_missing": missing})


def _write_manifest(root: Path, base: DatasetManifest, games: list[GameLog], items: dict[str, int], osr_games: int) -> DatasetManifest:
    """`base` with the languages, counts and content hashes of what `root` holds now, written to its dataset.json."""
    hashes = {
        p.relative_to(root).as_posix(): sha256_file(p)
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != MANIFEST and not any(part.startswith(".") for part in p.relative_to(root).parts)
    }
    manifest = base.model_copy(update={
        "languages": sorted({g.language for g in games}),
        "counts": DatasetCounts.of(len(games), {kind: items.get(kind, 0) for kind in TASKS if kind in items}, osr_games),
        "content_hashes": hashes,
    })
    write_json(root / MANIFEST, manifest)
    return manifest


def rewrite_manifest(root: Path) -> DatasetManifest:
    """After an intended edit of a dataset directory: its dataset.json recomputed from the files (name,
    version, licence and description kept). The files must load; `werealign validate` checks the rest. What this
    recomputes may be absent (issue 45: a manifest written by hand has no content hashes yet)."""
    raw = read_json(root / MANIFEST) if (root / MANIFEST).is_file() else None
    if isinstance(raw, dict) and not {"counts", "content_hashes", "languages"} <= set(raw):
        write_json(root / MANIFEST, {"languages": [], "counts": {"games": 0}, "content_hashes": {}, **raw})
    ds = load_dataset(root)
    items = {task: len(rows) for task, rows in ds.items.items()}
    return _write_manifest(root, ds.manifest, list(ds.games.values()), items, len(ds.osr))
