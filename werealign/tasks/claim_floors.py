"""The floors of the claim decision (issues 31, 42): rules over the turns the prompt shows, read by the claim reader
(werealign.game.claims), and the learned shallow floors over each option's features, games held out.

Rules (each names one option: "none" or a role):
- `never`: no claim; `majority-so-far`: the move most earlier turns of the game made; `last-claimed`: the role the
  game's last claim before the turn named (none before any claim); `own-role`: one's own role, which the prompt tells;
- issue 42, rules a player would use: `repeat-own`: the speaker's own last claim (none if it never claimed);
  `said-of-me`: the role the last shown turn names in a clause that names the speaker's seat ("5 号是预言家");
  `own-if-accused`: one's own role if a shown turn since the speaker's last turn accused the speaker
  (werealign.tasks.table_talk), else none; `counter-claim`: one's own role if another seat claimed it, else none;
  `own-if-god`: one's own role if it is a good role with a power, else none; `own-if-election`: one's own role in the
  sheriff election, else none.
Learned: `learned`, `learned-hgb`, `learned-mix` (werealign.tasks.learned_floor) over each option's features: the
viewpoint's own role and side (the prompt tells them), what earlier turns claimed, how often the shown turns (its own,
the last three, all) name the role, whether it stood for sheriff, the phase, the day, the turn's place in it, the
pressure on the speaker (accusations), every rule's pick.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import fmean
from typing import Any

from werealign.game.claims import claim_turns, reader_for
from werealign.game.visibility import build_context
from werealign.schema import GameLog
from werealign.schema.models import WITHDREW
from werealign.schema.roles import catalogue_for
from werealign.tasks.common import rounded
from werealign.tasks.learned_floor import LEARNERS, OptionRows, learned_floors
from werealign.tasks.table_talk import WORDS, read_talk

NONE = "none"
RULES = ("never", "majority-so-far", "last-claimed", "own-role", "repeat-own", "said-of-me", "own-if-accused", "counter-claim",
         "own-if-god", "own-if-election")
NAMES = (*RULES, *LEARNERS)


class _Game:
    """What every item of one game reads again: the claim turns, the role words each turn names, the readers."""

    def __init__(self, game: GameLog):
        self.turns = claim_turns(game)
        self.reader = reader_for(game)
        names = self.reader.names
        self.pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)), re.I)
        self.words = {u.index: Counter(names[m.group(0).lower()] for m in self.pattern.finditer(u.text)) for u, _ in self.turns}
        self.said: dict = {}
        self.catalogue = catalogue_for(game.rules.declared_roles)


def _said_of(text: str, seat: int, read, g: _Game, clause: str) -> Counter:
    """Role names in the clauses of `text` that name `seat`."""
    out = Counter()
    for part in re.split(clause, text):
        if seat in read.seats(part):
            out.update(g.reader.names[m.group(0).lower()] for m in g.pattern.finditer(part))
    return out


def claim_floors(asked: Sequence[tuple[GameLog, Any]], keys: Callable[[Any], list[str]], gold: Callable[[Any], str],
                 context_kwargs: Callable[..., dict]) -> tuple[dict[str, list[float]], list[OptionRows]]:
    """Per rule, each item's score (1 or 0), and each item's option rows for the learned floors."""
    games: dict[str, _Game] = {}
    values: dict[str, list[float]] = {name: [] for name in RULES}
    rows: list[OptionRows] = []
    for game, item in asked:
        if game.game_id not in games:
            games[game.game_id] = _Game(game)
        g = games[game.game_id]
        ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment, **context_kwargs(game, item, None))
        talk = read_talk(ctx, g.reader, g.said)
        shown = [(u, role) for u, role in g.turns if u.segment_ids[-1] <= item.cutoff_segment]
        before = [role for _, role in shown]
        key = gold(item)
        opts = keys(item)
        moves = Counter(role or NONE for role in before)
        majority = max(sorted(moves), key=lambda m: (moves[m], m == NONE)) if moves else NONE  # ties: no claim
        last = next((role for role in reversed(before) if role is not None), None) or NONE
        own = next((s.role for s in game.seats if s.seat == item.viewpoint_seat), None)
        own = own if own in item.candidates else None
        mine_claims = [role for u, role in shown if u.speaker == item.viewpoint_seat and role is not None]
        own_turns = [i for i, (sp, _, _) in enumerate(talk.turns) if sp == item.viewpoint_seat]
        since = own_turns[-1] + 1 if own_turns else 0
        accused = sum(talk.accused[i].get(item.viewpoint_seat, 0) for i in range(since, len(talk.turns)))
        accused_all = talk.accused_in().get(item.viewpoint_seat, 0)
        others_said = [u for u in ctx.utterances if isinstance(u.speaker, int) and u.speaker != item.viewpoint_seat]
        words = WORDS.get(ctx.language)
        said_of = _said_of(others_said[-1].text, item.viewpoint_seat, ctx.seat_reader(), g, words.clause if words else r"[,，.。;；!！?？\n]+") \
            if others_said else Counter()
        said_role = next((r for r, _ in said_of.most_common() if r in item.candidates), None)
        countered = own is not None and any(s != item.viewpoint_seat and r == own for s, r in talk.claims)
        phase = next((p for p in game.phases if p.id == item.phase), None)
        election = phase is not None and phase.kind == "sheriff_election"
        god = own is not None and g.catalogue.faction(own) == "good" and own != "villager"
        picks = {"never": NONE, "majority-so-far": majority, "last-claimed": last, "own-role": own or NONE,
                 "repeat-own": mine_claims[-1] if mine_claims and mine_claims[-1] in item.candidates else NONE,
                 "said-of-me": said_role or NONE, "own-if-accused": (own or NONE) if accused else NONE,
                 "counter-claim": (own or NONE) if countered else NONE, "own-if-god": (own or NONE) if god else NONE,
                 "own-if-election": (own or NONE) if election else NONE}
        for name, pick in picks.items():
            values[name].append(float(pick == key))
        claimed = Counter(role for role in before if role is not None)
        n_claims = sum(claimed.values())
        mine = len(own_turns)
        in_phase = sum(1 for u, _ in shown if u.phase == item.phase)
        day = phase.day if phase is not None else 0
        wolf = float(g.catalogue.faction(own) == "wolf") if own else 0.0
        ran = float(any(e.kind == "sheriff_run" and e.actor == item.viewpoint_seat and e.result != WITHDREW and e.audience.kind == "everyone"
                        and e.segment_id is not None and e.segment_id <= item.cutoff_segment for e in game.events))
        named = [sum((g.words[u.index] for u, _ in ts), Counter())
                 for ts in ([t for t in shown if t[0].speaker == item.viewpoint_seat], shown[-3:], shown)]
        situation = [float(day), float(election), float(in_phase), ran, wolf, float(n_claims), float(mine), float(accused), float(accused_all),
                     float(bool(mine_claims)), float(countered), float(god)]
        rows.append(OptionRows(game.game_id, [[
            float(o == NONE), float(o == own), float(o == "seer"), float(claimed.get(o, 0)), float(o == last), float(o == majority),
            float(o == NONE) * mine, float(o == NONE) * in_phase, float(o == NONE and election), float(o == NONE) * day,
            float(o == own) * mine, float(o == own and election), float(o == "seer" and n_claims == 0),
            *(float(n[o]) for n in named), float(o == own) * ran, float(o == NONE) * ran, float(o == "seer") * wolf, float(o == NONE) * wolf,
            float(o == NONE) * n_claims, float(said_of.get(o, 0)), float(o == own) * accused,
            *situation, *(float(pick == o) for pick in picks.values()),
        ] for o in opts], opts.index(key)))
    return values, rows


def truth_floors(asked: Sequence[tuple[GameLog, Any]], keys: Callable[[Any], list[str]], gold: Callable[[Any], str],
                 context_kwargs: Callable[..., dict]) -> dict[str, float | None]:
    """Every rule's mean score and the learned floors (None throughout when nothing is asked)."""
    if not asked:
        return dict.fromkeys(NAMES)
    values, rows = claim_floors(asked, keys, gold, context_kwargs)
    return {**{name: rounded(fmean(v)) for name, v in values.items()}, **learned_floors(rows)}
