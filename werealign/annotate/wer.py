"""Transcript quality: WER and CER (jiwer) of an ASR hypothesis against a gold transcript,
before and after lexicon-based correction of the hypothesis.

Both texts are normalised the same way before scoring: lower-cased, punctuation (ASCII and CJK)
removed, whitespace collapsed. For CER on Chinese, whitespace is removed as well: ASR output puts
spaces between digits and characters ("2 号") that are not part of the language. Chinese has no
word spaces, so its WER counts space-separated chunks and is reported only for completeness.

The lexicon maps what the ASR wrote to what was said: nicknames -> seat numbers, mis-heard game
terms. Replacements are applied to the hypothesis only, longest entry first, in one pass (a
replacement is never rewritten again). They work on the normalised hypothesis, with normalised
entries, so case and punctuation do not matter ("Seed" matches the entry "seed"). An entry whose
first (last) character is a Latin letter or a digit only matches where the text has no Latin letter
or digit just before (after) it: "two" does not rewrite "network", "2" does not rewrite "12". CJK
edges match anywhere, since Chinese is written without spaces ("二少" in "二少是狼").
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from werealign.annotate.transcript import plain_text
from werealign.errors import UserError
from werealign.files import read_text

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def guess_language(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "en"
    return "zh" if sum(1 for c in letters if _CJK.match(c)) / len(letters) > 0.3 else "en"


def normalise(text: str) -> str:
    text = "".join(" " if unicodedata.category(c).startswith("P") or unicodedata.category(c).startswith("S") else c for c in text.lower())
    return " ".join(text.split())


def _char_text(text: str, language: str) -> str:
    return text.replace(" ", "") if language == "zh" else text


def _entry_problem(wrong: str, right: str, seen: dict[str, str]) -> str | None:
    """Why a lexicon entry cannot be applied (entries are matched normalised), or None; `seen` collects them."""
    key = normalise(wrong)
    if not key:
        return f"entry {wrong!r} has nothing left to match after normalisation (punctuation only)"
    if seen.setdefault(key, normalise(right)) != normalise(right):
        return f"entry {wrong!r} is {key!r} after normalisation, like an earlier entry with another correction"
    return None


def load_lexicon(path: Path) -> dict[str, str]:
    """YAML mapping {wrong: right} or TSV lines 'wrong<TAB>right' ('#' starts a comment line)."""
    seen: dict[str, str] = {}
    if path.suffix.lower() in (".tsv", ".txt"):
        text = read_text(path, "TSV lexicon", encoding="utf-8-sig")  # a BOM would glue onto the first entry
        lexicon: dict[str, str] = {}
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[0].strip():
                raise UserError(f"{path}:{lineno}: expected 'wrong<TAB>right'")
            wrong, right = parts[0].strip(), parts[1].strip()
            problem = _entry_problem(wrong, right, seen)
            if problem:
                raise UserError(f"{path}:{lineno}: {problem}")
            lexicon[wrong] = right
        return lexicon
    from werealign.annotate.config import read_yaml

    data, source = read_yaml(path)
    if not isinstance(data, dict):
        raise source.error((), "a lexicon is a mapping of wrong -> right")
    for key, value in data.items():
        if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(key).strip():
            raise source.error((str(key),), "each entry maps a non-empty string to a string")
        problem = _entry_problem(str(key), str(value), seen)
        if problem:
            raise source.error((str(key),), problem)
    return {str(k): str(v) for k, v in data.items()}


# Characters that make up a word in a spaced script: a lexicon entry must not match inside one.
_WORD_CHARS = "0-9A-Za-z\u00c0-\u024f\u1e00-\u1eff"
_WORD_CHAR = re.compile(f"[{_WORD_CHARS}]")


def _entry_pattern(key: str) -> str:
    before = f"(?<![{_WORD_CHARS}])" if _WORD_CHAR.match(key[0]) else ""
    after = f"(?![{_WORD_CHARS}])" if _WORD_CHAR.match(key[-1]) else ""
    return before + re.escape(key) + after


def apply_lexicon(text: str, lexicon: dict[str, str]) -> tuple[str, int]:
    """The normalised text, corrected, and the number of replacements made (rules in the module docstring)."""
    entries: dict[str, str] = {}
    for wrong, right in lexicon.items():
        problem = _entry_problem(wrong, right, entries)
        if problem:  # load_lexicon names the file and line; this is for a lexicon built in code
            raise ValueError(f"lexicon {problem}")
    text = normalise(text)
    if not entries:
        return text, 0
    keys = sorted(entries, key=lambda k: (-len(k), k))
    pattern = re.compile("|".join(_entry_pattern(k) for k in keys))
    count = 0

    def swap(m: re.Match) -> str:
        nonlocal count
        count += 1
        return entries[m.group(0)]

    return pattern.sub(swap, text), count


def score(reference: str, hypothesis: str, language: str) -> dict[str, Any]:
    import jiwer

    ref, hyp = normalise(reference), normalise(hypothesis)
    if not ref:
        raise UserError("the reference transcript is empty after normalisation")
    words = jiwer.process_words(ref, hyp if hyp else "")
    chars = jiwer.process_characters(_char_text(ref, language), _char_text(hyp, language) if hyp else "")
    return {
        "wer": words.wer,
        "cer": chars.cer,
        "word_errors": {"substitutions": words.substitutions, "deletions": words.deletions, "insertions": words.insertions, "hits": words.hits},
        "char_errors": {"substitutions": chars.substitutions, "deletions": chars.deletions, "insertions": chars.insertions, "hits": chars.hits},
    }


def wer_report(gold: str, hyp: str, lexicon: dict[str, str] | None = None, language: str | None = None) -> dict[str, Any]:
    language = language or guess_language(gold)
    if language not in ("zh", "en"):
        raise UserError(f"--language: expected zh or en, got {language!r}")
    ref = normalise(gold)
    out: dict[str, Any] = {
        "language": language,
        "reference_words": len(ref.split()),
        "reference_chars": len(_char_text(ref, language)),
        "before": score(gold, hyp, language),
    }
    if lexicon is not None:
        corrected, n = apply_lexicon(hyp, lexicon)
        out["after"] = {**score(gold, corrected, language), "replacements": n}
    return out


def wer_from_files(gold: Path, hyp: Path, lexicon: Path | None = None, language: str | None = None) -> dict[str, Any]:
    gold_text = plain_text(gold)
    if not normalise(gold_text):
        raise UserError(f"{gold}: the reference transcript has no text")
    return wer_report(gold_text, plain_text(hyp), load_lexicon(lexicon) if lexicon else None, language)
