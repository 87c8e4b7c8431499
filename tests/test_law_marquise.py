"""Law of Root, section 6: the Marquise de Cat.

Every test runs on both cores (fixtures ``new_game`` / ``mid_game`` from conftest) and
cites the Law section it checks.  Positions are built with ``rootlaw.runtime.scenario``.

Autumn map reminders: paths 1-5,1-9,1-10,2-5,2-6,2-10,3-6,3-7,3-11,4-8,4-9,4-12,6-11,
7-8,7-12,9-12,10-12,11-12; suits 1 fox, 2 mouse, 3-5 rabbit, 6 fox, 7 mouse, 8 fox,
9 mouse, 10 rabbit, 11 mouse, 12 fox; slots 1:1 2:2 3:1 4:1 5:2 6:2(1 ruin) 7:2 8:2
9:2 10:2(1 ruin) 11:3(1 ruin) 12:2(1 ruin).
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import scenario as sc

M, E = 0, 1  # seats: marquise, eyrie

LOC_DISCARD, LOC_RESERVE = 1, 3
WOOD_COST = [0, 1, 2, 3, 3, 4]
VP_TRACK = {
    "sawmill": [0, 1, 2, 3, 4, 5],
    "workshop": [0, 2, 2, 3, 4, 5],
    "recruiter": [0, 1, 2, 3, 3, 4],
}

# Cards by suit, used for their suit alone (none of the tests below crafts them): rabbit,
# fox, mouse, bird.
RABBIT, FOX, MOUSE, BIRD = "cobbler", "tax-collector", "codebreakers", "armorers"


# ---------------------------------------------------------------- helpers

def on_board(g, piece):
    return sum(sc.count(g, c, piece) for c in g.names["clearings"])


def out_of_game(g, piece):
    return g.state[g.S["OUT"] + sc.piece_index(g, piece)]


def set_decree(g, cols):
    """Empty the Eyrie Decree (viziers to reserve, other cards to the discard pile),
    then put the given cards in the given columns."""
    lo = sc.column_loc(g, E, "recruit")
    hi = lo + g.consts["L"]
    defs = sc.card_defs(g)
    for i in range(g.consts["N"]):
        loc = g.state[g.S["CARD_LOC"] + i]
        if lo <= loc < hi:
            vizier = g.names["cards"][defs[i]] == "loyal-vizier"
            g.state[g.S["CARD_LOC"] + i] = LOC_RESERVE if vizier else LOC_DISCARD
    for col, cards in cols.items():
        for cid in cards:
            sc.move_card(g, cid, sc.column_loc(g, E, col), prefer=(LOC_RESERVE, 0, 1))


def scenario(mid_game, m_hand=(), e_hand=(), decree=None):
    """A cleared board, known hands, an empty (or given) Decree."""
    g = mid_game()
    sc.set_hand(g, M, list(m_hand))
    sc.set_hand(g, E, list(e_hand))
    set_decree(g, decree or {})
    for seat in (M, E):
        sc.set_vp(g, seat, 0)
    return g


def no_foil(g):
    """Decline the foil question the Marquise is asked after an ambush (her hand is
    not empty, but holds no matching ambush)."""
    assert g.to_play == M and set(g.legal()) == {"done"}
    g.apply("done")


def march(g, *moves):
    """One March action: one or two moves; a single move closes with 'done'."""
    g.apply(moves[0])
    if len(moves) == 2:
        g.apply(moves[1])
    else:
        assert "done" in g.legal()  # Law 6.5.2: the second move is optional
        g.apply("done")


# ---------------------------------------------------------------- 6.3 setup

def test_setup_keep_warriors_and_buildings(new_game):
    """Law 6.3.1-6.3.5 (and 7.3.2): keep in a corner; a warrior everywhere except the
    opposite corner; one sawmill, workshop and recruiter in or next to the keep
    clearing; 25 warriors in all; the Eyrie then takes the opposite corner."""
    g = new_game()
    assert g.phase == "setup" and g.to_play == M
    # Law 6.3.2: the keep goes in any corner clearing.
    assert set(g.legal()) == {"clearing 1", "clearing 2", "clearing 3", "clearing 4"}
    g.apply("clearing 2")
    assert sc.count(g, "2", "keep") == 1
    # Law 6.3.3: one warrior in every clearing except the corner opposite the keep (4).
    for c in g.names["clearings"]:
        assert sc.count(g, c, "cat-warrior") == (0 if c == "4" else 1), c
    # Law 6.3.1: a supply of 25 warriors.
    assert on_board(g, "cat-warrior") + sc.supply(g, "cat-warrior") == 25
    assert sc.supply(g, "cat-warrior") == 25 - 11
    # Law 6.3.4: buildings in the keep clearing or adjacent ones (2: 5, 6, 10), open slots.
    assert set(g.legal()) == {"clearing 2", "clearing 5", "clearing 6", "clearing 10"}
    g.apply("clearing 6")  # sawmill; 6 has 2 slots, one ruin: now full
    assert sc.count(g, "6", "sawmill") == 1
    assert set(g.legal()) == {"clearing 2", "clearing 5", "clearing 10"}
    g.apply("clearing 10")  # workshop; 10 is now full as well
    assert sc.count(g, "10", "workshop") == 1
    assert set(g.legal()) == {"clearing 2", "clearing 5"}
    g.apply("clearing 2")  # recruiter
    assert sc.count(g, "2", "recruiter") == 1
    # Law 6.3.5: exactly one of each building on the map, five on each track.
    for b in ("sawmill", "workshop", "recruiter"):
        assert on_board(g, b) == 1, b
        assert sc.supply(g, b) == 5, b
    assert on_board(g, "wood") == 0 and sc.supply(g, "wood") == 8
    # Law 7.3.2: the Eyrie corner is the one opposite the keep.
    assert g.to_play == E
    assert set(g.legal()) == {"clearing 4"}


def test_setup_buildings_only_near_the_keep(new_game):
    """Law 6.3.4: setup buildings go only in the keep clearing or clearings adjacent to
    it (keep in 1: 1, 5, 9, 10), never farther away."""
    g = new_game()
    g.apply("clearing 1")
    legal = set(g.legal())
    assert legal == {"clearing 1", "clearing 5", "clearing 9", "clearing 10"}
    assert "clearing 12" not in legal and "clearing 2" not in legal
    g.apply("clearing 9")  # sawmill
    g.apply("clearing 9")  # workshop: 9 has 2 slots, now full
    assert sc.count(g, "9", "sawmill") == 1 and sc.count(g, "9", "workshop") == 1
    assert "clearing 9" not in g.legal()
    g.apply("clearing 1")
    assert sc.count(g, "1", "recruiter") == 1
    assert g.to_play == E and set(g.legal()) == {"clearing 3"}


# ---------------------------------------------------------------- 6.2.2 the keep

def test_keep_eyrie_cannot_recruit_in_keep_clearing(mid_game):
    """Law 6.2.2: only the Marquise may place pieces in the keep clearing, so an Eyrie
    roost there cannot recruit (Law 7.5.2.I), while a roost elsewhere can."""
    g = scenario(mid_game, decree={"recruit": [BIRD]})
    sc.put(g, "1", "keep", 1)
    sc.put(g, "1", "roost", 1)
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    legal = set(g.legal())
    assert "recruit 3" in legal
    assert "recruit 1" not in legal


def test_keep_eyrie_cannot_build_in_keep_clearing(mid_game):
    """Law 6.2.2: the Eyrie cannot build a roost in the keep clearing even when it
    rules it (Law 7.5.2.IV); it can in another matching clearing it rules."""
    g = scenario(mid_game, decree={"build": [FOX]})
    sc.put(g, "1", "keep", 1)
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "8", "bird-warrior", 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.ruler("1") == "eyrie"
    legal = set(g.legal())
    assert "build roost 8" in legal
    assert "build roost 1" not in legal


def test_keep_does_not_stop_eyrie_moving_in(mid_game):
    """Law 6.2.2 restricts placing, not moving: Eyrie warriors may move into the keep
    clearing."""
    g = scenario(mid_game, decree={"move": [BIRD]})
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "bird-warrior", 2)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    g.apply("move 5->1 x2")
    assert sc.count(g, "1", "bird-warrior") == 2


def test_keep_removed_leaves_the_game(mid_game):
    """Law 6.2.2: a removed keep is removed from the game: it never returns to the
    supply; the remover scores 1 VP (Law 3.2.1)."""
    g = scenario(mid_game, decree={"battle": [FOX]})
    sc.put(g, "1", "keep", 1)
    sc.put(g, "1", "bird-warrior", 2)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    out_before = out_of_game(g, "keep")
    sc.set_dice(g, 0, 0)  # defenseless: 1 hit (Law 4.3.5.II)
    g.apply("battle 1 marquise")
    assert sc.count(g, "1", "keep") == 0
    assert sc.supply(g, "keep") == 0
    assert out_of_game(g, "keep") == out_before + 1
    assert g.scores[E] == 1


def test_keep_gone_lifts_placement_ban(mid_game):
    """Law 6.2.2: with the keep removed from the game, nothing stops the Eyrie placing
    in that clearing any more (it can build a roost there)."""
    g = scenario(mid_game, decree={"battle": [FOX], "build": [FOX]})
    sc.put(g, "1", "keep", 1)
    sc.put(g, "1", "bird-warrior", 2)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 0, 0)
    g.apply("battle 1 marquise")
    assert sc.count(g, "1", "keep") == 0
    assert "build roost 1" in g.legal()


def test_keep_does_not_limit_the_marquise(mid_game):
    """Law 6.2.2: the keep stops only other players placing pieces in its clearing; the
    Marquise herself builds (Law 6.5.4), recruits (6.5.3) and overworks (6.5.5) there."""
    g = scenario(mid_game, m_hand=[RABBIT, MOUSE])
    sc.put(g, "2", "keep", 1)  # 2: mouse, two open slots
    sc.put(g, "2", "cat-warrior", 1)
    sc.put(g, "2", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    legal = set(g.legal())
    assert {"build sawmill 2", "build workshop 2", "recruit"} <= legal
    g.apply("build sawmill 2")  # the first sawmill costs no wood
    assert sc.count(g, "2", "sawmill") == 1
    g.apply("recruit")
    assert sc.count(g, "2", "cat-warrior") == 2
    assert f"spend {MOUSE} place 2" in g.legal()
    g.apply(f"spend {MOUSE} place 2")
    assert sc.count(g, "2", "wood") == 1
    assert sc.count(g, "2", "keep") == 1


# ---------------------------------------------------------------- 6.2.3 field hospitals

def _marquise_battle_in_5(g, high, low):
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, high, low)
    g.apply("battle 5 eyrie")


def test_field_hospitals_return_removed_warriors_to_keep(mid_game):
    """Law 6.2.3: when Marquise warriors are removed in a battle, she may spend a card
    matching the battle clearing (5: rabbit) to put them in the keep clearing."""
    g = scenario(mid_game, m_hand=[RABBIT, FOX])
    sc.put(g, "1", "keep", 1)
    _marquise_battle_in_5(g, 3, 2)  # cats deal 3, birds deal 2
    assert sc.count(g, "5", "bird-warrior") == 0
    assert sc.count(g, "5", "cat-warrior") == 1
    assert g.to_play == M
    assert set(g.legal()) == {f"spend {RABBIT}", "done"}  # the fox card does not match
    supply_before = sc.supply(g, "cat-warrior")
    g.apply(f"spend {RABBIT}")
    assert sc.count(g, "1", "cat-warrior") == 2
    assert sc.count(g, "5", "cat-warrior") == 1
    assert sc.supply(g, "cat-warrior") == supply_before - 2
    assert RABBIT not in g.hand(M) and RABBIT in g.cards_at(LOC_DISCARD)
    assert FOX in g.hand(M)


def test_field_hospitals_bird_card_matches(mid_game):
    """Law 6.2.3 with Law 2.1.1: a bird card matches any clearing."""
    g = scenario(mid_game, m_hand=[BIRD])
    sc.put(g, "1", "keep", 1)
    _marquise_battle_in_5(g, 3, 2)
    assert f"spend {BIRD}" in g.legal() and g.to_play == M
    g.apply(f"spend {BIRD}")
    assert sc.count(g, "1", "cat-warrior") == 2


def test_field_hospitals_may_be_declined(mid_game):
    """Law 6.2.3: field hospitals is optional; declining sends warriors to supply."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "1", "keep", 1)
    _marquise_battle_in_5(g, 3, 2)
    g.apply("done")
    assert sc.count(g, "1", "cat-warrior") == 0
    assert RABBIT in g.hand(M)
    assert sc.supply(g, "cat-warrior") == 25 - 1


