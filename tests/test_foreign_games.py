"""Issue 45: a social deduction game the project never saw, as its players spoke: invented English online Mafia games
(tests/mafia_games.py: first names and nicknames, a mafia night chat, no MVP, an LLM agent at the table, whole-second
time stamps) taken through the documented route, annotate build -> dataset build -> derive -> eval -> leaderboard,
and each must-have on its own."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
import yaml

from cli_inproc import run_cli
from mafia_games import AGENT_MODEL, write_games
from werealign.dataset import load_dataset
from werealign.eval.prompts import render_messages
from werealign.game.claims import ClaimReader
from werealign.game.decisions import derive_decisions
from werealign.schema import GameLog
from werealign.schema.annotation import ConfigRules
from werealign.schema.models import Rules
from werealign.tasks import TASKS
from werealign.tasks.opponent import truth_floors
from werealign.text.seat_names import SeatReader, reader_of


def _build(folders: list[Path], out: Path) -> list[Path]:
    files = []
    for f in folders:
        game = out / f"{f.name}.json"
        r = run_cli("annotate", "build", "--srt", f / "transcript.srt", "--config", f / "config.yaml", "--out", game)
        assert r.returncode == 0, r.stderr
        assert "0 error(s), 0 warning(s)" in r.stdout
        files.append(game)
    return files


@pytest.fixture(scope="module")
def route(tmp_path_factory) -> dict:
    """The whole route once: five games built, made a dataset, derived (every decider), evaluated by three built-ins."""
    root = tmp_path_factory.mktemp("mafia")
    games = _build(write_games(root / "src"), root)
    ds = root / "ds"
    made = run_cli("dataset", "build", *games, "--out", ds, "--name", "mafia-en", "--licence", "CC0-1.0")
    assert made.returncode == 0, made.stderr
    derived = run_cli("derive", ds, "--deciders", "all")
    assert derived.returncode == 0, derived.stderr
    runs = []
    for model in ("random", "lexical", "own-last-call"):
        run = root / f"run-{model}"
        r = run_cli("eval", "--model", f"werealign/{model}", "--dataset", ds, "--decodes", "1", "--out", run, "-q")
        assert r.returncode == 0, r.stderr
        runs.append(run)
    board = run_cli("leaderboard", *runs, "--format", "json", "--out", root / "board.json")
    assert board.returncode == 0, board.stderr
    return {"root": root, "games": games, "ds": ds, "made": made, "derived": derived, "runs": runs, "board": board}


def test_the_route_builds_a_dataset_from_built_logs_in_one_command(route):
    assert "5 game(s)" in route["made"].stdout and "5 seat(s) played by an agent" in route["made"].stdout
    ds = load_dataset(route["ds"])
    assert len(ds.games) == 5
    assert run_cli("validate", route["ds"]).returncode == 0


def test_no_mvp_asks_the_deciders_and_says_why_a_kind_got_none(route, tmp_path):
    ds = load_dataset(route["ds"])
    assert ds.items_of("vote") and ds.items_of("opponent"), "VA and OI come from the deciders when no MVP is named"
    assert "seer_check: 0 item(s) (no such decision is recorded in any game)" in route["derived"].stderr
    mvp = run_cli("derive", route["ds"], "--out", tmp_path / "mvp", "--deciders", "mvp", "--strict")
    assert mvp.returncode == 1
    assert "no MVP: use --deciders winners|all" in mvp.stderr


def test_an_agents_seat_keeps_its_turns_but_gives_no_key_unless_asked(route, tmp_path):
    ds = load_dataset(route["ds"])
    agents = {(g.game_id, s.seat) for g in ds.games.values() for s in g.seats if s.agent == AGENT_MODEL}
    assert len(agents) == 5
    assert any(u.speaker == seat for gid, seat in agents for u in ds.games[gid].utterances), "its turns stay"
    asked = {(i.game_id, i.viewpoint_seat) for kind in ds.items for i in ds.items_of(kind) if getattr(i, "viewpoint_seat", None)}
    assert not agents & asked
    with_agents = run_cli("derive", route["ds"], "--out", tmp_path / "all", "--deciders", "all", "--include-agents")
    assert with_agents.returncode == 0
    more = load_dataset(tmp_path / "all")
    assert agents & {(i.game_id, i.viewpoint_seat) for kind in more.items for i in more.items_of(kind) if getattr(i, "viewpoint_seat", None)}


def test_mafia_prompts_speak_mafia_and_kills_obey_the_rules(route):
    ds = load_dataset(route["ds"])
    kills = ds.items_of("wolf_kill")
    assert kills
    for item in kills:
        game = ds.games[item.game_id]
        mafia = {s.seat for s in game.seats if s.role == "mafioso"}
        assert not mafia & set(item.candidates), "rules.moves: the mafia may not kill their own"
    for kind in ds.items:
        for item in ds.items_of(kind):
            text = "\n".join(m["content"] for m in render_messages(ds.games[item.game_id], item))
            assert "werewol" not in text.lower() and "wolves" not in text.lower(), (item.item_id, text)
    text = "\n".join(m["content"] for m in render_messages(ds.games[kills[0].game_id], kills[0]))
    assert "expert Mafia player" in text and "does the mafia kill tonight" in text and "fellow mafiosi" in text
    assert "Ben (also Benny)" in text or "(also " in text, "nicknames are tied to their seats in the prompt"


def _werewolf_words(text: str) -> bool:
    return "werewol" in text.lower() or "wolves" in text.lower()


def _drafting_prompts(ds, game) -> list[str]:
    """Every generation stage's prompt for one game, through generation's own context and render (issue 45)."""
    from types import SimpleNamespace

    from werealign.generation import prompts
    from werealign.generation.pipeline import GenConfig, _context, plan_units

    units = [u for u in plan_units(ds, GenConfig(model="openai/fake"))[0] if u.game_id == game.game_id]
    ctx = _context(game, units[0]) if units else {"context": prompts.context_text(game, _view(game)), "me": "Seat 1"}
    option = SimpleNamespace(key="A", text="Seat 2.")
    given = {"question": dict(next_move="vote", **prompts.dimension_vars("SJ", game)),
             "negatives_m1": dict(question="Q?", key="K.", key_length=2, target_lengths=[2] * 4),
             "negatives_m2": dict(question="Q?", key="K.", key_length=2, target_lengths=[2] * 4),
             "restyle": dict(question="Q?", key="K.", key_length=2, options=[(option, 2)], others=[option]),
             "explain": dict(question="Q?", options=[option], answer="A"), "judge": dict(question="Q?", options=[option]),
             "osr": dict(text="I think Ben is lying.", speaker="Ben", phase="Day 1"),
             "neutral": dict(question="Q?", options=[option], attempt=1)}
    assert set(given) == set(prompts.TEMPLATES) - {"system", "repair"}, "a new stage: give it here"
    out = []
    for stage, variables in given.items():
        extra = {} if stage in ("osr", "restyle", "neutral") else ctx
        out += [m["content"] for m in prompts.render(stage, language=game.language, game=game, **variables, **extra)[1]]
    return out


def _view(game):
    from werealign.game.visibility import build_context

    return build_context(game, game.seats[0].seat, game.utterances[-1].segment_ids[-1])


def test_generation_drafts_speak_mafia(route):
    from werealign.dataset import load_dataset as load

    ds = load_dataset(route["ds"])
    game = next(iter(ds.games.values()))
    texts = _drafting_prompts(ds, game)
    assert not [t for t in texts if _werewolf_words(t)], [t[:300] for t in texts if _werewolf_words(t)]
    assert "human-played Mafia games" in texts[0] and any("turn in a Mafia game" in t for t in texts)
    sample = load()
    werewolf = _drafting_prompts(sample, next(iter(sample.games.values())))
    assert "human-played Werewolf games" in werewolf[0] and any("turn in a Werewolf game" in t for t in werewolf)


def _small_mafia_dataset(route, root: Path) -> Path:
    """Items of one Mafia game asked of a mafioso and of a bystander (vote, ballot, the night kill), to run solvers on."""
    from werealign.dataset import write_dataset

    ds = load_dataset(route["ds"])
    game = next(g for g in ds.games.values() if ds.items_of("wolf_kill") and any(i.game_id == g.game_id for i in ds.items_of("wolf_kill")))
    role = {s.seat: s.role for s in game.seats}
    items = {}
    for kind in ("vote", "ballot", "wolf_kill"):
        mine = [i for i in ds.items_of(kind) if i.game_id == game.game_id]
        items[kind] = list({role[i.viewpoint_seat]: i for i in mine}.values())
    assert {role[i.viewpoint_seat] for kind in items for i in items[kind]} >= {"mafioso", "bystander"}
    write_dataset(root, name="mafia-small", version="1", licence="CC0-1.0", games=[game], items=items)
    return root


def _strategy_reply(user: str) -> str:
    """A fake that rates, picks a strategy (support or attack by the prompt) and answers, so sa renders every step."""
    pick = "Support" if len(user) % 2 else "Attack"
    return f"Seat 1: mafioso 3, bystander 1\nStrategy: {pick} - a reason.\nAnswer: A"


def test_every_step_of_every_solver_speaks_mafia(route, tmp_path):
    from fake_llm import FakeCompletion

    from werealign.eval.runner import EvalConfig, Execution, run_eval
    from werealign.solvers import solvers
    from werealign.solvers.prompting import instruction

    small = _small_mafia_dataset(route, tmp_path / "ds")
    seen = set()
    for solver in solvers():
        fake = FakeCompletion(reply_for=_strategy_reply)
        config = EvalConfig(model="openai/fake", dataset=str(small), variants=("base",), decodes=1, solver=solver)
        run_eval(config, Execution(), out=tmp_path / f"r-{solver}", acompletion=fake, cache=False)
        assert fake.calls, solver
        for call in fake.calls:
            text = "\n".join(m["content"] for m in call["messages"])
            assert not _werewolf_words(text), (solver, text[-1500:])
            seen |= {w for w in ("Support (mafia side)", "Attack (mafia side)", "Support (town side)", "Attack (town side)",
                                 "Who are the other mafiosi") if w in text}
    assert {"Who are the other mafiosi"} <= seen and any("mafia side" in w for w in seen) and any("town side" in w for w in seen), seen
    # every branch of every step template, through the solvers' own `instruction`
    game = load_dataset(small).games
    state = type("S", (), {"game": next(iter(game.values()))})()
    branches = [("xu_question_set", {"kind": k}) for k in ("werewolf", "villager", "witch", "guard")]
    branches += [("sa_strategy", {"side": s, "estimates": "E"}) for s in ("wolf", "village")]
    branches += [("sa_strategy_prompt", {"side": s, "strategy": c}) for s in ("wolf", "village") for c in ("support", "attack")]
    for name, kw in branches:
        assert not _werewolf_words(instruction(state, name, **kw)), (name, kw)


def test_arena_prompts_at_a_mafia_table_speak_mafia(route):
    """The arena's system and move prompts take the family's words from the view's context (werealign.arena.llm_agent)."""
    from werealign.render.context import context_vars
    from werealign.render.prompt_templates import render_template

    game = next(iter(load_dataset(route["ds"]).games.values()))
    kw = context_vars(game, _view(game), "en")
    texts = [render_template("en", "arena/system", terms=kw["terms"])]
    for kind in ("wolf_chat", "speak", "kill", "check", "protect", "save"):
        kw.update(kind=kind, candidates="1, 2", none_ok=True, about="Ben", mentioned=False, may_destruct=True, takes=False,
                  notes=[], rule_reminder=None)
        texts.append(render_template("en", "arena/ask", **kw))
    assert not [t for t in texts if _werewolf_words(t)], [t[-400:] for t in texts if _werewolf_words(t)]
    assert "a game of Mafia" in texts[0] and "Choose the player the mafia kill tonight." in texts[3]


