"""The response cache shared across run directories, so a request already paid for is not paid again.

Widening `--tasks`, adding a variant or choosing a new `--out` plans many requests another run already
sent. Before sending, a run copies every successful cached reply for its missing requests into its own
responses.sqlite, which stays the source of truth of the run (a run directory is complete without the
cache); every new successful reply is added to the cache as it arrives.

- Location: `$WEREALIGN_CACHE_DIR/responses.sqlite`, by default the user cache directory
  (`$XDG_CACHE_HOME/werealign`, else `~/.cache/werealign`).
- Off: `werealign eval --no-cache`, or `WEREALIGN_CACHE=off` (also 0, false, no) in the environment.
- Keyed like the store (model, sampling params, messages, decode) plus the endpoint (`--api-base`), so two
  servers answering to the same model name never share replies. Only successes are cached; no secret
  is part of a key or a row (the request is stored as sent, minus transport settings).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from werealign.llm.store import STORE_NAME, Store, StoredResponse

CACHE_DIR_ENV = "WEREALIGN_CACHE_DIR"
CACHE_SWITCH_ENV = "WEREALIGN_CACHE"
_OFF = {"0", "off", "false", "no"}


def cache_enabled() -> bool:
    return os.environ.get(CACHE_SWITCH_ENV, "").strip().lower() not in _OFF


def worth_caching(model: str) -> bool:
    """Whether `model`'s replies are worth keeping for other runs: not a model answered in process (a baseline:
    free, and faster to answer again than to look up)."""
    from werealign.llm.builtin_models import answers_in_process

    return not answers_in_process(model)


def cache_path() -> Path:
    """Where the shared cache lives (see the module docstring for the order of precedence)."""
    if os.environ.get(CACHE_DIR_ENV):
        return Path(os.environ[CACHE_DIR_ENV]) / STORE_NAME
    base = Path(os.environ["XDG_CACHE_HOME"]) if os.environ.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "werealign" / STORE_NAME


class ResponseCache:
    """The shared cache for one endpoint: request keys in, stored replies out. Use as a context manager."""

    def __init__(self, endpoint: str | None, path: Path | None = None) -> None:
        self.path = path or cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._endpoint = endpoint or ""
        self._store = Store(self.path)

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._store.close()

    def _key(self, request_key: str) -> str:
        return hashlib.sha256(f"{self._endpoint}\0{request_key}".encode()).hexdigest()

    def lookup(self, request_keys: Iterable[str]) -> dict[str, StoredResponse]:
        """Cached successes by request key, ready to be put into a run's store."""
        by_cache_key = {self._key(k): k for k in request_keys}
        found = self._store.ok_rows(by_cache_key)
        return {by_cache_key[ck]: replace(row, key=by_cache_key[ck]) for ck, row in found.items()}

    def add(self, row: StoredResponse) -> None:
        if row.ok:
            self._store.put(replace(row, key=self._key(row.key)))
