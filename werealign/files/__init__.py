"""Reading and writing project files: clear errors on bad input, atomic writes, stable bytes.

Beside it in this package: keys given twice in one object (`duplicate_keys`), YAML read with line numbers
(`located_yaml`) and the guard every command's output directory goes through (`output_dir`)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
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


def path_kind(path: Path) -> str:
    """'file', 'directory', 'missing' or 'special' (a FIFO, socket or device), found without opening the path.

    A path that cannot even be looked at (a parent without search permission, a symlink loop) is a
    UserError naming it, never an OSError from deep inside a check.
    """
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror or e}") from None
    if stat.S_ISREG(mode):
        return "file"
    return "directory" if stat.S_ISDIR(mode) else "special"


def list_dir(folder: Path) -> list[str]:
    """The sorted entry names of `folder`; [] when there is no such folder.

    A folder that exists but cannot be listed is a UserError naming it: a glob would silently find
    nothing there, and whatever the folder holds would vanish from an import or a count.
    """
    try:
        return sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise UserError(f"{folder}: cannot read folder: {e.strerror or e}") from None


def require_file(path: Path, kind: str) -> None:
    """Refuse anything but a regular file, before opening it: opening a FIFO blocks until some writer
    comes (validate would hang), and a device may never end. `kind` ('JSON', 'SRT', ...) words the message."""
    found = path_kind(path)
    if found == "missing":
        raise UserError(f"{path}: file not found")
    if found == "directory":
        raise UserError(f"{path}: is a directory, expected a {kind} file")
    if found == "special":
        raise UserError(f"{path}: not a regular file (a FIFO, socket or device), expected a {kind} file")


def read_text(path: Path, kind: str, encoding: str = "utf-8") -> str:
    """A user's text file, or a UserError naming it; `kind` ('JSON', 'SRT', ...) words the message."""
    require_file(path, kind)
    try:
        return path.read_text(encoding=encoding)
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:  # permission denied, the file removed since it was looked at, ...
        raise UserError(f"{path}: cannot read: {e.strerror or e}") from None


class _NonStandardConstant(ValueError):
    """NaN, Infinity or -Infinity: Python's json accepts them, JSON (and every other reader) does not."""


def _refuse_constant(name: str) -> Any:
    raise _NonStandardConstant(name)


class _HugeFloat(ValueError):
    """A literal beyond the float range: Python would read it as Infinity, silently."""


def _finite_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _HugeFloat(literal[:20] + ("..." if len(literal) > 20 else ""))
    return value


# Strict UTF-8 decoding rejects raw surrogates, so a JSON text can only produce one through a
# \ud800-\udfff escape: looking for such an escape keeps the common path free of the walk below.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _lone_surrogate(obj: Any) -> str | None:
    """The first surrogate left in any string (key or value) of a parsed JSON value.

    json.loads joins a valid pair of escapes into one astral character, so any surrogate left is
    a lone one: a string that cannot be printed or written as UTF-8. Iterative, as the value may
    be nested as deeply as the parser allows.
    """
    stack = [obj]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if m := _SURROGATE.search(value):
                return m.group()
        elif isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None


def parse_json_text(text: str, path: Path, line: int | None = None) -> Any:
    """Parse one JSON document (a whole file, or line `line` of a JSONL file); every way it can be
    bad becomes a one-line UserError naming the file (and line), never a traceback."""
    where, what = (f"{path}:{line}", "invalid JSON line") if line is not None else (str(path), "invalid JSON")
    try:
        # Every float goes through _finite_float: a Python call per number costs far less than any scan of
        # the text for a literal that might overflow (a regex over the release's games took 5x json.loads).
        obj = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        at = f"{e.colno}" if line is not None else f"{e.lineno}:{e.colno}"
        # An error at the very end: the text stops before the value is complete (a copy or write cut short).
        # ("Unterminated string": no closing quote before the end of the text.)
        cut = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
        early = "; it ends early (cut off?)" if cut else ""
        raise UserError(f"{where}:{at}: {what}: {e.msg}{early}") from None
    except _NonStandardConstant as e:
        raise UserError(f"{where}: {what}: {e} is not a JSON value (JSON has no NaN or Infinity); write null or a number") from None
    except _HugeFloat as e:
        raise UserError(f"{where}: {what}: the number {e} is too large (it would read as Infinity)") from None
    except RecursionError:  # '[[[[...' deeper than the parser's recursion limit
        raise UserError(f"{where}: {what}: arrays or objects nested too deeply") from None
    except ValueError:  # Python refuses to convert an integer literal of more than sys.get_int_max_str_digits() digits
        raise UserError(f"{where}: {what}: a number has more than {sys.get_int_max_str_digits()} digits") from None
    if _SURROGATE_ESCAPE.search(text) and (lone := _lone_surrogate(obj)) is not None:
        raise UserError(f"{where}: {what}: lone UTF-16 surrogate escape \\u{ord(lone):04x} (half of a character); "
                        "escape the whole pair or write the character itself")
    return obj


