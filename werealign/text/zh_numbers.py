"""Chinese numerals as seats and nights are written in transcribed speech and annotator logs ('十二' -> 12).

Shared by the WereBench importer (its log reader) and the audit (seats named in words); neither owns it.
"""

from __future__ import annotations

_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def chinese_number(text: str) -> int | None:
    """'十二' -> 12, '七' -> 7, '12' -> 12 (numbers up to 99)."""
    if text.isdigit():
        return int(text)
    if not text or any(c not in _CN_DIGITS and c != "十" for c in text):
        return None
    if "十" not in text:
        return _CN_DIGITS[text] if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0)
