"""An effect offered only while a condition holds ('when', models.Effect.when), read of
the battle clearing, and a discard of all but one suit's cards ('except_suit',
models.DiscardAllPart).

The Exiles and Partisans deck's Fox Partisans: "In battle in fox clearings, may deal one
extra hit, then discard all your cards except foxes" (a persistent card, Law 4.1.3; its
extra hit is 'hits', Law 4.3.5.I, used after the roll as Brutal Tactics is, 4.3.4).
Tested through the engine's battle flow in three seat orders on both cores, on Autumn:
clearing 1 is a fox clearing, 5 a rabbit one.
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
PARTISANS = {
    "id": "fox-partisans", "name": "Fox Partisans", "suit": "fox", "kind": "persistent",
    "cost": ["fox"],
    "abilities": [{"kind": "effect", "id": "fox-partisans", "timing": "battle_after_roll",
                   "when": {"here": {"suit": "fox"}},
                   "do": [{"op": "hits", "extra": 1},
                          {"op": "discard_all", "from": "hand", "except_suit": "fox"}]}]}


@cache
def partisans_bundle():
    b = base_bundle()
    card = M.Card.model_validate(PARTISANS)
    bundle = dataclasses.replace(b, deck=b.deck.model_copy(
        update={"cards": [*b.deck.cards, card]}))
    gbuild.compile_core(bundle)
    return bundle


def battle_in(order, core_kind, clearing: str, holder: str, hand: list[str]):
    """The Marquise attack the Eyrie in ``clearing`` (3 warriors each), rolls 2 and 1;
    ``holder`` has the Partisans in its play area and ``hand`` in hand; at the decision
    after the roll."""
    g = past_setup(order, bundle=partisans_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    h = g.factions.index(holder)
    sc.put(g, clearing, "cat-warrior", 3)
    sc.put(g, clearing, "bird-warrior", 3)
    sc.move_card(g, "fox-partisans", g.consts["LOC_PLAY"] + h)
    sc.set_hand(g, h, hand)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply(f"battle {clearing} eyrie")
    return g, h


HAND = ["anvil", "arms-trader", "bake-sale", "foxfolk-steel"]  # fox, bird, rabbit, fox


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("holder", ["marquise", "eyrie"])
def test_partisans_in_a_fox_clearing_deal_a_hit_and_keep_only_foxes(core_kind, order, holder):
    """In clearing 1 (fox) the holder, attacker or defender, may use the card after the
    roll: one hit more, then every card of its hand but the foxes is discarded (the bird
    too)."""
    g, h = battle_in(order, core_kind, "1", holder, HAND)
    if holder == "eyrie":
        # The defender holds cards: it is asked for an ambush (Law 4.3.2), whatever they
        # are (Law 1.2); then, after the roll, the attacker, who has no effect, is
        # passed, and the defender is asked (Law 4.3.4).
        assert g.decision == "ambush" and g.to_play == h
        g.apply("done")
        assert g.decision == "battle_effects" and g.to_play == h
    assert "use fox-partisans" in g.legal()
    g.apply("use fox-partisans")
    assert sorted(g.hand(h)) == ["anvil", "foxfolk-steel"]
    other = "bird-warrior" if holder == "marquise" else "cat-warrior"
    rolled = 2 if holder == "marquise" else 1  # the holder's own roll
    assert sc.count(g, "1", other) == 3 - rolled - 1


@pytest.mark.parametrize("order", ORDERS)
def test_partisans_are_not_offered_in_another_suits_clearing(core_kind, order):
    """In clearing 5 (rabbit) the card's 'when' does not hold: no 'use', nothing lost."""
    g, h = battle_in(order, core_kind, "5", "marquise", HAND)
    assert "use fox-partisans" not in g.legal()
    assert not any(n.startswith("use ") for n in g.legal())
    assert sorted(g.hand(h)) == sorted(HAND)


def test_when_is_only_for_battle_timings():
    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "daylight", "when": {"here": {"suit": "fox"}},
        "do": [{"op": "draw"}]})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/when", "battle timing")


def test_except_suit_and_matching_are_two_ways():
    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "battle_after_roll",
        "do": [{"op": "discard_all", "from": "hand", "except_suit": "fox",
                "matching": "clearing"}]})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/do/0/except_suit", "give one")


def test_a_when_naming_an_unknown_piece_is_a_located_error():
    from rootlaw.spec.semantics import check_document

    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "battle_before_roll",
        "when": {"at_least": [{"pieces": "keeep"}, 1]}, "do": [{"op": "hits", "extra": 1}]})
    f = M.FactionSpec.model_validate(doc)
    found = [(d.code, d.pointer, d.message) for d in
             check_document(f, "marquise.json").diagnostics()]
    assert any(c == "REF-UNDEF" and p == f"/abilities/{i}/when/at_least/0/pieces" and
               "keep" in m for c, p, m in found), found
