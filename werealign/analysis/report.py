"""`analyze` output: JSON (every number, each group's unmeasured metrics with reasons) and an
80-column text table with the groups side by side; with human and arena groups together, each
arena group's distance to the (first) human group per metric."""

from __future__ import annotations

from typing import Any

LABEL_WIDTH = 24
COL_WIDTH = 13
PER_TABLE = 4  # groups per text table: 24 + 4 x 13 = 76 columns

# (row label, path into a group's metrics, kind): kind "rate" has a value, k, n and ci95.
ROWS: list[tuple[str, tuple[str, ...], str]] = [
    ("games", ("games",), "n"),
    ("good side win rate", ("win_rate", "good"), "rate"),
    ("wolf side win rate", ("win_rate", "wolf"), "rate"),
    ("days per game", ("days",), "x"),
    ("seer reveals / game", ("seer", "reveals_per_game"), "x"),
    ("seer first reveal day", ("seer", "first_reveal_day"), "x"),
    ("seer unmasked wolf", ("seer", "unmasked_wolf"), "rate"),
    ("seer believed", ("seer", "believed"), "rate"),
    ("seer backfired", ("seer", "backfired"), "rate"),
    ("vote consensus", ("votes", "consensus"), "x"),
    ("ballot entropy (bits)", ("votes", "entropy"), "x"),
    ("vote changes", ("votes", "vote_change"), "rate"),
    ("exiled was a wolf", ("votes", "exiled_was_wolf"), "rate"),
    ("turns / player / day", ("participation", "turns_per_player_day"), "x"),
    ("chars / player / day", ("participation", "chars_per_player_day"), "x"),
    ("top talker's share/day", ("participation", "top_talker_share"), "x"),
    ("mean bid (0-4)", ("participation", "mean_bid"), "x"),
    ("  when named", ("participation", "mean_bid_named"), "x"),
    ("  when not named", ("participation", "mean_bid_not_named"), "x"),
    ("  named, bid 4", ("participation", "named_bid_4"), "rate"),
    ("unreadable moves", ("unreadable_moves",), "rate"),
    ("flagged games", ("flagged_games",), "n"),
]


def value_at(metrics: dict[str, Any], path: tuple[str, ...]) -> Any:
    v: Any = metrics
    for p in path:
        v = v.get(p) if isinstance(v, dict) else None
    return v


def scalar(metrics: dict[str, Any], path: tuple[str, ...]) -> float | None:
    v = value_at(metrics, path)
    return v.get("value") if isinstance(v, dict) else v


def distances(results: list[dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Arena group -> metric -> (arena - human reference), the reference being the first human group."""
    ref = next((r for r in results if r["kind"] == "human"), None)
    if ref is None:
        return {}
    out = {}
    for r in results:
        if r["kind"] != "arena":
            continue
        row = {}
        for _label, path, _kind in ROWS[1:]:
            a, b = scalar(r["metrics"], path), scalar(ref["metrics"], path)
            row[".".join(path)] = None if a is None or b is None else round(a - b, 3)
        out[r["label"]] = row
    return out


def _cell(v: Any, kind: str) -> str:
    if kind == "rate":
        if not isinstance(v, dict) or v.get("value") is None:
            return "-"
        return f"{v['value']:.2f} ({v['n']})"
    if v is None:
        return "-"
    return str(v) if kind == "n" else f"{v:.2f}" if abs(v) < 100 else f"{v:.0f}"


def _short(text: str, width: int) -> str:
    """A line of at most `width` columns; a longer one wraps onto indented lines, never cut."""
    import textwrap

    return text if len(text) <= width else textwrap.fill(text, width, subsequent_indent="    ", break_long_words=True,
                                                         break_on_hyphens=False)


def text_report(results: list[dict[str, Any]]) -> str:
    lines: list[str] = []
    dist = distances(results)
    ref = next((r["label"] for r in results if r["kind"] == "human"), None)
    for start in range(0, len(results), PER_TABLE):
        chunk = results[start : start + PER_TABLE]
        # A label too long for its column is shown as [n] and spelled out above the table.
        heads = [r["label"] if len(r["label"]) < COL_WIDTH else f"[{start + i + 1}]" for i, r in enumerate(chunk)]
        lines += [_short(f"[{start + i + 1}] {r['label']}", 80) for i, r in enumerate(chunk) if heads[i] != r["label"]]
        head = "metric".ljust(LABEL_WIDTH) + "".join(h.rjust(COL_WIDTH) for h in heads)
        lines += [head, "-" * len(head)]
        for label, path, kind in ROWS:
            lines.append(label.ljust(LABEL_WIDTH) + "".join(_cell(value_at(r["metrics"], path), kind).rjust(COL_WIDTH) for r in chunk))
            if dist and kind != "n" and any(r["label"] in dist for r in chunk):
                cells = []
                for r in chunk:
                    d = dist.get(r["label"], {}).get(".".join(path))
                    cells.append(("" if r["label"] not in dist else "-" if d is None else f"{d:+.2f}").rjust(COL_WIDTH))
                lines.append(f"  vs {_short(ref, LABEL_WIDTH - 6)}".ljust(LABEL_WIDTH) + "".join(cells))
        lines.append("")
    languages = sorted({lang for r in results for lang in r["metrics"].get("languages", [])})
    if len(languages) > 1:
        lines.append(_short(f"characters are not comparable across languages ({', '.join(languages)}): "
                            "compare turns and the top talker's share", 80))
    flagged = [r["label"] for r in results if r["metrics"].get("flagged_games")]
    if flagged:
        lines.append(_short(f"flagged: {', '.join(flagged)}: games where over 20% of the moves fell back "
                            "to random measure the fallback", 80))
    lines.append("rates: value (n); 95% intervals in --format json. '-': not measured:")
    for r in results:
        for m in r["metrics"]["not_measured"]:
            lines.append(_short(f"  {r['label']}, {m['games']} games: {m['why']}", 80))
    for r in results:
        est = r["metrics"]["estimation_accuracy_by_day"]
        if est:
            lines.append(f"side guesses right by day, {_short(r['label'], 40)}:")
            days = [f"day {d} {v:.2f}" for d, v in est.items()]
            lines += ["  " + ", ".join(days[i : i + 6]) for i in range(0, len(days), 6)]
        for day, by_turn in (r["metrics"].get("voting_entropy_by_turn") or {}).items():
            lines.append(_short(f"voting entropy (bits) by debate turn, day {day}, {r['label']}:", 80))
            cells = [f"{v:.2f}" for v in by_turn.values() if v is not None]
            lines += ["  " + " ".join(cells[i : i + 12]) for i in range(0, len(cells), 12)]
        for side, by_day in (r["metrics"].get("est_by_day") or {}).items():
            if by_day:
                lines.append(_short(f"Est (SA) of its {side} seats by day, {r['label']}:", 80))
                days = [f"day {d} {v:.2f}" for d, v in by_day.items() if v is not None]
                lines += ["  " + ", ".join(days[i : i + 6]) for i in range(0, len(days), 6)]
    return "\n".join(lines).rstrip() + "\n"


def json_report(results: list[dict[str, Any]], per_game: list[dict[str, Any]]) -> dict[str, Any]:
    return {"groups": results, "distance_to_human": distances(results), "games": per_game}
