"""Text as a reader compares it (option texts, turns): one normalisation for validate, the audit and the tasks."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


class _DropFormatChars(dict):
    """str.translate table deleting every format character (Cf), filled as characters are met: a per-character
    category lookup was most of the time `werealign audit` spent on the release, and building the whole table up
    front (1.1 M code points) cost every process that normalises a line about 0.4 s."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.category(chr(code)) == "Cf" else code
        self[code] = kept
        return kept


_DROP_FORMAT_CHARS = _DropFormatChars()


def _drop_format_chars() -> dict[int, int | None]:
    return _DROP_FORMAT_CHARS


@lru_cache(maxsize=65536)  # the same turns are normalised for many items and cut-offs
def norm_text(text: str) -> str:
    """Option text as a reader compares it: width, case, spacing, invisible format characters
    (a zero-width space makes no other option) and trailing punctuation and spaces ignored."""
    text = unicodedata.normalize("NFKC", text).translate(_drop_format_chars())
    return re.sub(r"\s+", " ", text).strip().rstrip("。.!！?？;； ").casefold()
