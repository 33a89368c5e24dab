"""The wording of night actions in the annotator log and the host's recap: every pattern the night readers match
(nights.nights walks the clauses, nights.night_clauses reads them, nights.night_record keeps what they read).

What each pattern reads, and what it refuses, is said beside it; nights.nights' docstring says the whole."""

from __future__ import annotations

import re

from werealign.importers.toolkit.role_words import ROLE_WORDS

ORDINAL = r"[一二三四五六七八九十\d]{1,2}"
# A night at the start of a sub-clause: "第二晚", "首夜", "夜间第一晚", "夜间行动：第一晚" ("首页": a recap's transcript of 首夜).
# A short heading may stand before it ("夜间情况：", "夜晚行动:").
NIGHT_START = re.compile(r"^(?:[^\d，。；,;:：]{1,8}[:：]\s*)?(?:夜间行动(?:阶段)?[:：]?\s*|夜间|晚上)?(?:第(?P<n>" + ORDINAL + r")(?:晚|夜)|(?P<first>首)(?:晚|夜|页)|(?P<second>次)(?:晚|夜))")
# Any other mention of a night ("后夜间", "当晚", "夜里"; not the word 平安夜): which night is not said, so none is assumed.
OTHER_NIGHT = re.compile(r"晚|夜")
SEAT = r"\s*(?P<seat>\d{1,2})\s*号"
RESULT = r"(?:\s*是)?\s*(?P<said>狼人?|好人|金水|查杀)?"

POISON_VERB = r"(?:(?:使用|用|开|泼|撒)了?毒药?(?:盲?毒(?:死|杀|中|掉)?)?|盲?毒(?:死|杀|中|掉)?)了?"
# skill -> (the role that has it, its name in the log, the verb phrase before the target seat).
SKILLS: dict[str, tuple[str, str, str]] = {
    "witch_save": ("witch", "女巫", r"(?:(?:使用|用|开)了?解药(?:解救|救起|救活|救)?|(?:开药|用药|解药)?(?:解救|救起|救活|救))了?"),
    "witch_poison": ("witch", "女巫", POISON_VERB),
    "seer_check": ("seer", "预言家", r"(?P<verb>首验|查验|验|查杀)了?"),
    "guard_protect": ("guard", "守卫", r"(?:守(?:护|卫)?|保护)了?"),
    "silence": ("silencer_elder", "禁言长老", r"禁言?了?"),
    "stalker_assassinate": ("stalker", "潜行者", r"(?:暗杀|刺杀)了?"),
    "wolf_beauty_charm": ("wolf_beauty", "狼美人", r"魅惑了?"),
    "demon_check": ("demon", "恶魔", r"(?:查验|验)了?"),
}
ROLE_WORD = "(?:" + "|".join(sorted({w for _, w, _ in SKILLS.values()}, key=len, reverse=True)) + ")"
# In the seat's own clause, after its night: "第一晚救 4 号", "首验 11 号是狼" (a seer's "首验 / 第二验" is its night).
OWN = {skill: re.compile(r"^" + verb + SEAT + RESULT) for skill, (_, _, verb) in SKILLS.items()}
NTH_CHECK = re.compile(r"^(?:第(?P<k>" + ORDINAL + r")验|(?P<first>首)验)" + SEAT + RESULT)
# Anywhere, with the actor named by seat and/or role, under a night: "女巫 8 号毒 1 号", "3 号救 8 号", "预言家验 8 号金水".
# "守卫 8 号选择守护 2 号": a word of choosing may stand between the actor and the verb.
CHOOSING = r"(?:选择了?|决定)?\s*"
# Words of speech: a sub-clause with one reports what a seat said, not what it did; an appearance made is not an act
# either ("企图造成女巫毒了 8 号的假象": the wolves staged it).
SPEECH = re.compile(r"称|跳|说|报|遗言|发言|认为|建议|号召|表示|质疑|怀疑|分析|猜|可能|应该|假装|谎|认|觉得|如果|若|假象|伪装|误以为")
DAY = re.compile(r"白天|天亮|次日|当天|第" + ORDINAL + r"天|投票|归票|出局|警长")
# A seat's clause: "1 号是女巫", "1 号玩家是女巫", "5 号（女巫）…".
SEAT_CLAUSE = re.compile(r"^\s*(?P<seat>\d{1,2})\s*号(?:玩家)?(?:是(?P<label>.*)$|[（(](?P<plabel>[^）)]*)[）)])")
# Sub-clauses: split at commas and full stops, and at a "、" before another night or a named actor's action.
# And before a named actor right after another seat ("狼队落刀守卫6 号女巫4 号则认为…": the witch's reasoning is not
# the wolves' knife): a word of speech then ends only the sub-clause it stands in.
SUBCLAUSE = re.compile(r"[，,；;。]|、(?=(?:第" + ORDINAL + r"|首)(?:晚|夜|验)|" + ROLE_WORD + r"|\d{1,2}\s*号\s*" + ROLE_WORD + r")"
                       r"|(?<=号)\s*(?=" + ROLE_WORD + r"\s*\d{1,2}\s*号)")
