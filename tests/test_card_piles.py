"""Card piles a faction's content declares beyond the hand: a public pile that takes every
card spent or discarded (Law 10.2.6, the Lost Souls pile), cards revealed into a face-up
pile and taken back (Law 10.5, 10.6.1), and a card choice for which birds are not wild
(Law 10.2.2).

The faction is tests/data/packs/piles (Test Newts): its zone `mire` takes discards and is
emptied to the discard pile at the start of its Birdsong (`discard_all`), its Daylight
action reveals a hand card matching a clearing, birds not wild, into its zone `shown` to
place a warrior there (`put`), and its Evening takes the shown cards back (`put_all`).
The games run on the pure core: it runs the same generated lines as the compiled one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "piles"

# Both seat orders: a rule of the table holds whoever sits first.
SEATINGS = [["marquise", "test-newts"], ["test-newts", "marquise"]]


@pytest.fixture(scope="module")
def bundle():
    return resolve([PACK])


def _game(bundle, factions: list[str]) -> Game:
    return past_setup(factions, bundle=bundle)


def _discard_pile(g: Game) -> list[str]:
    return g.cards_at(g.consts["LOC_DISCARD"])


@pytest.mark.parametrize("factions", SEATINGS)
def test_every_card_discarded_goes_into_the_pile_that_takes_discards(bundle, factions):
    """Law 10.2.6: whenever any card is discarded (here the Marquise's down to her hand
    limit, Law 6.7.2), even a dominance card, it goes into the pile instead of the
    discard pile; at the start of the pile's owner's Birdsong the pile is discarded
    (Law 10.4.2): to the discard pile, the dominance card to the available ones."""
    g = _game(bundle, factions)
    cat, newts = factions.index("marquise"), factions.index("test-newts")
    pos.set_zone(g, newts, "mire", [])
    seven = ["anvil", "sword", "bake-sale", "fox-dominance", "armorers", "cobbler",
             "investments"]
    sc.set_hand(g, cat, seven)
    before = _discard_pile(g)  # what the hand's edit put there (no discard of the rules)
    sc.goto(g, "marquise", "evening")
    # The Evening draws one card, then asks for the discards down to five (Law 6.7).
    assert g.decision is not None and g.to_play == cat
    hand = g.hand(cat)
    assert len(hand) == 8
    gone = []
    while len(g.hand(cat)) > 5:
        if gone:  # each card discarded so far lies in the pile, none in the discard pile
            assert sorted(g.zone(newts, "mire")) == sorted(gone)
            assert _discard_pile(g) == before
        options = g.legal()
        pick = next((a for a in options if a == "discard fox-dominance"),
                    next(a for a in options if a.startswith("discard ")))
        gone.append(pick.split(" ", 1)[1])
        g.apply(pick)
    assert len(gone) == 3 and gone[0] == "fox-dominance"
    # The next turn is the newts' (two players): their Birdsong empties the pile.
    assert g.current == newts and g.phase in ("birdsong", "daylight")
    assert g.zone(newts, "mire") == []
    assert sorted(_discard_pile(g)) == sorted(before + [c for c in gone
                                                        if c != "fox-dominance"])
    assert "fox-dominance" in g.cards_at(g.consts["LOC_AVAILABLE"])


def test_without_the_pile_s_faction_seated_discards_go_to_the_discard_pile(bundle):
    """Law 10.2.6 is the pile's faction's rule: in a game without it, a discard goes to
    the discard pile as Law 2.1 says."""
    g = _game(bundle, ["marquise", "eyrie"])
    sc.set_hand(g, 0, ["anvil", "sword", "bake-sale", "armorers", "cobbler", "investments"])
    before = _discard_pile(g)
    sc.goto(g, "marquise", "evening")
    while len(g.hand(0)) > 5 and g.to_play == 0:
        g.apply(next(a for a in g.legal() if a.startswith("discard ")))
    assert len(_discard_pile(g)) == len(before) + 2


@pytest.mark.parametrize("factions", SEATINGS)
def test_a_revealed_card_goes_face_up_and_comes_back_to_hand_in_evening(bundle, factions):
    """Law 10.5.2 and 10.6.1: a card revealed for an action leaves the hand for the
    faction's face-up pile (so it serves no other action this turn, and every player
    sees which card it is); in Evening every revealed card returns to the hand.  Law
    10.2.2: birds are not wild for this action, so a bird card is never offered."""
    g = _game(bundle, factions)
    newts, cat = factions.index("test-newts"), factions.index("marquise")
    sc.set_hand(g, newts, ["anvil", "bird-crossbow"])
    sc.goto(g, "test-newts", "daylight", "actions")
    offered = [a for a in g.legal() if a.startswith("spend ")]
    # The anvil (fox) in each fox clearing but the Keep's (Law 6.2.2); the bird card
    # nowhere (birds not wild).
    fox = [c.id for c in bundle.map.clearings
           if c.suit == "fox" and sc.count(g, c.id, "keep") == 0]
    assert len(fox) == 3
    assert sorted(offered) == sorted(f"spend anvil place {c}" for c in fox)
    warriors = sc.count(g, fox[0], "newt")
    assert "anvil" not in json.dumps(g.observation(cat))  # in the newts' hand: hidden
    g.apply(f"spend anvil place {fox[0]}")
    assert sc.count(g, fox[0], "newt") == warriors + 1
    assert g.zone(newts, "shown") == ["anvil"] and g.hand(newts) == ["bird-crossbow"]
    # A face-up pile: the other player's observation shows the card.
    assert "anvil" in json.dumps(g.observation(cat))
    g.apply("done")
    # Evening: the shown card is back in hand before the draw.
    assert "anvil" in g.hand(newts) and g.zone(newts, "shown") == []


@pytest.mark.parametrize("factions", SEATINGS)
def test_a_card_matching_some_clearing_of_a_filter_birds_not_wild(bundle, factions):
    """Law 10.2.2 for a card chosen alone, matching some clearing of a filter (one with
    the actor's warriors): the bird card matches none, the fox card the newts' fox
    clearing, the mouse card no clearing of theirs."""
    g = _game(bundle, factions)
    newts = factions.index("test-newts")
    sc.clear_board(g)
    fox = next(c.id for c in bundle.map.clearings if c.suit == "fox")
    sc.put(g, fox, "newt", 1)
    sc.set_hand(g, newts, ["anvil", "bird-crossbow", "sword"])
    sc.goto(g, "test-newts", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("mobilize ")) == ["mobilize anvil"]
    g.apply("mobilize anvil")
    assert g.zone(newts, "shown") == ["anvil"]
