"""The context builder leaks nothing (DESIGN.md invariant 1) and is deterministic (invariant 2)."""

from __future__ import annotations

import re

import pytest

from crafted_game import CUTOFF, SECRETS, VIEWPOINT, crafted_game, crafted_opponent_item, crafted_osr, crafted_speech_item, crafted_vote_item
from werealign.game.audience import perceives
from werealign.schema.roles import catalogue_for
from werealign.game.visibility import build_context
from werealign.errors import UserError
from werealign.eval.prompts import render_messages
from werealign.render.lines import event_line, phase_label, rules_for_prompt, rules_summary, seat_label, speaker_label
from werealign.render.phrases import role_name
from werealign.schema import GameLog, Utterance, VoteItem

# --------------------------------------------------------------------------- crafted game


def _prompt(game, item, **kw) -> str:
    return "\n".join(m["content"] for m in render_messages(game, item, **kw))


ALL_PROMPTS = [
    ("speech-base", lambda g: _prompt(g, crafted_speech_item())),
    ("speech-rr", lambda g: _prompt(g, crafted_speech_item(), variant="rr")),
    ("speech-osr", lambda g: _prompt(g, crafted_speech_item(), variant="osr", osr=crafted_osr(g))),
    ("speech-permuted", lambda g: _prompt(g, crafted_speech_item(), option_order=[4, 2, 0, 1, 3, 5, 8, 7, 6])),
    ("vote", lambda g: _prompt(g, crafted_vote_item())),
    ("opponent", lambda g: _prompt(g, crafted_opponent_item())),
]


@pytest.mark.parametrize("segments", [True, False])
@pytest.mark.parametrize("name,make", ALL_PROMPTS, ids=[n for n, _ in ALL_PROMPTS])
def test_no_secret_marker_reaches_any_prompt(name, make, segments):
    prompt = make(crafted_game(segments=segments))
    for where, marker in SECRETS.items():
        if where == "own_vote_result":
            continue  # a public vote before the cut-off: legitimately visible except in VA (tested below)
        assert marker not in prompt, f"{where} leaked into {name}"


def test_straddling_turn_is_cut_at_the_segment_boundary_when_segments_exist():
    ctx = build_context(crafted_game(segments=True), VIEWPOINT, CUTOFF)
    last = ctx.utterances[-1]
    assert last.index == 4 and last.partial and last.text == "I trust seat 3 completely."
    assert ctx.left_out == ()


def test_straddling_turn_is_left_out_without_segments():
    ctx = build_context(crafted_game(segments=False), VIEWPOINT, CUTOFF)
    assert [u.index for u in ctx.utterances] == [0, 1, 2, 3]
    assert ctx.left_out == (4,)
    assert "I trust seat 3" not in _prompt(crafted_game(segments=False), crafted_speech_item())


def test_cutoff_is_inclusive():
    ctx = build_context(crafted_game(), VIEWPOINT, 13)
    assert [u.index for u in ctx.utterances] == [0, 1, 2, 3]
    assert ctx.utterances[-1].text.startswith("I am the real seer")


def test_own_speech_is_shown_and_labelled_you():
    prompt = _prompt(crafted_game(), crafted_speech_item())
    assert "Seat 3 (you): I am the real seer" in prompt
    assert speaker_label(3, 3, "zh") == "3号（你）"


def test_own_role_and_own_private_events_only():
    game = crafted_game()
    ctx = build_context(game, VIEWPOINT, CUTOFF)
    assert (ctx.own_role, ctx.own_faction, ctx.allies) == ("seer", "good", ())
    assert [(e.actor, e.skill) for e in ctx.private_events] == [(3, "seer_check")]
    prompt = _prompt(game, crafted_speech_item())
    assert "You checked Seat 1 (wolf)" in prompt
    assert "Your role: seer" in prompt
    for other in ("witch", "werewolf"):
        assert f"Your role: {other}" not in prompt


