"""Which roles, sides and night actions a text attaches to which seats, and which of them a viewpoint
could know at a cut-off. The leak checks (werealign.shortcuts.leaks) build on this.

Role words come from the role catalogue (every language's names, plus a game's declared roles), so
a new role or language needs no code. A role word names a seat's side when it is the first role of
its faction in the catalogue (the plain card: "villager", "wolf"), its exact role otherwise.
Night actions are read by the verb of a skill id's last word (`seer_check` -> "check"), in English
by its stem and in Chinese by `ACTION_ZH`; a skill id without a known verb is still read in English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from werealign.shortcuts.text import normalise
from werealign.game.visibility import Context
from werealign.text.zh_numbers import chinese_number  # '十二' -> 12: transcribed speech writes seats in words
from werealign.schema import Event, GameLog
from werealign.schema.roles import RoleCatalogue, RoleDeclaration, catalogue_for

SEAT_REF = re.compile(r"\b(?:seat|player|p)\s*(\d{1,2})\b|(\d{1,2}|[一二两三四五六七八九十]{1,3})\s*号(?:位|玩家)?", re.IGNORECASE)
CLAUSE_END = re.compile(r"[,，.。;；!！?？:：、\n]")
NEAR = 14  # characters between a seat reference and the word attached to it, at most
# Only brackets and spaces between a role word and a seat: "witch seat 5", "女巫5号", "5号（狼）" -- the
# role is presupposed as a label, not put forward as a guess.
_LABEL_GAP = re.compile(r"^[\s(（\[【)）\]】]*$")
# Chinese verbs of night actions by the last word of a skill id; English reads the word's own stem.
ACTION_ZH = {"check": "查验|验", "poison": "毒", "save": "救|解药", "protect": "守护|守", "kill": "刀|击杀", "shoot": "开枪|枪",
             "silence": "禁言", "assassinate": "暗杀", "take": "带走", "charm": "魅惑"}


# Words that make a role a claim the seat made ("seat 1 claimed seer", "1号跳预言家"): public talk.
CLAIM = re.compile(r"\bclaim\w*|\bsays? (?:he|she|they)|自称|声称|起跳|跳")


@dataclass(frozen=True)
class Attachment:
    seat: int
    what: str  # a role id, or "action:<skill verb>"
    label: bool  # the word sits right beside the seat (a label, not a claim)
    claim: bool = False  # a claim verb comes between the seat and the word, or right before the word


@lru_cache(maxsize=64)
def _role_labels(catalogue: RoleCatalogue) -> tuple[tuple[str, ...], dict[str, str]]:
    """(every role label, longest first; label -> role id)."""
    labels: dict[str, str] = {}
    for role in catalogue.roles.values():
        for label in [role.id.replace("_", " "), *(n for names in role.names.values() for n in names)]:
            label = normalise(label)
            if len(label) > 1 or not label.isascii():  # one-letter labels would match anywhere
                labels.setdefault(label, role.id)
    # Longest first: "白狼王" is read before "狼", "wolf king" before "wolf".
    return tuple(sorted(labels, key=lambda s: (-len(s), s))), labels


@lru_cache(maxsize=4096)
def _alternation(ordered: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(rf"\b{re.escape(lb)}s?\b" if lb.isascii() else re.escape(lb) for lb in ordered))


def _pattern_for(norm: str, ordered: tuple[str, ...]) -> re.Pattern | None:
    """The role pattern cut to the labels `norm` contains (None: none), alternatives in the same order, so it
    finds exactly what the whole pattern finds: a label absent from the text cannot match. Python's re tries every
    alternative at every position; with the catalogue's ~150 that scan was most of the faithful split's time."""
    present = tuple(lb for lb in ordered if lb in norm)
    return _alternation(present) if present else None


def skill_verb(skill: str) -> str:
    return skill.rsplit("_", 1)[-1]


@lru_cache(maxsize=256)
def action_pattern(verbs: frozenset[str]) -> re.Pattern:
    alts = [rf"\b{re.escape(v[:-1] if v.endswith('e') else v)}\w*" for v in sorted(verbs)]
    alts += [ACTION_ZH[v] for v in sorted(verbs) if v in ACTION_ZH]
    return re.compile("|".join(alts))


def attachments(text: str, game: GameLog, *, speaker: int | None = None) -> tuple[Attachment, ...]:
    """(seat, role or action) pairs `text` states: each role or action word attached to the nearest
    seat reference in its clause (at most NEAR characters away); in a turn of `speaker`, a role word
    in a clause with no seat reference is the speaker's own claim ("I am the witch")."""
    return _attachments(text, *_game_keys(game), speaker)


_GAME_KEYS: dict[int, tuple[GameLog, tuple[int, ...], tuple[tuple[str, ...], frozenset[str], frozenset[int]]]] = {}


def _game_keys(game: GameLog) -> tuple[tuple[str, ...], frozenset[str], frozenset[int]]:
    """What of `game` the attachments depend on (declared roles, skill verbs, seats), worked out once per game
    object: each item reads thousands of turns of the same game (kept with the game, so a freed game's id never
    finds them)."""
    shape = (id(game.rules), id(game.rules.declared_roles), len(game.rules.declared_roles), id(game.events), len(game.events), id(game.seats), len(game.seats))
    hit = _GAME_KEYS.get(id(game))
    if hit is not None and hit[0] is game and hit[1] == shape:  # a game changed since (an importer's repair) is read again
        return hit[2]
    keys = (tuple(d.model_dump_json() for d in game.rules.declared_roles), frozenset(skill_verb(e.skill) for e in game.events if e.skill),
            frozenset(s.seat for s in game.seats))
    if len(_GAME_KEYS) >= 256:
        _GAME_KEYS.clear()
    _GAME_KEYS[id(game)] = (game, shape, keys)
    return keys


