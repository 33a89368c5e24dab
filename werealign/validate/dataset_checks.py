"""Validate a whole dataset directory: every file, the manifest, and references between files."""

from __future__ import annotations

from pathlib import Path

from werealign.dataset import MANIFEST
from werealign.files import sha256_file
from werealign.schema import DatasetManifest
from werealign.validate.file_checks import (
    ITEM_KINDS,
    GameStore,
    check_game_file,
    check_items_rows,
    check_osr_rows,
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

    # Games first: items and rewrites are checked against them.
    store = GameStore(games_dir=None, report_broken=False)
    game_files = sorted((root / "games").glob("*.json"))
    languages: set[str] = set()
    for gp in game_files:
        out, idx = check_game_file(gp, str(gp), in_dataset=True)
        sinks.append(out)
        files.append(str(gp))
        if idx is not None:
            languages.add(idx.game.language)
        # Items find their game by file name, so that is the key (a mismatched game_id is reported).
        store.cache[gp.stem] = idx

    counts = {"games": len(game_files), "osr_games": 0}
    all_items = []
    for kind in ITEM_KINDS:
        ip = root / "items" / f"{kind}.jsonl"
        counts[kind] = 0
        if not ip.is_file():
            continue
        out = sink(ip)
        rows = load_jsonl(ip, out)
        counts[kind] = len(rows)
        all_items += check_items_rows(kind, rows, out, store)
    # Ids must be unique across the three files too: runs and scores are keyed by item id.
    # (Duplicates inside one file were reported by that file's own pass.)
    first_file: dict[str, Sink] = {}
    for item, out in all_items:
        prev = first_file.setdefault(item.item_id, out)
        if prev.file != out.file:
            out.error("duplicate-item-id", "item_id", f"item id {item.item_id} is already used at {prev.file}:{prev.line}")
    extra = Sink(file=str(root))
    sinks.append(extra)

    for ip in sorted((root / "items").glob("*.jsonl")):
        if ip.stem not in ITEM_KINDS:
            extra.warning("unknown-file", "", f"{ip.relative_to(root).as_posix()} is not a dataset file (expected items/{{speech,vote,opponent}}.jsonl); it is ignored")

    osr_files = sorted((root / "variants" / "osr").glob("*.jsonl"))
    counts["osr_games"] = len(osr_files)
    for op in osr_files:
        out = sink(op)
        check_osr_rows(op, load_jsonl(op, out), out, store)

    if manifest is not None:
        _check_manifest(root, manifest, counts, languages, manifest_out)
    return [f for s in sinks for f in s.findings], files


def _check_manifest(root: Path, manifest: DatasetManifest, counts: dict[str, int], languages: set[str], out: Sink) -> None:
    for key, actual in counts.items():
        declared = getattr(manifest.counts, key)
        if declared != actual:
            out.error("count-mismatch", path("counts", key), f"manifest says {declared}, the directory holds {actual}; regenerate the manifest")
    if languages and set(manifest.languages) != languages:
        out.warning("language-mismatch", "languages",
                    f"manifest lists {sorted(manifest.languages)} but the games are in {sorted(languages)}")
    for rel, digest in sorted(manifest.content_hashes.items()):
        p = root / rel
        where = path("content_hashes", rel)
        if not p.is_file():
            out.error("hash-missing-file", where, f"{rel} is listed in the manifest but missing")
        elif sha256_file(p) != digest:
            out.error("hash-mismatch", where, f"{rel} changed since the manifest was written; regenerate the manifest if the change is intended")
    listed = set(manifest.content_hashes)
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and p.name != MANIFEST and rel not in listed and not any(part.startswith(".") for part in p.relative_to(root).parts):
            out.warning("hash-unlisted-file", "content_hashes", f"{rel} is not listed in the manifest's content hashes")
