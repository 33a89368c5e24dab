"""Canonical role names, their factions, and every original label we know how to read.

Real annotation writes roles in Chinese or English, with synonyms and typos. Everything downstream
works with the canonical English id; the label a file used is kept beside it for traceability.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

Faction = Literal["good", "wolf", "third", "variable"]

# Canonical role id -> (faction, is a special "god" role with a night or day skill, description).
# "variable" means the role's side is decided during the game (e.g. the thief picks a card).
ROLES: dict[str, tuple[Faction, bool, str]] = {
    "villager": ("good", False, "Ordinary villager: no night action, votes by day."),
    "seer": ("good", True, "Each night checks one player and learns whether they are a werewolf."),
    "witch": ("good", True, "Holds one antidote and one poison; cannot use both on one night."),
    "hunter": ("good", True, "When eliminated (except by poison) may shoot one player."),
    "guard": ("good", True, "Each night protects one player from the wolves' kill; not the same player twice in a row."),
    "idiot": ("good", True, "If voted out, reveals the card and stays in the game without a vote."),
    "silencer_elder": ("good", True, "Each night silences one player for the next day."),
    "stalker": ("good", True, "Once per game may assassinate a player they voted for who was not eliminated."),
    "nine_tailed_fox": ("good", True, "Good-side fox; loses a tail when a neighbouring wolf survives."),
    "magician": ("good", True, "Each night may swap two players' numbers for that night's actions."),
    "werewolf": ("wolf", False, "Kills one player each night with the pack; may self-destruct by day."),
    "white_wolf_king": ("wolf", True, "Werewolf who may self-destruct by day and take one player with him."),
    "wolf_beauty": ("wolf", True, "Werewolf who charms a player each night; the charmed player dies with her."),
    "demon": ("wolf", True, "Wolf-side role that checks at night whether a player is a god role."),
    "ghost_bride": ("variable", True, "Links herself and a groom on night one; the couple's side depends on the link."),
    "groom": ("variable", False, "Linked to the ghost bride; side depends on the link."),
    "witness": ("variable", True, "Witnesses the ghost bride's wedding; side depends on the link."),
    "thief": ("variable", True, "Chooses one of two spare cards on night one and plays that role."),
}

HOST = "host"

# Original label (as found in real files; lower-cased for English) -> canonical role id.
# Includes synonyms and the typos seen in the WereBench release.
ROLE_LABELS: dict[str, str] = {
    # Chinese
    "村民": "villager",
    "平民": "villager",
    "狼人": "werewolf",
    "狼": "werewolf",
    "预言家": "seer",
    "女巫": "witch",
    "猎人": "hunter",
    "阔人": "hunter",  # typo in the release (one game): 猎 misread as 阔
    "守卫": "guard",
    "白痴": "idiot",
    "禁言长老": "silencer_elder",
    "潜行者": "stalker",
    "九尾妖狐": "nine_tailed_fox",
    "魔术师": "magician",
    "白狼王": "white_wolf_king",
    "狼美人": "wolf_beauty",
    "恶魔": "demon",
    "鬼魂新娘": "ghost_bride",
    "新娘": "ghost_bride",
    "新郎": "groom",
    "证婚人": "witness",
    "盗贼": "thief",
    # English
    "villager": "villager",
    "werewolf": "werewolf",
    "wolf": "werewolf",
    "seer": "seer",
    "prophet": "seer",
    "witch": "witch",
    "hunter": "hunter",
    "guard": "guard",
    "bodyguard": "guard",
    "idiot": "idiot",
    "silencer elder": "silencer_elder",
    "silencer": "silencer_elder",
    "stalker": "stalker",
    "nine-tailed fox": "nine_tailed_fox",
    "magician": "magician",
    "white wolf king": "white_wolf_king",
    "wolf beauty": "wolf_beauty",
    "demon": "demon",
    "ghost bride": "ghost_bride",
    "groom": "groom",
    "witness": "witness",
    "thief": "thief",
}

# Labels that mean "the host / narrator", not a player, including the release's typo.
HOST_LABELS = {"host", "hsot", "主持人", "法官"}


def canonical_role(label: str) -> str | None:
    """Canonical role id for an original label, or None when the label is unknown."""
    key = label.strip()
    if key in ROLES:
        return key
    return ROLE_LABELS.get(key) or ROLE_LABELS.get(key.lower().replace("_", " "))


def is_host_label(label: str) -> bool:
    return label.strip().lower() in HOST_LABELS


def faction_of(role: str) -> Faction:
    return ROLES[role][0]


def is_god(role: str) -> bool:
    return ROLES[role][1]


def variant_id(roles: Iterable[str]) -> str:
    """Variant id named by a game's special roles in the role table's order, e.g. 'seer-witch-hunter-guard'.

    Plain villagers and werewolves are in every game, so they don't distinguish variants.
    """
    present = set(roles)
    return "-".join(r for r in ROLES if r in present and r not in ("villager", "werewolf")) or "villagers-werewolves"
