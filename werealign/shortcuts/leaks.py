"""Items that tell more than the viewpoint knew at the cut-off.

- a stem that attaches a role, side or night action to a seat, when that is the seat's hidden truth
  and the viewpoint could not know it at the cut-off (werealign.shortcuts.knowledge says what it could:
  its own seat, wolf teammates, its own skills' results, public events, anything said at the table
  about that very seat). A role word elsewhere in the context does not excuse it;
- an option that labels a seat with its hidden true role ("witch seat 5", "女巫5号") on the same terms
  (an option that *claims* a role, "seat 5 is the witch", is an answer to weigh, not a leak);
- a stem that copies LEAK_NGRAM words of hidden text (turns after the cut-off, the recap, the
  annotator log) that appear nowhere in what the viewpoint saw;
- a cut-off after the decision asked about: the stem's last sentence asks about a night action or a vote the
  viewpoint already took in the cut-off's day, and its outcome (the target's death or elimination)
  is among the public events shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import re
from collections.abc import Sequence
from functools import lru_cache

from werealign.shortcuts.knowledge import attachments, known_at_cutoff, reveals_truth, action_pattern, skill_verb
from werealign.shortcuts.text import is_cjk, normalise, tokens
from werealign.game.visibility import Context, build_context
from werealign.render.lines import rules_for_prompt
from werealign.schema import GameLog, SpeechItem
from werealign.schema.roles import RoleCatalogue, catalogue_for

if TYPE_CHECKING:  # the type only: the dataset layer sits above the audit (it registers the tasks)
    from werealign.dataset import Dataset

LEAK_NGRAM = 8  # words a question may not share with hidden text; a CJK character counts as half a word
VOTE_WORDS = r"\bvot\w*|投票|投给|放逐|归票"


def leak_grams(text: str) -> set[tuple[str, ...]]:
    """Every shortest run of tokens worth LEAK_NGRAM words (a CJK character is worth half: a run of
    eight characters is a common phrase, not a quotation)."""
    toks = tokens(text)
    weights = [0.5 if is_cjk(t) else 1.0 for t in toks]
    grams, j, total = set(), 0, 0.0
    for i in range(len(toks)):
        while j < len(toks) and total < LEAK_NGRAM:
            total += weights[j]
            j += 1
        if total < LEAK_NGRAM:
            break
        grams.add(tuple(toks[i:j]))
        total -= weights[i]
    return grams


@lru_cache(maxsize=65536)
def text_grams(text: str) -> frozenset[tuple[str, ...]]:
    """leak_grams(text), computed once per text: the leak check and the exchange check (shortcuts/exchange.py) read
    the runs of the same turns and options (one cache, not two: 2 s of the release's audit was counting them twice)."""
    return frozenset(leak_grams(text))


def _show(gram: tuple[str, ...]) -> str:
    return "".join(gram) if all(map(is_cjk, gram)) else " ".join(gram)


# id(game) -> (the game, its turn_runs): the leak check and the future-option check (werealign.shortcuts.exchange) read
# the same index (each built its own: a pass over every run of every turn, twice per game)
_RUNS: dict[int, tuple[GameLog, dict[tuple[str, ...], list[tuple[int, int]]]]] = {}


def turn_runs(game: GameLog) -> dict[tuple[str, ...], list[tuple[int, int]]]:
    """Run (text_grams) -> (first segment, turn index) of each turn holding it, in turn order; one index per game
    object (a set of later runs per moment held gigabytes on the release)."""
    hit = _RUNS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    index: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for u in game.utterances:
        at = (min(u.segment_ids), u.index)
        for g in text_grams(u.text):
            index.setdefault(g, []).append(at)
    if len(_RUNS) >= 256:
        _RUNS.clear()
    _RUNS[id(game)] = (game, index)
    return index


class HiddenText:
    """Every LEAK_NGRAM-gram of the game's turns -> the latest first segment of a turn saying it (the recap and the
    annotator log count as never visible: inf); a gram is hidden text at cut-off c when its value > c. Read from
    turn_runs on demand (`get` only): a question's few runs are looked up, the game's every run is not gathered into a
    second index, and the future-option check reads the same runs."""

    def __init__(self, game: GameLog) -> None:
        self.runs = turn_runs(game)
        self.never = {g for text in (game.recap, game.annotator_log) for g in leak_grams(text or "")}

    def get(self, gram: tuple[str, ...], default: float | None = None) -> float | None:
        if gram in self.never:
            return float("inf")
        at = self.runs.get(gram)
        return default if at is None else max(first for first, _ in at)


def hidden_text_index(game: GameLog) -> HiddenText:
    """The game's hidden text, for stem_leaks (validate's and the audit's one index)."""
    return HiddenText(game)


def _unknowable(game: GameLog, ctx: Context, atts, known) -> list[str]:
    out = []
    for a in atts:
        if a.claim or a.seat == ctx.viewpoint_seat or (a.seat, "*") in known or (a.seat, a.what) in known or not reveals_truth(game, a):
            continue
        what = f"night action ({a.what.split(':', 1)[1]})" if a.what.startswith("action:") else f"hidden role ({a.what})"
        out.append(f"seat {a.seat}'s {what}")
    return sorted(set(out))


def decided_before_cutoff(game: GameLog, question: str, ctx: Context) -> list[str]:
    """The viewpoint's own actions, of a kind the question asks about, taken in the cut-off's day
    with their outcome (the target's death or elimination) already among the shown public events."""
    if ctx.viewpoint_seat is None or not ctx.phases:
        return []

    day = ctx.phases[-1].day
    day_of = {p.id: p.day for p in game.phases}
    own = [e for e in (*ctx.private_events, *ctx.public_events) if e.actor == ctx.viewpoint_seat and e.target is not None
           and day_of.get(e.phase) == day and e.kind in ("skill_use", "vote")]
    # The ask is the stem's last sentence ("Seat 6 was saved; whom do you trust?" asks about trust).
    ask = ([s for s in re.split(r"[.。!！?？;；]", normalise(question)) if s.strip()] or [""])[-1]
    out = []
    for ev in own:
        asks = re.search(VOTE_WORDS, ask, re.IGNORECASE) if ev.kind == "vote" else action_pattern(frozenset([skill_verb(ev.skill or "")])).search(ask)
        if not asks:
            continue
        outcome = [o for o in ctx.public_events if o.kind in ("elimination", "night_outcome") and o.target == ev.target
                   and (o.segment_id or -1) >= (ev.segment_id or -1)]
        if outcome:
            what = "vote" if ev.kind == "vote" else (ev.skill or "action")
            out.append(f"asks about the viewpoint's {what} on seat {ev.target} ({ev.phase}), whose outcome the cut-off already shows")
    return sorted(set(out))


def stem_leaks(game: GameLog, item: SpeechItem, hidden: HiddenText | None = None, *, stem: str | None = None,
               options: bool | None = None, ctx: Context | None = None) -> list[str]:
    """Reasons the item tells more than the viewpoint knew at the cut-off (empty: no leak found).

    `stem`: the text to check instead of `item.question` (validate checks the stem a prompt shows);
    `options`: also read the options for seats labelled with their hidden role (default: unless `stem`
    is given, since validate reads the options on its own); `ctx`: build_context of the item's viewpoint and cut-off,
    when the caller already built it.
    """
    question = item.question if stem is None else stem
    options = stem is None if options is None else options
    hidden = hidden_text_index(game) if hidden is None else hidden
    copied = {g for g in leak_grams(question) if hidden.get(g, -1) > item.cutoff_segment}
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment) if ctx is None else ctx
    reasons = _pins(game, item, question, ctx, options)
    reasons += decided_before_cutoff(game, question, ctx)
    # Per shown text, cached: the same turns are seen from many cut-offs (one pass over the whole
    # transcript per item made `werealign validate` of the release several times slower).
    for text in [rules_for_prompt(game), *(u.text for u in ctx.utterances), *(e.result or "" for e in ctx.public_events + ctx.private_events)]:
        if not copied:
            break
        copied -= text_grams(text)
    if copied:
        reasons.append(f"copies hidden text (after the cut-off, recap or annotator log): '{_show(min(copied))}'")
    return reasons


