"""The log of a game in play, kept as a werealign game log from the first line on.

Every table line is one utterance of one segment; events are anchored to the segment at which they
became known, so the context builder (werealign.game.visibility) can show each seat exactly what it
perceived so far. Agents only ever see `snapshot()` through that builder: the arena has no second
notion of who knows what.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from werealign.arena.board import DEFAULT_SKILL, Board
from werealign.arena.lovers import link_lines
from werealign.render.lines import rules_for_prompt, rules_summary
from werealign.render.phrases import phrase_language
from werealign.schema import GameLog
from werealign.schema.roles import RoleDeclaration
from werealign.schema.models import Audience, Event, Mvp, MvpVote, Phase, Provenance, RoleCount, Rules, Segment, SeatInfo, Utterance

SECONDS_PER_TURN = 10.0  # arena games have no clock; times only need to increase with the segments
VOTE_TEXT = {
    ("en", "plurality"): "Each day the players debate, then vote to exile one player: the most votes goes; a tie is spoken on once "
                         "more by the tied players and voted again by the others among them, and a second tie exiles nobody.",
    ("en", "majority"): "Each day the players debate, then vote to exile one player: a player with more than half the ballots goes, "
                        "otherwise nobody.",
    ("zh", "plurality"): "每天白天玩家依次发言后投票放逐一名玩家：得票最多者出局；平票时平票玩家再各发言一轮，由其他玩家在平票玩家中重新投票，再次平票则无人出局。",
    ("zh", "majority"): "每天白天玩家发言后投票放逐一名玩家：得票超过半数者出局，否则无人出局。",
}
TABLE_TEXT = {
    "en": {"abstention": "A player may abstain.", "self_destruct": "A werewolf may self-destruct on their turn by day or in a campaign speech, which ends the day "
                                                                  "at once (the wolf beauty may not).",
           "no_self_destruct": "Nobody may self-destruct in this game, whatever a role's rule says.",
           "exiled": "Exiled players give last words.", "exiled+first-night": "Exiled players and the first night's victims give last words."},
    "zh": {"abstention": "投票时可以弃票。", "self_destruct": "狼人可以在白天自己的发言回合或竞选发言时自爆，白天立即结束（狼美人不能自爆）。",
           "no_self_destruct": "本局任何人都不能自爆，无论身份规则如何描述。",
           "exiled": "被放逐的玩家发表遗言。", "exiled+first-night": "被放逐的玩家和首夜死亡的玩家发表遗言。"},
}


# The move rules a board plays (werealign.arena.board: Board.rules), one line each, told where the role they concern
# is in play: (field, value) -> line. The rules text of every arena game states all of them.
MOVE_TEXT = {
    "en": {("witch_self_save", "never"): "The witch may not save herself.",
           ("witch_self_save", "first_night"): "The witch may save herself on the first night only.",
           ("witch_self_save", "always"): "The witch may save herself on any night.",
           ("witch_both_potions", False): "The witch may not use both potions in one night.",
           ("witch_both_potions", True): "The witch may use both potions in one night.",
           ("guard_repeat", False): "The guard may not protect the same player two nights running.",
           ("guard_repeat", True): "The guard may protect the same player two nights running.",
           ("guard_may_skip", True): "The guard may protect nobody.",
           ("wolves_may_skip", True): "The werewolves may kill nobody.",
           ("wolves_may_kill_wolf", True): "The werewolves may kill one of their own.",
           ("charm_target", "good"): "The wolf beauty charms a good-side player only.",
           ("charm_target", "any"): "The wolf beauty may charm any other player.",
           ("stalker_window", "same_day"): "The stalker may assassinate only a player they voted for that day (on the night after the vote).",
           ("stalker_window", "any_day"): "The stalker may assassinate a player they voted for on any day.",
           ("campaign_self_destruct", "election_resumes"): "A werewolf who self-destructs in the sheriff campaign ends the day; the election "
                                                          "resumes the next morning, and a second self-destruct loses the badge.",
           ("campaign_self_destruct", "badge_lost"): "A werewolf who self-destructs in the sheriff campaign ends the day and the badge is lost.",
           ("sheriff_tie", "revote"): "A tie in the sheriff vote is voted again among the tied runners; a second tie loses the badge.",
           ("sheriff_tie", "badge_lost"): "A tie in the sheriff vote loses the badge."},
    "zh": {("witch_self_save", "never"): "女巫不可以自救。",
           ("witch_self_save", "first_night"): "女巫只有第一晚可以自救。",
           ("witch_self_save", "always"): "女巫每晚都可以自救。",
           ("witch_both_potions", False): "女巫同一晚不能使用两瓶药。",
           ("witch_both_potions", True): "女巫同一晚可以使用两瓶药。",
           ("guard_repeat", False): "守卫不能连续两晚守护同一名玩家。",
           ("guard_repeat", True): "守卫可以连续两晚守护同一名玩家。",
           ("guard_may_skip", True): "守卫可以空守。",
           ("wolves_may_skip", True): "狼人可以空刀。",
           ("wolves_may_kill_wolf", True): "狼人可以刀狼队友。",
           ("charm_target", "good"): "狼美人只能魅惑好人阵营的玩家。",
           ("charm_target", "any"): "狼美人可以魅惑除自己外的任意玩家。",
           ("stalker_window", "same_day"): "潜行者只能暗杀自己当天投票投过且未出局的玩家（投票仅当天有效）。",
           ("stalker_window", "any_day"): "潜行者可以暗杀任意一天自己投票投过且未出局的玩家。",
           ("campaign_self_destruct", "election_resumes"): "警长竞选时狼人自爆则直接进入黑夜，竞选于次日白天继续，再次自爆则警徽流失。",
           ("campaign_self_destruct", "badge_lost"): "警长竞选时狼人自爆则直接进入黑夜，警徽流失。",
           ("sheriff_tie", "revote"): "警长竞选平票时在平票玩家中重新投票，再次平票则警徽流失。",
           ("sheriff_tie", "badge_lost"): "警长竞选平票则警徽流失。"},
}
# Which action (or table rule) a move rule concerns: told only where it is in play.
MOVE_ACTION = {"witch_self_save": "potions", "witch_both_potions": "potions", "guard_repeat": "protect", "guard_may_skip": "protect",
               "charm_target": "charm", "stalker_window": "assassinate", "campaign_self_destruct": "sheriff+self_destruct", "sheriff_tie": "sheriff"}


def move_lines(board: Board, language: str) -> list[str]:
    """The board's move rules as the game's rules text tells them."""
    actions = {a.action for a in board.abilities.values()}
    table = {"sheriff": board.spec.sheriff, "sheriff+self_destruct": board.spec.sheriff and board.spec.self_destruct}
    out = []
    for name, value in board.rules.model_dump().items():
        where = MOVE_ACTION.get(name)
        if where is not None and not table.get(where, where in actions):
            continue
        if (text := MOVE_TEXT[language].get((name, value))) is not None:
            out.append(text)
    return out


def _told_its_checks(board: Board, declared: RoleDeclaration) -> RoleDeclaration:
    """A declared card the board lets check at night (ability `check`) learns that check each night in the log's
    catalogue too, as the moderator plays it: readers of the log (the heuristic agent, analyze's seer metrics) ask the
    catalogue who holds the check, so a card declared without `knows_each_night` would check and never be known to."""
    ability = board.ability(declared.id)
    if ability is None or ability.action != "check":
        return declared
    skill = ability.skill or DEFAULT_SKILL["check"]
    known = list(board.catalogue.get(declared.id).knows_each_night)
    return declared if skill in known else declared.model_copy(update={"knows_each_night": [*known, skill]})


def rules_for(board: Board, game_id: str, language: str) -> Rules:
    spec = board.spec
    counts = Counter(spec.roles)
    composition = [RoleCount(role=r, faction=board.faction(r), count=counts[r]) for r in sorted(counts, key=board.catalogue.order)]
    special = [rc.role for rc in composition if (role := board.catalogue.get(rc.role)) is not None and role.is_god]
    # A card a seer may see as good (while another role is in) is a hidden wolf in the log's catalogue, as validate reads it.
    hidden = {r for r, a in board.abilities.items() if a.seen_good_while and not board.catalogue.get(r).seer_sees_good}
    declared = [d.model_copy(update={"seer_sees_good": True}) if d.id in hidden else d for d in spec.declared_roles]
    declared += [RoleDeclaration(id=r, seer_sees_good=True) for r in sorted(hidden - {d.id for d in declared})]
    declared = [_told_its_checks(board, d) for d in declared]
    rules = Rules(text=None, variant="-".join(special) or board.name, composition=composition, win_condition=spec.win,
                  has_sheriff=spec.sheriff, abstention_allowed=spec.abstention, declared_roles=declared, moves=board.rules)
    probe = GameLog(game_id=game_id, language=language, provenance=Provenance(source="arena"), rules=rules,
                    seats=[SeatInfo(seat=1, role="villager", faction="good")],
                    phases=[Phase(id="night-1", kind="night", day=1, start=0, end=0)], utterances=[])
    lang = phrase_language(language)  # a language the arena has no lines for reads English, as prompts do
    table = TABLE_TEXT[lang]
    # The board's own rulebook text (a human game's) when it has one, with each rule the engine plays told after it.
    own = spec.rules_text.strip() if spec.rules_text and spec.rules_text.strip() else None
    extra = [VOTE_TEXT[lang, spec.exile], *([table["abstention"]] if spec.abstention else []),
             table["self_destruct" if spec.self_destruct else "no_self_destruct"], *([table[spec.last_words]] if spec.last_words != "none" else []),
             *move_lines(board, lang), *link_lines(board, lang)]
    return rules.model_copy(update={"text": "\n".join([rules_for_prompt(probe.model_copy(update={"rules": rules.model_copy(update={"text": own})}))
                                                       if own else rules_summary(probe), *extra])})


class Recorder:
    def __init__(self, game_id: str, board: Board, roles: list[str], language: str, provenance: Provenance):
        self.game_id = game_id
        self.language = language
        self.provenance = provenance
        self.rules = rules_for(board, game_id, language)
        self.seats = [SeatInfo(seat=i + 1, role=r, faction=board.faction(r)) for i, r in enumerate(roles)]
        self.phases: list[dict[str, Any]] = []
        self.utterances: list[Utterance] = []
        self.events: list[Event] = []
        self._cache: GameLog | None = None

    # ------------------------------------------------------------------ writing
    @property
    def phase(self) -> str:
        return self.phases[-1]["id"]

    @property
    def last_segment(self) -> int:
        return len(self.utterances) - 1

    def begin(self, kind: str, day: int) -> str:
        pid = f"{kind}-{day}"
        start = len(self.utterances) * SECONDS_PER_TURN
        self.phases.append({"id": pid, "kind": kind, "day": day, "start": start, "end": start})
        return pid

    def say(self, speaker: int | str, text: str, audience: Audience | None = None) -> int:
        seg = len(self.utterances)
        start, end = seg * SECONDS_PER_TURN, seg * SECONDS_PER_TURN + SECONDS_PER_TURN - 1
        text = text.strip() or "(says nothing)"
        self.utterances.append(Utterance(index=seg, segment_ids=[seg], start=start, end=end, phase=self.phase, speaker=speaker,
                                         text=text, segments=[Segment(id=seg, start=start, end=end, text=text)], audience=audience))
        self.phases[-1]["end"] = end
        self._cache = None
        return seg

    def event(self, kind: str, audience: Audience, segment: int | None = None, **fields: Any) -> Event:
        ev = Event(kind=kind, phase=self.phase, segment_id=self.last_segment if segment is None else segment, audience=audience, **fields)
        self.events.append(ev)
        self._cache = None
        return ev

    # ------------------------------------------------------------------ reading
    def snapshot(self) -> GameLog:
        """The game so far (cached until the next line or event)."""
        if self._cache is None:
            self._cache = self.build(None, None)
        return self._cache

    def build(self, winner: str | None, mvp: Mvp | None) -> GameLog:
        return GameLog(game_id=self.game_id, language=self.language, provenance=self.provenance, rules=self.rules, seats=self.seats,
                       phases=[Phase(**p) for p in self.phases], utterances=list(self.utterances), events=list(self.events),
                       mvp=mvp, winner=winner)


def mvp_votes(votes: list[tuple[str, int | None, int, int]]) -> list[MvpVote]:
    """(phase, target, cut-off segment, round) of one seat's ballots as the log's MVP votes."""
    return [MvpVote(phase=p, target=t, cutoff_segment=c, round=r if r > 1 else None) for p, t, c, r in votes]
