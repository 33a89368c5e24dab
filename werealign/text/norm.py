"""Text as a reader compares it (option texts, turns): one normalisation for validate, the audit and the tasks."""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1)
def _drop_format_chars() -> dict[int, None]:
    """str.translate table deleting every format character (Cf), built once: a per-character category
    lookup was most of the time `werealign audit` spent on the release."""
    return {c: None for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}


@lru_cache(maxsize=65536)  # the same turns are normalised for many items and cut-offs
def norm_text(text: str) -> str:
    """Option text as a reader compares it: width, case, spacing, invisible format characters
    (a zero-width space makes no other option) and trailing punctuation and spaces ignored."""
    text = unicodedata.normalize("NFKC", text).translate(_drop_format_chars())
    return re.sub(r"\s+", " ", text).strip().rstrip("。.!！?？;； ").casefold()
