"""What the moderator says, in the board's language: one table of lines per language, nothing else.

Seats are worded as prompts word them (werealign.render.lines.seat_label), so a Chinese game reads
"3号" at the table, in the log and in every prompt alike. A language without a table here is refused
when the board is loaded (werealign.arena.board), never played half in English.
"""

from __future__ import annotations

from werealign.render.lines import list_separator, seat_label

LINES: dict[str, dict[str, str]] = {
    "en": {
        "night": "Night {day} falls. Everyone, close your eyes.",
        "wolves": "Werewolves, open your eyes and agree on a victim.",
        "day": "Day {day}. Everyone, open your eyes. {news}",
        "died": "{seat} died last night.",
        "peaceful": "Last night was peaceful.",
        "shoots": "{actor} shoots {target}.",
        "last_words": "{seat}, your last words.",
        "debate": "The debate begins.",
        "vote": "Time to vote. Candidates: {seats}.",
        "revote": "Time to vote again; the tied players do not vote. Candidates: {seats}.",
        "pk": "A tie between {seats}: each of them speaks once more.",
        "ballot": "{actor} votes {target}",
        "abstains": "{actor} abstains",
        "exiled": "{seat} is exiled.",
        "tie": "A tie between {seats}.",
        "nobody": "Nobody is exiled.",
        "no_ballots": "No ballots were cast",
        "over": "Game over. {side}",
        "win_good": "The village wins.",
        "win_wolf": "The werewolves win.",
        "win_none": "No side won before the day limit.",
        "win_third": "The third side wins.",
        "heartbreak": "{seat} leaves the game with their lover {actor}.",
        "third_wakes": "Third side, open your eyes and choose tonight's victim.",
        "election": "The sheriff election. Who runs for sheriff?",
        "running": "Running for sheriff: {seats}.",
        "no_runner": "Nobody runs; there is no sheriff.",
        "campaign": "{seat}, your campaign speech.",
        "withdraws": "{seat} withdraws from the race.",
        "sheriff_vote": "Vote for the sheriff among {seats}; the runners do not vote.",
        "sheriff": "{seat} is the sheriff; the sheriff's vote counts 1.5.",
        "no_sheriff": "No sheriff is elected.",
        "election_suspended": "The sheriff election is broken off; it resumes tomorrow morning.",
        "election_again": "The sheriff election resumes. Running: {seats}.",
        "order": "{seat} speaks first; the debate goes {way}.",
        "up": "up the seats",
        "down": "down the seats",
        "badge": "{actor} passes the sheriff's badge to {target}.",
        "torn": "{actor} tears up the sheriff's badge; there is no sheriff any more.",
        "self_destruct": "{seat} reveals themself as a werewolf and self-destructs; the day ends now.",
        "takes": "{actor} takes {target} along.",
        "nothing": "I have nothing to add.",
        "silenced": "{seat} is silenced today and says nothing.",
        "charmed_dies": "{seat}, charmed by the wolf beauty, leaves with her.",
        "tails_lost": "{seat} has lost every tail and leaves the game.",
        "swallowed": "{seat} was swallowed last night: the exile is void, and night falls.",
        "moon": "{seat} moves the moon: night is put off, and the day goes on.",
        "idiot": "{seat} shows the idiot card and stays in the game, without a vote from now on.",
    },
    "zh": {
        "night": "第{day}夜，天黑请闭眼。",
        "wolves": "狼人请睁眼，商量今晚要击杀的玩家。",
        "day": "第{day}天，天亮了，请睁眼。{news}",
        "died": "昨晚{seat}死亡。",
        "peaceful": "昨晚是平安夜。",
        "shoots": "{actor}开枪带走了{target}。",
        "last_words": "请{seat}发表遗言。",
        "debate": "开始发言。",
        "vote": "开始投票。候选：{seats}。",
        "revote": "重新投票，平票玩家不投票。候选：{seats}。",
        "pk": "{seats}平票，请平票玩家依次再发言一轮。",
        "ballot": "{actor}投{target}",
        "abstains": "{actor}弃票",
        "exiled": "{seat}被放逐。",
        "tie": "{seats}平票。",
        "nobody": "无人出局。",
        "no_ballots": "无人投票",
        "over": "游戏结束。{side}",
        "win_good": "好人阵营获胜。",
        "win_wolf": "狼人阵营获胜。",
        "win_none": "天数已到上限，没有阵营获胜。",
        "win_third": "第三方阵营获胜。",
        "heartbreak": "{seat}随情侣{actor}殉情出局。",
        "third_wakes": "第三方请睁眼，选择今晚要击杀的玩家。",
        "election": "警长竞选开始，想上警的玩家请举手。",
        "running": "上警的玩家：{seats}。",
        "no_runner": "无人上警，本局没有警长。",
        "campaign": "请{seat}发表竞选发言。",
        "withdraws": "{seat}退水。",
        "sheriff_vote": "警下玩家投票，候选：{seats}。上警玩家不投票。",
        "sheriff": "{seat}当选警长，警长拥有1.5票。",
        "no_sheriff": "警徽流失，本局没有警长。",
        "election_suspended": "警长竞选中断，明天白天继续竞选。",
        "election_again": "警长竞选继续，警上玩家：{seats}。",
        "order": "由{seat}开始{way}发言。",
        "up": "顺序",
        "down": "逆序",
        "badge": "{actor}将警徽移交给{target}。",
        "torn": "{actor}撕毁警徽，本局不再有警长。",
        "self_destruct": "{seat}自爆，今天的白天立即结束。",
        "takes": "{actor}带走了{target}。",
        "nothing": "我过。",
        "silenced": "{seat}今天被禁言，不能发言。",
        "charmed_dies": "{seat}被狼美人魅惑，随之出局。",
        "tails_lost": "{seat}失去了所有尾巴，直接出局。",
        "swallowed": "{seat}昨晚被天狗吞噬，本次放逐无效，直接入夜。",
        "moon": "{seat}移动了月亮，黑夜推迟，白天继续。",
        "idiot": "{seat}翻牌白痴，免于出局，此后失去投票权。",
    },
}
LANGUAGES = tuple(LINES)
SEAT_FIELDS = ("seat", "actor", "target")


def line(language: str, key: str, **values) -> str:
    """The moderator's line `key`; seats (int) and seat lists are worded in the language."""
    for name in SEAT_FIELDS:
        if isinstance(values.get(name), int):
            values[name] = seat_label(values[name], language)
    if isinstance(values.get("seats"), (list, tuple)):
        values["seats"] = list_separator(language).join(seat_label(s, language) for s in values["seats"])
    return LINES[language][key].format(**values)


def joined(language: str, parts: list[str]) -> str:
    """Sentences or clauses told as one host line."""
    return ("；" if language == "zh" else "; ").join(parts)