def read_json(path: Path, warnings: list[str] | None = None, shown: str | None = None) -> Any:
    """A JSON file, parsed. With `warnings` (configs and game logs), a key given twice in one object
    adds a warning naming both lines, or is a UserError when the values differ in type; both name
    the file as `shown` (default: `path`)."""
    text = read_text(path, "JSON")
    if not text or text.isspace():  # isspace() stops at the first other character: no copy of the text
        raise UserError(f"{path}: empty file, expected JSON")
    value = parse_json_text(text, path)
    if warnings is not None:
        from werealign.files.duplicate_keys import json_duplicates

        warnings += json_duplicates(text, Path(shown) if shown is not None else path)
    return value


def read_jsonl_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, text) of every non-blank line, unparsed: a caller can go on past a bad line."""
    # Read whole (item files are small) so a directory, a permission problem or a binary file is
    # reported by read_text like every other input, never as an OSError half-way through the rows.
    # split("\n"), not splitlines(): JSON strings may hold U+2028 or U+0085 raw (ensure_ascii=False writes them so).
    lines = enumerate(read_text(path, "JSONL").split("\n"), 1)
    return [(lineno, line) for lineno, line in lines if line.strip()]


def read_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """Yield (line number, object) for every non-blank line; the first bad line is a UserError."""
    for lineno, line in read_jsonl_lines(path):
        yield lineno, parse_json_text(line, path, lineno)


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


STAGING = ".staging."  # beside --out: .<name>.staging.<random>/ holds new/ (and old/ while swapping)


def _lock(folder: Path) -> int | None:
    """An exclusive advisory lock on a folder, or None when another live process holds it. The OS drops
    it when the holder dies however it dies, so a lock never outlives a killed run. Not POSIX: no locks."""
    try:
        import fcntl
    except ImportError:
        return os.open(folder, os.O_RDONLY)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _clear_stale(final: Path, mine: Path) -> None:
    """Remove the staging folders a killed run left beside `final`; refuse when a live run is writing it.

    A run killed between moving the old output aside and the new one in leaves `final` missing and
    its old content in old/: that is put back, so a kill never loses the previous output.
    """
    prefixes = (f".{final.name}{STAGING}", f".{final.name}.old.")  # .old.: what runs before the lock left
    for name in list_dir(final.parent):
        left = final.parent / name
        if left == mine or not name.startswith(prefixes) or left.is_symlink() or not left.is_dir():
            continue
        fd = _lock(left)
        if fd is None:
            raise UserError(f"{final}: another werealign command is writing this output right now "
                            f"({left.name}); wait for it to finish or use another --out")
        try:
            old = left / "old" if name.startswith(prefixes[0]) else left
            if old.is_dir() and not final.exists():
                old.rename(final)
            shutil.rmtree(left, ignore_errors=True)
        finally:
            os.close(fd)


@contextmanager
def staged_directory(final: Path, overwrite: bool = False, check: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """Build a whole output directory beside `final`, then move it into place only on success.

    A failure leaves no half-written output: the staging directory is removed and `final` keeps
    whatever it held before. A killed run's staging directory is removed (its lock is gone) by the
    next run writing `final`. `check(final)`, when given, decides under the lock whether `final` may
    be replaced (werealign.files.output_dir); otherwise a non-empty `final` needs `overwrite`.
    """
    final = final.resolve()
    if final.exists() and not final.is_dir():
        raise UserError(f"{final}: exists and is not a directory; --out needs a directory path")
    make_parent(final)
    try:
        work = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}{STAGING}"))
    except OSError as e:
        raise _output_error(final, e) from None
    fd = _lock(work)
    try:
        _clear_stale(final, work)
        if check is not None:
            check(final)
        elif final.exists() and not overwrite and any(final.iterdir()):
            raise UserError(f"{final}: output directory exists and is not empty (use --overwrite to replace it)")
        stage = work / "new"
        stage.mkdir()  # the usual umask mode (shared data), not mkdtemp's 0700
        yield stage
        try:
            if final.exists():
                final.rename(work / "old")
            stage.rename(final)
        except OSError as e:
            if (work / "old").is_dir() and not final.exists():
                (work / "old").rename(final)  # the previous output, back in place
            raise _output_error(final, e) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if fd is not None:
            os.close(fd)


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a regular file, or a UserError naming it (missing, a directory, a FIFO, no permission)."""
    require_file(path, "regular")
    h = hashlib.sha256()
    try:
        with path.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror or e}") from None
    return h.hexdigest()