def test_no_other_seat_role_is_stated_by_the_framing():
    game = crafted_game()
    prompt = _prompt(game, crafted_speech_item())
    transcript_and_question = {u.text for u in build_context(game, VIEWPOINT, CUTOFF).utterances}
    framing = prompt
    for t in sorted(transcript_and_question | {o.text for o in crafted_speech_item().options} | {crafted_speech_item().question}, key=len, reverse=True):
        framing = framing.replace(t, "")
    for seat in game.seats:
        if seat.seat == VIEWPOINT:
            continue
        for line in framing.splitlines():
            if re.search(rf"\bSeat {seat.seat}\b", line):
                assert role_name(seat.role, "en") not in line.lower(), line


def test_wolf_knows_teammates_but_not_their_exact_role():
    game = crafted_game()
    game.seats[3].role = "white_wolf_king"
    ctx = build_context(game, 1, CUTOFF)
    assert ctx.allies == (4,) and ctx.own_faction == "wolf"
    item = crafted_opponent_item().model_copy(update={"viewpoint_seat": 1, "candidates": [2, 3, 5, 6], "answer": [2, 3, 5, 6]})
    prompt = _prompt(game, item)
    assert "You know your werewolf teammates: Seat 4." in prompt
    assert "white wolf king" not in prompt


def test_others_private_events_are_hidden_even_for_wolf_teammates():
    ctx = build_context(crafted_game(), 4, CUTOFF)
    assert ctx.private_events == ()  # seat 1's wolf_kill is seat 1's event


def test_vote_item_hides_own_vote_of_that_phase():
    game = crafted_game()
    own_vote = event_line(game.events[4], VIEWPOINT, "en")
    assert own_vote == "You voted for Seat 1"
    assert own_vote in _prompt(game, crafted_speech_item())  # public before the cut-off: fine for a speech item
    vote_prompt = _prompt(game, crafted_vote_item())
    assert own_vote not in vote_prompt and SECRETS["own_vote_result"] not in vote_prompt
    ctx = build_context(game, VIEWPOINT, CUTOFF, exclude_own_vote_phase="day-1")
    assert not [e for e in ctx.public_events if e.kind == "vote" and e.phase == "day-1"]


def test_unanchored_events_show_only_after_their_phase_ended():
    game = crafted_game()
    # night-2 elimination has no anchor; at a cut-off in day-1 it is in the future
    assert all(e.phase != "night-2" for e in build_context(game, VIEWPOINT, CUTOFF).public_events)
    ctx = build_context(game, VIEWPOINT, 30)  # cut-off inside night-2: still its own phase -> hidden
    assert all(e.phase != "night-2" for e in ctx.public_events)
    game.events[2].segment_id = None  # an unanchored night-1 private event of another seat stays hidden
    game.events[0].segment_id = None  # unanchored public night-1 outcome: visible once night-1 is over
    ctx = build_context(game, VIEWPOINT, CUTOFF)
    assert any(e.kind == "night_outcome" for e in ctx.public_events)
    assert all(e.actor == VIEWPOINT for e in ctx.private_events)


def test_player_night_turns_and_broadcast_asides_are_not_shown():
    game = crafted_game()
    aside = "This game is seen from seat 4, whose role is werewolf."
    game.utterances[0].text = f"{aside} Night falls, everyone close your eyes."
    game.utterances[0].segments = None
    confessional = Utterance(index=7, segment_ids=[2], start=2, end=2.5, phase="night-1", speaker=VIEWPOINT, text="CONFESSIONAL-MARKER")
    game.utterances.insert(1, confessional)
    prompt = _prompt(game, crafted_speech_item())
    assert "CONFESSIONAL-MARKER" not in prompt
    assert "whose role is" not in prompt
    assert "Host: Night falls, everyone close your eyes." in prompt


