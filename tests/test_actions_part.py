"""The turn step 'actions' and an effect program's part 'actions' are one primitive
(models.Actions): take actions from a menu (Law 1.4.1: a card's 'take more actions';
6.5, 8.5, the turn's actions).  An effect program may still write it 'take_actions' (its
first spelling), and the rules hash reads the part as that op, so the base deck hashes
as before (ef5ee339ef4f9a3a); what only a step supports is EFFECT-ACTIONS."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.catalogue import content_files, places, use_counts, uses
from rootlaw.spec.semantics import check_document

DATA = Path(__file__).resolve().parent / "data" / "packs"
ROOT = Path(__file__).resolve().parent.parent
WARRIOR = {"marquise": "cat-warrior", "eyrie": "bird-warrior",
           "alliance": "alliance-warrior"}
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"),
          ("marquise", "eyrie", "alliance"), ("alliance", "eyrie", "marquise")]


@cache
def pack_bundle(spelling: str):
    """The base game with a card whose effect takes two actions, its part spelled
    'actions' (the pack more-actions) or 'take_actions' (more-actions-old)."""
    bundle = resolve([DATA / ("more-actions" if spelling == "actions" else
                              "more-actions-old")])
    gbuild.compile_core(bundle)
    return bundle


# ------------------------------------------------------------------- one model


def test_the_step_and_the_effect_part_are_one_model():
    """Law 1.4.1: Command Warren's and Cobbler's 'take_actions' read as the turn step's
    model, count and menu kept; the rules hash dumps them as the op they were."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    deck = {c.id: c for c in b.deck.cards}
    warren = deck["command-warren"].abilities[0].do[0]
    assert type(warren) is M.Actions and warren.op == "actions"
    assert warren.count == 1 and [e.action for e in warren.menu] == ["battle"]
    marquise = b.faction("marquise")
    steps = [s for ph in (marquise.turn.birdsong, marquise.turn.daylight,
                          marquise.turn.evening) for s in ph]
    assert any(type(s) is M.Actions for s in steps)
    dump = {c["id"]: c for c in b.canonical()["deck"]["cards"]}
    assert dump["cobbler"]["abilities"][0]["do"] == [
        {"op": "take_actions", "count": 1, "menu": [{"action": "march", "moves": 1}]}]
    # The old spelling's count was 1 unless given.
    old = M.Actions.model_validate({"op": "take_actions", "menu": [{"action": "battle"}]})
    assert old == M.Actions(op="actions", count=1, menu=old.menu)


def test_either_spelling_is_the_same_rule():
    """A card written with the part 'actions' and one written 'take_actions' are the same
    rule: one canonical dump (the op's form), one compiled program."""
    new, old = pack_bundle("actions"), pack_bundle("take_actions")

    def card(b):
        return next(c for c in b.canonical()["deck"]["cards"] if c["id"] == "council-of-war")

    assert card(new) == card(old)
    assert card(new)["abilities"][0]["do"][0]["op"] == "take_actions"


# ------------------------------------------------------------------- validation

def _deck_with(do: list) -> M.DeckSpec:
    base = resolve().deck
    cards = [c.model_dump(by_alias=True, mode="json") for c in base.cards]
    warren = next(c for c in cards if c["id"] == "command-warren")
    warren["abilities"][0]["do"] = do
    return M.DeckSpec.model_validate({**base.model_dump(by_alias=True, mode="json"),
                                      "cards": cards})


@pytest.mark.parametrize("bad, field", [
    ({"count": None}, "count"), ({"count": {"box": "officers"}}, "count"),
    ({"count": 11}, "count"), ({"count": 0}, "count"),
    ({"count": 1, "extra_action_suit": "bird"}, "extra_action_suit"),
    ({"count": 1, "menu": []}, "menu")])
def test_what_only_a_step_supports_is_a_located_error(bad, field):
    """Law 1.4.1, 6.5: an effect's actions take a number of actions (1 to 10) from a
    menu; any number, a box's warriors and extra actions paid with a card are a turn
    step's: EFFECT-ACTIONS, located at the field."""
    deck = _deck_with([{"op": "actions", "menu": [{"action": "battle"}], **bad}])
    found = [d for d in check_document(deck, "deck.json").diagnostics()
             if d.code == "EFFECT-ACTIONS"]
    i = next(i for i, c in enumerate(deck.cards) if c.id == "command-warren")
    assert [d.pointer for d in found] == [f"/cards/{i}/abilities/0/do/0/{field}"]
    good = _deck_with([{"op": "actions", "count": 2, "menu": [{"action": "battle"}]}])
    assert not [d for d in check_document(good, "deck.json").diagnostics()
                if d.code == "EFFECT-ACTIONS"]


