"""A number chosen by a second choice (models.NumberChoice), read by the parts after it as
``{"chosen": "number"}`` (models.ChosenValue): Law 12.5.1, Dig, "move up to four
warriors (at least one) from the Burrow to that clearing".

The test pack tests/data/packs/chosen-number gives the Marquise a burrow (a box, two
warriors into it each Birdsong) and a Daylight action 'dig': a card matching a clearing
she rules is discarded, then she chooses how many warriors, 1 to the least of 4 and the
burrow's, come out of the burrow into that clearing; she scores half of them, rounded up.
Each position is reached through the turn flow, in two seat orders, on both cores.
Autumn: clearing 1 is a fox clearing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import pack_bundle, past_setup

from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "chosen-number"
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
ORDERS = pytest.mark.parametrize("order", [("marquise", "eyrie"),
                                           ("eyrie", "alliance", "marquise")],
                                 ids=["me", "eam"])


@pytest.fixture(scope="module")
def bundle():
    return pack_bundle("chosen-number")


def _daylight(bundle, order, pure, burrow: int):
    """The Marquise at her Daylight's actions with 'anvil' (fox) in hand, a warrior of
    hers in 1 (she rules it), nothing else on the map, ``burrow`` warriors in the
    burrow."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    m = pos.seat_of(g, "marquise")
    pos.put(g, "1", "cat-warrior", 1)
    pos.set_hand(g, m, ["anvil"])
    pos.goto(g, "marquise", "daylight", "actions")
    pos.set_box(g, m, "burrow", burrow)
    pos.set_vp(g, m, 0)
    assert g.to_play == m and g.compiled is not pure
    return g, m


def _numbers(g) -> list[str]:
    return sorted(a for a in g.legal() if a.startswith("number"))


@CORES
@ORDERS
@pytest.mark.parametrize("burrow, most", [(6, 4), (2, 2), (1, 1)])
def test_the_numbers_offered_run_from_min_to_max(bundle, order, pure, burrow, most):
    """After the card is spent, the choice offers 1 to the least of 4 and the burrow,
    and nothing else (no 'done': the choice is not optional)."""
    g, m = _daylight(bundle, order, pure, burrow)
    g.apply("dig anvil 1")
    assert g.to_play == m
    assert sorted(g.legal()) == sorted(f"number {k}" for k in range(1, most + 1))
    assert "anvil" not in g.hand(m)


@CORES
@ORDERS
def test_the_parts_after_it_read_the_number_chosen(bundle, order, pure):
    """'number 3': three warriors leave the burrow and are placed in 1; she scores 2
    (half of 3, rounded up); the turn goes on at her actions."""
    g, m = _daylight(bundle, order, pure, 6)
    g.apply("dig anvil 1")
    g.apply("number 3")
    assert not list(invariant_violations(g))
    assert pos.box(g, m, "burrow") == 3
    assert pos.count(g, "1", "cat-warrior") == 4
    assert g.scores[m] == 2
    assert g.to_play == m and g.decision == "actions"


@CORES
@ORDERS
def test_with_no_number_to_choose_the_action_is_not_offered(bundle, order, pure):
    """An empty burrow: 1 to 0 offers nothing, so 'dig' is not offered (the second
    choice is no option the actor may decline)."""
    g, _ = _daylight(bundle, order, pure, 0)
    assert not any(a.startswith("dig") for a in g.legal())
    pos.set_box(g, pos.seat_of(g, "marquise"), "burrow", 1)
    assert "dig anvil 1" in g.legal()


# ---- validation: each refusal coded and located


FIRST = {"op": "choose", "clearing": {"rule": "self"}}
NUMBER = {"op": "choose", "number": {"min": 1, "max": 4}}


def _pack_with(tmp_path: Path, program: dict) -> Path:
    """The test pack, its 'dig' program replaced."""
    pack = tmp_path / "chosen-number"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["dig"] = program
    (pack / "library.json").write_text(json.dumps(lib, indent=1), encoding="utf-8")
    return pack