# The wolves' kill, under a night: "狼人刀 8 号", "狼刀 11 号", "狼队杀死 12 号", "狼人 9 号自刀" (a wolf knifing
# itself); in a seat's own clause after its night: "第二晚被狼人刀死", a wolf's "首晚自刀".
PACK = r"(?:狼人团队|狼团队|狼队|狼人|狼)"
# The pack, or one wolf named by its role (any wolf-side role of the catalogue: "狼兄 4 号落刀 7 号"), then a verb of
# killing ("刀", "杀", "咬", "袭击", in any compound: "落刀", "首刀", "刀杀", "选择击杀"), then the target, maybe
# after its role ("落刀村民 8 号"). "狼人杀死 1 号和 5 号" (one of them the witch's poison): which one the wolves
# killed is not said, so none is read.
WOLF_NAMES = sorted({n for r in ROLE_WORDS.roles.values() if r.faction == "wolf" for n in r.names.get("zh", ())} | {"狼人团队", "狼团队", "狼队"},
                     key=len, reverse=True)
KILLER = r"(?:" + "|".join(map(re.escape, WOLF_NAMES)) + r")(?:\s*\d{1,2}\s*号)?"
# "刀中 / 刀到 N 号" (the knife landed on N) is the same kill.
KILL_VERB = r"(?:选择|决定)?\s*[落首]?(?:刀杀|刀死|刀中|刀到|刀|杀死|击杀|杀害|杀了|杀|袭击|咬死|咬)了?"
ANY_ROLE = r"(?:" + "|".join(map(re.escape, sorted({n for r in ROLE_WORDS.roles.values() for n in r.names.get("zh", ())}, key=len, reverse=True))) + r")?"
# A second seat joined to the target is a second victim ("狼人杀死 1 号和 5 号": not read), unless it starts its own
# action ("狼人首刀 11 号、12 号用解药").
SECOND_VICTIM = r"(?!\s*(?:和|、|与|及|跟)\s*\d{1,2}(?!\d)\s*号?(?!\s*(?:号\s*)?(?:玩家)?\s*(?:用|使用|开|救|毒|撒|守|验|查|自|禁|暗杀|是)))"
# The target's role may stand before its seat, with a short nickname between ("刀中守卫阿五 5 号", recaps name
# players): the seat must then hold that role (else nothing is read). A "、" may follow the verb ("首刀、村民 8 号").
TARGET_ROLE = r"(?:[^\d\s，。；,;、号]{0,2}?(?P<trole>" + ANY_ROLE[3:-2] + r")[^\d\s，。；,;、号]{0,2})?"
# A short description of the target may stand between ("刀了白天发言像神的 8 号"): it ends in 的 and names no seat.
DESCRIBED = r"(?:[^\d，。；,;、]{1,12}?的)?"
# A poison's target described with another seat in it ("毒死了为 11 号说话的狼人 12 号"): the description ends in 的 and
# a role word then the seat follow at once (the head of the phrase is the last seat); a particle may stand after the
# actor ("2 号则盲毒了村民 1 号").
_SEATED_DESCRIPTION = r"(?:[^，。；,;、]{1,12}?的(?=\s*" + ANY_ROLE[3:-2] + r"\s*\d{1,2}\s*号))?"
_PARTICLE = r"(?:则|也|便|就)?\s*"
NAMED = {skill: re.compile(r"(?P<role_a>" + ROLE_WORD + r")?\s*(?:(?P<actor>\d{1,2})\s*号\s*(?:玩家)?)?\s*(?P<role_b>" + ROLE_WORD + r")?\s*"
                            + (_PARTICLE if verb is POISON_VERB else "") + CHOOSING + verb
                            + (_SEATED_DESCRIPTION if verb is POISON_VERB else "") + TARGET_ROLE + SEAT + RESULT)
         for skill, (_, _, verb) in SKILLS.items()}
