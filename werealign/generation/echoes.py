"""Generated text that is not an answer: an echo of the prompt's own instructions, or placeholder text.

A small model sometimes copies the prompt back: a question reading "What Seat 7 ACTUALLY DID NEXT
(for the key only; the question must not reveal it)", a rule reminder reading "BAD MESSAGE". Such a
field measures nothing and may leak the key. Found in two ways, neither tied to one wording:
- an echo: a run of ECHO_WORDS words that stands in a generation template's fixed text (the
  templates are read, not listed here, so a new or reworded template is covered as it ships);
- a placeholder: an empty field or one of only dots, a `<slot>` or `{slot}`, a TODO/TBD/lorem word,
  or a shouted run of two or more all-capital words (the templates' headings, "BAD MESSAGE").
"""

from __future__ import annotations

import re
from functools import cache

from werealign.render.generation import templates_root

ECHO_WORDS = 5  # shorter runs ("what you know at this") occur in ordinary speech about the game
_WORD = re.compile(r"[\u3400-\u9fff]|[^\W\d_]+")  # a CJK character, or a word of letters
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_PLACEHOLDER = re.compile(
    r"<[^<>\n]{1,40}>|\{[^{}\n]{0,40}\}|(?i:\b(?:TODO|TBD|FIXME|PLACEHOLDER|lorem ipsum)\b)"
    r"|\b[A-Z]{2,}[A-Z']*(?:[ \t]+[A-Z]{2,}[A-Z']*)+\b")
_ONLY_DOTS = re.compile(r"^[\s.…。]*$")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _runs(words: list[str], n: int = ECHO_WORDS) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


@cache
def template_runs() -> frozenset[tuple[str, ...]]:
    """Every ECHO_WORDS-word run of the generation templates' fixed text (their variables left out)."""
    root = templates_root()
    found: set[tuple[str, ...]] = set()
    for entry in root.iterdir():
        if entry.name.endswith(".j2"):
            for piece in _JINJA.split(entry.read_text(encoding="utf-8")):
                found |= _runs(_words(piece))
    return frozenset(found)


def problem(text: str | None) -> str | None:
    """Why a generated field is not an answer (an echo or a placeholder), or None when it reads as one."""
    if text is None:
        return None
    if _ONLY_DOTS.match(text):
        return "empty or placeholder text"
    if m := _PLACEHOLDER.search(text):
        return f"placeholder text {m.group(0)!r}"
    if echo := _runs(_words(text)) & template_runs():
        return f"echoes the prompt's instructions ({' '.join(min(echo))!r})"
    return None


def field_problems(fields: dict[str, str | None]) -> list[str]:
    """'field: why' for each named field that is an echo or a placeholder."""
    return [f"{name}: {why}" for name, text in fields.items() if (why := problem(text))]
