"""A clearing filter's 'holds': a condition read of each clearing tested, its values
reading that clearing as 'the clearing' (models.ClearingFilter.holds).  Law 15.6.1, the
Keepers in Iron living off the land: "in each clearing with four or more of your
warriors", here a step of the Marquise's Evening (test pack crowded-clearings, a patch)
that removes one of her warriors from each such clearing; and Law 8.4.2.I's "three or
more warriors of another player", a count of the clearings where another player has as
many, scored.  Reached through the turn flow (her Daylight ended with 'done'), in three
seat orders, on both cores."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "crowded-clearings"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]


@cache
def crowded():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_each_clearing_holding_four_of_her_warriors_loses_one(order, pure):
    """Law 15.6.1: one warrior removed from each clearing where she has four or more
    (five and four: one each), none from three or fewer, none of another's stack of
    six; her supply gains the two."""
    g = past_setup(order, bundle=crowded(), pure=pure, clear=True, empty_hands=True)
    assert g.compiled is not pure
    stacks = {"1": 5, "2": 4, "3": 3, "5": 1}
    for c, n in stacks.items():
        pos.put(g, c, "cat-warrior", n)
    pos.put(g, "6", "bird-warrior", 6)
    supply = pos.supply(g, "cat-warrior")
    pos.goto(g, "marquise", "daylight", "actions")
    g.apply("done")  # her Daylight over: Evening's steps run
    assert {c: pos.count(g, c, "cat-warrior") for c in stacks} == \
        {"1": 4, "2": 3, "3": 3, "5": 1}
    assert pos.count(g, "6", "bird-warrior") == 6
    assert pos.supply(g, "cat-warrior") == supply + 2


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_clearings_where_another_has_three_warriors_are_counted(order, pure):
    """Law 8.4.2.I's 'three or more warriors of another player', read of each clearing
    ('holds' in a count of clearings): two such clearings score her two VP; her own
    stack of three and another's two do not count."""
    g = past_setup(order, bundle=crowded(), pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, "marquise")
    pos.put(g, "6", "bird-warrior", 3)
    pos.put(g, "7", "bird-warrior", 5)
    pos.put(g, "8", "bird-warrior", 2)
    pos.put(g, "9", "cat-warrior", 3)
    pos.set_vp(g, me, 0)
    pos.goto(g, "marquise", "daylight", "actions")
    g.apply("done")
    assert g.scores[me] == 2


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_a_first_choice_offers_only_the_clearings_that_hold_enough(order, pure):
    """'holds' in a program's first choice: the menu offers muster only in the
    clearings where she has four or more warriors (five and four, not three or one,
    not another's six); taken, a warrior is placed there.  The listing used to drop
    'holds' and offer every clearing."""
    g = past_setup(order, bundle=crowded(), pure=pure, clear=True, empty_hands=True)
    for c, n in {"1": 5, "2": 4, "3": 3, "5": 1}.items():
        pos.put(g, c, "cat-warrior", n)
    pos.put(g, "6", "bird-warrior", 6)
    pos.goto(g, "marquise", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("muster")) == ["muster 1", "muster 2"]
    g.apply("muster 2")
    assert pos.count(g, "2", "cat-warrior") == 5
