"""Three parts the Underground Duchy's rules need, each general (docs/design.md, "The
Underground Duchy, tried from outside"):

- a battle's or march's 'when' (models.BattleAction.when): offered only while a condition
  holds (Law 12.5.2, Parliament: "You may take the action of each swayed minister", the
  Captain's battle only while the Captain is swayed);
- an 'into_box' inside an 'if' (models.AtOncePart), in a program and in a trigger's
  program (Law 12.2.3, the Price of Failure: "the Duchy returns their swayed minister
  card of highest rank");
- a 'discard_all' of one suit (models.DiscardAllPart.suit; Law 12.6.1: "Discard any bird
  cards you revealed this turn, then return all other cards you revealed this turn to
  your hand").

The test pack tests/data/packs/parliament gives the Marquise ministers as the Duchy has
them: 'sway <card>' reveals a card into a face-up pile to sway the Captain, or the Lord
once the Captain is swayed (a warrior in a box each); she battles only while the Captain
is swayed and marches only while the Lord is or two cards are revealed; in Evening the
revealed birds are discarded and the rest return to her hand; and whenever enemies remove
her buildings she loses her highest minister.  Every position is reached through the
turn flow, in two seat orders, on both cores.  Autumn: 1 is adjacent to 5, 9 and 10.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import assert_located, faction_with, pack_bundle, past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "parliament"
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
ORDERS = pytest.mark.parametrize("order", [("marquise", "eyrie"),
                                           ("eyrie", "alliance", "marquise")],
                                 ids=["me", "eam"])
HAND = ["anvil", "arms-trader", "bake-sale"]  # fox, bird, rabbit


@pytest.fixture(scope="module")
def bundle():
    return pack_bundle("parliament")


def _daylight(bundle, order, pure):
    """The Marquise at her Daylight's actions, HAND in hand: three of her warriors and
    a sawmill in 1, two Eyrie warriors there, nothing else on the map; no minister
    swayed."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    m = pos.seat_of(g, "marquise")
    pos.put(g, "1", "cat-warrior", 3)
    pos.put(g, "1", "sawmill", 1)
    pos.put(g, "1", "bird-warrior", 2)
    pos.set_hand(g, m, HAND)
    pos.goto(g, "marquise", "daylight", "actions")
    assert g.to_play == m and g.compiled is not pure
    assert pos.box(g, m, "captain") == pos.box(g, m, "lord") == 0
    return g, m


def _kinds(g) -> set[str]:
    return {a.split()[0] for a in g.legal()}


def _ok(g) -> None:
    assert not list(invariant_violations(g))


@CORES
@ORDERS
def test_a_battle_is_offered_only_while_its_when_holds(bundle, order, pure):
    """No battle before the Captain is swayed, though one could be initiated in 1; once
    'sway' puts a warrior in the Captain's box, the same Daylight offers it."""
    g, m = _daylight(bundle, order, pure)
    assert "battle" not in _kinds(g) and "sway" in _kinds(g)
    g.apply("sway anvil")
    _ok(g)
    assert pos.box(g, m, "captain") == 1 and pos.zone(g, m, "revealed") == ["anvil"]
    assert "battle 1 eyrie" in g.legal()


@CORES
@ORDERS
def test_a_march_is_offered_while_any_of_its_conditions_holds(bundle, order, pure):
    """The march's 'when': the Lord swayed, or two cards revealed.  One sway (the
    Captain, one card): no march; a second (the Lord, two cards): a march; the Lord gone,
    two cards still revealed: a march still."""
    g, m = _daylight(bundle, order, pure)
    assert "move" not in _kinds(g)
    g.apply("sway anvil")
    assert "move" not in _kinds(g)
    g.apply("sway bake-sale")
    _ok(g)
    assert pos.box(g, m, "lord") == 1 and len(pos.zone(g, m, "revealed")) == 2
    assert "move" in _kinds(g)
    pos.set_box(g, m, "lord", 0)  # (her warrior back to the supply)
    assert "move" in _kinds(g)


@CORES
@ORDERS
def test_an_into_box_in_an_if_puts_what_there_is_and_requires_nothing(bundle, order, pure):
    """With no warrior in the supply, 'sway' is still offered (its 'if''s 'into_box' is no
    requirement), reveals the card and sways no one."""
    g, m = _daylight(bundle, order, pure)
    pos.set_supply(g, "cat-warrior", 0)
    assert "sway anvil" in g.legal()
    g.apply("sway anvil")
    _ok(g)
    assert pos.zone(g, m, "revealed") == ["anvil"]
    assert pos.box(g, m, "captain") == pos.box(g, m, "lord") == 0