def test_a_mafia_release_card_speaks_mafia(route, tmp_path):
    from werealign.dataset import load_dataset as load
    from werealign.release.card import family_words
    from werealign.tasks.decisions import describe

    r = run_cli("release", route["ds"], "--out", tmp_path / "rel")
    assert r.returncode == 0, r.stderr
    card = (tmp_path / "rel" / "README.md").read_text()
    assert not _werewolf_words(card), [line for line in card.splitlines() if _werewolf_words(line)]
    assert "Mafia games played by skilled humans" in card and "- mafia" in card
    assert "whom the mafia killed that night" in card
    assert "whom the wolves killed" in describe("wolf_kill", family_words(load()))
    listed = run_cli("list")
    assert "Werewolf: the wolves; Mafia: the mafia" in " ".join(listed.stdout.split())


def test_a_release_card_of_games_without_an_mvp_says_who_is_asked_and_only_the_kinds_it_holds(route, tmp_path):
    """No game of the route names an MVP and it derives no seer, guard or witch decision: the card says neither."""
    r = run_cli("release", route["ds"], "--out", tmp_path / "rel")
    assert r.returncode == 0, r.stderr
    card = (tmp_path / "rel" / "README.md").read_text()
    prose = card.split("\n---\n", 2)[-1]  # after the YAML header (whose `games` features list an `mvp` column)
    assert "MVP's" not in prose and "winning side's MVP" not in prose, [ln for ln in prose.splitlines() if "MVP" in ln]
    assert "from the point of view of the player deciding (no game names an MVP)" in prose
    assert "the recorded vote of the player deciding" in prose and "| `vote` | 36 | VA: the seat the player deciding voted for" in prose
    decisions = prose.split("## Decision items", 1)[1].split("##", 1)[0]
    held = {name for name in ("seer_check", "guard_protect", "witch_save", "witch_poison", "wolf_kill", "ballot", "claim")
            if f"| `{name}` |" in decisions}
    assert held == {"wolf_kill", "ballot", "claim"}, held
    assert not re.search(r"(?i)\b(seer|witch|guard)\b", decisions), decisions[:600]
    assert "whom the mafia killed that night" in decisions and "`always` and `never`" not in decisions


