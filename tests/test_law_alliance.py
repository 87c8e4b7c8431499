"""The Woodland Alliance (Law 8): supporters, sympathy, revolt, guerrilla war, the
Daylight and Evening actions, setup; all of it content over generic primitives (zones,
boxes, tokens from a track, menu entries).

Every test runs on the compiled and on the pure core, and in the seat orders that put
the Alliance first, second and third (``order``).  Positions are reached through the
engine's own turn flow (``sc.goto`` starts a phase and runs on to its first decision).
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11; paths from 8: 4 and 7.
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import RootlawError
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.conformance import invariant_violations

ORDERS = [("alliance", "marquise", "eyrie"), ("marquise", "alliance", "eyrie"),
          ("marquise", "eyrie", "alliance")]
BASES = ("fox-base", "rabbit-base", "mouse-base")
SUPPORTERS, OFFICERS = "supporters", "officers"
LOC_DISCARD = 1


@pytest.fixture(params=ORDERS, ids=["alliance-first", "alliance-second", "alliance-third"])
def order(request):
    return request.param


def seat(g, faction: str) -> int:
    return g.factions.index(faction)


def set_zone(g, faction: str, cards: list[str]) -> None:
    """The Alliance's supporters become exactly these cards (old ones are discarded)."""
    pos.set_zone(g, seat(g, faction), SUPPORTERS, cards)


def set_box(g, faction: str, n: int) -> None:
    """n warriors in the officers box, taken from (or returned to) the supply."""
    pos.set_box(g, seat(g, faction), OFFICERS, n)


def supporters(g) -> list[str]:
    return sorted(g.zone(seat(g, "alliance"), SUPPORTERS))


def officers(g) -> int:
    return g.box(seat(g, "alliance"), OFFICERS)


def vp(g, faction: str = "alliance") -> int:
    return g.scores[seat(g, faction)]


@pytest.fixture
def table(new_game, order):
    """A three-player game past setup, in the seat order of ``order``: board cleared,
    hands, supporters and officers empty."""

    def make(seed: int = 1):
        g = new_game(factions=order, seed=seed)
        while g.phase == "setup":
            g.apply(g.legal_actions()[0])
        sc.clear_board(g)
        for q in range(g.num_players):
            sc.set_hand(g, q, [])
        set_zone(g, "alliance", [])
        set_box(g, "alliance", 0)
        return g

    return make


def spreads(g) -> set[str]:
    return {a for a in g.legal() if a.startswith("spread ")}


def birdsong_spread(g) -> None:
    """The Alliance's Birdsong, past Revolt (step 1), at Spread Sympathy (step 2)."""
    sc.goto(g, "alliance", "birdsong")
    assert g.factions[g.to_play] == "alliance" and g.decision == "actions"
    g.apply("done")  # no revolt
    assert g.phase == "birdsong" and g.factions[g.to_play] == "alliance"


# ---------------------------------------------------------------------------- setup (8.3)


def test_setup_draws_three_supporters_after_the_hands(new_game, order):
    """Law 8.3.4 (three cards face down onto the Supporters stack) after Law 5.1.6 (three
    cards in hand each); the Alliance sets up third (setup letter C, Law 5.1.7) whatever
    its seat; bases and sympathy start off the map (Law 8.3.2-8.3.3), no officers."""
    g = new_game(factions=order, seed=3)
    setup_seats = []
    while g.phase == "setup":
        setup_seats.append(g.factions[g.to_play])
        g.apply(g.legal_actions()[0])
    assert "alliance" not in setup_seats  # nothing to decide
    assert setup_seats[0] == "marquise" and setup_seats[-1] == "eyrie"
    a = seat(g, "alliance")
    assert len(g.zone(a, SUPPORTERS)) == 3
    assert len(g.hand(a)) >= 3  # three dealt, plus what a first turn drew
    for piece, n in (("alliance-warrior", 10), ("sympathy", 10), *((b, 1) for b in BASES)):
        assert sc.supply(g, piece) == n, piece
    assert g.box(a, OFFICERS) == 0
    assert not list(invariant_violations(g))


def test_three_player_turn_order_is_clockwise_from_the_first_player(new_game, order):
    """Law 5.1.8 / 1.4: turns pass clockwise (seat order) from the first player."""
    g = new_game(factions=order, seed=5)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    first = g.current
    seen = [first]
    while len(seen) < 4:
        g.apply(g.legal_actions()[-1])
        if g.current != seen[-1]:
            seen.append(g.current)
    assert seen == [first, (first + 1) % 3, (first + 2) % 3, first]


# ------------------------------------------------------------- supporters stack (8.2.3)


def test_supporters_are_not_part_of_the_hand(table):
    """Law 8.2.3: supporters do not count against the hand size; only the hand is
    discarded down to five in Evening (Law 8.6.2)."""
    g = table()
    set_zone(g, "alliance", ["anvil", "sword", "bake-sale", "investments"])
    sc.set_hand(g, seat(g, "alliance"), ["fox-root-tea", "mouse-root-tea", "smugglers-trail",
                                          "a-visit-to-friends", "mouse-in-a-sack"])
    sc.goto(g, "alliance", "evening")  # no officers: draw 1, then 6 cards in hand
    assert g.decision == "discard_down_to" and g.factions[g.to_play] == "alliance"
    assert all(a.startswith("discard ") for a in g.legal())
    assert not any(c in g.legal() for c in ("discard anvil", "discard sword"))
    g.apply(sorted(g.legal())[0])
    assert len(g.hand(seat(g, "alliance"))) == 5
    assert len(supporters(g)) == 4


