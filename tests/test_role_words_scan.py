"""The role-word scan cut to the labels a text holds (werealign.shortcuts.knowledge) finds exactly what the whole
catalogue's pattern finds, on invented roles and texts the code has never met (English labels with their plural, a
label inside a longer one, CJK labels), and the format-character table filled lazily drops what the full one drops."""

from __future__ import annotations

import random
import re
import sys
import unicodedata

from werealign.shortcuts.knowledge import _alternation, _pattern_for, _role_labels
from werealign.schema.roles import RoleDeclaration, catalogue_for
from werealign.text.norm import norm_text

INVENTED = [
    RoleDeclaration(id="lantern_keeper", faction="good", names={"en": ["lantern keeper", "keeper"], "zh": ["守灯人", "灯"]}),
    RoleDeclaration(id="moth_wolf", faction="wolf", names={"en": ["moth wolf", "moth"], "zh": ["蛾狼"]}),
]


def _found(pattern, text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in pattern.finditer(text)] if pattern is not None else []


def test_the_cut_pattern_finds_what_the_whole_one_finds():
    ordered, _ = _role_labels(catalogue_for(INVENTED))
    whole = _alternation(ordered)
    words = ["lantern keeper", "keepers", "keeper", "moth", "moths", "moth wolf", "wolf", "seer", "守灯人", "灯", "蛾狼", "狼人",
             "seat 3", "3号", "said", "not", "lanternkeeper", ",", "。"]
    rng = random.Random(7)
    for _ in range(400):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 12))).lower()
        assert _found(_pattern_for(text, ordered), text) == _found(whole, text), text
    assert _pattern_for("nothing here", ordered) is None


def test_the_lazy_format_table_drops_what_the_full_one_drops():
    sample = "".join(chr(c) for c in range(0, sys.maxunicode + 1, 97)) + "a\u200bb\u2060c\ufeffd\U000e0041"
    full = {c: None for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    expected = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", sample).translate(full)).strip().rstrip("。.!！?？;； ").casefold()
    assert norm_text(sample) == expected
    assert norm_text("x\u200by\ufeff ") == "xy"
