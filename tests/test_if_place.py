"""A placement inside an 'if' (models.AtOncePart): placed where it can, or not at all,
never a requirement of the action (the Knaves' Revel, Law 18.5.1.4.5: "If acclaim is
already in the Acting Captain's clearing, place 2 Skunks there instead").  The test pack
tests/data/packs/if-place gives the Marquise a Daylight action 'rally': in a clearing
she rules, two warriors where a sawmill stands, else one and a wood at each sawmill
next to it.  Autumn: 1 is adjacent to 5, 9 and 10."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import pack_bundle, past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "if-place"
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
ORDERS = pytest.mark.parametrize("order", [("marquise", "eyrie"),
                                           ("eyrie", "alliance", "marquise")],
                                 ids=["me", "eam"])


@pytest.fixture(scope="module")
def bundle():
    return pack_bundle("if-place")


def _play(g, text: str) -> None:
    g.apply(g.parse(text))


def _daylight(bundle, order, pure):
    """The Marquise at her Daylight's actions (through the turn flow): a sawmill and a
    warrior in 1, two warriors in 5, nothing else on the map."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    pos.put(g, "1", "sawmill", 1)
    pos.put(g, "1", "cat-warrior", 1)
    pos.put(g, "5", "cat-warrior", 2)
    pos.goto(g, "marquise", "daylight", "actions")
    assert g.to_play == pos.seat_of(g, "marquise") and g.compiled is not pure
    return g


def _ok(g) -> None:
    assert not list(invariant_violations(g))


@CORES
@ORDERS
def test_then_or_else_places_as_the_condition_says(bundle, order, pure):
    g = _daylight(bundle, order, pure)
    assert sorted(a for a in g.legal() if a.startswith("rally")) == ["rally 1", "rally 5"]
    _play(g, "rally 1")
    _ok(g)
    assert pos.count(g, "1", "cat-warrior") == 3 and pos.count(g, "1", "wood") == 0
    _play(g, "rally 5")
    _ok(g)
    assert pos.count(g, "5", "cat-warrior") == 3
    assert pos.count(g, "1", "wood") == 1  # the sawmill next to 5
    assert pos.count(g, "5", "wood") == 0


@CORES
@ORDERS
def test_a_placement_in_an_if_is_no_requirement(bundle, order, pure):
    """With one warrior left, 'rally 1' places the one (Law 1.5.4); with none, rally is
    still offered (nothing in it requires a warrior) and places nothing."""
    g = _daylight(bundle, order, pure)
    pos.put(g, "12", "cat-warrior", pos.supply(g, "cat-warrior") - 1)
    _play(g, "rally 1")
    assert pos.count(g, "1", "cat-warrior") == 2 and pos.supply(g, "cat-warrior") == 0
    assert "rally 5" in g.legal()
    _play(g, "rally 5")
    _ok(g)
    assert pos.count(g, "5", "cat-warrior") == 2 and pos.count(g, "1", "wood") == 1


@pytest.mark.parametrize("extra, words", [
    ({"face_down": True}, "lays a face face down is no part of an 'if'"),
    ({"score": True}, "scores is no part of an 'if'"),
    ({"at": {"forest": {}}}, "a forest of the actor's choice is an effect program's"),
    ({"evenly": True}, "'evenly' deals the count"),
    ({"piece": {"random": ["wood"]}}, "a piece drawn at random is placed in each")])
def test_what_an_if_may_not_place_is_told_where_written(tmp_path, extra, words):
    """A token laid face down, a placement that scores, one in a forest of the actor's
    choice, one dealt evenly or drawn at random outside each clearing of a filter: each
    refused in an 'if' as at the top of a program, located at the part."""
    pack = tmp_path / "if-place"
    shutil.copytree(PACK, pack)
    lib = pack / "library.json"
    data = json.loads(lib.read_text(encoding="utf-8"))
    data["programs"]["rally"]["do"][1]["else"][0].update(extra)
    lib.write_text(json.dumps(data, indent=1), encoding="utf-8")
    found = [d for d in validate([pack]).diagnostics if d.severity == "error"]
    assert any(d.file == str(lib) and words in d.message and d.line and d.line > 1 and
               d.pointer.startswith("/programs/rally/do/1/else/0") for d in found), \
        [str(d) for d in found]


@CORES
@ORDERS
@pytest.mark.parametrize("on_map", [1, 3])
def test_an_effect_s_if_places_too(bundle, order, pure, on_map):
    """The pack's Birdsong effect 'muster': a warrior at each sawmill while the
    Marquise has at most two warriors on the map (23 or more in her supply of 25), else
    nothing: an effect program's 'if' carries out its 'place' as a program's does."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    pos.put(g, "1", "sawmill", 1)
    pos.put(g, "5", "sawmill", 1)
    pos.put(g, "12", "cat-warrior", on_map)
    pos.begin_turn(g, "marquise")
    while "use muster" not in g.legal():
        _play(g, "done")
    _play(g, "use muster")
    _ok(g)
    placed = 1 if on_map <= 2 else 0
    assert (pos.count(g, "1", "cat-warrior"), pos.count(g, "5", "cat-warrior")) == \
        (placed, placed)


@CORES
def test_a_placement_at_each_building_in_an_if_asks_nothing_mid_action(bundle, tmp_path,
                                                                      pure):
    """In an 'if', with parts after it, a warrior at each sawmill is placed in clearing
    order as far as the supply allows: a question there would come after the parts that
    follow it (the wood placed after the 'if')."""
    pack = tmp_path / "if-place"
    shutil.copytree(PACK, pack)
    lib = pack / "library.json"
    data = json.loads(lib.read_text(encoding="utf-8"))
    rally = data["programs"]["rally"]["do"]
    rally[1]["then"] = [{"op": "place", "piece": "warrior", "at": {"each": "sawmill"}}]
    rally.append({"op": "place", "piece": "wood", "require": False})
    lib.write_text(json.dumps(data, indent=1), encoding="utf-8")
    b = resolve([pack])
    if not pure:
        gbuild.compile_core(b)
    g = _daylight(b, ("marquise", "eyrie"), pure)
    for c in ("5", "9"):
        pos.put(g, c, "sawmill", 1)
    pos.put(g, "12", "cat-warrior", pos.supply(g, "cat-warrior") - 1)
    _play(g, "rally 5")
    _ok(g)
    assert g.decision == "actions"
    assert [pos.count(g, c, "cat-warrior") for c in ("1", "5", "9")] == [2, 2, 0]
    assert pos.count(g, "5", "wood") == 1
