"""The seats of one WereBench game and who won: true roles from `real_role` (keyed by speaker label,
through the canonical role table), checked against the annotator log's own statement of each seat."""

from __future__ import annotations

import re

from werealign.importers.toolkit.ctx import Ctx, GameDropped
from werealign.importers.werebench.source import RawMetadata
from werealign.importers.werebench.text import LABEL_SLIPS, RELEASE_ROLES, seat_of_label
from werealign.schema import SeatInfo, is_host_label
from werealign.schema.roles import Faction



def read_seats(meta: RawMetadata, ctx: Ctx) -> tuple[list[SeatInfo], list[str], dict[str, int | str]]:
    """Seats with true roles, host labels, and speaker label -> seat/"host"."""
    label_to_speaker: dict[str, int | str] = {}
    host_labels: list[str] = []
    seat_labels: dict[int, list[str]] = {}
    seat_roles: dict[int, set[str]] = {}
    for label in sorted(meta.user_aliases, key=_label_order):
        targets = meta.user_aliases[label]
        field = f"metadata.user_aliases.{label}"
        if len(targets) != 1:
            raise GameDropped(f"{field}: expected exactly one seat or 'host', got {targets}")
        target = targets[0]
        role_label = meta.real_role.get(label)
        if is_host_label(target):
            host_labels.append(label)
            label_to_speaker[label] = "host"
            if role_label is not None and not is_host_label(role_label):
                ctx.add("warning", "host_with_role", f"metadata.real_role.{label}", f"host label has role '{role_label}'", "kept as host; the role is ignored")
            elif role_label is not None and role_label.strip().lower() != "host":
                ctx.add("repaired", "host_label_typo", f"metadata.real_role.{label}", f"'{role_label}'", "read as 'host' (typo)")
            continue
        seat = seat_of_label(target)
        if seat is None or not 1 <= seat <= 30:
            raise GameDropped(f"{field}: '{target}' is neither a seat like '12号' nor 'host'")
        if role_label is None:
            raise GameDropped(f"metadata.real_role: no true role for speaker label '{label}' (seat {seat})")
        if is_host_label(role_label):
            raise GameDropped(f"metadata.real_role.{label}: role '{role_label}' is the host but user_aliases maps the label to seat {seat}")
        label_to_speaker[label] = seat
        seat_labels.setdefault(seat, []).append(label)
        seat_roles.setdefault(seat, set()).add(role_label)
    for label in sorted(set(meta.real_role) - set(meta.user_aliases), key=_label_order):
        ctx.add("warning", "role_without_alias", f"metadata.real_role.{label}", f"true role '{meta.real_role[label]}' for a label user_aliases does not map", "ignored: no seat to give it to")
    if not seat_labels:
        raise GameDropped("metadata.user_aliases maps no label to a seat")
    seats = []
    for seat in sorted(seat_labels):
        labels = seat_labels[seat]
        roles = sorted(seat_roles[seat])
        if len(roles) > 1:
            raise GameDropped(f"seat {seat}: speaker labels {labels} have different true roles {roles}")
        original = roles[0]
        role, faction = _seat_role(original, seat, f"metadata.real_role.{labels[0]}", ctx)
        if original.strip() in LABEL_SLIPS:
            ctx.add("repaired", "role_label_typo", f"metadata.real_role.{labels[0]}", f"'{original}' (seat {seat})",
                    f"read as '{role}': {LABEL_SLIPS[original.strip()][1]}")
        if len(labels) > 1:
            ctx.add("warning", "seat_has_several_labels", "metadata.user_aliases", f"seat {seat} is spoken by labels {labels} (same true role '{original}')", "kept: all labels map to the seat")
        seats.append(SeatInfo(seat=seat, role=role, faction=faction, original_role_label=original, speaker_labels=labels))
    missing = sorted(set(range(1, max(seat_labels) + 1)) - set(seat_labels))
    if missing:
        ctx.add("warning", "missing_seats", "metadata.user_aliases", f"no speaker label maps to seats {missing}", "those seats have no role and no turns")
    return seats, host_labels, label_to_speaker


def _seat_role(label: str, seat: int, field: str, ctx: Ctx) -> tuple[str, Faction]:
    """(role, faction) for a true-role label. An unknown label keeps its game: the label itself is
    the role; the faction comes from the roles the label names ('狼人（白狼王）'), else `unknown`."""
    role = RELEASE_ROLES.canonical(label)
    if role is not None:
        return role, RELEASE_ROLES.faction(role)
    named = {RELEASE_ROLES.faction(r) for r in roles_named(label)} - {"variable"}
    if len(named) == 1:
        faction = named.pop()
        ctx.add("warning", "unknown_role_label", field, f"'{label}' (seat {seat}) is not in the role catalogue",
                f"kept as the role; faction '{faction}' from the role names inside the label")
        return label.strip(), faction
    ctx.add("warning", "unknown_role_label", field, f"'{label}' (seat {seat}) is not in the role catalogue",
            "kept as the role with faction 'unknown': items that need this seat's side are skipped")
    return label.strip(), "unknown"


def _label_order(label: str) -> tuple[int, str]:
    m = re.search(r"(\d+)\s*$", label)
    return (int(m.group(1)) if m else 10**6, label)


# "好人阵营胜利", "狼人获胜", "好人阵营……，获得了最终的胜利": the nearest side named before the
# result word within the sentence. A negated or doubtful phrase ("不想让好人赢", "无法获得胜利",
# "很难获得胜利", "让第三方赢") is not a result.
_WIN = re.compile(r"(好人|狼人|第三方)(阵营)?((?:(?!好人|狼人|第三方)[^。；;！!]){0,40}?)(胜利|获胜|赢)")


_WIN_SIDE: dict[str, Faction] = {"好人": "good", "狼人": "wolf", "第三方": "third"}
_NEGATION = re.compile(r"[不没未难让想]|无法")


def _stated_winner(text: str | None) -> Faction | None:
    """The last result statement of a text (recaps end with the result)."""
    hits = [m for m in _WIN.finditer(text or "") if not _NEGATION.search(text[max(0, m.start() - 3) : m.start()] + m.group(3))]
    return _WIN_SIDE[hits[-1].group(1)] if hits else None


def read_winner(summary: str | None, logs: str | None, ctx: Ctx) -> Faction | None:
    recap, log = _stated_winner(summary), _stated_winner(logs)
    if recap and log and recap != log:
        ctx.add("warning", "winner_sources_disagree", "metadata.summary", f"the recap says {recap} won, the annotator log says {log}", f"winner {recap} (the recap)")
    if recap or log:
        return recap or log
    ctx.add("warning", "winner_unknown", "metadata.summary", "neither the recap nor the annotator log states which side won", "winner null")
    return None


def roles_named(text: str) -> list[str]:
    """Role labels in a short phrase, longest label first at each position."""
    found: list[str] = []
    i = 0
    while i < len(text):
        for n in range(min(5, len(text) - i), 0, -1):
            role = RELEASE_ROLES.canonical(text[i : i + n]) if not text[i : i + n].isascii() else None
            if role:
                if role not in found:
                    found.append(role)
                i += n
                break
        else:
            i += 1
    return found
