"""How battle (Law 4.3) goes otherwise for a faction is one ability, 'battle'
(models.Battle): what changes as attacker (extra hits, Law 4.3.5.I and 7.8.3; ambushes
ignored, 4.3.1), as defender (dealing the higher roll, 8.2.2) and what removing enemy
buildings or tokens in it scores (7.8.4).  The four abilities it replaced, one modifier
each, still read as their first spellings, and the rules hash reads a one-modifier
'battle' as that spelling, so the base game hashes as before (ef5ee339ef4f9a3a).  The
test pack battle-modifiers gives the Marquise all four at once ('Warlord')."""

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


@cache
def warlord_bundle():
    bundle = resolve([DATA / "battle-modifiers"])
    gbuild.compile_core(bundle)
    return bundle


def game(order, core_kind, *, warlord=True):
    bundle = warlord_bundle() if warlord else None
    return past_setup(order, bundle=bundle, pure=core_kind == "pure", clear=True,
                      empty_hands=True)


# ------------------------------------------------------------------- one model

@pytest.mark.parametrize("old, modifiers", [
    ({"kind": "attack_extra_hits", "id": "x", "hits": 2}, [("attack_extra_hits", 2)]),
    ({"kind": "battle_removal_vp", "id": "x", "vp": 1}, [("battle_removal_vp", 1)]),
    ({"kind": "ignore_ambush_as_attacker", "id": "x"}, [("ignore_ambush_as_attacker", 1)]),
    ({"kind": "defender_takes_high_roll", "id": "x"}, [("defender_takes_high_roll", 1)])])
def test_the_first_spellings_read_as_one_battle_ability(old, modifiers):
    """Each of the four battle modifiers written as its own ability kind (their first
    spelling) is a 'battle' ability making that one modifier."""
    ab = ABILITY.validate_python(old)
    assert isinstance(ab, M.Battle) and ab.kind == "battle"
    assert ab.modifiers() == modifiers


def test_one_ability_may_change_several_steps():
    ab = ABILITY.validate_python(
        {"kind": "battle", "id": "warlord", "attacking": {"extra_hits": 1,
                                                          "ambush_ignored": True},
         "defending": {"deal_high_roll": True}, "removal_vp": 2})
    assert ab.modifiers() == [("attack_extra_hits", 1), ("battle_removal_vp", 2),
                              ("ignore_ambush_as_attacker", 1),
                              ("defender_takes_high_roll", 1)]


