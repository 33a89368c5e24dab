"""Audiences: who perceived each event and turn. An invented chat-style Mafia game with named
players, a mafia night chat and an open day vote with a re-vote (nothing copied from elsewhere)."""

from __future__ import annotations

import json

from werealign.game.visibility import build_context
from werealign.eval.prompts import render_messages
from werealign.game.derive import derive_decision_items
from werealign.schema import GameLog
from werealign.schema.models import GAME_SCHEMA_VERSION
from werealign.validate import validate_game

NAMES = ["Alice", "Bob", "Carol", "Dmitri", "Eve"]
ROLES = [("mafioso", "wolf"), ("godfather", "wolf"), ("detective", "good"), ("doctor", "good"), ("bystander", "good")]


def chat_game(**changes) -> GameLog:
    seg = iter(range(1, 100))

    def turn(i, phase, speaker, text, audience=None):
        sid = next(seg)
        u = {"index": i, "segment_ids": [sid], "start": float(sid), "end": sid + 0.5, "phase": phase, "speaker": speaker, "text": text}
        if audience:
            u["audience"] = audience
        return u

    mafia = {"kind": "team", "team": "wolf"}
    turns = [
        turn(0, "night-1", "host", "Night falls. Mafia, open your private chat."),
        turn(1, "night-1", 1, "PLAN-KILL-DMITRI: let us take Dmitri tonight.", mafia),
        turn(2, "night-1", 2, "Agreed, Dmitri it is.", mafia),
        turn(3, "night-1", 3, "DETECTIVE-DIARY: I will look at Bob.", {"kind": "seats", "seats": [3]}),
        turn(4, "day-1", "host", "Morning. The doctor's patient survived: nobody died."),
        turn(5, "day-1", 3, "Alice is very quiet; I vote Bob."),
        turn(6, "day-1", 5, "Bob, then."),
        turn(7, "day-1", 1, "Carol is lying."),
        turn(8, "day-1", "host", "Bob and Carol are tied: re-vote between the two."),
        turn(9, "day-1", 4, "Re-vote time, I stay on Bob."),
        turn(10, "day-1", "host", "Bob is voted out."),
    ]
    game = {
        "schema_version": GAME_SCHEMA_VERSION,
        "game_id": "chat-mafia-1",
        "language": "en",
        "provenance": {"source": "invented chat game"},
        "rules": {"text": "Five players chat online. The mafia chat privately at night and kill one player.", "variant": "chat-5",
                  "composition": [{"role": r, "faction": f, "count": 1} for r, f in ROLES], "has_sheriff": False},
        "seats": [{"seat": i + 1, "role": r, "faction": f, "name": NAMES[i]} for i, (r, f) in enumerate(ROLES)],
        "phases": [{"id": "night-1", "kind": "night", "day": 1, "start": 0, "end": 4.9},
                   {"id": "day-1", "kind": "day", "day": 1, "start": 5, "end": 20}],
        "utterances": turns,
        "events": [
            {"kind": "skill_use", "phase": "night-1", "segment_id": 3, "audience": mafia, "actor": 1, "target": 4, "skill": "wolf_kill"},
            {"kind": "skill_use", "phase": "night-1", "segment_id": 4, "audience": {"kind": "actor"}, "actor": 3, "target": 2,
             "skill": "detective_check", "result": "innocent"},
            {"kind": "skill_use", "phase": "night-1", "segment_id": 4, "audience": {"kind": "actor"}, "actor": 4, "target": 4, "skill": "doctor_save"},
            {"kind": "night_outcome", "phase": "day-1", "segment_id": 5, "audience": {"kind": "everyone"}, "result": "peaceful night"},
            # An open vote: each ballot is seen as it is cast; round 2 is the re-vote.
            {"kind": "vote", "phase": "day-1", "segment_id": 6, "audience": {"kind": "everyone"}, "actor": 3, "target": 2, "round": 1},
            {"kind": "vote", "phase": "day-1", "segment_id": 7, "audience": {"kind": "everyone"}, "actor": 5, "target": 2, "round": 1},
            {"kind": "vote", "phase": "day-1", "segment_id": 8, "audience": {"kind": "everyone"}, "actor": 1, "target": 3, "round": 1},
            {"kind": "vote", "phase": "day-1", "segment_id": 8, "audience": {"kind": "everyone"}, "actor": 4, "target": 3, "round": 1,
             "note": "DMITRI-ROUND-1"},
            {"kind": "vote", "phase": "day-1", "segment_id": 10, "audience": {"kind": "everyone"}, "actor": 4, "target": 2, "round": 2},
            {"kind": "elimination", "phase": "day-1", "segment_id": 11, "audience": {"kind": "everyone"}, "target": 2, "result": "voted_out"},
        ],
        "mvp": {"seat": 4, "votes": [{"phase": "day-1", "target": 2, "cutoff_segment": 10, "round": 2}]},
        "winner": "good",
    }
    game.update(changes)
    return GameLog.model_validate(game)


