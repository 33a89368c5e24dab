"""Issue 30: every seat told what it knew. The rules say what each viewpoint must hold (werealign.game.knowledge);
what the log lacks is named on the item and in its prompt, and the faithful split leaves such items out.
The readers of night facts are tried on phrasings invented here, never taken from the release."""

from __future__ import annotations

from collections import Counter

from crafted_game import crafted_game, crafted_speech_item, crafted_vote_item

from werealign.dataset import load_dataset, write_dataset
from werealign.eval.prompts import render_messages
from werealign.splits import apply_split
from werealign.game.knowledge import coverage, missing_knowledge, owed_and_missing
from werealign.importers.toolkit.nights.claims import read_statements, statement_events
from werealign.importers.toolkit.nights.night_truth import settle_night_actions
from werealign.importers.toolkit.nights.nights import read_night_actions
from werealign.schema import Event, GameLog, Phase, SeatInfo, Segment, Utterance
from werealign.schema.models import ACTOR, Audience, MissingFact
from werealign.schema.roles import RoleDeclaration, builtin_catalogue, catalogue_for

BUILTIN = builtin_catalogue()  # these tests read games that declare no role

WOLVES = Audience(kind="team", team="wolf")
EVERYONE = Audience(kind="everyone")


def _three_nights(events: list[Event], *, declared: list[RoleDeclaration] | None = None, seats: list[SeatInfo] | None = None) -> GameLog:
    """The crafted game stretched to three nights, with the events given (segments 100+ are day 3)."""
    g = crafted_game()
    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=9.9), Phase(id="day-1", kind="day", day=1, start=10, end=29.9),
              Phase(id="night-2", kind="night", day=2, start=30, end=39.9), Phase(id="day-2", kind="day", day=2, start=40, end=59.9),
              Phase(id="night-3", kind="night", day=3, start=60, end=69.9), Phase(id="day-3", kind="day", day=3, start=70, end=99.9)]
    utts = [Utterance(index=0, segment_ids=[1], start=1, end=1.9, phase="night-1", speaker="host", text="Night falls."),
            Utterance(index=1, segment_ids=[10], start=10, end=10.9, phase="day-1", speaker="host", text="Day one."),
            Utterance(index=2, segment_ids=[40], start=40, end=40.9, phase="day-2", speaker="host", text="Day two."),
            Utterance(index=3, segment_ids=[70], start=70, end=70.9, phase="day-3", speaker="host", text="Day three."),
            Utterance(index=4, segment_ids=[71], start=71, end=71.9, phase="day-3", speaker=3, text="I speak on day three.")]
    rules = g.rules.model_copy(update={"declared_roles": declared or []})
    return g.model_copy(update={"phases": phases, "utterances": utts, "events": events, "rules": rules, "mvp": None, "highlights": [],
                                "seats": seats or g.seats})


def _check(night: str, seat: int, target: int) -> Event:
    return Event(kind="skill_use", phase=night, segment_id=None, audience=ACTOR, actor=seat, target=target, skill="seer_check", result="good")


def test_a_seer_owes_one_check_per_night_she_lived_and_the_gap_is_named():
    g = _three_nights([_check("night-1", 3, 2), _check("night-3", 3, 6)])
    owed, missing = owed_and_missing(g, 3, cutoff=71)
    assert [f.night for f in owed] == ["night-1", "night-2", "night-3"]
    assert missing == [MissingFact(night="night-2", fact="seer_check")]
    # the night in progress is not owed yet: at a cut-off inside night 3 only nights 1 and 2 are
    assert [f.night for f in owed_and_missing(g, 3, cutoff=1)[0]] == []
    assert missing_knowledge(g, None, 71) == []  # an observer is owed nothing