def test_the_card_asks_the_mvp_only_where_the_games_name_one():
    from werealign.dataset import load_dataset as load
    from werealign.release.card import asked

    ds = load()  # the built-in sample: every game names its MVP
    assert all(g.mvp is not None for g in ds.games.values()) and asked(ds) == "the winning side's MVP"
    first = next(iter(ds.games))
    ds = dataclasses.replace(ds, games={**ds.games, first: ds.games[first].model_copy(update={"mvp": None})})
    n = len(ds.games)
    assert asked(ds) == f"the winning side's MVP where the game names one ({n - 1} of {n} games), else the player deciding"
    assert asked(ds, short=True) == "the MVP, else the player deciding"


def test_a_werewolf_prompt_keeps_its_words():
    from werealign.dataset import load_dataset as load

    sample = load()
    item = sample.items_of("vote")[0]
    assert "expert Werewolf player" in render_messages(sample.games[item.game_id], item)[0]["content"]


def test_a_kind_that_cannot_discriminate_never_enters_a_headline(route):
    assert "claim: cannot discriminate" in route["board"].stderr
    assert "claim accuracy cannot discriminate" in (route["root"] / "board.json").read_text()
    results = json.loads((route["runs"][0] / "results.json").read_text())
    base = results["variants"]["base"]
    assert base["claim"]["floors"]["shortcuts"]["majority-key"] >= 0.9
    from werealign.leaderboards.collect import collect
    from werealign.leaderboards.tables import build

    lb = build(collect(route["runs"]))
    main = lb.tables[0]
    macro = next(c for c in main.columns if c.tasks)
    assert "claim" not in macro.tasks and "ballot" in macro.tasks
    assert any("cannot discriminate" in n for n in main.notes)


