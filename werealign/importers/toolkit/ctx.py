"""What every step of converting one game shares: where report entries go, and how a game is dropped."""

from __future__ import annotations

from dataclasses import dataclass

from werealign.importers.report import ImportReport


class GameDropped(Exception):
    """The game cannot be converted; the message is the reason for the report."""


@dataclass
class Ctx:
    """Where we are, for report entries."""

    report: ImportReport
    rel: str
    game_id: str

    def add(self, kind: str, code: str, field: str | None, what: str, why: str, item: str | None = None) -> None:
        self.report.add(kind, code, source_file=self.rel, game=self.game_id, item=item, field=field, what=what, why=why)  # type: ignore[arg-type]
