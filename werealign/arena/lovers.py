"""Links and a third side at the table (werealign.arena.moderator): the engine moves behind the ghost bride and cupid,
each declared as data (werealign.arena.board, `Ability` with `action: "link"`), so a user's own card can reuse them.

The moves:
- **link** (night 1, once): the card links two seats as lovers: itself and a seat it picks (`link: "self"`, the ghost
  bride and her groom), or two seats it picks, itself allowed (`link: "pair"`, cupid). The lovers learn each other.
- **witness** (`witness: true`): the same night the lovers name one other seat their witness, who is told who the
  lovers are (not their cards) and shares nothing else with them.
- **side switch** (`side_switch`): `always`: the lovers and the witness leave their sides for the card's third side
  (the ghost bride: her groom and witness "betray" their sides); `mixed`: only when the two lovers' cards are on
  different sides do the lovers and the card form a third side (cupid); `never`: nobody changes side.
- **die together**: when one lover leaves the game, the other leaves at once (result `died_with_partner`, as the
  importer writes the human hosts' announcement), taking nobody along (no shot: decided here, the hosts' rules say
  nothing of a heartbroken hunter; a sheriff among them passes the badge as any sheriff leaving does).
- **the third side's kill** (`third_kill: true`): once no wolf-side seat is in, the third side makes the night kill
  (the lovers while either is in, else the witness); it is the pack's kill in every other way (protection and the
  antidote stop it, the witch is told it).
- **the third side's win** (the moderator's `winner`): it wins when every seat still in is on it; while any of its
  seats is in, neither the good side nor the wolves win.

What the cards show: a seer's check reads a seat's card (the ghost bride's side at the start is the third one and
shows good; a linked wolf still shows wolf). A seat that changes side keeps its card's moves (a hunter witness
still shoots); a wolf that joins the third side leaves the pack (no pack kill, chat or self-destruct from then on: the
pack's night is told to the pack's seats, not to the wolf team, werealign.arena.night).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from werealign.arena.moves import Decision
from werealign.schema.models import Audience

if TYPE_CHECKING:
    from werealign.arena.board import Board
    from werealign.arena.moderator import Table

# The table rule each link move adds to the game's rules text (the prompts show it), per language.
LINK_TEXT = {
    "en": {"self": "{role}: on night 1 links itself and one other player as lovers, who learn each other.",
           "pair": "{role}: on night 1 links two players as lovers (itself allowed), who learn each other.",
           "witness": "The lovers then name one other player their witness, who is told who the lovers are.",
           "always": "The lovers and the witness leave their sides for a third side.",
           "mixed": "If the two lovers' cards are on different sides, the lovers and {role} form a third side.",
           "together": "When a lover leaves the game, the other leaves with them (taking nobody along).",
           "kill": "Once no werewolf-side player is in, the third side makes the night kill (the lovers, else the witness).",
           "win": "A third side wins when every player still in is on it; while any of it is in, no other side wins."},
    "zh": {"self": "{role}：第一晚与另一名玩家结成情侣，情侣互相知晓。",
           "pair": "{role}：第一晚连接两名玩家成为情侣（可连自己），情侣互相知晓。",
           "witness": "随后情侣选择另一名玩家作为证婚人，证婚人被告知谁是情侣。",
           "always": "情侣和证婚人背叛原阵营，加入第三方阵营。",
           "mixed": "若两名情侣的底牌分属不同阵营，情侣与{role}成为第三方阵营。",
           "together": "一名情侣出局时，另一名随之殉情出局（不发动技能）。",
           "kill": "场上没有狼人阵营玩家后，由第三方行使夜间杀人（情侣，情侣都出局后由证婚人）。",
           "win": "第三方阵营在场上只剩其成员时获胜；只要第三方仍有人在场，其他阵营都不能获胜。"},
}


def link_lines(board: Board, language: str) -> list[str]:
    """The link moves of the board's cards, as the rules text tells them."""
    text = LINK_TEXT.get(language, LINK_TEXT["en"])
    out: list[str] = []
    for role, a in board.abilities.items():
        if a.action != "link":
            continue
        name = board.catalogue.get(role).name(language)
        out += [text[a.link].format(role=name), *([text["witness"]] if a.witness else [])]
        out += [text[a.side_switch].format(role=name)] if a.side_switch != "never" else []
        out += [text["together"], *([text["kill"]] if a.third_kill else []), *([text["win"]] if a.side_switch != "never" else [])]
    return list(dict.fromkeys(out))


