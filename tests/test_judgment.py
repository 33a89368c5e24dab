"""Issue 13: items that measure judgment, not shortcuts. Crafted games pin each rule; nothing from real data.

- speech prompts show the sanitised stem (question_short) when an item has one;
- VA modes: decision (the voter's own turns of the vote's day withheld, one-line notice), mask-mvp
  (every own line withheld), full; the own-last-call shortcut reads what the prompt shows;
- OI modes (set / set-accuracy), the candidate rule stated, exact chance floors;
- rules summaries from the public card list, never the seats (buried cards);
- honest denominators, coverage, macro coverage warnings, seeded --limit across dimensions.
"""

from __future__ import annotations

import itertools
from statistics import fmean

import pytest

from crafted_game import CUTOFF, VIEWPOINT, crafted_game, crafted_opponent_item, crafted_speech_item
from werealign.game.visibility import build_context
from werealign.render.lines import rules_summary
from werealign.errors import UserError
from werealign.tasks.opponent import random_set_score
from werealign.eval.plan import limited
from werealign.eval.prompts import render_messages
from werealign.eval.scoring import score_samples
from item_state import item_state
from werealign.llm.builtin_models import in_process_reply
from werealign.schema import GameLog, Phase, RoleCount, Rules, SeatInfo, SpeechItem, Utterance, VoteItem
from werealign.tasks import modes_of
from werealign.tasks import parse_reply
from werealign.tasks.opponent import set_scores


_USAGE = {"cost": 0.0, "prompt_tokens": 1, "completion_tokens": 1}


def _user(messages) -> str:
    return messages[1]["content"]


# --------------------------------------------------------------------------- 1. the sanitised stem


def test_speech_prompt_shows_the_sanitised_stem_when_the_item_has_one():
    game = crafted_game()
    full = "You are seat 3. Seat 4, the WITCH-IN-SECRET, just spoke after the FUTURE-EXILE. What is seat 1?"
    item = crafted_speech_item().model_copy(update={"question": full, "question_short": "You are seat 3. What is seat 1?"})
    prompt = _user(render_messages(game, item))
    assert "You are seat 3. What is seat 1?" in prompt
    assert "WITCH-IN-SECRET" not in prompt and "FUTURE-EXILE" not in prompt
    # without a sanitised stem the question is shown as it is
    assert full in _user(render_messages(game, item.model_copy(update={"question_short": None})))


# --------------------------------------------------------------------------- 2. VA at the decision point


def _two_day_game() -> tuple[GameLog, VoteItem]:
    """Seat 2 (the voter) accuses seat 5 on day 1 and calls its vote on seat 4 on day 2, before voting."""
    seats = [SeatInfo(seat=s, role=r, faction="wolf" if r == "werewolf" else "good")
             for s, r in enumerate(["werewolf", "villager", "seer", "werewolf", "villager", "villager"], start=1)]

    def turn(i, seg, phase, speaker, text):
        return Utterance(index=i, segment_ids=[seg], start=float(seg), end=seg + 0.5, phase=phase, speaker=speaker, text=text)

    game = GameLog(
        game_id="twoday", language="en", provenance={"source": "invented"},
        rules=Rules(text=None, variant="seer", composition=[RoleCount(role="werewolf", faction="wolf", count=2),
                                                            RoleCount(role="villager", faction="good", count=3),
                                                            RoleCount(role="seer", faction="good", count=1)], has_sheriff=False),
        seats=seats,
        phases=[Phase(id="night-1", kind="night", day=1, start=0, end=1), Phase(id="day-1", kind="day", day=1, start=2, end=9),
                Phase(id="night-2", kind="night", day=2, start=10, end=11), Phase(id="day-2", kind="day", day=2, start=12, end=30)],
        utterances=[
            turn(0, 2, "day-1", "host", "Day breaks."),
            turn(1, 3, "day-1", 2, "DAY1-OWN: seat 5 worries me."),
            turn(2, 4, "day-1", 3, "I checked seat 1."),
            turn(3, 12, "day-2", "host", "Day two."),
            turn(4, 13, "day-2", 3, "Seat 4 is my wolf check."),
            turn(5, 14, "day-2", 2, "DAY2-OWN: I put my vote on seat 4."),
            turn(6, 15, "day-2", 6, "Fine."),
        ],
    )
    item = VoteItem(item_id="twoday-va", game_id="twoday", language="en", viewpoint_seat=2, phase="day-2",
                    cutoff_segment=15, candidates=[1, 3, 4, 5, 6], answer=4)
    return game, item