def test_field_hospitals_needs_matching_card(mid_game):
    """Law 6.2.3: with no card matching the clearing, nothing is offered."""
    g = scenario(mid_game, m_hand=[FOX, MOUSE])
    sc.put(g, "1", "keep", 1)
    _marquise_battle_in_5(g, 3, 2)
    # She is asked (cards in hand, a keep, warriors removed: all public), but no card
    # matches clearing 5, so only 'done' is open.
    assert g.to_play == M and set(g.legal()) == {"done"}
    g.apply("done")
    assert sc.count(g, "1", "cat-warrior") == 0
    assert sorted(g.hand(M)) == sorted([FOX, MOUSE])


def test_daylight_craft_question_is_asked_whatever_the_hand(mid_game):
    """Law 6.5.1 / 4.1 with Law 1.2: with an unused workshop and cards in hand she is
    asked about crafting even when nothing can be crafted (only 'done'); with no
    workshop she is not."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "workshop", 1)
    sc.goto(g, "marquise", "daylight")
    assert g.to_play == M and set(g.legal()) == {"done"}
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    assert "move 5->1 x1" in g.legal()  # straight to the actions


def test_field_hospitals_not_offered_without_keep(mid_game):
    """Law 6.2.3: the warriors go to the keep clearing; with no keep on the map the
    ability cannot be used."""
    g = scenario(mid_game, m_hand=[RABBIT])
    assert on_board(g, "keep") == 0
    _marquise_battle_in_5(g, 3, 2)
    legal = set(g.legal())
    assert f"spend {RABBIT}" not in legal
    assert RABBIT in g.hand(M)
    assert on_board(g, "cat-warrior") == 1


def test_field_hospitals_after_ambush(mid_game):
    """Law 6.2.3 with 4.3.1.II: warriors removed by an ambush can be saved too."""
    g = scenario(mid_game, m_hand=[RABBIT], e_hand=["rabbit-ambush"])
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("battle 5 eyrie")
    assert g.to_play == E and "spend rabbit-ambush" in g.legal()
    g.apply("spend rabbit-ambush")
    no_foil(g)
    # Two hits remove both attacking warriors; the battle ends (Law 4.3.1.II).
    assert sc.count(g, "5", "cat-warrior") == 0
    assert sc.count(g, "5", "bird-warrior") == 1
    assert g.to_play == M and set(g.legal()) == {f"spend {RABBIT}", "done"}
    g.apply(f"spend {RABBIT}")
    assert sc.count(g, "1", "cat-warrior") == 2


def test_field_hospitals_after_ambush_at_the_keep_battle_goes_on(mid_game):
    """Law 6.2.3 with 4.3.1.II and the Law FAQ on 6.2.3: warriors an ambush removes in
    the keep's clearing return at once, before the "no attacking warriors" check, so
    the battle goes on to the roll."""
    g = scenario(mid_game, m_hand=[RABBIT], e_hand=["rabbit-ambush"])
    sc.put(g, "5", "keep", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 eyrie")
    g.apply("spend rabbit-ambush")
    no_foil(g)
    assert sc.count(g, "5", "cat-warrior") == 0
    assert g.to_play == M and set(g.legal()) == {f"spend {RABBIT}", "done"}
    g.apply(f"spend {RABBIT}")
    # Both warriors are back in clearing 5: the roll happens (3 hits, capped at the
    # two attacking warriors, take the one bird warrior; the Eyrie deal 0).
    assert sc.count(g, "5", "cat-warrior") == 2
    assert sc.count(g, "5", "bird-warrior") == 0


def test_field_hospitals_after_ambush_with_the_marquise_in_the_second_seat(new_game):
    """Law 6.2.3 (FAQ) whatever the seating: with the Eyrie in seat 0 and the Marquise
    in seat 1, warriors an ambush removes at the keep still come back at once."""
    g = new_game(factions=("eyrie", "marquise"))
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    m, e = sc.seat_of(g, "marquise"), sc.seat_of(g, "eyrie")
    assert (m, e) == (1, 0)
    sc.set_hand(g, m, [RABBIT])
    sc.set_hand(g, e, ["rabbit-ambush"])
    sc.put(g, "5", "keep", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 eyrie")
    g.apply("spend rabbit-ambush")
    g.apply("done")  # no foil
    assert g.to_play == m and set(g.legal()) == {f"spend {RABBIT}", "done"}
    g.apply(f"spend {RABBIT}")
    assert sc.count(g, "5", "cat-warrior") == 2
    assert sc.count(g, "5", "bird-warrior") == 0


def test_field_hospitals_after_ambush_elsewhere_battle_ends(mid_game):
    """Law 4.3.1.II: saved warriors go to the keep's clearing, not the battle, so with
    no attacker left in the battle clearing the battle ends without a roll."""
    g = scenario(mid_game, m_hand=[RABBIT], e_hand=["rabbit-ambush"])
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 eyrie")
    g.apply("spend rabbit-ambush")
    no_foil(g)
    g.apply(f"spend {RABBIT}")
    assert sc.count(g, "1", "cat-warrior") == 2
    assert sc.count(g, "5", "bird-warrior") == 1  # no roll took place
    assert g.to_play == M and g.phase == "daylight"


def test_field_hospitals_when_defending(mid_game):
    """Law 6.2.3: it also works when the Marquise is the defender."""
    g = scenario(mid_game, m_hand=[FOX], decree={"battle": [BIRD]})
    sc.put(g, "4", "keep", 1)
    sc.put(g, "8", "cat-warrior", 2)
    sc.put(g, "8", "bird-warrior", 3)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 2, 0)
    g.apply("battle 8 marquise")
    assert g.to_play == M and set(g.legal()) == {"done"}  # asked about an ambush
    g.apply("done")
    assert sc.count(g, "8", "cat-warrior") == 0
    assert g.to_play == M and f"spend {FOX}" in g.legal()
    g.apply(f"spend {FOX}")
    assert sc.count(g, "4", "cat-warrior") == 2


@pytest.mark.parametrize("high, keep_left", [(3, 0), (2, 1)])
def test_field_hospitals_not_offered_when_the_keep_falls_with_the_warriors(
        mid_game, high, keep_left):
    """Law 6.2.3 with 1.5.4 (remove all pieces removed at once before triggering
    effects) and 6.2.2: when the same hits remove the Marquise warriors and the keep in
    its clearing, the keep is gone when field hospitals would trigger: there is no keep
    clearing to return to, so nothing is offered.  With the keep left standing, it is."""
    g = scenario(mid_game, m_hand=[FOX], decree={"battle": [FOX], "build": [FOX]})
    sc.put(g, "1", "keep", 1)  # 1: fox
    sc.put(g, "1", "cat-warrior", 2)
    sc.put(g, "1", "bird-warrior", 3)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, high, 0)  # the Eyrie deal 3: two warriors and the keep; or 2
    g.apply("battle 1 marquise")
    assert g.to_play == M and set(g.legal()) == {"done"}  # asked about an ambush
    g.apply("done")
    assert sc.count(g, "1", "cat-warrior") == 0
    assert sc.count(g, "1", "keep") == keep_left
    if keep_left:
        assert g.to_play == M and set(g.legal()) == {f"spend {FOX}", "done"}
        return
    # No field hospitals question: the Eyrie go on with their Decree (the keep gone,
    # they may build in its clearing).
    assert g.to_play == E and set(g.legal()) == {"build roost 1"}
    assert g.hand(M) == [FOX]
    assert on_board(g, "cat-warrior") == 0
    assert sc.supply(g, "cat-warrior") == 25
    assert g.scores[E] == 1  # the keep


# ---------------------------------------------------------------- 6.4 birdsong

def test_birdsong_wood_per_sawmill(mid_game):
    """Law 6.4: in Birdsong, one wood in each clearing per sawmill there."""
    g = scenario(mid_game)
    sc.put(g, "5", "sawmill", 2)
    sc.put(g, "1", "sawmill", 1)
    sc.goto(g, "marquise", "birdsong")
    assert sc.count(g, "5", "wood") == 2
    assert sc.count(g, "1", "wood") == 1
    assert on_board(g, "wood") == 3
    assert g.phase == "daylight" and g.current == M


@pytest.mark.parametrize("choice, other", [("5", "1"), ("1", "5")])
def test_birdsong_short_wood_placed_where_the_marquise_chooses(mid_game, choice, other):
    """Law 6.4 with Law 1.5.4 / 1.1.3: with too little wood for every sawmill, the wood
    that is left is placed as far as it goes, and the Marquise chooses where."""
    g = scenario(mid_game)
    sc.put(g, "12", "wood", 7)
    sc.put(g, "5", "sawmill", 2)
    sc.put(g, "1", "sawmill", 1)
    sc.goto(g, "marquise", "birdsong")
    assert g.phase == "birdsong" and g.to_play == M
    assert sorted(g.legal()) == ["clearing 1", "clearing 5"]
    g.apply(f"clearing {choice}")
    assert sc.supply(g, "wood") == 0
    assert on_board(g, "wood") == 8
    assert sc.count(g, choice, "wood") == 1 and sc.count(g, other, "wood") == 0
    assert g.phase == "daylight"  # the supply is empty: nothing more to place


def test_birdsong_short_wood_choice_per_piece(mid_game):
    """Law 6.4 / 1.5.4: two wood for three sawmills: each piece is placed by choice, and
    a clearing is never owed more than its sawmills."""
    g = scenario(mid_game)
    sc.put(g, "12", "wood", 6)
    sc.put(g, "5", "sawmill", 2)
    sc.put(g, "1", "sawmill", 1)
    sc.goto(g, "marquise", "birdsong")
    assert sorted(g.legal()) == ["clearing 1", "clearing 5"]
    g.apply("clearing 1")
    # Clearing 1 has had its one wood; only clearing 5 is still owed, so the last
    # wood goes there without a question.
    assert g.phase == "daylight"
    assert sc.count(g, "1", "wood") == 1 and sc.count(g, "5", "wood") == 1
    assert sc.supply(g, "wood") == 0


def test_birdsong_short_wood_in_one_clearing_needs_no_choice(mid_game):
    """Law 6.4 / 1.5.4: when only one clearing has sawmills, the short supply goes there
    as far as it reaches; there is nothing to choose."""
    g = scenario(mid_game)
    sc.put(g, "12", "wood", 7)
    sc.put(g, "5", "sawmill", 2)
    sc.goto(g, "marquise", "birdsong")
    assert g.phase == "daylight"
    assert sc.count(g, "5", "wood") == 1
    assert sc.supply(g, "wood") == 0


# ---------------------------------------------------------------- 6.5 daylight

def test_daylight_craft_comes_first(mid_game):
    """Law 6.5 / 6.2.1: in Daylight the Marquise crafts first (with workshops), then
    takes actions; crafting is not offered once actions begin."""
    g = scenario(mid_game, m_hand=["anvil", "foxfolk-steel"])
    sc.put(g, "1", "workshop", 1)  # fox
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    legal = set(g.legal())
    assert "craft anvil" in legal and "done" in legal
    assert "recruit" not in legal and "move 5->1 x1" not in legal
    g.apply("craft anvil")
    assert g.scores[M] == 2  # Law 3.2.2: the item's printed VP
    assert "recruit" in g.legal()
    g.apply("recruit")
    assert not any(a.startswith("craft") for a in g.legal())


def test_daylight_three_actions(mid_game):
    """Law 6.5: three actions, then Daylight ends (no bird card to spend)."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    march(g, "move 5->1 x1")
    march(g, "move 5->2 x1")
    assert g.phase == "daylight" and g.current == M
    assert "move 1->9 x1" in g.legal()
    march(g, "move 1->9 x1")
    # Three actions are spent.  With cards in hand she is asked about extra actions
    # (Law 6.5; asked on public facts), but no bird card: only 'done'.
    assert g.current == M and set(g.legal()) == {"done"}
    g.apply("done")
    assert g.current == E and g.to_play == E


