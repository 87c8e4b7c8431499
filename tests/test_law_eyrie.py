"""Law of Root, section 7: the Eyrie Dynasties.

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
VIZIER = "loyal-vizier"
ROOST_VP = [0, 1, 2, 3, 4, 4, 5]  # by roosts on the map, 1..7
TUCKS = {
    "builder": {"recruit", "move"},
    "charismatic": {"recruit", "battle"},
    "commander": {"move", "battle"},
    "despot": {"move", "build"},
}
ROLES = list(TUCKS)

# Cards by suit, used for their suit alone (none of the tests below crafts them): rabbit,
# fox, mouse, and two different birds.
RABBIT, FOX, MOUSE, BIRD, BIRD2 = "cobbler", "tax-collector", "codebreakers", "armorers", \
    "sappers"


# ---------------------------------------------------------------- helpers

def on_board(g, piece):
    return sum(sc.count(g, c, piece) for c in g.names["clearings"])


def skip_craft(g):
    """Decline the Daylight craft question, asked (on public facts) even when nothing
    in hand can be crafted."""
    assert set(g.legal()) == {"done"} and g.to_play == g.current
    g.apply("done")


def role_of(g, seat=E):
    return g.observation(seat)["players"][seat]["role"]


def set_decree(g, cols):
    """Empty the Decree (viziers to reserve, other cards to the discard pile), then put
    the given cards (viziers taken from the reserve) in the given columns."""
    lo = sc.column_loc(g, E, "recruit")
    hi = lo + g.consts["L"]
    defs = sc.card_defs(g)
    for i in range(g.consts["N"]):
        loc = g.state[g.S["CARD_LOC"] + i]
        if lo <= loc < hi:
            vizier = g.names["cards"][defs[i]] == VIZIER
            g.state[g.S["CARD_LOC"] + i] = LOC_RESERVE if vizier else LOC_DISCARD
    for col, cards in cols.items():
        for cid in cards:
            sc.move_card(g, cid, sc.column_loc(g, E, col), prefer=(LOC_RESERVE, 0, 1))


def scenario(mid_game, role="builder", decree=None, e_hand=(), m_hand=(), vp=0):
    """A cleared board, a chosen leader, a given Decree (empty by default), known hands."""
    g = mid_game()
    sc.set_hand(g, M, list(m_hand))
    sc.set_hand(g, E, list(e_hand))
    sc.set_role(g, E, role)
    set_decree(g, decree or {})
    sc.set_vp(g, M, 0)
    sc.set_vp(g, E, vp)
    return g


def decree_of(g):
    return {k: sorted(v) for k, v in g.columns(E).items()}


# ---------------------------------------------------------------- 7.3 setup

def test_setup_corner_roost_and_warriors(new_game):
    """Law 7.3.1-7.3.2, 7.3.5: the Eyrie start in the corner opposite the keep with a
    roost and 6 warriors, from a supply of 20; 6 roosts stay on the track."""
    g = new_game()
    g.apply("clearing 1")  # keep
    for _ in range(3):
        g.apply(g.legal_actions()[0])  # the three Marquise buildings
    assert g.to_play == E
    assert set(g.legal()) == {"clearing 3"}
    g.apply("clearing 3")
    assert sc.count(g, "3", "roost") == 1
    assert sc.count(g, "3", "bird-warrior") == 6
    assert on_board(g, "bird-warrior") == 6
    assert sc.supply(g, "bird-warrior") == 14  # 20 in all
    assert on_board(g, "roost") == 1 and sc.supply(g, "roost") == 6
    # Law 7.3.3: then the Eyrie choose a leader among the four.
    assert set(g.legal()) == {f"role {r}" for r in ROLES}


def test_setup_corner_follows_the_keep(new_game):
    """Law 7.3.2: the Eyrie corner is diagonally opposite the Marquise start (keep in 4,
    Eyrie in 2); the keep corner itself is never offered (Law 6.2.2)."""
    g = new_game()
    g.apply("clearing 4")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert set(g.legal()) == {"clearing 2"}


@pytest.mark.parametrize("role", ROLES)
def test_setup_leader_tucks_viziers(new_game, role):
    """Law 7.3.3-7.3.4: the chosen leader's two columns get one Loyal Vizier each."""
    g = new_game()
    while g.to_play != E or not any(a.startswith("role ") for a in g.legal()):
        g.apply(g.legal_actions()[0])
    g.apply(f"role {role}")
    assert role_of(g) == role
    cols = g.columns(E)
    for col, cards in cols.items():
        if col in TUCKS[role]:
            assert cards == [VIZIER], (col, cards)
        else:
            assert VIZIER not in cards, (col, cards)
    assert g.cards_at(LOC_RESERVE).count(VIZIER) == 0


# ---------------------------------------------------------------- 7.2.2 lords of the forest

@pytest.mark.parametrize("pieces,ruler", [
    ({"cat-warrior": 2, "bird-warrior": 2}, "eyrie"),             # tie: Eyrie
    ({"cat-warrior": 1, "sawmill": 1, "bird-warrior": 2}, "eyrie"),  # buildings count
    ({"cat-warrior": 1, "roost": 1}, "eyrie"),
    ({"cat-warrior": 1, "wood": 3, "bird-warrior": 1}, "eyrie"),  # tokens do not count
    ({"cat-warrior": 2, "bird-warrior": 1}, "marquise"),
    ({"cat-warrior": 1}, "marquise"),
    ({"wood": 2}, None),                                         # tokens alone: no rule
    ({}, None),
])
def test_lords_of_the_forest(mid_game, pieces, ruler):
    """Law 7.2.2 (and 2.5): the Eyrie rule a clearing where they tie for most warriors
    plus buildings (having a piece there); tokens never count."""
    g = mid_game()
    for piece, n in pieces.items():
        sc.put(g, "5", piece, n)
    assert g.ruler("5") == ruler


