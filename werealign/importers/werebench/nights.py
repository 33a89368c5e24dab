"""Night actions stated in a recognisable form in the annotator log (`metadata.logs`) and the host's recap.

The release records no night action in a structured field. The log describes each seat in a clause ("N 号是<role>，…",
"N 号（<role>）…") and often the nights in a run ("夜间行动：第一晚狼人刀 8 号，女巫 12 号救 8 号；第二晚…"). Read only as
structured facts (actor, night, skill, target, result), each with the words it was read from as its evidence:
- Own clause: in the clause of a seat whose stated role is its TRUE role, a phrase that starts with its night and a
  verb of that role ("第一晚救 4 号", "第二晚守 3 号", a seer's "首验 11 号是狼"); a poison or a kill the seat met
  ("第二晚被女巫毒死", "第二晚被狼人刀死", "被 9 号刀死" when 9 is a wolf); a wolf's own knife ("第二晚刀死 8 号").
- Named actor under a night (after "第N晚 / 首晚 / 次晚", until the day or an unnumbered night): "女巫 8 号毒 1 号",
  "预言家验 8 号金水", "守卫 4 号守护了女巫 5 号" (a seat named must hold the role; a role alone, one seat only).
- The wolves' kill (seen by every wolf) under a night: the pack or a wolf, a verb of killing, the target, maybe
  described ("狼队落刀到女巫 8 号", "刀了白天发言像神的 8 号"); the victim first ("8 号遭遇首刀"); a wolf knifing itself
  ("9 号狼人自刀"); a stated empty knife (no target); anywhere, the night after the killer ("狼队在第三晚杀死了 1 号").
Issue 41 adds: a seer's check named by its night anywhere ("11 号第一晚的金水9 号"), a witch's antidote by nickname
or seat alone ("女巫风情云选择使用解药"), a protection told from the protected seat ("6 号被守卫5 号成功守护"), the
guard's own night in the recap ("4 号选择守自己", "守卫 3 号空手"), a knife ending a sub-clause and its victim opening
the next ("狼队选择落刀，村民1 号"), targets by the nicknames the recap maps to seats (werebench.nicknames).
Never read: a sub-clause with a word of speech ("称", "跳", "说", "认", "遗言", …: a claim is what a bluffing wolf
makes; a "悍跳狼" description is none), a passive protection ("被 5 号守护"), an action without a seat or a night.
Refused, and reported: a night the game does not have, a target that is no seat, a seer result that contradicts
the true roles, both potions on one night, two targets for one skill on one night. A seer check takes the result
stated ("是狼", "金水", "查杀"), else the target's true side for the plain roles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from werealign.annotate.config import phase_id
from werealign.importers.werebench.nicknames import nickname_patterns, recap_nicknames
from werealign.importers.werebench.text import RELEASE_ROLES, chinese_number
from werealign.schema import Event, Evidence, Phase, SeatInfo
from werealign.schema.models import ACTOR, Audience

WOLVES = Audience(kind="team", team="wolf")

_ORDINAL = r"[一二三四五六七八九十\d]{1,2}"
# A night at the start of a sub-clause: "第二晚", "首夜", "夜间第一晚", "夜间行动：第一晚" ("首页": a recap's transcript of 首夜).
# A short heading may stand before it ("夜间情况：", "夜晚行动:").
_NIGHT_START = re.compile(r"^(?:[^\d，。；,;:：]{1,8}[:：]\s*)?(?:夜间行动(?:阶段)?[:：]?\s*|夜间|晚上)?(?:第(?P<n>" + _ORDINAL + r")(?:晚|夜)|(?P<first>首)(?:晚|夜|页)|(?P<second>次)(?:晚|夜))")
# Any other mention of a night ("后夜间", "当晚", "夜里"; not the word 平安夜): which night is not said, so none is assumed.
_OTHER_NIGHT = re.compile(r"晚|夜")
_SEAT = r"\s*(?P<seat>\d{1,2})\s*号"
_RESULT = r"(?:\s*是)?\s*(?P<said>狼人?|好人|金水|查杀)?"

# skill -> (the role that has it, its name in the log, the verb phrase before the target seat).
_SKILLS: dict[str, tuple[str, str, str]] = {
    "witch_save": ("witch", "女巫", r"(?:(?:使用|用|开)了?解药(?:解救|救起|救活|救)?|(?:开药|用药|解药)?(?:解救|救起|救活|救))了?"),
    "witch_poison": ("witch", "女巫", r"(?:(?:使用|用|开|泼|撒)了?毒药?(?:盲?毒(?:死|杀|中|掉)?)?|盲?毒(?:死|杀|中|掉)?)了?"),
    "seer_check": ("seer", "预言家", r"(?P<verb>首验|查验|验|查杀)了?"),
    "guard_protect": ("guard", "守卫", r"(?:守(?:护|卫)?|保护)了?"),
    "silence": ("silencer_elder", "禁言长老", r"禁言?了?"),
    "stalker_assassinate": ("stalker", "潜行者", r"(?:暗杀|刺杀)了?"),
    "wolf_beauty_charm": ("wolf_beauty", "狼美人", r"魅惑了?"),
    "demon_check": ("demon", "恶魔", r"(?:查验|验)了?"),
}
_ROLE_WORD = "(?:" + "|".join(sorted({w for _, w, _ in _SKILLS.values()}, key=len, reverse=True)) + ")"
# In the seat's own clause, after its night: "第一晚救 4 号", "首验 11 号是狼" (a seer's "首验 / 第二验" is its night).
_OWN = {skill: re.compile(r"^" + verb + _SEAT + _RESULT) for skill, (_, _, verb) in _SKILLS.items()}
_NTH_CHECK = re.compile(r"^(?:第(?P<k>" + _ORDINAL + r")验|(?P<first>首)验)" + _SEAT + _RESULT)
# Anywhere, with the actor named by seat and/or role, under a night: "女巫 8 号毒 1 号", "3 号救 8 号", "预言家验 8 号金水".
# "守卫 8 号选择守护 2 号": a word of choosing may stand between the actor and the verb.
_CHOOSING = r"(?:选择了?|决定)?\s*"
# Words of speech: a sub-clause with one reports what a seat said, not what it did.
SPEECH = re.compile(r"称|跳|说|报|遗言|发言|认为|建议|号召|表示|质疑|怀疑|分析|猜|可能|应该|假装|谎|认|觉得|如果|若")
_DAY = re.compile(r"白天|天亮|次日|当天|第" + _ORDINAL + r"天|投票|归票|出局|警长")
# A seat's clause: "1 号是女巫", "1 号玩家是女巫", "5 号（女巫）…".
_SEAT_CLAUSE = re.compile(r"^\s*(?P<seat>\d{1,2})\s*号(?:玩家)?(?:是(?P<label>.*)$|[（(](?P<plabel>[^）)]*)[）)])")
# Sub-clauses: split at commas and full stops, and at a "、" before another night or a named actor's action.
_SUBCLAUSE = re.compile(r"[，,；;。]|、(?=(?:第" + _ORDINAL + r"|首)(?:晚|夜|验)|" + _ROLE_WORD + r"|\d{1,2}\s*号\s*" + _ROLE_WORD + r")")
# The wolves' kill, under a night: "狼人刀 8 号", "狼刀 11 号", "狼队杀死 12 号", "狼人 9 号自刀" (a wolf knifing
# itself); in a seat's own clause after its night: "第二晚被狼人刀死", a wolf's "首晚自刀".
_PACK = r"(?:狼人团队|狼团队|狼队|狼人|狼)"
# The pack, or one wolf named by its role (any wolf-side role of the catalogue: "狼兄 4 号落刀 7 号"), then a verb of
# killing ("刀", "杀", "咬", "袭击", in any compound: "落刀", "首刀", "刀杀", "选择击杀"), then the target, maybe
# after its role ("落刀村民 8 号"). "狼人杀死 1 号和 5 号" (one of them the witch's poison): which one the wolves
# killed is not said, so none is read.
_WOLF_NAMES = sorted({n for r in RELEASE_ROLES.roles.values() if r.faction == "wolf" for n in r.names.get("zh", ())} | {"狼人团队", "狼团队", "狼队"},
                     key=len, reverse=True)
_KILLER = r"(?:" + "|".join(map(re.escape, _WOLF_NAMES)) + r")(?:\s*\d{1,2}\s*号)?"
# "刀中 / 刀到 N 号" (the knife landed on N) is the same kill.
_KILL_VERB = r"(?:选择|决定)?\s*[落首]?(?:刀杀|刀死|刀中|刀到|刀|杀死|击杀|杀害|杀了|杀|袭击|咬死|咬)了?"
_ANY_ROLE = r"(?:" + "|".join(map(re.escape, sorted({n for r in RELEASE_ROLES.roles.values() for n in r.names.get("zh", ())}, key=len, reverse=True))) + r")?"
# A second seat joined to the target is a second victim ("狼人杀死 1 号和 5 号": not read), unless it starts its own
# action ("狼人首刀 11 号、12 号用解药").
_SECOND_VICTIM = r"(?!\s*(?:和|、|与|及|跟)\s*\d{1,2}(?!\d)\s*号?(?!\s*(?:号\s*)?(?:玩家)?\s*(?:用|使用|开|救|毒|撒|守|验|查|自|禁|暗杀|是)))"
# The target's role may stand before its seat, with a short nickname between ("刀中守卫阿五 5 号", recaps name
# players): the seat must then hold that role (else nothing is read). A "、" may follow the verb ("首刀、村民 8 号").
_TARGET_ROLE = r"(?:[^\d\s，。；,;、号]{0,2}?(?P<trole>" + _ANY_ROLE[3:-2] + r")[^\d\s，。；,;、号]{0,2})?"
# A short description of the target may stand between ("刀了白天发言像神的 8 号"): it ends in 的 and names no seat.
_DESCRIBED = r"(?:[^\d，。；,;、]{1,12}?的)?"
_NAMED = {skill: re.compile(r"(?P<role_a>" + _ROLE_WORD + r")?\s*(?:(?P<actor>\d{1,2})\s*号\s*(?:玩家)?)?\s*(?P<role_b>" + _ROLE_WORD + r")?\s*"
                            + _CHOOSING + verb + _TARGET_ROLE + _SEAT + _RESULT) for skill, (_, _, verb) in _SKILLS.items()}
_KILL_NAMED = re.compile(_KILLER + r"[^\d，。；,;]{0,6}?" + _KILL_VERB + r"\s*、?\s*" + _DESCRIBED + _TARGET_ROLE + _SEAT + _SECOND_VICTIM)
# The pack, then its night, then the kill, anywhere: "狼队在第三晚杀死了 1 号" (the night follows the killer).
_KILL_NIGHT_AFTER = re.compile(_KILLER + r"\s*(?:在|于)\s*第(?P<n>" + _ORDINAL + r")(?:晚|夜)\s*(?:里|中)?\s*" + _KILL_VERB + r"\s*、?\s*"
                               + _TARGET_ROLE + _SEAT + _SECOND_VICTIM)
# A seat poisoned, in its own clause after its night: "第二晚被女巫毒死", "第三晚被 9 号毒死" (9 must be the witch).
_POISON_OWN = re.compile(r"^被\s*(?:女巫|(?P<by>\d{1,2})\s*号\s*(?:女巫)?)\s*(?:用毒药?|撒毒)?\s*盲?毒(?:死|杀|中|倒)")
# The guard's night told by the recap or the log: "4 号选择守自己", "守卫 3 号空手", "5 号守卫选择了空守" (the seat
# named must be the guard; with the role word alone, the board's one guard).
_GUARD_SELF = re.compile(r"(?<!\d)(?P<actor>\d{1,2})\s*号\s*(?:守卫)?\s*" + _CHOOSING + r"(?:守护|守)了?\s*(?:自己|自身)")
_GUARD_EMPTY = re.compile(r"(?:(?P<role>守卫)\s*(?:[^\d\s，。；,;、号]{1,4}?)?\s*)?(?:(?P<actor>\d{1,2})\s*号\s*(?:守卫)?\s*)?" + _CHOOSING + r"(?:空手|空守)")
# A seat's description that holds a word of speech but reports none: "悍跳狼" (a wolf that claimed a role).
_DESCRIPTORS = re.compile(r"[悍焊汉]跳狼")
# The description of a knife's target ("刀了白天说自己是神的 8 号") says who the target is, not what anyone did.
_DESCRIBED_TARGET = re.compile(r"(?<=[刀杀])[^\d，。；,;、]{1,12}?的(?=[^\d，。；,;、]{0,6}?\d{1,2}\s*号)")
# A seer's check named by its night, anywhere: "第一晚的金水9 号", "第二晚的金水村民1 号", "第二晚验出 5 号是金水".
_NTH_NIGHT_CHECKS = (
    re.compile(r"第(?P<n>" + _ORDINAL + r")(?:晚|夜)\s*的\s*(?P<said>金水|查杀)\s*(?:是)?\s*" + _TARGET_ROLE + _SEAT),
    re.compile(r"第(?P<n>" + _ORDINAL + r")(?:晚|夜)[，,]?\s*(?:[^\d，。；,;]{0,4}?(?P<actor>\d{1,2})\s*号)?[^\d，。；,;]{0,8}?"
               r"(?:验出|验到|查验出)了?\s*" + _TARGET_ROLE + _SEAT
               + r"\s*(?:是|为)?\s*(?:一张|一个|个)?\s*(?P<said>金水|查杀|好人|好身份|狼人|狼)"),
)
# A protection told from the protected seat: "6 号被守卫 5 号成功守护", "8 号被 3 号守住" (the guard must be the seat named).
_PROTECTED = re.compile(r"(?<!\d)(?P<seat>\d{1,2})\s*号\s*(?:玩家)?\s*被\s*(?:守卫)?\s*(?P<actor>\d{1,2})\s*号\s*(?:成功)?\s*(?:守护|守住|守)")
# Words of a bluff before a check: a wolf's claimed check is not the seer's.
_BLUFF = re.compile(r"悍跳|焊跳|汉跳|狼|假|称|说")
# The target named by its role alone ("落刀猎人葛晓允": recaps name players, not seats): read when one seat holds it.
_KILL_ROLE = re.compile(_KILLER + r"[^\d，。；,;]{0,6}?" + _KILL_VERB + r"\s*(?P<role>" + _ANY_ROLE[3:-2] + r")(?!\s*\d|\s*[一二三四五六七八九十]+\s*号)")
# (the pack may go unnamed: "12 号狼人自刀"; only a wolf knifes itself, and the seat must be one)
_KILL_SELF = re.compile(r"(?:" + _PACK + r"\s*)?(?:安排|让)?\s*(?<!\d)(?P<seat>\d{1,2})\s*号\s*(?:狼人?\s*)?(?:选择|决定)?\s*自刀")
# A kill denied ("狼人未刀 2 号继续刀 12 号": 2 was not the target): nothing is read from it.
_NEGATED = re.compile(r"未|没|不|并非")
# The knife a seat met, or took itself: a transcript's space before it ("12 号 遭遇首刀"), or between a knife and the
# role it fell on ("刀死 猎人"), is no sentence break.
_KNIFE_MET = r"(?:遭遇|遇到|遇)\s*[首手狼]?刀|(?:选择|决定)?\s*自刀|[首落]刀"
# The victim named first, the kill it met after ("12 号遭遇首刀", "预言家 3 号遇手刀", "村民 8 号被狼人刀死"): under a
# night, the wolves' kill of that night. ("中刀" is not read: on a board with a seat swap the seat that took the
# knife is not the one the wolves chose.)
_KILL_PASSIVE = re.compile(_TARGET_ROLE + _SEAT + r"\s*(?:遭遇|遇到|遇|被" + _PACK + r"?)\s*(?:首刀|手刀|狼刀|刀杀|刀死|刀)")
# The pack knifing nobody ("狼队空刀", "狼人选择空刀"): stated, it is the night's kill, with no target.
_EMPTY_KILL = re.compile(_PACK + r"\s*(?:选择|决定)?\s*空刀")
_KILL_OWN = re.compile(r"^(?:(?:再次|又|也)?\s*被\s*(?:" + _PACK + r"|(?P<by>\d{1,2})\s*号\s*(?:狼人?)?)\s*(?:首刀|刀死?|杀死|击杀|刀杀)|自刀)")
# In a wolf's own clause after its night, the knife it (with the pack) put on a seat: "第四晚刀死女巫 7 号".
_KILL_BY_OWN_WOLF = re.compile(r"^(?:选择|决定)?\s*[落首]?(?:刀杀|刀死|刀中|刀|杀死|击杀|咬死)了?\s*" + _TARGET_ROLE + _SEAT + _SECOND_VICTIM)
# A witch's antidote whose target is left implicit ("女巫 12 号用解药", "首夜 10 号女巫自救"): the night's
# victim (herself when she saves herself), filled in once the night's kill is known.
_SAVE_IMPLICIT = re.compile(r"(?P<role_a>女巫)?\s*(?:(?P<actor>\d{1,2})\s*号\s*(?:玩家)?)?\s*(?P<role_b>女巫)?\s*" + _CHOOSING +
                            r"(?:(?P<self>自救)|(?:(?:使用|用|开)了?解药|开药(?:解救|救人))(?!\s*(?:救\s*)?\d{1,2}\s*号))")
# The recap names players, not seats: "女巫风情云选择使用解药", "女巫、小仓开药解救" (the board's one witch).
_SAVE_BY_NICKNAME = re.compile(r"女巫\s*[、，]?\s*(?:[A-Za-z]{1,12}|[^\d\s，。；,;、号]{1,4}?)?\s*(?:(?P<actor>\d{1,2})\s*号)?\s*" + _CHOOSING
                               + r"(?:(?:使用|用|开)了?解药|开药(?:解救|救人)?)")
# A seat alone, with words only a witch's antidote has ("1 号选择开药解救", "被 5 号开药解救"): the seat must be the witch.
_SAVE_BY_SEAT = re.compile(r"(?<!\d)(?P<actor>\d{1,2})\s*号\s*" + _CHOOSING + r"(?:(?:使用|用|开)了?解药|开药(?:解救|救人)?)")
# The pack's knife ending a sub-clause with no victim, and a victim opening the next by its role: "狼人首刀，村民、7 号"
# (not "…被狼人刀死，5 号是…": a passive ends a seat's own clause, and the next one is another seat's).
_KILL_LAST = re.compile(_KILLER + r"\s*(?:再次|又)?\s*(?:选择|决定)?\s*[落首]?(?:刀|杀)\s*$")
_VICTIM_FIRST = re.compile(r"^(?P<trole>" + _ANY_ROLE[3:-2] + r")?\s*、?\s*" + _SEAT + _SECOND_VICTIM)
# The antidote opening a sub-clause whose witch ends the one before ("…女巫 7 号 | 使用了解药…": a recap's transcript
# breaks there at a space): her save, whatever talk the rest of the run-on sub-clause holds.
_ANTIDOTE_FIRST = re.compile(r"^(?:选择了?|决定)?\s*(?:(?:使用|用|开)了?解药|开药)")
_WITCH_LAST = re.compile(r"女巫\s*(?:(?P<actor>\d{1,2})\s*号)?\s*$")
_SAVE_OWN = re.compile(r"^(?:(?P<self>自救)|(?:(?:使用|用|开)了?解药|开药(?:解救|救人))(?!\s*(?:救\s*)?\d{1,2}\s*号))")
_WOLF_WORDS = {"狼", "狼人", "查杀"}
_GOOD_WORDS = {"好人", "金水"}


@dataclass(frozen=True)
class Reading:
    """One night action read from the log, or why a reading was dropped (event None)."""

    seat: int
    text: str  # the sub-clause read (for the import report only; never put in the game)
    event: Event | None
    why: str


def _states_role(label: str, seat: SeatInfo) -> bool:
    role = RELEASE_ROLES.get(seat.role)
    names = [*(role.names.get("zh", ()) if role else ()), seat.original_role_label or ""]
    return any(name and name in label for name in names)


def _night_of(m: re.Match[str]) -> int:
    groups = m.groupdict()
    if groups.get("first"):
        return 1
    # An ordinal no number reading accepts (e.g. "1二") is night 0, which no game has: reported, not read.
    return 2 if groups.get("second") else (chinese_number(groups.get("n") or groups["k"]) or 0)


def _check_result(m: re.Match[str], target: SeatInfo, zh: bool) -> tuple[str | None, str | None]:
    """(result, None) or (None, why the reading is dropped)."""
    said = m.group("said") or ("查杀" if m.groupdict().get("verb") == "查杀" else None)
    truth = "wolf" if target.role == "werewolf" else ("good" if target.faction == "good" else None)
    stated = "wolf" if said in _WOLF_WORDS else ("good" if said in _GOOD_WORDS else None)
    if stated is not None and truth is not None and stated != truth:
        return None, f"the stated result ({said}) contradicts seat {target.seat}'s true role ({target.role})"
    result = stated or truth
    if result is None:
        return None, None
    return ({"wolf": "狼人", "good": "好人"} if zh else {"wolf": "wolf", "good": "good"})[result], None


def _sentence_break(m: re.Match[str]) -> str:
    """A transcript's space between two words: a stop, unless a knife's victim follows it by role."""
    knifed = m.string[max(0, m.start() - 1):m.start()] in ("刀", "杀") or m.string[max(0, m.start() - 2):m.start()] in ("刀死", "杀死")
    return m.group(0) if knifed and _ROLE_AHEAD.match(m.string, m.end()) else "。"


_ROLE_AHEAD = re.compile(_ANY_ROLE[:-1])


def read_night_actions(logs: str | None, seats: Sequence[SeatInfo], phases: Sequence[Phase], language: str, *,
                       transcribed: bool = False) -> list[Reading]:
    """Every recognisable night action of the log (module docstring), in log order. `transcribed`: the text is a
    transcript of speech (the host's recap), whose sentences run on with a space between them instead of a stop."""
    if not logs:
        return []
    by_seat = {s.seat: s for s in seats}
    reader = _Reader(by_seat, {p.id for p in phases if p.kind == "night"}, language == "zh")
    reader.nth_night_checks(logs)  # on the words as written: it needs no sentence, and its quote is verbatim
    reader.nth_night_kills(logs)
    if transcribed:  # the recap's nicknames, as its opening maps them to seats (werebench.nicknames)
        reader.nicks = recap_nicknames(logs, seats)
        reader.nick_patterns = nickname_patterns(reader.nicks, _KILLER, _KILL_VERB, _ORDINAL)
        reader.nicknamed(None, logs)
    if transcribed:  # a space between two words (not beside a number: "女巫 7 号") ends a sentence
        logs = re.sub(r"(?<=[^\d\s])\s+(?!" + _KNIFE_MET + r")(?=[^\d\s号])", _sentence_break, logs)
    current: SeatInfo | None = None  # the seat whose clause this is
    night: int | None = None  # the night a run of sub-clauses describes ("第一晚狼人刀 8 号，3 号救 8 号")
    prev = ""
    for part in (p.strip() for p in _SUBCLAUSE.split(logs)):
        before, prev = prev, part
        if (night is not None and (k := _KILL_LAST.search(before)) and "被" not in before and (t := _VICTIM_FIRST.match(part))
                and t.group("trole") and reader.role_agrees(t)):
            # "第一晚狼人首刀，村民、7 号…": the knife ends one sub-clause and its victim opens the next
            reader.kill(night, int(t.group("seat")), k.group(0) + "，" + t.group(0))
        if night is not None and _ANTIDOTE_FIRST.match(part) and (w := _WITCH_LAST.search(before)):
            witches = [s for s in seats if s.role == "witch"]
            witch = by_seat.get(int(w.group("actor"))) if w.group("actor") else (witches[0] if len(witches) == 1 else None)
            if witch is not None and witch.role == "witch":
                reader.implicit_save(witch, night, False, before[w.start():] + part[:_ANTIDOTE_FIRST.match(part).end()])
        clause = _SEAT_CLAUSE.match(part)
        if clause:
            # A seat's clause starts when the role it states is the seat's true one (else it is no clause of the
            # seat's own, e.g. a list of what someone claimed: nothing is read as its own until the next one).
            seat = by_seat.get(int(clause.group("seat")))
            label = clause.group("label") if clause.group("label") is not None else clause.group("plabel")
            current = seat if seat is not None and _states_role(label, seat) else None
            night = None
            part = part[clause.end():].strip()
        if not part:
            continue
        if SPEECH.search(_DESCRIPTORS.sub("", _DESCRIBED_TARGET.sub("", part))):
            night = None  # talk at the table: what follows is not the night any more
            continue
        start = _NIGHT_START.match(part)
        if start:
            night = _night_of(start)
            rest = part[start.end():].strip()
            if current is not None:
                reader.own(current, night, rest, part)
        elif current is not None and current.role == _SKILLS["seer_check"][0] and (m := _NTH_CHECK.match(part)):
            reader.found(current, _night_of(m), "seer_check", m, part)
        elif _DAY.search(part) or _OTHER_NIGHT.search(part.replace("平安夜", "")):
            night = None  # day again, or a night the log does not number
        if night is not None:
            reader.named(night, part[start.end():] if start else part, part)
    source = "recap" if transcribed else "annotator_log"
    # the sub-clause read is the fact's evidence (a recap's inserted stops split sub-clauses, so none is inside one)
    return [Reading(r.seat, r.text, r.event.model_copy(update={"evidence": [Evidence(source=source, quote=r.text)]}), r.why) if r.event else r
            for r in _drop_conflicts(reader.readings)]


class _Reader:
    def __init__(self, by_seat: dict[int, SeatInfo], nights: set[str], zh: bool):
        self.by_seat, self.nights, self.zh = by_seat, nights, zh
        self.readings: list[Reading] = []
        self.nicks: dict[str, int] = {}
        self.nick_patterns: list[tuple[str, re.Pattern]] = []

    def own(self, seat: SeatInfo, night: int, rest: str, text: str) -> None:
        """The seat's own clause: a verb right after the night ("第一晚救 4 号"), the seat killed by the
        wolves ("第二晚被狼人刀死", a wolf's "首晚自刀"), a witch's antidote with its target implicit."""
        for skill, pattern in _OWN.items():
            m = pattern.match(rest)
            if m and _SKILLS[skill][0] == seat.role:
                self.found(seat, night, skill, m, text)
                return
        if (m := _POISON_OWN.match(rest)) is not None:
            witch = self._one_of("witch", m.group("by"))
            if witch is not None:
                self.act(witch, night, target=seat.seat, text=text, skill="witch_poison")
            return
        m = _KILL_OWN.match(rest)
        by = self.by_seat.get(int(m.group("by"))) if m and m.group("by") else None
        if m and (m.group(0) != "自刀" or seat.faction == "wolf") and (not m.group("by") or (by is not None and by.faction == "wolf")):
            self.kill(night, seat.seat, text)
        elif seat.faction == "wolf" and (m := _KILL_BY_OWN_WOLF.match(rest)) and self.role_agrees(m):
            self.kill(night, int(m.group("seat")), text)
        elif seat.role == "witch" and (m := _SAVE_OWN.match(rest)):
            self.implicit_save(seat, night, bool(m.group("self")), text)

    def named(self, night: int, text: str, whole: str) -> None:
        """Actions whose actor is named ("女巫 8 号毒 1 号", "3 号救 8 号", "预言家验 8 号金水"), the wolves' kill
        ("狼人刀 8 号") and a named witch's implicit antidote ("女巫 12 号用解药"), under `night`."""
        for m in [*_KILL_NAMED.finditer(text), *_KILL_PASSIVE.finditer(text)]:
            if self.role_agrees(m) and not _NEGATED.search(text[m.start():m.start("seat")]):
                self.kill(night, int(m.group("seat")), whole)
        for m in _KILL_ROLE.finditer(text):
            role = RELEASE_ROLES.canonical(m.group("role"))
            holders = [s.seat for s in self.by_seat.values() if s.role == role]
            if len(holders) == 1:
                self.kill(night, holders[0], whole)
        if _EMPTY_KILL.search(text):
            self.kill(night, None, whole)
        for m in _KILL_SELF.finditer(text):
            wolf = self.by_seat.get(int(m.group("seat")))
            if wolf is not None and wolf.faction == "wolf":
                self.kill(night, wolf.seat, whole)
        for m in _PROTECTED.finditer(text):
            guard = self.by_seat.get(int(m.group("actor")))
            if guard is not None and guard.role == "guard" and not _NEGATED.search(m.group(0)):
                self.found(guard, night, m=m, text=whole, skill="guard_protect")
        self.nicknamed(night, text)
        for m in _GUARD_SELF.finditer(text):
            guard = self.by_seat.get(int(m.group("actor")))
            if guard is not None and guard.role == "guard" and not _NEGATED.search(m.group(0)):
                self.act(guard, night, target=guard.seat, text=whole, skill="guard_protect")
        for m in _GUARD_EMPTY.finditer(text):
            if (m.group("role") or m.group("actor")) and not _NEGATED.search(text[max(0, m.start() - 2):m.end()]):
                guard = self._one_of("guard", m.group("actor"))
                if guard is not None:
                    self.act(guard, night, target=None, text=whole, skill="guard_protect")
        for m in _SAVE_IMPLICIT.finditer(text):
            if m.group("role_a") or m.group("role_b"):
                actor = self._actor("witch_save", m)
                if actor is not None:
                    self.implicit_save(actor, night, bool(m.group("self")), whole)
        witches = [s for s in self.by_seat.values() if s.role == "witch"]
        for m in [*_SAVE_BY_NICKNAME.finditer(text), *_SAVE_BY_SEAT.finditer(text)]:
            named = self.by_seat.get(int(m.group("actor"))) if m.group("actor") else None
            witch = named if named is not None else (witches[0] if len(witches) == 1 and not m.group("actor") else None)
            if witch is not None and witch.role == "witch" and not _NEGATED.search(m.group(0)):
                self.implicit_save(witch, night, False, whole)
        pos = 0
        while pos < len(text):
            for skill, pattern in _NAMED.items():
                m = pattern.match(text, pos)
                if m is None or not (m.group("role_a") or m.group("actor") or m.group("role_b")):
                    continue
                actor = self._actor(skill, m)
                if actor is not None and not self.role_agrees(m):  # "守护了女巫 2 号": seat 2 must be the witch
                    self.readings.append(Reading(actor.seat, whole, None, f"seat {m.group('seat')} does not hold the role named ({m.group('trole')})"))
                    pos = m.end() - 1
                    break
                if actor is not None:
                    self.found(actor, 1 if m.groupdict().get("verb") == "首验" else night, skill, m, whole)
                    pos = m.end() - 1
                    break
            pos += 1

    def nth_night_checks(self, text: str) -> None:
        """A seer's check named by its night anywhere in the text: "11 号第一晚的金水9 号", "第二晚的金水村民1 号",
        "第二晚验出 5 号是金水". The seer is the seat named right before, which must truly be the seer, else the
        game's one seer when the words before name no one (a wolf's bluff is said with its seat or a word of it)."""
        seers = [s for s in self.by_seat.values() if s.role == "seer"]
        for pattern in _NTH_NIGHT_CHECKS:
            for m in pattern.finditer(text):
                before = text[max(0, m.start() - 12):m.start()]
                named = re.search(r"(\d{1,2})\s*号\s*(?:在)?\s*$", before)
                actor = m.groupdict().get("actor") or (named.group(1) if named else None)
                seer = self.by_seat.get(int(actor)) if actor else (seers[0] if len(seers) == 1 else None)
                if seer is None or seer.role != "seer" or (actor is None and _BLUFF.search(before)):
                    continue
                self.found(seer, chinese_number(m.group("n")) or 0, m=m, text=(named.group(0) if named else "") + m.group(0), skill="seer_check")

    def nicknamed(self, night: int | None, text: str) -> None:
        """Acts whose target the recap names by a nickname it maps to a seat: under `night`, the kill and the poison;
        with `night` None, a check named by its night (werebench.nicknames)."""
        for what, pattern in self.nick_patterns:
            for m in pattern.finditer(text) if (what == "check") == (night is None) else ():
                target = self.by_seat[self.nicks[m.group("nick")]]
                role = m.groupdict().get("trole")
                if role and RELEASE_ROLES.canonical(role) not in (target.role, "werewolf" if target.faction == "wolf" else None):
                    continue
                if what == "kill" and night is not None and not _NEGATED.search(m.group(0)):
                    self.kill(night, target.seat, m.group(0))
                elif what == "poison" and night is not None and (witch := self._one_of("witch", m.group("actor"))) is not None:
                    self.act(witch, night, target=target.seat, text=m.group(0), skill="witch_poison")
                elif what == "check" and (seer := self._one_of("seer", None)) is not None and not _BLUFF.search(text[max(0, m.start() - 12):m.start()]):
                    result, why = _check_result(m, target, self.zh)
                    if result is not None:
                        self.act(seer, chinese_number(m.group("n")) or 0, target=target.seat, text=m.group(0), skill="seer_check", result=result)

    def nth_night_kills(self, text: str) -> None:
        """The wolves' kill with its night after the killer, anywhere: "狼队在第三晚杀死了 1 号"."""
        for m in _KILL_NIGHT_AFTER.finditer(text):
            if self.role_agrees(m) and not _NEGATED.search(m.group(0)[:m.start("seat") - m.start()]):
                self.kill(chinese_number(m.group("n")) or 0, int(m.group("seat")), m.group(0))

    def _one_of(self, role: str, seat: str | None) -> SeatInfo | None:
        """The seat named (it must hold `role`), else the board's one holder of `role`."""
        if seat:
            named = self.by_seat.get(int(seat))
            return named if named is not None and named.role == role else None
        holders = [s for s in self.by_seat.values() if s.role == role]
        return holders[0] if len(holders) == 1 else None

    def role_agrees(self, m: re.Match[str]) -> bool:
        """A target named with a role ("守卫 5 号") is read only when the seat truly holds it."""
        seat = self.by_seat.get(int(m.group("seat")))
        if m.group("trole") is None:
            return True
        role = RELEASE_ROLES.canonical(m.group("trole"))
        # a plain wolf's name ("狼人 3 号") fits any wolf-side seat
        return seat is not None and (role == seat.role or (role == "werewolf" and seat.faction == "wolf"))

    def _actor(self, skill: str, m: re.Match[str]) -> SeatInfo | None:
        """The seat named (its true role must have the skill, and agree with a role word given), or the only
        seat whose true role is the role named."""
        role, word, _ = _SKILLS[skill]
        words = {w for w in (m.group("role_a"), m.group("role_b")) if w}
        if words - {word}:
            return None
        if m.group("actor"):
            seat = self.by_seat.get(int(m.group("actor")))
            return seat if seat is not None and seat.role == role else None
        holders = [s for s in self.by_seat.values() if s.role == role]
        return holders[0] if len(holders) == 1 else None

    def kill(self, night: int, target: int | None, text: str) -> None:
        """The wolves' kill of `night` (seen by the whole pack; the witch's share is added later); target None: the
        pack stated to have knifed nobody (a board that allows it), a fact like a stated empty guard."""
        phase = phase_id("night", night)
        if phase not in self.nights or (target is not None and target not in self.by_seat):
            self.readings.append(Reading(target or 0, text, None, f"the game has no {phase} or no seat {target}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=WOLVES, actor=None, target=target, skill="wolf_kill",
                      note="read from the annotator log's statement of the wolves' kill")
        self.readings.append(Reading(target or 0, text, event, "read"))

    def implicit_save(self, witch: SeatInfo, night: int, itself: bool, text: str) -> None:
        """An antidote with no target named: herself ("自救"), else the night's victim (filled in later; None until then)."""
        phase = phase_id("night", night)
        if phase not in self.nights:
            self.readings.append(Reading(witch.seat, text, None, f"the game has no {phase}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=witch.seat, target=witch.seat if itself else None,
                      skill="witch_save", note="read from the annotator log's statement of the witch's antidote (target: the night's victim)")
        self.readings.append(Reading(witch.seat, text, event, "read"))

    def act(self, seat: SeatInfo, night: int, skill: str, target: int | None, text: str, result: str | None = None) -> None:
        """A potion or a protection whose target is known (None: a stated empty guard)."""
        phase = phase_id("night", night)
        if phase not in self.nights:
            self.readings.append(Reading(seat.seat, text, None, f"the game has no {phase}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=seat.seat, target=target, skill=skill,
                      result=result, note="read from the annotator log's statement of the seat's night action")
        self.readings.append(Reading(seat.seat, text, event, "read"))

    def found(self, seat: SeatInfo, night: int, skill: str, m: re.Match[str], text: str) -> None:
        phase = phase_id("night", night)
        target = self.by_seat.get(int(m.group("seat")))
        if phase not in self.nights:
            self.readings.append(Reading(seat.seat, text, None, f"the game has no {phase}"))
            return
        if target is None:
            self.readings.append(Reading(seat.seat, text, None, f"seat {m.group('seat')} is not a seat of the game"))
            return
        result = None
        if skill == "seer_check":
            result, why = _check_result(m, target, self.zh)
            if why:
                self.readings.append(Reading(seat.seat, text, None, why))
                return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=seat.seat, target=target.seat,
                      skill=skill, result=result, note="read from the annotator log's statement of the seat's night action")
        self.readings.append(Reading(seat.seat, text, event, "read"))


def _drop_conflicts(readings: list[Reading]) -> list[Reading]:
    """Against the rules or ambiguous: both potions of a witch on one night, two targets for one skill on one night."""
    events = [r.event for r in readings if r.event is not None]
    bad: set[tuple[object, str]] = set()
    for e in events:
        same = {o.target for o in events if o.actor == e.actor and o.phase == e.phase and o.skill == e.skill} - {None}
        potions = {o.skill for o in events if o.actor == e.actor and o.phase == e.phase and o.skill in ("witch_save", "witch_poison")}
        if len(same) > 1 or len(potions) > 1:
            bad.add((e.actor, e.phase))
    out: list[Reading] = []
    seen: set[tuple] = set()
    for r in readings:
        e = r.event
        if e is None:
            out.append(r)
        elif (e.actor, e.phase) in bad:
            who = f"seat {e.actor}" if e.actor is not None else "the wolves"
            out.append(Reading(r.seat, r.text, None, f"conflicting night actions of {who} on {e.phase}"))
        elif (e.actor, e.phase, e.skill, e.target) not in seen:  # the same action stated twice is one action
            seen.add((e.actor, e.phase, e.skill, e.target))
            out.append(r)
    return out
