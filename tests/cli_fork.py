"""`werealign ARGS` in a forked child: a process of its own, for the tests that kill one with SIGKILL mid-run.

What those tests prove is a process's death (its store, its half-written run directory, what a rerun pays), not an
interpreter's start: a fresh interpreter imports werealign and litellm again (~5 s of CPU on this machine, more than
the whole run it is killed in). A fork inherits them. The child runs the real entry point (`werealign.cli.main`, as
`python -c "...main()"` did) with its output thrown away, and leaves by `os._exit`: never through the parent's
pytest, atexit handlers or buffered files. Callers fork between runs, never while an event loop of theirs runs.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path


class Forked:
    """A forked `werealign` child: poll, kill -9, wait, like a subprocess.Popen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)


def fork_cli(*args: str | Path, env: dict[str, str] | None = None, litellm: bool = True) -> Forked:
    """Start `werealign ARGS` in a forked child with `env` added to its environment. With `litellm` (a command that
    sends through it), this process imports litellm first, once: the child inherits it, and the test's own reruns
    in this process need it anyway."""
    from werealign.cli import main

    if litellm:
        from werealign.llm.loader import import_litellm

        import_litellm()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # nothing buffered here is written twice by the child
    pid = os.fork()
    if pid:
        return Forked(pid)
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        # pytest's capture replaced sys.stdout/sys.stderr with files of its own: the child writes to neither
        sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the child ends by os._exit
        os.environ.update(env or {})
        sys.argv = ["werealign", *map(str, args)]
        try:
            main()
            code = 0
        except SystemExit as e:  # main() always ends with sys.exit
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os._exit(code)
