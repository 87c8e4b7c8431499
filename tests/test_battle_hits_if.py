"""Extra hits under a condition of the battle clearing (models.BattleAttacking.holds,
BattleDefending.extra_hits and holds): Law 14.7.8, the Lord of the Hundreds' Wrathful,
"As attacker in battle in your warlord's clearing, you deal an extra hit"; 13.2.5, the
Corvids' Embedded Agents, "As defender in battle, if the Corvids have a facedown plot
token ... in the clearing of battle, they deal an extra hit".

Two homebrew persistent cards say them of a clearing's suit (a card names no faction's
piece): War Drums, an extra hit as attacker in fox clearings; Hidden Pikes, an extra hit
as defender in rabbit clearings.  Through the engine's battle flow (the Marquise attack
the Eyrie, dice fixed at 2 and 1, Law 4.3.3), in three seat orders, on both cores, on
Autumn: clearing 1 is a fox clearing, 5 a rabbit one.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import base_with_cards, past_setup

from rootlaw.runtime import position as sc

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]
CARDS = [
    {"id": "war-drums", "name": "War Drums", "suit": "fox", "kind": "persistent",
     "cost": ["fox"],
     "abilities": [{"kind": "battle", "id": "war-drums",
                    "attacking": {"extra_hits": 1, "holds": {"here": {"suit": "fox"}}}}]},
    {"id": "hidden-pikes", "name": "Hidden Pikes", "suit": "rabbit", "kind": "persistent",
     "cost": ["rabbit"],
     "abilities": [{"kind": "battle", "id": "hidden-pikes",
                    "defending": {"extra_hits": 1, "holds": {"here": {"suit": "rabbit"}}}}]},
]


@cache
def drums_bundle():
    return base_with_cards(*CARDS)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("clearing, lost_by_eyrie, lost_by_marquise", [
    ("1", 3, 1),   # fox: the drums' extra hit; no pikes
    ("5", 2, 2),   # rabbit: no drums; the pikes' extra hit
])
def test_extra_hits_only_where_their_condition_holds(core_kind, order, clearing,
                                                     lost_by_eyrie, lost_by_marquise):
    g = past_setup(order, bundle=drums_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["war-drums"])
    sc.set_play_area(g, e, ["hidden-pikes"])
    sc.put(g, clearing, "cat-warrior", 5)
    sc.put(g, clearing, "bird-warrior", 5)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply(f"battle {clearing} eyrie")
    while g.to_play == e:  # the Eyrie's ambush window, when asked
        g.apply("done")
    assert sc.count(g, clearing, "bird-warrior") == 5 - lost_by_eyrie
    assert sc.count(g, clearing, "cat-warrior") == 5 - lost_by_marquise


@pytest.mark.parametrize("side", ["attacking", "defending"])
def test_a_condition_without_extra_hits_is_refused_at_the_field(side):
    """'holds' says where the extra hits are dealt: without 'extra_hits' it would read
    nothing (VALUE-INVALID, located at it)."""
    from conftest import deck_with_armorers_doing

    from rootlaw.spec.loader import validate_data

    doc, i = deck_with_armorers_doing([{"op": "hits", "extra": 1}])
    doc["cards"][i]["abilities"] = [{"kind": "battle", "id": "x", side: {
        "holds": {"here": {"suit": "fox"}}, **({"ambush_ignored": True}
                                                if side == "attacking" else {})}}]
    _, found, _ = validate_data(doc)
    assert ("VALUE-INVALID", f"/cards/{i}/abilities/0/{side}/holds") in [
        (c, p) for c, _, p in found], found