@CORES
@ORDERS
def test_evening_discards_the_revealed_birds_and_returns_the_rest(bundle, order, pure):
    """Two cards revealed in Daylight, a bird and a rabbit; the turn goes on to Evening,
    whose first step discards the bird and returns the rabbit to the hand (then the
    Marquise draws as she always does)."""
    g, m = _daylight(bundle, order, pure)
    g.apply("sway arms-trader")
    g.apply("sway bake-sale")
    assert sorted(pos.zone(g, m, "revealed")) == ["arms-trader", "bake-sale"]
    discard = g.consts["LOC_DISCARD"]
    pos.set_deck_top(g, ["foxfolk-steel"])
    while g.to_play == m and g.phase == "daylight":
        g.apply("done")
    _ok(g)
    assert pos.zone(g, m, "revealed") == []
    assert "arms-trader" in g.cards_at(discard)
    assert sorted(g.hand(m)) == ["anvil", "bake-sale", "foxfolk-steel"]


def _lose_sawmill(g, m):
    """She attacks the Eyrie in 1 with one warrior, the dice 2 and 2: the Eyrie's two
    hits remove her warrior and her sawmill (Law 4.3.2, 4.3.6), and the turn comes back
    to her actions."""
    pos.put(g, "1", "cat-warrior", 1)
    supply = pos.supply(g, "cat-warrior")
    pos.set_dice(g, 2, 2)
    g.apply("battle 1 eyrie")
    while g.to_play != m or g.decision != "actions":
        assert g.decision in ("ambush", "battle_effects"), g.decision
        g.apply("done")
    _ok(g)
    assert pos.count(g, "1", "sawmill") == 0 and pos.count(g, "1", "cat-warrior") == 0
    return pos.supply(g, "cat-warrior") - supply - 1  # (her warrior back too)


@CORES
@ORDERS
def test_the_price_of_failure_returns_the_highest_minister(bundle, order, pure):
    """Captain and Lord swayed: the Lord's warrior goes back to the supply, the Captain
    stays (the trigger's 'if' carries out its 'then')."""
    g, m = _daylight(bundle, order, pure)
    g.apply("sway bake-sale")  # the Captain
    g.apply("sway anvil")  # the Lord
    assert pos.box(g, m, "captain") == pos.box(g, m, "lord") == 1
    assert _lose_sawmill(g, m) == 1
    assert pos.box(g, m, "lord") == 0 and pos.box(g, m, "captain") == 1


@CORES
@ORDERS
def test_the_price_of_failure_with_only_the_captain(bundle, order, pure):
    """Only the Captain swayed: the 'else' returns her."""
    g, m = _daylight(bundle, order, pure)
    g.apply("sway anvil")
    assert _lose_sawmill(g, m) == 1
    assert pos.box(g, m, "captain") == 0 and pos.box(g, m, "lord") == 0


# ---- validation: each refusal coded and located


def _menu_with(entry: dict) -> tuple[dict, str]:
    doc, _ = faction_with("marquise", {"kind": "effect", "id": "unused", "timing": "daylight",
                                       "do": [{"op": "draw"}]})
    doc["boxes"] = [{"id": "captain", "piece": "cat-warrior"}]
    doc["turn"]["daylight"][1]["menu"][0] = entry
    return doc, "/turn/daylight/1/menu/0"


def test_a_when_that_reads_the_chosen_clearing_is_refused():
    doc, at = _menu_with({"action": "battle", "when": {"all_of": [{"here": {"suit": "fox"}}]}})
    assert_located(doc, "VALUE-INVALID", f"{at}/when/all_of/0", "before anything is chosen")
    doc, at = _menu_with({"action": "march", "when": {"at_least": [
        {"clearings": {"adjacent_to": "clearing"}}, 1]}})
    assert_located(doc, "VALUE-INVALID", f"{at}/when/at_least/0/clearings/adjacent_to",
                   "the chosen clearing")


def _checked(doc: dict) -> list[tuple[str, str, str]]:
    from rootlaw.spec import models as M
    from rootlaw.spec.semantics import check_document

    f = M.FactionSpec.model_validate(doc)
    return [(d.code, d.pointer, d.message) for d in
            check_document(f, "marquise.json").diagnostics()]


@pytest.mark.parametrize("when, where, words", [
    ({"at_least": [{"box": "captian"}, 1]}, "at_least/0/box", "did you mean 'captain'"),
    ({"at_least": [{"supply": "sawmil"}, 1]}, "at_least/0/supply", "did you mean 'sawmill'"),
    ({"at_least": [{"cards": "revealed"}, 1]}, "at_least/0/cards", "zone"),
    ({"at_stage": "fox", "cycle": "moods"}, "cycle", "cycle"),
    ({"not": {"at_least": [{"box": "$box"}, 1]}}, "not/at_least/0/box", "has none"),
], ids=["box", "piece", "zone", "cycle", "parameter"])
def test_a_when_naming_what_the_faction_lacks_is_refused(when, where, words):
    doc, at = _menu_with({"action": "battle", "when": when})
    found = _checked(doc)
    assert any(c == "REF-UNDEF" and p == f"{at}/when/{where}" and words in m
               for c, p, m in found), found


def test_a_when_naming_what_the_faction_has_is_accepted():
    doc, at = _menu_with({"action": "battle", "when": {"all_of": [
        {"at_least": [{"box": "captain"}, 1]}, {"at_least": [{"cards": "hand"}, 2]},
        {"not": {"none_on_map": "sawmill"}}]}})
    assert not [x for x in _checked(doc) if x[1].startswith(at)]


