"""Issue 44 must-have 5: a run a user can watch and afford. Games play side by side (--parallel) sharing one budget of
requests in flight (--max-connections) and give the same games as one at a time; experience pools grow per group of
games (--pool-every), never from a game played beside; a line per game says its requests, unreadable moves and
cost; a failed game stops the others and the rerun resumes to the same bytes. Must-have 4: sa's 0-4 ratings reach
the trace, are scored as its paper's Est, and its strategy is chosen at the paper's points only."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter

import pytest
from fake_llm import FakeCompletion
from test_arena import tree

from werealign.arena.run import run_arena
from werealign.errors import UserError
from werealign.solvers import SOLVERS, Solver, register
from werealign.solvers.base import State, Steps

POOLS: dict[str, set[int]] = {}  # game id -> the sizes of the experience pools its decisions saw


async def _probe(state: State, steps: Steps) -> str:
    POOLS.setdefault(state.game.game_id, set()).add(len(state.others))
    return await steps.ask("answer", state.messages)


if "pool-probe" not in SOLVERS:
    register(Solver("pool-probe", _probe, "notes the experience pool's size (tests only)"))


class Slow(FakeCompletion):
    """A fake with latency that counts the requests in flight at once."""

    def __init__(self, delay: float = 0.002, **kw):
        super().__init__(**kw)
        self.delay, self.now, self.most = delay, 0, 0

    async def __call__(self, **kw):
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(self.delay)
            return await super().__call__(**kw)
        finally:
            self.now -= 1


BOARD = {"roles": ["seer", "werewolf", "villager", "villager", "villager"], "debate": "round-robin", "max_days": 2}


@pytest.fixture()
def board(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps(BOARD))
    return str(path)


def test_parallel_games_are_the_games_played_one_at_a_time(tmp_path, board):
    one = FakeCompletion()
    run_arena(["openai/fake-a"], games=4, seed=7, out=tmp_path / "one", board=board, acompletion=one, use_cache=False)
    side = Slow()
    lines: list[str] = []
    run_arena(["openai/fake-a"], games=4, seed=7, out=tmp_path / "side", board=board, acompletion=side, use_cache=False,
              parallel=4, max_connections=3, on_game=lines.append)
    assert tree(tmp_path / "one") == tree(tmp_path / "side")
    assert sorted(json.dumps(c, sort_keys=True) for c in one.calls) == sorted(json.dumps(c, sort_keys=True) for c in side.calls)
    assert 1 < side.most <= 3, "games overlap, within --max-connections"
    done = [ln for ln in lines if re.match(r"^\[\d/4\] arena-short-s7-p1-g\d: ", ln)]
    assert len(done) == 4 and {ln[:5] for ln in done} == {"[1/4]", "[2/4]", "[3/4]", "[4/4]"}
    per_game = [ln for ln in lines if re.fullmatch(r"  \d+ requests \(\d+ new\), \d+ of \d+ moves unreadable", ln)]
    costs = [ln for ln in lines if ln.startswith("  cost $") and "spent so far $" in ln]
    assert len(per_game) == len(costs) == 4
    assert costs[-1].endswith(f"${0.001 * len(side.calls):.4f}"), "the fake prices each request sent at 0.001"


def test_a_line_for_the_games_in_play(tmp_path, board):
    lines: list[str] = []
    run_arena(["openai/fake-a"], games=2, seed=7, out=tmp_path / "a", board=board, acompletion=Slow(delay=0.01), use_cache=False,
              parallel=2, on_game=lines.append, progress_every=0.05)
    playing = [ln for ln in lines if ln.startswith("  in play: arena-short-s7-p1-g")]
    assert playing and all(re.search(r", \d+s, \d+ requests, \d+ of \d+ moves unreadable$", ln) for ln in playing)


def test_experience_comes_from_earlier_groups_of_games_only(tmp_path, board):
    POOLS.clear()
    run_arena(["openai/fake-a"], games=5, seed=7, out=tmp_path / "a", board=board, solver="pool-probe", acompletion=Slow(),
              use_cache=False, parallel=3, pool_every=2)
    assert {g[-2:]: sizes for g, sizes in POOLS.items()} == {"g1": {0}, "g2": {0}, "g3": {2}, "g4": {2}, "g5": {4}}


def test_a_failed_game_stops_the_run_and_the_rerun_resumes_to_the_same_bytes(tmp_path, board):
    class Breaks(Slow):
        async def __call__(self, **kw):
            if len(self.calls) >= 30:
                self.fail_with = ValueError("connection lost")
            return await super().__call__(**kw)

    run_arena(["openai/fake-a"], games=4, seed=9, out=tmp_path / "whole", board=board, acompletion=FakeCompletion(), use_cache=False)
    with pytest.raises(UserError, match="rerun the same command to resume"):
        run_arena(["openai/fake-a"], games=4, seed=9, out=tmp_path / "cut", board=board, acompletion=Breaks(), use_cache=False, parallel=4)
    assert not (tmp_path / "cut" / "dataset.json").exists(), "no half-written dataset"
    run_arena(["openai/fake-a"], games=4, seed=9, out=tmp_path / "cut", board=board, acompletion=Slow(), use_cache=False, parallel=2)
    assert tree(tmp_path / "cut") == tree(tmp_path / "whole")


def _sa_reply(user: str) -> str:
    """A model that fills in sa's rating lines (always 'werewolf 3' first), picks a strategy, and plays a candidate."""
    if "<0-4>" in user:
        return "Evidence: votes.\n" + "\n".join(re.sub(r"(?i)(werewolf) <0-4>", r"\1 3", ln).replace("<0-4>", "1")
                                                  for ln in user.splitlines() if "<0-4>" in ln and ":" in ln)
    if "Strategy: Support|Attack" in user:
        return "Strategy: Attack - the mock"
    m = re.search(r"^Candidates: (\d+)", user, re.M)
    return f"Answer: {m.group(1)}" if m else "I will listen first."


