"""How each language states a role claim (issue 42): the `Lexicon` of werealign.game.claims, one per language in
`LEXICONS` (Chinese written here as patterns; English read from claim_lexicon.json). werealign.game.claims says what
a claim is and how the reader applies these patterns; this module holds the wording only."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from werealign.game.claim_lexicon import claim_opening, not_before, role_end, side_words, taken_back
from werealign.text.zh_numbers import chinese_number

__all__ = ["LEXICONS", "Lexicon", "side_words"]

@dataclass(frozen=True)
class Lexicon:
    """How one language states a claim (issue 42: a language is a lexicon, not code). Patterns are regex fragments.

    - `frames`: what stands between the first person and the role name ("我是一张", "我的底牌是", "I am the");
    - `lead`: a turn opening on its own seat and a role ("3 号预言家，…"), group `seat` the seat, or None;
    - `card`: what may follow the role name as part of it ("牌": "预言家牌"); `after`: what must not follow it (a
      possessive or a verb: the name is about the role, not the speaker's own);
    - `not_before`: a hypothesis, a belief or another game inside the claim's clause, in the few characters before
      ("如果", "就算", "以前", "if"); `report`: another's words in those characters, across a clause ("他说，我是…");
      `carry`: a hypothesis in the clause before, whose consequent the claim's clause is ("我要是预言家，我验的金水…");
      `elsewhere`/`here`: another game named shortly before, and this game named since (the later one wins);
      `not_in_clause`: a denial in the claim's clause ("我不是预言家，我是女巫" claims the witch);
      `clause`: what ends a clause; `then`: a counterfactual right after ("我是个狼，我就没有必要…");
    - `aliases`: role id -> the table's idioms for the role beyond the catalogue's names ("枪" for the hunter);
    - `acts`: role id -> first-person reports of the role's own night move, which claim it without naming it
      ("5 号是我的查杀": the seer; "我的银水": the witch; "I saved seat 6": the witch); a wolf-side act claims the
      board's wolf role;
    - `closing`: a turn closing on a role, its group `role` the role alternation `{role}` ("一张猎人牌过了"), or None;
    - `short_acts`: role id -> a move said without a subject, read only in a turn of a few words (a last word:
      "带走 10 号", "交牌了");
    - `number`: reads a seat number it writes (digits or numerals);
    - a frame may be a pair (frame, tail): `tail` must hold right after the role ("我平民" only as a whole clause or a
      card: "我狼爆掉了" is no claim);
    - `owned`: the card named as the speaker's own ("我这张女巫牌", "我这种强民"): whatever verb stands before it ("认我这张
      女巫牌" still claims it), so it is judged against `hypothesis` (and reports) only;
    - `bare`: a claim without a subject at a clause start ("…我这里没有身份，是一张平民牌"): the speaker's only when the
      nearest subject `subject` names before it in its sentence is the speaker (group `me`, or group `seat` its own seat);
    - `quote`: direct speech opened earlier in the claim's sentence, running to its end ("他说，嘿，你们…，我是一张守卫牌");
    - `as_frames`: the speaker in apposition with the role ("我作为村民", "从我一个村民的角度"): the role may
      carry the speaker's own view (`as_after` replaces `after`: "…的视角", "…的话"), and `conditional` (what right after
      a claim makes it the premise of a condition: "我是预言家的话") does not apply;
    - `interjected`: direct speech opened before the claim across the transcript's spaces (ASR spaces are no clause ends
      here): a speech verb then an interjection ("她说得很急 哇，我是…"), another's sentence ("光看 4 号的一句话，我…");
    - `said`: another's words or belief opened in the claim's clause ("他讲的那套警徽流跟我的警徽流一样");
    - `voiced`: the first person with a seat (group `seat`): "我 8 号…" said by another seat voices seat 8, so a claim
      later in that sentence is seat 8's words;
    - `unsaid`: what after a claim takes it back in the same sentence, `{role}` the role's names ("我作为一个狼人牌，…所以我
      肯定不是狼": a reductio, no claim).
    """

    frames: tuple[str | tuple[str, str], ...]
    lead: str | None
    card: str
    after: str
    not_before: str
    not_in_clause: str
    clause: str
    then: str
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    acts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    number: Callable[[str], int | None] = lambda t: int(t) if t.isdigit() else None
    report: str = r"(?!)"
    carry: str = r"(?!)"
    elsewhere: str = r"(?!)"
    here: str = r"(?!)"
    closing: str | None = None
    short_acts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    owned: tuple[str, ...] = ()
    hypothesis: str = r"(?!)"
    bare: str | None = None
    subject: str = r"(?!)"
    unsaid: str = r"(?!)"
    quote: str = r"(?!)"
    conditional: str = r"(?!)"
    as_frames: tuple[str, ...] = ()
    as_after: str = r"(?!)"
    interjected: str = r"(?!)"
    said: str = r"(?!)"
    voiced: str = r"(?!)"
    subjectless: dict[str, tuple[str, ...]] = field(default_factory=dict)
    subjectless_frames: tuple[str, ...] = ()
    # a skill said in the first person claims the one role of the board whose rule (the catalogue's, in this language)
    # names it: spoken verb (regex) -> the rule's word for it ("禁言" -> the silencer, "魅惑" -> the wolf beauty);
    # `skill_acts`: the act's forms, `{verb}` the spoken verb; `skill_short`: the same in a turn of a few words
    skills: dict[str, str] = field(default_factory=dict)
    skill_acts: tuple[str, ...] = ()
    skill_short: tuple[str, ...] = ()
    skill_denied: str = r"(?!)"  # what before a skill's word in a rule denies it ("不能自爆": the knight cannot)
    # the speaker's own good side said later in the turn: a wolf claim before it was sarcasm ("对，我是狼，…我是好人")
    good_side: str = r"(?!)"
    # a wolf claim mocked: agreement repeated before it, a concession after it ("对对对，我是狼，行了吧")
    mocked: str = r"(?!)"
    mocked_after: str = r"(?!)"
    # a hypothesis opened earlier in the claim's sentence and not closed by a contrast since: its whole sentence is the
    # hypothesis ("如果我是预言家，我会这么想，5 号是我的金水"; "要是有人跳出来说昨晚我守的 2…") over three clauses after its
    # own at most; `scope_end` closes it ("…，但是我是女巫", "…，反正我是平民")
    scope: str = r"(?!)"
    scope_end: str = r"(?!)"


_ZH_SEAT = r"(?P<seat>\d{1,2}|[一二两三四五六七八九十]{1,3})"
_ZH_ME = r"(?:我|(?<![他她你])本人)\s*(?:(?P<seat>\d{1,2})\s*号?\s*(?:玩家|牌)?)?\s*"  # "我 4 号", "我 6 底牌", "我 8 号玩家": the speaker naming its own seat
_ZH_ME_TIGHT = r"(?:我|(?<![他她你])本人)(?:\s*(?P<seat>\d{1,2})\s*号?\s*(?:玩家|牌)?\s*|(?!\s))"
_ZH_WHEN = r"(?:昨天|昨晚|前天|第一晚|第二晚|第三晚|首夜|今天|今晚|晚上|昨天晚上|当晚)?\s*(?:晚上)?\s*"
_ZH_WILL = r"(?:会|要|就|先|再|还|也|一定|可能|直接|肯定|必须|选择)*"  # "我今晚一定要撒毒", "我可能就会把 5 号直接毒掉"
# a modifier before the role ("一个光明磊落的禁言长老"); never the eyes of others ("你们眼里的狼", "所谓的预言家")
_ZH_MOD = r"(?:[^\s，,。.!！?？；;的我你他她们眼心口谓为说认觉想不]{1,8}的)?"  # never a negation: "我是不是坐实一张真的…"
_ZH_KIND = (r"(?:一把|(?:一|这)?(?:张|个|名|位|枚|杆)?)(?:那个|这个)?(?:什么)?(?:真正的?|真的?|唯一的?|单身的?|普通的?|纯的?|铁的|大|小小|小)?" + _ZH_MOD)
_ZH_OWN = r"(?:真正的?|真的?|唯一的?|单身的?|普通的?|纯的?|小)?"
# what may stand between the speaker and a move of its own ("我最后还是验过了", "我之前就打算验 7 号"):
# never another subject, a request or a belief ("我希望预言家验他", "我让他验", "我觉得你验"), nor a condition
_ZH_GAP = r"(?:(?!要是|如果|觉得|认为|希望|建议|请|让|叫|被|给|替|帮|跟|和|你|他|她|们|预言家|女巫|守卫|猎人|不|没|为什么|怎么|明白|知道|理解)[^\s，,。.!！?？；;的]){0,6}?"
_ZH_START = r"(?:^|(?<=[，,。.!！?？；;\s]))\W{0,3}"  # a clause's start (ASR spaces included)
_ZH_NUM = r"(?:\d{1,2}|[一二三四五六七八九十]{1,3}(?![个下手张些点样]))"  # a seat, not "一下", "一个"
LEXICONS: dict[str, Lexicon] = {
    "zh": Lexicon(
        frames=(
            _ZH_ME + r"(?:这把|这局|这盘)?(?:这(?:一)?(?:张|个)(?:底)?牌)?(?:就|真的|才|确实|本身|肯定|自己|其实|本来|这边|这里|这张|也|必|一定|绝对|当然|真|只)?(?:就是|才是|是)" + _ZH_KIND,
            r"我(?:来|要|直接|先|这边|现在)?(?:起跳|跳|拍|报)(?:了)?(?:身份)?(?:一?张|个)?",  # not 认: "我认预言家" accepts another's claim
            r"我(?:的)?\s*(?:(?P<seat>\d{1,2})\s*号?\s*(?:玩家)?)?\s*(?:底牌|身份牌|身份|牌)\s*[，,]?\s*(?:是|就是)?\s*(?:一?张|一?个)?",
            r"我(?:这把|这局|这盘)?(?:拿(?:了|到)?|摸(?:了|到)?)(?:一次|一把)?(?:的是)?(?:一?张|个)?",
            # the card drawn, then what it is: "我拿到的牌是预言家", "我摸的身份是女巫的牌"
            (r"我(?:这把|这局|这盘)?(?:拿|摸|抽)(?:到|了)?的(?:牌|身份|底牌|身份牌)(?:是|就是)" + _ZH_KIND, r"(?:的牌)?"),
            # the table's "the true seer is here" at a clause start ("真预言家在这里，…")
            (_ZH_START + r"(?:真正的?|真的?)", r"在(?:这里|这儿|这)(?=[\s，,。.!！?？；;]|$)"),
            (_ZH_START + r"(?:真正的?|真的?)?", r"(?:就|才|肯定|一定)?是我(?:\s*\d{1,2}\s*号)?(?=[\s，,。.!！?？；;啊]|$)"),  # "真预言家是我"
            r"(?:这把|这局|这盘)[^，,。.!！?？\s他她你]{0,6}?(?:拿|摸)(?:了|到)(?:的是)?(?:一?张|个)?",  # "这盘很不幸又摸了个平民"
            # no space right after 我 (the transcript's sentence break: "…看我 九尾狐先藏")
            _ZH_ME_TIGHT + r"(?:就|也|只是|确实|自己)?(?:一张|一个|一|个|就|一?杆)?(?:小小|小)?",  # "我一张平民牌", "我就平民", "我只是个平民", "我女巫…"
        ),
        # "我这张女巫牌", "我这个单身村民牌" (a card: "这次我这个真预言家…" may be another's words), "像我这种强民"
        owned=((r"我(?:的)?这(?:一)?(?:个|张)" + _ZH_OWN, r"(?<=牌)"), (r"(?<![你他她])我(?:的)?(?:这(?:一)?(?:个|张|件|身))?" + _ZH_OWN, r"的?衣服"),  # "抢我猎人的衣服"
               # "我这个骑士今天就要决斗": the role then the speaker's own verb
               (r"我(?:的)?这(?:一)?(?:个|张)" + _ZH_OWN, r"(?=\s*(?:是|就|也|已经|肯定|一定|绝对|还|都|会|能|要|今天|昨晚|昨天|真的))"),
               r"我这(?:种|样的?)" + _ZH_MOD + _ZH_OWN),
        # "我作为村民的话", "从我一个村民的角度看", "别为难我小小平民"
        as_frames=(r"我们?(?:作为|身为)" + _ZH_KIND, r"(?:在|从|以)我们?(?:这)?(?:一个|一张|个|张)" + _ZH_OWN,
                   r"(?<![对给跟和把被让叫帮打踩投验查你他她在从以])我(?:这)?(?:一个|一张)" + _ZH_OWN),  # "我一个村民的眼里"
        as_after=r"(?:的(?=视角|角度|立场|话|身份|位置|眼中|眼里|锅))?(?!的|救|毒|验|查|守|给|发|说|要|吗|么|嘛|坑|队|阵营|加|或|衣服|杀|同伴|刀|警徽|[？?])",
        interjected=r"(?:说|讲|一句话)[^。！？!?]{0,12}?\s(?:嘿|哎呦|哎|诶|喂|哇)[，,]\s*$|(?<!我)的一句话[，,：:]\s*$",
        voiced=r"(?<![对给跟和把被让叫帮打踩投验查])我\s*(?P<seat>\d{1,2})\s*号(?!\s*(?:\d|跟|和|、))",  # not "我 6 号跟 12 号"
        said=r"(?:他|她|你|别人|有人|人家|(?<!\d)\d{1,2}\s*号?)们?[^，,。.!！?？我]{0,4}(?:说|讲|以为|觉得|认为|发言(?:是|就是)|意思(?:是|就是))",
        hypothesis=r"如果|假如|要是|若|万一|假设|假装|想象|就算(?!了)|即使|哪怕|以前|上一?(?:期|把|局|盘|集)",
        bare=r"(?:^|(?<=[，,。.!！?？；;]))\s*(?:就|也|只|只是|其实|确实)?是(?:一张|一个|张|个)",
        # the nearest subject: "我" as an object ("骗我") or believing ("我觉得 X，…") is not the speaker as the subject
        subject=r"我(?:觉得|认为|感觉|怀疑|相信|看)|(?P<me>(?<![骗给打踩让叫把被跟和对帮保信认投问诉说])我(?!们))|[他她你]|别人|大家|人家|对方|这个人|(?<!\d)(?P<seat>\d{1,2})(?!\d)|(?P<zh>[一二两三四五六七八九十]{1,3})\s*号",
        quote=r"(?<!我)(?:说|讲|问)(?:的是)?[，,：:]\s*(?:嘿|哎呦|哎|诶|喂)[，,]",
        unsaid=r"^[^。.!！?？]{0,40}?我(?:肯定|绝对|并|也|都|真的)?(?:不是|不可能是)(?:一?[张个只匹名])?(?:{role})",
        lead=r"(?:^|(?<=[，,。.!！?？；;\s]))(?<!我\s)\W{0,3}(?:那|那么|反正|所以|我是|好|嗯)?" + _ZH_SEAT + r"\s*号(?:玩家|牌)?\s*(?:发言)?(?:[，,]\s*(?=一[个张]))?\s*(?:(?:底牌|身份)\s*[，,]?)?\s*(?:真的|就|也|才)?(?:是|就是)?(?:摸了|拿了|拿到|摸到)?" + _ZH_KIND,
        # a turn closing on a role, the seat's own ("好吧，一张猎人牌过了")
        closing=r"(?:^|(?<=[，,。.!！?？；;\s]))(?:我是)?(?:一张|是张|是一张)(?P<role>{role})牌?\s*(?:过了|过)\s*$",
        card=r"(?:牌)?",
        after=r"(?!的|救|毒|验|查|守|给|发|说|要|吗|么|嘛|坑|队|阵营|视角|身份|加|或|衣服|杀|同伴|刀|警徽|[？?])",
        # within the claim's clause: a hypothesis, a belief, another game ("以前我拿一张狼人", "上一期我拿了个预言家")
        not_before=r"如果|假如|要是|若|万一|假设|假装|想象|可能|希望|不管|无论|就跟|以为|认为|觉得|倾向|怀疑|当成|当作|像|位置|立场|角度|视角|逻辑|穿"
                   r"|就算(?!了)|即使|哪怕|以前|上一?(?:期|把|局|盘|集)|想的是|本来想|奔着|但凡"
                   r"|比如|想不到|猜到|认定"
                   r"|(?:打|推|讲|喊|骂|定义|理解|咬|踩|怼|当|认|给|信|(?<![这那])把|被|帮|还是|让|叫|逼|告诉|问|跟|和|对|在|点|(?<![这那上下本一每])盘|看|猜)$",
        # within the few characters before, across a clause: another's words ("他说，我是预言家")
        report=r"如果|假如|要是|假设|万一|(?<![轮天晚夜把局盘场上下里边这那])的话[，,]?\s*$|的发言(?:是|就是)?\s*$|(?:他|她|你|有人|都)们?(?:跟我|对我|和我)?(?:说|问)|(?<!我)(?<!我先)(?<!我都)(?<!我就)(?<!实话实)(?<!所以)(?<!可以)(?<!就是)说了?[，,：:]?\s*(?:哎呦|哎|哦|嗯|啊|那|其实)?[，,]?\s*$"
               r"|就是[，,：:]?\s*(?:哎呦|哎|哦|嗯|啊)[，,]?\s*$|(?<!我)告诉[^，,。]{0,4}[，,：:]\s*$|(?<!我)上来就(?:是|说)[，,：:]?\s*$",
        # a hypothesis, another's shoes ("我在 1 号这个位置，我是个狼人牌…"), a quote going on ("说 4 号好人，我 6 号是个狼")
        carry=r"如果|假如|要是|假设|万一|就算(?!了)|即使|哪怕|想想|想一想|试想|(?<!我的)(?<!我)(?:位置|角度|视角|立场)(?:上|来看|来说|来讲|看)?\s*$|(?:情况下|的时候|(?<![轮天晚夜把局盘场上下里边这那])的话)\s*$|(?:他|她|你|别人|大家)们?[^，,我]{0,6}?(?:盘|怀疑|踩|咬)\s*$|^\s*说|要(?:觉得|认为)|(?:他|她|你|别人|大家)们?(?:又|也|都|还|就)?(?:说|觉得|认为|以为)|(?<!我)打\s*$",
        # another game, unless this one is named since ("上一期…我拿了个预言家"; "上一把我是狼，这把我是预言家" claims)
        elsewhere=r"上一?(?:期|把|局|盘|集)|以前|(?:之前|刚才|上次)那(?:一)?(?:把|局|盘)", here=r"这(?:一)?(?:把|局|盘)|今天|现在|本局",
        not_in_clause=r"不是|是不是|并非",
        clause=r"[，,。.!！?？；;]|\s(?!\s*\d)",  # a space before a seat number is the transcript's spacing, no clause end
        conditional=r"^\s*(?:号|号牌)?(?:的话|的时候|的情况下)",
        then=r"^牌?我也(?!是|不是)|^.{0,3}?(?:我就(?:会|能|可以|直接|不会|不可能|肯定|一定|早|没有?必要|不用|不需要)|我[^，,。！？\s]{1,4}就(?!是)|我早就|我可能|我没有必要|我还会|怎么会|会不会)|^也(?:一定|会|要|不)|^如果|^.{0,4}?我也不可能|^[^。.!！?？]{0,30}?(?:开玩笑|开个玩笑|逗你)|^.{0,4}?多么|^[^。.!！?？]{0,30}?(?:这句话|这种话|这番话|原话)",  # words quoted: "…我是个平民，这种话都来了"
        # "名"/"明" for 民: the transcripts' homophones (ASR), only as a whole word or a card ("名牌"); "强民": a villager
        aliases={"villager": (r"普村", r"强民", r"[民名明](?=[\s，,。.!！?？]|$)", r"[民名](?=牌)", r"民(?=的(?:角度|视角|立场|眼))",
                              # a card ("我就一张闭眼牌"; "闭眼玩家" alone says what one knows: labelled none twice of
                              # three), a blank card ("我一个大白板")
                              r"闭眼(?:玩家)?牌", r"白板(?:牌)?"),
                 "hunter": (r"枪(?=牌|[\s，,。.!！?？]|$)",), "guard": (r"护卫",),
                 "nine_tailed_fox": (r"狐狸(?!精)", r"九尾狐")},
        acts={
            # a turn opening on a check, the speaker's own seat or none before it ("预言家昨天晚上查杀…", "那个查杀 6 号…")
            "seer": (r"我" + _ZH_WHEN + _ZH_WILL + r"(?:给|对)\s*" + _ZH_NUM + r"\s*号?(?:玩家)?\s*发(?:了|的是|的)?(?:一?张|个)?(?:查杀|金水)",
                     r"^\W{0,3}(?:(?P<seat>\d{1,2})\s*号(?:玩家)?(?:发言)?[，,]?\s*)?(?:那个|好|嗯|那)?(?:预言家)?(?:昨天|昨晚|首夜|第一晚)?(?:晚上)?(?:查杀|金水)(?!\s*\d{1,2}\s*号?\s*的)",
                     r"(?:是|就是)我" + _ZH_WHEN + r"的?[，,]?\s*(?:翻牌)?(?:金水|查杀)", r"我的(?:金水|查杀)(?:是|为|就是)",
                     r"我" + _ZH_WHEN + _ZH_WILL + r"(?:验了|验的|查验了|验过|验的?人(?:是|就是))",
                     r"我" + _ZH_WHEN + _ZH_WILL + r"(?:去)?验(?:一下|一手|一张)?\s*" + _ZH_NUM,  # "我先验 11", "今晚我会验一下 9 号"
                     r"我" + _ZH_GAP + r"验(?:了|过|的|出|到)?(?:一下|一手)?\s*(?:这个|这张|一下)?\s*" + _ZH_NUM,
                     r"我" + _ZH_GAP + r"验(?:了一下|过了|出来?|到了)",
                     # the badge's check order is the seer's own (“我的警徽流留…”, a turn opening “5 号发言，交代下警徽流”)
                     r"(?<![你他她])我的警徽流",
                     r"^\W{0,3}(?:过了)?\s*(?:(?P<seat>\d{1,2})\s*号(?:玩家)?(?:发言)?[，,]?\s*)?(?:我|预言家)?(?:(?![你他她])[^，,。.!！?？\s]){0,4}?(?:报|交代|说|留|给)(?:一?下|一下)?(?:我的)?警徽流"),
            "witch": (r"我(?:手里|手上|这里|这边)?(?:还)?有(?:一瓶|两瓶|瓶)?(?:毒药|解药|药水|双药)|我(?:手里|手上)?(?:还)?有(?:一瓶|两瓶|瓶)(?:毒|药)|我(?:的)?两瓶药",
                      r"(?:是|就是)我" + _ZH_WHEN + r"的?[银饮]水", r"我的[银饮]水",  # 饮: an ASR homophone
                      r"我" + _ZH_WHEN + _ZH_WILL + r"(?:救了|救的|开了?解药|用了?解药|毒了|毒的|开毒|开了毒|撒毒)",
                      r"我" + _ZH_WHEN + _ZH_WILL + r"把\s*\d{1,2}\s*号?\s*(?:直接|给)?毒(?:掉|死|走|了)",
                      # the potions are the witch's alone: "骗了我的药", "我的解药还在", "我开药救他"
                      r"(?<![给让叫帮你他她])我的?(?:一瓶)?(?:解药|毒药|药水|药)(?!物|店|方)的?",  # "骗了我药的人"
                      r"我" + _ZH_GAP + r"开(?:了)?(?:解)?药",
                      r"(?<![让叫给被帮替跟对你他她])我" + _ZH_GAP + r"毒(?:掉|死|走|了|的|这个|这张)?\s*\d",
                      # the poison kept ("我刚刚没有毒"), a night's save ("我昨晚把他救起来"): the witch's alone
                      r"(?<![让叫给被帮你他她])我" + _ZH_GAP + r"没(?:有)?(?:开|撒|用)?毒(?!药|死|奶|性)",
                      # a night's potion as hers ("我第一晚的毒"), a save with words before it, never a vote's ("我投票救了")
                      r"(?<![给让叫帮你他她])我(?:第[一二三]天晚上|第[一二三]夜)?" + _ZH_WHEN + r"的(?:毒|解药|毒药|药)(?!物|店|方|奶|性)",
                      r"(?<![让叫给被帮替跟对你他她])我" + _ZH_GAP + r"(?<![投票帮保])救(?:了|的是|的)\s*(?:他|她|你|" + _ZH_NUM + r")",
                      r"(?<![让叫给被帮替跟对你他她])我" + _ZH_GAP + r"秒救(?:的|了)?",  # the save at once: the witch's idiom
                      r"我(?:昨天|昨晚|前天|第一晚|第二晚|首夜|晚上|昨天晚上|当晚|那天晚上)\s*(?:就|直接)?把\s*(?:你|他|她|" + _ZH_NUM + r"\s*号?)\s*救(?:起来|回来|了)"),  # "我当时想毒掉 8 号" (not 救: votes save too)
            # the magician's swap of two seats ("我昨晚换了 2 号和 5 号", "我把 2 和 5 换了")
            # the knight's duel ("我要跟 5 号决斗", "我直接决斗 5 号")
            "knight": (r"我" + _ZH_WHEN + _ZH_WILL + r"(?:跟|和)\s*" + _ZH_NUM + r"\s*号?\s*决斗", r"我" + _ZH_GAP + r"决斗(?:了)?\s*" + _ZH_NUM),
            "magician": (r"我" + _ZH_WHEN + _ZH_WILL + r"(?:可能|想)?(?:跟|和)\s*" + _ZH_NUM + r"\s*号?\s*(?:交)?换(?![位票边])(?!(?:一下)?身份)",
                         r"我" + _ZH_WHEN + _ZH_GAP + r"(?:交)?换(?:了|的是|的)?(?:一下)?\s*" + _ZH_NUM + r"\s*号?\s*(?:和|跟|与|、)\s*" + _ZH_NUM,
                         r"我" + _ZH_WHEN + _ZH_GAP + r"把\s*" + _ZH_NUM + r"\s*号?\s*(?:和|跟|与|、)\s*" + _ZH_NUM + r"\s*号?\s*(?:给)?(?:交)?换"),
            "guard": (r"我" + _ZH_WHEN + r"(?:守了|守的|空守|自守|守护了|守护的)",
                      r"我" + _ZH_WHEN + _ZH_WILL + r"(?:去)?守(?:一下|护)?\s*" + _ZH_NUM + r"\s*号",  # "今晚我守 3 号"
                      r"我" + _ZH_WILL + r"(?:不能|没法|没办法)(?:再)?守(?:了|人)"),
            # the gun is the speaker's, not watched ("我就想看他开枪")
            "hunter": (r"我(?:手里|手上|这里|这边)?(?:还)?(?:有|带|拿着?)(?:一把|一杆|把)?枪(?!手|口|法)",  # the gun held: "我手里有枪"
                       r"我(?!们)(?:(?![看让等叫逼他她你])[^，,。.!！?？\s]){0,5}?开(?:了)?枪", r"我" + _ZH_WILL + r"(?:开枪)?带走",
                       r"我(?:(?![看让等叫逼他她你])[^，,。.!！?？]){0,8}?把\s*\d{1,2}\s*号?[^，,。.!！?？]{0,6}?带走"),
            "silencer_elder": (r"(?:是|就是)我" + _ZH_WHEN + r"禁(?:言)?的", r"我" + _ZH_WHEN + _ZH_WILL + r"禁(?:了|的|言了)"),
            "stalker": (r"我" + _ZH_WILL + r"(?:直接)?带走", r"我" + _ZH_WHEN + _ZH_WILL + r"标记(?:了|的)?\s*\d"),  # the stalker's mark and take
            "werewolf": (r"我\s*(?:\d{1,2}\s*号(?:玩家)?)?\s*(?:直接|现在|就|选择|要|马上|马上就要)?自爆", r"我们?(?:狼队)?交牌",
                         r"(?<![你他她])我的狼(?:人)?(?:同伴|队友)",  # "向我的狼队友抱歉"
                         # the wolves' "we": "我们狼队", "我们三张狼", "我们第一晚刀的是 3 号" (a kill is the wolves' move)
                         r"我们(?:[三四两几]?(?:个|张|只)?(?:狼队|狼人(?!杀)|狼(?:同伴|队友|坑|牌)))",
                         r"我们(?:(?![你他她狼让被怕不别没好想要是如果])[^\s，,。.!！?？；;]){0,5}?(?<![追吃挡扛抗被拍])刀(?!法|口|型)(?:了|的|掉)?"),
            "villager": (r"我们(?:这些)?(?:平民|村民|民(?=[\s，,。.!！?？]|$))",),
        },
        # a turn of a few words holding only a move is the speaker's last word ("带走 10 号", "交牌了")
        # a move said without a subject as a whole clause ("开枪带走 5 号", "行，自爆"): the speaker's when the nearest
        # subject before it is the speaker, or none is named (the turn opens on it); never advice ("你就自爆吧")
        # the card named without a subject at a clause start ("底牌是平民，过"), judged as `subjectless` moves are
        subjectless_frames=(_ZH_START + r"(?:那|好|嗯)?(?:底牌|身份)(?:牌)?\s*[，,]?\s*(?:是|就是)?" + _ZH_KIND,
                            # the card drawn, described, then named as a card ("又拿到一张我最不想玩的预言家牌")
                            (_ZH_START + r"(?:这把|这局)?(?:又)?(?:拿到|摸到|拿了|摸了)(?:一张|张)[^，,。.!！?？\s]{0,10}?", r"(?<=牌)")),
        subjectless={"seer": (_ZH_START + _ZH_WHEN + r"(?:验了|验的是|验的)\s*" + _ZH_NUM,
                              r"(?<=[，,。.!！?？；;\s就想要先再])(?:就|想|要|先|再|直接)*查杀(?:了|一下)?\s*" + _ZH_NUM + r"\s*号",),
                     "witch": (_ZH_START + _ZH_WHEN + r"(?:救了|救的是|救的|毒了|毒的是|毒的)\s*" + _ZH_NUM,),
                     "guard": (_ZH_START + _ZH_WHEN + r"(?:守了|守的是|守的)\s*" + _ZH_NUM,),
                     "hunter": (_ZH_START + r"(?:那|好|行|那就|直接)?\s*开枪\s*(?:带走|打|崩)\s*" + _ZH_NUM,),
                     "werewolf": (_ZH_START + r"(?:那|好|好吧|行|行吧|那就|直接)?\s*(?:直接)?自爆(?:了)?\s*(?=[，,。.!！?？；;]|$)",)},
        short_acts={"hunter": (r"(?:^|(?<=[，,。\s]))(?:开枪)?带走\s*\d", r"^[\W了过好吧那]*(?:我)?开枪"),
                    "werewolf": (r"^[\W了过好吧]*(?:交牌|自爆)", r"(?:^|(?<=[\s，,。.!！?？；;了]))自爆(?:了)?(?=[\s，,。.!！?？；;哈]|$)")},
        number=lambda t: int(t) if t.isdigit() else chinese_number(t),
        skills={"验|查验": "查验", "守|守护": "守护", "禁言?": "禁言", "暗杀|刺杀": "暗杀", "(?:交)?换": "交换", "魅惑?": "魅惑",
                "吞(?:噬)?": "吞噬", "决斗": "决斗", "开枪": "开枪", "带走": "带走", "标记": "标记", "梦": "梦"},
        # the speaker's own seat as the subject at a clause start ("3 号发动技能带走 6 号")
        skill_acts=(r"(?:^|(?<=[，,。.!！?？；;\s]))(?P<seat>\d{1,2})\s*号(?:玩家)?\s*(?:发动技能|发技能|使用技能|直接)?\s*(?:{verb})(?:了|掉)?\s*" + _ZH_NUM + r"(?!\d)",
                    r"(?<![你他她])我(?!们)" + _ZH_WHEN + _ZH_GAP + r"(?:{verb})(?:了|过|的是|的|掉|一下)?\s*" + _ZH_NUM + r"(?!\d)",
                    r"(?<![你他她])我(?!们)的(?:技能|能力)(?:是|就是)?(?:{verb})"),
        skill_denied=r"(?:不能|不可|无法|不会)",
        skill_short=(r"^[\W了过好吧那行我]*(?:发动技能|发技能|用技能)?(?:{verb})(?:了|吧)?(?:\s*" + _ZH_NUM + r"\s*号?)?[\W了过吧]*$",),
        scope=r"(?:如果|假如|要是|假设|万一|比方说|比如说)(?:说|是[，,]?\s*|[^，,。.!！?？]{0,12}?说[，,：:]?[^，,。.!！?？我]{0,6})?我(?!们)", scope_end=r"但是|可是|但|其实|实际上|事实上|结果|所以|现在|今天|反正|总之|说实话|讲真",
        mocked=r"(?:对对|是是|好好|行行)[对是好行]*[，,\s]*(?:那|那就)?[，,\s]*$", mocked_after=r"^[^。.!！?？]{0,10}?(?:行了吧|满意了吧|可以了吧|开心了吧|够了吧)",
        good_side=r"我(?:肯定|绝对|真的|就|才|其实|本来)?是(?:一张|一个|个|张)?(?:好人|平民|村民|民)(?:牌)?(?![的吗么嘛？?])",
    ),
    # English wording is data (claim_lexicon.json, issue 45): "im bystander" is a claim, "im not mafia" is not
    "en": Lexicon(
        frames=(claim_opening("en"),),
        lead=None,
        card=r"",
        after=role_end("en"),
        not_before=not_before("en").pattern + r"|(?<!\bI )\b(?i:think|thinks|thought|said|says|claims? that)\b",
        not_in_clause=r"(?i)\bnot\b",
        clause=r"[,.;!?]",
        then=taken_back("en"),
        acts={"seer": (r"\b(?i:I checked (?:seat |player )?\d{1,2}|my check (?:on|of) (?:seat |player )?\d{1,2})",),
              "witch": (r"\b(?i:I (?:saved|poisoned) (?:seat |player )?\d{1,2})",),
              "guard": (r"\b(?i:I (?:protected|guarded) (?:seat |player )?\d{1,2})",)},
    ),
}
