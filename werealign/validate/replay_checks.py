"""The game replayed in timeline order: who is still in the game, who holds the badge, what the
votes add up to, and whether the events and turns agree with that.

Each finding is a warning: a human game with an annotation slip (a ballot given to the wrong seat,
a player's last words filed in the next phase) is still usable, but the slip is usually an error
in the log that VA/OI items and contexts would inherit, so the annotator should look.

Only what holds in every rule set is checked. Rules that vary between games (who may speak after
dying, how a night's actions resolve, the sheriff's vote weight) are not assumed: a player who is
out may speak and act in the phase of the exit and the next one (a night death is announced at
dawn: last words, a hunter's shot, a badge pass), never later; an exile or a sheriff election is
questioned only when the seat chosen leads the ballots neither with the sheriff's ballot counted
once nor counted one and a half, in the phase's last vote round (a tie may be broken by any rule;
within a round a voter's last ballot counts).

One death per seat, in every game log: a seat eliminated twice, self-destructing once out, voting or
using a skill after leaving (beyond that window), or speaking at the table after leaving but for its last words
is an error, never a slip to live with. Where the log attributes turns to seats itself (an arena game: no seat
has transcript speaker labels) only one turn is allowed once out, in the exit's phase, right after a host line
(the call for last words), and a skill only in the exit's phase (a hunter's shot); in a transcribed game the
last words (and a shot's declaration, a badge's passing) may come in the phase of the exit and the next one,
never later. A turn heard by nobody but its speaker (audience: the actor; or a player's turn in a night phase
without an audience) is not speech at the table: an importer keeps a dead player's aside, or a turn under a dead
seat's label no source attributes, that way (werealign.importers.toolkit.dead_speech).
"""

from __future__ import annotations

from collections import defaultdict

from werealign.schema import GameLog
from werealign.schema.models import TELLING_ORDER
from werealign.schema.roles import catalogue_for
from werealign.validate.findings import Sink, path

SHERIFF_WEIGHTS = (1.0, 1.5)  # one vote, or the usual one and a half: a finding must hold for both
GOOD_RESULTS = {"good", "villager", "好人", "金水"}
WOLF_RESULTS = {"wolf", "werewolf", "bad", "狼人", "查杀"}
# In a transcribed game, the phases after its exit's in which a seat out may still be heard (its last words: the exit
# happens or is announced, then the next phase opens with them); the importer settles later turns by the same window.
LAST_WORDS_PHASES = 1


