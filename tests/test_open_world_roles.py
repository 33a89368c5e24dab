"""Open world by the catalogue (task ow41): code that played or measured "the seer" by its id now asks the role
catalogue which roles hold the seer's check, so an invented role with the seer's rules under another id is played
and measured as the seer is. Every role here is invented; none comes from real data."""

from __future__ import annotations

import pytest
from cli_inproc import run_cli
from test_analyze_arena_metrics import seer_game
from test_import_werebench import write_release

from werealign.analysis.aggregate import aggregate
from werealign.analysis.corpus import Group
from werealign.analysis.metrics import game_metrics
from werealign.arena.board import BoardSpec, make_board
from werealign.arena.heuristic import HeuristicAgent
from werealign.arena.moderator import play_game
from werealign.dataset import load_dataset
from werealign.importers.toolkit.nights import night_facts
from werealign.importers.toolkit.nights.night_truth import settle_night_actions
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE, Audience, Provenance
from werealign.schema.roles import RoleDeclaration, builtin_catalogue, catalogue_for

# The seer's nightly check under another id and other names (no name of the built-in seer).
ORACLE = RoleDeclaration(id="oracle", faction="good", team="gods", names={"en": ["oracle"], "zh": ["神谕者"]},
                         knows_each_night=["seer_check"])
ROLES = ["witch", "hunter", "werewolf", "werewolf", "werewolf", "villager", "villager", "villager"]


def _play(seer: str, language: str, seed: int, oracle: RoleDeclaration = ORACLE):
    roles = [seer, *ROLES]
    extra = {"declared_roles": [oracle], "abilities": {"oracle": {"action": "check"}}} if seer == "oracle" else {}
    board = make_board("t", BoardSpec(roles=roles, language=language, **extra))
    agents = {s: HeuristicAgent(seed) for s in range(1, len(roles) + 1)}
    return play_game(board, roles, agents, "t-1", seed, Provenance(source="test")).game


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_heuristic_plays_a_role_holding_the_seers_check_as_the_seer(language, seed):
    """The same table with the seer's card renamed: the same moves, and the same words with the oracle's name for the
    seer's (its own claims, the wolves' fake claims, the village believing a lone claimant)."""
    seer, oracle = _play("seer", language, seed), _play("oracle", language, seed)
    moves = lambda g: [(e.kind, e.phase, e.actor, e.target, e.skill, e.result) for e in g.events]  # noqa: E731
    assert moves(oracle) == moves(seer) and oracle.winner == seer.winner
    name = {"en": ("oracle", "seer"), "zh": ("神谕者", "预言家")}[language]
    said = [u.text for u in oracle.utterances]
    assert any(name[0] in t for t in said), "the oracle claims its own card"
    assert [t.replace(*name) for t in said] == [u.text for u in seer.utterances]


def test_a_card_the_board_lets_check_is_played_as_the_seer_without_declaring_what_it_learns():
    """The board's ability makes the moderator play the check; the log's catalogue then says the card learns it, so the
    heuristic claims it and reads its checks as a seer's (review: a check ability alone checked and never claimed)."""
    bare = ORACLE.model_copy(update={"knows_each_night": None})
    seer, oracle = _play("seer", "en", 0), _play("oracle", "en", 0, oracle=bare)
    assert [(e.kind, e.actor, e.target, e.result) for e in oracle.events] == [(e.kind, e.actor, e.target, e.result) for e in seer.events]
    assert [u.text.replace("oracle", "seer") for u in oracle.utterances] == [u.text for u in seer.utterances]
    assert catalogue_for(oracle.rules.declared_roles).holds("oracle", skill="seer_check")


def _oracle_game(language: str, says: str, oracle: RoleDeclaration = ORACLE, checks: bool = True):
    """test_analyze_arena_metrics' five seats with the seer's card declared as the oracle: seat 1 checks wolf 2 on night 1
    (unless not `checks`), says `says` on day 1, and 2 is exiled 3 to 1."""
    game = seer_game(language, says)
    seats = [s.model_copy(update={"role": oracle.id}) if s.role == "seer" else s for s in game.seats]
    composition = [c.model_copy(update={"role": oracle.id}) if c.role == "seer" else c for c in game.rules.composition]
    events = [e for e in game.events if checks or e.skill != "seer_check"]
    return game.model_copy(update={"seats": seats, "events": events,
                                   "rules": game.rules.model_copy(update={"declared_roles": [oracle], "composition": composition})})


def test_the_seer_metrics_are_those_of_the_role_holding_the_check():
    """A claim of the oracle by its own names is a seer reveal; a group holding the oracle's seat has the seer metrics."""
    for language, says in (("en", "I am the oracle. Seat 2 is a werewolf."), ("zh", "我是神谕者，2号是狼人。")):
        gm = game_metrics(_oracle_game(language, says))
        assert gm.seer_seats == (1,) and "seer" not in gm.missing
        assert gm.seer["reveals"] == 2 and gm.seer["target_reveals"] == 1 and gm.seer["wolf_reveals"] == 1 and gm.seer["believed"] == 1
        # Without a stated check the seat is still the seer (its role holds the check); only what needs a check is missing.
        unchecked = game_metrics(_oracle_game(language, says, checks=False))
        assert unchecked.seer_seats == (1,) and unchecked.seer["reveals"] == 1 and "seer_checks" in unchecked.missing
        village = aggregate(Group("g", "human", [(gm, frozenset({1, 3, 4, 5}))]))["seer"]
        assert village["games"] == 1 and village["unmasked_wolf"]["value"] == 1.0
        wolves = aggregate(Group("g", "human", [(gm, frozenset({2}))]))["seer"]
        assert wolves["games"] == 0, "the seer metrics belong to the side holding the checker"
    # The built-in seer's name is no claim of the oracle's card.
    assert game_metrics(_oracle_game("en", "I am the seer. Seat 2 is a werewolf.")).seer["reveals"] == 0
    # A role with no name in the game's language is named in the output by its display name.
    english_only = ORACLE.model_copy(update={"names": {"en": ["star reader"]}})
    gm = game_metrics(_oracle_game("zh", "我是神谕者，2号是狼人。", oracle=english_only))
    assert gm.missing["seer"] == "no name of the star reader role in language 'zh' (role catalogue)"