def test_rules_text_or_generated_summary():
    assert "Standard werewolf rules for six players." in _prompt(crafted_game(), crafted_speech_item())
    game = crafted_game(rules_text=None)
    ctx = build_context(game, VIEWPOINT, CUTOFF)
    prompt = _prompt(game, crafted_speech_item())
    assert ctx.rules_generated and "2 x werewolf" in prompt and "Seer (the good side)" in prompt
    assert not build_context(crafted_game(), VIEWPOINT, CUTOFF).rules_generated
    zh = game.model_copy(update={"language": "zh"})
    assert "2张狼人" in rules_summary(zh) and "屠边规则" in rules_summary(zh)


def test_osr_replaces_text_and_drops_straddling_turns():
    game = crafted_game()
    ctx = build_context(game, VIEWPOINT, CUTOFF, osr=crafted_osr(game))
    assert [u.text for u in ctx.utterances] == [f"OSR rewrite of turn {i}." for i in range(4)]
    assert ctx.left_out == (4,)
    partial = [r for r in crafted_osr(game) if r.utterance_index != 2]
    with pytest.raises(UserError, match="utterance_index 2: no rewrite"):
        build_context(game, VIEWPOINT, CUTOFF, osr=partial)
    bad = crafted_osr(game)
    bad[1] = bad[1].model_copy(update={"segment_ids": [10]})
    with pytest.raises(UserError, match="utterance_index 1: rewrite covers segments"):
        build_context(game, VIEWPOINT, CUTOFF, osr=bad)


def test_unknown_viewpoint_seat_is_a_user_error():
    with pytest.raises(UserError, match="viewpoint_seat 9"):
        build_context(crafted_game(), 9, CUTOFF)


def _observer_item():
    return crafted_speech_item().model_copy(update={"viewpoint_seat": None})


@pytest.mark.parametrize("segments", [True, False])
@pytest.mark.parametrize("variant", ["base", "rr", "osr"])
def test_observer_context_has_no_role_no_private_event_and_no_you(segments, variant):
    game = crafted_game(segments=segments)
    ctx = build_context(game, None, CUTOFF)
    seated = build_context(game, VIEWPOINT, CUTOFF)
    assert (ctx.viewpoint_seat, ctx.own_role, ctx.own_faction, ctx.allies, ctx.private_events) == (None, None, None, (), ())
    assert ctx.public_events == seated.public_events  # exactly the public part of what a player sees
    assert [u.text for u in ctx.utterances] == [u.text for u in seated.utterances]
    assert not any(u.is_self for u in ctx.utterances)
    item = _observer_item()
    prompt = _prompt(game, item, variant=variant, osr=crafted_osr(game) if variant == "osr" else None)
    for where, marker in SECRETS.items():
        if where != "own_vote_result":
            assert marker not in prompt, f"{where} leaked into an observer prompt"
    for private in [e for e in game.events if not e.public]:
        assert event_line(private, None, "en") not in prompt
        assert event_line(private, private.actor, "en") not in prompt
    for seated_only in ("(you)", "is you", "Your role", "You checked", "teammates", "You voted"):
        assert seated_only not in prompt
    assert "as an observer at the table" in prompt and "Seat 3 voted for Seat 1" in prompt
    # the framing ties no seat to its role, not even the seat a seated item would be asked from
    framing = prompt
    said = [u.text for u in ctx.utterances] + [item.question, *(o.text for o in item.options)]
    for t in sorted(said, key=len, reverse=True):
        framing = framing.replace(t, "")
    for seat in game.seats:
        for line in framing.splitlines():
            if re.search(rf"\bSeat {seat.seat}\b", line):
                assert role_name(seat.role, "en") not in line.lower(), line


def test_observer_framing_in_both_languages_and_seated_prompts_unchanged():
    en_sys, en_user = (m["content"] for m in render_messages(crafted_game(), _observer_item()))
    assert "observer" in en_sys and "your own role" not in en_sys
    assert "in order." in en_user  # the transcript header has no "(Seat N is you)"
    assert "## Your viewpoint" in en_user and "Who you are" not in en_user
    game = crafted_game().model_copy(update={"language": "zh"})
    item = _observer_item().model_copy(update={"language": "zh"})
    zh_sys, zh_user = (m["content"] for m in render_messages(game, item))
    assert "观察者" in zh_sys and "你自己的身份" not in zh_sys
    assert "场上观察者" in zh_user and "3号投票给1号" in zh_user
    assert "## 你的视角" in zh_user
    for seated_only in ("你的身份", "（你）", "即你本人", "你自己的行动", "你查验了"):
        assert seated_only not in zh_user
    seated = "\n".join(m["content"] for m in render_messages(crafted_game(), crafted_speech_item()))
    assert "observer" not in seated and "Your role: seer" in seated


