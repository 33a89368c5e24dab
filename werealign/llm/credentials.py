"""Find a missing provider key before any request is sent, and name the environment variable.

Without this check every request fails the same way (litellm reports a missing key as a server error)
and only the summary says so. litellm knows which variables each provider reads
(`litellm.validate_environment`); only API keys are insisted on: a provider may find other settings
elsewhere (AWS profiles, gcloud credentials, a default local endpoint for ollama), and an explicit
`--api-base` endpoint may need no key at all (a local vLLM or llama.cpp server).
"""

from __future__ import annotations

import os

from werealign.errors import UserError


def missing_api_keys(model: str, api_base: str | None = None) -> list[str]:
    """The API-key variables litellm needs for `model` and the environment lacks ([] when none or unknown)."""
    from werealign.llm.builtin_models import is_builtin
    from werealign.llm.loader import import_litellm

    if is_builtin(model) or api_base:
        return []
    try:
        report = import_litellm().validate_environment(model=model)
    except Exception:  # noqa: BLE001 - a model litellm cannot route is check_model_name's message
        return []
    if report.get("keys_in_environment"):
        return []
    return [k for k in report.get("missing_keys", []) if "API_KEY" in k and not os.environ.get(k)]


def check_credentials(model: str, api_base: str | None = None) -> None:
    missing = missing_api_keys(model, api_base)
    if missing:
        raise UserError(
            f"--model {model}: {' or '.join(missing)} is not set; litellm reads the provider's key from the "
            f"environment (export {missing[0]}=...); nothing was sent"
        )
