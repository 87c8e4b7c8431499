"""Numbers of the Law that are otherwise for a faction are one ability, 'numbers'
(models.Numbers): the VP a crafted item scores (Law 7.2.3, Disdain for Trade: 1 instead
of the printed value) and the warriors each recruit places (Law 7.8.2, Charismatic: two
instead of one).  The two abilities it replaced, one number each, still read as their
first spellings, and the rules hash reads a one-number 'numbers' as that spelling, so the
base game hashes as before (ef5ee339ef4f9a3a).  The test pack 'numbers' makes the
Eyrie's Disdain for Trade one ability of both numbers (items 2 VP, recruits of three)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import assert_located, faction_with, past_setup
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.catalogue import content_files, uses

DATA = Path(__file__).resolve().parent / "data" / "packs"
ROOT = Path(__file__).resolve().parent.parent
ABILITY = TypeAdapter(M.Ability)
FOX = "tax-collector"  # a fox card, for its suit alone (a Decree card)


@cache
def numbers_bundle():
    bundle = resolve([DATA / "numbers"])
    gbuild.compile_core(bundle)
    return bundle


# ------------------------------------------------------------------- one model

@pytest.mark.parametrize("old, modifiers", [
    ({"kind": "item_vp", "id": "x", "vp": 1}, [("item_vp", 1)]),
    ({"kind": "recruit_count", "id": "x", "count": 2}, [("recruit_count", 2)])])
def test_the_first_spellings_read_as_one_numbers_ability(old, modifiers):
    """Each of the two numbers written as its own ability kind (their first spelling) is
    a 'numbers' ability changing that one number."""
    ab = ABILITY.validate_python(old)
    assert isinstance(ab, M.Numbers) and ab.kind == "numbers"
    assert ab.modifiers() == modifiers


def test_one_ability_may_change_both_numbers():
    ab = ABILITY.validate_python({"kind": "numbers", "id": "x", "item_vp": 0, "recruit": 3})
    assert ab.modifiers() == [("item_vp", 0), ("recruit_count", 3)]


def test_the_base_game_hashes_as_before():
    """Disdain for Trade and Charismatic are written 'numbers' now; the rules hash reads
    each as the kind it was first written as, so saves and logs of the base game keep
    loading."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    eyrie = next(f for f in b.canonical()["factions"] if f["id"] == "eyrie")
    by_id = {a["id"]: a for a in eyrie["abilities"]}
    assert by_id["disdain-for-trade"] == {"kind": "item_vp", "id": "disdain-for-trade",
                                          "name": "Disdain for Trade", "law": "7.2.3",
                                          "vp": 1}
    assert by_id["charismatic-recruits"] == {
        "kind": "recruit_count", "id": "charismatic-recruits", "name": "Charismatic",
        "law": "7.8.2", "count": 2}
    for f in b.factions:
        assert all(a.kind not in ("item_vp", "recruit_count") for a in f.abilities)


def test_a_two_number_ability_hashes_as_itself():
    """Only a one-number ability has a first spelling: the test pack's two-number one
    is in the hash as written, so the pack's rules differ from the base game's."""
    b = numbers_bundle()
    eyrie = next(f for f in b.canonical()["factions"] if f["id"] == "eyrie")
    greed = next(a for a in eyrie["abilities"] if a["id"] == "disdain-for-trade")
    assert greed["kind"] == "numbers" and greed["item_vp"] == 2 and greed["recruit"] == 3
    assert b.hash != resolve().hash


# ------------------------------------------------------------------- validation

@pytest.mark.parametrize("ability, code, where, words", [
    ({"kind": "numbers", "id": "idle"}, "VALUE-INVALID", "/kind", "changes a number"),
    ({"kind": "numbers", "id": "x", "recruits": 2}, "KEY-UNKNOWN", "/recruits", "recruit"),
    ({"kind": "numbers", "id": "x", "recruit": 0}, "VALUE-INVALID", "/recruit", ""),
    ({"kind": "numbers", "id": "x", "item_vp": -1}, "VALUE-INVALID", "/item_vp", ""),
    ({"kind": "numbers", "id": "x", "item_vp_extra": 0}, "VALUE-INVALID",
     "/item_vp_extra", ""),
    ({"kind": "item_vp", "id": "x", "vp": 1, "item_vp_extra": 1}, "KEY-UNKNOWN",
     "/item_vp_extra", "'vp'"),
    ({"kind": "item_vp", "id": "x"}, "KEY-MISSING", "/vp", "vp"),
    ({"kind": "recruit_count", "id": "x"}, "KEY-MISSING", "/count", "count"),
    ({"kind": "recruit_count", "id": "x", "count": 2, "recruit": 2}, "KEY-UNKNOWN",
     "/recruit", "'count'")])
def test_a_wrong_numbers_ability_is_a_located_error(ability, code, where, words):
    doc, n = faction_with("eyrie", ability)
    assert_located(doc, code, f"/abilities/{n}{where}", words)


# ------------------------------------------------------------------- the catalogue

def test_the_catalogue_has_one_numbers_row():
    content = content_files(ROOT / "examples")
    assert "base/eyrie.json" in set(uses(content)[M.Numbers])
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert "| `numbers` |" in text
    for old in ("item_vp", "recruit_count"):
        assert f"| `{old}` |" not in text


