"""Small parsers for the text conventions of the WereBench release (timestamps, seat labels, phases, its role slips);
the host's exit announcements and seats named in text are read by werealign.importers.toolkit.exits.

Kept apart from the converter so each rule is easy to read and test on invented strings.
"""

from __future__ import annotations

import re

from werealign.schema.roles import RoleDeclaration, catalogue_for
from werealign.text.zh_numbers import chinese_number  # noqa: F401 - the log reader and its tests use it from here

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
# The release spells it "sheiff_election"; accept the correct spelling too.
SHERIFF_KEYS = ("sheiff_election", "sheriff_election")
END_KEY = "end_time"

_TIME = re.compile(r"^(\d{1,2}):(\d{2}):(\d{2})[,.](\d{1,3})$")
_PHASE = re.compile(rf"^({'|'.join(ORDINALS)})_(night|day)$")
_SEAT_LABEL = re.compile(r"^\s*(\d{1,2})\s*号?\s*$")


def parse_time(text: str) -> tuple[float | None, str | None]:
    """'HH:MM:SS,mmm' -> (seconds, note). note says how a sloppy value was read; None when clean."""
    clean = text.strip()
    m = _TIME.match(clean)
    if not m:
        return None, None
    h, mi, s, ms = m.groups()
    # Short milliseconds (',72') are read as the release's own build script read them (72 ms), so
    # phases match the processed logs and `annotate build` of the same config.
    seconds = int(h) * 3600 + int(mi) * 60 + int(s) + int(ms) / 1000
    notes = []
    if clean != text:
        notes.append("surrounding whitespace stripped")
    if len(ms) != 3:
        notes.append(f"milliseconds '{ms}' read as {int(ms)} ms, as the release's build script reads them")
    return round(seconds, 3), ("; ".join(notes) or None)


def phase_key(key: str) -> tuple[str, str, int] | None:
    """Source phase name -> (our phase id, kind, day), or None for a key that is not a phase."""
    if key in SHERIFF_KEYS:
        return "sheriff-election", "sheriff_election", 1
    m = _PHASE.match(key)
    if not m:
        return None
    day = ORDINALS.index(m.group(1)) + 1
    return f"{m.group(2)}-{day}", m.group(2), day


def phase_sort_key(phase_id: str) -> tuple[int, int]:
    """Game order: night-1, sheriff-election, day-1, night-2, day-2, ..."""
    if phase_id == "sheriff-election":
        return 1, 1
    kind, day = phase_id.rsplit("-", 1)
    return int(day), (0 if kind == "night" else 2)


def seat_of_label(label: object) -> int | None:
    """'12号' / '12' / 12 -> 12; anything else -> None."""
    if isinstance(label, bool):
        return None
    if isinstance(label, int):
        return label
    if isinstance(label, str):
        m = _SEAT_LABEL.match(label)
        if m:
            return int(m.group(1))
    return None


# The release's slips in role labels: label -> (the role it stands for, the repair's note). They are declared the way
# any dataset declares roles (the slip becomes a name of its role; the label is kept beside the canonical id, and
# seats.py reports the repair, `role_label_typo`), into the configs the importer writes too (declarations_used).
# 阔人 is the true-role label of seat 9 of Season_1/11.json (metadata.real_role, and its turns' role field): the game's
# own role list names 猎人 and no 阔人, and its recap names seat 9 the hunter. No turn, log or recap of the release
# writes it, so it is a slip of labels only: the readers of text (werealign.importers.toolkit) match the catalogue's
# names and each seat's own label, not it.
LABEL_SLIPS = {"阔人": ("hunter", "typo of 猎人 (hunter)")}
SLIP_DECLARATIONS = [RoleDeclaration(id=role, names={"zh": [label]}) for label, (role, _) in LABEL_SLIPS.items()]
RELEASE_ROLES = catalogue_for(SLIP_DECLARATIONS)  # the catalogue the release's labels are read with


def declarations_used(labels: list[str]) -> list[RoleDeclaration]:
    """The release declarations that some of `labels` need (to write them into a converted config)."""
    wanted = {label.strip() for label in labels}
    return [d for d in SLIP_DECLARATIONS if wanted & {n for names in d.names.values() for n in names}]
