"""Warriors moved between the supply and a box either way (Law 8.2.4): ``into_box`` with
``from_box`` and the values ``{"box": ...}`` (the warriors in one of the actor's boxes)
and ``{"half": ...}`` (half, rounded up).  The Alliance's Removing Bases is that part
(half the officers, rounded up, back to the supply), reached through the engine's own
battle, in three seat orders (three seats), on both cores (``new_game``'s core_kind)."""

from __future__ import annotations

import pytest

from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec import models as M
from rootlaw.spec.bundle import resolve

ORDERS = [("alliance", "marquise", "eyrie"), ("marquise", "alliance", "eyrie"),
          ("eyrie", "marquise", "alliance")]


@pytest.fixture(params=ORDERS, ids=["alliance-first", "alliance-second", "alliance-third"])
def order(request):
    return request.param


def _past_setup(new_game, order):
    g = new_game(factions=order, seed=1)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    pos.set_zone(g, g.factions.index("alliance"), "supporters", [])
    return g


@pytest.mark.parametrize("boxed,left", [(0, 0), (1, 0), (2, 1), (5, 2)])
def test_a_base_removed_in_battle_sends_half_the_box_rounded_up_to_the_supply(
        new_game, order, boxed, left):
    """Law 8.2.4: 'remove half of their officers, rounded up' -- the part into_box
    from_box, count {"half": {"box": "officers"}}: the box loses ceil(n/2), the supply
    gains them back."""
    g = _past_setup(new_game, order)
    a = g.factions.index("alliance")
    pos.set_box(g, a, "officers", boxed)
    supply = sc.supply(g, "alliance-warrior")
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "8", "cat-warrior", 3)
    sc.set_hand(g, g.factions.index("marquise"), [])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 0)
    g.apply("battle 8 alliance")
    assert sc.count(g, "8", "fox-base") == 0
    assert g.box(a, "officers") == left
    assert sc.supply(g, "alliance-warrior") == supply + boxed - left
    assert not list(invariant_violations(g))


def test_the_alliance_says_it_as_the_part_and_hashes_as_the_op_it_replaced():
    """Law 8.2.4 as content: the trigger's program is the general part, and the rules
    hash reads it as 'lose_box_half' was (the base bundle's hash is unchanged)."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    alliance = next(f for f in b.factions if f.id == "alliance")
    trig = next(x for x in alliance.abilities if x.id == "removing-bases")
    part = trig.do[1]
    assert isinstance(part, M.IntoBoxPart) and part.from_box and part.who == "holder"
    assert part.count == M.HalfValue(half=M.BoxValue(box="officers"))
    dumped = next(f for f in b.canonical()["factions"] if f["id"] == "alliance")
    dtrig = next(x for x in dumped["abilities"] if x["id"] == "removing-bases")
    assert dtrig["do"][1] == {"op": "lose_box_half", "box": "officers"}
    assert not hasattr(M, "LoseBoxHalfOp")