def test_a_role_revealed_at_elimination_counts_in_the_revealed_floor(route):
    ds = load_dataset(route["ds"])
    asked = [(ds.games[i.game_id], i) for i in ds.items_of("opponent")]
    reveals = [e for g in ds.games.values() for e in g.events if e.kind == "role_reveal" and e.result == "mafioso"]
    assert reveals
    assert truth_floors(asked, "mean_jaccard")["revealed-wolves"] > 0


# --------------------------------------------------------------------------- names are seats


def test_consensus_scores_the_same_whether_players_are_named_or_numbered(tmp_path):
    named = [GameLog.model_validate_json(p.read_text()) for p in _build(write_games(tmp_path / "n", count=6), tmp_path)]
    numbered = [GameLog.model_validate_json(p.read_text()) for p in _build(write_games(tmp_path / "s", count=6, numbered=True), tmp_path)]
    from statistics import fmean

    from werealign.tasks import decisions
    from werealign.tasks.common import rounded
    from werealign.tasks.decision_floors import floor_parts

    assert TASKS["ballot"].scorer.truth_floors is decisions.truth_floors  # the ballot's floors are floor_parts' means

    def floors(games: list[GameLog]) -> dict:
        """The named rule floors as truth_floors reports them (rounded means of floor_parts' values), without the
        learned floors it also fits (three quarters of this test's time, and nothing asserted reads them)."""
        asked = [(g, i) for g in games for i in derive_decisions(g, "all").items["ballot"]]
        assert len(asked) > 20
        values, _ = floor_parts(asked, decisions.context_kwargs)
        return {name: rounded(fmean(values[name])) for name in ("consensus", "last-named")}

    by_name, by_number = floors(named), floors(numbered)
    assert by_name["consensus"] == by_number["consensus"] and by_name["last-named"] == by_number["last-named"]
    # the test can fail: without the names, the named games' floors read nothing (chance) and differ
    anonymous = [g.model_copy(update={"seats": [s.model_copy(update={"name": None, "aliases": []}) for s in g.seats]}) for g in named]
    assert floors(anonymous)["consensus"] != by_name["consensus"]