def test_daylight_extra_action_per_bird_card(mid_game):
    """Law 6.5: each bird card spent (not as part of an action) gives one more action;
    a non-bird card cannot be spent this way."""
    g = scenario(mid_game, m_hand=[BIRD, RABBIT])
    sc.put(g, "5", "cat-warrior", 4)
    sc.goto(g, "marquise", "daylight")
    for mv in ("move 5->1 x1", "move 5->2 x1", "move 1->9 x1"):
        march(g, mv)
    assert g.current == M and g.phase == "daylight"
    assert set(g.legal()) == {f"spend {BIRD}", "done"}
    g.apply(f"spend {BIRD}")
    assert g.hand(M) == [RABBIT]
    assert BIRD in g.cards_at(LOC_DISCARD)
    assert "move 5->2 x1" in g.legal()
    march(g, "move 5->2 x1")
    assert set(g.legal()) == {"done"}  # the rabbit card buys no action
    g.apply("done")
    assert g.current == E


def test_daylight_bird_spent_before_other_actions(mid_game):
    """Law 6.5: a bird card may be spent at any time in Daylight: four actions."""
    g = scenario(mid_game, m_hand=[BIRD])
    sc.put(g, "5", "cat-warrior", 4)
    sc.goto(g, "marquise", "daylight")
    g.apply(f"spend {BIRD}")
    for mv in ("move 5->1 x1", "move 5->2 x1", "move 1->9 x1"):
        march(g, mv)
    assert g.current == M and "move 5->1 x1" in g.legal()  # the fourth action
    march(g, "move 5->1 x1")
    assert g.current == E


