"""`audit_items`: every check over all items and per dimension, the artifact n-grams per scope, and
each item's artifact score and leaks."""

from __future__ import annotations

import copy
import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from werealign.shortcuts.attacks import check_options_only, cross_fitted_probs, key_probs, top1_hits
from werealign.shortcuts.checks import check_duplicates, check_explanations, check_key_extreme, check_key_position, duplicate_pairs, explanation_favours
from werealign.shortcuts.context import FEATURES, LEARNED, check_context, check_dead_seat, context_attacks, features, shown_at
from werealign.shortcuts.ensemble import cross_fitted as ensemble_cross_fitted
from werealign.shortcuts.ensemble import REFS, key_probability, option_stats, picks_key
from werealign.shortcuts.exchange import check_ensemble, check_future, check_key_rank, future_options
from werealign.audit.explain import separating_ngrams_by_scope
from werealign.shortcuts.leaks import item_leaks
from werealign.audit.report import AuditReport
from werealign.game.announcements import result_shown
from werealign.game.visibility import build_context
from werealign.schema import SpeechItem
from werealign.shortcuts.verdicts import Check
from werealign.schema.models import DIMENSIONS

if TYPE_CHECKING:  # the type only: the dataset layer sits above the audit (it registers the tasks)
    from werealign.dataset import Dataset


def check_leaks(items: Sequence[SpeechItem], scope: str, leaks: dict[str, list[str] | None]) -> Check:
    leaking = [it.item_id for it in items if leaks[it.item_id]]
    unchecked = sum(leaks[it.item_id] is None for it in items)
    n = len(items) - unchecked
    if n == 0:
        return Check("stem-leak", scope, "skip", None, 0, "no item's game is in the dataset")
    rate = len(leaking) / n
    verdict = "fail" if rate >= 0.05 else "warn" if leaking else "pass"
    note = f"; {unchecked} items without their game not checked" if unchecked else ""
    return Check("stem-leak", scope, verdict, round(rate, 4), n, f"{len(leaking)} items tell more than the viewpoint knew at the cut-off (stem, option labels, decision already shown){note}", leaking[:5])


def check_decision_results(ds: Dataset) -> Check | None:
    """Decision items (issue 42) whose prompt shows the decision's result (werealign.game.announcements); None: the
    dataset has no decision item."""
    asked = [it for items in ds.items.values() for it in items if getattr(it, "decision", None) is not None and it.game_id in ds.games]
    if not asked:
        return None
    told = [it.item_id for it in asked if result_shown(ds.games[it.game_id], it) is not None]
    verdict = "fail" if told else "pass"
    return Check("decision-result-shown", "decisions", verdict, round(len(told) / len(asked), 4), len(asked),
                 f"{len(told)} decision items whose shown text announces the result (the dawn, the new sheriff, the tally)", told[:5])


# The last reports made in this process, by the content they read (_memo_key): `werealign release` audits the dataset
# for its card after `werealign audit` did in the same session (the Python API, a test session), and a release audit
# costs tens of CPU seconds. Copies go in and out, so a caller that changes its report never changes another's.
_MEMO: OrderedDict[str, AuditReport] = OrderedDict()
_MEMO_SIZE = 4  # a release's report with its context attacks is about 0.5 MB


def _memo_key(ds: Dataset, items: Sequence[SpeechItem] | None, name: str | None) -> str | None:
    """sha256 of everything audit_items reads: the audited items in order, every kind's items when the dataset's own
    are audited (the decision check reads them), the games, the name. None (no memo) for an object it cannot dump."""
    h = hashlib.sha256(repr((name, ds.manifest.name if ds.manifest else None, items is None)).encode())
    rows: list[tuple[str, object]] = [("audited", it) for it in ds.speech] if items is None else [("audited", it) for it in items]
    if items is None:
        rows += [(kind, it) for kind, kind_items in ds.items.items() for it in kind_items]
    rows += list(ds.games.items())
    for label, obj in rows:
        dump = getattr(obj, "model_dump_json", None)
        if dump is None:
            return None
        h.update(f"{label}\0".encode() + dump().encode() + b"\0")
    return h.hexdigest()


