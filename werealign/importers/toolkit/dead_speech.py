"""The table turns a transcript puts under the label of a seat already out, beyond its last words: whose they are.

A seat that has left the game does not speak at the table again (`werealign validate` rejects it). A human
transcript still shows such turns, of two kinds: an annotation slip (diarization gave a living player's words to
the dead seat's speaker label, or cut one speaker's turn in two) and a dead player's aside (a laugh, a comment
from off the table). Each turn is settled by the first of these that applies, never by a list of games:
- **re-attributed** to the one seat the source establishes, when every rule below that names a speaker names the
  same seat, and that seat is still in the game (`dead_turn_reattributed`, the rules and their words as evidence):
  - the host's call right before the turn gives the floor to one seat ("从 4 号玩家开始发言", "5 号玩家发言",
    "3 号玩家请留遗言") or to the sheriff ("警长请归票", "警长，请选择..."), the seat holding the badge then;
  - the turn names its speaker ("我是 5 号", a turn opening with "5 号玩家发言");
  - more than a fragment, inside one seat's turn: the table turns before and after it (other such turns aside, no
    host line between) are the same seat's, and it is the only such turn in that seat's stretch of talk (two or
    more are a conversation with players out: post-game talk, a dead partner's banter);
  - more than a fragment, in a round of speeches: the seats speaking before and after it have exactly one seat
    still in the game (and not silenced the night before) between them, in one direction round the table (and not
    exactly one in the other);
- otherwise **kept off the table** (`dead_turn_off_table`): the turn stays in the log, heard by nobody (audience:
  the speaker alone), so no context, item or check treats it as game speech; a turn of at most `ASIDE`
  characters is named an aside, a longer one a turn no rule attributes.
A fragment of at most FRAGMENT characters is never re-attributed by its neighbours alone: a dead player's laugh
in another's turn looks the same as a split of that turn, and a false speaker is worse than a missing line.
"""

from __future__ import annotations

import re

from werealign.importers.report import ImportReport
from werealign.schema import GameLog, Utterance
from werealign.schema.models import ACTOR

# A turn this short (characters, spaces left out) is a fragment: by a seat still in the game it does not end another
# seat's last words (toolkit.crosscheck); under a seat out it is never a turn of its own.
FRAGMENT = 6
# At most this many characters, a turn kept off the table is reported as an aside rather than an unattributed turn.
ASIDE = 20
# "5 号玩家发言" gives the floor; "5 号玩家发言结束" takes it back.
_FLOOR = re.compile(r"(?<!\d)(\d{1,2})\s*号(?:玩家)?\s*(?:开始|先)?\s*(?:发言|请?留遗言|请?发表遗言)(?!\s*(?:结束|完毕|完了))")
_SHERIFF = re.compile(r"警长\s*[，,]?\s*请")
_SELF = re.compile(r"我是\s*(\d{1,2})\s*号(?:玩家)?(?=[，,。！!？?\s]|$)|^\s*(\d{1,2})\s*号(?:玩家)?\s*发言")


def size(text: str) -> int:
    return len("".join(text.split()))


def heard_at_table(u: Utterance) -> bool:
    return u.audience is None or u.audience.kind == "everyone"


def settle_dead_turns(game: GameLog, turns: dict[int, str], report: ImportReport, source_file: str) -> GameLog:
    """The game with each turn of `turns` (utterance index -> why it cannot be the labelled seat's) re-attributed
    or kept off the table, each reported by game and segment ids (module docstring)."""
    if not turns:
        return game
    utts = list(game.utterances)
    for i in sorted(turns):
        u = utts[i]
        named = _speakers(game, i, set(turns))
        what = f"utterances[{i}] at segment(s) {_segments(u)} in {u.phase} under the label of seat {u.speaker}, {turns[i]}"
        seats = {s for s, _ in named}
        living = {s.seat for s in game.seats} - _out_at(game, u.segment_ids[0]) - {u.speaker}
        if len(seats) == 1 and seats <= living:
            [seat] = seats
            utts[i] = u.model_copy(update={"speaker": seat, "audience": None})
            evidence = "; ".join(why for _, why in named)
            report.add("repaired", "dead_turn_reattributed", source_file=source_file, game=game.game_id, field="utterances[].speaker_id",
                       what=what, why=f"re-attributed to seat {seat}: {evidence}")
            continue
        utts[i] = u.model_copy(update={"audience": ACTOR})
        kind = f"an aside of {size(u.text)} characters" if size(u.text) <= ASIDE else "a turn no rule attributes"
        doubt = f" (the rules name {'; '.join(f'seat {s}: {why}' for s, why in named)}: not one seat in the game)" if named else ""
        report.add("dropped", "dead_turn_off_table", source_file=source_file, game=game.game_id, field="utterances[].speaker_id",
                   what=what, why=f"{kind}{doubt}: dropped from the game's speech, kept in the log heard by nobody (audience: the speaker alone)")
    return game.model_copy(update={"utterances": utts})


def _segments(u: Utterance) -> str:
    return f"{u.segment_ids[0]}" if len(u.segment_ids) == 1 else f"{u.segment_ids[0]}-{u.segment_ids[-1]}"