# Told the wolves' victim every night (a plain 'wolf_kill', no 'until'), on the good side: it learns the pack's kill, it
# does not kill with the pack.
WATCH = RoleDeclaration(id="night_watch", faction="good", team="gods", names={"en": ["night watch"]}, knows_each_night=["wolf_kill"])
NIGHTS = [Phase(id=f"{k}-{d}", kind=k, day=d, start=20 * d + (10 if k == "day" else 0), end=20 * d + (19 if k == "day" else 9))
          for d in (1, 2, 3) for k in ("night", "day")]


def _kill(target: int, night: int) -> Event:
    return Event(kind="skill_use", phase=f"night-{night}", segment_id=None, audience=Audience(kind="team", team="wolf"), target=target,
                 skill="wolf_kill")


def test_a_role_told_the_pack_kill_learns_it_and_does_not_hold_it():
    cat = catalogue_for([WATCH])
    watch, witch = cat.get("night_watch"), cat.get("witch")
    assert "wolf_kill" in watch.knows_each_night and not cat.holds("night_watch", "wolf_kill")
    assert cat.holds("werewolf", "wolf_kill")  # the pack learns its kill by making it
    assert witch.night_skills == {"witch_save", "witch_poison"}
    assert cat.holds("seer", "seer_check")
    # The settling shows it the victim every night it is in, as the witch is shown it until her antidote.
    seats = [SeatInfo(seat=i, role=r, faction="wolf" if r == "werewolf" else "good")
             for i, r in enumerate(["seer", "night_watch", "villager", "werewolf", "werewolf", "villager", "witch"], 1)]
    dawn = Event(kind="elimination", phase="day-1", segment_id=31, audience=EVERYONE, target=3, result="night_death")
    saved = Event(kind="skill_use", phase="night-2", segment_id=None, audience=ACTOR, actor=7, target=6, skill="witch_save")
    kept, _ = settle_night_actions([_kill(3, 1), _kill(6, 2), saved, _kill(1, 3)], [dawn], seats, NIGHTS, catalogue=cat)
    told = {(e.phase, e.target, tuple(e.audience.seats)) for e in kept if e.audience.kind == "seats"}
    assert {t for t in told if t[2] == (2,)} == {("night-1", 3, (2,)), ("night-2", 6, (2,)), ("night-3", 1, (2,))}
    assert {t for t in told if t[2] == (7,)} == {("night-1", 3, (7,)), ("night-2", 6, (7,))}, "the witch as before"


# The night readers night_facts calls, each given the game's catalogue (a required argument: none falls back to the
# built-in catalogue, which would read a game's declared roles as unknown).
READERS = ("read_night_actions", "badge_checks", "read_statements", "own_checks", "drop_checks_after_their_report", "read_log_claims",
           "recap_checks", "statement_events", "settle_night_actions")


def test_the_datasets_own_catalogue_reaches_every_night_reader(tmp_path, monkeypatch):
    """An invented release game whose rules declare a role (the release's importer declares none today; the declaration
    is added to its rules here): every night reader is handed that game's catalogue, not the built-in one."""
    import werealign.importers.werebench.game as werebench_game

    got: dict[str, list] = {name: [] for name in READERS}
    rules_of = werebench_game._rules
    seer_names = RoleDeclaration(id="seer", names={"zh": ["观星者"]})
    monkeypatch.setattr(werebench_game, "_rules", lambda *a: rules_of(*a).model_copy(update={"declared_roles": [seer_names]}))

    def spy(name, real):
        def wrapped(*args, **kwargs):
            cat = kwargs.get("catalogue", next((a for a in args if isinstance(a, type(builtin_catalogue()))), None))
            got[name].append(cat)
            return real(*args, **kwargs)
        return wrapped
    for name in READERS:
        monkeypatch.setattr(night_facts, name, spy(name, getattr(night_facts, name)))
    out = tmp_path / "out"
    r = run_cli("import", "werebench", str(write_release(tmp_path / "release")), "--out", str(out))
    assert r.returncode == 0, r.stderr
    (game,) = load_dataset(out).games.values()
    assert game.rules.declared_roles == [seer_names]
    own = catalogue_for(game.rules.declared_roles)
    assert own is not builtin_catalogue() and own.canonical("观星者") == "seer"
    for name, cats in got.items():
        assert cats and all(c is own for c in cats), name


def test_a_night_reader_called_without_the_games_catalogue_is_refused():
    """No silent fallback to the built-in catalogue: a caller that forgot the game's catalogue fails at once."""
    seats = [SeatInfo(seat=1, role="seer", faction="good"), SeatInfo(seat=2, role="werewolf", faction="wolf")]
    with pytest.raises(TypeError, match="catalogue"):
        night_facts.read_night_facts("第一晚预言家 1 号验 2 号", None, [], seats, NIGHTS, "zh", [])
    with pytest.raises(TypeError, match="catalogue"):
        settle_night_actions([], [], seats, NIGHTS)
