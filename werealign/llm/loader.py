"""The single place litellm is imported.

litellm downloads a model price list at import time unless told to use its bundled copy; the
environment variable must be set before the first import, so every caller goes through here.
"""

from __future__ import annotations

import os
from types import ModuleType


def import_litellm() -> ModuleType:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm
