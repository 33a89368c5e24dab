"""The audit as text: one line per check, then the artifact n-grams per scope (within 80 columns)."""

from __future__ import annotations

import textwrap
from collections import Counter

from werealign.audit.report import AuditReport
from werealign.shortcuts.verdicts import VERDICTS

WIDTH = 80
SHOWN = 4  # n-grams per side in text; the JSON has them all


def render_text(report: AuditReport) -> str:
    lines = [f"audit of {report.dataset}: {report.items} speech items, verdict {report.verdict.upper()}"]
    for c in report.checks:
        ex = f" e.g. {', '.join(c.examples)}" if c.examples and c.verdict in ("warn", "fail") else ""
        head = f"{c.verdict.upper():4}  {c.scope:3}  {c.name:17}  n={c.n:<4} "
        lines += textwrap.wrap(head + c.detail + ex, WIDTH, subsequent_indent=" " * 10)
    counts = Counter(c.verdict for c in report.checks)
    lines.append(", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS))
    if any(report.artifacts.values()):
        lines.append("wording that separates keys (+) from distractors (-), by weight:")
    for scope, grams in report.artifacts.items():
        if not grams:
            continue
        for side, sign in (("key", "+"), ("distractor", "-")):
            shown = [f"{g['ngram']!r} {g['weight']:+.2f}" for g in grams if g["side"] == side][:SHOWN]
            if shown:
                lines += textwrap.wrap(f"  {scope:3} {sign} " + ", ".join(shown), WIDTH, subsequent_indent=" " * 8)
    scores = sorted(report.item_scores.values(), key=lambda s: s["artifact_score"])
    if scores:
        high = sum(s["artifact_score"] >= 0.5 for s in scores)
        lines += textwrap.wrap(f"artifact score (P options-only attack picks the key): median "
                               f"{scores[len(scores) // 2]['artifact_score']:.2f}; {high} items >= 0.5", WIDTH)
    return "\n".join(lines)
