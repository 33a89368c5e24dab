"""The evaluation prompt templates: `templates/<lang>/<name>.<version>.j2` beside this module (inside the
package so they ship in the wheel), their rendering, and the language a game is asked in.

Bump PROMPT_VERSION (and add new `*.v2.j2` files) whenever the wording changes meaningfully;
`templates_hash()` goes into run.json so any change, even an unversioned one, is visible.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from werealign.schema.models import TELLING_ORDER
from werealign.render.phrases import PHRASES

if TYPE_CHECKING:
    import jinja2

PROMPT_VERSION = "v1"
FALLBACK_LANGUAGE = "en"


def templates_root():
    return resources.files("werealign.render") / "templates"


def templates_hash() -> str:
    """sha256 over every template file (relative name + bytes) and the phrase tables."""
    h = hashlib.sha256()
    root = templates_root()
    files: list[tuple[str, bytes]] = []
    for lang_dir in sorted(root.iterdir(), key=lambda p: p.name):
        if not lang_dir.is_dir():
            continue
        for f in sorted(lang_dir.iterdir(), key=lambda p: p.name):
            if f.name.endswith(".j2"):
                files.append((f"{lang_dir.name}/{f.name}", f.read_bytes()))
    for name, data in files:
        h.update(name.encode() + b"\0" + data + b"\0")
    # Sentences rendered outside the templates (event lines, role names, rules summary) and the order
    # events are told in shape prompts too. The label is the one these tables were first hashed under
    # (when they lived in werealign.context), so the hash of unchanged wording stays the same.
    phrases = {**PHRASES, "telling_order": TELLING_ORDER}
    h.update(b"context.PHRASES\0" + json.dumps(phrases, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_root())),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render_template(lang: str, name: str, **kw: Any) -> str:
    return tidy(render_raw(lang, name, **kw))


def render_raw(lang: str, name: str, **kw: Any) -> str:
    """The template's output before `tidy` (render_template = tidy(render_raw(...)))."""
    return _env().get_template(f"{lang}/{name}.{PROMPT_VERSION}.j2").render(**kw)


def tidy(text: str) -> str:
    """Collapse runs of blank lines left by optional sections; prompts stay byte-stable."""
    lines = [ln.rstrip() for ln in text.strip().splitlines()]
    out: list[str] = []
    for ln in lines:
        if ln == "" and out and out[-1] == "":
            continue
        out.append(ln)
    return "\n".join(out)


def template_language(language: str) -> str:
    """The template set a game of this language is asked in: its own when the package has one, else English."""
    return language if language in template_languages() else FALLBACK_LANGUAGE


@lru_cache(maxsize=1)
def template_languages() -> frozenset[str]:
    return frozenset(d.name for d in templates_root().iterdir() if d.is_dir() and (d / f"vote.{PROMPT_VERSION}.j2").is_file())


def fallback_notices(languages: Iterable[str]) -> list[str]:
    """One line per language that has no template set, so a run says its prompts are in English instead of doing it silently."""
    return [f"language '{lang}': no prompt templates in that language; its items are asked with the English templates"
            for lang in sorted(set(languages)) if template_language(lang) != lang]
