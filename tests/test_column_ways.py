"""A column whose cards are taken one of several ways (test pack column-ways, a patch of
the Eyrie's Decree).  Law 15.5.2, Act with Retinue, Move or Recover: "Choose a clearing
whose suit matches the card suit. Take a move from it, or recover relics from it": a
column's 'or' ways, each an action and its fields, the player choosing among all their
options in clearings matching the card; a card fails (the Decree's turmoil, Law 7.7)
only when no way can take it.  Here the move column's cards are a move or a recruit at a
roost (a program as the other way), and the build column's a roost built or a move (a
program as the column's own way).  Through the turn flow, in three seat orders, on both
cores; and validation of the ways."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import BASE_PACK, resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "column-ways"
ORDERS = [("eyrie", "marquise"), ("marquise", "eyrie"), ("alliance", "eyrie", "marquise")]
FOX, MOUSE = "tax-collector", "mouse-root-tea"   # fox clearings 1, 6, 8, 12; mouse 2, 7, 9, 11
FOX2 = "fox-root-tea"
MOVES_FROM_1 = ["move 1->10 x1", "move 1->10 x2", "move 1->5 x1", "move 1->5 x2",
                "move 1->9 x1", "move 1->9 x2"]


@cache
def ways():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def game(order, core_kind, bundle=None):
    g = past_setup(order, bundle=bundle or ways(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    return g, e


def warriors(g, clearing):
    return sc.count(g, clearing, "bird-warrior")


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_is_offered_every_way_of_its_column(core_kind, order):
    """The move column's fox card: the moves from fox clearing 1 (the column's own way)
    and a recruit at the roost of fox clearing 6 (its 'or' way), all in one list; no
    'fail' (the card can be taken)."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "6", "roost", 1)
    sc.set_column(g, e, "move", [FOX])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.current == e
    assert sorted(g.legal()) == sorted([*MOVES_FROM_1, "recruit 6"])


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("way", ["move 1->5 x2", "recruit 6"])
def test_either_way_takes_the_card(core_kind, order, way):
    """Taken as a move or as a recruit, the card is resolved: its column's options are
    not offered again (no other column holds a card: Daylight ends).  The move moves
    two warriors; the recruit places one at the roost."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "6", "roost", 1)
    sc.set_column(g, e, "move", [FOX])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    g.apply(way)
    if way == "recruit 6":
        assert (warriors(g, "1"), warriors(g, "6")) == (2, 1)
    else:
        assert (warriors(g, "1"), warriors(g, "5"), warriors(g, "6")) == (0, 2, 0)
    # The card is resolved: no option of the move column is offered again.
    assert g.current != e or not set(g.legal()) & {*MOVES_FROM_1, "recruit 6"}
    assert g.columns(e)["move"] == [FOX]  # resolved cards stay in their column


@pytest.mark.parametrize("order", ORDERS)
def test_a_column_whose_own_way_is_a_program_takes_a_move_too(core_kind, order):
    """The build column (its own way a roost built where the Eyrie rules, its 'or' way a
    move): with the fox card, a roost in fox clearing 1 or a move from it; taken as a
    move, the card is resolved and no roost is built."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.set_column(g, e, "build", [FOX2])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert sorted(g.legal()) == sorted(["build roost 1", *MOVES_FROM_1])
    g.apply("move 1->9 x1")
    assert (warriors(g, "1"), warriors(g, "9")) == (1, 1)
    assert sc.count(g, "1", "roost") == 0
    assert g.current != e  # the last card: Daylight over, Evening ran


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_one_way_cannot_take_is_taken_the_other_without_turmoil(core_kind, order):
    """No warrior in a fox clearing, so no move; a roost in fox clearing 6: the fox card
    is offered its recruit alone, and there is no 'fail'."""
    g, e = game(order, core_kind)
    sc.put(g, "2", "bird-warrior", 2)   # a mouse clearing
    sc.put(g, "6", "roost", 1)
    sc.set_column(g, e, "move", [FOX])
    roles = sc.roles_of(g, e)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert sorted(g.legal()) == ["recruit 6"]
    g.apply("recruit 6")
    assert sc.roles_of(g, e) == roles and warriors(g, "6") == 1


