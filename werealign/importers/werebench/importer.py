"""`werealign import werebench`: the WereBench release -> a werealign dataset directory.

Reads `SRC/data/Season_N/NN.json` (game logs) and `SRC/WereBench/WereBench.json` (speech items),
converts each game and item (see the game and items modules beside this one for the rules), derives the VA
and OI items from the MVP annotations, and writes everything plus `import_report.json` and
`IMPORT_REPORT.md` in one all-or-nothing step. Same source, same bytes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from werealign.dataset import with_knowledge_missing, write_dataset
from werealign.game.derive import BY_RULE
from werealign.errors import UserError
from werealign.importers.corrections import load_corrections
from werealign.importers.report import ImportReport
from werealign.importers.werebench.game import VOTE_DROP_CODES, convert_game
from werealign.game.knowledge import coverage
from werealign.importers.toolkit.crosscheck import contradicting_turns, cross_check_exits, withhold_after_unresolved
from werealign.importers.toolkit.gate import gate_game, gate_items
from werealign.importers.werebench.items import convert_speech_items, derive_decision_items
from werealign.importers.toolkit.candidacy import candidacy_events
from werealign.importers.toolkit.tallies import tally_events
from werealign.importers.werebench.segments import TRANSCRIPT_DIR, find_transcripts
from werealign.importers.werebench.source import ITEMS_FILE, load_release, unknown_fields
from werealign.files.output_dir import check_inputs, check_replaceable, output_directory

NAME = "werebench"
COMMAND = "import werebench"  # what its output marker names: only this command may --overwrite it
VERSION = "1.0"
LICENCE = "unspecified (no licence file in the source release; research use only)"
DESCRIPTION = (
    "WereBench (Panda Kill games with human annotations; arXiv 2510.11389) converted by "
    "`werealign import werebench`: game logs, released speech items, and VA/OI items derived "
    "from the MVP annotations. See IMPORT_REPORT.md for what was repaired or dropped."
)
RULES = [
    "Game ids are `pandakill-s<season>-<NN>` from `data/Season_<season>/<NN>.json`; provenance keeps the file and the release's game_id.",
    "Seats and true roles come from `user_aliases` and `real_role` (both keyed by speaker label); role labels go through the canonical role table.",
    "One truth per seat: `real_role` is checked against the roles the annotator log and the recap state outright (a roster clause opening with the seat, with or without 是: '3 号是狼人', '1 号村民参与…'; a role word labelling the seat right after it: '狼兄12 号'; never a seat that is a clause's object, a claim or what someone said; a role the catalogue lacks by the config's own label); when both disagree with it and agree with each other the seat is corrected (`role_corrected`, its items named `item_on_corrected_seat`); when only one disagrees the seat is disputed (`role_disputed`): real_role stays, and items asked from the seat, or OI items (their answer is every seat's side), are withheld (`item_on_disputed_seat`).",
    "Phases come from `game_status`; an empty or out-of-order day-1 start is re-derived as the first turn carrying the elected sheriff, and turn phases are then recomputed from start times.",
    "A self-destruct ends the day: where the recording goes from the phase of a self-destruct straight to a day of the same number, the night between (which the annotator log counts) is added with zero length and later phases are renumbered (`hidden_night`); each phase keeps the release's label, by which MVP vote keys find their day. Nights the config lacks are also recovered from the host's words (werebench.hidden_nights; issue 41): a host turn of a day that runs from a nightfall to a dawn with no night of the timeline beginning in it, or a second dawn's news in a day that already had its own and ended (a ballot, a self-destruct, a nightfall), adds a zero-length night at that dawn and splits the day there (the rest is the next day, without a release label; a vote whose cut-off lies in it moves with it); a recording that ends on the host's nightfall after a day gets that night at its end. A night that would collide with an existing phase id is not added and is named (`night_unplaced`).",
    "Eliminations are read from the host's formulaic announcements (出局, 自爆, 殉情, 死亡的是, 开枪/枪杀 (shot), 毒死 (poisoned), 带走 and a skill used on leaving, '发动技能，M 号玩家死亡' (taken), 请离场), anchored to the segment that says them (the turn's last segment without per-segment text) in that segment's phase; a self-destruct or exile found after nightfall belongs to the day it ended, as do badge passes. A seat announced out again after it played on (spoke two phases later) was misread the first time (`exit_reannounced`).",
    "Exits are cross-checked (toolkit.crosscheck): a day's exile agrees with the host's tally (the majority's exit read only as leaving becomes the exile at the tally, `exile_from_tally`); a self-destruct no host line states but the annotator log and the recap both do is added at the end of the seat's last table turn, in the day they give (`self_destruct_from_sources`); a seat out never speaks at the table again but for its last words (reopened by the host's call for them; fragments of a few characters and talk after the result aside): where the log or recap states the exit too, later turns under its label, and any turn two or more phases after the exit, are settled one by one (toolkit.dead_speech): re-attributed to the seat the host's call right before, the turn's own words, the speaker before and after it or the round's seat order establish, all that apply agreeing (`dead_turn_reattributed`), else kept in the log heard by nobody, out of the game's speech (`dead_turn_off_table`, an aside or an unattributed turn); where no source has the seat leave and it plays on, the exit is dropped (`exit_misread`); otherwise the contradiction is unresolved (`exit_contradicted`) and items cut off at or after the exit are withheld (`item_after_unresolved_exit`).",
    "Nothing is written that `werealign validate` rejects (toolkit.gate): every game, then every item, goes through validate's checks before writing; an MVP vote, event or highlight it rejects is removed from its game (`mvp_vote_invalid`, `event_invalid`, `highlight_invalid`), a game it still rejects is dropped with its items (`game_unusable`), an item it rejects is dropped (`item_invalid`); each with validate's own finding as the reason.",
    "Sheriff election and badge transfers come from the per-turn `sheriff` field, anchored to the first turn showing the new sheriff.",
    "Who stood for sheriff comes from the host's list of candidates at the call ('1 号、5 号共 2 名玩家参与竞选'; toolkit.candidacy): a `sheriff_run` event per candidate, anchored to the segment where the list begins, only where the list names seats of the game alive there, each once, as many as the count it states, and every seat the host later names still running; a withdrawal ('退水') still counts as having stood. A list that fails is no event (`candidacy_unread`).",
    "An MVP vote cut-off after the last segment is clamped to it; a cut-off on the host's vote-result announcement (it names the answer) is moved to the last segment before that turn; a cut-off that stops short of the sheriff's final call (归票) the voter heard is moved to the last segment before the host opens the ballot (`cutoff_before_final_call`); a cut-off that then lies in the night or election before the vote's day (the host called the vote in the same breath as the dawn) leaves no segment of the day before the result, and the vote is dropped (`cutoff_outside_vote_phase`), as is a vote of a day the timeline lacks (`vote_phase_missing`).",
    "VA items: one per MVP vote; candidates are the seats not announced out at the cut-off, minus the voter. Abstentions, self-votes and votes by or for a seat already out are dropped.",
    "OI items: one per distinct MVP-vote cut-off, for a good-side MVP only; answer = every wolf-faction seat, candidates = every seat but the MVP's. Wolf-side MVPs know the wolves (the item would be trivial); variable/third-side MVPs have no fixed opponent.",
    "Per-segment text (`utterances[].segments`) comes from the release's raw transcripts `clean_process/Season_N/NN.srt` (segment id = cue number), only for turns whose cue texts joined by a space reproduce the release's turn text exactly; hand-edited turns keep `segments: null` (a cut-off inside them leaves the turn out of the context).",
    "Speech items: `werebench-<dim>-<id:04d>`, original (category, id) in provenance.source_ref; 'Social Interaction' is PS; an empty explanation becomes null; `text1` is kept as question_short when it differs from `text`.",
    "Rules summaries: when the release's card list (`game_roles`) names cards no seat holds (a thief's buried cards, roles given out in play), the game keeps that list as `rules.public_cards` and summaries list it without counts; the seats' roles stay hidden.",
    "Own night knowledge (toolkit.nights.night_facts; issue 41): the release records no night action in a structured field; it is read from every source, checked against the truth and against every other source, and each fact carries its evidence (source, segment, the words read; `werealign validate` checks them). (1) The annotator log and the host's recap (a recap read as a transcript: a space ends a run-on sentence) where they state a night action with its night: in the seat's own clause ('第一晚救 4 号'), with its actor named under a numbered night ('第二晚女巫 8 号毒 1 号'), the wolves' kill ('狼兄 4 号落刀 7 号', '狼队选择落刀，村民1 号'), a witch's antidote by nickname or seat ('女巫小花选择使用解药'), a protection told from the protected seat ('6 号被守卫5 号成功守护'), a seer's check named by its night ('第一晚的金水9 号'), a target named by a nickname the recap's opening maps to one seat. (2) The TRUE role holder's own first-person report at the table (`toolkit.nights.check_talk`: '昨晚验了 5 号，是查杀', '9 号是我的金水'; never a plan, a hypothesis, a vote, another game, a quote or a rival's check), and the log's account of it ('12 号称验 1 号为金水'); a report without its night takes the night before its day only when every earlier night is known; an antidote without its night only on day 1. (3) The badge convention: the seer's plan, the badge passed to that seat at her death and the table calling it 金水, all three. (4) The host's dawn: the night's only death is the wolves' kill when no seat whose role can kill or redirect a kill at night (role catalogue `alters_night_deaths` or `night_kill`, or a role the catalogue does not know) could have caused it, and no move the catalogue's `reflects` turns back on its maker (a seer's check or a witch's poison on the nightmare knight) may have, that night or the night before (a role whose `night_kill` falls only on a seat it voted for, the stalker, whose day ballots the host's tallies all give, none for the seat, could not). (5) Runs of the log or the recap that go on without naming the night (toolkit.nights.night_story: a self-destruct ends the day, '当天晚上', '夜间行动', '第三天黑夜'): the count is kept, and a kill (the pack, a wolf by its seat, or a knife whose wolf subject the clause before names) or a poison read under such a night stands only where the host's dawn bears it out. A magician's stated swap (toolkit.nights.swaps) explains a kill and a save naming its two seats, or a poison whose seat lived while the other died. A witch's own report of her once-a-game potion that names its night outranks the annotator log's (and the kill the log paired with her save); a witch naming two targets for one potion names none. Where two sources put different targets on one action of a night, or a seer's list repeats a seat, neither is kept (`night_fact_disputed`); a kill whose victim dies at the next night's dawn while its own dawn has an unexplained death is a night off the host's count and dropped; the witch is told no victim after any save a source states. Facts the host's announcements contradict are dropped (`night_action_contradicted`); a poison needs its seat dead at that dawn unless the catalogue says its role survives one (`survives`: the demon), and a poison on a seat whose role the catalogue does not know, which lived, is not known (`night_fact_disputed`), not contradicted. Required vs read per role, game and season is reported (`night_knowledge_missing`, `night_knowledge_by_role`, `night_knowledge_by_season`); every item whose viewpoint lacks a required fact carries `knowledge_missing` (its prompt names it; `eval --split faithful` leaves it out). A per-game corrections file (`--corrections DIR`) sets or removes a fact with the words that state it (`night_fact_corrected`).",
]
REPORT_JSON = "import_report.json"
REPORT_MD = "IMPORT_REPORT.md"


# MVP votes dropped before any VA item is derived: while converting the game, or by the validation gate.
VOTE_DROPS = VOTE_DROP_CODES | {"vote_phase_missing", "cutoff_outside_vote_phase", "mvp_vote_invalid"}


# Panda Kill episodes hold one to three games; more games naming the same episode means the
# `source` field was copied, not filled in.
MAX_GAMES_PER_EPISODE = 3


def _check_shared_episodes(release, report: ImportReport) -> None:
    by_source: dict[str, list[str]] = {}
    for sg in release.games:
        by_source.setdefault(sg.raw.metadata.source, []).append(sg.rel)
    for source, rels in sorted(by_source.items()):
        if len(rels) > MAX_GAMES_PER_EPISODE:
            report.add("warning", "source_episode_shared", source_file=rels[0], field="metadata.source", what=f"{len(rels)} games ({rels[0]} .. {rels[-1]}) all name '{source}'", why="kept as given; the episode numbers of these games are probably wrong")


@dataclass
class ImportSummary:
    out: Path
    counts: dict[str, int]
    repairs: int
    drops: int
    warnings: int
    lost: int  # games and items of the source that did not make it (what --strict fails on)


def _settle_items(items: list, games: dict, truth: dict, report: ImportReport) -> list:
    """Items standing on a seat whose role the sources dispute are withheld; those on a corrected seat are kept
    (derived from the corrected role) and named. An item depends on a seat it is asked from (the prompt shows
    that seat's role) and, for OI, on every seat (its answer is the opposing side)."""
    kept = []
    for item in items:
        t = truth.get(item.game_id)
        if t is None:
            kept.append(item)
            continue
        game = games[item.game_id]
        rel = ITEMS_FILE if hasattr(item, "dimension") else game.provenance.original_file or ""
        on = set(t.disputed) | set(t.corrected)
        depends = sorted(on if hasattr(item, "answer") and isinstance(item.answer, list) else on & {item.viewpoint_seat})
        disputed = [s for s in depends if s in t.disputed]
        if disputed:
            report.add("dropped", "item_on_disputed_seat", source_file=rel, game=item.game_id, item=item.item_id, field=None,
                       what=f"depends on seat(s) {disputed}, whose role the sources dispute", why="withheld: its prompt or answer would rest on a role nobody can confirm")
            continue
        if depends:
            report.add("repaired", "item_on_corrected_seat", source_file=rel, game=item.game_id, item=item.item_id, field=None,
                       what=f"depends on seat(s) {depends}: " + "; ".join(t.corrected[s] for s in depends), why="kept with the corrected role")
        kept.append(item)
    return kept


def _report_night_knowledge(games: dict, items: list, report: ImportReport) -> dict[str, int]:
    """Per game, the night facts the rules require of its seats against those read (werealign.game.knowledge),
    by role; the items whose viewpoint lacks one (their `knowledge_missing`, their prompt says so). Counts for the
    report: required, read, and items lacking."""
    totals: Counter[tuple[str, str, str]] = Counter()
    for game_id, game in sorted(games.items()):
        counts = coverage(game)
        totals.update(counts)
        lacking = [(role, fact) for role, fact, status in sorted(counts) if status == "owed" and counts[(role, fact, "read")] < counts[(role, fact, "owed")]]
        if lacking:
            report.add("warning", "night_knowledge_missing", source_file=game.provenance.original_file or "", game=game_id, field=None,
                       what="night facts read / required by the rules: " + ", ".join(
                           f"{role} {fact} {counts[(role, fact, 'read')]}/{counts[(role, fact, 'owed')]}" for role, fact in lacking),
                       why="no source states the rest (annotator log, recap, host, the role holder's own words); items asked from "
                           "those seats after those nights carry knowledge_missing and their prompts say so")
    by_season: dict[object, Counter[tuple[str, str, str]]] = {}
    for game in games.values():
        by_season.setdefault(game.provenance.season, Counter()).update(coverage(game))
    for season, counts in sorted(by_season.items(), key=lambda kv: str(kv[0])):
        lacking = any(counts[(r, f, "read")] < n for (r, f, st), n in counts.items() if st == "owed")
        report.add("warning" if lacking else "converted", "night_knowledge_by_season", source_file="", game=None, field=None,
                   what=f"season {season}: night facts read / required by the rules: " + ", ".join(
                       f"{role} {fact} {counts[(role, fact, 'read')]}/{counts[(role, fact, 'owed')]}"
                       for role, fact in sorted({(r, f) for r, f, _ in counts})),
                   why="the same count as scripts/knowledge_coverage.py; each fact read carries its evidence (source, segment, words)")
    by_game = {g.game_id: g for g in games.values()}
    lacking_items = sum(1 for it in items if with_knowledge_missing(it, by_game).knowledge_missing)
    roles = sorted({(role, fact) for role, fact, _ in totals})
    report.add("warning" if lacking_items else "converted", "night_knowledge_by_role", source_file="", game=None, field=None,
               what="night facts read / required by the rules, per role: " + ", ".join(
                   f"{role} {fact} {totals[(role, fact, 'read')]}/{totals[(role, fact, 'owed')]}" for role, fact in roles),
               why=f"{lacking_items} item(s) ask from a viewpoint lacking one; they carry knowledge_missing and leave the faithful split")
    return {"night_facts_required": sum(n for (_, _, st), n in totals.items() if st == "owed"),
            "night_facts_read": sum(n for (_, _, st), n in totals.items() if st == "read"),
            "items_with_knowledge_missing": lacking_items}


def import_werebench(src: Path, out: Path, overwrite: bool = False, corrections: Path | None = None) -> ImportSummary:
    """`corrections`: a folder of per-game corrections files (werealign.importers.corrections)."""
    # Refused before the (slow) conversion; output_directory checks again under its lock.
    check_inputs(out, [src])
    check_replaceable(out, COMMAND, overwrite)
    fixes = load_corrections(corrections)
    release = load_release(src)
    unknown = sorted(set(fixes) - {sg.game_id for sg in release.games})
    if unknown:
        raise UserError(f"{corrections}: corrections for game(s) {unknown}, which the release does not hold")
    report = ImportReport(source="WereBench release dataset/ folder (data/Season_*/*.json, WereBench/WereBench.json)", rules=RULES)
    # Categories, questions and options are reported with their item key by convert_speech_items.
    report.add_unknown_fields(unknown_fields(release.items, nested=False), source_file=ITEMS_FILE)

    _check_shared_episodes(release, report)
    for rel, warning in release.duplicate_keys:
        report.add("warning", "duplicate_key", source_file=rel, field=None, what=warning,
                   why="JSON keeps the later value silently; it is the one imported")
    transcripts = find_transcripts(src)
    if transcripts is None:
        report.add("warning", "segments_unavailable", source_file=f"{TRANSCRIPT_DIR}/", field=None, what=f"no {TRANSCRIPT_DIR}/ folder (the release's raw transcripts)", why="every turn kept without per-segment text: a cut-off inside a merged turn leaves that turn out of the context")
    for rel, (game_id, error) in release.unreadable.items():
        report.add("dropped", "game_unusable", source_file=rel, game=game_id, field=None, what="game file", why=f"unreadable: {error}")
    games = {}
    truth: dict = {}
    unresolved: dict[str, list] = {}  # game -> exits later speech contradicts and no source settles
    for sg in release.games:
        game = convert_game(sg, report, transcripts, truth, fixes.get(sg.game_id))
        if game is not None:
            checked = cross_check_exits(game, report, sg.rel)
            unresolved[game.game_id] = checked.unresolved
            game = candidacy_events(checked.game, report)  # who stood for sheriff (toolkit.candidacy): they do not vote
            game = tally_events(game, report)  # the host's tallies as vote events (toolkit.tallies)
            game = gate_game(game, report, sg.rel)  # nothing is written that `werealign validate` rejects
        if game is not None:
            games[game.game_id] = game
    speech = convert_speech_items(release.items.categories, games, report)
    vote, opponent = [], []
    for game_id in sorted(games):
        v, o = derive_decision_items(games[game_id], report)
        vote += v
        opponent += o
    speech, vote, opponent = (_settle_items(items, games, truth, report) for items in (speech, vote, opponent))
    source_of = lambda it: ITEMS_FILE if hasattr(it, "dimension") else games[it.game_id].provenance.original_file or ""  # noqa: E731
    settled = {"speech": speech, "vote": vote, "opponent": opponent}
    kept = {kind: withhold_after_unresolved(items, unresolved, report, source_of) for kind, items in settled.items()}
    gated, rejected = gate_items(kept, games, report, source_of)
    rejected = {kind: n + len(settled[kind]) - len(kept[kind]) for kind, n in rejected.items()}  # withheld or rejected
    speech, vote, opponent = gated["speech"], gated["vote"], gated["opponent"]

    knowledge = _report_night_knowledge(games, [*speech, *vote, *opponent], report)
    n_questions = sum(len(c.questions) for c in release.items.categories)
    n_votes = sum(len(sg.raw.metadata.MVP.votes) for sg in release.games if sg.raw.metadata.MVP is not None)
    report.counts = {
        "games_in_source": len(release.games) + len(release.unreadable),
        "games_converted": len(games),
        "games_dropped": report.count("dropped", "game_unusable"),
        "speech_in_source": n_questions,
        "speech_converted": len(speech),
        "speech_dropped": sum(1 for e in report.entries["dropped"] if e.source_file == ITEMS_FILE),
        "speech_without_explanation": sum(1 for item in speech if item.explanation is None),
        "mvp_votes_in_source": n_votes,
        "vote_items": len(vote),
        "vote_items_dropped": sum(1 for e in report.entries["dropped"] if e.code.startswith("va_") or e.code in VOTE_DROPS) + rejected["vote"],
        "opponent_items": len(opponent),
        "opponent_items_skipped": sum(1 for e in report.entries["dropped"] if e.code.startswith("oi_")) + rejected["opponent"],
        "night_actions_read": sum(1 for g in games.values() for e in g.events if e.kind == "skill_use" and e.audience.kind != "everyone"),
        **knowledge,
        # exits that a later table turn of the seat still contradicts (the unresolved ones; 0 is the aim)
        "exits_contradicted_by_speech": sum(len(contradicting_turns(g)) for g in games.values()),
        # turns under a dead seat's label (toolkit.dead_speech): given to their speaker, or kept off the table
        "dead_turns_reattributed": report.count("repaired", "dead_turn_reattributed"),
        "dead_turns_off_table": report.count("dropped", "dead_turn_off_table"),
        "turns": sum(len(g.utterances) for g in games.values()),
        "turns_with_segments": sum(1 for g in games.values() for u in g.utterances if u.segments is not None),
        "repairs": len(report.entries["repaired"]),
        "drops": len(report.entries["dropped"]),
        "warnings": len(report.entries["warning"]),
    }
    with output_directory(out, command=COMMAND, inputs=[src], overwrite=overwrite) as stage:
        write_dataset(
            stage,
            name=NAME,
            version=VERSION,
            licence=LICENCE,
            games=list(games.values()),
            items={"speech": speech, "vote": vote, "opponent": opponent},
            description=DESCRIPTION,
            source="WereBench (github release dataset/ folder)",
            extra_files={REPORT_JSON: report.to_json(), REPORT_MD: report.to_markdown()},
        )
    c = report.counts
    return ImportSummary(
        out=out,
        counts=report.counts,
        repairs=len(report.entries["repaired"]),
        drops=len(report.entries["dropped"]),
        warnings=len(report.entries["warning"]),
        lost=c["games_dropped"] + c["speech_dropped"] + c["vote_items_dropped"] + c["opponent_items_skipped"]
        - sum(report.count("dropped", code) for code in BY_RULE),
    )
