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


# ------------------------------------------------- the whole of Daylight (Law 3.3.1, 3.3.4)

def test_marquise_reaching_ten_vp_with_her_last_action_may_still_activate(mid_game):
    """Law 3.3.1: dominance may be activated at any time in your Daylight, so reaching
    10 VP with the last action still leaves a chance before Evening."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "1", "sawmill", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.set_hand(g, CAT, ["anvil"])
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    sc.set_vp(g, CAT, 9)
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 1
    g.apply("build sawmill 5")
    assert g.scores[CAT] == 10
    assert g.phase == "daylight" and g.to_play == CAT
    assert set(g.legal()) == {"activate fox-dominance", "done"}
    g.apply("activate fox-dominance")
    assert g.state[g.S["DOMINANCE"] + CAT] >= 0
    assert list(g.legal()) == ["done"]  # still her Daylight until she says so
    g.apply("done")
    assert g.current == BIRD  # her Evening asked nothing; the Eyrie's turn began


def test_eyrie_reaching_ten_vp_in_the_decree_may_activate_before_evening(mid_game):
    """Law 3.3.1: the Eyrie reach 10 VP in a Decree battle; Daylight does not end before
    they may activate."""
    from test_law_general import clear_columns, set_column

    g = mid_game()
    sc.put(g, "12", "bird-warrior", 3)
    sc.put(g, "12", "sawmill", 1)
    sc.put(g, "3", "bird-warrior", 1)
    sc.put(g, "3", "roost", 1)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "fox-dominance", HAND + BIRD, prefer=(2,))
    sc.set_vp(g, BIRD, 9)
    sc.set_role(g, BIRD, "builder")
    clear_columns(g, BIRD)
    set_column(g, BIRD, "battle", ["anvil"])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 1, 0)
    g.apply("battle 12 marquise")
    assert g.scores[BIRD] == 10
    assert g.phase == "daylight" and g.to_play == BIRD
    assert set(g.legal()) == {"activate fox-dominance", "done"}


def test_taking_an_available_dominance_after_activating(mid_game):
    """Law 3.3.4: taking an available dominance card has no condition on having
    activated one; only activating is once."""
    g = mid_game()
    _fox_rule(g)
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    sc.move_card(g, "mouse-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.move_card(g, "rabbit-dominance", HAND + CAT, prefer=(2,))
    sc.move_card(g, "arms-trader", HAND + CAT, prefer=(0, 1))
    sc.set_vp(g, CAT, 12)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("activate fox-dominance")
    legal = set(g.legal())
    assert "take mouse-dominance spending arms-trader" in legal
    assert "activate rabbit-dominance" not in legal


def test_the_daylight_end_question_depends_only_on_public_facts(mid_game):
    """Law 3.3.1 / 1.2: a player at 10+ VP with cards in hand is asked before Evening
    while a dominance card is still in play, whatever the hand holds, so the question
    reveals nothing; with every dominance card out of the game, nobody is asked."""
    g = mid_game()
    sc.set_hand(g, CAT, ["anvil"])
    sc.set_vp(g, CAT, 10)
    sc.move_card(g, "fox-dominance", 0, prefer=(2,))  # back in the deck
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 0
    g.apply("done")
    assert g.phase == "daylight" and g.to_play == CAT and list(g.legal()) == ["done"]
    g.apply("done")
    assert g.current == BIRD
    g = mid_game()  # two players: all dominance cards are out of the game (Law 5.1.3)
    sc.set_hand(g, CAT, ["anvil"])
    sc.set_vp(g, CAT, 10)
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 0
    g.apply("done")
    assert g.current == BIRD


def test_no_dominance_window_after_turmoil(mid_game):
    """Law 7.7.4: Rest ends Daylight at once; the Eyrie go straight to Evening."""
    from test_law_general import clear_columns, set_column

    g = mid_game()
    sc.put(g, "3", "roost", 1)
    sc.set_hand(g, BIRD, ["mouse-crossbow"])
    sc.move_card(g, "fox-dominance", 0, prefer=(2,))
    sc.set_vp(g, BIRD, 12)
    sc.set_role(g, BIRD, "builder")
    clear_columns(g, BIRD)
    set_column(g, BIRD, "recruit", ["anvil"])  # fox recruit, only a rabbit roost: fails
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.to_play == BIRD and all(a.startswith("role ") for a in g.legal())
    g.apply(next(iter(g.legal())))
    # Evening: roost VP and a draw, then the Marquise's turn; no 'done' was asked,
    # although an Eyrie with cards at 12 VP would be asked at a normal Daylight end.
    assert g.hand(BIRD) and g.current == CAT
