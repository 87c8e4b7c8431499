"""Law 3.3: dominance cards.  Two-player games remove them (Law 5.1.3), so these
positions put one in a hand directly.  Most dominance rules are scenarios
(tests/scenarios/03-victory); the table of corners stays here."""

from __future__ import annotations

import pytest

from rootlaw.runtime import scenario as sc

CAT, BIRD = 0, 1
HAND = 8  # + seat


def _activate(g, seat, card, vp=10):
    """Put a dominance card in a hand and activate it in that player's Daylight."""
    sc.move_card(g, card, HAND + seat, prefer=(2,))
    sc.set_vp(g, seat, vp)
    if seat == CAT:
        sc.goto(g, "marquise", "daylight", "actions")
    else:
        sc.goto(g, "eyrie", "daylight", "craft")
    assert g.to_play == seat
    g.apply(f"activate {card}")
    assert g.state[g.S["DOMINANCE"] + seat] >= 0
    assert not g.is_over


@pytest.mark.parametrize("corners,wins", [
    (("1", "3"), True), (("2", "4"), True),            # opposite corners
    (("1", "2"), False), (("3", "4"), False),          # same side, not opposite
    (("1", "4"), False), (("2", "3"), False),
    (("1", "3", "2"), True),                           # a third corner changes nothing
])
def test_bird_dominance_needs_two_opposite_corners(mid_game, corners, wins):
    """Law 3.3.1.II: an activated bird dominance wins at the start of your Birdsong if
    you rule two clearings in opposite corners (Autumn: 1 & 3, 2 & 4); two corners that
    are not opposite do not win."""
    g = mid_game()
    for c in corners:
        sc.put(g, c, "cat-warrior", 1)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    _activate(g, CAT, "bird-dominance")
    assert all(g.ruler(c) == "marquise" for c in corners)
    sc.goto(g, "eyrie", "evening")  # the Eyrie end their turn; the Marquise's begins
    if wins:
        assert g.is_over and g.winner_faction == "marquise"
    else:
        assert not g.is_over and g.winner_faction is None
        assert g.current == CAT and g.phase == "daylight"
