"""Where a command may write its output directory, and what `--overwrite` may delete.

Every command that writes a directory (import, derive, generate, release, review export, ...) goes
through here, so the rules are one:

- `--out` may not be, contain, or lie inside any of the command's inputs (real paths compared,
  symlinks resolved): replacing it would delete or corrupt what is being read.
- A non-empty `--out` is replaced only with `--overwrite`, and only when it is this command's own
  earlier output: it holds the marker file `.werealign-output.json` naming the command (written
  into every output), or the command recognises it by its manifest (`own=`). Anything else (the
  current folder, a home directory, another command's output) is one clear error, whatever the flags.
  An empty directory is reused.
- The output is built in a staging directory beside it and moved into place whole
  (werealign.files.staged_directory); a killed run's staging directory is cleaned by the next run.

A new command adopts it with one call:

    with output_directory(out, command="restyle", inputs=[dataset], overwrite=overwrite) as stage:
        write_dataset(stage, ...)

or, for a directory it fills in place and resumes (like `generate`), `claim_directory(...)` once
before writing anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from werealign.errors import UserError
from werealign.files import atomic_write_text, dumps, list_dir, make_parent, path_kind, staged_directory

MARKER = ".werealign-output.json"
FORMAT = "werealign-output/1"


def owner(folder: Path) -> str | None:
    """The command named by `folder`'s marker file, or None (no marker, or not one werealign wrote)."""
    marker = folder / MARKER
    if path_kind(marker) != "file":
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("command"), str):
        return None
    return data["command"]


def check_inputs(out: Path, inputs: Iterable[Path]) -> None:
    """Refuse an `out` that is, contains, or lies inside one of `inputs` (compared as real paths)."""
    real = out.resolve()
    for given in inputs:
        inp = Path(given).resolve()
        if real == inp or real in inp.parents:
            raise UserError(f"{out}: --out is the input {given} or contains it; write the output elsewhere")
        if inp in real.parents:
            raise UserError(f"{out}: --out is inside the input {given}; write the output elsewhere")


def check_replaceable(out: Path, command: str, overwrite: bool, own: Callable[[Path], bool] | None = None) -> None:
    """May `out` be (re)written by `command`? Missing or empty: yes. Non-empty: only with `overwrite`,
    and only when it is the command's own earlier output (marker, or `own(out)` for a manifest)."""
    kind = path_kind(out)
    if kind == "missing":
        return
    if kind != "directory":
        raise UserError(f"{out}: exists and is not a directory; --out needs a directory path")
    if not list_dir(out):
        return
    if owner(out) != command and not (own is not None and own(out)):
        raise UserError(f"{out}: not empty and not an output of `werealign {command}` (no {MARKER}); "
                        "nothing deleted; use another --out")
    if not overwrite:
        raise UserError(f"{out}: output directory exists and is not empty (use --overwrite to replace it)")


def _marker_text(command: str) -> str:
    return dumps({"format": FORMAT, "command": command})


@contextmanager
def output_directory(out: Path, *, command: str, inputs: Iterable[Path] = (), overwrite: bool = False,
                     in_place: bool = False) -> Iterator[Path]:
    """Stage the output of `command` (yielded), then move it to `out` whole, marked as the command's own.

    `in_place=True` rewrites an input directory itself (derive without --out): no input or ownership
    check, and the directory keeps the marker it had (an import updated in place is still an import).
    A command that works long before writing calls `check_inputs` and `check_replaceable` first as
    well, so that a refusal comes before the work; here they run again, under the staging lock.
    """
    kept = (out / MARKER).read_text(encoding="utf-8") if in_place and owner(out) is not None else None
    if not in_place:
        check_inputs(out, inputs)
    check = None if in_place else lambda _: check_replaceable(out, command, overwrite)
    with staged_directory(out, overwrite=True, check=check) as stage:
        yield stage
        marker = _marker_text(command) if not in_place else kept
        if marker is not None:
            atomic_write_text(stage / MARKER, marker)


def claim_directory(out: Path, *, command: str, inputs: Iterable[Path] = (), own: Callable[[Path], bool] | None = None) -> None:
    """Before a command fills `out` in place and resumes it on a rerun: refuse inputs and any non-empty
    folder that is not its own (marker or `own(out)`), then create `out`; it is marked unless the
    command's own manifest (`own`) marks it already."""
    check_inputs(out, inputs)
    check_replaceable(out, command, overwrite=True, own=own)
    make_parent(out / MARKER)
    if own is None and owner(out) != command:
        atomic_write_text(out / MARKER, _marker_text(command))
