"""A dataset's first run computes its floors in a second process while its requests are sent.

The floors of a run's prompts (werealign.eval.floors: the shortcut models, the context attacks' features, their
cross-fitted training and scikit-learn's import) cost seconds of CPU once per dataset content and code; the floors
cache (werealign.eval.floors_cache) serves every later run. They depend on the dataset and the config, never on a
reply, so when they are not cached a run that sends to a model starts a child that plans the same run again and
computes them on the machine's other core while this process sends; `cached_floors` takes the child's floors when
the child's plan has the run's floors key (the same prompts, modes, dataset content and code), and computes them
itself when the child failed, died or planned something else. Only time can differ, never a floor.

The child is a fresh interpreter (no fork: litellm's threads may be running) at a lower priority (on a busy machine
the requests come first), writes nothing but its answer on stdout, and is killed when the run ends without asking
for it. WEREALIGN_FLOORS_AHEAD=off computes the floors in process, at the end, as before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from werealign.eval.plan import Planned
from werealign.schema.runs import RunConfig

SWITCH_ENV = "WEREALIGN_FLOORS_AHEAD"
WAIT_S = 600.0  # a child this late is stuck: the run computes its floors itself
_OFF = {"0", "off", "false", "no"}
_RUNNING: dict[str, Ahead] = {}  # floors key -> the child computing those floors


class Ahead:
    """A child process computing one run's floors."""

    def __init__(self, key: str, proc: subprocess.Popen[bytes]) -> None:
        self.key = key
        self.proc = proc
        self.stderr = b""  # the child's, once it ended (what a failed child said)

    def floors(self, timeout: float = WAIT_S) -> dict[str, Any] | None:
        """The child's floors; None when it failed, was stopped or computed another key's."""
        try:
            out, self.stderr = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            return None
        if self.proc.returncode != 0:
            return None
        try:
            answer = json.loads(out)
        except ValueError:
            return None
        if not isinstance(answer, dict) or answer.get("key") != self.key or not isinstance(answer.get("floors"), dict):
            return None
        return answer["floors"]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.stderr = self.proc.communicate()[1] or self.stderr


def enabled() -> bool:
    return os.environ.get(SWITCH_ENV, "").strip().lower() not in _OFF


def take(key: str) -> Ahead | None:
    """The child computing the floors of `key`, handed over once (floors_cache asks for it)."""
    return _RUNNING.pop(key, None)


@contextmanager
def floors_ahead(plan: Sequence[Planned], config: RunConfig, content_sha256: str) -> Iterator[Ahead | None]:
    """Start a child computing `plan`'s floors, unless they are cached or the run would not gain from it; the child
    is stopped when the block ends (the run asked for its floors by then, or failed)."""
    from werealign.eval.floors_cache import cached_path, floors_key

    key = floors_key(plan, config.modes, content_sha256)
    path = cached_path(key)
    if not enabled() or not any(p.decode == 0 for p in plan) or (path is not None and path.exists()):
        yield None
        return
    root = str(Path(__file__).resolve().parents[2])  # the werealign this process runs, first on the child's path
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]))
    try:  # the config (no secret: credentials stay in the environment) as the child's argument
        proc = subprocess.Popen([sys.executable, "-m", "werealign.eval.floors_ahead", config.model_dump_json()],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    except OSError:
        yield None
        return
    ahead = _RUNNING[key] = Ahead(key, proc)
    try:
        yield ahead
    finally:
        _RUNNING.pop(key, None)
        ahead.stop()


def _child() -> None:
    """Plan the run the config in argv[1] describes and print {"key", "floors"} of its floors (nothing else on stdout)."""
    if hasattr(os, "nice"):
        os.nice(10)
    config_json = sys.argv[1]
    out, sys.stdout = sys.stdout, sys.stderr  # whatever the planning prints stays off the answer
    from werealign.dataset import load_dataset
    from werealign.dataset.refs import dataset_path
    from werealign.eval.floors import run_floors
    from werealign.eval.floors_cache import floors_key
    from werealign.eval.plan import plan_run
    from werealign.eval.rundir import dataset_record

    config = RunConfig.model_validate_json(config_json)
    ds = load_dataset(dataset_path(config.dataset))
    plan = plan_run(ds, config)
    key = floors_key(plan, config.modes, dataset_record(ds, config).content_sha256)  # as the run keys them (rundir)
    out.write(json.dumps({"key": key, "floors": run_floors(plan, config.modes)}, ensure_ascii=False))
    out.flush()


if __name__ == "__main__":
    _child()