def test_sa_ratings_reach_the_trace_and_its_strategy_is_chosen_at_the_papers_points(tmp_path, board):
    from werealign.analysis.corpus import TRACES
    from werealign.analysis.metrics import game_metrics
    from werealign.dataset import load_dataset
    from werealign.files import read_jsonl

    fake = FakeCompletion(reply_for=_sa_reply)
    out = tmp_path / "sa"
    bids = tmp_path / "bids.json"  # Werewolf Arena's debate: a bid from every seat at each turn, many moves per point
    bids.write_text(json.dumps({**BOARD, "debate": "bid", "debate_turns": 3}))
    run_arena(["openai/fake-a"], games=1, seed=3, out=out, board=str(bids), solver="sa", acompletion=fake, use_cache=False)
    (path,) = (out / TRACES).glob("*.jsonl")
    rows = [row for _, row in read_jsonl(path)]
    rated = [r for r in rows if r.get("ratings")]
    assert rated and all(str(r["seat"]) not in r["ratings"] for r in rated)
    assert all(set(v) == {"seer", "werewolf", "villager"} for r in rated for v in r["ratings"].values())
    # The paper's points: after a night, after the debate, after the vote. A seat rates once per point, not per move:
    # at most once a night, three times a day; its first move of each day and its vote start a point.
    moves = [r for r in rows if r["agent"] == "openai/fake-a"]
    assert len(rated) < len(moves)
    per_phase = Counter((r["seat"], r["phase"]) for r in rated)
    assert all(n <= (1 if phase.startswith("night") else 3) for (_, phase), n in per_phase.items())
    first = {}
    for r in moves:
        first.setdefault((r["seat"], r["phase"]), r)
    assert all(r.get("ratings") for key, r in first.items() if key[1].startswith("day"))
    assert all(r.get("ratings") for r in moves if r["kind"] == "vote")
    strategy_asks = [c for c in fake.calls if "Strategy: Support|Attack" in c["messages"][-1]["content"]]
    assert len(strategy_asks) == len(rated), "one strategy choice per estimate"
    # Est as the paper scores it: 'werewolf 3, the others 1' gives a wolf 3/5 and a villager or the seer 1/5.
    (game,) = load_dataset(out).games.values()
    gm = game_metrics(game, rows)
    roles = {s.seat: s.role for s in game.seats}
    assert gm.est and all(abs(v - (0.6 if roles[seat] == "werewolf" else 0.2)) < 1e-9 for seat, days in gm.est.items() for v in days.values())