def test_march_is_up_to_two_moves(mid_game):
    """Law 6.5.2: a March is up to two moves and costs one action; the second move is
    optional ('done'), and nothing else can be done between the two moves."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("move 5->1 x2")
    legal = set(g.legal())
    assert "done" in legal and "move 1->9 x2" in legal
    assert "recruit" not in legal  # still inside the march
    g.apply("move 1->9 x2")
    # Both moves are taken: the march is over, back to the action menu.
    assert sc.count(g, "9", "cat-warrior") == 2
    legal = set(g.legal())
    assert "recruit" in legal
    # Two more marches of two moves each, then Daylight is over: 3 actions in all.
    g.apply("move 9->12 x2")
    g.apply("move 12->10 x2")
    assert g.current == M
    g.apply("move 5->2 x1")
    g.apply("move 2->6 x1")
    assert set(g.legal()) == {"done"}  # actions spent; the rabbit card buys none
    g.apply("done")
    assert g.current == E
    assert sc.count(g, "10", "cat-warrior") == 2 and sc.count(g, "6", "cat-warrior") == 1


def test_march_second_move_optional(mid_game):
    """Law 6.5.2: 'up to' two moves: a march of one move then 'done' is one action."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    g.apply("move 5->1 x1")
    g.apply("done")
    assert g.current == M and g.phase == "daylight"
    assert sc.count(g, "1", "cat-warrior") == 1
    assert "move 5->1 x1" in g.legal()  # an action menu again, not the march frame


