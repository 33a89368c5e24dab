"""Does `annotate build` reproduce the WereBench release? Compare a built game with the release's log.

For every release game, `clean_process/Season_N/NN.srt` and its config file (as published, see
werebench.config) are built with our builder
and compared, turn by turn, with the release's processed `data/Season_N/NN.json`. A release turn is
an exact match when a built turn has the same segment ids, speaker, phase, start/end and text.
Every other turn, and every metadata field the release changed, becomes a Difference with a kind
and an explanation; kind 'unexplained' means we cannot say why (a bug on one side).

Known release behaviours (the release's build script, reconstructed from its output):
- its parser only accepts cues of the form '说话人 N: text' with a space after the colon, and
  silently skips others ('说话人 5:text'): those segments are missing from its turns;
- it splits the file on blank lines, so a cue with no blank line before it is glued (number and
  time line included) into the previous cue's text;
- segments by a speaker label with no alias keep the raw label ('说话人 14') as the speaker;
- after building, the processed logs were hand-edited: ASR corrections in turn text and in the
  recap, MVP cut-offs moved by a segment, metadata fields changed.

Each built game is also validated like `annotate build` does: a game with validation errors (the
release's own MVP cut-offs outside the game or the vote's phase) is listed as needing `--keep-invalid`,
with its errors, since `annotate build` refuses to write it otherwise.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from werealign.annotate.build import build_game, validate_built
from werealign.annotate.config import parse_timestamp
from werealign.annotate.transcript import read_transcript
from werealign.errors import UserError
from werealign.importers.werebench.config import find_config_files, load_release_config, read_release_config_data, sibling_with_number
from werealign.importers.werebench.source import read_game_log
from werealign.importers.werebench.text import phase_key, seat_of_label
from werealign.schema import GameLog

# The release's own cue pattern; a cue that does not match was dropped by its build.
RELEASE_CUE = re.compile(r"^(说话人 \d+): (.*)$", re.DOTALL)

EXPLAINED = {
    "release_parser_dropped_cue",
    "release_parser_glued_cue",
    "release_text_edited",
    "unmapped_speaker_label",
    "recap_text_edited",
    "mvp_edited",
    "metadata_edited",
}


@dataclass
class Difference:
    kind: str
    explanation: str
    segment_ids: list[int] = field(default_factory=list)


@dataclass
class GameFaithfulness:
    game_id: str
    release_file: str
    release_turns: int
    built_turns: int
    exact: int
    differences: list[Difference] = field(default_factory=list)
    build_notes: list[str] = field(default_factory=list)
    # Why `annotate build` refuses this game without --keep-invalid: its validation errors, first first.
    validation_errors: list[str] = field(default_factory=list)
    # Keys given twice in the release log or the config (the later value is used), naming both lines.
    duplicate_keys: list[str] = field(default_factory=list)

    @property
    def unexplained(self) -> list[Difference]:
        return [d for d in self.differences if d.kind not in EXPLAINED]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["unexplained"] = len(self.unexplained)
        return d


def _release_phase(status: str) -> str:
    known = phase_key(status)
    return known[0] if known else status


def _release_speaker(speaker: str) -> int | str:
    if speaker == "host":
        return "host"
    seat = seat_of_label(speaker)
    return seat if seat is not None else speaker


def text_diff(release: str, built: str, limit: int = 3) -> str:
    """'«transcript» -> «release»' for each changed span: enough to see the hand edit."""
    ops = difflib.SequenceMatcher(None, built, release, autojunk=False).get_opcodes()
    parts = [f"«{built[i1:i2]}» -> «{release[j1:j2]}»" for tag, i1, i2, j1, j2 in ops if tag != "equal"]
    more = f" (+{len(parts) - limit} more)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


def compare_game(built: GameLog, quirks: tuple[set[int], dict[int, int]], release_log: dict, release_config: dict, release_file: str) -> GameFaithfulness:
    """Differences between a built game and the release's processed log (and its config)."""
    dropped_by_release, glued = quirks
    rel_turns = release_log.get("utterances") or []
    report = GameFaithfulness(built.game_id, release_file, len(rel_turns), len(built.utterances), 0)
    built_by_ids = {tuple(u.segment_ids): u for u in built.utterances}
    seg_owner = {sid: u for u in built.utterances for sid in u.segment_ids}
    touched: set[int] = set()  # built utterance indices accounted for by some release turn

    for r in rel_turns:
        ids = tuple(r["utterance_id"])
        speaker, phase, text = _release_speaker(r["speaker_id"]), _release_phase(r["status"]), r["text"]
        start, end = parse_timestamp(r["start_time"]), parse_timestamp(r["end_time"])
        b = built_by_ids.get(ids)
        if b is not None:
            touched.add(b.index)
            same_frame = b.speaker == speaker and b.phase == phase and abs(b.start - start) < 1e-6 and abs(b.end - end) < 1e-6
            if same_frame and b.text == text:
                report.exact += 1
            elif same_frame:
                report.differences.append(Difference(
                    "release_text_edited",
                    f"turn {b.index} (seat/host {speaker}, {phase}): the release's text differs from its own transcript, "
                    f"edited by hand after the build: {text_diff(text, b.text)}",
                    list(ids),
                ))
            else:
                report.differences.append(Difference(
                    "unexplained",
                    f"turn {b.index}: release has speaker {speaker!r} phase {phase} {r['start_time']}-{r['end_time']}, "
                    f"built has {b.speaker!r} {b.phase} {b.start:.3f}-{b.end:.3f}",
                    list(ids),
                ))
            continue
        owners = {seg_owner[s].index: seg_owner[s] for s in ids if s in seg_owner}
        if not owners and isinstance(speaker, str) and speaker != "host":
            report.differences.append(Difference(
                "unmapped_speaker_label",
                f"release turn by {speaker!r} ({phase}): that label has no seat alias in the config; the release kept the raw "
                "label as the speaker, werealign drops segments of unmapped labels (a speaker must be a seat or the host)",
                list(ids),
            ))
            continue
        if len(owners) == 1:
            b = next(iter(owners.values()))
            extra = set(b.segment_ids) - set(ids)
            if set(ids) <= set(b.segment_ids) and extra and extra <= dropped_by_release | set(glued) and b.speaker == speaker and b.phase == phase:
                touched.add(b.index)
                glued_here = sorted(x for x in extra if x in glued)
                if glued_here:
                    missing = [x for x in glued_here if f"{x} " not in text]
                    report.differences.append(Difference(
                        "release_parser_glued_cue" if not missing else "unexplained",
                        f"turn {b.index} (seat/host {speaker}, {phase}): segment(s) {glued_here} follow the previous cue without a blank "
                        "line; the release's parser read them as part of that cue's text (cue number and time line included), "
                        "werealign reads them as cues of their own",
                        sorted(b.segment_ids),
                    ))
                    continue
                kept_text = " ".join(s.text for s in (b.segments or []) if s.id in set(ids))
                edited = "" if kept_text == text else f"; the release text was also edited: {text_diff(text, kept_text)}"
                report.differences.append(Difference(
                    "release_parser_dropped_cue",
                    f"turn {b.index} (seat/host {speaker}, {phase}): segment(s) {sorted(extra)} have no space after the speaker "
                    f"label's colon; the release's parser skipped them, werealign keeps them in the turn{edited}",
                    sorted(b.segment_ids),
                ))
                continue
        touched.update(owners)
        report.differences.append(Difference(
            "unexplained",
            f"release turn {list(ids)} ({speaker!r}, {phase}) matches no built turn; built turns covering it: "
            f"{[(u.index, u.segment_ids[0], u.segment_ids[-1]) for u in owners.values()]}",
            list(ids),
        ))

    for u in built.utterances:
        if u.index in touched:
            continue
        if set(u.segment_ids) <= dropped_by_release:
            report.differences.append(Difference(
                "release_parser_dropped_cue",
                f"turn {u.index}: every segment lacks the space after the label's colon; the release's parser skipped the whole turn",
                list(u.segment_ids),
            ))
        else:
            report.differences.append(Difference("unexplained", f"built turn {u.index} {u.segment_ids} has no release counterpart", list(u.segment_ids)))

    _compare_metadata(built, release_log.get("metadata") or {}, release_config.get("metadata") or {}, report)
    return report


