"""Issue 20 item 2: one truth per seat. real_role against the annotator log and the recap; the majority wins,
else the seat is disputed and the items standing on it are withheld; everything named in the import report.
Invented games and sentences only."""

from __future__ import annotations

import json

from cli_inproc import run_cli
from test_import_werebench import _game, write_release
from werealign.dataset import load_dataset
from werealign.importers.werebench.reconcile import stated_roles


def test_stated_roles_reads_rosters_lists_and_brackets_but_not_opinions_or_claims():
    text = ("1 号预言家，2 号女巫；3 号、5 号和 6 号为狼人；4 号（阔人）；"
            "2 号发言认为 5 号是预言家；7 号跳预言家称自己是预言家；第一晚被 7 号选为守卫的对象")
    assert stated_roles(text, 8) == {1: ["seer"], 2: ["witch"], 3: ["werewolf"], 5: ["werewolf"], 6: ["werewolf"], 4: ["hunter"]}
    # a transcript's stutter "2 号12 号是…" states only the seat next to the verb; the first statement counts
    assert stated_roles("2 号12 号是守卫，2 号2 号是女巫", 12) == {12: ["guard"], 2: ["witch"]}


def _import(tmp_path, game):
    src = write_release(tmp_path / "release", game=game)
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(src), "--out", str(out))
    assert r.returncode == 0, r.stderr
    return load_dataset(out), json.loads((out / "import_report.json").read_text(encoding="utf-8"))


def test_the_log_and_the_recap_together_correct_real_role(tmp_path):
    game = _game()  # seats: 1 seer (the MVP), 2 witch, 3 hunter, 4 and 5 werewolves, 6 villager
    # real_role swaps seats 4 and 6; the annotator log and the recap both say 4 is the wolf and 6 the villager
    game["metadata"]["real_role"]["说话人 7"] = "狼人"
    game["metadata"]["real_role"]["说话人 5"] = "村民"
    game["metadata"]["logs"] = "1 号是预言家，带队；4 号是狼人，假跳；6 号是村民"
    game["metadata"]["summary"] = "演示回顾：4 号是狼人，6 号是村民，好人阵营胜利"
    ds, report = _import(tmp_path, game)
    seats = {s.seat: s for s in ds.games["pandakill-s1-01"].seats}
    assert (seats[6].role, seats[6].faction) == ("villager", "good") and (seats[4].role, seats[4].faction) == ("werewolf", "wolf")
    fixed = sorted(e["what"] for e in report["repaired"] if e["code"] == "role_corrected")
    assert len(fixed) == 2 and fixed[0].startswith("seat 4: real_role '村民'") and fixed[1].startswith("seat 6: real_role '狼人'")
    # the OI answers follow the corrected seat, and each such item is named
    assert all(6 not in i.answer for i in ds.opponent) and ds.opponent
    named = {e["item"] for e in report["repaired"] if e["code"] == "item_on_corrected_seat"}
    assert named == {i.item_id for i in ds.opponent}


def test_one_source_against_real_role_is_a_dispute_and_its_items_are_withheld(tmp_path):
    game = _game()
    game["metadata"]["logs"] = "1 号是预言家，带队；6 号是狼人"  # real_role: villager; the recap says nothing of seat 6
    ds, report = _import(tmp_path, game)
    assert [e["what"].split(":")[0] for e in report["warning"] if e["code"] == "role_disputed"] == ["seat 6"]
    assert {s.seat: s.role for s in ds.games["pandakill-s1-01"].seats}[6] == "villager"  # real_role kept in the game
    withheld = [e for e in report["dropped"] if e["code"] == "item_on_disputed_seat"]
    assert withheld and not ds.opponent  # OI answers depend on every seat's side
    assert {e["item"] for e in withheld} >= {"pandakill-s1-01-oi-first-day"}
    assert ds.vote  # the VA items ask seat 1, whose role nobody disputes
    # the log agreeing with real_role keeps everything
    game["metadata"]["logs"] = "1 号是预言家，带队；6 号是村民"
    ds, report = _import(tmp_path / "b", game)
    assert ds.opponent and not [e for e in report["warning"] if e["code"] == "role_disputed"]


