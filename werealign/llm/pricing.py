"""What a model's tokens cost, as litellm's price table says: for every `--dry-run` (eval, generate, restyle)."""

from __future__ import annotations

from werealign.llm import builtin_models, loader


def price_per_token(model: str) -> tuple[float, float] | None:
    """(input, output) USD per token as litellm knows it, or None (never guessed); built-ins cost nothing."""
    if builtin_models.is_builtin(model):
        return 0.0, 0.0
    litellm = loader.import_litellm()
    info = litellm.model_cost.get(model) or litellm.model_cost.get(model.split("/", 1)[-1])
    if not info or "input_cost_per_token" not in info:
        return None
    return float(info["input_cost_per_token"]), float(info.get("output_cost_per_token", 0.0))
