"""The `werealign` process ends without the interpreter's teardown (werealign.cli._exit), and that skips nothing a
command or a library asked for: exit handlers run, buffered output is flushed, the exit code is the command's, a
thread still running is waited for; called in a longer-lived process (a test), main() raises SystemExit as before."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent("""
    import atexit, sys, threading, time
    from werealign.cli import main
    atexit.register(lambda: print("exit handler ran"))
    print("buffered " * 2000)  # more than a line: still in the buffer when the process ends
    if sys.argv[1] == "thread":
        threading.Thread(target=lambda: (time.sleep(0.5), print("thread finished"))).start()
    sys.argv = ["werealign", *sys.argv[2:]]
    main()
""")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("args", "code"), [(("--version",), 0), (("no-such-command",), 2), (("eval", "--dataset", "/nowhere/x"), 1)])
def test_the_process_ends_with_the_commands_code_its_output_and_exit_handlers(args: tuple[str, ...], code: int) -> None:
    done = _run("plain", *args)
    assert done.returncode == code, done.stderr
    assert done.stdout.count("buffered") == 2000 and done.stdout.rstrip().endswith("exit handler ran")


def test_a_thread_still_running_is_waited_for() -> None:
    done = _run("thread", "--version")
    assert done.returncode == 0 and "thread finished" in done.stdout and "exit handler ran" in done.stdout


def test_main_in_a_longer_lived_process_raises_system_exit(monkeypatch) -> None:
    from werealign.cli import main

    monkeypatch.setattr(sys, "argv", ["werealign", "--version"])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code in (0, None)