# ------------------------------------------------------------------- in play

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


def eyrie_game(order, core_kind, role, *, patched=True):
    g = past_setup(order, bundle=numbers_bundle() if patched else None,
                   pure=core_kind == "pure", clear=True, empty_hands=True)
    e = g.factions.index("eyrie")
    sc.set_role(g, e, role)
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    return g, e


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("role, patched, warriors", [
    ("despot", True, 3), ("charismatic", True, 2), ("builder", True, 1),
    ("despot", False, 1), ("charismatic", False, 2)])
def test_a_recruit_places_the_abilitys_number_of_warriors(core_kind, order, role, patched,
                                                          warriors):
    """Law 7.8.2 read as a number: the Decree's recruit places 'recruit' warriors where
    a 'numbers' ability says so (the pack's three, under any leader but the Builder,
    who suppresses it, Law 7.8.1); the Charismatic's own two wins while that leader is
    held (its ability comes later in the faction's list); otherwise one (Law 7.5.1)."""
    g, e = eyrie_game(order, core_kind, role, patched=patched)
    sc.set_column(g, e, "recruit", [FOX])
    sc.put(g, "1", "roost", 1)  # clearing 1 is a fox clearing
    sc.goto(g, "eyrie", "daylight")
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == warriors


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("role, patched, vp", [
    ("despot", True, 2), ("builder", True, 2), ("despot", False, 1), ("builder", False, 2)])
def test_a_crafted_item_scores_the_abilitys_number(core_kind, order, role, patched, vp):
    """Law 7.2.3 read as a number: an item crafted scores 'item_vp' (the pack's 2, the
    base game's 1) instead of the printed value (the anvil's hammer: 2); the Builder
    scores the printed value (Law 7.8.1)."""
    g, e = eyrie_game(order, core_kind, role, patched=patched)
    sc.set_column(g, e, "recruit", [FOX])  # keeps the turn in Daylight after the craft
    sc.set_hand(g, e, ["anvil"])
    sc.put(g, "1", "roost", 1)
    sc.set_vp(g, e, 0)
    sc.goto(g, "eyrie", "daylight")
    g.apply("craft anvil")
    assert g.scores[e] == vp
    assert sc.crafted(g, e)["hammer"] == 1


# ------------------------------------------------------------- VP more (a card's)

@cache
def engravers_bundle():
    """The base game, its deck given Master Engravers (the Exiles and Partisans deck: a
    persistent card, "Whenever you craft an item, score one extra point")."""
    import dataclasses

    from rootlaw.runtime.game import base_bundle

    b = base_bundle()
    card = M.Card.model_validate(
        {"id": "master-engravers", "name": "Master Engravers", "suit": "mouse",
         "kind": "persistent", "cost": ["mouse", "mouse"],
         "abilities": [{"kind": "numbers", "id": "master-engravers", "item_vp_extra": 1}]})
    bundle = dataclasses.replace(b, deck=b.deck.model_copy(
        update={"cards": [*b.deck.cards, card]}))
    gbuild.compile_core(bundle)
    return bundle


def test_vp_more_has_no_first_spelling():
    """'item_vp_extra' was never its own ability kind: it hashes as written."""
    ab = ABILITY.validate_python({"kind": "numbers", "id": "x", "item_vp_extra": 1})
    assert ab.modifiers() == [("item_vp_extra", 1)]
    deck = engravers_bundle().canonical()["deck"]
    card = next(c for c in deck["cards"] if c["id"] == "master-engravers")
    assert card["abilities"][0]["kind"] == "numbers"
    assert card["abilities"][0]["item_vp_extra"] == 1


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("role, engraved, vp", [
    ("despot", True, 2), ("builder", True, 3), ("despot", False, 1)])
def test_a_card_adds_vp_to_each_item_crafted(core_kind, order, role, engraved, vp):
    """Master Engravers in the Eyrie's play area: each item it crafts scores one VP more,
    after Disdain for Trade (Law 7.2.3: 1, so 2; the Builder ignores it, Law 7.8.1: the
    anvil's printed 2, so 3)."""
    g = past_setup(order, bundle=engravers_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    e = g.factions.index("eyrie")
    sc.set_role(g, e, role)
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "recruit", [FOX])
    sc.set_hand(g, e, ["anvil"])
    sc.set_play_area(g, e, ["master-engravers"] if engraved else [])
    sc.put(g, "1", "roost", 1)
    sc.set_vp(g, e, 0)
    sc.goto(g, "eyrie", "daylight")
    g.apply("craft anvil")
    assert g.scores[e] == vp


@pytest.mark.parametrize("order", ORDERS[:2])
def test_the_card_adds_for_its_holder_alone(core_kind, order):
    """The card in the Eyrie's play area; the Marquise crafts the anvil: its printed 2."""
    g = past_setup(order, bundle=engravers_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, e, ["master-engravers"])
    sc.set_hand(g, m, ["anvil"])
    sc.put(g, "1", "workshop", 1)
    sc.set_vp(g, m, 0)
    sc.goto(g, "marquise", "daylight")
    g.apply("craft anvil")
    assert g.scores[m] == 2