@lru_cache(maxsize=65536)
def _catalogue(declared: tuple[str, ...]) -> RoleCatalogue:
    return catalogue_for([RoleDeclaration.model_validate_json(d) for d in declared])


@lru_cache(maxsize=65536)
def _attachments(text: str, declared: tuple[str, ...], verbs: frozenset[str], seats: frozenset[int], speaker: int | None) -> tuple[Attachment, ...]:
    # Cached: the same turns are read from every cut-off of a game.
    ordered, labels = _role_labels(_catalogue(declared))
    actions = action_pattern(verbs) if verbs else None
    out: list[Attachment] = []
    norm = normalise(text)
    pattern = _pattern_for(norm, ordered)
    start = 0
    for end in [m.start() for m in CLAUSE_END.finditer(norm)] + [len(norm)]:
        clause, start = norm[start:end], end + 1
        refs = [(m.start(), m.end(), chinese_number(m.group(1) or m.group(2))) for m in SEAT_REF.finditer(clause)]
        refs = [r for r in refs if r[2] in seats]
        words = [(m.start(), m.end(), labels[m.group(0).rstrip("s") if m.group(0) not in labels else m.group(0)]) for m in pattern.finditer(clause)] if pattern is not None else []
        if actions is not None:
            words += [(m.start(), m.end(), "action:" + _which_verb(m.group(0), verbs)) for m in actions.finditer(clause)]
        for ws, we, what in words:
            if not refs:
                if speaker is not None and not what.startswith("action:"):
                    out.append(Attachment(speaker, what, False))
                continue
            gap, rs, re_, seat = min((max(rs - we, ws - re_, 0), rs, re_, seat) for rs, re_, seat in refs)
            if gap <= NEAR:
                between = clause[we:rs] if we <= rs else clause[re_:ws]
                claim = bool(CLAIM.search(between) or CLAIM.search(clause[max(0, ws - 3) : ws]))
                out.append(Attachment(seat, what, bool(_LABEL_GAP.match(between)) and not claim, claim))
    return tuple(out)


def _which_verb(word: str, verbs: frozenset[str]) -> str:
    for v in sorted(verbs):
        if word.startswith(v[:-1] if v.endswith("e") else v) or (v in ACTION_ZH and re.fullmatch(ACTION_ZH[v], word)):
            return v
    return word


def _plain_cards(catalogue: RoleCatalogue) -> dict[str, str]:
    """faction -> its first role in the catalogue: the plain card whose name also names the side."""
    first: dict[str, str] = {}
    for role in catalogue.roles.values():
        first.setdefault(role.faction, role.id)
    return {role: faction for faction, role in first.items()}


def reveals_truth(game: GameLog, att: Attachment) -> bool:
    """Whether the attachment states the seat's hidden truth: its exact role, the plain card of its
    side, or a night action that in fact happened to it (a skill used on it)."""
    seat = next((s for s in game.seats if s.seat == att.seat), None)
    if seat is None:
        return False
    if att.what.startswith("action:"):
        verb = att.what.split(":", 1)[1]
        return any(e.kind == "skill_use" and e.skill and skill_verb(e.skill) == verb and e.target == att.seat for e in game.events)
    if att.what == seat.role:
        return True
    return _plain_cards(catalogue_for(game.rules.declared_roles)).get(att.what) == seat.faction


def known_at_cutoff(game: GameLog, ctx: Context) -> set[tuple[int, str]]:
    """(seat, role or action) pairs the viewpoint may state at the cut-off: its own seat, its wolf
    teammates, what its own skills or the public events told it, and anything said at the table about
    that seat (a claim is public talk, true or not). `(seat, "*")` means everything about the seat."""
    known: set[tuple[int, str]] = set()
    if ctx.viewpoint_seat is not None:
        known.add((ctx.viewpoint_seat, "*"))
    known |= {(s, "*") for s in ctx.allies}
    if ctx.own_faction == "wolf":
        # Wolves know every other seat is not a wolf: the good side's plain card ("villager") tells them nothing.
        plain = {faction: role for role, faction in _plain_cards(catalogue_for(game.rules.declared_roles)).items()}
        known |= {(s.seat, plain["good"]) for s in game.seats if s.faction == "good" and "good" in plain}
    for ev in ctx.private_events:
        if ev.actor == ctx.viewpoint_seat and ev.target is not None:
            known.add((ev.target, "*"))  # a seer's check, a witch's potion: the viewpoint knows that seat's fate
    for ev in ctx.public_events:
        known |= _event_knowledge(ev)
    for u in ctx.utterances:
        who = u.speaker if isinstance(u.speaker, int) else None
        known |= {(a.seat, a.what) for a in attachments(u.text, game, speaker=who)}
    return known


def _event_knowledge(ev: Event) -> set[tuple[int, str]]:
    out: set[tuple[int, str]] = set()
    if ev.kind == "self_destruct" and ev.actor is not None and isinstance(ev.actor, int):
        out.add((ev.actor, "*"))  # a self-destruct shows the side to everyone
    if ev.kind == "skill_use" and isinstance(ev.actor, int):
        out.add((ev.actor, "*"))  # a public skill (the hunter's shot) shows the card
        if ev.target is not None and ev.skill:
            out.add((ev.target, "action:" + skill_verb(ev.skill)))
    if ev.target is not None and ev.kind in ("night_outcome", "elimination"):
        out.add((ev.target, "action:kill"))  # a death is public (by the wolves, as far as the table knows); a potion is not
    return out
