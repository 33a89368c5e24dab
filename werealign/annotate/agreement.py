"""Inter-annotator agreement (Cohen's kappa, scikit-learn) between two annotations of one game.

Two measures, each a kappa over aligned units with an explicit "absent" label, so a unit one
annotator has and the other lacks counts as a disagreement rather than vanishing:

- speaker attribution: unit = transcript segment (by id, the union over both games' turns);
  label = the segment's speaker ("host" or the seat) or "(absent)" when the segment is not a turn;
- game-state log: unit = event key, label = what the annotator recorded under that key:
    vote           (phase, voter)          -> target seat, "abstain" when null
    sheriff_election (phase)               -> new sheriff
    badge_transfer (phase, from seat)      -> new sheriff
    skill_use      (phase, actor, skill)   -> target seat
    elimination / night_outcome (phase, target seat) -> result text or "yes"
    self_destruct  (phase, actor)          -> "yes"
  and "(absent)" when the other annotator has the key but this one does not. Segment anchors are
  not part of the key: annotators legitimately anchor one event to neighbouring segments.
  A key can occur more than once (a tie revote: the same voter votes again in the same phase), so
  the unit is the key plus its occurrence ordinal in event order — 1 for the voter's first ballot
  in that phase, 2 for the revote — and the two annotations are compared ballot by ballot; a revote
  only one annotator logged is a disagreement with "(absent)".
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from werealign.errors import UserError
from werealign.files import parse_model, read_json
from werealign.schema import Event, GameLog

ABSENT = "(absent)"


def kappa(a: list[str], b: list[str]) -> float | None:
    """Cohen's kappa; None when it is undefined (both annotators used one and the same label throughout)."""
    from sklearn.metrics import cohen_kappa_score

    if not a or len(set(a) | set(b)) < 2:
        return None
    return float(cohen_kappa_score(a, b))


def _measure(units: list[Any], a: dict, b: dict, unit_name: str) -> dict:
    la = [a.get(u, ABSENT) for u in units]
    lb = [b.get(u, ABSENT) for u in units]
    agree = sum(x == y for x, y in zip(la, lb))
    disagreements = [f"{u}: A {x!r}, B {y!r}" for u, x, y in zip(units, la, lb) if x != y]
    return {
        "unit": unit_name,
        "n": len(units),
        "kappa": kappa(la, lb),
        "observed": agree / len(units) if units else 0.0,
        "disagreements": len(disagreements),
        "examples": disagreements[:10],
    }


def speaker_labels(game: GameLog) -> dict[int, str]:
    return {sid: (u.speaker if u.speaker == "host" else f"seat {u.speaker}") for u in game.utterances for sid in u.segment_ids}


def speaker_agreement(a: GameLog, b: GameLog) -> dict:
    la, lb = speaker_labels(a), speaker_labels(b)
    return _measure(sorted(set(la) | set(lb)), la, lb, "segments")


def event_key(ev: Event) -> tuple[tuple, str]:
    """(key, label) of one event, as documented above."""
    def seat(x: Any) -> str:
        return "none" if x is None else str(x)

    if ev.kind == "vote":
        return ("vote", ev.phase, seat(ev.actor)), "abstain" if ev.target is None else seat(ev.target)
    if ev.kind == "sheriff_election":
        return ("sheriff_election", ev.phase), seat(ev.target)
    if ev.kind == "badge_transfer":
        return ("badge_transfer", ev.phase, seat(ev.actor)), seat(ev.target)
    if ev.kind == "skill_use":
        return ("skill_use", ev.phase, seat(ev.actor), ev.skill or ""), seat(ev.target)
    if ev.kind in ("elimination", "night_outcome"):
        return (ev.kind, ev.phase, seat(ev.target)), ev.result or "yes"
    return (ev.kind, ev.phase, seat(ev.actor)), "yes"


def event_labels(game: GameLog) -> dict[tuple, str]:
    """Unit (event key + occurrence ordinal, as documented above) -> label."""
    out: dict[tuple, str] = {}
    seen: Counter[tuple] = Counter()
    for ev in game.events:  # a built game lists events in segment order, so ordinals follow the game
        key, label = event_key(ev)
        seen[key] += 1
        out[(*key, seen[key])] = label
    return out


def event_agreement(a: GameLog, b: GameLog) -> dict:
    la, lb = event_labels(a), event_labels(b)
    return _measure(sorted(set(la) | set(lb), key=str), la, lb, "events")


def agreement(a: GameLog, b: GameLog) -> dict[str, dict]:
    return {"speaker_attribution": speaker_agreement(a, b), "game_state_events": event_agreement(a, b)}


def _load_side(path: Path, srt: Path | None) -> GameLog:
    if path.suffix.lower() == ".json":
        return parse_model(GameLog, read_json(path), str(path))
    if path.suffix.lower() in (".yaml", ".yml"):
        if srt is None:
            raise UserError(f"{path}: an annotator config needs the transcript: pass --srt")
        from werealign.annotate.build import build_game
        from werealign.annotate.config import load_config
        from werealign.annotate.transcript import read_transcript

        segments = read_transcript(srt)
        config, source = load_config(path, (srt, {s.id for s in segments}))
        return build_game(config, source, segments, srt).game
    raise UserError(f"{path}: expected a game log (.json) or an annotator config (.yaml)")


def agreement_from_files(a: Path, b: Path, srt: Path | None = None) -> dict[str, dict]:
    ga, gb = _load_side(a, srt), _load_side(b, srt)
    if ga.game_id != gb.game_id:
        raise UserError(f"{b}: game_id {gb.game_id!r} differs from {a}'s {ga.game_id!r}; agreement compares two annotations of one game")
    return agreement(ga, gb)
