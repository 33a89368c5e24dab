"""A digest of every prompt a dataset renders, to prove a refactor changed no prompt byte.

Renders every item in every variant, mode and (for tasks that permute options) two option orders,
the generation context text of every item, and the wording helpers of `werealign.render.lines` for
every event, seat and phase in English, Chinese and a language without templates; writes one
`<key>\\t<sha256>` line per rendering and prints an overall digest. Run it on the unchanged tree and
again after the change, then compare the two files:

    python scripts/prompt_digest.py sample /tmp/before.txt
    python scripts/prompt_digest.py path/to/dataset /tmp/before.txt

A rendering that fails (e.g. variant data the dataset lacks) is recorded by its error message.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's werealign, whichever is installed

from werealign.game.visibility import build_context  # noqa: E402
from werealign.dataset import load_dataset  # noqa: E402
from werealign.errors import UserError  # noqa: E402
from werealign.eval.prompts import render_messages  # noqa: E402
from werealign.generation.prompts import context_text, viewpoint_name  # noqa: E402
from werealign.render import lines  # noqa: E402
from werealign.render.phrases import faction_name, role_name  # noqa: E402
from werealign.render.prompt_templates import templates_hash  # noqa: E402
from werealign.tasks import TASKS  # noqa: E402


def digest(x: object) -> str:
    return hashlib.sha256(json.dumps(x, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def rendered(dataset: Path | None) -> list[tuple[str, str]]:
    ds = load_dataset(dataset)
    rows: list[tuple[str, str]] = [("templates_hash", templates_hash())]
    for name, task in TASKS.items():
        for item in ds.items_of(name):
            game = ds.games[item.game_id]
            for variant in task.variants:
                osr = ds.osr.get(item.game_id) if variant == "osr" else None
                for mode in task.modes or (None,):
                    orders = [None, list(reversed(range(len(item.options))))] if task.permutes_options else [None]
                    for order in orders:
                        key = f"{name}/{item.item_id}/{variant}/{mode}/{order}"
                        try:
                            messages = render_messages(game, item, variant=variant, osr=osr, option_order=order, mode=mode)
                            rows.append((key, digest(messages)))
                        except UserError as e:
                            rows.append((key, "ERR " + digest(str(e))))
            ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
            text = [context_text(game, ctx), viewpoint_name(item.viewpoint_seat, game.language)]
            rows.append((f"gen/{name}/{item.item_id}", digest(text)))
    for game_id, game in sorted(ds.games.items()):
        seats = [s.seat for s in game.seats]
        for lang in ("en", "zh", "fr"):  # fr: a language with no phrases or templates of its own
            out = [lines.rules_summary(game.model_copy(update={"language": lang}))]
            for viewpoint in (None, *seats):
                out += [lines.event_line(ev, viewpoint, lang) for ev in game.events]
                out += [lines.speaker_label(sp, viewpoint, lang) for sp in ("host", *seats)]
            out += [lines.phase_label(p, lang) for p in (None, *game.phases)]
            out += [lines.seat_label(s, lang) for s in seats]
            out += [role_name(s.role, lang) for s in game.seats] + [faction_name(s.faction, lang) for s in game.seats]
            out.append(lines.players_line(tuple((s.seat, s.name or f"p{s.seat}") for s in game.seats), lang))
            rows.append((f"lines/{game_id}/{lang}", digest(out)))
    return rows


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0] + "\nusage: python scripts/prompt_digest.py (sample | DATASET) OUT.txt", file=sys.stderr)
        return 2
    try:
        rows = rendered(None if argv[0] == "sample" else Path(argv[0]))
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    Path(argv[1]).write_text("".join(f"{k}\t{v}\n" for k, v in rows), encoding="utf-8")
    print(f"{argv[0]}: {len(rows)} renderings, digest {digest(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
