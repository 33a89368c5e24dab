"""Validate one file: a game (.json), an items file or an OSR rewrites file (.jsonl).

Reading problems (invalid JSON, not UTF-8) become findings, not exceptions, so one broken file
does not hide the findings of every other file in a dataset.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.files import parse_json_text, path_kind, read_json, read_jsonl_lines
from werealign.schema import GameLog, OsrRewrite
from werealign.tasks import TASKS
from werealign.validate.findings import Sink
from werealign.validate.game_checks import check_game
from werealign.validate.index import GameIndex
from werealign.validate.item_checks import Item, check_duplicate_items, check_item, check_item_refs, check_osr
from werealign.validate.schema_checks import check_schema

def item_file_names() -> str:
    """The item files' names, for messages: 'speech.jsonl, vote.jsonl or opponent.jsonl'."""
    names = [f"{kind}.jsonl" for kind in TASKS]  # the item kinds are the registered tasks
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _unreadable(err: UserError, p: Path, out: Sink) -> None:
    """Turn a read error of `werealign.files` into a finding, keeping its line and column."""
    msg = str(err)
    prefix = str(p)
    if msg.startswith(prefix):
        msg = msg[len(prefix):]
    m = re.match(r"^:(\d+)(?::(\d+))?: (.*)$", msg)  # file:line:column or file:line (a JSONL line)
    if m:
        column = f" (column {m.group(2)})" if m.group(2) else ""  # 'Unterminated string starting at' needs it
        out.child(line=int(m.group(1))).error("invalid-json", "", m.group(3) + column)
    else:
        out.error("invalid-json", "", msg.lstrip(": "))


def load_json(p: Path, out: Sink) -> tuple[bool, Any]:
    duplicated: list[str] = []  # a key given twice (werealign.files.duplicate_keys): 'file:line: message'
    try:
        value = read_json(p, duplicated)
    except UserError as e:  # read_json reports permissions, binary and directories as UserError too
        _unreadable(e, p, out)
        return False, None
    for warning in duplicated:
        line, _, msg = warning[len(str(p)) + 1:].partition(": ")
        out.child(line=int(line)).warning("duplicate-key", "", msg)
    return True, value


def load_jsonl(p: Path, out: Sink) -> tuple[list[tuple[int, Any]], int | None]:
    """The readable lines as (line number, object), every unreadable line reported, and the number
    of non-blank lines (None when the file itself could not be read).

    A bad line does not stop the reading: the lines after it get their own checks, and the line
    count (one row a line) stays true for the manifest's counts.
    """
    try:
        lines = read_jsonl_lines(p)
    except UserError as e:  # read_jsonl_lines turns unreadable files (binary, permissions, ...) into UserError
        _unreadable(e, p, out)
        return [], None
    rows: list[tuple[int, Any]] = []
    for lineno, text in lines:
        try:
            rows.append((lineno, parse_json_text(text, p, lineno)))
        except UserError as e:
            _unreadable(e, p, out)
    return rows, len(lines)


def kind_of(p: Path) -> str:
    """path_kind, or 'unreadable' for a path that cannot even be looked at: reading it will say why."""
    try:
        return path_kind(p)
    except UserError:
        return "unreadable"


# --------------------------------------------------------------------------- games


def check_game_object(obj: Any, out: Sink) -> GameIndex | None:
    """Schema, then semantics; the index is returned only for a game that passed the schema."""
    if isinstance(obj, dict) and isinstance(obj.get("game_id"), str):
        out.game_id = obj["game_id"]
    if isinstance(obj, dict) and not {"game_id", "schema_version"} & obj.keys():
        # Another format altogether (e.g. a release's own game log): one clear line, not a wall of schema errors.
        keys = ", ".join(sorted(obj)[:6]) + (", ..." if len(obj) > 6 else "")
        out.error("not-a-game", "", f"not a werealign game log (no game_id or schema_version; top-level fields: {keys or 'none'}); "
                  "convert a release with `werealign import`")
        return None
    game = check_schema("game", obj, out)
    if game is None:
        return None
    return check_game(game, out)


def check_game_file(p: Path, display: str, *, in_dataset: bool) -> tuple[Sink, GameIndex | None]:
    out = Sink(file=display)
    ok, obj = load_json(p, out)
    if not ok:
        return out, None
    idx = check_game_object(obj, out)
    if idx is not None and idx.game.game_id != p.stem:
        msg = f"game_id {idx.game.game_id!r} does not match the file name {p.name}; name the file <game_id>.json"
        # In a dataset the file name is how items find their game; alone it is only untidy.
        (out.error if in_dataset else out.warning)("game-id-filename", "game_id", msg)
    return out, idx