def test_a_seat_out_before_a_night_owes_nothing_of_it_and_a_seat_killed_that_night_still_acted():
    out_day1 = Event(kind="elimination", phase="day-1", segment_id=10, audience=EVERYONE, target=3, result="voted_out")
    g = _three_nights([_check("night-1", 3, 2), out_day1])
    assert owed_and_missing(g, 3, cutoff=71) == ([MissingFact(night="night-1", fact="seer_check")], [])
    killed_night2 = Event(kind="elimination", phase="night-2", segment_id=None, audience=EVERYONE, target=3, result="night_death")
    g = _three_nights([_check("night-1", 3, 2), killed_night2])
    assert [f.night for f in owed_and_missing(g, 3, cutoff=71)[1]] == ["night-2"]


def test_the_witch_is_owed_the_victim_until_she_uses_her_antidote_and_every_wolf_the_pack_kill():
    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=WOLVES, target=6, skill="wolf_kill")
    told1 = kill1.model_copy(update={"audience": Audience(kind="seats", seats=[5])})
    save1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=5, target=6, skill="witch_save")
    g = _three_nights([kill1, told1, save1, _check("night-1", 3, 2)])
    assert owed_and_missing(g, 5, cutoff=71) == ([MissingFact(night="night-1", fact="wolf_kill")], [])  # antidote spent on night 1
    owed, missing = owed_and_missing(g, 4, cutoff=71)  # a wolf: the kill of every night
    assert [f.night for f in missing] == ["night-2", "night-3"] and len(owed) == 3
    # without the save, the witch is owed every night's victim
    g = _three_nights([kill1, told1])
    assert [f.night for f in owed_and_missing(g, 5, cutoff=71)[1]] == ["night-2", "night-3"]


def test_an_invented_role_declares_what_it_learns_each_night():
    hound = RoleDeclaration(id="moon_hound", faction="wolf", team="wolves", names={"en": ["moon hound"]}, knows_each_night=["wolf_kill", "moon_gaze"])
    seats = [s.model_copy(update={"role": "moon_hound"}) if s.seat == 4 else s for s in crafted_game().seats]
    gaze = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=4, target=2, skill="moon_gaze")
    g = _three_nights([gaze], declared=[hound], seats=seats)
    missing = owed_and_missing(g, 4, cutoff=71)[1]
    assert MissingFact(night="night-1", fact="moon_gaze") not in missing
    assert MissingFact(night="night-2", fact="moon_gaze") in missing and MissingFact(night="night-1", fact="wolf_kill") in missing
    counts = coverage(g)
    assert counts[("moon_hound", "moon_gaze", "owed")] == 3 and counts[("moon_hound", "moon_gaze", "read")] == 1


def test_the_prompt_names_what_is_missing_and_never_claims_completeness_it_lacks():
    item = crafted_speech_item().model_copy(update={"cutoff_segment": 71})
    incomplete = _three_nights([_check("night-1", 3, 2), _check("night-3", 3, 6)])
    text = render_messages(incomplete, item)[-1]["content"]
    assert "the game record does not hold it" in text and "whom you checked and the result" in text
    assert "You do not know any other player's role except as stated here." not in text
    complete = _three_nights([_check("night-1", 3, 2), _check("night-2", 3, 4), _check("night-3", 3, 6)])
    text = render_messages(complete, item)[-1]["content"]
    assert "You do not know any other player's role except as stated here." in text and "does not hold it" not in text


def test_written_items_carry_knowledge_missing_and_the_faithful_split_leaves_them_out(tmp_path):
    g = _three_nights([_check("night-1", 3, 2)])
    ok = crafted_vote_item().model_copy(update={"item_id": "early", "cutoff_segment": 10})  # day 1: night 1 is known
    late = crafted_vote_item().model_copy(update={"item_id": "late", "cutoff_segment": 71, "phase": "day-3"})
    write_dataset(tmp_path / "ds", name="t", version="1", licence="x", games=[g], items={"vote": [ok, late]})
    ds = load_dataset(tmp_path / "ds")
    by_id = {i.item_id: i for i in ds.items_of("vote")}
    assert by_id["early"].knowledge_missing == []
    assert [f.night for f in by_id["late"].knowledge_missing] == ["night-2", "night-3"]
    assert '"knowledge_missing"' not in (tmp_path / "ds" / "items" / "vote.jsonl").read_text().splitlines()[0]  # absent when complete
    kept, left = apply_split(ds.items_of("vote"), ds.games, "faithful")
    assert [i.item_id for i in kept] == ["early"] and left == Counter({"knowledge_missing": 1})
    assert len(apply_split(ds.items_of("vote"), ds.games, "all")[0]) == 2


