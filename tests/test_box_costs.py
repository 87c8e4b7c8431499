"""A box's warriors as an action's cost (Law 10.4.3: "spend acolytes, returning them to
your supply, to perform conspiracies in clearings matching the Outcast ... If the
Outcast is Hated, the conspiracy costs one fewer acolyte"): the part into_box with
from_box in a menu program is a cost paid in full, offered only while the box holds its
count, a value read as the action is offered and as it is taken.

The faction is tests/data/packs/conspiracies (Test Newts): in Birdsong, convert (2
acolytes, 1 while hated: an enemy warrior replaced with a newt) and sanctify (3, 2 while
hated: an enemy building replaced with a shrine), each in the clearings of the outcast's
suit; in Daylight a sacrifice (a bird card: a newt into the acolytes box).
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "conspiracies"
ME = "test-newts"
SEATINGS = [("test-newts", "marquise"), ("marquise", "test-newts"),
            ("eyrie", "test-newts", "marquise")]
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _at_birdsong(bundle, order, pure, acolytes, *, mood="outcast", outcast="rabbit"):
    """The newts at their Birdsong's conspiracies, reached through the turn flow: a cat
    warrior in rabbit clearing 5 and fox clearing 1, a sawmill in rabbit clearing 4."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    pos.put(g, "5", "cat-warrior", 1)
    pos.put(g, "1", "cat-warrior", 1)
    pos.put(g, "4", "sawmill", 1)
    pos.set_box(g, me, "acolytes", acolytes)
    pos.set_cycle(g, me, "outcast", outcast)
    pos.set_cycle(g, me, "mood", mood)
    pos.goto(g, ME, "birdsong", "actions")
    assert g.to_play == me and g.decision == "actions" and g.compiled is not pure
    return g, me


def _offered(g, verb: str) -> list[str]:
    return sorted(a for a in g.legal() if a.startswith(verb + " "))


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("acolytes, convert, sanctify", [
    (0, [], []), (1, [], []), (2, ["convert cat-warrior 5"], []),
    (3, ["convert cat-warrior 5"], ["sanctify sawmill 4"])])
def test_a_conspiracy_is_offered_only_while_the_box_holds_its_cost(
        bundle, order, pure, acolytes, convert, sanctify):
    """Law 10.4.3: convert costs two acolytes, sanctify three; neither is offered with
    fewer in the box, and only in clearings of the outcast's suit (rabbit: not fox 1)."""
    g, _ = _at_birdsong(bundle, order, pure, acolytes)
    assert _offered(g, "convert") == convert
    assert _offered(g, "sanctify") == sanctify


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("acolytes, convert, sanctify", [
    (0, [], []), (1, ["convert cat-warrior 5"], []),
    (2, ["convert cat-warrior 5"], ["sanctify sawmill 4"])])
def test_while_hated_a_conspiracy_costs_one_fewer(bundle, order, pure, acolytes, convert,
                                                  sanctify):
    """Law 10.4.3: "If the Outcast is Hated, the conspiracy costs one fewer acolyte"."""
    g, _ = _at_birdsong(bundle, order, pure, acolytes, mood="hated")
    assert _offered(g, "convert") == convert
    assert _offered(g, "sanctify") == sanctify


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("mood, cost", [("outcast", 2), ("hated", 1)])
def test_the_acolytes_spent_return_to_the_supply(bundle, order, pure, mood, cost):
    """Law 10.4.3 ("returning them to your supply"): converting takes the cost out of the
    box into the supply, then replaces the cat warrior with a newt from it."""
    g, me = _at_birdsong(bundle, order, pure, 3, mood=mood)
    pos.put(g, "5", "cat-warrior", 2)
    supply = pos.supply(g, "newt")
    g.apply("convert cat-warrior 5")
    assert g.box(me, "acolytes") == 3 - cost
    assert pos.supply(g, "newt") == supply + cost - 1
    assert pos.count(g, "5", "newt") == 1 and pos.count(g, "5", "cat-warrior") == 1
    assert not list(invariant_violations(g))
    # What is left pays for a second conspiracy only while it covers its cost.
    left = 3 - cost
    assert _offered(g, "convert") == (["convert cat-warrior 5"] if left >= cost else [])
    assert _offered(g, "sanctify") == (["sanctify sawmill 4"] if left >= cost + 1 else [])


