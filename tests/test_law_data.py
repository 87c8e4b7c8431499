"""The base content as data: the Autumn map and the standard deck in spec/content/base/
checked against reference facts, and against what the generated engine does with them.

The expected values below are transcribed from the project's reference data
(shared/data/root/maps.json, 'autumn', and shared/data/root/deck.json, 'standard_deck';
see their '_meta.sources'), so that this file needs nothing outside the repository.
Clearing numbers are the Rootlog priority numbers (corners 1 top-left, 2 top-right,
3 bottom-right, 4 bottom-left).  The Law of Root does not list the cards; it gives the
ambush and dominance counts (Law 2.1.2-2.1.3), the setup (Law 5.1) and, for Autumn, no
special rules (Law appendix M.1).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rootlaw.runtime import scenario as sc
from rootlaw.spec import resolve

# ---------------------------------------------------------------------- reference facts

# maps.json autumn: id -> (suit, building slots incl. a ruin slot, ruin, corner, adjacent)
AUTUMN = {
    1: ("fox", 1, False, True, (5, 9, 10)),
    2: ("mouse", 2, False, True, (5, 6, 10)),
    3: ("rabbit", 1, False, True, (6, 7, 11)),
    4: ("rabbit", 1, False, True, (8, 9, 12)),
    5: ("rabbit", 2, False, False, (1, 2)),
    6: ("fox", 2, True, False, (2, 3, 11)),
    7: ("mouse", 2, False, False, (3, 8, 12)),
    8: ("fox", 2, False, False, (4, 7)),
    9: ("mouse", 2, False, False, (1, 4, 12)),
    10: ("rabbit", 2, True, False, (1, 2, 12)),
    11: ("mouse", 3, True, False, (3, 6, 12)),
    12: ("fox", 2, True, False, (4, 7, 9, 10, 11)),
}
AUTUMN_PATHS = {(1, 5), (1, 9), (1, 10), (2, 5), (2, 6), (2, 10), (3, 6), (3, 7), (3, 11),
                (4, 8), (4, 9), (4, 12), (6, 11), (7, 8), (7, 12), (9, 12), (10, 12),
                (11, 12)}
AUTUMN_RIVERS = {(4, 7), (5, 10), (7, 11), (10, 11)}
AUTUMN_OPPOSITE_CORNERS = {(1, 3), (2, 4)}
AUTUMN_FORESTS = {
    "1_2_5_10": (1, 2, 5, 10),
    "1_9_10_12": (1, 9, 10, 12),
    "2_6_10_11_12": (2, 6, 10, 11, 12),
    "3_6_11": (3, 6, 11),
    "3_7_11_12": (3, 7, 11, 12),
    "4_7_8_12": (4, 7, 8, 12),
    "4_9_12": (4, 9, 12),
}
AUTUMN_FOREST_ADJACENCY = {
    ("1_2_5_10", "1_9_10_12"), ("1_2_5_10", "2_6_10_11_12"),
    ("1_9_10_12", "2_6_10_11_12"), ("1_9_10_12", "4_9_12"),
    ("2_6_10_11_12", "3_6_11"), ("2_6_10_11_12", "3_7_11_12"),
    ("3_6_11", "3_7_11_12"), ("3_7_11_12", "4_7_8_12"), ("4_7_8_12", "4_9_12"),
}

# deck.json standard_deck: id -> (name, suit, kind, craft cost, item, VP, count)
STANDARD_DECK = {
    "bird-ambush": ("Ambush!", "bird", "ambush", (), None, 0, 2),
    "fox-ambush": ("Ambush!", "fox", "ambush", (), None, 0, 1),
    "rabbit-ambush": ("Ambush!", "rabbit", "ambush", (), None, 0, 1),
    "mouse-ambush": ("Ambush!", "mouse", "ambush", (), None, 0, 1),
    "birdy-bindle": ("Birdy Bindle", "bird", "item", ("mouse",), "bag", 1, 1),
    "woodland-runners": ("Woodland Runners", "bird", "item", ("rabbit",), "boot", 1, 1),
    "arms-trader": ("Arms Trader", "bird", "item", ("fox", "fox"), "sword", 2, 1),
    "bird-crossbow": ("Crossbow", "bird", "item", ("fox",), "crossbow", 1, 1),
    "gently-used-knapsack": ("Gently Used Knapsack", "fox", "item", ("mouse",), "bag", 1, 1),
    "fox-root-tea": ("Root Tea", "fox", "item", ("mouse",), "tea", 2, 1),
    "fox-travel-gear": ("Travel Gear", "fox", "item", ("rabbit",), "boot", 1, 1),
    "protection-racket": ("Protection Racket", "fox", "item", ("rabbit", "rabbit"), "coins",
                          3, 1),
    "foxfolk-steel": ("Foxfolk Steel", "fox", "item", ("fox", "fox"), "sword", 2, 1),
    "anvil": ("Anvil", "fox", "item", ("fox",), "hammer", 2, 1),
    "smugglers-trail": ("Smuggler's Trail", "rabbit", "item", ("mouse",), "bag", 1, 1),
    "rabbit-root-tea": ("Root Tea", "rabbit", "item", ("mouse",), "tea", 2, 1),
    "a-visit-to-friends": ("A Visit to Friends", "rabbit", "item", ("rabbit",), "boot", 1, 1),
    "bake-sale": ("Bake Sale", "rabbit", "item", ("rabbit", "rabbit"), "coins", 3, 1),
    "mouse-in-a-sack": ("Mouse-in-a-Sack", "mouse", "item", ("mouse",), "bag", 1, 1),
    "mouse-root-tea": ("Root Tea", "mouse", "item", ("mouse",), "tea", 2, 1),
    "mouse-travel-gear": ("Travel Gear", "mouse", "item", ("rabbit",), "boot", 1, 1),
    "investments": ("Investments", "mouse", "item", ("rabbit", "rabbit"), "coins", 3, 1),
    "sword": ("Sword", "mouse", "item", ("fox", "fox"), "sword", 2, 1),
    "mouse-crossbow": ("Crossbow", "mouse", "item", ("fox",), "crossbow", 1, 1),
    "armorers": ("Armorers", "bird", "persistent", ("fox",), None, 0, 2),
    "sappers": ("Sappers", "bird", "persistent", ("mouse",), None, 0, 2),
    "brutal-tactics": ("Brutal Tactics", "bird", "persistent", ("fox", "fox"), None, 0, 2),
    "royal-claim": ("Royal Claim", "bird", "persistent", ("any", "any", "any", "any"), None,
                    0, 1),
    "stand-and-deliver": ("Stand and Deliver!", "fox", "persistent",
                          ("mouse", "mouse", "mouse"), None, 0, 2),
    "tax-collector": ("Tax Collector", "fox", "persistent", ("fox", "rabbit", "mouse"), None,
                      0, 3),
    "favor-of-the-foxes": ("Favor of the Foxes", "fox", "immediate", ("fox", "fox", "fox"),
                           None, 0, 1),
    "command-warren": ("Command Warren", "rabbit", "persistent", ("rabbit", "rabbit"), None,
                       0, 2),
    "better-burrow-bank": ("Better Burrow Bank", "rabbit", "persistent", ("rabbit", "rabbit"),
                           None, 0, 2),
    "cobbler": ("Cobbler", "rabbit", "persistent", ("rabbit", "rabbit"), None, 0, 2),
    "favor-of-the-rabbits": ("Favor of the Rabbits", "rabbit", "immediate",
                             ("rabbit", "rabbit", "rabbit"), None, 0, 1),
    "scouting-party": ("Scouting Party", "mouse", "persistent", ("mouse", "mouse"), None, 0, 2),
    "codebreakers": ("Codebreakers", "mouse", "persistent", ("mouse",), None, 0, 2),
    "favor-of-the-mice": ("Favor of the Mice", "mouse", "immediate", ("mouse", "mouse", "mouse"),
                          None, 0, 1),
    "bird-dominance": ("Bird Dominance", "bird", "dominance", (), None, 0, 1),
    "fox-dominance": ("Fox Dominance", "fox", "dominance", (), None, 0, 1),
    "rabbit-dominance": ("Rabbit Dominance", "rabbit", "dominance", (), None, 0, 1),
    "mouse-dominance": ("Mouse Dominance", "mouse", "dominance", (), None, 0, 1),
}
DECK_SIZE = 54
DECK_BY_SUIT = {"bird": 14, "fox": 14, "rabbit": 13, "mouse": 13}
ITEM_SUPPLY = {"boot": 2, "bag": 2, "crossbow": 1, "hammer": 1, "sword": 2, "tea": 2,
               "coins": 2}


@pytest.fixture(scope="module")
def bundle():
    return resolve()


def _pair(a, b):
    return (a, b) if a <= b else (b, a)


def _adjacency(pairs):
    adj: dict[int, set[int]] = {}
    for a, b in pairs:
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def test_reference_facts_are_self_consistent():
    """Guard on the transcription: each clearing's adjacent list is its printed paths
    (Law 2.2.1), and the deck sums to 54 cards with the suit split of the reference."""
    adj = _adjacency(AUTUMN_PATHS)
    assert {c: tuple(sorted(adj[c])) for c in AUTUMN} == {c: v[4] for c, v in AUTUMN.items()}
    assert sum(v[6] for v in STANDARD_DECK.values()) == DECK_SIZE
    by_suit = Counter()
    for v in STANDARD_DECK.values():
        by_suit[v[1]] += v[6]
    assert dict(by_suit) == DECK_BY_SUIT


# ---------------------------------------------------------------------- the Autumn map

def test_autumn_clearings(bundle):
    """Law 2.2.2-2.2.4 (suit, building slots, ruins) and Law 6.3.2 / 7.3.2 (corner
    clearings): every Autumn clearing matches the reference maps.json."""
    m = bundle.map
    assert m.id == "autumn"
    got = {c.id: (c.suit, c.slots, c.ruin, c.corner) for c in m.clearings}
    assert got == {c: v[:4] for c, v in AUTUMN.items()}


def test_autumn_ruins_and_corners(bundle):
    """Law 5.1.4: four ruins, in 6, 10, 11 and 12; the corners are 1-4."""
    m = bundle.map
    assert sorted(c.id for c in m.clearings if c.ruin) == [6, 10, 11, 12]
    assert sorted(c.id for c in m.clearings if c.corner) == [1, 2, 3, 4]


def test_autumn_paths_and_rivers(bundle):
    """Law 2.2.1 (paths) and Law 2.3 (rivers are not paths): the same links as the
    reference, with no river listed as a path."""
    m = bundle.map
    paths = {_pair(a, b) for a, b in m.paths}
    rivers = {_pair(a, b) for a, b in m.rivers}
    assert len(paths) == len(m.paths)  # no path listed twice
    assert paths == AUTUMN_PATHS
    assert rivers == AUTUMN_RIVERS
    assert not paths & rivers


def test_autumn_opposite_corners(bundle):
    """Law 3.3.1.II (bird dominance) and Law 6.3.3 / 7.3.2 (diagonally opposite
    corners): 1 & 3 and 2 & 4."""
    assert {_pair(a, b) for a, b in bundle.map.opposite_corners} == AUTUMN_OPPOSITE_CORNERS


def test_autumn_forests(bundle):
    """Law 2.4 / 2.4.1: the forests, the clearings each touches, and which forests are
    adjacent (separated by one printed path)."""
    m = bundle.map
    assert {f.id: tuple(sorted(f.clearings)) for f in m.forests} == AUTUMN_FORESTS
    assert {tuple(sorted(p)) for p in m.forest_adjacency} == AUTUMN_FOREST_ADJACENCY
    # Each adjacency's two forests share a path of the map (the path between them).
    for a, b in AUTUMN_FOREST_ADJACENCY:
        shared = set(AUTUMN_FORESTS[a]) & set(AUTUMN_FORESTS[b])
        assert any(_pair(x, y) in AUTUMN_PATHS for x in shared for y in shared), (a, b)


def test_engine_edges_are_the_printed_paths(new_game):
    """Law 2.2.1: the generated engine's links (both directions) are the printed paths,
    never the rivers."""
    g = new_game()
    edges = {tuple(int(x) for x in e.split("-")) for e in g.names["edges"]}
    assert edges == AUTUMN_PATHS | {(b, a) for a, b in AUTUMN_PATHS}


@pytest.mark.parametrize("clearing", sorted(AUTUMN))
def test_engine_moves_follow_the_reference_adjacency(mid_game, clearing):
    """Law 4.2 with Law 2.2.1: a lone Marquise warrior (ruling its clearing) may move to
    exactly the clearings the reference lists as adjacent."""
    g = mid_game()
    sc.put(g, str(clearing), "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    dests = {a.split()[1].split("->")[1] for a in g.legal() if a.startswith("move ")}
    assert dests == {str(c) for c in AUTUMN[clearing][4]}


# ---------------------------------------------------------------------- the standard deck

def test_standard_deck_cards(bundle):
    """Card facts (reference deck.json): every card of the standard deck has the
    reference name, suit (Law 2.1), kind, crafting cost (Law 4.1.1), item (Law 4.1.2),
    VP (Law 3.2.2) and number of copies; no card is missing or extra."""
    got = {c.id: (c.name, c.suit, c.kind, tuple(c.cost), c.item, c.vp, c.count)
           for c in bundle.deck.cards}
    assert set(got) == set(STANDARD_DECK)
    for cid, want in STANDARD_DECK.items():
        assert got[cid] == want, cid


def test_standard_deck_size_and_suits(bundle):
    """54 cards: 14 bird, 14 fox, 13 rabbit, 13 mouse (reference deck.json)."""
    total = Counter()
    for c in bundle.deck.cards:
        total[c.suit] += c.count
    assert sum(total.values()) == DECK_SIZE
    assert dict(total) == DECK_BY_SUIT


def test_ambush_and_dominance_cards(bundle):
    """Law 2.1.2: five ambush cards -- one mouse, one rabbit, one fox and two birds --
    that cannot be crafted; Law 2.1.3: four dominance cards matching the four suits,
    which cannot be crafted."""
    ambush = Counter()
    dominance = Counter()
    for c in bundle.deck.cards:
        if c.kind == "ambush":
            ambush[c.suit] += c.count
            assert c.cost == [] and c.item is None
        if c.kind == "dominance":
            dominance[c.suit] += c.count
            assert c.cost == [] and c.item is None
    assert dict(ambush) == {"bird": 2, "fox": 1, "rabbit": 1, "mouse": 1}
    assert dict(dominance) == {"bird": 1, "fox": 1, "rabbit": 1, "mouse": 1}


def test_item_supply(bundle):
    """Law 5.1.5: 2 boots, 2 bags, 1 crossbow, 1 hammer, 2 swords, 2 teas, 2 coins; and
    every item card's item is one of them."""
    assert dict(bundle.deck.items) == ITEM_SUPPLY
    assert {c.item for c in bundle.deck.cards if c.kind == "item"} == set(ITEM_SUPPLY)


def test_engine_deck_has_the_reference_copies(new_game):
    """Law 5.1.3: the engine's shared deck holds the reference number of physical copies
    of each card (the 2-player game then sets the four dominance cards aside)."""
    g = new_game()
    names = g.names["cards"]
    copies = Counter(names[d] for d in g.card_defs)
    shared = {cid: n for cid, n in copies.items() if cid in STANDARD_DECK}
    assert shared == {cid: v[6] for cid, v in STANDARD_DECK.items()}
    assert set(copies) - set(STANDARD_DECK) == {"loyal-vizier"}  # the Eyrie's own cards