# --------------------------------------------------------------------------- readers, on invented phrasings


def _zh_game(turns: list[tuple[str, int, str]]) -> tuple[list[SeatInfo], list[Phase], list[Utterance]]:
    roles = {1: ("werewolf", "wolf"), 2: ("villager", "good"), 3: ("seer", "good"), 4: ("werewolf", "wolf"), 5: ("witch", "good"),
             6: ("villager", "good"), 7: ("guard", "good")}
    seats = [SeatInfo(seat=s, role=r, faction=f) for s, (r, f) in roles.items()]
    phases = [Phase(id="night-1", kind="night", day=1, start=0, end=9), Phase(id="day-1", kind="day", day=1, start=10, end=29),
              Phase(id="night-2", kind="night", day=2, start=30, end=39), Phase(id="day-2", kind="day", day=2, start=40, end=59),
              Phase(id="night-3", kind="night", day=3, start=60, end=69), Phase(id="day-3", kind="day", day=3, start=70, end=99)]
    start = {"day-1": 10, "day-2": 40, "day-3": 70}
    utts = [Utterance(index=i, segment_ids=[start[p] + i], start=start[p] + i, end=start[p] + i + 0.5, phase=p, speaker=s, text=t,
                      segments=[Segment(id=start[p] + i, start=start[p] + i, end=start[p] + i + 0.5, text=t)])
            for i, (p, s, t) in enumerate(turns)]
    return seats, phases, utts


def _facts(turns, known=()):
    seats, phases, utts = _zh_game(turns)
    events, refused, _ = statement_events(read_statements(utts, seats, phases, catalogue=BUILTIN), seats, phases, list(known), catalogue_for(()), True)
    return {(e.phase, e.skill, e.target, e.result) for e in events}, refused


def test_a_true_seers_reports_in_unseen_wordings_become_her_checks_on_their_nights():
    facts, _ = _facts([
        ("day-1", 3, "各位好，警徽流先看 6 号再看 2 号。首夜我摸的七号，给个金水，大家放心"),
        ("day-2", 3, "这一轮我去查验的是 4 号，他是一张查杀，今天必须出"),
        ("day-2", 1, "我才是预言家，昨晚验了 2 号是查杀"),  # a wolf's bluff: not its night
    ])
    assert facts == {("night-1", "seer_check", 7, "好人"), ("night-2", "seer_check", 4, "狼人")}


def test_a_report_the_truth_contradicts_or_a_plan_is_not_a_check():
    facts, refused = _facts([
        ("day-1", 3, "昨晚验了 6 号，是查杀"),  # 6 is good: a false report
        ("day-1", 3, "如果我能活到明天，我会验 2 号，他要是好人就是金水"),  # a plan, a hypothesis
    ])
    assert facts == set()
    assert any("disagrees" in why for _, why in refused)


def test_the_witch_and_the_guard_in_unseen_wordings_settle_against_the_dawn():
    turns = [("day-2", 5, "我是女巫，昨天晚上我把 4 号毒了，他是狼"), ("day-2", 7, "守卫跳一下，我昨晚守了 2 号，第一晚空守")]
    facts, _ = _facts(turns)
    assert ("night-2", "witch_poison", 4, None) in facts and ("night-2", "guard_protect", 2, None) in facts
    assert ("night-1", "guard_protect", None, None) in facts  # an empty guard, stated
    seats, phases, utts = _zh_game(turns)
    events, _, _ = statement_events(read_statements(utts, seats, phases, catalogue=BUILTIN), seats, phases, [], catalogue_for(()), True)
    # the poisoned seat is not announced dead at that dawn: the statement is dropped, not shown
    kept, dropped = settle_night_actions(events, [], seats, phases, catalogue=BUILTIN)
    assert not any(e.skill == "witch_poison" for e in kept) and any(e.skill == "witch_poison" for e, _ in dropped)