def test_chinese_game_renders_in_chinese():
    game = crafted_game().model_copy(update={"language": "zh"})
    item = crafted_speech_item().model_copy(update={"language": "zh"})
    msgs = render_messages(game, item)
    assert "你的身份：预言家（好人阵营）" in msgs[1]["content"]
    assert "3号（你）：" in msgs[1]["content"] and "答案：<字母>" in msgs[1]["content"]
    assert "资深狼人杀玩家" in msgs[0]["content"]
    assert seat_label(5, "zh") == "5号"


def test_every_role_has_chinese_name_and_description():
    from werealign.render.phrases import PHRASES
    from werealign.schema.roles import ROLES

    assert set(ROLES) <= set(PHRASES["zh_roles"]) and set(ROLES) <= set(PHRASES["zh_role_desc"])


def test_context_is_deterministic():
    a = render_messages(crafted_game(), crafted_speech_item())
    b = render_messages(GameLog.model_validate_json(crafted_game().model_dump_json()), crafted_speech_item())
    assert a == b


def test_events_of_one_segment_are_told_in_the_order_they_happen():
    """A self-destructing sheriff: the release lists the badge first; the table hears it last."""
    from werealign.schema import Event

    game = crafted_game()
    told_last_first = [
        Event(kind="badge_transfer", phase="day-1", segment_id=13, public=True, actor=1, target=2),
        Event(kind="elimination", phase="day-1", segment_id=13, public=True, target=1, result="self_destruct"),
        Event(kind="self_destruct", phase="day-1", segment_id=13, public=True, actor=1),
    ]
    game = game.model_copy(update={"events": told_last_first + list(game.events)})
    lines = [event_line(ev, VIEWPOINT, "en") for ev in build_context(game, VIEWPOINT, CUTOFF).public_events if ev.segment_id == 13]
    assert lines == ["Seat 1 self-destructed", "Seat 1 was eliminated (self-destructed)", "Seat 1 passed the sheriff badge to Seat 2"]


def test_event_lines_say_nothing_twice_and_no_raw_identifiers():
    from werealign.schema import Event

    died = Event(kind="night_outcome", phase="night-1", segment_id=11, public=True, target=6, result="died")
    assert event_line(died, VIEWPOINT, "en") == "Night outcome: Seat 6 died"
    assert event_line(died, VIEWPOINT, "zh") == "夜间结果：6号死亡"
    take = Event(kind="skill_use", phase="day-1", segment_id=13, public=True, actor=5, target=2, skill="white_wolf_king_take")
    assert event_line(take, VIEWPOINT, "en") == "Seat 5 took out Seat 2"
    odd = Event(kind="skill_use", phase="day-1", segment_id=13, public=True, actor=5, target=2, skill="moon_dance")
    assert event_line(odd, VIEWPOINT, "en") == "Seat 5 used moon dance on Seat 2"


# --------------------------------------------------------------------------- real data


def _chunks(text: str, size: int = 16) -> list[str]:
    """Distinctive pieces of a text: its clauses of at least `size` characters, cut to `size`."""
    parts = re.split(r"[，。！？；,.!?;\n]", text)
    return [p.strip()[:size] for p in parts if len(p.strip()) >= size]


_ROLE_CLAIM = re.compile(r"(\d+)\s*号[，,\s]*(?:他|她)的?(?:身份|底牌)是([^，。,.\s]+)")