def check_replay(game: GameLog, out: Sink) -> None:
    phase_order = {p.id: i for i, p in enumerate(game.phases)}
    faction = {s.seat: s.faction for s in game.seats}
    # Turns and events in timeline order; at one segment, a turn comes before the events anchored to it, and the
    # events come in the order things are told (TELLING_ORDER: the ballots a tally reads out before the exile they make).
    timeline = sorted(
        [(u.segment_ids[0], 0, 0, i) for i, u in enumerate(game.utterances) if u.segment_ids]
        + [(e.segment_id, 1, TELLING_ORDER[e.kind], i) for i, e in enumerate(game.events) if e.segment_id is not None]
    )
    out_since: dict[int, tuple[int, str]] = {}  # seat -> (events index, phase) of its exit
    # A log without transcript speaker labels says itself who spoke: a dead seat's turn is no diarization slip.
    direct = not any(s.speaker_labels for s in game.seats)
    hidden = _hidden_wolves(game)  # seats a seer's check may show as good: their check says nothing about the truth
    # A swap of two seats' numbers for a night (the magician's `*_swap` skill): a check aimed at one tells the other.
    swapped = {(e.phase, e.target) for e in game.events if e.kind == "skill_use" and (e.skill or "").endswith("_swap")}
    eliminated: dict[int, int] = {}  # seat -> events index of its elimination
    sheriff: int | None = None
    # phase -> round -> voter -> (target, sheriff at the time). The last round decides; within a round
    # a voter's later ballot (a re-vote logged without its round) replaces the earlier one.
    ballots: dict[str, dict[int, dict[int, tuple[int, int | None]]]] = defaultdict(lambda: defaultdict(dict))

    def deciding(phase: str) -> dict[int, tuple[int, int | None]]:
        rounds = ballots.get(phase)
        return rounds[max(rounds)] if rounds else {}
    exile_checked: set[str] = set()  # phases whose first exile after the ballots was compared with them
    late_turns: dict[int, list[int]] = {}  # seat -> its turns after the phase that followed its exit
    spoken_after: dict[int, int] = {}  # seat -> its turns once out (a log without transcript labels)

    def gone(seat: object) -> tuple[int, str] | None:
        return out_since.get(seat) if isinstance(seat, int) else None

    def too_late(seat: object, phase: str, grace: int = LAST_WORDS_PHASES) -> bool:
        """Whether `seat` is out and `phase` is later than `grace` phases after its exit."""
        exit_ = gone(seat)
        return exit_ is not None and phase_order.get(phase, -1) > phase_order.get(exit_[1], -1) + grace

    night = {p.id for p in game.phases if p.kind == "night"}
    for _, is_event, _, i in timeline:
        if not is_event:
            u = game.utterances[i]
            if not _at_table(u, night):
                continue
            if direct and gone(u.speaker):
                # Last words: one turn, in the exit's phase, right after a host line (the call for them).
                prev = game.utterances[i - 1] if i else None
                first = spoken_after.get(u.speaker, 0) == 0
                spoken_after[u.speaker] = spoken_after.get(u.speaker, 0) + 1
                if not (first and prev is not None and prev.speaker == "host" and u.phase == gone(u.speaker)[1]):
                    late_turns.setdefault(u.speaker, []).append(i)
            elif not direct and too_late(u.speaker, u.phase):
                late_turns.setdefault(u.speaker, []).append(i)
            continue
        e = game.events[i]
        where = path("events", i)
        if e.kind == "vote":
            for role, seat in (("actor", e.actor), ("target", e.target)):
                if gone(seat):
                    who = "by" if role == "actor" else "for"
                    report = out.error if role == "actor" else out.warning  # a dead seat acting breaks every rule set
                    report(f"vote-{who}-eliminated", path(where, role),
                           f"vote {who} seat {seat} in {e.phase}, who left the game at events[{gone(seat)[0]}]")
            if isinstance(e.actor, int) and e.target is not None:
                ballots[e.phase][e.round or 1][e.actor] = (e.target, sheriff)
        elif e.kind == "skill_use" and too_late(e.actor, e.phase, 0 if direct else LAST_WORDS_PHASES):
            out.error("skill-after-elimination", path(where, "actor"),
                        f"seat {e.actor} uses {e.skill or 'a skill'} in {e.phase}, after leaving the game in {gone(e.actor)[1]}")
        elif e.kind == "skill_use" and e.skill == "seer_check" and e.target in faction and e.result and e.target not in hidden \
                and (e.phase, e.target) not in swapped:
            told = "good" if e.result.strip().lower() in GOOD_RESULTS else "wolf" if e.result.strip().lower() in WOLF_RESULTS else None
            truth = faction[e.target]
            if told and truth in ("good", "wolf") and told != truth:
                out.warning("seer-result-contradicts-role", path(where, "result"),
                            f"the seer's check on seat {e.target} says {e.result!r}, but that seat is on the {truth} side")
        elif e.kind == "sheriff_election" and e.target is not None:
            _check_leader(deciding(e.phase), e.target, f"the sheriff election in {e.phase}", path(where, "target"), out)
            sheriff = e.target
        elif e.kind == "badge_transfer":
            if e.actor != sheriff:
                out.warning("badge-not-held", path(where, "actor"),
                            f"seat {e.actor} passes the badge in {e.phase}, but the sheriff is {'nobody' if sheriff is None else f'seat {sheriff}'}")
            if gone(e.target):
                out.warning("badge-to-eliminated", path(where, "target"), f"the badge goes to seat {e.target}, who has left the game")
            sheriff = e.target
        elif e.kind in ("elimination", "self_destruct"):
            seat = e.target if e.kind == "elimination" else e.actor
            if not isinstance(seat, int):
                continue
            if e.kind == "elimination" and seat in eliminated:
                out.error("eliminated-twice", path(where, "target"), f"seat {seat} is eliminated again in {e.phase} (first at events[{eliminated[seat]}])")
            elif e.kind == "self_destruct" and gone(seat):
                out.error("self-destruct-after-elimination", path(where, "actor"),
                          f"seat {seat} self-destructs in {e.phase}, after leaving the game at events[{gone(seat)[0]}]")
            if e.kind == "elimination":
                eliminated.setdefault(seat, i)
            out_since.setdefault(seat, (i, e.phase))
            # The first seat voted for that leaves after the ballots is the exile; a later one (shot by
            # the exiled hunter, say) is not the vote's outcome.
            voted_for = {target for round_ in ballots.get(e.phase, {}).values() for target, _ in round_.values()}
            if e.kind == "elimination" and seat in voted_for and e.phase not in exile_checked:
                exile_checked.add(e.phase)
                _check_leader(deciding(e.phase), seat, f"the exile of seat {seat} in {e.phase}", path(where, "target"), out)

    _check_end(game, set(out_since), out)
    for seat, turns in late_turns.items():
        first = game.utterances[turns[0]]
        more = f" (and {len(turns) - 1} later turn(s))" if len(turns) > 1 else ""
        why = ("a player who is out speaks once at most, right after the host's call in the phase of the exit (last words)" if direct else
               "a player who is out speaks only when the exit happens or is announced (last words): re-attribute the turn to its speaker, "
               "or keep it off the table (audience: the speaker alone)")
        out.error(
            "speaks-after-elimination", path("utterances", turns[0], "speaker"),
            f"seat {seat} speaks in {first.phase}{more}, after leaving the game in {out_since[seat][1]} (events[{out_since[seat][0]}]); {why}")


