"""`analyze --plots DIR`: the groups side by side (PNG, SVG and PDF, byte-stable), one bar chart per family."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from werealign.analysis.report import ROWS, value_at

FAMILIES = {
    "win_rates": ("good side win rate", "wolf side win rate"),
    "seer": ("seer unmasked wolf", "seer believed", "seer backfired"),
    "votes": ("vote consensus", "vote changes", "exiled was a wolf"),
    "participation": ("turns / player / day", "mean bid (0-4)", "days per game"),
}


def write_plots(results: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    # The leaderboards' figure helpers: one matplotlib setup and one atomic, stamp-free save for every plot.
    from werealign.leaderboards.plots import pyplot, save_figure

    plt = pyplot()
    rows = {label: (path, kind) for label, path, kind in ROWS}
    written: list[Path] = []
    for name, labels in FAMILIES.items():
        fig, ax = plt.subplots(figsize=(7, 3.2))
        width = 0.8 / max(len(results), 1)
        for i, r in enumerate(results):
            vals, errs = [], [[], []]
            for label in labels:
                path, kind = rows[label]
                v = value_at(r["metrics"], path)
                x = v.get("value") if isinstance(v, dict) else v
                vals.append(x if x is not None else 0.0)
                ci = v.get("ci95") if isinstance(v, dict) else None
                errs[0].append(x - ci[0] if ci and x is not None else 0.0)
                errs[1].append(ci[1] - x if ci and x is not None else 0.0)
            ax.bar([j + i * width for j in range(len(labels))], vals, width, yerr=errs, capsize=2, label=r["label"])
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))], labels)
        ax.set_title(name.replace("_", " "))
        ax.legend(fontsize=7)
        written += save_figure(fig, out_dir, f"analyze_{name}")
        plt.close(fig)
    return written
