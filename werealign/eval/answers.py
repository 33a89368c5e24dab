"""Strict answer extraction (DESIGN.md "Evaluation semantics").

1. Reasoning blocks are removed: `<think>…</think>` (also `<thinking>`), an unterminated `<think>`
   (everything after it is reasoning), and a stray `</think>` (everything before it is reasoning).
2. The LAST line that starts with an answer label is taken: `Answer:` / `Final answer:` or
   `答案：` / `最终答案：`, optionally dressed in markdown (`**Answer:** C`, `## Answer: C`, `- Answer: C`).
   Full-width characters are normalised first (NFKC), so `答案：Ｃ` reads as `答案:C`.
3. The value must be, for a speech item, one option letter (optionally `(C)`, `C.`, `C) text`,
   `Option C`, `选项C`, `"C"`; a lower-case letter only on its own, `b` or `b.`; two letters such as
   `B, C` or `B or C` are a hedge, not an answer); for a vote item, one seat number (`5`, `Seat 5`, `5号`); for an opponent
   item, seat numbers separated by commas, `、`, `;`, spaces or "and"/"和".
Anything else — no answer line, an unreadable value, a letter or seat outside the item's options or
candidates — gives answer None and an `error` saying why. Earlier answer lines are never a fallback:
the model's last word counts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from werealign.schema import OPTION_KEYS, OpponentItem, SpeechItem, VoteItem


@dataclass(frozen=True)
class Parsed:
    answer: str | int | tuple[int, ...] | None
    error: str | None  # why parsing failed; None when answer is set


_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.I)

# An answer line: optional markdown/list dressing, the label, a colon, the value.
_ANSWER_LINE = re.compile(
    r"^[\s>#*_\-`]*(?:final\s+answer|answer|最终答案|答案)[\s*_`]*[:][\s*_`]*(?P<value>.*?)[\s*_`]*$",
    re.I,
)


def strip_reasoning(text: str) -> str:
    text = _THINK_BLOCK.sub("", text)
    m = _THINK_OPEN.search(text)
    if m:  # unterminated: the rest is reasoning that never finished
        text = text[: m.start()]
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:  # a closing tag without its opening one (some chat templates eat the opener)
        text = text[closes[-1].end():]
    return text


def answer_value(reply: str) -> str | None:
    """The value of the last answer line after reasoning is stripped, or None if there is none."""
    text = unicodedata.normalize("NFKC", strip_reasoning(reply))
    value = None
    for line in text.splitlines():
        m = _ANSWER_LINE.match(line)
        if m:
            value = m.group("value")
    if value is None:
        return None
    # Markdown emphasis and a LaTeX box are dressing, not content: "**C**." or "$\boxed{C}$".
    value = _BOXED.sub(r"\1", value).replace("$", "")
    # Quotes around the whole value are dressing too: "B" or 「B」.
    return re.sub(r"[*`]", "", value).strip().strip("\"'“”‘’「」").strip()


_LETTER = re.compile(r"^(?:option\s*|选项\s*|选\s*)?[(\[【]?(?P<k>[A-Ia-i])[)\]】]?(?:\s*选?项)?(?:\s*$|\s*[.。,，、:;!)\]]|\s*\(|\s+[-—–]\s)", re.I)
# A lower-case letter is read only when it stands alone ("b", "(b)", "b."): "i think ..." is prose.
_LOWER_ALONE = re.compile(r"[(\[【]?[a-i][)\]】]?[.。!]?")
# Two or more letters and nothing else ("B, C", "B or C", "B/C", "B. C", "B (C)") is a hedge, not an answer.
# (Capitals standing alone, so "C. Head" is still option C with a reason; lower case is handled above.)
_ONE_LETTER = r"(?:[Oo]ption\s*|选项\s*)?[(\[【]?[A-I](?![A-Za-z])[)\]】]?"
_HEDGE = re.compile(rf"{_ONE_LETTER}(?:(?:\s*(?:[,，、/;&+.。]|(?i:or|and)\b|或|和|与))*\s*{_ONE_LETTER})+\s*[.。!]?")
_SEAT = re.compile(r"^(?:seat|player|no\.?|#)?\s*(?P<n>\d{1,2})\s*(?:号|號)?(?:\s*(?:玩家|位)?\s*)$", re.I)
_SEAT_WORDS = re.compile(r"\b(?:seats?|players?)\b|no\.|#", re.I)
_SEP = re.compile(r"\s*(?:[,;、/]|\band\b|和|与)\s*|\s+", re.I)


def parse_reply(reply: str | None, item: SpeechItem | VoteItem | OpponentItem, option_order: list[int] | None = None) -> Parsed:
    """Read the model's answer strictly; speech answers are mapped back to the ORIGINAL option key."""
    if reply is None or not reply.strip():
        return Parsed(None, "empty reply")
    value = answer_value(reply)
    if value is None:
        return Parsed(None, "no answer line (expected a final line 'Answer: ...')")
    value = value.strip().rstrip("。.!").strip() if not isinstance(item, SpeechItem) else value
    if not value:
        return Parsed(None, "answer line is empty")
    if isinstance(item, SpeechItem):
        return _parse_letter(value, item, option_order)
    if isinstance(item, VoteItem):
        seat = _seat(value)
        if seat is None:
            return Parsed(None, f"answer '{_short(value)}' is not one seat number")
        if seat not in item.candidates:
            return Parsed(None, f"seat {seat} is not a candidate")
        return Parsed(seat, None)
    if isinstance(item, OpponentItem):
        tokens = [t for t in _SEP.split(_SEAT_WORDS.sub(" ", value).strip()) if t]
        seats = []
        for t in tokens:
            s = _seat(t)
            if s is None:
                return Parsed(None, f"answer '{_short(value)}' is not a list of seat numbers ('{_short(t)}')")
            seats.append(s)
        if not seats:
            return Parsed(None, "answer names no seat")
        bad = sorted({s for s in seats if s not in item.candidates})
        if bad:
            return Parsed(None, f"seat(s) {', '.join(map(str, bad))} not among the candidates")
        return Parsed(tuple(sorted(set(seats))), None)
    raise TypeError(f"not an item: {type(item).__name__}")


def _parse_letter(value: str, item: SpeechItem, option_order: list[int] | None) -> Parsed:
    m = _LETTER.match(value)
    if not m:
        return Parsed(None, f"answer '{_short(value)}' is not one option letter A-I")
    letter = m.group("k")
    if (letter.islower() and not _LOWER_ALONE.fullmatch(value.strip())) or _HEDGE.fullmatch(value.strip()):
        return Parsed(None, f"answer '{_short(value)}' is not one option letter A-I")
    shown = OPTION_KEYS.index(letter.upper())
    if shown >= len(item.options):
        return Parsed(None, f"option {letter.upper()} does not exist")
    order = option_order if option_order is not None else list(range(len(item.options)))
    return Parsed(item.options[order[shown]].key, None)


def _seat(token: str) -> int | None:
    m = _SEAT.match(token.strip().strip("()[]【】").strip())
    return int(m.group("n")) if m else None


def _short(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
