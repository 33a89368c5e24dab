"""Minimal pairs: `werealign generate DATASET --negatives minimal --out DIR`, no model.

The key is a human-voiced item's key (werealign.generation.human: the move span of the viewpoint's next
turn); the eight distractors are the same words with the move changed, so wording and register are the
key's and only the move tells them apart. What the key's move is made of are its slots (`slots`): each
seat it names other than the viewpoint's (every form of it renumbered, werealign.shortcuts.seats), each role
label it says (every occurrence; a one-character label such as 狼 is no slot: it sits inside 铁狼, 狼坑),
and a check result (`FLIPS`: good against wolf).

The nine options are the cells of a grid over one or two slots (`SHAPES`): each slot takes the key's
value and others (seats of the game; roles of the board, in the label the shown talk uses), every
combination is written, and when the grid has more than nine cells the cells beyond nine are dropped at
random among the non-key ones. The key is then one cell of a symmetric design: each option shares its
seat with as many others as the key does, in expectation, so the key is not the option the others agree
with most (edits of one thing at a time made the key the centroid of its distractors).

Which seats and roles fill the grid decides where the key sits on every per-option statistic
(werealign.shortcuts.ensemble.STATS and the length's distance from the median: the likeness to the talk,
how often the talk names a seat or binds it to a role word, a seat out, the length...): the seat the
viewpoint names is often the one the table talks about, and the role the key binds it to is the one the
talk binds it to. So CANDIDATES grids are drawn, and the one kept puts the key where a random option of a
random grid sits (werealign.generation.rankmatch): one candidate grid and one of its cells are drawn, that cell's rank range on
every statistic is the target, and the grid whose key comes nearest to it on all of them together is
kept. The target is a real option's ranks, so each statistic's target rank is uniform and the statistics
keep the joint shape real options have (independent targets would pull the key to the middle of
correlated ones). With `role_rates` (the share of keys naming each role), how common the option's role is
among keys is one more statistic: a distractor role drawn off the board is rarer among keys than the key's.
A key above (or below) every other option of every candidate grid on one statistic gives no item (that statistic
would answer it), nor one no grid brings within MAX_GAP rank steps of its target.

An item needs a grid: a key with too few seats and roles to change gives none (said in dropped.jsonl).
Distractor origins: `m1_faction_inversion` when a check result is flipped, else `m1_role_perturbation`;
each option's change is in the item's source_ref.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from werealign.shortcuts.context import Shown
from werealign.generation import rankmatch
from werealign.shortcuts.exchange import RANKED
from werealign.shortcuts.seats import mentions, renumber
from werealign.shortcuts.text import roles_named
from werealign.schema import GameLog
from werealign.schema.roles import ROLE_LABELS
from werealign.text.seat_names import names_of_seats

METHOD = "minimal-pair/2"
DISTRACTORS = 8
OPTIONS = DISTRACTORS + 1
# Grid shapes (values of the first slot x of the second): 3x3 and 9x1 have nine cells; the others drop the
# cells beyond nine at random among the non-key ones.
SHAPES = ((3, 3), (9, 1), (5, 2), (2, 5), (4, 3), (3, 4))
PAIRED = (OPTIONS, 0)  # the shape of a design whose nine seats each take a role of their own
BIND_PRIOR = 0.1  # a role the talk never binds to a seat is drawn for it this many times as rarely as one bound once
CANDIDATES = 96  # grids weighed per moment
MAX_GAP = 40  # a kept grid's key at most this many ranks (summed over the statistics) from its target
# A check result or a side, and its opposite: the flip of a report ("gold water" against "checked kill").
FLIPS = (("金水", "查杀"), ("好人", "狼人"), ("good", "wolf"))


@dataclass(frozen=True)
class Slot:
    kind: str  # "seat", "role" or "result"
    value: int | str  # the key's seat, or the label / result word the key says
    choices: tuple  # what may stand in its place (not the key's value)
    spans: tuple[tuple[int, int], ...] = ()  # where a role label or result word sits in the key


def board_labels(game: GameLog) -> dict[str, str]:
    """Role id -> a label of it in the game's language, for the roles on the board (the composition's own
    label first, else the first catalogue label a text of the game's script would use)."""
    out: dict[str, str] = {}
    for rc in game.rules.composition:
        if rc.original_label:
            out.setdefault(rc.role, rc.original_label)
    cjk = game.language.startswith(("zh", "ja"))
    for label, role in ROLE_LABELS.items():
        if role in {rc.role for rc in game.rules.composition} and role not in out and (not label.isascii()) == cjk and len(label) > 1:
            out[role] = label
    return out