def test_a_wolf_named_by_an_unseen_role_word_and_a_compound_kill_verb_is_the_packs_kill():
    seats, phases, _ = _zh_game([])
    seats = [s.model_copy(update={"role": "wolf_beauty"}) if s.seat == 4 else s for s in seats]
    readings = read_night_actions("夜间情况：第二晚狼美人 4 号决定袭击了守卫 7 号，第三晚狼队首刀 2 号", seats, phases, "zh", catalogue=BUILTIN)
    assert {(r.event.phase, r.event.skill, r.event.target) for r in readings if r.event} == {("night-2", "wolf_kill", 7), ("night-3", "wolf_kill", 2)}


def test_a_lone_dawn_death_is_the_kill_only_when_no_poison_can_explain_it():
    seats, phases, _ = _zh_game([])
    death = Event(kind="elimination", phase="day-2", segment_id=40, audience=EVERYONE, target=6, result="night_death")
    poison_n1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=5, target=1, skill="witch_poison")
    died_n1 = Event(kind="elimination", phase="day-1", segment_id=10, audience=EVERYONE, target=1, result="night_death")
    kept, _ = settle_night_actions([poison_n1], [died_n1, death], seats, phases, catalogue=BUILTIN)
    assert ("night-2", 6) in {(e.phase, e.target) for e in kept if e.skill == "wolf_kill"}  # the poison was spent on night 1
    kept, _ = settle_night_actions([], [death], seats, phases, catalogue=BUILTIN)
    assert not any(e.skill == "wolf_kill" for e in kept)  # the witch may have poisoned seat 6: not known


