"""A program's 'battle' (models.BattlePart): the actor initiates a battle in the chosen
clearing (Law 4.3), choosing the defender when more than one player may be, and the
program's parts after it run once the battle is over.  Law 15.5.2.II, the Keepers'
'Battle then Delve' ("you must initiate a battle there if any enemy pieces are there.
Then ..."), and Law 10.4.3's crusade ("then, if you wish, initiate a battle"): test pack
battle-parts gives the Marquise a sortie (a battle she must fight, then a wood placed)
and a skirmish (a battle she may decline, then 1 VP).  Through the turn flow, in several
seat orders, on both cores."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "battle-parts"
TWO = [("marquise", "eyrie"), ("eyrie", "marquise")]
THREE = [("marquise", "eyrie", "alliance"), ("alliance", "eyrie", "marquise")]


@cache
def sorties():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def game(order, core_kind):
    return past_setup(order, bundle=sorties(), pure=core_kind == "pure", clear=True,
                      empty_hands=True)


@pytest.mark.parametrize("order", TWO + THREE)
def test_the_parts_after_the_battle_run_once_it_is_over(core_kind, order):
    """Her one warrior against three: she deals one hit, takes two; the second finds no
    piece of hers, since the wood is placed only after the battle (Law 4.3.6 then the
    program's next part): a wood is there at the end, her warrior gone."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 2)
    g.apply("sortie 5")
    assert sc.count(g, "5", "bird-warrior") == 2
    assert sc.count(g, "5", "cat-warrior") == 0
    assert sc.count(g, "5", "wood") == 1
    assert g.decision == "actions" and g.current == g.factions.index("marquise")


@pytest.mark.parametrize("order", THREE)
def test_the_defender_is_chosen_when_two_may_be(core_kind, order):
    """The Eyrie and the Alliance both have pieces there: she chooses (no 'done': the
    battle must be fought), and the battle is against the one chosen."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "alliance-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("sortie 5")
    assert g.decision == "defender"
    assert sorted(g.legal()) == ["battle 5 alliance", "battle 5 eyrie"]
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "bird-warrior") == 0
    assert sc.count(g, "5", "alliance-warrior") == 1
    assert sc.count(g, "5", "cat-warrior") == 2 and sc.count(g, "5", "wood") == 1


@pytest.mark.parametrize("order", TWO)
def test_with_none_to_fight_the_parts_after_run_at_once(core_kind, order):
    """No other player's piece in the clearing: no battle, the wood placed at once."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("sortie 5")
    assert sc.count(g, "5", "wood") == 1 and g.decision == "actions"


@pytest.mark.parametrize("order", TWO)
@pytest.mark.parametrize("fight", [True, False])
def test_a_battle_that_may_be_declined(core_kind, order, fight):
    """Law 10.4.3's 'if you wish': the skirmish asks, 'done' declining; either way its
    VP is scored after."""
    g = game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_vp(g, m, 0)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("skirmish 5")
    assert g.decision == "defender" and sorted(g.legal()) == ["battle 5 eyrie", "done"]
    sc.set_dice(g, 1, 0)
    g.apply("battle 5 eyrie" if fight else "done")
    assert sc.count(g, "5", "bird-warrior") == (0 if fight else 1)
    assert g.scores[m] == 1 and g.decision == "actions"


@pytest.mark.parametrize("order", TWO)
def test_the_program_waits_through_an_ambush(core_kind, order):
    """Law 4.3.1: the Eyrie ambush her two warriors (two hits), the battle goes on to
    its roll, and only then is the wood placed: it is not among the pieces removed."""
    g = game(order, core_kind)
    e = g.factions.index("eyrie")
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 2)
    sc.set_hand(g, e, ["rabbit-ambush"])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("sortie 5")
    assert g.decision == "ambush" and sc.count(g, "5", "wood") == 0
    g.apply("spend rabbit-ambush")
    assert sc.count(g, "5", "cat-warrior") == 0 and sc.count(g, "5", "wood") == 1


@pytest.mark.parametrize("program, where, words", [
    ({"verb": "raid", "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                             {"op": "battle"}, {"op": "battle"}]},
     "/programs/raid/do/1", "one 'battle' a program"),
    ({"verb": "raid", "do": [{"op": "choose", "clearing": {"has": "warrior"},
                              "card": {"from": "hand", "matching": "clearing"}},
                             {"op": "battle"}]},
     "/programs/raid/do/1", "a choice of a clearing alone"),
    ({"do": [{"op": "battle"}]}, "/programs/raid/do/0", "no clearing is chosen")])
def test_a_battle_the_engine_cannot_run_is_a_located_error(tmp_path, program, where, words):
    """PROGRAM-SHAPE at the part."""
    pack = tmp_path / "battle-parts"
    shutil.copytree(PACK, pack)
    lib = pack / "library.json"
    import json
    data = json.loads(lib.read_text(encoding="utf-8"))
    data["programs"]["raid"] = program
    lib.write_text(json.dumps(data, indent=1), encoding="utf-8")
    found = [d for d in validate([pack]).diagnostics if d.code == "PROGRAM-SHAPE"]
    assert any(d.pointer == where and words in d.message for d in found), found


@pytest.mark.parametrize("order", TWO + THREE)
def test_removing_ones_own_piece_is_offered_only_where_it_is(core_kind, order):
    """Law 1.5.4: a piece of hers removed as part of an action is one that is there: the
    dismantling (any clearing she rules, a sawmill removed) is offered where she has a
    sawmill, not where she rules without one.  It used to be offered in both, and the
    removal drove the clearing's count below zero."""
    g = game(order, core_kind)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "1", "sawmill", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("dismantle")) == ["dismantle 1"]
    g.apply("dismantle 1")
    assert sc.count(g, "1", "sawmill") == 0 and sc.count(g, "1", "wood") == 1
    assert sc.count(g, "5", "sawmill") == 0


@pytest.mark.parametrize("order", TWO)
def test_a_removal_after_the_battle_finds_the_piece_gone(core_kind, order):
    """The withdrawal's warrior removed after its battle: her one warrior fell in it, so
    nothing is removed and every count stays whole (no piece below zero, the supply and
    the map adding up to her warriors)."""
    g = game(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 2)
    g.apply("withdraw 5")
    assert sc.count(g, "5", "cat-warrior") == 0
    on_map = sum(sc.count(g, str(c), "cat-warrior") for c in range(1, 13))
    assert on_map + sc.supply(g, "cat-warrior") == sc.piece_total(g, "cat-warrior")
