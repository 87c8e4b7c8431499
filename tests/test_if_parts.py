"""The part 'if' (parts carried out while a condition holds, others while it does not) and
the conditions all_of, any_of and most_cards, as Law 10.4.1 needs them: "Look at the
cards in the Lost Souls pile, ignoring birds. The suit with the most cards becomes the
new Outcast -- move the outcast marker, showing its Outcast side, to that suit. If that
suit was already the Outcast, flip the marker to Hated. If no one suit had the most
cards, the marker stays on its current suit and, if it is not Hated, flips to its Hated
side."  Then 10.4.2: the pile is discarded.

The faction is tests/data/packs/conspiracies (Test Newts): its Birdsong's first step is
the program adjust_outcast of the pack's library, over its zone lost-souls (which takes
every discarded card, Law 10.2.6) and its cycles outcast (fox, rabbit, mouse) and mood
(outcast, hated).  Each case begins the newts' turn through the engine's turn flow."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import past_setup
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.loader import validate_data
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "conspiracies"
ME = "test-newts"
SEATINGS = [("test-newts", "marquise"), ("marquise", "test-newts"),
            ("eyrie", "test-newts", "marquise")]


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _cards(bundle, **counts: int) -> list[str]:
    """Distinct cards of the standard deck, so many of each suit."""
    out: list[str] = []
    for suit, n in counts.items():
        ids = [c.id for c in bundle.deck.cards if c.suit == suit]
        assert len(ids) >= n
        out += ids[:n]
    return out


def _adjusted(bundle, order, pure, lost: dict[str, int], outcast: str, mood: str):
    """The newts' turn begun with these cards in the Lost Souls and the markers there:
    the game at its first decision, the seat."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    pos.set_zone(g, me, "lost-souls", _cards(bundle, **lost))
    pos.set_cycle(g, me, "outcast", outcast)
    pos.set_cycle(g, me, "mood", mood)
    pos.begin_turn(g, ME)
    assert g.to_play == me and g.phase == "birdsong" and g.compiled is not pure
    return g, me


CASES = [
    # the Lost Souls, the markers before, the markers after
    ({"fox": 2, "rabbit": 1}, ("rabbit", "outcast"), ("fox", "outcast")),
    ({"fox": 2, "rabbit": 1}, ("rabbit", "hated"), ("fox", "outcast")),
    ({"rabbit": 2, "fox": 1}, ("rabbit", "outcast"), ("rabbit", "hated")),
    ({"rabbit": 2, "fox": 1}, ("rabbit", "hated"), ("rabbit", "hated")),
    ({"mouse": 1}, ("fox", "outcast"), ("mouse", "outcast")),
    ({"fox": 1, "mouse": 1}, ("rabbit", "outcast"), ("rabbit", "hated")),
    ({"fox": 2, "mouse": 2, "rabbit": 1}, ("fox", "hated"), ("fox", "hated")),
    ({}, ("mouse", "outcast"), ("mouse", "hated")),
    ({"bird": 3, "fox": 1}, ("rabbit", "outcast"), ("fox", "outcast")),
    ({"bird": 3}, ("rabbit", "outcast"), ("rabbit", "hated")),
]


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("lost, before, after", CASES)
def test_the_outcast_is_adjusted_to_the_suit_most_discarded(bundle, order, pure, lost,
                                                            before, after):
    """Law 10.4.1, every branch: a new suit with the most (its Outcast side), the same
    suit again (Hated), no one suit with the most (stays, Hated), birds ignored."""
    g, me = _adjusted(bundle, order, pure, lost, *before)
    assert pos.cycles(g, me) == {"outcast": after[0], "mood": after[1]}


@pytest.mark.parametrize("order", SEATINGS[:2])
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_then_the_lost_souls_go_to_the_discard_pile(bundle, order, pure):
    """Law 10.4.2: after the adjustment the Lost Souls are discarded to the discard pile
    (the pile that takes every discard is not where its own cards go)."""
    lost = {"fox": 2, "rabbit": 1}
    g, me = _adjusted(bundle, order, pure, lost, "rabbit", "outcast")
    assert pos.zone(g, me, "lost-souls") == []
    discard, defs = pos.piles(g)["discard"], pos.card_defs(g)
    where = {g.names["cards"][defs[i]]: g.state[g.S["CARD_LOC"] + i]
             for i in range(g.consts["N"])}
    assert all(where[card] == discard for card in _cards(bundle, **lost))


def test_both_cores_agree_on_every_case(bundle):
    for lost, before, _ in CASES:
        a, _ = _adjusted(bundle, SEATINGS[0], True, lost, *before)
        b, _ = _adjusted(bundle, SEATINGS[0], False, lost, *before)
        assert list(a.state) == list(b.state)


# ------------------------------------------------------------------- the language

def test_an_if_holds_only_parts_carried_out_at_once():
    """An 'if' carries out parts that ask nothing and cost nothing: a choice or a cost in
    one is refused where it is written, with the parts it may hold."""
    doc = {"kind": "library", "id": "x", "programs": {"p": {"law": "1", "do": [
        {"op": "if", "if": {"none_on_map": "warrior"},
         "then": [{"op": "choose", "clearing": {}}]}]}}}
    _, found, _ = validate_data(doc)
    assert [(c, p) for c, _, p in found] == [("VALUE-INVALID", "/programs/p/do/0/then/0")]
    assert "set_stage" in found[0][1] and "'choose'" in found[0][1]


@pytest.mark.parametrize("cond, pointer", [
    ({"most_cards": "hand", "suit": "bird"}, "/programs/p/do/0/if/suit"),
    ({"all_of": []}, "/programs/p/do/0/if/all_of"),
    ({"any_of": [{"at_stage": "x"}]}, "/programs/p/do/0/if/any_of/0/cycle")])
def test_a_wrong_condition_is_a_located_error(cond, pointer):
    doc = {"kind": "library", "id": "x", "programs": {"p": {"law": "1", "do": [
        {"op": "if", "if": cond, "then": [{"op": "score", "vp": 1}]}]}}}
    _, found, _ = validate_data(doc)
    assert pointer in [p for _, _, p in found], found


def test_a_part_for_another_player_inside_an_if_is_located(tmp_path):
    """PROGRAM-SHAPE looks inside an 'if' too: a program's parts are its actor's."""
    pack = tmp_path / "conspiracies"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["adjust_outcast"]["do"][0]["then"].append(
        {"op": "score", "vp": 1, "who": "target"})
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    found = [(d.code, d.pointer) for d in validate([pack]).diagnostics]
    assert ("PROGRAM-SHAPE", "/programs/adjust_outcast/do/0/then/1/who") in found


def test_conditions_read_back_and_nest():
    t = TypeAdapter(M.Condition)
    c = t.validate_python({"any_of": [{"all_of": [{"most_cards": "$zone", "suit": "fox"},
                                                  {"at_stage": "fox", "cycle": "$c"}]},
                                      {"not": {"most_cards": "hand", "suit": "$s"}}]})
    assert isinstance(c, M.AnyOf) and isinstance(c.any_of[0], M.AllOf)
    assert isinstance(c.any_of[0].all_of[0], M.MostCards)