POISONING = frozenset(skill for skill, (_, _, verb) in SKILLS.items() if verb is POISON_VERB)  # the poison's skill id
# The poisoner ends a sub-clause (a transcript's break after "女巫 7 号"), the poison opens the next: "选择撒毒狼人 4 号";
# or the verb ends one and the target alone is the next ("1 号盲毒了，村民 10 号").
POISON_FIRST = re.compile(r"^" + CHOOSING + POISON_VERB + TARGET_ROLE + SEAT + r"(?!\s*[和、与及跟]\s*\d)")
POISONER_VERB_LAST = re.compile(r"(?:女巫\s*(?:(?P<actor>\d{1,2})\s*号)?|(?<!\d)(?P<seat_actor>\d{1,2})\s*号)\s*" + _PARTICLE + CHOOSING
                                + r"(?:盲毒|开毒|撒毒|用毒|毒)了?\s*$")
TARGET_ALONE = re.compile(r"^" + TARGET_ROLE + SEAT + r"\s*$")
KILL_NAMED = re.compile(KILLER + r"[^\d，。；,;]{0,6}?" + KILL_VERB + r"\s*、?\s*" + DESCRIBED + TARGET_ROLE + SEAT + SECOND_VICTIM)
# The pack, then its night, then the kill, anywhere: "狼队在第三晚杀死了 1 号" (the night follows the killer).
KILL_NIGHT_AFTER = re.compile(KILLER + r"\s*(?:在|于)\s*第(?P<n>" + ORDINAL + r")(?:晚|夜)\s*(?:里|中)?\s*" + KILL_VERB + r"\s*、?\s*"
                               + TARGET_ROLE + SEAT + SECOND_VICTIM)
# A seat poisoned, in its own clause after its night: "第二晚被女巫毒死", "第三晚被 9 号毒死" (9 must be the witch).
POISON_OWN = re.compile(r"^被\s*(?:女巫|(?P<by>\d{1,2})\s*号\s*(?:女巫)?)\s*(?:用毒药?|撒毒)?\s*盲?毒(?:死|杀|中|倒)")
# The guard's night told by the recap or the log: "4 号选择守自己", "守卫 3 号空手", "5 号守卫选择了空守" (the seat
# named must be the guard; with the role word alone, the board's one guard).
# "自守" is the table's word for guarding oneself ("守卫 6 号自守", "守卫阿满选择自守": the role word alone, a name
# after it, is the board's one guard, as for the empty guard below).
# Between the role word and the act, a name (no night word: "守卫前一晚空手" names another night than the clause's);
# after the seat, "当晚" (the clause's own night) may follow; split by a comma, see GUARD_LAST.
_GUARD_WHO = (r"(?:(?P<role>守卫)\s*(?:[^\d\s，。；,;、号晚夜天]{1,4}?)?\s*)?(?:(?<!\d)(?P<actor>\d{1,2})\s*号\s*(?:守卫)?\s*)?"
              r"(?:当晚\s*)?")
