"""Why a night fact the rules require is missing from a game log: what each source and each reader gives (issues 30, 41).

For every fact `werealign.game.knowledge` finds owed and not held, one `Gap` records:
- the holder's own words: how many day turns the holder spoke after the night (a seer killed that night, or whose
  game ended, never reported her check: nothing the table heard can hold it);
- the dawn: how many deaths the host announced after the night (a peaceful dawn names no victim: the wolves'
  target was saved or guarded, and only a source that states it can give it);
- what the importer's readers found there and did not keep (`found`, given by the caller: the readers live with the
  importer, e.g. werealign.importers.toolkit.nights.night_facts.findings): a night fact two sources dispute, one the
  dawns contradict, a report whose night is not said. The same readers that fill the facts classify the gaps, so
  "absent" means no reader finds the fact in any source, and "found, not kept" names why it was left out.
Nothing here decides a fact: this is the account of what is not there.
"""

from __future__ import annotations

from dataclasses import dataclass

from werealign.game.knowledge import dawn_window, owed_and_missing
from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for

# Deaths the host announces at dawn (as the importer reads them).
_DAWN_DEATHS = frozenset({"night_death", "poisoned", "left_table"})


@dataclass(frozen=True)
class Gap:
    game_id: str
    season: int | None
    night: str
    fact: str
    holder: str  # "seat N (role)", or "wolves" for the pack's kill
    kind: str  # see `_kind`
    turns_after: int | None  # the holder's day turns after the night (None: the pack, no one holder)
    dawn_deaths: int
    found: tuple[str, ...]  # what the readers found for the fact and did not keep, with why


def gaps(game: GameLog, found: dict[tuple[str, str, object], list[str]] | None = None) -> list[Gap]:
    """Every owed night fact the log lacks, with the evidence each source gives (module docstring). `found`: (night,
    skill, actor: a seat, or None for the pack's kill) -> what the readers found there and did not keep."""
    found = found or {}
    catalogue = catalogue_for(game.rules.declared_roles)
    order = {p.id: i for i, p in enumerate(game.phases)}
    nights = [p.id for p in game.phases if p.kind == "night"]
    season = game.provenance.season if game.provenance else None
    out: list[Gap] = []
    team_done: set[str] = set()
    for s in game.seats:
        for f in owed_and_missing(game, s.seat, None, catalogue)[1]:
            team = f.fact == "wolf_kill" and s.faction == "wolf"
            if team:
                if f.night in team_done:
                    continue  # the pack's kill is one fact per night, whichever wolf owes it
                team_done.add(f.night)
            lo, hi = dawn_window(f.night, nights, order, len(game.phases))
            deaths = len({e.target for e in game.events if e.kind == "elimination" and e.result in _DAWN_DEATHS
                          and lo <= order.get(e.phase, -1) <= hi})
            after = None if f.fact == "wolf_kill" else sum(1 for u in game.utterances if u.speaker == s.seat and order.get(u.phase, -1) > order[f.night]
                                          and game.phases[order[u.phase]].kind != "night")
            notes = tuple(found.get((f.night, f.fact, None if f.fact == "wolf_kill" else s.seat), []))
            out.append(Gap(game.game_id, season, f.night, f.fact, "wolves" if team else f"seat {s.seat} ({s.role})",
                           _kind(f.fact, after, deaths, notes), after, deaths, notes))
    # the witch is told the pack's victim: her copy is the same gap as the pack's, listed once
    out = [g for g in out if not (g.fact == "wolf_kill" and g.holder != "wolves" and g.night in team_done)]
    return sorted(out, key=lambda g: (order[g.night], g.fact, g.holder))


def _kind(fact: str, turns_after: int | None, deaths: int, found: tuple[str, ...]) -> str:
    """The class of a gap: 'found, not kept: …' when a reader found the fact and left it out (why: the first word of
    its note), else 'absent: …', no reader finds it in any source, with what the holder's words and the dawn allow."""
    if found:
        return "found, not kept: " + ", ".join(sorted({note.split(":")[0] for note in found}))
    if turns_after == 0:
        return "absent: no reader finds it; the holder never spoke by day after the night"
    if fact == "wolf_kill" and deaths == 0:
        return "absent: no reader finds it; a peaceful dawn (the target saved or guarded)"
    if fact == "wolf_kill" and deaths > 1:
        return "absent: no reader finds it; several dawn deaths, which one the wolves chose the dawn does not say"
    if fact == "wolf_kill":
        return "absent: no reader finds it; one dawn death that another night skill (a poison, a role effect) may explain"
    return "absent: no reader finds it; the holder spoke by day after the night, with no report the readers accept"
