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
  werealign.shortcuts.seats, each keeping its form;
- a move is a clause that claims a role, accuses or clears a seat, reports a check, states a vote or
  orders the badge (`MOVE`: the catalogue's role labels in any language, and the moves' own words in
  the languages the project writes prompts in); an option is a window of clauses that opens at one;
- a fragment (a clause opening with a particle that ends a sentence: ASR cut it mid-sentence) and a
  post-game remark ("this game the good side lost") never serve.
"""

from __future__ import annotations

import random
import re
from typing import Any
from collections import defaultdict
from collections.abc import Iterable, Mapping

from werealign.shortcuts.text import text_length
from werealign.shortcuts.seats import SEAT_FORM, renumber
from werealign.shortcuts.seats import seats_named as seats_named
from werealign.shortcuts.text import roles_named as roles_named
from werealign.schema import Utterance

MAX_CLAUSE = 40  # visible characters: longer clauses are cut (ASR runs sentences together)
FILLER_LENGTH = 3
FILLER_GAMES = 3

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_BREAK = re.compile(r"[,，.。;；!！?？:：、…\n]+")
_SENTENCE_END = re.compile(r"[.。;；!！?？\n]")
PIECE, CLAUSE, SENTENCE = 0, 1, 2  # what ends after a clause piece (raw_pieces)
# An adjacent repeat of the same run (ASR doubling: "7 号7 号"): kept once. In a script with spaces only whole
# words repeat ("at at 12"): matched inside words, "because seat" lost its "se" and read "becauseat".
_REPEAT = re.compile(r"(\S{2,}?)(?:\s*\1)+")
_REPEAT_WORDS = re.compile(r"\b(\w+(?:\s+\w+){0,3}?)(?:\s+\1\b)+")
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


def _dedup(clause: str) -> str:
    return (_REPEAT if is_spaceless(clause) else _REPEAT_WORDS).sub(r"\1", clause)


def raw_pieces(turn: Utterance) -> list[tuple[str, int]]:
    """The turn's clauses, before filler removal, each with what ends after it: SENTENCE (a sentence mark, the
    segment's end: an option ends only there, never after "When seat 1 turns out good,"), CLAUSE (a comma), or
    PIECE (a clause longer than MAX_CLAUSE comes in pieces; only its last one ends it)."""
    texts = [s.text for s in turn.segments] if turn.segments else [turn.text]
    out: list[tuple[str, int]] = []
    for t in texts:
        chunks = re.split(f"({_BREAK.pattern})", t)
        for n in range(0, len(chunks), 2):
            c = _dedup(" ".join(chunks[n].split()))
            mark = chunks[n + 1] if n + 1 < len(chunks) else ""
            # a sentence ends at a sentence mark or at the segment's end (an ASR cue), not at a comma
            ends = not mark or _SENTENCE_END.search(mark) is not None or n + 2 >= len(chunks) or not "".join(chunks[n + 2:]).strip()
            end = SENTENCE if ends else CLAUSE
            if c:
                pieces = _cut(c)
                out.extend((p, end if k == len(pieces) - 1 else PIECE) for k, p in enumerate(pieces))
            elif out and ends:
                out[-1] = (out[-1][0], SENTENCE)
    return out


def raw_clauses(turn: Utterance) -> list[str]:
    return [p for p, _ in raw_pieces(turn)]


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


def clause_pieces(turn: Utterance, filler: frozenset[str]) -> tuple[list[str], list[int]]:
    """The turn's clauses without filler, and per clause what ends after it (see raw_pieces)."""
    kept = [(c, e) for c, e in raw_pieces(turn) if _fold(c) not in filler and SEAT_FORM.sub("", c).strip()]
    return [c for c, _ in kept], [e for _, e in kept]


def clauses(turn: Utterance, filler: frozenset[str]) -> list[str]:
    return clause_pieces(turn, filler)[0]


