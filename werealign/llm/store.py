"""responses.sqlite: every model request and its outcome, one row per request key, durable on arrival.

Why sqlite in WAL mode with synchronous=NORMAL: each response is committed the moment it arrives (so a
kill -9 loses at most the request in flight), and in WAL mode a commit is an append to the log with no
fsync, so committing per response does not stall the event loop. NORMAL survives a killed process; only an
OS crash or power loss can drop the last commits, and those requests are simply asked again on resume.

A row is `ok` (a reply arrived) or `error` (the request finally failed). Errors are kept for the record
but are retried on the next run, and an `ok` row is never overwritten by a later error.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.schema.runs import STORE_NAME  # noqa: F401 - the store's file name, re-exported for its users


_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
    response TEXT,
    usage TEXT,
    cost REAL,
    latency REAL,
    error_class TEXT,
    error_message TEXT,
    attempts INTEGER NOT NULL,
    finish_reason TEXT
)
"""

_COLUMNS = ("key", "request", "status", "response", "usage", "cost", "latency", "error_class", "error_message", "attempts", "finish_reason")
# Columns added after the first release: a store written before them is upgraded in place (or, read-only,
# read as NULL), so a run made by an older werealign still resumes and re-scores.
_ADDED_COLUMNS = {"finish_reason": "TEXT"}


@dataclass(frozen=True)
class Paid:
    """What a store already holds: successful replies and their summed cost (None unless every one is priced)."""

    requests: int
    cost: float | None


@dataclass(frozen=True)
class StoredResponse:
    key: str
    request: dict[str, Any]
    status: str  # "ok" | "error"
    response: str | None
    usage: dict[str, int] | None
    cost: float | None
    latency: float | None
    error_class: str | None
    error_message: str | None
    attempts: int
    finish_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class Store:
    """A thin wrapper over one sqlite connection; use as a context manager or call close()."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        try:
            if readonly:
                self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            else:
                # check_same_thread=False: the runner commits from one writer thread (never two at once).
                self._db = sqlite3.connect(path, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute(_SCHEMA)
                self._db.commit()
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(responses)")}
        except sqlite3.DatabaseError as e:
            raise UserError(f"{path}: cannot open the response store: {e}") from None
        if missing := [c for c in _COLUMNS if c not in columns and c not in _ADDED_COLUMNS]:
            self._db.close()
            raise UserError(f"{path}: not a werealign response store (table responses has no column {missing[0]})")
        if not readonly and (added := [c for c in _ADDED_COLUMNS if c not in columns]):
            with self._user_errors("upgrade"):
                for name in added:
                    self._db.execute(f"ALTER TABLE responses ADD COLUMN {name} {_ADDED_COLUMNS[name]}")
                self._db.commit()
            columns.update(added)
        self._columns = columns

    @contextmanager
    def _user_errors(self, what: str) -> Iterator[None]:
        # Damage deeper in the file only shows when its pages are read: one line, never a traceback.
        try:
            yield
        except sqlite3.DatabaseError as e:
            raise UserError(f"{self.path}: cannot {what} the response store: {e}") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def load(self, *, with_request: bool = False) -> dict[str, StoredResponse]:
        """Every stored row by key (one query: the plan is matched against this in memory).

        The stored request (the whole prompt) is only read when asked for: scoring needs the key alone.
        """
        cols = ", ".join(
            "'{}'" if (c == "request" and not with_request) else c if c in self._columns else "NULL" for c in _COLUMNS
        )
        with self._user_errors("read"):
            rows = self._db.execute(f"SELECT {cols} FROM responses").fetchall()
        return {r[0]: _row(r) for r in rows}

    def ok_keys(self) -> set[str]:
        with self._user_errors("read"):
            return {r[0] for r in self._db.execute("SELECT key FROM responses WHERE status = 'ok'")}

    def paid(self) -> Paid:
        with self._user_errors("read"):
            n, priced, cost = self._db.execute(
                "SELECT COUNT(*), COUNT(cost), COALESCE(SUM(cost), 0) FROM responses WHERE status = 'ok'"
            ).fetchone()
        return Paid(requests=n, cost=float(cost) if priced == n else None)

    def ok_rows(self, keys: Iterable[str]) -> dict[str, StoredResponse]:
        """The successful rows among `keys` (with their requests), by key."""
        wanted = list(dict.fromkeys(keys))
        cols = ", ".join(c if c in self._columns else "NULL" for c in _COLUMNS)
        found: dict[str, StoredResponse] = {}
        with self._user_errors("read"):
            for start in range(0, len(wanted), 500):  # sqlite limits the number of bound parameters
                chunk = wanted[start : start + 500]
                sql = f"SELECT {cols} FROM responses WHERE status = 'ok' AND key IN ({', '.join('?' * len(chunk))})"
                found.update((r[0], _row(r)) for r in self._db.execute(sql, chunk))
        return found

    def put(self, row: StoredResponse) -> None:
        """Insert or update one row and commit at once; an ok row is never replaced by an error."""
        values = (
            row.key,
            json.dumps(row.request, ensure_ascii=False, sort_keys=True),
            row.status,
            row.response,
            json.dumps(row.usage, sort_keys=True) if row.usage is not None else None,
            row.cost,
            row.latency,
            row.error_class,
            row.error_message,
            row.attempts,
            row.finish_reason,
        )
        with self._user_errors("write to"):
            self._db.execute(
                f"INSERT INTO responses ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) "
                "ON CONFLICT(key) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:])
                + " WHERE responses.status != 'ok'",
                values,
            )
            self._db.commit()


def _row(r: tuple) -> StoredResponse:
    return StoredResponse(
        key=r[0],
        request=json.loads(r[1]),
        status=r[2],
        response=r[3],
        usage=json.loads(r[4]) if r[4] is not None else None,
        cost=r[5],
        latency=r[6],
        error_class=r[7],
        error_message=r[8],
        attempts=r[9],
        finish_reason=r[10],
    )
