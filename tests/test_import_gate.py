"""Import never writes what `werealign validate` rejects (werealign.importers.toolkit.gate).

A property test on invented releases (all text made up here, nothing from WereBench): games whose MVP
cut-offs are shifted anywhere, whose phases are missing, duplicated, skipped or renumbered, whose speech
items point anywhere. Whatever the import keeps, the validator accepts; whatever it leaves out is named.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from werealign.importers.report import ImportReport
from werealign.importers.werebench.importer import import_werebench
from werealign.importers.toolkit.gate import gate_game, gate_items
from werealign.schema import Event, MvpVote
from werealign.schema.models import EVERYONE
from werealign.validate import check_paths, count

ORD = ("first", "second", "third", "fourth", "fifth", "sixth")
ROLES = ["预言家", "女巫", "猎人", "狼人", "狼人", "村民", "村民"]


def _t(seconds: float) -> str:
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d},{int(round((seconds % 1) * 1000)):03d}"


def invented_game(rng: random.Random, game_no: int) -> tuple[dict, list[dict]]:
    """One invented game in the release's format, already mutated, and speech questions on it."""
    n = len(ROLES)
    labels = [f"说话人 {i}" for i in range(1, n + 2)]  # the first label is the host's
    roles = ROLES[:]
    rng.shuffle(roles)
    days = rng.randint(2, 4)
    phase_keys = ["first_night", "sheiff_election", "first_day"]
    for d in range(1, days):
        phase_keys += [f"{ORD[d]}_night", f"{ORD[d]}_day"]
    t, seg = 1.0, 1
    utts, status, alive = [], {}, list(range(1, n + 1))
    sheriff = None
    for key in phase_keys:
        status[key] = _t(t)
        turns = rng.randint(2, 5)
        for k in range(turns):
            if k == 0 or rng.random() < 0.25:
                speaker, text = "host", rng.choice(["天黑请闭眼", "天亮了，昨天晚上是平安夜", "请发言", "游戏继续"])
                if key.endswith("_day") and k == 0 and len(alive) > 3 and rng.random() < 0.6:
                    dead = rng.choice(alive)
                    alive.remove(dead)
                    text = f"天亮了，昨天晚上死亡的是 {dead} 号玩家"
                if key.endswith("_day") and k == turns - 1 and len(alive) > 3:
                    out = rng.choice(alive)
                    alive.remove(out)
                    text = f"所有玩家请投票，其余所有玩家投给{out} 号，{out} 号玩家出局"
            else:
                seat = rng.choice(alive)
                speaker, text = f"{seat}号", f"我是好人，我怀疑 {rng.randint(1, n)} 号，发言第 {seg} 段"
            if key == "first_day" and sheriff is None:
                sheriff = f"{rng.choice(alive)}号"
            n_segs = rng.randint(1, 3)
            segs = list(range(seg, seg + n_segs))
            utts.append({"utterance_id": segs, "start_time": _t(t), "end_time": _t(t + 4), "duration": 4, "status": key,
                         "speaker_id": speaker if speaker == "host" else labels[int(speaker[:-1])], "sheriff": sheriff,
                         "is_host": speaker == "host", "is_sheriff": False, "role": None, "text": text})
            seg += n_segs
            t += 5
    status["end_time"] = _t(t)
    last_seg = seg - 1
    votes = {f"{ORD[d]}_day_votes": {"vote_to": f"{rng.randint(1, n)}号", "cut_off_time": rng.randint(1, last_seg)} for d in range(days)}
    _mutate(rng, status, votes, utts, last_seg)
    game = {
        "metadata": {
            "game_id": game_no, "source": f"Demo Season 1, Episode {game_no}", "game_rules": "演示规则，采用屠边规则。",
            "game_roles": sorted(set(roles)), "game_status": status,
            "user_aliases": {labels[0]: ["host"], **{labels[i]: [f"{i}号"] for i in range(1, n + 1)}},
            "real_role": {labels[0]: "host", **{labels[i]: roles[i - 1] for i in range(1, n + 1)}},
            "MVP": {"id": f"{rng.randint(1, n)}号", "votes": votes},
            "logs": "演示日志", "total_utterances": last_seg, "language": "chinese", "summary": "演示回顾，好人阵营胜利",
        },
        "utterances": utts,
    }
    questions = [{"id": game_no * 100 + q, "utterance_id": rng.randint(-3, last_seg + 5), "role": f"{rng.randint(1, n + 2)}号",
                  "text": f"你怎么看 {rng.randint(1, n)} 号？", "text1": "", "options": [{"key": k, "text": f"演示选项 {k}{q}"} for k in "ABCDEFGHI"],
                  "answerKey": rng.choice("ABCDEFGHI"), "reference": f"data/Season_1/{game_no:02d}.json", "explanation": ""}
                 for q in range(rng.randint(1, 4))]
    return game, questions


