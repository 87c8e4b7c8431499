"""Law 3.3: dominance cards.  Two-player games remove them (Law 5.1.3), so these
positions put one in a hand directly."""

from __future__ import annotations

import pytest

from rootlaw.runtime import scenario as sc

CAT, BIRD = 0, 1
HAND = 8  # + seat
LOC_AVAILABLE = 4


def _fox_rule(g):
    # Marquise rules three fox clearings (1, 6, 8) firmly enough that the Eyrie's one
    # roost and warrior far away cannot take them within a few turns.
    for c in ("1", "6", "8"):
        sc.put(g, c, "cat-warrior", 3)
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


# ------------------------------------------------------------ 3.3.1.II bird dominance

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


def test_bird_dominance_needs_rule_of_both_corners(mid_game):
    """Law 3.3.1.II with Law 2.5 / 7.2.2: the corners must be ruled; a tie in corner 3
    goes to the Eyrie (Lords of the Forest), so the Marquise's bird dominance does not
    win."""
    g = mid_game()
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "3", "cat-warrior", 1)
    sc.put(g, "3", "bird-warrior", 1)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    _activate(g, CAT, "bird-dominance")
    assert g.ruler("3") == "eyrie"
    sc.goto(g, "eyrie", "evening")
    assert not g.is_over and g.current == CAT


def test_eyrie_bird_dominance_wins_with_lords_of_the_forest(mid_game):
    """Law 3.3.1.II with Law 7.2.2: the Eyrie activate bird dominance (in their Daylight
    craft step) and rule corners 2 and 4 by ties; they win at the start of their next
    Birdsong, not before."""
    g = mid_game()
    for c in ("2", "4"):
        sc.put(g, c, "cat-warrior", 1)
        sc.put(g, c, "bird-warrior", 1)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    _activate(g, BIRD, "bird-dominance", vp=11)
    assert g.ruler("2") == g.ruler("4") == "eyrie"
    sc.goto(g, "marquise", "evening")  # the Marquise ends her turn; the Eyrie's begins
    assert g.is_over and g.winner_faction == "eyrie"


# ------------------------------------------------------ 3.3.3 spent or discarded dominance

LOC_DISCARD = 1


def _where(g, card):
    """Location codes of every physical copy of a card def."""
    d = g.names["cards"].index(card)
    return [g.state[g.S["CARD_LOC"] + i] for i, x in enumerate(g.card_defs) if x == d]