def test_a_when_in_an_effects_menu_is_refused():
    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "daylight",
        "do": [{"op": "actions", "count": 1, "menu": [
            {"action": "battle", "when": {"at_least": [{"cards": "hand"}, 1]}}]}]})
    found = _checked(doc)
    assert any(c == "EFFECT-ACTIONS" and p == f"/abilities/{i}/do/0/menu/0/when" and
               "a turn step's menu entry's" in m for c, p, m in found), found


def test_discard_all_takes_one_way_to_choose_its_cards():
    doc, i = faction_with("marquise", {
        "kind": "effect", "id": "x", "timing": "daylight",
        "do": [{"op": "discard_all", "from": "hand", "except_suit": "fox", "suit": "bird"}]})
    assert_located(doc, "VALUE-INVALID", f"/abilities/{i}/do/0/suit", "give one")


# ---- what a review found: each a 'when' or an 'into_box' validation accepted and the
# build or the game then broke on


def _pack_with(tmp_path: Path, *, battle_when=None, extra_patch=(), trigger_do=None) -> Path:
    """The test pack, the battle's 'when', the trigger's program or more patch changed."""
    d = tmp_path / "parliament"
    shutil.copytree(PACK, d)
    p = d / "marquise-parliament.json"
    doc = json.loads(p.read_text(encoding="utf-8"))
    for op in doc["patch"]:
        if op.get("op") == "replace" and op["path"].endswith("/menu/0") and battle_when:
            op["value"]["when"] = battle_when
    if trigger_do is not None:
        doc["patch"][-1]["value"]["do"] = trigger_do
    doc["patch"] += list(extra_patch)
    p.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return d


def _errors(pack: Path) -> list[tuple[str, str, str, str]]:
    return [(d.code, d.file, d.pointer, d.message) for d in validate([pack], []).diagnostics
            if d.severity == "error"]


@pytest.mark.parametrize("when, battles_with", [
    # She rules 1 alone (three warriors and a sawmill there, the Eyrie two warriors):
    # she holds each forest touching 1 by one ruled clearing, none by two.
    ({"at_least": [{"forests_held": 1}, 1]}, True),
    ({"at_least": [{"forests_held": 2}, 1]}, False),
    # a count of clearings reads no chosen clearing
    ({"at_least": [{"clearings": {"rule": "self"}}, 1]}, True),
    ({"at_least": [{"clearings": {"rule": "self"}}, 2]}, False),
    ({"at_least": [{"clearings": {"rule": "self", "holds": {"at_least": [
        {"warriors": "self"}, 3]}}}, 1]}, True),
], ids=["forests-held-1", "forests-held-2", "ruled-1", "ruled-2", "holds"])
@CORES
def test_a_when_of_any_value_that_reads_nothing_chosen_builds_and_plays(tmp_path, when,
                                                                        battles_with, pure):
    pack = _pack_with(tmp_path, battle_when=when)
    assert not _errors(pack)
    b = resolve([pack])
    if not pure:
        gbuild.compile_core(b)
    g, _ = _daylight(b, ("marquise", "eyrie"), pure)
    assert ("battle 1 eyrie" in g.legal()) is battles_with


def test_a_when_in_a_setup_steps_menu_is_checked_too(tmp_path):
    pack = _pack_with(tmp_path, extra_patch=[{"op": "add", "path": "/setup/-", "value": {
        "op": "actions", "count": 1,
        "menu": [{"action": "battle", "when": {"at_least": [{"box": "captian"}, 1]}}]}}])
    found = _errors(pack)
    assert any(c == "REF-UNDEF" and f.endswith("marquise-parliament.json") and
               "did you mean 'captain'" in m for c, f, _, m in found), found


def test_an_at_stage_inside_a_value_of_a_when_is_checked_too(tmp_path):
    pack = _pack_with(tmp_path, battle_when={"at_least": [
        {"if": {"at_stage": "fox", "cycle": "moodz"}, "then": 1, "else": 0}, 1]})
    found = _errors(pack)
    assert any(c == "REF-UNDEF" and f.endswith("marquise-parliament.json") and
               "cycle" in m for c, f, _, m in found), found


@pytest.mark.parametrize("nested", [False, True], ids=["top", "in-an-if"])
def test_into_box_for_another_player_is_refused(tmp_path, nested):
    """An effect's box is its holder's: an 'into_box' for the target (in an 'if' too)
    would fill another player's box of the same number with the holder's pieces."""
    part = {"op": "into_box", "piece": "cat-warrior", "box": "lord", "who": "target"}
    do = [{"op": "if", "if": {"at_least": [{"box": "lord"}, 0]}, "then": [part]}] \
        if nested else [part]
    found = _errors(_pack_with(tmp_path, trigger_do=do))
    assert any(c == "EFFECT-PART" and "names box 'lord', the holder's, for another player"
               in m for c, _, _, m in found), found
