"""Games of three players (Law 5.1, 3.1.1, 5.1.3, 1.4): setup order, turn order, the tie
rule, dominance in the deck, effects that choose among several players, what a seat is
shown.  The third seat is tests/data/families/test-green until the Woodland Alliance
lands.  Every test runs on the compiled and on the pure core, in more than one seat order.
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import scenario as sc
from rootlaw.runtime.conformance import cores_agree, play_checked

THREE = ("marquise", "eyrie", "test-green")
ORDERS = [THREE, ("test-green", "eyrie", "marquise"), ("eyrie", "test-green", "marquise")]


def three(green_game, order=THREE, seed=1, setup=True, clear=True):
    return green_game(order, seed, bundle_factions=THREE, setup=setup, clear=clear)


@pytest.mark.parametrize("order", ORDERS)
def test_factions_set_up_in_setup_order_whatever_the_seats(green_game, order):
    """Law 5.1.7: in setup order (A, B, C ...) each player sets up their faction: the
    Marquise (keep), the Eyrie (roost), then the third, whatever the seating."""
    g = three(green_game, order, setup=False)
    assert g.num_players == 3 and g.phase == "setup"
    seen = []
    while g.phase == "setup":
        who = g.factions[g.to_play]
        if not seen or seen[-1] != who:
            seen.append(who)
        g.apply(g.legal_actions()[0])
    assert seen == list(THREE)


@pytest.mark.parametrize("order", ORDERS)
def test_turns_go_clockwise_from_the_first_player(green_game, order):
    """Law 5.1.1 and 1.4: the first player is drawn at random; after each turn the next
    seat clockwise takes its turn."""
    g = three(green_game, order, clear=False)
    first = g.current
    assert g.turn == 1
    seen = [first]
    while len(seen) < 4 and not g.is_over:
        t = g.turn
        g.apply("done" if "done" in g.legal() else g.legal_actions()[0])
        if g.turn != t:
            seen.append(g.current)
    assert seen == [first, (first + 1) % 3, (first + 2) % 3, first]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dominance_cards_stay_in_the_deck_with_three_players(green_game, seed):
    """Law 5.1.3: only a two-player game removes the four dominance cards."""
    g = three(green_game, seed=seed, setup=False)
    assert g.cards_at(g.consts["LOC_OUT"]) == []
    hidden = [c for q in range(3) for c in g.hand(q)] + \
        [g.names["cards"][g.card_defs[g.state[g.S["DECK"] + i]]]
         for i in range(g.state[g.S["DECK_LEN"]])]
    assert {"bird-dominance", "fox-dominance", "rabbit-dominance",
            "mouse-dominance"} <= set(hidden)
    assert all(len(g.hand(q)) == 3 for q in range(3))


def finish_tied(g, current, tied, winner):
    """Two seats reach 30 and 34 VP at once, at the end of the current player's turn
    (every other seat at 3): the winner is the given seat."""
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
        sc.set_vp(g, q, 3)
    sc.set_vp(g, tied[0], 30)
    sc.set_vp(g, tied[1], 34)
    sc.goto(g, g.factions[current], "evening")
    assert g.is_over
    assert g.winner == winner


@pytest.mark.parametrize("current,tied,winner", [(0, (1, 2), 1), (1, (0, 2), 2),
                                                  (2, (0, 1), 0), (1, (1, 2), 1)])
def test_tie_goes_to_the_nearest_clockwise_from_the_current_player(green_game, current,
                                                                   tied, winner):
    """Law 3.1.1: several players at 30 VP at once: the one closest in clockwise order
    to the current player wins, the current player included; not the higher score."""
    finish_tied(three(green_game), current, tied, winner)


def test_a_choice_among_other_players_is_asked(green_game):
    """Better Burrow Bank ('you and another player draw a card', must) with two other
    players: the holder chooses which (one other player: no question)."""
    g = three(green_game)
    m = g.factions.index("marquise")
    sc.move_card(g, "better-burrow-bank", g.consts["LOC_PLAY"] + m)
    for q in range(3):
        sc.set_hand(g, q, [])
    before = (m - 1) % 3
    sc.goto(g, g.factions[before], "evening")
    while g.current != m:
        g.apply("done" if "done" in g.legal() else g.legal_actions()[0])
    assert g.decision == "phase_start"
    others = [f for f in g.factions if f != "marquise"]
    assert set(g.legal()) == {f"use better-burrow-bank on {f}" for f in others}
    sizes = [len(g.hand(q)) for q in range(3)]
    g.apply("use better-burrow-bank on test-green")
    G = g.factions.index("test-green")
    assert len(g.hand(m)) == sizes[m] + 1 and len(g.hand(G)) == sizes[G] + 1


@pytest.mark.parametrize("order", ORDERS[:2])
def test_three_player_games_keep_the_invariants_and_the_cores_agree(green_game, order,
                                                                    core_kind):
    """Random three-player games end with a winner, every invariant holding after every
    decision; the compiled and pure cores agree decision by decision."""
    from conftest import green_bundle

    b = green_bundle(*THREE)
    for seed in (1, 2):
        g, problems = play_checked(b, list(order), seed, max_decisions=20_000,
                                   pure=(core_kind == "pure"))
        assert not problems, problems[:3]
        assert g.is_over and g.winner is not None
    if core_kind == "compiled":
        assert cores_agree(b, list(order), 3, 20_000) is None


@pytest.mark.parametrize("looker", ["marquise", "test-green"])
def test_a_hand_shown_is_seen_by_the_looker_alone(green_game, looker):
    """Law 1.2.1 'show' (Codebreakers: 'look at another player's hand'): the looker's
    observation holds the hand it saw; the owner's and the third seat's do not."""
    g = three(green_game)
    me = g.factions.index(looker)
    target = g.factions.index("eyrie")
    third = 3 - me - target
    sc.move_card(g, "codebreakers", g.consts["LOC_PLAY"] + me)
    sc.set_hand(g, target, ["anvil", "sappers"])
    sc.goto(g, looker, "daylight", "actions")
    g.apply("use codebreakers on eyrie")
    assert sorted(g.observation(me)["seen"]["eyrie"]["cards"]) == ["anvil", "sappers"]
    assert g.observation(target)["seen"] == {} and g.observation(third)["seen"] == {}
    off, size = g.observation_layout["seen"]
    assert sum(g.observation_vector(me)[off:off + size]) == 2
    assert sum(g.observation_vector(third)[off:off + size]) == 0


FOUR = ("marquise", "eyrie", "test-green", "test-red")


def test_four_player_games_set_up_take_turns_and_end(green_game, core_kind):
    """Four seats (the two test factions of tests/data/families as the third and
    fourth): setup in setup order (Law 5.1.7, ties by bundle order), every corner taken,
    random games end with a winner, invariants holding; the cores agree."""
    from conftest import green_bundle

    g = green_game(FOUR, 1, setup=False)
    order = []
    while g.phase == "setup":
        who = g.factions[g.to_play]
        if not order or order[-1] != who:
            order.append(who)
        g.apply(g.legal_actions()[0])
    assert order == ["marquise", "test-red", "eyrie", "test-green"]
    b = green_bundle(*FOUR)
    g, problems = play_checked(b, list(FOUR), 2, max_decisions=30_000,
                               pure=(core_kind == "pure"))
    assert not problems, problems[:3]
    assert g.is_over and g.winner is not None
    if core_kind == "compiled":
        assert cores_agree(b, list(FOUR), 3, 30_000) is None


@pytest.mark.parametrize("current,tied,winner", [(3, (0, 2), 0), (1, (0, 3), 3),
                                                  (2, (3, 1), 3), (0, (0, 1), 0)])
def test_four_player_tie_goes_to_the_nearest_clockwise_from_the_current_player(
        green_game, current, tied, winner):
    """Law 3.1.1 at four seats: of two players at 30 VP at once, the one nearest in
    clockwise order from the current player wins (the current player included), seat
    order wrapping past the last seat; the higher score does not matter."""
    finish_tied(green_game(FOUR, 1), current, tied, winner)


@pytest.mark.parametrize("order", [FOUR, ("test-red", "test-green", "eyrie", "marquise")])
def test_four_player_turns_go_clockwise_and_wrap(green_game, order):
    """Law 1.4 and 5.1.1 at four seats: after each turn the next seat clockwise plays,
    the last seat followed by the first."""
    g = green_game(order, 1, bundle_factions=FOUR, clear=False)
    first = g.current
    seen = [first]
    while len(seen) < 5 and not g.is_over:
        t = g.turn
        g.apply("done" if "done" in g.legal() else g.legal_actions()[0])
        if g.turn != t:
            seen.append(g.current)
    assert seen == [first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4, first]
