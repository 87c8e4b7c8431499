"""A trigger's program for each piece removed, and a forest of its actor's choice (test
pack prized-trophies: the Marquise's relics).  Law 15.2.5, Prized Trophies: "Whenever an
enemy removes a relic, they place it in any forest face up and score an extra victory
point (for a total of two)."  The trigger's 'per_piece' (its program once for each piece
removed, naming it 'piece'), and an effect program's 'place' ``"at": {"forest":
filter}`` (the decision 'choice', its options 'forest <forest> <piece>').  Through the
turn flow (a battle of the Eyrie's Decree against the Marquise), in three seat orders, on
both cores."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import error_lines, past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.events import record
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "prized-trophies"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]
RELICS = [f"{t}-{v}" for t in ("tablet", "jewel", "idol") for v in (1, 2, 3)]


@cache
def trophies():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def eyrie_battles(order, core_kind, pieces, dice=(2, 0)):
    """The Eyrie's Decree with one rabbit card in its battle column, the board only
    ``pieces`` in clearing 5 (a rabbit clearing), the dice set: it battles the Marquise
    there."""
    g = past_setup(order, bundle=trophies(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    for col in ("recruit", "move", "build"):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "battle", ["bake-sale"])
    for piece, n in pieces.items():
        sc.put(g, "5", piece, n)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, *dice)
    return g, e


def forests(g):
    return {fo: row for fo, row in g.forest_counts().items() if row}


@pytest.mark.parametrize("order", ORDERS)
def test_the_remover_places_each_relic_in_a_forest_of_its_choice(core_kind, order):
    """Three birds, no cats, two relics in 5: the Eyrie's two hits remove both (a point
    each, Law 3.2.1); for each, the Eyrie (the remover) chooses any forest, the relic
    goes there, and it scores one more: four in all."""
    g, e = eyrie_battles(order, core_kind, {"bird-warrior": 3, "tablet-2": 1, "idol-3": 1})
    vp = g.scores[e]
    g.record_events()
    g.apply("battle 5 marquise")
    assert g.decision == "choice" and g.current == e
    assert sorted(g.legal()) == [f"forest {fo} tablet-2" for fo in g.names["forests"]]
    g.apply("forest 3_6_11 tablet-2")
    assert g.scores[e] == vp + 3  # two removed (2) and one trophy (1)
    assert g.decision == "choice"
    assert sorted(g.legal()) == [f"forest {fo} idol-3" for fo in g.names["forests"]]
    g.apply("forest 4_9_12 idol-3")
    assert g.scores[e] == vp + 4
    assert forests(g) == {"3_6_11": {"tablet-2": 1}, "4_9_12": {"idol-3": 1}}
    assert sc.count(g, "5", "tablet-2") == 0 and sc.count(g, "5", "idol-3") == 0
    placed = [record(g, x) for x in g.take_events() if x.kind == "placed_in_forest"]
    assert placed == [
        {"event": "placed_in_forest", "faction": "eyrie", "forest": "3_6_11",
         "piece": "tablet-2", "count": 1},
        {"event": "placed_in_forest", "faction": "eyrie", "forest": "4_9_12",
         "piece": "idol-3", "count": 1}]
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_two_relics_of_one_kind_are_two_trophies(core_kind, order):
    g, e = eyrie_battles(order, core_kind, {"bird-warrior": 3, "tablet-3": 2})
    vp = g.scores[e]
    g.apply("battle 5 marquise")
    g.apply("forest 1_2_5_10 tablet-3")
    assert g.decision == "choice"
    g.apply("forest 1_2_5_10 tablet-3")
    assert g.scores[e] == vp + 4
    assert forests(g) == {"1_2_5_10": {"tablet-3": 2}}


@pytest.mark.parametrize("order", ORDERS[:2])
def test_warriors_removed_set_off_nothing(core_kind, order):
    """The trigger names the relics: cat warriors removed are no trophies."""
    g, e = eyrie_battles(order, core_kind, {"bird-warrior": 3, "cat-warrior": 2})
    vp = g.scores[e]
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "cat-warrior") == 0
    assert g.decision != "choice" and g.scores[e] == vp and forests(g) == {}


# ---------------------------------------------------------------- validation


def _with_trigger(tmp_path: Path, **changes) -> Path:
    pack = tmp_path / "prized-trophies"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == "/abilities/-":
            op["value"].update(changes)
            op["value"] = {k: v for k, v in op["value"].items() if v is not None}
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    return pack


def _errors(pack: Path) -> list[str]:
    return error_lines(pack)


def test_the_pack_validates():
    assert _errors(PACK) == []


def test_piece_names_the_removed_one_only_for_each_piece(tmp_path):
    found = _errors(_with_trigger(tmp_path, per_piece=None))
    assert any(x.startswith("REF-UNDEF") and "'piece' is the piece removed" in x
               for x in found), found


def test_per_piece_with_a_cost_is_refused(tmp_path):
    found = _errors(_with_trigger(tmp_path, cost="card", actor="self"))
    assert any(x.startswith("VALUE-INVALID") and "'per_piece'" in x for x in found), found


def test_a_forest_of_the_actors_choice_is_no_library_programs(tmp_path):
    pack = tmp_path / "prized-trophies"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text())
    lib["programs"]["scatter_relics"]["do"] = [
        {"op": "place", "piece": "tablet-1", "at": {"forest": {}}}]
    (pack / "library.json").write_text(json.dumps(lib, indent=2))
    found = _errors(pack)
    assert any(x.startswith("PROGRAM-SHAPE") and "an effect program's" in x
               for x in found), found


def _with_program(tmp_path: Path, do: list) -> Path:
    pack = tmp_path / "prized-trophies"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == "/abilities/-":
            op["value"]["do"] = do
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    return pack


@pytest.mark.parametrize("do, words", [
    ([{"op": "score", "vp": {"value_of": "piece"}}], "an effect program chooses none"),
    ([{"op": "place", "piece": "tablet-1", "at": {"forest": {"when": {
        "at_least": [{"event": "pieces"}, 1]}}}}], "reads no event's pieces"),
])
def test_what_an_effect_program_cannot_read_is_told_at_it(tmp_path, do, words):
    """(The second in a trigger of the pieces removed from a clearing: one for each piece
    counts no event's pieces, VALUE-INVALID.)"""
    pack = _with_program(tmp_path, do)
    if "event" in json.dumps(do):
        fac = json.loads((pack / "marquise.json").read_text())
        for op in fac["patch"]:
            if op["path"] == "/abilities/-":
                op["value"].pop("per_piece")
        (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    found = _errors(pack)
    assert any(x.startswith("EFFECT-PART") and words in x for x in found), found


def test_a_program_the_core_cannot_build_is_an_error_at_the_pack_not_a_traceback(tmp_path):
    """'piece' (the piece removed) put into a box of the holder's, by the holder (its
    trigger carried out by the holder: a box for the player who removed it is refused
    where it is written, EFFECT-PART): the checks let it through, the generator cannot
    compile it; validation says so at the pack's manifest."""
    pack = _with_program(tmp_path, [{"op": "into_box", "piece": "piece", "box": "x"}])
    fac = json.loads((pack / "marquise.json").read_text())
    fac["patch"].append({"op": "add", "path": "/boxes",
                         "value": [{"id": "x", "piece": "cat-warrior"}]})
    for op in fac["patch"]:
        if op["path"] == "/abilities/-":
            op["value"]["actor"] = "self"
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    found = [d for d in validate([pack], [], play=2).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["PROGRAM-USE"], found
    assert "the core cannot be built" in found[0].message and \
        found[0].file.endswith("pack.json"), found


def test_a_box_for_the_player_who_removed_is_refused_where_it_is_written(tmp_path):
    """The trigger is carried out by the player who removed the relic ('actor': 'other'):
    a box the program fills is the holder's, not that player's (EFFECT-PART, located in
    the faction's file: the holder's box numbers would fill another's boxes)."""
    pack = _with_program(tmp_path, [{"op": "into_box", "piece": "piece", "box": "x"}])
    fac = json.loads((pack / "marquise.json").read_text())
    fac["patch"].append({"op": "add", "path": "/boxes",
                         "value": [{"id": "x", "piece": "cat-warrior"}]})
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    found = [d for d in validate([pack], [], play=0).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["EFFECT-PART"], found
    assert "names box 'x', the holder's, for another player" in found[0].message and \
        found[0].file.endswith("marquise.json"), found
