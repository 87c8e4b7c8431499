"""Where short pieces go (Law 1.5.4): "If you are prompted to place ... pieces but you
cannot do so fully, you must place ... the maximum number possible": the rule speaks to
the player prompted to place, so which pieces of the most possible is theirs to choose,
on another player's turn too (Law 1.1.3's "the player taking their turn chooses" is for
a choice whose chooser is unclear; this one's is not). The base game met it in the
Marquise's wood and recruits, one piece per building (tests/test_law_marquise.py); these
are the placements of some pieces in each clearing of a filter, which content writes as
the part 'place' 'at' 'each_clearing': a setup step's (the Marquise's garrison, Law
6.3.3, on a pack that leaves her eight warriors), a menu action's (the Corvids' Enlist,
13.4.3) and a trigger's (the raid, 13.7, on another player's turn). While the supply
covers every clearing nothing is asked; when it does not, the player is asked 'clearing
<c>' one piece at a time among the clearings still owed, until the supply or the
clearings run out.
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example_bundle, pack_bundle, past_setup

from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.game import Game
from rootlaw.spec import resolve

HERE = Path(__file__).resolve().parent
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
FOX = ["1", "6", "8", "12"]


def _play(g, text: str) -> None:
    g.apply(g.parse(text))


def _ok(g) -> None:
    assert not list(invariant_violations(g))


def _options(g) -> list[str]:
    return sorted((a.split()[1] for a in g.legal()), key=int)


def _leave_in_supply(g, piece: str, n: int, where: str) -> None:
    """Put all but n of the piece's supply in clearing ``where``."""
    pos.put(g, where, piece, pos.count(g, where, piece) + pos.supply(g, piece) - n)
    assert pos.supply(g, piece) == n


# ------------------------------------------------------------ a setup step (Law 6.3.3)


@pytest.fixture(scope="module")
def few_cats():
    return pack_bundle("few-cats")


@pytest.mark.parametrize("order", [("marquise", "eyrie"), ("alliance", "marquise"),
                                   ("eyrie", "alliance", "marquise")],
                         ids=["me", "am", "eam"])
@CORES
def test_the_garrison_short_of_warriors_asks_where_they_go(few_cats, order, pure):
    """Law 6.3.3 with 1.5.4: a warrior in each clearing but the far corner, eleven, and
    eight in the supply: the Marquise places all eight, one question each, every answer
    a clearing not yet garrisoned; the far corner is never offered."""
    g = Game(list(order), 3, bundle=few_cats, pure=pure)
    cat = pos.seat_of(g, "marquise")
    assert g.compiled is not pure
    while not (g.to_play == cat and g.decision == "setup_home_token"):
        g.apply(g.legal_actions()[0])
    _play(g, "clearing 1")  # the keep; the far corner is 3
    chosen = []
    for left in range(8, 0, -1):
        assert g.to_play == cat and g.phase == "setup" and g.decision == "place"
        options = _options(g)
        assert len(options) == 11 - (8 - left) and "3" not in options
        assert not set(options) & set(chosen)
        pick = options[(len(chosen) * 5) % len(options)]
        _play(g, f"clearing {pick}")
        chosen.append(pick)
        _ok(g)
    assert pos.supply(g, "cat-warrior") == 0
    held = {c: pos.count(g, c, "cat-warrior") for c in g.names["clearings"]}
    assert held == {c: int(c in chosen) for c in held}
    assert g.decision == "setup_buildings_near_home"


@CORES
def test_the_garrison_asks_nothing_while_the_supply_covers_it(pure):
    """The base Marquise (25 warriors) garrisons the eleven clearings with no question."""
    g = Game(["marquise", "eyrie"], 3, bundle=resolve([]), pure=pure)
    _play(g, "clearing 1")
    assert g.decision == "setup_buildings_near_home"
    assert sum(pos.count(g, c, "cat-warrior") for c in g.names["clearings"]) == 11


# -------------------------------------------------------- a menu action (Law 13.4.3)

CORVIDS = "corvid-conspiracy"


@pytest.fixture(scope="module")
def corvids():
    return example_bundle(CORVIDS)


