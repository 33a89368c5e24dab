"""Minimal pairs: `werealign generate DATASET --negatives minimal --out DIR`, no model.

The key is a human-voiced item's key (werealign.generation.human: the move span of the viewpoint's next
turn); the eight distractors are the same words with the move changed, so wording, register and length
are the key's and only the move tells them apart:

- the seat the move aims at (the first seat the key names other than the viewpoint's, alive at the
  cut-off when one is) swapped for another seat of the same standing (alive, or out), every form of it
  renumbered (werealign.audit.seats); seats the transcript names about as often as the target first,
  so how often a seat was talked about does not point at the key;
- a claimed or reported role swapped for another role of the board (the board's own labels), and a
  check result flipped (`FLIPS`: good against wolf, in the languages the project writes prompts in);
- then the two together.

An item needs eight distinct changes; a key with too few seats and roles to change gives none (said in
dropped.jsonl). Distractor origins: `m1_role_perturbation` for a changed seat or role,
`m1_faction_inversion` for a flipped result; each option's change is in the item's source_ref.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from werealign.audit.seats import mentions, renumber
from werealign.generation import human_text as ht
from werealign.schema import GameLog
from werealign.schema.roles import ROLE_LABELS

METHOD = "minimal-pair/1"
DISTRACTORS = 8
# A check result or a side, and its opposite: the flip of a report ("gold water" against "checked kill").
FLIPS = (("金水", "查杀"), ("好人", "狼人"), ("good", "wolf"))


def board_labels(game: GameLog) -> dict[str, str]:
    """Role id -> a label of it in the game's language, for the roles on the board (the composition's own
    label first, else the first catalogue label a text of the game's script would use)."""
    out: dict[str, str] = {}
    for rc in game.rules.composition:
        if rc.original_label:
            out.setdefault(rc.role, rc.original_label)
    cjk = game.language.startswith(("zh", "ja"))
    for label, role in ROLE_LABELS.items():
        if role in {rc.role for rc in game.rules.composition} and role not in out and (not label.isascii()) == cjk and len(label) > 1:
            out[role] = label
    return out


def _role_swaps(key: str, game: GameLog) -> list[tuple[str, str]]:
    """(changed text, what changed) for each role the key names swapped for each other role of the board."""
    labels = board_labels(game)
    out = []
    for role in sorted(ht.roles_named(key)):
        said = next((lab for lab, r in sorted(ROLE_LABELS.items(), key=lambda lr: -len(lr[0])) if r == role and lab.casefold() in key.casefold()), None)
        if said is None:
            continue
        for other, label in sorted(labels.items()):
            if other != role and label.casefold() not in key.casefold():
                out.append((re.sub(re.escape(said), label, key, count=1, flags=re.IGNORECASE), f"role {said}->{label}"))
    return out


def _flips(key: str) -> list[tuple[str, str]]:
    out = []
    for a, b in FLIPS:
        for x, y in ((a, b), (b, a)):
            if re.search(re.escape(x), key, re.IGNORECASE) and not re.search(re.escape(y), key, re.IGNORECASE):
                out.append((re.sub(re.escape(x), y, key, flags=re.IGNORECASE), f"result {x}->{y}"))
    return out


def variants(key: str, game: GameLog, me: int, live: tuple[int, ...], dead: tuple[int, ...], transcript: str,
             seed: str) -> tuple[list[tuple[str, str, str]], str | None]:
    """Eight (text, origin, change) distractors, or the reason there are not eight."""
    named = [m.seat for m in mentions(key) if m.seat != me]
    seats = {s.seat for s in game.seats}
    target = next((s for s in named if s in live), named[0] if named else None)
    swaps: list[tuple[str, str]] = []
    if target is not None and target in seats:
        pool = [s for s in (live if target in live else dead) if s != me and s not in named]
        talk = Counter(m.seat for m in mentions(transcript))
        rng = random.Random(seed)
        rng.shuffle(pool)
        pool.sort(key=lambda s: abs(talk[s] - talk[target]))
        swaps = [(renumber(key, {target: s}), f"seat {target}->{s}") for s in pool]
    roles = _role_swaps(key, game) + _flips(key)
    # A grid of seats x roles, the key one cell: every seat and every role appears equally often, so the
    # key is not the option the others agree with most (the centroid of one-change distractors).
    for a, b in sorted(((a, b) for a in range(1, len(swaps) + 2) for b in range(1, len(roles) + 2) if a * b > DISTRACTORS),
                       key=lambda ab: (ab[0] * ab[1], -ab[0])):
        cells = []
        for i in range(a):
            for j in range(b):
                if i == 0 and j == 0:
                    continue
                text, change = key, []
                if j:
                    text, what = roles[j - 1]
                    change.append(what)
                if i:
                    text = renumber(text, {target: int(swaps[i - 1][1].split("->")[1])})  # type: ignore[dict-item]
                    change.append(swaps[i - 1][1])
                origin = "m1_faction_inversion" if j and roles[j - 1][1].startswith("result") else "m1_role_perturbation"
                cells.append((text, origin, "; ".join(change)))
        distinct = list({c[0]: c for c in cells if c[0] != key}.values())
        if len(distinct) >= DISTRACTORS:
            return distinct[:DISTRACTORS], None
    return [], f"too few changes of the key's move (seats to swap: {len(swaps)}, roles or results to flip: {len(roles)})"
