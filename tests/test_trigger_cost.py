"""A trigger with a cost (models.Trigger 'cost': 'card'): Law 6.2.3, Field Hospitals,
'whenever any number of your warriors are removed from a clearing, you may spend a card
matching it to place them in the clearing with the keep', is data: a trigger on the
holder's warriors removed, paid with a matching card, whose program places them (the
part 'place' in an effect program, 'at' each clearing with the keep).  The ability kind
it replaced, rescue_removed_warriors, still reads as that trigger, and the rules hash
writes the trigger as that kind, so the base game hashes as before (ef5ee339ef4f9a3a);
the decision keeps its name, 'rescue', the trigger's 'verb'.  The test pack trigger-cost
adds a card with such a trigger (Field Medics: the warriors placed back where they
fell), so any faction holding it is asked: whether it is asked depends on its hand's
size alone, not on what the hand holds (hidden information, Law 1.2)."""

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
OLD = {"kind": "rescue_removed_warriors", "id": "field-hospitals", "name": "Field Hospitals",
       "law": "6.2.3", "token": "keep"}


@cache
def medics_bundle():
    bundle = resolve([DATA / "trigger-cost"])
    gbuild.compile_core(bundle)
    return bundle


# ------------------------------------------------------------------- one model

def test_rescue_removed_warriors_is_the_first_spelling_of_the_trigger():
    old = ABILITY.validate_python(OLD)
    assert isinstance(old, M.Trigger) and old.kind == "trigger"
    assert (old.on, old.pieces, old.by, old.cost, old.verb) == \
        ("pieces_removed", ["warrior"], "any", "card", "rescue")
    (place,) = old.do
    assert isinstance(place, M.PlacePart) and place.piece == "warrior"
    assert place.count == M.EventPieces(event="pieces")
    assert place.at == M.AtEachClearing(each_clearing=M.ClearingFilter(has="keep"))
    marquise = next(f for f in resolve().factions if f.id == "marquise")
    assert next(a for a in marquise.abilities if a.id == "field-hospitals") == old
    assert old.rescue_token() == "keep"


def test_the_base_game_hashes_as_before():
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    marquise = next(f for f in b.canonical()["factions"] if f["id"] == "marquise")
    assert next(a for a in marquise["abilities"] if a["id"] == "field-hospitals") == OLD


def test_a_trigger_unlike_the_first_spelling_hashes_as_itself():
    """Only the exact trigger rescue_removed_warriors said has that spelling: another
    verb (or any other change) is another rule."""
    ab = ABILITY.validate_python({**M.rescue_trigger("keep", id="x"), "verb": "heal"})
    assert ab.rescue_token() is None
    card = next(c for c in medics_bundle().canonical()["deck"]["cards"]
                if c["id"] == "field-medics")
    assert card["abilities"][0]["kind"] == "trigger"


# ------------------------------------------------------------------- validation

TRIGGER = M.rescue_trigger("keep", id="t")


@pytest.mark.parametrize("ability, code, where, words", [
    ({**TRIGGER, "actor": "other"}, "VALUE-INVALID", "/cost", "paid by its holder"),
    ({**TRIGGER, "on": "warriors_moved_in", "pieces": [], "token": "keep"},
     "VALUE-INVALID", "/cost", "pieces removed"),
    ({**TRIGGER, "cost": "none"}, "VALUE-INVALID", "/verb", "asks nothing"),
    ({**TRIGGER, "verb": "pay"}, "VALUE-INVALID", "/verb", "one of the engine's"),
    ({**TRIGGER, "verb": "actions"}, "VALUE-INVALID", "/verb", "one of the engine's"),
    ({**TRIGGER, "cost": "cards"}, "VALUE-INVALID", "/cost", ""),
    ({**TRIGGER, "do": [{**TRIGGER["do"][0], "at": {"each_clearing": {"has": "kep"}}}]},
     "REF-UNDEF", "/do/0/at/each_clearing/has", "keep"),
    ({**TRIGGER, "do": [{**TRIGGER["do"][0], "piece": "cat-warior"}]},
     "REF-UNDEF", "/do/0/piece", "cat-warrior"),
    ({"kind": "rescue_removed_warriors", "id": "x"}, "KEY-MISSING", "", "token"),
    ({"kind": "rescue_removed_warriors", "token": "keep"}, "KEY-MISSING", "", "'id'"),
    ({**OLD, "id": "x", "token": 3}, "VALUE-INVALID", "/token", "piece's id"),
    ({**OLD, "id": "x", "token": "kep"}, "REF-UNDEF", "/token", "keep"),
    ({**OLD, "id": "x", "tokens": "keep"}, "KEY-UNKNOWN", "/tokens", "token")])