def _at_table(u, night: set[str]) -> bool:
    """Whether anyone but the speaker heard the turn: not one kept to its speaker, nor a player's night-phase turn
    without an audience (off-table commentary, werealign.schema Utterance.audience)."""
    if u.audience is not None:
        return u.audience.kind != "actor"
    return u.speaker == "host" or u.phase not in night


def _hidden_wolves(game: GameLog) -> set[int]:
    try:
        catalogue = catalogue_for(game.rules.declared_roles)
    except ValueError:  # a declaration without a faction: game_checks reports it; the built-in catalogue still knows its roles
        catalogue = catalogue_for()
    return {s.seat for s in game.seats if (r := catalogue.get(s.role)) is not None and r.seer_sees_good}


def _check_end(game: GameLog, gone: set[int], out: Sink) -> None:
    """The game's end must fit its winner: the wolves cannot have won once every wolf is out. (The converse is
    not checked: a side may concede, and recordings often stop before the last exile, so a good win with a
    wolf still seated is usual, not a slip.)"""
    wolves = {s.seat for s in game.seats if s.faction == "wolf"}
    if wolves and game.winner == "wolf" and wolves <= gone:
        out.warning("end-contradicts-winner", "winner", "the wolves are recorded as the winner, but every wolf-side seat has left the game")


def _check_leader(ballots: dict[int, tuple[int, int | None]], chosen: int, what: str, where: str, out: Sink) -> None:
    """Warn when the chosen seat leads the ballots under no sheriff weight."""
    if not ballots:
        return
    leaders = []
    for weight in SHERIFF_WEIGHTS:
        tally: dict[int, float] = defaultdict(float)
        for voter, (target, holder) in ballots.items():
            tally[target] += weight if voter == holder else 1.0
        top = max(tally.values())
        leaders.append(({s for s, v in tally.items() if v == top}, dict(tally)))
    if all(chosen not in best for best, _ in leaders):
        best, tally = leaders[0]
        shown = ", ".join(f"seat {s}: {v:g}" for s, v in sorted(tally.items(), key=lambda x: (-x[1], x[0])))
        out.warning("tally-contradicts-outcome", where, f"{what} does not follow the ballots ({shown})")
