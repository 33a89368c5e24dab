"""Lookups into one game that the game, item and OSR checks share."""

from __future__ import annotations

from dataclasses import dataclass, field

from werealign.schema import GameLog, Phase, Utterance


@dataclass
class GameIndex:
    game: GameLog
    seats: dict[int, str] = field(default_factory=dict)  # seat -> faction (first entry wins on duplicates)
    phases: dict[str, Phase] = field(default_factory=dict)  # phase id -> phase (first wins)
    segment_utterance: dict[int, int] = field(default_factory=dict)  # segment id -> position in utterances (first wins)
    hidden_text: object | None = None  # werealign.shortcuts.leaks.hidden_text_index of the game, built on first use

    @classmethod
    def build(cls, game: GameLog) -> GameIndex:
        idx = cls(game=game)
        for s in game.seats:
            idx.seats.setdefault(s.seat, s.faction)
        for p in game.phases:
            idx.phases.setdefault(p.id, p)
        for pos, u in enumerate(game.utterances):
            for sid in u.segment_ids:
                idx.segment_utterance.setdefault(sid, pos)
        return idx

    def stem_leaks(self, item, stem: str) -> list[str]:
        """What `stem` tells the item's viewpoint that it could not know at the cut-off (werealign.shortcuts.leaks.stem_leaks:
        one implementation with `werealign audit`); the game's hidden text is indexed once, on first use."""
        from werealign.shortcuts.leaks import hidden_text_index, stem_leaks

        if self.hidden_text is None:
            self.hidden_text = hidden_text_index(self.game)
        return stem_leaks(self.game, item, self.hidden_text, stem=stem)

    def seat_range(self) -> str:
        """Human-readable list of the seats, for messages."""
        seats = sorted(self.seats)
        if seats and seats == list(range(seats[0], seats[-1] + 1)):
            return f"{seats[0]}..{seats[-1]}"
        return ", ".join(map(str, seats))

    def utterance_of(self, segment_id: int) -> Utterance | None:
        pos = self.segment_utterance.get(segment_id)
        return None if pos is None else self.game.utterances[pos]

    def segment_range(self) -> str:
        if not self.segment_utterance:
            return "none"
        return f"{min(self.segment_utterance)}..{max(self.segment_utterance)}"
