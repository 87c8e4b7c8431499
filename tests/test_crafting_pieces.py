"""Several crafting pieces, of a cycle's suit only (Law 10.2.1: "The Cult crafts during
Evening by activating gardens whose printed suit matches the Outcast suit"; Law 4.1:
each activated piece pays its clearing's suit).  The faction's crafting_piece may be
{"among": [...], "suit_of": cycle}.

The faction is tests/data/packs/conspiracies (Test Newts): its fox, rabbit and mouse
shrines craft, those of the outcast's printed suit only, in its Evening's craft step.
Cards: anvil costs a fox, woodland-runners a rabbit, mouse-in-a-sack a mouse.
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.spec import resolve
from rootlaw.spec.loader import validate_data

PACK = Path(__file__).resolve().parent / "data" / "packs" / "conspiracies"
ME = "test-newts"
SEATINGS = [("test-newts", "marquise"), ("marquise", "test-newts"),
            ("eyrie", "test-newts", "marquise")]
CARDS = ["anvil", "woodland-runners", "mouse-in-a-sack"]


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _at_craft(bundle, order, pure, outcast, shrines: dict[str, str]):
    """The newts at their Evening's craft step, reached through the turn flow, the three
    cards in hand and these shrines (clearing: shrine) on the map."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    for c, shrine in shrines.items():
        pos.put(g, c, shrine, 1)
    pos.set_hand(g, me, CARDS)
    pos.set_cycle(g, me, "outcast", outcast)
    pos.goto(g, ME, "evening", "craft")
    return g, me


def _crafts(g) -> list[str]:
    return sorted(a for a in g.legal() if a.startswith("craft "))


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("outcast, crafts", [
    ("fox", ["craft anvil"]), ("rabbit", ["craft woodland-runners"]),
    ("mouse", ["craft mouse-in-a-sack"])])
def test_only_the_pieces_of_the_outcast_suit_craft(bundle, order, pure, outcast, crafts):
    """Law 10.2.1: a shrine of each suit in a clearing of its suit; only the one whose
    printed suit is the outcast's pays, so only the card of that suit's cost is offered."""
    g, me = _at_craft(bundle, order, pure, outcast,
                      {"1": "fox-shrine", "3": "rabbit-shrine", "2": "mouse-shrine"})
    assert g.to_play == me and g.decision == "craft"
    assert _crafts(g) == crafts


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_the_printed_suit_decides_which_pieces_the_clearing_which_suit_they_pay(
        bundle, order, pure):
    """Law 10.2.1 with 4.1: a rabbit shrine standing in a fox clearing is activated while
    the outcast is rabbit and pays fox (its clearing's suit), so the anvil is offered and
    the rabbit card is not; while the outcast is fox, it does not craft at all."""
    g, me = _at_craft(bundle, order, pure, "rabbit", {"6": "rabbit-shrine"})
    assert _crafts(g) == ["craft anvil"]
    g, me = _at_craft(bundle, order, pure, "fox", {"6": "rabbit-shrine"})
    assert _crafts(g) == []


@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_crafting_activates_the_piece_once(bundle, pure):
    """Law 4.1.1: each crafting piece once per turn -- two rabbit shrines pay for two
    rabbit icons, and the second rabbit card is not offered after two were paid."""
    g, me = _at_craft(bundle, SEATINGS[0], pure, "rabbit",
                      {"3": "rabbit-shrine", "6": "fox-shrine"})
    assert _crafts(g) == ["craft woodland-runners"]
    g.apply("craft woodland-runners")
    assert "woodland-runners" not in g.hand(me)
    assert _crafts(g) == []


@pytest.mark.parametrize("bad, code, where", [
    ({"among": ["fox-shrine", "shrine"], "suit_of": "outcast"}, "REF-UNDEF",
     "/crafting_piece/among/1"),
    ({"among": ["fox-shrine"], "suit_of": "moods"}, "REF-UNDEF", "/crafting_piece/suit_of"),
    ({"among": ["fox-shrine"], "suit_of": "mood"}, "CYCLE-STAGE", "/crafting_piece/suit_of"),
    ({"among": []}, "VALUE-INVALID", "/crafting_piece/among")])
def test_a_wrong_crafting_piece_is_a_located_error(bad, code, where):
    base = next(f for f in resolve([PACK]).factions if f.id == ME)
    doc = base.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    _, found, _ = validate_data({**doc, "crafting_piece": bad})
    assert [(c, p) for c, _, p in found] == [(code, where)], found
