"""Write data/schemas/*.schema.json from the pydantic models: `python -m werealign.schema.export [DIR]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from werealign.schema import FILE_MODELS


def json_schemas() -> dict[str, str]:
    """File name -> schema text, exactly as written to disk."""
    return {
        f"{kind}.schema.json": json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        for kind, model in FILE_MODELS.items()
    }


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "data" / "schemas"
    out.mkdir(parents=True, exist_ok=True)
    for name, text in json_schemas().items():
        (out / name).write_text(text, encoding="utf-8")
        print(out / name)


if __name__ == "__main__":
    main(sys.argv[1:])
