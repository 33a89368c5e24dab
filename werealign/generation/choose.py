"""Adversarial choice of distractor sets (werealign.generation.human): of the candidate items drawn per moment,
keep the one the learned ensemble (werealign.shortcuts.ensemble) finds least predictable, and drop the moment when
even that one is answered.

The ensemble judging a moment is fitted on the candidates of the other folds' games only (games dealt to
FOLDS folds, seeded): it is never tuned on the items it judges. A candidate is "answered" when the members'
mean probability is highest at its key. A distractor's source turn serves at most `max_reuse` kept items
(a key's turn counts once): a candidate that would exceed it is passed over, in the moments' order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from werealign.shortcuts.context import Shown
from werealign.shortcuts.ensemble import fold_models, key_probability, option_stats, picks_key
from werealign.shortcuts.verdicts import CHANCE
from werealign.schema import SpeechItem

FOLDS = 5


@dataclass
class Chosen:
    item: SpeechItem | None
    predictability: float | None  # the kept candidate's, or the lowest when none is kept
    why: str | None  # when no candidate is kept


def sources(item: SpeechItem) -> list[str]:
    ref = item.provenance.source_ref if item.provenance else {}
    return [str(v) for k, v in sorted(ref.items()) if k.startswith("option_")]


def choose(candidates: Sequence[Sequence[SpeechItem]], shown: Sequence[Shown], *, seed: int = 0, max_reuse: int | None = None,
           key_turns: Sequence[str] = (), redraw: Callable[[int, Counter], list[SpeechItem]] | None = None) -> list[Chosen]:
    """`candidates[m]`: the candidate items of moment m (the same key, other distractors); `shown[m]`: what its
    prompt shows; `key_turns`: "game#turn" of every key (each has served once); `redraw(m, used)`: more
    candidates for moment m drawn from turns `used` fewer than max_reuse times (when every candidate would
    reuse a turn too often), judged by the same fold's ensemble."""
    flat = [(m, it) for m, group in enumerate(candidates) for it in group]
    items = [it for _, it in flat]
    stats = [option_stats(it, shown[m]) for m, it in flat]
    game_fold, models = fold_models(items, stats, folds=FOLDS, seed=seed)

    def judge(m: int, group: Sequence[SpeechItem], group_stats: Sequence[list[list[float]]]) -> list[tuple[float, bool, SpeechItem]]:
        model = models.get(game_fold.get(group[0].game_id, -1)) if group else None
        if model is None:  # one game only: nothing to fit on but itself, so nothing judges
            return [(CHANCE, False, it) for it in group]
        probs = model.probs(group, group_stats)
        rows = [{k: v[n] for k, v in probs.items()} for n in range(len(group))]
        return [(key_probability(it, r), picks_key(it, r), it) for it, r in zip(group, rows)]

    at = 0
    scored = []
    for group in candidates:
        scored.append(judge(len(scored), group, stats[at:at + len(group)]))
        at += len(group)
    used = Counter(key_turns)
    out = []
    for m, group in enumerate(scored):
        if not group:
            out.append(Chosen(None, None, "no candidate distractor set"))
            continue
        fits = _fits(group, used, max_reuse)
        if not fits and redraw is not None and any(not hit for _, hit, _ in group):
            more = redraw(m, used)
            group = group + judge(m, more, [option_stats(it, shown[m]) for it in more])
            fits = _fits(group, used, max_reuse)
        if not fits:
            lowest = min(p for p, _, _ in group)
            reusing = [p for p, hit, it in group if not hit and max_reuse is not None and not _within(it, used, max_reuse)]
            why = (f"every candidate set ({len(group)}) is answered by the learned ensemble (lowest key probability {lowest:.2f})"
                   if not reusing else f"of {len(group)} candidate sets, {len(group) - len(reusing)} are answered by the learned ensemble "
                   f"and {len(reusing)} would reuse a turn more than {max_reuse} times")
            out.append(Chosen(None, round(lowest, 4), why))
            continue
        p, item = fits[0]
        used.update(sources(item))
        out.append(Chosen(item, round(p, 4), None))
    return out


def _fits(group: list[tuple[float, bool, SpeechItem]], used: Counter, max_reuse: int | None) -> list[tuple[float, SpeechItem]]:
    """The unanswered candidates that keep every source turn within max_reuse, least predictable first."""
    ok = [(p, n, it) for n, (p, hit, it) in enumerate(group) if not hit and (max_reuse is None or _within(it, used, max_reuse))]
    return [(p, it) for p, _, it in sorted(ok, key=lambda t: (t[0], t[1]))]


def _within(item: SpeechItem, used: Counter, max_reuse: int) -> bool:
    """Every source turn stays within max_reuse uses with this item (two spans of one turn count twice)."""
    return all(used[s] + n <= max_reuse for s, n in Counter(sources(item)).items())
