"""Is the key exchangeable with its distractors? Three checks that need no fitted model:

- `key-rank`: for every per-option statistic (werealign.shortcuts.ensemble.STATS: length, clauses, punctuation,
  seats and roles named, likeness to the transcript, to its last turns, to the viewpoint's own words and to
  the other options, ...) and for the length's distance from the item's median, the key's rank among the
  nine options. Under exchangeability each rank 1..9 is equally likely: a chi-square test against uniform
  per statistic (ties broken by a draw seeded with the item id, so a statistic the options share says
  nothing either way). The verdict reads the smallest p-value, Bonferroni-corrected over the statistics.
- `ensemble`: the learned ensemble (werealign.shortcuts.ensemble), cross-fitted with whole games held out; its
  accuracy with a 95% Wilson interval, and each member's.
- `future-option`: a distractor cut from the item's own game after the cut-off (its source turn, when the
  item says where it came from), or sharing a LEAK_NGRAM-word run with a turn of its game said after the
  cut-off other than the viewpoint's next one (the key's turn): later talk can carry later events (a death,
  an exile, a claim or a check not yet announced). Items of other games' text are read for the run only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from werealign.shortcuts.ensemble import STATS, picks_key
from werealign.shortcuts.leaks import text_grams, turn_runs
from werealign.shortcuts.verdicts import CHANCE, MIN_ITEMS, Check, rate_verdict, skip
from werealign.shortcuts.text import text_length
from werealign.schema import GameLog, SpeechItem

RANKED = (*STATS, "length-from-median")


def _ranked_values(item: SpeechItem, rows: list[list[float]]) -> dict[str, list[float]]:
    return ranked_values(rows)


def ranked_values(rows: list[list[float]]) -> dict[str, list[float]]:
    """Statistic of RANKED -> each option's value, from the options' STATS rows."""
    cols = {name: [r[c] for r in rows] for c, name in enumerate(STATS)}
    lengths = sorted(cols["length"])
    median = lengths[len(lengths) // 2]
    cols["length-from-median"] = [abs(x - median) for x in cols["length"]]
    return cols


def key_rank(item: SpeechItem, values: list[float]) -> int:
    """The key's rank (0 = lowest) among the item's options by `values`, ties broken by a seeded draw."""
    k = [o.key for o in item.options].index(item.answer)
    below = sum(v < values[k] for v in values)
    tied = sum(v == values[k] for v in values) - 1
    return below + random.Random(f"{item.item_id}:rank").randint(0, tied)


def rank_tests(items: Sequence[SpeechItem], stats: Sequence[list[list[float]]]) -> dict[str, tuple[float, list[int]]]:
    """Statistic -> (chi-square p-value of the key's ranks against uniform, the count per rank)."""
    from scipy.stats import chisquare

    out = {}
    cols = [_ranked_values(it, rows) for it, rows in zip(items, stats)]
    for name in RANKED:
        counts = [0] * 9
        for it, c in zip(items, cols):
            if len(it.options) == 9:
                counts[key_rank(it, c[name])] += 1
        out[name] = (float(chisquare(counts).pvalue) if sum(counts) else 1.0, counts)
    return out


def check_key_rank(items: Sequence[SpeechItem], scope: str, stats: Sequence[list[list[float]]]) -> Check:
    n = len(items)
    if n < MIN_ITEMS:
        return skip("key-rank", scope, n)
    tests = rank_tests(items, stats)
    m = len(tests)
    worst = min(tests, key=lambda s: tests[s][0])
    p = tests[worst][0]
    verdict = "fail" if p < 0.01 / m else "warn" if p < 0.05 / m else "pass"
    lengths = tests["length"]
    detail = (f"the key's rank among the options, chi-square against uniform per statistic ({m}, Bonferroni): lowest p={p:.3g} "
              f"({worst}); length p={lengths[0]:.3g} ranks {lengths[1]}; " + ", ".join(f"{s} {tests[s][0]:.2g}" for s in RANKED))
    return Check("key-rank", scope, verdict, round(p, 4), n, detail, [worst])


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_ensemble(items: Sequence[SpeechItem], scope: str, probs: Sequence[dict[str, list[float]]], held: str) -> Check:
    n = len(items)
    if n < MIN_ITEMS:
        return skip("ensemble", scope, n)
    hits = sum(picks_key(it, p) for it, p in zip(items, probs))
    acc = hits / n
    low, high = wilson(hits, n)
    verdict, pv = rate_verdict(acc, n, hits)
    members = sorted(probs[0]) if probs else []
    each = ", ".join(f"{m} {sum(picks_key(it, {m: p[m]}) for it, p in zip(items, probs)) / n:.1%}" for m in members)
    return Check("ensemble", scope, verdict, round(acc, 4), n,
                 f"learned ensemble ({held} held out) picks the key in {acc:.1%} [95% {low:.1%}-{high:.1%}] (chance {CHANCE:.1%}, "
                 f"binomial p={pv:.3g}); {each}")


def repeats_later(text: str, game: GameLog, cutoff: int, viewpoint: int | None) -> bool:
    """Whether `text` shares a LEAK_NGRAM-word run with a turn of `game` said after the cut-off, other than the
    viewpoint's next turn (the key's)."""
    grams = text_grams(text)
    if not grams:
        return False
    index = turn_runs(game)
    nxt = next((u.index for u in game.utterances if min(u.segment_ids) > cutoff and u.speaker == viewpoint), None)
    return any(first > cutoff and turn != nxt for g in grams for first, turn in index.get(g, ()))


def future_options(item: SpeechItem, game: GameLog | None) -> list[str] | None:
    """Why each distractor carries the future (empty: none does); None when the item's game is absent."""
    if game is None:
        return None
    ref = item.provenance.source_ref if item.provenance else {}
    by_index = {u.index: u for u in game.utterances}
    out = []
    for o in item.options:
        if o.key == item.answer:
            continue
        source = str(ref.get(f"option_{o.key}", ""))
        game_id, _, turn = source.partition("#")
        if game_id == item.game_id and turn.isdigit() and int(turn) in by_index and min(by_index[int(turn)].segment_ids) > item.cutoff_segment:
            out.append(f"option {o.key}: cut from turn {turn} of its own game, after the cut-off")
        elif text_length(o.text) and repeats_later(o.text, game, item.cutoff_segment, item.viewpoint_seat):
            out.append(f"option {o.key}: repeats a turn of its own game said after the cut-off")
    return out


def check_future(items: Sequence[SpeechItem], scope: str, future: dict[str, list[str] | None]) -> Check:
    checked = [it for it in items if future.get(it.item_id) is not None]
    if not checked:
        return Check("future-option", scope, "skip", None, 0, "no item's game is in the dataset")
    bad = [it.item_id for it in checked if future[it.item_id]]
    rate = len(bad) / len(checked)
    return Check("future-option", scope, "fail" if bad else "pass", round(rate, 4), len(checked),
                 f"{len(bad)} items have a distractor from their game after the cut-off (cut from a later turn, or repeating one)", bad[:5])
