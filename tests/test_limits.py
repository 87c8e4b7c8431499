"""Limits of a program's use within a turn, and pieces and tracks of the chosen card's
suit.

- ``once_per_turn: "suit"``: at most once a turn for each suit (Law 10.5.3: the Lizard
  Cult's Score ritual, "only once per turn per suit"), the suit of the chosen card;
- ``once_per_turn: "clearing"``: at most once a turn in each clearing;
- ``once_per_turn: true``: once a turn at all (tested with the recruit of Law 6.5.3 in
  test_law_marquise.py and the Mire Toads' swallow);
- ``of_suit: "card"``: the piece among several of the chosen card's suit, and a track
  value of it (Law 10.5.1, 10.5.3: a garden of the revealed card's suit; the VP above
  the rightmost empty space of that suit's gardens track).

The faction is tests/data/packs/rituals (Test Skinks): gardens of three suits with
tracks, a ritual that discards a hand card (birds not wild) to score its suit's track,
one that plants a garden of a card's suit, and a prayer placing a warrior where one is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import cores_agree
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "rituals"
# Both seat orders, and a third seat: a rule of the table holds whoever sits first.
SEATINGS = [("marquise", "test-skinks"), ("test-skinks", "eyrie", "marquise")]
GARDENS = {"fox": "fox-garden", "rabbit": "rabbit-garden", "mouse": "mouse-garden"}


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _at_daylight(bundle, order, hand: list[str], pure: bool = True):
    """The skinks at their Daylight's actions, reached through the turn flow, with this
    hand; every other hand empty."""
    g = past_setup(order, bundle=bundle, pure=pure, empty_hands=True)
    me = order.index("test-skinks")
    pos.set_hand(g, me, hand)
    pos.goto(g, "test-skinks", "daylight", "actions")
    assert g.to_play == me and g.phase == "daylight"
    return g, me


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_a_ritual_once_a_turn_for_each_suit_scores_its_suits_track(bundle, order, pure):
    """Law 10.5.3: the ritual is offered for each card of a suit not yet used this turn
    (a bird card never: birds are not wild, and no track is of their suit, 10.2.2); it
    scores the VP above the rightmost empty space of the card's suit's track (0 on a
    track none of whose gardens is on the map); once a suit is used, no other card of
    that suit is offered until the skinks' next turn."""
    g, me = _at_daylight(bundle, order, ["anvil", "fox-root-tea", "bake-sale", "sword",
                                         "bird-crossbow"], pure)
    assert g.compiled is not pure
    worship = sorted(a for a in g.legal() if a.startswith("worship "))
    assert worship == ["worship anvil", "worship bake-sale", "worship fox-root-tea",
                       "worship sword"]
    # The home's fox garden (setup) uncovered the fox track's first space: 2 VP.
    vp = g.scores[me]
    g.apply("worship anvil")
    assert g.scores[me] == vp + 2
    assert "anvil" not in g.hand(me)
    assert sorted(a for a in g.legal() if a.startswith("worship ")) == \
        ["worship bake-sale", "worship sword"]  # fox is used; rabbit and mouse are not
    g.apply("worship bake-sale")  # no rabbit garden on the map: 0 VP
    assert g.scores[me] == vp + 2
    assert sorted(a for a in g.legal() if a.startswith("worship ")) == ["worship sword"]
    # The next turn of the skinks: every suit again.
    g.apply("done")
    pos.set_hand(g, me, ["fox-root-tea", "rabbit-root-tea"])
    pos.goto(g, "test-skinks", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("worship ")) == \
        ["worship fox-root-tea", "worship rabbit-root-tea"]


@pytest.mark.parametrize("order", SEATINGS)
def test_the_track_read_is_the_one_of_the_cards_suit(bundle, order):
    """Law 10.5.3: the VP scored is read on the gardens track of the card's suit: with
    two rabbit gardens on the map, the rabbit track's second space (2 VP); the fox
    track's first (2 VP), the mouse track's none (0)."""
    g, me = _at_daylight(bundle, order, ["bake-sale", "sword"])
    rabbits = [c.id for c in g.bundle.map.clearings if c.suit == "rabbit"][:2]
    for c in rabbits:
        pos.put(g, c, "rabbit-garden", 1)
    vp = g.scores[me]
    g.apply("worship bake-sale")
    assert g.scores[me] == vp + 2
    g.apply("worship sword")
    assert g.scores[me] == vp + 2


@pytest.mark.parametrize("order", SEATINGS)
def test_a_garden_of_the_cards_suit_is_planted(bundle, order):
    """Law 10.5.1: in a clearing the skinks rule matching the card, a garden of the
    card's suit is placed; the option is there only while one of that suit is left in
    the supply.  A bird card matches every clearing (the action's birds are wild here)
    but no garden is of its suit, so it offers nothing."""
    g, me = _at_daylight(bundle, order, ["anvil", "bird-crossbow", "bake-sale"])
    pos.clear_board(g)
    pos.put(g, "8", "skink", 1)  # fox, two slots
    pos.put(g, "5", "skink", 1)  # rabbit, two slots
    assert sorted(a for a in g.legal() if a.startswith("plant ")) == \
        ["plant anvil 8", "plant bake-sale 5"]
    g.apply("plant anvil 8")
    assert pos.count(g, "8", "fox-garden") == 1
    assert pos.count(g, "8", "rabbit-garden") == pos.count(g, "8", "mouse-garden") == 0
    assert "anvil" not in g.hand(me)
    # No fox garden left in the supply: a fox card offers no planting.
    pos.set_supply(g, "fox-garden", 0)
    pos.set_hand(g, me, ["fox-root-tea", "bake-sale"])
    assert [a for a in g.legal() if a.startswith("plant ")] == ["plant bake-sale 5"]


