"""A speech set across the five dimensions to filter: the release's own items plus generated ones (issue 43).

    python bench/merged_split.py RELEASE_DIR GENERATED_DATASET_DIR [...] OUT_DIR     # from the checkout's root

Writes OUT_DIR, a dataset directory with the release's games, VA/OI items and OSR rewrites, and the speech
items of the release followed by those of each generated dataset (`werealign generate ... --out DIR`, its
`DIR/dataset`; built from the same games). Then run `werealign audit OUT_DIR --filtered-out SPLIT`: the
filter judges every item against attacks trained on the others' games, whichever set it came from.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign


def main() -> None:
    from werealign.dataset import load_dataset, write_dataset
    from werealign.errors import UserError
    from werealign.schema import SpeechItem
    from werealign.tasks import kind_of_model

    *sources, out = [Path(a) for a in sys.argv[1:]]
    release, generated = load_dataset(sources[0]), [load_dataset(p) for p in sources[1:]]
    kind = kind_of_model(SpeechItem)
    speech = list(release.items_of(kind))
    seen = {it.item_id for it in speech}
    for ds, path in zip(generated, sources[1:]):
        for it in ds.items_of(kind):
            if it.game_id not in release.games:
                raise UserError(f"{path}: item {it.item_id}: game {it.game_id} is not in {sources[0]}")
            if it.item_id in seen:
                raise UserError(f"{path}: item {it.item_id}: id already used")
            seen.add(it.item_id)
            speech.append(it)
    m = release.manifest
    write_dataset(out, name=f"{m.name}-merged", version=m.version, licence=m.licence, games=list(release.games.values()),
                  items={**release.items_to_copy(), kind: speech}, osr=release.osr,
                  description=f"{m.description} Speech items of the release and of " + ", ".join(d.manifest.name for d in generated) + ".",
                  source=m.source)
    print(f"wrote {out}: {len(speech)} speech items ({len(release.items_of(kind))} from the release)")


if __name__ == "__main__":
    main()
