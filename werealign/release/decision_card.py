"""The dataset card's section on decision items (issue 31): what they ask, who is asked, and their floors."""

from __future__ import annotations

from statistics import fmean

from pydantic import BaseModel

from werealign.schema.decisions import ALL_DECISION_MODELS, MVP_MARK, DecisionItem


def decision_lines(configs: dict[str, tuple[type[BaseModel], list[BaseModel]]], words: list[dict[str, str]]) -> list[str]:
    """Markdown lines (none when the release has no decision config); `words`: the English words of the games' families."""
    from werealign.tasks import TASKS
    from werealign.tasks.decision_floors import is_yes_no  # the floors' own test of a yes/no item (always, never)
    rows = [(name, items) for name, (_, items) in configs.items() if name in ALL_DECISION_MODELS and items]
    if not rows:
        return []
    mvp = sum(i.item_id.endswith(MVP_MARK) for _, items in rows for i in items)
    # The MVP column only where some item is an MVP's (a release of games without an MVP has none to count).
    mvp_head = " MVP's |" if mvp else ""
    table = [f"| kind | items |{mvp_head} 'none' is the key | chance (random legal move) |",
             f"| --- | ---: |{' ---: |' if mvp else ''} ---: | ---: |"]
    for name, items in rows:
        ds: list[DecisionItem] = items  # type: ignore[assignment]
        chance = fmean(1 / (len(i.candidates) + i.none_allowed) for i in ds)
        mine = f" {sum(i.item_id.endswith(MVP_MARK) for i in ds)} |" if mvp else ""
        table.append(f"| `{name}` | {len(ds)} |{mine} {sum(i.answer is None for i in ds)} | {chance * 100:.1f}% |")
    kinds = [name for name, _ in rows]
    yes_no = [f"`{k}`" for k, items in rows if any(is_yes_no(i) for i in items)]
    roles = [f"`{k}`" for k in kinds if TASKS[k].answer_shape == "option"]  # a role, not a seat, is the answer
    return [
        "## Decision items", "",
        "What a player did at a decision the rules define, one kind per config: "
        + "; ".join(f"`{k}`: {_kind_text(k, words)}" for k in kinds) + ". Derived from the "
        "game logs by `werealign derive` with no LLM: the candidates are the legal moves at that moment under the board's "
        "rules (`rules.moves`: living seats and the board's limits on each move), plus \"none\" where "
        "not acting is legal; the key is the move made. The prompt is the player's view at the decision: its own night "
        "results up to then, nothing after. By default the players of the winning side are asked (`--deciders`)"
        + (f"; the MVP's decisions ({mvp} items) are scored as their own slice (`mvp_accuracy`)." if mvp else
           "; no item is asked of an MVP, so there is no MVP slice."), "",
        *table, "",
        "Floors, in every results.json beside the score: chance (a random legal move), `most-accused` (the legal seat "
        "with the most public ballots so far), `last-named` (the legal seat the player named last), `consensus` (the "
        "legal seat the others named most that day), `same-as-last` (the player's own previous move of that kind)"
        + (f", on the yes/no kinds ({', '.join(yes_no)}) `always` and `never`" if yes_no else "")
        + (f"; on the role kinds ({', '.join(roles)}), `never`, `majority-so-far` (the move most turns of the game made so far) "
           "and `last-claimed` (the role claimed last)" if roles else "")
        + "; and the built-in `own-last-call` and `lexical` baselines; `best` names the highest. Run the `no-context` variant "
        "for the context gain.", "",
        *_silent(rows),
    ]


def _kind_text(kind: str, words: list[dict[str, str]]) -> str:
    """A decision kind's one line in the families' words (the seat kinds), else its task's own description (`claim`)."""
    from werealign.tasks import TASKS
    from werealign.tasks.decisions import DESCRIPTIONS, describe

    text = describe(kind, words) if kind in DESCRIPTIONS else TASKS[kind].description
    return text.removeprefix("decision: ")


def _silent(rows: list[tuple[str, list]]) -> list[str]:
    """The kinds whose most common key is so common that they cannot tell models apart (issue 45): no headline takes them."""
    from werealign.tasks.common import NON_DISCRIMINATING, majority_share

    shares = {name: majority_share([i.answer for i in items]) or 0.0 for name, items in rows}
    silent = [f"`{name}` ({share * 100:.1f}%)" for name, share in shares.items() if share >= NON_DISCRIMINATING]
    if not silent:
        return []
    return [f"Cannot discriminate (the most common key is {NON_DISCRIMINATING:.0%} of its items or more): {', '.join(silent)}; "
            "leaderboards leave these kinds out of every headline and mean.", ""]
