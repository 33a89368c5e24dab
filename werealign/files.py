"""Reading and writing project files: clear errors on bad input, atomic writes, stable bytes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from werealign.errors import UserError


def dumps(obj: Any) -> str:
    """The one JSON encoding werealign writes: stable key order, UTF-8 text, 2-space indent."""
    if isinstance(obj, BaseModel):
        obj = obj.model_dump(mode="json")
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


def dumps_line(obj: Any) -> str:
    if isinstance(obj, BaseModel):
        obj = obj.model_dump(mode="json")
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_text(path: Path, kind: str, encoding: str = "utf-8") -> str:
    """A user's text file, or a UserError naming it; `kind` ('JSON', 'SRT', ...) words the message."""
    try:
        return path.read_text(encoding=encoding)
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, expected a {kind} file") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:  # permission denied, a parent that is a file, ...
        raise UserError(f"{path}: cannot read: {e.strerror or e}") from None


def read_json(path: Path) -> Any:
    text = read_text(path, "JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UserError(f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None


def read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """Yield (line number, object) for every non-blank line."""
    # Read whole (item files are small) so a directory, a permission problem or a binary file is
    # reported by read_text like every other input, never as an OSError half-way through the rows.
    # split("\n"), not splitlines(): JSON strings may hold U+2028 or U+0085 raw (ensure_ascii=False writes them so).
    for lineno, line in enumerate(read_text(path, "JSONL").split("\n"), 1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as e:
            raise UserError(f"{path}:{lineno}:{e.colno}: invalid JSON line: {e.msg}") from None


def describe_validation_error(err: ValidationError, limit: int = 3) -> str:
    """'field.path: message; ...' for a pydantic error, short enough for one line."""
    parts = []
    for e in err.errors()[:limit]:
        loc = ".".join(str(p) for p in e["loc"]) or "(root)"
        parts.append(f"{loc}: {e['msg']}")
    more = len(err.errors()) - limit
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def parse_model(model: type[BaseModel], data: Any, where: str):
    """Validate data against a model, turning a failure into a UserError that names `where` and the field."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise UserError(f"{where}: {describe_validation_error(e)}") from None


def _umask() -> int:
    mask = os.umask(0o022)  # the only portable way to read it is to set it and put it back
    os.umask(mask)
    return mask


def _output_error(path: Path, e: OSError) -> UserError:
    """An OSError on an output path as one line naming it (a parent that is a file, no permission, ...)."""
    where = e.filename if isinstance(e.filename, str) and e.filename != str(path) else None
    detail = f"{e.strerror or e}" + (f" ({where})" if where else "")
    return UserError(f"{path}: cannot write: {detail}")


def make_parent(path: Path) -> None:
    """Create the directories an output path needs, or a UserError naming it."""
    blocker = next((p for p in reversed(path.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserError(f"{path}: cannot write: {blocker} is a file, not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _output_error(path, e) from None


def atomic_write_text(path: Path, text: str) -> None:
    """Write via a temporary file in the same directory and rename: readers never see half a file."""
    if path.is_dir():
        raise UserError(f"{path}: is a directory; --out needs a file path")
    make_parent(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise _output_error(path, e) from None
    try:
        # mkstemp creates the file 0600; outputs are shared data, so give them the usual umask mode.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise _output_error(path, e) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: Path, obj: Any) -> None:
    atomic_write_text(path, dumps(obj))


def write_jsonl(path: Path, rows: Iterable[Any]) -> None:
    atomic_write_text(path, "".join(dumps_line(r) for r in rows))


@contextmanager
def staged_directory(final: Path, overwrite: bool = False) -> Iterator[Path]:
    """Build a whole output directory beside `final`, then move it into place only on success.

    A failure leaves no half-written output: the staging directory is removed and `final`
    keeps whatever it held before.
    """
    final = final.resolve()
    if final.exists() and not final.is_dir():
        raise UserError(f"{final}: exists and is not a directory; --out needs a directory path")
    if final.exists() and not overwrite and any(final.iterdir()):
        raise UserError(f"{final}: output directory exists and is not empty (use --overwrite to replace it)")
    make_parent(final)
    try:
        stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.staging."))
        stage.chmod(0o777 & ~_umask())  # mkdtemp makes it 0700; the result is shared data
    except OSError as e:
        raise _output_error(final, e) from None
    try:
        yield stage
        if final.exists():
            backup = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old."))
            backup.rmdir()
            final.rename(backup)
            stage.rename(final)
            shutil.rmtree(backup)
        else:
            stage.rename(final)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
