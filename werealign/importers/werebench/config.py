"""Read the WereBench release's per-game configuration files as the release publishes them.

The annotators described each game with a Python dict literal assigned to `GAME_CONFIG`
(`clean_process/Season_1/NN - GAME_CONFIG.txt`, `clean_process/Season_3/NN-GAME_CONFIG.py`, ...;
older copies were converted to JSON, `NN - GAME_CONFIG.txt / NN-GAME_CONFIG.py`): phase timestamps keyed by names like
`first_night` / `sheiff_election` [sic], speaker label -> ["12号"] aliases, true roles keyed by speaker
label, MVP votes with segment cut-offs, sheriff appointment times and the recap's segment range.
This module finds those files, reads them as data (see python_literal) and turns each into our
AnnotatorConfig, keeping what is sound and saying, in `notes`, what it repaired or dropped and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werealign.annotate.config import ConfigSource, parse_timestamp, phase_id, validate_config
from werealign.errors import UserError
from werealign.files import list_dir, parse_model, read_json
from werealign.importers.python_literal import read_literal_assignment
from werealign.importers.werebench.source import RawReleaseConfig
from werealign.importers.werebench.text import ORDINALS, RELEASE_ROLES, declarations_used, phase_key, seat_of_label
from werealign.schema.annotation import AnnotatorConfig
from werealign.schema.roles import is_host_label

MAX_SEAT = 30  # the schema's Seat bound (werealign.schema.models.Seat)
CONFIG_VARIABLE = "GAME_CONFIG"
CONFIG_SUFFIXES = (".py", ".txt", ".json")
# 'NN - GAME_CONFIG.txt', 'NN-GAME_CONFIG.py', 'NN_game_config.py', 'NN - GAME_CONFIG.txt / NN-GAME_CONFIG.py': a game number
# first, then a name saying it is a game config. The separator and case vary across the release.
_CONFIG_NAME = re.compile(r"^\s*(\d+)\s*[-_. ]*\s*(?:game[-_ ]?)?config\b.*$", re.IGNORECASE)
_TEMPLATE = re.compile(r"template", re.IGNORECASE)


@dataclass
class ConfigFile:
    path: Path
    season: int | None
    number: int


def find_config_files(clean_dir: Path) -> tuple[list[ConfigFile], list[str]]:
    """Every game config under `clean_dir/Season_*/`, in (season, number) order, and notes on files passed over.

    A config is any file whose name starts with a game number and names a game config, with a
    .py, .txt or .json suffix. Templates left beside the games and a second config for a game
    number already seen are passed over, each with a note.
    """
    found: dict[tuple[int | None, int], ConfigFile] = {}
    notes: list[str] = []
    for season_name in list_dir(clean_dir):
        folder = clean_dir / season_name
        if not folder.is_dir():
            continue
        season_m = re.match(r"^Season_(\d+)$", season_name)
        season = int(season_m.group(1)) if season_m else None
        for name in sorted(list_dir(folder)):
            path = folder / name
            if path.suffix.lower() not in CONFIG_SUFFIXES or "config" not in name.lower():
                continue
            rel = f"{season_name}/{name}"
            if _TEMPLATE.search(name):
                notes.append(f"{rel}: a config template, not a game; ignored")
                continue
            m = _CONFIG_NAME.match(Path(name).stem if not name.lower().endswith(".config.json") else name)
            if not m:
                notes.append(f"{rel}: names a config but carries no game number; ignored")
                continue
            key = (season, int(m.group(1)))
            if key in found:
                notes.append(f"{rel}: a second config for game {key[1]} of {season_name} (first: {found[key].path.name}); ignored")
                continue
            found[key] = ConfigFile(path, season, key[1])
    return [found[k] for k in sorted(found, key=lambda k: (k[0] is None, k[0] or 0, k[1]))], notes


def read_release_config_data(path: Path, warnings: list[str] | None = None) -> Any:
    """The raw config: the `GAME_CONFIG` literal of a .py/.txt file, or a JSON copy's content.
    A key given twice adds a warning to `warnings` (an error when the two values differ in type)."""
    if path.suffix.lower() == ".json":
        return read_json(path, warnings)
    return read_literal_assignment(path, CONFIG_VARIABLE, warnings)


def looks_like_release_config(path: Path) -> bool:
    """Whether `annotate build --config PATH` should read PATH as a release config (not an annotator YAML)."""
    if path.suffix.lower() in (".py", ".txt"):
        return True
    return path.suffix.lower() == ".json" and is_release_config(read_json(path))


def is_release_config(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("metadata"), dict) and "game_status" in data["metadata"]


def release_game_id(path: Path) -> tuple[str, int | None, int | None]:
    """('pandakill-s1-01', 1, 1) for .../Season_1/01 - GAME_CONFIG.txt: the importer's naming."""
    season_m = re.match(r"^Season_(\d+)$", path.parent.name)
    episode_m = re.match(r"^\s*(\d+)", path.name)
    if season_m and episode_m:
        season, episode = int(season_m.group(1)), int(episode_m.group(1))
        return f"pandakill-s{season}-{episode:02d}", season, episode
    return re.sub(r"[^A-Za-z0-9._-]", "-", path.name.split(".")[0]) or "game", None, None