def test_lords_of_the_forest_limits_marquise_moves(mid_game):
    """Law 7.2.2 with 4.2.1: a tied clearing is Eyrie's, so the Marquise cannot move
    from it to a clearing she does not rule."""
    g = scenario(mid_game, m_hand=[RABBIT])
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 2)
    sc.goto(g, "marquise", "daylight")
    assert not any(a.startswith("move 5->") for a in g.legal())
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    assert "move 5->1 x2" in g.legal()


@pytest.mark.parametrize("pieces", [
    {"cat-warrior": 1, "bird-warrior": 1},
    {"cat-warrior": 1, "sawmill": 1, "bird-warrior": 2},
])
def test_lords_of_the_forest_lets_the_decree_build_in_a_tied_clearing(mid_game, pieces):
    """Law 7.2.2 with 7.5.2.IV: a Decree build needs a clearing the Eyrie rule; tied
    with the Marquise (warriors plus buildings), with an Eyrie piece there, they rule it,
    so a roost can be built there; one Marquise piece more and they do not."""
    g = scenario(mid_game, decree={"build": [RABBIT]})
    for piece, n in pieces.items():
        sc.put(g, "5", piece, n)  # 5: rabbit, two open slots minus the sawmill
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.ruler("5") == "eyrie"
    assert set(g.legal()) == {"build roost 5"}
    g.apply("build roost 5")
    assert sc.count(g, "5", "roost") == 1
    assert role_of(g) == "builder"  # the card was resolved: no turmoil
    g = scenario(mid_game, decree={"build": [RABBIT]})
    for piece, n in pieces.items():
        sc.put(g, "5", piece, n)
    sc.put(g, "5", "cat-warrior", pieces["cat-warrior"] + 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.ruler("5") == "marquise"
    assert "build roost 5" not in g.legal()


# ---------------------------------------------------------------- 7.2.3 disdain for trade

@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("card,item,roosts,printed", [
    ("anvil", "hammer", ["1"], 2),
    ("bake-sale", "coins", ["3", "4"], 3),
])
def test_disdain_for_trade(mid_game, role, card, item, roosts, printed):
    """Law 7.2.3: an item the Eyrie craft scores 1 VP, not its printed VP; the Builder
    ignores Disdain for Trade (Law 7.8.1) and scores the printed VP."""
    # A Decree card keeps the turn waiting in Daylight (no Evening roost VP yet).
    g = scenario(mid_game, role=role, e_hand=[card], decree={"recruit": [BIRD]})
    for c in roosts:
        sc.put(g, c, "roost", 1)
    items_before = g.observation(E)["items"][item]
    sc.goto(g, "eyrie", "daylight")
    assert f"craft {card}" in g.legal()
    g.apply(f"craft {card}")
    assert g.current == E and any(a.startswith("recruit ") for a in g.legal())
    assert g.scores[E] == (printed if role == "builder" else 1)
    obs = g.observation(E)
    assert obs["players"][E]["crafted"][item] == 1
    assert obs["items"][item] == items_before - 1


def test_craft_before_decree(mid_game):
    """Law 7.5.1: the Eyrie craft (with roosts) before resolving the Decree."""
    g = scenario(mid_game, e_hand=["anvil"], decree={"recruit": [BIRD]})
    sc.put(g, "1", "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    legal = set(g.legal())
    assert legal == {"craft anvil", "done"}
    g.apply("done")
    assert "recruit 1" in g.legal()


# ---------------------------------------------------------------- 7.4 birdsong

def test_emergency_orders_empty_hand_draws(mid_game):
    """Law 7.4.1: with an empty hand in Birdsong, the Eyrie draw a card."""
    g = scenario(mid_game)
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "birdsong")
    assert len(g.hand(E)) == 1
    assert g.to_play == E and any(a.startswith("add ") for a in g.legal())


def test_emergency_orders_not_with_cards(mid_game):
    """Law 7.4.1: no draw when the hand is not empty."""
    g = scenario(mid_game, e_hand=[FOX])
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "birdsong")
    assert g.hand(E) == [FOX]


def test_add_to_decree_one_or_two_cards_one_bird(mid_game):
    """Law 7.4.2: the Eyrie must add one or two cards to the Decree, at most one bird."""
    g = scenario(mid_game, e_hand=[BIRD, BIRD2, FOX, RABBIT])
    sc.put(g, "3", "roost", 1)
    sc.put(g, "3", "bird-warrior", 1)
    sc.put(g, "3", "cat-warrior", 1)  # so the battle card can be resolved in Daylight
    sc.goto(g, "eyrie", "birdsong")
    legal = set(g.legal())
    assert "done" not in legal  # at least one card
    for col in ("recruit", "move", "battle", "build"):
        assert f"add {BIRD} to {col}" in legal and f"add {FOX} to {col}" in legal
    assert not any(VIZIER in a for a in legal)
    g.apply(f"add {BIRD} to battle")
    assert g.columns(E)["battle"] == [BIRD] and len(g.hand(E)) == 3
    legal = set(g.legal())
    assert "done" in legal
    assert not any(a.startswith(f"add {BIRD2} ") for a in legal)  # a second bird
    assert f"add {FOX} to build" in legal
    g.apply(f"add {FOX} to build")
    # Two cards added: Birdsong is over; Daylight asks about crafting (the roost is a
    # crafting piece, the hand is not empty), then waits on the battle card.
    assert g.phase == "daylight" and g.current == E
    skip_craft(g)
    assert set(g.legal()) == {"battle 3 marquise"}
    assert decree_of(g) == {"recruit": [], "move": [], "battle": [BIRD], "build": [FOX]}
    assert sorted(g.hand(E)) == sorted([BIRD2, RABBIT])