def _mutate(rng: random.Random, status: dict, votes: dict, utts: list, last_seg: int) -> None:
    """What annotation does to a timeline and its cut-offs."""
    keys = [k for k in status if k != "end_time"]
    for _ in range(rng.randint(1, 3)):
        what = rng.choice(["shift", "missing", "duplicate", "skip", "renumber", "empty", "vote_key"])
        if what == "shift":  # a cut-off anywhere: before the game, after it, into another phase
            v = rng.choice(list(votes.values()))
            v["cut_off_time"] = rng.choice([0, -2, last_seg + rng.randint(1, 50), max(1, v["cut_off_time"] + rng.randint(-8, 8))])
        elif what == "missing" and len(keys) > 2:
            status.pop(rng.choice(keys[1:]), None)
        elif what == "duplicate":  # two phases starting at the same moment
            a, b = rng.sample(keys, 2)
            if a in status and b in status:
                status[b] = status[a]
        elif what == "skip":  # a night the recording skips: its day follows the day before
            nights = [k for k in keys if k.endswith("_night") and k != "first_night"]
            if nights:
                k = rng.choice(nights)
                status.pop(k, None)
                for u in utts:
                    if u["status"] == k:
                        u["status"] = k.replace("night", "day")
        elif what == "renumber":  # nights and days counted from another start
            shift = rng.choice([1, -1])
            renamed = {}
            for k, v in status.items():
                head, _, kind = k.partition("_")
                if head in ORD and kind in ("night", "day") and 0 <= ORD.index(head) + shift < len(ORD):
                    renamed[f"{ORD[ORD.index(head) + shift]}_{kind}"] = v
                else:
                    renamed[k] = v
            status.clear()
            status.update(renamed)
        elif what == "empty" and keys:
            k = rng.choice(keys)
            if k in status:
                status[k] = ""
        elif what == "vote_key":
            key = rng.choice(list(votes))
            votes[rng.choice(["sixth_day_votes", "first_night_votes", "second_day_votes"])] = votes.pop(key)