# A guard's night told as a rule, a wish or a plan ("守卫可以自守", "守卫想空守") is no act.
GUARD_MODAL = re.compile(r"可以|能|会|要|想|应该|打算|准备|无法|允许")
GUARD_SELF = re.compile(_GUARD_WHO + CHOOSING + r"(?:(?:守护|守)了?\s*(?:自己|自身)|自守)")
GUARD_EMPTY = re.compile(_GUARD_WHO + CHOOSING + r"(?:空手|空守)")
# A seat's description that holds a word of speech but reports none: "悍跳狼" (a wolf that claimed a role).
DESCRIPTORS = re.compile(r"[悍焊汉]跳狼")
# The description of a knife's target ("刀了白天说自己是神的 8 号") says who the target is, not what anyone did.
DESCRIBED_TARGET = re.compile(r"(?<=[刀杀])[^\d，。；,;、]{1,12}?的(?=[^\d，。；,;、]{0,6}?\d{1,2}\s*号)")
# A seer's check named by its night, anywhere: "第一晚的金水9 号", "第二晚的金水村民1 号", "第二晚验出 5 号是金水".
NTH_NIGHT_CHECKS = (
    re.compile(r"第(?P<n>" + ORDINAL + r")(?:晚|夜)\s*的\s*(?P<said>金水|查杀)\s*(?:是)?\s*" + TARGET_ROLE + SEAT),
    re.compile(r"第(?P<n>" + ORDINAL + r")(?:晚|夜)[，,]?\s*(?:[^\d，。；,;]{0,4}?(?P<actor>\d{1,2})\s*号)?[^\d，。；,;]{0,8}?"
               r"(?:验出|验到|查验出)了?\s*" + TARGET_ROLE + SEAT
               + r"\s*(?:是|为)?\s*(?:一张|一个|个)?\s*(?P<said>金水|查杀|好人|好身份|狼人|狼)"),
)
# A protection told from the protected seat: "6 号被守卫 5 号成功守护", "8 号被 3 号守住" (the guard must be the seat named).
PROTECTED = re.compile(r"(?<!\d)(?P<seat>\d{1,2})\s*号\s*(?:玩家)?\s*被\s*(?:守卫)?\s*(?P<actor>\d{1,2})\s*号\s*(?:成功)?\s*(?:守护|守住|守)")
# Words of a bluff before a check: a wolf's claimed check is not the seer's.
BLUFF = re.compile(r"悍跳|焊跳|汉跳|狼|假|称|说")
# The target named by its role alone ("落刀猎人葛晓允": recaps name players, not seats): read when one seat holds it.
KILL_ROLE = re.compile(KILLER + r"[^\d，。；,;]{0,6}?" + KILL_VERB + r"\s*(?P<role>" + ANY_ROLE[3:-2] + r")(?!\s*\d|\s*[一二三四五六七八九十]+\s*号)")
# (the pack may go unnamed: "12 号狼人自刀"; only a wolf knifes itself, and the seat must be one)
KILL_SELF = re.compile(r"(?:" + PACK + r"\s*)?(?:安排|让)?\s*(?<!\d)(?P<seat>\d{1,2})\s*号\s*(?:狼人?\s*)?(?:选择|决定)?\s*自刀")
# A kill denied ("狼人未刀 2 号继续刀 12 号": 2 was not the target): nothing is read from it.
NEGATED = re.compile(r"未|没|不|并非")
# The knife a seat met, or took itself: a transcript's space before it ("12 号 遭遇首刀"), or between a knife and the
# role it fell on ("刀死 猎人"), is no sentence break.
KNIFE_MET = r"(?:遭遇|遇到|遇)\s*[首手狼]?刀|(?:选择|决定)?\s*自刀|[首落]刀"
# The victim named first, the kill it met after ("12 号遭遇首刀", "预言家 3 号遇手刀", "村民 8 号被狼人刀死"): under a
# night, the wolves' kill of that night. ("中刀" is not read: on a board with a seat swap the seat that took the
# knife is not the one the wolves chose.)
KILL_PASSIVE = re.compile(TARGET_ROLE + SEAT + r"\s*(?:遭遇|遇到|遇|被" + PACK + r"?)\s*(?:首刀|手刀|狼刀|刀杀|刀死|刀)")
# The pack knifing nobody ("狼队空刀", "狼人选择空刀"): stated, it is the night's kill, with no target.
EMPTY_KILL = re.compile(PACK + r"\s*(?:选择|决定)?\s*空刀")
KILL_OWN = re.compile(r"^(?:(?:再次|又|也)?\s*被\s*(?:" + PACK + r"|(?P<by>\d{1,2})\s*号\s*(?:狼人?)?)\s*(?:首刀|刀死?|杀死|击杀|刀杀)|自刀)")
# In a wolf's own clause after its night, the knife it (with the pack) put on a seat: "第四晚刀死女巫 7 号".
KILL_BY_OWN_WOLF = re.compile(r"^(?:选择|决定)?\s*[落首]?(?:刀杀|刀死|刀中|刀|杀死|击杀|咬死)了?\s*" + TARGET_ROLE + SEAT + SECOND_VICTIM)
# A witch's antidote whose target is left implicit ("女巫 12 号用解药", "首夜 10 号女巫自救"): the night's
# victim (herself when she saves herself), filled in once the night's kill is known.
SAVE_IMPLICIT = re.compile(r"(?P<role_a>女巫)?\s*(?:(?P<actor>\d{1,2})\s*号\s*(?:玩家)?)?\s*(?P<role_b>女巫)?\s*" + CHOOSING +
                            r"(?:(?P<self>自救)|(?:(?:使用|用|开)了?解药|开药(?:解救|救人))(?!\s*(?:救\s*)?\d{1,2}\s*号))")
