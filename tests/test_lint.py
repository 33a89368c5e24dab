"""The code base passes ruff with the configuration in pyproject.toml (so the README's test command lints)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_ruff_passes() -> None:
    # ruff is pinned in the `test` extra; `python -m ruff` finds the one installed beside this Python.
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