@dataclass
class GameStore:
    """Games that items and rewrites refer to, loaded from a games/ directory on demand.

    A game that fails its own checks is 'broken': references into it are not checked (its
    file's findings say why), and standalone runs say so once per game.
    """

    games_dir: Path | None
    report_broken: bool = True
    cache: dict[str, GameIndex | None] = field(default_factory=dict)  # None: exists but broken

    def lookup(self, game_id: str) -> tuple[str, GameIndex | None]:
        if game_id not in self.cache:
            if self.games_dir is None or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", game_id):
                return "missing", None
            p = self.games_dir / f"{game_id}.json"
            if kind_of(p) == "missing":  # a directory or an unreadable file is there: check_game_file reports it
                return "missing", None
            _, idx = check_game_file(p, str(p), in_dataset=True)
            self.cache[game_id] = idx
        idx = self.cache[game_id]
        return ("ok" if idx is not None else "broken"), idx


# --------------------------------------------------------------------------- items and rewrites


def detect_jsonl_kind(p: Path, rows: list[tuple[int, Any]]) -> str | None:
    """A task name or 'osr', from the file's place or name, else from its first object (the first task it looks like)."""
    if p.parent.name == "osr":
        return "osr"
    if p.stem in TASKS:
        return p.stem
    first = next((obj for _, obj in rows if isinstance(obj, dict)), None)
    if first is None:
        return None
    if "utterance_index" in first:
        return "osr"
    return next((name for name, task in TASKS.items() if task.checks.looks_like(first)), None)


def _item_sink(out: Sink, lineno: int, obj: Any) -> Sink:
    ids = {}
    if isinstance(obj, dict):
        for key in ("item_id", "game_id"):
            if isinstance(obj.get(key), str):
                ids[key] = obj[key]
    return out.child(line=lineno, **ids)


def check_items_rows(
    kind: str, rows: Iterable[tuple[int, Any]], out: Sink, store: GameStore | None
) -> list[tuple[Item, Sink]]:
    """Check every item line; return the parsed items (with their sinks) for dataset-wide checks."""
    parsed: list[tuple[Item, Sink]] = []
    warned_broken: set[str] = set()
    for lineno, obj in rows:
        row_out = _item_sink(out, lineno, obj)
        item = check_schema(TASKS[kind].item_model, obj, row_out)
        if item is None:
            continue
        check_item(item, row_out)
        parsed.append((item, row_out))
        if store is None:
            continue
        status, idx = store.lookup(item.game_id)
        if status == "missing":
            where = f"{store.games_dir}" if store.games_dir else "the dataset"
            row_out.error("unknown-game", "game_id", f"game {item.game_id!r} is not in {where}")
        elif status == "broken":
            if store.report_broken and item.game_id not in warned_broken:
                warned_broken.add(item.game_id)
                row_out.warning("references-not-checked", "game_id",
                                f"game {item.game_id} has errors of its own, so references into it were not checked; validate its file")
        else:
            check_item_refs(item, idx, row_out)
    check_duplicate_items(parsed)
    return parsed


def check_osr_rows(p: Path, rows: Iterable[tuple[int, Any]], out: Sink, store: GameStore | None) -> None:
    game_id = p.stem
    out.game_id = game_id
    parsed: list[tuple[OsrRewrite, Sink]] = []
    for lineno, obj in rows:
        row_out = out.child(line=lineno)
        rw = check_schema("osr_rewrite", obj, row_out)
        if rw is not None:
            parsed.append((rw, row_out))
    idx = None
    if store is not None:
        status, idx = store.lookup(game_id)
        if status == "missing":
            out.error("unknown-game", "", f"there is no game {game_id!r} for these rewrites")
        elif status == "broken" and store.report_broken:
            out.warning("references-not-checked", "", f"game {game_id} has errors of its own, so the rewrites were not checked against it")
    check_osr(parsed, game_id, idx, out)


def validate_game_model(game: GameLog | dict, file: str) -> list:
    out = Sink(file=file)
    if isinstance(game, GameLog):
        out.game_id = game.game_id
        check_game(game, out)
    else:
        check_game_object(game, out)
    return out.findings
