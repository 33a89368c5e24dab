"""Who stood for sheriff (issue 31): the host's list of candidates read into `sheriff_run` events.

At the call for candidates the host names who raised a hand ("1 号、5 号、9 号共 3 名玩家参与竞选"). This module reads
that list from the first host turn of a sheriff-election phase that holds one, and writes a `sheriff_run` event per
candidate, anchored to the segment that says it. A list is kept only without doubt:
- every seat in it is a seat of the game, alive there, named once;
- where the host states the count ("共 N 名"), it equals the seats named (a transcript that drops or merges a seat
  fails here);
- the candidates the host later names as still running ("X 号、Y 号仍在警上", read with the tally wording of
  toolkit.tallies) are all in it.
Otherwise no event (an election without one is no decision item) and the report says why.

A candidate who withdraws ("退水") stood all the same: the host's list is made at the call, before anyone withdraws
(werealign.schema.models, `sheriff_run`). The withdrawal is its own `sheriff_run` event, result "withdrew", anchored
where the host first names who is still running ("X 号、Y 号仍在警上"): the candidates that list leaves out, unless
the rest of that turn names one of them (a ballot for it, its election: the list lost a seat, no withdrawal is read).

Wordings are data (`WORDINGS`, by game language); a language without one reads no list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.game.derive import alive_at
from werealign.importers.report import ImportReport
from werealign.importers.toolkit.tallies import WORDINGS as TALLY_WORDINGS
from werealign.importers.toolkit.evidence import quoted, segment_at
from werealign.schema import Event, GameLog, Utterance
from werealign.schema.models import EVERYONE, WITHDREW
from werealign.text.zh_numbers import chinese_number


@dataclass(frozen=True)
class Wording:
    # The list, seats in group "seats"; group "count" the stated number of candidates, where it is said.
    lists: tuple[re.Pattern, ...]
    seat: re.Pattern  # one seat token in the list: group 1 its number (digits or a numeral)
    cue: re.Pattern  # words that announce the candidates: said with no list readable, the election is refused


_ZH_NUM = r"\d{1,2}|[一二两三四五六七八九十]{1,3}"
_ZH_SEATS = r"(?P<seats>(?:(?:" + _ZH_NUM + r")\s*号(?:玩家)?\s*[、，,和及 ]*\s*)+)"
WORDINGS: dict[str, Wording] = {
    "zh": Wording(
        lists=(re.compile(_ZH_SEATS + r"(?:共|一共|总共)?\s*(?P<count>" + _ZH_NUM + r")?\s*(?:名|位|个)?(?:玩家)?\s*(?:参与|参加)(?:了)?(?:警长)?竞选"),
               re.compile(r"(?:上警|参与竞选|参加竞选)的(?:玩家|人)(?:有|是)?\s*[:：]?\s*" + _ZH_SEATS)),
        seat=re.compile(r"(" + _ZH_NUM + r")\s*号"),
        cue=re.compile(r"(?:参与|参加)(?:了)?(?:警长)?竞选|上警的(?:玩家|人)"),
    ),
    "en": Wording(
        lists=(re.compile(r"(?i)(?:running|standing|candidates?) for sheriff\s*(?:are|is)?\s*:?\s*(?P<seats>(?:(?:seats?\s+)?\d{1,2}(?:\s*,\s*|\s+and\s+|\s+)?)+)"),),
        seat=re.compile(r"(\d{1,2})"),
        cue=re.compile(r"(?i)(?:running|standing|candidates?) for sheriff"),
    ),
}


# A seat named later in the turn ("投给 9 号", "9 号当选"): a number with 号, not part of a longer number or of "1.5 票"
_NAMED = re.compile(r"(?<![\d.])(\d{1,2})\s*号")


@dataclass(frozen=True)
class Candidacy:
    phase: str
    segment: int
    seats: list[int]
    withdrew: list[int]  # the candidates not among the first "still running" list the host names
    withdrew_segment: int | None  # where that list is said
    quote: str = ""  # the host's list of candidates, as read (the events' evidence)
    withdrew_quote: str = ""  # the host's later list of those still running


def read_candidacies(game: GameLog) -> tuple[list[Candidacy], list[tuple[str, str]]]:
    """(the candidate lists read without doubt, one per sheriff-election phase; (what, why) for each one refused)."""
    wording = WORDINGS.get(game.language)
    if wording is None:
        return [], []
    found: list[Candidacy] = []
    refused: list[tuple[str, str]] = []
    for phase in (p.id for p in game.phases if p.kind == "sheriff_election"):
        turns = [u for u in game.utterances if u.phase == phase and u.speaker == "host"]
        hit = next(((u, m) for u in turns for pattern in wording.lists for m in [pattern.search(u.text)] if m), None)
        if hit is None:
            cue = next((u for u in turns if wording.cue.search(u.text)), None)
            if cue is not None:
                refused.append((f"the host's call for candidates in turn {cue.index} ({phase})", "it names no seat list that can be read"))
            continue  # no list said: nothing to read
        u, m = hit
        got = _checked(game, u, m, wording, turns)
        if isinstance(got, str):
            refused.append((f"the host's list of candidates in turn {u.index} ({phase}): '{m.group(0).strip()}'", got))
        else:
            found.append(got)
    return found, refused


def _checked(game: GameLog, u: Utterance, m: re.Match, wording: Wording, turns: list[Utterance]) -> Candidacy | str:
    named = [chinese_number(t) if not t.isdigit() else int(t) for t in wording.seat.findall(m.group("seats"))]
    seats = {s.seat for s in game.seats}
    if any(s is None or s not in seats for s in named):
        return f"it names {named}, not all seats of the game"
    if len(set(named)) != len(named):
        return f"it names a seat twice ({named})"
    count = m.groupdict().get("count")
    if count and (chinese_number(count) if not count.isdigit() else int(count)) != len(named):
        return f"it says {count} candidates but names {len(named)} ({named}): a seat is lost or merged in the transcript"
    segment = segment_at(u, m.start("seats"))  # the first seat named: a cut-off before it shows none of the list
    alive = set(alive_at(game, segment))
    if not set(named) <= alive:
        return f"seats {sorted(set(named) - alive)} are out of the game there"
    on_stage = TALLY_WORDINGS.get(game.language)
    stage: tuple[int, set[int], set[int], str] | None = None  # where the host first names who is still running, whom, and the seats after
    for later in turns:
        if on_stage is None or later.index < u.index:
            continue
        for s in on_stage.on_stage.finditer(later.text, m.end() if later is u else 0):
            still = {int(d) for d in on_stage.seat.findall(s.group(1))}
            if not still <= set(named):
                return f"the host later names seats {sorted(still - set(named))} still running, which the list leaves out"
            if stage is None:  # and what the turn says after it (a tally, the outcome)
                stage = (segment_at(later, s.start()), still, {int(d) for d in _NAMED.findall(later.text[s.end():])}, s.group(0))
    withdrew = sorted(set(named) - stage[1]) if stage else []
    if stage and set(withdrew) & stage[2]:
        withdrew = []  # a seat left out of "still running" gets a ballot or the badge: the list lost it, nobody is known to withdraw
    return Candidacy(u.phase, segment, sorted(named), withdrew, stage[0] if stage else None, m.group(0), stage[3] if stage else "")


def candidacy_events(game: GameLog, report: ImportReport | None = None) -> GameLog:
    """`game` with a `sheriff_run` event per candidate of each list read; a phase that has them already is kept."""
    has = {e.phase for e in game.events if e.kind == "sheriff_run"}
    found, refused = read_candidacies(game)
    if report is not None:
        for what, why in refused:
            report.add("dropped", "candidacy_unread", source_file=game.provenance.original_file or "", game=game.game_id, field=None,
                       what=what, why=f"no sheriff_run events (who ran is unknown): {why}")
    events = [Event(kind="sheriff_run", phase=c.phase, segment_id=c.segment, audience=EVERYONE, actor=s, note="read from the host's list of candidates",
                    evidence=quoted(c.segment, c.quote))
              for c in found if c.phase not in has for s in c.seats]
    events += [Event(kind="sheriff_run", phase=c.phase, segment_id=c.withdrew_segment, audience=EVERYONE, actor=s, result=WITHDREW,
                     note="a candidate the host no longer names still running",
                     evidence=quoted(c.withdrew_segment, c.withdrew_quote))
               for c in found if c.phase not in has and c.withdrew_segment is not None for s in c.withdrew]
    if not events:
        return game
    return game.model_copy(update={"events": [*game.events, *events]})
