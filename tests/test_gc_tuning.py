"""The collector is tuned once the CLI starts (werealign.gc_tuning): fewer young collections, cycles still collected."""

from __future__ import annotations

import gc
import sys

import pytest

from werealign import cli
from werealign.gc_tuning import YOUNG_THRESHOLD, collect_less


@pytest.fixture
def restored_gc():
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)


def test_collect_less_raises_the_young_threshold_and_cycles_are_still_collected(restored_gc):
    gc.set_threshold(700, 10, 10)
    collect_less()
    collect_less()  # idempotent
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)  # the older generations' ratios are kept
    frozen = gc.get_freeze_count()
    garbage = []
    garbage.append(garbage)
    del garbage
    assert gc.collect() >= 1 and gc.get_freeze_count() == frozen  # the cycle is freed; nothing was frozen


def test_the_cli_tunes_the_collector_before_running_a_command(restored_gc, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(cli, "collect_less", lambda: calls.append(gc.get_threshold()))
    monkeypatch.setattr(sys, "argv", ["werealign", "--version"])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code == 0 and len(calls) == 1 and capsys.readouterr().out.strip()