def test_recruit_one_per_recruiter(mid_game):
    """Law 6.5.3: recruit places one warrior at each recruiter."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "recruiter", 2)
    sc.put(g, "8", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("recruit")
    assert sc.count(g, "5", "cat-warrior") == 2
    assert sc.count(g, "8", "cat-warrior") == 1
    assert on_board(g, "cat-warrior") == 3


def test_recruit_short_of_warriors_marquise_chooses(mid_game):
    """Law 6.5.3 with Law 1.5.4 / 1.1.3: with fewer warriors in supply than recruiters,
    the Marquise places what is left at recruiters of her choice, one at a time."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "12", "cat-warrior", 25 - 2)
    sc.put(g, "5", "recruiter", 2)
    sc.put(g, "8", "recruiter", 1)
    sc.put(g, "9", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("recruit")
    assert g.to_play == M
    assert sorted(g.legal()) == ["clearing 5", "clearing 8", "clearing 9"]
    g.apply("clearing 9")
    assert sorted(g.legal()) == ["clearing 5", "clearing 8"]
    g.apply("clearing 5")
    assert sc.supply(g, "cat-warrior") == 0
    assert [sc.count(g, c, "cat-warrior") for c in ("5", "8", "9")] == [1, 0, 1]
    assert "recruit" not in g.legal()  # back at the action menu; recruit is spent


def test_recruit_with_enough_warriors_asks_nothing(mid_game):
    """Law 6.5.3: with warriors for every recruiter, they are all placed at once."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "12", "cat-warrior", 25 - 3)
    sc.put(g, "5", "recruiter", 2)
    sc.put(g, "8", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("recruit")
    assert not any(a.startswith("clearing ") for a in g.legal())
    assert sc.count(g, "5", "cat-warrior") == 2 and sc.count(g, "8", "cat-warrior") == 1
    assert sc.supply(g, "cat-warrior") == 0


def test_recruit_once_per_turn(mid_game):
    """Law 6.5.3: recruit only once per turn, even with actions left."""
    g = scenario(mid_game, m_hand=[RABBIT, BIRD])
    sc.put(g, "5", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    assert "recruit" in g.legal()
    g.apply("recruit")
    assert g.current == M
    assert "recruit" not in g.legal()
    g.apply(f"spend {BIRD}")
    assert "recruit" not in g.legal()


def test_recruit_needs_a_recruiter(mid_game):
    """Law 6.5.3: no recruiter on the map, no recruit."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    assert "recruit" not in g.legal()


@pytest.mark.parametrize("building", ["sawmill", "workshop", "recruiter"])
def test_build_cost_and_vp_follow_the_track(mid_game, building):
    """Law 6.5.4 / 6.5.4.III: the k+1-th building of a type costs WOOD_COST[k] wood and
    scores the uncovered VP (sawmill 0,1,2,3,4,5; workshop 0,2,2,3,4,5; recruiter
    0,1,2,3,3,4); with one wood too few it cannot be built."""
    base = scenario(mid_game, m_hand=[RABBIT])
    hosts = ["7", "7", "8", "8", "9"]
    for k in range(6):
        g = base.clone()
        for c in hosts[:k]:
            sc.put(g, c, building, sc.count(g, c, building) + 1)
        sc.put(g, "5", "cat-warrior", 1)
        if WOOD_COST[k] > 0:
            short = g.clone()
            sc.put(short, "5", "wood", WOOD_COST[k] - 1)
            sc.goto(short, "marquise", "daylight", "actions")
            assert f"build {building} 5" not in short.legal(), k
        sc.put(g, "5", "wood", WOOD_COST[k])
        sc.goto(g, "marquise", "daylight", "actions")
        g.apply(f"build {building} 5")
        assert sc.count(g, "5", building) == 1, k
        assert sc.count(g, "5", "wood") == 0, k
        assert g.scores[M] == VP_TRACK[building][k], (k, g.scores[M])


def test_build_all_six_then_none_left(mid_game):
    """Law 6.5.4 / 1.5.1: with all six sawmills on the map there is none to build."""
    g = scenario(mid_game, m_hand=[RABBIT])
    for c in ("7", "8", "9"):
        sc.put(g, c, "sawmill", 2)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 8)
    sc.goto(g, "marquise", "daylight")
    legal = set(g.legal())
    assert "build sawmill 5" not in legal
    assert "build workshop 5" in legal