def _pins(game: GameLog, item: SpeechItem, question: str, ctx: Context, options: bool) -> list[str]:
    """The stem's roles and night actions, and the options' role labels, put on a seat whose truth they are and
    that the viewpoint neither knows nor heard said at the table by the cut-off."""
    stem_atts = attachments(question, game)
    option_atts = [a for o in item.options for a in attachments(_unmark_true_one(o.text, game), game)
                   if a.label and not a.what.startswith("action:")] if options else []
    if not stem_atts and not option_atts:
        return []
    known = known_at_cutoff(game, ctx)
    return ([f"names {w}, which the viewpoint cannot know at the cut-off" for w in _unknowable(game, ctx, stem_atts, known)]
            + [f"has an option labelling {w}, which the viewpoint cannot know at the cut-off" for w in _unknowable(game, ctx, option_atts, known)])


# A word for "the true one" before a role ("真预言家 5号", "5号真女巫", "the real seer, seat 5") still labels the seat
# with the role: it is dropped before the option is read, so the label reads as one. ("5号是真预言家" stays a claim.)
_TRUE_ONE = r"(?:真正的?|真|\b(?:the\s+)?(?:real|true|actual)\s+)"


@lru_cache(maxsize=256)
def _true_one_pattern(role_words: tuple[str, ...]) -> re.Pattern:
    return re.compile(_TRUE_ONE + "(?=" + "|".join(map(re.escape, role_words)) + ")", re.IGNORECASE)


