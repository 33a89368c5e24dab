"""Help reads at 80 columns: no line longer, no type placeholders, flags as flags, readers default alike."""

from __future__ import annotations

import re

import pytest
import typer
from cli_inproc import run_cli

from werealign.cli import app


def _commands(group, prefix: tuple[str, ...] = ()):
    yield prefix, group
    if hasattr(group, "commands"):  # a group (typer 0.29 brings its own copy of click)
        for name, sub in group.commands.items():
            yield from _commands(sub, (*prefix, name))


COMMANDS = [path for path, _ in _commands(typer.main.get_command(app))]


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "werealign")
def test_help_fits_80_columns_without_placeholders(path):
    r = run_cli(*path, "--help", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Usage: ")  # the program name is how it was started (werealign, python -m ...)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert not re.search(r"<(list|bool|str|int|float|path)\b", r.stdout, re.I), r.stdout
    assert "…" not in r.stdout and "{" not in r.stdout.splitlines()[0]
    assert not any(ch in r.stdout for ch in "╭│╰")  # plain text: rich boxes cut names at 80 columns


def test_flags_are_shown_as_flags_and_values_with_a_metavar():
    r = run_cli("eval", "--help", env={"COLUMNS": "80"})
    assert re.search(r"^\s+--overwrite\s{2,}\S", r.stdout, re.M)  # no value after a flag
    assert "--permute / --no-permute" in r.stdout
    assert re.search(r"--decodes N\b", r.stdout) and re.search(r"--dataset PATH\b", r.stdout)
    # A whole built-in name, never cut at the column's edge.
    assert "werealign/options-only" in r.stdout.replace("\n", " ")


@pytest.mark.parametrize("command", ["eval", "release", "audit", "generate"])
def test_commands_that_only_read_a_dataset_default_to_the_bundled_sample(command):
    help_text = " ".join(run_cli(command, "--help", env={"COLUMNS": "80"}).stdout.split())
    assert "(default: the bundled sample)" in help_text