def test_a_public_self_destruct_votes_for_the_wolf_side(tmp_path):
    game = _game()
    # real_role says seat 6 is a villager, but the host announces it blowing itself up (only a wolf-side card may)
    game["utterances"][6]["text"] = "6 号玩家自爆，游戏继续"
    ds, report = _import(tmp_path, game)
    disputed = [e for e in report["warning"] if e["code"] == "role_disputed"]
    assert len(disputed) == 1 and disputed[0]["what"].startswith("seat 6") and "self-destructed" in disputed[0]["what"]
    # with the annotator log saying wolf too, the majority corrects the seat
    game["metadata"]["logs"] = "1 号是预言家，带队；6 号是狼人"
    ds, report = _import(tmp_path / "b", game)
    assert {s.seat: s.role for s in ds.games["pandakill-s1-01"].seats}[6] == "werewolf"
    assert [e["code"] for e in report["repaired"] if e["code"] == "role_corrected"] == ["role_corrected"]


def test_rosters_without_a_verb_and_recap_labels_are_read_but_not_objects_or_claims():
    # a roster without 是, going on after "、"; a seat that is the clause's object is no statement
    log = "1 号村民参与警长竞选；2 号女巫、7 号（猎人）；第二日点 3 号 4 号是狼；5 号（狼人）"
    assert stated_roles(log, 8) == {1: ["villager"], 2: ["witch"], 7: ["hunter"], 5: ["werewolf"]}
    # a roster entry that goes on about its seat ends the roster of its clause: the seat after is its object
    assert stated_roles("3 号（猎人）白天认为 8 号是狼", 8) == {3: ["hunter"]}
    # a recap labels players by the role word before the seat; a claim or check before it is what someone said
    recap = "第一晚守卫6 号选择空手，狼人落刀女巫 2 号；悍跳预言家7 号发查杀，8 号给金水村民 1 号"
    assert stated_roles(recap, 8) == {6: ["guard"], 2: ["witch"]}
    # a role between two seats may belong to either: read for neither; "是女巫 3 号" ends a statement (no commas)
    assert stated_roles("狼人落刀4 号女巫3 号用了解药", 8) == {}
    assert stated_roles("1 号是女巫 3 号3 号是猎人", 8) == {1: ["witch"], 3: ["hunter"]}
    # a number that is no seat (a garbled name "2010 号") after a role: the role is read for neither
    assert stated_roles("4 号灯笼匠 2010 号发动了技能", 12, {"灯笼匠": "灯笼匠"}) == {}


def test_a_role_no_catalogue_knows_is_read_by_the_configs_own_label():
    # the game's own label (an invented role) names the role: without it the roster states nothing of seat 7
    assert stated_roles("7 号灯笼匠参与警长竞选", 8) == {}
    assert stated_roles("7 号灯笼匠参与警长竞选", 8, {"灯笼匠": "lantern"}) == {7: ["lantern"]}
    assert stated_roles("夜里灯笼匠7 号点了灯", 8, {"灯笼匠": "lantern"}) == {7: ["lantern"]}


def test_a_verbless_roster_and_recap_labels_together_correct_a_swapped_seat(tmp_path):
    game = _game()  # seats: 1 seer (the MVP), 2 witch, 3 hunter, 4 and 5 werewolves, 6 villager
    game["metadata"]["real_role"]["说话人 7"] = "狼人"  # real_role swaps seats 4 and 6
    game["metadata"]["real_role"]["说话人 5"] = "村民"
    game["metadata"]["logs"] = "1 号预言家带队；2 号女巫；4 号狼人假跳；6 号村民发言少"
    game["metadata"]["summary"] = "演示回顾：第一晚狼人4 号选择落刀，村民6 号 被投出局，好人阵营胜利"
    ds, report = _import(tmp_path, game)
    seats = {s.seat: s for s in ds.games["pandakill-s1-01"].seats}
    assert (seats[4].role, seats[6].role) == ("werewolf", "villager")
    assert sorted(e["what"].split(":")[0] for e in report["repaired"] if e["code"] == "role_corrected") == ["seat 4", "seat 6"]
    assert not [e for e in report["warning"] if e["code"] == "role_disputed"]