def test_mobilize_into_a_full_stack_discards_the_card(table):
    """Law 8.2.3.I: with no base on the map the stack holds five cards; a supporter it
    cannot hold is discarded.  Mobilize (Law 8.5.2) adds a hand card to the stack."""
    g = table()
    five = ["anvil", "sword", "bake-sale", "investments", "fox-root-tea"]
    set_zone(g, "alliance", five)
    sc.set_hand(g, seat(g, "alliance"), ["mouse-root-tea", "smugglers-trail"])
    sc.goto(g, "alliance", "daylight")
    assert {"mobilize mouse-root-tea", "mobilize smugglers-trail"} <= set(g.legal())
    g.apply("mobilize mouse-root-tea")
    assert supporters(g) == sorted(five)
    assert "mouse-root-tea" in g.cards_at(LOC_DISCARD)
    assert g.hand(seat(g, "alliance")) == ["smugglers-trail"]


def test_with_a_base_on_the_map_the_stack_has_no_limit(table):
    """Law 8.2.3.I: if any bases are on the map, the stack holds unlimited cards."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    five = ["anvil", "sword", "bake-sale", "investments", "fox-root-tea"]
    set_zone(g, "alliance", five)
    sc.set_hand(g, seat(g, "alliance"), ["mouse-root-tea"])
    sc.goto(g, "alliance", "daylight")
    g.apply("mobilize mouse-root-tea")
    assert supporters(g) == sorted([*five, "mouse-root-tea"])


# ----------------------------------------------------------------- spread sympathy (8.4.2)


def test_first_spread_goes_anywhere_then_only_next_to_sympathy(table):
    """Law 8.4.2.1: with no sympathetic clearing any clearing may be chosen; afterwards
    only an unsympathetic clearing adjacent to a sympathetic one.  Law 8.4.2.2: the
    supporters spent match the clearing (birds too, Law 2.1.1); Law 8.4.2.3: score the
    space uncovered (the first is 0, the second 1)."""
    g = table()
    set_zone(g, "alliance", ["anvil"])
    birdsong_spread(g)
    assert spreads(g) == {"spread 1", "spread 6", "spread 8", "spread 12"}  # fox clearings
    g.apply("spread 8")  # one card owed, one card held: no choice to ask
    assert sc.count(g, "8", "sympathy") == 1 and vp(g) == 0
    assert supporters(g) == [] and "anvil" in g.cards_at(LOC_DISCARD)
    set_zone(g, "alliance", ["fox-root-tea", "bird-crossbow"])
    assert spreads(g) == {"spread 4", "spread 7"}  # next to 8; 12 is not
    g.apply("spread 7")
    # Two cards held for one owed: the Alliance chooses (only the bird matches mouse 7).
    assert g.decision == "zone_pay" and g.factions[g.to_play] == "alliance"
    assert g.legal() == {"spend bird-crossbow": g.legal()["spend bird-crossbow"]}
    assert sc.count(g, "7", "sympathy") == 0 and vp(g) == 0  # not placed before paid
    g.apply("spend bird-crossbow")
    assert sc.count(g, "7", "sympathy") == 1 and vp(g) == 1
    assert supporters(g) == ["fox-root-tea"]


def test_spread_cost_and_vp_follow_the_track(table):
    """Law 8.4.2.2-3: the cost printed above the next token (1, 1, 1, 2, 2, 2, 3 ...) and
    the VP on the space it uncovers (0, 1, 1, 1, 2 ...)."""
    g = table()
    for c in ("1", "5", "10"):
        sc.put(g, c, "sympathy", 1)
    # Next to 1, 5 and 10 without sympathy: 2 and 9 (mouse), 12 (fox).
    set_zone(g, "alliance", ["anvil", "bake-sale", "cobbler"])
    birdsong_spread(g)
    assert spreads(g) == set()  # the fourth token costs 2: one fox card is not enough
    set_zone(g, "alliance", ["anvil", "foxfolk-steel"])
    assert spreads(g) == {"spread 12"}
    g.apply("spread 12")
    assert vp(g) == 1 and sc.count(g, "12", "sympathy") == 1  # the fourth space: 1 VP
    set_zone(g, "alliance", ["bird-crossbow", "birdy-bindle"])
    g.apply("spread 2")  # the fifth costs 2 and scores 2
    assert vp(g) == 3 and supporters(g) == []


def test_martial_law_costs_one_more_supporter(table):
    """Law 8.4.2.2.I (Martial Law): one more matching supporter if the clearing holds at
    least three warriors of another player -- of one player, not two players together,
    and never the Alliance's own."""
    g = table()
    sc.put(g, "8", "cat-warrior", 3)
    sc.put(g, "12", "cat-warrior", 2)
    sc.put(g, "12", "bird-warrior", 2)
    sc.put(g, "6", "alliance-warrior", 4)
    set_zone(g, "alliance", ["anvil"])
    birdsong_spread(g)
    assert spreads(g) == {"spread 1", "spread 6", "spread 12"}  # not 8: it costs 2
    set_zone(g, "alliance", ["anvil", "foxfolk-steel"])
    assert "spread 8" in spreads(g)
    g.apply("spread 8")
    assert supporters(g) == [] and sc.count(g, "8", "sympathy") == 1


