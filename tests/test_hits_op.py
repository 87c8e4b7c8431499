"""How the hits go otherwise in one battle is one effect op, 'hits' (models.HitsOp):
extra hits dealt, which ignore the rolled-hits cap (Law 4.3.5.I: Sappers, Brutal
Tactics), and every rolled hit taken ignored (Law 4.3.5.III: Armorers).  The two ops it
replaced, one each, still read as their first spellings, and the rules hash reads a
'hits' op saying one thing as that spelling, so the base game hashes as before
(ef5ee339ef4f9a3a).  The test pack 'hits' makes Armorers do both at once."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import assert_located, deck_with_armorers_doing, past_setup
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.catalogue import content_files, uses
from rootlaw.spec.semantics import check_document

DATA = Path(__file__).resolve().parent / "data" / "packs"
ROOT = Path(__file__).resolve().parent.parent
OP = TypeAdapter(M.EffectOp)


@cache
def hits_bundle():
    bundle = resolve([DATA / "hits"])
    gbuild.compile_core(bundle)
    return bundle


# ------------------------------------------------------------------- one model

@pytest.mark.parametrize("old, extra, ignore", [
    ({"op": "extra_hits", "hits": 2}, 2, False),
    ({"op": "extra_hits"}, 1, False),  # the first spelling's default: one hit
    ({"op": "ignore_rolled_hits"}, 0, True)])
def test_the_first_spellings_read_as_one_hits_op(old, extra, ignore):
    op = OP.validate_python(old)
    assert isinstance(op, M.HitsOp) and op.op == "hits"
    assert (op.extra, op.ignore_rolled) == (extra, ignore)


def test_the_base_game_hashes_as_before():
    """Sappers, Brutal Tactics and Armorers are written 'hits' now; the rules hash reads
    each as the op it was first written as, so saves and logs keep loading."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    cards = {c["id"]: c for c in b.canonical()["deck"]["cards"]}
    assert cards["armorers"]["abilities"][0]["do"] == [{"op": "ignore_rolled_hits"}]
    assert cards["sappers"]["abilities"][0]["do"] == [{"op": "extra_hits", "hits": 1}]
    assert cards["brutal-tactics"]["abilities"][0]["do"][0] == {"op": "extra_hits",
                                                                 "hits": 1}
    ops = [op for c in b.deck.cards for a in c.abilities if isinstance(a, M.Effect)
           for op in a.do if isinstance(op, M.HitsOp)]
    assert len(ops) == 3 and all(op.op == "hits" for op in ops)


def test_an_op_saying_both_hashes_as_itself():
    b = hits_bundle()
    cards = {c["id"]: c for c in b.canonical()["deck"]["cards"]}
    assert cards["armorers"]["abilities"][0]["do"] == [
        {"op": "hits", "extra": 1, "ignore_rolled": True}]
    assert b.hash != resolve().hash


# ------------------------------------------------------------------- validation

@pytest.mark.parametrize("do, code, where, words", [
    ([{"op": "hits"}], "VALUE-INVALID", "/op", "changes the hits"),
    ([{"op": "hits", "extra": 11}], "VALUE-INVALID", "/extra", ""),
    ([{"op": "hits", "extras": 1}], "KEY-UNKNOWN", "/extras", "extra"),
    ([{"op": "extra_hits", "hits": 0}], "VALUE-INVALID", "/hits", "from 1 to 10"),
    ([{"op": "extra_hits", "extra": 1}], "KEY-UNKNOWN", "/extra", "'hits'"),
    ([{"op": "ignore_rolled_hits", "ignore_rolled": True}], "KEY-UNKNOWN",
     "/ignore_rolled", "alone")])
def test_a_wrong_hits_op_is_a_located_error(do, code, where, words):
    doc, i = deck_with_armorers_doing(do)
    assert_located(doc, code, f"/cards/{i}/abilities/0/do/0{where}", words)


def test_hits_outside_a_battle_is_refused_as_before():
    """EFFECT-BATTLE-ONLY (Law 4.3.2, 4.3.4): a phase timing's program cannot change a
    battle's hits, in either spelling."""
    for op in ({"op": "hits", "extra": 1}, {"op": "extra_hits", "hits": 1}):
        doc, i = deck_with_armorers_doing([op])
        next(c for c in doc["cards"] if c["id"] == "armorers")["abilities"][0]["timing"] = \
            "daylight"
        deck = M.DeckSpec.model_validate(doc)
        found = [(d.code, d.pointer) for d in
                 check_document(deck, "deck.json").diagnostics()]
        assert ("EFFECT-BATTLE-ONLY", f"/cards/{i}/abilities/0/do/0") in found, found


# ------------------------------------------------------------------- the catalogue

def test_the_catalogue_has_one_hits_row_used_by_the_deck():
    content = content_files(ROOT / "examples")
    assert "base/standard-deck.json" in set(uses(content)[M.HitsOp])
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert "| `hits` |" in text
    for old in ("extra_hits", "ignore_rolled_hits"):
        assert f"| `{old}` |" not in text


# ------------------------------------------------------------------- in play

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("patched", [True, False])
def test_armorers_ignores_rolled_hits_and_with_the_pack_deals_one_more(core_kind, order,
                                                                       patched):
    """Law 4.3.5.III and 4.3.5.I: the Marquise attack, roll 2 for them and 1 for the
    Eyrie; after the roll (4.3.4) they discard Armorers: the Eyrie's rolled hit is
    ignored, and with the pack's op the Marquise deal an extra hit past the roll."""
    g = past_setup(order, bundle=hits_bundle() if patched else None,
                   pure=core_kind == "pure", clear=True, empty_hands=True)
    m = g.factions.index("marquise")
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.move_card(g, "armorers", g.consts["LOC_PLAY"] + m)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 eyrie")
    assert g.decision == "battle_effects" and g.to_play == m
    g.apply("use armorers")
    assert sc.count(g, "5", "cat-warrior") == 3
    assert sc.count(g, "5", "bird-warrior") == (0 if patched else 1)
    assert "armorers" not in sc.play_area(g, m)
