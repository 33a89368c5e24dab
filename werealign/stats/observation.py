"""One answered sample as the statistics see it: its score and the game (cluster) and decode it belongs to."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Observation:
    """One answered sample reduced to what statistics need: its score and how it is clustered."""

    task: str
    variant: str
    item_id: str
    game_id: str
    dimension: str | None
    role: str
    decode: int
    value: float  # 1/0 for speech and VA, the Jaccard for OI (mode roles: the share of seats right); 0 for a failed request
