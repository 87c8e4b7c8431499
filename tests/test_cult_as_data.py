"""The Lizard Cult (Law 10) written from the Law as data only (examples/lizard-cult: a
faction file and a library of programs of the standard parts), every one of its rules:
the proof that the language says a published faction with no engine change.  The rules
of it that other tests already pin down part by part (tests/test_box_costs.py: the
conspiracies and Crusade; tests/test_if_parts.py: Adjust Outcast; tests/test_crafting_
pieces.py: crafting with the gardens of the Outcast; tests/test_revenge.py) are checked
here once more as this one faction plays them, through the engine's own turn flow.
The Law's text gives no garden track values: the pack's (0, 2, 2, 3, 4 VP, a card at
the third garden of a suit) are the reference data's (../shared/data/root, marked
uncertain there), and no test here depends on more than the second space's 2 VP.
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11; corners 1 2 3 4."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.game import Game
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent.parent / "examples" / "lizard-cult"
ME = "lizard-cult"
GARDENS = {"fox": "fox-garden", "rabbit": "rabbit-garden", "mouse": "mouse-garden"}
ORDERS = [("marquise", "eyrie", "lizard-cult"), ("lizard-cult", "marquise"),
          ("eyrie", "lizard-cult", "marquise")]
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def test_the_pack_is_clean():
    assert list(validate([PACK]).diagnostics) == []


@pytest.mark.parametrize("order", ORDERS)
@CORES
def test_setup_a_corner_with_its_garden_then_the_outcast_of_choice(bundle, order, pure):
    """Law 10.3.2: 4 warriors and the garden of the corner's suit in a corner that is no
    one's home, a warrior in each adjacent clearing; Law 10.3.3: then the outcast marker
    on any suit space."""
    g = Game(list(order), 1, bundle=bundle, pure=pure)
    me = pos.seat_of(g, ME)
    while not (g.to_play == me and g.phase == "setup"):
        g.apply(g.legal_actions()[0])
    homes = {a.split()[1] for a in g.legal()}
    assert homes and homes <= {"1", "2", "3", "4"}
    home = sorted(homes)[0]
    g.apply(f"clearing {home}")
    suit = next(c.suit for c in bundle.map.clearings if str(c.id) == home)
    assert pos.count(g, home, GARDENS[suit]) == 1 and pos.count(g, home, "lizard") == 4
    near = [str(b) for a, b in bundle.map.paths if str(a) == home] + \
        [str(a) for a, b in bundle.map.paths if str(b) == home]
    assert near and all(pos.count(g, c, "lizard") >= 1 for c in near)
    assert sorted(g.legal()) == ["outcast fox", "outcast mouse", "outcast rabbit"]
    g.apply("outcast mouse")
    assert pos.cycles(g, me)["outcast"] == "mouse"


def _daylight(bundle, order, pure, hand: list[str]):
    """The Cult at its Daylight's rituals, a lizard in every clearing, this hand."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    for c in g.names["clearings"]:
        pos.put(g, c, "lizard", 1)
    pos.set_hand(g, me, hand)
    pos.goto(g, ME, "daylight", "actions")
    assert g.to_play == me and g.phase == "daylight"
    return g, me


@pytest.mark.parametrize("order", ORDERS)
@CORES
def test_a_revealed_card_builds_and_returns_to_hand_in_evening(bundle, order, pure):
    """Law 10.5.1: reveal a card to place the garden of its suit in a matching clearing
    you rule; Law 10.6.1: in Evening the revealed cards return to the hand."""
    g, me = _daylight(bundle, order, pure, ["anvil"])  # a fox card
    plants = sorted(a for a in g.legal() if a.startswith("plant "))
    assert plants and all(a.split()[2] in ("1", "6", "8", "12") for a in plants)
    g.apply(plants[0])
    where = plants[0].split()[2]
    assert pos.count(g, where, "fox-garden") == 1
    assert "anvil" not in g.hand(me) and pos.zone(g, me, "revealed") == ["anvil"]
    g.apply("done")
    while g.phase != "evening" or g.to_play != me:
        g.apply(g.legal_actions()[0])
    assert pos.zone(g, me, "revealed") == [] and "anvil" in g.hand(me)
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS[:2])
@CORES
def test_birds_are_not_wild_for_rituals_but_sacrifice_one(bundle, order, pure):
    """Law 10.2.2: a bird card builds and recruits nowhere; Law 10.5.4: revealed, it puts
    a warrior in the Acolytes box."""
    g, me = _daylight(bundle, order, pure, ["bird-crossbow"])
    assert not [a for a in g.legal() if a.split()[0] in ("plant", "preach", "rite")]
    before = g.box(me, "acolytes")
    g.apply("sacrifice bird-crossbow")
    assert g.box(me, "acolytes") == before + 1
    assert pos.zone(g, me, "revealed") == ["bird-crossbow"]