def test_the_seat_reader_reads_names_nicknames_and_numbers():
    read = SeatReader({2: ("Ben", "Benny"), 3: ("Cora",), 4: ("小明",), 5: ("Al",), 6: ("Al",)})
    assert read.seats("Benny and ben, not Bent or Bennys; seat 3, cora. 我觉得小明和5号") == [2, 2, 3, 3, 4, 5]
    assert read.seats("Al is shared by two seats") == [], "a name two seats share names neither"
    assert SeatReader({}).seats("seat 7 and 3号") == [7, 3]


def test_names_default_to_the_speaker_labels(tmp_path):
    (folder,) = write_games(tmp_path, count=1)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    del config["names"]
    config["speakers"]["Speaker 9"] = 1  # a label that only numbers a voice is no name
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    (game,) = _build([folder], tmp_path)
    seats = GameLog.model_validate_json(game.read_text()).seats
    assert seats[0].name == next(label for label, seat in config["speakers"].items() if seat == 1 and label != "Speaker 9")
    assert seats[0].aliases == []
    assert reader_of(seats).has_names


# --------------------------------------------------------------------------- audience, rules, time stamps


def test_a_team_night_chat_heard_by_everyone_is_an_error_naming_the_seats_and_the_fix(tmp_path):
    (folder,) = write_games(tmp_path, count=1)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    del config["phase_audiences"]
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    r = run_cli("annotate", "build", "--srt", folder / "transcript.srt", "--config", folder / "config.yaml", "--out", tmp_path / "g.json")
    assert r.returncode == 1 and not (tmp_path / "g.json").exists()
    mafia = sorted(s for s, role in config["roles"].items() if role == "mafioso")
    assert "night-chat-public" in r.stderr and f"seats {mafia}" in r.stderr and "phase_audiences: {night: {kind: team, team: wolf}}" in r.stderr


def test_the_annotator_config_takes_every_rule_of_a_board():
    given = set(ConfigRules.model_fields)
    assert set(Rules.model_fields) - given <= {"composition", "declared_roles"}, "the roles give the composition; declared_roles is top-level"


def test_a_vote_outside_its_phase_names_the_shared_second(tmp_path):
    (folder,) = write_games(tmp_path, count=1)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    srt = (folder / "transcript.srt").read_text().split("\n\n")
    for p in config["phases"]:
        p.pop("start_segment")
    # night 2 now starts, by time only, at the second of day 1's first ballot
    vote = next(e for e in config["events"] if e["kind"] == "vote")
    stamp = next(block.split("\n")[1][:8] for block in srt if block.split("\n")[0] == str(vote["segment"]))
    night2 = next(i for i, p in enumerate(config["phases"]) if p["kind"] == "night" and p["day"] == 2)
    config["phases"][night2]["start"] = stamp
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    r = run_cli("annotate", "build", "--srt", folder / "transcript.srt", "--config", folder / "config.yaml", "--out", tmp_path / "g.json")
    assert r.returncode == 1
    assert f"a vote at cue {vote['segment']} falls in night-2" in r.stderr and "share a second" in r.stderr and "start_segment" in r.stderr