def test_add_to_decree_may_stop_after_one(mid_game):
    """Law 7.4.2: one card is enough."""
    g = scenario(mid_game, e_hand=[FOX, RABBIT])
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {RABBIT} to recruit")
    g.apply("done")
    assert g.phase == "daylight" and g.current == E
    skip_craft(g)
    assert set(g.legal()) == {"recruit 3"}
    assert g.columns(E)["recruit"] == [RABBIT]
    assert g.hand(E) == [FOX]


def test_add_to_decree_only_birds(mid_game):
    """Law 7.4.2: with only bird cards, one bird is added and the Eyrie must stop."""
    g = scenario(mid_game, e_hand=[BIRD, BIRD2])
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {BIRD} to move")
    assert set(g.legal()) == {"done"}


def test_new_roost_when_none(mid_game):
    """Law 7.4.3: with no roost on the map, place a roost and 3 warriors in a clearing
    with the fewest warriors (any faction's) where a roost can be placed."""
    g = scenario(mid_game, e_hand=[FOX])
    for c in g.names["clearings"]:
        if c not in ("7", "9", "11"):
            sc.put(g, c, "cat-warrior", 1)
    sc.put(g, "9", "bird-warrior", 1)
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {FOX} to recruit")
    g.apply("done")
    assert g.phase == "birdsong" and g.to_play == E
    assert set(g.legal()) == {"clearing 7", "clearing 11"}
    g.apply("clearing 11")
    assert sc.count(g, "11", "roost") == 1
    assert sc.count(g, "11", "bird-warrior") == 3
    assert g.phase == "daylight"


def test_new_roost_respects_keep_and_slots(mid_game):
    """Law 7.4.3 with 6.2.2 and 2.2.3: the keep clearing and clearings without an open
    slot cannot take the new roost, however few warriors they hold."""
    g = scenario(mid_game, e_hand=[FOX])
    for c in g.names["clearings"]:
        if c not in ("7", "11"):
            sc.put(g, c, "cat-warrior", 1)
    sc.put(g, "7", "keep", 1)
    sc.put(g, "11", "sawmill", 2)  # 3 slots, one ruin: full
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {FOX} to recruit")
    g.apply("done")
    legal = set(g.legal())
    assert "clearing 7" not in legal and "clearing 11" not in legal
    expected = {f"clearing {c}" for c in g.names["clearings"] if c not in ("7", "11")}
    assert legal == expected


def test_no_new_roost_when_one_is_on_the_map(mid_game):
    """Law 7.4.3: the step only applies with no roost on the map."""
    g = scenario(mid_game, e_hand=[FOX])
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {FOX} to build")
    g.apply("done")
    assert g.phase != "birdsong"
    assert on_board(g, "roost") == 1


@pytest.mark.parametrize("left", [2, 1, 0])
def test_new_roost_with_few_warriors_in_supply_places_what_is_left(mid_game, left):
    """Law 7.4.3 with Law 1.5.4: with fewer than three warriors in the supply, the new
    roost is placed with the warriors that are left (as many as possible)."""
    g = scenario(mid_game, e_hand=[FOX])
    for c in g.names["clearings"]:
        if c not in ("7", "11"):
            sc.put(g, c, "cat-warrior", 1)
    sc.put(g, "12", "bird-warrior", 20 - left)
    sc.goto(g, "eyrie", "birdsong")
    g.apply(f"add {FOX} to recruit")
    g.apply("done")
    assert g.phase == "birdsong" and g.to_play == E
    assert set(g.legal()) == {"clearing 7", "clearing 11"}
    g.apply("clearing 11")
    assert sc.count(g, "11", "roost") == 1
    assert sc.count(g, "11", "bird-warrior") == left
    assert sc.supply(g, "bird-warrior") == 0
    assert on_board(g, "bird-warrior") == 20
    assert g.phase == "daylight"


# ---------------------------------------------------------------- 7.5.2 the Decree

def test_decree_resolves_column_by_column(mid_game):
    """Law 7.5.2: columns left to right (recruit, move, battle, build), each card of a
    column before the next; the Decree stays in place afterwards."""
    g = scenario(mid_game, role="builder",
                 decree={"recruit": [VIZIER], "move": [VIZIER], "build": [FOX]})
    sc.put(g, "3", "roost", 1)
    sc.put(g, "3", "bird-warrior", 2)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"recruit 3"}  # the recruit column comes first
    g.apply("recruit 3")
    assert sc.count(g, "3", "bird-warrior") == 3
    legal = set(g.legal())
    assert legal and all(a.startswith("move 3->") for a in legal)
    g.apply("move 3->6 x1")
    assert set(g.legal()) == {"build roost 6"}  # fox, ruled, no roost
    g.apply("build roost 6")
    assert sc.count(g, "6", "roost") == 1
    # No turmoil: same leader, the Decree is unchanged; Evening scored 2 roosts.
    assert g.current == M
    assert role_of(g) == "builder"
    assert decree_of(g) == {"recruit": [VIZIER], "move": [VIZIER], "battle": [],
                            "build": [FOX]}
    assert g.scores[E] == 1