def test_va_decision_mode_withholds_only_the_voters_own_turns_of_the_day_with_a_notice():
    game, item = _two_day_game()
    prompt = _user(render_messages(game, item))  # the default mode
    assert "DAY2-OWN" not in prompt and "DAY1-OWN" in prompt
    assert "Seat 4 is my wolf check." in prompt  # other seats' turns of the day stay
    assert "Your own 1 turn(s) of today are not shown: you are deciding your vote now." in prompt
    assert prompt == _user(render_messages(game, item, mode="decision"))


def test_va_mask_mvp_withholds_every_own_line_and_full_shows_them_all():
    game, item = _two_day_game()
    masked = _user(render_messages(game, item, mode="mask-mvp"))
    assert "DAY1-OWN" not in masked and "DAY2-OWN" not in masked
    assert "Your own 2 turn(s) are not shown." in masked
    full = _user(render_messages(game, item, mode="full"))
    assert "DAY1-OWN" in full and "DAY2-OWN" in full and "not shown" not in full


def test_va_modes_keep_private_knowledge():
    game = crafted_game()
    ctx = build_context(game, VIEWPOINT, CUTOFF, exclude_own_vote_phase="day-1", withhold_own_turns_from_day=0)
    assert [e.skill for e in ctx.private_events] == ["seer_check"]  # what the seer learned at night stays
    assert not any(u.is_self for u in ctx.utterances) and ctx.own_turns_withheld == 1


def test_own_last_call_shortcut_reads_only_what_the_mode_shows():
    game, item = _two_day_game()

    def vote(mode):
        return parse_reply(in_process_reply("werealign/own-last-call", item_state(game, item, mode=mode)), item, None).answer

    assert vote("full") == 4  # its own "I put my vote on seat 4" answers the item
    assert vote("decision") == 5  # only day 1's own words are left: seat 5
    assert vote("mask-mvp") == 1  # nothing of its own: the lowest-numbered candidate


def test_unknown_mode_is_a_one_line_user_error():
    game, item = _two_day_game()
    with pytest.raises(UserError, match="vote mode 'blind'.*decision, mask-mvp, full"):
        render_messages(game, item, mode="blind")
    with pytest.raises(UserError, match="not among the evaluated tasks"):
        modes_of({"vote": "full"}, ("speech",))
    assert modes_of({}, ("speech", "vote", "opponent")) == {"vote": "decision", "opponent": "set"}


# --------------------------------------------------------------------------- 3. OI modes and floors


def test_oi_prompt_states_the_candidate_rule():
    game = crafted_game()
    item = crafted_opponent_item().model_copy(update={"candidates": [1, 2, 4, 5, 6]})  # every other seat
    assert "every other seat, whether still in the game or not" in _user(render_messages(game, item))
    odd = crafted_opponent_item().model_copy(update={"candidates": [1, 4]})  # neither rule: nothing claimed
    assert "The candidates are" not in _user(render_messages(game, odd))


def _brute_force_random(candidates, gold, exact: bool) -> float:
    """werealign/random's OI policy by enumeration: each candidate named with p=1/2, none -> one uniform pick."""
    total = 0.0
    n = len(candidates)
    for mask in itertools.product([0, 1], repeat=n):
        picked = [c for c, m in zip(candidates, mask) if m]
        if picked:
            sc = set_scores(picked, gold)
            total += (sc["exact"] if exact else sc["jaccard"]) / 2**n
        else:
            total += fmean((set_scores([c], gold)["exact"] if exact else set_scores([c], gold)["jaccard"]) for c in candidates) / 2**n
    return total


@pytest.mark.parametrize("candidates,gold", [([1, 2, 3, 4, 5], [2, 4]), ([1, 2, 3], [3]), ([2, 3, 5, 7], [1, 3])])
def test_oi_chance_floor_is_exact(candidates, gold):
    for exact in (False, True):
        assert random_set_score(candidates, gold, "exact_match" if exact else "mean_jaccard") == pytest.approx(_brute_force_random(candidates, gold, exact))