def test_one_sympathy_per_clearing_and_none_in_the_keep(table):
    """Law 8.2.5.I: a clearing holds one sympathy token; Law 6.2.2 (The Keep, and the FAQ
    on 8.4.1): no sympathy is placed in the keep's clearing."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "4", "keep", 1)
    set_zone(g, "alliance", ["birdy-bindle", "bird-crossbow"])
    birdsong_spread(g)
    assert spreads(g) == {"spread 7"}  # 4 holds the keep, 8 its sympathy already
    sc.put(g, "4", "alliance-warrior", 1)
    sc.put(g, "8", "alliance-warrior", 1)
    set_box(g, "alliance", 2)
    sc.goto(g, "alliance", "evening")
    organize = {a for a in g.legal() if a.startswith("organize ")}
    assert organize == set()  # 8 is sympathetic, 4 holds the keep


def test_a_spread_that_reaches_30_vp_wins_once_paid(table):
    """Law 3.1 and 8.4.2: the token is placed and scored only once paid; its VP can win."""
    g = table()
    for c in ("1", "5", "10", "2", "6", "3", "11", "9"):
        sc.put(g, c, "sympathy", 1)
    sc.set_vp(g, seat(g, "alliance"), 26)
    set_zone(g, "alliance", ["anvil", "foxfolk-steel", "fox-root-tea", "sword"])
    birdsong_spread(g)
    g.apply("spread 12")  # the ninth token: cost 3, VP 4; four cards held, three owed
    assert g.decision == "zone_pay" and not g.is_over
    for _ in range(3):
        assert not g.is_over
        g.apply("spend " + sorted(a.split()[1] for a in g.legal())[0])
    assert g.is_over and g.winner_faction == "alliance" and vp(g) == 30
    assert supporters(g) == ["sword"]


# ----------------------------------------------------------------------- revolt (8.4.1)


def revolt_position(g):
    """Fox sympathy at 1, 8, 12; in 8 the Marquise (2 warriors, a sawmill, 2 wood) and the
    Eyrie (a roost, a warrior)."""
    for c in ("1", "8", "12"):
        sc.put(g, c, "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    sc.put(g, "8", "sawmill", 1)
    sc.put(g, "8", "wood", 2)
    sc.put(g, "8", "roost", 1)
    sc.put(g, "8", "bird-warrior", 1)


def test_revolt_removes_every_enemy_piece_and_places_the_base(table):
    """Law 8.4.1: spend two supporters matching the clearing; remove all enemy pieces
    (one VP per building and token, Law 3.2.1); place the base of its suit and warriors
    equal to the sympathetic clearings of that suit; one warrior becomes an officer."""
    g = table()
    revolt_position(g)
    set_zone(g, "alliance", ["anvil", "bird-crossbow"])
    sc.goto(g, "alliance", "birdsong")
    revolts = {a for a in g.legal() if a.startswith("revolt ")}
    assert revolts == {"revolt 1", "revolt 8", "revolt 12"}
    g.apply("revolt 8")
    board = g.piece_counts()["8"]
    assert board == {"fox-base": 1, "alliance-warrior": 3, "sympathy": 1}
    assert vp(g) == 4  # sawmill, 2 wood, roost
    assert officers(g) == 1
    assert sc.supply(g, "alliance-warrior") == 10 - 3 - 1
    assert supporters(g) == []
    assert sc.supply(g, "cat-warrior") == 25 and sc.supply(g, "roost") == 7
    assert not list(invariant_violations(g))
    # Revolt is any number of times, while the matching base is still off the map.
    assert {a for a in g.legal() if a.startswith("revolt ")} == set()


def test_revolt_needs_an_unbuilt_matching_base_and_two_matching_supporters(table):
    """Law 8.4.1.1-2 and the FAQ: only a sympathetic clearing whose suit matches a base
    still on the faction board; two supporters of its suit (birds count)."""
    g = table()
    revolt_position(g)
    sc.put(g, "5", "sympathy", 1)
    set_zone(g, "alliance", ["anvil", "bake-sale"])
    sc.goto(g, "alliance", "birdsong")
    assert not any(a.startswith("revolt ") for a in g.legal())  # one fox, one rabbit
    set_zone(g, "alliance", ["anvil", "bake-sale", "birdy-bindle"])
    revolts = {a for a in g.legal() if a.startswith("revolt ")}
    assert revolts == {"revolt 1", "revolt 8", "revolt 12", "revolt 5"}
    sc.put(g, "6", "fox-base", 1)  # the fox base is built: no fox revolt
    revolts = {a for a in g.legal() if a.startswith("revolt ")}
    assert revolts == {"revolt 5"}
    g.apply("revolt 5")
    # Three supporters, two owed: the Alliance chooses (bake-sale or the bird).
    assert g.decision == "zone_pay" and set(g.legal()) == {"spend bake-sale",
                                                            "spend birdy-bindle"}
    g.apply("spend birdy-bindle")
    # One owed, two held: asked again (on the public count), though only one matches.
    assert g.decision == "zone_pay" and set(g.legal()) == {"spend bake-sale"}
    assert sc.count(g, "5", "rabbit-base") == 0
    g.apply("spend bake-sale")
    assert supporters(g) == ["anvil"] and sc.count(g, "5", "rabbit-base") == 1
    assert sc.count(g, "5", "alliance-warrior") == 1  # one sympathetic rabbit clearing


def test_revolt_places_what_the_supply_holds(table):
    """Law 1.5.4 with Law 8.4.1.3: warriors first, then the officer, as far as the supply
    allows."""
    g = table()
    revolt_position(g)
    sc.put(g, "3", "alliance-warrior", 8)  # two left in the supply
    set_zone(g, "alliance", ["anvil", "foxfolk-steel"])
    sc.goto(g, "alliance", "birdsong")
    g.apply("revolt 12")
    assert sc.count(g, "12", "alliance-warrior") == 2 and officers(g) == 0
    assert sc.supply(g, "alliance-warrior") == 0


# ------------------------------------------------------------------ guerrilla war (8.2.2)


def test_guerrilla_war_the_defending_alliance_deals_the_higher_roll(table):
    """Law 8.2.2: as defender the Alliance deals hits equal to the higher roll and the
    attacker the lower (Law 4.3.3 reversed)."""
    g = table()
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "alliance-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 alliance")
    assert sc.count(g, "5", "cat-warrior") == 0   # three hits from the Alliance
    assert sc.count(g, "5", "alliance-warrior") == 2  # one from the Marquise


def test_guerrilla_war_is_only_for_the_defender(table):
    """Law 8.2.2 ("as defender"): attacking, the Alliance deals the higher roll as
    anyone does (Law 4.3.3)."""
    g = table()
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "alliance-warrior", 3)
    set_box(g, "alliance", 1)
    sc.goto(g, "alliance", "evening")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "cat-warrior") == 0
    assert sc.count(g, "5", "alliance-warrior") == 2


# ----------------------------------------------------------------------- daylight (8.5)


def test_craft_with_sympathy_in_any_order_with_mobilize_and_train(table):
    """Law 8.1 / 8.5: the Alliance crafts by activating sympathy tokens, in any order and
    number with Mobilize and Train; each token once per turn (Law 4.1.1)."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "fox-base", 1)
    a = seat(g, "alliance")
    sc.set_hand(g, a, ["anvil", "fox-root-tea", "mouse-crossbow", "bake-sale"])
    sc.goto(g, "alliance", "daylight")
    legal = g.legal()
    assert {"craft anvil", "mobilize anvil", "train anvil", "train fox-root-tea"} <= set(legal)
    assert "craft fox-root-tea" not in legal  # costs a mouse
    assert "train bake-sale" not in legal     # rabbit: no base in a rabbit clearing
    g.apply("mobilize bake-sale")
    g.apply("train fox-root-tea")
    assert officers(g) == 1
    g.apply("craft anvil")  # the one fox token activated
    assert vp(g) == 2  # anvil's printed VP
    assert "craft mouse-crossbow" not in g.legal()  # the token is used this turn
    assert "mobilize mouse-crossbow" in g.legal()