# ------------------------------------------------------------------- catalogue

def test_the_catalogue_lists_actions_once_with_where_it_may_appear():
    """One primitive, one row: the catalogue lists 'actions' under Steps, saying it may
    appear as a step and as an effect program's part, with every file using it either
    way; the header's count counts it once."""
    assert places(M.Actions) == ["Steps", "Effect ops"]
    content = content_files(ROOT / "examples")
    counts = use_counts(content)
    assert "Effect ops take_actions" not in counts and "Effect ops actions" not in counts
    assert counts["Steps actions"] == len(uses(content)[M.Actions])
    assert "base/standard-deck.json" in uses(content)[M.Actions]
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `actions` |")]
    assert len(rows) == 1 and "May appear as: a step, an effect program's part." in rows[0]
    assert "`base/standard-deck.json`" in rows[0] and "`base/marquise.json`" in rows[0]
    assert "| `take_actions` |" not in text


@pytest.mark.parametrize("twin, model, where", [
    (M.CraftAction, M.Craft, ["Steps", "Menu actions"]),
    (M.ProgramEntry, M.ProgramStep, ["Steps", "Menu actions"])])
def test_one_operation_at_two_places_is_one_row(twin, model, where):
    """Law 4.1: crafting is one operation, a step of its own (the Marquise, the Eyrie) or
    one of a menu's actions (the Alliance, Law 8.5); a program run by its name likewise:
    one row under Steps, its files the files of both, saying where it may appear."""
    from rootlaw.spec.catalogue import primitive

    assert primitive(twin) is model and places(twin) == places(model) == where
    content = content_files(ROOT / "examples")
    used = uses(content)
    both = set(used[model]) | set(used[twin])
    name = "craft" if model is M.Craft else "program"
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith(f"| `{name}` |")]
    assert len(rows) == 1 and "May appear as: a step, a menu entry." in rows[0]
    assert all(f"`{f}`" in rows[0] for f in both)
    assert use_counts(content)[f"Steps {name}"] == len(both)


# ------------------------------------------------------------------- play

def _play(order, holder, core_kind, spelling):
    """Law 1.4.1 through the turn flow: the holder's Daylight declined, its Evening
    begins with Council of War; used, two moves of the holder's warriors (12 -> 7 ->
    12), then the Evening goes on (its draw).  Returns every decision's legal notations."""
    g = past_setup(order, bundle=pack_bundle(spelling), pure=(core_kind == "pure"),
                   clear=True, empty_hands=True)
    me = order.index(holder)
    sc.move_card(g, "council-of-war", g.consts["LOC_PLAY"] + me)
    w = WARRIOR[holder]
    sc.put(g, "12", w, 2)
    sc.goto(g, holder, "daylight")
    seen = []
    while g.phase == "daylight" and g.current == me:
        legal = g.legal()
        seen.append(sorted(legal))
        g.apply("done" if "done" in legal else next(iter(legal)))
    assert g.current == me and g.phase == "evening" and g.decision == "phase_start"
    assert set(g.legal()) == {"use council-of-war", "done"}
    seen.append(sorted(g.legal()))
    g.apply("use council-of-war")
    for src, dst in (("12", "7"), ("7", "12")):
        assert g.decision == "take_actions"
        assert f"move {src}->{dst} x2" in g.legal() and "done" in g.legal()
        seen.append(sorted(g.legal()))
        g.apply(f"move {src}->{dst} x2")
    assert sc.count(g, "12", w) == 2 and sc.count(g, "7", w) == 0
    # The Evening goes on: the holder draws (Law 5.3, 6.7, 7.6, 8.7).
    assert g.decision != "take_actions" and len(g.hand(me)) >= 1
    seen.append(sorted(g.legal()))
    return seen


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(o) for o in ORDERS])
@pytest.mark.parametrize("at", [0, -1])
def test_an_effects_actions_in_each_seat(order, at, core_kind):
    """Law 1.4.1 ('at start of Evening, may take two actions'): in two seat orders of
    two and three players, first and last seat, both cores; the part spelled 'actions'
    offers exactly what the op 'take_actions' offered, at every decision."""
    holder = order[at]
    assert _play(order, holder, core_kind, "actions") == \
        _play(order, holder, core_kind, "take_actions")