def audit_items(ds: Dataset, items: Sequence[SpeechItem] | None = None, name: str | None = None) -> AuditReport:
    """Every check over all items and per dimension (dimensions the schema does not list are audited too); the same
    content audited again in this process is answered from _MEMO."""
    key = _memo_key(ds, items, name)
    if key is not None and key in _MEMO:
        _MEMO.move_to_end(key)
        return copy.deepcopy(_MEMO[key])
    report = _audit_items(ds, items, name)
    if key is not None:
        _MEMO[key] = copy.deepcopy(report)
        while len(_MEMO) > _MEMO_SIZE:
            _MEMO.popitem(last=False)
    return report


def _audit_items(ds: Dataset, items: Sequence[SpeechItem] | None, name: str | None) -> AuditReport:
    whole = items is None  # the dataset's own items: its decision items are audited too
    items = list(ds.speech if items is None else items)
    scopes: list[tuple[str, list[SpeechItem]]] = [("all", items)]
    present = sorted({it.dimension for it in items}, key=lambda d: (DIMENSIONS.index(d) if d in DIMENSIONS else len(DIMENSIONS), d))
    scopes += [(d, [it for it in items if it.dimension == d]) for d in present]
    pairs = {it.item_id: duplicate_pairs(it) for it in items}
    favours = {it.item_id: explanation_favours(it) for it in items}
    # what each item's prompt shows of its game, built once: the leak check, the context attacks and the statistics read it
    contexts = [build_context(ds.games[it.game_id], it.viewpoint_seat, it.cutoff_segment) if it.game_id in ds.games else None for it in items]
    shown = [shown_at(ds.games.get(it.game_id), it, ctx) for it, ctx in zip(items, contexts)]
    leaks = item_leaks(ds, items, contexts)
    # One cross-fitted attack over the whole dataset (every item scored by a model of other games):
    # the options-only check per scope and each item's artifact score read the same fits.
    probs = cross_fitted_probs(items, "words")
    hits = dict(zip((it.item_id for it in items), top1_hits(items, probs)))
    # The context attacks read each item's game as its prompt shows it (items without their game read nothing).
    rows = features(items, ds.games, shown)
    context = context_attacks(items, ds.games, rows=rows)
    index = {it.item_id: i for i, it in enumerate(items)}
    # per-option statistics: the key's rank on each (exchangeability) and the learned ensemble, games held out
    # (the cosines with the transcript, last turns and own words are the context features' own: read from `rows`)
    cols = [FEATURES.index(name) for name in REFS]
    stats = [option_stats(it, shown[i], {name: [r[c] for r in rows[i]] for name, c in zip(REFS, cols)})
             for i, it in enumerate(items)]
    ensemble = ensemble_cross_fitted(items, stats) if items else []
    future = {it.item_id: future_options(it, ds.games.get(it.game_id)) for it in items}
    checks: list[Check] = []
    for scope, group in scopes:
        checks += [
            check_key_position(group, scope),
            check_key_extreme(group, scope, "longest"),
            check_key_extreme(group, scope, "shortest"),
            check_options_only(group, scope, hits),
            check_duplicates(group, scope, pairs),
            check_explanations(group, scope, favours),
            check_context(group, scope, context, index),
            check_dead_seat(group, scope, rows, index),
            check_key_rank(group, scope, [stats[index[it.item_id]] for it in group]),
            check_ensemble(group, scope, [ensemble[index[it.item_id]] for it in group], context.held_out),
            check_future(group, scope, future),
            check_leaks(group, scope, leaks),
        ]
    decisions = check_decision_results(ds) if whole else None
    checks += [decisions] if decisions is not None else []
    best = context.best(items)[0] if items else LEARNED  # the strongest attack over all items: each item's context_best_score
    scores = {it.item_id: {"artifact_score": round(p, 4), "context_score": round(c, 4),
                           "context_best_score": round(b, 4), "ensemble_score": round(key_probability(it, e), 4), "ensemble_hit": picks_key(it, e),
                           "leaks": leaks[it.item_id] or [], "future": future[it.item_id] or []}
              for it, p, c, b, e in zip(items, key_probs(items, probs), key_probs(items, context.probs[LEARNED]),
                                        key_probs(items, context.probs[best]), ensemble)}
    artifacts = separating_ngrams_by_scope(scopes)
    return AuditReport(dataset=name or (ds.manifest.name if ds.manifest else ""), items=len(items), checks=checks, artifacts=artifacts, item_scores=scores,
                       context=context)