def sibling_with_number(path: Path, number: int, suffix: str) -> Path:
    """The file of game `number` with `suffix` in `path`'s folder ('01.srt' beside '01 - GAME_CONFIG.txt').

    Matched on the number's value, so '1.srt' and '01.srt' both fit; the zero-padded name when none exists.
    """
    for name in sorted(list_dir(path.parent)):
        m = re.match(r"^\s*(\d+)\s*$", Path(name).stem)
        if m and Path(name).suffix.lower() == suffix and int(m.group(1)) == number:
            return path.parent / name
    return path.parent / f"{number:02d}{suffix}"


def _timestamp(raw: Any, what: str, notes: list[str]) -> str | None:
    """A clean 'HH:MM:SS,mmm', repairing what the release's own parser accepted."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        notes.append(f"{what}: empty timestamp, dropped (the release skips it too)")
        return None
    text = str(raw)
    if text != text.strip():
        notes.append(f"{what}: stray whitespace in {text!r}, stripped")
        text = text.strip()
    m = re.match(r"^(\d{1,2}:\d{2}:\d{2}),(\d{1,2})$", text)
    if m:
        # The release's parser reads the digits after the comma as milliseconds: ',72' = 72 ms.
        fixed = f"{m.group(1)},{int(m.group(2)):03d}"
        notes.append(f"{what}: {text!r} has fewer than 3 millisecond digits, read as {fixed!r} like the release")
        text = fixed
    try:
        parse_timestamp(text)
    except ValueError:
        notes.append(f"{what}: unparsable timestamp {text!r}, dropped")
        return None
    return text


def convert_release_config(data: dict, path: Path) -> tuple[dict, list[str]]:
    """The release config as an AnnotatorConfig-shaped dict, and notes on what was repaired or dropped."""
    notes: list[str] = []
    meta = data["metadata"]
    game_id, season, episode = release_game_id(path)

    # Speaker labels: the release uses the first alias ("12号" or "host").
    speakers: dict[str, int | str] = {}
    for label, aliases in sorted((meta.get("user_aliases") or {}).items()):
        first = aliases[0] if isinstance(aliases, list) and aliases else None
        if isinstance(first, str) and is_host_label(first):
            speakers[label] = "host"
        elif seat_of_label(first) is not None and not 1 <= seat_of_label(first) <= MAX_SEAT:
            notes.append(f"metadata.user_aliases.{label}: seat {seat_of_label(first)} is outside 1..{MAX_SEAT}, dropped")
        elif seat_of_label(first) is not None:
            speakers[label] = seat_of_label(first)
        else:
            notes.append(f"metadata.user_aliases.{label}: alias {aliases!r} is neither a seat nor the host, dropped")
    seats = sorted({s for s in speakers.values() if isinstance(s, int)})
    players = max(seats) if seats else 1
    if seats and seats != list(range(1, players + 1)):
        notes.append(f"metadata.user_aliases: seats {sorted(set(range(1, players + 1)) - set(seats))} have no speaker label")

    roles: dict[int, str] = {}
    for label, role in sorted((meta.get("real_role") or {}).items()):
        who = speakers.get(label)
        if who is None:
            notes.append(f"metadata.real_role.{label}: label has no usable alias, role {role!r} dropped")
            continue
        host_role = isinstance(role, str) and is_host_label(role)
        if who == "host":
            if not host_role:
                notes.append(f"metadata.real_role.{label}: alias says host but role is {role!r}, ignored")
            elif role.strip().lower() != "host":
                notes.append(f"metadata.real_role.{label}: host written as {role!r}")
            continue
        if host_role:
            notes.append(f"metadata.real_role.{label}: alias says seat {who} but role is {role!r}, dropped")
            continue
        if who in roles and RELEASE_ROLES.canonical(roles[who]) != RELEASE_ROLES.canonical(role):
            notes.append(f"metadata.real_role.{label}: seat {who} already has role {roles[who]!r}; {role!r} dropped")
            continue
        if RELEASE_ROLES.canonical(str(role)) is None:
            notes.append(f"metadata.real_role.{label}: role label {role!r} is not in the role catalogue: kept, faction unknown")
        roles.setdefault(who, role)

    # Phases: the release sorts them by time (stable), so do we, and say when that reorders them.
    timed: list[tuple[float, int, str, str]] = []
    game_end = None
    for i, (key, raw) in enumerate((meta.get("game_status") or {}).items()):
        where = f"metadata.game_status.{key}"
        if key != "end_time" and phase_key(key) is None:
            notes.append(f"{where}: not a phase name, dropped")
            continue
        ts = _timestamp(raw, where, notes)
        if ts is None:
            continue
        if key == "end_time":
            game_end = ts
        else:
            timed.append((parse_timestamp(ts), i, key, ts))
    if game_end is None:
        raise UserError(f"{path}: metadata.game_status.end_time: missing or unparsable; cannot tell where the game ends")
    in_time = sorted(timed, key=lambda t: t[0])
    if [t[1] for t in in_time] != [t[1] for t in timed]:
        notes.append(f"metadata.game_status: phases out of time order ({', '.join(f'{k}={ts}' for _, _, k, ts in timed)}); sorted by time as the release does (a timestamp is probably wrong)")
    # A phase that starts when the next phase (or the game's end) starts is empty: the release gives
    # a phase it did not time the next one's time. No segment can fall in it (a segment belongs to
    # the last phase started at or before it), and an annotator config refuses an empty phase, so
    # it is dropped here, said in a note, rather than the check being relaxed for everyone.
    following = [(t, k) for t, _, k, _ in in_time[1:]] + [(parse_timestamp(game_end), "end_time")]
    phases = []
    for (t, _, key, ts), (next_t, next_key) in zip(in_time, following):
        if t == next_t:
            notes.append(f"metadata.game_status.{key}: starts at {ts} like {next_key}: an empty phase, dropped")
            continue
        _, kind, day = phase_key(key)
        phases.append({"kind": kind, "day": day, "start": ts, "original_label": key})

    sheriff = []
    for label, raw in (data.get("sheriff_appointments") or {}).items():
        where = f"sheriff_appointments.{label}"
        seat = speakers.get(label)
        ts = _timestamp(raw, where, notes)
        if not isinstance(seat, int) or ts is None:
            if ts is not None:
                notes.append(f"{where}: label is not a seat, dropped")
            continue
        sheriff.append((parse_timestamp(ts), {"seat": seat, "time": ts}))
    sheriff_list = [s for _, s in sorted(sheriff, key=lambda x: x[0])]

    phase_ids = {phase_id(p["kind"], p["day"]) for p in phases}
    mvp = None
    raw_mvp = meta.get("MVP") or {}
    mvp_seat = seat_of_label(raw_mvp.get("id"))
    if mvp_seat is None:
        notes.append(f"metadata.MVP.id: {raw_mvp.get('id')!r} is not a seat, MVP dropped")
    else:
        if str(raw_mvp.get("id")).strip() != f"{mvp_seat}号":
            notes.append(f"metadata.MVP.id: {raw_mvp.get('id')!r} read as seat {mvp_seat}")
        votes = []
        for key, vote in (raw_mvp.get("votes") or {}).items():
            where = f"metadata.MVP.votes.{key}"
            m = re.match(r"^(\w+?)_day_votes$", key)
            if not m or m.group(1) not in ORDINALS:
                notes.append(f"{where}: not a '<ordinal>_day_votes' key, dropped")
                continue
            phase = f"day-{ORDINALS.index(m.group(1)) + 1}"
            target = seat_of_label(vote.get("vote_to"))
            cutoff = vote.get("cut_off_time")
            if phase not in phase_ids:
                notes.append(f"{where}: the game has no {phase} phase, dropped")
            elif target is None:
                notes.append(f"{where}.vote_to: {vote.get('vote_to')!r} is not a seat, dropped")
            elif not isinstance(cutoff, int) or isinstance(cutoff, bool) or cutoff < 0:
                notes.append(f"{where}.cut_off_time: {cutoff!r} is not a segment id, dropped")
            else:
                votes.append({"phase": phase, "target": target, "cutoff_segment": cutoff, "original_label": key})
        mvp = {"seat": mvp_seat, "votes": votes, "original_label": str(raw_mvp.get("id"))}

    recap = None
    rng = data.get("summary_id_range")
    if isinstance(rng, list) and len(rng) == 2 and all(isinstance(x, int) and x >= 0 for x in rng) and rng[0] <= rng[1]:
        recap = {"first_segment": rng[0], "last_segment": rng[1]}
    else:
        notes.append(f"summary_id_range: {rng!r} is not a [first, last] segment range, recap dropped")

    rules_text = meta.get("game_rules") or None
    win = "side_elimination"  # the show's standard rule (屠边), also when the text is missing
    if rules_text is None:
        notes.append("metadata.game_rules: empty, rules.text is null")
    elif "屠城" in rules_text and "屠边" not in rules_text:
        win = "all_elimination"
    config = {
        "game_id": game_id,
        "language": "zh",
        "provenance": {
            "source": str(meta.get("source") or path.name),
            "show": "Pandakill",
            "season": season,
            "episode": episode,
            "original_file": f"clean_process/{path.parent.name}/{path.name}",
            "original_game_id": None if meta.get("game_id") is None else str(meta.get("game_id")),
        },
        "rules": {"text": rules_text, "win_condition": win},
        "players": players,
        "speakers": speakers,
        "roles": roles,
        "declared_roles": [d.model_dump(exclude_defaults=True) for d in declarations_used(list(roles.values()))],
        "phases": phases,
        "game_end": game_end,
        "sheriff": sheriff_list,
        "mvp": mvp,
        "recap": recap,
        "annotator_log": meta.get("logs") or None,
    }
    return config, notes


def load_release_config(path: Path) -> tuple[AnnotatorConfig, ConfigSource, list[str]]:
    duplicated: list[str] = []
    data = read_release_config_data(path, duplicated)
    if not is_release_config(data):
        raise UserError(f"{path}: not a WereBench release config (expected metadata.game_status)")
    parse_model(RawReleaseConfig, data, str(path))  # wrong types are fatal, named by field; content is judged below
    converted, notes = convert_release_config(data, path)
    notes[:0] = [f"line {w[len(str(path)) + 1:]}" for w in duplicated]  # notes are printed after the file name
    source = ConfigSource(path)
    return validate_config(converted, source), source, notes


def build_release_game(srt_path: Path, config_path: Path):
    """`annotate build` of a release game: its transcript and its config file as published.

    Segments by a speaker label the config gives no alias are dropped (the release keeps the raw
    label as a speaker; a werealign speaker is a seat or the host), each said in the notes.
    """
    from werealign.annotate.build import build_game
    from werealign.annotate.transcript import read_transcript

    config, source, notes = load_release_config(config_path)
    result = build_game(config, source, read_transcript(srt_path), srt_path, unknown_speakers="drop")
    result.notes[:0] = notes
    return result


def release_config_yaml(path: Path) -> tuple[str, list[str]]:
    """The release config as annotator-config YAML text (validated first), and the conversion notes."""
    import yaml

    config, _, notes = load_release_config(path)
    data = config.model_dump(mode="json", exclude_defaults=False)
    # Seats as numbers in seat order, labels in natural order ('说话人 2' before '说话人 10'): easy to review.
    natural = lambda label: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", label)]  # noqa: E731
    data["speakers"] = {k: data["speakers"][k] for k in sorted(data["speakers"], key=natural)}
    data["roles"] = {int(k): data["roles"][k] for k in sorted(data["roles"], key=int)}
    data["names"] = {int(k): data["names"][k] for k in sorted(data["names"], key=int)}
    header = (
        f"# Converted by `werealign annotate convert-release` from {config.provenance.original_file}.\n"
        "# Add what the release does not record (events, highlights, winner); see annotation/GUIDE.md.\n"
    )
    notes_text = "".join(f"# note: {n}\n" for n in notes)
    return header + notes_text + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100), notes