def test_kill_9_in_a_parallel_run_then_resume_writes_the_same_bytes(tmp_path, board):
    """The real path: the CLI, litellm and the mock server with latency; --parallel 3 killed with SIGKILL mid-run,
    then rerun: the same files as a run never interrupted, and the rerun sends less than a whole run."""
    import os
    import sys
    import time
    from pathlib import Path

    from cli_fork import fork_cli
    from cli_inproc import run_cli
    from test_resume import ok_rows

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import mock_server

    env = {**os.environ, "OPENAI_API_KEY": "sk-unused"}
    with mock_server.spawn("--latency-ms", "40") as base:
        def args(out: Path) -> list[str]:
            return ["arena", "--model", "openai/mock", "--api-base", base + "/v1", "--games", "4", "--seed", "5", "--board", board,
                    "--no-cache", "--parallel", "3", "--max-connections", "4", "--max-failed", "1", "--out", str(out)]

        proc = fork_cli(*args(tmp_path / "killed"), env=env)  # a process of its own (tests/cli_fork.py)
        deadline = time.monotonic() + 120
        while ok_rows(tmp_path / "killed" / "responses.sqlite") < 20 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        assert not (tmp_path / "killed" / "dataset.json").exists(), "killed before the end: nothing but the store"
        stored = ok_rows(tmp_path / "killed" / "responses.sqlite")
        before = mock_server.stats(base)["ok"]
        mock_server.set_latency(base, 0)  # only the kill needed requests in flight; the two runs after it need not wait
        # the rerun and the whole run in this process (the kill needed a process of its own; these do not, and a
        # fresh interpreter importing litellm costs seconds of CPU each)
        done = run_cli(*args(tmp_path / "killed"), env={"OPENAI_API_KEY": "sk-unused"})
        assert done.returncode == 0, done.stderr
        resumed = mock_server.stats(base)["ok"] - before
        before = mock_server.stats(base)["ok"]
        whole = run_cli(*args(tmp_path / "whole"), env={"OPENAI_API_KEY": "sk-unused"})
        assert whole.returncode == 0, whole.stderr
        total = mock_server.stats(base)["ok"] - before
    assert tree(tmp_path / "killed") == tree(tmp_path / "whole")

    def new_requests(stdout: str) -> int:
        return int(re.search(r"\((\d+) new model requests\)", stdout).group(1))
    # What was stored before the kill is never sent again (the mock's count may add a retried attempt on a loaded machine).
    assert stored >= 20 and new_requests(done.stdout) == new_requests(whole.stdout) - stored, (stored, done.stdout, whole.stdout)
    assert resumed < total


def test_a_run_over_the_bound_stops_before_paying_for_the_rest(tmp_path, board):
    never = FakeCompletion(reply_for=lambda user: "I would rather not say." if "Answer:" in user else "Hello.")
    with pytest.raises(UserError, match=r"in the 1 games finished of 3: stopped before paying for the rest") as e:
        run_arena(["openai/fake-a"], games=3, seed=4, out=tmp_path / "a", board=board, acompletion=never, use_cache=False, max_failed=0.2)
    assert "--max-failed 1 plays every game" in str(e.value) and not (tmp_path / "a" / "dataset.json").exists()
    first = len(never.calls)
    again = FakeCompletion(reply_for=never.reply_for)
    r = run_arena(["openai/fake-a"], games=3, seed=4, out=tmp_path / "a", board=board, acompletion=again, use_cache=False, max_failed=1.0)
    assert len(r.summary["games"]) == 3 and 0 < len(again.calls) < 3 * first, "the stopped game's replies are replayed, not paid again"
