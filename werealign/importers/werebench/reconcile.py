"""One truth per seat: the release's true-role table (`real_role`) checked against what the annotator log and
the host's recap state about each seat.

A source states a seat's role in two ways, read for any role of the release's table or of the game's own config
(a role no catalogue knows, "天狗", is named by its config label):
- a roster: a clause that opens with the seat(s) and goes on with the role, with or without a verb:
  "N 号是<role>", "N 号为<role>", "N 号（<role>）", "N 号<role>参与警长竞选", "3 号、5 号为狼人", "1 号村民、2 号女巫".
  A seat elsewhere in a clause is its object ("第二日点 2 号 12 号是狼" points at seats, "验 7 号是狼" reports a
  check); an entry that goes on about its seat ends the roster of its clause;
- a label: the role word right before a seat, as recaps name players ("狼兄12 号被票出局", "女巫 3 号用了解药"),
  unless a word of speech or a claim comes before it in its clause ("悍跳预言家 10 号", "认为…").
A role between two seats without a verb ("12 号女巫 9 号") may belong to either and is read for neither. The first
statement per seat counts (logs open with the roster). A statement agrees with a role it names, and plain "狼人"
agrees with any wolf-side special role.

A seat the host announces self-destructing votes for the wolf side (only a wolf-side card may), without a role.
- real_role has the majority (itself and the sources agreeing with it against the rest), or no other source
  states the seat: kept.
- The sources against real_role are the majority and name one role between them: the seat is corrected
  (reported with every reading).
- Otherwise no majority: the seat is disputed (real_role kept in the game, the seat reported), and the importer
  withholds the items whose answer or viewpoint depends on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from werealign.importers.toolkit.ctx import Ctx
from werealign.importers.toolkit.nights.night_words import SPEECH
from werealign.importers.werebench.seats import roles_named
from werealign.importers.werebench.text import RELEASE_ROLES
from werealign.importers.toolkit.exits import seats_mentioned
from werealign.schema import SeatInfo

_SEATS = r"((?:\d{1,2}\s*号\s*[、和及与]?\s*)*\d{1,2}\s*号)"
_STATED = re.compile(_SEATS + r"\s*(?:玩家)?\s*(?:是|为|[（(])?\s*([^，,；;。、\s]{1,14})")
# Seats of a list are joined by a separator; "2 号12 号是…" (a transcript's stutter) states only the seat next to the verb.
_LIST_SEP = re.compile(r"\s*[、和及与]\s*")
_CLAUSE = re.compile(r"[，,；;。：:]")
# A role word right before a seat labels that seat ("狼兄12 号出局", "女巫3 号使用了解药"): how a recap names players.
_LABEL_SEAT = re.compile(r"\s*(?<!\d)(\d{1,2})\s*号")
# Any number read as a seat right after a role word, a garbled name's digits included ("女孩 2010 号").
_NEXT_SEAT = re.compile(r"\s*\d+\s*号")
# Before a label, a claim or a check turns it into what someone said ("悍跳预言家 10 号", "给 5 号查杀狼人 8 号").
_CLAIMED = re.compile(r"查杀|金水|验|假|冒|悍|焊|疑|像")
_MAX_ROLE = 14  # characters of the longest role word read (a game's own labels can be long: "操纵月亮的女孩")


# A role word right after a seat, or after "是"/"为", ends the statement before it ("12 号女巫 9 号", "1 号是女巫 10 号是
# 潜行者" in a transcript without commas): it may belong to that seat, not to the one after.
_ENDS_STATEMENT = re.compile(r"(?:\d\s*号|[是为])\s*(?:玩家)?\s*$")


def _role_at(text: str, i: int, labels: dict[str, str]) -> tuple[str, int] | None:
    """(role, length) of the role word starting at text[i], longest first: the release's role table or one of
    the game's own labels (a role no catalogue knows, named as the config names it)."""
    for n in range(min(_MAX_ROLE, len(text) - i), 0, -1):
        role = _role_word(text[i : i + n], labels)
        if role is not None:
            return role, n
    return None


def _role_word(word: str, labels: dict[str, str]) -> str | None:
    """The role `word` names, whole: one of the game's own labels first, else the release's table (up to 5 characters)."""
    if word in labels:
        return labels[word]
    return _release_role(word) if len(word) <= 5 and not word.isascii() else None


@lru_cache(maxsize=1 << 16)
def _release_role(word: str) -> str | None:
    # The same few thousand substrings are looked up again and again (over 100,000 lookups in an import of the release)
    return RELEASE_ROLES.canonical(word) or None


def stated_roles(text: str | None, n_seats: int, labels: dict[str, str] | None = None) -> dict[int, list[str]]:
    """seat -> the roles a text first states for it (module docstring). `labels`: the game's own role labels
    (label -> role id), so a role no catalogue knows is read as the config names it."""
    labels = labels or {}
    found: list[tuple[int, int, list[str]]] = []  # (position, seat, roles)
    pos = 0
    for clause in _CLAUSE.split(text or ""):
        start, pos = pos, pos + len(clause) + 1
        found += [(start + at, seat, roles) for at, seat, roles in _roster(clause, n_seats, labels)]
        found += [(start + at, seat, roles) for at, seat, roles in _labelled(clause, n_seats, labels)]
    out: dict[int, list[str]] = {}
    for _, seat, roles in sorted(found, key=lambda f: f[0]):
        out.setdefault(seat, roles)
    return out