def test_train_needs_a_base_and_a_matching_card(table):
    """Law 8.5.3: spend a card matching the clearing of a base on the map (a bird
    matches any) to put a warrior from the supply into the Officers box."""
    g = table()
    a = seat(g, "alliance")
    sc.set_hand(g, a, ["anvil", "birdy-bindle", "bake-sale"])
    sc.goto(g, "alliance", "daylight")
    assert not any(x.startswith("train ") for x in g.legal())  # no base on the map
    sc.put(g, "5", "rabbit-base", 1)
    sc.goto(g, "alliance", "daylight")
    assert {x for x in g.legal() if x.startswith("train ")} == {"train birdy-bindle",
                                                               "train bake-sale"}
    g.apply("train birdy-bindle")
    assert officers(g) == 1 and sc.supply(g, "alliance-warrior") == 9
    assert "birdy-bindle" in g.cards_at(LOC_DISCARD)
    assert not list(invariant_violations(g))


# ------------------------------------------------------------------------ evening (8.6)


def evening_actions(g) -> set[str]:
    return set(g.legal())


def test_military_operations_take_one_action_per_officer(table):
    """Law 8.6.1: up to the number of officers, in any order: move (one move), battle,
    recruit (a warrior in a clearing with a base), organize."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "8", "alliance-warrior", 2)
    sc.put(g, "4", "cat-warrior", 1)
    set_box(g, "alliance", 2)
    sc.goto(g, "alliance", "evening")
    legal = evening_actions(g)
    assert {"move 8->4 x1", "move 8->4 x2", "move 8->7 x1", "recruit 8", "done"} <= legal
    assert "organize 8" in legal and "battle 4 marquise" not in legal
    g.apply("move 8->4 x1")
    assert g.decision == "actions"  # one move: no second move of a march
    assert "battle 4 marquise" in g.legal()
    a = seat(g, "alliance")
    assert g.current == a and g.hand(a) == []
    g.apply("recruit 8")
    assert sc.count(g, "8", "alliance-warrior") == 2
    # Two officers, two actions: Military Operations is over, the draw followed and the
    # turn passed on.
    assert g.current != a and len(g.hand(a)) == 2  # one + the fox base's bonus


def test_organize_trades_a_warrior_for_sympathy_and_scores(table):
    """Law 8.6.1.IV: remove an Alliance warrior from an unsympathetic clearing, place a
    sympathy token there and score the space uncovered."""
    g = table()
    sc.put(g, "3", "sympathy", 1)
    sc.put(g, "7", "alliance-warrior", 1)
    set_box(g, "alliance", 1)
    sc.goto(g, "alliance", "evening")
    assert {a for a in g.legal() if a.startswith("organize ")} == {"organize 7"}
    g.apply("organize 7")
    assert sc.count(g, "7", "alliance-warrior") == 0 and sc.count(g, "7", "sympathy") == 1
    assert vp(g) == 1 and sc.supply(g, "alliance-warrior") == 9  # one is an officer


def test_no_officers_no_military_operations(table):
    """Law 8.6.1: with no officers there is no action to take."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "8", "alliance-warrior", 2)
    sc.goto(g, "alliance", "evening")
    a = seat(g, "alliance")
    assert g.current != a and len(g.hand(a)) == 2  # drew, and the turn passed on


def test_evening_draws_one_plus_one_per_base(table):
    """Law 8.6.2: draw one card plus one per uncovered draw bonus (a base on the map
    uncovers one)."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "5", "rabbit-base", 1)
    sc.goto(g, "alliance", "evening")  # no officers: straight to the draw
    assert len(g.hand(seat(g, "alliance"))) == 3


# ------------------------------------------------------------------ what each seat sees


def test_supporters_are_face_down_officers_public(table):
    """Law 8.2.3 (supporters face down, the Alliance may inspect them) and Law 1.2: the
    stack's size is public, its cards only the Alliance's; officers are public."""
    g = table()
    set_zone(g, "alliance", ["anvil", "sword"])
    set_box(g, "alliance", 2)
    a = seat(g, "alliance")
    for q in range(3):
        pl = g.observation(q)["players"][a]
        cards = pl["zones"][SUPPORTERS]["cards"]
        assert pl["zones"][SUPPORTERS]["size"] == 2
        assert (sorted(cards) if q == a else cards) == (["anvil", "sword"] if q == a else None)
        assert pl["boxes"] == {OFFICERS: 2}
        vec, lay = g.observation_vector(q), g.observation_layout
        rel = (a - q) % 3
        assert vec[lay["zone_size"][0] + rel * g.consts["Z"]] == 2
        assert vec[lay["boxes"][0] + rel * g.consts["B"]] == 2
        off, size = lay["zones"]
        seen = sum(vec[off:off + size])
        assert seen == (2 if q == a else 0)


# ----------------------------------------------------------------------- outrage (8.2.6)


def marquise_battles(g, where: str, hand: list[str], dice=(3, 0)):
    """The Marquise's Daylight actions: a battle against the Alliance in ``where``."""
    sc.set_hand(g, seat(g, "marquise"), hand)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, *dice)
    g.apply(f"battle {where} alliance")