@pytest.mark.parametrize("order", SEATINGS[:2])
def test_both_cores_agree_on_every_conspiracy(bundle, order):
    """The compiled and the pure core offer the same conspiracies and end in the same
    state after each (the generated program is one text for both)."""
    for acolytes in range(5):
        for mood in ("outcast", "hated"):
            a, _ = _at_birdsong(bundle, order, True, acolytes, mood=mood)
            b, _ = _at_birdsong(bundle, order, False, acolytes, mood=mood)
            assert a.legal() == b.legal()
            for act in [x for x in a.legal() if x != "done"]:
                a2, _ = _at_birdsong(bundle, order, True, acolytes, mood=mood)
                b2, _ = _at_birdsong(bundle, order, False, acolytes, mood=mood)
                a2.apply(act)
                b2.apply(act)
                assert list(a2.state) == list(b2.state)


def test_the_pack_is_clean():
    assert list(validate([PACK]).diagnostics) == []


def test_a_cost_more_than_the_box_can_ever_hold_is_a_located_warning(tmp_path):
    """A conspiracy costing more warriors than the faction has in all is never offered:
    PROGRAM-NEVER, located at the menu entry, naming the part."""
    pack = tmp_path / "conspiracies"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["convert"]["do"][1]["count"] = 30
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    found = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics]
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-NEVER", "/turn/birdsong/1/menu/0")]
    assert "at least 30 newt from box acolytes" in found[0][2]
    assert "/programs/convert/do/1" in found[0][2]


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("outcast, clearing, shrine", [
    ("rabbit", "10", "rabbit-shrine"), ("mouse", "7", "mouse-shrine"),
    ("fox", "6", "fox-shrine")])
def test_sanctify_places_a_shrine_of_the_outcast_suit(bundle, order, pure, outcast,
                                                      clearing, shrine):
    """Law 10.4.3, Sanctify: "replace an enemy building from an Outcast clearing with a
    garden of the Outcast suit" -- the part replace 'with' the piece of the chosen
    clearing's suit (an Outcast clearing's suit is the Outcast's)."""
    g, me = _at_birdsong(bundle, order, pure, 3, outcast=outcast)
    pos.put(g, clearing, "workshop", 1)
    assert _offered(g, "sanctify") == sorted(
        [f"sanctify workshop {clearing}"] + (["sanctify sawmill 4"] if outcast == "rabbit"
                                             else []))
    supply = pos.supply(g, shrine)
    g.apply(f"sanctify workshop {clearing}")
    assert pos.count(g, clearing, "workshop") == 0 and pos.count(g, clearing, shrine) == 1
    assert pos.supply(g, shrine) == supply - 1 and g.box(me, "acolytes") == 0
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", SEATINGS[:2])
@CORES
def test_sanctify_is_not_offered_without_a_shrine_of_the_suit(bundle, order, pure):
    """G.23 ("you cannot replace a piece unless you can take both steps"): no rabbit
    shrine left in the supply, no sanctify in the rabbit clearings; the others' shrines
    do not stand in for it."""
    g, _ = _at_birdsong(bundle, order, pure, 3)
    assert _offered(g, "sanctify") == ["sanctify sawmill 4"]
    pos.set_supply(g, "rabbit-shrine", 0)
    assert _offered(g, "sanctify") == []


# ------------------------------------------------------------------- Crusade (10.4.3)