def test_set_accuracy_mode_makes_exact_match_the_headline():
    rows = [{"task": "opponent", "item_id": f"o{i}", "game_id": "g", "dimension": None, "viewpoint_seat": 1, "viewpoint_role": "seer",
             "variant": "base", "decode": 0, "gold": [2, 4], "answer": ans, "correct": ans == [2, 4], "parse_error": None,
             "request_error": None, **_USAGE} for i, ans in enumerate([[2, 4], [2, 4, 5]])]
    jac = score_samples(rows)["variants"]["base"]["opponent"]
    acc = score_samples(rows, modes={"opponent": "set-accuracy"})["variants"]["base"]["opponent"]
    assert (jac["metric"], acc["metric"]) == ("mean_jaccard", "exact_match")
    assert acc["exact_match"] == 0.5 and jac["mean_jaccard"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-6)


# --------------------------------------------------------------------------- 4. rules from the public card list


def test_rules_summary_lists_the_public_cards_never_the_seats():
    game = crafted_game(rules_text=None)
    # An invented deck: a thief's spare cards buried the 'lantern_keeper' and the witch; the seats hold the rest.
    rules = game.rules.model_copy(update={"public_cards": ["seer", "witch", "lantern_keeper", "werewolf", "villager"]})
    summary = rules_summary(game.model_copy(update={"rules": rules}))
    assert "lantern_keeper" in summary or "lantern keeper" in summary
    assert "how many of each is not announced" in summary
    assert "2 x werewolf" not in summary and "role cards:" not in summary  # no count from the seats
    # a game without a spare card: the composition is the announced deck
    assert "This game has 6 role cards: 2 x werewolf" in rules_summary(game)


# --------------------------------------------------------------------------- 6. honest denominators


def _speech(item, dim, correct, request_error=None):
    return {"task": "speech", "item_id": item, "game_id": "g", "dimension": dim, "viewpoint_seat": 1, "viewpoint_role": "seer",
            "variant": "base", "decode": 0, "gold": "A", "answer": None if request_error else ("A" if correct else "B"),
            "correct": None if request_error else correct, "parse_error": None, "request_error": request_error, **_USAGE}


def test_failed_requests_count_as_wrong_in_the_headline_with_answered_only_beside():
    rows = [_speech("a", "RI", True), _speech("b", "RI", True), _speech("c", "RI", False, request_error="Timeout: x"),
            _speech("d", "PS", True)]
    block = score_samples(rows)["variants"]["base"]["speech"]
    assert block["by_dimension"]["RI"]["accuracy"] == pytest.approx(2 / 3, abs=1e-6)
    assert block["by_dimension"]["RI"]["accuracy_answered"] == 1.0
    assert block["macro_accuracy"] == pytest.approx((2 / 3 + 1) / 2, abs=1e-6)
    assert block["macro_accuracy_answered"] == 1.0
    assert block["coverage"] == 0.75 and block["dimensions"] == ["RI", "PS"]


# --------------------------------------------------------------------------- 7. honest summaries


def _items(n_per_dim: int) -> list[SpeechItem]:
    base = crafted_speech_item()
    return [base.model_copy(update={"item_id": f"{d}-{i}", "dimension": d}) for d in ("RI", "SJ", "DR", "PS", "CT") for i in range(n_per_dim)]


def test_limit_samples_every_dimension_seeded_in_dataset_order():
    items = _items(6)
    picked = limited(items, 5, seed=0, task="speech")
    assert sorted(it.dimension for it in picked) == sorted(["RI", "SJ", "DR", "PS", "CT"])
    assert [it.item_id for it in picked] == [it.item_id for it in items if it in picked]  # dataset order
    assert limited(items, 5, seed=0, task="speech") == picked  # deterministic
    assert any(limited(items, 5, seed=s, task="speech") != picked for s in range(1, 6))  # the seed matters
    assert len(limited(items, 100, seed=0, task="speech")) == len(items)


def test_summary_warns_when_variants_average_different_dimensions():
    from werealign.eval.progress import summary_warnings
    from werealign.schema.runs import Results

    rows = [_speech("a", "RI", True), {**_speech("b", "PS", True), "variant": "rr"}]
    scores = score_samples(rows, planned=2)
    results = Results.model_validate({"model": "m", "dataset": {"path": None, "name": "d", "version": "1", "manifest_sha256": "x",
                                                                 "content_sha256": "y"},
                                      "versions": {"werealign": "0", "litellm": None, "prompt_version": "v1", "templates_sha256": "z"},
                                      **scores})
    warnings = summary_warnings(results, limit=3)
    assert any("different dimensions" in w and "base: RI" in w and "rr: PS" in w for w in warnings)
    assert any("--limit 3" in w for w in warnings)
