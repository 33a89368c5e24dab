"""Too few games for a cluster bootstrap: the leaderboard warns, says how many games, and marks nothing."""

from __future__ import annotations

from cli_inproc import run_cli
from run_factory import write_run

from werealign.stats import bootstrap as stats
from werealign.leaderboards.collect import collect
from werealign.leaderboards.render import leaderboard_json, to_latex, to_markdown
from werealign.leaderboards.tables import build


def _runs(tmp_path, games):
    return [write_run(tmp_path / "a", "prov/strong", correct=lambda r: True, games=games),
            write_run(tmp_path / "b", "prov/weak", correct=lambda r: r["decode"] == 0 and r["game_id"] < "game-1",
                      games=games)]


def test_two_games_warn_and_mark_no_significance(tmp_path):
    lb = build(collect(_runs(tmp_path, 2)), resamples=300)
    main = next(t for t in lb.tables if t.key == "main")
    assert not any(c.significant for r in main.rows for c in r.cells.values())
    assert not any(c["significant"] for c in lb.comparisons)
    assert len(lb.warnings) == 1 and "fewer than" in lb.warnings[0] and len(f"warning: {lb.warnings[0]}") <= 80
    assert any("fewer than" in n for n in main.notes)
    md = to_markdown(lb)
    assert "100.0*" not in md.replace("**", "") and f"fewer than {stats.MIN_GAMES} games" in md and "each interval from 2 game(s)" in md
    assert "fewer than" in to_latex(lb)
    assert leaderboard_json(lb)["warnings"] == lb.warnings
    assert {c["games"] for c in lb.comparisons if c["table"] == "main"} == {2}


def test_enough_games_still_mark_a_clear_winner(tmp_path):
    """The same clear gap over enough games is marked: the rule is about the games, not the gap."""
    lb = build(collect(_runs(tmp_path, stats.MIN_GAMES + 1)), resamples=300)
    main = next(t for t in lb.tables if t.key == "main")
    assert next(r for r in main.rows if r.model == "prov/strong").cells["Avg"].significant
    assert not any("fewer than" in n for n in main.notes)


def test_cells_on_different_numbers_of_games_say_their_own(tmp_path):
    runs = [write_run(tmp_path / "a", "prov/a", 0.6, games=7), write_run(tmp_path / "b", "prov/b", 0.5, games=7)]
    lb = build(collect(runs), resamples=200)
    roles = next(t for t in lb.tables if t.key == "roles-speech")
    counts = {c.games for r in roles.rows for c in r.cells.values()}
    assert len(counts) > 1  # each invented role is played in some of the games
    assert " g=" in to_markdown(lb).split("By the viewpoint player's role: speech accuracy")[1].split("\n## ")[0]


def test_the_command_warns_on_stderr(tmp_path):
    r = run_cli("leaderboard", *_runs(tmp_path, 2), "--resamples", "200")
    assert r.returncode == 0, r.stderr
    assert "warning:" in r.stderr and "fewer than" in r.stderr