def link(t: Table) -> None:
    """Night 1: each linking card links its lovers, names the witness where it has one, and the sides switch as declared."""
    if t.day != 1:
        return
    for s in t.night_actors("link"):
        a = t.board.ability(t.roles[s])
        others = tuple(x for x in sorted(t.alive) if x != s)
        if a.link == "self":
            pair = (s, t.ask(Decision("link", s, t.day, others)).choice)
        else:
            first = t.ask(Decision("link", s, t.day, tuple(sorted(t.alive)))).choice
            pair = (first, t.ask(Decision("link_with", s, t.day, tuple(x for x in sorted(t.alive) if x != first))).choice)
        told = sorted({s, *pair})
        for x in pair if a.link == "pair" else pair[1:]:  # a pair link names both lovers (the card itself too)
            t.rec.event("skill_use", Audience(kind="seats", seats=told), actor=s, target=x, skill=a.skill or "link")
        t.lovers.append(pair)
        witness = None
        if a.witness:
            cands = tuple(x for x in sorted(t.alive) if x not in pair)
            if cands:
                witness = t.ask(Decision("witness", pair[0], t.day, cands)).choice
                told = sorted({*told, witness})
                t.rec.event("skill_use", Audience(kind="seats", seats=told), actor=pair[0], target=witness, skill="witness")
                for x in pair:  # the witness is told who the lovers are
                    t.rec.event("skill_use", Audience(kind="seats", seats=[witness]), actor=witness, target=x, skill="lovers_told")
        t.witnesses[pair] = witness
        mixed = len({t.faction(x) for x in pair}) > 1
        if a.side_switch == "always" or (a.side_switch == "mixed" and mixed):
            for x in sorted({s, *pair, *([witness] if witness is not None else [])}):
                if t.side(x) != "third":
                    t.third.add(x)
                    t.rec.event("skill_use", Audience(kind="seats", seats=[x]), actor=x, target=x, skill="side_switch", result="third")


def partner(t: Table, seat: int) -> int | None:
    """The seat linked to `seat` as its lover, if any."""
    return next((b if a == seat else a for a, b in t.lovers if seat in (a, b) and a != b), None)


def heartbreak(t: Table, seats: list[int]) -> None:
    """Lovers leave together: the partner of each seat that just left, if still in, leaves too."""
    for seat in seats:
        other = partner(t, seat)
        if other is not None and other in t.alive:
            seg = t.host(t.line("heartbreak", seat=other, actor=seat))
            t.leave(other, "died_with_partner", seg, shot=False)


def third_killers(t: Table) -> list[int]:
    """Who makes the night kill for the third side tonight: none while a wolf-side seat is in; the lovers, else the witness."""
    if any(t.side(s) == "wolf" for s in t.alive):
        return []
    if not any((a := t.board.ability(t.roles[s])) is not None and a.action == "link" and a.third_kill for s in t.roles):
        return []
    lovers = [x for pair in t.lovers for x in pair if x in t.alive and t.side(x) == "third"]
    if lovers:
        return sorted(set(lovers))
    return sorted(w for w in t.witnesses.values() if w is not None and w in t.alive and t.side(w) == "third")


def winner(t: Table) -> str | None:
    """The side that has won: a third side once it is all that is in; the others only while none of it is in."""
    alive = t.alive
    if not alive:
        return None
    third = [s for s in alive if t.side(s) == "third"]
    if third:
        return "third" if len(third) == len(alive) else None
    wolves = [s for s in alive if t.side(s) == "wolf"]
    others = [s for s in alive if t.side(s) != "wolf"]
    if not wolves:
        return "good"
    win = t.board.spec.win
    if win == "parity":
        return "wolf" if len(wolves) >= len(others) else None
    if win == "all_elimination":
        return None if others else "wolf"
    # Side elimination: the wolves win once a whole team of the good side is out (a good role declared without a team
    # plays with the villagers; a seat that left the good side for a third one no longer counts for it).
    teams = {t.team(s) for s in t.roles if t.side(s) == "good"}
    alive_teams = {t.team(s) for s in others}
    return "wolf" if not others or teams - alive_teams else None
