"""Read a value assigned in a Python source file (`NAME = {...}`) as data, never by running the file.

Some releases publish their configuration as Python: a dict literal with comments, sometimes
`OrderedDict([(k, v), ...])`. Executing a downloaded file would run whatever it contains, so the
source is parsed with `ast` and only literal nodes are turned into values: strings, numbers,
booleans, None, dicts, lists, tuples, sets, and the calls `OrderedDict(...)` / `dict(...)`
recognised by their shape. Anything else (a name, an expression, another call) is an error naming
the file, the line and the key path. A key given twice in one mapping is a warning naming both
lines, or an error when the two values differ in type (werealign.files.duplicate_keys).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from werealign.files.duplicate_keys import judge, kind_of
from werealign.errors import UserError
from werealign.files import read_text

# Calls that build a mapping from literal pairs; `collections.OrderedDict` is matched by its last name.
_MAPPING_CALLS = {"OrderedDict", "dict"}


def _call_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


class _NotLiteral(Exception):
    def __init__(self, node: ast.AST, where: str, why: str):
        super().__init__(why)
        self.node, self.where, self.why = node, where, why


# A key given twice in one mapping: (where, key, (line, kind) of the first, (line, kind) of the second).
Duplicate = tuple[str, Any, tuple[int, str], tuple[int, str]]


def _put(out: dict, lines: dict, k: Any, v: Any, line: int, where: str, dups: list[Duplicate]) -> None:
    if k in out:
        dups.append((where, k, lines[k], (line, kind_of(v))))
    out[k], lines[k] = v, (line, kind_of(v))


def _value(node: ast.expr, where: str, dups: list[Duplicate]) -> Any:
    if isinstance(node, ast.Constant) and not isinstance(node.value, (bytes, complex)) and node.value is not Ellipsis:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(v, f"{where}[{i}]", dups) for i, v in enumerate(node.elts)]
    if isinstance(node, ast.Dict):
        out: dict = {}
        lines: dict = {}
        for key, val in zip(node.keys, node.values):
            if key is None:
                raise _NotLiteral(val, where, "'**' unpacking is not a literal")
            k = _value(key, where, dups)
            if isinstance(k, (dict, list)):
                raise _NotLiteral(key, where, "a dict key must be a string or a number")
            _put(out, lines, k, _value(val, f"{where}.{k}" if where else str(k), dups), key.lineno, where, dups)
        return out
    if isinstance(node, ast.Call) and _call_name(node.func) in _MAPPING_CALLS:
        return _mapping_call(node, where, dups)
    raise _NotLiteral(node, where, f"{_short(node)} is not a literal")


def _mapping_call(node: ast.Call, where: str, dups: list[Duplicate]) -> dict:
    """`OrderedDict([(k, v), ...])`, `OrderedDict()`, `dict(a=1)`: the pairs, in order."""
    name = _call_name(node.func)
    if len(node.args) > 1 or any(kw.arg is None for kw in node.keywords):
        raise _NotLiteral(node, where, f"{name}(...) with more than one argument is not read")
    out: dict = {}
    lines: dict = {}
    if node.args:
        arg = node.args[0]
        pairs = _value(arg, where, dups)
        if isinstance(pairs, dict):
            out.update(pairs)
            lines.update({k: (arg.lineno, kind_of(v)) for k, v in pairs.items()})
        elif isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 for p in pairs):
            elts = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg] * len(pairs)
            for (k, v), elt in zip(pairs, elts):
                if isinstance(k, (dict, list)):
                    raise _NotLiteral(node, where, f"{name}(...): a key must be a string or a number")
                _put(out, lines, k, v, elt.lineno, where, dups)
        else:
            raise _NotLiteral(node.args[0], where, f"{name}(...) expects a list of (key, value) pairs")
    for kw in node.keywords:
        _put(out, lines, kw.arg, _value(kw.value, f"{where}.{kw.arg}" if where else kw.arg, dups), kw.value.lineno, where, dups)
    return out


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def literal_assignment(text: str, name: str, path: Path, warnings: list[str] | None = None) -> Any:
    """The value of the last top-level `name = <literal>` in `text` (Python source), as plain data.

    A key given twice in one mapping adds a warning to `warnings` (naming both lines), or is a
    UserError when the two values differ in type."""
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as e:
        raise UserError(f"{path}:{e.lineno}: not valid Python source: {e.msg}") from None
    except ValueError as e:  # a NUL byte in the source
        raise UserError(f"{path}: not valid Python source: {e}") from None
    found = None
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and stmt.value is not None:
            found = stmt.value  # like Python, a later assignment wins
    if found is None:
        raise UserError(f"{path}: no top-level `{name} = ...` assignment")
    dups: list[Duplicate] = []
    try:
        value = _value(found, "", dups)
    except _NotLiteral as e:
        at = f" at {e.where}" if e.where else ""
        raise UserError(f"{path}:{e.node.lineno}: {name}{at}: {e.why} (the file is read as data, never run)") from None
    said = [judge(path, f"{name}{'.' + where if where else ''}", key, first, second) for where, key, first, second in dups]
    if warnings is not None:
        warnings += said
    return value


def read_literal_assignment(path: Path, name: str, warnings: list[str] | None = None) -> Any:
    return literal_assignment(read_text(path, "Python"), name, path, warnings)
