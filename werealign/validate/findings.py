"""A validation finding and the sink checks report into.

Every check reports through a `Sink` bound to one file (and line, game or item), so a check
only says *what* is wrong and *where inside the object*; the sink adds the rest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Literal

from werealign.errors import one_line
from werealign.tasks.checks import path  # noqa: F401 - one JSON-path joiner for validate and the tasks' hooks

Severity = Literal["error", "warning"]

@dataclass(frozen=True)
class Finding:
    file: str
    field: str  # dotted JSON path inside the object, e.g. "utterances[3].speaker"; "" for the whole file
    severity: Severity
    code: str  # stable id of the check, e.g. "cutoff-outside-phase"
    message: str
    line: int | None = None  # line of a .jsonl file
    game_id: str | None = None
    item_id: str | None = None

    @property
    def subject(self) -> str | None:
        """The id a person looks for: the item when there is one, else the game."""
        return self.item_id or self.game_id

    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file

    def to_text(self) -> str:
        line = f"{self.location()}: {self.subject or '-'}: {self.field or '-'}: {self.severity}: {self.message} [{self.code}]"
        return one_line(line)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Sink:
    """Collects findings for one file (and optionally one line / game / item)."""

    file: str
    line: int | None = None
    game_id: str | None = None
    item_id: str | None = None
    findings: list[Finding] = field(default_factory=list)

    def error(self, code: str, field_path: str, message: str) -> None:
        self._add("error", code, field_path, message)

    def warning(self, code: str, field_path: str, message: str) -> None:
        self._add("warning", code, field_path, message)

    def _add(self, severity: Severity, code: str, field_path: str, message: str) -> None:
        self.findings.append(
            Finding(
                file=self.file, field=field_path, severity=severity, code=code, message=message,
                line=self.line, game_id=self.game_id, item_id=self.item_id,
            )
        )

    def child(self, *, line: int | None = None, game_id: str | None = None, item_id: str | None = None) -> Sink:
        """A sink for one object of this file that appends into the same list."""
        return Sink(
            file=self.file,
            line=line if line is not None else self.line,
            game_id=game_id if game_id is not None else self.game_id,
            item_id=item_id if item_id is not None else self.item_id,
            findings=self.findings,
        )

    @property
    def has_errors(self) -> bool:
        return any(f.severity == "error" for f in self.findings)


def count(findings: list[Finding]) -> tuple[int, int]:
    """(errors, warnings)."""
    c = Counter(f.severity for f in findings)
    return c["error"], c["warning"]


def collapse(findings: list[Finding], limit: int) -> list[Finding]:
    """Keep the first `limit` findings of each (file, game, code, severity); replace the rest by one note.

    Real annotation repeats the same slip hundreds of times in one game (every turn a few
    seconds outside its phase); a person needs the first few and the count, not a flood.
    The note takes the place of the first hidden finding, so the order stays stable.
    """
    if limit <= 0:
        return list(findings)

    def key(f: Finding) -> tuple:
        return (f.file, f.game_id, f.code, f.severity)

    totals = Counter(key(f) for f in findings)
    seen: Counter[tuple] = Counter()
    out: list[Finding] = []
    for f in findings:
        k = key(f)
        seen[k] += 1
        if seen[k] <= limit:
            out.append(f)
        elif seen[k] == limit + 1:
            out.append(Finding(
                file=f.file, field="", severity=f.severity, code=f.code, game_id=f.game_id,
                message=f"{totals[k] - limit} more like this not shown (use --all to list them)",
            ))
    return out