def _label_spans(text: str, labels: Iterable[str]) -> dict[str, list[tuple[int, int]]]:
    """Label -> where it sits in `text`, longest labels first, never overlapping (白狼王 is not 狼王); a label in a
    script with spaces is a whole word."""
    taken: list[tuple[int, int]] = []
    out: dict[str, list[tuple[int, int]]] = {}
    folded = text.casefold()
    for label in sorted(set(labels), key=lambda lab: (-len(lab), lab)):
        pattern = rf"\b{re.escape(label.casefold())}\b" if label.isascii() else re.escape(label.casefold())
        for m in re.finditer(pattern, folded):
            if all(m.end() <= a or m.start() >= b for a, b in taken):
                taken.append((m.start(), m.end()))
                out.setdefault(label, []).append((m.start(), m.end()))
    return out


def _usable(label: str) -> bool:
    # one-letter ASCII labels match inside words; one CJK character (狼) inside compounds (铁狼, 狼坑)
    return len(label) > 1


def slots(key: str, game: GameLog, me: int, shown: Shown) -> list[Slot]:
    """What the key's move is made of, each with what may stand in its place."""
    names = names_of_seats(game.seats)
    in_game = sorted(s.seat for s in game.seats)
    named = list(dict.fromkeys(m.seat for m in mentions(key, names)))
    free = tuple(s for s in in_game if s != me and s not in named)
    out = [Slot("seat", s, free) for s in named if s != me and s in in_game]
    spans = _label_spans(key, [lab for lab in ROLE_LABELS if _usable(lab)])
    said = {ROLE_LABELS[lab] for lab in spans}
    talk = shown.transcript.casefold()
    # another role of the board, in the label the shown talk uses most (the board's own when the talk uses none)
    others = []
    for role, label in sorted(board_labels(game).items()):
        if role in said:
            continue
        used = Counter({lab: talk.count(lab.casefold()) for lab, r in ROLE_LABELS.items() if r == role and _usable(lab)})
        best = max(sorted(used), key=lambda lab: used[lab]) if used and max(used.values()) else label
        others.append(best)
    for lab, where in spans.items():
        out.append(Slot("role", lab, tuple(others), tuple(where)))
    covered = [ab for where in spans.values() for ab in where]
    for a, b in FLIPS:
        for x, y in ((a, b), (b, a)):
            found = _label_spans(key, [x]).get(x, [])
            if found and not _label_spans(key, [y]) and not any(s < e2 and e > s2 for s, e in found for s2, e2 in covered):
                out.append(Slot("result", x, (y,), tuple(found)))
    return out


def fill(key: str, assignment: Mapping[Slot, int | str], game: GameLog) -> str:
    """The key with each slot's value replaced by the assigned one (labels at their spans, seats renumbered)."""
    text = key
    edits = sorted(((a, b, str(v)) for s, v in assignment.items() if s.kind != "seat" for a, b in s.spans), reverse=True)
    for a, b, new in edits:
        text = text[:a] + new + text[b:]
    table = {int(s.value): int(v) for s, v in assignment.items() if s.kind == "seat" and v != s.value}
    if table:
        names = names_of_seats(game.seats)
        text = renumber(text, table, names, names)
    return text


def _change(assignment: Mapping[Slot, int | str]) -> tuple[str, str]:
    changed = [(s, v) for s, v in assignment.items() if v != s.value]
    what = "; ".join(f"{s.kind} {s.value}->{v}" for s, v in changed)
    origin = "m1_faction_inversion" if any(s.kind == "result" for s, _ in changed) else "m1_role_perturbation"
    return what, origin


