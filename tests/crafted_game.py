"""A small hand-made English game with secret markers in every place a model must never see.

Shared by tests/test_context.py, test_prompts.py and test_builtin_models.py (owned by the
context/prompt work). Nothing here comes from real data.
"""

from __future__ import annotations

from werealign.schema import (
    Event,
    GameLog,
    Mvp,
    MvpVote,
    Highlight,
    OpponentItem,
    Option,
    OsrRewrite,
    Phase,
    Provenance,
    RoleCount,
    Rules,
    SeatInfo,
    Segment,
    SpeechItem,
    Utterance,
    VoteItem,
)

# Markers that must never reach a prompt built at CUTOFF from VIEWPOINT.
SECRETS = {
    "after_cutoff": "ZEBRA-AFTER-CUTOFF",
    "straddle_tail": "QUOKKA-STRADDLE-TAIL",
    "recap": "MARMOT-RECAP",
    "annotator_log": "OCELOT-ANNOTATOR-LOG",
    "highlight": "TAPIR-HIGHLIGHT",
    "explanation": "NARWHAL-EXPLANATION",
    "private_other": "IBEX-PRIVATE-OTHER",
    "event_note": "LEMUR-EVENT-NOTE",
    "late_event": "GECKO-LATE-EVENT",
    "own_vote_result": "BISON-OWN-VOTE",
}
# Players' names are public at the table (issue 12): shown with their seats, no longer a secret.
PLAYER_NAME = "HERON-NAME"
VIEWPOINT = 3  # a seer
CUTOFF = 14


def crafted_game(*, rules_text: str | None = "Standard werewolf rules for six players.", segments: bool = True) -> GameLog:
    def utt(index, seg_ids, phase, speaker, texts):
        segs = [Segment(id=s, start=float(s), end=float(s) + 0.9, text=t) for s, t in zip(seg_ids, texts)] if segments else None
        return Utterance(index=index, segment_ids=seg_ids, start=float(seg_ids[0]), end=float(seg_ids[-1]) + 0.9,
                         phase=phase, speaker=speaker, text=" ".join(texts), segments=segs)

    seats = [
        SeatInfo(seat=1, role="werewolf", faction="wolf", original_role_label="wolf", speaker_labels=["Speaker A"], name=PLAYER_NAME),
        SeatInfo(seat=2, role="villager", faction="good"),
        SeatInfo(seat=3, role="seer", faction="good"),
        SeatInfo(seat=4, role="werewolf", faction="wolf"),
        SeatInfo(seat=5, role="witch", faction="good"),
        SeatInfo(seat=6, role="villager", faction="good"),
    ]
    return GameLog(
        game_id="crafted-1",
        language="en",
        provenance=Provenance(source="hand-made test game"),
        rules=Rules(
            text=rules_text,
            variant="seer-witch",
            composition=[
                RoleCount(role="werewolf", faction="wolf", count=2),
                RoleCount(role="villager", faction="good", count=2),
                RoleCount(role="seer", faction="good", count=1),
                RoleCount(role="witch", faction="good", count=1),
            ],
        ),
        seats=seats,
        host_labels=["Host"],
        phases=[
            Phase(id="night-1", kind="night", day=1, start=0, end=9.9),
            Phase(id="day-1", kind="day", day=1, start=10, end=29.9),
            Phase(id="night-2", kind="night", day=2, start=30, end=39.9),
        ],
        utterances=[
            utt(0, [1], "night-1", "host", ["Night falls, everyone close your eyes."]),
            utt(1, [10, 11], "day-1", "host", ["Day breaks.", "Seat 6 died last night."]),
            utt(2, [12], "day-1", 1, ["I am the seer and seat 2 is a wolf."]),
            utt(3, [13], "day-1", 3, ["I am the real seer; I checked seat 1 and seat 1 is a wolf."]),
            # straddles the cut-off: segment 14 is before, 15 after
            utt(4, [14, 15], "day-1", 2, ["I trust seat 3 completely.", SECRETS["straddle_tail"]]),
            utt(5, [16], "day-1", 4, [f"I vote seat 3 {SECRETS['after_cutoff']}."]),
            utt(6, [30], "night-2", "host", [f"Night again {SECRETS['after_cutoff']}."]),
        ],
        events=[
            Event(kind="night_outcome", phase="night-1", segment_id=11, public=True, target=6, note=SECRETS["event_note"]),
            Event(kind="skill_use", phase="night-1", segment_id=1, public=False, actor=3, target=1, skill="seer_check", result="wolf"),
            Event(kind="skill_use", phase="night-1", segment_id=1, public=False, actor=5, target=6, skill="witch_save", result=SECRETS["private_other"]),
            Event(kind="skill_use", phase="night-1", segment_id=1, public=False, actor=1, target=6, skill="wolf_kill", result=SECRETS["private_other"]),
            Event(kind="vote", phase="day-1", segment_id=14, public=True, actor=3, target=1, result=SECRETS["own_vote_result"]),
            Event(kind="vote", phase="day-1", segment_id=17, public=True, actor=2, target=4, result=SECRETS["late_event"]),
            Event(kind="elimination", phase="day-1", segment_id=18, public=True, target=1, result=SECRETS["late_event"]),
            Event(kind="elimination", phase="night-2", segment_id=None, public=True, target=2, result=SECRETS["late_event"]),
        ],
        mvp=Mvp(seat=3, votes=[MvpVote(phase="day-1", target=1, cutoff_segment=CUTOFF)]),
        highlights=[Highlight(segment_id=13, kind="pivotal_claim", note=SECRETS["highlight"])],
        recap=SECRETS["recap"],
        annotator_log=SECRETS["annotator_log"],
        winner="good",
    )


def crafted_speech_item(*, rule_reminder: str | None = "Remember: the seer checks one player per night.") -> SpeechItem:
    texts = [
        "Seat 1 is a werewolf who bluffed the seer claim.",
        "Seat 1 is the real seer.",
        "Seat 2 is a werewolf.",
        "Seat 4 is the witch.",
        "Seat 1 is a villager.",
        "Nobody can be trusted at all, abstain.",
        "Seat 5 is a werewolf.",
        "Seat 6 is alive.",
        "Seat 2 is the seer.",
    ]
    return SpeechItem(
        item_id="crafted-RI-1",
        game_id="crafted-1",
        language="en",
        dimension="RI",
        viewpoint_seat=VIEWPOINT,
        cutoff_segment=CUTOFF,
        question="You are seat 3. What is seat 1?",
        options=[Option(key="ABCDEFGHI"[i], text=t, origin="ground_truth" if i == 0 else "m1_role_perturbation") for i, t in enumerate(texts)],
        answer="A",
        explanation=SECRETS["explanation"],
        rule_reminder=rule_reminder,
    )


def crafted_vote_item() -> VoteItem:
    return VoteItem(item_id="crafted-VA-1", game_id="crafted-1", language="en", viewpoint_seat=VIEWPOINT, phase="day-1",
                    cutoff_segment=CUTOFF, candidates=[1, 2, 4, 5], answer=1)


def crafted_opponent_item() -> OpponentItem:
    return OpponentItem(item_id="crafted-OI-1", game_id="crafted-1", language="en", viewpoint_seat=VIEWPOINT,
                        cutoff_segment=CUTOFF, candidates=[1, 2, 4, 5], answer=[1, 4])


def crafted_osr(game: GameLog) -> list[OsrRewrite]:
    return [OsrRewrite(game_id=game.game_id, utterance_index=u.index, segment_ids=u.segment_ids, text=f"OSR rewrite of turn {u.index}.")
            for u in game.utterances]