def test_decree_recruit_matches_suit(mid_game):
    """Law 7.5.2.I: recruit at a roost in a clearing matching the card."""
    g = scenario(mid_game, decree={"recruit": [FOX]})
    for c in ("1", "3", "7"):
        sc.put(g, c, "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"recruit 1"}


def test_decree_bird_card_matches_any_clearing(mid_game):
    """Law 7.5.2 with 2.1.1: a bird card in the Decree allows any clearing."""
    g = scenario(mid_game, decree={"recruit": [BIRD]})
    for c in ("1", "3", "7"):
        sc.put(g, c, "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"recruit 1", "recruit 3", "recruit 7"}


def test_decree_suited_card_left_for_its_suit(mid_game):
    """Law 7.5.2 / 2.1.1.II: with a bird and a fox card in a column, recruiting in the
    fox clearing may use the fox card, leaving the bird for the rabbit clearing."""
    g = scenario(mid_game, decree={"recruit": [BIRD, FOX]})
    sc.put(g, "1", "roost", 1)
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert "recruit 3" in g.legal()
    g.apply("recruit 3")
    assert role_of(g) == "builder"  # no turmoil
    assert sc.count(g, "1", "bird-warrior") == 1 and sc.count(g, "3", "bird-warrior") == 1


def test_decree_every_card_is_resolved(mid_game):
    """Law 7.5.2: each card of a column is an action: two cards, two recruits."""
    g = scenario(mid_game, decree={"recruit": [VIZIER, FOX]})
    sc.put(g, "1", "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert g.current == E and set(g.legal()) == {"recruit 1"}
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 2
    assert g.current == M


def test_decree_move_matches_origin(mid_game):
    """Law 7.5.2.II: move from a clearing matching the card."""
    g = scenario(mid_game, decree={"move": [RABBIT]})
    sc.put(g, "3", "bird-warrior", 2)  # rabbit
    sc.put(g, "1", "bird-warrior", 2)  # fox
    sc.goto(g, "eyrie", "daylight")
    legal = set(g.legal())
    assert "move 3->7 x1" in legal
    assert all(a.startswith("move 3->") for a in legal)


def test_decree_battle_matches_suit(mid_game):
    """Law 7.5.2.III: battle in a clearing matching the card."""
    g = scenario(mid_game, decree={"battle": [MOUSE]})
    for c in ("7", "8"):  # mouse, fox
        sc.put(g, c, "bird-warrior", 1)
        sc.put(g, c, "cat-warrior", 1)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"battle 7 marquise"}


def test_decree_build_in_ruled_matching_clearing_without_roost(mid_game):
    """Law 7.5.2.IV: build a roost in a matching clearing the Eyrie rule with no roost."""
    g = scenario(mid_game, decree={"build": [RABBIT]})
    sc.put(g, "5", "bird-warrior", 1)  # rabbit, ruled
    sc.put(g, "3", "roost", 1)         # rabbit, ruled, already has a roost
    sc.put(g, "4", "bird-warrior", 1)  # rabbit, not ruled
    sc.put(g, "4", "cat-warrior", 2)
    sc.put(g, "1", "bird-warrior", 1)  # fox
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"build roost 5"}


def test_decree_recruit_without_warriors_in_supply_is_turmoil(mid_game):
    """Law 7.5.2.I / 7.5.2: with no warrior left to place, the recruit card cannot be
    resolved: turmoil."""
    g = scenario(mid_game, role="builder", decree={"recruit": [FOX]})
    sc.put(g, "1", "roost", 1)
    sc.put(g, "12", "bird-warrior", 20)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}


def test_decree_build_without_roosts_in_supply_is_turmoil(mid_game):
    """Law 7.5.2.IV / 1.5.1: with all seven roosts on the map, a build card fails."""
    g = scenario(mid_game, role="builder", decree={"build": [BIRD]})
    for c in ("2", "2", "7", "7", "8", "8", "9"):
        sc.put(g, c, "roost", sc.count(g, c, "roost") + 1)
    sc.put(g, "5", "bird-warrior", 1)  # ruled, open slots, no roost
    sc.goto(g, "eyrie", "daylight")
    assert "build roost 5" not in g.legal()
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}


def test_decree_may_take_up_the_impossible_card_first(mid_game):
    """Law 7.5.2 ("in any order") with the FAQ on 7.7: a column's cards are resolved in
    any order, so with a fox battle possible and a rabbit battle impossible, the Eyrie
    may fail the rabbit card first and fall into turmoil without battling."""
    g = scenario(mid_game, role="builder", decree={"battle": [FOX, RABBIT]})
    sc.put(g, "1", "bird-warrior", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"battle 1 marquise", "fail"}
    g.apply("fail")
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    assert sc.count(g, "1", "cat-warrior") == 1  # no battle was fought


