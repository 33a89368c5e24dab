"""Issue 34: against the mock server, the requests each agent solver sends show the parts of its paper.

An invented world: the crafted game with its seer replaced by a role no catalogue has (`moon_oracle`,
declared by the game) and two other games in which the moon oracle's side lost and won. Each solver is run
by the CLI against bench/mock_server.py; the stored requests (responses.sqlite) are read back step by step:
xu's question selection from the role's set, own questions, retrieval answers, reflection and suggestion;
mg's structured reflection and its recall of a losing experience; sa's evidence and 0-4 ratings, its
Support/Attack choice and that strategy's prompt, and its Acc/Est in results.json.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from cli_inproc import run_cli
from crafted_game import crafted_game, crafted_opponent_item, crafted_speech_item, crafted_vote_item

from werealign.dataset import write_dataset
from werealign.llm.store import Store
from werealign.schema import RoleCount
from werealign.schema.roles import RoleDeclaration

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402

ORACLE = RoleDeclaration(id="moon_oracle", faction="good", team="gods", names={"en": ["moon oracle"], "zh": ["月之先知"]},
                         rule={"en": "Each night the moon oracle learns whether one player is a werewolf."})


def _with_oracle(game):
    seats = [s.model_copy(update={"role": "moon_oracle"}) if s.role == "seer" else s for s in game.seats]
    composition = [RoleCount(role="moon_oracle", faction="good", count=rc.count) if rc.role == "seer" else rc for rc in game.rules.composition]
    rules = game.rules.model_copy(update={"declared_roles": [ORACLE], "composition": composition})
    return game.model_copy(update={"seats": seats, "rules": rules})


def _other(game, game_id: str, winner: str):
    """Another game of the same board: the same public talk, each turn marked with the game it was said in."""
    turns = [u.model_copy(update={"text": f"{t} (told in {game_id})", "segments": None})
             for u, t in zip(game.utterances, ["Night falls.", "Day breaks. Seat 6 died last night.", "I am the seer and seat 2 is a wolf.",
                                               "I am the real seer; I checked seat 1 and seat 1 is a wolf, vote seat 1.",
                                               "I trust seat 3 completely, seat 1 lied.", "I vote seat 3, the claim is fake.", "Night again."])]
    return game.model_copy(update={"game_id": game_id, "winner": winner, "recap": None, "annotator_log": None, "highlights": [],
                                   "utterances": turns, "events": [e for e in game.events if e.public]})


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    game = _with_oracle(crafted_game())
    root = tmp_path_factory.mktemp("world") / "ds"
    write_dataset(root, name="oracle-world", version="1", licence="CC0",
                  games=[game, _other(game, "oracle-lost", "wolf"), _other(game, "oracle-won", "good")],
                  items={"speech": [crafted_speech_item()], "vote": [crafted_vote_item()], "opponent": [crafted_opponent_item()]})
    return root


@pytest.fixture(scope="module")
def mock():
    with mock_server.spawn() as base:
        yield base


def _run(world: Path, mock: str, out: Path, solver: str) -> tuple[list[dict], dict[str, str]]:
    r = run_cli("eval", "--model", "openai/mock", "--api-base", mock + "/v1", "--dataset", world, "--out", out, "--solver", solver,
                "--decodes", "1", "--quiet", env={"OPENAI_API_KEY": "sk-unused"})
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    with Store(out / "responses.sqlite", readonly=True) as store:
        stored = store.load(with_request=True)
    sent = {k: "\n\n".join(m["content"] for m in v.request["messages"]) for k, v in stored.items()}
    return rows, sent


def _steps(row: dict, sent: dict[str, str]) -> dict[str, dict]:
    """Step name -> {request: what was sent (model steps), output}."""
    return {s["name"]: {"request": sent.get(s["key"]) if s.get("key") else None, "output": s["output"]} for s in row["steps"]}


def test_xu_selects_from_the_roles_set_asks_its_own_answers_by_retrieval_reflects_and_draws_a_suggestion(world, mock, tmp_path):
    rows, sent = _run(world, mock, tmp_path / "xu", "xu")
    assert len(rows) == 3
    for row in rows:
        steps = _steps(row, sent)
        memory = json.loads(steps["memory"]["output"])
        assert any("moon oracle" in line for line in memory["informative"]), "the line that gives the viewpoint its role scores highest"
        select = steps["select"]["request"]
        assert "You are Seat 3, the moon oracle" in select and "Choose the 5" in select and "separated by '#'" in select
        # a role no question class names asks its side's questions (the good side: the villager's)
        assert "Who has claimed to be the seer, and can that claim be believed?" in select
        assert "Which other werewolves" not in select and "Who are the other werewolves" not in select
        assert memory["recent"][-1] in select and memory["informative"][0] in select, "the recent window and the informative lines"
        asked = json.loads(steps["questions"]["output"])
        assert len(asked["selected"]) == 5 and asked["own"], asked
        assert all(q in steps["ask"]["request"] for q in asked["selected"]) and "of your own" in steps["ask"]["request"]
        questions = [*asked["selected"], *asked["own"]]
        for i, q in enumerate(questions, 1):
            request = steps[f"question-{i}"]["request"]
            assert f"Question: {q}" in request and "Seat 3" in request and "moon oracle" in request
        reflect = steps["reflect"]["request"]
        assert all(f"Q: {q}" in reflect for q in questions), "the reflection is drawn from every answer"
        assert "I observed that" in reflect
        experience = json.loads(steps["experience"]["output"])
        drawn = [experience["bad"], *experience["good"]]
        assert experience["bad"] is not None and experience["good"], "the other games hold similar experiences"
        assert all(e["game"] in ("oracle-lost", "oracle-won") and e["similarity"] >= experience["threshold"] for e in drawn)
        assert experience["bad"]["score"] == min(e["score"] for e in drawn) and not experience["bad"]["won"]
        suggestion = steps["suggestion"]["request"]
        assert "One bad experience" in suggestion and experience["bad"]["text"] in suggestion
        assert steps["reflect"]["output"].strip() in suggestion
        final = steps["answer"]["request"]
        assert "Your reflection:" in final and "A suggestion drawn from the experience" in final
        assert "crafted-1" not in json.dumps(experience), "never the item's own game"


def test_mg_reflects_in_structure_and_recalls_a_losing_experience(world, mock, tmp_path):
    rows, sent = _run(world, mock, tmp_path / "mg", "mg")
    for row in rows:
        steps = _steps(row, sent)
        assert '"GAME_STATE"' in steps["reflect"]["request"] and '"PLAYERS"' in steps["reflect"]["request"]
        recalled = json.loads(steps["experience"]["output"])
        assert {e["won"] for e in recalled} == {True, False}, "wins and losses alike"
        assert {e["game"] for e in recalled} <= {"oracle-lost", "oracle-won"}
        final = steps["answer"]["request"]
        lost = next(e for e in recalled if not e["won"])
        assert lost["text"] in final and "they lost in the end" in final and "they won in the end" in final
        assert "in fact, the true roles were Seat 1: werewolf" in final, "the reality of that other game"


def _acc(reply: str, truth: dict[int, str], names: dict[str, str]) -> dict[int, float]:
    """Acc(i,j) recomputed from the reply's rating lines, independently of the solver's reader."""
    out = {}
    for line in reply.splitlines():
        m = re.match(r"Seat (\d+): (.*)$", line)
        if not m:
            continue
        scores = {names[n]: int(v) for n, v in re.findall(r"([a-z ]+?) (\d)(?:,|$)", m.group(2).replace(", ", ","))}
        if sum(scores.values()):
            out[int(m.group(1))] = scores.get(truth[int(m.group(1))], 0) / sum(scores.values())
    return out


def test_sa_rates_0_to_4_with_evidence_chooses_a_strategy_and_puts_acc_and_est_in_results(world, mock, tmp_path):
    rows, sent = _run(world, mock, tmp_path / "sa", "sa")
    game = _with_oracle(crafted_game())
    truth = {s.seat: s.role for s in game.seats}
    names = {r.replace("_", " "): r for r in truth.values()}
    accs = []
    for row in rows:
        steps = _steps(row, sent)
        estimate = steps["estimate"]["request"]
        assert "Evidence:" in estimate and "from 0 to 4" in estimate and "Seat 1: moon oracle <0-4>" in estimate
        assert "Seat 3:" not in estimate.split("in this form:")[1], "the viewpoint does not rate itself"
        reply = next(s["output"] for s in row["steps"] if s["name"] == "estimate")
        expected = _acc(reply, truth, names)
        scored = json.loads(steps["estimation"]["output"])["by_seat"]
        assert {int(k): v["acc"] for k, v in scored.items()} == pytest.approx(expected)
        accs.append(sum(expected.values()) / len(expected))
        strategy = steps["strategy"]["request"]
        assert "Support fits when" in strategy and "Attack fits when" in strategy and "Strategy: Support|Attack" in strategy
        choice = json.loads(steps["choice"]["output"])
        assert choice["strategy"] in ("support", "attack") and choice["side"] == "village"
        final = steps["answer"]["request"]
        assert "Follow your strategy:" in final and f"{choice['strategy'].capitalize()} (villager side)" in final
    results = json.loads((tmp_path / "sa" / "results.json").read_text(encoding="utf-8"))
    est = results["estimation"]
    assert est["metric"] == "acc" and est["samples"] == len(rows)
    assert est["accuracy"] == pytest.approx(sum(accs) / len(accs), abs=1e-4) and est["low"] <= est["accuracy"] <= est["high"]
    assert set(est["by_role"]) == {"moon_oracle"} and set(est["est_by_role"]) <= {"werewolf", "villager", "witch"}
    seats = est["by_seat"]["crafted-1"]
    assert all(v["role"] == truth[int(k)] and 0 <= v["est"] <= 1 for k, v in seats.items())
    assert sum(est["strategies"].values()) == len(rows)


def test_werealign_view_shows_every_step_of_a_run_with_its_request_and_output(world, mock, tmp_path):
    rows, sent = _run(world, mock, tmp_path / "xu", "xu")
    page = tmp_path / "view.html"
    assert run_cli("view", tmp_path / "xu", "--out", page).returncode == 0
    html_text = page.read_text(encoding="utf-8")
    from markupsafe import escape  # what the page's autoescape writes

    for row in rows:
        for step in row["steps"]:
            assert f'data-step="{step["name"]}"' in html_text
            assert str(escape(step["output"].strip().splitlines()[0])) in html_text, step["name"]
    select = next(s for s in rows[0]["steps"] if s["name"] == "select")
    assert str(escape(sent[select["key"]].splitlines()[-1])) in html_text, "a model step's request is shown"


@pytest.mark.parametrize("solver", ["xu", "sa", "mg"])
def test_a_bare_prompt_of_another_caller_and_a_chinese_game_run_every_step(solver):
    """Any caller of the solver interface (the arena, a notebook): a prompt without the task's sections, a seat of
    an invented wolf-side role, a Chinese game; every step runs, in the game's language, and reads nothing it lacks."""
    import asyncio

    from werealign.solvers import get_solver
    from werealign.solvers.base import State

    game = _with_oracle(crafted_game())
    hound = RoleDeclaration(id="dusk_hound", faction="wolf", team="wolves", names={"en": ["dusk hound"], "zh": ["暮犬"]})
    seats = [s.model_copy(update={"role": "dusk_hound"}) if s.seat == 1 else s for s in game.seats]
    composition = [*game.rules.composition, RoleCount(role="dusk_hound", faction="wolf", count=1)]
    game = game.model_copy(update={"seats": seats, "language": "zh", "rules": game.rules.model_copy(
        update={"declared_roles": [ORACLE, hound], "composition": composition})})
    item = crafted_vote_item().model_copy(update={"viewpoint_seat": 1, "language": "zh"})
    sent: dict[str, str] = {}

    class Steps:
        async def ask(self, step, messages, *, params=None):
            sent[step] = messages[-1]["content"]
            return "1号: 暮犬 0, 月之先知 4\n策略：进攻 - 1号可疑\n1#2#3#4#5\n我想知道谁是女巫？"

        def note(self, step, output):
            sent[step] = output

    state = State(messages=[{"role": "user", "content": "你现在要投票。答案：<座位号>"}], params={}, decode=0, task="vote",
                  item=item, game=game, key="k")
    reply = asyncio.run(get_solver(solver).solve(state, Steps()))
    assert reply and "answer" in sent
    if solver == "xu":
        assert "你是1号，身份是暮犬" in sent["select"] and "用“#”分隔" in sent["select"]
        assert "我的狼队友最近想刀谁？" in sent["select"], "a wolf-side role no class names asks the werewolf questions"
        assert json.loads(sent["memory"]) == {"recent": [], "informative": []}, "nothing the prompt does not show"
    if solver == "sa":
        assert "0 到 4" in sent["estimate"] and json.loads(sent["choice"]) == {"strategy": "attack", "side": "wolf"}
        assert "进攻策略（狼人阵营）" in sent["answer"]
    if solver == "mg":
        assert '"GAME_STATE"' in sent["reflect"] and "结构化" in sent["reflect"]
