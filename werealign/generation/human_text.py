"""Text of human-voiced options: spans of real turns, filler, seat mentions (werealign/generation/human.py).

Every option of a human-voiced item, key and distractor alike, is cut and cleaned by the same rules,
so no rule of this module can tell them apart:

- a turn is split into clauses at its transcript segments and its punctuation (any script); a clause
  longer than MAX_CLAUSE is cut at a word (or, in scripts without spaces, a character) boundary;
- filler is found in the corpus, not listed: a short clause (at most FILLER_LENGTH visible characters)
  that recurs as a whole clause in FILLER_GAMES games or more ("嗯", "ok", "对吧", "um" alike);
- an option is an opening of the turn: its first clauses, joined with one separator and one end mark
  (the script's), so punctuation and spacing say nothing about where a text came from;
- seat mentions in every form ("7号", "7 号位", "七号", "seat 7") are found and renumbered by
  werealign.audit.seats, each keeping its form;
- a move is a clause that claims a role, accuses or clears a seat, reports a check, states a vote or
  orders the badge (`MOVE`: the catalogue's role labels in any language, and the moves' own words in
  the languages the project writes prompts in); an option is a window of clauses that opens at one;
- a fragment (a clause opening with a particle that ends a sentence: ASR cut it mid-sentence) and a
  post-game remark ("this game the good side lost") never serve.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

from werealign.audit import text_length
from werealign.audit.seats import SEAT_FORM, renumber
from werealign.audit.seats import seats_named as seats_named
from werealign.schema import Utterance
from werealign.schema.roles import ROLE_LABELS

MAX_CLAUSE = 40  # visible characters: longer clauses are cut (ASR runs sentences together)
FILLER_LENGTH = 3
FILLER_GAMES = 3

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_BREAK = re.compile(r"[,，.。;；!！?？:：、…\n]+")
# An adjacent repeat of the same word or run (ASR doubling: "7 号7 号"): kept once.
_REPEAT = re.compile(r"(\S{2,}?)(?:\s*\1)+")
# The words of a move, beside the role labels (werealign.schema.roles): vote, check, badge, accusation.
MOVE_WORDS = re.compile(r"投|归票|放逐|出局|票|查杀|金水|银水|验|警徽|警徽流|撕警徽|狼|坑|好人|铁|保|跳|站边|"
                        r"(?i:\b(?:vote|check(?:ed)?|badge|wolf|wolves|good|clear(?:ed)?|claim(?:s|ed)?|trust|suspect|eliminate|"
                        r"suspicious|sus|lynch|kill|scum)\b)")  # the last line: online Mafia's words (issue 45)
# A clause that opens like the tail of a sentence: the transcript cut it mid-sentence.
FRAGMENT = re.compile(r"^[了的吧呢啊吗嘛呀么着过呗哦噢]|^(?i:and|but|or|of|to)\b")
# A remark about the finished game: who won or lost.
POST_GAME = re.compile(r"(这局|这把|本局|这一局|这盘).{0,10}(赢|输)|(赢|输)了(这局|这把)|游戏结束|(?i:\b(?:we|they|good|wolves) (?:won|lost)\b|game over)")


def is_spaceless(text: str) -> bool:
    """Written without spaces between words (Chinese, Japanese): joined and cut per character."""
    return len(_CJK.findall(text)) * 2 >= text_length(text)


def _cut(clause: str) -> list[str]:
    if text_length(clause) <= MAX_CLAUSE:
        return [clause]
    if is_spaceless(clause):
        chars = clause.replace(" ", "")
        return [chars[i:i + MAX_CLAUSE] for i in range(0, len(chars), MAX_CLAUSE)]
    pieces, words = [], []
    for w in clause.split():
        if words and text_length(" ".join([*words, w])) > MAX_CLAUSE:
            pieces.append(" ".join(words))
            words = []
        words.append(w)
    return [*pieces, " ".join(words)] if words else pieces


def raw_clauses(turn: Utterance) -> list[str]:
    """The turn's clauses, before filler removal (segment boundaries count as clause ends)."""
    texts = [s.text for s in turn.segments] if turn.segments else [turn.text]
    out: list[str] = []
    for t in texts:
        for c in _BREAK.split(t):
            c = _REPEAT.sub(r"\1", " ".join(c.split()))
            if c:
                out.extend(_cut(c))
    return out


