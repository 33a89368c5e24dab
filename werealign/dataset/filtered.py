"""`werealign audit DATASET --filtered-out DIR`: the filtered split as a complete dataset directory.

Every game, every VA/OI item and every OSR rewrite of the source, and only the speech items the
adversarial filter kept (werealign.shortcuts.filtering), in their original order. dataset.json says how
it was filtered (`filtering`); `filter_report.json` lists each removed item and why. Written in a
staging directory and moved into place only when complete.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from werealign.shortcuts.filtering import FilterResult
from werealign.dataset import Dataset, write_dataset
from werealign.files.output_dir import output_directory
from werealign.schema import SpeechItem
from werealign.tasks import kind_of_model

REPORT = "filter_report.json"


def write_split(ds: Dataset, out: Path, result: FilterResult, note: dict[str, Any], *, overwrite: bool = False,
                command: str = "audit --filtered-out") -> None:
    kept = {it.item_id for it in result.kept}
    kind = kind_of_model(SpeechItem)  # the adversarial filter audits speech items
    report = {"removed": [{"item_id": i, "reason": why} for i, why in sorted(result.removed.items())], "rounds": result.rounds}
    manifest = ds.manifest
    inputs = [ds.root] if ds.root is not None else []
    with output_directory(out, command=command, inputs=inputs, overwrite=overwrite) as stage:
        write_dataset(
            stage, name=f"{manifest.name}-filtered", version=manifest.version, licence=manifest.licence,
            games=list(ds.games.values()), items={**ds.items_to_copy(), kind: [it for it in ds.items_of(kind) if it.item_id in kept]}, osr=ds.osr,
            description=f"{manifest.description} Speech items filtered adversarially by `werealign audit --filtered-out`.".strip(),
            source=manifest.source, extra_files={REPORT: json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True) + "\n"},
            filtering=note,
        )
