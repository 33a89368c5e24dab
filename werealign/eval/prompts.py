"""Versioned prompt templates: item + game -> chat messages.

The templates live in `werealign/eval/templates/<lang>/<name>.<version>.j2` (inside the package so
they ship in the wheel). All game content comes from `werealign.context.build_context`, the one
place that decides what a model may see; this module only arranges it.

Bump PROMPT_VERSION (and add new `*.v2.j2` files) whenever the wording changes meaningfully;
`templates_hash()` goes into run.json so any change, even an unversioned one, is visible.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from werealign import context as ctxmod
from werealign.errors import UserError
from werealign.schema import GameLog, OpponentItem, OsrRewrite, SpeechItem, VoteItem
from werealign.schema.roles import catalogue_for
from werealign.tasks import TASKS, VARIANTS, resolve_mode, task_of, tasks_with_variant

if TYPE_CHECKING:
    import jinja2

PROMPT_VERSION = "v1"

Item = SpeechItem | VoteItem | OpponentItem



def _templates_root():
    return resources.files("werealign.eval") / "templates"


def templates_hash() -> str:
    """sha256 over every template file (relative name + bytes) and the builder's phrase tables."""
    h = hashlib.sha256()
    root = _templates_root()
    files: list[tuple[str, bytes]] = []
    for lang_dir in sorted(root.iterdir(), key=lambda p: p.name):
        if not lang_dir.is_dir():
            continue
        for f in sorted(lang_dir.iterdir(), key=lambda p: p.name):
            if f.name.endswith(".j2"):
                files.append((f"{lang_dir.name}/{f.name}", f.read_bytes()))
    for name, data in files:
        h.update(name.encode() + b"\0" + data + b"\0")
    # Sentences the context builder renders (event lines, role names, rules summary) shape prompts too.
    h.update(b"context.PHRASES\0" + json.dumps(ctxmod.PHRASES, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_templates_root())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def _render(lang: str, name: str, **kw: Any) -> str:
    text = _env().get_template(f"{lang}/{name}.{PROMPT_VERSION}.j2").render(**kw)
    # Collapse runs of blank lines left by optional sections; prompts stay byte-stable.
    lines = [ln.rstrip() for ln in text.strip().splitlines()]
    out: list[str] = []
    for ln in lines:
        if ln == "" and out and out[-1] == "":
            continue
        out.append(ln)
    return "\n".join(out)


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
    if variant not in VARIANTS:
        raise UserError(f"item {item.item_id}: unknown variant '{variant}' (choose from {', '.join(VARIANTS)})")
    if item.game_id != game.game_id:
        raise UserError(f"item {item.item_id}: game_id '{item.game_id}' does not match game '{game.game_id}'")
    task = task_of(item)
    mode = resolve_mode(task, mode)
    check_item_fits_game(game, item)
    if option_order is not None and not task.permutes_options:
        with_options = ", ".join(t.name for t in TASKS.values() if t.permutes_options)
        raise UserError(f"item {item.item_id}: option_order only applies to {with_options} items")
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

    ctx = ctxmod.build_context(
        game,
        item.viewpoint_seat,
        item.cutoff_segment,
        osr=osr if variant == "osr" else None,
        **task.context_kwargs(game, item, mode),
    )
    lang = template_language(game.language)
    kw = _context_vars(game, ctx, lang)
    kw["rule_reminder"] = rule_reminder
    ask = task.asks.get(mode or "")  # a mode asking its own question has its own template
    kw.update(ask.question_vars(game, item, lang) if ask else task.question_vars(game, item, lang, option_order))
    return [
        {"role": "system", "content": _render(lang, "system", observer=kw["observer"])},
        {"role": "user", "content": _render(lang, ask.template if ask else task.name, **kw)},
    ]


FALLBACK_LANGUAGE = "en"


def template_language(language: str) -> str:
    """The template set a game of this language is asked in: its own when the package has one, else English."""
    return language if language in template_languages() else FALLBACK_LANGUAGE


@lru_cache(maxsize=1)
def template_languages() -> frozenset[str]:
    return frozenset(d.name for d in _templates_root().iterdir() if d.is_dir() and (d / f"vote.{PROMPT_VERSION}.j2").is_file())


def fallback_notices(languages: Iterable[str]) -> list[str]:
    """One line per language that has no template set, so a run says its prompts are in English instead of doing it silently."""
    return [f"language '{lang}': no prompt templates in that language; its items are asked with the English templates"
            for lang in sorted(set(languages)) if template_language(lang) != lang]


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


def _context_vars(game: GameLog, ctx: ctxmod.Context, lang: str) -> dict[str, Any]:
    phases = {p.id: p for p in game.phases}

    def plabel(pid: str) -> str:
        return ctxmod.phase_label(phases.get(pid), lang) if pid in phases else pid

    transcript: list[dict[str, Any]] = []
    for u in ctx.utterances:
        label = plabel(u.phase)
        if not transcript or transcript[-1]["phase"] != label:
            transcript.append({"phase": label, "utterances": []})
        transcript[-1]["utterances"].append(
            {"speaker": ctxmod.speaker_label(u.speaker, ctx.viewpoint_seat, lang), "text": u.text, "partial": u.partial}
        )
    sep = "、" if lang == "zh" else ", "
    # Observer items (no viewpoint seat) get the observer framing: no "you" seat, role or private knowledge.
    observer = ctx.viewpoint_seat is None
    return {
        "ctx": ctx,
        "observer": observer,
        "me": None if observer else ctxmod.seat_label(ctx.viewpoint_seat, lang),
        "own_role": None if ctx.own_role is None else ctxmod.role_name(ctx.own_role, lang, catalogue_for(game.rules.declared_roles)),
        "own_faction": None if ctx.own_faction is None else ctxmod.faction_name(ctx.own_faction, lang),
        "players": ctxmod.players_line(ctx.names, lang),
        "allies": sep.join(ctxmod.seat_label(s, lang) for s in ctx.allies),
        "private_events": [{"phase": plabel(e.phase), "text": ctxmod.event_line(e, ctx.viewpoint_seat, lang)} for e in ctx.private_events],
        "public_events": [{"phase": plabel(e.phase), "text": ctxmod.event_line(e, ctx.viewpoint_seat, lang)} for e in ctx.public_events],
        "transcript": transcript,
        "now": plabel(ctx.current_phase) if ctx.current_phase else ctxmod.phase_label(None, lang),
        "left_out": len(ctx.left_out),
        "own_turns_withheld": ctx.own_turns_withheld,
        "withheld_scope": "all" if ctx.own_turns_withheld_from_day == 0 else "today",
    }