def test_bird_dominance_spent_for_an_extra_action_becomes_available(mid_game):
    """Law 3.3.3: a dominance card can be spent for its suit -- the bird dominance pays
    for a Marquise extra action (Law 6.5) -- and goes to the available cards, not to the
    discard pile."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 1)
    sc.set_hand(g, CAT, ["anvil"])
    sc.move_card(g, "bird-dominance", HAND + CAT, prefer=(2,))
    pile = g.cards_at(LOC_DISCARD)
    sc.goto(g, "marquise", "daylight", "actions")
    legal = g.legal()
    assert "spend bird-dominance" in legal
    assert "spend anvil" not in legal  # control: only a bird pays for an extra action
    left = g.state[g.S["ACTIONS_LEFT"]]
    g.apply("spend bird-dominance")
    assert g.state[g.S["ACTIONS_LEFT"]] == left + 1
    assert _where(g, "bird-dominance") == [LOC_AVAILABLE]
    assert g.cards_at(LOC_DISCARD) == pile
    assert g.hand(CAT) == ["anvil"]


def test_fox_dominance_pays_overwork_and_becomes_available(mid_game):
    """Law 3.3.3 with Overwork (Law 6.5.5): the fox dominance is spent as a fox card at a
    fox sawmill (not at a rabbit one) and then is available, not discarded."""
    g = mid_game()
    sc.put(g, "1", "sawmill", 1)   # fox
    sc.put(g, "5", "sawmill", 1)   # rabbit
    sc.set_hand(g, CAT, [])
    sc.move_card(g, "fox-dominance", HAND + CAT, prefer=(2,))
    pile = g.cards_at(LOC_DISCARD)
    sc.goto(g, "marquise", "daylight", "actions")
    legal = g.legal()
    assert "spend fox-dominance place 1" in legal
    assert "spend fox-dominance place 5" not in legal
    g.apply("spend fox-dominance place 1")
    assert sc.count(g, "1", "wood") == 1
    assert _where(g, "fox-dominance") == [LOC_AVAILABLE]
    assert g.cards_at(LOC_DISCARD) == pile


def test_mouse_dominance_pays_field_hospitals_and_becomes_available(mid_game):
    """Law 3.3.3 with Field Hospitals (Law 6.2.3): the mouse dominance is spent as a
    mouse card for warriors removed in mouse clearing 2; it becomes available."""
    g = mid_game()
    sc.put(g, "1", "keep", 1)
    sc.put(g, "2", "cat-warrior", 3)
    sc.put(g, "2", "bird-warrior", 3)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "mouse-dominance", HAND + CAT, prefer=(2,))
    pile = g.cards_at(LOC_DISCARD)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 2)
    g.apply("battle 2 eyrie")
    assert sc.count(g, "2", "cat-warrior") == 1
    assert g.to_play == CAT
    assert set(g.legal()) == {"spend mouse-dominance", "done"}
    g.apply("spend mouse-dominance")
    assert sc.count(g, "1", "cat-warrior") == 2
    assert _where(g, "mouse-dominance") == [LOC_AVAILABLE]
    assert g.cards_at(LOC_DISCARD) == pile


def test_dominance_discarded_by_the_hand_limit_becomes_available(mid_game):
    """Law 3.3.3 with the hand limit (Law 6.6): a dominance card discarded down to five
    cards is placed with the available cards, not in the discard pile."""
    g = mid_game()
    sc.set_hand(g, CAT, ["anvil", "arms-trader", "bake-sale", "investments", "sword"])
    sc.set_hand(g, BIRD, ["fox-root-tea"])
    sc.move_card(g, "rabbit-dominance", HAND + CAT, prefer=(2,))
    pile = g.cards_at(LOC_DISCARD)
    sc.goto(g, "marquise", "evening")   # draws one: seven cards
    assert len(g.hand(CAT)) == 7
    assert "discard rabbit-dominance" in g.legal()
    g.apply("discard rabbit-dominance")
    assert _where(g, "rabbit-dominance") == [LOC_AVAILABLE]
    assert g.cards_at(LOC_DISCARD) == pile
    g.apply("discard anvil")            # an ordinary card does go to the discard pile
    assert "anvil" in g.cards_at(LOC_DISCARD)


def test_dominance_purged_from_the_decree_becomes_available(mid_game):
    """Law 3.3.3 with Turmoil (Law 7.7.2 Purge): a dominance card tucked in the Decree
    is discarded in the purge, so it goes to the available cards."""
    from test_law_general import clear_columns, set_column

    g = mid_game()
    sc.put(g, "3", "roost", 1)          # a rabbit roost only
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.set_role(g, BIRD, "builder")
    clear_columns(g, BIRD)
    sc.move_card(g, "fox-dominance", sc.column_loc(g, BIRD, "recruit"), prefer=(2,))
    set_column(g, BIRD, "move", ["anvil"])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    # A fox recruit with only a rabbit roost cannot be taken: turmoil.
    assert g.to_play == BIRD and all(a.startswith("role ") for a in g.legal())
    g.apply(next(iter(g.legal())))
    assert _where(g, "fox-dominance") == [LOC_AVAILABLE]
    assert "anvil" in g.cards_at(LOC_DISCARD)


def test_bird_dominance_can_be_spent_as_a_wild_card_to_take_another(mid_game):
    """Law 3.3.3-3.3.4 with Law 2.1.1: the bird dominance is a bird card, so it may be
    spent as a fox card to take the available fox dominance; it then is available."""
    g = mid_game()
    sc.set_hand(g, CAT, [])
    sc.move_card(g, "fox-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.move_card(g, "bird-dominance", HAND + CAT, prefer=(2,))
    pile = g.cards_at(LOC_DISCARD)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("take fox-dominance spending bird-dominance")
    assert g.hand(CAT) == ["fox-dominance"]
    assert _where(g, "bird-dominance") == [LOC_AVAILABLE]
    assert g.cards_at(LOC_DISCARD) == pile


# ------------------------------------------------------ 3.3.1 only during your Daylight

def _dominance_actions(legal):
    return {a for a in legal if a.startswith(("activate ", "take "))}


def test_no_dominance_in_birdsong(mid_game):
    """Law 3.3.1 / 3.3.4: activating and taking are only 'during your Daylight'; the
    Eyrie's Birdsong (adding to the Decree) offers neither, though the same hand and VP
    offer both in Daylight."""
    g = mid_game()
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, ["anvil", "arms-trader"])
    sc.move_card(g, "fox-dominance", HAND + BIRD, prefer=(2,))
    sc.move_card(g, "mouse-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.set_vp(g, BIRD, 12)
    sc.goto(g, "eyrie", "birdsong")
    assert g.phase == "birdsong" and g.to_play == BIRD
    legal = g.legal()
    assert any(a.startswith("add ") for a in legal)
    assert _dominance_actions(legal) == set()
    sc.goto(g, "eyrie", "daylight", "craft")   # control: Daylight offers both
    assert _dominance_actions(g.legal()) >= {"activate fox-dominance",
                                             "take mouse-dominance spending arms-trader"}


@pytest.mark.parametrize("faction,seat", [("marquise", CAT), ("eyrie", BIRD)])
def test_no_dominance_in_evening(mid_game, faction, seat):
    """Law 3.3.1 / 3.3.4: Evening (drawing and discarding down to five) is not
    Daylight: no dominance card can be activated or taken there."""
    g = mid_game()
    other = BIRD if seat == CAT else CAT
    sc.set_hand(g, seat, ["anvil", "arms-trader", "bake-sale", "investments", "sword"])
    sc.set_hand(g, other, ["fox-root-tea"])
    sc.move_card(g, "fox-dominance", HAND + seat, prefer=(2,))
    sc.move_card(g, "mouse-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.set_vp(g, seat, 12)
    sc.goto(g, faction, "evening")
    assert g.phase == "evening" and g.to_play == seat
    legal = g.legal()
    assert "discard fox-dominance" in legal
    assert _dominance_actions(legal) == set()


def test_eyrie_may_activate_between_two_decree_cards(mid_game):
    """Law 3.3.1 with 1.4.2: between two Decree cards no action is under way, so the
    Eyrie at 10+ VP may activate there."""
    from test_law_general import clear_columns, set_column

    g = mid_game()
    sc.put(g, "3", "roost", 1)
    sc.put(g, "3", "bird-warrior", 1)
    sc.set_hand(g, BIRD, [])
    sc.move_card(g, "fox-dominance", HAND + BIRD, prefer=(2,))
    sc.set_vp(g, BIRD, 10)
    sc.set_role(g, BIRD, "builder")
    clear_columns(g, BIRD)
    set_column(g, BIRD, "recruit", ["a-visit-to-friends", "bake-sale"])  # two rabbit cards
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"recruit 3", "activate fox-dominance"}
    g.apply("recruit 3")
    assert set(g.legal()) == {"recruit 3", "activate fox-dominance"}
    g.apply("activate fox-dominance")
    assert set(g.legal()) == {"recruit 3"}
    g.apply("recruit 3")
    assert sc.count(g, "3", "bird-warrior") == 3


def test_no_daylight_end_question_with_an_empty_hand(mid_game):
    """Law 3.3.1 / 3.3.4: activating and taking both need a card in hand; with none,
    Daylight ends without a question."""
    g = mid_game()
    sc.set_hand(g, CAT, [])
    sc.set_vp(g, CAT, 10)
    sc.move_card(g, "fox-dominance", 0, prefer=(2,))  # in the deck: still in play
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 0
    g.apply("done")
    assert g.current == BIRD


def test_take_then_activate_in_the_daylight_end_window(mid_game):
    """Law 3.3.4 then 3.3.1: as Daylight ends, take an available dominance card, then
    activate it before Evening; the window stays open until 'done'."""
    g = mid_game()
    _fox_rule(g)
    sc.set_hand(g, CAT, ["arms-trader"])
    sc.move_card(g, "fox-dominance", LOC_AVAILABLE, prefer=(2,))
    sc.set_vp(g, CAT, 10)
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 0
    g.apply("done")
    assert g.phase == "daylight"
    assert set(g.legal()) == {"take fox-dominance spending arms-trader", "done"}
    g.apply("take fox-dominance spending arms-trader")
    assert g.phase == "daylight" and g.to_play == CAT
    assert set(g.legal()) == {"activate fox-dominance", "done"}


def test_no_daylight_end_question_when_every_dominance_card_lies_face_up(mid_game):
    """Law 3.3.1 / 1.2: a dominance card activated by the other player (or out of the
    game) cannot be in your hand, so it opens no question; one hidden in the deck does."""
    g = mid_game()
    sc.set_hand(g, CAT, ["anvil"])
    sc.set_vp(g, CAT, 10)
    sc.move_card(g, "fox-dominance", 8 + g.consts["P"] + BIRD, prefer=(2,))  # Eyrie play
    g.state[g.S["DOMINANCE"] + BIRD] = g.names["cards"].index("fox-dominance")
    h = g.clone()
    sc.goto(g, "marquise", "daylight", "actions")
    g.state[g.S["ACTIONS_LEFT"]] = 0
    g.apply("done")
    assert g.current == BIRD  # no question
    sc.move_card(h, "mouse-dominance", 0, prefer=(2,))  # hidden in the deck
    sc.goto(h, "marquise", "daylight", "actions")
    h.state[h.S["ACTIONS_LEFT"]] = 0
    h.apply("done")
    assert h.current == CAT and list(h.legal()) == ["done"]
