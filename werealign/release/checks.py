"""What `werealign release` checks before it writes anything: a published benchmark is valid, its
manifest describes the files as they are, and every item was reviewed by a person (or imported from a
reviewed source). Each refusal is one line naming the fix."""

from __future__ import annotations

from pathlib import Path

from werealign.dataset import bundled_sample_path, load_dataset
from werealign.errors import UserError

# Findings that mean the manifest no longer describes the files (they changed after it was written).
STALE_CODES = ("count-mismatch", "hash-mismatch", "hash-missing-file")
# Review decisions that may be published; the others ("unreviewed", "rejected") need --allow-unreviewed,
# except items derived from the annotated log (`werealign derive`): their answer is a recorded fact, and
# no model wrote their wording.
PUBLISHABLE = ("accepted", "edited", "imported")


def check_releasable(dataset_dir: Path | None, *, allow_unreviewed: bool = False) -> None:
    """Raise a one-line UserError when the dataset must not be released as it is."""
    from werealign.validate import check_paths, count

    root = dataset_dir if dataset_dir is not None else bundled_sample_path()
    findings = check_paths([root]).findings
    errors = [f for f in findings if f.severity == "error"]
    stale = [f for f in errors if f.code in STALE_CODES]
    if stale:
        first = stale[0]
        raise UserError(
            f"{first.location()}: the manifest is stale ({first.field}: {first.message}); "
            f"`werealign validate --fix-manifest {root}` rewrites it (or write the dataset again with the "
            "command that made it)"
        )
    if errors:
        n, _ = count(findings)
        raise UserError(f"{root}: {n} validation error(s), first: {errors[0].to_text()}; "
                        f"`werealign validate {root}` lists them all")
    ds = load_dataset(dataset_dir)
    ds.items_to_copy()  # refuses a kind this installation cannot read: the release would leave its items out
    if allow_unreviewed:
        return
    for task, items in sorted(ds.items.items()):
        pending = [i for i in items if _review(i) not in PUBLISHABLE and not _derived(i)]
        if pending:
            raise UserError(
                f"{root}: {len(pending)} {task} item(s) are not reviewed ({_review(pending[0])}), first "
                f"{pending[0].item_id}; review them (`werealign review {root}`) or pass --allow-unreviewed"
            )


def _review(item: object) -> str:
    provenance = getattr(item, "provenance", None)
    return getattr(provenance, "review", None) or "imported"  # kinds without a review record: derived from logs


def _derived(item: object) -> bool:
    provenance = getattr(item, "provenance", None)
    return _review(item) == "unreviewed" and "derived" in (getattr(provenance, "source_ref", None) or {})
