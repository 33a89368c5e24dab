"""One truth per seat: the release's true-role table (`real_role`) checked against what the annotator log and
the host's recap state about each seat.

A source states a seat's role where it says so outright: "N 号是<role>", "N 号为<role>", "N 号（<role>）",
"N 号<role>，" in a roster, "3 号、5 号为狼人" for a list; never inside a clause with a word of speech
("1 号发言认为 9 号是真预言家" is an opinion, and a claim at the table is what a bluffing wolf makes). The first
statement per seat counts (logs open with the roster). A statement agrees with a role it names, and plain
"狼人" agrees with any wolf-side special role.

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

from werealign.importers.werebench_ctx import Ctx
from werealign.importers.werebench_nights import SPEECH
from werealign.importers.werebench_seats import roles_named
from werealign.importers.werebench_text import RELEASE_ROLES, seats_mentioned
from werealign.schema import SeatInfo

_STATED = re.compile(r"((?:\d{1,2}\s*号\s*[、和及与]?\s*)*\d{1,2}\s*号)\s*(?:玩家)?\s*(?:是|为|[（(])?\s*([^，,；;。、\s]{1,14})")
# Seats of a list are joined by a separator; "2 号12 号是…" (a transcript's stutter) states only the seat next to the verb.
_LIST_SEP = re.compile(r"\s*[、和及与]\s*")
_CLAUSE = re.compile(r"[，,；;。]")


@dataclass(frozen=True)
class SeatTruth:
    seats: list[SeatInfo]
    disputed: dict[int, str]  # seat -> what the sources say
    corrected: dict[int, str]  # seat -> what changed and why


def stated_roles(text: str | None, n_seats: int) -> dict[int, list[str]]:
    """seat -> the roles a text first states for it (module docstring)."""
    out: dict[int, list[str]] = {}
    for clause in _CLAUSE.split(text or ""):
        if SPEECH.search(clause):
            continue
        for m in _STATED.finditer(clause):
            phrase = m.group(2)
            # the role must open the phrase ("狼人", "盗贼（选女巫）"): "被 10 号选为情侣" states no role of seat 10
            if not any(RELEASE_ROLES.canonical(phrase[:k]) for k in range(1, min(6, len(phrase)) + 1)):
                continue
            roles = roles_named(phrase)
            if len(roles) > 2:
                continue
            for part in _LIST_SEP.split(m.group(1)):
                for seat in seats_mentioned(part, n_seats)[-1:]:
                    out.setdefault(seat, roles)
    return out


def _agrees(named: list[str], role: str) -> bool:
    return role in named or ("werewolf" in named and RELEASE_ROLES.faction(role) == "wolf")


def reconcile_roles(seats: list[SeatInfo], logs: str | None, recap: str | None, ctx: Ctx, self_destructed: set[int] = frozenset()) -> SeatTruth:
    """`self_destructed`: seats the host announced blowing themselves up, which only a wolf-side card does: a
    vote for the wolf side (no role of its own)."""
    n = max((s.seat for s in seats), default=0)
    sources = {"annotator log": stated_roles(logs, n), "recap": stated_roles(recap, n)}
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