def _said(ctx) -> str:
    return " ".join(u.text for u in ctx.utterances)


def test_each_seat_sees_exactly_what_it_perceived():
    game = chat_game()
    assert [f for f in validate_game(game, "chat.json") if f.severity == "error"] == []
    mafioso, detective, doctor, observer = (build_context(game, s, 9) for s in (1, 3, 4, None))
    # The mafia's night chat and kill decision reach the mafia only.
    assert "PLAN-KILL-DMITRI" in _said(mafioso) and "Dmitri it is" in _said(mafioso)
    assert any(e.skill == "wolf_kill" for e in mafioso.private_events)
    for other in (detective, doctor, observer):
        assert "PLAN-KILL-DMITRI" not in _said(other) and not any(e.skill == "wolf_kill" for e in other.private_events)
    # A note to oneself reaches its one listed seat; a skill use its actor.
    assert "DETECTIVE-DIARY" in _said(detective) and "DETECTIVE-DIARY" not in _said(mafioso)
    assert [e.skill for e in detective.private_events] == ["detective_check"]
    assert [e.skill for e in doctor.private_events] == ["doctor_save"]
    assert observer.private_events == () and observer.own_role is None
    # Public events are everyone's.
    assert [e.kind for e in observer.public_events][:1] == ["night_outcome"]


def test_named_players_are_tied_to_their_seats():
    game = chat_game()
    vote = derive_decision_items(game).vote[0]
    text = render_messages(game, vote)[1]["content"]
    assert "## Players\nSeat 1: Alice, Seat 2: Bob, Seat 3: Carol, Seat 4: Dmitri, Seat 5: Eve\n" in text
    assert "Your role: doctor (the town)" in text  # a Mafia role from the catalogue, in its family's words (issue 45)


def test_vote_item_hides_only_the_viewpoints_own_ballot_of_the_round_asked():
    game = chat_game()
    (vote,) = derive_decision_items(game).vote
    assert (vote.viewpoint_seat, vote.round, vote.answer, vote.candidates) == (4, 2, 2, [1, 2, 3, 5])
    ctx = build_context(game, 4, vote.cutoff_segment, exclude_own_vote_phase=vote.phase, exclude_own_vote_round=vote.round)
    shown = [(e.actor, e.target, e.round) for e in ctx.public_events if e.kind == "vote"]
    # Round 1 was cast in the open before the cut-off: every ballot shown, the viewpoint's own included.
    assert shown == [(3, 2, 1), (5, 2, 1), (1, 3, 1), (4, 3, 1)]
    # Asked about round 1 instead, its own round-1 ballot is the answer: hidden; the others stay.
    ctx1 = build_context(game, 4, 8, exclude_own_vote_phase="day-1", exclude_own_vote_round=1)
    assert [(e.actor, e.round) for e in ctx1.public_events if e.kind == "vote"] == [(3, 1), (5, 1), (1, 1)]