def _crusade_position(bundle, order, pure, acolytes, mood="outcast"):
    """Two newts and a cat warrior in rabbit clearing 5 and in fox clearing 1."""
    g, me = _at_birdsong(bundle, order, pure, acolytes, mood=mood)
    pos.put(g, "5", "newt", 2)
    pos.put(g, "1", "newt", 2)
    return g, me


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("mood, acolytes, offered", [
    ("outcast", 1, False), ("outcast", 2, True), ("hated", 1, True), ("hated", 0, False)])
def test_a_crusade_battles_in_an_outcast_clearing_for_its_cost(bundle, order, pure, mood,
                                                              acolytes, offered):
    """Law 10.4.3, Crusade: "Spend two acolytes to initiate a battle in an Outcast
    clearing" (one fewer while hated): the menu's battle entry with 'suit_of' and 'cost'
    is offered in rabbit clearing 5 only (not fox clearing 1), while the box pays."""
    g, me = _crusade_position(bundle, order, pure, acolytes, mood)
    battles = _offered(g, "battle")
    assert battles == (["battle 5 marquise"] if offered else [])
    if offered:
        supply = pos.supply(g, "newt")
        g.apply("battle 5 marquise")
        cost = 1 if mood == "hated" else 2
        assert g.box(me, "acolytes") == acolytes - cost
        assert pos.supply(g, "newt") >= supply + cost  # (plus any newt the battle removed)


@pytest.mark.parametrize("order", SEATINGS)
@CORES
def test_a_crusade_moves_from_an_outcast_clearing_for_its_cost(bundle, order, pure):
    """Law 10.4.3, Crusade: "or to move from an Outcast clearing": the march entry with
    'suit_of' offers moves out of rabbit clearings only, and the move pays its cost."""
    g, me = _crusade_position(bundle, order, pure, 2)
    moves = _offered(g, "move")
    assert moves and all(m.split()[1].startswith("5->") for m in moves)
    supply = pos.supply(g, "newt")
    assert moves[0] == "move 5->1 x1"
    g.apply(moves[0])
    assert g.box(me, "acolytes") == 0 and pos.supply(g, "newt") == supply + 2
    # Into clearing 1, where a cat warrior is: a battle there may follow (then_battle).
    assert sorted(g.legal()) == ["battle 1 marquise", "done"]
    g.apply("done")
    assert _offered(g, "move") == [] and _offered(g, "battle") == []


@pytest.mark.parametrize("order", SEATINGS[:2])
def test_the_crusade_entries_depend_on_no_hidden_card(bundle, order):
    """What the entries offer reads the board, the box and the cycles (all public), never
    a hand: twins that differ only in the newts' and the cats' hands are offered alike."""
    offers = []
    for hands in ([], ["anvil", "fox-ambush"]):
        g, me = _crusade_position(bundle, order, False, 2)
        pos.set_hand(g, me, hands)
        pos.set_hand(g, pos.seat_of(g, "marquise"), list(reversed(hands)))
        offers.append(sorted(a for a in g.legal() if a.split()[0] in ("battle", "move")))
    assert offers[0] == offers[1]


def _newts_with(tmp_path, edit):
    pack = tmp_path / "conspiracies"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "newts.json").read_text(encoding="utf-8"))
    edit(fac["turn"]["birdsong"][1]["menu"])
    (pack / "newts.json").write_text(json.dumps(fac), encoding="utf-8")
    return [(d.code, d.pointer) for d in validate([pack]).diagnostics]


@pytest.mark.parametrize("edit, code, pointer", [
    (lambda m: m[2].update(suit_of="outcasts"), "REF-UNDEF", "/turn/birdsong/1/menu/2/suit_of"),
    (lambda m: m[2].update(suit_of="mood"), "CYCLE-STAGE", "/turn/birdsong/1/menu/2/suit_of"),
    (lambda m: m[3].update(moves=2), "VALUE-INVALID", "/turn/birdsong/1/menu/3/moves"),
    (lambda m: m[2]["cost"].update(from_box=False), "VALUE-INVALID",
     "/turn/birdsong/1/menu/2/cost"),
    (lambda m: m[3]["cost"].update(box="acolyte"), "REF-UNDEF",
     "/turn/birdsong/1/menu/3/cost/box")])
