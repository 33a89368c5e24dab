"""Nights the recording skips: a self-destruct ends the day at once and the table goes to night.

Where the timeline goes from the phase of a self-destruct straight to a day of the same number (a
sheriff election with a self-destruct, then "day 1", whose host announces the night's deaths), the
night between is missing from `game_status`. The annotator log
counts it ("the second night" is the night after the self-destruct), so without it every later
night fact of the log lands one night early, where the announcements contradict it, and is
withheld. The missing night is added (zero length, at the next day's start; nobody speaks in it)
and every later phase is renumbered, so the timeline counts nights as the game did. Each phase
keeps the release's own label (`original_label`), which is how MVP vote keys find their day.
"""

from __future__ import annotations

from werealign.importers.werebench.ctx import Ctx
from werealign.schema import Event, Phase, Utterance


def add_hidden_nights(phases: list[Phase], utterances: list[Utterance], events: list[Event], ctx: Ctx
                      ) -> tuple[list[Phase], list[Utterance], list[Event]]:
    blown = {e.phase: e for e in events if e.kind == "self_destruct"}
    out: list[Phase] = []
    renamed: dict[str, str] = {}
    shift = 0
    for i, p in enumerate(phases):
        if shift:
            p = _moved(p, shift)
            renamed[phases[i].id] = p.id
        out.append(p)
        nxt = phases[i + 1] if i + 1 < len(phases) else None
        # The next day counts as the same day: the recording has no night between (a dropped night phase
        # leaves the count going on, and is not a hidden night).
        if phases[i].id in blown and p.kind != "night" and nxt is not None and nxt.kind == "day" and nxt.day == phases[i].day:
            shift += 1
            night = Phase(id=f"night-{nxt.day + shift}", kind="night", day=nxt.day + shift, start=nxt.start, end=nxt.start)
            out.append(night)
            e = blown[phases[i].id]
            ctx.add("repaired", "hidden_night", f"metadata.game_status.{nxt.original_label}",
                    f"seat {e.actor} self-destructed in {p.id} and the recording goes on with a day ({nxt.original_label})",
                    f"the night between added as {night.id} (zero length); later phases renumbered")
    if not shift:
        return phases, utterances, events
    if len({p.id for p in out}) != len(out):  # a timeline whose ids do not count days: left as it was
        ctx.add("warning", "hidden_night", "metadata.game_status", "a night the recording skips", "not added: the phase ids would collide")
        return phases, utterances, events
    return (out, [u.model_copy(update={"phase": renamed.get(u.phase, u.phase)}) for u in utterances],
            [e.model_copy(update={"phase": renamed.get(e.phase, e.phase)}) for e in events])


def _moved(p: Phase, shift: int) -> Phase:
    """The phase `shift` days later: day-1 -> day-2 (an id that does not name its day keeps it)."""
    day = p.day + shift
    pid = f"{p.kind}-{day}" if p.id == f"{p.kind}-{p.day}" else p.id
    return p.model_copy(update={"id": pid, "day": day})
