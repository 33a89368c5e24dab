"""Every language-dependent word a prompt uses outside its templates, in one table: role names and
rule lines (from the role catalogue, werealign/schema/role_catalogue.json), sides, win conditions,
skill verbs and outcome words, in English and Chinese.

A language without its own words falls back to English (`phrase_language`). `PHRASES` gathers the
tables so that `werealign.render.prompt_templates.templates_hash` can hash them: a wording change
shows in run.json. Sentences built from these words are in `werealign.render.lines`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from werealign.schema.roles import CATALOGUE, RoleCatalogue


def phrase_language(language: str) -> str:
    """The table a game's language reads from: Chinese for 'zh', English for every other language."""
    return "zh" if language == "zh" else "en"


# Role names and rule lines come from the role catalogue (werealign/schema/role_catalogue.json),
# extended by the game's own declarations; listed here so a wording change shows in the prompt hash.
ZH_ROLE: dict[str, str] = {r.id: r.name("zh") for r in CATALOGUE.roles.values() if r.names.get("zh")}
ZH_ROLE_DESC: dict[str, str] = {r.id: r.rule["zh"] for r in CATALOGUE.roles.values() if "zh" in r.rule}

FACTION = {
    "en": {"good": "the good side", "wolf": "the werewolf side", "third": "a third party", "variable": "a side decided during the game",
           "unknown": "side not recorded"},
    "zh": {"good": "好人阵营", "wolf": "狼人阵营", "third": "第三方阵营", "variable": "阵营在游戏中决定", "unknown": "阵营未记录"},
}

# {evil_members}, {good_side}, {evil_member}: the game family's words (werealign.render.phrases: families).
WIN = {
    "en": {
        "side_elimination": "Side elimination: {evil_members} win by eliminating all villagers or all special (god) roles; {good_side} wins by voting out every {evil_member}.",
        "all_elimination": "All elimination: {evil_members} win by eliminating every good player; {good_side} wins by voting out every {evil_member}.",
        "parity": "Parity: {evil_members} win once they are as many as the other players; {good_side} wins by voting out every {evil_member}.",
        "other": "The win condition is given by the host.",
    },
    "zh": {
        "side_elimination": "屠边规则：{evil_members}杀死所有普通村民或所有神职即获胜；好人投票放逐所有{evil_members}即获胜。",
        "all_elimination": "屠城规则：{evil_members}杀死所有好人即获胜；好人投票放逐所有{evil_members}即获胜。",
        "parity": "人数规则：{evil_members}数量不少于其他玩家时{evil_members}获胜；好人投票放逐所有{evil_members}即获胜。",
        "other": "胜利条件由主持人说明。",
    },
}

SKILL = {
    "en": {
        "seer_check": "checked",
        "witch_save": "used the antidote on",
        "witch_poison": "used the poison on",
        "guard_protect": "protected",
        "hunter_shoot": "shot",
        "silence": "silenced",
        "stalker_assassinate": "assassinated",
        "wolf_kill": "chose to kill",
        "solo_kill": "chose to kill alone",
        "magician_swap": "swapped the number of",
        "fox_tails": "counted the tails left of",
        "tiangou_swallow": "swallowed",
        "moon_delay": "moved the moon, putting night off",
        "exile_void": "the exile was void for",
        "white_wolf_king_take": "took out",
        "wolf_beauty_charm": "charmed",
        "demon_check": "checked whether a god:",
        "ghost_bride_link": "took as her groom",
        "cupid_link": "linked as a lover",
        "witness": "named as the lovers' witness",
        "lovers_told": "was told a lover is",
        "side_switch": "joined the third side:",
        "third_kill": "chose to kill for the third side",
    },
    "zh": {
        "seer_check": "查验了",
        "witch_save": "对其使用解药：",
        "witch_poison": "对其使用毒药：",
        "guard_protect": "守护了",
        "hunter_shoot": "开枪带走了",
        "silence": "禁言了",
        "stalker_assassinate": "暗杀了",
        "wolf_kill": "选择击杀",
        "solo_kill": "独自选择击杀",
        "magician_swap": "交换了号码牌：",
        "fox_tails": "清点剩余尾巴：",
        "tiangou_swallow": "吞噬了",
        "moon_delay": "移动月亮推迟了黑夜",
        "exile_void": "放逐无效：",
        "white_wolf_king_take": "带走了",
        "wolf_beauty_charm": "魅惑了",
        "demon_check": "查验是否神职：",
        "ghost_bride_link": "选择新郎：",
        "cupid_link": "连为情侣：",
        "witness": "选择证婚人：",
        "lovers_told": "得知情侣是",
        "side_switch": "加入第三方阵营：",
        "third_kill": "以第三方身份击杀",
    },
}

