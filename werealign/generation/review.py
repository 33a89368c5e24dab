"""Reviewing items: the review log and the export of what was accepted.

The log is JSONL, one decision per line, appended and fsynced the moment the annotator decides, so
nothing decided is lost if the page, the server or the machine goes away. The latest decision on an
item wins; reopening the review resumes at the first item with none. Export writes the accepted and
edited items (with review = accepted / edited and the reviewer's name) as a dataset directory;
rejected and undecided items stay out. A generated item is released only through this export.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from werealign.dataset import Dataset, is_dataset_dir, load_dataset, write_dataset
from werealign.errors import UserError
from werealign.files import parse_json_text, parse_model
from werealign.files.output_dir import output_directory
from werealign.schema import SpeechItem
from werealign.tasks import kind_of_model

DECISIONS = ("accepted", "edited", "rejected")
LOG_NAME = "review.jsonl"
NOTES = "notes.jsonl"


@dataclass
class ReviewSession:
    dataset: Dataset
    log_path: Path
    notes: dict[str, dict[str, Any]] = field(default_factory=dict)  # item_id -> generation notes (flags, judge votes)
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)  # item_id -> latest decision

    @property
    def items(self) -> list[SpeechItem]:
        return self.dataset.speech

    def item(self, item_id: str) -> SpeechItem:
        for it in self.dataset.speech:
            if it.item_id == item_id:
                return it
        raise UserError(f"no item {item_id!r} in {self.dataset.root}")

    def first_open(self) -> int:
        return next((i for i, it in enumerate(self.items) if it.item_id not in self.decisions), 0)

    def decide(self, item_id: str, decision: str, *, reason: str = "", reviewer: str = "", edited: dict[str, Any] | None = None) -> dict[str, Any]:
        """Check and append one decision; returns the log entry."""
        original = self.item(item_id)
        if decision not in DECISIONS:
            raise UserError(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        if decision == "rejected" and not reason.strip():
            raise UserError(f"item {item_id}: a rejection needs a reason")
        item_doc = None
        if decision == "edited":
            if not isinstance(edited, dict):
                raise UserError(f"item {item_id}: an edit needs the edited item")
            fixed = {k: getattr(original, k) for k in ("item_id", "game_id", "language", "dimension", "viewpoint_seat", "cutoff_segment")}
            merged = {**original.model_dump(mode="json"), **edited, **{k: v for k, v in fixed.items()}}
            item_doc = _retag_answer(parse_model(SpeechItem, merged, f"item {item_id} (edited)")).model_dump(mode="json")
        entry = {"item_id": item_id, "decision": decision, "reason": reason.strip(), "reviewer": reviewer,
                 "time": datetime.now(UTC).isoformat(timespec="seconds"), "item": item_doc}
        append_fsync(self.log_path, json.dumps(entry, ensure_ascii=False, sort_keys=True))
        self.decisions[item_id] = entry
        return entry

    def reviewed_items(self) -> list[SpeechItem]:
        """Accepted and edited items in dataset order, marked with their review decision."""
        out = []
        for it in self.items:
            d = self.decisions.get(it.item_id)
            if d is None or d["decision"] == "rejected":
                continue
            base = SpeechItem.model_validate(d["item"]) if d["decision"] == "edited" else it
            prov = base.provenance.model_copy(update={"review": d["decision"], "reviewer": d["reviewer"] or None})
            out.append(base.model_copy(update={"provenance": prov}))
        return out

    def export(self, out: Path, *, overwrite: bool = False) -> int:
        items = self.reviewed_items()
        ds = self.dataset
        games = sorted({it.game_id for it in items})
        # Only an earlier export may be replaced; never the dataset or log being reviewed.
        with output_directory(out, command="review export", inputs=[p for p in (ds.root, self.log_path) if p is not None], overwrite=overwrite) as stage:
            write_dataset(stage, name=f"{ds.manifest.name}-reviewed", version=ds.manifest.version, licence=ds.manifest.licence,
                          games=[ds.games[g] for g in games if g in ds.games], items={**ds.items_to_copy(set(games)), kind_of_model(SpeechItem): items},
                          osr={g: ds.osr[g] for g in games if g in ds.osr}, description=ds.manifest.description, source=ds.manifest.source)
        return len(items)


def _retag_answer(item: SpeechItem) -> SpeechItem:
    """When the reviewer moves the answer, the ground_truth tag moves with it (validate requires the answer
    to be the ground_truth option); the old key takes the tag the new one had, as no origin says "was the key"."""
    truth = next((o for o in item.options if o.origin == "ground_truth"), None)
    if truth is None or truth.key == item.answer:
        return item
    new_key = next(o for o in item.options if o.key == item.answer)
    options = [o.model_copy(update={"origin": "ground_truth"}) if o.key == item.answer
               else o.model_copy(update={"origin": new_key.origin}) if o.key == truth.key else o for o in item.options]
    return item.model_copy(update={"options": options})


def append_fsync(path: Path, line: str) -> None:
    """Append one line and make it durable before returning (the decision is on disk when the page says so)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


def read_log(path: Path) -> dict[str, dict[str, Any]]:
    """Latest decision per item. A torn last line (the machine died mid-write) is ignored; any other bad line is an error."""
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    latest: dict[str, dict[str, Any]] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = parse_json_text(line, path, n)
        except UserError:
            if n == len(lines):
                break
            raise
        if not isinstance(entry, dict) or entry.get("decision") not in DECISIONS or not isinstance(entry.get("item_id"), str):
            raise UserError(f"{path}:{n}: not a review decision")
        latest[entry["item_id"]] = entry
    return latest


def open_review(path: Path, log: Path | None = None) -> ReviewSession:
    """A generation directory (its dataset/ and notes) or any dataset directory."""
    path = Path(path)
    if is_dataset_dir(path / "dataset"):
        root, notes_path, default_log = path / "dataset", path / NOTES, path / LOG_NAME
    elif is_dataset_dir(path):
        root, notes_path, default_log = path, None, path.parent / f"{path.name}.{LOG_NAME}"
    else:
        raise UserError(f"{path}: neither a generation directory (with dataset/) nor a dataset directory (with dataset.json)")
    ds = load_dataset(root)
    if not ds.speech:
        raise UserError(f"{root}: no speech items to review")
    notes = {}
    if notes_path is not None and notes_path.exists():
        for line in notes_path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                notes[row["item_id"]] = row
    log_path = log or default_log
    return ReviewSession(dataset=ds, log_path=log_path, notes=notes, decisions=read_log(log_path))