# The recap names players, not seats: "女巫风情云选择使用解药", "女巫、小仓开药解救" (the board's one witch).
SAVE_BY_NICKNAME = re.compile(r"女巫\s*[、，]?\s*(?:[A-Za-z]{1,12}|[^\d\s，。；,;、号]{1,4}?)?\s*(?:(?P<actor>\d{1,2})\s*号)?\s*" + CHOOSING
                               + r"(?:(?:使用|用|开)了?解药|开药(?:解救|救人)?)")
# A seat alone, with words only a witch's antidote has ("1 号选择开药解救", "被 5 号开药解救"): the seat must be the witch.
SAVE_BY_SEAT = re.compile(r"(?<!\d)(?P<actor>\d{1,2})\s*号\s*" + CHOOSING + r"(?:(?:使用|用|开)了?解药|开药(?:解救|救人)?)")
# The pack's knife ending a sub-clause with no victim, and a victim opening the next by its role: "狼人首刀，村民、7 号"
# (not "…被狼人刀死，5 号是…": a passive ends a seat's own clause, and the next one is another seat's).
KILL_LAST = re.compile(KILLER + r"\s*(?:再次|又)?\s*(?:选择|决定)?\s*[落首]?(?:刀|杀)\s*$")
# The seat must not open an action of its own ("狼人首刀，女巫、1 号使用解药": 1 is the witch acting, not the victim).
VICTIM_FIRST = re.compile(r"^(?P<trole>" + ANY_ROLE[3:-2] + r")?\s*、?\s*" + SEAT + SECOND_VICTIM
                          + r"(?!\s*(?:玩家)?\s*(?:选择|决定|使用|用|开|救|毒|撒|守|验|查|自|禁|暗杀|发动|交换|空))")
