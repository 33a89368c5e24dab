"""Issue 44 must-have 6: the agents as their papers. xu and mg end on their chain-of-thought step (its thoughts never
reach the table); their experience pools hold what the papers store (reflections, the decision asked, the action,
the outcome), votes and night actions included; a reply a solver cannot read (xu's question pick) is counted."""

from __future__ import annotations

import json
import re

from fake_llm import FakeCompletion

from werealign.arena.run import run_arena
from werealign.solvers.experience import Experience, bad_and_good, recall, recorded

BOARD = {"roles": ["seer", "werewolf", "villager", "villager", "villager"], "debate": "round-robin", "max_days": 2}
SECRET = "step-one-private-thought"


def _thinker(user: str) -> str:
    """Thinks aloud before the marker the final step asks for; elsewhere a plain reply (a JSON reflection for mg)."""
    m = re.search(r"^Candidates: (\d+)", user, re.M)
    answer = f"Answer: {m.group(1)}" if m else "Hello table."
    if "My concise response:" in user:
        return f"My step-by-step thought process:\n1. {SECRET}\nMy concise response:\n{answer}"
    if "ROLE" in user and "REFLECTION" in user:  # mg's structured reflection
        return json.dumps({"ROLE": "x", "PLAYERS": {}, "GAME_STATE": "day", "REFLECTION": "seat 2 pushes hard on seat 3"})
    return "1 # 2 # 3 # 4 # 5" if "#" in user else "seat 2 pushes hard on seat 3"


def _board(tmp_path):
    path = tmp_path / "short.json"
    path.write_text(json.dumps(BOARD))
    return str(path)


def test_mg_ends_on_its_chain_of_thought_and_only_the_response_reaches_the_table(tmp_path):
    from werealign.dataset import load_dataset

    fake = FakeCompletion(reply_for=_thinker)
    out = tmp_path / "mg"
    r = run_arena(["openai/fake-a"], games=1, seed=2, out=out, board=_board(tmp_path), solver="mg", acompletion=fake, use_cache=False)
    finals = [c for c in fake.calls if "My concise response:" in c["messages"][-1]["content"]]
    assert finals and all("step by step" in c["messages"][-1]["content"] for c in finals)
    (game,) = load_dataset(out).games.values()
    said = [u.text for u in game.utterances if u.speaker != "host"]
    assert said and all(SECRET not in t for t in said) and any("Hello table." in t for t in said)
    assert r.summary["models"]["openai/fake-a"]["unreadable"] == 0, "a choice after the marker is read"


def test_the_arena_pool_holds_reflections_decisions_actions_and_outcomes(tmp_path):
    fake = FakeCompletion(reply_for=_thinker)
    run_arena(["openai/fake-a"], games=3, seed=2, out=tmp_path / "mg", board=_board(tmp_path), solver="mg:threshold=0.01",
              acompletion=fake, use_cache=False, pool_every=1)
    told = [c["messages"][-1]["content"] for c in fake.calls if "Situation (that player's reflection then)" in c["messages"][-1]["content"]]
    assert told, "later games recall what earlier games' agents reflected and did"
    shown = "\n".join(told)
    assert "seat 2 pushes hard on seat 3" in shown and "The moderator's instruction: vote" in shown
    assert re.search(r"did: Seat \d", shown), "a vote or a night action is an experience, not only a speech"
    assert "Outcome: they won in the end" in shown or "Outcome: they lost in the end" in shown


def test_recorded_experiences_are_scored_and_retrieved_by_their_reflection():
    from werealign.arena.board import BoardSpec, make_board
    from werealign.arena.record import Recorder
    from werealign.schema.models import Provenance
    from werealign.solvers.base import State

    board = make_board("tiny", BoardSpec(roles=["seer", "werewolf", "villager", "villager", "villager"]))
    rec = Recorder("old", board, list(board.spec.roles), "en", Provenance(source="invented"))
    for day in (1, 2, 3):
        rec.begin("night", day)
        rec.say("host", "...")
    old = rec.build("wolf", None)
    kept = recorded(old, [(1, "Day 1", "vote", "the loud seat four is lying about the check", "Seat 4"),
                          (3, "Day 1", "speak", "nobody claimed yet, stay quiet", "I pass."),
                          (2, "Night 2", "kill", "the seer is the threat, remove the seer", "Seat 1")])
    assert [(e.role, e.won, e.score, e.instruction) for e in kept] == [("seer", False, 3, "vote"), ("villager", False, 3, "speak"),
                                                                        ("werewolf", True, 997, "kill")]
    assert recorded(rec.build(None, None), [(1, "Day 1", "vote", "r", "Seat 4")]) == [], "no outcome, nothing learned"
    now = Recorder("now", board, list(board.spec.roles), "en", Provenance(source="invented"))
    now.begin("night", 1)
    now.say("host", "...")
    item = type("Item", (), {"viewpoint_seat": 1})()
    state = State(messages=[{"role": "user", "content": "x"}], params={}, decode=0, task="arena", item=item, game=now.build(None, None),
                  others=(old,), pool=tuple(kept))
    found = recall(state, "seat four lies about the check", 3, 0.01)
    assert [e.reflection for e in found] == ["the loud seat four is lying about the check"], "the seer's own role, by reflection"
    assert all(isinstance(e, Experience) for e in found)
    bad, good = bad_and_good(state, "seat four lies about the check", 3, 0.01)
    assert bad is not None and bad.text == "Seat 4" and good == []


def test_an_unreadable_xu_pick_is_counted_not_silently_filled(tmp_path):
    from werealign.analysis.corpus import TRACES
    from werealign.files import read_jsonl

    fake = FakeCompletion(reply_for=lambda user: "I cannot choose." if "Reply with the numbers of the" in user else _thinker(user))
    out = tmp_path / "xu"
    r = run_arena(["openai/fake-a"], games=1, seed=2, out=out, board=_board(tmp_path), solver="xu:questions=2,own=1",
                  acompletion=fake, use_cache=False)
    (path,) = (out / TRACES).glob("*.jsonl")
    rows = [row for _, row in read_jsonl(path)]
    assert all(row.get("unreadable_steps", 0) >= 1 for row in rows if row["agent"] == "openai/fake-a")
    row = r.summary["models"]["openai/fake-a"]
    assert row["unreadable_steps"] == sum(row_.get("unreadable_steps", 0) for row_ in rows) > 0
    assert r.summary["games"][0]["moves"]["openai/fake-a"]["unreadable_steps"] == row["unreadable_steps"]