def test_the_base_game_hashes_as_before():
    """The Eyrie's Commander and Despot, the Alliance's Guerrilla War and Scouting Party
    are written 'battle' now; the rules hash reads each as the kind it was first written
    as, so saves and logs of the base game keep loading."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    eyrie = next(f for f in b.canonical()["factions"] if f["id"] == "eyrie")
    commander = next(a for a in eyrie["abilities"] if a["id"] == "commander-extra-hit")
    assert commander == {"kind": "attack_extra_hits", "id": "commander-extra-hit",
                         "name": "Commander", "law": "7.8.3", "hits": 1}
    for f in b.factions:
        for a in f.abilities:
            assert a.kind not in ("attack_extra_hits", "battle_removal_vp",
                                  "defender_takes_high_roll")


# ------------------------------------------------------------------- validation

@pytest.mark.parametrize("ability, code, where, words", [
    ({"kind": "battle", "id": "idle"}, "VALUE-INVALID", "/kind", "changes something"),
    ({"kind": "battle", "id": "x", "attacking": {"extra_hit": 1}}, "KEY-UNKNOWN",
     "/attacking/extra_hit", "extra_hits"),
    ({"kind": "battle", "id": "x", "attacking": {"extra_hits": 11}}, "VALUE-INVALID",
     "/attacking/extra_hits", ""),
    ({"kind": "attack_extra_hits", "id": "x"}, "KEY-MISSING", "/hits", "hits"),
    ({"kind": "attack_extra_hits", "id": "x", "hits": 0}, "VALUE-INVALID", "/hits", ""),
    ({"kind": "battle_removal_vp", "id": "x"}, "KEY-MISSING", "/vp", "vp")])
def test_a_wrong_battle_ability_is_a_located_error(ability, code, where, words):
    doc, n = faction_with("eyrie", ability)
    assert_located(doc, code, f"/abilities/{n}{where}", words)


# ------------------------------------------------------------------- the catalogue

def test_the_catalogue_has_one_battle_row_used_by_the_files_that_modify_battle():
    content = content_files(ROOT / "examples")
    files = set(uses(content)[M.Battle])
    assert {"base/eyrie.json", "base/alliance.json", "base/standard-deck.json"} <= files
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert "| `battle` |" in text
    for old in ("attack_extra_hits", "battle_removal_vp", "defender_takes_high_roll",
                "ignore_ambush_as_attacker"):
        assert f"| `{old}` |" not in text


# ------------------------------------------------------------------- in play

ATTACKING_ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"),
                    ("alliance", "eyrie", "marquise")]


@pytest.mark.parametrize("order", ATTACKING_ORDERS)
@pytest.mark.parametrize("warlord", [True, False])
def test_attacking_an_extra_hit_past_the_warrior_cap(core_kind, order, warlord):
    """Law 4.3.5.I with 4.3.2: one Marquise warrior caps its rolled hits at one; the
    Warlord's extra hit removes a second defender."""
    g = game(order, core_kind, warlord=warlord)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "bird-warrior") == (1 if warlord else 2)
    assert sc.count(g, "5", "cat-warrior") == 1


@pytest.mark.parametrize("order", ATTACKING_ORDERS)
@pytest.mark.parametrize("warlord", [True, False])
def test_attacking_the_defender_is_not_asked_to_ambush(core_kind, order, warlord):
    """Law 4.3.1: ambushes have no effect on the Warlord as attacker, so the defender
    holding a matching ambush is not asked; without the ability it is."""
    g = game(order, core_kind, warlord=warlord)
    eyrie = g.factions.index("eyrie")
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, eyrie, ["rabbit-ambush"])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 1, 1)
    g.apply("battle 5 eyrie")
    if warlord:
        assert g.decision != "ambush" and "rabbit-ambush" in g.hand(eyrie)
        assert sc.count(g, "5", "bird-warrior") == 1  # 1 rolled + 1 extra
    else:
        assert g.decision == "ambush" and g.to_play == eyrie


@pytest.mark.parametrize("order", ATTACKING_ORDERS)
@pytest.mark.parametrize("warlord", [True, False])
def test_removing_a_building_in_battle_scores_one_more(core_kind, order, warlord):
    """Law 7.8.4's bonus as a battle ability, with 3.2.1: the Marquise's hits remove the
    bird warrior and then the roost, 1 VP for the roost and 1 for the Warlord."""
    g = game(order, core_kind, warlord=warlord)
    m = g.factions.index("marquise")
    sc.set_vp(g, m, 0)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "roost", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "roost") == 0 and sc.count(g, "5", "bird-warrior") == 0
    assert g.scores[m] == (2 if warlord else 1)


@pytest.mark.parametrize("order", [("marquise", "eyrie", "alliance"),
                                   ("alliance", "marquise", "eyrie")])
@pytest.mark.parametrize("warlord", [True, False])
def test_defending_the_warlord_deals_the_higher_roll(core_kind, order, warlord):
    """Law 8.2.2's rule as a battle ability (Law 4.3.3 reversed for its holder as
    defender): the Alliance attack in Evening, roll 3 and 1; the Marquise deal 3."""
    g = game(order, core_kind, warlord=warlord)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "alliance-warrior", 3)
    sc.set_box(g, g.factions.index("alliance"), "officers", 1)
    sc.goto(g, "alliance", "evening")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 marquise")
    assert sc.count(g, "5", "alliance-warrior") == (0 if warlord else 2)
    assert sc.count(g, "5", "cat-warrior") == (2 if warlord else 0)
