"""werealign leaderboard: tables from run directories, their numbers, ranks, refusals and formats."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from run_factory import write_run

from werealign.errors import UserError
from werealign.leaderboards.collect import collect
from werealign.leaderboards.render import RENDERERS, leaderboard_json, to_csv, to_markdown
from werealign.leaderboards.tables import BASE, build, main_columns, shown

RESAMPLES = 200  # enough to exercise the code; the statistics have their own tests


def board(paths, **kw):
    return build(collect(paths), resamples=RESAMPLES, **kw)


def cell_text(md: str, table_title: str, label: str, column: str) -> str:
    """The text of one cell of a Markdown table, found by its table, row label and column name."""
    section = md.split(f"## {table_title}\n", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == label:
            return cells[header.index(column)]
    raise AssertionError(f"no row {label!r}")


@pytest.fixture
def three_runs(tmp_path):
    return [write_run(tmp_path / "a", "prov/alpha", 0.7, variants=("base", "rr", "osr")),
            write_run(tmp_path / "b", "prov/beta", 0.4, variants=("base", "osr")),
            write_run(tmp_path / "c", "werealign/longest", 0.2)]


def test_every_number_equals_its_results_json(three_runs):
    lb = board(three_runs)
    doc = leaderboard_json(lb)
    results = {json.loads((p / "results.json").read_text())["model"]: json.loads((p / "results.json").read_text()) for p in three_runs}
    md = to_markdown(lb)
    rows = list(csv.DictReader(io.StringIO(to_csv(lb))))
    checked = 0
    for table in doc["tables"]:
        for row in table["rows"]:
            if row["model"] is None:
                continue
            scores = results[row["model"]]["variants"][row["variant"]]
            for column, cell in row["cells"].items():
                if table["key"] == "main" or table["key"] == "floors" or table["key"] == "ablation":
                    spec = next(c for c in main_columns(lb.entries) if c.name == column)
                    node = scores.get(spec.task, {})
                    for key in spec.path:
                        node = node.get(key, {}) if isinstance(node, dict) else {}
                else:  # roles-<task>
                    node = scores[table["key"].split("-", 1)[1]]["by_viewpoint_role"][column]["score"]
                expected = node if isinstance(node, float | int) else None
                assert cell["value"] == expected, (table["key"], row["label"], column)
                csv_row = next(r for r in rows if r["table"] == table["key"] and r["row"] == row["label"] and r["column"] == column)
                assert csv_row["value"] == ("" if expected is None else str(expected))
                if table["key"] == "main" and expected is not None:
                    assert cell_text(md, "Main results (base variant)", row["label"], column).replace("**", "").replace(
                        "<u>", "").replace("</u>", "").split(" ")[0].rstrip("*") == shown(expected)
                checked += expected is not None
    assert checked > 60


def test_bootstrap_point_is_the_results_json_statistic(three_runs):
    """The interval is built around the same statistic results.json reports (macro Avg included)."""
    from werealign.stats import bootstrap as stats

    lb = board(three_runs)
    for entry in lb.entries:
        for column in main_columns(lb.entries):
            value = column.value(entry, BASE)
            assert stats.point(column.observations(entry, BASE), column.group_of()) == pytest.approx(value, abs=1e-6)


def test_every_format_renders_and_is_deterministic(three_runs):
    one, other = board(three_runs), board(three_runs)  # built twice from the runs: the build is part of what must repeat
    for fmt, render in RENDERERS.items():
        first, second = render(one), render(other)
        assert first == second, fmt
        assert "prov/alpha" in first and "werealign/longest" in first, fmt
        if fmt == "html":  # the three plots embedded as SVG: the same bytes from both builds (test_leaderboard_plots)
            assert all(f'id="plot-{name}"' in first for name in ("dimensions", "roles", "floors"))
            assert first.count('src="data:image/svg+xml;base64,') == 3
    doc = json.loads(RENDERERS["json"](one))
    assert {t["key"] for t in doc["tables"]} >= {"main", "ablation", "roles-speech", "roles-vote", "roles-opponent", "floors"}
    latex = RENDERERS["latex"](one)
    assert r"\textbf{" in latex and r"\underline{" in latex and "prov/alpha" not in latex.replace("prov/alpha", "")
    assert "werealign/longest" in latex and "_" not in latex.replace(r"\_", "").split("begin{table}")[1].split("tabular}")[0]


def test_roles_are_whatever_the_runs_hold(tmp_path):
    run = write_run(tmp_path / "x", "prov/x", 0.5)
    doc = leaderboard_json(board([run]))
    roles = next(t for t in doc["tables"] if t["key"] == "roles-speech")
    assert roles["columns"] == ["villager", "lantern-keeper", "moon-priestess"]  # catalogue roles first, then the others


def test_ties_share_the_rank_and_the_next_value_is_second(tmp_path):
    def fixed(share):  # VA correct on the first `share` games
        return lambda row: row["task"] != "vote" or int(row["game_id"].split("-")[1]) < share

    runs = [write_run(tmp_path / "a", "prov/a", correct=fixed(3)), write_run(tmp_path / "b", "prov/b", correct=fixed(3)),
            write_run(tmp_path / "c", "prov/c", correct=fixed(2)), write_run(tmp_path / "d", "prov/d", correct=fixed(1))]
    lb = board(runs)
    main = next(t for t in lb.tables if t.key == "main")
    ranks = {r.model: r.cells["VA"].rank for r in main.rows}
    assert ranks == {"prov/a": 1, "prov/b": 1, "prov/c": 2, "prov/d": None}
    md = to_markdown(lb)
    assert cell_text(md, "Main results (base variant)", "prov/a", "VA").startswith("**75.0**")
    assert cell_text(md, "Main results (base variant)", "prov/b", "VA").startswith("**75.0**")
    assert cell_text(md, "Main results (base variant)", "prov/c", "VA").startswith("<u>50.0</u>")
    assert cell_text(md, "Main results (base variant)", "prov/d", "VA").startswith("25.0")
    # A tie at the top is never "significantly best".
    assert not any(r.cells["VA"].significant for r in main.rows)
    # When every model shows the same value (OI is right for all of them here), nobody is bold.
    assert {r.cells["OI"].value for r in main.rows} == {1.0} and {r.cells["OI"].rank for r in main.rows} == {None}


def test_significance_marks_a_clear_winner(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/strong", correct=lambda r: True, games=8),
            write_run(tmp_path / "b", "prov/weak", correct=lambda r: r["decode"] == 0 and r["game_id"] < "game-2", games=8)]
    lb = board(runs)
    main = next(t for t in lb.tables if t.key == "main")
    strong = next(r for r in main.rows if r.model == "prov/strong")
    assert strong.cells["Avg"].significant and strong.cells["Avg"].rank == 1
    pairs = [c for c in lb.comparisons if c["table"] == "main" and c["column"] == "Avg"]
    assert len(pairs) == 1 and pairs[0]["significant"] and pairs[0]["p_value"] < 0.05
    assert "100.0*" in cell_text(to_markdown(lb), "Main results (base variant)", "prov/strong", "Avg")


def test_missing_tasks_and_dimensions_are_shown_as_missing(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/full", 0.6),
            write_run(tmp_path / "b", "prov/speech-only", 0.6, tasks=("speech",), dims=("RI", "SJ"))]
    lb = board(runs)
    md = to_markdown(lb)
    for column in ("VA", "OI", "DR", "PS", "CT"):
        assert cell_text(md, "Main results (base variant)", "prov/speech-only", column) == "—"
    row = next(r for t in leaderboard_json(lb)["tables"] if t["key"] == "main" for r in t["rows"] if r["model"] == "prov/speech-only")
    assert row["cells"]["VA"]["value"] is None and row["cells"]["RI"]["value"] is not None


def test_runs_of_one_model_are_merged(tmp_path):
    runs = [write_run(tmp_path / "speech", "prov/m", 0.6, tasks=("speech",)),
            write_run(tmp_path / "decisions", "prov/m", 0.6, tasks=("vote", "opponent"))]
    entries = collect(runs)
    assert [e.model for e in entries] == ["prov/m"]
    doc = leaderboard_json(build(entries, resamples=RESAMPLES))
    row = next(t for t in doc["tables"] if t["key"] == "main")["rows"][0]
    assert all(row["cells"][c]["value"] is not None for c in ("RI", "Avg", "VA", "OI"))
    assert doc["models"][0]["runs"] == ["speech", "decisions"]


def test_two_runs_scoring_the_same_cells_are_refused(tmp_path):
    runs = [write_run(tmp_path / "one", "prov/m", 0.6), write_run(tmp_path / "two", "prov/m", 0.3)]
    with pytest.raises(UserError, match=r"two runs scoring variant base task speech"):
        collect(runs)


@pytest.mark.parametrize("change, reason", [
    ({"dataset_sha": "e" * 64}, "evaluated another content of invented 1"),  # the dataset named, not its hash
    ({"prompt_version": "v2"}, "prompt version differs"),
    ({"protocol": "randomized"}, "ablation protocol differs"),
])
def test_non_comparable_runs_are_refused_with_the_reason(tmp_path, change, reason):
    runs = [write_run(tmp_path / "a", "prov/a"), write_run(tmp_path / "b", "prov/b", **change)]
    with pytest.raises(UserError, match=reason) as e:
        collect(runs)
    assert str(tmp_path / "b") in str(e.value) and "\n" not in str(e.value)


def test_half_finished_run_is_marked_partial(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/done"), write_run(tmp_path / "b", "prov/half", missing=7)]
    lb = board(runs)
    assert "prov/half (partial)" in to_markdown(lb) and "prov/done (partial)" not in to_markdown(lb)
    models = {m["model"]: m["partial"] for m in leaderboard_json(lb)["models"]}
    assert models == {"prov/done": False, "prov/half": True}
    assert "(partial)" in RENDERERS["html"](lb)


def test_bad_run_directories_are_one_line_errors(tmp_path):
    good = write_run(tmp_path / "good", "prov/a")
    interrupted = write_run(tmp_path / "interrupted", "prov/b")
    (interrupted / "results.json").unlink()
    not_a_run = tmp_path / "plain"
    not_a_run.mkdir()
    (tmp_path / "file").write_text("x")
    broken = write_run(tmp_path / "broken", "prov/c")
    (broken / "results.json").write_text("{")
    cases = {interrupted: "no results.json: the run was interrupted", not_a_run: "not a run directory (no run.json)",
             tmp_path / "nowhere": "run directory not found", tmp_path / "file": "not a directory",
             broken: "invalid JSON"}
    for path, message in cases.items():
        with pytest.raises(UserError, match=re.escape(message)) as e:
            collect([good, path])
        assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_ablation_table_reports_the_change_against_base(tmp_path):
    run = write_run(tmp_path / "a", "prov/a", 0.5, variants=("base", "osr"))
    lb = board([run])
    results = json.loads((run / "results.json").read_text())["variants"]
    row = next(t for t in lb.tables if t.key == "ablation").rows[0]
    assert row.variant == "osr" and row.label == "prov/a [osr]"
    assert row.cells["Avg"].value == results["osr"]["speech"]["macro_accuracy"]
    assert row.cells["Avg"].change == pytest.approx(results["osr"]["speech"]["macro_accuracy"] - results["base"]["speech"]["macro_accuracy"])
    assert row.cells["Avg"].change_low <= row.cells["Avg"].change_high


def test_floors_are_the_best_baseline_per_column(tmp_path):
    runs = [write_run(tmp_path / "a", "werealign/random", 0.2), write_run(tmp_path / "b", "werealign/longest", 0.4),
            write_run(tmp_path / "c", "prov/model", 0.8)]
    lb = board(runs)
    floors = next(t for t in lb.tables if t.key == "floors")
    assert [r.model for r in floors.rows] == ["werealign/longest", "werealign/random", None]
    for column in floors.columns:
        values = [r.cells[column.name].value for r in floors.rows[:-1]]
        assert floors.rows[-1].cells[column.name].value == max(values)


def test_same_seed_same_intervals_other_seed_other_intervals(three_runs):
    a, b, c = (leaderboard_json(board(three_runs, seed=s)) for s in (1, 1, 2))
    assert a == b
    assert a["tables"][0] != c["tables"][0]


def test_a_malformed_results_file_names_the_file_and_field(tmp_path):
    run = write_run(tmp_path / "a", "prov/a")
    results = json.loads((run / "results.json").read_text())
    results["totals"]["missing"] = "none"
    (run / "results.json").write_text(json.dumps(results))
    with pytest.raises(UserError, match=r"results\.json: totals\.missing") as e:
        collect([run])
    assert "\n" not in str(e.value)
