"""Edges of the language parts added in stop 34 (the step 'stop', choose_role's 'then',
the filter 'enemies', placements and exclusive placement, Law 6.2.2), each found by a
code review or an outside author: what content validation lets through plays on both
cores, and what it refuses is located where the author wrote it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import herons_pack, herons_with_roles, with_menu_entries

from rootlaw.generator import build as gbuild
from rootlaw.generator.render import render_core
from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.spec import resolve
from rootlaw.spec.loader import validate_data
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
SEM = ROOT / "tests" / "data" / "semantics"


def test_enemies_in_an_effect_s_filter_plays_on_both_cores(tmp_path):
    """A filter's 'enemies' read only by an ability's effect program (no library
    program reads it): the core has its helper (the pure core raised, the compiled one
    counted nothing), and a game using it plays to its end on both cores alike."""
    pack = tmp_path / "cult"
    import shutil
    shutil.copytree(ROOT / "examples" / "lizard-cult", pack)
    cult = json.loads((pack / "cult.json").read_text(encoding="utf-8"))
    rites = json.loads((pack / "rites.json").read_text(encoding="utf-8"))
    rites["programs"]["crusade"]["do"][0]["clearing"].pop("enemies")
    cult["abilities"].append({"kind": "effect", "id": "tally", "law": "-",
                              "timing": "start_of_birdsong", "mandatory": True,
                              "do": [{"op": "score", "vp": {"clearings": {"enemies": True}}}]})
    (pack / "cult.json").write_text(json.dumps(cult), encoding="utf-8")
    (pack / "rites.json").write_text(json.dumps(rites), encoding="utf-8")
    assert [d for d in validate([pack]).diagnostics if d.severity == "error"] == []
    bundle = resolve([pack])
    assert "def enemies_in(" in render_core(bundle)
    gbuild.compile_core(bundle)
    ends = []
    for pure in (True, False):
        g = Game(["marquise", "lizard-cult"], 5, bundle=bundle, pure=pure)
        assert g.compiled is not pure
        rng = random.Random(5)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        ends.append((g.scores, list(g.history)))
    assert ends[0] == ends[1]


def test_a_choose_role_left_as_written_before_tucks_nothing_without_cards(tmp_path):
    """A faction with roles but no cards of its own, its choose_role written before
    'then' existed: valid as it was (the default tuck has nothing to tuck), no finding at
    a 'then' the author never wrote."""
    faction = herons_with_roles()
    faction.pop("cards")
    found = [(d.code, d.pointer) for d in validate([herons_pack(tmp_path, faction, {})]).diagnostics
             if d.severity == "error"]
    assert found == []


def test_the_first_spelling_end_phase_is_located_at_its_own_step():
    doc = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))
    doc.pop("$schema")
    doc["turn"]["evening"].append({"op": "end_phase", "n": 1})
    _, problems, _ = validate_data(doc)
    assert [(code, ptr) for code, _, ptr in problems] == \
        [("KEY-UNKNOWN", f"/turn/evening/{len(doc['turn']['evening']) - 1}/n")]


@pytest.mark.parametrize("name", ["stop", "end_phase", "choose_role"])
def test_a_program_may_not_take_an_engine_step_s_name(name):
    """A step whose op is the engine's is that step: a program of the name would never
    run (a program 'stop' was fine before 'stop' was a step)."""
    _, problems, _ = validate_data({"kind": "library", "id": "rites", "programs": {
        name: {"do": [{"op": "draw", "count": 1}]}}})
    assert [(code, ptr) for code, _, ptr in problems] == \
        [("VALUE-INVALID", f"/programs/{name}")]


@pytest.fixture(scope="module")
def muster_bundle():
    """The Alliance's Daylight menu with one more entry: a warrior placed where one of
    theirs is, a placement not required by the action ('require': false)."""
    bundle = with_menu_entries("alliance", [{"action": "muster"}], {"muster": {
        "verb": "muster", "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                                 {"op": "place", "piece": "warrior", "require": False}]}})
    gbuild.compile_core(bundle)
    return bundle


@pytest.mark.parametrize("order", [("marquise", "alliance"), ("alliance", "eyrie", "marquise")])
def test_a_placement_not_required_passes_by_the_keep(order, muster_bundle, core_kind):
    """Law 6.2.2: only the Marquise places pieces in the Keep's clearing.  An action whose
    placement is not required is still offered there (it may do other things), and
    places nothing there."""
    g = Game(list(order), 1, bundle=muster_bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    keep = next(c for c in map(str, range(1, 13)) if pos.count(g, c, "keep"))
    pos.clear_board(g)
    pos.put(g, keep, "keep", 1)
    pos.put(g, keep, "alliance-warrior", 1)
    pos.put(g, "7" if keep != "7" else "8", "alliance-warrior", 1)
    pos.goto(g, "alliance", "daylight", "actions")
    other = "7" if keep != "7" else "8"
    assert {f"muster {keep}", f"muster {other}"} <= set(g.legal())
    g.apply(f"muster {keep}")
    assert pos.count(g, keep, "alliance-warrior") == 1
    g.apply(f"muster {other}")
    assert pos.count(g, other, "alliance-warrior") == 2


def test_a_draw_bonus_of_a_piece_named_by_id_reads_its_draw_at_row(tmp_path):
    """FIELD-UNREAD: a value 'draw_bonus' naming a building by its id (not through a
    parameter) reads that building's draw_at row (an outside author's Duchy)."""
    faction = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))
    faction["pieces"]["nest"]["track"]["draw_at"] = [2]
    faction["turn"]["evening"].insert(0, {"op": "forage"})
    programs = {"forage": {"do": [{"op": "draw", "count": {"sum": [
        1, {"draw_bonus": ["nest"]}]}}]}}
    unread = [d.pointer for d in validate([herons_pack(tmp_path, faction, programs)]).diagnostics
              if d.code == "FIELD-UNREAD"]
    assert "/pieces/nest/track/draw_at" not in unread


def test_a_turn_whose_only_draw_is_a_role_s_then_draws(tmp_path):
    """TURN-NO-DRAW reads the program a choose_role carries out in a hook."""
    faction = herons_with_roles()
    for phase in ("birdsong", "evening"):  # (the Eyrie's draws: Law 7.4.1, 7.6.2)
        faction["turn"][phase] = [s for s in faction["turn"][phase]
                                  if s["op"] not in ("draw", "draw_if_hand_empty")]
    codes = [d.code for d in validate([herons_pack(tmp_path, faction, {})]).diagnostics]
    assert "TURN-NO-DRAW" in codes
    turmoil = faction["hooks"]["turmoil"]
    next(s for s in turmoil if s["op"] == "choose_role")["then"] = "crown"
    programs = {"crown": {"do": [{"op": "tuck", "into": "role"}, {"op": "draw"}]}}
    codes = [d.code for d in validate([herons_pack(tmp_path, faction, programs)]).diagnostics]
    assert "TURN-NO-DRAW" not in codes


@pytest.fixture(scope="module")
def raze_bundle():
    """The Alliance's Daylight menu with one more entry: every enemy building and token
    removed where one of its warriors is, the warriors left (an outside author's Raze)."""
    bundle = with_menu_entries("alliance", [{"action": "raze"}], {"raze": {
        "verb": "raze", "do": [
            {"op": "choose", "clearing": {"has": "warrior"}},
            {"op": "remove", "pieces": "enemy", "kinds": ["building", "token"]}]}})
    gbuild.compile_core(bundle)
    return bundle


@pytest.mark.parametrize("order", [("marquise", "alliance"), ("alliance", "eyrie", "marquise")])
def test_remove_of_enemy_pieces_of_some_kinds_only(order, raze_bundle, core_kind):
    """Law 14.4.1 (Raze: "remove all enemy buildings and tokens"), a 'remove' of enemy
    pieces with 'kinds': the sawmill and the wood go, the actor scoring one VP each (Law
    3.2.1); the cat warriors stay."""
    g = Game(list(order), 1, bundle=raze_bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    pos.clear_board(g)
    a = list(order).index("alliance")
    pos.set_vp(g, a, 0)
    for piece, n in (("cat-warrior", 2), ("sawmill", 1), ("wood", 2), ("alliance-warrior", 1)):
        pos.put(g, "6", piece, n)
    pos.goto(g, "alliance", "daylight", "actions")
    g.apply("raze 6")
    assert [pos.count(g, "6", x) for x in ("cat-warrior", "sawmill", "wood")] == [2, 0, 0]
    assert g.scores[a] == 3


def test_kinds_of_a_remove_are_of_enemy_pieces_only():
    _, problems, _ = validate_data({"kind": "library", "id": "r", "programs": {"x": {
        "do": [{"op": "remove", "piece": "warrior", "kinds": ["token"]}]}}})
    assert [(c, p) for c, _, p in problems] == [("VALUE-INVALID", "/programs/x/do/0/kinds")]
