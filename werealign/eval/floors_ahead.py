"""A dataset's first run computes its split and floors in a second process while it imports litellm and sends.

The floors of a run's prompts (werealign.eval.floors: the shortcut models, the context attacks' features, their
cross-fitted training and scikit-learn's import) and the faithful split (werealign.splits) cost seconds of CPU once
per dataset content and code; their caches (werealign.eval.floors_cache, split_cache) serve every later run. They
depend on the dataset and the config, never on a reply, so a run that sends to a model starts, before anything else,
a child that loads the dataset and plans the same run (judging the split, which it caches: the run, importing
litellm meanwhile, finds it there when it plans) and computes the floors (cached too) on the machine's other core
while the run sends. `cached_floors` takes the child's floors only when the child's plan has the run's floors key
(the same prompts, modes, dataset content and code), and computes them itself when the child failed, died or
planned something else. Only time can differ, never a floor or a split.

The child is a fresh interpreter (no fork: litellm's threads may be running) at a lower priority (on a busy machine
the requests come first), writes its answer on stdout and the caches it would write in process, and is killed
when the run ends. WEREALIGN_FLOORS_AHEAD=off computes both in process, as before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from werealign.eval.floors_cache import PENDING, cached_floors, cached_path, floors_key
from werealign.schema.runs import RunConfig

SWITCH_ENV = "WEREALIGN_FLOORS_AHEAD"
WAIT_S = 600.0  # a child this late is stuck: the run computes its floors itself
_OFF = {"0", "off", "false", "no"}


class Ahead:
    """A child process computing one run's floors."""

    def __init__(self, proc: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
        self.proc = proc
        self._stderr = stderr  # a file, not a pipe: a child saying much would stop at a full pipe nobody reads yet

    @property
    def stderr(self) -> bytes:
        """What the child wrote on stderr so far (what a failed child said)."""
        self._stderr.seek(0)
        return self._stderr.read()

    def floors(self, key: str, timeout: float = WAIT_S) -> dict[str, Any] | None:
        """The child's floors if they are `key`'s; None when it failed, was stopped or computed another key's."""
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            return None
        if self.proc.returncode != 0:
            return None
        try:
            answer = json.loads(out)
        except ValueError:
            return None
        if not isinstance(answer, dict) or answer.get("key") != key or not isinstance(answer.get("floors"), dict):
            return None
        return answer["floors"]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()


def enabled() -> bool:
    return os.environ.get(SWITCH_ENV, "").strip().lower() not in _OFF


@contextmanager
def floors_ahead(config: RunConfig) -> Iterator[Ahead | None]:
    """Start a child planning the run `config` describes and computing its floors (None: switched off, or it could not
    start); the child is stopped when the block ends (the run took its floors by then, or failed)."""
    if not enabled():
        yield None
        return
    root = str(Path(__file__).resolve().parents[2])  # the werealign this process runs, first on the child's path
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])]))
    as_run = RunConfig(**dict(config)).model_dump_json()  # as run.json records it (no secret: credentials stay in the environment)
    with tempfile.TemporaryFile() as stderr:
        try:
            proc = subprocess.Popen([sys.executable, "-m", "werealign.eval.floors_ahead", as_run],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, env=env)
        except OSError:
            yield None
            return
        ahead = Ahead(proc, stderr)
        PENDING.append(ahead)  # the run's cached_floors takes it
        try:
            yield ahead
        finally:
            if ahead in PENDING:
                PENDING.remove(ahead)
            ahead.stop()


def _child() -> None:
    """Plan the run the config in argv[1] describes and print {"key", "floors"} of its floors (nothing else on stdout)."""
    if hasattr(os, "nice"):
        os.nice(10)
    config_json = sys.argv[1]
    out, sys.stdout = sys.stdout, sys.stderr  # whatever the planning prints stays off the answer
    from werealign.dataset import load_dataset
    from werealign.dataset.refs import dataset_path
    from werealign.eval.plan import plan_run
    from werealign.eval.rundir import dataset_record

    config = RunConfig.model_validate_json(config_json)
    ds = load_dataset(dataset_path(config.dataset))
    plan = plan_run(ds, config)  # every decode: the shortcut floors read each decode's prompt, as the run scores them
    content = dataset_record(ds, config).content_sha256  # as the run keys them (rundir)
    key = floors_key(plan, config.modes, content)
    cached = cached_path(key)
    if not (cached is not None and cached.exists()):
        # Floors to compute may fit models (the speech floor's context attacks fit with scikit-learn): imported now
        # (2 s), while the run imports litellm and sends nothing yet, rather than when the first fit needs it, in the
        # middle of the run's requests. A run whose floors fit nothing pays it here too, off its own path.
        import sklearn.linear_model  # noqa: F401
    floors = cached_floors(plan, config.modes, content)  # read or computed, and cached, as the run would
    out.write(json.dumps({"key": key, "floors": floors}, ensure_ascii=False))
    out.flush()


if __name__ == "__main__":
    _child()