def _out_at(game: GameLog, segment: int) -> set[int]:
    return {e.target for e in game.events if e.kind == "elimination" and isinstance(e.target, int)
            and e.segment_id is not None and e.segment_id < segment}


def _sheriff_at(game: GameLog, segment: int) -> int | None:
    """The seat holding the badge at the segment: the last election or transfer at or before it."""
    moves = [e for e in game.events if e.segment_id is not None and e.segment_id <= segment
             and e.kind in ("sheriff_election", "badge_transfer") and isinstance(e.target, int)]
    return sorted(moves, key=lambda e: e.segment_id)[-1].target if moves else None  # stable: at one segment, the later event


def _speakers(game: GameLog, i: int, dead_turns: set[int]) -> list[tuple[int, str]]:
    """(seat, evidence) for every rule that names the turn's speaker (a seat out included: then no rule settles it)."""
    u = game.utterances[i]
    start = u.segment_ids[0]
    seats = {s.seat for s in game.seats}
    # The round's order counts the seats still in the game and free to speak (not silenced the night before).
    day = {p.id: (p.kind, p.day) for p in game.phases}
    silenced = {e.target for e in game.events if e.kind == "skill_use" and e.skill == "silence"
                and day.get(e.phase, ("", None))[0] == "night" and day.get(e.phase, ("", None))[1] == day.get(u.phase, ("", 0))[1]}
    living = seats - _out_at(game, start) - silenced
    found: list[tuple[int, str]] = []
    prev = game.utterances[i - 1] if i else None
    if prev is not None and prev.speaker == "host" and prev.text.strip():
        # The host's last call before the turn decides: the floor given to a seat, or the sheriff addressed.
        calls = [(m.start(), m) for m in _FLOOR.finditer(prev.text)] + [(m.start(), m) for m in _SHERIFF.finditer(prev.text)]
        if calls:
            m = max(calls, key=lambda c: c[0])[1]
            seat = int(m.group(1)) if m.re is _FLOOR else _sheriff_at(game, start)
            if seat is not None:
                whom = f"seat {seat}" if m.re is _FLOOR else f"the sheriff, seat {seat}"
                found.append((seat, f"the host's call right before it (segment {prev.segment_ids[-1]}: {m.group(0)!r}) gives {whom} the floor"))
    named = {int(m.group(1) or m.group(2)) for m in _SELF.finditer(u.text)}
    if len(named) == 1:
        [seat] = named
        found.append((seat, f"the turn names its speaker, seat {seat}"))
    if size(u.text) > FRAGMENT:
        before, after = _neighbour(game, i, -1, dead_turns), _neighbour(game, i, 1, dead_turns)
        if before is not None and after is not None and isinstance(before.speaker, int) and isinstance(after.speaker, int):
            if before.speaker == after.speaker and _alone(game, i, before.speaker, dead_turns):
                found.append((before.speaker, f"inside seat {before.speaker}'s turn (segments {before.segment_ids[-1]} and {after.segment_ids[0]})"))
            else:
                between = _between(before.speaker, after.speaker, sorted(seats), living)
                if between is not None:
                    found.append((between, f"the round of speeches: seat {before.speaker} before it, seat {after.speaker} after it, "
                                           f"seat {between} the one seat in the game between them"))
    return found


def _neighbour(game: GameLog, i: int, step: int, dead_turns: set[int]) -> Utterance | None:
    """The nearest table turn before (step -1) or after (+1) turn i in its phase, skipping the other turns under a
    dead seat's label; None at a host line, a phase boundary or the end."""
    phase = game.utterances[i].phase
    j = i + step
    while 0 <= j < len(game.utterances):
        v = game.utterances[j]
        if v.phase != phase or v.speaker == "host":
            return None
        if j not in dead_turns and heard_at_table(v):
            return v
        j += step
    return None


def _alone(game: GameLog, i: int, seat: int, dead_turns: set[int]) -> bool:
    """Whether turn i is the only turn under a dead seat's label in `seat`'s stretch of talk around it (up to a host
    line or the phase's end): two or more are a conversation with players out (post-game talk, a dead partner's
    banter), not one turn cut in two."""
    phase = game.utterances[i].phase
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(game.utterances):
            v = game.utterances[j]
            if v.phase != phase or v.speaker == "host" or (j not in dead_turns and v.speaker != seat and heard_at_table(v)):
                break
            if j in dead_turns:
                return False
            j += step
    return True


def _between(a: int, b: int, seats: list[int], living: set[int]) -> int | None:
    """The one seat in the game strictly between a and b going round the table one way, when the other way does not
    also have exactly one (then the order does not say which way the round went)."""
    if a not in seats or b not in seats:
        return None
    n = len(seats)
    ia, ib = seats.index(a), seats.index(b)
    up = [seats[(ia + k) % n] for k in range(1, (ib - ia) % n)]
    down = [seats[(ia - k) % n] for k in range(1, (ia - ib) % n)]
    up_l, down_l = [s for s in up if s in living], [s for s in down if s in living]
    if len(up_l) == 1 and len(down_l) != 1:
        return up_l[0]
    if len(down_l) == 1 and len(up_l) != 1:
        return down_l[0]
    return None
