"""The context builder: the ONE place that decides what a model sees (DESIGN.md invariant 1).

`build_context(game, seat, cutoff)` returns a `Context` holding only what the player in `seat`
legitimately knows at the inclusive cut-off segment `cutoff` (with `seat=None`, an *observer*: only
what every player at the table knows — no own role, no teammates, no private event, no "you"):

- the rules: the rulebook text, or (when the source has none) a summary generated from the
  role composition, win condition and sheriff flag — all public knowledge at the table;
- the viewpoint player's OWN role and faction, and what that role knows: a wolf-side player
  knows which other seats are wolf-side (not their exact wolf role); nobody else learns any
  other seat's role;
- events the viewpoint perceived but not everyone did (see Audiences below: their own skill
  uses, e.g. the seer's checks with results, a team's decision), anchored at or before the cut-off;
- public events anchored at or before the cut-off. An event with no anchor segment is shown
  only when its phase ended before the cut-off's phase began (we cannot tell when inside its
  own phase it became known, so we err on the side of hiding it);
- utterances up to and including the cut-off segment. A turn that straddles the cut-off is cut
  at the segment boundary when per-segment text exists (`Utterance.segments`), else it is left
  out entirely — its merged text cannot be split without risking text from after the cut-off;
- the viewpoint player's OWN speech is shown like everyone else's (it is public and they said
  it) but labelled as "you", so the model knows which statements are its own claims;
- players' turns recorded during a NIGHT phase are not shown, the viewpoint's own included:
  players are silent at night, so such turns are off-table commentary (TV confessionals, often
  recorded after the game) that can reveal roles and later events. The host's night calls are
  shown, minus broadcast asides addressed to the audience rather than the table (e.g. the
  show's "this game is seen from seat N, whose role is X", see `_BROADCAST_ASIDES`).

Never shown: another seat's hidden role, the recap, the annotator log, highlights, MVP data,
other players' private events, event notes (annotator commentary), anything after the cut-off,
and the item's answer or explanation (items never reach this module).

Audiences: every event and turn says who perceived it (`Audience`): everyone, the actor, a team
(a faction such as 'wolf' or a catalogue team such as 'lovers') or listed seats. A seat sees exactly
what it perceived up to the cut-off: public events, plus the events whose audience includes it
(its own skill uses, the pack's kill decision for a wolf); a turn with an audience (the wolves'
night chat) is shown to that audience only. An observer perceives only what everyone does.

Vote items (VA) pass `exclude_own_vote_phase` (and `exclude_own_vote_round` when the item names a
round): the viewpoint's own ballot of that round is withheld even if anchored before the cut-off,
as it is the answer. Other ballots anchored at or before the cut-off were cast openly before the
viewpoint's and are shown; ballots announced later are after the cut-off anyway. Speech is
not filtered: a VA cut-off lies before the host announces the ballot asked about (the importer
moves cut-offs that fall on that announcement), so a tally the host has already read out is an
earlier round's — e.g. the first round before a tie-break (PK) re-vote — which everyone at the
table heard, the viewpoint player included.

Vote items also choose how much of the viewpoint's OWN speech is shown (`withhold_own_turns_from_day`,
set from the run's VA mode, see `werealign.eval.prompts.VA_MODES`): the viewpoint's own turns of
every phase of that day or later are withheld and counted, so the prompt can say so in one line. At
the decision point (the default, the vote's day) the player's own calls of the day ("归票，2号")
cannot hand it the answer; from day 0 every line of the player is masked (the release authors'
protocol); what the player knew from its role and nights stays in its private section either way.

OSR variant: each shown utterance's text is replaced by its objective rewrite, matched by
(utterance_index, segment_ids). A straddling turn is left out under OSR (a rewrite cannot be
cut at a segment boundary); a shown turn without a matching rewrite is an error, not a silent
fallback to the raw text.

Rendering helpers (`phase_label`, `speaker_label`, `event_line`, `rules_summary`, ...) turn the
pieces into Chinese or English text following the game's `language`; the prompt templates in
`werealign/eval/templates/` arrange them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.errors import UserError
from werealign.schema import Event, GameLog, OsrRewrite, Phase
from werealign.schema.models import Audience, SeatInfo, Speaker
from werealign.schema.roles import CATALOGUE, RoleCatalogue, catalogue_for

# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class ShownUtterance:
    index: int
    phase: str
    speaker: Speaker
    text: str
    is_self: bool
    partial: bool  # cut at the cut-off segment boundary


@dataclass(frozen=True)
class Context:
    game_id: str
    language: str
    viewpoint_seat: int | None  # None: observer viewpoint, public information only
    cutoff_segment: int
    n_seats: int
    seats: tuple[int, ...]
    names: tuple[tuple[int, str], ...]  # (seat, player name) for seats whose name the game records: public at the table
    rules_text: str
    rules_generated: bool  # True when rules_text is our summary, not the source's rulebook
    own_role: str | None  # canonical role id; None for an observer
    own_faction: str | None
    allies: tuple[int, ...]  # other seats the viewpoint knows are on its side (wolf teammates)
    private_events: tuple[Event, ...]  # the viewpoint's own skill uses
    public_events: tuple[Event, ...]
    utterances: tuple[ShownUtterance, ...]
    left_out: tuple[int, ...]  # indices of straddling turns left out (no per-segment text / OSR)
    current_phase: str | None  # phase of the cut-off (the last shown turn's phase)
    phases: tuple[Phase, ...]  # phases that have begun by the cut-off, in order
    own_turns_withheld: int = 0  # the viewpoint's own turns not shown (VA decision point / masked MVP)
    own_turns_withheld_from_day: int | None = None  # the first day whose own turns are withheld (0: all)


# --------------------------------------------------------------------------- building


def build_context(
    game: GameLog,
    viewpoint_seat: int | None,
    cutoff_segment: int,
    *,
    osr: list[OsrRewrite] | None = None,
    exclude_own_vote_phase: str | None = None,
    exclude_own_vote_round: int | None = None,
    withhold_own_turns_from_day: int | None = None,
) -> Context:
    seat_info = {s.seat: s for s in game.seats}
    me = seat_info.get(viewpoint_seat) if viewpoint_seat is not None else None
    if viewpoint_seat is not None and me is None:
        raise UserError(f"game {game.game_id}: viewpoint_seat {viewpoint_seat} is not a seat of the game")

    catalogue = catalogue_for(game.rules.declared_roles)
    rewrites = _index_rewrites(game, osr) if osr is not None else None
    utterances, left_out = _visible_utterances(game, me, cutoff_segment, rewrites, catalogue)
    withheld = 0
    if withhold_own_turns_from_day is not None and viewpoint_seat is not None:
        day_of = {p.id: p.day for p in game.phases}
        kept = [u for u in utterances if not (u.is_self and day_of.get(u.phase, 0) >= withhold_own_turns_from_day)]
        withheld = len(utterances) - len(kept)
        utterances = kept

    phase_order = {p.id: i for i, p in enumerate(game.phases)}
    current_phase = _cutoff_phase(game, cutoff_segment)
    current_pos = phase_order.get(current_phase, -1) if current_phase is not None else -1

    def known_by_now(ev: Event) -> bool:
        if ev.segment_id is not None:
            return ev.segment_id <= cutoff_segment
        return ev.phase in phase_order and phase_order[ev.phase] < current_pos

    public: list[Event] = []
    private: list[Event] = []
    for ev in game.events:
        if not known_by_now(ev):
            continue
        if exclude_own_vote_phase is not None and ev.kind == "vote" and ev.phase == exclude_own_vote_phase \
                and ev.actor == viewpoint_seat and (exclude_own_vote_round is None or ev.round in (None, exclude_own_vote_round)):
            continue  # the ballot asked about; the others cast before the cut-off were seen by the table
        if ev.audience.kind == "everyone":
            public.append(ev)
        elif perceives(ev.audience, ev.actor, me, catalogue):
            private.append(ev)

    allies: tuple[int, ...] = ()
    if me is not None and me.faction == "wolf":
        allies = tuple(sorted(s.seat for s in game.seats if s.faction == "wolf" and s.seat != viewpoint_seat))

    rules_text = game.rules.text.strip() if game.rules.text and game.rules.text.strip() else None
    return Context(
        game_id=game.game_id,
        language=game.language,
        viewpoint_seat=viewpoint_seat,
        cutoff_segment=cutoff_segment,
        n_seats=len(game.seats),
        seats=tuple(sorted(seat_info)),
        names=tuple((seat, seat_info[seat].name) for seat in sorted(seat_info) if seat_info[seat].name),
        rules_text=rules_text if rules_text is not None else rules_summary(game),
        rules_generated=rules_text is None,
        own_role=me.role if me is not None else None,
        own_faction=me.faction if me is not None else None,
        allies=allies,
        private_events=tuple(sorted(private, key=_event_key)),
        public_events=tuple(sorted(public, key=_event_key)),
        utterances=tuple(utterances),
        left_out=tuple(left_out),
        current_phase=current_phase,
        phases=tuple(p for p in game.phases if phase_order[p.id] <= current_pos),
        own_turns_withheld=withheld,
        own_turns_withheld_from_day=withhold_own_turns_from_day if viewpoint_seat is not None else None,
    )


# Events anchored to one segment are told in the order they happen at the table: ballots, then a
# self-destruct, the deaths it and the night caused, skills fired on leaving (the hunter's shot), and
# last where the badge goes. Sources order them otherwise (the WereBench import puts the badge first).
_TELLING_ORDER = {"vote": 0, "sheriff_election": 1, "self_destruct": 2, "night_outcome": 3, "elimination": 4, "skill_use": 5, "badge_transfer": 6}


def _event_key(ev: Event) -> tuple:
    # By anchor (unanchored first), then telling order; sorted() is stable, so ties keep the game's order.
    return (ev.segment_id if ev.segment_id is not None else -1, _TELLING_ORDER[ev.kind])


def _index_rewrites(game: GameLog, osr: list[OsrRewrite]) -> dict[int, OsrRewrite]:
    if not osr:
        raise UserError(f"game {game.game_id}: variant osr needs objective rewrites (variants/osr/{game.game_id}.jsonl) but there are none")
    out: dict[int, OsrRewrite] = {}
    for r in osr:
        if r.game_id != game.game_id:
            raise UserError(f"variants/osr/{game.game_id}.jsonl: utterance_index {r.utterance_index}: game_id '{r.game_id}' does not match")
        out[r.utterance_index] = r
    return out


def perceives(audience: Audience, actor: Speaker | None, me: SeatInfo | None, catalogue: RoleCatalogue) -> bool:
    """Whether the player `me` (None: an observer, who perceives only what everyone does) perceived it."""
    if audience.kind == "everyone":
        return True
    if me is None:
        return False
    if audience.kind == "actor":
        return actor == me.seat
    if audience.kind == "seats":
        return me.seat in audience.seats
    role = catalogue.get(me.role)
    return audience.team in (me.faction, role.team if role is not None else None)


def _visible_utterances(
    game: GameLog, me: SeatInfo | None, cutoff: int, rewrites: dict[int, OsrRewrite] | None, catalogue: RoleCatalogue
) -> tuple[list[ShownUtterance], list[int]]:
    seat = me.seat if me is not None else None
    shown: list[ShownUtterance] = []
    left_out: list[int] = []
    night = {p.id for p in game.phases if p.kind == "night"}
    for u in game.utterances:
        before = [s for s in u.segment_ids if s <= cutoff]
        if not before:
            continue
        if u.audience is not None:
            if not perceives(u.audience, u.speaker, me, catalogue):
                continue  # a team's night chat, a whisper: only its audience heard it
        elif u.speaker != "host" and u.phase in night:
            continue
        partial = len(before) < len(u.segment_ids)
        if partial:
            if rewrites is not None or not u.segments:
                left_out.append(u.index)
                continue
            # Cues are joined with one space, as the merged turn text is built (annotate build, the release).
            text = " ".join(t for seg in u.segments if seg.id <= cutoff and (t := seg.text.strip()))
            if not text.strip():
                left_out.append(u.index)
                continue
        elif rewrites is not None:
            r = rewrites.get(u.index)
            if r is None or sorted(r.segment_ids) != sorted(u.segment_ids):
                why = "no rewrite" if r is None else f"rewrite covers segments {r.segment_ids}, turn has {u.segment_ids}"
                raise UserError(f"variants/osr/{game.game_id}.jsonl: utterance_index {u.index}: {why}")
            text = r.text
        else:
            text = u.text
        if u.speaker == "host":
            text = strip_broadcast_asides(text)
            if not text.strip():
                continue
        shown.append(ShownUtterance(index=u.index, phase=u.phase, speaker=u.speaker, text=text.strip(), is_self=seat is not None and u.speaker == seat, partial=partial))
    return shown, left_out


# Host lines spoken to the TV audience, not the table. Panda Kill opens some games with "本局游戏的
# 视角是11号，他的身份是狼人" (the episode follows seat 11, a werewolf): hidden information.
_BROADCAST_ASIDES = [
    re.compile(r"本局(?:游戏)?的?视角是\s*\d+\s*号[，,\s]*(?:他|她)?的?(?:身份|底牌)是[^，。,.\s]*[，,。.]?\s*"),
    re.compile(r"(?i)this (?:game|episode) (?:is seen|follows) (?:from )?seat\s*\d+[^.]*?\b(?:role|card) is [^.,]*[.,]?\s*"),
]


def strip_broadcast_asides(text: str) -> str:
    for pattern in _BROADCAST_ASIDES:
        text = pattern.sub("", text)
    return text


def _cutoff_phase(game: GameLog, cutoff: int) -> str | None:
    """Phase of the last turn that has a segment at or before the cut-off."""
    phase = None
    for u in game.utterances:
        if u.segment_ids[0] <= cutoff:
            phase = u.phase
    return phase


# --------------------------------------------------------------------------- rendering helpers

# Role names and rule lines come from the role catalogue (werealign/schema/role_catalogue.json),
# extended by the game's own declarations; listed here so a wording change shows in the prompt hash.
_ZH_ROLE: dict[str, str] = {r.id: r.name("zh") for r in CATALOGUE.roles.values() if r.names.get("zh")}
_ZH_ROLE_DESC: dict[str, str] = {r.id: r.rule["zh"] for r in CATALOGUE.roles.values() if "zh" in r.rule}

_FACTION = {
    "en": {"good": "the good side", "wolf": "the werewolf side", "third": "a third party", "variable": "a side decided during the game",
           "unknown": "side not recorded"},
    "zh": {"good": "好人阵营", "wolf": "狼人阵营", "third": "第三方阵营", "variable": "阵营在游戏中决定", "unknown": "阵营未记录"},
}

_WIN = {
    "en": {
        "side_elimination": "Side elimination: the werewolves win by eliminating all villagers or all special (god) roles; the good side wins by voting out every werewolf.",
        "all_elimination": "All elimination: the werewolves win by eliminating every good player; the good side wins by voting out every werewolf.",
        "other": "The win condition is given by the host.",
    },
    "zh": {
        "side_elimination": "屠边规则：狼人杀死所有普通村民或所有神职即获胜；好人投票放逐所有狼人即获胜。",
        "all_elimination": "屠城规则：狼人杀死所有好人即获胜；好人投票放逐所有狼人即获胜。",
        "other": "胜利条件由主持人说明。",
    },
}

_SKILL = {
    "en": {
        "seer_check": "checked",
        "witch_save": "used the antidote on",
        "witch_poison": "used the poison on",
        "guard_protect": "protected",
        "hunter_shoot": "shot",
        "silence": "silenced",
        "stalker_assassinate": "assassinated",
        "wolf_kill": "chose to kill",
        "white_wolf_king_take": "took out",
    },
    "zh": {
        "seer_check": "查验了",
        "witch_save": "对其使用解药：",
        "witch_poison": "对其使用毒药：",
        "guard_protect": "守护了",
        "hunter_shoot": "开枪带走了",
        "silence": "禁言了",
        "stalker_assassinate": "暗杀了",
        "wolf_kill": "选择击杀",
        "white_wolf_king_take": "带走了",
    },
}

# Outcome codes written by importers/annotation (e.g. elimination results) -> words.
_RESULT = {
    "en": {
        "night_death": "died at night",
        "voted_out": "voted out",
        "self_destruct": "self-destructed",
        "left_table": "left the table",
        "taken": "taken out by a skill",
        "died_with_partner": "died with their linked partner",
        "peaceful_night": "peaceful night",
    },
    "zh": {
        "night_death": "夜间死亡",
        "voted_out": "被投票放逐",
        "self_destruct": "自爆",
        "left_table": "离场",
        "taken": "被技能带走",
        "died_with_partner": "随连接者一同出局",
        "peaceful_night": "平安夜",
        "wolf": "狼人",
        "good": "好人",
    },
}

# Every language-dependent phrase the builder produces, hashed into templates_hash() by the
# prompts module so a wording change is visible in run.json.
_DEATH_RESULTS = {"died", "night_death", "died in the night", "死亡", "夜间死亡"}

PHRASES = {"zh_roles": _ZH_ROLE, "zh_role_desc": _ZH_ROLE_DESC, "faction": _FACTION, "win": _WIN, "skill": _SKILL, "result": _RESULT,
           "death_results": sorted(_DEATH_RESULTS), "telling_order": _TELLING_ORDER}


def role_name(role: str, language: str, catalogue: RoleCatalogue | None = None) -> str:
    """A role's display name: Chinese from the catalogue, English as the id in words; a role no one
    declared keeps its original label; a declared role uses its declared names."""
    known = (catalogue or CATALOGUE).get(role)
    if known is None:
        return role
    if language == "zh":
        return known.name("zh")
    # Built-in roles read as their id in words, as prompts always showed them; declared roles by their name.
    return role.replace("_", " ") if role in CATALOGUE else known.name("en")


def role_rule(role: str, language: str, catalogue: RoleCatalogue | None = None) -> str:
    known = (catalogue or CATALOGUE).get(role)
    return "" if known is None else known.rule.get(_lang(language), known.rule.get("en", ""))


def faction_name(faction: str, language: str) -> str:
    return _FACTION[_lang(language)].get(faction, faction)


def seat_label(seat: int, language: str) -> str:
    return f"{seat}号" if language == "zh" else f"Seat {seat}"


def players_line(names: tuple[tuple[int, str], ...], language: str) -> str:
    """'Seat 1: Ava, Seat 2: Ben': ties the names players use in speech to seats."""
    if language == "zh":
        return "、".join(f"{seat_label(s, 'zh')}：{n}" for s, n in names)
    return ", ".join(f"{seat_label(s, language)}: {n}" for s, n in names)


def speaker_label(speaker: Speaker, viewpoint_seat: int | None, language: str) -> str:
    if speaker == "host":
        return "主持人" if language == "zh" else "Host"
    label = seat_label(int(speaker), language)
    if viewpoint_seat is not None and speaker == viewpoint_seat:
        label += "（你）" if language == "zh" else " (you)"
    return label


def phase_label(phase: Phase | None, language: str) -> str:
    if phase is None:
        return "游戏开始前" if language == "zh" else "Before the game"
    if language == "zh":
        return {"night": f"第{phase.day}夜", "sheriff_election": "警长竞选", "day": f"第{phase.day}天白天"}[phase.kind]
    return {"night": f"Night {phase.day}", "sheriff_election": "Sheriff election", "day": f"Day {phase.day}"}[phase.kind]


def _lang(language: str) -> str:
    return "zh" if language == "zh" else "en"


def event_line(ev: Event, viewpoint_seat: int | None, language: str) -> str:
    """One event as a sentence. Event notes are never rendered: they are annotator commentary."""
    line = _event_line(ev, viewpoint_seat, language)
    return line[:1].upper() + line[1:]


def _event_line(ev: Event, viewpoint_seat: int | None, language: str) -> str:
    zh = language == "zh"

    def who(x: Speaker | None) -> str:
        if x is None:
            return "某人" if zh else "someone"
        if x == "host":
            return "主持人" if zh else "the host"
        if x == viewpoint_seat:
            return "你" if zh else "you"
        return seat_label(int(x), language)

    tgt = who(ev.target) if ev.target is not None else None
    was = "were" if viewpoint_seat is not None and ev.target == viewpoint_seat else "was"
    result = _RESULT[_lang(language)].get(ev.result, ev.result) if ev.result else None
    res = f"（{result}）" if zh and result else (f" ({result})" if result else "")
    if ev.kind == "vote":
        if tgt is None:
            return f"{who(ev.actor)}弃票" if zh else f"{who(ev.actor)} abstained"
        return f"{who(ev.actor)}投票给{tgt}" if zh else f"{who(ev.actor)} voted for {tgt}"
    if ev.kind == "elimination":
        return (f"{tgt}出局{res}" if zh else f"{tgt} {was} eliminated{res}") if tgt else (f"无人出局{res}" if zh else f"Nobody was eliminated{res}")
    if ev.kind == "night_outcome":
        if tgt is None:
            return f"夜间结果：{result or '平安夜'}" if zh else f"Night outcome: {result or 'peaceful night'}"
        if ev.result in _DEATH_RESULTS:  # "died (died)" says nothing twice
            res = ""
        return f"夜间结果：{tgt}死亡{res}" if zh else f"Night outcome: {tgt} died{res}"
    if ev.kind == "self_destruct":
        return f"{who(ev.actor)}自爆" if zh else f"{who(ev.actor)} self-destructed"
    if ev.kind == "sheriff_election":
        return (f"{tgt}当选警长" if zh else f"{tgt} {was} elected sheriff") if tgt else (f"警徽流失{res}" if zh else f"No sheriff was elected{res}")
    if ev.kind == "badge_transfer":
        if tgt is None:
            return f"{who(ev.actor)}撕掉了警徽" if zh else f"{who(ev.actor)} tore up the sheriff badge"
        return f"{who(ev.actor)}将警徽移交给{tgt}" if zh else f"{who(ev.actor)} passed the sheriff badge to {tgt}"
    # skill_use
    verb = _SKILL[_lang(language)].get(ev.skill or "", None)
    if verb is None:
        skill = (ev.skill or "").replace("_", " ")  # an id such as 'white_wolf_king_take' reads as words
        verb = f"使用技能 {skill}：" if zh else f"used {skill or 'a skill'} on"
    if zh:
        return f"{who(ev.actor)}{verb}{tgt or '无目标'}{res}"
    return f"{who(ev.actor)} {verb} {tgt or 'nobody'}{res}"


def rules_summary(game: GameLog) -> str:
    """Rules text generated from public facts (the card list, win condition, sheriff) when the source has none.

    The card list is `rules.public_cards` when the game has one: with spare cards (a thief's buried
    cards) the seats' roles are hidden information, and counting them would tell which cards are out
    of play. Otherwise the composition is the announced deck."""
    zh = game.language == "zh"
    lang = _lang(game.language)
    n = sum(rc.count for rc in game.rules.composition)
    cat = catalogue_for(game.rules.declared_roles)
    public = game.rules.public_cards
    if public is not None:
        cards = [(role, None, cat.faction(role)) for role in public]
    else:
        cards = [(rc.role, rc.count, rc.faction) for rc in game.rules.composition]
    lines = []
    if zh:
        if public is not None:
            names = "、".join(role_name(r, "zh", cat) for r, _, _ in cards)
            lines.append(f"本局{len(game.seats)}名玩家。牌池包含：{names}（每种牌的张数不公开，部分牌可能不在场上）。")
        else:
            parts = "、".join(f"{c}张{role_name(r, 'zh', cat)}" for r, c, _ in cards)
            lines.append(f"本局共有{n}张身份牌：{parts}。")
        for role, _, faction in cards:
            lines.append(f"{role_name(role, 'zh', cat)}（{faction_name(faction, 'zh')}）：{role_rule(role, 'zh', cat)}")
        lines.append(_WIN[lang][game.rules.win_condition])
        lines.append("本局设有警长，警长拥有1.5票归票权。" if game.sheriff_in_play() else "本局不设警长。")
    else:
        if public is not None:
            names = ", ".join(role_name(r, "en", cat) for r, _, _ in cards)
            lines.append(f"This game has {len(game.seats)} players. The cards in play come from: {names} "
                         "(how many of each is not announced, and some cards may be out of play).")
        else:
            parts = ", ".join(f"{c} x {role_name(r, 'en', cat)}" for r, c, _ in cards)
            lines.append(f"This game has {n} role cards: {parts}.")
        for role, _, faction in cards:
            name = role_name(role, "en", cat)
            lines.append(f"{name[:1].upper() + name[1:]} ({faction_name(faction, 'en')}): {role_rule(role, 'en', cat)}")
        lines.append(_WIN[lang][game.rules.win_condition])
        lines.append("A sheriff is elected; the sheriff's vote counts 1.5." if game.sheriff_in_play() else "There is no sheriff.")
    return "\n".join(lines)
