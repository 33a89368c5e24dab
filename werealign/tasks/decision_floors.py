"""The floors of decision items (issues 31, 42): simple policies over the player's view at the decision, as the base
prompt shows it (in every variant: a floor is what the game itself gives away without judgment), and a learned one.

Rules over what the prompt shows:
- `most-accused`: the legal seat that drew the most public ballots so far;
- `last-named`: the legal seat the viewpoint named last in its own shown turns;
- `consensus`: the legal seat the other players named most in the current day's shown speech (the night's
  decision: the day before it);
  both read a seat named by number or by the names and nicknames the game gives its seats (werealign.text.seat_names);
- `same-as-last`: the viewpoint's own previous move of the same kind (last night's check, protection, kill;
  the previous ballot), when it is legal now;
- `call`: the seat of the day's last call to vote a seat out ("归票 5 号"), whoever made it;
- `sheriff-pick`: the legal seat the sitting sheriff named last;
- `last-turn`: the legal seat the last shown turn of another player named most;
- `last-said`: the legal seat named last in any player's shown talk, the viewpoint's included;
- `seer-claimant`: the first legal seat that claimed the seer (werealign.game.claims);
- `first-option` / `last-option`: the lowest legal seat / the last option ("none" where legal, else the highest seat);
- `none`: not acting, where it is legal;
- `night-1-save`: on a yes/no decision asked at night (the witch's save), act on the first night, never later;
- on a yes/no decision (one candidate, or "none": the witch's save, running for sheriff): `always` (act: save, run)
  and `never` (do not), reported only where every item asked is one.
Per kind, the rules a player would use at that decision (werealign.tasks.player_rules: `checked-wolf`, `gave-me-gold`,
`save-claimed-god`, `last-seer-claimant`, `last-gold`, ...), reported for items of that kind only.
Learned from the other games:
- `majority`: the kind's most frequent key class ("none", the viewpoint's own seat, else a seat number) among the
  items of the other games (cross-fitted: games held out);
- `learned`, `learned-hgb` and `learned-mix`: a logistic regression, shallow boosted trees and their mean over each
  option's shallow features (every rule above as a feature, the counts behind them: who named, accused, cleared which
  seat, claims, a seer claimant's checks, badge orders; the option's position, the night), cross-fitted with games
  held out and averaged over fold draws (werealign.tasks.learned_floor).

Each is scored as the share of items it answers correctly; where a policy names no legal seat (no ballot yet,
nothing named), the item counts at chance (a uniform legal move), so every floor is at least comparable to chance.
The contexts are built with the item's own context rules (werealign.game.visibility), the answer withheld.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import fmean

from werealign.game.claims import reader_for
from werealign.game.visibility import Context, build_context
from werealign.schema import GameLog
from werealign.schema.decisions import DecisionItem
from werealign.tasks.common import rounded
from werealign.tasks.learned_floor import LEARNERS, OptionRows, learned_floors
from werealign.tasks.player_rules import KIND_RULES, rule_names
from werealign.tasks.table_talk import Talk, read_talk

NONE = "none"  # a policy's pick of not acting (None: the policy names no move, scored at chance)
Policy = Callable[[Context, DecisionItem], int | str | None]

_SKILL = {"seer_check": ("seer_check",), "guard_protect": ("guard_protect", "doctor_protect"), "witch_poison": ("witch_poison",),
          "wolf_kill": ("wolf_kill",), "witch_save": ("witch_save",)}
# A call to vote a seat out, by language: group 1 the seat ("归票 5 号", "全票出 5", "I call the vote on seat 5").
CALLS: dict[str, re.Pattern] = {
    "zh": re.compile(r"(?:归票|归|票出|全票出|都出|出)\s*(?:给)?\s*(\d{1,2})\s*号?"),
    "en": re.compile(r"(?i)(?:call(?:ing)? (?:the )?vote (?:on|for)|everyone vote(?: out)?|vote out) (?:seat |player )?(\d{1,2})\b"),
}


def _top(counts: Counter, item: DecisionItem) -> int | None:
    legal = {s: n for s, n in counts.items() if s in item.candidates}
    if not legal:
        return None
    best = max(legal.values())
    return min(s for s, n in legal.items() if n == best)


def most_accused(ctx: Context, item: DecisionItem) -> int | None:
    return _top(Counter(e.target for e in ctx.public_events if e.kind == "vote" and e.target is not None), item)


def last_named(ctx: Context, item: DecisionItem) -> int | None:
    read = ctx.seat_reader()
    named = [s for u in ctx.utterances if u.is_self for s in read.seats(u.text) if s in item.candidates]
    return named[-1] if named else None


def _today(ctx: Context) -> list:
    days = [p for p in ctx.phases if p.kind != "night"]
    if not days:
        return []
    phase_day = {p.id: p.day for p in ctx.phases}
    return [u for u in ctx.utterances if phase_day.get(u.phase) == days[-1].day]


def consensus(ctx: Context, item: DecisionItem) -> int | None:
    said = [s for u in _today(ctx) if not u.is_self and u.speaker != "host" for s in ctx.seat_reader().seats(u.text)]
    return _top(Counter(said), item)


def same_as_last(ctx: Context, item: DecisionItem) -> int | None:
    if item.decision == "ballot":
        mine = [e.target for e in ctx.public_events if e.kind == "vote" and e.actor == item.viewpoint_seat]
    else:
        skills = _SKILL.get(item.decision, ())
        mine = [e.target for e in ctx.private_events if e.kind == "skill_use" and e.skill in skills and e.phase != item.phase
                and (e.actor == item.viewpoint_seat or item.decision == "wolf_kill")]
    last = mine[-1] if mine else None
    return last if last in item.candidates else None


def calls(ctx: Context) -> list[int]:
    """The seats of today's shown calls to vote a seat out, in order (any speaker but the host)."""
    pattern = CALLS.get(ctx.language)
    return [int(m.group(1)) for u in _today(ctx) if u.speaker != "host" and pattern for m in pattern.finditer(u.text)] if pattern else []