def test_self_vote_only_where_the_rules_allow_it():
    game = chat_game(mvp={"seat": 4, "votes": [{"phase": "day-1", "target": 4, "cutoff_segment": 10}]})
    derived = derive_decision_items(game)
    assert derived.vote == [] and [n.code for n in derived.notes if n.kind == "dropped"] == ["va_self_vote"]
    rules = chat_game().rules.model_dump()
    allowed = chat_game(mvp={"seat": 4, "votes": [{"phase": "day-1", "target": 4, "cutoff_segment": 10}]},
                        rules=dict(rules, self_vote_allowed=True))
    (item,) = derive_decision_items(allowed).vote
    assert item.answer == 4 and 4 in item.candidates


def test_schema_1_0_games_are_read_and_upgraded(tmp_path):
    data = json.loads(chat_game().model_dump_json())
    data["schema_version"] = "1.0"
    for e in data["events"]:
        e["public"] = e.pop("audience")["kind"] == "everyone"
    assert [f for f in validate_game(data, "old.json") if f.severity == "error"] == []  # the JSON Schema still takes 1.0
    old = GameLog.model_validate(data)
    assert old.schema_version == "1.1"
    kinds = [e.audience.kind for e in old.events]
    assert kinds[:2] == ["actor", "actor"] and kinds[3:] == ["everyone"] * 7  # a 1.0 private event was its actor's
    dumped = json.loads(old.model_dump_json())
    assert all("public" not in e and "audience" in e for e in dumped["events"])
    # Written once more, the upgraded game reads back unchanged.
    assert GameLog.model_validate(dumped) == old


def test_audience_naming_nobody_is_reported():
    game = chat_game()
    bad = game.model_copy(update={"events": [e.model_copy(update={"audience": e.audience.model_copy(update={"kind": "seats", "seats": [9]})})
                                             if i == 1 else e for i, e in enumerate(game.events)]})
    codes = {(f.code, f.field) for f in validate_game(bad, "chat.json")}
    assert ("audience-not-seat", "events[1].audience.seats[0]") in codes


def test_annotator_config_marks_a_team_night_chat(tmp_path):
    from conftest import REPO
    from werealign.annotate.build import build_from_files

    srt = tmp_path / "game.srt"
    original = (REPO / "annotation" / "examples" / "six_seat.srt").read_text(encoding="utf-8")
    old_cue = "Speaker 7: Night falls. Everyone, close your eyes. Werewolves, wake up and choose your target."
    srt.write_text(original.replace(old_cue, "Speaker 4: PACK-CHAT let us take seat 6 tonight."), encoding="utf-8")
    config = tmp_path / "config.yaml"
    template = (REPO / "annotation" / "config.template.yaml").read_text(encoding="utf-8")
    config.write_text(template + "\nturn_audiences:\n  - {first_segment: 2, last_segment: 2, audience: {kind: team, team: wolf}}\n", encoding="utf-8")
    game = build_from_files(srt, config).game
    (chat,) = [u for u in game.utterances if 2 in u.segment_ids]
    assert chat.speaker == 2 and chat.audience.kind == "team" and chat.audience.team == "wolf"
    assert [f for f in validate_game(game, "g.json") if f.severity == "error"] == []
    wolf, other_wolf, seer = (build_context(game, s, 16) for s in (2, 5, 3))
    assert "PACK-CHAT" in _said(wolf) and "PACK-CHAT" in _said(other_wolf) and "PACK-CHAT" not in _said(seer)
    # The pack's kill decision (a wolf_kill skill use) reaches every wolf, not only the one who entered it.
    assert any(e.skill == "wolf_kill" for e in other_wolf.private_events)
    assert not any(e.skill == "wolf_kill" for e in seer.private_events)
    # Without the audience the same night turn is off-table commentary: shown to nobody.
    config.write_text(template, encoding="utf-8")
    plain = build_from_files(srt, config).game
    assert all("PACK-CHAT" not in _said(build_context(plain, s, 16)) for s in (2, 3, 5))
