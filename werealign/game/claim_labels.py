"""The claim reader against hand labels (issue 42): recall, precision and every disagreement, per labelled set.

A labels file (tests/data/claim_labels_werebench.json is one) is JSON: {"labels": [{"game", "utterance", "seat",
"claim", "set"}, ...]}, `utterance` a turn index of the game, `claim` the role the turn claims for its speaker (a role
id, or a raw name when the catalogue did not know the role) or null. Structured labels only: the turns' words are
read from the games, never stored with the labels.

Recall = turns read with the labelled role / labelled claims; precision = the same / turns read as claims (a claim
read with the wrong role counts against both). A label that no longer points at its turn (no such game or turn, or
another speaker) is an error naming the label, never skipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from werealign.game.claims import reader_for
from werealign.schema import GameLog, Utterance
from werealign.schema.roles import canonical_role, catalogue_for


FIELD = "claim"  # the labels file's field holding the claimed role (its format), not the item kind of that name


class LabelError(ValueError):
    """A label that does not point at a turn of the games given."""


@dataclass
class LabelScore:
    turns: int = 0
    claims: int = 0  # labelled claims
    read: int = 0  # turns the reader reads as claims
    right: int = 0  # read with the labelled role
    misses: list[dict] = field(default_factory=list)  # every disagreement: the label, what was read

    @property
    def recall(self) -> float:
        return self.right / self.claims if self.claims else 0.0

    @property
    def precision(self) -> float:
        return self.right / self.read if self.read else 0.0


def load_labels(path: Path) -> list[dict]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        labels = data["labels"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LabelError(f"{path}: not a labels file with a 'labels' list ({exc})") from exc
    for i, row in enumerate(labels):
        missing = [k for k in ("game", "utterance", "seat", FIELD, "set") if not isinstance(row, dict) or k not in row]
        if missing:
            raise LabelError(f"{path}: label {i} lacks {', '.join(missing)}")
    return labels


Reader = Callable[[GameLog, Utterance], "str | None"]  # a turn's claimed role, or None


def rule_reader(game: GameLog, turn: Utterance) -> str | None:
    """The rule reader (werealign.game.claims)."""
    return reader_for(game).claim(turn.text, turn.speaker)


def labelled_turns(labels: Iterable[dict], games: Mapping[str, GameLog],
                   sets: Iterable[str] | None = None) -> Iterator[tuple[dict, GameLog, Utterance]]:
    """(label, game, turn) for each label of `sets` (None: every label); LabelError for a label off its turn."""
    wanted = None if sets is None else set(sets)
    for row in labels:
        if wanted is not None and row["set"] not in wanted:
            continue
        game = games.get(row["game"])
        turn = next((u for u in game.utterances if u.index == row["utterance"]), None) if game else None
        if turn is None or turn.speaker != row["seat"]:
            raise LabelError(f"label {row}: game {row['game']} has no turn {row['utterance']} by seat {row['seat']}")
        yield row, game, turn


def score_labels(labels: Iterable[dict], games: Mapping[str, GameLog], sets: Iterable[str] | None = None,
                 read: Reader = rule_reader) -> LabelScore:
    """`read`'s score (by default the rule reader's) on the labels of `sets` (None: every label), turn by turn."""
    out = LabelScore()
    for row, game, turn in labelled_turns(labels, games, sets):
        got = read(game, turn)
        # a label made while the role was unknown is its raw name; a catalogue that learns the role reads it by id
        claimed = row[FIELD] and (canonical_role(row[FIELD], catalogue_for(game.rules.declared_roles)) or row[FIELD])
        out.turns += 1
        out.claims += claimed is not None
        out.read += got is not None
        out.right += got is not None and got == claimed
        if got != claimed:
            out.misses.append({**row, "label": claimed, "read": got})
    return out
