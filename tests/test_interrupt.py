"""Ctrl-C or SIGTERM during `werealign eval`: exit 130 / 143 with a clear message, stored responses kept, rerun resumes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from cli_inproc import run_cli

from werealign.dataset import load_dataset


DECODES = 16


def _stored(db) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            return con.execute("select count(*) from responses where status = 'ok'").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.parametrize(("sig", "code", "said"), [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")])
def test_interrupt_keeps_responses_and_rerun_resumes(tmp_path, sig, code, said):
    out = tmp_path / "run"
    # 512 requests one at a time: the run is still going seconds after the 20th is stored, and the rerun that pays for
    # the rest (through litellm, milliseconds each) stays short.
    cmd = [sys.executable, "-m", "werealign.cli", "eval", "--model", "werealign/random", "--decodes", str(DECODES),
           "--max-connections", "1", "--out", str(out), "--quiet"]
    # A background process may inherit SIGINT as ignored; restore the default so Python raises KeyboardInterrupt.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    db = out / "responses.sqlite"
    deadline = time.monotonic() + 120
    while _stored(db) < 20 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert said in err and "rerun the same command" in err
    assert "Traceback" not in err and "never awaited" not in err
    kept = _stored(db)
    assert kept >= 20
    assert not (out / "results.json").exists()

    done = run_cli(*[c for c in cmd[3:] if c != "--quiet"])  # the rerun in-process: only the interruption needs a process
    assert done.returncode == 0, done.stderr
    ds = load_dataset()  # the bundled sample
    total = (len(ds.speech) + len(ds.vote) + len(ds.opponent)) * DECODES
    assert _stored(db) == total
    # Only what was missing is paid for on the rerun.
    assert f"{total - kept} requests sent, {kept} cached" in " ".join((done.stdout + done.stderr).split())
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results
