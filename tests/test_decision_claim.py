"""The claim decision (issue 31) on invented games and invented phrasings: the claim reader (claims, wolves'
counter-claims, and what is no claim), the board's roles as the answer space, the items up to a player's first
claim, the prompt and its reading, the floors, and derive -> eval -> leaderboard -> release. Nothing here comes from
real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inproc import run_cli
from test_decision_sheriff_run import election_game
from test_decisions import invented_game

from werealign.dataset import load_dataset, write_dataset
from werealign.eval.prompts import render_messages
from werealign.game.claim_labels import load_labels, score_labels
from werealign.game.claims import ClaimReader, board_roles
from werealign.game.decisions import derive_decisions
from werealign.importers.toolkit.candidacy import candidacy_events
from werealign.schema import Segment
from werealign.schema.models import RoleDeclaration
from werealign.tasks import TASKS, parse_reply
from werealign.tasks.learned_floor import LEARNERS


def _said(game, texts: dict[int, str], language: str | None = None):
    """`game` with the turns at these segments saying these texts."""
    utterances = [u.model_copy(update={"text": texts[u.segment_ids[0]], "segments": [Segment(id=u.segment_ids[0], start=u.start, end=u.end, text=texts[u.segment_ids[0]])]})
                  if u.segment_ids[0] in texts else u for u in game.utterances]
    return game.model_copy(update={"utterances": utterances, "language": language or game.language})


ZH = invented_game().model_copy(update={"language": "zh"})


@pytest.mark.parametrize("text, speaker, role", [
    ("大家好，我就是一张真的预言家牌，昨晚摸了 4 号，是匹狼", 1, "seer"),  # the true seer
    ("这轮我直接起跳预言家，4 号我验过是好人", 4, "seer"),  # a wolf's counter-claim
    ("说实话我的底牌是守卫，一直没跳", 2, "guard"),
    ("六号平民，没什么信息，过", 6, "villager"),  # a turn opening on its own seat and a role
    ("别再聊了，我是狼人，我自爆", 5, "werewolf"),  # a wolf giving itself up
    ("Honestly, I'm the witch and I saved seat 6 last night.", 3, "witch"),
    ("Fine: my role is guard, protect me or not.", 2, "guard"),
    ("I claim to be the seer. Seat 4 is a wolf.", 5, "seer"),
    # issue 42: the table's idioms, a claim after a denial, and first-person night moves that claim without the name
    ("我底牌是个守卫，昨晚没守人", 2, "guard"),
    ("我一张平民牌，没什么信息", 6, "villager"),
    ("好了，我是民，你们随便打", 7, "villager"),
    ("我不是预言家，我是女巫，这轮听我的", 3, "witch"),
    ("今天我先说，7 号是我昨天的查杀，警徽流先验 2", 1, "seer"),
    ("6 号是我的银水，我手里还有毒", 3, "witch"),
    ("我昨天晚上守的是 1 号，所以平安夜", 2, "guard"),
    ("过了， 6 号是个民，听后面发言吧", 6, "villager"),  # its own seat, not at the turn's start
    ("我 4 号玩家选择自爆", 4, "werewolf"),
    ("I checked seat 6 last night and seat 6 is a wolf.", 1, "seer"),
])
def test_claims_in_invented_phrasings(text, speaker, role):
    assert ClaimReader(ZH).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker", [
    ("预言家昨天告诉我们 4 号是狼", 6),  # the seer told us: no first person
    ("如果我是预言家，我一定先验 4 号", 7),  # a hypothesis
    ("我是预言家的金水，大家放心", 7),  # the seer's checked good: about the seer
    ("我是女巫救的那张牌", 6),
    ("你们非要打我是狼，我也没办法", 6),  # "you insist I am a wolf"
    ("我是个狼，我就没有必要在这里跳出来", 5),  # a counterfactual
    ("我不是预言家，我是个好人", 8),  # a denial; "好人" names no role
    ("我是预言家吗？你们猜", 7),  # a question
    ("我认预言家 1 号，他的发言很好", 6),  # accepting another's claim
    ("4 号预言家的发言我不认", 6),  # another seat and a role
    ("我是狼，就开玩笑的", 6),  # a good seat "being a wolf": a wolf's-eye argument or a joke, never a claim
    ("If I were the seer I would check seat 5.", 7),
    ("Seat 1 said I am the witch, which is wrong.", 6),
    ("I'm the seer's gold, so trust me.", 7),
    ("但凡我是一张女巫牌，我早就毒他了", 6),  # "were I the witch": a hypothesis
    ("还安排女巫把我毒了，我能怎么办", 6),  # poisoned by the witch: the act is done to the speaker
    ("9 号报了一个我的查杀，但是我是好人", 6),  # another seat's check of the speaker
    ("我是 5 号的金水，大家放心", 7),
    ("3 号是女巫的银水，我不知道他是谁", 6),
])
def test_what_is_no_claim(text, speaker):
    assert ClaimReader(ZH).claim(text, speaker) is None


def _board(*roles: str):
    """The invented Chinese game with these roles on the board too (public cards: claimable, answers)."""
    return ZH.model_copy(update={"rules": ZH.rules.model_copy(update={"public_cards": [*(ZH.rules.public_cards or []), *roles]})})


@pytest.mark.parametrize("text, speaker, role, extra", [
    # issue 42, third round (tuned on hand-label sets A and B and on invented text only): the speaker's own seat
    # before the card, a modifier before the role, the table's words for a villager
    ("我 6 底牌是一张平民牌，听后面", 6, "villager", ()),
    ("我 4 号牌，一张村民牌，没什么说的", 4, "villager", ()),
    ("我就是一个胆小怕事的平民，别打我", 3, "villager", ()),
    ("我只是个民，你们随便", 3, "villager", ()),
    ("我是个强民，不跳了", 6, "villager", ()),
    ("我是个明，过了", 6, "villager", ()),  # ASR writes 民 as 明 too
    ("这把又摸了个平民，没办法", 6, "villager", ()),
    ("5 号底牌，一张平民牌，过", 5, "villager", ()),
    ("那就算了，我是个平民", 6, "villager", ()),  # "就算了" (never mind) is no "就算" (even if)
    ("好吧，一张守卫牌过了", 2, "guard", ()),  # a turn closing on its card
    # a move that only the role makes, said in the first person, future moves included
    ("我先验 3，再验 9，警徽给我", 1, "seer", ()),
    ("今晚我一定要撒毒，毒谁看发言", 3, "witch", ()),
    ("我可能就会把 5 号直接毒掉", 3, "witch", ()),
    ("我会直接带走 5 号", 2, "hunter", ("hunter",)),
    ("4 号是我禁的，明天还禁他", 4, "silencer_elder", ("silencer_elder",)),
    ("向我的狼队友道个歉，我们尽力了", 5, "werewolf", ()),
    ("交牌了", 5, "werewolf", ()),  # a last word: a turn of a few words holding only a move
    ("带走 7 号", 2, "hunter", ("hunter",)),
    # the hidden faction plays no part: a good seat saying it is a wolf claims the wolf, as the table hears it
    ("我是狼，认了，投我吧", 6, "werewolf", ()),
])
def test_claims_read_as_the_table_hears_them(text, speaker, role, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker, extra", [
    ("就算我是狼，你们也推不出我", 5, ()),  # a concession
    ("以前我拿一张狼人的时候，也是这么打的", 5, ()),  # another game
    ("你告诉我 3 号是个预言家，我就信", 3, ()),  # "我" is the object: "tell me seat 3 is the seer"
    ("我要是一张预言家牌，我验的金水早报了", 1, ()),  # the hypothesis carries to the next clause
    ("我在他那个位置，我是个狼人牌，我一定不这么打", 5, ()),  # another's shoes
    ("他们说 9 号是狼，我就想看他开枪", 7, ("hunter",)),  # a gun watched, not the speaker's
    ("我们投死一个开枪的", 7, ("hunter",)),
    ("5 号玩家铁狼，别保了", 5, ()),  # "铁狼": an accusation quoted, no card
    ("我是一个大家眼里的狼，但我是好人", 5, ()),  # others' eyes
    ("我是狼，就开玩笑的", 5, ()),  # a joke, from any seat
    ("你觉得我的狼同伴是谁", 6, ()),  # another's belief
])
def test_no_claims_as_the_table_hears_them(text, speaker, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) is None


@pytest.mark.parametrize("text, speaker, role, extra", [
    # issue 42, fourth round (tuned on sets A-D; set E held out by another labeller): each rule on invented text
    ("你们打我这张女巫牌没有道理", 3, "witch", ()),  # the card named as the speaker's own, whatever verb before it
    ("谁都认我这张守卫牌", 2, "guard", ()),
    ("像我这种普通村民就听发言", 6, "villager", ()),
    ("我这边没什么信息，是一张平民牌", 6, "villager", ()),  # subjectless, after the speaker's own subject
    ("7 号说两句，其实是张村民牌", 7, "villager", ()),
    ("我想好了要跳 可惜不是，就是张平民牌", 6, "villager", ()),  # a sentence without a subject continues the one before
    ("预言家查杀 5 号，警徽流先 3 后 7", 1, "seer", ()),  # a turn opening on a check: a self-introduction
    ("1 号发言，金水 6 号，留 3 号和 8 号", 1, "seer", ()),
    ("我是那个什么守卫，昨晚守了自己", 2, "guard", ()),
    ("我是一个小村民，过", 7, "villager", ()),
    ("我一杆枪，谁出我谁走", 7, "hunter", ("hunter",)),  # the gun's measure word: a hunter
    ("我是一张狐狸牌", 7, "nine_tailed_fox", ("nine_tailed_fox",)),
    ("我选择验了 8 号，是个好人", 1, "seer", ()),
    ("5 号是我禁言的", 4, "silencer_elder", ("silencer_elder",)),
    ("上一把我是狼，这把我是一个平民", 6, "villager", ()),  # "这把" (this game) is no object marker
    ("3 号是我的，金水", 1, "seer", ()),  # the transcript's comma inside "是我的金水"
    ("我也不能守人了，你们看着办", 2, "guard", ()),
    ("好6 号是一张村民牌", 6, "villager", ()),
    ("你们多看看 5 号的发言，我就是个村民", 6, "villager", ()),  # another's speech pointed at, not quoted
    ("2 号是不是村民我不知道，我是一张平民牌", 6, "villager", ()),  # "是不是" (a question) takes nothing back
])
def test_claims_of_the_fourth_round(text, speaker, role, extra):
    assert ClaimReader(_board(*extra)).claim(text, speaker) == role


@pytest.mark.parametrize("text, speaker", [
    ("我更倾向于 7 号是真的预言家", 7),  # a belief, the speaker's own seat named
    ("你跟我说我跳了一个村民，谁信", 6),  # another's words
    ("他说，哎，你们别急，我是一张守卫牌，结果呢", 2),  # direct speech running to the sentence end
    ("你定义我是一张村民，我不认", 6),
    ("你们全都要打，我是狼牌", 5),  # others' accusation carried into the next clause
    ("你又说他是好人，我是狼人牌", 5),
    ("大家觉得我不像好人，我是个狼", 5),
    ("上来就是我是预言家，一点都不藏", 3),
    ("我是个平民，你这种话都说得出来", 6),  # words quoted
    ("我作为一个狼人牌，这么踩同伴就太过分了，所以我肯定不是狼", 6),  # a reductio, taken back in the sentence
    ("6 号真预言家，查杀 5 号 开个玩笑啊兄弟", 6),  # a joke taken back further on
    ("我觉得 5 号，是一张平民牌", 6),  # subjectless after another seat
    ("你发言挺好，是张村民牌", 6),  # subjectless after another player
    ("如果我这张女巫牌还在，我就救了", 3),  # the owned card in a hypothesis
    ("金水 5 号的发言我不认", 1),  # a check named as another's, not reported
    ("我觉得人家挺勇敢，是个狼", 6),  # subjectless after a belief: about the one believed in
    ("我认为 4 号没有骗我，是个预言家", 7),  # "我" the object, 4 the subject
    ("3 号的发言是我的查杀是 5 号", 1),  # another's speech quoted
    ("比如我跳了，我是不是坐实一张真的守卫牌", 2),  # a question, no modifier
])
def test_no_claims_of_the_fourth_round(text, speaker):
    assert ClaimReader(_board()).claim(text, speaker) is None


def test_the_answer_space_is_the_boards_roles_and_a_declared_role_is_read_by_its_name():
    assert board_roles(ZH) == ["villager", "seer", "witch", "guard", "werewolf"]  # catalogue order, each once
    declared = ZH.model_copy(update={"rules": ZH.rules.model_copy(update={"declared_roles": [
        RoleDeclaration(id="moon_girl", faction="good", names={"zh": ["月亮女孩"], "en": ["moon girl"]})]}),
        "seats": [s.model_copy(update={"role": "moon_girl"}) if s.seat == 7 else s for s in ZH.seats]})
    assert "moon_girl" in board_roles(declared)
    assert ClaimReader(declared).claim("我是一张月亮女孩牌，今晚会发动技能", 7) == "moon_girl"
    assert ClaimReader(ZH).claim("我是一张月亮女孩牌", 7) is None  # not a role of that board


def test_items_run_to_each_players_first_claim():
    game = _said(invented_game(), {3: "I am the seer: seat 4 is a wolf.", 4: "Nothing to claim, seat 4 worries me.",
                                   5: "I'm the seer, not seat 1!", 10: "As I said, I am the seer."})
    items = derive_decisions(game, "all").items["claim"]
    by_turn = {(i.viewpoint_seat, i.phase): i.answer for i in items}
    assert by_turn == {(1, "day-1"): "seer", (6, "day-1"): None, (4, "day-1"): "seer", (7, "day-2"): "seer"}
    item = next(i for i in items if i.viewpoint_seat == 4)
    assert item.candidates == ["villager", "seer", "witch", "guard", "werewolf"] and item.cutoff_segment == 4
    assert [i.viewpoint_seat for i in derive_decisions(game).items["claim"]] == [1, 6, 7]  # winners: the good side


def test_the_prompt_shows_the_turn_before_and_reads_a_letter():
    game = _said(invented_game(), {3: "I am the seer: seat 4 is a wolf.", 5: "I'm the seer, not seat 1!"})
    item = next(i for i in derive_decisions(game, "all").items["claim"] if i.viewpoint_seat == 4)
    text = render_messages(game, item)[-1]["content"]
    assert "I'm the seer, not seat 1!" not in text and "I am the seer: seat 4 is a wolf." in text
    assert "A. I claim no role in this turn" in text and "C. seer" in text and text.rstrip().endswith("Answer: <letter of your move>")
    assert parse_reply("Answer: C", item).answer == "seer" and parse_reply("Answer: A", item).answer == "none"
    assert parse_reply("Answer: H", item).error  # no such option
    zh = _said(ZH, {3: "我是预言家"})
    zh_item = next(i for i in derive_decisions(zh, "all").items["claim"] if i.viewpoint_seat == 1)
    assert "A. 本轮发言不起跳" in render_messages(zh, zh_item)[-1]["content"]


def test_claim_floors():
    game = _said(invented_game(), {3: "I am the seer: seat 4 is a wolf.", 5: "I'm the seer, not seat 1!"})
    items = derive_decisions(game, "all").items["claim"]  # 1: seer; 6: none; 4: seer; 7 (day 2): none
    floors = TASKS["claim"].scorer.truth_floors([(game, i) for i in items], "accuracy")
    # never: right on the two no-claims. majority-so-far: none on 1 (nothing before: wrong), seer on 6 (1 seer: wrong),
    # none on 4 (a tie, broken to none: wrong), seer on 7 (2 to 1: wrong). last-claimed: none on 1 (wrong), seer on
    # 6 (wrong), 4 (right) and 7 (wrong). own-role: seer on 1 (right), villager on 6 and 7, werewolf on 4 (wrong).
    # learned: one game, nothing to hold out: not computed.
    assert {k: floors[k] for k in ("never", "majority-so-far", "last-claimed", "own-role")} == {
        "never": 0.5, "majority-so-far": 0.0, "last-claimed": 0.25, "own-role": 0.25}
    assert {k: floors[k] for k in LEARNERS} == dict.fromkeys(LEARNERS)
    # repeat-own: a seat's items stop at its first claim, so it never claimed before: none, right on 6 and 7.
    # counter-claim: no seat's own role was claimed by another before its turn (4's seer claim comes after 1's turn):
    # none throughout, right on 6 and 7.
    assert floors["repeat-own"] == 0.5 and floors["counter-claim"] == 0.5


def test_derive_eval_leaderboard_and_release_carry_claim_and_sheriff_run(tmp_path):
    game = candidacy_events(_said(election_game("Standing for sheriff: 1, 4 and 7."), {3: "I am the seer: seat 4 is a wolf.",
                                                                                      5: "I'm the seer, not seat 1!"}))
    src = tmp_path / "ds"
    write_dataset(src, name="invented", version="1", licence="test", games=[game], items={})
    r = run_cli("derive", src, "--deciders", "all")
    assert r.returncode == 0, r.stderr
    assert "8 sheriff_run" in r.stdout and "claim" in r.stdout
    assert run_cli("validate", src).returncode == 0
    out = tmp_path / "run"
    r = run_cli("eval", "--model", "werealign/random", "--dataset", src, "--tasks", "claim,sheriff_run", "--decodes", "1",
                "--variant", "base,no-context", "--out", out)
    assert r.returncode == 0, r.stderr
    results = json.loads((out / "results.json").read_text())
    claim = results["variants"]["base"]["claim"]
    assert {"never", "majority-so-far", "last-claimed"} <= set(claim["floors"]["shortcuts"]) and claim["floors"]["chance"] == pytest.approx(1 / 6, abs=1e-6)
    assert claim["claimed_accuracy"] is not None
    assert {"always", "never"} <= set(results["variants"]["base"]["sheriff_run"]["floors"]["shortcuts"])
    board = tmp_path / "board.md"
    assert run_cli("leaderboard", out, "--out", board).returncode == 0
    header = next(line for line in board.read_text().splitlines() if "claim" in line)
    assert "sheriff_run" in header and "decisions" in header
    headline = next(line for line in board.read_text().splitlines() if line.startswith("| model"))  # the main table's
    assert "decisions" in headline and "claim" not in headline  # the kinds have a table of their own (fits 1400 px)
    release = tmp_path / "release"
    r = run_cli("release", src, "--out", release)
    assert r.returncode == 0, r.stderr
    card = (release / "README.md").read_text()
    assert "| `claim` |" in card and "| `sheriff_run` |" in card and "majority-so-far" in card


def test_a_board_with_more_roles_than_option_letters_gives_no_claim_item():
    extra = [RoleDeclaration(id=f"invented_role_{i}", faction="good", names={"en": [f"role {i}"]}) for i in range(5)]
    game = invented_game()
    game = game.model_copy(update={"rules": game.rules.model_copy(update={"declared_roles": extra, "public_cards": [d.id for d in extra]})})
    made = derive_decisions(game, "all")
    assert len(board_roles(game)) == 10 and not made.items["claim"]
    assert any(n.code == "claim_too_many_roles" for n in made.notes)


@pytest.mark.werebench
def test_real_release_claims(werebench_import):
    """On the imported release: claims are read in a fair share of turns, seer claims lead, counter-claims exist
    (a wolf claiming a good role), and a claim item's prompt never shows its own turn."""
    ds = load_dataset(werebench_import.path)
    items = [i for g in ds.games.values() for i in derive_decisions(g, "all").items["claim"]]
    claimed = [i for i in items if i.answer is not None]
    assert len(items) >= 800 and 0.1 < len(claimed) / len(items) < 0.5, (len(claimed), len(items))
    roles = [i.answer for i in claimed]
    assert max(set(roles), key=roles.count) == "seer"
    wolves = {(g.game_id, s.seat) for g in ds.games.values() for s in g.seats if s.faction == "wolf"}
    assert any((i.game_id, i.viewpoint_seat) in wolves and i.answer in ("seer", "witch", "villager") for i in claimed)
    for item in claimed[::9]:
        game = ds.games[item.game_id]
        turn = next(u for u in game.utterances if u.index == item.turn)
        assert turn.text[:40] not in render_messages(game, item)[-1]["content"], item.item_id