def test_rebuild_after_removal_follows_the_track(mid_game):
    """Law 6.5.4.I-III with the Glossary's Remove (Law 21.24: a removed building returns
    to the rightmost empty space of its track): with three sawmills placed and one
    removed in battle, the leftmost sawmill on the track is the third again: it costs
    2 wood (not 3) and scores 2 VP (not 3)."""
    g = scenario(mid_game, m_hand=[RABBIT], decree={"battle": [MOUSE]})
    for c in ("7", "8", "9"):
        sc.put(g, c, "sawmill", 1)
    sc.put(g, "9", "bird-warrior", 1)  # 9: mouse
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 1, 0)  # 1 hit + 1 defenseless (Law 4.3.5.II)
    g.apply("battle 9 marquise")
    g.apply("done")  # no ambush
    assert sc.count(g, "9", "sawmill") == 0
    assert on_board(g, "sawmill") == 2 and sc.supply(g, "sawmill") == 4
    for c in ("7", "8"):
        sc.put(g, c, "wood", 0)  # Birdsong wood from the two sawmills left
    sc.set_vp(g, M, 0)
    sc.put(g, "5", "cat-warrior", 1)
    short = g.clone()
    sc.put(short, "5", "wood", 1)
    sc.goto(short, "marquise", "daylight", "actions")
    assert "build sawmill 5" not in short.legal()
    sc.put(g, "5", "wood", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("build sawmill 5")
    assert sc.count(g, "5", "sawmill") == 1
    assert sc.count(g, "5", "wood") == 1  # paid 2 of 3
    assert g.scores[M] == VP_TRACK["sawmill"][2] == 2


def test_build_requires_rule(mid_game):
    """Law 6.5.4: build only in a clearing the Marquise rules; a tie is ruled by the
    Eyrie (Law 7.2.2)."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    assert g.ruler("5") == "eyrie"
    assert "build workshop 5" not in g.legal()  # the first workshop costs 0 wood
    sc.put(g, "5", "bird-warrior", 0)
    sc.goto(g, "marquise", "daylight")
    assert "build workshop 5" in g.legal()


def test_build_requires_open_slot(mid_game):
    """Law 6.5.4.I / 2.2.3-2.2.4: no open slot (buildings or a ruin fill them), no
    building."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "sawmill", 2)      # 5 has 2 slots: full
    sc.put(g, "6", "cat-warrior", 1)
    sc.put(g, "6", "recruiter", 1)    # 6 has 2 slots, one a ruin: full
    sc.put(g, "7", "cat-warrior", 1)  # 7 has 2 open slots
    sc.goto(g, "marquise", "daylight")
    legal = set(g.legal())
    assert "build workshop 5" not in legal
    assert "build workshop 6" not in legal
    assert "build workshop 7" in legal


def test_build_pays_wood_through_ruled_clearings(mid_game):
    """Law 6.5.4.II: wood is paid from the clearing or clearings connected to it
    through clearings the Marquise rules: 9 reaches 5 only while she rules 1."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "7", "sawmill", 1)  # the next sawmill costs 1 wood
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "9", "cat-warrior", 1)
    sc.put(g, "9", "wood", 1)
    sc.goto(g, "marquise", "daylight")
    assert g.ruler("1") is None
    assert "build sawmill 5" not in g.legal()  # wood in 9 is not connected
    sc.put(g, "1", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    assert "build sawmill 5" in g.legal()
    g.apply("build sawmill 5")
    assert sc.count(g, "9", "wood") == 0
    assert sc.count(g, "5", "sawmill") == 1
    assert g.scores[M] == 1


def test_build_wood_in_enemy_ruled_clearing_does_not_count(mid_game):
    """Law 6.5.4.II: adjacent wood in a clearing the Marquise does not rule cannot pay."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "7", "sawmill", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "2", "wood", 2)
    sc.put(g, "2", "cat-warrior", 1)
    sc.put(g, "2", "bird-warrior", 2)
    sc.goto(g, "marquise", "daylight")
    assert g.ruler("2") == "eyrie"
    assert "build sawmill 5" not in g.legal()


def test_build_payment_choice(mid_game):
    """Law 6.5.4.II: when several connected clearings hold wood, the Marquise chooses
    which wood to remove."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "7", "sawmill", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "1", "wood", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("build sawmill 5")
    assert set(g.legal()) == {"clearing 1", "clearing 5"}
    g.apply("clearing 1")
    assert sc.count(g, "1", "wood") == 0
    assert sc.count(g, "5", "wood") == 1
    assert sc.supply(g, "wood") == 7


def test_overwork(mid_game):
    """Law 6.5.5: spend a card matching a sawmill's clearing to place a wood there;
    birds match any clearing; it is an action."""
    g = scenario(mid_game, m_hand=[RABBIT, FOX, BIRD])
    sc.put(g, "5", "sawmill", 1)  # rabbit
    sc.put(g, "1", "sawmill", 1)  # fox
    sc.goto(g, "marquise", "daylight")
    legal = set(g.legal())
    assert {f"spend {RABBIT} place 5", f"spend {FOX} place 1",
            f"spend {BIRD} place 5", f"spend {BIRD} place 1"} <= legal
    assert f"spend {RABBIT} place 1" not in legal
    assert f"spend {FOX} place 5" not in legal
    assert not any(a.endswith("place 7") for a in legal)  # no sawmill there
    g.apply(f"spend {RABBIT} place 5")
    assert sc.count(g, "5", "wood") == 1
    assert RABBIT not in g.hand(M) and RABBIT in g.cards_at(LOC_DISCARD)
    g.apply(f"spend {FOX} place 1")
    assert sc.count(g, "1", "wood") == 1
    assert g.current == M
    g.apply(f"spend {BIRD} place 1")  # third action
    assert sc.count(g, "1", "wood") == 2
    assert g.current == E


def test_overwork_needs_wood_in_supply(mid_game):
    """Law 6.5.5 with Law 1.5.1: no wood left in the supply, no overwork."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "12", "wood", 8)
    sc.goto(g, "marquise", "daylight")
    assert f"spend {RABBIT} place 5" not in g.legal()


# ---------------------------------------------------------------- 6.6 evening

@pytest.mark.parametrize("recruiters,drawn", [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2),
                                              (5, 3), (6, 3)])
