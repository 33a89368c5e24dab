"""arena.json: the tournament table `werealign arena` writes beside its games (werealign.arena.writer), read
by `werealign analyze` and `werealign leaderboard --arena`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Moves(_Model):
    decisions: int = Field(ge=0)
    unreadable: int = Field(ge=0, description="Replies with no readable move, played as a random legal one.")
    unreadable_steps: int = Field(0, ge=0, description="A solver's intermediate replies it could not read and went on without "
                                  "(xu's question pick, mg's structured reflection, sa's ratings or strategy, a missing response marker).")


class ArenaGame(_Model):
    """One game: who played which side, who won, and what it cost."""

    game_id: str = Field(description="The game's id in games/.")
    village: str = Field(description="The model (or rule agent) playing every good-side seat.")
    wolves: str = Field(description="The model (or rule agent) playing every wolf-side seat.")
    winner: str | None = Field(description="good, wolf, or null when the game hit the board's day limit.")
    days: int = Field(ge=0)
    decisions: int = Field(ge=0, description="Decisions asked of agents (traces/<game>.jsonl rows).")
    unreadable_replies: int = Field(ge=0, description="Replies with no readable move, played as a random legal one.")
    moves: dict[str, Moves] = Field(default_factory=dict, description="Per model (or rule agent): its decisions in this game and the unreadable ones.")
    requests: int = Field(ge=0, description="Model requests the game made (stored ones included).")
    tokens: int = Field(ge=0)


class SideRecord(_Model):
    games: int = Field(ge=0)
    wins: int = Field(ge=0)


class ModelRecord(_Model):
    """A model's results: `games`/`wins` against other models only (self-play counts per side only)."""

    games: int = Field(ge=0)
    wins: int = Field(ge=0)
    good: SideRecord
    wolf: SideRecord
    decisions: int = Field(0, ge=0, description="Decisions the model made over every game it played.")
    unreadable: int = Field(0, ge=0, description="Of them, replies with no readable move (played as a random legal one).")
    unreadable_steps: int = Field(0, ge=0, description="A solver's intermediate replies it could not read, over every game.")
    flagged_games: list[str] = Field(default_factory=list, description="Games where more than `fallback_flag` of the model's moves fell back: "
                                     "its results there measure the fallback, not the model.")


class ArenaSummary(_Model):
    board: str
    roles: list[str] = Field(description="The board's role cards, one per seat.")
    debate: str = Field(description="bid (Werewolf Arena's bidding for the turn) or round-robin.")
    language: str = Field("en", description="The board's language: moderator, rule agents and prompts.")
    fallback_flag: float = Field(0.2, description="The share of a model's moves in a game above which its game is flagged.")
    games: list[ArenaGame]
    models: dict[str, ModelRecord]
