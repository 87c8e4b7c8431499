"""Law 3.3: dominance cards.  Two-player games remove them (Law 5.1.3), so these
positions put one in a hand directly."""

from __future__ import annotations

from rootlaw.runtime import scenario as sc

CAT, BIRD = 0, 1
HAND = 8  # + seat
LOC_AVAILABLE = 4


def _fox_rule(g):
    # Marquise rules three fox clearings (1, 6, 8); the Eyrie has only a roost far away.
    for c in ("1", "6", "8"):
        sc.put(g, c, "cat-warrior", 1)
    sc.put(g, "3", "roost", 1)
    sc.put(g, "3", "bird-warrior", 1)


def test_activate_needs_ten_vp_in_daylight(mid_game):
    """Law 3.3.1: in your Daylight with at least 10 VP you may activate dominance."""
    g = mid_game()
    _fox_rule(g)
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    sc.set_vp(g, CAT, 9)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "activate fox-dominance" not in g.legal()
    sc.set_vp(g, CAT, 10)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "activate fox-dominance" in g.legal()


def test_activated_dominance_wins_at_start_of_birdsong(mid_game):
    """Law 3.3.1.I: rule three clearings of the suit at the start of your Birdsong."""
    g = mid_game()
    _fox_rule(g)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    sc.set_vp(g, CAT, 12)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("activate fox-dominance")
    assert not g.is_over  # no win in the turn it is activated
    while not g.is_over and g.turn < 10:
        legal = g.legal()
        g.apply("done" if "done" in legal else g.legal_actions()[0])
    assert g.is_over and g.winner_faction == "marquise"


def test_no_scoring_after_activation(mid_game):
    """Law 3.3.1: with dominance active your score marker leaves the track."""
    g = mid_game()
    sc.put(g, "1", "cat-warrior", 3)
    sc.put(g, "1", "roost", 1)
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    sc.set_vp(g, CAT, 12)
    sc.set_dice(g, 3, 0)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("activate fox-dominance")
    g.apply("battle 1 eyrie")
    assert sc.count(g, "1", "roost") == 0
    assert g.scores[CAT] == 12


def test_take_available_dominance_spending_a_matching_card(mid_game):
    """Law 3.3.3-3.3.4: a discarded dominance is available; spend a matching card (a bird
    for the bird dominance) in Daylight to take it."""
    g = mid_game()
    sc.move_card(g, "fox-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.move_card(g, "bird-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.set_hand(g, CAT, ["anvil", "mouse-in-a-sack", "arms-trader"])
    sc.goto(g, "marquise", "daylight", "actions")
    legal = g.legal()
    assert "take fox-dominance spending anvil" in legal
    assert "take fox-dominance spending arms-trader" in legal  # birds are wild
    assert "take fox-dominance spending mouse-in-a-sack" not in legal
    assert "take bird-dominance spending arms-trader" in legal
    assert "take bird-dominance spending anvil" not in legal  # Law 2.1.1.II
    g.apply("take fox-dominance spending anvil")
    assert "fox-dominance" in g.hand(CAT) and "anvil" not in g.hand(CAT)
