"""Two-faced buildings (test pack two-faces: the Marquise's three waystations).  Law
15.2.2: "You have three waystations. Each waystation shows one relic type on its front and
another relic type on its back."  Law 15.4.1, Encamp: "you may place the waystation face
up or face down."  A piece's 'other_face': the two faces are one physical piece, so
placing one takes the other out of play, and one returned to the supply brings the other
back.  Through the turn flow (the Marquise's Birdsong, the Eyrie's Decree), in three
seat orders, on both cores."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import error_lines, past_setup, positioned

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "two-faces"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]
W1, W1_BACK = "waystation-1-tablet", "waystation-1-jewelry"


@cache
def faces():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def birdsong(order, core_kind, pieces):
    return positioned(order, faces(), core_kind, pieces, "marquise", "birdsong", "actions")


def offered(g, clearing):
    return sorted(a.split()[1] for a in g.legal()
                  if a.startswith("encamp ") and a.split()[2] == clearing)


@pytest.mark.parametrize("order", ORDERS)
def test_either_face_may_be_placed_and_the_other_is_then_out_of_play(core_kind, order):
    g = birdsong(order, core_kind, {"1": {"cat-warrior": 2}, "5": {"cat-warrior": 1}})
    assert W1 in offered(g, "5") and W1_BACK in offered(g, "5")
    g.apply(f"encamp {W1} 1")
    assert sc.count(g, "1", W1) == 1 and sc.count(g, "1", "cat-warrior") == 1
    # The other face is the same piece, on the map now: neither face is offered again.
    assert W1 not in offered(g, "5") and W1_BACK not in offered(g, "5")
    assert len(offered(g, "5")) == 4  # the two other waystations, either face
    assert sc.supply(g, W1_BACK) == 0 and sc.out_of_game(g, W1_BACK) == 1
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_a_face_removed_brings_both_back(core_kind, order):
    """The Eyrie battles a lone waystation in 5 (a rabbit clearing): its hit removes it,
    and both its faces are in the supply again."""
    g = past_setup(order, bundle=faces(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    sc.put(g, "5", W1_BACK, 1)
    assert sc.supply(g, W1) == 0 and sc.out_of_game(g, W1) == 1
    sc.put(g, "5", "bird-warrior", 2)
    e = g.factions.index("eyrie")
    for col in ("recruit", "move", "build"):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "battle", ["bake-sale"])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 1, 0)
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", W1_BACK) == 0
    assert sc.supply(g, W1) == 1 and sc.supply(g, W1_BACK) == 1
    assert sc.out_of_game(g, W1) == 0 and sc.out_of_game(g, W1_BACK) == 0
    assert not list(invariant_violations(g))


def test_a_scenario_that_puts_one_face_out_keeps_the_pair_together():
    g = past_setup(ORDERS[0], bundle=faces(), clear=True)
    sc.set_supply(g, W1, 0)
    assert sc.supply(g, W1_BACK) == 0 and not list(invariant_violations(g))
    sc.set_supply(g, W1, 1)
    assert sc.supply(g, W1_BACK) == 1 and not list(invariant_violations(g))


# ---------------------------------------------------------------- validation


def _with_piece(tmp_path: Path, face: str, **changes) -> Path:
    pack = tmp_path / "two-faces"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == f"/pieces/{face}":
            op["value"].update(changes)
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    return pack


def _errors(pack: Path) -> list[str]:
    return error_lines(pack)


def test_the_pack_validates():
    assert _errors(PACK) == []


@pytest.mark.parametrize("changes, words", [
    ({"other_face": "waystation-2-figure"}, "must name it back"),
    ({"count": 2}, "the same count"),
    ({"other_face": "wood"}, "a building's other face is another building"),
    ({"other_face": "waystaton-1-jewelry"}, "unknown piece 'waystaton-1-jewelry'"),
])
def test_faces_that_do_not_pair_are_refused(tmp_path, changes, words):
    found = _errors(_with_piece(tmp_path, W1, **changes))
    assert any(words in x for x in found), found
