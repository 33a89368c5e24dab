"""Which seats a real next turn at a table names: the weights human-voiced distractors are renumbered with
(werealign.generation.human, issue 43).

A distractor is another game's span with its seats renumbered onto this table. Drawn uniformly (or towards the
seats the viewpoint talked about), the distractors named seats the same way as each other and not the way this
table talks: the key was the option that shared the fewest seats with the other eight, named seats already
accused, seats that spoke and seats of the last turn (held-out learners on those relations: 21-22% on the release).
Here each live seat of a moment is weighed by how likely a real next turn at such a table is to name it, given
what the shown talk says of it (`FEATURES`), learnt from the keys of OTHER games only (games dealt to FOLDS folds,
seeded; a logistic regression per fold on every (moment, live seat) of the other folds' moments, the label: the
moment's key names the seat). Never this item's key, nor any key of its game: a distractor's seats follow the
population of keys, not the answer.

Per live seat other than the viewpoint, from the turns the prompt shows at the table:
- `viewpoint-named`, `named`, `recent`, `accused`, `recent-accused`, `cleared`, `last-speaker-named`: how often (log 1+n)
  the viewpoint's turns, all turns, the last RECENT turns, clauses with an accusing word (in all turns, in the last
  RECENT), clauses with a clearing word (werealign.tasks.table_talk's
  words per language; other languages: the move words of werealign.generation.human_text; none), and the last
  speaker's turns named it;
- `spoke`, `last-turn`, `last-speaker`, `viewpoint-last`: it took a turn; the last turn named it; it spoke last; the
  viewpoint's own last turn named it;
- `named-top`, `accused-top`, `named-share`, `accused-share`: it is (one of) the most named, the most accused seat of the
  table (at least once); the share of the other live seats named (accused) less often: how the table ranks it;
- `after-viewpoint`, `before-viewpoint`, `after-last-speaker`, `before-last-speaker`: it sits next after (before) the
  viewpoint, the last speaker (the order of the table's round: keys named the seat after the viewpoint less often
  than the one before it).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from werealign.generation import human_text as ht
from werealign.generation.human_shown import Shown

FEATURES = ("viewpoint-named", "named", "recent", "accused", "recent-accused", "cleared", "last-speaker-named", "spoke", "last-turn",
            "last-speaker", "viewpoint-last", "after-viewpoint", "before-viewpoint", "after-last-speaker", "before-last-speaker",
            "named-top", "accused-top", "named-share", "accused-share")
FOLDS = 5
RECENT = 3


@dataclass(frozen=True)
class Table:
    """What the shown talk says of each live seat other than the viewpoint's, at one moment."""
    seats: tuple[int, ...]
    rows: tuple[tuple[float, ...], ...]  # FEATURES per seat


def _words(language: str) -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """(accusing, clearing) words of the language."""
    from werealign.tasks.table_talk import WORDS

    words = WORDS.get(language)
    return (re.compile(words.accuse), re.compile(words.clear)) if words is not None else (ht.MOVE_WORDS, None)


def _after(a: int, b: int | None, seats: int, step: int) -> float:
    """1.0 when seat `a` sits `step` places after seat `b` round a table of `seats` (step -1: just before)."""
    return float(b is not None and (a - b) % seats == step % seats)


def _top(counts: Counter, seat: int, seats: Sequence[int]) -> float:
    top = max((counts[s] for s in seats), default=0)
    return float(top > 0 and counts[seat] == top)


def _share(counts: Counter, seat: int, seats: Sequence[int]) -> float:
    return sum(counts[s] < counts[seat] for s in seats) / max(1, len(seats) - 1)


