"""Leaderboard plots with matplotlib (Agg, no display): PNG and SVG with stable bytes.

- radar.{png,svg}: per-dimension speech accuracy, one polygon per model;
- roles.{png,svg}: scores by the viewpoint player's role, one panel per task, bars per model;
- floors.{png,svg}: each model's main scores against the shortcut floor (best built-in baseline).
"""

from __future__ import annotations

from pathlib import Path

from werealign.files import make_parent
from werealign.leaderboards.tables import Leaderboard, Table, shown

PLOTS = ("radar", "roles", "floors")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # Fixed SVG ids and no date/software stamps: the same leaderboard gives the same bytes.
    plt.rcParams.update({"svg.hashsalt": "werealign", "svg.fonttype": "path", "font.size": 9})
    return plt


def _table(lb: Leaderboard, key: str) -> Table | None:
    return next((t for t in lb.tables if t.key == key), None)


def _save(fig, out_dir: Path, name: str) -> list[Path]:
    import tempfile

    written = []
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        path = out_dir / f"{name}.{ext}"
        make_parent(path)
        # Written beside the target and renamed: a reader never sees half an image.
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=f".{name}.", suffix=f".{ext}", delete=False) as tmp:
            fig.savefig(tmp, format=ext, dpi=120, metadata=meta, bbox_inches="tight")
        Path(tmp.name).chmod(0o644)
        Path(tmp.name).replace(path)
        written.append(path)
    return written


def radar(lb: Leaderboard, out_dir: Path) -> list[Path]:
    import numpy as np

    plt = _pyplot()
    main = _table(lb, "main")
    dims = [c.name for c in main.columns if c.dimension is not None]
    angles = np.linspace(0, 2 * np.pi, len(dims), endpoint=False).tolist()
    fig, ax = plt.subplots(figsize=(6, 6), subplot_kw={"polar": True})
    for row in main.rows:
        values = [row.cells[d].value for d in dims]
        if all(v is None for v in values):
            continue
        # A missing dimension is drawn at 0 and named in the legend rather than silently closing the shape.
        vals = [100 * (v or 0.0) for v in values]
        missing = [d for d, v in zip(dims, values) if v is None]
        label = row.label + (" (partial)" if row.partial else "") + (f" (no {', '.join(missing)})" if missing else "")
        ax.plot(angles + angles[:1], vals + vals[:1], linewidth=1.5, label=label)
        ax.fill(angles + angles[:1], vals + vals[:1], alpha=0.08)
    ax.set_xticks(angles, dims)
    ax.set_ylim(0, 100)
    ax.set_title("Speech accuracy by dimension (%)")
    ax.legend(loc="upper right", bbox_to_anchor=(1.35, 1.12), fontsize=8)
    paths = _save(fig, out_dir, "radar")
    plt.close(fig)
    return paths


def roles(lb: Leaderboard, out_dir: Path) -> list[Path]:
    import numpy as np

    plt = _pyplot()
    tables = [t for t in lb.tables if t.key.startswith("roles-")]
    if not tables:
        return []
    fig, axes = plt.subplots(1, len(tables), figsize=(4.5 * len(tables), 4), squeeze=False)
    for ax, t in zip(axes[0], tables):
        roles_ = [c.name for c in t.columns]
        width = 0.8 / max(1, len(t.rows))
        x = np.arange(len(roles_))
        for i, row in enumerate(t.rows):
            cells = [row.cells[r] for r in roles_]
            vals = [100 * (c.value or 0.0) for c in cells]
            # A percentile interval need not contain the point estimate (a skewed bootstrap): clip at 0.
            lows = [max(0.0, 100 * (c.value - c.low)) if c.low is not None else 0 for c in cells]
            highs = [max(0.0, 100 * (c.high - c.value)) if c.high is not None else 0 for c in cells]
            ax.bar(x + (i - (len(t.rows) - 1) / 2) * width, vals, width, yerr=[lows, highs], capsize=2, label=row.label)
        ax.set_xticks(x, roles_, rotation=30, ha="right")
        ax.set_ylim(0, 100)
        ax.set_title(t.title.split(": ", 1)[-1])
        ax.set_ylabel("%")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("By the viewpoint player's true role (95% intervals)")
    paths = _save(fig, out_dir, "roles")
    plt.close(fig)
    return paths


def floors(lb: Leaderboard, out_dir: Path) -> list[Path]:
    import numpy as np

    plt = _pyplot()
    main, floor_table = _table(lb, "main"), _table(lb, "floors")
    if floor_table is None:
        return []
    floor = floor_table.rows[-1]
    columns = [c.name for c in main.columns]
    x = np.arange(len(columns))
    width = 0.8 / max(1, len(main.rows))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(columns)), 4))
    for i, row in enumerate(main.rows):
        ax.bar(x + (i - (len(main.rows) - 1) / 2) * width, [100 * (row.cells[c].value or 0.0) for c in columns], width,
               label=row.label + (" (baseline)" if row.baseline else ""))
    for j, c in enumerate(columns):
        v = floor.cells[c].value
        if v is not None:
            ax.hlines(100 * v, j - 0.45, j + 0.45, colors="black", linestyles="dashed", linewidth=1.2,
                      label="shortcut floor" if j == 0 else None)
            ax.annotate(shown(v), (j, 100 * v), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
    ax.set_xticks(x, columns)
    ax.set_ylim(0, 100)
    ax.set_ylabel("%")
    ax.set_title("Scores against the shortcut floor (best built-in baseline, dashed)")
    ax.legend(fontsize=7, loc="upper left")
    paths = _save(fig, out_dir, "floors")
    plt.close(fig)
    return paths


def write_plots(lb: Leaderboard, out_dir: Path) -> list[Path]:
    return [p for fn in (radar, roles, floors) for p in fn(lb, out_dir)]