def test_outrage_removing_sympathy_gives_a_matching_card(table):
    """Law 8.2.6: a player who removes a sympathy token adds a card matching its clearing
    from hand to the Supporters stack -- of their choice (here: anvil or the bird, both
    match fox 8; the rabbit does not); the removal scores 1 VP (Law 3.2.1)."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    marquise_battles(g, "8", ["anvil", "birdy-bindle", "bake-sale"])
    m = seat(g, "marquise")
    assert sc.count(g, "8", "sympathy") == 0 and vp(g, "marquise") == 1
    assert g.decision == "zone_give" and g.to_play == m
    assert set(g.legal()) == {"spend anvil", "spend birdy-bindle"}
    g.apply("spend birdy-bindle")
    assert supporters(g) == ["birdy-bindle"]
    assert sorted(g.hand(m)) == ["anvil", "bake-sale"]
    assert g.decision == "actions" and g.to_play == m  # the battle is over, the turn goes on


def test_outrage_without_a_matching_card_shows_the_hand(table):
    """Law 8.2.6: with no matching card (no bird either) the hand is shown to the Alliance
    (and only to it), and the Alliance draws a card from the deck into Supporters."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    marquise_battles(g, "8", ["bake-sale", "sword"])
    m, a = seat(g, "marquise"), seat(g, "alliance")
    assert g.decision == "zone_give" and g.legal().keys() == {"done"}
    sc.move_card(g, "investments", 0)  # the deck's top card
    g.apply("done")
    assert supporters(g) == ["investments"]
    assert sorted(g.hand(m)) == ["bake-sale", "sword"]
    assert g.observation(a)["seen"]["marquise"]["cards"] == ["bake-sale", "sword"]
    other = 3 - a - m
    assert "marquise" not in g.observation(other)["seen"]


def test_outrage_with_an_empty_hand_asks_nothing(table):
    """Law 8.2.6: an empty hand has no matching card: nothing to choose, the Alliance
    draws into Supporters at once."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    marquise_battles(g, "8", [])
    assert g.decision == "actions" and len(supporters(g)) == 1


def test_outrage_moving_warriors_in(table):
    """Law 8.2.6: moving warriors into a sympathetic clearing is Outrage (one card per
    move, whatever the number of warriors)."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "4", "cat-warrior", 3)
    sc.set_hand(g, seat(g, "marquise"), ["anvil", "fox-root-tea"])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("move 4->8 x3")
    assert g.decision == "zone_give" and set(g.legal()) == {"spend anvil",
                                                            "spend fox-root-tea"}
    g.apply("spend anvil")
    assert supporters(g) == ["anvil"]
    assert g.decision == "march"  # the march's second move follows the outrage


def test_placing_in_a_sympathetic_clearing_is_not_outrage(table):
    """FAQ on Law 8.2.6: placing (here: recruiting) is not moving in."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "recruiter", 1)
    sc.put(g, "8", "cat-warrior", 1)
    sc.set_hand(g, seat(g, "marquise"), ["anvil"])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("recruit")
    assert sc.count(g, "8", "cat-warrior") == 2
    assert g.decision == "actions" and supporters(g) == []


def test_the_alliance_moving_in_is_not_outrage(table):
    """Law 8.2.6 names another player: the Alliance's own warriors moving into its own
    sympathetic clearing give nothing."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "4", "alliance-warrior", 2)
    set_box(g, "alliance", 1)
    sc.set_hand(g, seat(g, "alliance"), ["anvil"])
    sc.goto(g, "alliance", "evening")
    g.apply("move 4->8 x2")
    assert g.decision != "zone_give" and supporters(g) == []


def test_an_outrage_card_for_a_full_stack_is_discarded(table):
    """Law 8.2.3.I with 8.2.6: no base on the map, five supporters: the card given is
    discarded."""
    g = table()
    five = ["sword", "bake-sale", "investments", "mouse-root-tea", "smugglers-trail"]
    set_zone(g, "alliance", five)
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "4", "cat-warrior", 1)
    sc.set_hand(g, seat(g, "marquise"), ["anvil"])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("move 4->8 x1")
    g.apply("spend anvil")
    assert supporters(g) == sorted(five) and "anvil" in g.cards_at(LOC_DISCARD)


# ---------------------------------------------------------------- removing bases (8.2.4)


