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
    frozen, young = gc.get_freeze_count(), []
    gc.callbacks.append(seen := lambda phase, info: young.append(info["generation"]) if phase == "stop" else None)
    try:
        for _ in range(2 * YOUNG_THRESHOLD):  # cycles only the collector frees, made past the raised threshold
            garbage: list = []
            garbage.append(garbage)
    finally:
        gc.callbacks.remove(seen)
    assert young and gc.isenabled(), "the collector still runs on its own"
    assert gc.get_freeze_count() == frozen  # nothing was frozen


def test_the_cli_tunes_the_collector_before_running_a_command(restored_gc, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(cli, "collect_less", lambda: calls.append(gc.get_threshold()))
    monkeypatch.setattr(sys, "argv", ["werealign", "--version"])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    assert ended.value.code == 0 and len(calls) == 1 and capsys.readouterr().out.strip()
