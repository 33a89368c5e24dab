"""Leaderboard plots with matplotlib (Agg, no display): PNG, SVG and PDF with stable bytes.

- dimensions: each model's speech accuracy per dimension and Avg, a dot with its 95% interval
  (one panel per column: a paper can read the uncertainty, which a radar hides);
- roles: scores by the viewpoint player's role, one panel per task, bars per model with intervals;
- floors: each model's main scores against the shortcut floor (best built-in baseline).

A score of 0 is drawn (a bar would have no height): a short thick mark at the baseline, labelled 0;
a missing score is labelled n/a, never drawn as 0.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from pathlib import Path

from werealign.files import make_parent
from werealign.leaderboards.tables import Cell, Leaderboard, Table, shown

FORMATS = ("png", "svg", "pdf")
ZERO_ROOM = -1.5  # the bar charts' axis starts just below 0, so that a score of 0 shows its mark
# No date or software stamps, fixed SVG ids: the same leaderboard gives the same bytes.
_METADATA = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
             "pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None}}


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "werealign", "svg.fonttype": "path", "pdf.fonttype": 42, "font.size": 9})
    # Role names may be Chinese: an installed CJK font (fonts-noto-cjk) as a fallback behind the default, whose glyphs
    # Latin text keeps; without one Chinese shows as boxes, as before.
    plt.rcParams["font.family"] = ["DejaVu Sans", *cjk_fonts()[:1]]
    return plt


def cjk_fonts() -> list[str]:
    from matplotlib import font_manager

    return sorted({f.name for f in font_manager.fontManager.ttflist if "CJK" in f.name})


def _table(lb: Leaderboard, key: str) -> Table | None:
    return next((t for t in lb.tables if t.key == key), None)


def _render(fig, ext: str) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=120, metadata=_METADATA[ext], bbox_inches="tight")
    return buf.getvalue()


def _label(row) -> str:
    return row.label + (" (partial)" if row.partial else "") + (" (baseline)" if row.baseline else "")


def _interval(cell: Cell) -> tuple[float, float]:
    # A percentile interval need not contain the point estimate (a skewed bootstrap): clip at 0.
    if cell.low is None or cell.value is None:
        return 0.0, 0.0
    return max(0.0, 100 * (cell.value - cell.low)), max(0.0, 100 * (cell.high - cell.value))


def _bars(ax, x: list[float], cells: list[Cell], width: float, label: str, color, with_intervals: bool) -> None:
    """Bars with their intervals; a 0 gets a visible mark, a missing value a note, neither a silent gap."""
    values = [100 * c.value if c.value is not None else 0.0 for c in cells]
    err = [_interval(c) for c in cells] if with_intervals else [(0.0, 0.0)] * len(cells)
    ax.bar(x, values, width, yerr=[[e[0] for e in err], [e[1] for e in err]] if with_intervals else None, capsize=2, label=label, color=color,
           edgecolor=color)
    for xi, cell in zip(x, cells):
        if cell.value is None:
            ax.annotate("n/a", (xi, 0), textcoords="offset points", xytext=(0, 2), ha="center", fontsize=6,
                        rotation=90, color="0.4")
        elif cell.value == 0:
            ax.hlines(0.4, xi - width / 2, xi + width / 2, colors=[color], linewidth=2.5, zorder=3)
            ax.annotate("0", (xi, 0), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=6, color=color)


def dimensions(lb: Leaderboard):
    """Dot-and-interval chart of the columns of the main table's kind with dimensions (speech: the dimensions and Avg)."""
    plt = pyplot()
    main = _table(lb, "main")
    sliced = next((c.task for c in main.columns if c.dimension is not None), None)
    columns = [c.name for c in main.columns if c.task == sliced]
    rows = [r for r in main.rows if any(r.cells[c].value is not None for c in columns)]
    if not rows or not columns:
        return None
    fig, axes = plt.subplots(1, len(columns), figsize=(1.6 * len(columns) + 2.2, 0.35 * len(rows) + 1.2),
                             sharey=True, squeeze=False)
    y = list(range(len(rows)))[::-1]  # the best model on top, as in the table
    for ax, column in zip(axes[0], columns):
        for yi, row in zip(y, rows):
            cell = row.cells[column]
            if cell.value is None:
                ax.annotate("n/a", (50, yi), ha="center", va="center", fontsize=7, color="0.4")
                continue
            low, high = _interval(cell)
            ax.errorbar([100 * cell.value], [yi], xerr=[[low], [high]], fmt="o", markersize=4, capsize=2,
                        color="black" if not row.baseline else "0.55")
        ax.set_xlim(-3, 103)
        ax.set_title(column)
        ax.grid(axis="x", linewidth=0.4, color="0.85")
        ax.set_xlabel("%")
    axes[0][0].set_yticks(y, [_label(r) for r in rows])
    axes[0][0].set_ylim(-0.7, len(rows) - 0.3)
    fig.suptitle("Speech accuracy by dimension (%), 95% intervals", y=1.0 + 0.35 / fig.get_figheight())
    return fig