def test_a_language_is_a_lexicon(monkeypatch):
    """Issue 42: reading another language's claims is data: a lexicon with its frames, idioms and acts."""
    from werealign.game import claims

    toy = claims.Lexicon(frames=(r"\bje suis (?:le |la )?",), lead=None, card="", after=r"(?!\w)", not_before=r"(?i)\bsi\b",
                         not_in_clause=r"(?i)\bpas\b", clause=r"[,.;!?]", then=r"(?!)",
                         aliases={"seer": (r"voyante",)}, acts={"witch": (r"\bj'ai sauvé (?:le )?\d{1,2}",)})
    monkeypatch.setitem(claims.LEXICONS, "fr", toy)
    reader = ClaimReader(invented_game())
    assert reader.claim("Bon, je suis la voyante, le 4 est loup.", 1) == "seer"
    assert reader.claim("Cette nuit j'ai sauvé 6.", 3) == "witch"
    assert reader.claim("Si je suis la voyante, je vérifie 4.", 1) is None


@pytest.mark.werebench
def test_real_release_claim_reading_against_the_hand_labels(werebench_import):
    """Issue 42: the reader against 1,787 hand-labelled turns of the release (tests/data, structured labels only: game,
    turn index, seat, claimed role), scored as `scripts/claim_labels.py` scores them. The reader was tuned on all four
    sets A-D (fourth round), on E's misses (fifth round) and on F's (sixth), so every set here is a regression floor,
    not a held-out measurement: E measured the fourth round held out (69.6% / 85.7%), F the fifth (labelled blind; the sixth round
    read F's misses), and G, labelled blind and added after the sixth round froze, measures the sixth (69.7% / 85.5%) and
    the seventh round's first step (the same figures); the seventh round then read G's misses, so G is a fit too. H,
    labelled blind by two hands that agree on every turn, measures the seventh round held out (60.3% / 80.0%), and so do
    I and J (82.4% / 92.4% and 75.4% / 87.5%), each labelled blind by two other hands (the turns they labelled
    differently are left out: I holds 148, J 145), and K and L (71.8% / 91.8% and 67.6% / 85.7%; 147 turns each), drawn
    and labelled the same way later. Each set alone keeps the floor of what it measured."""
    labels = load_labels(Path(__file__).parent / "data" / "claim_labels_werebench.json")
    games = load_dataset(werebench_import.path).games
    union = score_labels(labels, games, ["A", "B", "C", "D"])
    assert union.turns == 600 and union.claims >= 200
    assert union.recall >= 0.90 and union.precision >= 0.90, (round(union.recall, 3), round(union.precision, 3), union.misses)
    # E was the fourth round's held-out set (69.6% / 85.7%); the fifth round read its misses, so its floor is a fit now.
    # F measured the fifth round blind (70.4% / 89.3%) and the sixth's first step (71.8% / 89.5%); the sixth round then
    # read F's misses, so F too is a regression floor here; G measured the sixth round and the seventh's first step held
    # out, then the seventh read its misses
    for name, recall_floor, precision_floor in (("A", 0.95, 0.93), ("B", 0.96, 0.93), ("C", 0.88, 0.86), ("D", 0.89, 0.92),
                                                ("E", 0.92, 0.94), ("F", 0.85, 0.93), ("G", 0.76, 0.90),
                                                ("H", 0.60, 0.80), ("I", 0.82, 0.92), ("J", 0.75, 0.87),
                                                ("K", 0.71, 0.91), ("L", 0.67, 0.85)):
        one = score_labels(labels, games, [name])
        assert one.turns >= {"I": 148, "J": 145, "K": 147, "L": 147}.get(name, 150) and one.claims >= 50
        assert one.recall >= recall_floor and one.precision >= precision_floor, (name, round(one.recall, 3), round(one.precision, 3))


