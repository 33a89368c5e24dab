"""werealign: human-aligned benchmarks for social deduction games (WereBench / WereAlign).

The Python API (werealign.api): `evaluate`, `load_dataset`, `leaderboard` and the `Evaluation` they return.
They are loaded on first use, so `import werealign` stays cheap (the CLI and every module import this package).
"""

from werealign.version import __version__

__all__ = ["Evaluation", "__version__", "evaluate", "leaderboard", "load_dataset"]
_API = frozenset({"Evaluation", "evaluate", "leaderboard", "load_dataset"})


def __getattr__(name: str):
    if name in _API:
        from werealign import api

        return getattr(api, name)
    raise AttributeError(f"module 'werealign' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