def _designs(found: Sequence[Slot]) -> list[tuple[tuple[Slot, ...], tuple[int, ...]]]:
    """(slots, values per slot) of every grid the key's slots allow."""
    out = []
    for shape in SHAPES:
        for pair in itertools.permutations(found, 2) if shape[1] > 1 else ((s,) for s in found):
            sizes = shape[:len(pair)]
            if any(n - 1 > len(s.choices) for s, n in zip(pair, sizes)):
                continue
            if len(pair) == 2 and pair[0].kind == pair[1].kind != "result":
                # two seats (or two roles) draw their values from one pool: disjoint values
                if sizes[0] + sizes[1] - 2 > len(set(pair[0].choices) | set(pair[1].choices)):
                    continue
            out.append((pair, sizes))
    # a seat and a role changed together: nine seats, each said to hold a role (drawn the way the talk binds it)
    out += [((a, b), PAIRED) for a in found for b in found if a.kind == "seat" and b.kind == "role" and len(a.choices) >= DISTRACTORS]
    return out


def _draw(pool: Sequence, k: int, weight: Callable[[object], float] | None, rng: random.Random) -> list:
    """k of `pool` without replacement, each drawn in proportion to its weight (uniformly without one)."""
    pool, out = list(pool), []
    for _ in range(k):
        at = rng.choices(range(len(pool)), [weight(x) for x in pool])[0] if weight else rng.randrange(len(pool))
        out.append(pool.pop(at))
    return out


@dataclass(frozen=True)
class Talk:
    """How the shown talk names seats and binds them to roles: one turn naming both (werealign.shortcuts.ensemble's
    seat-talk and binding)."""
    seats: Counter
    bound: Counter

    @classmethod
    def of(cls, shown: Shown) -> Talk:
        turns = [({m.seat for m in mentions(t)}, roles_named(t)) for t in shown.turns]
        return cls(Counter(s for ts, _ in turns for s in ts), Counter((s, r) for ts, rs in turns for s in ts for r in rs))


def _grid(key: str, game: GameLog, design: tuple[tuple[Slot, ...], tuple[int, ...]], rng: random.Random,
          talk: Talk | None = None) -> list[tuple[str, str, str]] | None:
    """Nine (text, origin, change) cells of one drawn grid, the key's first; None when two cells read alike. With
    `talk`, seats are drawn as often as the talk names them and roles as often as it binds them to the grid's
    seats: the other cells then bind seats to roles the way the talk does, as the key's does."""
    pair, sizes = design
    if sizes == PAIRED:
        return _paired(key, game, pair, rng, talk)
    values: dict[Slot, list[int | str]] = {}
    taken: set = set()
    for s, n in sorted(zip(pair, sizes), key=lambda sn: sn[0].kind != "seat"):  # seats first: roles are drawn for them
        pool = [c for c in s.choices if c not in taken or s.kind == "result"]
        if len(pool) < n - 1:
            return None
        weight = None
        if talk is not None and s.kind == "seat":
            weight = lambda seat: 1.0 + talk.seats[seat]  # noqa: E731
        elif talk is not None and s.kind == "role":
            seats = [v for slot, vs in values.items() if slot.kind == "seat" for v in vs]
            weight = lambda label, seats=seats: BIND_PRIOR + sum(talk.bound[(seat, r)] for seat in seats for r in roles_named(str(label)))  # noqa: E731
        picked = _draw(pool, n - 1, weight, rng)
        taken.update(picked)
        values[s] = [s.value, *picked]
    cells = list(itertools.product(*(values[s] for s in pair)))
    rest = cells[1:]  # cells[0] is the key's
    keep = sorted(rng.sample(range(len(rest)), DISTRACTORS))
    out = [(key, "ground_truth", "")]
    for i in keep:
        assignment = dict(zip(pair, rest[i]))
        what, origin = _change(assignment)
        out.append((fill(key, assignment, game), origin, what))
    if len({t for t, _, _ in out}) < OPTIONS:
        return None
    return out


