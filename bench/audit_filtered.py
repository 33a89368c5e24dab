"""Time and peak memory of `werealign audit DATASET --filtered-out DIR`, and what the split holds.

    python bench/audit_filtered.py DATASET_DIR OUT_DIR     # run from the checkout's root

Prints wall time, peak resident memory (this process and its children), the split's size, the
independent attacks' top-1 on it, its key-longest rate, and the leak counts before/after.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    dataset, out = Path(sys.argv[1]), Path(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}  # the checkout run from, not an installed werealign
    cli = [sys.executable, "-c", "from werealign.cli import app; app()"]
    start = time.perf_counter()
    run = subprocess.run([*cli, "audit", str(dataset), "--filtered-out", str(out), "--format", "json"], env=env,
                         capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    note = json.loads(run.stdout)["filtered_out"]
    after = subprocess.run([*cli, "audit", str(out), "--format", "json"], env=env, capture_output=True, text=True, check=True)
    leaks = {name: json.loads(text)["checks"] for name, text in (("before", run.stdout), ("after", after.stdout))}
    leak_counts = {k: round(next(c for c in v if c["name"] == "stem-leak" and c["scope"] == "all")["value"] * next(
        c for c in v if c["name"] == "stem-leak" and c["scope"] == "all")["n"]) for k, v in leaks.items()}
    valid = subprocess.run([*cli, "validate", str(out)], env=env, capture_output=True, text=True)
    print(f"audit --filtered-out: {seconds:.0f} s, peak memory {peak_mb:.0f} MB")
    print(f"split: {note['counts']}")
    print(f"independent attacks: {note['independent_attack']}")
    print(f"leaking items: {leak_counts['before']} before, {leak_counts['after']} after")
    print(f"validate exit code: {valid.returncode}")


if __name__ == "__main__":
    main()