def _compare_metadata(built: GameLog, rel_meta: dict, cfg_meta: dict, report: GameFaithfulness) -> None:
    summary = rel_meta.get("summary")
    if summary is not None and summary != built.recap:
        report.differences.append(Difference(
            "recap_text_edited",
            f"the release's recap (metadata.summary) differs from the transcript's recap segments, edited by hand: {text_diff(summary, built.recap or '')}",
        ))
    rel_mvp, cfg_mvp = rel_meta.get("MVP"), cfg_meta.get("MVP")
    if rel_mvp != cfg_mvp:
        changes = []
        rel_votes = (rel_mvp or {}).get("votes") or {}
        cfg_votes = (cfg_mvp or {}).get("votes") or {}
        for key in sorted(set(rel_votes) | set(cfg_votes)):
            if rel_votes.get(key) != cfg_votes.get(key):
                changes.append(f"{key}: log {rel_votes.get(key)} vs config {cfg_votes.get(key)}")
        if (rel_mvp or {}).get("id") != (cfg_mvp or {}).get("id"):
            changes.append(f"id: log {(rel_mvp or {}).get('id')!r} vs config {(cfg_mvp or {}).get('id')!r}")
        report.differences.append(Difference(
            "mvp_edited",
            "the processed log's MVP differs from its config (edited after the build; werealign follows the config): " + "; ".join(changes),
        ))
    skip = {"summary", "MVP", "total_utterances", "language"}
    for key in sorted((set(rel_meta) | set(cfg_meta)) - skip):
        if rel_meta.get(key) != cfg_meta.get(key):
            a, b = repr(rel_meta.get(key))[:60], repr(cfg_meta.get(key))[:60]
            report.differences.append(Difference("metadata_edited", f"metadata.{key}: processed log {a} vs config {b} (werealign follows the config)"))


