"""A small invented game, its items and rewrites, valid in every respect; tests mutate copies.

Everything here is made up for the tests (no WereBench data). Six seats: seer, witch, two
villagers, two werewolves; the seer is the MVP and the good side wins.
"""

from __future__ import annotations

import copy
from pathlib import Path

from werealign.dataset import write_dataset
from werealign.schema import GameLog, OpponentItem, OsrRewrite, SpeechItem, VoteItem

ROLES = ["seer", "witch", "villager", "villager", "werewolf", "werewolf"]
FACTIONS = ["good", "good", "good", "good", "wolf", "wolf"]

# (phase, speaker, segment ids, start, end, per-segment text?)
TURNS = [
    ("night-1", "host", [0, 1], 5, 50, True),
    ("sheriff-election", 1, [2, 3], 65, 100, True),
    ("day-1", 5, [4, 5, 6], 130, 200, False),
    ("day-1", 2, [7], 200, 250, True),
    ("night-2", "host", [8], 300, 340, True),
    ("day-2", 3, [9, 10], 370, 450, False),
    ("day-2", 6, [11], 450, 500, True),
]


def game() -> dict:
    utterances = []
    for i, (phase, speaker, segs, start, end, with_segments) in enumerate(TURNS):
        step = (end - start) / len(segs)
        segments = [
            {"id": s, "start": start + k * step, "end": start + (k + 1) * step, "text": f"part {s} of turn {i}"}
            for k, s in enumerate(segs)
        ] if with_segments else None
        utterances.append({
            "index": i, "segment_ids": segs, "start": start, "end": end, "phase": phase,
            "speaker": speaker, "text": f"turn {i} text", "segments": segments,
        })
    return {
        "schema_version": "1.0",
        "game_id": "g1",
        "language": "en",
        "provenance": {"source": "invented for tests"},
        "rules": {
            "text": "Six players.",
            "variant": "seer-witch",
            "composition": [
                {"role": "seer", "faction": "good", "count": 1},
                {"role": "witch", "faction": "good", "count": 1},
                {"role": "villager", "faction": "good", "count": 2},
                {"role": "werewolf", "faction": "wolf", "count": 2},
            ],
            "win_condition": "side_elimination",
            "has_sheriff": True,
        },
        "seats": [
            {"seat": n, "role": r, "faction": f, "speaker_labels": [f"Speaker {n}"]}
            for n, (r, f) in enumerate(zip(ROLES, FACTIONS), 1)
        ],
        "host_labels": ["Host"],
        "phases": [
            {"id": "night-1", "kind": "night", "day": 1, "start": 0, "end": 60},
            {"id": "sheriff-election", "kind": "sheriff_election", "day": 1, "start": 60, "end": 120},
            {"id": "day-1", "kind": "day", "day": 1, "start": 120, "end": 300},
            {"id": "night-2", "kind": "night", "day": 2, "start": 300, "end": 360},
            {"id": "day-2", "kind": "day", "day": 2, "start": 360, "end": 600},
        ],
        "utterances": utterances,
        "events": [
            {"kind": "skill_use", "phase": "night-1", "segment_id": 1, "public": False, "actor": 1, "target": 6,
             "skill": "seer_check", "result": "wolf"},
            {"kind": "vote", "phase": "day-1", "segment_id": 7, "public": True, "actor": 1, "target": 5},
            {"kind": "elimination", "phase": "day-1", "segment_id": 7, "public": True, "target": 5},
            {"kind": "night_outcome", "phase": "night-2", "segment_id": 8, "public": True, "target": 4},
        ],
        "mvp": {"seat": 1, "votes": [
            {"phase": "day-1", "target": 5, "cutoff_segment": 7},
            {"phase": "day-2", "target": 6, "cutoff_segment": 11},
        ]},
        "highlights": [{"segment_id": 3, "kind": "pivotal_claim", "note": "claims seer"}],
        "recap": "Good wins.",
        "annotator_log": None,
        "winner": "good",
    }


def speech() -> dict:
    origins = ["m1_role_perturbation", "m1_information_occlusion", "ground_truth", "m1_faction_inversion",
               "m2_biased_rationale", "m1_role_perturbation", "m1_information_occlusion", "m1_faction_inversion",
               "m2_biased_rationale"]
    return {
        "schema_version": "1.0", "item_id": "s-1", "game_id": "g1", "language": "en", "dimension": "RI",
        "viewpoint_seat": 1, "cutoff_segment": 6, "question": "Which seat is most likely a werewolf?",
        "options": [{"key": k, "text": f"Seat {n} because of reason {k}", "origin": o}
                    for n, (k, o) in enumerate(zip("ABCDEFGHI", origins), 1)],
        "answer": "C",
        "provenance": {"review": "accepted"},
    }


def vote() -> dict:
    return {"schema_version": "1.0", "item_id": "v-1", "game_id": "g1", "language": "en", "viewpoint_seat": 1,
            "phase": "day-1", "cutoff_segment": 7, "candidates": [2, 3, 4, 5, 6], "answer": 5}


def opponent() -> dict:
    return {"schema_version": "1.0", "item_id": "o-1", "game_id": "g1", "language": "en", "viewpoint_seat": 1,
            "cutoff_segment": 7, "candidates": [2, 3, 4, 5, 6], "answer": [5, 6]}


def osr() -> list[dict]:
    g = game()
    return [{"schema_version": "1.0", "game_id": "g1", "utterance_index": u["index"], "segment_ids": u["segment_ids"],
             "text": f"Seat {u['speaker']} said something."}
            for u in g["utterances"] if u["speaker"] != "host"]


def write(root: Path, *, games=None, speech_rows=None, vote_rows=None, opponent_rows=None, osr_rows=None) -> Path:
    """Write a dataset directory (manifest and hashes included) from dicts; defaults are the good ones."""
    games = [game()] if games is None else games
    osr_rows = {"g1": osr()} if osr_rows is None else osr_rows
    write_dataset(
        root, name="tiny", version="0.0.1", licence="CC0-1.0",
        games=[GameLog.model_validate(g) for g in games],
        items={"speech": [SpeechItem.model_validate(x) for x in (speech_rows if speech_rows is not None else [speech()])],
               "vote": [VoteItem.model_validate(x) for x in (vote_rows if vote_rows is not None else [vote()])],
               "opponent": [OpponentItem.model_validate(x) for x in (opponent_rows if opponent_rows is not None else [opponent()])]},
        osr={gid: [OsrRewrite.model_validate(r) for r in rows] for gid, rows in osr_rows.items()},
    )
    return root


def mutate(obj: dict, dotted: str, value) -> dict:
    """Copy of obj with the value at 'a.b[2].c' replaced; the value DELETE removes the key."""
    out = copy.deepcopy(obj)
    parts = [int(p) if p.isdigit() else p for p in dotted.replace("[", ".").replace("]", "").split(".")]
    target = out
    for p in parts[:-1]:
        target = target[p]
    if value is DELETE:
        del target[parts[-1]]
    else:
        target[parts[-1]] = value
    return out


DELETE = object()