def test_a_wrong_trigger_with_a_cost_is_a_located_error(ability, code, where, words):
    doc, n = faction_with("marquise", ability)
    assert_located(doc, code, f"/abilities/{n}{where}", words)


# ------------------------------------------------------------------- the catalogue

def test_the_catalogue_has_no_rescue_row_and_the_trigger_is_the_marquises_too():
    content = content_files(ROOT / "examples")
    assert "base/marquise.json" in set(uses(content)[M.Trigger])
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert "| `trigger` |" in text and "| `rescue_removed_warriors` |" not in text


# ------------------------------------------------------------------- in play

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


def medics_game(order, core_kind, hand):
    """The Marquise attack 3 Eyrie warriors in clearing 5 (rabbit) with 3 of theirs; the
    Eyrie hold Field Medics and these cards; the roll: 2 hits for the Marquise, none for
    the Eyrie."""
    g = past_setup(order, bundle=medics_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    sc.move_card(g, "field-medics", g.consts["LOC_PLAY"] + e)
    sc.set_hand(g, e, list(hand))
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 eyrie")
    if hand:  # the defender with cards is asked whether to ambush (Law 4.3.1): no
        assert g.decision == "ambush" and g.to_play == e
        g.apply("done")
    return g, e


@pytest.mark.parametrize("order", ORDERS)
def test_a_cards_trigger_with_a_cost_places_the_warriors_back(core_kind, order):
    """Law 6.2.3's shape on a card: the Eyrie's two warriors removed in 5 (by the
    Marquise, 'by': any), the Eyrie are asked (the trigger's verb), spend the matching
    rabbit card, and the two are placed back in 5 (the program's clearing)."""
    g, e = medics_game(order, core_kind, ["rabbit-root-tea"])
    assert g.decision == "medics" and g.to_play == e
    assert set(g.legal()) == {"spend rabbit-root-tea", "done"}
    assert sc.count(g, "5", "bird-warrior") == 1
    g.apply("spend rabbit-root-tea")
    assert sc.count(g, "5", "bird-warrior") == 3
    assert g.hand(e) == [] and "rabbit-root-tea" in g.cards_at(1)  # spent: discarded
    assert g.decision != "medics"


@pytest.mark.parametrize("order", ORDERS)
def test_done_lets_the_warriors_go(core_kind, order):
    g, e = medics_game(order, core_kind, ["rabbit-root-tea"])
    g.apply("done")
    assert sc.count(g, "5", "bird-warrior") == 1 and g.hand(e) == ["rabbit-root-tea"]


@pytest.mark.parametrize("order", ORDERS)
def test_whether_it_asks_depends_on_the_hands_size_not_its_cards(core_kind, order):
    """Hidden information (Law 1.2): twins that differ only in the Eyrie's hidden card,
    one matching the clearing and one not, are asked alike (the same decision, the same
    player, 'done' offered); only the options the Eyrie alone sees differ.  With no card
    the Eyrie are not asked at all."""
    match, e = medics_game(order, core_kind, ["rabbit-root-tea"])
    other, _ = medics_game(order, core_kind, ["fox-root-tea"])
    assert (match.decision, match.to_play) == (other.decision, other.to_play) == ("medics", e)
    assert set(other.legal()) == {"done"}
    empty, _ = medics_game(order, core_kind, [])
    assert empty.decision != "medics"
    assert sc.count(empty, "5", "bird-warrior") == 1


# ------------------------------------------------------------------- an effect's place

def _card_with(do: list, timing_or_trigger: dict) -> tuple[dict, int]:
    doc = resolve().deck.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    card = next(c for c in doc["cards"] if c["id"] == "armorers")
    card["abilities"] = [{**timing_or_trigger, "id": "x", "do": do}]
    return doc, doc["cards"].index(card)


@pytest.mark.parametrize("do, code, words", [
    ([{"op": "place", "piece": "warrior", "at": {"each_clearing": {"has": "keep"}}}],
     "EFFECT-PART", "names piece 'keep'"),
    ([{"op": "place", "piece": "warrior", "score": True}], "EFFECT-PART", "scoring"),
    ([{"op": "place", "piece": "warrior"}], "EFFECT-TARGET", "needs a clearing")])
def test_an_effects_place_that_cannot_run_is_a_located_error(do, code, words):
    """A card's program names no faction's piece (EFFECT-PART: it may be any
    faction's); an effect's place puts pieces in its clearing or in each clearing of a
    filter; in its clearing only where the program has one (EFFECT-TARGET: a Birdsong
    effect has none)."""
    from rootlaw.spec.semantics import check_document

    doc, i = _card_with(do, {"kind": "effect", "timing": "birdsong"})
    found = [(d.code, d.pointer, d.message) for d in
             check_document(M.DeckSpec.model_validate(doc), "deck.json").diagnostics()]
    assert any(c == code and p.startswith(f"/cards/{i}/abilities/0/do/0") and words in m
               for c, p, m in found), found


def test_an_effects_place_of_a_building_is_refused():
    """An effect program places warriors or tokens: a building's slot (Law 2.2.3) is no
    effect's to check (EFFECT-PART, at the part's piece)."""
    from rootlaw.spec.semantics import check_document

    doc, n = faction_with("marquise",
                          {**TRIGGER, "do": [{**TRIGGER["do"][0], "piece": "sawmill"}]})
    f = M.FactionSpec.model_validate(doc)
    found = [(d.code, d.pointer) for d in check_document(f, "m.json").diagnostics()]
    assert ("EFFECT-PART", f"/abilities/{n}/do/0/piece") in found, found


@pytest.mark.parametrize("order", ORDERS)
def test_a_free_trigger_on_the_holders_warriors_fires(core_kind, order):
    """'warrior' in a free trigger's pieces is its holder's too (Law 1.5.4: after the
    removal): the Eyrie, holding War Memorial, lose two warriors in 5 and score 1 VP
    for that clearing, with no decision asked."""
    g = past_setup(order, bundle=medics_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    sc.move_card(g, "war-memorial", g.consts["LOC_PLAY"] + e)
    sc.set_vp(g, e, 0)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "bird-warrior") == 1
    assert g.scores[e] == 1


def test_the_old_spellings_mixed_with_the_new_are_refused():
    """A first spelling says its one value with its own key: mixed with the merged
    part's keys it is a located KEY-UNKNOWN, not silently read."""
    from rootlaw.spec.loader import validate_data as vd

    eyrie = next(f for f in resolve().factions if f.id == "eyrie")
    doc = eyrie.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    n = len(doc["abilities"])
    for ab, key in (({"kind": "item_vp", "id": "x", "vp": 1, "recruit": 2}, "recruit"),
                    ({"kind": "recruit_count", "id": "x", "count": 2, "item_vp": 1},
                     "item_vp")):
        _, found, _ = vd({**doc, "abilities": [*doc["abilities"], ab]})
        assert ("KEY-UNKNOWN", f"/abilities/{n}/{key}") in [(c, p) for c, _, p in found]
    for ab, where in (({"kind": "item_vp", "id": "x", "vp": "x"}, "/vp"),
                      ({"kind": "recruit_count", "id": "x", "count": 0}, "/count")):
        _, found, _ = vd({**doc, "abilities": [*doc["abilities"], ab]})
        assert ("VALUE-INVALID", f"/abilities/{n}{where}") in [(c, p) for c, _, p in found]
    ops = TypeAdapter(M.EffectOp)
    for op in ({"op": "ignore_rolled_hits", "extra": 2},
               {"op": "extra_hits", "hits": 1, "ignore_rolled": True}):
        with pytest.raises(Exception, match="KEY-UNKNOWN|is said"):
            ops.validate_python(op)


def test_the_engines_decisions_are_the_ones_a_verb_may_not_take():
    """A trigger's verb names its decision (Game.decision), so it may not be a frame's or
    a step's name: the spec's list is the generator's frames and the scenario stops."""
    from rootlaw.generator.tables import FRAME_KINDS, STEP_OPS, STOPS

    assert set(M.ENGINE_DECISIONS) == {*FRAME_KINDS, "program", "take", *STOPS}
    assert set(STEP_OPS) - {"program"} == set(M.ENGINE_STEP_OPS)
