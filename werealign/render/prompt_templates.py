"""The evaluation prompt templates: `templates/<lang>/<name>.<version>.j2` beside this module (inside the
package so they ship in the wheel), their rendering, and the language a game is asked in.

Bump PROMPT_VERSION (and add new `*.v2.j2` files) whenever the wording changes meaningfully;
`templates_hash()` goes into run.json so any change, even an unversioned one, is visible.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from werealign.errors import UserError
from werealign.schema.models import TELLING_ORDER
from werealign.render.phrases import families
from werealign.render.phrases import PHRASES

if TYPE_CHECKING:
    import jinja2

PROMPT_VERSION = "v1"
FALLBACK_LANGUAGE = "en"


def templates_root():
    return resources.files("werealign.render") / "templates"


def templates_hash(extra_roots: Iterable[Any] = ()) -> str:
    """sha256 over every template file (relative name + bytes) and the phrase tables, then over the
    templates of other packages' task kinds (`extra_roots`, their `Task.templates`) when a run asks them."""
    h = hashlib.sha256()
    for name, data in _template_files(templates_root()):
        h.update(name.encode() + b"\0" + data + b"\0")
    # Sentences rendered outside the templates (event lines, role names, rules summary) and the order
    # events are told in shape prompts too. The label is the one these tables were first hashed under
    # (when they lived in werealign.context), so the hash of unchanged wording stays the same.
    phrases = {**PHRASES, "telling_order": TELLING_ORDER, **({"families": families()} if families() else {})}
    h.update(b"context.PHRASES\0" + json.dumps(phrases, sort_keys=True, ensure_ascii=False).encode())
    for root in sorted({str(r) for r in extra_roots}):
        for name, data in _template_files(Path(root)):
            h.update(b"task-templates\0" + name.encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def solver_templates_hash() -> str:
    """sha256 over the solvers' step templates (`<lang>/solvers/*.j2`): kept apart from templates_hash so a
    run with the default solver, which never renders them, keeps its identity when a step's wording changes."""
    h = hashlib.sha256()
    root = templates_root()
    for lang_dir in sorted((d for d in root.iterdir() if d.is_dir() and (d / "solvers").is_dir()), key=lambda p: p.name):
        for name, data in _template_files(lang_dir):
            if name.startswith("solvers/"):
                h.update(f"{lang_dir.name}/{name}".encode() + b"\0" + data + b"\0")
    return h.hexdigest()


def _template_files(root: Any) -> list[tuple[str, bytes]]:
    """(lang/name, bytes) of the templates directly in root's language folders, by name."""
    files: list[tuple[str, bytes]] = []
    for lang_dir in sorted(root.iterdir(), key=lambda p: p.name):
        if not lang_dir.is_dir():
            continue
        for f in sorted(lang_dir.iterdir(), key=lambda p: p.name):
            if f.name.endswith(".j2"):
                files.append((f"{lang_dir.name}/{f.name}", f.read_bytes()))
    return files


@cache
def _env(search: str | None = None) -> jinja2.Environment:
    """werealign's templates, after `search` (another package's task templates) when given: a template
    there may include werealign's shared parts (en/context.v1.j2)."""
    import jinja2

    own = jinja2.FileSystemLoader(str(templates_root()))
    return jinja2.Environment(
        loader=own if search is None else jinja2.ChoiceLoader([jinja2.FileSystemLoader(search), own]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render_template(lang: str, name: str, search: Any = None, **kw: Any) -> str:
    """Render `<lang>/<name>.<version>.j2`, looked up first in `search` (a folder) when given."""
    return tidy(render_raw(lang, name, search, **kw))


def render_raw(lang: str, name: str, search: Any = None, **kw: Any) -> str:
    """The template's output before `tidy` (render_template = tidy(render_raw(...)))."""
    import jinja2

    file = f"{lang}/{name}.{PROMPT_VERSION}.j2"
    try:
        template = _env(None if search is None else str(search)).get_template(file)
    except jinja2.TemplateNotFound:
        where = f"{search} or werealign's templates" if search is not None else "werealign's templates"
        raise UserError(f"no prompt template {file} in {where}: a task kind needs one per language it is asked in") from None
    return template.render(**kw)


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