def write_invented_release(root: Path, seed: int) -> Path:
    rng = random.Random(seed)
    (root / "data" / "Season_1").mkdir(parents=True)
    (root / "WereBench").mkdir()
    questions = []
    for game_no in range(1, rng.randint(1, 3) + 1):
        game, qs = invented_game(rng, game_no)
        questions += qs
        (root / "data" / "Season_1" / f"{game_no:02d}.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    cats = [{"categoryName": c, "questions": questions[i::2]} for i, c in enumerate(("Role Inference", "Strategic Judgment"))]
    (root / "WereBench" / "WereBench.json").write_text(json.dumps({"questionSetTitle": "demo", "version": "1.0", "categories": cats}, ensure_ascii=False), encoding="utf-8")
    return root


@pytest.mark.parametrize("seed", range(30))
def test_import_of_invented_games_always_validates(tmp_path, seed):
    src = write_invented_release(tmp_path / "release", seed)
    out = tmp_path / "out"
    summary = import_werebench(src, out)
    report = check_paths([out])
    errors = [f for f in report.findings if f.severity == "error"]
    assert count(report.findings)[0] == 0, "\n".join(f"{f.location()}: {f.message} [{f.code}]" for f in errors[:10])
    # Nothing left out silently: every MVP vote is an item or a named drop.
    rep = json.loads((out / "import_report.json").read_text(encoding="utf-8"))
    assert summary.counts["games_converted"] + summary.counts["games_dropped"] == summary.counts["games_in_source"]
    assert all(e["why"] and e["what"] for kind in ("dropped", "repaired") for e in rep[kind])


# --------------------------------------------------------------------------- the gate on its own


def _demo_game(tmp_path: Path):
    from test_import_werebench import write_release

    from werealign.dataset import load_dataset

    out = tmp_path / "out"
    import_werebench(write_release(tmp_path / "release"), out)
    return load_dataset(out)


def test_gate_removes_a_vote_and_an_event_validate_rejects_and_names_them(tmp_path):
    ds = _demo_game(tmp_path)
    game = ds.games["pandakill-s1-01"]
    bad_vote = MvpVote(phase="night-1", target=2, cutoff_segment=1, original_label="invented_votes")
    # anchored at the game's last segment: an exit anchored early would also make the seat's later votes invalid
    # (issue 44: no vote after leaving), and the gate would rightly remove those too
    last = max(s for u in game.utterances for s in u.segment_ids)
    bad_event = Event(kind="elimination", phase="day-9", segment_id=last, audience=EVERYONE, target=3, result="voted_out")
    broken = game.model_copy(update={"mvp": game.mvp.model_copy(update={"votes": [*game.mvp.votes, bad_vote]}), "events": [*game.events, bad_event]})
    report = ImportReport(source="test")
    kept = gate_game(broken, report, "data/Season_1/01.json")
    assert kept is not None
    assert kept.mvp.votes == game.mvp.votes and kept.events == game.events
    codes = {(e.code, e.item) for e in report.entries["dropped"]}
    assert ("mvp_vote_invalid", "invented_votes") in codes and any(c == "event_invalid" for c, _ in codes)


def test_gate_drops_a_game_no_rule_repairs_and_its_items_with_it(tmp_path):
    ds = _demo_game(tmp_path)
    game = ds.games["pandakill-s1-01"]
    seats = [*game.seats, game.seats[0]]  # a seat listed twice: nothing to remove, the game is wrong
    report = ImportReport(source="test")
    assert gate_game(game.model_copy(update={"seats": seats}), report, "data/Season_1/01.json") is None
    [entry] = report.entries["dropped"]
    assert entry.code == "game_unusable" and "seat-duplicate" in entry.what
    kept, rejected = gate_items({"vote": list(ds.items["vote"])}, {}, report, lambda it: "x")
    assert kept["vote"] == [] and rejected["vote"] == len(ds.items["vote"]) > 0
    assert {e.code for e in report.entries["dropped"][1:]} == {"item_invalid"}


def test_gate_drops_an_item_whose_cutoff_lies_outside_its_phase(tmp_path):
    ds = _demo_game(tmp_path)
    game = ds.games["pandakill-s1-01"]
    item = ds.items["vote"][0]
    night_seg = next(u.segment_ids[0] for u in game.utterances if u.phase.startswith("night"))
    bad = item.model_copy(update={"item_id": item.item_id + "-x", "cutoff_segment": night_seg})
    report = ImportReport(source="test")
    kept, rejected = gate_items({"vote": [item, bad, item]}, ds.games, report, lambda it: "x")
    assert kept["vote"] == [item] and rejected["vote"] == 2
    whats = sorted(e.what for e in report.entries["dropped"])
    assert any("cutoff-outside-phase" in w for w in whats) and any("duplicate-item-id" in w for w in whats)
