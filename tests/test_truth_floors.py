"""Issue 20 item 5: complete floors. VA floors include the most-mentioned candidate (lexical); OI floors
include naming only the wolves revealed in public (a self-destruct) by the cut-off. Invented games only."""

from __future__ import annotations

import pytest

from crafted_game import CUTOFF, crafted_game, crafted_opponent_item, crafted_vote_item
from werealign.dataset import Dataset
from werealign.eval.floors import run_floors
from werealign.tasks.opponent import REVEALED, revealed_wolves
from werealign.eval.plan import plan_run
from werealign.schema import Event
from werealign.schema.runs import RunConfig


def _floors(game, task, item, mode=None):
    ds = Dataset(manifest=None, games={game.game_id: game}, items={task: [item]})
    modes = {task: mode} if mode else {}
    config = RunConfig(model="werealign/random", tasks=(task,), decodes=1, modes=modes)
    return run_floors(plan_run(ds, config), config.modes)["base"][task]


def _with_self_destructs(game, *at: tuple[int, int]):
    extra = [Event(kind="self_destruct", phase="day-1", segment_id=seg, public=True, actor=seat) for seat, seg in at]
    return game.model_copy(update={"events": [*game.events, *extra]})


def test_oi_floor_names_only_the_wolves_revealed_in_public_by_the_cutoff():
    # seat 4 blows itself up before the cut-off; seat 1 only after it (the prompt cannot show that)
    game = _with_self_destructs(crafted_game(), (4, 12), (1, CUTOFF + 2))
    assert revealed_wolves(game, CUTOFF) == [4]
    floors = _floors(game, "opponent", crafted_opponent_item())  # answer: seats 1 and 4
    assert floors["shortcuts"][REVEALED] == pytest.approx(0.5)  # {4} against {1, 4}
    assert _floors(game, "opponent", crafted_opponent_item(), "set-accuracy")["shortcuts"][REVEALED] == 0.0
    both = _with_self_destructs(crafted_game(), (4, 12), (1, 13))
    assert _floors(both, "opponent", crafted_opponent_item(), "set-accuracy")["shortcuts"][REVEALED] == 1.0
    assert _floors(both, "opponent", crafted_opponent_item())["best"] == REVEALED
    # nobody revealed: the floor names nobody and scores 0
    assert _floors(crafted_game(), "opponent", crafted_opponent_item())["shortcuts"][REVEALED] == 0.0


def test_va_floors_include_the_most_mentioned_candidate():
    game = crafted_game()
    floors = _floors(game, "vote", crafted_vote_item())
    assert "werealign/lexical" in floors["shortcuts"]
    # what the decision-point prompt shows names seat 2 ("seat 2 is a wolf") and no other candidate
    assert floors["shortcuts"]["werealign/lexical"] == 0.0  # the voter chose seat 1
    moved = crafted_vote_item().model_copy(update={"answer": 2})
    assert _floors(game, "vote", moved)["shortcuts"]["werealign/lexical"] == 1.0