# Outcome codes written by importers/annotation (e.g. elimination results) -> words.
RESULT = {
    "en": {
        "night_death": "died at night",
        "voted_out": "voted out",
        "self_destruct": "self-destructed",
        "left_table": "left the table",
        "taken": "taken out by a skill",
        "shot": "shot by the hunter",
        "poisoned": "poisoned",
        "died_with_partner": "died with their linked partner",
        "peaceful_night": "peaceful night",
        "charmed": "left with the wolf beauty who charmed them",
        "tails_lost": "lost every tail",
        "god": "a god",
        "not_god": "not a god",
    },
    "zh": {
        "night_death": "夜间死亡",
        "voted_out": "被投票放逐",
        "self_destruct": "自爆",
        "left_table": "离场",
        "taken": "被技能带走",
        "shot": "被猎人开枪带走",
        "poisoned": "被毒杀",
        "died_with_partner": "随连接者一同出局",
        "peaceful_night": "平安夜",
        "wolf": "狼人",
        "good": "好人",
        "charmed": "被狼美人魅惑，随之出局",
        "tails_lost": "失去所有尾巴出局",
        "god": "神职",
        "not_god": "非神职",
    },
}


# A night fact the game log lacks (werealign.game.knowledge), as the prompt names it; other skills read as words.
MISSING_FACT = {
    "en": {"seer_check": "whom you checked and the result", "guard_protect": "whom you protected (or that you protected no one)",
           "wolf_kill": "whom the wolves attacked", "silence": "whom you silenced", "doctor_protect": "whom you protected",
           "wolf_beauty_charm": "whom you charmed", "demon_check": "whom you checked and whether they are a god"},
    "zh": {"seer_check": "你查验了谁及其结果", "guard_protect": "你守护了谁（或空守）", "wolf_kill": "狼人袭击了谁", "silence": "你禁言了谁",
           "doctor_protect": "你保护了谁", "wolf_beauty_charm": "你魅惑了谁", "demon_check": "你查验了谁、其是否为神职"},
}


# night_outcome results that only repeat "died": the event line then says it once.
DEATH_RESULTS = {"died", "night_death", "died in the night", "死亡", "夜间死亡"}

# Every table above, hashed into templates_hash() (with the context builder's telling order) so a
# wording change is visible in run.json.
PHRASES = {"missing_fact": MISSING_FACT, "zh_roles": ZH_ROLE, "zh_role_desc": ZH_ROLE_DESC, "faction": FACTION, "win": WIN, "skill": SKILL, "result": RESULT,
           "death_results": sorted(DEATH_RESULTS)}


def role_name(role: str, language: str, catalogue: RoleCatalogue | None = None) -> str:
    """A role's display name: Chinese from the catalogue, English as the id in words; a role no one
    declared keeps its original label; a declared role uses its declared names."""
    known = (catalogue or CATALOGUE).get(role)
    if known is None:
        return role
    if language == "zh":
        return known.name("zh")
    # Built-in roles read as their id in words, as prompts always showed them; declared roles by their name.
    return role.replace("_", " ") if role in CATALOGUE else known.name("en")


