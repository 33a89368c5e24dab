"""Importers: convert an existing benchmark release into a werealign dataset directory.

Each importer keeps what is sound, repairs what it can (saying how), and lists everything it
dropped with a reason, in an import report written into the dataset itself.

Importers are a registry (werealign.registry): `werealign import NAME SRC --out DIR` runs the one named
NAME. Another package adds one through the `werealign.importers` entry point group, naming an `Importer`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from werealign.registry import Registry


@dataclass(frozen=True)
class Imported:
    """What an import wrote: the dataset, the lines its command prints, and what the source lost."""

    out: Path
    lines: tuple[str, ...]  # the summary `werealign import` prints, a fact per line
    lost: int  # games and items of the source that did not make it (what --strict fails on)
    report: Path | None = None  # the import report inside `out`, naming every repair and drop


@dataclass(frozen=True)
class Importer:
    name: str  # `werealign import NAME`
    description: str  # one line, for `werealign list` and the help
    # (source path, output dataset directory, overwrite an earlier import there) -> what it wrote. It must write
    # nothing outside `out`, refuse a non-empty `out` that is not its own earlier output, and raise UserError.
    run: Callable[..., Imported]
    # whether `run` takes `corrections=` (a folder of per-game corrections files, werealign.importers.corrections)
    takes_corrections: bool = False


def _werebench(src: Path, out: Path, overwrite: bool, corrections: Path | None = None) -> Imported:
    from werealign.importers.werebench.importer import REPORT_MD, import_werebench

    s = import_werebench(src, out, overwrite=overwrite, corrections=corrections)
    c = s.counts
    lines = [
        f"games: {c['games_converted']}/{c['games_in_source']} converted, {c['games_dropped']} dropped",
        f"speech items: {c['speech_converted']}/{c['speech_in_source']} converted, {c['speech_dropped']} dropped",
        f"vote items (VA): {c['vote_items']} from {c['mvp_votes_in_source']} MVP votes; opponent items (OI): {c['opponent_items']}",
        f"per-segment text attached to {c['turns_with_segments']} of {c['turns']} turns",
    ]
    if "night_facts_required" in c:
        lines += [f"night facts the rules require: {c['night_facts_required']}, read: {c['night_facts_read']}",  # two lines: 80 columns
                  f"items whose viewpoint lacks one (knowledge_missing): {c['items_with_knowledge_missing']}"]
    lines.append(f"repairs: {s.repairs}, drops: {s.drops}, warnings: {s.warnings}")
    return Imported(out=s.out, lines=tuple(lines), lost=s.lost, report=s.out / REPORT_MD)


def _builtins() -> list[Importer]:
    return [Importer("werebench", "the WereBench release: games, speech items; VA, OI derived", _werebench, takes_corrections=True)]


IMPORTERS: Registry[Importer] = Registry("importer", "werealign.importers", _builtins, kind=Importer)
