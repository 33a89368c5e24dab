"""Decision items (issue 31): what a player did at a decision the rules define, asked from that player's seat.

One shape for every decision kind: the legal moves at that moment (`candidates`, plus "none" where the rules
allow not acting: no save, no poison, an abstention), the move made (`answer`; null = none), and who the decider
is (`deciders`: the slices results report). Each kind is its own class, told apart by `decision`, because a task
kind is known by its item class (werealign.tasks.task_of).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from werealign.schema.models import ItemBase, ItemProvenance, Seat

DeciderTag = Literal["mvp", "winner"]
MVP_MARK = "-mvp"  # the item ids of the MVP's decisions end with it: scores read samples, which carry ids, not items


class DecisionItem(ItemBase):
    viewpoint_seat: Seat = Field(description="The seat that made the decision; the prompt is its view at the cut-off.")
    phase: str = Field(description="Phase id of the decision (a night for night moves, a day for a ballot).")
    cutoff_segment: int = Field(ge=0, description="Last segment shown: before the move and anything that tells it.")
    cutoff_chars: int | None = Field(None, ge=1, exclude_if=lambda v: v is None,
                                     description="Characters of the cut-off segment shown, where it holds the decision's call and then its "
                                                 "result (the rest is not shown); absent: the whole segment.")
    candidates: list[Seat] = Field(min_length=1, description="The legal seats at that moment under the board's rules.")
    none_allowed: bool = Field(False, description="Whether not acting is a legal move (no save, no poison, an abstention): the prompt offers 'none'.")
    answer: Seat | None = Field(description="The seat chosen; null: the player did not act (needs none_allowed).")
    about: Seat | None = Field(None, exclude_if=lambda v: v is None, description="The seat the decision is about, told to the player (the witch's victim).")
    round: int | None = Field(None, ge=1, exclude_if=lambda v: v is None, description="Ballots: the vote round (2 = a re-vote).")
    deciders: list[DeciderTag] = Field(default_factory=list, description="Slices the decider belongs to: the MVP, the winning side.")
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


class SeerCheckItem(DecisionItem):
    decision: Literal["seer_check"] = "seer_check"


class GuardProtectItem(DecisionItem):
    decision: Literal["guard_protect"] = "guard_protect"


class WitchSaveItem(DecisionItem):
    decision: Literal["witch_save"] = "witch_save"


class WitchPoisonItem(DecisionItem):
    decision: Literal["witch_poison"] = "witch_poison"


class WolfKillItem(DecisionItem):
    decision: Literal["wolf_kill"] = "wolf_kill"


class BallotItem(DecisionItem):
    decision: Literal["ballot"] = "ballot"


class SheriffBallotItem(DecisionItem):
    decision: Literal["sheriff_ballot"] = "sheriff_ballot"


class SheriffRunItem(DecisionItem):
    """Run for sheriff or not: the one candidate is the decider's own seat (standing), "none" not standing."""

    decision: Literal["sheriff_run"] = "sheriff_run"


class BadgeItem(DecisionItem):
    decision: Literal["badge"] = "badge"


DECISION_MODELS: dict[str, type[DecisionItem]] = {
    m.model_fields["decision"].default: m for m in (SeerCheckItem, GuardProtectItem, WitchSaveItem, WitchPoisonItem, WolfKillItem, BallotItem,
                                                 SheriffRunItem, SheriffBallotItem, BadgeItem)
}


class ClaimItem(ItemBase):
    """Claim a role now or not, and which (issue 31): asked at a player's turn, before it. Its answer space is roles,
    not seats: `candidates` the roles on the board (role ids), "none" (no claim) always legal; `answer` the role the
    turn claims (null: none). Asked at each turn up to and including the player's first claim (werealign.game.claims)."""

    decision: Literal["claim"] = "claim"
    viewpoint_seat: Seat = Field(description="The seat whose turn it is; the prompt is its view before the turn.")
    phase: str = Field(description="Phase id of the turn.")
    turn: int = Field(ge=0, description="Index of the turn (utterances[].index) the decision is taken at.")
    cutoff_segment: int = Field(ge=0, description="Last segment shown: the one before the turn.")
    candidates: list[str] = Field(min_length=1, description="The roles a player could claim: the roles on this board (role ids).")
    none_allowed: Literal[True] = Field(True, description="Not claiming is always legal.")
    answer: str | None = Field(description="The role the turn claims (a candidate); null: no claim.")
    deciders: list[DeciderTag] = Field(default_factory=list, description="Slices the decider belongs to: the MVP, the winning side.")
    provenance: ItemProvenance = Field(default_factory=ItemProvenance)


# Every decision kind (the seat-answer kinds and the claim): the leaderboard's decision columns and the card's table.
ALL_DECISION_MODELS: dict[str, type[ItemBase]] = {**DECISION_MODELS, "claim": ClaimItem}
