"""Roles are data; unknown never means unusable. Every role and game here is invented for the test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.annotate.build import build_from_files, validate_built
from werealign.game.visibility import build_context
from werealign.render.lines import rules_summary
from werealign.dataset import load_dataset, write_dataset
from werealign.errors import UserError
from werealign.dataset.derive import derive_dataset
from werealign.game.derive import derive_decision_items
from werealign.schema.roles import CATALOGUE, RoleDeclaration, builtin_catalogue, catalogue_for, normalise_label

from conftest import REPO

TEMPLATE = REPO / "annotation" / "config.template.yaml"
SRT = REPO / "annotation" / "examples" / "six_seat.srt"
MOON_CHILD = """declared_roles:
  - id: moon_child
    names: {en: [Moon Child, moonchild], zh: [月之子]}
    faction: good
    team: gods
    night_ability: learns whether a neighbour is awake
    rule: {en: "Each night learns whether one of their neighbours woke up."}
"""


def _config(tmp_path: Path, roles: dict[int, str], extra: str = "", language: str | None = None) -> Path:
    text = TEMPLATE.read_text(encoding="utf-8")
    for seat, label in roles.items():
        old = {1: "  1: villager\n", 6: "  6: villager\n"}[seat]
        text = text.replace(old, f"  {seat}: {label}\n")
    if language:
        text = text.replace("language: en ", f"language: {language} ")
    path = tmp_path / "config.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def test_catalogue_is_data_with_both_languages_and_open_factions():
    roles = builtin_catalogue().roles
    assert len(roles) >= 60
    for role in roles.values():
        assert role.names.get("zh") and role.names.get("en"), role.id
        assert role.rule.get("zh") and role.rule.get("en"), role.id
        assert role.faction in ("good", "wolf", "third", "variable"), role.id
    # Every name names one role (a second role claiming a name would make labels ambiguous).
    seen: dict[str, str] = {}
    for role in roles.values():
        for name in [n for names in role.names.values() for n in names]:
            assert seen.setdefault(normalise_label(name), role.id) == role.id, name
    teams = {r.team for r in roles.values()}
    assert {"village", "gods", "wolves", "lovers", "solo"} <= teams
    # The file ships inside the package (the wheel takes everything under werealign/).
    assert (REPO / "werealign" / "schema" / "role_catalogue.json").is_file()


def test_declarations_add_roles_override_fields_and_win_labels():
    cat = catalogue_for([
        RoleDeclaration(id="moon_child", faction="good", team="gods", names={"en": ["Moon Child"]}),
        RoleDeclaration(id="seer", names={"fr": ["voyante"]}, rule={"en": "A house rule seer."}),
    ])
    assert cat.canonical("MOON child") == "moon_child" and cat.faction("moon_child") == "good"
    assert cat.canonical("Voyante") == "seer" and cat.get("seer").rule["en"] == "A house rule seer."
    assert cat.get("seer").names["zh"] == CATALOGUE.get("seer").names["zh"]  # names add up
    assert CATALOGUE.canonical("voyante") is None  # the built-in catalogue is untouched
    with pytest.raises(ValueError, match="needs a faction"):
        catalogue_for([RoleDeclaration(id="star_gazer", names={"en": ["Star Gazer"]})])


def test_equal_declarations_share_one_catalogue_and_any_change_builds_another():
    """catalogue_for keeps what it built (an arena game asks for its catalogue at every view and move): equal
    declarations, even as other objects, get the same catalogue; a changed field, name or order gets its own."""
    def decls(**seer):
        return [RoleDeclaration(id="moon_child", faction="good", names={"en": ["Moon Child"]}), RoleDeclaration(id="seer", **seer)]

    first = catalogue_for(decls(names={"fr": ["voyante"]}))
    assert catalogue_for(decls(names={"fr": ["voyante"]})) is first
    assert first.canonical("voyante") == "seer"
    for other in (decls(names={"fr": ["devin"]}), decls(names={"fr": ["voyante"]}, team="village"), decls(names={"fr": ["voyante"]})[::-1]):
        assert catalogue_for(other) is not first
    assert catalogue_for(decls(names={"fr": ["devin"]})).canonical("voyante") is None
    assert catalogue_for(decls(names={"fr": ["voyante"]}, team="village")).get("seer").team == "village"
    assert first.get("seer").team == "gods"  # the catalogue built first is not changed by a later one
    for _ in range(2):  # a bad declaration is refused every time: no failure is kept
        with pytest.raises(ValueError, match="needs a faction"):
            catalogue_for([RoleDeclaration(id="star_gazer", names={"en": ["Star Gazer"]})])


def test_invented_role_declared_in_config_builds_validates_derives_and_evaluates(tmp_path):
    game = build_from_files(SRT, _config(tmp_path, {1: "Moon Child"}, MOON_CHILD)).game
    seat1 = next(s for s in game.seats if s.seat == 1)
    assert (seat1.role, seat1.faction, seat1.original_role_label) == ("moon_child", "good", "Moon Child")
    assert [d.id for d in game.rules.declared_roles] == ["moon_child"]
    assert [f for f in validate_built(game, "g.json") if f.severity == "error" or f.code == "unknown-role"] == []
    summary = rules_summary(game)
    assert "Moon Child (the good side): Each night learns whether one of their neighbours woke up." in summary
    assert build_context(game, 1, 16).own_role == "moon_child"
    derived = derive_decision_items(game)
    assert [(v.answer, v.candidates) for v in derived.vote] == [(2, [1, 2, 4, 5, 6]), (5, [4, 5, 6])]
    assert [o.answer for o in derived.opponent] == [[2, 5], [2, 5]]
    # A dataset of that game: derive writes its items, validate accepts it, a built-in model evaluates it.
    ds = tmp_path / "ds"
    write_dataset(ds, name="invented", version="1", licence="CC0", games=[game], items={"speech": [], "vote": [], "opponent": []})
    result = derive_dataset(ds)
    assert (result.counts()["vote"], result.counts()["opponent"]) == (2, 2)
    again = derive_dataset(ds, tmp_path / "ds2")
    assert (tmp_path / "ds2" / "items" / "vote.jsonl").read_bytes() == (ds / "items" / "vote.jsonl").read_bytes() and again.counts()["vote"] == 2
    assert load_dataset(ds).manifest.counts.vote == 2
    run = tmp_path / "run"
    r = run_cli("validate", str(ds))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("eval", "--model", "werealign/random", "--dataset", str(ds), "--tasks", "vote,opponent", "--decodes", "1",
                "--out", str(run), "--quiet")
    assert r.returncode == 0, r.stderr
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    assert results["complete"]


def test_undeclared_label_keeps_the_game_and_skips_only_what_needs_its_side(tmp_path):
    result = build_from_files(SRT, _config(tmp_path, {6: "Sky Dancer"}))
    game = result.game
    seat6 = next(s for s in game.seats if s.seat == 6)
    assert (seat6.role, seat6.faction) == ("Sky Dancer", "unknown")
    assert any("roles.6" in n and "Sky Dancer" in n and "unknown" in n for n in result.notes), result.notes
    findings = validate_built(game, "g.json")
    assert [f.severity for f in findings if f.code == "unknown-role"] == ["warning", "warning"]  # seat and composition
    assert not [f for f in findings if f.severity == "error"]
    assert "Sky Dancer (side not recorded)" in rules_summary(game)
    derived = derive_decision_items(game)
    assert len(derived.vote) == 2 and derived.opponent == []
    assert [n.code for n in derived.notes if n.kind == "dropped"] == ["oi_faction_unknown", "oi_faction_unknown"]
    assert all("6" in n.what for n in derived.notes if n.code == "oi_faction_unknown")


def test_declared_role_without_faction_is_a_config_error(tmp_path):
    from werealign.annotate.config import load_config

    path = _config(tmp_path, {1: "Star Gazer"}, "declared_roles:\n  - {id: star_gazer, names: {en: [Star Gazer]}}\n")
    with pytest.raises(UserError, match=r"config.yaml:\d+: declared_roles.0.faction: role 'star_gazer' is not in the role catalogue"):
        load_config(path)


def test_any_language_builds_and_renders_with_english_wording(tmp_path):
    from werealign.eval.prompts import render_messages

    game = build_from_files(SRT, _config(tmp_path, {}, language="pt-BR")).game
    assert game.language == "pt-BR"
    item = derive_decision_items(game).vote[0]
    text = render_messages(game, item)[1]["content"]
    assert "## Players\nSeat 1: Ava, Seat 2: Ben" in text and "Public events so far" in text


def test_has_sheriff_is_inferred_with_a_note_when_absent(tmp_path):
    path = _config(tmp_path, {})
    path.write_text(path.read_text(encoding="utf-8").replace("  has_sheriff: true\n", ""), encoding="utf-8")
    result = build_from_files(SRT, path)
    assert result.game.rules.has_sheriff is True
    assert any(n.startswith("rules.has_sheriff: not given; inferred true") for n in result.notes)


def test_config_rules_allowing_abstention_and_self_vote_reach_the_game(tmp_path):
    path = _config(tmp_path, {})
    text = path.read_text(encoding="utf-8")
    for key in ("abstention_allowed", "self_vote_allowed"):
        assert f"  {key}: false " in text  # the template says it, switched off
        text = text.replace(f"  {key}: false ", f"  {key}: true ")
    path.write_text(text, encoding="utf-8")
    rules = build_from_files(SRT, path).game.rules
    assert (rules.abstention_allowed, rules.self_vote_allowed) == (True, True)
    (tmp_path / "plain").mkdir()
    plain = build_from_files(SRT, _config(tmp_path / "plain", {})).game.rules
    assert (plain.abstention_allowed, plain.self_vote_allowed) == (False, False)