def call(ctx: Context, item: DecisionItem) -> int | None:
    legal = [s for s in calls(ctx) if s in item.candidates]
    return legal[-1] if legal else None


def sheriff(ctx: Context) -> int | None:
    """The sitting sheriff as the shown public events tell (the last elected or handed the badge)."""
    held = [e.target for e in ctx.public_events if e.kind in ("sheriff_election", "badge_transfer")]
    return held[-1] if held else None


def sheriff_pick(ctx: Context, item: DecisionItem) -> int | None:
    chief = sheriff(ctx)
    named = [s for u in ctx.utterances if chief is not None and u.speaker == chief for s in ctx.seat_reader().seats(u.text) if s in item.candidates]
    return named[-1] if named else None


def last_turn(ctx: Context, item: DecisionItem) -> int | None:
    turns = [u for u in ctx.utterances if u.speaker != "host" and not u.is_self]
    return _top(Counter(ctx.seat_reader().seats(turns[-1].text)), item) if turns else None


def last_said(ctx: Context, item: DecisionItem) -> int | None:
    """The legal seat named last in the shown talk of any player, the viewpoint included (the red team's rule that beat
    the printed badge floor: a dying sheriff's badge tends to go to the seat the table just talked about)."""
    read = ctx.seat_reader()
    named = [s for u in ctx.utterances if u.speaker != "host" for s in read.seats(u.text) if s in item.candidates]
    return named[-1] if named else None


def first_option(ctx: Context, item: DecisionItem) -> int | str | None:
    return item.candidates[0]


def last_option(ctx: Context, item: DecisionItem) -> int | str | None:
    return NONE if item.none_allowed else item.candidates[-1]


def never_act(ctx: Context, item: DecisionItem) -> int | str | None:
    return NONE if item.none_allowed else None


def night_number(ctx: Context, item: DecisionItem) -> int | None:
    nights = [p.id for p in ctx.phases if p.kind == "night"]
    return nights.index(item.phase) + 1 if item.phase in nights else None


def night_one_save(ctx: Context, item: DecisionItem) -> int | str | None:
    if not (is_yes_no(item) and night_number(ctx, item) is not None):
        return None
    return item.candidates[0] if night_number(ctx, item) == 1 else NONE


FLOORS: dict[str, Policy] = {"most-accused": most_accused, "last-named": last_named, "consensus": consensus, "same-as-last": same_as_last,
                             "call": call, "sheriff-pick": sheriff_pick, "last-turn": last_turn, "last-said": last_said,
                             "first-option": first_option,
                             "last-option": last_option, "none": never_act, "night-1-save": night_one_save}


def is_yes_no(item: DecisionItem) -> bool:
    return len(item.candidates) == 1 and item.none_allowed


YES_NO_FLOORS: dict[str, Policy] = {"always": lambda ctx, item: item.candidates[0] if is_yes_no(item) else None,
                                    "never": lambda ctx, item: NONE if is_yes_no(item) else None}
NAMED = (*FLOORS, "seer-claimant", "majority", *LEARNERS)


def _key(item: DecisionItem) -> int | str:
    return NONE if item.answer is None else item.answer


def _class(item: DecisionItem, move: int | str) -> int | str:
    """A move as a class shared across games: not acting, the viewpoint's own seat, else the seat's number."""
    return "own" if move == item.viewpoint_seat else move


def options(item: DecisionItem) -> list[int | str]:
    return [*item.candidates, *([NONE] if item.none_allowed else [])]


