"""The Corvid Conspiracy (Law 13) written from the Law as data only (examples/corvid-
conspiracy: a faction file and a library of programs of the general parts), played
through the engine's own turn flow, in several seat orders, on both cores.  The parts it
is made of are each pinned down on a test pack elsewhere (tests/test_face_down.py: faces
laid face down, turned up, swapped, removed; tests/test_offers.py: Exposure); here they
are this one faction's rules, as its turns play them.  examples/corvid-conspiracy/
scenarios holds a scenario for each numbered rule of its README.
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import past_setup, play_alike

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.game import Game
from rootlaw.runtime.hidden import check_hidden
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent.parent / "examples" / "corvid-conspiracy"
ME = "corvid-conspiracy"
ORDERS = [("marquise", "eyrie", ME), (ME, "marquise"), ("eyrie", ME, "alliance")]
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
SUITS = {"fox": ["1", "6", "8", "12"], "rabbit": ["3", "4", "5", "10"],
         "mouse": ["2", "7", "9", "11"]}


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _play(g, text: str) -> None:
    g.apply(g.parse(text))


def _ok(g) -> None:
    assert not list(invariant_violations(g))


def test_the_pack_is_clean():
    assert list(validate([PACK]).diagnostics) == []


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(x[:3] for x in o))
@CORES
def test_setup_scatters_a_warrior_in_a_clearing_of_each_suit(bundle, order, pure):
    """Law 13.3.2: "Place 1 warrior in any clearing of each suit": three questions, each
    the clearings of one suit (bar another's exclusive placement)."""
    g = Game(list(order), 1, bundle=bundle, pure=pure)
    me = pos.seat_of(g, ME)
    while not (g.to_play == me and g.phase == "setup"):
        g.apply(g.legal_actions()[0])
    for suit in ("fox", "rabbit", "mouse"):
        options = sorted(a.split()[1] for a in g.legal())
        assert options and set(options) <= set(SUITS[suit]), (suit, options)
        _play(g, f"clearing {options[-1]}")
    assert sum(pos.count(g, c, "corvid") for c in g.names["clearings"]) == 3
    assert pos.supply(g, "corvid") == 12 and pos.supply(g, "plot") == 8
    assert g.phase != "setup" or g.to_play != me


def _turn(bundle, order, pure, *, pieces, hand=(), faces=None):
    """The Corvids' turn begun through the turn flow (start of Birdsong) on a cleared
    board holding ``pieces`` (clearing -> piece -> n) and ``faces`` laid face down."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    for c, here in pieces.items():
        for piece, n in here.items():
            pos.put(g, c, piece, n)
    for c, face in (faces or {}).items():
        pos.lay_face_down(g, c, face)
    me = pos.seat_of(g, ME)
    pos.set_hand(g, me, list(hand))
    pos.begin_turn(g, ME)
    assert g.to_play == me and g.compiled is not pure
    return g, me


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(x[:3] for x in o))
@CORES
def test_a_whole_turn(bundle, order, pure):
    """One turn, each step in its place (Law 13.4 to 13.6): flips (one VP per face-up
    plot, the new one counted), an enlist with a fox card, three Daylight actions where
    each plot costs one warrior more (13.5.2), then Exert in Evening instead of the draw
    (13.6.1), whose plot, the turn's third, costs three; the next turn's first plot
    costs one."""
    g, me = _turn(bundle, order, pure,
                  pieces={"5": {"corvid": 2}, "9": {"corvid": 2}, "10": {"corvid": 1},
                          "11": {"corvid": 3}},
                  faces={"10": "snare"}, hand=["anvil", "sword"])
    # Birdsong: craft asks nothing here (no card is craftable: one rabbit plot), flips
    while g.decision == "craft":
        _play(g, "done")
    assert sorted(a for a in g.legal() if a.startswith("flip")) == ["flip 10"]
    vp = g.scores[me]
    _play(g, "flip 10")
    assert g.scores[me] == vp + 1 and pos.count(g, "10", "snare") == 1
    _play(g, "done")
    assert g.decision == "actions" and "enlist anvil 1" in g.legal()
    _play(g, "enlist anvil 1")
    _ok(g)
    assert all(pos.count(g, c, "corvid") >= 1 for c in SUITS["fox"])
    assert g.hand(me) == ["sword"]
    _play(g, "done")
    # Daylight: plots at one, two, then three warriors
    assert g.phase == "daylight"
    _play(g, "plot bomb 5")
    assert pos.count(g, "5", "corvid") == 1
    _play(g, "plot raid 9")
    assert pos.count(g, "9", "corvid") == 0
    # a third costs three: only 11 has them
    assert {a.split()[-1] for a in g.legal() if a.startswith("plot ")} == {"11"}
    _play(g, "move 5->1 x1")
    _ok(g)
    if g.decision == "phase_end":  # (a dominance card to take: Daylight's last window)
        _play(g, "done")
    # Evening: Exert, the turn's third plot, costing three (11's); no draw
    assert g.phase == "evening" and g.decision == "draw_instead"
    hand = len(g.hand(me))
    _play(g, "use exert")
    assert {a.split()[-1] for a in g.legal() if a.startswith("plot ")} == {"11"}
    _play(g, "plot extortion 11")
    assert pos.count(g, "11", "corvid") == 0 and pos.faces_down(g, me)["11"] == "extortion"
    assert len(g.hand(me)) == hand
    assert g.to_play != me or g.phase != "evening"
    # the Corvids' next turn, begun as a turn begins: the first plot costs one again
    pos.begin_turn(g, ME)
    while g.phase == "birdsong":
        _play(g, "done")
    assert g.phase == "daylight" and g.to_play == me
    before = pos.count(g, "12", "corvid")
    _play(g, "plot snare 12")
    assert pos.count(g, "12", "corvid") == before - 1


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(x[:3] for x in o))
@CORES
def test_the_evening_draw_counts_face_up_extortions(bundle, order, pure):
    """Law 13.6.2: one card plus one per face-up extortion; face down ones do not
    count."""
    g, me = _turn(bundle, order, pure,
                  pieces={"1": {"extortion": 1}, "5": {"corvid": 1}},
                  faces={"9": "extortion"})
    pos.goto(g, ME, "evening")
    assert g.decision == "draw_instead"
    _play(g, "done")
    assert len(g.hand(me)) == 1 + 1  # the face-up one in 1, not the one down in 9


@pytest.mark.parametrize("order", [("eyrie", ME), ("marquise", "eyrie", ME)],
                         ids=["em", "mem"])
@CORES
def test_the_eyrie_exposes_between_its_decree_cards(bundle, order, pure):
    """Exposure at the Eyrie's own decisions (Law 13.2.4 with 1.4.1): between two Decree
    cards of its Daylight, where its anytime effects are offered too."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    bird = pos.seat_of(g, "eyrie")
    pos.put(g, "5", "bird-warrior", 2)
    pos.put(g, "5", "roost", 1)
    pos.lay_face_down(g, "5", "extortion")
    pos.set_hand(g, bird, ["bake-sale"])
    pos.set_column(g, bird, "move", ["fox-ambush"])
    pos.goto(g, "eyrie", "daylight")
    assert g.to_play == bird
    guesses = sorted(a for a in g.legal() if a.startswith("expose "))
    assert guesses == [f"expose {f} 5" for f in ("bomb", "extortion", "raid", "snare")]
    vp = g.scores[bird]
    _play(g, "expose extortion 5")
    _play(g, "card bake-sale")
    _ok(g)
    assert pos.count(g, "5", "plot") == 0 and g.scores[bird] == vp + 1
    assert g.hand(bird) == ["bake-sale"] and g.to_play == bird


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: "-".join(x[:3] for x in o))
def test_random_games_agree_on_both_cores_and_keep_the_invariants(bundle, order):
    """Random play, decision by decision the same on the pure and the compiled core,
    the invariants after each; the games end; someone exposes a plot now and then."""
    answered = 0
    for seed in range(2):
        games = play_alike(order, seed, bundle, cap=4000, each=_ok)
        assert games[0].is_over and list(games[0].state) == list(games[1].state)
        answered += sum(e.kind == "answered" for e in games[0].take_events())
    assert answered > 0  # (39, 35 and 17 guesses in these seatings' two games)


@pytest.mark.parametrize("order", [("marquise", ME), (ME, "eyrie", "alliance")],
                         ids=["mc", "cea"])
def test_no_leak_in_random_games(bundle, order):
    rep = check_hidden(bundle, list(order), games=4, seed=11)
    assert rep.pairs > 0 and rep.revealed > 0
    assert rep.ok, "\n".join(map(str, rep.leaks[:5]))