def test_decree_fail_not_offered_while_every_card_can_be_resolved(mid_game):
    """Law 7.5.2: 'fail' is only there for a card that cannot be resolved."""
    g = scenario(mid_game, role="builder", decree={"battle": [FOX, BIRD]})
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "1", "cat-warrior", 2)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"battle 1 marquise"}
    sc.set_dice(g, 0, 0)
    g.apply("battle 1 marquise")
    assert set(g.legal()) == {"battle 1 marquise"}  # the bird card, also in clearing 1


def test_decree_impossible_card_after_the_possible_one_is_turmoil(mid_game):
    """Law 7.5.2 ("in any order"; "if you cannot fully take an action, you immediately
    fall into turmoil") with the FAQ on 7.7: after the Eyrie resolve the possible fox
    battle first, the rabbit battle that cannot be resolved throws them into turmoil at
    once, with no 'fail' or other choice left to make."""
    g = scenario(mid_game, role="builder", vp=3, decree={"battle": [FOX, RABBIT]})
    sc.put(g, "1", "bird-warrior", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "3", "roost", 1)  # rabbit, but no enemy piece in any rabbit clearing
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"battle 1 marquise", "fail"}
    sc.set_dice(g, 1, 0)
    g.apply("battle 1 marquise")
    assert sc.count(g, "1", "cat-warrior") == 0  # the battle was fought
    assert g.to_play == E and g.phase == "daylight"
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    assert g.scores[E] == 3  # humiliate: no bird card in the Decree
    discard = g.cards_at(LOC_DISCARD)
    assert FOX in discard and RABBIT in discard  # purge
    g.apply("role despot")
    assert g.current == M


def test_failing_card_runs_the_factions_own_hook_when_others_have_hooks_too():
    """Law 7.5.2 / 7.7: a failed card runs the Eyrie's on_fail hook even when another
    faction's hooks come first in the bundle (hook numbers are bundle-wide).  Built on
    a bundle whose Marquise carries an unused hook; the pure core runs it."""
    from rootlaw.runtime import Game
    from rootlaw.runtime.game import base_bundle
    from rootlaw.spec import Bundle

    b = base_bundle()
    marquise = b.faction("marquise")
    spare = type(marquise).model_validate(
        {**marquise.model_dump(mode="json"), "hooks": {"spare": [{"op": "end_phase"}]}})
    bundle = Bundle(b.map, b.deck, tuple(spare if f.id == "marquise" else f
                                         for f in b.factions))
    g = Game(["marquise", "eyrie"], 1, bundle=bundle, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    sc.set_hand(g, M, [])
    sc.set_hand(g, E, [])
    set_decree(g, {"battle": [RABBIT, BIRD]})  # only fox clearing 1 can be battled
    sc.set_role(g, E, "builder")
    sc.set_vp(g, E, 5)
    sc.put(g, "1", "bird-warrior", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"battle 1 marquise", "fail"}
    g.apply("fail")
    assert g.scores[E] == 4  # humiliate: one bird card
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}


# ---------------------------------------------------------------- 7.7 turmoil

def test_turmoil_humiliate_purge_depose_rest(mid_game):
    """Law 7.7.1-7.7.4: failing a card: lose 1 VP per bird card in the Decree (viziers
    included), discard the Decree except viziers, depose the leader (a new one among
    the face-up leaders, viziers re-tucked), then go straight to Evening (which scores
    roosts as usual, Law 7.6)."""
    g = scenario(mid_game, role="builder", vp=10,
                 decree={"recruit": [VIZIER, BIRD], "move": [VIZIER], "build": [FOX]})
    for c in ("3", "4", "5"):  # rabbit clearings
        sc.put(g, c, "roost", 1)
    sc.put(g, "3", "bird-warrior", 1)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 3")
    g.apply("recruit 5")
    g.apply("move 3->7 x1")  # 7 is mouse: no fox clearing is ruled by the Eyrie
    # The build card (fox) cannot be resolved: turmoil.
    assert g.to_play == E and g.current == E
    assert g.scores[E] == 10 - 3  # humiliate: two viziers and one bird card
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    discard = g.cards_at(LOC_DISCARD)
    assert BIRD in discard and FOX in discard  # purge
    assert VIZIER not in discard
    g.apply("role despot")
    assert role_of(g) == "despot"
    assert decree_of(g) == {"recruit": [], "move": [VIZIER], "battle": [], "build": [VIZIER]}
    # Rest: Evening of the same turn: 3 roosts score 2 VP and draw 1 + 1 card.
    assert g.scores[E] == 7 + 2
    assert len(g.hand(E)) == 2
    assert g.current == M


def test_turmoil_rest_skips_remaining_columns(mid_game):
    """Law 7.7.4: after turmoil the rest of the Decree is not resolved."""
    g = scenario(mid_game, role="commander",
                 decree={"recruit": [FOX], "move": [BIRD], "battle": [VIZIER]})
    sc.put(g, "3", "roost", 1)  # rabbit only: the fox recruit fails
    sc.put(g, "3", "bird-warrior", 2)
    sc.put(g, "7", "cat-warrior", 1)
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"role builder", "role charismatic", "role despot"}
    assert g.scores[E] == 0  # humiliate cannot go below 0 (2 birds)
    g.apply("role charismatic")
    assert sc.count(g, "3", "bird-warrior") == 2  # no move happened
    assert sc.count(g, "7", "cat-warrior") == 1   # no battle happened
    assert g.current == M


