"""Reading the WereBench release as it is published: locate its files and shape-check them.

Shape errors (truncated JSON, wrong types, missing files, not a release) are fatal `UserError`s
naming the file and field: the importer cannot guess what a malformed file meant. Content
problems of well-formed files (typos, wrong ids, odd timestamps) are not handled here; the
converter repairs or drops them and reports each one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from werealign.errors import UserError
from werealign.files import list_dir, parse_model, read_json

ITEMS_FILE = "WereBench/WereBench.json"
GAME_GLOB = "data/Season_*/*.json"
_GAME_PATH = re.compile(r"^data/Season_(\d+)/(\d+)\.json$")


class _Loose(BaseModel):
    # Unknown keys are kept (model_extra) and reported as warnings rather than refused:
    # a newer release adding a field should still import.
    model_config = ConfigDict(extra="allow")


def unknown_fields(model: BaseModel, path: str = "", nested: bool = True) -> list[tuple[str, str]]:
    """(field path, key) of every key the known format lacks, in `model` and, when `nested`, in every model inside it.

    Walks the parsed models instead of listing the places where a release might grow a field, so
    a key added at any depth is reported rather than silently dropped.
    """

    def at(name: str) -> str:
        return f"{path}.{name}" if path else name

    found = [(at(key), key) for key in sorted(model.model_extra or {})]
    if not nested:
        return found
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            found += unknown_fields(value, at(name))
        elif isinstance(value, list):
            for i, child in enumerate(value):
                if isinstance(child, BaseModel):
                    found += unknown_fields(child, f"{at(name)}[{i}]")
        elif isinstance(value, dict):
            for key, child in value.items():
                if isinstance(child, BaseModel):
                    found += unknown_fields(child, f"{at(name)}.{key}")
    return found


class RawVote(_Loose):
    vote_to: str | int | None
    cut_off_time: int


class RawMvp(_Loose):
    id: str | int
    votes: dict[str, RawVote] = Field(default_factory=dict)


class RawMetadata(_Loose):
    game_id: str | int
    source: str
    game_rules: str | None = None
    game_roles: list[str] = Field(default_factory=list)
    game_status: dict[str, str]
    user_aliases: dict[str, list[str]]
    real_role: dict[str, str]
    MVP: RawMvp | None = None
    logs: str | None = None
    total_utterances: int | None = None
    language: str | None = None
    summary: str | None = None


class RawUtterance(_Loose):
    utterance_id: list[int] = Field(min_length=1)
    start_time: str
    end_time: str
    duration: float | None = None
    status: str
    speaker_id: str
    sheriff: str | None = None
    is_host: bool | None = None
    is_sheriff: bool | None = None
    role: str | None = None
    text: str


class RawGame(_Loose):
    metadata: RawMetadata
    utterances: list[RawUtterance]


class RawReleaseConfig(_Loose):
    """`clean_process/Season_N/NN - GAME_CONFIG.txt / NN-GAME_CONFIG.py`: the annotators' per-game configuration (read by `annotate`)."""

    metadata: RawMetadata
    sheriff_appointments: dict[str, str | None] = Field(default_factory=dict)
    summary_id_range: list[Any] | None = None  # judged by the converter, which says why it drops a bad range


class RawOption(_Loose):
    key: str
    text: str


class RawQuestion(_Loose):
    id: int
    utterance_id: int
    role: str
    text: str
    text1: str | None = None
    options: list[RawOption]
    answerKey: str
    reference: str
    explanation: str | None = None


class RawCategory(_Loose):
    categoryName: str
    questions: list[RawQuestion]


class RawItems(_Loose):
    questionSetTitle: str | None = None
    version: str | None = None
    categories: list[RawCategory]


@dataclass
class SourceGame:
    rel: str  # "data/Season_1/01.json"
    season: int
    number: int
    raw: RawGame

    @property
    def game_id(self) -> str:
        return f"pandakill-s{self.season}-{self.number:02d}"


