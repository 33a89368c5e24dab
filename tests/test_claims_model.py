"""The model claim reader (issue 42, must-have 4: werealign.annotate.claim_model, werealign.render.claim_prompt and
scripts/claim_labels.py --model), against a fake completion function: the prompt holds the board's roles (a role only
the game declares too) and the turn; a right reply scores; a malformed reply, a role off the board and a failed
request are unreadable, counted, never guessed; the response cache answers a second run. Invented text only."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from fake_llm import FakeCompletion
from test_decision_claim import ZH, _said

from werealign.annotate.claim_model import Unreadable, estimate, parse_claim, read_claims
from werealign.dataset import write_dataset
from werealign.game.claim_labels import score_labels
from werealign.llm.client import RetryPolicy
from werealign.render.claim_prompt import claim_messages
from werealign.schema.models import RoleDeclaration

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("claim_labels_script_model", REPO / "scripts" / "claim_labels.py")
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

MODEL, BASE = "openai/mock", "http://127.0.0.1:9/v1"  # never reached: the fake answers
LANTERN = RoleDeclaration(id="lantern_keeper", faction="good", team="gods", names={"zh": ["提灯人"], "en": ["lantern keeper"]})
TEXTS = {1: "我是提灯人，昨晚照了 4 号", 3: "我就听发言，过", 5: "我才是预言家，1 号是狼"}


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WEREALIGN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("WEREALIGN_CACHE", raising=False)


def _game():
    rules = ZH.rules.model_copy(update={"declared_roles": [LANTERN],
                                        "public_cards": [*(ZH.rules.public_cards or []), "lantern_keeper"]})
    return _said(ZH.model_copy(update={"rules": rules}), TEXTS)


def _turns(game):
    by_segment = {u.segment_ids[0]: u for u in game.utterances}
    return [(game, by_segment[s]) for s in sorted(TEXTS)]


def _reply_by_text(replies: dict[str, str]):
    """A fake model answering by which invented sentence the prompt holds."""
    return lambda user: next(r for said, r in replies.items() if said in user)


def test_the_prompt_holds_the_board_an_invented_role_and_the_turn():
    game = _game()
    (g, turn), *_ = _turns(game)
    messages = claim_messages(g, turn)
    assert len(messages) == 1 and messages[0]["role"] == "user"
    text = messages[0]["content"]
    assert "- lantern_keeper: 提灯人 / lantern keeper" in text and "- seer: 预言家" in text
    assert "in the game's language / in English):" in text
    english = g.model_copy(update={"language": "en"})
    assert "in the game's language):" in claim_messages(english, turn)[0]["content"]  # no English column to announce
    assert "hunter:" not in text  # a role off the board is not offered
    assert TEXTS[1] in text and f"seat {turn.speaker}" in text
    assert TEXTS[3] not in text  # no other turn is shown
    assert "quotes of others" in text and '{"claim": null}' in text
    rules = json.loads((REPO / "tests" / "data" / "claim_labels_werebench.json").read_text(encoding="utf-8"))["rules"]
    idioms = re.findall(r"'([^']*[\u4e00-\u9fff][^']*)'", rules)
    assert len(idioms) >= 6 and all(i in text for i in idioms)  # the hand labellers' rules, every idiom kept


@pytest.mark.parametrize("reply, role", [
    ('{"claim": "seer"}', "seer"),
    ('{"claim": null}', None),
    ('```json\n{"claim": "lantern_keeper"}\n```', "lantern_keeper"),
    ('The speaker claims: {"claim": " witch "}', "witch"),
])
def test_replies_that_read(reply, role):
    assert parse_claim(reply, ["seer", "witch", "lantern_keeper"]) == role


@pytest.mark.parametrize("reply, why", [
    ("seer", "no JSON object"),
    ('{"claim": "hunter"}', "not a role of the board"),
    ('{"claim": "预言家"}', "not a role of the board"),  # a display name is not an id
    ('{"role": "seer"}', 'no "claim" field'),
    ('{"claim": seer}', "not JSON"),
    ('{"claim": "seer"} {"claim": "witch"}', "2 JSON objects"),
    ('{"claim": 3}', "not a role of the board"),
    ("", "no JSON object"),
])
def test_replies_that_do_not_read(reply, why):
    with pytest.raises(Unreadable, match=why):
        parse_claim(reply, ["seer", "witch"])


def test_right_wrong_and_unreadable_replies_are_scored_and_counted():
    game = _game()
    fake = FakeCompletion(reply_for=_reply_by_text({TEXTS[1]: '{"claim": "lantern_keeper"}',
                                                    TEXTS[3]: "I think no claim.",  # malformed
                                                    TEXTS[5]: '{"claim": "hunter"}'}))  # off the board
    reads = read_claims(_turns(game), MODEL, api_base=BASE, acompletion=fake)
    assert len(fake.calls) == 3 and all(c["temperature"] == 0 for c in fake.calls)
    assert reads.sent == 3 and reads.cached == 0
    assert [reads.reads[(game.game_id, t.index)] for _, t in _turns(game)] == ["lantern_keeper", None, None]
    assert [u["reason"] for u in reads.unreadable] == ["no JSON object in the reply",
                                                       "the reply names 'hunter', not a role of the board"]
    labels = [{"game": game.game_id, "utterance": t.index, "seat": t.speaker, "claim": c, "set": "X"}
              for (_, t), c in zip(_turns(game), ["lantern_keeper", None, "seer"], strict=True)]
    s = score_labels(labels, {game.game_id: game}, read=lambda g, t: reads.reads[(g.game_id, t.index)])
    assert (s.claims, s.read, s.right) == (2, 1, 1)  # the off-board reply is a miss, never a guessed seer
    assert [m["label"] for m in s.misses] == ["seer"]


def test_a_failed_request_is_unreadable_and_the_cache_answers_a_second_run():
    game = _game()
    down = FakeCompletion(fail_with=ConnectionError("network unreachable"))
    reads = read_claims(_turns(game), MODEL, api_base=BASE, acompletion=down, policy=RetryPolicy(max_attempts=1))
    assert len(reads.unreadable) == 3 and all("request failed" in u["reason"] for u in reads.unreadable)
    assert set(reads.reads.values()) == {None}
    up = FakeCompletion(reply_for=lambda user: '{"claim": "seer"}')
    first = read_claims(_turns(game), MODEL, api_base=BASE, acompletion=up)
    assert len(up.calls) == 3 and first.sent == 3 and not first.unreadable  # failures were never cached
    again = FakeCompletion(reply_for=lambda user: '{"claim": "witch"}')
    second = read_claims(_turns(game), MODEL, api_base=BASE, acompletion=again)
    assert again.calls == [] and second.cached == 3 and second.reads == first.reads
    other = read_claims(_turns(game), MODEL, api_base="http://127.0.0.1:8/v1", acompletion=again)
    assert len(again.calls) == 3 and set(other.reads.values()) == {"witch"}  # another endpoint: its own replies


def test_the_estimate_counts_every_call():
    calls, tokens = estimate(_turns(_game()))
    assert calls == 3 and tokens > 3 * 100  # the rules and the roles ride on every call


def _files(tmp_path):
    game = _game()
    write_dataset(tmp_path / "ds", name="invented", version="1", licence="test", games=[game], items={})
    labels = [{"game": game.game_id, "utterance": t.index, "seat": t.speaker, "claim": c, "set": name}
              for (_, t), c, name in zip(_turns(game), ["lantern_keeper", None, "seer"], "XXY", strict=True)]
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": labels}), encoding="utf-8")
    return [str(tmp_path / "ds"), str(path)]


def test_the_script_scores_a_model_as_the_rule_reader_is_scored(tmp_path, capsys):
    args = _files(tmp_path)
    fake = FakeCompletion(reply_for=_reply_by_text({TEXTS[1]: '{"claim": "lantern_keeper"}', TEXTS[3]: '{"claim": null}',
                                                    TEXTS[5]: "seer, I think"}))
    assert script.main([*args, "X", "Y", "--model", MODEL, "--api-base", BASE], acompletion=fake) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("X\tturns=2\tclaims=1\tread=1\tright=1\trecall=100.0%")
    assert out[1].startswith("Y\tturns=1\tclaims=1\tread=0\tright=0\trecall=0.0%")
    assert out[2].startswith("X+Y\tturns=3\tclaims=2\tread=1\tright=1")
    assert out[3].startswith(f"model {MODEL}: unreadable=1 of 3 turns") and "sent=3" in out[3]
    assert any(line.startswith("  unreadable ") and "no JSON object" in line for line in out)
    assert any("miss Y" in line and "seer -> none" in line for line in out)
    assert len(fake.calls) == 3
    assert script.main([*args, "--model", MODEL, "--api-base", BASE, "--limit", "1"], acompletion=fake) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("X\tturns=1") and len(fake.calls) == 3  # cached


def test_the_script_dry_run_sends_nothing_and_without_a_model_is_the_rule_reader(tmp_path, capsys):
    args = _files(tmp_path)
    fake = FakeCompletion()
    assert script.main([*args, "--model", MODEL, "--api-base", BASE, "--dry-run"], acompletion=fake) == 0
    out = capsys.readouterr().out
    assert out.startswith("dry run: 3 calls, ~") and fake.calls == []
    assert script.main(args) == 0
    out = capsys.readouterr().out
    assert "unreadable" not in out and out.splitlines()[0].startswith("X\tturns=2")


def test_the_script_refuses_a_baseline_and_a_model_without_its_key(tmp_path, capsys, monkeypatch):
    assert script.main([*_files(tmp_path), "--model", "werealign/random"]) == 2
    assert "baseline reads no prompt" in capsys.readouterr().err
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake = FakeCompletion()
    assert script.main([*_files(tmp_path), "--model", "openai/gpt-4o-mini"], acompletion=fake) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err and fake.calls == []


def test_a_reply_cut_at_max_tokens_says_so_and_max_tokens_is_sent():
    from types import SimpleNamespace

    sent = []

    async def cut(*, model, messages, **kwargs):
        sent.append(kwargs["max_tokens"])
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content='Let me think. {"cla'),
                                                        finish_reason="length")], usage=None, _hidden_params={})

    reads = read_claims(_turns(_game())[:1], MODEL, api_base=BASE, acompletion=cut, max_tokens=7)
    assert sent == [7] and reads.unreadable[0]["reason"] == "no JSON object in the reply (the reply was cut at max_tokens)"
    again = read_claims(_turns(_game())[:1], MODEL, api_base=BASE, acompletion=cut, max_tokens=7)
    assert sent == [7] and again.cached == 1 and "cut at max_tokens" in again.unreadable[0]["reason"]


@pytest.mark.werebench
def test_every_labelled_turn_of_the_release_can_be_answered(werebench_import):
    """Every hand-labelled turn's prompt offers each role of its board and shows the turn whole, and (almost) every
    labelled claim is a board role the model can name: the model reader's ceiling on the labels (2 of 832 are roles
    off the board, bluffs kept as labelled, when this was written)."""
    from werealign.dataset import load_dataset
    from werealign.game.claim_labels import labelled_turns, load_labels
    from werealign.game.claims import board_roles
    from werealign.schema.roles import canonical_role, catalogue_for

    labels = load_labels(REPO / "tests" / "data" / "claim_labels_werebench.json")
    claims = off_board = 0
    for row, game, turn in labelled_turns(labels, load_dataset(werebench_import.path).games):
        roles = board_roles(game)
        text = claim_messages(game, turn)[0]["content"]
        assert turn.text in text and all(f"\n- {r}: " in text for r in roles), (game.game_id, turn.index)
        claimed = row["claim"] and (canonical_role(row["claim"], catalogue_for(game.rules.declared_roles)) or row["claim"])
        claims += claimed is not None
        off_board += claimed is not None and claimed not in roles
    assert claims >= 800 and off_board <= claims // 100
