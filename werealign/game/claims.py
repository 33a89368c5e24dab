"""Role claims at the table (issue 31): whether a player's turn claims a role, and which.

Any player's claim counts, a wolf's counter-claim included ("我是预言家", "我跳女巫", "我的底牌是猎人", a turn that
opens on its own seat and a role: "3 号预言家，…"; "I am the seer", "my role is witch"). The role names are the role
catalogue's for the roles on the board (werealign.schema.roles: any language it names, the ids too), never a list
kept here. Precision comes first, since a false claim is a wrong key:
- a name followed by a possessive or a verb is about the role, not the speaker's own ("我是预言家的金水": the seer's
  checked good; "我是女巫救的"; "I am the seer's gold");
- a hypothesis, a belief or a report ("如果我是预言家", "他说我是女巫", "就说我是个守卫" — but "我先说我是…" is the
  speaker's own —, "你要打我是狼", "if I were the seer"), a
  counterfactual ("我是个狼，我就没有必要…") and a question ("我是预言家吗？") are no claim;
- "the seer told us" names a role without the first person: no claim.
A wolf-side role is a claim only from a wolf-side seat: a good player's "我是狼" is a wolf's-eye argument or a
joke (read by hand on the release), never a bid to be exiled. The first claim of a turn is its claim.
"""

from __future__ import annotations

import re
from werealign.game.claim_lexicon import claim_opening, not_before, role_end, side_words
from werealign.schema import GameLog, ItemProvenance, Utterance
from werealign.schema.decisions import MVP_MARK, ClaimItem
from werealign.schema.models import VOTE_PHASE_KINDS
from werealign.schema.roles import RoleCatalogue, catalogue_for
from werealign.text.zh_numbers import chinese_number

_ZH_SEAT = r"(?P<seat>\d{1,2}|[一二两三四五六七八九十]{1,3})"
# What may stand between the first person and the role name.
_ZH_IS = r"我(?:就|真的|才|确实|本身|肯定|自己|其实|本来)?(?:就是|才是|是)(?:一|这)?(?:张|个|名|位|枚)?(?:真|真的)?"
_ZH_JUMP = r"我(?:来|要|直接|先|这边|现在)?(?:起跳|跳|拍|报)(?:了)?(?:身份)?(?:一?张|个)?"  # not 认: "我认预言家" accepts another's claim
_ZH_CARD = r"我(?:的)?(?:底牌|身份|牌)(?:是|就是)(?:一?张)?"
_ZH_AFTER = r"(?!的|救|毒|验|查|守|给|发|说|要|吗|么|嘛|坑|队|阵营|视角|身份|加|或|[？?])"
_ZH_NOT = re.compile(r"如果|假如|要是|若|万一|假设|假装|想象|可能|希望|不管|无论|就跟|以为|认为|觉得|怀疑|不是|是不是|当成|当作|像|位置|立场|角度|视角|逻辑|(?:他|她|你|有人|都)(?:说|问)|(?<!我)(?<!我先)(?<!我都)(?<!我就)说了?[，,：:]?\s*(?:哎呦|哎|哦|嗯|啊|那)?[，,]?\s*$|(?:打|推|讲|喊|骂|理解|咬|踩|怼|当|认|给|信)$")
# A "claim" followed by what it would entail is a counterfactual ("我是个狼，我就没有必要…": were I a wolf, I would not).
_ZH_THEN = re.compile(r"^.{0,6}?(?:的话|的时候|我就|我也|我会|我不会|我肯定|我怎么|我没有必要|我还会|我能|我可能|我一定|我第一天|我觉得|就我觉得|那我|怎么会|会不会)")
_EN_IS, _EN_AFTER = claim_opening("en"), role_end("en")  # English wording is data (claim_lexicon.json, issue 45): "im bystander" too
_EN_NOT = re.compile(not_before("en").pattern + r"|(?<!\bI )\b(?:think|thinks|thought|said|says|claims? that)\b", re.IGNORECASE)
_WINDOW = 8  # characters before a claim searched for a hypothesis or a report


def board_roles(game: GameLog) -> list[str]:
    """The roles a player could claim: the roles on this board (seats, composition, public cards), catalogue order."""
    catalogue = catalogue_for(game.rules.declared_roles)
    roles = {s.role for s in game.seats} | {c.role for c in game.rules.composition} | set(game.rules.public_cards or [])
    return sorted(roles, key=catalogue.order)


