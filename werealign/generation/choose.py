"""Adversarial choice of distractor sets (werealign.generation.human): of the candidate items drawn per moment,
keep the one the learned ensemble (werealign.audit.ensemble) finds least predictable, and drop the moment when
even that one is answered.

The ensemble judging a moment is fitted on the candidates of the other folds' games only (games dealt to
FOLDS folds, seeded): it is never tuned on the items it judges. A candidate is "answered" when the members'
mean probability is highest at its key. A distractor's source turn serves at most `max_reuse` kept items
(a key's turn counts once): a candidate that would exceed it is passed over, in the moments' order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from werealign.audit.context import Shown
from werealign.audit.ensemble import cross_fitted, key_probability, option_stats, picks_key
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
           key_turns: Sequence[str] = ()) -> list[Chosen]:
    """`candidates[m]`: the candidate items of moment m (the same key, other distractors); `shown[m]`: what its
    prompt shows; `key_turns`: "game#turn" of every key (each has served once)."""
    flat = [(m, it) for m, group in enumerate(candidates) for it in group]
    items = [it for _, it in flat]
    stats = [option_stats(it, shown[m]) for m, it in flat]
    probs = cross_fitted(items, stats, folds=FOLDS, seed=seed)
    scored: list[list[tuple[float, bool, int]]] = [[] for _ in candidates]
    for n, (m, it) in enumerate(flat):
        scored[m].append((key_probability(it, probs[n]), picks_key(it, probs[n]), n))
    used = Counter(key_turns)
    out = []
    for m, group in enumerate(scored):
        if not group:
            out.append(Chosen(None, None, "no candidate distractor set"))
            continue
        fair = sorted((p, n) for p, hit, n in group if not hit)
        fits = [(p, n) for p, n in fair if max_reuse is None or all(used[s] < max_reuse for s in sources(items[n]))]
        if not fits:
            why = (f"the learned ensemble answers every candidate set ({len(group)}; lowest key probability {min(group)[0]:.2f})" if not fair
                   else "every unanswered candidate set reuses a turn too often")
            out.append(Chosen(None, round(min(group)[0], 4), why))
            continue
        p, n = fits[0]
        used.update(sources(items[n]))
        out.append(Chosen(items[n], round(p, 4), None))
    return out
