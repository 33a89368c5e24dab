"""Context gain (issue 19): base minus no-context with a cluster-bootstrap interval, in results.json, the
summary and the leaderboard; in-process with the fake completion function on invented games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fake_llm import FakeCompletion
from werealign.dataset import write_dataset
from werealign.errors import UserError
from werealign.eval.runner import EvalConfig, Execution, run_eval, score_run
from werealign.schema.models import (
    GameLog, Mvp, MvpVote, OpponentItem, Option, Phase, Provenance, RoleCount, Rules, SeatInfo, Segment, SpeechItem,
    Utterance, VoteItem,
)

GAMES = 8
DIMS = ("RI", "SJ", "DR", "PS", "CT")
# Invented roles (open world): nothing here is a role of the release.
ROLES = {1: ("lantern-keeper", "good"), 2: ("moon-wolf", "wolf"), 3: ("villager", "good"), 4: ("villager", "good"),
         5: ("moon-wolf", "wolf"), 6: ("bell-ringer", "good")}


def _clue(g: int, k: int) -> str:
    return f"quill{g}x{k}"


def clue_dataset(root: Path) -> Path:
    """Games whose transcript holds each item's answer: a model that reads the game can answer, one that cannot can't."""
    games, speech, vote, opponent = [], [], [], []
    for g in range(GAMES):
        gid = f"inv-{g}"
        lines = [(2, " ".join(f"Remember {_clue(g, k)}." for k in range(len(DIMS)))),
                 (6, f"Vote seat {2 + 3 * (g % 2)} now."), (3, "The wolves are seat 2 and seat 5.")]
        utterances = [Utterance(index=i, segment_ids=[i], start=10.0 + i, end=10.5 + i, phase="day-1", speaker=s, text=t,
                                segments=[Segment(id=i, start=10.0 + i, end=10.5 + i, text=t)]) for i, (s, t) in enumerate(lines)]
        last = len(lines) - 1
        games.append(GameLog(
            game_id=gid, language="en", provenance=Provenance(source="invented"),
            rules=Rules(text="Six invented players.", variant="inv",
                        composition=[RoleCount(role=r, faction=f, count=sum(1 for v in ROLES.values() if v == (r, f)))
                                     for r, f in dict.fromkeys(ROLES.values())]),
            seats=[SeatInfo(seat=s, role=r, faction=f) for s, (r, f) in ROLES.items()],
            phases=[Phase(id="day-1", kind="day", day=1, start=9, end=20)],
            utterances=utterances, events=[],
            mvp=Mvp(seat=1, votes=[MvpVote(phase="day-1", target=2, cutoff_segment=last)]), winner="good"))
        for k, dim in enumerate(DIMS):
            answer = "ABCDEFGHI"[(g + k) % 9]
            options = [Option(key=key, text=f"Go with {_clue(g, k) if key == answer else f'pebble{g}x{k}x{key}'}.",
                              origin="ground_truth" if key == answer else "m2_biased_rationale") for key in "ABCDEFGHI"]
            speech.append(SpeechItem(item_id=f"{gid}-{dim}", game_id=gid, language="en", dimension=dim, viewpoint_seat=1,
                                     cutoff_segment=last, question=f"What now? ({dim})", options=options, answer=answer))
        vote.append(VoteItem(item_id=f"{gid}-VA", game_id=gid, language="en", viewpoint_seat=1, phase="day-1",
                             cutoff_segment=last, candidates=[2, 3, 4, 5, 6], answer=2 + 3 * (g % 2)))
        opponent.append(OpponentItem(item_id=f"{gid}-OI", game_id=gid, language="en", viewpoint_seat=1, cutoff_segment=last,
                                     candidates=[2, 3, 4, 5, 6], answer=[2, 5]))
    write_dataset(root, name="invented", version="0", licence="CC0-1.0", games=games, items={"speech": speech, "vote": vote, "opponent": opponent})
    return root


def reads_the_game(user: str) -> str:
    """Answers from the transcript when the prompt shows one; otherwise option A / the first candidate."""
    said = user.split("## Transcript so far", 1)[1].split("## Question", 1)[0] if "## Transcript so far" in user else ""
    options = re.findall(r"^([A-I])\. Go with (\S+)\.$", user, re.M)
    if options:
        return "Answer: " + next((k for k, word in options if word in said), "A")
    if "opposing" in user:
        seats = re.search(r"wolves are seat (\d+) and seat (\d+)", said)
        return "Answer: " + (f"{seats.group(1)}, {seats.group(2)}" if seats else "2")
    call = re.search(r"Vote seat (\d+)", said)
    return "Answer: " + (call.group(1) if call else "2")


@pytest.fixture(scope="module")
def invented(tmp_path_factory) -> Path:
    return clue_dataset(tmp_path_factory.mktemp("ds") / "invented")


def run(dataset: Path, out: Path, reply_for=None, **config):
    settings = {"model": "openai/fake", "dataset": str(dataset), "decodes": 2, "variants": ("base", "no-context"), **config}
    return run_eval(EvalConfig(**settings), Execution(max_connections=4), out=out,
                    acompletion=FakeCompletion(reply_for=reply_for), cache=False)


def test_a_model_that_reads_the_game_gains_and_one_that_does_not_is_flagged(invented: Path, tmp_path: Path):
    reader = run(invented, tmp_path / "reader", reads_the_game).results.context_gain
    assert reader is not None and set(reader.tasks) == {"speech", "vote", "opponent"}
    for task in ("speech", "vote", "opponent"):
        g = reader.tasks[task]
        assert g.design == "paired" and g.games == GAMES and g.above_zero and g.gain >= 0.5, (task, g)
    speech = reader.tasks["speech"]
    assert set(speech.by_dimension) == set(DIMS) and speech.items == GAMES * len(DIMS)
    assert all(d.gain > 0 for d in speech.by_dimension.values())

    ignorer = run(invented, tmp_path / "ignorer").results  # option A / the first candidate whatever it is shown
    for task, g in ignorer.context_gain.tasks.items():
        assert not g.above_zero and g.low <= 0 <= g.high and abs(g.gain) < 0.1, (task, g)
    # the results.json block is what the run returned, and `werealign score` recomputes it byte for byte
    written = json.loads((tmp_path / "ignorer" / "results.json").read_text())["context_gain"]
    assert written == ignorer.context_gain.model_dump(mode="json")
    assert score_run(tmp_path / "ignorer").results.context_gain == ignorer.context_gain


def test_the_gain_is_deterministic(invented: Path, tmp_path: Path):
    a = run(invented, tmp_path / "a", reads_the_game).results.context_gain
    b = run(invented, tmp_path / "b", reads_the_game).results.context_gain
    assert a == b and a.model_dump_json() == b.model_dump_json()


def test_randomized_protocol_estimates_an_unpaired_gain_over_game_clusters(invented: Path, tmp_path: Path):
    out = tmp_path / "randomized"
    results = run(invented, out, reads_the_game, protocol="randomized", seed=3).results
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    per_item: dict[str, set[str]] = {}
    for r in rows:
        per_item.setdefault(r["item_id"], set()).add(r["variant"])
    assert all(len(v) == 1 for v in per_item.values())  # one variant per item
    speech = results.context_gain.tasks["speech"]
    assert speech.design == "unpaired"
    assert speech.items == GAMES * len(DIMS)  # every item of either arm, none paired
    assert speech.above_zero and speech.low < speech.gain < speech.high


def test_no_context_alone_has_no_gain_block_and_a_bad_variant_is_refused(invented: Path, tmp_path: Path):
    assert run(invented, tmp_path / "nc", variants=("no-context",)).results.context_gain is None
    with pytest.raises(UserError, match="--variant: unknown variant no-game; choose from .*no-context.*options-only"):
        run(invented, tmp_path / "bad", variants=("base", "no-game"))
    assert not (tmp_path / "bad").exists()


def test_the_summary_shows_the_gain_within_80_columns_and_flags_no_gain(invented: Path, tmp_path: Path):
    from rich.console import Console

    from werealign.eval.progress import summary

    results = run(invented, tmp_path / "s").results
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(summary(results, run_dir="runs/x", sent=1, cached=0))
    text = console.export_text()
    assert "context gain" in text and "not above zero" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    gain_lines = [line for line in text.splitlines() if line.startswith(("speech ", "vote ", "opponent "))
                  and "!" in line]
    assert len(gain_lines) == 3


def test_the_leaderboard_has_a_context_gain_table_and_flags_a_model_without_gain(tmp_path: Path):
    import hashlib

    from run_factory import write_run
    from werealign.leaderboards.collect import collect
    from werealign.leaderboards.render import to_markdown
    from werealign.leaderboards.tables import build

    def coin(row) -> bool:  # the same answer whatever the variant: a model that ignores the game
        return int(hashlib.sha256(f"{row['item_id']}|{row['decode']}".encode()).hexdigest()[:8], 16) % 2 == 0

    reader = write_run(tmp_path / "r", "prov/reader", variants=("base", "no-context"), games=6,
                       correct=lambda row: row["variant"] == "base" or coin(row) and coin({**row, "decode": -1}))
    ignorer = write_run(tmp_path / "i", "prov/ignorer", variants=("base", "no-context"), games=6, correct=coin)
    lb = build(collect([reader, ignorer]), resamples=300)
    table = next(t for t in lb.tables if t.key == "context-gain")
    rows = {r.model: r for r in table.rows}
    assert rows["prov/reader"].label == "prov/reader" and rows["prov/ignorer"].label == "prov/ignorer †"
    for column in ("Avg", "VA", "OI"):
        assert rows["prov/reader"].cells[column].low > 0
        cell = rows["prov/ignorer"].cells[column]
        assert cell.value == 0 and cell.low <= 0
    md = to_markdown(lb)
    assert "## Context gain: base minus no-context" in md and "† gain not above zero" in md
    assert "prov/ignorer (RI, SJ, DR, PS, CT, Avg, VA, OI)" in md
    # no run with no-context: no table
    plain = write_run(tmp_path / "p", "prov/plain")
    assert all(t.key != "context-gain" for t in build(collect([plain]), resamples=50).tables)


def test_end_to_end_on_the_bundled_sample(tmp_path: Path):
    """The CLI, a built-in model, the bundled sample: every variant scored, the gain in results.json and the summary."""
    from cli_inproc import run_cli

    out = tmp_path / "run"
    r = run_cli("eval", "--model", "werealign/lexical", "--variant", "base,no-context,options-only", "--decodes", "1",
                "--out", str(out))
    assert r.returncode == 0, r.stderr
    results = json.loads((out / "results.json").read_text())
    assert set(results["variants"]) == {"base", "no-context", "options-only"}
    assert set(results["context_gain"]["tasks"]) == {"speech", "vote", "opponent"}
    assert "context gain: base minus no-context" in r.stderr
    # the summary's gain table fits 80 columns (other stderr lines, e.g. a library's log warning, are not ours)
    table = r.stderr.split("context gain: base minus no-context", 1)[1].split("\n\n", 1)[0]
    assert "speech" in table and all(len(line) <= 80 for line in table.splitlines())
    again = run_cli("score", str(out))
    assert again.returncode == 0 and "context gain: base minus no-context" in again.stderr
    assert json.loads((out / "results.json").read_text())["context_gain"] == results["context_gain"]


def test_the_comparison_of_several_models_shows_each_gain(invented: Path, tmp_path: Path):
    from rich.console import Console

    from werealign.eval.progress import comparison
    from werealign.eval.runner import ModelJob, run_evals

    jobs = [ModelJob(EvalConfig(model=m, dataset=str(invented), decodes=1, variants=("base", "no-context")), Execution(),
                     tmp_path / m.replace("/", "_")) for m in ("openai/a", "openai/b")]
    outcomes = run_evals(jobs, max_connections=4, acompletion=FakeCompletion(reply_for=reads_the_game), cache=False)
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(comparison(outcomes))
    text = console.export_text()
    assert "gain" in text and all(len(line) <= 80 for line in text.splitlines())
    row = next(line for line in text.splitlines() if line.startswith("openai/a"))
    speech_gain = outcomes[0].summary.results.context_gain.tasks["speech"].gain
    assert f"{100 * speech_gain:+.1f}" in row


def test_an_unpaired_comparison_keeps_every_item_and_draws_the_games_once():
    from werealign.stats import bootstrap as stats
    from werealign.stats.observation import Observation

    def obs(item: str, game: str, value: float, variant: str) -> Observation:
        return Observation("speech", variant, item, game, "RI", "villager", 0, value)

    # Invented: items of one variant never asked in the other; six games, base right more often.
    a = [obs(f"g{g}-a{k}", f"g{g}", float(k < 3), "base") for g in range(6) for k in range(4)]
    b = [obs(f"g{g}-b{k}", f"g{g}", float(k < 1), "no-context") for g in range(6) for k in range(4)]
    assert stats.compare(a, b, seed=1) is None  # nothing paired
    c = stats.compare(a, b, seed=1, common_items=False)
    assert c.difference == pytest.approx(0.75 - 0.25) and c.items == 48
    assert c.low <= c.difference <= c.high and c.low > 0
    # a game holding only one side's items: replicates that drew none of the other side are left out, not NaN
    lone = [obs("g9-a0", "g9", 1.0, "base")]
    c2 = stats.compare(a + lone, b[:4], seed=2, common_items=False)
    assert c2 is not None and c2.low == c2.low and c2.high == c2.high  # not NaN


def test_a_task_mode_keeps_its_own_metric_in_the_gain(invented: Path, tmp_path: Path):
    results = run(invented, tmp_path / "m", tasks=("opponent",), modes={"opponent": "set-accuracy"}).results
    assert results.context_gain.tasks["opponent"].metric == "exact_match"
    results = run(invented, tmp_path / "r", tasks=("opponent",), modes={"opponent": "roles"}).results
    assert results.context_gain.tasks["opponent"].metric == "mean_item_role_accuracy"
