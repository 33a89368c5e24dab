"""DIR of an arena run: a werealign dataset (dataset.json, games/, items/ with the VA/OI items derived
from each game's MVP) plus `arena.json` (the tournament table), `traces/<game>.jsonl` (every decision:
bids, choices, role estimates, the stored request behind it) and `responses.sqlite` (every model call).

The store is written while games are played; the rest is written once every game is done, staged
beside the final files and moved into place, so a failed run leaves the previous output (and the
store it resumes from) as it was.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from werealign.dataset import MANIFEST, write_dataset
from werealign.files import dumps, dumps_line
from werealign.game.derive import derive_decision_items
from werealign.llm.store import STORE_NAME
from werealign.schema import ArenaSummary, GameLog, OpponentItem, SpeechItem, VoteItem
from werealign.tasks import kind_of_model

SUMMARY = "arena.json"
TRACES = "traces"
OWNED = (MANIFEST, "games", "items", SUMMARY, TRACES, STORE_NAME)


def write_arena(out: Path, games: list[GameLog], traces: dict[str, list[dict]], summary: dict, *, name: str) -> tuple[int, int]:
    """Write the dataset part of DIR; returns the numbers of VA and OI items derived."""
    vote, opponent = [], []
    for g in sorted(games, key=lambda g: g.game_id):
        derived = derive_decision_items(g)
        vote += derived.vote
        opponent += derived.opponent
    # Through the schema (werealign.schema.arena): what analyze and leaderboard --arena read is what was written.
    extra = {SUMMARY: dumps(ArenaSummary.model_validate(summary).model_dump(mode="json"))}
    extra.update({f"{TRACES}/{gid}.jsonl": "".join(dumps_line(r) for r in rows) for gid, rows in sorted(traces.items())})
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=out, prefix=".staging."))
    try:
        write_dataset(stage, name=name, version="1", licence="CC-BY-4.0", games=games, items={kind_of_model(SpeechItem): [], kind_of_model(VoteItem): vote, kind_of_model(OpponentItem): opponent},
                      description="Self-play games of the werealign arena.", source="werealign arena", extra_files=extra)
        for entry in (*OWNED[1:-1], MANIFEST):  # the manifest last: it vouches for the rest
            old = out / entry
            if old.is_dir():
                shutil.rmtree(old)
            elif old.exists():
                old.unlink()
            if (stage / entry).exists():
                (stage / entry).rename(old)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return len(vote), len(opponent)
