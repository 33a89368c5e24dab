"""Validate a whole dataset directory: every file, the manifest, and references between files."""

from __future__ import annotations

import os
from pathlib import Path

from werealign.dataset import MANIFEST
from werealign.errors import UserError
from werealign.files import path_kind, sha256_file
from werealign.schema.runs import STORE_NAME
from werealign.schema import DatasetManifest
from werealign.tasks import TASKS
from werealign.validate.file_checks import (
    GameStore,
    check_game_file,
    check_items_rows,
    check_osr_rows,
    kind_of,
    load_json,
    load_jsonl,
)
from werealign.validate.findings import Finding, Sink, path
from werealign.validate.schema_checks import check_schema


def validate_dataset(root: Path) -> tuple[list[Finding], list[str]]:
    """All findings of the dataset at `root`, and the files that were checked."""
    sinks: list[Sink] = []
    files: list[str] = []

    def sink(p: Path) -> Sink:
        s = Sink(file=str(p))
        sinks.append(s)
        files.append(str(p))
        return s

    manifest_out = sink(root / MANIFEST)
    ok, obj = load_json(root / MANIFEST, manifest_out)
    manifest = check_schema("dataset_manifest", obj, manifest_out) if ok else None
    extra = Sink(file=str(root))  # findings about the directory itself
    sinks.append(extra)

    # Games first: items and rewrites are checked against them.
    game_files = _listing(root / "games", ".json", extra)
    store = GameStore(games_dir=None, report_broken=False)
    # When games/ cannot be listed no game is known: leave references unchecked rather than report every one missing.
    refs = store if game_files is not None else None
    languages: set[str] = set()
    for gp in game_files or []:
        out, idx = check_game_file(gp, str(gp), in_dataset=True)
        sinks.append(out)
        files.append(str(gp))
        if idx is not None:
            languages.add(idx.game.language)
        # Items find their game by file name, so that is the key (a mismatched game_id is reported).
        store.cache[gp.stem] = idx

    # None: not countable (a directory that cannot be listed, a file that cannot be read); its own finding says why.
    counts: dict[str, int | None] = {"games": None if game_files is None else len(game_files)}
    all_items = []
    for kind in TASKS:
        ip = root / "items" / f"{kind}.jsonl"
        counts[kind] = 0
        if kind_of(ip) == "missing":  # anything else there (a directory, no permission) is reported by reading it
            continue
        out = sink(ip)
        rows, counts[kind] = load_jsonl(ip, out)  # lines, not parsed rows: a broken line is still an item
        all_items += check_items_rows(kind, rows, out, refs)
    # Ids must be unique across the three files too: runs and scores are keyed by item id.
    # (Duplicates inside one file were reported by that file's own pass.)
    first_file: dict[str, Sink] = {}
    for item, out in all_items:
        prev = first_file.setdefault(item.item_id, out)
        if prev.file != out.file:
            out.error("duplicate-item-id", "item_id", f"item id {item.item_id} is already used at {prev.file}:{prev.line}")

    for ip in _listing(root / "items", ".jsonl", extra) or []:
        if ip.stem not in TASKS:
            extra.warning("unknown-file", "", f"{ip.relative_to(root).as_posix()} is not a dataset file (expected items/{{{','.join(TASKS)}}}.jsonl); it is ignored")

    osr_files = _listing(root / "variants" / "osr", ".jsonl", extra)
    counts["osr_games"] = None if osr_files is None else len(osr_files)
    for op in osr_files or []:
        out = sink(op)
        rows, _ = load_jsonl(op, out)
        check_osr_rows(op, rows, out, refs)

    if manifest is not None:
        _check_manifest(root, manifest, counts, languages, manifest_out)
    return [f for s in sinks for f in s.findings], files


def _listing(d: Path, suffix: str, out: Sink) -> list[Path] | None:
    """The entries of directory `d` whose names end in `suffix`, sorted; [] when there is no such
    directory; None, reported, when it cannot be listed (glob would silently find nothing, and the
    counts would then blame the manifest)."""
    try:
        names = os.listdir(d)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        out.error("unreadable", "", f"{d}: cannot list the directory: {e.strerror or e}")
        return None
    return sorted(d / name for name in names if name.endswith(suffix))


FIX = "rewrite it: werealign validate --fix-manifest DATASET"


def _check_manifest(root: Path, manifest: DatasetManifest, counts: dict[str, int | None], languages: set[str], out: Sink) -> None:
    for key, actual in counts.items():
        declared = manifest.counts.count(key)
        if actual is not None and declared != actual:
            out.error("count-mismatch", path("counts", key), f"manifest says {declared}, the directory holds {actual}; {FIX}")
    if languages and set(manifest.languages) != languages:
        out.warning("language-mismatch", "languages",
                    f"manifest lists {sorted(manifest.languages)} but the games are in {sorted(languages)}")
    for rel, digest in sorted(manifest.content_hashes.items()):
        p = root / rel
        where = path("content_hashes", rel)
        try:
            if path_kind(p) == "missing":
                out.error("hash-missing-file", where, f"{rel} is listed in the manifest but missing")
            elif sha256_file(p) != digest:
                out.error("hash-mismatch", where, f"{rel} changed since the manifest was written; if intended, {FIX}")
        except UserError as e:  # a directory, a FIFO, no permission: the message names the path and the problem
            out.error("hash-unreadable", where, str(e))
    listed = set(manifest.content_hashes)
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        # A responses.sqlite beside the dataset is the store of the run that made it (an arena run): not dataset content.
        if rel in (STORE_NAME, f"{STORE_NAME}-wal", f"{STORE_NAME}-shm"):  # with its sqlite journal files
            continue
        if kind_of(p) == "file" and p.name != MANIFEST and rel not in listed and not any(part.startswith(".") for part in p.relative_to(root).parts):
            out.warning("hash-unlisted-file", "content_hashes", f"{rel} is not listed in the manifest's content hashes; {FIX}")