@pytest.mark.werebench
@pytest.mark.xfail(strict=False, reason="issue 42 must-have 4 not met (2026-11-28): the seventh round reads 71.5% of the "
                                        "claims of sets H to L together, 87.8% of its readings right; each set was labelled "
                                        "blind by two hands that agree on 97-100% of turns, so the gap is the reader's, not the labels'")
def test_claims_are_read_at_90_percent_on_the_sets_the_reader_was_not_tuned_on(werebench_import):
    """Issue 42 must-have 4: recall and precision >= 90% on hand-labelled sets the reader was not tuned on (H to L: no
    merged round has read their misses; a round that does makes them a fit and needs new blind sets)."""
    labels = load_labels(Path(__file__).parent / "data" / "claim_labels_werebench.json")
    held_out = score_labels(labels, load_dataset(werebench_import.path).games, ["H", "I", "J", "K", "L"])
    assert held_out.recall >= 0.90 and held_out.precision >= 0.90, (round(held_out.recall, 3), round(held_out.precision, 3))


def test_claim_turns_read_with_a_reader_of_the_games_own_board_and_lexicons(monkeypatch):
    """claim_turns keeps one reader per board (a derive asks every game once per `deciders`): what it reads is what a
    reader built for the game reads, and a changed board, declaration or lexicon gets a reader of its own."""
    from werealign.game import claims

    game = invented_game()
    said = "Bon, je suis la voyante, le 4 est loup."
    game = game.model_copy(update={"utterances": [u.model_copy(update={"text": said}) if u.speaker == 1 else u for u in game.utterances]})
    fresh = ClaimReader(game)
    assert [role for _, role in claims.claim_turns(game)] == [fresh.claim(u.text, u.speaker) for u, _ in claims.claim_turns(game)]
    first = claims.reader_for(game)
    assert claims.reader_for(game.model_copy()) is first  # another game object on the same board: the same reader
    wolf_king = RoleDeclaration(id="wolf_king", faction="wolf", names={"en": ["wolf king"]})
    other = game.model_copy(update={"rules": game.rules.model_copy(update={"declared_roles": [wolf_king], "public_cards": ["wolf_king"]})})
    assert claims.reader_for(other) is not first and "wolf_king" in claims.reader_for(other).roles
    before = [role for _, role in claims.claim_turns(game)]
    toy = claims.Lexicon(frames=(r"\bje suis (?:le |la )?",), lead=None, card="", after=r"(?!\w)", not_before=r"(?i)\bsi\b",
                         not_in_clause=r"(?i)\bpas\b", clause=r"[,.;!?]", then=r"(?!)", aliases={"seer": (r"voyante",)})
    monkeypatch.setitem(claims.LEXICONS, "fr", toy)
    after = [role for _, role in claims.claim_turns(game)]
    assert "seer" in after and "seer" not in before, "a lexicon added later is read, not a reader kept from before"
    monkeypatch.undo()
    assert [role for _, role in claims.claim_turns(game)] == before