def test_dataset_build_refuses_a_game_twice_and_writes_nothing(tmp_path):
    games = _build(write_games(tmp_path / "src", count=1), tmp_path)
    r = run_cli("dataset", "build", games[0], games[0], "--out", tmp_path / "ds", "--name", "x", "--licence", "CC0-1.0")
    assert r.returncode == 1 and "a dataset holds each game once" in r.stderr and not (tmp_path / "ds").exists()


# --------------------------------------------------------------------------- claims in English


@pytest.fixture(scope="module")
def mafia_game(tmp_path_factory) -> GameLog:
    root = tmp_path_factory.mktemp("claims")
    (game,) = _build(write_games(root, count=1), root)
    return GameLog.model_validate_json(game.read_text())


@pytest.mark.parametrize("text,mafioso,claim", [
    ("im not mafia btw", False, None), ("Im innocent", False, None), ("I'm town, trust me", False, None),
    ("I am a bystander. Ben is odd", False, "bystander"), ("Im bystander", False, "bystander"), ("my role is bystander", False, "bystander"),
    ("if I were a bystander I would vote", False, None), ("Dana said I'm a bystander", False, None), ("im the bystander?", False, None),
    # issue 42: read as the table hears it, whatever the seat's hidden faction: the same words, the same claim
    ("I'm mafia", False, "mafioso"), ("I'm mafia", True, "mafioso"), ("I'm mafia, just kidding", False, None),
])
def test_claims_read_in_english(mafia_game, text, mafioso, claim):
    seat = next(s.seat for s in mafia_game.seats if (s.role == "mafioso") == mafioso)
    assert ClaimReader(mafia_game).claim(text, seat) == claim


def test_human_voiced_moves_and_the_audits_seats_read_names():
    from werealign.shortcuts.seats import renumber, seats_named
    from werealign.generation import human_text as ht

    names = {2: ("Ben", "Benny"), 3: ("Cora",)}
    assert ht.is_move("vote out Benny now", names) and not ht.is_move("vote out Benny now"), "a move about a seat named by name"
    assert seats_named("Benny, then seat 3", names) == [2, 3]
    # a distractor cut from another game names that game's players: renamed to this game's seats, as numbers are renumbered
    assert renumber("Benny and Cora, then 2号", {2: 5, 3: 6}, names, {5: ("Eli",), 6: ("Fay",)}) == "Eli and Fay, then 5号"


def test_va_and_oi_from_any_decider_set(mafia_game):
    from werealign.game.derive import derive_decision_items
    from werealign.schema import Mvp

    town = [s.seat for s in mafia_game.seats if s.faction == "good" and s.agent is None]
    game = mafia_game.model_copy(update={"mvp": Mvp(seat=town[0], votes=[])})
    assert not derive_decision_items(game, deciders="all").vote, "an MVP without recorded votes gives no VA by default"
    every = derive_decision_items(game, deciders="all", from_deciders=True)
    asked = {i.viewpoint_seat for i in every.vote}
    assert len(asked) > 2 and not {s.seat for s in game.seats if s.agent} & asked
    assert {i.viewpoint_seat for i in every.opponent} <= set(town), "OI only from the good side"
    mvp_only = derive_decision_items(game, deciders="mvp", from_deciders=True)
    assert {i.viewpoint_seat for i in mvp_only.vote} == {town[0]}


def test_fix_manifest_completes_a_hand_written_manifest(route, tmp_path):
    import shutil

    ds = tmp_path / "ds"
    shutil.copytree(route["ds"], ds)
    manifest = json.loads((ds / "dataset.json").read_text())
    for field in ("counts", "content_hashes", "languages"):
        del manifest[field]
    (ds / "dataset.json").write_text(json.dumps(manifest))
    assert run_cli("validate", ds, "--fix-manifest").returncode == 0
    assert json.loads((ds / "dataset.json").read_text())["counts"]["games"] == 5
    assert run_cli("validate", ds).returncode == 0


def test_the_release_card_says_agents_and_kinds_that_cannot_discriminate(route, tmp_path):
    r = run_cli("release", route["ds"], "--out", tmp_path / "rel")
    assert r.returncode == 0, r.stderr
    card = (tmp_path / "rel" / "README.md").read_text()
    assert "seats played by an agent, not a human: 5 of 35 seats in 5 game(s)" in card
    assert "Cannot discriminate" in card and "`claim`" in card
