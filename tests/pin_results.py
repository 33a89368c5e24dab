"""The built-in models' results.json numbers, pinned (issue 11: behaviour unchanged through refactors).

`tests/test_pinned_results.py` recomputes them and compares with `tests/pinned_results.json`. The pins
are keyed by the dataset's content hash, so a dataset whose content changed on purpose (a rebuilt
sample, a new importer rule) fails with a clear message instead of a wrong comparison. To re-pin after an
intended change, run from the repository root and review the diff:

    python tests/pin_results.py            # the bundled sample, and ../shared data when present
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PINS = Path(__file__).with_name("pinned_results.json")
sys.path.insert(0, str(REPO))  # pin with this checkout's werealign, whichever one is installed
MODELS = ("werealign/random", "werealign/longest", "werealign/lexical")
# Small enough to stay fast, wide enough to cover every task, variant and the decode std.
SETUPS: dict[str, dict[str, Any]] = {
    "sample": {"variants": ("base", "rr", "osr"), "decodes": 2, "limit": None},
    "werebench": {"variants": ("base",), "decodes": 1, "limit": 25},
}


def pinned_numbers(results: dict[str, Any]) -> dict[str, Any]:
    """The scores of a results.json: per-variant task scores and the totals (usage depends on prompt length)."""
    return {"variants": results["variants"], "totals": results["totals"]}


def compute(setup: str, dataset: Path | None, work: Path) -> dict[str, Any]:
    """{content_sha256, models: {model: numbers}} for one setup, computed in-process with the real runner."""
    from werealign.eval.runner import EvalConfig, Execution, run_eval

    opts = SETUPS[setup]
    out: dict[str, Any] = {"models": {}}
    for model in MODELS:
        config = EvalConfig(model=model, dataset=str(dataset) if dataset else None, variants=opts["variants"],
                            decodes=opts["decodes"], limit=opts["limit"])
        summary = run_eval(config, Execution(max_connections=32), out=work / model.replace("/", "-"))
        out["content_sha256"] = summary.results.dataset.content_sha256
        out["models"][model] = pinned_numbers(summary.results.model_dump(mode="json"))
    return out


def import_werebench(src: Path, out: Path) -> Path:
    from werealign.importers.werebench.importer import import_werebench as run_import

    run_import(src, out)
    return out


def main() -> int:
    pins = json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pins["sample"] = compute("sample", None, work / "sample")
        src = REPO.parent / "shared" / "werebench" / "dataset"
        if (src / "WereBench" / "WereBench.json").is_file():
            pins["werebench"] = compute("werebench", import_werebench(src, work / "wb"), work / "werebench")
        else:
            print("../shared/werebench is absent: its pin is kept as it was", file=sys.stderr)
    PINS.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PINS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
