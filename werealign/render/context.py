"""The template variables of a seat's context (werealign/render/templates/*/context.*.j2): what the
context builder (werealign.game.visibility) decided to show, worded in the game's language. Shared by
evaluation prompts and the arena's players, so both see a game worded the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from werealign.render import lines
from werealign.render.phrases import terms
from werealign.render.phrases import role_name
from werealign.schema import GameLog
from werealign.schema.roles import catalogue_for

if TYPE_CHECKING:  # the type only: render sits below the context builder, which uses its wording
    from werealign.game import visibility


def context_vars(game: GameLog, ctx: visibility.Context, lang: str, *, game_shown: bool = True) -> dict[str, Any]:
    """`game_shown=False` is the no-context ablation: rules, own role and knowledge, no transcript or events."""
    phases = {p.id: p for p in game.phases}

    def plabel(pid: str) -> str:
        return lines.phase_label(phases.get(pid), lang) if pid in phases else pid

    transcript: list[dict[str, Any]] = []
    for u in ctx.utterances:
        label = plabel(u.phase)
        if not transcript or transcript[-1]["phase"] != label:
            transcript.append({"phase": label, "utterances": []})
        transcript[-1]["utterances"].append(
            {"speaker": lines.speaker_label(u.speaker, ctx.viewpoint_seat, lang), "text": u.text, "partial": u.partial}
        )
    # Observer items (no viewpoint seat) get the observer framing: no "you" seat, role or private knowledge.
    observer = ctx.viewpoint_seat is None
    words = terms(game, lang)
    return {
        "terms": words,  # the game family's words (werealign.render.phrases: families): Mafia prompts say "mafia", never "Werewolf"
        "ctx": ctx,
        "rules_text": lines.rules_for_prompt(game),  # the game's text plus rule lines it lacks, else the summary
        "observer": observer,
        "me": None if observer else lines.seat_label(ctx.viewpoint_seat, lang),
        "own_role": None if ctx.own_role is None else role_name(ctx.own_role, lang, catalogue_for(game.rules.declared_roles)),
        "own_faction": None if ctx.own_faction is None else lines.side(ctx.own_faction, lang, game),
        "players": lines.players_line(ctx.names, lang, ctx.aliases),
        "allies": lines.list_separator(lang).join(lines.seat_label(s, lang) for s in ctx.allies),
        "private_events": [{"phase": plabel(e.phase), "text": lines.event_line(e, ctx.viewpoint_seat, lang, words)} for e in ctx.private_events],
        "knowledge_missing": [{"phase": plabel(f.night), "text": lines.missing_fact_line(f.fact, lang)} for f in ctx.knowledge_missing],
        "public_events": [{"phase": plabel(e.phase), "text": lines.event_line(e, ctx.viewpoint_seat, lang, words)} for e in ctx.public_events],
        "transcript": transcript,
        "now": plabel(ctx.current_phase) if ctx.current_phase else lines.phase_label(None, lang),
        "left_out": len(ctx.left_out),
        "own_turns_withheld": ctx.own_turns_withheld,
        "withheld_scope": "all" if ctx.own_turns_withheld_from_day == 0 else "today",
        "game_shown": game_shown,
        "turns_cut": 0,  # the oldest turns left out to fit a context budget (werealign.eval.context_budget)
    }
