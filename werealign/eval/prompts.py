"""Item + game -> chat messages: the checks an item must pass to be asked, the context the item's
viewpoint may see (from `werealign.game.visibility.build_context`, the one place that decides it) and the
template variables, worded by `werealign.render` and arranged by its templates
(`werealign/render/templates/`). This module only assembles them.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from typing import Any

from werealign.game import visibility
from werealign.errors import UserError
from werealign.render.context import context_vars as _context_vars
from werealign.render.prompt_templates import render_raw, render_template, template_language, tidy
from werealign.schema import GameLog, OpponentItem, OsrRewrite, SpeechItem, VoteItem
from werealign.solvers.base import Shown
from werealign.tasks import TASKS, VARIANTS, WITHOUT_GAME, resolve_mode, task_of, tasks_with_variant

Item = SpeechItem | VoteItem | OpponentItem


def render_messages(
    game: GameLog,
    item: Item,
    *,
    variant: str = "base",
    osr: list[OsrRewrite] | None = None,
    option_order: list[int] | None = None,
    mode: str | None = None,
) -> list[dict[str, str]]:
    """The chat messages for one item: [system, user]. Deterministic: same inputs, same strings.

    `mode`: one of the task's named modes (`Task.modes`, e.g. the VA view); None = the task's default."""
    return prepare(game, item, variant=variant, osr=osr, mode=mode).messages(option_order)


# The question's strings (its text, option keys and texts) as numbered slots (see Prepared._user), marked by a
# nonce drawn per process, so that no dataset text can hold a slot; the prompts themselves never contain it.
_NONCE = secrets.token_hex(8)
_SLOT = re.compile(f"\x00{_NONCE}:([0-9]+)\x00")


class Prepared:
    """One item asked in one variant and mode, with its context built and worded once: `messages(order)`
    renders it for any option order (the decodes of an item differ only there), byte-identical to
    rendering it from scratch."""

    def __init__(self, game: GameLog, item: Item, task, lang: str, kw: dict) -> None:
        # `task`: the item's task as asked in the chosen mode (Task.asked_in): its template, question and answer.
        self.game, self.item, self.task, self.lang, self.kw = game, item, task, lang, kw
        self.system = render_template(lang, "system", observer=kw["observer"], variant=kw["variant"], terms=kw["terms"])
        self._shape: Any = None  # the question variables with slots for strings, as last rendered
        self._pieces: list[str] = []  # that rendering split at the slots (odd entries: slot numbers)

    def messages(self, option_order: list[int] | None = None) -> list[dict[str, str]]:
        question = self._question_vars(option_order)
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self._user(self.task.template_name, question)},
        ]

    def shown(self, option_order: list[int] | None = None) -> Shown:
        """What the messages of `option_order` show, as data (werealign.solvers.base.Shown): what a built-in baseline
        answers from."""
        q = self._question_vars(option_order)
        ctx = self.kw["ctx"]
        by_seat: dict[int, list[str]] = {}
        own: list[str] = []
        if self.kw["game_shown"]:
            for u in ctx.utterances:
                if isinstance(u.speaker, int):
                    by_seat.setdefault(u.speaker, []).append(u.text)  # a turn cut at the cut-off: its shown part
                    if u.speaker == ctx.viewpoint_seat:
                        own.append(u.text)
        return Shown(
            lang=self.lang,
            options=tuple((o["key"], o["text"]) for o in q.get("options", ())),
            candidates=tuple(q.get("candidate_seats", ())), role_cards=tuple(q.get("role_card_names", ())),
            question="" if self.kw["variant"] == "options-only" else str(q.get("question", "")),
            speech_by_seat={seat: " ".join(texts) for seat, texts in by_seat.items()}, own_speech=tuple(own),
            seat_names=dict(ctx.seat_reader().names) if self.kw["game_shown"] else {},
        )

    @property
    def turns(self) -> int:
        """The transcript turns this prompt shows (0 when the variant shows no game)."""
        return len(self.kw["ctx"].utterances) if self.kw["game_shown"] else 0

    def with_turns_cut(self, n: int) -> Prepared:
        """The same question with the `n` oldest shown turns left out (a context budget), the prompt saying so.
        Rules, own role and private knowledge, events and the most recent turns stay."""
        ctx = self.kw["ctx"]
        cut = dataclasses.replace(ctx, utterances=ctx.utterances[n:])
        kw = {**self.kw, **_context_vars(self.game, cut, self.lang, game_shown=self.kw["game_shown"]), "turns_cut": n}
        return Prepared(self.game, self.item, self.task, self.lang, kw)

    def _question_vars(self, option_order: list[int] | None) -> dict:
        if option_order is not None and not self.task.permutes_options:
            with_options = ", ".join(t.name for t in TASKS.values() if t.permutes_options)
            raise UserError(f"item {self.item.item_id}: option_order only applies to {with_options} items")
        return self.task.question_vars(self.game, self.item, self.lang, option_order)

    def _user(self, template: str, question: dict[str, Any]) -> str:
        """The user prompt. Decodes of a permuting task differ only in where each option text goes, yet the
        game context around them is most of the rendering (and of eval's start-up): the template is rendered
        once with a numbered slot for every string of the question, and each order fills the slots in before
        tidying. Byte-identical to rendering the filled-in variables, because the templates only print these
        strings (`{{ o.text }}`), never test or filter them (tests/test_prompts.py checks every sample item)."""
        if not self.task.permutes_options:  # one rendering serves every decode (eval.plan): nothing to reuse
            return render_template(self.lang, template, self.task.templates, **{**self.kw, **question})
        strings: list[str] = []
        shape = _with_slots(question, strings)
        if shape != self._shape:
            self._shape = shape
            self._pieces = _SLOT.split(render_raw(self.lang, template, self.task.templates, **{**self.kw, **shape}))
        return tidy("".join(strings[int(piece)] if i % 2 else piece for i, piece in enumerate(self._pieces)))


def prepare(game: GameLog, item: Item, *, variant: str = "base", osr: list[OsrRewrite] | None = None,
            mode: str | None = None) -> Prepared:
    """Check the item against its game and variant, and build its context once (see Prepared)."""
    if variant not in VARIANTS:
        raise UserError(f"item {item.item_id}: unknown variant '{variant}' (choose from {', '.join(VARIANTS)})")
    if item.game_id != game.game_id:
        raise UserError(f"item {item.item_id}: game_id '{item.game_id}' does not match game '{game.game_id}'")
    task = task_of(item)
    mode = resolve_mode(task, mode)
    check_item_fits_game(game, item)
    if variant not in task.variants:
        raise UserError(
            f"item {item.item_id}: variant {variant} does not apply to {task.name} items "
            f"(it applies to {', '.join(tasks_with_variant(variant))} items only)"
        )
    rule_reminder = None
    if variant == "rr":
        if not item.rule_reminder:
            raise UserError(f"item {item.item_id}: rule_reminder is missing, needed by variant rr")
        rule_reminder = item.rule_reminder.strip()
    if variant == "osr" and not osr:
        raise UserError(f"item {item.item_id}: variant osr needs objective rewrites of game {game.game_id} (variants/osr/{game.game_id}.jsonl)")

    ctx = visibility.build_context(
        game,
        item.viewpoint_seat,
        item.cutoff_segment,
        osr=osr if variant == "osr" else None,
        **task.context_kwargs(game, item, mode),
    )
    lang = template_language(game.language)
    kw = _context_vars(game, ctx, lang, game_shown=variant not in WITHOUT_GAME)
    kw["rule_reminder"] = rule_reminder
    # The context ablations: the templates leave out the game's events and speech (no-context), or
    # everything but the options or candidates under a fixed instruction (options-only).
    kw["variant"] = variant
    return Prepared(game, item, task.asked_in(mode), lang, kw)  # a mode asking its own question has its own template


def _with_slots(value: Any, strings: list[str]) -> Any:
    """`value` with every string in it (through dicts, lists and tuples) replaced by a numbered slot, the
    strings appended to `strings`; anything else stays as it is (and is compared, in Prepared._user)."""
    if type(value) is str:
        strings.append(value)
        return f"\x00{_NONCE}:{len(strings) - 1}\x00"
    if type(value) is dict:
        return {k: _with_slots(v, strings) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_with_slots(v, strings) for v in value)
    return value


def check_item_fits_game(game: GameLog, item: Item) -> None:
    """The item's seat and cut-off must exist in its game: a cut-off past the last segment would show the
    whole game (the end-of-game reveals included), and a seat that is not in the game has no viewpoint."""
    if item.viewpoint_seat is not None and item.viewpoint_seat not in {s.seat for s in game.seats}:
        raise UserError(f"item {item.item_id}: viewpoint_seat {item.viewpoint_seat} is not a seat of game {game.game_id}")
    last = max((sid for u in game.utterances for sid in u.segment_ids), default=None)
    if last is None or item.cutoff_segment > last:
        raise UserError(
            f"item {item.item_id}: cutoff_segment {item.cutoff_segment} is after the last segment "
            f"({last}) of game {game.game_id}"
        )
