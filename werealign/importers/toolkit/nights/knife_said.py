"""Which seats the annotator log or the host's recap say met the wolves' knife, wherever they say it (issue 41).

The host's dawn tells who died and when; it does not tell why. When a role that kills by its own skill (the witch's
poison, the stalker's assassination: the role catalogue's `night_kill`) is alive and its act that night unknown, a lone dawn
death may be its doing (nights.night_truth). A written source that says the seat was knifed settles the cause, and
the dawn gives the night: "村民 5 号被狼人刀死", "5 号遭遇首刀", "狼人刀了 5 号", in any clause, whether or not it names
the night. Not read: a clause with a word of speech or a guess ("称", "认为", "如果": night_words.SPEECH), a clause
that names a poison, an assassination, a shot, a vote or a save ("被毒", "暗杀", "带走", "救"), a knife on a night
the clause names other than the one asked about, and "刀" as a plan ("想刀", "要刀"). A seat said both knifed and
poisoned is read as neither (nights.night_truth asks for a knife and no poison).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from werealign.importers.toolkit.nights import night_words as w
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.schema import Evidence, SeatInfo
from werealign.text.zh_numbers import chinese_number

# The seat met the knife: "5 号被狼人刀死", "5 号 被刀", "5 号遭遇首刀", "5 号吃刀", "5 号在第二晚被狼队击杀".
# A few words may stand between ("8 号最终自己中刀", "7 号被成功刀死", "10 号睁眼看到自己遭遇首刀"), none a seat.
_MET = re.compile(r"(?<!\d)(?P<seat>\d{1,2})\s*号\s*(?:玩家)?[^，。；,;\d号]{0,8}?(?:被|遭|遭到|遭遇|吃|中)\s*(?:了\s*)?"
                  + r"(?:" + w.PACK + r"(?:\s*\d{1,2}\s*号)?)?[^，。；,;\d号]{0,3}?(?P<first>首)?(?:刀|击杀|杀|袭击|咬)")
# A plan, not a deed: "想刀 5 号", "要刀", "准备刀"; or a knife denied or dodged ("没有被刀", "躲过一刀").
_PLAN = re.compile(r"想|要|准备|打算|计划|本来|本想|没|未|不|免|躲|逃")
# A save or a protection in the clause or the next one ("12 号遭遇首刀，女巫开药解救"): the seat lived that night.
_SAVED = re.compile(r"救|解药|开药|守|挡|平安夜|免")
# A clause that names another cause of death, or a save: it is not a plain account of the knife.
_OTHER_CAUSE = re.compile(r"毒|暗杀|刺杀|猎杀|狩猎|枪|带走|票|自爆|决斗|殉情|救|守护|守卫|解药|交换|换")
_CLAUSE = re.compile(r"[，,；;。！!？?\n]")
_NIGHT = re.compile(r"第(?P<n>" + w.ORDINAL + r")(?:晚|夜)|(?P<first>首)(?:晚|夜)|(?P<second>次)(?:晚|夜)")


# The knife's target named by its role alone ("狼人刀死预言家", "第三晚狼人刀民"): no seat follows the role word.
_BY_ROLE = re.compile(w.KILLER + r"[^\d，。；,;号]{0,6}?" + w.KILL_VERB + r"\s*(?:了\s*)?(?:场上)?(?:的)?\s*(?:名|明|真|一名|一个|一张)?\s*"
                      + r"(?P<role>" + w.ANY_ROLE[3:-2] + r"|民)(?!\s*\d|[^\s，。；,;\d]{0,4}\d)")


@dataclass(frozen=True)
class KnifeSaid:
    seat: int | None  # None: the target is named by its role alone
    night: int | None  # the night the clause names, if any
    source: str  # "annotator_log" | "recap"
    quote: str  # the clause, verbatim
    role: str | None = None  # the target's role, when no seat is named


def knife_statements(texts: list[tuple[str, str | None]], n_seats: int) -> list[KnifeSaid]:
    """Every clause of the (source, text) pairs that says a seat met the wolves' knife (module docstring)."""
    out: list[KnifeSaid] = []
    for source, text in texts:
        clauses = _CLAUSE.split(text or "")
        for i, clause in enumerate(clauses):
            if not clause.strip() or w.SPEECH.search(clause) or _OTHER_CAUSE.search(clause) or _PLAN.search(clause):
                continue
            if _SAVED.search(clause + (clauses[i + 1] if i + 1 < len(clauses) else "")):
                continue
            met = list(_MET.finditer(clause))
            named = list(w.KILL_NAMED.finditer(clause))
            # "首刀" is the first night's knife
            nights = {_night_number(m) for m in _NIGHT.finditer(clause)} | {1 for m in met if m.group("first")} | {
                1 for m in named if "首" in m.group(0)}
            if len(nights) > 1:
                continue  # two nights in one clause: which one the knife fell on is not said
            by_role = [] if named else list(_BY_ROLE.finditer(clause))
            nights |= {1 for m in by_role if "首" in m.group(0)}
            if len(nights) > 1:
                continue
            night = next(iter(nights), None)
            seats = {int(m.group("seat")) for m in [*met, *named]}
            for seat in sorted(s for s in seats if 1 <= s <= n_seats):
                out.append(KnifeSaid(seat, night, source, clause.strip()))
            roles = {ROLE_WORDS.canonical(m.group("role")) if m.group("role") != "民" else "villager" for m in by_role}
            if len(roles) == 1 and None not in roles:
                out.append(KnifeSaid(None, night, source, clause.strip(), roles.pop()))
    return out


