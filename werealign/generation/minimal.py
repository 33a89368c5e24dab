"""Minimal pairs: `werealign generate DATASET --negatives minimal --out DIR`, no model.

The key is a human-voiced item's key (werealign.generation.human: the move span of the viewpoint's next
turn); the eight distractors are the same words with the move changed, so wording, register and length
are the key's and only the move tells them apart:

- a seat the key names (other than the viewpoint's) swapped for another seat of the game, every form
  of it renumbered (werealign.shortcuts.seats). Each swapped seat is out at the cut-off at the keys' own
  rate (`dead_rate`: the share of seats keys name that are out), else alive, so naming a seat out
  says nothing about which option is the key. The key's likeness to what the prompt shows (character
  TF-IDF cosine with the transcript, its last turns and the viewpoint's own words, summed) is
  bracketed: swapped seats come nearest first, alternately from above and below it, so the key sits
  among its distractors rather than on top (the seat a viewpoint aims at is the one the table talks
  about: ordered by likeness alone, the key was the most like the transcript in one item in five and a
  context attack read it). Of the seats the key names, the one whose swaps bracket it most evenly is
  swapped;
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
from collections.abc import Sequence

from werealign.shortcuts.seats import mentions, renumber
from werealign.text.seat_names import names_of_seats
from werealign.generation import human_text as ht
from werealign.schema import GameLog
from werealign.schema.roles import ROLE_LABELS
from werealign.text.similarity import tfidf_cosines

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


def _likeness(texts: list[str], refs: Sequence[str]) -> list[float]:
    total = [0.0] * len(texts)
    for ref in refs:
        if ref.strip():
            total = [a + b for a, b in zip(total, tfidf_cosines(ref, texts, sublinear_tf=True))]
    return total


def _bracketed(seats: list[int], likeness: list[float], key: float, rng: random.Random) -> list[int]:
    """`seats` nearest the key's likeness first, alternately above and below it (the first side seeded)."""
    above = sorted((x - key, s) for s, x in zip(seats, likeness) if x > key)
    below = sorted((key - x, s) for s, x in zip(seats, likeness) if x <= key)
    sides = [[s for _, s in above], [s for _, s in below]]
    if rng.random() < 0.5:
        sides.reverse()
    out = []
    while sides[0] or sides[1]:
        for side in sides:
            if side:
                out.append(side.pop(0))
    return out


def seat_swaps(key: str, game: GameLog, me: int, live: Sequence[int], dead: Sequence[int], refs: Sequence[str], seed: str,
               dead_rate: float = 0.0) -> tuple[int | None, list[int]]:
    """(the seat of the key to swap, the seats to swap it for, in the order to use them)."""
    names = names_of_seats(game.seats)  # a seat named by name is swapped as surely as "5号" (issue 45)
    named = list(dict.fromkeys(m.seat for m in mentions(key, names) if m.seat != me))
    in_game = {s.seat for s in game.seats}
    best: tuple[int, int, list[int]] | None = None
    for target in (s for s in named if s in in_game):
        rng = random.Random(f"{seed}:{target}")
        pools = [[s for s in seats if s != me and s not in named and s in in_game] for seats in (live, dead)]
        flat = pools[0] + pools[1]
        scores = _likeness([key, *(renumber(key, {target: s}, names, names) for s in flat)], refs)
        like = dict(zip(flat, scores[1:]))
        ordered = [_bracketed(p, [like[s] for s in p], scores[0], rng) for p in pools]
        # each swap out at the keys' own rate, else alive (the other standing when one runs out)
        order = []
        while ordered[0] or ordered[1]:
            pick = 1 if (rng.random() < dead_rate and ordered[1]) or not ordered[0] else 0
            order.append(ordered[pick].pop(0))
        balance = min(sum(x > scores[0] for x in scores[1:]), sum(x <= scores[0] for x in scores[1:]))
        if best is None or balance > best[0]:
            best = (balance, target, order)
    return (None, []) if best is None else (best[1], best[2])


def variants(key: str, game: GameLog, me: int, live: Sequence[int], dead: Sequence[int], refs: Sequence[str],
             seed: str, dead_rate: float = 0.0) -> tuple[list[tuple[str, str, str]], str | None]:
    """Eight (text, origin, change) distractors, or the reason there are not eight. `refs`: what the
    item's prompt shows (the transcript, its last turns, the viewpoint's own words)."""
    target, order = seat_swaps(key, game, me, live, dead, refs, seed, dead_rate)
    names = names_of_seats(game.seats)
    swaps = [(renumber(key, {target: s}, names, names), f"seat {target}->{s}") for s in order]
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
                    text = renumber(text, {target: int(swaps[i - 1][1].split("->")[1])}, names, names)  # type: ignore[dict-item]
                    change.append(swaps[i - 1][1])
                origin = "m1_faction_inversion" if j and roles[j - 1][1].startswith("result") else "m1_role_perturbation"
                cells.append((text, origin, "; ".join(change)))
        distinct = list({c[0]: c for c in cells if c[0] != key}.values())
        if len(distinct) >= DISTRACTORS:
            return distinct[:DISTRACTORS], None
    return [], f"too few changes of the key's move (seats to swap: {len(swaps)}, roles or results to flip: {len(roles)})"
