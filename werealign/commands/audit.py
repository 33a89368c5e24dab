"""`werealign audit DATASET`: artifact checks of the speech items (see werealign/audit/ for each
check), and with --filtered-out DIR the adversarially filtered split."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from werealign.errors import UserError

FORMATS = ("text", "json")


COMMAND = "audit --filtered-out"  # the marker naming the split directory as this command's output


def audit_command(
    dataset: Path = typer.Argument(None, help="Dataset directory (default: the bundled sample)."),
    format: str = typer.Option("text", "--format", help="text (one line per check) or json (for machines)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 when any check fails (default: exit 0 whatever the verdicts)."),
    filtered_out: Path | None = typer.Option(
        None, "--filtered-out", help="Write a complete dataset here holding only the speech items an ensemble of "
        "options-only attacks cannot answer, and no leaking item (AFLite-style filtering)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the filter's fold assignments (--filtered-out)."),
    # 0.15 = werealign.shortcuts.filtering.THRESHOLD, not imported here: --help loads no scikit-learn.
    threshold: float = typer.Option(0.15, "--filter-threshold", help="Filter: remove an item when an attack gives its key this probability (chance 1/9)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace a non-empty --filtered-out directory."),
) -> None:
    """Answer-key position, longest/shortest key, options-only baseline, duplicate options,
    explanation/key disagreement and leaks, over all items and per dimension, each with a
    verdict: pass, warn, fail, or skip (too few items to say); the n-grams that give keys
    away; each item's artifact score (JSON)."""
    # Loads scipy and scikit-learn: not at --help time.
    from werealign.audit import audit_items, render_text
    from werealign.shortcuts.filtering import ATTACKS, PARTITIONS, SLICE_SHARE, adversarial_filter, filter_note, verify
    from werealign.dataset.filtered import write_split
    from werealign.dataset import load_dataset

    if format not in FORMATS:
        raise UserError(f"--format: unknown format {format!r}; use text or json")
    if not 0 < threshold <= 1:
        raise UserError(f"--filter-threshold: {threshold} is not in (0, 1]")
    if filtered_out is not None:  # before the slow filter; write_split checks again under its lock
        from werealign.files.output_dir import check_inputs, check_replaceable

        check_inputs(filtered_out, [dataset] if dataset is not None else [])
        check_replaceable(filtered_out, COMMAND, overwrite)
    ds = load_dataset(dataset)
    if not ds.speech:
        raise UserError(f"{dataset or 'the bundled sample'}: the dataset has no speech items to audit")
    report = audit_items(ds)
    doc = report.to_dict()
    lines = [render_text(report)]
    if filtered_out is not None:
        # a distractor from the future (werealign.shortcuts.exchange) is removed as a leak is
        leaks = {i: s["leaks"] + s["future"] for i, s in report.item_scores.items()}
        leaks |= {it.item_id: None for it in ds.speech if it.game_id not in ds.games}
        context = {i: s["context_score"] for i, s in report.item_scores.items()}
        # the ensemble removes what it answers (its pick is the key), as generation does (werealign.generation.choose)
        learned = {i: float(s["ensemble_hit"]) for i, s in report.item_scores.items()}
        result = adversarial_filter(ds.speech, leaks, seed=seed, threshold=threshold, context=context, learned=learned)
        independent = verify(result.kept, ds.speech, ds.games, report.context)  # the audit's items are ds.speech
        note = filter_note(result, seed=seed, attacks=ATTACKS, partitions=PARTITIONS, threshold=threshold,
                           slice_share=SLICE_SHARE, total=len(ds.speech), independent=independent)
        write_split(ds, filtered_out, result, note, overwrite=overwrite, command=COMMAND)
        doc["filtered_out"] = note
        c = note["counts"]
        top1 = "n/a" if independent["top1"] is None else f"{independent['top1']:.1%}"
        longest = "n/a" if independent["key_longest"] is None else f"{independent['key_longest']:.1%}"
        lines += [f"filtered split: {c['speech_kept']} of {c['speech_in']} speech items kept "
                  f"({c['removed_leak']} leaking, {c['removed_answerable']} answerable removed)",
                  f"  strongest independent attack: top-1 {top1}; key-longest {longest}; "
                  f"strongest context attack: top-1 {independent.get('context_top1', 0):.1%}",
                  "  kept per dimension: " + ", ".join(f"{d} {n}" for d, n in independent["by_dimension"].items()),
                  f"  wrote {filtered_out}"]
    if format == "json":
        print(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print("\n".join(lines))
    if strict and report.failed():
        raise typer.Exit(1)
