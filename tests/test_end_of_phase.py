"""Effects offered as a phase ends ('end_of_birdsong', 'end_of_daylight': models.Timing),
an 'if' in an effect program with what its actions did ('did': models.Did), and actions
an effect must take ('must': models.Actions; a march's 'then_battle': 'must').

A homebrew card, Patrol Route, says them all: "At the end of Daylight, you may take a
move. If you did, score one point; otherwise draw a card."  The Exiles deck's Eyrie
Emigre (tests/test_exiles_partisans.py) is the printed rule they serve, with the Law's
Hoard (14.2.4, "At the end of your Birdsong").  Reached through the engine's turn flow
(Daylight's actions declined one by one), in three seat orders, on both cores.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import base_with_cards, deck_with_armorers_doing, past_setup

from rootlaw.runtime import position as sc
from rootlaw.spec import models as M

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]
PATROL = {
    "id": "patrol-route", "name": "Patrol Route", "suit": "mouse", "kind": "persistent",
    "cost": ["mouse"],
    "abilities": [{"kind": "effect", "id": "patrol-route", "timing": "end_of_daylight",
                   "do": [{"op": "actions", "count": 1,
                           "menu": [{"action": "march", "moves": 1}]},
                          {"op": "if", "if": {"did": ["move"]},
                           "then": [{"op": "score", "vp": 1}],
                           "else": [{"op": "draw", "count": 1}]}]}]}


@cache
def patrol_bundle():
    return base_with_cards(PATROL)


def marquise_daylight(order, core_kind):
    """The Marquise (three warriors in clearing 1) hold Patrol Route, at her Daylight's
    actions."""
    g = past_setup(order, bundle=patrol_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    m = g.factions.index("marquise")
    sc.put(g, "1", "cat-warrior", 3)
    sc.set_play_area(g, m, ["patrol-route"])
    sc.set_vp(g, m, 0)
    sc.goto(g, "marquise", "daylight", "actions")
    return g, m


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("moved", [True, False])
def test_an_end_of_daylight_effect_is_offered_only_as_daylight_ends(core_kind, order, moved):
    """Not among her actions (an 'end_of' effect is no anytime one); once her actions
    are declined, the phase's end offers it (with 'done': not mandatory).  Used, it takes
    one move, with 'done' (not 'must'); then its 'if' reads what the move did: a point
    where she moved, a card where she declined (its 'else')."""
    g, m = marquise_daylight(order, core_kind)
    assert g.decision == "actions" and "use patrol-route" not in g.legal()
    g.apply("done")
    assert (g.phase, g.decision, g.to_play) == ("daylight", "phase_end", m)
    assert {"use patrol-route", "done"} <= set(g.legal())
    g.apply("use patrol-route")
    assert g.decision == "take_actions" and "done" in g.legal()
    sc.set_stop(g, "end_of_phase")  # (held as Daylight ends, before Evening's draw)
    g.apply("move 1->5 x2" if moved else "done")
    if not sc.stopped(g):
        # (a card drawn may take an available dominance card, Law 3.3.4: a last window)
        assert g.decision == "phase_end" and "use patrol-route" not in g.legal()
        g.apply("done")
    assert sc.stopped(g) == "end_of_phase" and g.phase == "daylight"
    assert g.scores[m] == (1 if moved else 0)
    assert len(g.hand(m)) == (0 if moved else 1)
    assert sc.count(g, "5", "cat-warrior") == (2 if moved else 0)


@pytest.mark.parametrize("order", ORDERS[:2])
def test_declining_it_ends_daylight(core_kind, order):
    g, m = marquise_daylight(order, core_kind)
    g.apply("done")
    sc.set_stop(g, "end_of_phase")
    g.apply("done")
    assert sc.stopped(g) == "end_of_phase" and g.phase == "daylight"
    assert g.scores[m] == 0 and g.hand(m) == [] and sc.play_area(g, m) == ["patrol-route"]


def test_a_birdsong_end_effect_is_not_offered_as_daylight_ends(core_kind):
    """The timing names its phase: an 'end_of_birdsong' card is not offered at the end of
    Daylight (the Marquise, her actions declined: no window at all)."""
    doc = dict(PATROL, abilities=[dict(PATROL["abilities"][0], timing="end_of_birdsong")])
    bundle = base_with_cards(doc)
    g = past_setup(ORDERS[0], bundle=bundle, pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["patrol-route"])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("done")
    assert g.decision != "phase_end" and g.phase != "daylight"


@pytest.mark.parametrize("order", ORDERS[:2])
def test_whether_she_is_asked_as_daylight_ends_does_not_depend_on_her_hand(core_kind, order):
    """A mandatory end-of-Daylight effect is never used unasked: the window also lists
    the dominance cards her hand may take (Law 3.3.4), so using it at once where it is
    the only option would tell the table whether she holds a matching card (Law 1.2; a
    review's finding).  Twins that differ only in her one card see the same decision."""
    doc = dict(PATROL, abilities=[dict(PATROL["abilities"][0], mandatory=True)])
    bundle = base_with_cards(doc)
    seen = []
    for card in ("fox-root-tea", "mouse-root-tea"):
        g = past_setup(order, bundle=bundle, pure=core_kind == "pure", clear=True,
                       empty_hands=True)
        m = g.factions.index("marquise")
        sc.put(g, "1", "cat-warrior", 3)
        sc.set_play_area(g, m, ["patrol-route"])
        sc.move_card(g, "fox-dominance", g.consts["LOC_AVAILABLE"])
        sc.set_hand(g, m, [card])
        sc.goto(g, "marquise", "daylight", "actions")
        g.apply("done")
        seen.append((g.phase, g.decision, g.to_play))
        assert "done" not in g.legal() and "use patrol-route" in g.legal()
    assert seen[0] == seen[1] == ("daylight", "phase_end", seen[0][2])


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize("do, code, where, words", [
    ([{"op": "if", "if": {"did": ["move"]}, "then": [{"op": "draw"}]}],
     "CONDITION-DID", "/do/0/if", "after the part"),
    ([{"op": "actions", "count": 1, "menu": [{"action": "march"}]},
      {"op": "if", "if": {"did": ["move"]}, "then": [{"op": "stop"}]}],
     "EFFECT-IF", "/do/1/then/0", "no effect program's part"),
    ([{"op": "discard", "card": "chosen"}], "EFFECT-IF", "/do/0/card", "'this' card"),
    ([{"op": "actions", "count": 1, "must": True, "menu": [{"action": "craft"}]}],
     "EFFECT-ACTIONS", "/do/0/must", "moves and battles"),
    ([{"op": "move", "piece": "piece", "from": "forest"}], "EFFECT-IF", "/do/0/piece",
     "'warrior'"),
    ([{"op": "take", "from": "discard", "matching": "clearing"}], "EFFECT-TARGET",
     "/do/0", "needs a clearing"),
    ([{"op": "if", "if": {"here": {"suit": "fox"}}, "then": [{"op": "draw"}]}],
     "EFFECT-TARGET", "/do/0", "needs a clearing"),
    ([{"op": "if", "if": {"none_on_map": "keep"}, "then": [{"op": "draw"}]}],
     "EFFECT-PART", "/do/0/if/none_on_map", "names none"),
    ([{"op": "move", "piece": "warrior", "who": "target", "count": {"box": "officers"}}],
     "EFFECT-PART", "/do/0/count/box", "names none"),
    ([{"op": "move", "piece": "warrior", "to": "box"}], "EFFECT-IF", "/do/0", "'from' and"),
])
def test_what_an_effect_program_cannot_carry_out_is_located(do, code, where, words):
    doc, i = deck_with_armorers_doing(do)
    card = doc["cards"][i]
    card["abilities"][0]["timing"] = "daylight"
    card["abilities"][0].pop("side", None)
    found = findings(M.DeckSpec, doc)
    assert (code, f"/cards/{i}/abilities/0{where}") in [(c, p) for c, p, _ in found], found
    assert all(words in m for c, _, m in found if c == code)


def findings(model, doc: dict) -> list[tuple[str, str, str]]:
    """What validating a document's meaning finds: (code, pointer, message)."""
    from rootlaw.spec.semantics import check_document

    return [(d.code, d.pointer, d.message) for d in
            check_document(model.model_validate(doc), "x.json").diagnostics()]


def test_this_card_is_not_an_immediate_cards_nor_a_librarys():
    doc, i = deck_with_armorers_doing([{"op": "draw"}])
    k = next(j for j, c in enumerate(doc["cards"]) if c["kind"] == "immediate" and
             c.get("on_craft"))
    doc["cards"][k]["on_craft"] = [{"op": "discard", "card": "this"}]
    assert ("EFFECT-IF", f"/cards/{k}/on_craft/0/card") in [
        (c, p) for c, p, _ in findings(M.DeckSpec, doc)]
    lib = {"kind": "library", "id": "x", "programs": {"toss": {
        "verb": "toss", "do": [{"op": "choose", "clearing": {}},
                               {"op": "discard", "card": "this"}]}}}
    assert ("PROGRAM-SHAPE", "/programs/toss/do/1/card") in [
        (c, p) for c, p, _ in findings(M.LibrarySpec, lib)]


def test_a_steps_actions_are_not_must():
    from conftest import faction_with

    doc, _ = faction_with("marquise", {"kind": "rule", "id": "x", "ties": True})
    doc["turn"]["daylight"][1]["must"] = True
    assert doc["turn"]["daylight"][1]["op"] == "actions"
    assert ("EFFECT-ACTIONS", "/turn/daylight/1/must") in [
        (c, p) for c, p, _ in findings(M.FactionSpec, doc)]


def test_a_take_of_dominance_cards_is_refused():
    """A dominance card discarded goes to the available ones (Law 3.3.3), never to the
    pile: a take of them could never take one (VALUE-INVALID, at the kind)."""
    from rootlaw.spec.loader import validate_data

    doc, i = deck_with_armorers_doing([{"op": "take", "kind": ["dominance"]}])
    _, found, _ = validate_data(doc)
    assert any(c == "VALUE-INVALID" and p.startswith(f"/cards/{i}/abilities/0/do/0/kind")
               for c, _, p in found), found


def test_this_card_is_a_cards_program_only():
    from conftest import faction_with

    doc, k = faction_with("marquise", {
        "kind": "effect", "id": "leave", "timing": "daylight",
        "do": [{"op": "discard", "card": "this"}]})
    found = findings(M.FactionSpec, doc)
    assert ("EFFECT-IF", f"/abilities/{k}/do/0/card") in [(c, p) for c, p, _ in found]


def test_an_end_of_phase_effect_may_be_mandatory():
    doc, i = deck_with_armorers_doing([{"op": "draw"}])
    card = doc["cards"][i]
    card["abilities"][0].update(timing="end_of_birdsong", mandatory=True)
    card["abilities"][0].pop("side", None)
    assert "EFFECT-PARAM" not in [c for c, _, _ in findings(M.DeckSpec, doc)]
    card["abilities"][0]["timing"] = "birdsong"
    assert ("EFFECT-PARAM", f"/cards/{i}/abilities/0/mandatory") in [
        (c, p) for c, p, _ in findings(M.DeckSpec, doc)]


def test_a_move_of_warriors_is_an_effect_programs():
    """A library program's 'move' is of the piece its second choice chose; a move of a
    player's warriors ('warrior': the Exiles deck's False Orders) is an effect program's
    (a program's moves are a menu's march, Law 4.2)."""
    lib = {"kind": "library", "id": "orders", "programs": {"order": {
        "verb": "order", "do": [{"op": "choose", "clearing": {}},
                                {"op": "move", "piece": "warrior", "ignore_rule": True}]}}}
    found = findings(M.LibrarySpec, lib)
    assert ("PROGRAM-SHAPE", "/programs/order/do/1") in [(c, p) for c, p, _ in found], found


def test_did_in_a_library_program_is_judged_where_it_is_run():
    """A library program may read 'did' (run as a step after an 'actions' step it reads
    what that step's actions did): the library alone is no finding; where it is run is
    (tests/test_did_after_step.py: CONDITION-DID at the use)."""
    did = {"op": "if", "if": {"did": ["move", "battle"]}, "then": [{"op": "draw"}]}
    doc = {"kind": "library", "id": "relentless", "programs": {
        "relentless_check": {"law": "14.7.5", "do": [did]}}}
    assert not [x for x in findings(M.LibrarySpec, doc) if x[0] == "CONDITION-DID"]