def test_a_wrong_crusade_entry_is_a_located_error(tmp_path, edit, code, pointer):
    assert (code, pointer) in _newts_with(tmp_path, edit)


@pytest.mark.parametrize("key, value", [
    ("suit_of", "outcast"),
    ("cost", {"op": "into_box", "piece": "warrior", "box": "acolytes", "from_box": True})])
def test_an_effects_menu_has_no_cycle_suit_nor_cost(key, value):
    """A card's effect may be any faction's: a battle entry's 'suit_of' or 'cost' (a
    faction's cycles and boxes) in an effect's menu is EFFECT-ACTIONS, at the key.  (A
    march's 'then_battle' is an effect's too since stop 36: the Exiles deck's Eyrie
    Emigre, "take a move, then initiate a battle in the clearing you moved into",
    tests/test_exiles_partisans.py.)"""
    from rootlaw.spec import models as M
    from rootlaw.spec.semantics import check_document

    base = resolve().deck
    cards = [c.model_dump(by_alias=True, mode="json") for c in base.cards]
    warren = next(c for c in cards if c["id"] == "command-warren")
    warren["abilities"][0]["do"] = [{"op": "actions", "count": 1,
                                     "menu": [{"action": "march" if key == "then_battle"
                                               else "battle", key: value,
                                               **({"moves": 1} if key == "then_battle"
                                                  else {})}]}]
    deck = M.DeckSpec.model_validate({**base.model_dump(by_alias=True, mode="json"),
                                      "cards": cards})
    i = next(i for i, c in enumerate(deck.cards) if c.id == "command-warren")
    found = [d.pointer for d in check_document(deck, "deck.json").diagnostics()
             if d.code == "EFFECT-ACTIONS"]
    assert found == [f"/cards/{i}/abilities/0/do/0/menu/0/{key}"]


@pytest.mark.parametrize("order", SEATINGS)
@CORES
@pytest.mark.parametrize("choice", ["battle 1 marquise", "done"])
def test_a_crusade_move_may_be_followed_by_a_battle_in_its_destination(bundle, order,
                                                                       pure, choice):
    """Law 10.4.3, Crusade: "move from an Outcast clearing and then, if you wish,
    initiate a battle in the destination clearing": after the move into fox clearing 1,
    which holds a cat warrior, the newts are offered that battle or done (only there,
    though the cats are elsewhere too); either way the step goes on."""
    g, me = _at_birdsong(bundle, order, pure, 2)
    pos.put(g, "5", "newt", 2)
    pos.put(g, "3", "cat-warrior", 1)
    g.apply("move 5->1 x1")
    assert g.to_play == me and sorted(g.legal()) == ["battle 1 marquise", "done"]
    pos.set_dice(g, 1, 0)  # the newt deals one hit, the cat none
    g.apply(choice)
    assert g.decision == "actions" and g.to_play == me
    assert pos.count(g, "1", "newt") == 1
    assert pos.count(g, "1", "cat-warrior") == (1 if choice == "done" else 0)


@pytest.mark.parametrize("order", SEATINGS[:2])
@CORES
def test_no_battle_is_offered_where_the_move_found_no_enemy(bundle, order, pure):
    g, me = _at_birdsong(bundle, order, pure, 2)
    pos.put(g, "5", "newt", 2)
    g.apply("move 5->2 x1")
    assert g.decision == "actions" and "done" in g.legal()
    assert not [a for a in g.legal() if a.startswith("battle ")]


def test_a_move_and_battle_of_more_moves_is_a_located_error(tmp_path):
    def edit(m):
        m[3].update(moves=2, suit_of=None)
    assert ("VALUE-INVALID", "/turn/birdsong/1/menu/3/moves") in _newts_with(tmp_path, edit)
