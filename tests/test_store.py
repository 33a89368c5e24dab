"""responses.sqlite: one row per key, ok rows never downgraded, durable across a killed writer."""

from __future__ import annotations

import dataclasses
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from werealign.errors import UserError
from werealign.llm.store import Store, StoredResponse


def row(key: str, status: str = "ok", text: str | None = "Answer: A", attempts: int = 1) -> StoredResponse:
    return StoredResponse(
        key=key,
        request={"messages": [{"role": "user", "content": "q " + key}], "params": {"seed": 1}},
        status=status,
        response=text if status == "ok" else None,
        usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5} if status == "ok" else None,
        cost=None,
        latency=0.01,
        error_class=None if status == "ok" else "RateLimitError",
        error_message=None if status == "ok" else "slow down",
        attempts=attempts,
    )


def test_roundtrip_and_wal(tmp_path: Path) -> None:
    with Store(tmp_path / "r.sqlite") as s:
        s.put(row("k1"))
        s.put(row("k2", "error"))
        got = s.load(with_request=True)
        assert s.load()["k1"].request == {}
        mode = s._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert set(got) == {"k1", "k2"}
    assert got["k1"].ok and got["k1"].response == "Answer: A" and got["k1"].usage["total_tokens"] == 5
    assert got["k1"].request == {"messages": [{"role": "user", "content": "q k1"}], "params": {"seed": 1}}
    assert not got["k2"].ok and got["k2"].error_class == "RateLimitError"
    with Store(tmp_path / "r.sqlite") as s:
        assert s.ok_keys() == {"k1"}


def test_error_is_replaced_by_success_but_ok_is_never_downgraded(tmp_path: Path) -> None:
    with Store(tmp_path / "r.sqlite") as s:
        s.put(row("k", "error", attempts=6))
        s.put(row("k", "ok", text="Answer: B", attempts=2))
        s.put(row("k", "error", attempts=6))
        s.put(row("k", "ok", text="Answer: C"))
        got = s.load()["k"]
        n = s._db.execute("SELECT count(*) FROM responses").fetchone()[0]
    assert n == 1
    assert got.ok and got.response == "Answer: B" and got.attempts == 2


def test_not_a_database_is_a_user_error(tmp_path: Path) -> None:
    bad = tmp_path / "r.sqlite"
    bad.write_bytes(b"this is definitely not sqlite" * 100)
    with pytest.raises(UserError, match="cannot open the response store"):
        Store(bad)


def test_a_foreign_responses_table_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE responses (key TEXT, x INTEGER)")
    db.commit()
    db.close()
    for readonly in (False, True):
        with pytest.raises(UserError, match="not a werealign response store"):
            Store(path, readonly=readonly)
    assert [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(responses)")] == ["key", "x"]


def test_a_store_written_before_finish_reason_is_read_and_upgraded(tmp_path: Path) -> None:
    """A run from an older werealign (no finish_reason column) still re-scores and resumes."""
    path = tmp_path / "r.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE responses (key TEXT PRIMARY KEY, request TEXT NOT NULL, status TEXT NOT NULL, response TEXT, usage TEXT, "
        "cost REAL, latency REAL, error_class TEXT, error_message TEXT, attempts INTEGER NOT NULL)"
    )
    db.execute("INSERT INTO responses VALUES ('old', '{}', 'ok', 'Answer: B', NULL, NULL, 0.1, NULL, NULL, 1)")
    db.commit()
    db.close()
    with Store(path, readonly=True) as s:  # `werealign score` opens read-only: nothing is changed
        assert s.load()["old"].response == "Answer: B" and s.load()["old"].finish_reason is None
    assert "finish_reason" not in {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(responses)")}
    with Store(path) as s:  # a resumed eval upgrades the table in place and keeps every row
        s.put(dataclasses.replace(row("new"), finish_reason="length"))
        got = s.load()
    assert got["old"].response == "Answer: B" and got["old"].finish_reason is None
    assert got["new"].finish_reason == "length"


def test_damage_found_while_reading_is_a_user_error(tmp_path: Path) -> None:
    """A store whose header is intact but whose later pages are garbage opens, then fails on the first read."""
    path = tmp_path / "r.sqlite"
    with Store(path) as s:
        for i in range(400):
            s.put(row(f"k{i}", text="Answer: A " + "x" * 2000))
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size // 2)
        f.write(b"\xff" * 16384)
    with pytest.raises(UserError, match="cannot read the response store"):
        with Store(path) as s:
            s.load()


def test_rows_survive_kill_9(tmp_path: Path) -> None:
    """A child writes rows as fast as it can and is killed mid-stream: every committed row is readable."""
    db = tmp_path / "r.sqlite"
    code = (
        "import sys, time\n"
        "from werealign.llm.store import Store, StoredResponse\n"
        "s = Store(__import__('pathlib').Path(sys.argv[1]))\n"
        "i = 0\n"
        "while True:\n"
        "    s.put(StoredResponse(f'k{i}', {'i': i}, 'ok', f'Answer: {i}', None, None, 0.0, None, None, 1))\n"
        "    print(i, flush=True)\n"
        "    i += 1\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(db)], stdout=subprocess.PIPE, text=True)
    acked = -1
    deadline = time.monotonic() + 30
    while acked < 200 and time.monotonic() < deadline:
        acked = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert acked >= 200
    with Store(db) as s:
        got = s.load()
    # every row whose commit the child reported is there, intact
    for i in range(acked + 1):
        assert got[f"k{i}"].response == f"Answer: {i}"
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
