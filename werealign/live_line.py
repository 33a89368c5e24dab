"""How progress is shown, shared by `eval` and `generate` (which do not import each other).

- `display_mode`: on a terminal a live display, in a pipe or a log occasional plain lines, with --quiet
  nothing.
- `start_live` / `stop_live`: a rich Live display on stderr, refreshed 4 times a second and gone when
  stopped (transient), so a finished run leaves only its summary on the screen.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Literal

Mode = Literal["live", "lines", "off"]


def display_mode(quiet: bool) -> Mode:
    if quiet:
        return "off"
    return "live" if sys.stderr.isatty() else "lines"


def start_live(get_renderable: Callable[[], Any]) -> Any:
    from rich.console import Console
    from rich.live import Live

    live = Live(get_renderable=get_renderable, console=Console(stderr=True), refresh_per_second=4, transient=True)
    live.start()
    return live


def stop_live(live: Any) -> None:
    if live is not None:
        live.stop()