def table_of(turns: Sequence[tuple[int, str]], viewpoint: int, live: Sequence[int], language: str,
             names: Mapping | None = None, seats: int | None = None) -> Table:
    """`turns`: (speaker, text) of the player turns the prompt shows, in order; `seats`: the table's size (the highest
    live seat when not given)."""
    accuse, clear = _words(language)
    clauses = [(n, c, ht.seats_named(c, names)) for n, (_, t) in enumerate(turns) for c in re.split(r"[,，.。;；!！?？:：、…\n]+", t)]
    said = [(sp, ht.seats_named(t, names)) for sp, t in turns]
    named = Counter(s for _, ss in said for s in ss)
    own = Counter(s for sp, ss in said if sp == viewpoint for s in ss)
    recent = Counter(s for _, ss in said[-RECENT:] for s in ss)
    accused = Counter(s for _, c, ss in clauses if accuse.search(c) for s in set(ss))
    lately = Counter(s for n, c, ss in clauses if n >= len(turns) - RECENT and accuse.search(c) for s in set(ss))
    cleared = Counter(s for _, c, ss in clauses if clear is not None and clear.search(c) for s in set(ss))
    spoke = {sp for sp, _ in turns}
    last_seats = set(said[-1][1]) if said else set()
    last_speaker = said[-1][0] if said else None
    by_last = Counter(s for sp, ss in said if sp == last_speaker for s in ss)
    own_last = next((set(ss) for sp, ss in reversed(said) if sp == viewpoint), set())
    size = seats or max([*live, viewpoint])
    others = tuple(s for s in live if s != viewpoint)
    rows = tuple((math.log1p(own[s]), math.log1p(named[s]), math.log1p(recent[s]), math.log1p(accused[s]), math.log1p(lately[s]),
                  math.log1p(cleared[s]), math.log1p(by_last[s]), float(s in spoke), float(s in last_seats), float(s == last_speaker),
                  float(s in own_last), _after(s, viewpoint, size, 1), _after(s, viewpoint, size, -1), _after(s, last_speaker, size, 1),
                  _after(s, last_speaker, size, -1), _top(named, s, others), _top(accused, s, others), _share(named, s, others),
                  _share(accused, s, others)) for s in others)
    return Table(others, rows)


class SeatModel:
    """Per moment (by its game), the seat weights of a logistic regression fitted on the other folds' games' keys."""

    def __init__(self, tables: Sequence[tuple[str, Table, set[int]]], seed: int = 0):
        """`tables`: (game id, the moment's table, the seats its key names) for every keyed moment of the run."""
        games = sorted({g for g, _, _ in tables})
        random.Random(f"{seed}:seat-folds").shuffle(games)
        self.fold = {g: n % FOLDS for n, g in enumerate(games)}
        self.models: dict[int, object] = {}
        for f in set(self.fold.values()):
            train = [(t, named) for g, t, named in tables if self.fold[g] != f]
            self.models[f] = _fit(train, seed)

    def weights(self, game_id: str, table: Table) -> dict[int, float]:
        """Live seat -> its weight (the probability that a key at such a table names it); all 1 with nothing learnt."""
        model = self.models.get(self.fold.get(game_id, -1))
        if model is None or not table.seats:
            return dict.fromkeys(table.seats, 1.0)
        p = model.predict_proba([list(r) for r in table.rows])[:, 1]  # type: ignore[attr-defined]
        return {s: float(x) for s, x in zip(table.seats, p)}


def _fit(train: Sequence[tuple[Table, set[int]]], seed: int):
    from sklearn.linear_model import LogisticRegression

    X = [list(r) for t, _ in train for r in t.rows]
    y = [int(s in named) for t, named in train for s in t.seats]
    if len(set(y)) < 2:
        return None
    return LogisticRegression(C=1.0, max_iter=2000, random_state=seed).fit(X, y)


def moment_weights(keyed: Sequence[tuple[str, int, int, str, Shown, str]], seed: int = 0) -> dict[tuple[str, int], dict[int, float]]:
    """`keyed`: (game id, key turn, viewpoint, key, what its prompt shows, language) per moment ->
    (game id, key turn) -> live seat -> weight, from a SeatModel of every moment's key (each judged by other games')."""
    rows = []
    for game_id, _turn, seat, key, shown, language in keyed:
        table = table_of(shown.turns, seat, shown.live, language, shown.names, len(shown.live) + len(shown.dead))
        rows.append((game_id, table, set(ht.seats_named(key, shown.names)) & set(table.seats)))
    model = SeatModel(rows, seed)
    return {(g, turn): model.weights(g, table) for (g, turn, *_), (_, table, _) in zip(keyed, rows)}
