"""Time `audit_items` on a dataset, from the checkout this is run in (to compare two trees side by side).

    python bench/audit_time.py DATASET_DIR LABEL     # run from each checkout's root, alternating
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign


def main() -> None:
    import sklearn  # noqa: F401 - imported first, so its import is not timed

    from werealign.audit import audit_items
    from werealign.dataset import load_dataset

    ds = load_dataset(Path(sys.argv[1]))
    start = time.perf_counter()
    audit_items(ds)
    print(f"{sys.argv[2]}: audit {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
