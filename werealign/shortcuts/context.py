"""Context attacks: pickers that read the game as well as the options, and still weigh no move.

An options-only attack sees nine texts; a model sees the game too, and so can an attack that never
judges strategy: it can prefer the option that names no seat already out, that sounds like the
transcript or the viewpoint's own words, that is written in the game's transcription style, or that
is cut the way keys are cut. Each feature below is one such attack; `learned` combines them all.

Per option (`FEATURES`):
- `dead-seat`: names a seat that is out at the cut-off or not in the game, in any seat form
  (werealign.shortcuts.seats: digits, Chinese numerals, 号/号位, "seat N");
- `transcript`, `last-turns`, `own-words`: character TF-IDF cosine with the shown transcript, its last
  LAST_TURNS turns, and the viewpoint's own shown turns;
- `style`: how common the option's seat forms are in the game's transcript ("7 号" against "7号" against
  "七号": a key transcribed with the game, a distractor from another source);
- `clauses`, `prefix`: clause count, and the length of the option without its last clause (an opening
  cut at the first clause that reaches a length is shaped unlike a whole turn);
- `length`: visible characters.

Every attack is cross-fitted with whole games held out (the folds of werealign.shortcuts.attacks): a
single feature's direction (is more overlap the key or a distractor?) and the learned combination's
weights come from the other games only. `learned` is a logistic regression on every feature,
standardised within the item, with each feature's within-item rank; its probability of the key is an
item's context score. The best attack is the one with the highest accuracy; its name is reported.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from werealign.shortcuts.attacks import FOLDS, _fold_of
from werealign.shortcuts.verdicts import CHANCE, MIN_ITEMS, Check, rate_verdict, skip
from werealign.shortcuts.seats import mentions
from werealign.shortcuts.text import text_length
from werealign.schema import GameLog, SpeechItem
from werealign.text.similarity import JoinedCounts, tfidf_cosines, tfidf_cosines_counted

if TYPE_CHECKING:  # the type only: the context builder is imported where it is called
    from werealign.game.visibility import Context

FEATURES = ("dead-seat", "transcript", "last-turns", "own-words", "style", "clauses", "prefix", "length")
LEARNED = "learned"
LAST_TURNS = 3
_CLAUSE = re.compile(r"[,，.。;；!！?？:：、…]+")


@dataclass(frozen=True)
class Shown:
    """What an attacker reads of the game at an item's cut-off: the public transcript, the viewpoint's
    own turns, the seats out or absent, and how the transcript writes seats."""
    transcript: str
    last_turns: str
    own: str
    dead: frozenset[int]
    forms: dict[str, float]  # seat form -> share of the transcript's seat mentions
    turns: tuple[str, ...] = ()  # the transcript's turns: transcript == " ".join(turns)
    own_turns: tuple[str, ...] = ()  # own == " ".join(own_turns)
    names: tuple[tuple[int, tuple[str, ...]], ...] = ()  # seat -> its name and nicknames: a seat named by name is a seat (issue 45)


def shown_at(game: GameLog | None, item: SpeechItem, ctx: Context | None = None) -> Shown:
    """The item's game as its prompt shows it (build_context, or `ctx`: its result, when the caller has it); an item
    without its game reads nothing."""
    if game is None:
        return Shown("", "", "", frozenset(), {})
    return shown_to(game, item.viewpoint_seat, item.cutoff_segment, ctx)


def shown_to(game: GameLog, seat: int | None, cutoff: int, ctx: Context | None = None) -> Shown:
    """What a viewpoint's prompt shows of the game at a cut-off (generators read it to make a key unremarkable).
    `ctx`: build_context(game, seat, cutoff), when the caller already built it."""
    from werealign.game.derive import alive_at
    from werealign.game.visibility import build_context

    from werealign.text.seat_names import names_of_seats

    ctx = build_context(game, seat, cutoff) if ctx is None else ctx
    names = tuple(sorted(names_of_seats(game.seats).items()))
    turns = tuple(u.text for u in ctx.utterances if isinstance(u.speaker, int))
    own = tuple(u.text for u in ctx.utterances if u.is_self)
    alive = set(alive_at(game, cutoff))
    forms = Counter(f for t in turns for f in _seat_forms(t, names))
    total = sum(forms.values()) or 1
    # a seat not in the game is as telling as one out (a distractor cut from a bigger board)
    dead = frozenset(range(1, 100)) - alive
    return Shown(" ".join(turns), " ".join(turns[-LAST_TURNS:]), " ".join(own), dead, {f: n / total for f, n in forms.items()},
                 turns, own, names)


@lru_cache(maxsize=65536)
def _seat_forms(text: str, names: tuple[tuple[int, tuple[str, ...]], ...] = ()) -> tuple[str, ...]:
    # Cached: every item of a game reads the same turns again, from each cut-off.
    return tuple(m.form for m in mentions(text, dict(names)))


def option_features(text: str, shown: Shown) -> dict[str, float]:
    named = mentions(text, dict(shown.names))
    clauses = [c for c in _CLAUSE.split(text) if c.strip()]
    style = sum(shown.forms.get(m.form, 0.0) for m in named) / len(named) if named else float("nan")
    return {
        "dead-seat": float(any(m.seat in shown.dead for m in named)),
        "style": style,
        "clauses": float(len(clauses)),
        "prefix": float(text_length("".join(clauses[:-1]))),
        "length": float(text_length(text)),
    }


def item_features(item: SpeechItem, shown: Shown, joined: tuple[JoinedCounts, JoinedCounts] | None = None) -> list[list[float]]:
    """One row of FEATURES per option. `joined`: where the transcript's and own words' n-gram counts are built from
    their turns, each from the counts of a list of turns it extends (the same numbers, see features)."""
    texts = [o.text for o in item.options]

    def sims(against: str, parts: tuple[str, ...], counts: JoinedCounts | None) -> list[float]:
        if not against.strip():
            return [0.0] * len(texts)
        if counts is None or " ".join(parts) != against:  # a Shown made without its turns
            return tfidf_cosines(against, texts, sublinear_tf=True)
        return tfidf_cosines_counted(counts.counts(parts), texts, sublinear_tf=True)

    transcript, own = joined if joined is not None else (None, None)
    sims_by = {"transcript": sims(shown.transcript, shown.turns, transcript), "last-turns": sims(shown.last_turns, (), None),
               "own-words": sims(shown.own, shown.own_turns, own)}
    rows = []
    for i, t in enumerate(texts):
        f = option_features(t, shown)
        f.update({name: s[i] for name, s in sims_by.items()})
        rows.append([f[name] for name in FEATURES])
    # an option naming no seat has no style: the item's mean (neutral within the item)
    col = FEATURES.index("style")
    known = [r[col] for r in rows if r[col] == r[col]]
    for r in rows:
        if r[col] != r[col]:
            r[col] = sum(known) / len(known) if known else 0.0
    return rows


# Features and attacks of the same items, remembered by what they read: in one process the audit and an eval's
# floors (and evals of other tasks, decodes or limits, whose floors' cache key differs) read the same items of the same
# games, and the release's features and cross-fits take seconds. Copies go in and out, so a caller that changes what
# it got changes no other caller's.
_FEATURES_MEMO: OrderedDict[str, list[list[list[float]]]] = OrderedDict()
_ATTACKS_MEMO: OrderedDict[str, ContextAttacks] = OrderedDict()
_MEMO_SIZE = 4  # a release's rows or attacks: about 40,000 floats each
_MEMO_LOCK = threading.Lock()  # callers in threads never see a key evicted between its lookup and its use


def clear_memos() -> None:
    """Forget every remembered features and attacks (a test that proves them deterministic computes them twice)."""
    with _MEMO_LOCK:
        _FEATURES_MEMO.clear()
        _ATTACKS_MEMO.clear()


def _recall(memo: OrderedDict, key: str):
    """The remembered value of `key` (the most recently used from now on), or None."""
    with _MEMO_LOCK:
        found = memo.get(key)
        if found is not None:
            memo.move_to_end(key)
        return found


def _remember(memo: OrderedDict, key: str, value) -> None:
    with _MEMO_LOCK:
        memo[key] = value
        memo.move_to_end(key)
        while len(memo) > _MEMO_SIZE:
            memo.popitem(last=False)


def _copy_rows(rows: list[list[list[float]]]) -> list[list[list[float]]]:
    return [[list(option) for option in item] for item in rows]


def _features_key(items: Sequence[SpeechItem], games: dict[str, GameLog]) -> str | None:
    """sha256 of everything features() reads: every item whole, in order, and each of their games whole (or its
    absence). None (no memo) for an object that cannot dump itself."""
    h = hashlib.sha256()
    for obj in [*items, *(games.get(g) for g in dict.fromkeys(it.game_id for it in items))]:
        if obj is None:
            h.update(b"absent\0")
            continue
        dump = getattr(obj, "model_dump_json", None)
        if dump is None:
            return None
        h.update(type(obj).__name__.encode() + b"\0" + dump().encode() + b"\0")
    return h.hexdigest()


def features(items: Sequence[SpeechItem], games: dict[str, GameLog], shown: Sequence[Shown] | None = None) -> list[list[list[float]]]:
    """item_features of each item (the same content read again in this process is answered from _FEATURES_MEMO).
    `shown`: shown_at of each item, when the caller has them (the audit reads them for its statistics too)."""
    key = _features_key(items, games)
    found = _recall(_FEATURES_MEMO, key) if key is not None else None
    if found is not None:
        return _copy_rows(found)
    rows = _features(items, games, shown)
    if key is not None:
        _remember(_FEATURES_MEMO, key, _copy_rows(rows))
    return rows


def _features(items: Sequence[SpeechItem], games: dict[str, GameLog], shown: Sequence[Shown] | None = None) -> list[list[list[float]]]:
    """A game's items are read in the order of their cut-offs, so each transcript's n-gram counts extend an earlier
    cut-off's (the TF-IDF of whole transcripts was most of a dataset's first eval)."""
    joined = (JoinedCounts(), JoinedCounts())  # the items of one moment get one transcript's counter, not a copy each
    rows: list[list[list[float]]] = [[] for _ in items]
    for i in sorted(range(len(items)), key=lambda i: (items[i].game_id, items[i].cutoff_segment)):
        seen = shown[i] if shown is not None else shown_at(games.get(items[i].game_id), items[i])
        rows[i] = item_features(items[i], seen, joined)
    return rows


def _relative(rows: list[list[float]]):
    """Within-item z-scores and ranks of each feature: what an attack compares is the nine options."""
    import numpy as np

    a = np.asarray(rows, dtype=float)
    sd = a.std(axis=0)
    z = (a - a.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    ranks = a.argsort(axis=0).argsort(axis=0) / max(1, len(rows) - 1)
    return np.hstack([z, ranks])


def _softmax(s):
    import numpy as np

    e = np.exp(s - s.max())
    return e / e.sum()


@dataclass
class ContextAttacks:
    """Cross-fitted probabilities per attack: attack name -> per item, one probability per option."""
    probs: dict[str, list[list[float]]]
    held_out: str  # "games" or "items" (one game only)

    def hits(self, items: Sequence[SpeechItem], attack: str) -> list[bool]:
        from werealign.shortcuts.attacks import top1_hits

        return top1_hits(items, self.probs[attack])

    def accuracy(self, items: Sequence[SpeechItem], attack: str) -> float:
        h = self.hits(items, attack)
        return sum(h) / len(h) if h else 0.0

    def best(self, items: Sequence[SpeechItem]) -> tuple[str, float]:
        """The attack with the highest accuracy on `items` (ties: the learned one, then FEATURES order)."""
        ranked = sorted(self.probs, key=lambda a: (-self.accuracy(items, a), a != LEARNED, (FEATURES + (LEARNED,)).index(a)))
        return ranked[0], self.accuracy(items, ranked[0])


def context_attacks(items: Sequence[SpeechItem], games: dict[str, GameLog], *, folds: int = FOLDS, seed: int | None = None,
                    rows: list[list[list[float]]] | None = None) -> ContextAttacks:
    """Every context attack on `items`, each item scored by what was fitted on other games' items only (the same
    inputs again in this process: from _ATTACKS_MEMO)."""
    rows = features(items, games) if rows is None else rows
    # all the cross-fit reads: the rows, each item's game (its fold), key and option keys, the folds and the seed
    key = hashlib.sha256(repr((folds, seed, [(it.game_id, it.answer, [o.key for o in it.options]) for it in items],
                               rows)).encode()).hexdigest()
    found = _recall(_ATTACKS_MEMO, key)
    if found is None:
        found = _context_attacks(items, rows, folds, seed)
        _remember(_ATTACKS_MEMO, key, found)
    return ContextAttacks({a: [list(x) for x in p] for a, p in found.probs.items()}, found.held_out)


def _context_attacks(items: Sequence[SpeechItem], rows: list[list[list[float]]], folds: int, seed: int | None) -> ContextAttacks:
    import numpy as np

    keys = [[o.key == it.answer for o in it.options] for it in items]
    fold, k = _fold_of(items, folds, seed) if len(items) >= 2 else ([0] * len(items), 1)
    rel = [_relative(r) for r in rows]
    # each item's share of keys at the top, per feature and direction: the same for every fold it trains in (worked
    # out once, not once per fold; the folds add the same floats in the same order)
    tops = [[(_top_is_key(r, c, 1.0, keys[i]), _top_is_key(r, c, -1.0, keys[i])) for c in range(len(FEATURES))]
            for i, r in enumerate(rows)]
    out: dict[str, list[list[float]]] = {a: [[CHANCE] * len(it.options) for it in items] for a in (*FEATURES, LEARNED)}
    for f in range(k):
        train = [i for i in range(len(items)) if fold[i] != f]
        test = [i for i in range(len(items)) if fold[i] == f]
        if not train or not test:
            continue
        for c, name in enumerate(FEATURES):
            # the direction the other games' keys lean: up (more is the key) or down
            up = sum(tops[i][c][0] for i in train)
            down = sum(tops[i][c][1] for i in train)
            sign = 1.0 if up >= down else -1.0
            for i in test:
                col = np.asarray([r[c] for r in rows[i]]) * sign
                top = col == col.max()
                out[name][i] = (top / top.sum()).round(6).tolist()
        X = np.vstack([rel[i] for i in train])
        y = np.concatenate([keys[i] for i in train]).astype(int)
        if len(set(y.tolist())) < 2:
            continue
        from sklearn.linear_model import LogisticRegression

        model = LogisticRegression(C=1.0, max_iter=2000).fit(X, y)
        for i in test:
            out[LEARNED][i] = _softmax(model.decision_function(rel[i])).round(6).tolist()
    held = "games" if len({it.game_id for it in items}) >= 2 else "items"
    return ContextAttacks(out, held)


def _top_is_key(rows: list[list[float]], c: int, sign: float, keys: list[bool]) -> float:
    """The share of the top options (by sign x feature) that are the key: a tie counts fractionally."""
    vals = [r[c] * sign for r in rows]
    best = max(vals)
    top = [i for i, v in enumerate(vals) if v == best]
    return sum(keys[i] for i in top) / len(top)


def dead_seat_rate(items: Sequence[SpeechItem], rows: list[list[list[float]]]) -> tuple[float, float, int]:
    """Among items where exactly one option names a dead or absent seat: (share where it is the key,
    chance 1/9, how many such items). A giveaway when the share is well above chance."""
    c = FEATURES.index("dead-seat")
    lone = [(it, r) for it, r in zip(items, rows) if sum(x[c] for x in r) == 1]
    hit = sum(it.options[[x[c] for x in r].index(1.0)].key == it.answer for it, r in lone)
    return (hit / len(lone) if lone else 0.0), CHANCE, len(lone)


def check_context(items: Sequence[SpeechItem], scope: str, attacks: ContextAttacks, index: dict[str, int]) -> Check:
    """The best context attack on the scope (each item scored by the dataset-wide cross-fit)."""
    n = len(items)
    if n < MIN_ITEMS:
        return skip("context", scope, n)
    picked = [index[it.item_id] for it in items]
    sub = ContextAttacks({a: [p[i] for i in picked] for a, p in attacks.probs.items()}, attacks.held_out)
    name, acc = sub.best(items)
    verdict, p = rate_verdict(acc, n, acc * n)
    others = ", ".join(f"{a} {sub.accuracy(items, a):.0%}" for a in (LEARNED, *FEATURES) if a != name)
    return Check("context", scope, verdict, round(acc, 4), n,
                 f"best context attack ({attacks.held_out} held out): {name} picks the key in {acc:.1%} (chance {CHANCE:.1%}, "
                 f"binomial p={p:.3g}); {others}")


def check_dead_seat(items: Sequence[SpeechItem], scope: str, rows: list[list[list[float]]], index: dict[str, int]) -> Check:
    share, chance, n = dead_seat_rate(items, [rows[index[it.item_id]] for it in items])
    if n < MIN_ITEMS:
        return Check("dead-seat", scope, "skip" if n == 0 else "pass", round(share, 4) if n else None, n,
                     f"{n} items have exactly one option naming a seat out or absent at the cut-off"
                     + (f"; it is the key in {share:.0%}" if n else "") + f" (at least {MIN_ITEMS} needed for a verdict)")
    verdict, p = rate_verdict(share, n, share * n)
    return Check("dead-seat", scope, verdict, round(share, 4), n,
                 f"in {n} items exactly one option names a seat out or absent at the cut-off; it is the key in {share:.1%} "
                 f"(chance {chance:.1%}, binomial p={p:.3g})")


CONTEXT_FLOOR = "context-attack"


def context_floor(asked: Sequence[tuple[GameLog, SpeechItem]], metric: str) -> dict[str, float | None]:
    """results.json's speech floor of the best context attack on a run's items (speech Scorer.truth_floors):
    every attack cross-fitted over the run's own items with games held out, the best one's accuracy in
    the block's metric (a macro accuracy averages the dimensions). Picking the best on the same items
    makes the floor a little generous: a floor errs towards saying a score is less than it looks."""
    from statistics import fmean

    items = [it for _, it in asked]
    if len(items) < 2:
        return {CONTEXT_FLOOR: None}
    attacks = context_attacks(items, {g.game_id: g for g, _ in asked})
    if metric == "macro_accuracy":
        dims = sorted({it.dimension for it in items})

        def macro(attack: str) -> float:
            hits = attacks.hits(items, attack)
            return fmean(fmean(h for h, it in zip(hits, items) if it.dimension == d) for d in dims)

        return {CONTEXT_FLOOR: round(max(macro(a) for a in attacks.probs), 4)}
    return {CONTEXT_FLOOR: round(attacks.best(items)[1], 4)}