@pytest.mark.parametrize("order", ORDERS[:2])
@CORES
def test_a_score_ritual_once_per_suit_into_the_lost_souls(bundle, order, pure):
    """Law 10.5.3: spend the revealed card (into the Lost Souls, Law 10.2.6) to score the
    VP above the rightmost empty space of the gardens of its suit; once per suit a turn."""
    g, me = _daylight(bundle, order, pure, ["anvil", "fox-root-tea"])
    pos.put(g, "1", "fox-garden", 1)
    pos.put(g, "6", "fox-garden", 1)  # two fox gardens on the map: 2 VP
    pos.set_vp(g, me, 0)
    rites = sorted(a for a in g.legal() if a.startswith("rite "))
    assert rites == ["rite anvil", "rite fox-root-tea"]
    g.apply("rite anvil")
    assert g.scores[me] == 2 and pos.zone(g, me, "lost-souls") == ["anvil"]
    assert not [a for a in g.legal() if a.startswith("rite ")]  # fox done this turn


@pytest.mark.parametrize("order", ORDERS[:2])
@CORES
def test_revenge_and_fear_of_the_faithful_in_one_battle(bundle, order, pure):
    """Law 10.2.3: lizards removed defending go to the Acolytes box; Law 10.2.5: a garden
    removed, the Cult discards a random card (into its Lost Souls, 10.2.6)."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    pos.put(g, "5", "lizard", 1)
    pos.put(g, "5", "rabbit-garden", 1)
    pos.put(g, "5", "cat-warrior", 3)
    pos.set_hand(g, me, ["anvil"])
    pos.goto(g, "marquise", "daylight", "actions")
    pos.set_dice(g, 3, 0)
    boxed = g.box(me, "acolytes")
    g.apply(f"battle 5 {ME}")
    # Holding a card, the Cult is asked whether it ambushes (whatever the card: asking
    # reveals nothing, Law 1.2); it has none to play.
    assert g.decision == "ambush" and g.to_play == me and list(g.legal()) == ["done"]
    g.apply("done")
    assert pos.count(g, "5", "lizard") == 0 and pos.count(g, "5", "rabbit-garden") == 0
    # Both abilities answer the one removal: the Cult orders its own reactions.
    assert g.decision == "react_order" and g.to_play == me
    assert sorted(g.legal()) == ["first fear-of-the-faithful", "first revenge"]
    g.apply("first revenge")
    assert g.box(me, "acolytes") == boxed + 1
    assert g.hand(me) == [] and pos.zone(g, me, "lost-souls") == ["anvil"]


@pytest.mark.parametrize("order", ORDERS[:2])
@CORES
def test_setup_places_no_warrior_in_the_keep_s_clearing(bundle, order, pure):
    """Law 6.2.2: only the Marquise may place pieces in the Keep's clearing, so the
    Cult's warrior for each clearing adjacent to its home (Law 10.3.2, a placement in
    each clearing of a filter) is not placed there.  The Keep is moved next to the
    corner the Cult is about to take, through the engine's own setup flow."""
    g = Game(list(order), 2, bundle=bundle, pure=pure)
    me = pos.seat_of(g, ME)
    while not (g.to_play == me and g.phase == "setup"):
        g.apply(g.legal_actions()[0])
    home = sorted(a.split()[1] for a in g.legal())[0]
    near = sorted(str(b if a == int(home) else a) for a, b in bundle.map.paths
                  if int(home) in (a, b))
    keep = next(c for c in map(str, range(1, 13)) if pos.count(g, c, "keep"))
    pos.put(g, keep, "keep", 0)
    pos.put(g, near[0], "keep", 1)
    g.apply(f"clearing {home}")
    assert pos.count(g, near[0], "lizard") == 0
    assert all(pos.count(g, c, "lizard") == 1 for c in near[1:])


