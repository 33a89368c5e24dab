"""The dataset card's section on decision items (issue 31): what they ask, who is asked, and their floors."""

from __future__ import annotations

from statistics import fmean

from pydantic import BaseModel

from werealign.render.phrases import night_killers
from werealign.schema.decisions import ALL_DECISION_MODELS, MVP_MARK, DecisionItem


def decision_lines(configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], words: list[dict[str, str]]) -> list[str]:
    """Markdown lines (none when the release has no decision config); `words`: the English words of the games' families."""
    rows = [(name, items) for name, (_, items) in configs.items() if name in ALL_DECISION_MODELS and items]
    if not rows:
        return []
    table = ["| kind | items | MVP's | 'none' is the key | chance (random legal move) |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, items in rows:
        ds: list[DecisionItem] = items  # type: ignore[assignment]
        chance = fmean(1 / (len(i.candidates) + i.none_allowed) for i in ds)
        table.append(f"| `{name}` | {len(ds)} | {sum(i.item_id.endswith(MVP_MARK) for i in ds)} | "
                     f"{sum(i.answer is None for i in ds)} | {chance * 100:.1f}% |")
    return [
        "## Decision items", "",
        "What a player did at a decision the rules define: a night move (the seer's check, the guard's protection, the "
        f"witch's save and poison, the kill by {night_killers(words)} asked of one of them), a day or sheriff ballot, running for sheriff or not "
        "(every living seat at the call for candidates), the badge, and claiming a role or not at a turn, and which (`claim`: "
        "the answer is a role of the board or none). Derived from the "
        "game logs by `werealign derive` with no LLM: the candidates are the legal moves at that moment under the board's "
        "rules (`rules.moves`; living seats, the guard's no-repeat rule, the witch's self-save rule), plus \"none\" where "
        "not acting is legal; the key is the move made. The prompt is the player's view at the decision: its own night "
        "results up to then, nothing after. By default the players of the winning side are asked (`--deciders`); the "
        "MVP's decisions are scored as their own slice (`mvp_accuracy`).", "",
        *table, "",
        "Floors, in every results.json beside the score: chance (a random legal move), `most-accused` (the legal seat "
        "with the most public ballots so far), `last-named` (the legal seat the player named last), `consensus` (the "
        "legal seat the others named most that day), `same-as-last` (the player's own previous move of that kind), on "
        "the yes/no kinds (the witch's save, running for sheriff) `always` and `never`; on `claim`, `never`, "
        "`majority-so-far` (the move most turns of the game made so far) and `last-claimed` (the role claimed last); and "
        "the built-in `own-last-call` and `lexical` baselines; `best` names the highest. Run the `no-context` variant "
        "for the context gain.", "",
        *_silent(rows),
    ]


def _silent(rows: list[tuple[str, list]]) -> list[str]:
    """The kinds whose most common key is so common that they cannot tell models apart (issue 45): no headline takes them."""
    from werealign.tasks.common import NON_DISCRIMINATING, majority_share

    shares = {name: majority_share([i.answer for i in items]) or 0.0 for name, items in rows}
    silent = [f"`{name}` ({share * 100:.1f}%)" for name, share in shares.items() if share >= NON_DISCRIMINATING]
    if not silent:
        return []
    return [f"Cannot discriminate (the most common key is {NON_DISCRIMINATING:.0%} of its items or more): {', '.join(silent)}; "
            "leaderboards leave these kinds out of every headline and mean.", ""]