class ClaimReader:
    """The claims of one game's turns, read through the names of its board's roles."""

    def __init__(self, game: GameLog):
        catalogue: RoleCatalogue = catalogue_for(game.rules.declared_roles)
        self.faction = {r: catalogue.faction(r) for r in board_roles(game)}
        self.seat_faction = {s.seat: s.faction for s in game.seats}
        self.roles = board_roles(game)
        self.names: dict[str, str] = {}
        for role in self.roles:
            r = catalogue.get(role)
            for name in [role, role.replace("_", " "), *((n for ns in r.names.values() for n in ns) if r else ())]:
                if name.lower() not in side_words():  # "I'm innocent", "I'm town": a side, not a card
                    self.names.setdefault(name.lower(), role)
        alternation = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
        role = r"(?P<role>" + alternation + r")"
        zh = [re.compile(_ZH_IS + role + r"(?:牌)?" + _ZH_AFTER), re.compile(_ZH_JUMP + role + _ZH_AFTER),
              re.compile(_ZH_CARD + role + _ZH_AFTER),
              re.compile(r"^\W{0,3}(?:我是)?" + _ZH_SEAT + r"\s*号(?:玩家)?\s*(?:是)?(?:一?张)?" + role + r"(?:牌)?" + _ZH_AFTER)]
        en = [re.compile(_EN_IS + role + _EN_AFTER, re.IGNORECASE)]
        self.patterns = zh + en  # every language's wording: a transcript mixes them

    def claim(self, text: str, speaker: int) -> str | None:
        """The role `speaker`'s turn `text` claims first (a role id of the board), or None."""
        first = self.first_claim(text, speaker)
        return first[1] if first else None

    def first_claim(self, text: str, speaker: int) -> tuple[int, str] | None:
        """(where in `text`, role id) of the turn's first claim, or None."""
        found: list[tuple[int, str]] = []
        for pattern in self.patterns:
            for m in pattern.finditer(text):
                before = text[max(0, m.start() - _WINDOW):m.start()]
                if _ZH_NOT.search(before) or _EN_NOT.search(before) or _ZH_THEN.search(text[m.end():m.end() + 12]):
                    continue
                seat = m.groupdict().get("seat")
                if seat is not None and (int(seat) if seat.isdigit() else chinese_number(seat)) != speaker:
                    continue  # a turn opening on another seat and a role talks about that seat
                role = self.names.get(m.group("role").lower())
                if role is not None and self.faction.get(role) == "wolf" and self.seat_faction.get(speaker) != "wolf":
                    continue  # a good player "being a wolf" reasons from a wolf's seat (or jokes); no good player claims the pack
                if role is not None:
                    found.append((m.start(), role))
        return min(found) if found else None


def claim_turns(game: GameLog) -> list[tuple[Utterance, str | None]]:
    """Every table turn of a seat by day (a sheriff election's included), with the role it claims (None: no claim)."""
    kinds = {p.id: p.kind for p in game.phases}
    reader = ClaimReader(game)
    return [(u, reader.claim(u.text, u.speaker)) for u in game.utterances
            if isinstance(u.speaker, int) and u.audience is None and kinds.get(u.phase) in VOTE_PHASE_KINDS]


def claim_items(game: GameLog, asked: set[int], tags: dict[int, list]) -> list[ClaimItem]:
    """One item per turn of an asked seat, up to and including its first claim (a claim made, the later turns
    restate it: no decision left)."""
    roles = board_roles(game)
    claimed: set[int] = set()
    out: list[ClaimItem] = []
    start = min((s for u in game.utterances for s in u.segment_ids), default=0)
    for u, role in claim_turns(game):
        seat = int(u.speaker)
        if seat in claimed or seat not in asked or u.segment_ids[0] - 1 < start:  # a cut-off must show a segment
            continue
        if role is not None:
            claimed.add(seat)
        mvp = MVP_MARK if "mvp" in tags.get(seat, []) else ""
        out.append(ClaimItem(
            item_id=f"{game.game_id}-claim-{u.phase}-t{u.index}-s{seat}{mvp}", game_id=game.game_id, language=game.language,
            viewpoint_seat=seat, phase=u.phase, turn=u.index, cutoff_segment=u.segment_ids[0] - 1, candidates=roles, answer=role,
            deciders=tags.get(seat, []),
            provenance=ItemProvenance(source=game.provenance.original_file or game.game_id, source_ref={"decision": "claim", "derived": "werealign derive"})))
    return out
