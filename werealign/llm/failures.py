"""When a command that sends requests must fail (--max-failed FRACTION, shared by eval and generate): a run whose
requests all failed, or more than the given share of them, exits 1 instead of reporting an empty success."""

from __future__ import annotations

from werealign.errors import UserError


def check_max_failed(fraction: float | None) -> None:
    if fraction is not None and not 0.0 <= fraction <= 1.0:
        raise UserError(f"--max-failed {fraction}: give a fraction between 0 and 1 (0: any failed request fails the command)")


def failed_too_often(failed: int, total: int, fraction: float | None) -> str | None:
    """Why the command fails, or None. Default (no fraction): only when every request failed."""
    if not total or not failed:
        return None
    if fraction is None:
        return f"every request failed ({failed} of {total})" if failed == total else None
    if failed / total > fraction:
        return f"{failed} of {total} requests failed ({failed / total:.0%}), more than --max-failed {fraction:g}"
    return None