def _enlist_ready(bundle, order, pure, left: int):
    """The Corvids at their Birdsong's actions with a fox card (anvil) in hand and
    ``left`` warriors in the supply, the rest in clearing 3."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, CORVIDS)
    pos.put(g, "1", "corvid", 1)
    _leave_in_supply(g, "corvid", left, "3")
    pos.set_hand(g, me, ["anvil"])
    pos.begin_turn(g, CORVIDS)
    while g.phase == "birdsong" and "enlist anvil 1" not in g.legal():
        _play(g, "done")  # (crafting, flips: none)
    assert g.to_play == me and "enlist anvil 1" in g.legal() and g.compiled is not pure
    return g, me


@pytest.mark.parametrize("order", [("marquise", CORVIDS), (CORVIDS, "eyrie"),
                                   ("eyrie", CORVIDS, "alliance")],
                         ids=["mc", "ce", "eca"])
@CORES
def test_enlist_short_of_warriors_asks_which_clearings(corvids, order, pure):
    """Law 13.4.3 with 1.5.4: a warrior in each fox clearing, four, and two in the
    supply: the Corvids choose the two, among the fox clearings, then go on."""
    g, me = _enlist_ready(corvids, order, pure, left=2)
    _play(g, "enlist anvil 1")
    assert g.to_play == me and g.decision == "place" and _options(g) == FOX
    _play(g, "clearing 12")
    assert g.decision == "place" and _options(g) == ["1", "6", "8"]
    _play(g, "clearing 6")
    _ok(g)
    assert pos.supply(g, "corvid") == 0
    assert {c: pos.count(g, c, "corvid") for c in FOX} == {"1": 1, "6": 1, "8": 0, "12": 1}
    assert g.to_play == me and g.decision != "place" and g.phase == "birdsong"


@pytest.mark.parametrize("order", [("marquise", CORVIDS), ("eyrie", CORVIDS, "alliance")],
                         ids=["mc", "eca"])
@CORES
@pytest.mark.parametrize("left", [4, 0])
def test_enlist_asks_nothing_when_the_supply_covers_it_or_is_empty(corvids, order, pure,
                                                                   left):
    """Four in the supply fill the four fox clearings; none place nothing (the action
    is still offered: its placement is not required, 13.4.3 "place ... in each")."""
    g, me = _enlist_ready(corvids, order, pure, left=left)
    _play(g, "enlist anvil 1")
    assert g.decision != "place"
    assert {c: pos.count(g, c, "corvid") for c in FOX} == \
        {c: (2 if c == "1" else 1) if left else int(c == "1") for c in FOX}


# ------------------------------------------------ a trigger, on another's turn (13.7)

SCHEMERS = "test-schemers"


@pytest.fixture(scope="module")
def plots():
    return pack_bundle("face-down-plots")


@pytest.mark.parametrize("order", [(SCHEMERS, "marquise"), ("marquise", SCHEMERS),
                                   ("eyrie", "marquise", SCHEMERS)],
                         ids=["sm", "ms", "ems"])
@CORES
def test_a_raid_short_of_warriors_asks_its_holder_on_another_s_turn(plots, order, pure):
    """Law 13.7 with 1.5.4: the Marquise's battle removes the schemers' raid in 5; a
    warrior is owed to each clearing adjacent to 5, and one is in the supply: the
    schemers, not the Marquise, choose where it goes, during her turn; then her turn
    goes on."""
    g = past_setup(order, bundle=plots, pure=pure, clear=True, empty_hands=True)
    me, cat = pos.seat_of(g, SCHEMERS), pos.seat_of(g, "marquise")
    pos.put(g, "5", "raid", 1)
    pos.put(g, "5", "cat-warrior", 3)
    _leave_in_supply(g, "schemer", 1, "3")
    around = sorted({str(b) for a, b in plots.map.paths if a == 5} |
                    {str(a) for a, b in plots.map.paths if b == 5}, key=int)
    pos.goto(g, "marquise", "daylight", "actions")
    pos.set_dice(g, 3, 0)
    _play(g, f"battle 5 {SCHEMERS}")
    while g.decision != "place":
        assert g.to_play == cat, g.decision  # (no ambush, no effects to answer)
        g.apply(g.legal_actions()[-1])
    assert pos.count(g, "5", "raid") == 0
    assert g.to_play == me and _options(g) == around
    before = {c: pos.count(g, c, "schemer") for c in around}
    _play(g, f"clearing {around[-1]}")
    _ok(g)
    assert pos.supply(g, "schemer") == 0
    assert {c: pos.count(g, c, "schemer") for c in around} == \
        {c: n + (c == around[-1]) for c, n in before.items()}
    assert g.to_play == cat and g.phase == "daylight"


# ------------------------------------------------------------ at the edges (Law 1.5.4)


@pytest.fixture(scope="module")
def owed_places():
    return pack_bundle("owed-places")


@pytest.mark.parametrize("order", [("marquise", "alliance"), ("alliance", "marquise"),
                                   ("eyrie", "alliance", "marquise")],
                         ids=["ma", "am", "eam"])
@CORES
def test_what_fits_is_owed_and_one_clearing_takes_what_there_is(owed_places, order, pure):
    """A pack's Alliance setup (tests/data/packs/owed-places): four sympathy in each fox
    clearing, one to a clearing (Law 8.2.5.I) and none in the keep's (6.2.2): three
    owed, ten in the supply, so nothing is asked (twelve would be, were the limit not
    counted); then twelve warriors in each clearing opposite another's home, one
    clearing, ten in the supply: all ten go there, nothing asked (no choice can
    matter)."""
    g = Game(list(order), 3, bundle=owed_places, pure=pure)
    ally = pos.seat_of(g, "alliance")
    assert g.compiled is not pure
    while g.phase == "setup":
        assert g.to_play != ally, g.decision  # (the Alliance's setup asks nothing)
        g.apply(g.legal_actions()[0])
    _ok(g)
    keep = next(c for c in g.names["clearings"] if pos.count(g, c, "keep"))
    far = {"1": "3", "2": "4", "3": "1", "4": "2"}[keep]
    assert {c: pos.count(g, c, "sympathy") for c in g.names["clearings"]} == \
        {c: int(c in FOX and c != keep) for c in g.names["clearings"]}
    assert pos.supply(g, "sympathy") == 10 - sum(c != keep for c in FOX)
    assert {c: pos.count(g, c, "alliance-warrior") for c in g.names["clearings"]} == \
        {c: 10 * (c == far) for c in g.names["clearings"]}
    assert pos.supply(g, "alliance-warrior") == 0
