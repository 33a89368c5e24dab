"""The single place litellm is imported.

litellm downloads a model price list at import time unless told to use its bundled copy; the
environment variable must be set before the first import, so every caller goes through here.
"""

from __future__ import annotations

import gc
import os
import sys
from types import ModuleType


def import_litellm() -> ModuleType:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    if "litellm" not in sys.modules:
        _first_import()
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


def _first_import() -> None:
    """Import litellm with the garbage collector paused: the import creates some 400,000 tracked objects (modules,
    classes, price tables) that live as long as the process, and collecting while they are created walked
    them again and again: ~0.7 s of a ~3 s import on two cores. The collector runs as before afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        import litellm  # noqa: F401
    finally:
        if enabled:
            gc.enable()
