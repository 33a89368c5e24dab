"""Plots: PNG, SVG and PDF of the dimension intervals, role bars and floors; stable bytes; a 0 drawn, a missing value not."""

from __future__ import annotations

import hashlib

from run_factory import write_run

from werealign.leaderboards.collect import collect
from werealign.leaderboards.plots import rendered, write_plots
from werealign.leaderboards.tables import build


def test_plots_are_written_as_png_and_svg_with_stable_bytes(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/a", 0.7), write_run(tmp_path / "b", "werealign/lexical", 0.3),
            write_run(tmp_path / "c", "prov/c", 0.5, tasks=("speech",), dims=("RI", "SJ"))]
    lb = build(collect(runs), resamples=100)
    first = write_plots(lb, tmp_path / "p1")
    assert sorted(p.name for p in first) == sorted(f"{n}.{e}" for n in ("dimensions", "roles", "floors") for e in ("png", "svg", "pdf"))
    # the same bytes from a board built again; the SVGs' are test_leaderboard's every-format test's (the HTML embeds them)
    again = rendered(build(collect(runs), resamples=100), ("png", "pdf"))
    for a in first:
        if a.suffix != ".svg":
            assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(again[a.stem][a.suffix[1:]]).digest(), a.name
    for p in first:
        head = p.read_bytes()[:200]
        if p.suffix == ".pdf":
            assert head.startswith(b"%PDF")
        else:
            assert head.startswith(b"\x89PNG") if p.suffix == ".png" else b"<svg" in p.read_bytes()[:2000]
    dims_svg = (tmp_path / "p1" / "dimensions.svg").read_text()
    assert dims_svg.count("n/a") >= 3  # prov/c's missing DR, PS, CT are labelled (SVG keeps text as comments)
    assert not list((tmp_path / "p1").glob(".*"))  # no temporary files left behind


def test_no_floor_plot_without_baselines(tmp_path):
    lb = build(collect([write_run(tmp_path / "a", "prov/a", 0.7)]), resamples=100)
    # the plots write_plots writes are rendered()'s (the test above writes every format); one format says which
    assert set(rendered(lb, ("svg",))) == {"dimensions", "roles"}


def test_a_zero_score_is_drawn_and_a_missing_one_is_not(tmp_path):
    """A bar of height 0 is invisible: it gets a mark labelled 0; a missing score is labelled n/a instead."""
    runs = [write_run(tmp_path / "a", "prov/zero", correct=lambda r: False),
            write_run(tmp_path / "b", "werealign/lexical", 0.4),
            write_run(tmp_path / "c", "prov/speech-only", 0.5, tasks=("speech",))]
    lb = build(collect(runs), resamples=100)
    floors_svg = rendered(lb, ("svg",), ("floors",))["floors"]["svg"].decode()  # the one file this reads, not all nine
    # prov/zero's VA, every speech column and Avg are 0; prov/speech-only has no VA or OI
    assert floors_svg.count("<!-- 0 -->") >= 7 and floors_svg.count("<!-- n/a -->") == 2

