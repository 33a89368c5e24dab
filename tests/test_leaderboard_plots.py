"""Plots: PNG and SVG for the radar, role bars and floors; stable bytes; nothing drawn from a missing value."""

from __future__ import annotations

import hashlib

from run_factory import write_run

from werealign.leaderboards.collect import collect
from werealign.leaderboards.plots import write_plots
from werealign.leaderboards.tables import build


def test_plots_are_written_as_png_and_svg_with_stable_bytes(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/a", 0.7), write_run(tmp_path / "b", "werealign/lexical", 0.3),
            write_run(tmp_path / "c", "prov/c", 0.5, tasks=("speech",), dims=("RI", "SJ"))]
    lb = build(collect(runs), resamples=100)
    first = write_plots(lb, tmp_path / "p1")
    second = write_plots(lb, tmp_path / "p2")
    assert sorted(p.name for p in first) == sorted(f"{n}.{e}" for n in ("radar", "roles", "floors") for e in ("png", "svg"))
    for a, b in zip(first, second):
        assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest(), a.name
    for p in first:
        head = p.read_bytes()[:200]
        assert head.startswith(b"\x89PNG") if p.suffix == ".png" else b"<svg" in p.read_bytes()[:2000]
    radar_svg = (tmp_path / "p1" / "radar.svg").read_text()
    assert "no DR, PS, CT" in radar_svg  # a missing dimension is named in the legend (SVG keeps text as comments)
    assert not list((tmp_path / "p1").glob(".*"))  # no temporary files left behind


def test_no_floor_plot_without_baselines(tmp_path):
    lb = build(collect([write_run(tmp_path / "a", "prov/a", 0.7)]), resamples=100)
    names = {p.stem for p in write_plots(lb, tmp_path / "p")}
    assert names == {"radar", "roles"}