@pytest.mark.parametrize("order", ORDERS)
def test_the_base_decree_twin_falls_into_turmoil(core_kind, order):
    """The twin in the base game, whose move column has no other way: the same fox card
    cannot be resolved (no warrior in a fox clearing), so turmoil (Law 7.7): the Decree
    is discarded and a new leader is chosen."""
    g, e = game(order, core_kind, bundle=_base())
    sc.put(g, "2", "bird-warrior", 2)
    sc.put(g, "6", "roost", 1)
    sc.set_column(g, e, "move", [FOX])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.current == e and g.decision == "choose_role"
    assert g.columns(e)["move"] == []


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_no_way_can_take_falls_into_turmoil(core_kind, order):
    """Neither a move (no warrior in a mouse clearing) nor a recruit (no roost in one):
    the mouse card fails, and the Decree's hook runs (Law 7.7)."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "6", "roost", 1)
    sc.set_column(g, e, "move", [MOUSE])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.current == e and g.decision == "choose_role"
    assert g.columns(e)["move"] == []


@cache
def _base():
    return resolve([])


# ---------------------------------------------------------------- validation


def _pack_with(tmp_path: Path, column: dict) -> Path:
    """A pack of a faction that is the Eyrie, but for its id and its move column,
    written as ``column`` (a faction file of its own: findings are located in it)."""
    pack = tmp_path / "column-ways"
    pack.mkdir()
    eyrie = json.loads((BASE_PACK / "eyrie.json").read_text(encoding="utf-8"))
    eyrie["id"] = "rooks"
    eyrie["cards"] = [{**c, "id": "rook-" + c["id"]} for c in eyrie.get("cards", [])]
    assert eyrie["columns"][1]["id"] == "move"
    eyrie["columns"][1] = column
    (pack / "rooks.json").write_text(json.dumps(eyrie, indent=1), encoding="utf-8")
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "rooks", "name": "rooks", "version": "1",
         "requires": ["base"], "content": ["rooks.json"]}), encoding="utf-8")
    return pack


def _found(pack: Path) -> list[tuple[str, str, str]]:
    """The errors found in the columns (the copy's pieces clash with the Eyrie's: the
    ID-DUP findings elsewhere are the copy's, not the test's)."""
    return [(d.code, d.pointer, d.message) for d in validate([pack], []).diagnostics
            if d.severity == "error" and d.pointer.startswith("/columns")]


def test_the_pack_validates_clean():
    assert list(validate([PACK], []).diagnostics) == []


def test_two_ways_of_one_action_type_are_an_error(tmp_path):
    """Two moves, or two programs of one verb: the engine tells ways apart by type."""
    pack = _pack_with(tmp_path, {"id": "move", "action": "move", "or": [
        {"action": "move"}, {"action": "recruit_at", "buildings": ["roost"]},
        {"action": "recruit_at", "buildings": ["roost"]}]})
    assert [(c, p) for c, p, _ in _found(pack)] == [
        ("COLUMN-WAYS", "/columns/1/or/0/action"), ("COLUMN-WAYS", "/columns/1/or/2/action")]
    said = {p: m for c, p, m in _found(pack)}
    assert said["/columns/1/or/0/action"] == (
        "column move: 'move' is taken as the column's own action is (a move): one way per "
        "action type")
    assert said["/columns/1/or/2/action"] == (
        "column move: 'recruit_at' is taken as way 1 ('recruit_at') is (a recruit): one "
        "way per action type")


def test_an_unknown_way_is_located_at_it(tmp_path):
    pack = _pack_with(tmp_path, {"id": "move", "action": "move", "or": [
        {"action": "recruit_att", "buildings": ["roost"]}]})
    found = _found(pack)
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-REF", "/columns/1/or/0/action")]
    assert "'recruit_att' is no column action or program (did you mean 'recruit_at'?" \
        in found[0][2]


def test_a_way_binds_its_program_as_a_column_does(tmp_path):
    """The way's fields bind its program's parameters: a missing one is PROGRAM-USE at
    the way."""
    pack = _pack_with(tmp_path, {"id": "move", "action": "move", "or": [
        {"action": "recruit_at"}]})
    found = _found(pack)
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-USE", "/columns/1/or/0")]
    assert "column has no 'buildings'" in found[0][2]