def release_cue_quirks(srt_path: Path) -> tuple[set[int], dict[int, int]]:
    """What the release's own SRT reading did to this file: (dropped cue ids, glued cue id -> host cue id).

    It split the file on blank lines and read each block as number, time line, text. So a cue whose
    text lacks the space after the label's colon was dropped, and a cue written right under the previous
    one with no blank line in between was glued, number and time line included, into that cue's text.
    """
    from werealign.annotate.transcript import read_srt_text

    dropped: set[int] = set()
    glued: dict[int, int] = {}
    arrow = re.compile(r"^[\d:,]+\s-->\s[\d:,]+")
    for block in read_srt_text(srt_path).replace("\r\n", "\n").split("\n\n"):
        lines = block.strip().split("\n")
        if len(lines) < 3 or not lines[0].strip().isdigit() or not arrow.match(lines[1]):
            continue
        host = int(lines[0])
        for i in range(2, len(lines) - 1):
            if lines[i].strip().isdigit() and arrow.match(lines[i + 1]):
                glued[int(lines[i])] = host
        if not RELEASE_CUE.match(" ".join(lines[2:])):
            dropped.add(host)
    return dropped, glued


def check_release_game(config_path: Path, data_dir: Path, number: int | None = None) -> GameFaithfulness:
    """Build one release game from its .srt and config file and compare it with data/Season_N/NN.json."""
    if number is None:
        m = re.match(r"^\s*(\d+)", config_path.name)
        if not m:
            raise UserError(f"{config_path}: no game number at the start of the file name")
        number = int(m.group(1))
    srt_path = sibling_with_number(config_path, number, ".srt")
    release_path = sibling_with_number(data_dir / config_path.parent.name / "x", number, ".json")
    config, source, notes = load_release_config(config_path)
    result = build_game(config, source, read_transcript(srt_path), srt_path, unknown_speakers="drop")
    duplicated: list[str] = []
    try:  # read as import reads it: the same shape check, the same conversions (segment ids given as strings)
        release_log = read_game_log(release_path, duplicated).model_dump(mode="json", exclude_unset=True)
    except UserError as e:
        raise LogUnreadable(release_path, str(e)) from None
    report = compare_game(result.game, release_cue_quirks(srt_path), release_log, read_release_config_data(config_path, duplicated),
                          f"{data_dir.name}/{config_path.parent.name}/{release_path.name}")
    report.build_notes = notes + result.notes
    report.duplicate_keys = duplicated
    report.validation_errors = [
        f"{f.field}: {f.message} [{f.code}]" for f in validate_built(result.game, str(config_path)) if f.severity == "error"
    ]
    return report