def _night_number(m: re.Match[str]) -> int:
    if m.group("first"):
        return 1
    if m.group("second"):
        return 2
    return chinese_number(m.group("n")) or 0


def knifed_on(statements: list[KnifeSaid], texts: list[tuple[str, str | None]], seat: int, night: int, roles: dict[int, str]) -> list[KnifeSaid]:
    """The statements that put `seat` under the knife on `night` (naming that night, or no night at all), or name its
    role as the knife's target (naming that night; or no night, when no other seat holds the role), or none
    when any clause of the sources names the seat with a poison (the annotators' "被狼人刀死" of a poisoned seat, or
    two accounts at odds: the cause is not known)."""
    mention = re.compile(r"(?<!\d)" + str(seat) + r"\s*号")
    if any(mention.search(c) and "毒" in c for _, text in texts for c in _CLAUSE.split(text or "")):
        return []
    role = roles.get(seat)
    alone = role is not None and sum(r == role for r in roles.values()) == 1
    return [k for k in statements if (k.seat == seat and k.night in (None, night))
            or (k.seat is None and k.role == role and (k.night == night or (k.night is None and alone)))]


def knife_evidence(logs: str | None, recap: str | None, seats: Sequence[SeatInfo], placed: Sequence[tuple[int | None, str]] = ()):
    """(seat, night) -> the Evidence of every clause of the log or the recap putting the seat under the wolves' knife
    that night (knifed_on); what nights.night_truth asks of a lone dawn death. `placed`: (seat, night phase) of
    every kill a night reader put somewhere, kept or dropped: a clause naming no night is not taken for a seat a reader
    put under the knife on another night (the run it stands in may name that night: "第一天白天 4 号自爆，狼人刀死 7 号")."""
    texts = [("annotator_log", logs), ("recap", recap)]
    statements = knife_statements(texts, max((s.seat for s in seats), default=0))
    roles = {s.seat: s.role for s in seats}

    def knifed(seat: int, night: int) -> list[Evidence]:
        if any(s == seat and p != f"night-{night}" for s, p in placed):
            return []
        return [Evidence(source=k.source, quote=k.quote) for k in knifed_on(statements, texts, seat, night, roles)]
    return knifed
