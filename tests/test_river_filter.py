"""A clearing filter's 'river' (models.ClearingFilter.river): the clearings a river
touches (Law 2.3: rivers link clearings; Law 11.3.2, the Riverfolk's setup, "any
clearings touching the river"; 11.4, their recruit, "any clearing with a river").  On
Autumn the rivers link 4-7, 5-10, 7-11 and 10-11: they touch 4, 5, 7, 10 and 11.
Tested through a menu entry of the Marquise's, two seat orders, both cores."""

from __future__ import annotations

import pytest
from conftest import positioned, with_menu_entries

from rootlaw.generator import build as gbuild
from rootlaw.runtime.game import base_bundle


@pytest.fixture(scope="module")
def river_bundle():
    b = with_menu_entries("marquise", [{"action": "wade"}, {"action": "keep_dry"}], {
        "wade": {"verb": "wade", "do": [{"op": "choose", "clearing": {"river": True}},
                                        {"op": "place", "piece": "warrior"}]},
        "keep_dry": {"verb": "keep_dry",
                     "do": [{"op": "choose", "clearing": {"river": False, "rule": "self"}},
                            {"op": "place", "piece": "warrior"}]}})
    gbuild.compile_core(b)
    return b


@pytest.mark.parametrize("order", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_the_clearings_a_river_touches(order, core_kind, river_bundle):
    g = positioned(order, river_bundle, core_kind, {"1": {"cat-warrior": 1},
                                                    "10": {"cat-warrior": 1}},
                   "marquise", "daylight", "actions")
    assert g.compiled == (core_kind == "compiled")
    wade = sorted(int(a.split()[1]) for a in g.legal() if a.startswith("wade "))
    assert wade == [4, 5, 7, 10, 11]
    dry = sorted(int(a.split()[1]) for a in g.legal() if a.startswith("keep_dry "))
    assert dry == [1]  # ruled and no river: 10 is ruled, but a river touches it
    g.apply("wade 7")
    assert g.piece_counts()["7"]["cat-warrior"] == 1


def test_a_map_with_no_river_is_told():
    import dataclasses

    from rootlaw.spec.semantics import check_bundle

    b = with_menu_entries("marquise", [{"action": "wade"}], {
        "wade": {"verb": "wade", "do": [{"op": "choose", "clearing": {"river": True}},
                                        {"op": "place", "piece": "warrior"}]}})
    dry = dataclasses.replace(b, map=b.map.model_copy(update={"rivers": []}))

    def codes(bundle) -> set[str]:
        found = check_bundle(bundle.map, bundle.deck, bundle.factions, {},
                             libraries=bundle.library)
        return {d.code for d in found.diagnostics()}

    assert "MAP-RIVER-NONE" not in codes(b)
    assert "MAP-RIVER-NONE" in codes(dry)
    assert base_bundle().map.rivers
