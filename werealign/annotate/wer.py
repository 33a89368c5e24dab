"""Transcript quality: WER and CER (jiwer) of an ASR hypothesis against a gold transcript,
before and after lexicon-based correction of the hypothesis.

Both texts are normalised the same way before scoring: lower-cased, punctuation (ASCII and CJK)
removed, whitespace collapsed. For CER on Chinese, whitespace is removed as well: ASR output puts
spaces between digits and characters ("2 号") that are not part of the language. Chinese has no
word spaces, so its WER counts space-separated chunks and is reported only for completeness.

The lexicon maps what the ASR wrote to what was said: nicknames -> seat numbers, mis-heard game
terms. Replacements are applied to the hypothesis only, longest entry first, in one pass (a
replacement is never rewritten again).
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


def load_lexicon(path: Path) -> dict[str, str]:
    """YAML mapping {wrong: right} or TSV lines 'wrong<TAB>right' ('#' starts a comment line)."""
    if path.suffix.lower() in (".tsv", ".txt"):
        text = read_text(path, "TSV lexicon")
        lexicon: dict[str, str] = {}
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[0].strip():
                raise UserError(f"{path}:{lineno}: expected 'wrong<TAB>right'")
            lexicon[parts[0].strip()] = parts[1].strip()
        return lexicon
    from werealign.annotate.config import read_yaml

    data, source = read_yaml(path)
    if not isinstance(data, dict):
        raise source.error((), "a lexicon is a mapping of wrong -> right")
    for key, value in data.items():
        if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(key).strip():
            raise source.error((str(key),), "each entry maps a non-empty string to a string")
    return {str(k): str(v) for k, v in data.items()}


def apply_lexicon(text: str, lexicon: dict[str, str]) -> tuple[str, int]:
    """The corrected text and the number of replacements made."""
    if not lexicon:
        return text, 0
    keys = sorted(lexicon, key=lambda k: (-len(k), k))
    pattern = re.compile("|".join(re.escape(k) for k in keys))
    count = 0

    def swap(m: re.Match) -> str:
        nonlocal count
        count += 1
        return lexicon[m.group(0)]

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
