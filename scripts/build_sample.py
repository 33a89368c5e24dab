#!/usr/bin/env python
"""Build the bundled sample dataset, `werealign/sample/`, from its sources in `annotation/sample/`.

The sources are what annotators write: per game a transcript (transcript.srt) and an annotator
config (config.yaml), built into a game log by the code of `werealign annotate build`, plus the
reviewed speech items (speech_items.yaml) and objective rewrites (osr.yaml) as data. The VA and OI
items are derived from each game's MVP votes by the code of `werealign derive`. Every game gets the
checks of `werealign validate` (its replay of the game included), and so does the finished dataset:
the sample is an example for annotators, so any finding, even a warning, stops the build and
nothing is written.

Usage:
    python scripts/build_sample.py            # rewrite werealign/sample in place
    python scripts/build_sample.py OUT_DIR    # write elsewhere (the test compares the two)

Deterministic: no clock, no randomness; the same sources give the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "annotation" / "sample"
sys.path.insert(0, str(REPO))  # build with this checkout's werealign, whichever one is installed


def read_yaml(path: Path) -> dict:
    from werealign.annotate.config import read_yaml as read
    from werealign.errors import UserError

    data, _ = read(path)
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a mapping")
    return data


def rows(path: Path, key: str) -> list[tuple[str, dict]]:
    """Each entry of the list `key` merged over the file's `common` fields, with where it is for errors."""
    from werealign.errors import UserError

    data = read_yaml(path)
    common, entries = data.get("common", {}), data.get(key) or []
    if not isinstance(common, dict) or not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise UserError(f"{path}: expected `common` (a mapping) and `{key}` (a list of mappings)")
    return [(f"{path}: {key}[{i}]", {**common, **entry}) for i, entry in enumerate(entries)]


def speech_items(path: Path) -> list:
    from werealign.files import parse_model
    from werealign.schema import SpeechItem

    return [parse_model(SpeechItem, row, where) for where, row in rows(path, "items")]


def rewrites(path: Path, game) -> list:
    """The objective rewrites; each names its turn by the turn's transcript cues (`segment_ids`)."""
    from werealign.errors import UserError
    from werealign.files import parse_model
    from werealign.schema import OsrRewrite

    turn_of = {tuple(u.segment_ids): u.index for u in game.utterances}
    out = []
    for where, row in rows(path, "rewrites"):
        index = turn_of.get(tuple(row.get("segment_ids") or ()))
        if index is None:
            raise UserError(f"{where}: segment_ids {row.get('segment_ids')} are not the cues of one turn of {game.game_id}")
        out.append(parse_model(OsrRewrite, {**row, "utterance_index": index}, where))
    return out


def build_game(folder: Path):
    from werealign.annotate.build import build_from_files, validate_built
    from werealign.errors import UserError

    result = build_from_files(folder / "transcript.srt", folder / "config.yaml")
    for note in result.notes:
        print(f"note: {folder / 'config.yaml'}: {note}", file=sys.stderr)
    findings = validate_built(result.game, str(folder / "config.yaml"))
    if findings:
        raise UserError("\n".join(f.to_text() for f in findings))
    return result.game


def build(out: Path, sources: Path = SOURCES) -> None:
    from werealign.dataset import write_dataset
    from werealign.errors import UserError
    from werealign.files import list_dir, parse_model, staged_directory
    from werealign.game.derive import derive_decision_items
    from werealign.schema import ItemProvenance
    from werealign.validate.dataset_checks import validate_dataset

    manifest = read_yaml(sources / "dataset.yaml")
    derived_items = manifest.pop("derived_items")
    provenance = parse_model(ItemProvenance, derived_items["provenance"], f"{sources / 'dataset.yaml'}: derived_items.provenance")
    games, speech, vote, opponent, osr = [], [], [], [], {}
    for name in list_dir(sources):
        folder = sources / name
        if not (folder / "config.yaml").is_file():
            continue
        game = build_game(folder)
        games.append(game)
        speech += speech_items(folder / "speech_items.yaml")
        osr[game.game_id] = rewrites(folder / "osr.yaml", game)
        derived = derive_decision_items(game, provenance=lambda *_: provenance, tags=tuple(derived_items["tags"]))
        vote += derived.vote
        opponent += derived.opponent
    with staged_directory(out, overwrite=True) as stage:
        write_dataset(stage, games=games, items={"speech": speech, "vote": vote, "opponent": opponent}, osr=osr, **manifest)
        findings, _ = validate_dataset(stage)
        if findings:  # raised inside the stage: `out` is left as it was
            raise UserError("\n".join(f.to_text() for f in findings))


def main(argv: list[str]) -> int:
    from werealign.errors import UserError

    out = Path(argv[0]) if argv else REPO / "werealign" / "sample"
    try:
        build(out)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