@dataclass
class Release:
    root: Path
    games: list[SourceGame]
    items: RawItems
    # Game files that could not be read (truncated JSON, wrong types): rel path -> (game id, the error).
    # One bad game never stops the import: each is reported as dropped, the others are converted.
    unreadable: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Keys given twice in one object of a file (the later value is used): (rel path, warning).
    duplicate_keys: list[tuple[str, str]] = field(default_factory=list)


def read_game_log(path: Path, warnings: list[str], shown: str | None = None) -> RawGame:
    """One release game log (`data/Season_N/NN.json`), shape-checked: the one reader of these files,
    for import and `annotate faithfulness` alike (ids written as strings convert the same way in
    both). A key given twice adds a warning to `warnings`, naming the file as `shown`."""
    return parse_model(RawGame, read_json(path, warnings, shown), str(path))


def season_files(root: Path, top: str, pattern: str) -> list[str] | None:
    """Release-relative paths of `top/Season_*/<pattern>` in path order, or None when there is no `top` folder.

    What a glob would find, except that a folder that cannot be read is a UserError naming it: a
    glob skips it silently, and every game or transcript inside would vanish from the import.
    """
    if top not in list_dir(root) or not (root / top).is_dir():
        return None
    found = []
    for season in list_dir(root / top):
        if fnmatchcase(season, "Season_*") and (root / top / season).is_dir():
            found += [f"{top}/{season}/{name}" for name in list_dir(root / top / season) if fnmatchcase(name, pattern)]
    return found


def load_release(src: Path) -> Release:
    """Read every game log and the speech items of a release, shape-checked."""
    if not src.exists():
        raise UserError(f"{src}: not found (expected the dataset/ folder of a WereBench release)")
    if not src.is_dir():
        raise UserError(f"{src}: not a directory (expected the dataset/ folder of a WereBench release)")
    rels = season_files(src, "data", "*.json") or []
    items_path = src / ITEMS_FILE
    try:
        items_exists, items_is_file = items_path.exists(), items_path.is_file()
    except OSError as e:  # only "not found" is False; anything else means its folder cannot be searched
        raise UserError(f"{items_path.parent}: cannot read folder: {e.strerror or e}") from None
    if not rels and not items_exists:
        raise UserError(f"{src}: not a WereBench release (no {GAME_GLOB} and no {ITEMS_FILE})")
    if not rels:
        raise UserError(f"{src}: no game logs found ({GAME_GLOB})")
    if not items_is_file:
        raise UserError(f"{items_path}: file not found (every WereBench release has {ITEMS_FILE})")
    games = []
    unreadable: dict[str, tuple[str, str]] = {}
    duplicated: list[tuple[str, str]] = []
    for rel in rels:
        path = src / rel
        m = _GAME_PATH.match(rel)
        if not m:
            raise UserError(f"{path}: unexpected game file name (expected data/Season_N/NN.json)")
        season, number = int(m.group(1)), int(m.group(2))
        warnings: list[str] = []
        try:
            raw = read_game_log(path, warnings, rel)
            duplicated += [(rel, w) for w in warnings]
        except UserError as e:
            unreadable[rel] = (f"pandakill-s{season}-{number:02d}", str(e))
            continue
        games.append(SourceGame(rel=rel, season=season, number=number, raw=raw))
    if not games and unreadable:
        raise UserError(next(iter(unreadable.values()))[1] + f" (and every other game file of {src} is unreadable too)")
    # Same game number twice under one season (e.g. 1.json and 01.json) would collide.
    ids = [g.game_id for g in games]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise UserError(f"{src}: two game files map to the same game id {dup[0]}")
    warnings = []
    items = parse_model(RawItems, read_json(items_path, warnings, ITEMS_FILE), str(items_path))
    duplicated += [(ITEMS_FILE, w) for w in warnings]
    return Release(root=src, games=games, items=items, unreadable=unreadable, duplicate_keys=duplicated)
