"""A team's night chat must say who heard it (issue 45).

Online games hold the night in a team's own channel: the mafia talk, and the game's bot relays their kill votes
there ("Dana voted for Ben"). A transcript annotated without that audience shows the relays to every seat (the
host's turns are the table's) and hides the team's own turns from the team (a player's night turn without an
audience is off-table commentary). Both are silent; these checks make them findings:

- `night-chat-public` (error): a night phase where the seats that speak are all on one side other than the good one
  (a team's chat) and their turns or votes are heard by everyone, or two or more of the host's turns heard by
  everyone name those seats (the relays; a show's host naming a seat once at night is narration);
- `night-chat-unheard` (warning): two or more seats of one such side speak in a night phase with no audience:
  nobody, their own team included, is shown those turns.

The fix is one line of the annotator config: `phase_audiences: {night: {kind: team, team: wolf}}`.
"""

from __future__ import annotations

from werealign.schema import GameLog
from werealign.text.seat_names import reader_of
from werealign.validate.findings import Sink, path

FIX = "declare who heard the night: phase_audiences: {night: {kind: team, team: %s}} in the annotator config (or an audience on those turns and votes)"


def check_night_chat(game: GameLog, out: Sink) -> None:
    kinds = {p.id: p.kind for p in game.phases}
    faction = {s.seat: s.faction for s in game.seats}
    read = reader_of(game.seats)
    for phase in (p.id for p in game.phases if p.kind == "night"):
        turns = [(i, u) for i, u in enumerate(game.utterances) if u.phase == phase]
        public = [(i, u) for i, u in turns if u.audience is None or u.audience.kind == "everyone"]
        speakers = {int(u.speaker) for _, u in public if isinstance(u.speaker, int)}
        votes = [(i, e) for i, e in enumerate(game.events) if e.phase == phase and kinds.get(e.phase) == "night" and e.kind == "vote"
                 and isinstance(e.actor, int) and e.audience.kind == "everyone"]
        sides = {faction.get(s) for s in speakers | {int(e.actor) for _, e in votes}}
        if len(sides) != 1 or next(iter(sides)) in ("good", None, "unknown"):
            continue
        side = next(iter(sides))
        team = sorted(speakers | {int(e.actor) for _, e in votes})
        heard = [i for i, u in public if isinstance(u.speaker, int) and u.audience is not None]
        # The host naming a team seat once at night is a show's narration ("11号, open your eyes"); a chat's relays repeat, one per voter.
        relays = [i for i, u in public if u.speaker == "host" and set(read.seats(u.text)) & set(team)] if len(team) >= 2 else []
        relays = relays if len(relays) >= 2 else []
        where = path("utterances", (heard or relays or [turns[0][0]])[0]) if not votes else path("events", votes[0][0])
        if heard or votes or relays:
            what = []
            if heard or votes:
                what.append(f"their turns or votes are heard by everyone ({len(heard)} turn(s), {len(votes)} vote(s))")
            if relays:
                what.append(f"{len(relays)} host turn(s) heard by everyone name them (the night's relays)")
            out.error("night-chat-public", where, f"{phase}: seats {team}, all on the {side} side, talk at night, and {'; '.join(what)}: "
                      f"a team's night chat leaks to every seat; {FIX % side}")
        elif len(speakers) >= 2:
            out.warning("night-chat-unheard", where, f"{phase}: seats {team}, all on the {side} side, talk at night with no audience: "
                        f"nobody is shown those turns, their own team included; {FIX % side}")