@pytest.mark.parametrize("order", SEATINGS)
def test_a_prayer_once_a_turn_in_each_clearing(bundle, order):
    """A limit once per turn for each clearing: after a prayer in a clearing, every
    other clearing holding a skink is still offered, that one not, until the next turn."""
    g, me = _at_daylight(bundle, order, [])
    pos.clear_board(g)
    for c in ("2", "5", "8"):
        pos.put(g, c, "skink", 1)
    where = sorted(a for a in g.legal() if a.startswith("pray "))
    assert where == ["pray 2", "pray 5", "pray 8"]
    g.apply(where[0])
    left = sorted(a for a in g.legal() if a.startswith("pray "))
    assert left == where[1:]
    assert pos.count(g, "2", "skink") == 2
    g.apply(left[0])
    assert sorted(a for a in g.legal() if a.startswith("pray ")) == where[2:]
    g.apply("done")
    pos.goto(g, "test-skinks", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("pray ")) == where


@pytest.mark.parametrize("order", SEATINGS)
def test_both_cores_agree_on_the_limits(bundle, order):
    """The compiled core runs the lines the pure one runs, in seeded random games."""
    for seed in (1, 2, 3):
        assert cores_agree(bundle, list(order), seed, 3000) is None


def _errors(pack):
    return [(d.code, d.pointer) for d in validate([pack]).diagnostics if d.severity == "error"]


def test_a_limit_by_what_the_choice_does_not_choose_is_a_located_error(tmp_path):
    """A limit once a turn for each clearing in a program whose first choice chooses a
    card, and an 'of_suit' of the card in one that chooses a clearing alone: each is a
    PROGRAM-SHAPE error at its key."""
    import json
    import shutil
    pack = tmp_path / "rituals"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["score_ritual"]["once_per_turn"] = "clearing"
    lib["programs"]["pray"]["do"][1] = {"op": "place",
                                        "piece": {"of_suit": "card", "among": ["fox-garden"]}}
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    found = _errors(pack)
    assert ("PROGRAM-SHAPE", "/programs/score_ritual/once_per_turn") in found
    assert ("PROGRAM-SHAPE", "/programs/pray/do/1/piece") in found


# ---- who rules: Law 2.5 and the abilities that change it (7.2.2, 10.2.4)


@pytest.mark.parametrize("order", [("eyrie", "test-skinks", "marquise"),
                                   ("test-skinks", "marquise", "eyrie")])
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_pilgrims_rule_wherever_they_have_a_garden(bundle, order, pure):
    """Law 10.2.4: the skinks rule every clearing where they have a garden, whoever has
    more warriors and buildings there, and over the Eyrie's Lords of the Forest (7.2.2:
    the Eyrie rules a tie in which it has a piece).  Elsewhere Law 2.5 holds: a skink
    warrior alone, outnumbered, rules nothing; Lords of the Forest still rule their ties.
    What a player may do follows: the plant ritual, in a clearing the skinks rule with a
    slot open, is offered in the outnumbered garden's clearing."""
    g, me = _at_daylight(bundle, order, ["anvil"], pure)
    pos.clear_board(g)
    pos.put(g, "8", "fox-garden", 1)        # fox, two slots: a garden, three cats
    pos.put(g, "8", "cat-warrior", 3)
    pos.put(g, "12", "fox-garden", 1)       # fox: a garden and a roost, tied
    pos.put(g, "12", "roost", 1)
    pos.put(g, "6", "skink", 1)             # fox: a skink, two birds
    pos.put(g, "6", "bird-warrior", 2)
    pos.put(g, "1", "skink", 1)             # fox: a skink, a bird: the Eyrie's tie
    pos.put(g, "1", "bird-warrior", 1)
    assert g.ruler("8") == "test-skinks"
    assert g.ruler("12") == "test-skinks"
    assert g.ruler("6") == "eyrie"
    assert g.ruler("1") == "eyrie"
    # (12 is ruled too, but its two slots are full.)
    assert sorted(a for a in g.legal() if a.startswith("plant ")) == ["plant anvil 8"]
    g.apply("plant anvil 8")
    assert pos.count(g, "8", "fox-garden") == 2
    # The garden gone, Law 2.5 again: three cats outnumber nothing of the skinks.
    pos.put(g, "8", "fox-garden", 0)
    assert g.ruler("8") == "marquise"


def test_a_rule_ability_that_says_nothing_is_a_located_error(tmp_path):
    """A 'rule' ability with neither 'ties' nor 'with' changes nothing: an error at it,
    with the words the author needs; 'rule_ties' (its first spelling) and
    {"kind": "rule", "ties": true} are one rule, hashed alike (a record made with either
    loads with the other)."""
    import json
    import shutil
    pack = tmp_path / "rituals"
    shutil.copytree(PACK, pack)
    doc = json.loads((pack / "skinks.json").read_text(encoding="utf-8"))
    doc["abilities"] = [{"kind": "rule", "id": "pilgrims"}]
    (pack / "skinks.json").write_text(json.dumps(doc), encoding="utf-8")
    found = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics
             if d.severity == "error"]
    assert [(c, p) for c, p, _ in found] == [("VALUE-INVALID", "/abilities/0/ties")]
    assert "'ties': true, 'with' pieces, or 'tokens'" in found[0][2]
    hashes = set()
    for spelling in ({"kind": "rule_ties"}, {"kind": "rule", "ties": True}):
        doc["abilities"] = [{"id": "still", **spelling}]
        (pack / "skinks.json").write_text(json.dumps(doc), encoding="utf-8")
        hashes.add(resolve([pack]).hash)
    assert len(hashes) == 1