def test_removing_a_base_discards_matching_supporters_and_half_the_officers(table):
    """Law 8.2.4: supporters matching the base's clearing, birds included, are discarded;
    half the officers, rounded up, are removed; with no base left and more than five
    supporters, the Alliance discards down to five, cards of its choice."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "8", "cat-warrior", 3)
    set_box(g, "alliance", 3)
    keep = ["bake-sale", "investments", "mouse-root-tea", "smugglers-trail", "sword",
            "a-visit-to-friends", "mouse-in-a-sack"]
    set_zone(g, "alliance", ["anvil", "birdy-bindle", *keep])
    marquise_battles(g, "8", [])
    a = seat(g, "alliance")
    assert sc.count(g, "8", "fox-base") == 0 and vp(g, "marquise") == 1
    assert officers(g) == 1 and sc.supply(g, "alliance-warrior") == 9  # 3 - 2 back
    # Fox and bird gone; seven left over five: the Alliance chooses two to discard.
    assert g.decision == "zone_trim" and g.to_play == a
    assert supporters(g) == sorted(keep)
    assert set(g.legal()) == {f"discard {c}" for c in keep}
    g.apply("discard sword")
    assert g.decision == "zone_trim"
    g.apply("discard bake-sale")
    assert len(supporters(g)) == 5 and "sword" in g.cards_at(LOC_DISCARD)
    assert g.decision == "actions" and g.factions[g.to_play] == "marquise"
    assert not list(invariant_violations(g))


def test_with_another_base_on_the_map_the_stack_is_not_trimmed(table):
    """Law 8.2.4: only with no base left is the stack trimmed to five."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "5", "rabbit-base", 1)
    sc.put(g, "8", "cat-warrior", 3)
    set_box(g, "alliance", 4)
    many = ["bake-sale", "investments", "mouse-root-tea", "smugglers-trail", "sword",
            "a-visit-to-friends", "mouse-in-a-sack"]
    set_zone(g, "alliance", many)
    marquise_battles(g, "8", [])
    assert officers(g) == 2 and supporters(g) == sorted(many)
    assert g.decision == "actions" and g.factions[g.to_play] == "marquise"


def test_officers_lost_in_military_operations_leave_fewer_actions(table):
    """Law 8.6.1 with 8.2.4 (a reading): the actions are read from the officers as each is
    taken; a base lost in the Alliance's own battle halves them, leaving fewer."""
    g = table()
    sc.put(g, "8", "fox-base", 1)
    sc.put(g, "8", "alliance-warrior", 1)
    sc.put(g, "8", "cat-warrior", 3)
    sc.put(g, "4", "alliance-warrior", 1)
    set_box(g, "alliance", 4)
    sc.goto(g, "alliance", "evening")
    sc.set_dice(g, 2, 2)
    g.apply("battle 8 marquise")  # the Marquise deals 2: the warrior, then the base
    assert sc.count(g, "8", "fox-base") == 0 and officers(g) == 2
    assert g.decision == "actions" and g.factions[g.to_play] == "alliance"
    g.apply("move 4->12 x1")  # the second and last action: two officers, one taken before
    assert g.current != seat(g, "alliance")  # Military Operations over, the turn passed on


def test_a_battle_hit_reaching_30_wins_before_outrage_is_asked(table):
    """Law 3.1 ("immediately wins") with 4.3.6 and 8.2.6: the Marquise at 29 removes a
    lone sympathy token in step 6 of a battle (defenseless: the extra hit, Law 4.3.5.II)
    and scores her 30th VP; the game is over there and then -- Outrage, a reaction to the
    removal, is never asked (as after any removal outside battle)."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    sc.set_vp(g, seat(g, "marquise"), 29)
    marquise_battles(g, "8", ["anvil", "bake-sale"], dice=(0, 0))
    assert g.is_over and g.winner_faction == "marquise"
    assert vp(g, "marquise") == 30 and sc.count(g, "8", "sympathy") == 0
    assert g.legal() == {} and supporters(g) == []
    assert sorted(g.hand(seat(g, "marquise"))) == ["anvil", "bake-sale"]


def test_a_battle_hit_short_of_30_still_asks_outrage(table):
    """The same removal at 28 VP: no win, so Outrage is asked as usual (Law 8.2.6)."""
    g = table()
    sc.put(g, "8", "sympathy", 1)
    sc.put(g, "8", "cat-warrior", 2)
    sc.set_vp(g, seat(g, "marquise"), 28)
    marquise_battles(g, "8", ["anvil", "bake-sale"], dice=(0, 0))
    assert not g.is_over and vp(g, "marquise") == 29
    assert g.decision == "zone_give" and set(g.legal()) == {"spend anvil"}


def test_outrage_and_a_base_removed_together(table):
    """Law 8.2.4 and 8.2.6 in one removal event in battle (Law 1.5.4): the Alliance, the
    side taking the hits, orders the effects its removed pieces set off (Law 4.3.6).
    Outrage first: the matching card it receives is discarded with the base's supporters;
    the base first: the card comes after the discard and stays."""
    for first, kept in (("outrage-removed", ["bake-sale"]),
                        ("removing-bases", ["anvil", "bake-sale"])):
        g = table()
        sc.put(g, "8", "fox-base", 1)
        sc.put(g, "8", "sympathy", 1)
        sc.put(g, "8", "cat-warrior", 3)
        set_zone(g, "alliance", ["bake-sale"])
        # Guerrilla War: the Marquise deals the lower 3, +1 on the defenceless Alliance:
        # the base and the token go together.
        marquise_battles(g, "8", ["anvil"], dice=(3, 3))
        assert sc.count(g, "8", "fox-base") == 0 and sc.count(g, "8", "sympathy") == 0
        assert g.decision == "react_order" and g.to_play == seat(g, "alliance")
        assert set(g.legal()) == {"first outrage-removed", "first removing-bases"}
        g.apply(f"first {first}")
        assert g.decision == "zone_give"
        g.apply("spend anvil")
        assert sorted(supporters(g)) == kept
        assert ("anvil" in g.cards_at(LOC_DISCARD)) == (first == "outrage-removed")


def test_a_revolt_is_answered_by_field_hospitals(table):
    """Law 8.4.1 with 6.2.3: the revolt removes the Marquise's warriors, who may spend a
    card matching the clearing to put them in the keep's clearing."""
    g = table()
    revolt_position(g)
    sc.put(g, "1", "sympathy", 0)  # the keep's clearing never holds sympathy (FAQ, 8.4.1)
    sc.put(g, "1", "keep", 1)
    sc.put(g, "1", "cat-warrior", 1)
    sc.set_hand(g, seat(g, "marquise"), ["fox-root-tea"])
    set_zone(g, "alliance", ["anvil", "bird-crossbow"])
    sc.goto(g, "alliance", "birdsong")
    g.apply("revolt 8")
    assert g.decision == "rescue" and g.factions[g.to_play] == "marquise"
    g.apply("spend fox-root-tea")
    assert sc.count(g, "1", "cat-warrior") == 3
    assert sc.count(g, "8", "fox-base") == 1 and officers(g) == 1