@pytest.mark.werebench
def test_real_data_no_leakage_for_every_item(werebench_dataset):
    ds = werebench_dataset
    items = [*ds.speech, *ds.vote, *ds.opponent]
    assert items
    checked_after = 0
    observers = 0
    for item in items:
        game = ds.games[item.game_id]
        where = f"{type(item).__name__} {item.item_id}"
        ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment,
                            exclude_own_vote_phase=item.phase if isinstance(item, VoteItem) else None)
        by_index = {u.index: u for u in game.utterances}
        for u in ctx.utterances:
            src = by_index[u.index]
            assert u.partial or max(src.segment_ids) <= item.cutoff_segment, where
        prompt = _prompt(game, item)
        allowed = "\n".join([rules_for_prompt(game), *(u.text for u in game.utterances if min(u.segment_ids) <= item.cutoff_segment),
                             (getattr(item, "question_short", None) or getattr(item, "question", "")), *(o.text for o in getattr(item, "options", []))])
        # 1. nothing said after the cut-off (unless the same words were also said before)
        for u in game.utterances:
            if min(u.segment_ids) > item.cutoff_segment:
                for chunk in _chunks(u.text):
                    if chunk not in allowed:
                        checked_after += 1
                        assert chunk not in prompt, f"{where}: text after the cut-off leaked: {chunk}"
        # 2. recap, annotator log, highlights, explanation
        hidden = [game.recap or "", game.annotator_log or "", *(h.note for h in game.highlights), getattr(item, "explanation", None) or ""]
        for text in hidden:
            for chunk in _chunks(text):
                if chunk not in allowed:
                    assert chunk not in prompt, f"{where}: hidden text leaked: {chunk}"
        # 3. no other seat's hidden role: the framing never ties a seat to its role, and no host aside does
        roles = {s.seat: s for s in game.seats}
        framing = prompt
        said = [u.text for u in ctx.utterances] + [(getattr(item, "question_short", None) or getattr(item, "question", "")), *(o.text for o in getattr(item, "options", []))]
        # The viewpoint's own night results (a seer's "你查验了12号（狼人）") are what it knew: exempt, and only those.
        own_results = {event_line(e, item.viewpoint_seat, game.language) for e in ctx.private_events}
        for t in sorted(said, key=len, reverse=True):  # longest first: a short turn must not cut a long one
            framing = framing.replace(t, "") if t else framing
            # the same cut in the exempt lines (a one-character turn such as "了" is cut from them too)
            own_results = {r.replace(t, "") for r in own_results} if t else own_results
        # Private events are the viewpoint's own actions, or the wolves' kill (issue 20): known to every wolf,
        # and to the witch (the night's victim, while she holds her antidote); nothing else.
        me = roles.get(item.viewpoint_seat)
        assert all(e.kind == "skill_use" and (e.actor == item.viewpoint_seat or (e.skill == "wolf_kill" and me is not None and (
            me.faction == "wolf" or me.role == "witch"))) for e in ctx.private_events), where
        for line in framing.splitlines():
            if any(r and r in line for r in own_results):
                continue
            for seat, info in roles.items():
                if seat == item.viewpoint_seat or seat in ctx.allies:
                    continue
                if f"{seat}号" in line and re.search(rf"(?<!\d){seat}号", line):  # the plain test first: 500,000 lines x seats
                    assert role_name(info.role, "zh") not in line, f"{where}: {line}"
        for m in _ROLE_CLAIM.finditer(prompt):
            seat = int(m.group(1))
            if seat in roles and seat != item.viewpoint_seat and seat not in ctx.allies:
                assert role_name(roles[seat].role, "zh") not in m.group(2), f"{where}: broadcast aside leaked: {m.group(0)}"
        # 4. observer items (no viewpoint seat): no role, no private event, nobody is "you"
        if item.viewpoint_seat is None:
            observers += 1
            assert (ctx.own_role, ctx.own_faction, ctx.allies, ctx.private_events) == (None, None, (), ()), where
            assert not any(u.is_self for u in ctx.utterances), where
            for e in game.events:
                if not e.public:
                    assert event_line(e, e.actor if isinstance(e.actor, int) else None, game.language) not in prompt, where
            for seated_only in ("你的身份：", "（你）", "即你本人", "你自己的行动"):
                assert seated_only not in prompt, f"{where}: {seated_only}"
        # 5. VA: the own vote of that phase is not in the prompt (as the events list shows it, under its phase: the same
        # words under another phase, e.g. the sheriff ballot read from the host's tally, were heard before)
        if isinstance(item, VoteItem):
            for e in game.events:
                if e.kind == "vote" and e.phase == item.phase and e.actor == item.viewpoint_seat:
                    label = phase_label(next(p for p in game.phases if p.id == e.phase), game.language)
                    shown = f"【{label}】" if game.language == "zh" else f"[{label}] "
                    assert shown + event_line(e, item.viewpoint_seat, game.language) not in prompt, where
    assert checked_after > 1000  # the check above really ran on real text
    assert observers == 2  # the release's two items addressed to the table, not one seat