class LogUnreadable(UserError):
    """The release's processed log failed (not the config): its failure is filed under the log."""

    def __init__(self, path: Path, message: str):
        super().__init__(message)
        self.path = path


@dataclass
class ReleaseFaithfulness:
    games: list[GameFaithfulness]
    # Games that could not be built or compared (one bad game never stops the others): file -> error.
    failed: dict[str, str] = field(default_factory=dict)
    # Files beside the games that were passed over (templates, a second config for one game).
    skipped: list[str] = field(default_factory=list)


def check_release(clean_dir: Path, data_dir: Path) -> ReleaseFaithfulness:
    """Every game config under `<clean_dir>/Season_*/`, in order; each game gets its own outcome."""
    if not clean_dir.is_dir():
        raise UserError(f"{clean_dir}: directory not found (expected the release's dataset/clean_process)")
    if not data_dir.is_dir():
        raise UserError(f"{data_dir}: directory not found (expected the release's dataset/data)")
    configs, skipped = find_config_files(clean_dir)
    if not configs:
        raise UserError(f"{clean_dir}: no game config files (Season_*/NN - GAME_CONFIG.txt, NN-GAME_CONFIG.py, NN - GAME_CONFIG.txt / NN-GAME_CONFIG.py, ...)")
    result = ReleaseFaithfulness([], skipped=skipped)
    for c in configs:
        try:
            result.games.append(check_release_game(c.path, data_dir, c.number))
        except LogUnreadable as e:
            result.failed[f"{data_dir.name}/{e.path.parent.name}/{e.path.name}"] = str(e)
        except UserError as e:
            result.failed[f"{c.path.parent.name}/{c.path.name}"] = str(e)
    return result


def summary(release: ReleaseFaithfulness) -> dict[str, Any]:
    reports = release.games
    kinds: dict[str, int] = {}
    for r in reports:
        for d in r.differences:
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
    return {
        "games": len(reports),
        "games_failed": len(release.failed),
        "release_turns": sum(r.release_turns for r in reports),
        "exact_turns": sum(r.exact for r in reports),
        "games_all_exact": sum(1 for r in reports if r.exact == r.release_turns),
        "differences_by_kind": dict(sorted(kinds.items())),
        "unexplained": sum(len(r.unexplained) for r in reports),
        # game id -> first validation error: `annotate build` writes these only with --keep-invalid
        "need_keep_invalid": {r.game_id: r.validation_errors[0] for r in reports if r.validation_errors},
        "failed": dict(release.failed),
        "skipped": list(release.skipped),
    }


def text_report(release: ReleaseFaithfulness) -> str:
    """What `annotate faithfulness` prints: each game, its differences and why it needs --keep-invalid; the total last."""
    reports = release.games
    total = summary(release)
    lines = [f"note: {s}" for s in release.skipped]
    for r in reports:
        lines.append(f"{r.game_id}: {r.exact}/{r.release_turns} release turns reproduced exactly ({r.built_turns} built), "
                     f"{len(r.differences)} difference(s), {len(r.unexplained)} unexplained")
        for d in r.differences:
            ids = f" segments {d.segment_ids[0]}..{d.segment_ids[-1]}" if d.segment_ids else ""
            lines.append(f"  - [{d.kind}]{ids}: {d.explanation}")
        lines += [f"  warning: {w}" for w in r.duplicate_keys]
        if r.validation_errors:
            more = f" (+{len(r.validation_errors) - 1} more)" if len(r.validation_errors) > 1 else ""
            lines.append(f"  ! `annotate build` writes this game only with --keep-invalid: {r.validation_errors[0]}{more}")
    for file, error in release.failed.items():
        lines.append(f"{file}: not checked: {error}")
    need = total["need_keep_invalid"]
    if need:
        lines.append(f"{len(need)}/{total['games']} games need --keep-invalid to build (the release's own errors, shown above): {', '.join(need)}")
    failed = f"; {len(release.failed)} game(s) could not be checked" if release.failed else ""
    lines.append(f"total: {total['exact_turns']}/{total['release_turns']} turns exact; {total['games_all_exact']}/{total['games']} games "
                 f"with every turn exact; differences by kind: {total['differences_by_kind']}; unexplained: {total['unexplained']}{failed}")
    return "\n".join(lines)