def roles(lb: Leaderboard):
    import numpy as np

    plt = pyplot()
    tables = [t for t in lb.tables if t.key.startswith("roles-")]
    if not tables:
        return None
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = plt.subplots(1, len(tables), figsize=(4.5 * len(tables), 4), squeeze=False)
    for ax, t in zip(axes[0], tables):
        roles_ = [c.name for c in t.columns]
        width = 0.8 / max(1, len(t.rows))
        x = np.arange(len(roles_))
        for i, row in enumerate(t.rows):
            offset = (i - (len(t.rows) - 1) / 2) * width
            _bars(ax, list(x + offset), [row.cells[r] for r in roles_], width, _label(row), colors[i % len(colors)], True)
        ax.set_xticks(x, roles_, rotation=30, ha="right")
        ax.set_ylim(ZERO_ROOM, 100)
        ax.set_title(t.title.split(": ", 1)[-1])
        ax.set_ylabel("%")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("By the viewpoint player's true role (95% intervals)", y=1.02)
    return fig


def floors(lb: Leaderboard):
    import numpy as np

    plt = pyplot()
    main, floor_table = _table(lb, "main"), _table(lb, "floors")
    if floor_table is None:
        return None
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    floor = floor_table.rows[-1]
    columns = [c.name for c in main.columns]
    x = np.arange(len(columns))
    width = 0.8 / max(1, len(main.rows))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(columns)), 4))
    for i, row in enumerate(main.rows):
        offset = (i - (len(main.rows) - 1) / 2) * width
        _bars(ax, list(x + offset), [row.cells[c] for c in columns], width, _label(row), colors[i % len(colors)], False)
    for j, c in enumerate(columns):
        v = floor.cells[c].value
        if v is not None:
            ax.hlines(100 * v, j - 0.45, j + 0.45, colors="black", linestyles="dashed", linewidth=1.2,
                      label="shortcut floor" if j == 0 else None)
            ax.annotate(shown(v), (j, 100 * v), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
    ax.set_xticks(x, columns)
    ax.set_ylim(ZERO_ROOM, 100)
    ax.set_ylabel("%")
    ax.set_title("Scores against the shortcut floor (best built-in baseline, dashed)")
    ax.legend(fontsize=7, loc="upper left")
    return fig


PLOTS: dict[str, Callable[[Leaderboard], object]] = {"dimensions": dimensions, "roles": roles, "floors": floors}


def rendered(lb: Leaderboard, formats: tuple[str, ...] = FORMATS, names: tuple[str, ...] | None = None) -> dict[str, dict[str, bytes]]:
    """Plot name -> format -> bytes, for the plots (all, or those named) this leaderboard has data for."""
    plt = pyplot()
    out = {}
    for name, make in PLOTS.items():
        if names is not None and name not in names:
            continue  # never drawn: a figure costs its draw in every format
        fig = make(lb)
        if fig is None:
            continue
        out[name] = {ext: _render(fig, ext) for ext in formats}
        plt.close(fig)
    return out


def embedded(lb: Leaderboard) -> list[tuple[str, str]]:
    """(name, data: URI of its SVG) per plot: what the HTML leaderboard shows, in one self-contained file."""
    return [(name, "data:image/svg+xml;base64," + base64.b64encode(files["svg"]).decode())
            for name, files in rendered(lb, ("svg",)).items()]


def write_files(files: dict[str, bytes], out_dir: Path, name: str) -> list[Path]:
    """Write one figure's renderings (format -> bytes) as out_dir/name.<format>."""
    import tempfile

    written = []
    for ext, data in files.items():
        path = out_dir / f"{name}.{ext}"
        make_parent(path)
        # Written beside the target and renamed: a reader never sees half an image.
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=f".{name}.", suffix=f".{ext}", delete=False) as tmp:
            tmp.write(data)
        Path(tmp.name).chmod(0o644)
        Path(tmp.name).replace(path)
        written.append(path)
    return written


def save_figure(fig, out_dir: Path, name: str, formats: tuple[str, ...] = FORMATS) -> list[Path]:
    """One figure in every format, byte-stable (for plots made outside the leaderboard, e.g. analyze)."""
    return write_files({ext: _render(fig, ext) for ext in formats}, out_dir, name)


def write_plots(lb: Leaderboard, out_dir: Path) -> list[Path]:
    written = []
    for name, files in rendered(lb).items():
        written += write_files(files, out_dir, name)
    return written
