"""Law of Root, section 6: the Marquise de Cat.  Most of its rules are scenarios
(tests/scenarios/06-marquise); here are setup, the build tracks and what needs a game
edited between two turns.

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
# mouse.
RABBIT, MOUSE = "cobbler", "codebreakers"


# ---------------------------------------------------------------- helpers

def on_board(g, piece):
    return sum(sc.count(g, c, piece) for c in g.names["clearings"])


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

# ---------------------------------------------------------------- 6.2.3 field hospitals

# ---------------------------------------------------------------- 6.4 birdsong

# ---------------------------------------------------------------- 6.5 daylight

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