@pytest.mark.parametrize("order", ORDERS)
@CORES
def test_crusade_battles_where_a_battle_can_be_and_asks_whom(bundle, order, pure):
    """Law 10.4.3, Crusade: "spend two acolytes to battle in an Outcast clearing"; Law
    4.3.1: a battle needs a warrior of the attacker's and a piece of the defender's
    there, so a fox clearing with lizards alone, or enemies alone, offers none; with two
    other players there the Cult chooses the defender, after paying."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    others = [f for f in order if f != ME]
    pieces = {"marquise": "sawmill", "eyrie": "roost"}
    pos.put(g, "1", "lizard", 2)
    for f in others:
        pos.put(g, "1", pieces[f], 1)
    pos.put(g, "6", "lizard", 2)                # no enemy piece
    pos.put(g, "8", pieces[others[0]], 1)       # no lizard
    pos.put(g, "3", "lizard", 1)                # not the Outcast's suit
    pos.put(g, "3", pieces[others[0]], 1)
    pos.set_cycle(g, me, "outcast", "fox")
    pos.set_cycle(g, me, "side", "outcast")
    pos.set_box(g, me, "acolytes", 3)
    pos.goto(g, ME, "birdsong", "actions")
    assert sorted(a for a in g.legal() if a.startswith("crusade ")) == ["crusade 1"]
    pos.set_dice(g, 1, 0)
    g.apply("crusade 1")
    assert g.box(me, "acolytes") == 1
    defender = others[-1]
    if len(others) == 2:
        assert g.to_play == me
        assert sorted(g.legal()) == sorted(f"battle 1 {f}" for f in others)
        g.apply(f"battle 1 {defender}")
    # A 1-0 roll, the defender with no warrior there (an extra hit, Law 4.3.2.III): its
    # building is removed and the Cult scores it; the other's stays.
    assert pos.count(g, "1", pieces[defender]) == 0 and g.scores[me] == 1
    assert all(pos.count(g, "1", pieces[f]) == 1 for f in others if f != defender)
    assert pos.count(g, "1", "lizard") == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_games_play_alike_on_both_cores(bundle, seed):
    """Random games to their end: the compiled and the pure core agree at every step."""
    order = ["marquise", "eyrie", ME]
    a = Game(order, seed, bundle=bundle, pure=True)
    b = Game(order, seed, bundle=bundle, pure=False)
    rng = random.Random(seed)
    for _ in range(3000):
        if a.is_over:
            break
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        act = legal[rng.randrange(len(legal))]
        a.apply(act)
        b.apply(act)
    assert list(a.state) == list(b.state)
    assert a.is_over and a.winner == b.winner  # a whole game, not a cut-off one


@pytest.mark.parametrize("order", ORDERS[:2])
@CORES
@pytest.mark.parametrize("hand", [["anvil", "fox-root-tea", "woodland-runners"], ["anvil"]])
def test_fear_of_the_faithful_a_card_for_each_garden(bundle, order, pure, hand):
    """Law 10.2.5, "whenever a garden is removed, the Cult must discard a random card":
    two gardens removed at once in one clearing cost two cards (as far as the hand
    allows), into the Lost Souls (Law 10.2.6)."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    pos.put(g, "3", "rabbit-garden", 2)
    pos.put(g, "3", "cat-warrior", 3)
    pos.set_hand(g, me, hand)
    pos.goto(g, "marquise", "daylight", "actions")
    pos.set_dice(g, 3, 0)  # two hits on the gardens (the Cult is defenseless: 4.3.5.II)
    g.apply(f"battle 3 {ME}")
    while g.decision == "ambush":
        g.apply("done")
    assert pos.count(g, "3", "rabbit-garden") == 0
    lost = min(2, len(hand))
    assert len(g.hand(me)) == len(hand) - lost
    assert sorted(pos.zone(g, me, "lost-souls") + g.hand(me)) == sorted(hand)