# ----------------------------------------------- one removal event in many clearings (1.5.4)


def craft_favor(g, faction: str, favor: str, crafting: str, at: tuple[str, ...],
                hand: list[str]) -> None:
    """``faction`` crafts ``favor`` in its Daylight: a crafting piece in each clearing of
    ``at`` (three of the Favor's suit), the Favor and ``hand`` in hand."""
    for c in at:
        sc.put(g, c, crafting, 1)
    sc.set_hand(g, seat(g, faction), [favor, *hand])
    sc.goto(g, faction, "daylight", "craft")
    g.apply(f"craft {favor}")


def test_a_favor_removes_every_token_before_outrage_then_one_card_per_token(table):
    """Law 1.5.4: Favor of the Mice removes every enemy piece of every mouse clearing at
    once; only then does Outrage (8.2.6) trigger, once for each sympathy token removed
    (each in its own clearing), the remover giving a card matching it each time.  Every
    token and building scores (Law 3.2.1) before the first card is asked for."""
    g = table()
    m = seat(g, "marquise")
    for c in ("2", "7", "11"):
        sc.put(g, c, "sympathy", 1)
    sc.put(g, "11", "bird-warrior", 2)
    sc.put(g, "2", "roost", 1)
    sc.put(g, "8", "sympathy", 1)  # fox: untouched
    craft_favor(g, "marquise", "favor-of-the-mice", "workshop", ("2", "7", "9"),
                ["mouse-root-tea", "bird-crossbow", "mouse-in-a-sack", "anvil"])
    assert all(sc.count(g, c, "sympathy") == 0 for c in ("2", "7", "11"))
    assert sc.count(g, "11", "bird-warrior") == 0 and sc.count(g, "2", "roost") == 0
    assert sc.count(g, "8", "sympathy") == 1 and vp(g, "marquise") == 4
    given = []
    for left in (3, 2, 1):
        assert g.decision == "zone_give" and g.to_play == m, left
        legal = sorted(g.legal())
        assert len(legal) == left and "spend anvil" not in legal
        g.apply(legal[0])
        given.append(legal[0].removeprefix("spend "))
    assert supporters(g) == sorted(given)
    assert g.hand(m) == ["anvil"] and "favor-of-the-mice" in g.cards_at(LOC_DISCARD)


def test_a_favor_removes_the_keep_with_the_warriors_so_no_field_hospitals(table):
    """Law 1.5.4 with 6.2.2 and 6.2.3: Favor of the Rabbits removes the Marquise's
    warriors in clearing 3 and, in the same event, the keep and warriors in 4; field
    hospitals would answer once the event is over, and by then no keep is on the map:
    the Marquise is not asked (the keep's clearing comes after 3 in the map's order)."""
    g = table()
    sc.put(g, "3", "cat-warrior", 2)
    sc.put(g, "4", "keep", 1)
    sc.put(g, "4", "cat-warrior", 1)
    sc.set_hand(g, seat(g, "marquise"), ["rabbit-root-tea", "bake-sale"])
    craft_favor(g, "eyrie", "favor-of-the-rabbits", "roost", ("3", "5", "10"), ["anvil"])
    assert sc.count(g, "3", "cat-warrior") == 0 and sc.count(g, "4", "cat-warrior") == 0
    assert sc.count(g, "4", "keep") == 0 and pos.out_of_game(g, "keep") == 1
    assert g.decision != "rescue" and g.factions[g.to_play] == "eyrie"
    assert sorted(g.hand(seat(g, "marquise"))) == ["bake-sale", "rabbit-root-tea"]
    assert vp(g, "eyrie") == 1


def test_a_favor_across_clearings_reactions_in_seat_order_one_per_clearing(table, order):
    """Law 1.5.4: one removal event in clearings 3, 5 and 10 (Favor of the Rabbits, crafted
    by the Eyrie).  Its reactions wait until every piece is gone, then resolve in seat
    order from the current player (the reading of Law 1.1.3 in docs/design.md): the
    Marquise's field hospitals once for each clearing its warriors left (Law 6.2.3:
    'removed from a single clearing'), in clearing order, and the Alliance's Outrage for
    the token in 10 (Law 8.2.6)."""
    g = table()
    sc.put(g, "1", "keep", 1)
    sc.put(g, "3", "cat-warrior", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "10", "sympathy", 1)
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    sc.set_hand(g, m, ["rabbit-root-tea", "bake-sale"])
    craft_favor(g, "eyrie", "favor-of-the-rabbits", "roost", ("3", "5", "10"),
                ["a-visit-to-friends", "anvil"])
    assert sc.count(g, "3", "cat-warrior") + sc.count(g, "5", "cat-warrior") == 0
    assert sc.count(g, "10", "sympathy") == 0 and vp(g, "eyrie") == 1
    clockwise = [order[(e + i) % 3] for i in range(1, 3)]
    seen = []
    while g.decision in ("rescue", "zone_give"):
        seen.append(g.decision)
        if g.decision == "rescue":
            assert g.to_play == m
            before = sc.count(g, "1", "cat-warrior")
            g.apply(sorted(g.legal().keys() - {"done"})[0])
            # the first rescue is clearing 3's warrior, the second clearing 5's two
            assert sc.count(g, "1", "cat-warrior") - before == seen.count("rescue")
        else:
            assert g.to_play == e and set(g.legal()) == {"spend a-visit-to-friends"}
            g.apply("spend a-visit-to-friends")
    rescues, outrage = ["rescue", "rescue"], ["zone_give"]
    assert seen == (rescues + outrage if clockwise[0] == "marquise" else outrage + rescues)
    assert sc.count(g, "1", "cat-warrior") == 3 and g.hand(m) == []
    assert supporters(g) == ["a-visit-to-friends"]