def test_the_release_ships_the_faithful_split_beside_the_full_one(tmp_path, monkeypatch):
    import datasets
    import yaml

    from werealign.release.build import build_release

    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    datasets.disable_progress_bars()
    g = _three_nights([_check("night-1", 3, 2)])
    ok = crafted_vote_item().model_copy(update={"item_id": "early", "cutoff_segment": 10})
    late = crafted_vote_item().model_copy(update={"item_id": "late", "cutoff_segment": 71, "phase": "day-3"})
    write_dataset(tmp_path / "ds", name="t", version="1", licence="x", games=[g], items={"vote": [ok, late]})
    release = build_release(tmp_path / "ds", tmp_path / "rel")
    assert release.rows["vote"] == 2 and release.rows["vote_faithful"] == 1
    header = yaml.safe_load((tmp_path / "rel" / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert "vote_faithful" in {c["config_name"] for c in header["configs"]}
    assert "faithful split" in (tmp_path / "rel" / "README.md").read_text(encoding="utf-8")
    rows = datasets.load_dataset(str(tmp_path / "rel"), "vote_faithful", split="test", cache_dir=str(tmp_path / "hf-cache"))  # never a shared cache's rows
    assert [r["item_id"] for r in rows] == ["early"]
    full = datasets.load_dataset(str(tmp_path / "rel"), "vote", split="test", cache_dir=str(tmp_path / "hf-cache"))
    assert [r["knowledge_missing"] for r in full][1] == [{"night": "night-2", "fact": "seer_check"}, {"night": "night-3", "fact": "seer_check"}]


def test_validate_warns_when_an_items_knowledge_missing_disagrees_with_its_game(tmp_path):
    import json

    from werealign.validate import validate_paths

    g = _three_nights([_check("night-1", 3, 2)])
    late = crafted_vote_item().model_copy(update={"item_id": "late", "cutoff_segment": 71, "phase": "day-3"})
    write_dataset(tmp_path / "ds", name="t", version="1", licence="x", games=[g], items={"vote": [late]})
    path = tmp_path / "ds" / "items" / "vote.jsonl"
    row = json.loads(path.read_text())
    assert row["knowledge_missing"]
    row.pop("knowledge_missing")  # an item that claims its viewpoint knew everything
    path.write_text(json.dumps(row) + "\n")
    findings = validate_paths([tmp_path / "ds"])
    assert any(f.code == "knowledge-missing-stale" and "night-2 seer_check" in f.message for f in findings), findings


def test_a_transcribed_recap_runs_on_and_names_the_victim_by_a_role_one_seat_holds():
    seats, phases, _ = _zh_game([])
    recap = "第二晚 狼队最后决定袭击守卫阿明 大家都很意外 第三晚狼人小队落刀村民老王 女巫 5 号 选择撒毒"
    got = {(r.event.phase, r.event.target) for r in read_night_actions(recap, seats, phases, "zh", transcribed=True, catalogue=BUILTIN) if r.event}
    # the guard is seat 7 (one holder); "村民" is held by two seats: no target is read for night 3
    assert got == {("night-2", 7)}


def test_arena_games_hold_every_night_fact_the_rules_require(tmp_path):
    """Self-play writes what each seat learned: the knowledge rules find nothing missing in an arena game."""
    from cli_inproc import run_cli

    out = tmp_path / "arena"
    r = run_cli("arena", "--model", "rule/heuristic", "--games", "2", "--board", "standard12-zh", "--out", out)
    assert r.returncode == 0, r.stderr
    ds = load_dataset(out)
    owed = Counter()
    for g in ds.games.values():
        for (_, _, status), n in coverage(g).items():
            owed[status] += n
        assert all(not owed_and_missing(g, s.seat)[1] for s in g.seats), g.game_id
    assert owed["owed"] > 0 and owed["read"] == owed["owed"]


def test_a_dawn_death_neither_the_kill_nor_the_poison_explains_is_reported():
    from werealign.importers.toolkit.nights.night_truth import unexplained_dawns

    seats, phases, _ = _zh_game([])
    kill = Event(kind="skill_use", phase="night-2", segment_id=None, audience=WOLVES, target=6, skill="wolf_kill")
    poison = Event(kind="skill_use", phase="night-2", segment_id=None, audience=ACTOR, actor=5, target=1, skill="witch_poison")
    deaths = [Event(kind="elimination", phase="day-2", segment_id=40, audience=EVERYONE, target=t, result="night_death") for t in (6, 1, 2)]
    lines = unexplained_dawns([kill, poison], deaths, phases, catalogue=BUILTIN)
    assert len(lines) == 1 and "[2]" in lines[0] and lines[0].startswith("night-2")
    assert unexplained_dawns([kill, poison], deaths[:2], phases, catalogue=BUILTIN) == []
    assert unexplained_dawns([kill], deaths, phases, catalogue=BUILTIN) == []  # the poison is not known: seat 1 or 2 may be it


def test_issue30_a_death_announced_under_the_next_nights_label_ends_the_seats_duties_at_the_night_it_was_struck():
    # the seer knifed on night 1; the host's dawn line falls in a turn labelled night 2 (it runs on into nightfall)
    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=WOLVES, target=3, skill="wolf_kill")
    dead = Event(kind="elimination", phase="night-2", segment_id=None, audience=EVERYONE, target=3, result="night_death")
    g = _three_nights([_check("night-1", 3, 2), kill1, dead])
    assert owed_and_missing(g, 3, cutoff=71) == ([MissingFact(night="night-1", fact="seer_check")], [])
    # saved on night 1 (the kill did not take): the death under night 2's label is night 2's own, still owed
    save1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=5, target=3, skill="witch_save")
    g = _three_nights([_check("night-1", 3, 2), kill1, save1, dead])
    assert [f.night for f in owed_and_missing(g, 3, cutoff=71)[0]] == ["night-1", "night-2"]
    # struck again on night 2: the same
    kill2 = kill1.model_copy(update={"phase": "night-2"})
    g = _three_nights([_check("night-1", 3, 2), kill1, kill2, dead])
    assert [f.night for f in owed_and_missing(g, 3, cutoff=71)[0]] == ["night-1", "night-2"]


