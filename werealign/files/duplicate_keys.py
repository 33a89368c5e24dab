"""A key given twice in one mapping of a config or log (JSON, or a Python literal).

JSON and Python both keep the last value silently, so a config with a copied-and-edited key
reads as something nobody wrote. Where the two values have the same type, the later one is
used and a warning names both lines; where the types differ (one copy is a dict, the other a
string) the structure itself is in doubt, so it is an error naming both lines.
"""

from __future__ import annotations

import json
from json.decoder import scanstring
from pathlib import Path
from typing import Any

from werealign.errors import UserError


def kind_of(value: Any) -> str:
    """The JSON type of a value: what "the two values differ in type" compares."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, dict) else "array"


def judge(path: Path, where: str, key: Any, first: tuple[int, str], second: tuple[int, str]) -> str:
    """The warning for key `key` at `where` given on two lines as (line, kind); an error if the kinds differ."""
    at = f" in {where}" if where else ""
    (l1, k1), (l2, k2) = first, second
    if k1 != k2:
        a = lambda k: ("an " if k[0] in "aeiou" else "a ") + k  # noqa: E731
        raise UserError(f"{path}:{l2}: key {key!r}{at} given twice, on lines {l1} and {l2}, as {a(k1)} and "
                        f"{a(k2)}; keep one")
    return f"{path}:{l2}: key {key!r}{at} given twice, on lines {l1} and {l2}; the later value is used"


_KIND = {"{": "object", "[": "array", '"': "string", "t": "boolean", "f": "boolean", "n": "null"}


def _has_duplicates(text: str) -> bool:
    found = False

    def pairs(items: list[tuple[str, Any]]) -> dict:
        nonlocal found
        d = dict(items)
        found = found or len(d) != len(items)
        return d

    json.loads(text, object_pairs_hook=pairs)
    return found


def json_duplicates(text: str, path: Path) -> list[str]:
    """Warnings for every key given twice in one object of a JSON text that parses; a UserError where
    the two values differ in type. Cheap when there are none: the text is only scanned for lines then."""
    if not _has_duplicates(text):
        return []
    warnings: list[str] = []
    # One frame per open container: (an object's keys -> (line, kind), or None for an array; its path).
    stack: list[tuple[dict[str, tuple[int, str]] | None, str]] = []
    key: tuple[str, int] | None = None
    expect_key = False
    i, line = 0, 1
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "," and stack and stack[-1][0] is not None:
            expect_key = True
        elif c in "}]":
            stack.pop()
            expect_key = False
        elif c == '"' and expect_key:
            name, i = scanstring(text, i + 1)
            key, expect_key = (name, line), False
            continue
        elif c not in " \t\r:,":  # a value starts
            seen, where = stack[-1] if stack else (None, "")
            inner = "" if not stack else f"{where}[]" if seen is None else f"{where}.{key[0]}".lstrip(".") if key else where
            if key is not None and seen is not None:
                kind = _KIND.get(c, "number")
                if key[0] in seen:
                    warnings.append(judge(path, where, key[0], seen[key[0]], (key[1], kind)))
                seen[key[0]] = (key[1], kind)
            key = None
            if c in "{[":
                stack.append(({} if c == "{" else None, inner))
                expect_key = c == "{"
            elif c == '"':
                i = scanstring(text, i + 1)[1]
                continue
            else:  # a number, true, false or null: up to the next delimiter
                while i + 1 < len(text) and text[i + 1] not in ",]} \t\r\n":
                    i += 1
        i += 1
    return warnings
