"""What the shown table talk says about each seat, as a player hears it (issue 42): the readings the decision floors'
player rules (werealign.tasks.player_rules) and the learned floors' option features share.

Read from the turns a prompt shows (any player's, the viewpoint's included; never the host's), per language
(`WORDS`; a language without an entry reads seats and claims only):
- `accused`: seats named in a clause that also holds an accusing word ("5 号是狼", "出 5 号", "I suspect seat 5");
  `cleared`: with a clearing word ("金水", "好人", "trust");
- `claims`: each shown turn's role claim, in order (werealign.game.claims reads it);
- `checks`: a seer claimant's reported checks in its own turns, (claimant, seat, "wolf" | "good") in order ("查杀 5 号",
  "5 号金水", "seat 5 is a wolf"): what a player takes for the seer's result without knowing who the seer is;
- `badge_order`: per seat, how often its own turns state a badge order ("警徽流"), and the seats named after it up to
  the sentence's end.
Seats are read with the context's seat reader (numbers, names, nicknames).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from werealign.game.claims import ClaimReader
from werealign.game.visibility import Context
from werealign.schema.roles import catalogue_for


@dataclass(frozen=True)
class Words:
    clause: str
    sentence: str
    accuse: str
    clear: str
    check_wolf: str
    check_good: str
    badge_order: str


WORDS: dict[str, Words] = {
    "zh": Words(clause=r"[,，.。;；!！?？:：、…\n]+", sentence=r"[。.!！?？\n]", accuse=r"狼|查杀|悍跳|踩|怀疑|出局|放逐|归票|投|出|扛推|抗推|冲|打",
                clear=r"金水|银水|好人|铁好|发好|站边|保", check_wolf=r"查杀", check_good=r"金水", badge_order=r"警徽流"),
    "en": Words(clause=r"[,.;!?:\n]+", sentence=r"[.!?\n](?:\s|$)", accuse=r"(?i)wolf|suspic|vote|exile|lying|liar|eliminate",
                clear=r"(?i)\bgood\b|\bclear(?:ed)?\b|innocent|trust", check_wolf=r"(?i)checked .{0,16}(?:wolf|werewolf)|\bis (?:a )?(?:wolf|werewolf)",
                check_good=r"(?i)checked .{0,16}good|\bis good|\bgold\b", badge_order=r"(?i)badge (?:order|flow|plan)"),
}


@dataclass
class Talk:
    """The readings of one prompt's shown turns (see the module doc)."""

    turns: list[tuple[int, str, list[int]]] = field(default_factory=list)  # (speaker, phase, seats named)
    today: set[int] = field(default_factory=set)  # indices into turns of the current day's
    accused: list[Counter] = field(default_factory=list)  # per turn
    cleared: list[Counter] = field(default_factory=list)  # per turn
    claims: list[tuple[int, str]] = field(default_factory=list)  # (seat, role) of every claiming turn, in order
    checks: list[tuple[int, int, str]] = field(default_factory=list)  # (claimant, seat, "wolf" | "good")
    badge_order: Counter = field(default_factory=Counter)  # speaker -> badge-order statements
    badge_named: list[tuple[int, int]] = field(default_factory=list)  # (speaker, seat) named in badge-order clauses
    gods: frozenset[str] = frozenset()  # the board's good roles with a power (not the plain villager)
    sheriff: int | None = None

    def accused_in(self, last: int | None = None, today: bool = False) -> Counter:
        picked = [i for i in range(len(self.turns)) if not today or i in self.today]
        return sum((self.accused[i] for i in (picked[-last:] if last else picked)), Counter())

    def cleared_all(self) -> Counter:
        return sum(self.cleared, Counter())

    def claimed(self, roles: set[str] | frozenset[str] | None = None) -> list[int]:
        """Seats that claimed one of `roles` (None: any), in the order of their first such claim."""
        return list(dict.fromkeys(s for s, r in self.claims if roles is None or r in roles))

    def role_claimed(self, seat: int) -> str | None:
        """The seat's latest claim."""
        return next((r for s, r in reversed(self.claims) if s == seat), None)


@dataclass(frozen=True)
class _Turn:
    """What one turn's words say, whoever reads them: a prompt shows the same turn again at every later item."""

    seats: list[int]
    accused: Counter
    cleared: Counter
    checked: list[tuple[int, str]]  # (seat, "wolf" | "good") named beside a check word, counted if the speaker is a seer claimant
    badge_orders: int
    badge_named: list[int]


def _read_turn(words: Words | None, seat_reader, speaker: int, text: str) -> _Turn:
    accused, cleared, checked, badge_named, orders = Counter(), Counter(), [], [], 0
    if words is not None:
        for clause in re.split(words.clause, text):
            named = seat_reader.seats(clause)
            if not named:
                continue
            if re.search(words.accuse, clause):
                accused.update(named)
            if re.search(words.clear, clause):
                cleared.update(named)
            for kind, pattern in (("wolf", words.check_wolf), ("good", words.check_good)):
                if re.search(pattern, clause):
                    checked += [(s, kind) for s in named if s != speaker]
        # a badge order runs past a clause ("警徽流：3 号，5 号"): the seats named from it to the sentence's end
        for m in re.finditer(words.badge_order, text):
            orders += 1
            tail = re.split(words.sentence, text[m.end():], maxsplit=1)[0]
            badge_named += [s for s in seat_reader.seats(tail) if s != speaker]
    return _Turn(seat_reader.seats(text), accused, cleared, checked, orders, badge_named)


def read_talk(ctx: Context, reader: ClaimReader, cache: dict | None = None) -> Talk:
    """The readings of the turns `ctx` shows; `cache` (per game) keeps each turn's reading across prompts (the claim
    reader keeps its own)."""
    cache = {} if cache is None else cache
    words = WORDS.get(ctx.language)
    seat_reader = ctx.seat_reader()
    phase_day = {p.id: p.day for p in ctx.phases}
    talk_days = [p.day for p in ctx.phases if p.kind != "night"]
    talk = Talk(sheriff=next((e.target for e in reversed(ctx.public_events) if e.kind in ("sheriff_election", "badge_transfer")), None))
    catalogue = catalogue_for(ctx.rules.declared_roles)
    talk.gods = frozenset(r for r in catalogue.roles if catalogue.faction(r) == "good" and r != "villager")
    for u in ctx.utterances:
        if not isinstance(u.speaker, int):
            continue
        key = (ctx.language, ctx.names, ctx.aliases, u.speaker, u.text)
        if key not in cache:
            cache[key] = _read_turn(words, seat_reader, u.speaker, u.text)
        turn: _Turn = cache[key]
        i = len(talk.turns)
        talk.turns.append((u.speaker, u.phase, list(turn.seats)))
        if talk_days and phase_day.get(u.phase) == talk_days[-1]:
            talk.today.add(i)
        role = reader.claim(u.text, u.speaker)
        if role is not None:
            talk.claims.append((u.speaker, role))
        if talk.role_claimed(u.speaker) == "seer":
            talk.checks += [(u.speaker, s, kind) for s, kind in turn.checked]
        if turn.badge_orders:
            talk.badge_order[u.speaker] += turn.badge_orders
        talk.badge_named += [(u.speaker, s) for s in turn.badge_named]
        talk.accused.append(Counter(turn.accused))  # copies: the cached reading is shared by every later prompt
        talk.cleared.append(Counter(turn.cleared))
    return talk
