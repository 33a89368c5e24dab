"""Issue 22: the published agent designs as solvers (cot, self-consistency, sa, xu, mg).

In-process with the fake completion: every solver runs, stores each step and resumes without a request;
no step of any solver shows a model what the task's prompt hides (an invented game with planted secrets,
and the real release); sa's estimates are scored against the truth; specs, suites, --dry-run, the
solver-gain table and `werealign view` carry them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path

import pytest
from cli_inproc import run_cli
from crafted_game import SECRETS, crafted_game, crafted_opponent_item, crafted_speech_item, crafted_vote_item
from fake_llm import FakeCompletion

from werealign.dataset import write_dataset
from werealign.errors import UserError
from werealign.eval.runner import EvalConfig, Execution, run_eval
from werealign.solvers import canonical_spec, get_solver
from werealign.solvers.agent_designs import AGENTS
from werealign.solvers.sa import read_choice, read_ratings
from werealign.solvers.base import State
from werealign.tasks import parse_reply

STEPS = {
    "cot": ["reason", "answer"],
    "self-consistency": ["sample-1", "sample-2", "sample-3", "sample-4", "sample-5", "vote"],
    "sa": ["estimate", "estimation", "strategy", "choice", "answer"],
    "xu": ["memory", "select", "ask", "questions", *[f"question-{i}" for i in range(1, 8)], "reflect", "experience", "suggestion", "answer"],
    "mg": ["reflect", "reflection", "experience", "answer"],
}
PYTHON_STEPS = {"vote", "estimation", "choice", "experience", "memory", "questions", "reflection", "unreadable"}


def _expected(solver: str, row: dict) -> list[str]:
    """The steps a row must show: xu asks as many own questions as its reply gave (the fake gives one) and
    draws a suggestion only when some experience of another game is similar enough."""
    names = [s["name"] for s in row["steps"]]
    want = STEPS[solver]
    if solver == "xu":
        asked = json.loads(next(s["output"] for s in row["steps"] if s["name"] == "questions"))
        n = len(asked["selected"]) + len(asked["own"])
        want = [w for w in want if not w.startswith("question-") or int(w.split("-")[1]) <= n]
        if "suggestion" not in names:
            want = [w for w in want if w != "suggestion"]
    return want


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]


def _varied(user: str) -> str:
    """A fake with answers that differ by prompt (so a majority and a gain mean something)."""
    return "Some thoughts.\nAnswer: " + random.Random(len(user)).choice("ABCDEFGHI")


@pytest.mark.parametrize("solver", sorted(STEPS))
def test_every_solver_stores_its_steps_and_resumes_without_a_request(solver, tmp_path):
    config = EvalConfig(model="openai/fake", dataset=None, variants=("base",), decodes=1, limit=2, solver=solver)
    fake = FakeCompletion()
    run_eval(config, Execution(), out=tmp_path / "r", acompletion=fake, cache=False)
    rows = _rows(tmp_path / "r")
    assert len(fake.calls) == sum(len([s for s in _expected(solver, row) if s not in PYTHON_STEPS]) for row in rows)
    for row in rows:
        assert [s["name"] for s in row["steps"] if s["name"] != "unreadable"] == _expected(solver, row), row["steps"]
        # Issue 44: a reply a solver could not read is a step of its own. The fake writes no JSON reflection (mg),
        # no strategy (sa) and no marker before the response of xu's and mg's chain-of-thought step.
        unread = [json.loads(s["output"])["step"] for s in row["steps"] if s["name"] == "unreadable"]
        assert unread == {"mg": ["reflect", "answer"], "sa": ["estimate", "strategy"]}.get(solver, unread)
        assert solver != "xu" or unread[-1] == "answer"
        assert all(s["key"] for s in row["steps"] if s["kind"] == "model")
        assert row["correct"] is not None
    assert json.loads((tmp_path / "r" / "run.json").read_text())["config"]["solver"] == solver
    again = FakeCompletion()
    run_eval(config, Execution(), out=tmp_path / "r", acompletion=again, cache=False)
    assert again.calls == [], "a rerun replays every stored step"
    page = tmp_path / "view.html"
    assert run_cli("view", tmp_path / "r", "--out", page).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert all(name in html for row in rows for name in _expected(solver, row))


def _secret_dataset(root: Path) -> Path:
    """The crafted game (secrets planted everywhere a prompt must not reach) plus a second invented game
    without secrets, won by the village, for the experience pools."""
    game = crafted_game()
    other = game.model_copy(update={"game_id": "other-game", "winner": "good", "recap": None, "annotator_log": None,
                                    "utterances": [u.model_copy(update={"text": f"Turn {i}: I think we should vote carefully today."})
                                                   for i, u in enumerate(game.utterances)]})
    write_dataset(root, name="secrets", version="1", licence="CC0", games=[game, other],
                  items={"speech": [crafted_speech_item()], "vote": [crafted_vote_item()], "opponent": [crafted_opponent_item()]})
    return root


@pytest.mark.parametrize("solver", sorted(STEPS))
def test_no_step_of_any_solver_shows_a_planted_secret(solver, tmp_path):
    ds = _secret_dataset(tmp_path / "ds")
    fake = FakeCompletion(reply_for=_varied)
    config = EvalConfig(model="openai/fake", dataset=str(ds), variants=("base",), decodes=1, solver=solver)
    run_eval(config, Execution(), out=tmp_path / "r", acompletion=fake, cache=False)
    assert fake.calls
    for call in fake.calls:
        text = "\n".join(m["content"] for m in call["messages"])
        leaked = [name for name, marker in SECRETS.items() if marker in text]
        assert not leaked, (solver, leaked)


def test_no_step_shows_the_items_own_game_beyond_its_prompt_on_the_release(werebench_import, werebench_dataset):
    """Every step of every solver on real release items: no turn of the item's game that the task's prompt
    leaves out (after the cut-off, the wolves' night chat for a villager, ...) reaches any step."""
    from werealign.eval.plan import plan_run
    from werealign.solvers.replay import run_solver
    from werealign.llm.store import StoredResponse

    ds = werebench_dataset  # the session's one load of the shared import (conftest)
    config = EvalConfig(model="openai/fake", dataset=str(werebench_import.path), variants=("base",), decodes=1, limit=3)
    plan = plan_run(ds, config)
    # The experience pools (xu, mg) hold the planned items' games only (8 of the release's 59): each item's own game is
    # in every pool, as with the whole release, and must never be drawn on; fitting the pool's index on all 59 games'
    # turns (1,823 experiences) was most of this test's time and shows nothing more about the item's own game.
    games = tuple(g for g in plan[0].games if g.game_id in {p.game.game_id for p in plan})
    assert 1 < len(games) < len(plan[0].games)
    plan = [dataclasses.replace(p, games=games) for p in plan]
    for spec in sorted(STEPS):
        solver = get_solver(spec)
        for p in plan:
            sent: list[str] = []

            async def send(key, messages, params, sent=sent):
                sent.append("\n".join(m["content"] for m in messages))
                return StoredResponse(key=key, request={"messages": messages}, status="ok", response="Seat 1: werewolf 5\nAnswer: A",
                                      usage={}, cost=None, latency=0.0, error_class=None, error_message=None, attempts=1)

            asyncio.run(run_solver(solver, "openai/fake", p.state(), {}, send))
            prompt = "\n".join(m["content"] for m in p.messages)
            hidden = {u.text[:24] for u in p.game.utterances if len(u.text) >= 24 and u.text[:24] not in prompt}
            # a host's stock phrase ("the game goes on, close your eyes...") is word for word in other games too: found
            # in a step, it may be another game's experience, not this game's turn
            hidden -= {h for h in hidden if any(h in u.text for g in games if g is not p.game for u in g.utterances)}
            assert hidden, "the cut-off hides something of every item's game"
            for text in sent:
                assert not [h for h in hidden if h in text], (spec, p.item.item_id)


class _Scripted:
    """Steps that answer each ask with the next scripted reply and keep the notes."""

    def __init__(self, replies):
        self.replies = iter(replies)
        self.notes: list = []

    async def ask(self, step, messages, *, params=None):
        return next(self.replies)

    def note(self, step, output):
        self.notes.append((step, output))


def test_self_consistency_takes_the_majority_answer():
    game, item = crafted_game(), crafted_speech_item()
    state = State(messages=[{"role": "user", "content": "q"}], params={}, decode=0, task="speech", item=item, game=game, key="k",
                  read=lambda reply: parse_reply(reply, item, game=game).answer)
    steps = _Scripted(["Answer: A", "Answer: B", "I think.\nAnswer: B"])
    reply = asyncio.run(get_solver("self-consistency:samples=3").solve(state, steps))
    assert reply.endswith("Answer: B") and steps.notes[-1][1].startswith("2 of 3 samples")


def test_self_consistency_reads_answers_with_the_states_reader_whatever_the_task():
    """No task of werealign's: an invented one whose answer is the reply's last word, read by the reader the state
    carries; without a reader the solver says what it lacks instead of guessing a task."""
    last_word = lambda reply: reply.split()[-1] if reply and reply.split() else None  # noqa: E731
    state = State(messages=[{"role": "user", "content": "q"}], params={}, decode=0, task="invented-kind", item=object(),
                  game=None, key="k", read=last_word)
    steps = _Scripted(["I pick ember", "surely frost", "ember it is... ember"])
    assert asyncio.run(get_solver("self-consistency:samples=3").solve(state, steps)) == "I pick ember"
    assert steps.notes[-1][1] == '2 of 3 samples: "ember"'
    with pytest.raises(ValueError, match="State.read"):
        asyncio.run(get_solver("self-consistency:samples=2").solve(
            State(messages=[], params={}, decode=0, task="invented-kind", item=object(), game=None, key="k"), _Scripted(["x", "y"])))


def test_sa_rates_0_to_4_after_evidence_scores_acc_and_records_its_strategy_on_an_invented_game():
    game = crafted_game()
    item = crafted_speech_item()
    others = [s for s in game.seats if s.seat != item.viewpoint_seat]
    names = {s.role: s.role.replace("_", " ") for s in game.seats}
    wrong = others[0]
    decoy = next(r for r in sorted(names) if r != wrong.role)

    def ratings() -> str:  # the true role 3, every other 1; one seat rated 4 on a role it does not hold, 1 on its own
        lines = ["Evidence: seat 2 claimed a role no one else did."]
        for s in others:
            if s is wrong:
                lines.append(f"Seat {s.seat}: " + ", ".join(f"{n} {4 if r == decoy else 1}" for r, n in sorted(names.items())))
            else:
                lines.append(f"Seat {s.seat}: " + ", ".join(f"{n} {3 if r == s.role else 1}" for r, n in sorted(names.items())))
        return "\n".join(lines)

    noted, asked = {}, {}

    class Steps:
        async def ask(self, step, messages, *, params=None):
            asked[step] = messages[-1]["content"]
            return ratings() if step == "estimate" else "Strategy: Attack - seat 2 lies\nAnswer: A"

        def note(self, step, output):
            noted[step] = json.loads(output)

    state = State(messages=[{"role": "user", "content": "q"}], params={}, decode=0, task="speech", item=item, game=game, key="k")
    asyncio.run(get_solver("sa").solve(state, Steps()))
    assert "Evidence" in asked["estimate"] and "0 to 4" in asked["estimate"]
    est = noted["estimation"]
    assert est["rated"] == est["seats"] == len(others)
    k = len(names)
    for s in others:
        got = est["by_seat"][str(s.seat)]
        assert got["role"] == s.role
        assert got["acc"] == pytest.approx(1 / (4 + k - 1) if s is wrong else 3 / (3 + k - 1))
    assert noted["choice"]["strategy"] == "attack"
    me = next(s for s in game.seats if s.seat == item.viewpoint_seat)
    assert noted["choice"]["side"] == ("wolf" if me.faction == "wolf" else "village")
    assert "Support fits when" in asked["strategy"] and "Attack fits when" in asked["strategy"]
    assert ("Attack (werewolf side)" if me.faction == "wolf" else "Attack (villager side)") in asked["answer"]


def test_ratings_and_the_choice_are_read_in_english_and_chinese():
    roles = [("moon_oracle", "moon oracle"), ("dusk_hound", "dusk hound"), ("villager", "villager")]
    reply = ("Evidence: Seat 2: moon oracle claim, 3 votes\nSeat 2: moon oracle 4, dusk hound 0, villager 2\n"
             "- Seat 3: dusk hound 9, villager 3\nSeat 9: villager 4\nnoise")
    assert read_ratings(reply, roles, {2, 3, 4}) == {2: {"moon_oracle": 4, "dusk_hound": 0, "villager": 2}, 3: {"villager": 3}}
    zh = [("seer", "预言家"), ("werewolf", "狼人")]
    assert read_ratings("2号: 预言家 1, 狼人 4\n3号：预言家 4，狼人 0", zh, {2, 3}) == {2: {"seer": 1, "werewolf": 4}, 3: {"seer": 4, "werewolf": 0}}
    assert read_choice("I weigh it.\nStrategy: **Support** - seat 4 is trusted") == "support"
    assert read_choice("策略：进攻 - 3号是狼") == "attack" and read_choice("no choice here") is None


def test_specs_are_canonical_and_bad_ones_are_one_clear_error():
    assert canonical_spec("xu") == canonical_spec("xu:questions=5") == "xu"
    assert canonical_spec({"name": "xu", "questions": 6}) == canonical_spec("xu: questions = 6") == "xu:questions=6"
    assert canonical_spec("self-consistency:temperature=0.9,samples=3") == "self-consistency:samples=3,temperature=0.9"
    for bad, needle in [("xu:q=1", "unknown option 'q'"), ("xu:questions=x", "not a whole number"), ("xu:questions=0", "at least 1"),
                        ("tree-of-thought", "unknown solver"), ("xu:questions", "not key=value")]:
        with pytest.raises(UserError, match=needle):
            canonical_spec(bad)
    assert {s.name for s in AGENTS} == set(STEPS)


def test_a_suite_runs_one_model_with_several_solvers_and_the_leaderboard_shows_their_gain(tmp_path, monkeypatch):
    from werealign.leaderboards.collect import collect
    from werealign.leaderboards.tables import build

    paths = []
    for spec in ("single", "cot", "xu:questions=2"):
        out = tmp_path / spec.replace(":", "_")
        config = EvalConfig(model="openai/fake", dataset=None, variants=("base",), decodes=1, solver=canonical_spec(spec))
        run_eval(config, Execution(), out=out, acompletion=FakeCompletion(reply_for=_varied), cache=False)
        paths.append(out)
    lb = build(collect(paths), resamples=200)
    table = next(t for t in lb.tables if t.key == "solver-gain")
    assert [r.label for r in table.rows] == ["openai/fake [cot] — Wei et al. (2022)", "openai/fake [xu:questions=2] — Xu et al. (2023)"]
    assert "xu: Xu et al. (2023), Exploring Large Language Models for Communication Games: An Empirical Study on Werewolf" in table.notes
    assert {c.name for c in table.columns} >= {"Avg", "RI", "VA", "OI"}, "the gain per task and per dimension"
    assert all(r.cells["Avg"].value is not None and r.cells["Avg"].low <= r.cells["Avg"].value <= r.cells["Avg"].high for r in table.rows)
    md = run_cli("leaderboard", *paths, "--format", "md")
    assert md.returncode == 0 and "Solver gain" in md.stdout and "openai/fake [cot] — Wei et al. (2022)" in md.stdout

    suite = tmp_path / "s.yaml"
    suite.write_text("name: s\nsettings:\n  limit: 2\n  max_tokens: 64\nmodels:\n  - model: openai/gpt-4o-mini\n"
                     "  - model: openai/gpt-4o-mini\n    solver: {name: xu, questions: 6}\n"
                     "  - model: openai/gpt-4o-mini\n    solver: sa\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = run_cli("eval", "--suite", suite, "--dry-run")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    calls = [int(line.split(" model calls")[0].rsplit(" ", 1)[1]) for line in lines]
    samples = [int(line.split(" samples")[0].rsplit(" ", 1)[1]) for line in lines]
    # xu: select, ask, 6 chosen + 2 own questions, reflect, answer, and a suggestion where experience is similar enough
    assert calls[0] == samples[0] and calls[2] == samples[2] * 3 and "[xu:questions=6]" in lines[1]
    assert samples[1] * (6 + 2 + 4) <= calls[1] <= samples[1] * (6 + 2 + 5)
    assert not (tmp_path / "runs").exists(), "a dry run writes nothing"
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: s\nmodels:\n  - model: openai/x\n    solver: {name: xu, question: 6}\n", encoding="utf-8")
    r = run_cli("eval", "--suite", bad, "--dry-run")
    assert r.returncode == 1 and "bad.yaml:4" in r.stderr and "unknown option 'question'" in r.stderr


def test_builtin_baselines_refuse_a_solver_before_anything_runs(tmp_path):
    r = run_cli("eval", "--model", "werealign/random", "--solver", "cot", "--out", tmp_path / "r")
    assert r.returncode == 1 and "built-in baseline" in r.stderr and not (tmp_path / "r").exists()


def test_the_models_compared_table_names_each_solver_run():
    """A label like `m [cot]` is shown as it is (rich would take the brackets for markup)."""
    from types import SimpleNamespace

    from rich.console import Console

    from werealign.eval.progress import comparison
    from werealign.eval.runner import ModelJob

    jobs = [ModelJob(EvalConfig(model="openai/x", solver=s), Execution(), Path(s)) for s in ("single", "cot", "xu:questions=6")]
    console = Console(width=80, record=True)
    console.print(comparison([SimpleNamespace(job=j, summary=None, ok=False) for j in jobs]))
    text = console.export_text()
    assert "openai/x [cot]" in text and "openai/x [xu:questions=6]" in text


def test_the_experience_pool_scores_as_xu_et_al_and_never_draws_on_the_items_own_game():
    """Invented games: the viewpoint (a seer) learns from seers of other games; a winner's turn scores
    1000 - days, a loser's days; the lowest is the bad example, the rest nearest the median the good."""
    from werealign.schema.models import Audience
    from werealign.solvers.experience import bad_and_good, recall

    base = crafted_game()
    seer = next(s for s in base.seats if s.role == "seer")

    def game(gid: str, winner: str, days: int, text: str, language: str = "en", night_chat: bool = False):
        phases = [p.model_copy(update={"day": min(p.day, days)}) for p in base.phases]
        turns = [u.model_copy(update={"speaker": seer.seat, "text": f"{text} number {i}, check the wolves on seat two",
                                      "audience": Audience(kind="team", team="wolf") if night_chat else None})
                 for i, u in enumerate(base.utterances[:3])]
        return base.model_copy(update={"game_id": gid, "winner": winner, "phases": phases, "utterances": turns, "language": language})

    own = game(base.game_id, "good", 1, "OWN GAME")
    others = (game("fast-win", seer.faction, 1, "fast win"), game("slow-win", seer.faction, 3, "slow win"),
              game("loss", "wolf" if seer.faction != "wolf" else "good", 2, "a loss"),
              game("chinese", seer.faction, 1, "zh game", language="zh"), game("secret", seer.faction, 1, "night chat", night_chat=True))
    state = State(messages=[{"role": "user", "content": "q"}], params={}, decode=0, task="speech", item=crafted_speech_item(),
                  game=own, key="k", others=others)
    bad, good = bad_and_good(state, "check the wolves on seat two", 2, 0.0)
    assert bad.game_id == "loss" and bad.score == 2 and not bad.won
    days = {g.game_id: max(p.day for p in g.phases) for g in others}
    assert {e.game_id for e in good} <= {"fast-win", "slow-win"} and all(e.score == 1000 - days[e.game_id] for e in good)
    assert days["slow-win"] > days["fast-win"]
    recalled = recall(state, "check the wolves", 10, 0.0)
    assert {e.game_id for e in recalled} == {"fast-win", "slow-win", "loss"}, "never its own game, another language or a private chat"
    assert {e.won for e in recalled} == {True, False}
    assert bad_and_good(state, "check the wolves on seat two", 2, 0.99) == (None, []), "nothing as similar as the threshold asks"


def test_est_is_the_mean_acc_of_a_seats_raters_and_every_block_has_its_interval():
    """results.json `estimation` from invented sample rows: Acc per sample, Est(j) over the raters of j."""
    from werealign.eval.estimation import estimation_block

    def row(game, item, role, by_seat, strategy, seats=3):
        steps = [{"name": "estimation", "kind": "python", "output": json.dumps({"by_seat": by_seat, "seats": seats})},
                 {"name": "choice", "kind": "python", "output": json.dumps({"strategy": strategy})}]
        return {"task": "speech", "variant": "base", "item_id": item, "game_id": game, "dimension": "RI",
                "viewpoint_role": role, "decode": 0, "steps": steps}

    rows = [row("g1", "a", "seer", {"2": {"role": "dusk_hound", "acc": 0.5}, "3": {"role": "villager", "acc": 1.0}}, "attack"),
            row("g1", "b", "villager", {"2": {"role": "dusk_hound", "acc": 0.25}}, "support"),
            row("g2", "c", "seer", {"4": {"role": "villager", "acc": 0.0}, "5": {"role": "dusk_hound", "acc": None}}, None),
            {"task": "speech", "variant": "base", "item_id": "d", "game_id": "g2", "decode": 0, "steps": None}]
    est = estimation_block(rows)
    assert est["metric"] == "acc" and est["samples"] == 3 and est["seats"] == 4
    assert est["unrated"] == 1 + 2 + 2, "seats asked but without an Acc (not rated, or rated 0 on every role)"
    assert est["accuracy"] == pytest.approx((0.75 + 0.25 + 0.0) / 3, abs=1e-4)
    assert est["by_seat"]["g1"]["2"] == {"role": "dusk_hound", "est": 0.375, "raters": 2}
    assert est["est_by_role"]["dusk_hound"]["value"] == pytest.approx(0.375, abs=1e-4)
    assert est["by_role"]["seer"]["value"] == pytest.approx(0.375, abs=1e-4) and est["by_role"]["seer"]["samples"] == 2
    assert all(b["low"] <= b["value"] <= b["high"] for b in [*est["by_role"].values(), *est["est_by_role"].values()])
    assert est["strategies"] == {"attack": 1, "none": 1, "support": 1}
    assert estimation_block([rows[-1]]) is None


def test_an_index_is_fitted_once_for_the_same_lines_and_answers_as_a_fresh_fit():
    """xu retrieves from the sample's transcript at every decode and on every replay: one fit per set of lines."""
    from werealign.solvers.retrieval import Index, fitted

    lines = ["Seat 3: I am the seer, seat 5 is a wolf.", "Seat 5: seat 3 lies, I am a villager.", "座位 4：我是预言家。"]
    index = fitted(lines)
    assert fitted(list(lines)) is index  # equal lines, another list: the same fit
    assert fitted([*lines, "Seat 6: I pass."]) is not index
    for query in ("who checked seat 5", "预言家", "nothing alike"):
        assert index.cosines(query) == Index(lines).cosines(query)
