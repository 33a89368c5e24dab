"""YAML read with a line number for every field path, so errors name `file:line: field`.

PyYAML's composer gives every node a start mark; the walk below keeps a map from field path to line and
refuses a key given twice in one mapping, which the YAML loader would otherwise resolve silently (last one
wins). Annotator configs and eval suite files are read through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.files import read_text

Path_ = tuple[str, ...]


@dataclass
class ConfigSource:
    """Where a config came from, to name `file:line: field` in errors (line only for YAML)."""

    file: Path
    lines: dict[Path_, int] = field(default_factory=dict)

    def where(self, *path: Any) -> str:
        key = tuple(str(p) for p in path)
        dotted = ".".join(key) or "(root)"
        # The deepest ancestor with a known line: a missing field points at its parent mapping.
        for n in range(len(key), -1, -1):
            if key[:n] in self.lines:
                return f"{self.file}:{self.lines[key[:n]]}: {dotted}"
        return f"{self.file}: {dotted}"

    def error(self, path: tuple, message: str) -> UserError:
        return UserError(f"{self.where(*path)}: {message}")


def _line_map(node: Any, source: ConfigSource, path: Path_ = ()) -> None:
    """Fill `source.lines` from the composed YAML tree; a key given twice in one mapping is an error.

    The loader would keep the last value silently (two entries for one speaker label, a seat's role
    given twice), so duplicates are found here, on the nodes. Keys compare by their text: `3` and
    `'3'` are one key, as both become seat 3.
    """
    import yaml

    source.lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for key, value in node.value:
            name = str(key.value)
            child = path + (name,)
            line = key.start_mark.line + 1  # the key's line reads best in an error
            if name in first:
                source.lines[child] = line
                raise source.error(child, f"duplicate key {name!r} (first at line {first[name]})")
            first[name] = line
            _line_map(value, source, child)
            source.lines[child] = line
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _line_map(value, source, path + (str(i),))


def read_yaml(path: Path) -> tuple[Any, ConfigSource]:
    import yaml

    text = read_text(path, "YAML")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise UserError(f"{path}{line}: invalid YAML: {problem}") from None
    source = ConfigSource(path)
    if node is not None:
        _line_map(node, source)
    return data, source