def test_evening_draw_with_recruiter_bonuses(mid_game, recruiters, drawn):
    """Law 6.6: draw one card plus one per uncovered draw bonus (recruiter track, at 3
    and 5 recruiters on the map)."""
    g = scenario(mid_game)
    for c in ("5", "5", "7", "7", "8", "8")[:recruiters]:
        sc.put(g, c, "recruiter", sc.count(g, c, "recruiter") + 1)
    sc.goto(g, "marquise", "evening")
    assert len(g.hand(M)) == drawn
    assert g.current == E


def test_evening_hand_limit_five(mid_game):
    """Law 6.6: after drawing, discard down to five cards."""
    g = scenario(mid_game, m_hand=["cobbler", "tax-collector", "codebreakers", "armorers",
                                   "sappers"])
    sc.put(g, "5", "recruiter", 2)
    sc.put(g, "7", "recruiter", 1)  # 3 recruiters: draw 2
    sc.goto(g, "marquise", "evening")
    assert len(g.hand(M)) == 7
    assert g.to_play == M and g.phase == "evening"
    legal = list(g.legal())
    assert legal and all(a.startswith("discard ") for a in legal)
    g.apply("discard cobbler")
    assert g.current == M and len(g.hand(M)) == 6
    g.apply("discard sappers")
    assert len(g.hand(M)) == 5
    assert g.current == E
    assert "cobbler" in g.cards_at(LOC_DISCARD) and "sappers" in g.cards_at(LOC_DISCARD)


