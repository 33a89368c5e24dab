"""The one exception type that user-facing commands turn into a clear message and exit code 1,
and how any such message is kept to one printable line."""

from __future__ import annotations

import re


class UserError(Exception):
    """Bad input or environment a user can fix. The message names the file, game/item and field."""


# What would break "one line per message" or the printing itself: C0 and C1 controls and DEL (a
# newline or an escape sequence in an id or a file name), the line breaks str.splitlines() also
# honours (U+2028, U+2029), and lone surrogates (a file name with bytes that are not UTF-8).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(text: str) -> str:
    """`text` with those characters written as Python escapes (\\n, \\x1b, \\u2028, \\udcff)."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