@pytest.mark.werebench
def test_real_data_prompts_are_deterministic(werebench_dataset):
    ds = werebench_dataset
    for item in [*ds.speech[:40], *ds.vote, *ds.opponent]:
        game = ds.games[item.game_id]
        again = GameLog.model_validate_json(game.model_dump_json())
        assert render_messages(game, item) == render_messages(again, item)


@pytest.mark.werebench
def test_real_data_osr_variant_respects_the_cutoff(werebench_dataset):
    from werealign.schema import OsrRewrite

    ds = werebench_dataset
    for item in [*ds.speech[::7], *ds.vote, *ds.opponent]:
        game = ds.games[item.game_id]
        osr = [OsrRewrite(game_id=game.game_id, utterance_index=u.index, segment_ids=u.segment_ids, text=f"<OSR-{u.index}>") for u in game.utterances]
        prompt = _prompt(game, item, variant="osr", osr=osr)
        night = {p.id for p in game.phases if p.kind == "night"}
        day_of = {p.id: p.day for p in game.phases}
        # VA at the decision point (the default mode): the voter's own turns of the vote's day are withheld.
        withheld_from = day_of[item.phase] if isinstance(item, VoteItem) else None
        me = next((s for s in game.seats if s.seat == item.viewpoint_seat), None)
        cat = catalogue_for(game.rules.declared_roles)
        for u in game.utterances:
            shown = max(u.segment_ids) <= item.cutoff_segment and not (u.speaker != "host" and u.phase in night and u.audience is None)
            if u.audience is not None and not perceives(u.audience, u.speaker, me, cat):
                shown = False  # a turn only its audience heard (a team's chat; talk after an exit, heard by nobody)
            if withheld_from is not None and u.speaker == item.viewpoint_seat and day_of[u.phase] >= withheld_from:
                shown = False
            assert (f"<OSR-{u.index}>" in prompt) == shown, f"{item.item_id}: utterance {u.index}"


def _werealign_imports(module: str) -> set[str]:
    """The werealign modules a module's source imports (at any level of the file)."""
    import ast
    import importlib.util

    tree = ast.parse(open(importlib.util.find_spec(module).origin, encoding="utf-8").read())
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    names |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module for a in n.names}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return {n for n in names if n.startswith("werealign")}


def test_the_leakage_filter_and_the_wording_are_apart():
    """What a viewpoint may see (werealign.game.visibility) never depends on how prompts are asked, and the wording
    (werealign.render's tables and lines) never decides what is seen: it reads only the schema."""
    ctx_imports = _werealign_imports("werealign.game.visibility")
    assert not {i for i in ctx_imports if i.startswith(("werealign.eval", "werealign.generation", "werealign.tasks"))}
    # The rules a prompt shows are worded by render too (render.context_vars): the Context carries no wording.
    assert not {i for i in ctx_imports if i.startswith("werealign.render")}
    for module in ("werealign.render.phrases", "werealign.render.lines"):
        allowed = ("werealign.schema", "werealign.render.phrases")
        assert {i for i in _werealign_imports(module) if not i.startswith(allowed)} == set(), module