def test_a_poison_the_seats_role_survives_did_not_end_its_duties_at_that_night():
    # seat 3 holds an invented role that checks each night and survives a poison (declared: catalogue `survives`);
    # poisoned on night 1, announced dead under night 2's label: it lived through night 1, so night 2 is owed too
    gazer = RoleDeclaration(id="star_gazer", faction="good", team="gods", knows_each_night=["seer_check"], survives=["witch_poison"])
    poison1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=ACTOR, actor=5, target=3, skill="witch_poison")
    dead = Event(kind="elimination", phase="night-2", segment_id=None, audience=EVERYONE, target=3, result="night_death")
    base = _three_nights([]).seats
    seats = [s.model_copy(update={"role": "star_gazer"}) if s.seat == 3 else s for s in base]
    g = _three_nights([_check("night-1", 3, 2), poison1, dead], declared=[gazer], seats=seats)
    assert [f.night for f in owed_and_missing(g, 3, cutoff=71)[0]] == ["night-1", "night-2"]
    # declared without `survives`: the poison took it on night 1
    plain = gazer.model_copy(update={"survives": None})
    g = _three_nights([_check("night-1", 3, 2), poison1, dead], declared=[plain], seats=seats)
    assert [f.night for f in owed_and_missing(g, 3, cutoff=71)[0]] == ["night-1"]


def test_issue30_each_gap_carries_the_evidence_of_every_source_and_absence_is_only_claimed_when_none_can_hold_it():
    from werealign.game.knowledge_gaps import gaps

    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=WOLVES, target=6, skill="wolf_kill")
    seer_dead = Event(kind="elimination", phase="day-2", segment_id=40, audience=EVERYONE, target=3, result="night_death")
    spoke = _three_nights([_check("night-1", 3, 2), kill1, seer_dead])
    # a turn after her death (last words, or a slip of the label) could hold the check: the gap says she spoke after it
    assert "the holder spoke by day" in {(x.night, x.fact): x for x in gaps(spoke)}[("night-2", "seer_check")].kind
    g = spoke.model_copy(update={"utterances": [u for u in spoke.utterances if u.speaker != 3]})
    by = {(x.night, x.fact, x.holder): x for x in gaps(g)}
    # the seer knifed on night 2 never spoke again and no written source has a check under night 2
    seer2 = by[("night-2", "seer_check", "seat 3 (seer)")]
    assert (seer2.turns_after, seer2.dawn_deaths, seer2.found) == (0, 1, ())
    assert seer2.kind.startswith("absent")
    # night 2's kill: one dawn death, which another night skill (the witch's poison) may explain: absent to every
    # reader, and said so with what the dawn allows
    assert by[("night-2", "wolf_kill", "wolves")].kind.startswith("absent") and "poison" in by[("night-2", "wolf_kill", "wolves")].kind
    # the witch is told the same victim: on nights 2 and 3 one gap each, the pack's; on night 1 the pack's kill is
    # known and only the witch's copy is missing, which stays listed
    assert [(x.night, x.holder) for x in gaps(g) if x.fact == "wolf_kill"] == [
        ("night-1", "seat 5 (witch)"), ("night-2", "wolves"), ("night-3", "wolves")]


