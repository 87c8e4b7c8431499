"""How moving goes otherwise for a holder: the ability 'moving' (models.Moving).

Law 4.2: "To take a move, you must rule the origin clearing, destination clearing, or
both"; Law 2.3: rivers "are not paths, but can be treated as paths if explicitly
instructed".  Published rules that bend it: Law 13.2.3, Nimble ("The Corvids can move
regardless of who rules their origin or destination clearing"); 11.2.2, Swimmers ("treat
rivers as paths and may move along rivers regardless of who rules"); and two cards of
the Exiles and Partisans deck, Boat Builders ("You treat rivers as paths") and Corvid
Planners (moves ignore rule).  Each is tested here through the engine's own turn flow
(Daylight's menu), in two seat orders, on both cores, on the Autumn map: its rivers
4-7, 5-10, 7-11 and 10-11 are not paths.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest
from conftest import assert_located, faction_with, positioned
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M

ABILITY = TypeAdapter(M.Ability)
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise")]


def moving(**fields) -> M.Moving:
    return ABILITY.validate_python({"kind": "moving", "id": "test-moving", **fields})


@cache
def bundle_with(marquise: tuple = (), cards: tuple = ()):
    """The base game, the Marquise given these abilities (as dicts' items) and the deck
    these persistent cards (id -> ability fields), the core compiled."""
    b = base_bundle()
    f = b.faction("marquise")
    f = f.model_copy(update={"abilities": [*f.abilities,
                                           *(moving(**dict(a)) for a in marquise)]})
    deck = b.deck
    if cards:
        added = [M.Card.model_validate(
            {"id": cid, "name": cid, "suit": "bird", "kind": "persistent",
             "cost": ["any", "any"],
             "abilities": [{"kind": "moving", "id": cid, **dict(fields)}]})
            for cid, fields in cards]
        deck = deck.model_copy(update={"cards": [*deck.cards, *added]})
    bundle = dataclasses.replace(b, deck=deck, factions=tuple(
        f if x.id == "marquise" else x for x in b.factions))
    gbuild.compile_core(bundle)
    return bundle


def at_daylight(bundle, order, core_kind, pieces):
    g = positioned(order, bundle, core_kind, pieces, "marquise", "daylight")
    assert g.compiled == (core_kind == "compiled")
    return g


def moves(g) -> set[str]:
    return {n for n in g.legal() if n.startswith("move ")}


# ------------------------------------------------------------------------- the model

def test_a_moving_ability_names_what_it_changes():
    assert moving(rivers_are_paths=True).modifiers() == [("rivers_are_paths", 1)]
    assert moving(ignore_rule="always").modifiers() == [("move_ignores_rule", 1)]
    assert moving(rivers_are_paths=True, ignore_rule="rivers").modifiers() == [
        ("rivers_are_paths", 1), ("river_move_ignores_rule", 1)]


def test_a_moving_ability_that_changes_nothing_is_a_located_error():
    doc, i = faction_with("marquise", {"kind": "moving", "id": "idle"})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/kind",
                   "a 'moving' ability changes a move")
    doc, i = faction_with("marquise", {"kind": "moving", "id": "x", "ignore_rule": "paths"})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/ignore_rule", "always")


def test_the_base_game_keeps_its_moves():
    """A bundle no 'moving' ability is in has the edges it had: the paths alone."""
    from rootlaw.generator.tables import build_tables

    t = build_tables(base_bundle())
    assert t.consts["E"] == 2 * len(base_bundle().map.paths)
    assert not {"EDGE_PATH", "EDGE_RIVER"} & set(t.table_layout.offsets)


# ------------------------------------------------------------------ rule (Law 4.2)

@pytest.mark.parametrize("order", ORDERS)
def test_without_the_ability_a_move_needs_rule(order, core_kind):
    """Law 4.2: the Marquise rules neither 1 nor 5, so she cannot move between them."""
    g = at_daylight(bundle_with(), order, core_kind,
                    {"1": {"cat-warrior": 1, "bird-warrior": 2},
                     "5": {"bird-warrior": 2}})
    assert "move 1->5 x1" not in moves(g)


@pytest.mark.parametrize("order", ORDERS)
def test_nimble_moves_whoever_rules(order, core_kind):
    """Law 13.2.3, Nimble: the holder moves regardless of who rules the origin or the
    destination; the move is carried out as any other."""
    g = at_daylight(bundle_with(marquise=((("ignore_rule", "always"),),)), order,
                    core_kind, {"1": {"cat-warrior": 1, "bird-warrior": 2},
                                "5": {"bird-warrior": 2}})
    assert "move 1->5 x1" in moves(g)
    assert "move 5->10 x1" not in moves(g)  # a river: not a path for her
    g.apply("move 1->5 x1")
    assert g.piece_counts()["5"]["cat-warrior"] == 1
    assert g.piece_counts()["1"].get("cat-warrior", 0) == 0


# ------------------------------------------------------------ rivers (Law 2.3)

@pytest.mark.parametrize("order", ORDERS)
def test_a_card_makes_rivers_paths_for_its_holder(order, core_kind):
    """Boat Builders (a persistent card, Law 4.1.3): while it lies in the Marquise's play
    area she may move along the river 5-10; rule is still needed (she rules 5)."""
    bundle = bundle_with(cards=(("boat-builders", (("rivers_are_paths", True),)),))
    pieces = {"5": {"cat-warrior": 2}, "10": {"bird-warrior": 3},
              "11": {"bird-warrior": 1}}
    g = at_daylight(bundle, order, core_kind, pieces)
    assert "move 5->10 x1" not in moves(g)  # the card not in play: a river, not a path
    marquise = order.index("marquise")
    g = at_daylight(bundle, order, core_kind, pieces)
    position.set_play_area(g, marquise, ["boat-builders"])
    position.goto(g, "marquise", "daylight")
    assert {"move 5->10 x1", "move 5->10 x2", "move 5->1 x1"} <= moves(g)
    g.apply("move 5->10 x2")
    assert g.piece_counts()["10"]["cat-warrior"] == 2


@pytest.mark.parametrize("order", ORDERS)
def test_a_river_is_not_a_path_for_another_player(order, core_kind):
    """The card in the Eyrie's play area makes rivers paths for the Eyrie, not for the
    Marquise: she, ruling 5, still cannot move along the river 5-10."""
    bundle = bundle_with(cards=(("boat-builders", (("rivers_are_paths", True),)),))
    g = at_daylight(bundle, order, core_kind, {"5": {"cat-warrior": 2}})
    position.set_play_area(g, order.index("eyrie"), ["boat-builders"])
    position.goto(g, "marquise", "daylight")
    assert "move 5->1 x1" in moves(g) and "move 5->10 x1" not in moves(g)


@pytest.mark.parametrize("order", ORDERS)
def test_swimmers_move_along_rivers_whoever_rules(order, core_kind):
    """Law 11.2.2, Swimmers: rivers are paths, and a move along a river needs no rule; a
    move along a path still does."""
    bundle = bundle_with(marquise=((("rivers_are_paths", True), ("ignore_rule", "rivers")),))
    g = at_daylight(bundle, order, core_kind,
                    {"10": {"cat-warrior": 1, "bird-warrior": 2},
                     "5": {"bird-warrior": 1}, "12": {"bird-warrior": 1},
                     "11": {"bird-warrior": 1}})
    got = moves(g)
    assert {"move 10->5 x1", "move 10->11 x1"} <= got  # rivers, ruled by the Eyrie
    assert "move 10->12 x1" not in got and "move 10->1 x1" not in got  # paths: rule


# ------------------------------------------------------------- crafting pieces

@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("held", [False, True])
def test_tunnels_join_the_holders_crafting_clearings(order, core_kind, held):
    """Tunnels (a persistent card): clearings with the holder's crafting pieces are
    adjacent for its moves.  The Marquise's workshops in 1 and 3 (no path between them):
    with the card in her play area she may move 1->3; 1->2 (no workshop in 2) stays
    shut, and the Law's paths stay open."""
    bundle = bundle_with(cards=(("tunnels", (("crafting_adjacent", True),)),))
    g = at_daylight(bundle, order, core_kind,
                    {"1": {"cat-warrior": 2, "workshop": 1}, "3": {"workshop": 1}})
    if held:
        position.set_play_area(g, order.index("marquise"), ["tunnels"])
        position.goto(g, "marquise", "daylight")
    got = moves(g)
    assert ("move 1->3 x2" in got) == held
    assert "move 1->2 x1" not in got and "move 1->5 x1" in got
    if held:
        g.apply("move 1->3 x2")
        assert g.piece_counts()["3"]["cat-warrior"] == 2


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rivers", [False, True])
def test_a_tunnel_along_a_river_ignores_rule_only_where_rivers_are_paths(order, core_kind,
                                                                         rivers):
    """'ignore_rule': 'rivers' is for a move along a river.  The Marquise, with it and
    Tunnels, moves between her workshops in 5 and 10 (a river joins them, no path): a
    tunnel, not a river for her unless rivers are her paths, so rule is needed there
    (the Eyrie rules both) unless they are (a review's finding)."""
    fields = (("ignore_rule", "rivers"),) + ((("rivers_are_paths", True),) if rivers else ())
    bundle = bundle_with(marquise=(fields,),
                         cards=(("tunnels", (("crafting_adjacent", True),)),))
    g = at_daylight(bundle, order, core_kind,
                    {"5": {"cat-warrior": 1, "workshop": 1, "bird-warrior": 3},
                     "10": {"workshop": 1, "bird-warrior": 3}})
    position.set_play_area(g, order.index("marquise"), ["tunnels"])
    position.goto(g, "marquise", "daylight")
    assert ("move 5->10 x1" in moves(g)) == rivers


# ------------------------------------------- the holder's links are its adjacency (2.3)

@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rivers", [True, False])
def test_rivers_as_paths_are_next_to_home_at_setup(order, core_kind, rivers):
    """Law 2.3, adjacency is "linked by a path"; for a faction whose rivers are paths
    (Law 11.2.2, 16.2.6, Swimmers: its own ability, so in force at setup) the clearings
    next to its home include those a river joins: the Marquise's keep in corner 4, her
    buildings go in 4 or a clearing next to it (Law 6.3.4), 7 among them across the
    river 4-7; without the ability, 8, 9 and 12 only.  Reached through the setup flow."""
    from rootlaw.runtime import Game

    bundle = bundle_with(marquise=((("rivers_are_paths", True),),)) if rivers else \
        bundle_with()
    g = Game(list(order), 1, bundle=bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    assert (g.decision, g.factions[g.to_play]) == ("setup_home_token", "marquise")
    g.apply("clearing 4")
    assert g.decision == "setup_buildings_near_home"
    near = {"clearing 4", "clearing 8", "clearing 9", "clearing 12"}
    assert set(g.legal()) == (near | {"clearing 7"} if rivers else near)
    if rivers:
        g.apply("clearing 7")
        assert g.piece_counts()["7"].get("sawmill", 0) + \
            g.piece_counts()["7"].get("workshop", 0) + \
            g.piece_counts()["7"].get("recruiter", 0) == 1


@pytest.mark.parametrize("rivers", [True, False])
def test_setup_slots_counts_a_factions_own_river_links(rivers):
    """SETUP-SLOTS (Law 2.2.3, 6.3.4) judges the room next to a home as the setup sees
    it: with 8, 9 and 12 full, corner 4 has one free slot of its own; for a Marquise
    whose rivers are paths, 7 (across the river 4-7) is next to it, and there is room."""
    from rootlaw.spec.semantics import _setup_room

    b = bundle_with(marquise=((("rivers_are_paths", True),),)) if rivers else bundle_with()
    m = b.map.model_copy(update={"clearings": [
        c.model_copy(update={"slots": int(c.ruin)}) if c.id in (8, 9, 12) else c
        for c in b.map.clearings]})
    found = [msg for _, _, msg in _setup_room(m, b.deck, b.factions)
             if "corner 4 and the clearings next to it" in msg]
    assert (found == []) == rivers, found
