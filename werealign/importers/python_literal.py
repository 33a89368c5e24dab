"""Read a value assigned in a Python source file (`NAME = {...}`) as data, never by running the file.

Some releases publish their configuration as Python: a dict literal with comments, sometimes
`OrderedDict([(k, v), ...])`. Executing a downloaded file would run whatever it contains, so the
source is parsed with `ast` and only literal nodes are turned into values: strings, numbers,
booleans, None, dicts, lists, tuples, sets, and the calls `OrderedDict(...)` / `dict(...)`
recognised by their shape. Anything else (a name, an expression, another call) is an error naming
the file, the line and the key path.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

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


def _value(node: ast.expr, where: str) -> Any:
    if isinstance(node, ast.Constant) and not isinstance(node.value, (bytes, complex)) and node.value is not Ellipsis:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(v, f"{where}[{i}]") for i, v in enumerate(node.elts)]
    if isinstance(node, ast.Dict):
        out: dict = {}
        for key, val in zip(node.keys, node.values):
            if key is None:
                raise _NotLiteral(val, where, "'**' unpacking is not a literal")
            k = _value(key, where)
            if isinstance(k, (dict, list)):
                raise _NotLiteral(key, where, "a dict key must be a string or a number")
            out[k] = _value(val, f"{where}.{k}" if where else str(k))
        return out
    if isinstance(node, ast.Call) and _call_name(node.func) in _MAPPING_CALLS:
        return _mapping_call(node, where)
    raise _NotLiteral(node, where, f"{_short(node)} is not a literal")


def _mapping_call(node: ast.Call, where: str) -> dict:
    """`OrderedDict([(k, v), ...])`, `OrderedDict()`, `dict(a=1)`: the pairs, in order."""
    name = _call_name(node.func)
    if len(node.args) > 1 or any(kw.arg is None for kw in node.keywords):
        raise _NotLiteral(node, where, f"{name}(...) with more than one argument is not read")
    out: dict = {}
    if node.args:
        pairs = _value(node.args[0], where)
        if isinstance(pairs, dict):
            out.update(pairs)
        elif isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 for p in pairs):
            for k, v in pairs:
                if isinstance(k, (dict, list)):
                    raise _NotLiteral(node, where, f"{name}(...): a key must be a string or a number")
                out[k] = v
        else:
            raise _NotLiteral(node.args[0], where, f"{name}(...) expects a list of (key, value) pairs")
    for kw in node.keywords:
        out[kw.arg] = _value(kw.value, f"{where}.{kw.arg}" if where else kw.arg)
    return out


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return repr(text if len(text) <= 40 else text[:37] + "...")


def literal_assignment(text: str, name: str, path: Path) -> Any:
    """The value of the last top-level `name = <literal>` in `text` (Python source), as plain data."""
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
    try:
        return _value(found, "")
    except _NotLiteral as e:
        at = f" at {e.where}" if e.where else ""
        raise UserError(f"{path}:{e.node.lineno}: {name}{at}: {e.why} (the file is read as data, never run)") from None


def read_literal_assignment(path: Path, name: str) -> Any:
    return literal_assignment(read_text(path, "Python"), name, path)
