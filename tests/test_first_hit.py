"""A battle ability's 'taking': the first hit its holder takes in each battle is ignored
where a condition of the battle clearing holds (models.BattleTaking).  Law 15.2.4, the
Keepers' Devout Knights: "if you have a relic and a warrior in the battle clearing, you
ignore the first hit you take".  Test pack first-hit gives the Marquise 'Stalwart' with
wood for the relic (the value 'pieces': her wood in the clearing).  As attacker and as
defender, an ambush's hit too, once per battle, only where the condition holds when the
first hit comes; through the turn flow, in several seat orders, on both cores."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "first-hit"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


@cache
def stalwart():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def game(order, core_kind, *, ability=True):
    return past_setup(order, bundle=stalwart() if ability else None,
                      pure=core_kind == "pure", clear=True, empty_hands=True)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("wood", [1, 0])
def test_attacking_the_first_hit_is_ignored_where_she_has_wood(core_kind, order, wood):
    """She attacks with three warriors and a wood; both roll 2: she takes two hits and
    ignores the first (one warrior lost); with no wood there, both land."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "wood", wood)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 2)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "bird-warrior") == 1
    assert sc.count(g, "5", "cat-warrior") == (2 if wood else 1)
    assert sc.count(g, "5", "wood") == wood


@pytest.mark.parametrize("order", ORDERS)
def test_without_the_ability_both_hits_land(core_kind, order):
    """The base game, the same battle: no hit is ignored."""
    g = game(order, core_kind, ability=False)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 2)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "cat-warrior") == 1


@pytest.mark.parametrize("order", [("marquise", "eyrie", "alliance"),
                                   ("alliance", "marquise", "eyrie")])
def test_defending_the_first_hit_is_ignored(core_kind, order):
    """The Alliance attack her in Evening (Law 8.6.1), rolls 3 and 1: she takes three
    hits, ignores one, loses two warriors and keeps her wood (warriors first, 4.3.6)."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "alliance-warrior", 3)
    sc.set_box(g, g.factions.index("alliance"), "officers", 1)
    sc.goto(g, "alliance", "evening")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "cat-warrior") == 1 and sc.count(g, "5", "wood") == 1
    assert sc.count(g, "5", "alliance-warrior") == 2


@pytest.mark.parametrize("order", ORDERS)
def test_an_ambushs_hit_is_the_first_and_no_later_hit_is(core_kind, order):
    """Law 4.3.1 then 15.2.4: the Eyrie ambush her (two hits): the first is ignored, the
    second lands; then both roll 1 and the hit she takes lands: it is not the first."""
    g = game(order, core_kind)
    eyrie = g.factions.index("eyrie")
    sc.put(g, "5", "cat-warrior", 4)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, eyrie, ["rabbit-ambush"])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 1, 1)
    g.apply("battle 5 eyrie")
    assert g.decision == "ambush" and g.to_play == eyrie
    g.apply("spend rabbit-ambush")
    assert sc.count(g, "5", "cat-warrior") == 2  # one of two ambush hits, one rolled hit
    assert sc.count(g, "5", "bird-warrior") == 2


@pytest.mark.parametrize("order", ORDERS)
def test_each_battle_has_its_own_first_hit(core_kind, order):
    """Two battles in one Daylight, each against two bird warriors: in each she takes
    two hits and ignores the first."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "bird-warrior", 2)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 2)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "cat-warrior") == 2
    sc.put(g, "5", "bird-warrior", 2)
    sc.set_dice(g, 2, 2)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "cat-warrior") == 1


@pytest.mark.parametrize("order", [("marquise", "eyrie", "alliance"),
                                   ("alliance", "marquise", "eyrie")])
def test_no_hit_is_ignored_without_a_warrior_there(core_kind, order):
    """Her wood and a sawmill but no warrior, attacked by the Alliance in Evening: 'a
    relic and a warrior' does not hold, so the hits (two rolled, one more against a
    defenceless defender, Law 4.3.5.II) remove both pieces."""
    g = game(order, core_kind)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "alliance-warrior", 3)
    sc.set_box(g, g.factions.index("alliance"), "officers", 1)
    sc.goto(g, "alliance", "evening")
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 marquise")
    while g.decision == "remove":  # she chooses which goes first
        g.apply(g.legal_actions()[0])
    assert sc.count(g, "5", "wood") == 0 and sc.count(g, "5", "sawmill") == 0


def test_an_unknown_piece_in_the_condition_is_a_located_error(tmp_path):
    """REF-UNDEF at the name, with 'did you mean'."""
    import shutil

    from rootlaw.spec.validate import validate
    pack = tmp_path / "first-hit"
    shutil.copytree(PACK, pack)
    doc = pack / "marquise.json"
    doc.write_text(doc.read_text(encoding="utf-8").replace('"pieces": "wood"',
                                                          '"pieces": "wod"'), encoding="utf-8")
    [d] = [d for d in validate([pack]).diagnostics if d.code == "REF-UNDEF"]
    assert "did you mean 'wood'" in d.message
    assert "/abilities/2/taking/holds/all_of/0/at_least/0/pieces" in d.message
