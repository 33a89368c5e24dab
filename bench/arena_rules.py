"""The arena on the human boards, replayed by an independent rule checker (issue 44's done-when).

    python bench/arena_rules.py DATASET_DIR OUT_DIR [GAMES_PER_BOARD] [GAME_ID ...]    # from the checkout's root

DATASET_DIR is an imported release (`werealign import werebench ...`); each GAME_ID's log (default: one game of
every setup the engine plays, Season 5 and the ghost bride included; a name ending in .json is a board file used
as is) is given to `werealign arena --board` with the two rule agents
(rule/heuristic, rule/random; no model call), GAMES_PER_BOARD games each (default 12), seeded. Every game is then
read by tests/arena_rule_check.py (written from the rules, not from the engine, reading each log's declared
rules) and by `werealign validate`'s game checks; the script prints one line per board and the totals, and also
which of the dataset's games load as boards (and, for those that do not, the first line of the refusal).
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
import sys
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign
sys.path.insert(0, os.path.join(os.getcwd(), "tests"))

DEFAULT_BOARDS = ("pandakill-s1-01", "pandakill-s1-10", "pandakill-s1-16", "pandakill-s3-01", "pandakill-s3-04",
                  "pandakill-s3-07", "pandakill-s3-16", "pandakill-s5-01", "pandakill-s5-03", "pandakill-s5-07",
                  "pandakill-s3-25", "pandakill-s3-26", "pandakill-s3-27")  # the last three: the ghost bride


def loadable(dataset: Path) -> tuple[int, int, list[str]]:
    from werealign.arena.board import load_board
    from werealign.errors import UserError

    paths = sorted((dataset / "games").glob("*.json"))
    refused = []
    for p in paths:
        try:
            load_board(str(p))
        except UserError as e:
            refused.append(f"{p.stem}: {str(e).split(': ', 2)[-1][:160]}")
    return len(paths) - len(refused), len(paths), refused


def main(argv: list[str]) -> None:
    from arena_rule_check import rule_breaks

    from werealign.dataset import load_dataset
    from werealign.validate import validate_game

    dataset, out = Path(argv[0]), Path(argv[1])
    per_board = int(argv[2]) if len(argv) > 2 else 12
    boards = argv[3:] or list(DEFAULT_BOARDS)
    ok, total, refused = loadable(dataset)
    print(f"boards: {ok} of {total} imported games load as boards")
    for line in refused:
        print(f"  refused {line}")
    games = breaks = errors = 0
    for gid in boards:
        dest = out / Path(gid).stem
        cmd = [sys.executable, "-m", "werealign.cli", "arena", "--model", "rule/heuristic", "--model", "rule/random",
               "--games", str(per_board), "--seed", "1", "--board", gid if gid.endswith(".json") else str(dataset / "games" / f"{gid}.json"),
               "--out", str(dest)]
        r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
        if r.returncode != 0:
            print(f"{gid}: arena failed: {r.stderr.strip()[:300]}")
            continue
        played = list(load_dataset(dest).games.values())
        found = [(g.game_id, b) for g in played for b in rule_breaks(g)]
        errs = [(g.game_id, f.code) for g in played for f in validate_game(g, g.game_id) if f.severity == "error"]
        events = {k: sum(1 for g in played for e in g.events if (e.skill or e.kind) == k)
                  for k in ("self_destruct", "witch_save", "wolf_beauty_charm", "stalker_assassinate", "solo_kill", "magician_swap", "fox_tails", "tiangou_swallow",
                            "exile_void", "moon_delay", "hunter_shoot",
                            "sheriff_election", "ghost_bride_link", "cupid_link", "side_switch", "third_kill")}
        events["died_with_partner"] = sum(1 for g in played for e in g.events if e.kind == "elimination" and e.result == "died_with_partner")
        events["winners"] = dict(sorted(Counter(str(g.winner) for g in played).items()))
        resumed = sum(1 for g in played for p in g.phases if p.id == "sheriff_election-2")
        events["witch_self_save"] = sum(1 for g in played for e in g.events if e.skill == "witch_save" and e.actor == e.target)
        events["twice_eliminated"] = sum(1 for g in played for s in g.seats
                                         if sum(1 for e in g.events if e.kind == "elimination" and e.target == s.seat) > 1)
        print(f"{gid}: {len(played)} games, {len(found)} rule breaks, {len(errs)} validate errors; "
              f"events {events}, elections resumed {resumed}")
        for gid_, b in found[:5]:
            print(f"  break {gid_}: {b}")
        games, breaks, errors = games + len(played), breaks + len(found), errors + len(errs)
    print(f"total: {games} games on {len(boards)} boards, {breaks} rule breaks, {errors} validate errors")


if __name__ == "__main__":
    main(sys.argv[1:])
