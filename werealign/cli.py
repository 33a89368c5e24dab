"""The `werealign` command line: the only module that knows every stage (DESIGN.md).

Each command lives in `werealign/commands/<name>.py` and imports its heavy dependencies
(litellm, datasets, pandas, sklearn) inside the function body, so `werealign --help` and the
commands that need no model start fast.
"""

from __future__ import annotations

import inspect
import signal
import sys
import typing
from pathlib import Path

import typer

from werealign.version import __version__
from werealign.commands import analyze, annotate, arena, audit, dataset, derive, eval as eval_cmd, generate, importer, leaderboard, release, restyle, review, validate, view
from werealign.commands import list as list_cmd
from werealign.errors import UserError, one_line
from werealign.gc_tuning import collect_less

app = typer.Typer(
    name="werealign",
    help="Human-aligned benchmarks for social deduction games: build, validate, evaluate, release.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"werealign {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    pass


app.command("validate")(validate.validate_command)
app.command("import")(importer.import_command)
app.command("eval")(eval_cmd.eval_command)
app.command("score")(eval_cmd.score_command)
app.add_typer(annotate.app, name="annotate")
app.add_typer(dataset.app, name="dataset")
app.command("leaderboard")(leaderboard.leaderboard_command)
app.command("release")(release.release_command)
app.command("derive")(derive.derive_command)
app.command("audit")(audit.audit_command)
app.command("generate")(generate.generate_command)
app.command("review")(review.review_command)
app.command("restyle")(restyle.restyle_command)
app.command("view")(view.view_command)
app.command("list")(list_cmd.list_command)
app.command("arena")(arena.arena_command)
app.command("analyze")(analyze.analyze_command)


_METAVARS = {int: "N", float: "NUMBER", str: "TEXT", Path: "PATH"}


def _plain_metavars(typer_app: typer.Typer) -> None:
    """Help at 80 columns shows `--out PATH`, `RUNS...`, a flag as a flag: never typer's `<list[Path]>`.

    Set on every command's parameter declarations (typer.Option/Argument objects, the defaults of
    the command functions), so the help is the same however the app is invoked.
    """
    commands = [c.callback for c in typer_app.registered_commands]
    commands += [typer_app.registered_callback.callback] if typer_app.registered_callback else []
    for callback in commands:
        hints = typing.get_type_hints(callback)
        for name, param in inspect.signature(callback).parameters.items():
            info = param.default
            if not isinstance(info, (typer.models.OptionInfo, typer.models.ArgumentInfo)) or info.metavar:
                continue
            hint = hints.get(name)
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            base = next(iter(typing.get_args(args[0]) if args and typing.get_origin(args[0]) is list else args), hint)
            if base is bool:
                continue  # a flag: --overwrite, --permute/--no-permute
            if isinstance(info, typer.models.ArgumentInfo):
                info.metavar = name.upper()  # the usage line adds "..." to one taking several
            else:
                info.metavar = _METAVARS.get(base, "TEXT")
    for group in typer_app.registered_groups:
        _plain_metavars(group.typer_instance)


def _argument_usage(self: typer.core.TyperArgument) -> str:
    name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
    return name + ("..." if self.nargs != 1 else "")


# typer (pinned 0.29.1) labels each argument with its Python type (`RUNS <list[Path]>`) and writes a
# required one in braces; the metavar above already says what to give.
typer.core.TyperArgument.display_type_rich = lambda self, ctx: None
typer.core.TyperArgument._usage_display_name = _argument_usage
_plain_metavars(app)


def main() -> None:
    collect_less()
    terminated = False

    def on_sigterm(signum: int, frame: object) -> None:
        # By default SIGTERM ends the process on the spot: no `finally` runs, so a half-built output
        # (an import's staging directory) stays behind. Raised as an interruption, it takes the Ctrl-C
        # path instead: clean-ups run and eval says how to resume. A second SIGTERM kills at once,
        # should a clean-up hang.
        # It is handed to whatever handles Ctrl-C right now: inside an eval that is asyncio's
        # handler, which cancels the main task. A KeyboardInterrupt raised here instead can land in
        # a garbage-collector callback, where Python prints "Exception ignored" and drops it, and
        # the eval would run on to the end.
        nonlocal terminated
        terminated = True
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        on_sigint = signal.getsignal(signal.SIGINT)
        if not callable(on_sigint):
            raise KeyboardInterrupt
        on_sigint(signal.SIGINT, frame)

    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        app()  # typer ends with SystemExit, even on Ctrl-C (exit code 130)
    except SystemExit as e:
        code = e.code
    except UserError as e:
        print(f"error: {one_line(str(e))}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    if terminated:
        print("terminated (SIGTERM)", file=sys.stderr)
        code = 128 + signal.SIGTERM  # what a shell reports for a process killed by SIGTERM
    if getattr(sys.modules.get("__main__"), "main", None) is not main:  # called in a longer-lived process (a test)
        sys.exit(code)
    _exit(code)


def _exit(code: object) -> None:
    """sys.exit(code) for a process that ran the command and is done (the `werealign` script, python -m werealign.cli),
    without the interpreter's teardown: freeing every object one by one took 2 s after an eval of the release (the
    dataset, the plan, litellm's modules). The exit handlers still run and the output streams are flushed, as sys.exit
    does; while another thread still runs, sys.exit waits for it as usual."""
    import atexit
    import os
    import threading

    if any(t is not threading.main_thread() and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)
    status = 0 if code is None else code if isinstance(code, int) else 1
    if not isinstance(code, int | None):
        print(code, file=sys.stderr)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing left to say on it
            pass
    os._exit(status & 0xFF)


if __name__ == "__main__":
    main()
