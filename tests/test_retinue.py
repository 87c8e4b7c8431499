"""Columns kept as the Keepers keep their Retinue (test pack retinue, a patch of the
Eyrie's Decree).  Law 15.6.2, Gather Retinue: "You may add any number of cards from
your hand to any Retinue slots, or you may shift one card in your Retinue to a
different slot" (the Retinue holding ten at most: here six): an add_to_columns step's
'max' and 'max_bird' null (any number, birds too), 'max_total' (all columns' cards) and
'shift' (one card moved between columns, instead of adding).  Law 15.5.2, Act with
Retinue: the cards are the player's to take or leave: a resolve_columns step with no
'on_fail' hook offers 'done' (the column's cards left) and passes a column with none to
take, never turmoil.  Through the turn flow, in three seat orders, on both cores."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "retinue"
ORDERS = [("eyrie", "marquise"), ("marquise", "eyrie"), ("alliance", "eyrie", "marquise")]
FOX, RABBIT, MOUSE, BIRD = "tax-collector", "cobbler", "mouse-root-tea", "armorers"
BIRD2 = "brutal-tactics"


@cache
def retinue():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def game(order, core_kind):
    g = past_setup(order, bundle=retinue(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    return g, e


def adds(g):
    return sorted(a for a in g.legal() if a.startswith("add "))


def shifts(g):
    return sorted(a for a in g.legal() if a.startswith("shift "))


@pytest.mark.parametrize("order", ORDERS)
def test_any_number_of_cards_birds_too_are_added(core_kind, order):
    """No 'max', no 'max_bird': four cards, two of them birds, all added; the step is
    over when the player says done (none left to add)."""
    g, e = game(order, core_kind)
    sc.set_hand(g, e, [FOX, BIRD, BIRD2, MOUSE])
    sc.goto(g, "eyrie", "birdsong", "add_to_columns")
    for card, col in ((BIRD, "move"), (BIRD2, "battle"), (FOX, "recruit"), (MOUSE, "move")):
        g.apply(f"add {card} to {col}")
    assert {c: sorted(v) for c, v in g.columns(e).items()} == \
        {"recruit": [FOX], "move": sorted([BIRD, MOUSE]), "battle": [BIRD2], "build": []}
    assert g.legal_actions() == [g.legal()["done"]]


@pytest.mark.parametrize("order", ORDERS)
def test_the_columns_hold_six_cards_at_most(core_kind, order):
    """'max_total' 6: with five in the columns, one more is offered, then none."""
    g, e = game(order, core_kind)
    sc.set_column(g, e, "move", [FOX, RABBIT, MOUSE])
    sc.set_column(g, e, "battle", ["fox-root-tea", "rabbit-root-tea"])
    sc.set_hand(g, e, [BIRD, BIRD2])
    sc.goto(g, "eyrie", "birdsong", "add_to_columns")
    assert len(adds(g)) == 8  # two cards, four columns each
    g.apply(f"add {BIRD} to build")
    assert adds(g) == [] and "done" in g.legal()


@pytest.mark.parametrize("order", ORDERS)
def test_one_card_is_shifted_instead_of_adding(core_kind, order):
    """The card in the move column may go to any other column; shifted, the step is
    over (no card added after it)."""
    g, e = game(order, core_kind)
    sc.set_column(g, e, "move", [FOX])
    sc.set_hand(g, e, [RABBIT])
    sc.goto(g, "eyrie", "birdsong", "add_to_columns")
    assert shifts(g) == [f"shift {FOX} from move to {c}" for c in ("battle", "build",
                                                                     "recruit")]
    g.apply(f"shift {FOX} from move to battle")
    assert g.columns(e)["battle"] == [FOX] and g.columns(e)["move"] == []
    assert g.hand(e) == [RABBIT]
    assert "add_to_columns" not in (g.decision or "") and adds(g) == []


@pytest.mark.parametrize("order", ORDERS)
def test_no_shift_once_a_card_is_added(core_kind, order):
    """Law 15.6.2's 'or': after a card is added no card is shifted."""
    g, e = game(order, core_kind)
    sc.set_column(g, e, "move", [FOX])
    sc.set_hand(g, e, [RABBIT, MOUSE])
    sc.goto(g, "eyrie", "birdsong", "add_to_columns")
    g.apply(f"add {RABBIT} to recruit")
    assert shifts(g) == [] and len(adds(g)) == 4


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_may_be_left_and_the_next_column_taken_up(core_kind, order):
    """Law 15.5.2: the move column's fox card can be taken (a move from fox clearing
    1), but the player says done: the card stays, and the battle column's card comes
    next; no turmoil."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.put(g, "11", "bird-warrior", 2)
    sc.put(g, "11", "cat-warrior", 1)
    sc.set_column(g, e, "move", [FOX])
    sc.set_column(g, e, "battle", ["mouse-root-tea"])  # clearing 11 is mouse
    roles = sc.roles_of(g, e)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    legal = g.legal()
    assert "done" in legal and any(a.startswith("move 1->") for a in legal)
    g.apply("done")
    legal = g.legal()
    assert "battle 11 marquise" in legal and not any(a.startswith("move ") for a in legal)
    g.apply("done")
    assert g.current != e  # her Evening ran unasked: the next player's turn
    assert sc.roles_of(g, e) == roles  # no turmoil
    assert g.columns(e)["move"] == [FOX] and g.columns(e)["battle"] == ["mouse-root-tea"]


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_that_cannot_be_taken_is_passed_without_turmoil(core_kind, order):
    """No warrior in a mouse clearing: the move column's mouse card has no move; the
    column is passed unasked, the cards stay, the roles too, and Daylight ends."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "bird-warrior", 2)
    sc.set_column(g, e, "move", [MOUSE])
    roles = sc.roles_of(g, e)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.current != e  # passed unasked, her Evening ran: the next player's turn
    assert g.columns(e)["move"] == [MOUSE]
    assert sc.roles_of(g, e) == roles


