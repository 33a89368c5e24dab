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
An answer label alone on its line takes its value from the lines right below it, up to a blank line,
one entry per line (a per-seat role list is often written so).
Anything else — no answer line, an unreadable value, a letter or seat outside the item's options or
candidates — gives answer None and an `error` saying why. Earlier answer lines are never a fallback:
the model's last word counts.
"""

from __future__ import annotations

import itertools
import re
import unicodedata



_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.I)

# An answer line: optional markdown/list dressing, the label, a colon, the value.
_BULLET = re.compile(r"^[\s>*\-•]+")  # a list item's marker before an entry under a bare answer label
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
    lines = unicodedata.normalize("NFKC", strip_reasoning(reply)).splitlines()
    value = None
    for i, line in enumerate(lines):
        m = _ANSWER_LINE.match(line)
        if m:
            value = m.group("value")
            if not re.sub(r"[*_`\s]", "", value):
                # "Answer:" alone, the value on the lines below it (a list of seat: role pairs, one per line):
                # the block up to the next blank line, one entry per line.
                block = [_BULLET.sub("", x).strip() for x in itertools.takewhile(str.strip, lines[i + 1:])]
                value = "; ".join(x for x in block if x)
    if value is None:
        return None
    # Markdown emphasis and a LaTeX box are dressing, not content: "**C**." or "$\boxed{C}$".
    value = _BOXED.sub(r"\1", value).replace("$", "")
    # Quotes around the whole value are dressing too: "B" or 「B」.
    return re.sub(r"[*`]", "", value).strip().strip("\"'“”‘’「」").strip()


_SEAT = re.compile(r"^(?:seat|player|no\.?|#)?\s*(?P<n>\d{1,2})\s*(?:号|號)?(?:\s*(?:玩家|位)?\s*)$", re.I)


def seat_value(value: str) -> str:
    """A seat answer without its closing full stop ("5." / "5。")."""
    return value.strip().rstrip("。.!").strip()


def read_seat(token: str) -> int | None:
    m = _SEAT.match(token.strip().strip("()[]【】").strip())
    return int(m.group("n")) if m else None


def short(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def one_seat_or_none(value: str, candidates: list[int], none_ok: bool, none_words: frozenset[str], none_answer: str,
                     not_ok: str) -> tuple[int | str | None, str | None]:
    """(answer, error) of a one-seat answer line that may also say "none" (an abstention, no move): a candidate seat,
    `none_answer` for one of `none_words` where `none_ok` (else the error `not_ok`), or an error saying why not."""
    value = seat_value(value)
    if not value:
        return None, "answer line is empty"
    if value.strip().strip(".。").lower() in none_words:
        return (none_answer, None) if none_ok else (None, not_ok)
    seat = read_seat(value)
    if seat is None:
        return None, f"answer '{short(value)}' is not one seat number"
    if seat not in candidates:
        return None, f"seat {seat} is not a candidate"
    return seat, None
