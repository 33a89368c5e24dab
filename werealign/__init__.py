"""werealign: human-aligned benchmarks for social deduction games (WereBench / WereAlign)."""

__version__ = "0.1.0"
