"""The in-process CLI runner (tests/cli_inproc.py) gives what a subprocess would, and leaves the test process as it was."""

from __future__ import annotations

import logging
import os
import signal
import sys

import pytest
from cli_inproc import litellm_blocked, run_cli


def test_exit_codes_and_streams_are_those_of_the_command(tmp_path):
    ok = run_cli("--version")
    assert (ok.returncode, ok.stderr) == (0, "") and ok.stdout.startswith("werealign ")
    bad = run_cli("validate", tmp_path / "nope.json")
    assert bad.returncode == 1 and bad.stdout == "" and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1
    usage = run_cli("validate", "--format")  # click's own usage error: exit 2, on stderr
    assert usage.returncode == 2 and "--format" in usage.stderr


def test_env_argv_cwd_and_sigterm_handler_are_restored(tmp_path, monkeypatch):
    monkeypatch.delenv("WEREALIGN_PROBE", raising=False)
    before = (dict(os.environ), list(sys.argv), os.getcwd(), signal.getsignal(signal.SIGTERM))
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    r = run_cli("validate", "broken.json", env={"WEREALIGN_PROBE": "1"}, cwd=tmp_path)
    assert r.returncode == 1 and r.stdout.startswith("broken.json:1: ") and "invalid JSON" in r.stdout  # found from cwd
    assert (dict(os.environ), list(sys.argv), os.getcwd(), signal.getsignal(signal.SIGTERM)) == before


def test_log_lines_of_loggers_made_earlier_are_captured(monkeypatch):
    logger = logging.getLogger("werealign-test-cli-inproc")
    handler = logging.StreamHandler(sys.stderr)  # bound to the stderr of its day, as a library's handler is
    logger.addHandler(handler)
    try:
        from werealign import cli

        def noisy():
            logger.warning("a warning from a library")
            raise SystemExit(0)

        monkeypatch.setattr(cli, "app", noisy)
        r = run_cli("anything")
        assert r.returncode == 0 and "a warning from a library" in r.stderr
        assert handler.stream is sys.stderr  # given back
    finally:
        logger.removeHandler(handler)


def test_a_handler_reading_stderr_at_each_record_is_left_alone(monkeypatch):
    # logging.lastResort, attached to a logger by some library: its stream cannot be set, and needs not be
    logger = logging.getLogger("werealign-test-cli-inproc-last-resort")
    logger.addHandler(logging.lastResort)
    try:
        from werealign import cli

        def noisy():
            logger.warning("a last-resort warning")
            raise SystemExit(0)

        monkeypatch.setattr(cli, "app", noisy)
        r = run_cli("anything")
        assert r.returncode == 0 and "a last-resort warning" in r.stderr
    finally:
        logger.removeHandler(logging.lastResort)


def test_litellm_blocked_makes_every_import_fail_and_restores():
    had = "litellm" in sys.modules
    with litellm_blocked(), pytest.raises(ImportError):
        import litellm  # noqa: F401
    assert ("litellm" in sys.modules) == had and sys.modules.get("litellm", object()) is not None
