"""Why a night fact the rules require is missing from a game log: the evidence, source by source (issue 30).

For every fact `werealign.game.knowledge` finds owed and not held, one `Gap` records what each source of the
game log can tell about it, so a reviewer can see whether the fact is absent from the data or merely unread:
- the holder's own words: how many day turns the holder spoke after the night (a seer killed that night, or whose
  game ended, never reported her check: nothing the table heard can hold it);
- the dawn: how many deaths the host announced after the night (a peaceful dawn names no victim: the wolves'
  target was saved or guarded, and only a source that states it can give it; several deaths with another night
  killer on the board leave the wolves' choice open);
- the written sources: whether the annotator log or the recap, under that night ("第二晚…", "首夜…", "次晚…"), has a
  word the fact's statement needs (a check: 验/查; a knife: 刀/杀/咬/袭): none, and no reader can find it there.
Nothing here decides a fact: this is the account of what is not there. The kinds are mechanical; a reviewer reads
the sources a gap points to before calling it absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.game.knowledge import dawn_window, owed_and_missing
from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for
from werealign.text.zh_numbers import chinese_number

# Deaths the host announces at dawn (as the importer reads them).
_DAWN_DEATHS = frozenset({"night_death", "poisoned", "left_table"})
_NIGHT_NAMED = re.compile(r"第(?P<n>[一二三四五六七八九十\d]{1,3})\s*[晚夜]|(?P<first>首)[晚夜]|(?P<second>次)[晚夜]")
_DAY_NAMED = re.compile(r"白天|天亮|第[一二三四五六七八九十\d]{1,3}\s*天")
_SPAN = 80
# The words a statement of each fact cannot do without (a check, a knife); a fact not listed: any words under the night.
_FACT_WORDS = {"seer_check": re.compile(r"验|查"), "wolf_kill": re.compile(r"刀|杀|咬|袭"), "guard_protect": re.compile(r"守"),
               "silence": re.compile(r"禁"), "demon_check": re.compile(r"验|查"), "wolf_beauty_charm": re.compile(r"魅惑|连")}


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
    written: tuple[str, ...]  # the written sources with words of the fact under the night: "annotator_log", "recap"


def night_spans(text: str | None) -> dict[int, list[str]]:
    """What a written source says under each night it names ("第二晚…", "首夜…", "次晚…"): the words from the night
    up to the next night or day it names, at most `_SPAN` characters."""
    out: dict[int, list[str]] = {}
    text = text or ""
    marks = list(_NIGHT_NAMED.finditer(text))
    for i, m in enumerate(marks):
        n = 1 if m.group("first") else 2 if m.group("second") else chinese_number(m.group("n"))
        end = min(marks[i + 1].start() if i + 1 < len(marks) else len(text), m.end() + _SPAN)
        span = text[m.end():end]
        day = _DAY_NAMED.search(span)
        if n:
            out.setdefault(n, []).append(span[:day.start()] if day else span)
    return out


def gaps(game: GameLog) -> list[Gap]:
    """Every owed night fact the log lacks, with the evidence each source gives (module docstring)."""
    catalogue = catalogue_for(game.rules.declared_roles)
    order = {p.id: i for i, p in enumerate(game.phases)}
    nights = [p.id for p in game.phases if p.kind == "night"]
    day_of = {p.id: p.day for p in game.phases}
    written = {"annotator_log": night_spans(game.annotator_log), "recap": night_spans(game.recap)}
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
            words = _FACT_WORDS.get(f.fact, re.compile(""))
            named = tuple(src for src, spans in written.items() if any(words.search(t) for t in spans.get(day_of[f.night], [])))
            out.append(Gap(game.game_id, season, f.night, f.fact, "wolves" if team else f"seat {s.seat} ({s.role})",
                           _kind(f.fact, after, deaths, named), after, deaths, named))
    # the witch is told the pack's victim: her copy is the same gap as the pack's, listed once
    out = [g for g in out if not (g.fact == "wolf_kill" and g.holder != "wolves" and g.night in team_done)]
    return sorted(out, key=lambda g: (order[g.night], g.fact, g.holder))


def _kind(fact: str, turns_after: int | None, deaths: int, named: tuple[str, ...]) -> str:
    """The mechanical class of a gap. Absent ('absent:…'): no source can hold the fact by what the data is; else
    'unread:…': some source might, and a reviewer reads it."""
    if turns_after == 0 and not named:
        return "absent: the holder never spoke by day after the night, and no written source has it under the night"
    if fact == "wolf_kill" and deaths == 0 and not named:
        return "absent: a peaceful dawn (the target saved or guarded), and no written source has it under the night"
    if turns_after == 0:
        return "unread: the holder never spoke by day after the night; a written source has words of it under the night"
    if fact == "wolf_kill" and deaths == 0:
        return "unread: a peaceful dawn; a written source has words of it under the night"
    if fact == "wolf_kill" and deaths > 1:
        return "unread: several dawn deaths, which one the wolves chose is not derivable from the dawn alone"
    if fact == "wolf_kill":
        return "unread: one dawn death that another night skill (an unstated poison, a role effect) may explain"
    return "unread: the holder spoke by day after the night, with no report the readers accept"
