"""Run the `werealign` command in this process, as a test would run it in a subprocess.

It calls the real `werealign.cli.main` (argument parsing, one-line errors, exit codes, the SIGTERM handler)
with stdout and stderr captured, and returns a `subprocess.CompletedProcess` like `subprocess.run(...,
capture_output=True, text=True)` does. A fresh interpreter costs about a second, and one that imports litellm
(any eval, built-ins included) five seconds of CPU: in-process, litellm is imported once per test session.
Only what needs a real process (signals, kill -9, a fresh interpreter's imports) still spawns one.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

_ABSENT = object()


@contextlib.contextmanager
def litellm_blocked() -> Iterator[None]:
    """Any `import litellm` fails inside (the in-process twin of a subprocess started with litellm removed)."""
    saved = sys.modules.get("litellm", _ABSENT)
    sys.modules["litellm"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if saved is _ABSENT:
            del sys.modules["litellm"]
        else:
            sys.modules["litellm"] = saved


@contextlib.contextmanager
def _log_handlers_to(out: io.StringIO, err: io.StringIO) -> Iterator[None]:
    """Log handlers made earlier hold the stdout/stderr of their day: point them at the capture for the call, as a
    process's fd 1/2 would catch them. (litellm's picks sys.stdout/sys.stderr at each record: redirect catches it.)"""
    moved = []
    std = {id(sys.stdout): out, id(sys.__stdout__): out, id(sys.stderr): err, id(sys.__stderr__): err}
    for logger in [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]:
        for h in getattr(logger, "handlers", []):
            # logging.lastResort's class reads sys.stderr at each record (a read-only property): caught by redirect
            if isinstance(getattr(type(h), "stream", None), property):
                continue
            if isinstance(h, logging.StreamHandler) and id(h.stream) in std:
                moved.append((h, h.setStream(std[id(h.stream)])))
    try:
        yield
    finally:
        for h, stream in moved:
            h.setStream(stream)


def run_cli(*args: str | Path, env: dict[str, str] | None = None, block_litellm: bool = False,
            cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`werealign ARGS` in-process: (returncode, stdout, stderr); `env` is added to os.environ for the call only."""
    from werealign.cli import main

    argv = ["werealign", *map(str, args)]
    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_argv, saved_term = os.environ.copy(), sys.argv, signal.getsignal(signal.SIGTERM)
    os.environ.update(env or {})
    sys.argv = argv
    code: int | str | None = 0
    try:
        with contextlib.ExitStack() as stack:
            stack.enter_context(_log_handlers_to(out, err))
            stack.enter_context(contextlib.redirect_stdout(out))
            stack.enter_context(contextlib.redirect_stderr(err))
            if cwd is not None:
                stack.enter_context(contextlib.chdir(cwd))
            if block_litellm:
                stack.enter_context(litellm_blocked())
            try:
                main()
            except SystemExit as e:  # main() always ends with sys.exit
                code = e.code
    finally:
        sys.argv = saved_argv
        signal.signal(signal.SIGTERM, saved_term)  # main() installs its own handler
        os.environ.clear()
        os.environ.update(saved_env)
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): printed to stderr, status 1, as in a real process
        err.write(f"{code}\n")
        code = 1
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())