def test_issue41_gaps_are_classified_by_what_the_importers_own_readers_found_and_left_out():
    from werealign.game.knowledge_gaps import gaps
    from werealign.importers.toolkit.nights.night_facts import findings, read_night_facts

    kill1 = Event(kind="skill_use", phase="night-1", segment_id=None, audience=WOLVES, target=6, skill="wolf_kill")
    g = _three_nights([_check("night-1", 3, 2), kill1])
    # the log and the recap name two targets for the seer's night 2 (invented wordings): both read, neither kept
    g = g.model_copy(update={"annotator_log": "3 号是预言家，第二晚验 4 号是狼", "recap": "第二晚预言家3 号查验了 1 号，是狼人"})
    nf = read_night_facts(g.annotator_log, g.recap, g.utterances, g.seats, g.phases, "zh", [], catalogue=BUILTIN)
    assert (3, "seer_check", "night-2") in nf.disputed and not any(e.skill == "seer_check" and e.phase == "night-2" for e in nf.kept)
    gap = {(x.night, x.fact): x for x in gaps(g, findings(nf, g.phases))}[("night-2", "seer_check")]
    assert gap.kind == "found, not kept: disputed" and "seat 4" in gap.found[0] and "seat 1" in gap.found[0]
    # words near a night that no reader takes as a check ("第二晚查了半天") are no finding: absent, as before
    g2 = g.model_copy(update={"annotator_log": "第二晚查了半天也没结果", "recap": None})
    nf2 = read_night_facts(g2.annotator_log, g2.recap, g2.utterances, g2.seats, g2.phases, "zh", [], catalogue=BUILTIN)
    assert {(x.night, x.fact): x for x in gaps(g2, findings(nf2, g2.phases))}[("night-2", "seer_check")].kind.startswith("absent")


def test_issue30_a_check_whose_night_is_not_said_is_placed_only_where_no_other_night_can_hold_it():
    # day 2, nothing known yet: the unnamed check could be night 1's or night 2's, so it is not placed
    facts, refused = _facts([("day-2", 3, "说一下，4 号是我验出来的查杀")])
    assert facts == set()
    assert any("not said" in why for _, why in refused)
    # night 1 filled by a report of its own first: the unnamed one has one night left, night 2
    facts, _ = _facts([("day-1", 3, "首夜我摸的七号，给个金水"), ("day-2", 3, "说一下，4 号是我验出来的查杀")])
    assert facts == {("night-1", "seer_check", 7, "好人"), ("night-2", "seer_check", 4, "狼人")}
    # "yesterday I checked" by day is last night
    facts, _ = _facts([("day-2", 3, "昨天我查了 4 号，查杀牌")])
    assert facts == {("night-2", "seer_check", 4, "狼人")}


def test_issue30_an_empty_knife_is_a_fact_every_wolf_and_the_witch_hold_and_no_antidote_can_name_a_victim_from_it():
    from werealign.importers.toolkit.nights.nights import read_night_actions as read

    g = _three_nights([])
    readings = read("第二晚狼队空刀，女巫 5 号用解药", g.seats, g.phases, "zh", catalogue=BUILTIN)
    kept, dropped = settle_night_actions([r.event for r in readings if r.event], [], g.seats, g.phases, catalogue=BUILTIN)
    assert [(e.phase, e.skill, e.target, e.audience.kind) for e in kept] == [
        ("night-2", "wolf_kill", None, "team"), ("night-2", "wolf_kill", None, "seats")]
    assert [e.skill for e, _ in dropped] == ["witch_save"]  # an antidote on a night nobody was knifed names nobody
    g = g.model_copy(update={"events": kept})
    for wolf in (1, 4):
        assert "night-2" not in [f.night for f in owed_and_missing(g, wolf, cutoff=71)[1]]


def test_issue30_a_guards_protection_without_its_night_is_placed_only_where_no_other_night_can_hold_it():
    facts, refused = _facts([("day-2", 7, "我是守卫，我守的是 2 号")])  # night 1 or night 2: not said
    assert facts == set() and any("not said" in why for _, why in refused)
    facts, _ = _facts([("day-2", 7, "我是守卫，第一晚空守"), ("day-2", 7, "我守的是 2 号")])  # night 1 stated: night 2 is left
    assert facts == {("night-1", "guard_protect", None, None), ("night-2", "guard_protect", 2, None)}