@pytest.mark.parametrize("order", ORDERS)
def test_the_decree_with_its_hook_falls_into_turmoil_there(core_kind, order):
    """The twin in the base game (Law 7.7): the same card that cannot be resolved runs
    the Eyrie's turmoil: the Decree is discarded and a new leader is chosen."""
    g = past_setup(order, pure=core_kind == "pure", clear=True, empty_hands=True)
    e = g.factions.index("eyrie")
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    sc.put(g, "1", "bird-warrior", 2)
    sc.set_column(g, e, "move", [MOUSE])
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert g.current == e and g.decision == "choose_role"
    assert g.columns(e)["move"] == []


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("ruled", [1, 2])
def test_a_card_is_discarded_as_it_resolves_where_its_condition_holds(core_kind, order,
                                                                      ruled):
    """Law 15.5.2's 'discard the Retinue card if you rule fewer clearings of that suit
    than ...': the recruit column's program musters at a roost, then discards the card
    it resolves ('discard' of the 'resolving' card) where she rules fewer than two
    clearings of the chosen clearing's suit: ruling fox clearing 1 alone, the fox card
    goes to the discard pile; ruling 1 and 6, it stays."""
    g, e = game(order, core_kind)
    sc.put(g, "1", "roost", 1)
    sc.put(g, "1", "bird-warrior", 1)
    if ruled == 2:
        sc.put(g, "6", "bird-warrior", 1)
    sc.set_column(g, e, "recruit", [FOX])
    discarded = g.cards_at(g.consts["LOC_DISCARD"]).count(FOX)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    g.apply("muster 1")
    assert sc.count(g, "1", "bird-warrior") == 2
    assert g.columns(e)["recruit"] == ([] if ruled == 1 else [FOX])
    assert g.cards_at(g.consts["LOC_DISCARD"]).count(FOX) == discarded + (ruled == 1)


def test_discarding_the_resolving_card_outside_a_column_is_an_error(tmp_path):
    """PROGRAM-USE at a menu entry naming the program: an entry resolves no column card."""
    import json
    import shutil

    from rootlaw.spec.validate import validate
    pack = tmp_path / "retinue"
    shutil.copytree(PACK, pack)
    (pack / "marquise.json").write_text(json.dumps({
        "kind": "patch", "target": "faction:marquise",
        "patch": [{"op": "add", "path": "/turn/daylight/1/menu/-",
                   "value": {"action": "muster", "buildings": ["sawmill"]}}]}),
        encoding="utf-8")
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["content"].append("marquise.json")
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    found = [d for d in validate([pack]).diagnostics if d.code == "PROGRAM-USE"]
    assert any("discards the column card it resolves" in d.message and
               d.file.endswith("marquise.json") for d in found), found