def test_turmoil_humiliate_counts_viziers(mid_game):
    """Law 7.7.1: every bird card in the Decree costs 1 VP, viziers included; other
    suits cost nothing."""
    g = scenario(mid_game, role="despot", vp=6,
                 decree={"move": [VIZIER, RABBIT], "build": [VIZIER, FOX], "battle": [BIRD]})
    sc.goto(g, "eyrie", "daylight")  # no Eyrie warrior: the move fails at once
    assert g.scores[E] == 6 - 3
    assert set(g.legal()) == {"role builder", "role charismatic", "role commander"}


def test_depose_only_face_up_leaders(mid_game):
    """Law 7.7.3: a deposed leader stays face down: after two turmoils neither of the
    two deposed leaders can be chosen."""
    g = scenario(mid_game, role="builder", decree={"recruit": [FOX]})
    sc.goto(g, "eyrie", "daylight")
    g.apply("role commander")
    set_decree(g, {"battle": [FOX]})
    sc.set_hand(g, M, [])
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {"role charismatic", "role despot"}
    g.apply("role despot")
    assert decree_of(g)["build"] == [VIZIER] and decree_of(g)["move"] == [VIZIER]


def test_depose_with_no_face_up_leader_turns_all_face_up(mid_game):
    """Law 7.7.3: when no leader is face up, all leaders are turned face up and any of
    them may be chosen."""
    g = scenario(mid_game, role="builder")
    for nxt, left in (("charismatic", {"charismatic", "commander", "despot"}),
                      ("commander", {"commander", "despot"}),
                      ("despot", {"despot"})):
        set_decree(g, {"recruit": [FOX]})  # no roost: fails at once
        sc.goto(g, "eyrie", "daylight")
        assert set(g.legal()) == {f"role {r}" for r in left}
        g.apply(f"role {nxt}")
    set_decree(g, {"recruit": [FOX]})
    sc.goto(g, "eyrie", "daylight")
    assert set(g.legal()) == {f"role {r}" for r in ROLES}


def test_purge_sends_a_dominance_card_to_the_available_pile(mid_game):
    """Law 7.7.2 with Law 3.3.3: a dominance card (it has a suit, so it may be added to
    the Decree, Law 7.4.2) purged from the Decree is not discarded: it goes near the
    map, available to be taken; other cards go to the discard pile."""
    g = scenario(mid_game, role="builder", e_hand=["fox-dominance", RABBIT])
    sc.put(g, "3", "roost", 1)  # rabbit only: a fox recruit cannot be resolved
    sc.goto(g, "eyrie", "birdsong")
    assert "add fox-dominance to recruit" in g.legal()
    g.apply("add fox-dominance to recruit")
    assert decree_of(g)["recruit"] == ["fox-dominance"]
    assert g.observation(M)["available_dominance"] == []
    g.apply(f"add {RABBIT} to build")
    # Daylight: the hand is empty (no craft question); the fox recruit fails: turmoil.
    assert g.phase == "daylight" and g.to_play == E
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    assert decree_of(g) == {"recruit": [], "move": [], "battle": [], "build": []}
    obs = g.observation(M)
    assert obs["available_dominance"] == ["fox-dominance"]
    assert "fox-dominance" not in obs["discard"]
    assert RABBIT in obs["discard"]


def test_humiliate_after_activating_dominance_loses_no_vp(mid_game):
    """Law 7.7.1 with Law 3.3.1: once the Eyrie have activated a dominance card their
    score marker is off the track and they no longer score, so Humiliate takes nothing;
    without the activation the same turmoil costs 1 VP per bird card."""
    for activate, vp in ((True, 12), (False, 12 - 2)):
        g = scenario(mid_game, role="builder", vp=12, e_hand=["fox-dominance", RABBIT],
                     decree={"recruit": [FOX], "move": [VIZIER, BIRD]})
        sc.put(g, "3", "roost", 1)  # rabbit only: the fox recruit cannot be resolved
        sc.goto(g, "eyrie", "daylight")
        assert set(g.legal()) == {"activate fox-dominance", "done"}
        if activate:
            g.apply("activate fox-dominance")
            assert g.observation(M)["players"][E]["dominance"] == "fox-dominance"
            skip_craft(g)
        else:
            g.apply("done")
        assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
        assert g.scores[E] == vp, activate
        g.apply("role despot")
        assert g.scores[E] == vp, activate  # one roost scores 0 in Evening


def test_turmoil_new_leader_ends_builder_exemption_from_disdain(mid_game):
    """Law 7.7.3 with 7.8.1 and 7.2.3: the leader's ability goes with the leader.  The
    Builder crafts a hammer for its printed 2 VP; deposed in turmoil for the
    Charismatic leader, the Eyrie's next item (tea, printed 2) scores only 1 VP."""
    g = scenario(mid_game, role="builder", e_hand=["anvil"], decree={"recruit": [RABBIT]})
    sc.put(g, "1", "roost", 1)  # fox
    sc.put(g, "7", "roost", 1)  # mouse; no rabbit roost: the recruit card fails
    sc.goto(g, "eyrie", "daylight")
    g.apply("craft anvil")
    assert g.scores[E] == 2
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    g.apply("role charismatic")
    assert role_of(g) == "charismatic"
    assert g.scores[E] == 2 + 1  # Evening: two roosts
    sc.set_hand(g, E, ["fox-root-tea"])
    sc.goto(g, "eyrie", "daylight")
    assert "craft fox-root-tea" in g.legal()
    g.apply("craft fox-root-tea")
    assert g.scores[E] == 3 + 1
    assert g.observation(E)["players"][E]["crafted"]["tea"] == 1