def _roster(clause: str, n_seats: int, labels: dict[str, str]) -> list[tuple[int, int, list[str]]]:
    """Seats stated with their role by a clause that opens with them: "3 号是狼人", "1 号村民参与警长竞选",
    "3 号、5 号为狼人", "4 号（猎人）". A seat elsewhere in a clause is its object ("第二日点 2 号 12 号是狼" points
    at seats; "验 7 号是狼" reports a check), not a statement of its role."""
    out = []
    end = 0
    for m in _STATED.finditer(clause):
        if clause[end : m.start()].strip(" 、\t\n0123456789"):  # a roster goes on after "、", a space or a stray number
            break
        end = m.end()
        phrase = m.group(2)
        first = _role_at(phrase, 0, labels)
        # the role must open the phrase ("狼人", "盗贼（选女巫）"): "被 10 号选为情侣" states no role of seat 10;
        # without a verb, a role between two seats ("12 号女巫 9 号使用解药") may label either: it is read for neither
        verb = bool(re.search(r"[是为（(]", clause[m.end(1) : m.start(2)]))
        if first is None or (not verb and _NEXT_SEAT.match(clause, m.start(2) + first[1])):
            break
        # a second role only in brackets right after the first ("盗贼（选女巫）"); "村民）第二晚被狼人刀死" states one
        rest = phrase[first[1]:]
        roles = list(dict.fromkeys([first[0], *(roles_named(rest) if rest[:1] in "（(" else [])]))
        if len(roles) > 2:
            break
        for part in _LIST_SEP.split(m.group(1)):
            for seat in seats_mentioned(part, n_seats)[-1:]:
                out.append((m.start(), seat, roles))
        if rest.strip("）) 0123456789") and rest[:1] not in "（(":
            break  # the clause goes on about this seat ("3 号（猎人）白天认为 8 号是狼"): no more roster in it
    return out


def _labelled(clause: str, n_seats: int, labels: dict[str, str]) -> list[tuple[int, int, list[str]]]:
    """Seats labelled by the role word right before them ("狼兄12 号", "女巫 3 号"), unless a word of speech or a
    claim comes before the label in its clause (then it is what someone said)."""
    out = []
    for m in _LABEL_SEAT.finditer(clause):
        seat = int(m.group(1))
        if not 1 <= seat <= n_seats:
            continue
        # the earliest start whose whole rest up to the seat is a role word (the longest role word ending at the seat)
        end = m.start()
        at, role = next(((i, r) for i in range(max(0, end - _MAX_ROLE), end) if (r := _role_word(clause[i:end], labels)) is not None),
                        (None, None))
        if role is None:
            continue
        before = clause[:at]
        if SPEECH.search(before) or _CLAIMED.search(before) or _ENDS_STATEMENT.search(before):
            continue
        out.append((at, seat, [role]))
    return out


@dataclass(frozen=True)
class SeatTruth:
    seats: list[SeatInfo]
    disputed: dict[int, str]  # seat -> what the sources say
    corrected: dict[int, str]  # seat -> what changed and why


def _agrees(named: list[str], role: str) -> bool:
    return role in named or ("werewolf" in named and RELEASE_ROLES.faction(role) == "wolf")


def reconcile_roles(seats: list[SeatInfo], logs: str | None, recap: str | None, ctx: Ctx, self_destructed: set[int] = frozenset()) -> SeatTruth:
    """`self_destructed`: seats the host announced blowing themselves up, which only a wolf-side card does: a
    vote for the wolf side (no role of its own)."""
    n = max((s.seat for s in seats), default=0)
    # The config's own labels of roles the release's table does not know ("天狗"): a source naming one agrees with it.
    labels = {s.original_role_label: s.role for s in seats if s.original_role_label and RELEASE_ROLES.canonical(s.original_role_label) is None}
    sources = {"annotator log": stated_roles(logs, n, labels), "recap": stated_roles(recap, n, labels)}
    out, disputed, corrected = [], {}, {}
    for s in seats:
        said = {name: found[s.seat] for name, found in sources.items() if s.seat in found}
        wolf_act = s.seat in self_destructed
        for_real = 1 + sum(_agrees(r, s.role) for r in said.values()) + (wolf_act and RELEASE_ROLES.faction(s.role) == "wolf")
        against = {k: v for k, v in said.items() if not _agrees(v, s.role)}
        n_against = len(against) + (wolf_act and RELEASE_ROLES.faction(s.role) != "wolf")
        if n_against == 0 or n_against < for_real:
            out.append(s)
            continue
        readings = f"real_role '{s.original_role_label}' ({s.role}); " + "; ".join(f"{k}: {'/'.join(v)}" for k, v in said.items()) \
            + ("; the host: self-destructed (a wolf-side act)" if wolf_act else "")
        common = set.intersection(*(set(v) for v in against.values())) if against else set()
        if wolf_act:
            common = {r for r in common if RELEASE_ROLES.faction(r) == "wolf"}
        if n_against > for_real and len(common) == 1:
            role = common.pop()
            faction = RELEASE_ROLES.faction(role)
            corrected[s.seat] = f"{s.role} -> {role}"
            ctx.add("repaired", "role_corrected", "metadata.real_role", f"seat {s.seat}: {readings}",
                    f"the majority of the sources is against real_role: seat {s.seat} is {role} ({faction}); the items that depend on it follow")
            out.append(s.model_copy(update={"role": role, "faction": faction}))
            continue
        disputed[s.seat] = readings
        ctx.add("warning", "role_disputed", "metadata.real_role", f"seat {s.seat}: {readings}",
                "no majority among the sources: real_role kept in the game; items whose answer or viewpoint depends on the seat are withheld")
        out.append(s)
    return SeatTruth(out, disputed, corrected)