def test_evening_no_discard_at_five(mid_game):
    """Law 6.6: five cards after drawing is within the limit: no discard."""
    g = scenario(mid_game, m_hand=["cobbler", "tax-collector", "codebreakers", "armorers"])
    sc.goto(g, "marquise", "evening")
    assert len(g.hand(M)) == 5
    assert g.current == E


def test_build_pays_before_it_places_and_scores(mid_game):
    """Law 6.5.4.II-III (issue deviation #1): the wood is paid first -- asked where more
    than one clearing can pay -- and only then is the building placed and scored, so a
    build that reaches 30 VP has paid in full before the game ends."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "7", "sawmill", 1)  # the next sawmill costs 1 wood and scores 1 VP
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "1", "wood", 1)
    sc.set_vp(g, M, 29)
    sc.goto(g, "marquise", "daylight")
    g.apply("build sawmill 5")
    assert g.decision == "pay" and not g.is_over
    assert sc.count(g, "5", "sawmill") == 0 and g.scores[M] == 29
    g.apply("clearing 5")
    assert sc.count(g, "5", "sawmill") == 1 and sc.count(g, "5", "wood") == 0
    assert g.is_over and g.winner_faction == "marquise" and g.scores[M] == 30


def test_build_paid_without_a_choice_places_after_paying(mid_game):
    """Law 6.5.4.II-III: with one clearing able to pay, the wood is removed at once,
    then the building is placed (the wood of the build clearing itself can pay)."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "7", "sawmill", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.goto(g, "marquise", "daylight")
    g.apply("build sawmill 5")
    assert sc.count(g, "5", "wood") == 0 and sc.count(g, "5", "sawmill") == 1
    assert g.scores[M] == 1 and g.decision == "actions"
