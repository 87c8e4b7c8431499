"""Tokens that count toward rule: the 'rule' ability's 'tokens' (models.Rule.tokens).

Law 2.5: the ruler of a clearing has the most warriors and buildings there (tokens do
not count).  The Exiles and Partisans deck's Soup Kitchens (a persistent card, Law
4.1.3): "Your tokens now count towards rule, and each of your tokens counts twice."
Tested through the turn flow (a move needs rule, Law 4.2) in two seat orders, both cores.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from conftest import assert_located, faction_with, positioned
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise")]
ABILITY = TypeAdapter(M.Ability)


@cache
def kitchens_bundle():
    b = base_bundle()
    card = M.Card.model_validate(
        {"id": "soup-kitchens", "name": "Soup Kitchens", "suit": "bird", "kind": "persistent",
         "cost": ["fox", "rabbit", "mouse"],
         "abilities": [{"kind": "rule", "id": "soup-kitchens", "tokens": 2}]})
    bundle = dataclasses.replace(b, deck=b.deck.model_copy(
        update={"cards": [*b.deck.cards, card]}))
    gbuild.compile_core(bundle)
    return bundle


def test_tokens_say_how_you_rule():
    ab = ABILITY.validate_python({"kind": "rule", "id": "x", "tokens": 2})
    assert isinstance(ab, M.Rule) and not ab.rules_ties() and ab.tokens == 2
    doc, i = faction_with("marquise", {"kind": "rule", "id": "x", "tokens": 0})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/ties", "'tokens'")
    doc, i = faction_with("marquise", {"kind": "rule", "id": "x", "tokens": 11})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/tokens", "")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("kitchens, rules", [(False, "eyrie"), (True, "marquise")])
def test_soup_kitchens_count_each_token_twice(core_kind, order, kitchens, rules):
    """Clearing 5: one Marquise warrior and one wood against two Eyrie warriors.  Without
    the card the Eyrie rule (2 to 1, Law 2.5) and the Marquise cannot move out to 1, which
    she does not rule either (Law 4.2); with it she counts 1 + 2 = 3 and rules, and may."""
    g = positioned(order, kitchens_bundle(), core_kind,
                   {"5": {"cat-warrior": 1, "wood": 1, "bird-warrior": 2}}, "marquise",
                   "daylight")
    assert g.compiled == (core_kind == "compiled")
    if kitchens:
        position.set_play_area(g, order.index("marquise"), ["soup-kitchens"])
        position.goto(g, "marquise", "daylight")
    assert g.ruler("5") == rules
    assert ("move 5->1 x1" in g.legal()) == kitchens


@pytest.mark.parametrize("order", ORDERS)
def test_the_card_counts_its_holders_tokens_alone(core_kind, order):
    """The card in the Eyrie's play area: the Marquise's wood still counts for nothing."""
    g = positioned(order, kitchens_bundle(), core_kind,
                   {"5": {"cat-warrior": 1, "wood": 1, "bird-warrior": 2}}, "marquise",
                   "daylight")
    position.set_play_area(g, order.index("eyrie"), ["soup-kitchens"])
    position.goto(g, "marquise", "daylight")
    assert g.ruler("5") == "eyrie"
    assert "move 5->1 x1" not in g.legal()
