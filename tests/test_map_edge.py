"""A clearing filter's 'edge': the clearings on the map's edge (Law G.15: the closed loop
of paths round the board; a map marks them, a clearing's 'edge'), or those inside it.
Law 15.3 and 15.4.1, the Keepers in Iron: 'an adjacent map-edge clearing', 'any
map-edge clearing'.  Test pack map-edge, a patch of the Marquise: in Daylight she may
set up an outpost (a warrior placed in an edge clearing where she has one), and in
Evening she scores a VP for each clearing inside the edge where she has a warrior.
Reached through the turn flow, in three seat orders, on both cores; the Autumn map's
edge is its clearings 1 to 9 (reference data: shared/data/root/maps.json,
on_map_edge)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "tests" / "data" / "packs" / "map-edge"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]


@cache
def edged():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def test_the_autumn_maps_edge_is_its_clearings_one_to_nine():
    """Law G.15 on the Autumn map: 10, 11 and 12 lie inside the loop of edge paths."""
    m = resolve([]).map
    assert [c.id for c in m.clearings if c.edge] == list(range(1, 10))


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_an_outpost_is_offered_only_on_the_maps_edge(order, pure):
    """Her warriors in 3 and 5 (edge) and 10 and 12 (inside): outposts in 3 and 5 only;
    taken, a warrior is placed there."""
    g = past_setup(order, bundle=edged(), pure=pure, clear=True, empty_hands=True)
    assert g.compiled is not pure
    for c in ("3", "5", "10", "12"):
        pos.put(g, c, "cat-warrior", 1)
    pos.put(g, "7", "bird-warrior", 2)
    pos.goto(g, "marquise", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("outpost")) == \
        ["outpost 3", "outpost 5"]
    g.apply("outpost 5")
    assert pos.count(g, "5", "cat-warrior") == 2


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_clearings_inside_the_edge_are_counted(order, pure):
    """'edge': false in a count of clearings: her warriors in 10 and 12 score two VP,
    those in 3 and 5 none; another's warrior in 11 is not hers."""
    g = past_setup(order, bundle=edged(), pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, "marquise")
    for c in ("3", "5", "10", "12"):
        pos.put(g, c, "cat-warrior", 1)
    pos.put(g, "11", "bird-warrior", 1)
    pos.set_vp(g, me, 0)
    pos.goto(g, "marquise", "daylight", "actions")
    g.apply("done")
    assert g.scores[me] == 2


def test_a_filter_on_the_edge_of_a_map_marking_none_is_an_error():
    """MAP-EDGE-NONE (Law G.15): on the Thicket (examples/homebrew-map), which marks no
    clearing on its edge, both uses are found, each at the patch operation that added it
(the outpost entry of her Daylight menu, the Evening step)."""
    found = [d for d in validate([PACK], [ROOT / "examples" / "homebrew-map"]).diagnostics
             if d.code == "MAP-EDGE-NONE"]
    assert found, "no MAP-EDGE-NONE"
    assert sorted((d.pointer, d.file.endswith("marquise-edge.json")) for d in found) == \
        [("/patch/1", True), ("/patch/3", True)]
    assert all(d.severity == "error" and "thicket" in d.message for d in found)
    assert sorted(d.message.split(":")[0] for d in found) == \
        ["entry outpost", "step score_heartland"]


def test_marking_the_edge_keeps_the_rules_hash_of_content_that_does_not_read_it():
    """A map's 'edge' marks are rules only where content reads them: the base game's
    hash is the one it had before the Autumn map marked its edge, and a bundle that
    reads the edge has another."""
    base = resolve([])
    assert base.hash == "ef5ee339ef4f9a3a"
    assert edged().hash != base.hash