def join(parts: list[str], spaceless: bool, ends: list[int] | None = None) -> str:
    """The script's marks, one kind each: one after a sentence and at the end, one between clauses, and the
    pieces of one clause cut at MAX_CLAUSE rejoined as written (`ends`: raw_pieces'; none: clauses); in a
    script with capitals a text and each sentence open with one (keys and distractors alike)."""
    ends = [CLAUSE] * len(parts) if ends is None else ends
    marks = {PIECE: "", CLAUSE: "，", SENTENCE: "。"} if spaceless else {PIECE: " ", CLAUSE: ", ", SENTENCE: ". "}
    out = ""
    for n, p in enumerate(parts):
        if not spaceless and (n == 0 or ends[n - 1] == SENTENCE):
            p = p[:1].upper() + p[1:]
        out += p + (marks[ends[n]] if n < len(parts) - 1 else "")
    return out + ("。" if spaceless else ".")


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
    """Every seat mention renumbered by `table`, in one pass, in every seat form (werealign.shortcuts.seats); a name of
    `names` (the text's game) becomes the new seat's name in `to_names` (its game)."""
    return renumber(text, table, names, to_names)


_FIRST_PERSON = re.compile(r"我|(?i:\b(?:I|me|my)\b)")


def is_move(clause: str, names: Mapping | None = None) -> bool:
    """A clause that makes a move: about a seat (by number, or by name: `names`, the game's) or the speaker, with a
    role (a claim, a check, an accusation) or a move's word (a vote, a badge order)."""
    about = bool(seats_named(clause, names)) or _FIRST_PERSON.search(clause) is not None
    return about and (bool(roles_named(clause)) or MOVE_WORDS.search(clause) is not None)


def move_windows(parts: list[str], spaceless: bool, high: int, ends: list[int] | None = None,
                 names: Mapping | None = None) -> list[tuple[int, int, str]]:
    """(first clause, length, text) of every window of clauses that opens at a move, up to `high`
    characters, shortest first per opening; none that opens on a fragment or holds a post-game remark.
    `ends` (clause_pieces): a window opens where a clause opens and closes where one ends, never inside a
    clause cut in pieces (a span stopping mid-clause, "... attacked seat 3 and.", is no statement)."""
    ends = [SENTENCE] * len(parts) if ends is None else ends
    out = []
    for i, c in enumerate(parts):
        if not is_move(c, names) or FRAGMENT.search(c.strip()) or (i > 0 and ends[i - 1] == PIECE):
            continue
        for j in range(i + 1, len(parts) + 1):
            text = join(parts[i:j], spaceless, ends[i:j])
            length = text_length(text)
            if length > high:
                break
            if POST_GAME.search(text):
                break
            if ends[j - 1] == SENTENCE:
                out.append((i, length, text))
    return out


def remap(text: str, span: Any, me: int, live: dict[int, int] | list[int], seed: str, *, dead: list[int] | tuple[int, ...] = (),
          dead_rate: float = 0.0, to_names: Mapping | None = None) -> str | None:
    """The span with its speaker's seat renumbered to `me` and each other seat it names to a distinct
    seat other than `me`: one of `dead` with probability `dead_rate` (while any is left), else a live
    seat drawn (seeded) with the given weights (a list: equal weights); None when it names more seats
    than there are. Every seat form is renumbered (werealign.shortcuts.seats)."""
    names = dict(getattr(span, "names", ()))  # the source game's seat names (issue 45): renamed into `to_names`
    others = sorted({s for s in seats_named(text, names) if s != span.speaker})
    weights = dict(live) if isinstance(live, dict) else dict.fromkeys(live, 1)
    out_seats = sorted(set(dead) - set(weights) - {me})
    if len(others) > len(weights) + len(out_seats):
        return None
    rng = random.Random(seed)
    drawn = []
    for _ in others:
        pool = out_seats if out_seats and (rng.random() < dead_rate or not weights) else None
        if pool is not None:
            seat = rng.choice(pool)
            out_seats.remove(seat)
        else:
            if not weights:
                return None
            seats = sorted(weights)
            seat = rng.choices(seats, [weights[s] for s in seats])[0]
            del weights[seat]
        drawn.append(seat)
    return remap_seats(text, {span.speaker: me, **dict(zip(others, drawn))}, names, to_names)