def _unmark_true_one(text: str, game: GameLog) -> str:
    words = _role_words(catalogue_for(game.rules.declared_roles))
    return _true_one_pattern(words).sub("", text) if words else text


@lru_cache(maxsize=256)
def _role_words(catalogue: RoleCatalogue) -> tuple[str, ...]:
    # Once per catalogue: sorting its every name again for each option was most of the faithful split's time.
    return tuple(sorted({n for r in catalogue.roles.values() for names in r.names.values() for n in names if n} | {r.id.replace("_", " ") for r in catalogue.roles.values()},
                        key=lambda w: (-len(w), w)))


def hidden_role_flags(game: GameLog, item) -> list[str]:
    """Why the item's shown stem (question_short when it has one) or its options pin a seat's true role (or,
    in the stem, a night action on it) that the viewpoint neither knows nor heard said at the table before the
    cut-off: "守卫9号", "狼人3号", "真预言家 5号". Empty: clean. Items of other kinds (VA, OI: their stems are
    templates naming no role) are always clean. The faithful split leaves flagged items out."""
    if not isinstance(item, SpeechItem):
        return []
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
    return _pins(game, item, item.question_short or item.question, ctx, True)


def item_leaks(ds: Dataset, items: Sequence[SpeechItem], contexts: Sequence[Context | None] | None = None) -> dict[str, list[str] | None]:
    """Leak reasons per item id; None for an item whose game is not in the dataset. `contexts`: each item's
    build_context, when the caller already built them (the audit's context attacks read them too)."""
    indexes: dict[str, HiddenText] = {}
    out: dict[str, list[str] | None] = {}
    for n, it in enumerate(items):
        game = ds.games.get(it.game_id)
        if game is not None and it.game_id not in indexes:
            indexes[it.game_id] = hidden_text_index(game)
        ctx = contexts[n] if contexts is not None else None
        out[it.item_id] = None if game is None else stem_leaks(game, it, indexes[it.game_id], ctx=ctx)
    return out