def test_a_favor_in_every_clearing_of_its_suit_keeps_the_frame_stack_in_bounds(table):
    """Law 1.5.4 at its widest: Favor of the Foxes empties all four fox clearings at once,
    each holding Marquise warriors and a sympathy token, one the fox base.  Every reaction
    waits on the stack at once (four field hospitals, four Outrages, the base's, and the
    question of their order); the stack stays within the bound the state is sized for,
    and all of them resolve."""
    g = table()
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    sc.put(g, "3", "keep", 1)
    for c in ("1", "6", "8", "12"):
        sc.put(g, c, "cat-warrior", 1)
        sc.put(g, c, "sympathy", 1)
    sc.put(g, "8", "fox-base", 1)
    set_box(g, "alliance", 2)
    sc.set_hand(g, m, ["anvil", "fox-root-tea", "foxfolk-steel", "protection-racket"])
    craft_favor(g, "eyrie", "favor-of-the-foxes", "roost", ("1", "6", "12"),
                ["fox-travel-gear", "gently-used-knapsack", "arms-trader", "bird-crossbow"])
    assert all(sc.count(g, c, "sympathy") + sc.count(g, c, "cat-warrior") == 0
               for c in ("1", "6", "8", "12"))
    assert vp(g, "eyrie") == 5
    deepest = 0
    # The Eyrie, whose turn it is, also orders the Alliance's Outrages and the base's
    # effect (Law 1.1.3: react_order).
    while g.decision in ("rescue", "zone_give", "react_order"):
        deepest = max(deepest, g.state[g.S["DEPTH"]])
        assert not list(invariant_violations(g))
        g.apply(sorted(g.legal().keys() - {"done"})[0])
    assert 9 <= deepest <= g.consts["MAX_FRAMES"]
    assert sc.count(g, "3", "cat-warrior") == 4 and g.hand(m) == []
    assert g.hand(e) == [] and officers(g) == 1

def test_rootlaw_check_sees_boxes_and_zone_capacity(table):
    """The invariants of rootlaw check (runtime/conformance.py): map + supply + out +
    boxes = the printed count (Law 1.5.1), a zone within its capacity once nothing is
    pending (Law 8.2.3.I), one sympathy per clearing (Law 8.2.5.I)."""
    g = table()
    sc.goto(g, "alliance", "birdsong")
    assert not list(invariant_violations(g))
    six = ["anvil", "sword", "bake-sale", "investments", "fox-root-tea", "mouse-root-tea"]
    with pytest.raises(RootlawError):  # position editing refuses what the rules never reach
        set_zone(g, "alliance", six)
    pos.set_cards_at(g, g.zone_loc(seat(g, "alliance"), SUPPORTERS), six)
    assert any("more than 5 cards" in v for v in invariant_violations(g))
    sc.put(g, "8", "fox-base", 1)  # a base lifts the limit
    assert not list(invariant_violations(g))
    g.state[g.box_index(seat(g, "alliance"), OFFICERS)] += 1  # a warrior from nowhere
    assert any("boxes" in v for v in invariant_violations(g))
    g.state[g.box_index(seat(g, "alliance"), OFFICERS)] -= 1
    g.state[g.S["BOARD"] + 7 * g.consts["NP"] + sc.piece_index(g, "sympathy")] += 2
    g.state[g.S["SUPPLY"] + sc.piece_index(g, "sympathy")] -= 2
    assert any("per_clearing" in v for v in invariant_violations(g))


def test_position_edits_of_zones_and_boxes_keep_the_invariants(table):
    """runtime/position.py: zones and boxes in the game's words, for scenarios.  A box
    takes its warriors from the supply (Law 1.5.1), a zone holds at most its capacity in
    force (Law 8.2.3.I), unknown names are REF-UNDEF."""
    g = table()
    a = seat(g, "alliance")
    assert pos.zones_of(g, a) == [SUPPORTERS] and pos.boxes_of(g, a) == [OFFICERS]
    assert pos.zones_of(g, seat(g, "marquise")) == []
    pos.set_box(g, a, OFFICERS, 4)
    assert pos.box(g, a, OFFICERS) == 4 and sc.supply(g, "alliance-warrior") == 6
    with pytest.raises(RootlawError) as e:
        pos.set_box(g, a, OFFICERS, 11)
    assert e.value.code == "VALUE-INVALID" and pos.box(g, a, OFFICERS) == 4
    with pytest.raises(RootlawError) as e:
        pos.set_box(g, a, "generals", 1)
    assert e.value.code == "REF-UNDEF"
    assert pos.zone_capacity(g, a, SUPPORTERS) == 5
    sc.put(g, "5", "rabbit-base", 1)
    assert pos.zone_capacity(g, a, SUPPORTERS) is None
    six = ["anvil", "sword", "bake-sale", "investments", "fox-root-tea", "mouse-root-tea"]
    pos.set_zone(g, a, SUPPORTERS, six)
    assert sorted(pos.zone(g, a, SUPPORTERS)) == sorted(six)
    sc.goto(g, "alliance", "birdsong")
    assert not list(invariant_violations(g))