def test_turmoil_new_leader_ends_charismatic_recruit(mid_game):
    """Law 7.7.3 with 7.8.2: the Charismatic leader recruits two warriors; deposed for
    the Builder, the next recruit places one."""
    g = scenario(mid_game, role="charismatic", decree={"recruit": [FOX, RABBIT]})
    sc.put(g, "1", "roost", 1)  # fox only: the rabbit recruit fails
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 2
    assert set(g.legal()) == {"role builder", "role commander", "role despot"}
    g.apply("role builder")
    assert decree_of(g)["recruit"] == [VIZIER]
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert set(g.legal()) == {"recruit 1"}
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 3


# ---------------------------------------------------------------- 7.6 evening

@pytest.mark.parametrize("roosts", range(8))
def test_evening_roost_vp_and_draw(mid_game, roosts):
    """Law 7.6.1: score the VP of the rightmost empty Roosts space (0,1,2,3,4,4,5 for
    1..7 roosts on the map); Law 7.6.2: draw 1 plus a card at 3 and at 6 roosts."""
    g = scenario(mid_game)
    for c in ("2", "2", "5", "5", "7", "7", "8")[:roosts]:
        sc.put(g, c, "roost", sc.count(g, c, "roost") + 1)
    assert on_board(g, "roost") == roosts
    sc.goto(g, "eyrie", "evening")
    assert g.scores[E] == (ROOST_VP[roosts - 1] if roosts else 0)
    assert len(g.hand(E)) == 1 + (roosts >= 3) + (roosts >= 6)
    assert g.current == M


def test_evening_hand_limit(mid_game):
    """Law 7.6.2: discard down to five cards."""
    g = scenario(mid_game, e_hand=[RABBIT, FOX, MOUSE, BIRD, BIRD2])
    sc.put(g, "3", "roost", 1)
    sc.goto(g, "eyrie", "evening")
    assert len(g.hand(E)) == 6 and g.to_play == E
    assert all(a.startswith("discard ") for a in g.legal())
    g.apply(f"discard {MOUSE}")
    assert len(g.hand(E)) == 5 and g.current == M


# ---------------------------------------------------------------- 7.8 leaders

@pytest.mark.parametrize("role", ROLES)
def test_charismatic_recruits_two(mid_game, role):
    """Law 7.8.2: the Charismatic leader places two warriors per recruit; others one."""
    g = scenario(mid_game, role=role, decree={"recruit": [FOX]})
    sc.put(g, "1", "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == (2 if role == "charismatic" else 1)


def test_charismatic_recruit_as_far_as_possible(mid_game):
    """Law 7.8.2 with 1.5.4: with one warrior left in supply, one is placed."""
    g = scenario(mid_game, role="charismatic", decree={"recruit": [FOX]})
    sc.put(g, "1", "roost", 1)
    sc.put(g, "12", "bird-warrior", 19)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 1
    assert sc.supply(g, "bird-warrior") == 0
    # The card was not fully taken: turmoil, even with no other card to come (FAQ 7.7).
    assert set(g.legal()) == {"role builder", "role commander", "role despot"}


def test_charismatic_short_recruit_falls_into_turmoil(mid_game):
    """Law 7.5.2 / 7.7 with the Law FAQ on 7.7: Charismatic with one warrior in supply
    places that one, then the card is not fully taken, so the Eyrie fall into turmoil
    (the next recruit card is never resolved, Daylight ends)."""
    g = scenario(mid_game, role="charismatic", decree={"recruit": [FOX, BIRD]})
    sc.put(g, "1", "roost", 1)
    sc.put(g, "12", "bird-warrior", 19)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_vp(g, E, 5)
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 1
    # Turmoil: humiliate (one bird card), then depose asks for a new leader.
    assert g.scores[E] == 4
    assert set(g.legal()) == {"role builder", "role commander", "role despot"}
    assert FOX in g.cards_at(LOC_DISCARD) and BIRD in g.cards_at(LOC_DISCARD)  # purge


def test_full_charismatic_recruit_is_no_turmoil(mid_game):
    """Law 7.8.2: with two warriors in supply the card is fully taken; no turmoil."""
    g = scenario(mid_game, role="charismatic", decree={"recruit": [FOX, FOX]})
    sc.put(g, "1", "roost", 1)
    sc.put(g, "12", "bird-warrior", 18)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert g.phase == "daylight"
    assert sc.supply(g, "bird-warrior") == 0


@pytest.mark.parametrize("role", ROLES)
def test_commander_extra_hit_when_attacking(mid_game, role):
    """Law 7.8.3: the Commander deals an extra hit in battles the Eyrie attack; extra
    hits ignore the warrior cap (Law 4.3.5.I)."""
    g = scenario(mid_game, role=role, decree={"battle": [FOX]})
    sc.put(g, "1", "bird-warrior", 1)
    sc.put(g, "1", "cat-warrior", 3)
    sc.goto(g, "eyrie", "daylight")
    sc.set_dice(g, 3, 0)  # rolled hits capped at 1 Eyrie warrior
    g.apply("battle 1 marquise")
    assert sc.count(g, "1", "cat-warrior") == (1 if role == "commander" else 2)
    assert sc.count(g, "1", "bird-warrior") == 1


def test_commander_no_extra_hit_when_defending(mid_game):
    """Law 7.8.3: only when the Eyrie attack."""
    g = scenario(mid_game, role="commander")
    sc.put(g, "5", "bird-warrior", 3)
    sc.put(g, "5", "cat-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 1, 1)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "cat-warrior") == 2
    assert sc.count(g, "5", "bird-warrior") == 2


@pytest.mark.parametrize("role", ROLES)
def test_despot_vp_for_removing_buildings_and_tokens(mid_game, role):
    """Law 7.8.4: the Despot scores 1 extra VP (once per battle) when removing at least
    one enemy building or token in battle; each removed piece scores 1 (Law 3.2.1)."""
    g = scenario(mid_game, role=role, decree={"battle": [RABBIT]})
    sc.put(g, "5", "bird-warrior", 2)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "wood", 1)
    sc.goto(g, "eyrie", "daylight")
    sc.set_dice(g, 2, 0)  # 2 hits + 1 defenseless
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "sawmill") == 0 and sc.count(g, "5", "wood") == 0
    assert g.scores[E] == 2 + (1 if role == "despot" else 0)