@pytest.mark.parametrize("do, pointer, words", [
    ([NUMBER, {"op": "draw"}], "/programs/dig/do/0",
     "a 'number' is a second choice's"),
    ([FIRST, {"op": "choose", "number": {"max": 2}, "clearing": {}}],
     "/programs/dig/do/1/number", "a 'number' is chosen alone"),
    ([FIRST, {"op": "place", "piece": "warrior", "count": {"chosen": "number"}}],
     "/programs/dig/do/1", "no choice before it chooses one"),
    ([FIRST, {"op": "choose", "number": {"max": 2}, "repeat": True}],
     "/programs/dig/do/1/repeat", "chosen once"),
    ([FIRST, NUMBER, {"op": "score", "vp": {"clearings": {"rule": "self", "when": {
        "at_least": [{"chosen": "number"}, 2]}}}}],
     "/programs/dig/do/2", "not inside a clearing's or forest's filter"),
    ([FIRST, NUMBER, {"op": "score", "vp": {"value_of": "piece"}}],
     "/programs/dig/do/2", "'value_of' reads the chosen piece"),
    ([FIRST, NUMBER, {"op": "score", "vp": {"box": "piece"}}],
     "/programs/dig/do/2", "the box that holds 'piece'"),
    ([FIRST, NUMBER, {"op": "score", "vp": {"clearings": {"adjacent_to_forest": True}}}],
     "/programs/dig/do/2", "'adjacent_to_forest' reads the forest"),
    ([FIRST, {"op": "choose", "number": {"max": {"taken": "this_turn"}}}],
     "/programs/dig/do/1/number", "not 'taken'"),
], ids=["first", "with-a-clearing", "none-chosen", "repeat", "in-a-filter",
        "value-of-no-piece", "box-of-no-piece", "no-forest", "taken"])
def test_a_number_out_of_place_is_a_located_error(tmp_path, do, pointer, words):
    pack = _pack_with(tmp_path, {"law": "12.5.1", "verb": "dig", "do": do})
    found = [(d.pointer, d.message) for d in validate([pack], []).diagnostics
             if d.code == "PROGRAM-SHAPE"]
    assert any(p == pointer and words in m for p, m in found), found


def test_an_effect_program_reads_no_chosen_number():
    from conftest import assert_located, faction_with

    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "daylight",
        "do": [{"op": "draw", "count": {"chosen": "number"}}]})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/do", "chooses none")


def test_number_is_no_content_verb(tmp_path):
    pack = _pack_with(tmp_path, {"verb": "number", "do": [FIRST, {"op": "draw"}]})
    found = [(d.code, d.pointer) for d in validate([pack], []).diagnostics]
    assert ("PROGRAM-SHAPE", "/programs/dig/verb") in found, found


def test_a_number_parameter_the_entry_leaves_out_is_located(tmp_path):
    pack = _pack_with(tmp_path, {"law": "12.5.1", "verb": "dig",
                                 "params": {"most": {"type": "number", "default": None}},
                                 "do": [FIRST, {"op": "choose", "number": {"max": "$most"}},
                                        {"op": "draw", "count": {"chosen": "number"}}]})
    found = [(d.code, d.file, d.message) for d in validate([pack], []).diagnostics
             if d.severity == "error"]
    assert any(f.endswith("marquise-dig.json") and "'$most'" in m and "leaves out" in m
               and "/programs/dig/do/1/number/max" in m for _, f, m in found), found


def test_a_menu_entrys_cost_reads_no_chosen_number():
    from rootlaw.spec import models as M

    with pytest.raises(Exception, match="'cost' is read before anything is chosen"):
        M.BattleAction.model_validate({"action": "battle", "cost": {
            "op": "into_box", "piece": "warrior", "box": "b", "from_box": True,
            "count": {"chosen": "number"}}})