# The antidote opening a sub-clause whose witch ends the one before ("…女巫 7 号 | 使用了解药…": a recap's transcript
# breaks there at a space): her save, whatever talk the rest of the run-on sub-clause holds.
ANTIDOTE_FIRST = re.compile(r"^(?:选择了?|决定)?\s*(?:(?:使用|用|开)了?解药|开药)")
WITCH_LAST = re.compile(r"女巫\s*(?:(?P<actor>\d{1,2})\s*号)?\s*$")
# The guard ends a sub-clause and his act opens the next: "而守卫 9 号，当晚选择守自己" (only "当晚", the night the
# clause is told under, may open it: "前一晚选择守自己" is another night).
GUARD_LAST = re.compile(r"守卫\s*(?:(?P<actor>\d{1,2})\s*号)?\s*$")
GUARD_ACT_FIRST = re.compile(r"^(?:当晚)?\s*" + CHOOSING + r"(?:(?P<self>(?:守护|守)了?\s*(?:自己|自身)|自守)|空手|空守)")
SAVE_OWN = re.compile(r"^(?:(?P<self>自救)|(?:(?:使用|用|开)了?解药|开药(?:解救|救人))(?!\s*(?:救\s*)?\d{1,2}\s*号))")
WOLF_WORDS = {"狼", "狼人", "查杀"}
GOOD_WORDS = {"好人", "金水"}
ROLE_AHEAD = re.compile(ANY_ROLE[:-1])
# A wolf named by its seat alone, then its knife ("让 9 号刀死 4 号"): the seat must truly be a wolf. Only 刀 (a
# hunter's shot also 杀s).
KILL_BY_WOLF_SEAT = re.compile(r"(?<!\d)(?P<actor>\d{1,2})\s*号\s*(?:选择|决定)?\s*(?:刀死|刀杀|刀中|刀了)\s*" + TARGET_ROLE + SEAT + SECOND_VICTIM)
# A sub-clause opening with a knife whose subject the sub-clause before names ("…选择自爆，刀死 2 号", "转头刀民成功
# 刀死村民 6 号"): a few words may come first, not a passive (被), a seat, or a plan ("准备刀 2 号").
KILL_UNSAID = re.compile(r"^(?:(?!想|要|准备|打算|计划|如果|可能|应该|会)[^\d，。；,;被]){0,6}?(?:刀死|刀杀|刀中|刀了|刀)\s*" + TARGET_ROLE + SEAT + SECOND_VICTIM)
# Seats the text has die in the night it tells ("第二晚 1 号、7 号死亡", "再次天黑 8 号死亡"): the log's own account of a
# dawn, used only where the host never tells that dawn (nights.night_truth).
DEATHS = re.compile(r"(?P<seats>(?:(?<!\d)\d{1,2}\s*号\s*[、和与及]?\s*)+)(?:死亡|身亡)")
# A seat's clause that has it killed by the wolves without naming the night ("最终被狼人刀死", "夜间被狼刀死亡", "后被
# 9 号狼人杀死"): a death, not a knife that may have been saved ("被狼人刀了" is not read).
# The same, poisoned ("夜间被女巫毒死", "后被 3 号女巫毒死亡").
POISONED_NIGHT_UNSAID = re.compile(r"^(?:最终|最后|后来|之后|然后|随后|后)?\s*(?:在)?\s*(?:夜间|晚上|夜里)?\s*被\s*(?:女巫|(?P<by>\d{1,2})\s*号\s*(?:女巫)?)"
                                   r"\s*(?:用毒药?|撒毒)?\s*盲?毒(?:死|杀)")
# The same, assassinated by the stalker ("后夜间被潜行者暗杀", "夜间被 10 号暗杀"): a third cause of a dawn's death.
ASSASSINATED_NIGHT_UNSAID = re.compile(r"^(?:最终|最后|后来|之后|然后|随后|后)?\s*(?:在)?\s*(?:夜间|晚上|夜里)?\s*被\s*(?:潜行者|(?P<by>\d{1,2})\s*号\s*(?:潜行者)?)"
                                       r"\s*(?:暗杀|刺杀)(?:死亡|身亡|出局|掉|死)?\s*$")
KILLED_NIGHT_UNSAID = re.compile(r"^(?:最终|最后|后来|之后|然后|随后|后)?\s*(?:在)?\s*(?:夜间|晚上|夜里)?\s*被\s*(?:" + PACK
                                 + r"|(?P<by>\d{1,2})\s*号\s*(?:狼人?)?)\s*(?:刀死|杀死|击杀|刀杀|(?:首刀|刀)\s*(?:死亡|出局|身亡))")
