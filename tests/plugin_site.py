"""A package "installed" for one test: a dist-info on a path entry, naming werealign entry points.

importlib.metadata finds a distribution by its dist-info folder on sys.path, exactly as pip leaves it, so a
plug-in registered this way goes through the same discovery as a real installed package, and nothing is
installed into the environment.
"""

from __future__ import annotations

from pathlib import Path


def plugin_site(root: Path, name: str, entry_points: dict[str, dict[str, str]]) -> Path:
    """Write `<root>/<name>-0.1.dist-info` declaring `entry_points` (group -> entry name -> 'module:attr'); return root."""
    info = root / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    text = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in names.items()) + "\n" for group, names in entry_points.items())
    (info / "entry_points.txt").write_text(text, encoding="utf-8")
    return root