def _paired(key: str, game: GameLog, pair: tuple[Slot, ...], rng: random.Random, talk: Talk | None) -> list[tuple[str, str, str]] | None:
    seat, role = pair
    seats = _draw(seat.choices, DISTRACTORS, (lambda s: 1.0 + talk.seats[s]) if talk else None, rng)
    labels = [role.value, *role.choices]
    out = [(key, "ground_truth", "")]
    for s in seats:
        weight = [BIND_PRIOR + (sum(talk.bound[(s, r)] for r in roles_named(str(lab))) if talk else 1.0) for lab in labels]
        assignment = {seat: s, role: rng.choices(labels, weight)[0]}
        what, origin = _change(assignment)
        out.append((fill(key, assignment, game), origin, what))
    return out if len({t for t, _, _ in out}) == OPTIONS else None


def key_role_rates(keys: Iterable[str]) -> dict[str, float]:
    """Role -> the share of keys naming it."""
    keys = list(keys)
    counts = Counter(r for k in keys for r in roles_named(k))
    return {r: n / max(1, len(keys)) for r, n in sorted(counts.items())}


def drafts(key: str, game: GameLog, me: int, shown: Shown, seed: str, n: int = 1, *, role_rates: Mapping[str, float] | None = None,
           ok: Callable[[str], bool] | None = None, candidates: int = CANDIDATES,
           max_gap: int = MAX_GAP) -> tuple[list[list[tuple[str, str, str]]], str | None]:
    """Up to `n` sets of eight (text, origin, change) distractors, each kept from one pool of candidate grids for its
    own drawn target (`keep`), or the reason there are none. `shown`: what the item's prompt shows
    (werealign.shortcuts.context.shown_to); `ok(text)`: whether a distractor may be used (e.g. it repeats no later turn)."""
    found = slots(key, game, me, shown)
    designs = _designs(found)
    if not designs:
        kinds = Counter(s.kind for s in found)
        return [], (f"too few changes of the key's move for a grid of nine (seats: {kinds['seat']}, roles: {kinds['role']}, "
                    f"results: {kinds['result']})")
    rng = random.Random(seed)
    talk = Talk.of(shown)
    grids: list[list[tuple[str, str, str]]] = []
    seen: set[frozenset[str]] = set()
    for _ in range(4 * candidates):
        if len(grids) >= candidates:
            break
        grid = _grid(key, game, rng.choice(designs), rng, talk)
        if grid is None or frozenset(t for t, _, _ in grid) in seen or (ok is not None and not all(ok(t) for t, _, _ in grid[1:])):
            continue
        seen.add(frozenset(t for t, _, _ in grid))
        grids.append(grid)
    if not grids:
        return [], "no grid of nine distinct options (every drawn grid repeats an option or a later turn)"
    prior = None if role_rates is None else (lambda texts: [sum(role_rates.get(r, 0.0) for r in roles_named(t)) for t in texts])
    ranked = rankmatch.ranges([[t for t, _, _ in g] for g in grids], shown, extra=prior)
    # a key above (or below) every other option on one statistic in every grid is given away by that statistic
    at_end = rankmatch.ends(ranked, [*RANKED, "role-prior"])
    if at_end:
        return [], f"the key is above or below every other option in every candidate grid on {', '.join(at_end)}"
    kept = [rankmatch.keep(ranked, rng) for _ in range(n)]
    sets = [grids[g][1:] for g, gap in kept if gap <= max_gap]
    if not sets:
        return [], (f"no grid puts the key where a drawn option sits (nearest {min(gap for _, gap in kept)} ranks off, "
                    f"over {max_gap})")
    return sets, None


def variants(key: str, game: GameLog, me: int, shown: Shown, seed: str, *, role_rates: Mapping[str, float] | None = None,
             ok: Callable[[str], bool] | None = None, max_gap: int = MAX_GAP) -> tuple[list[tuple[str, str, str]], str | None]:
    """One set of eight (text, origin, change) distractors (`drafts`), or the reason there is none."""
    sets, why = drafts(key, game, me, shown, seed, role_rates=role_rates, ok=ok, max_gap=max_gap)
    return (sets[0] if sets else []), why