def role_rule(role: str, language: str, catalogue: RoleCatalogue | None = None) -> str:
    known = (catalogue or CATALOGUE).get(role)
    return "" if known is None else known.rule.get(phrase_language(language), known.rule.get("en", ""))


def faction_name(faction: str, language: str) -> str:
    return FACTION[phrase_language(language)].get(faction, faction)



# The question of a human-voiced item (werealign generate --negatives human), asked from the
# viewpoint just before its turn; {me} is the seat label.
SAY_NOW = {
    "en": "You are {me}, and it is your turn to speak. What do you say now?",
    "zh": "你是{me}，现在轮到你发言。你接下来会说什么？",
}


def say_now(me: str, language: str) -> str:
    return SAY_NOW[phrase_language(language)].format(me=me)


# --------------------------------------------------------------------------- game families (issue 45)
# A game's family and its words: Werewolf, Mafia, ... as werealign/render/families.json lists them. A prompt for a
# Mafia game says "Mafia", "the mafia", "mafioso", "the town", never "Werewolf": every template and sentence that
# names the game, a side or the night kill takes its word from `terms(game, language)`. A board names its family
# (`rules.family`), else it is read from its roles (a board with a mafia role is a Mafia game), and may change any
# word (`rules.terms`). An unknown family speaks Werewolf's words overlaid by its own terms.

FAMILIES_FILE = Path(__file__).with_name("families.json")
DEFAULT_FAMILY = "werewolf"


@lru_cache(maxsize=1)
def families() -> dict[str, Any]:
    data = json.loads(FAMILIES_FILE.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def family_of(game: Any) -> str:
    """The game's family: `rules.family`, else the first family (besides Werewolf) one of whose roles is on the board."""
    if game.rules.family:
        return game.rules.family
    # the board's cards: the composition is public (a shell of a game, as the arena's players get, has no seats)
    roles = {s.role for s in getattr(game, "seats", None) or ()} | {c.role for c in game.rules.composition}
    return next((name for name, f in families().items() if roles & set(f["roles"])), DEFAULT_FAMILY)


def terms(game: Any, language: str) -> dict[str, str]:
    """The words of the game's family in the prompt's language (English where the table has none), the board's own over them."""
    fam = families().get(family_of(game), families()[DEFAULT_FAMILY])
    lang = phrase_language(language)
    return {**families()[DEFAULT_FAMILY][lang], **fam.get(lang, fam["en"]), **game.rules.terms}


def side_name(faction: str, language: str, words: dict[str, str] | None) -> str | None:
    """The family's name of a side ('the mafia', 'the town'), or None: the faction table's (werealign.render.phrases)."""
    if words is None:
        return None
    return {"wolf": words.get("evil_side"), "good": words.get("good_side")}.get(faction)


def night_killers(words: list[dict[str, str]]) -> str:
    """Who kills at night, in English, for text about one or more families (the `terms` of each): one family's own word
    ('the mafia'), else each family's ('the night's killers (Werewolf: the wolves; Mafia: the mafia)')."""
    sets = list({w["game"]: w for w in words}.values())
    if len(sets) == 1:
        return sets[0]["evil_team"]
    return "the night's killers (" + "; ".join(f"{w['game']}: {w['evil_team']}" for w in sets) + ")"


def investigators(words: list[dict[str, str]]) -> str:
    """Who checks a player's side at night, in English, for text about one or more families: 'the seer', 'the cop',
    else each family's ('the investigator (Werewolf: the seer; Mafia: the cop)')."""
    sets = list({w["game"]: w for w in words}.values())
    if len(sets) == 1:
        return f"the {sets[0]['investigator']}"
    return "the investigator (" + "; ".join(f"{w['game']}: the {w['investigator']}" for w in sets) + ")"


def every_family(language: str = "en") -> list[dict[str, str]]:
    """Every known family's words, for text that is about no one game (`werealign list`)."""
    return [{**families()[DEFAULT_FAMILY][language], **f.get(language, f["en"])} for f in families().values()]
