"""The import report: what was converted, repaired, dropped, and what looked wrong but was kept.

Every entry names the source file, the game and/or item key, the field, what was found and
what was done about it, so anyone can trace a converted record back to the release.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Literal

from werealign.files import dumps

Kind = Literal["converted", "repaired", "dropped", "warning"]
KINDS: tuple[Kind, ...] = ("converted", "repaired", "dropped", "warning")


@dataclass(frozen=True)
class Entry:
    code: str  # machine-readable kind of finding, e.g. "role_label_typo"
    source_file: str  # path relative to the release root
    game: str | None  # our game id (None for an item whose game is unknown)
    item: str | None  # original item key, e.g. "Role Inference#12", or a vote key
    field: str | None  # source field path, e.g. "metadata.real_role.说话人 3"
    what: str  # what was found / converted
    why: str  # what was done and why (for converted: where it went)


@dataclass
class ImportReport:
    source: str
    entries: dict[str, list[Entry]] = field(default_factory=lambda: {k: [] for k in KINDS})
    counts: dict[str, int] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)  # how the importer decided, for the human summary

    def add(
        self,
        kind: Kind,
        code: str,
        *,
        source_file: str,
        what: str,
        why: str,
        game: str | None = None,
        item: str | None = None,
        field: str | None = None,
    ) -> None:
        self.entries[kind].append(Entry(code, source_file, game, item, field, what, why))

    def add_unknown_fields(self, fields: list[tuple[str, str]], *, source_file: str, game: str | None = None, item: str | None = None) -> None:
        """One warning per (field path, key) the known source format lacks: kept out of the output, never silently."""
        for path, key in fields:
            self.add("warning", "unknown_field", source_file=source_file, game=game, item=item, field=path, what=f"field '{key}' is not part of the known release format", why="not imported")

    def count(self, kind: Kind, code: str | None = None) -> int:
        return sum(1 for e in self.entries[kind] if code is None or e.code == code)

    def to_json(self) -> str:
        return dumps(
            {
                "source": self.source,
                "counts": self.counts,
                "rules": self.rules,
                **{kind: [asdict(e) for e in self.entries[kind]] for kind in KINDS},
            }
        )

    def to_markdown(self) -> str:
        c = self.counts
        lines = [
            "# WereBench import report",
            "",
            f"Source: {self.source}. Machine-readable details: `import_report.json`.",
            "",
            "| record | in source | converted | dropped |",
            "| --- | ---: | ---: | ---: |",
            f"| games | {c.get('games_in_source', 0)} | {c.get('games_converted', 0)} | {c.get('games_dropped', 0)} |",
            f"| speech items | {c.get('speech_in_source', 0)} | {c.get('speech_converted', 0)} | {c.get('speech_dropped', 0)} |",
            f"| MVP votes | {c.get('mvp_votes_in_source', 0)} | {c.get('vote_items', 0)} VA items | {c.get('vote_items_dropped', 0)} |",
            f"| OI items (derived) | - | {c.get('opponent_items', 0)} | {c.get('opponent_items_skipped', 0)} skipped |",
            "",
            f"Per-segment text attached to {c.get('turns_with_segments', 0)} of {c.get('turns', 0)} turns. "
            f"Speech items without an explanation (stored as null): {c.get('speech_without_explanation', 0)}.",
            "",
            f"Repairs: {len(self.entries['repaired'])}. Drops: {len(self.entries['dropped'])}. "
            f"Warnings (kept as is): {len(self.entries['warning'])}.",
            "",
        ]
        if self.rules:
            lines += ["## How this import decides", ""] + [f"- {rule}" for rule in self.rules] + [""]
        for kind, title in (("repaired", "Repairs"), ("dropped", "Dropped"), ("warning", "Warnings (kept as is)")):
            entries = self.entries[kind]
            lines += [f"## {title}", ""]
            if not entries:
                lines += ["None.", ""]
                continue
            by_code = Counter(e.code for e in entries)
            lines += ["| code | count |", "| --- | ---: |"]
            lines += [f"| {code} | {n} |" for code, n in sorted(by_code.items())]
            lines.append("")
            for code in sorted(by_code):
                group = [e for e in entries if e.code == code]
                lines.append(f"### {code} ({len(group)})")
                lines.append("")
                for e in group[:20]:
                    where = ", ".join(x for x in (e.source_file, e.game, e.item, e.field) if x)
                    lines.append(f"- {where}: {_one_line(e.what)} -> {_one_line(e.why)}")
                if len(group) > 20:
                    lines.append(f"- ... and {len(group) - 20} more (see import_report.json)")
                lines.append("")
        return "\n".join(lines).rstrip() + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
