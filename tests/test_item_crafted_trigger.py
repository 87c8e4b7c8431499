"""A trigger on an item crafted ('on': 'item_crafted', models.Trigger).

Law 4.1.2: crafting an item card takes the item and scores its VP.  The Exiles and
Partisans deck's Murine Broker (a persistent card, Law 4.1.3): "Whenever another player
crafts an item, draw a card."  Tested through the turn flow (the Marquise's and the
Eyrie's Daylight crafting), in three seat orders, on both cores.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from conftest import assert_located, faction_with, past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]
BROKER = {"id": "murine-broker", "name": "Murine Broker", "suit": "mouse",
          "kind": "persistent", "cost": ["mouse", "mouse"],
          "abilities": [{"kind": "trigger", "id": "murine-broker", "on": "item_crafted",
                         "do": [{"op": "draw", "count": 1}]}]}


@cache
def broker_bundle():
    b = base_bundle()
    bundle = dataclasses.replace(b, deck=b.deck.model_copy(
        update={"cards": [*b.deck.cards, M.Card.model_validate(BROKER)]}))
    gbuild.compile_core(bundle)
    return bundle


def marquise_crafts(order, core_kind, card: str, broker_with: str):
    """The Marquise craft ``card`` with a workshop in clearing 1 (fox) and one in 2
    (mouse); ``broker_with`` has Murine Broker in its play area.  The hand sizes of every
    seat before and after."""
    g = past_setup(order, bundle=broker_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    m = g.factions.index("marquise")
    sc.set_play_area(g, g.factions.index(broker_with), ["murine-broker"])
    sc.set_hand(g, m, [card])
    sc.put(g, "1", "workshop", 1)
    sc.put(g, "2", "workshop", 2)
    sc.goto(g, "marquise", "daylight")
    before = [len(g.hand(q)) for q in range(g.num_players)]
    g.apply(f"craft {card}")
    while g.decision == "craft_any":  # a '?' to pay: any workshop
        g.apply(g.legal_actions()[0])
    return g, before, [len(g.hand(q)) for q in range(g.num_players)]


@pytest.mark.parametrize("order", ORDERS)
def test_another_players_item_draws_the_holder_a_card(core_kind, order):
    """The Marquise craft the anvil (an item): the Eyrie, holding the card, draw one."""
    g, before, after = marquise_crafts(order, core_kind, "anvil", "eyrie")
    e, m = g.factions.index("eyrie"), g.factions.index("marquise")
    assert after[e] == before[e] + 1
    assert after[m] == before[m] - 1  # the anvil left her hand; she draws nothing
    assert sc.crafted(g, m)["hammer"] == 1


@pytest.mark.parametrize("order", ORDERS)
def test_ones_own_item_draws_nothing(core_kind, order):
    """The holder itself crafts the item: 'another player' (by: enemy) is not it."""
    g, before, after = marquise_crafts(order, core_kind, "anvil", "marquise")
    assert after == [n - (q == g.factions.index("marquise")) for q, n in enumerate(before)]


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_that_is_no_item_draws_nothing(core_kind, order):
    """The Marquise craft a persistent card (Scouting Party, no item): no draw."""
    g, before, after = marquise_crafts(order, core_kind, "scouting-party", "eyrie")
    e = g.factions.index("eyrie")
    assert after[e] == before[e]


def test_an_item_trigger_names_no_pieces():
    doc, i = faction_with("marquise", {
        "kind": "trigger", "id": "x", "on": "item_crafted", "pieces": ["warrior"],
        "do": [{"op": "draw"}]})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/pieces", "item_crafted")