def _fold(clause: str) -> str:
    return re.sub(r"\s+", "", clause).casefold()


def find_filler(turns_by_game: Mapping[str, Iterable[Utterance]]) -> frozenset[str]:
    """Short clauses that recur, whole, in many games: what speakers say while thinking, in any language."""
    games: dict[str, set[str]] = defaultdict(set)
    for game_id, turns in turns_by_game.items():
        for turn in turns:
            for c in raw_clauses(turn):
                if text_length(c) <= FILLER_LENGTH:
                    games[_fold(c)].add(game_id)
    return frozenset(c for c, g in games.items() if len(g) >= FILLER_GAMES)


def clauses(turn: Utterance, filler: frozenset[str]) -> list[str]:
    return [c for c in raw_clauses(turn) if _fold(c) not in filler and SEAT_FORM.sub("", c).strip()]


def join(parts: list[str], spaceless: bool) -> str:
    return ("，".join(parts) + "。") if spaceless else (", ".join(parts) + ".")


def openings(parts: list[str], spaceless: bool, high: int) -> list[tuple[int, str]]:
    """(length, text) of each opening of a turn (its first 1, 2, ... clauses) up to `high` characters."""
    out = []
    for n in range(1, len(parts) + 1):
        text = join(parts[:n], spaceless)
        length = text_length(text)
        if length > high:
            break
        out.append((length, text))
    return out


def remap_seats(text: str, table: Mapping[int, int], names: Mapping | None = None, to_names: Mapping | None = None) -> str:
    """Every seat mention renumbered by `table`, in one pass, in every seat form (werealign.audit.seats); a name of
    `names` (the text's game) becomes the new seat's name in `to_names` (its game)."""
    return renumber(text, table, names, to_names)


_FIRST_PERSON = re.compile(r"我|(?i:\b(?:I|me|my)\b)")


def is_move(clause: str, names: Mapping | None = None) -> bool:
    """A clause that makes a move: about a seat (by number, or by name: `names`, the game's) or the speaker, with a
    role (a claim, a check, an accusation) or a move's word (a vote, a badge order)."""
    about = bool(seats_named(clause, names)) or _FIRST_PERSON.search(clause) is not None
    return about and (bool(roles_named(clause)) or MOVE_WORDS.search(clause) is not None)


def move_windows(parts: list[str], spaceless: bool, high: int, names: Mapping | None = None) -> list[tuple[int, int, str]]:
    """(first clause, length, text) of every window of clauses that opens at a move, up to `high`
    characters, shortest first per opening; none that opens on a fragment or holds a post-game remark."""
    out = []
    for i, c in enumerate(parts):
        if not is_move(c, names) or FRAGMENT.search(c.strip()):
            continue
        for j in range(i + 1, len(parts) + 1):
            text = join(parts[i:j], spaceless)
            length = text_length(text)
            if length > high:
                break
            if POST_GAME.search(text):
                break
            out.append((i, length, text))
    return out


def _role_words() -> list[tuple[str, str]]:
    # one-letter ASCII labels would match inside any word
    return sorted(((label.casefold(), role) for label, role in ROLE_LABELS.items() if len(label) > 1 or not label.isascii()),
                  key=lambda lr: -len(lr[0]))


_ROLE_WORDS = _role_words()


def roles_named(text: str) -> frozenset[str]:
    """The catalogue roles a text names (any language's label): the stance a span takes, e.g. a claim.
    A label in a script with spaces is a whole word ("cop" is not in "copper")."""
    folded = text.casefold()
    return frozenset(role for label, role in _ROLE_WORDS
                     if label in folded and (not label.isascii() or re.search(rf"\b{re.escape(label)}\b", folded)))
