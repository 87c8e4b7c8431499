"""Law of Root, section 7: the Eyrie Dynasties.  Most of its rules are scenarios
(tests/scenarios/07-eyrie); here are setup, tables over every leader, and what needs a
game edited between two turns.

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
# fox, bird.
RABBIT, FOX, BIRD = "cobbler", "tax-collector", "armorers"


# ---------------------------------------------------------------- helpers

def on_board(g, piece):
    return sum(sc.count(g, c, piece) for c in g.names["clearings"])


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


# ---------------------------------------------------------------- 7.4 birdsong

# ---------------------------------------------------------------- 7.5.2 the Decree

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


# ---------------------------------------------------------------- 7.8 leaders

@pytest.mark.parametrize("role", ROLES)
def test_charismatic_recruits_two(mid_game, role):
    """Law 7.8.2: the Charismatic leader places two warriors per recruit; others one."""
    g = scenario(mid_game, role=role, decree={"recruit": [FOX]})
    sc.put(g, "1", "roost", 1)
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == (2 if role == "charismatic" else 1)


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