def floor_parts(asked: Sequence[tuple[GameLog, DecisionItem]], context_kwargs: Callable[..., dict]) -> tuple[dict[str, list[float]], list[OptionRows]]:
    """Per rule, each item's score (1, 0, or chance where the rule names no move), and each item's option rows for the
    learned floors; `context_kwargs` is the decision task's (the view its prompts are built from)."""
    floors = {**FLOORS, **(YES_NO_FLOORS if all(is_yes_no(item) for _, item in asked) else {})}
    kind_rules = rule_names({item.decision for _, item in asked})
    values: dict[str, list[float]] = {name: [] for name in [*floors, "seer-claimant", *kind_rules, "majority"]}
    turns: dict[str, dict] = {}  # per game, its turns' readings (read_talk's cache)
    rows: list[OptionRows] = []
    for game, item in asked:
        kw = context_kwargs(game, item, None)
        ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment, **kw)
        talk = read_talk(ctx, reader_for(game), turns.setdefault(game.game_id, {}))
        chance = 1 / len(options(item))
        picks = {name: policy(ctx, item) for name, policy in floors.items()}
        picks["seer-claimant"] = _first_seer(talk, item)
        mine = KIND_RULES.get(item.decision, {})
        picks.update({name: mine[name](ctx, item, talk) if name in mine else None for name in kind_rules})
        for name, pick in picks.items():
            values[name].append(chance if pick is None else float(pick == _key(item)))
        rows.append(OptionRows(game.game_id, option_features(ctx, item, picks, talk), options(item).index(_key(item))))
    values["majority"] = _majority(asked)
    return values, rows


def floor_scores(asked: Sequence[tuple[GameLog, DecisionItem]], context_kwargs: Callable[..., dict]) -> dict[str, float | None]:
    """Each floor's mean score; `context_kwargs` is the decision task's (the view its prompts are built from)."""
    if not asked:
        return {name: None for name in NAMED}
    values, rows = floor_parts(asked, context_kwargs)
    out = {name: rounded(fmean(v)) if v else None for name, v in values.items()}
    out.update(learned_floors(rows))
    return out


def _first_seer(talk: Talk, item: DecisionItem) -> int | None:
    """The first legal seat that claimed the seer."""
    seers = [s for s, role in talk.claims if role == "seer" and s in item.candidates]
    return seers[0] if seers else None


def _majority(asked: Sequence[tuple[GameLog, DecisionItem]]) -> list[float]:
    """Per item: whether the most frequent key class of the other games' items is its key (chance when none is legal)."""
    classes = Counter((game.game_id, _class(item, _key(item))) for game, item in asked)
    out = []
    for game, item in asked:
        others = Counter()
        for (gid, cls), n in classes.items():
            if gid != game.game_id:
                others[cls] += n
        legal = [(n, str(c)) for c, n in others.items() if (item.viewpoint_seat if c == "own" else c) in options(item)]
        if not legal:
            out.append(1 / len(options(item)))
            continue
        best = max(legal)[1]
        move = item.viewpoint_seat if best == "own" else (NONE if best == NONE else int(best))
        out.append(float(move == _key(item)))
    return out


def option_features(ctx: Context, item: DecisionItem, picks: dict, talk: Talk) -> list[list[float]]:
    """Each option's shallow features: what the rules read (each rule's pick as a flag), the counts behind them (who
    named, accused, cleared which seat how often; claims; a seer claimant's reported checks; badge orders), the
    option's position and kind, the night."""
    read = ctx.seat_reader()
    named_all = Counter(s for (sp, _, named) in talk.turns if sp != item.viewpoint_seat for s in named)
    named_today = Counter(s for i, (sp, _, named) in enumerate(talk.turns) if i in talk.today and sp != item.viewpoint_seat for s in named)
    named_self = Counter(s for u in ctx.utterances if u.is_self for s in read.seats(u.text))
    voted = Counter(e.target for e in ctx.public_events if e.kind == "vote" and e.target is not None)
    called = Counter(calls(ctx))
    accused, recent, today, cleared = talk.accused_in(), talk.accused_in(last=5), talk.accused_in(today=True), talk.cleared_all()
    wolf_checks = Counter(s for _, s, r in talk.checks if r == "wolf")
    good_checks = Counter(s for _, s, r in talk.checks if r == "good")
    badge_named = Counter(s for _, s in talk.badge_named)
    claimed = dict(talk.claims)  # each seat's latest claim
    night = night_number(ctx, item) or 0
    opts = options(item)
    top = max([*named_all.values(), 1])
    out = []
    for i, o in enumerate(opts):
        seat = o if isinstance(o, int) else None
        out.append([
            float(o == NONE), i / max(len(opts) - 1, 1), float(i == 0), float(i == len(opts) - 1), float(len(opts)),
            named_all.get(seat, 0) / top, float(named_today.get(seat, 0)), float(named_self.get(seat, 0)), float(voted.get(seat, 0)),
            float(called.get(seat, 0)), float(seat == item.viewpoint_seat), float(seat is not None and seat in ctx.allies),
            float(claimed.get(seat) == "seer"), float(seat in claimed), float(seat is not None and seat == item.about),
            float(o == NONE) * night, float(o == NONE and night == 1), float(seat is not None and seat == talk.sheriff),
            float(accused.get(seat, 0)), float(recent.get(seat, 0)), float(today.get(seat, 0)), float(cleared.get(seat, 0)),
            float(wolf_checks.get(seat, 0)), float(good_checks.get(seat, 0)), float(claimed.get(seat) in talk.gods),
            float(talk.badge_order.get(seat, 0)), float(badge_named.get(seat, 0)),
            *[float(pick is not None and pick == o) for pick in picks.values()],
        ])
    return out