def test_despot_bonus_when_defender_chooses_removals(mid_game):
    """Law 7.8.4 with 4.3.6: the defender orders removal of its buildings and tokens;
    the Despot still scores 1 VP per piece removed plus 1."""
    g = scenario(mid_game, role="despot", decree={"battle": [RABBIT]})
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "workshop", 1)
    sc.put(g, "5", "wood", 1)
    sc.goto(g, "eyrie", "daylight")
    sc.set_dice(g, 1, 0)  # 1 hit + 1 defenseless = 2 hits on 3 pieces
    g.apply("battle 5 marquise")
    assert g.to_play == M
    assert set(g.legal()) == {"remove sawmill", "remove workshop", "remove wood"}
    g.apply("remove wood")
    g.apply("remove workshop")
    assert sc.count(g, "5", "sawmill") == 1
    assert g.scores[E] == 2 + 1


def test_despot_bonus_once_per_removal_event(mid_game):
    """Law 7.8.4 and its FAQ: one bonus per removal, not per piece; an ambush's hits
    and the roll's hits are separate removals.  Here the Marquise attacks at her keep,
    an ambush removes her warrior and wood, field hospitals bring the warrior back so
    the battle goes on (Law 6.2.3 FAQ), and the roll removes her sawmill: the Despot
    scores 1 + 1 twice."""
    g = scenario(mid_game, role="despot", m_hand=[RABBIT], e_hand=["rabbit-ambush"])
    sc.put(g, "5", "keep", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 2, 2)
    g.apply("battle 5 eyrie")
    g.apply("spend rabbit-ambush")
    assert g.to_play == M and set(g.legal()) == {"done"}  # may foil, holds no ambush
    g.apply("done")
    assert g.to_play == M and set(g.legal()) == {"remove wood", "remove sawmill", "remove keep"}
    g.apply("remove wood")
    assert g.scores[E] == 2  # the wood, and the Despot's bonus for this removal
    g.apply(f"spend {RABBIT}")
    # The roll: the Marquise deals 1 (one warrior), the Eyrie deal 2: the warrior, and
    # the piece the Marquise picks.
    assert g.to_play == M and set(g.legal()) == {"remove sawmill", "remove keep"}
    g.apply("remove sawmill")
    assert sc.count(g, "5", "sawmill") == 0 and sc.count(g, "5", "bird-warrior") == 2
    assert g.scores[E] == 4


def test_despot_bonus_once_when_only_the_ambush_removes_a_building(mid_game):
    """Law 7.8.4 FAQ with 4.3.1.II: an ambush that removes a building is one removal;
    the battle then ends (no attacker left) and no second bonus is scored."""
    g = scenario(mid_game, role="despot", m_hand=[RABBIT], e_hand=["rabbit-ambush"])
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    g.apply("battle 5 eyrie")
    g.apply("spend rabbit-ambush")
    g.apply("done")  # no foil
    assert sc.count(g, "5", "sawmill") == 0 and sc.count(g, "5", "cat-warrior") == 0
    assert g.scores[E] == 2  # the sawmill, and one Despot bonus


def test_despot_no_bonus_for_warriors_only(mid_game):
    """Law 7.8.4: removing only warriors scores nothing extra."""
    g = scenario(mid_game, role="despot", decree={"battle": [RABBIT]})
    sc.put(g, "5", "bird-warrior", 2)
    sc.put(g, "5", "cat-warrior", 2)
    sc.goto(g, "eyrie", "daylight")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "cat-warrior") == 0
    assert g.scores[E] == 0


@pytest.mark.parametrize("role", ROLES)
def test_despot_bonus_as_defender(mid_game, role):
    """Law 7.8.4 ("whenever you remove ... in battle", attacker or defender) with
    3.2.1: the Marquise attacks, the Eyrie defend and their hits remove her warrior,
    then her wood and sawmill: 1 VP per building or token, plus 1 for the Despot."""
    g = scenario(mid_game, role=role)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight")
    sc.set_dice(g, 3, 3)  # the Marquise deal 1 (one warrior), the Eyrie 3
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "cat-warrior") == 0
    assert sc.count(g, "5", "sawmill") == 0 and sc.count(g, "5", "wood") == 0
    assert sc.count(g, "5", "bird-warrior") == 2
    assert g.scores[E] == 2 + (1 if role == "despot" else 0)
    assert g.scores[M] == 0
