"""A pack's own verbs, and the `replace` part (docs/language.md, issue 12).

The pack tests/data/packs/replace-verbs gives a faction (test-lizards) whose daylight
actions are programs with verbs of their own: `convert` and `sanctify` replace an enemy
piece with one of the actor's (the Law's Replace, G.23: remove, then place in its spot;
the removal is one removal event, Law 1.5.4, the remover scoring 3.2.1), `swallow` (a
card), `bask` (a card and a clearing), `hum` (the action alone).  Each content verb is a
new action type of the bundle, after the engine's, so the base game's action space,
notation and records are unchanged (tests/test_differential.py, the goldens).

Positions are set up with the scenario aids (the board, hands), then played through the
engine's own turn flow from the Lizards' Daylight.  The rules run on the pure core; one
module-scoped compiled build checks both cores give the same listings and states (a
compiled build of a one-off bundle costs ~40 s).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator.tables import ACTION_TYPES
from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.conformance import cores_agree, invariant_violations
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "tests" / "data" / "packs" / "replace-verbs"
VERBS = ("convert", "sanctify", "swallow", "bask", "hum")  # the pack's, in first use
SEATINGS = [("marquise", "test-lizards"), ("test-lizards", "eyrie", "marquise")]


@pytest.fixture(scope="module")
def bundle():
    return resolve([PACK])


def test_the_base_game_s_action_space_has_no_content_verb():
    g = Game(["marquise", "eyrie"], 1, pure=True)
    assert tuple(g.space.offsets) == ACTION_TYPES
    assert g.space.names["verbs"] == {}


def test_a_content_verb_is_an_action_type_after_the_engine_s(bundle):
    """Each verb's size is its first choice's shape's: convert and sanctify a piece and
    a clearing (the replaced piece), swallow a card, bask a card and a clearing, hum 1;
    the engine's types come first, as in a bundle without content verbs."""
    g = Game(["marquise", "test-lizards"], 1, bundle=bundle, pure=True)
    base = Game(["marquise", "eyrie"], 1, pure=True)
    off, c = g.space.offsets, g.consts
    assert tuple(off) == ACTION_TYPES + VERBS
    assert g.space.names["verbs"] == {
        "convert": "piece_clearing", "sanctify": "piece_clearing", "swallow": "card",
        "bask": "clearing_card", "hum": "none"}
    # The engine's types first, as they are without the verbs; the verbs after them.
    assert off["convert"] == off["first"] + max(c["NTRIG"], 1)
    assert base.space.size == base.consts["NACTIONS"] == \
        base.space.offsets["first"] + max(base.consts["NTRIG"], 1)
    sizes = {"convert": c["C"] * c["NP"], "sanctify": c["C"] * c["NP"], "swallow": c["K"],
             "bask": c["C"] * c["K"], "hum": 1}
    ends = [off[v] for v in VERBS[1:]] + [g.space.size]
    assert [end - off[v] for v, end in zip(VERBS, ends, strict=True)] == \
        [sizes[v] for v in VERBS]
    # The notation: the verb, then the option in its shape's words; one text an action.
    texts = [g.notation(a) for a in range(off["convert"], g.space.size)]
    assert len(set(texts)) == len(texts)
    assert g.notation(off["hum"]) == "hum"
    assert g.notation(off["swallow"] + g.space.names["cards"].index("anvil")) == "swallow anvil"
    assert g.notation(off["bask"] + 4 * c["K"] + g.space.names["cards"].index("anvil")) == \
        "bask anvil 5"
    assert g.notation(off["convert"] + 1 * c["NP"] + g.space.names["pieces"].index(
        "cat-warrior")) == "convert cat-warrior 2"


def test_two_entries_of_one_verb_in_a_menu_are_a_located_finding(tmp_path):
    """An action's type is its verb: a menu with two programs of one verb would list
    their options as one type's (MENU-DUP, at the second entry)."""
    pack = tmp_path / "twice"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["bless"] = lib["programs"]["sanctify"]
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    faction = (pack / "lizards.json").read_text(encoding="utf-8").replace(
        '{"action": "swallow"},', '{"action": "swallow"}, {"action": "bless", "garden": '
        '"garden"},')
    (pack / "lizards.json").write_text(faction, encoding="utf-8")
    found = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics
             if d.severity == "error"]
    assert found == [("MENU-DUP", "/turn/daylight/1/menu/4/action",
                      "'bless' runs a program of verb 'sanctify', as entry 2 ('sanctify') "
                      "does: one entry per verb")]


def _at_daylight(bundle, order: tuple[str, ...], pure: bool = True) -> Game:
    """The Lizards at their Daylight's actions (past crafting), board and hands empty
    but: clearing 1 (fox, one slot) holds the Keep, a sawmill, two cat warriors and a
    lizard; 2 (mouse, two slots, both full) a workshop, a recruiter, a cat warrior, a
    lizard; 5 (rabbit, two open slots) a lizard and a wood; 8 (fox) a lizard alone."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    for c in range(1, 13):
        pos.set_ruins(g, str(c), 0)
    for where, piece, n in (("1", "keep", 1), ("1", "sawmill", 1), ("1", "cat-warrior", 2),
                            ("2", "workshop", 1), ("2", "recruiter", 1),
                            ("2", "cat-warrior", 1), ("5", "wood", 1)):
        sc.put(g, where, piece, n)
    for where in ("1", "2", "5", "8"):
        sc.put(g, where, "lizard-warrior", 1)
    sc.goto(g, "test-lizards", "daylight")
    if g.decision == "craft":
        g.apply("done")
    assert g.decision == "actions" and g.factions[g.to_play] == "test-lizards"
    return g


def _offered(g: Game, verb: str) -> set[str]:
    return {a for a in g.legal() if a.split(" ")[0] == verb}


@pytest.mark.parametrize("order", SEATINGS)
def test_replace_is_offered_where_both_its_steps_can_be_taken(bundle, order):
    """G.23: a piece is replaced only if it can be removed and the new one placed.
    Convert (an enemy warrior, by a warrior): not in 1, whose Keep forbids placing
    (Law 6.2.2); not in 5 or 8 (no enemy warrior).  Sanctify (an enemy building or
    token, by a garden): either of 2's buildings though both slots are full (the garden
    takes the replaced building's slot); the wood in 5 (an open slot for the garden);
    in 1 neither the sawmill (the Keep forbids placing) nor the Keep (a token: the
    garden needs an open slot, and the sawmill holds 1's one).  The sawmill gone, the
    Keep may be replaced: once removed it forbids nothing."""
    g = _at_daylight(bundle, order)
    assert _offered(g, "convert") == {"convert cat-warrior 2"}
    assert _offered(g, "sanctify") == {"sanctify workshop 2", "sanctify recruiter 2",
                                       "sanctify wood 5"}
    sc.put(g, "1", "sawmill", 0)
    assert _offered(g, "sanctify") == {"sanctify keep 1", "sanctify workshop 2",
                                       "sanctify recruiter 2", "sanctify wood 5"}
    assert _offered(g, "convert") == {"convert cat-warrior 2"}  # the Keep is still there
    # A token in a clearing whose slots are full: a garden has no slot there.
    sc.put(g, "2", "wood", 1)
    assert "sanctify wood 2" not in _offered(g, "sanctify")


@pytest.mark.parametrize("order", SEATINGS)
def test_replace_removes_as_a_removal_event_then_places_in_its_spot(bundle, order):
    """Law 1.5.4 and 3.2.1: the workshop is removed (the remover scores 1 VP for an
    enemy building), then a garden is placed in clearing 2 in its slot; the events
    say so in that order.  A warrior replaced scores nothing (3.2.1: buildings and
    tokens).  With no garden left in the supply no sanctify is offered (G.23)."""
    g = _at_daylight(bundle, order)
    sc.put(g, "1", "sawmill", 0)
    me = g.factions.index("test-lizards")
    vp = g.scores[me]
    g.record_events()
    g.apply("sanctify workshop 2")
    assert sc.count(g, "2", "workshop") == 0 and sc.count(g, "2", "garden") == 1
    assert sc.count(g, "2", "recruiter") == 1 and g.scores[me] == vp + 1
    kinds = [e.kind for e in g.take_events()]
    assert kinds.index("removed") < kinds.index("scored") < kinds.index("placed")
    g.apply("convert cat-warrior 2")
    assert sc.count(g, "2", "cat-warrior") == 0 and sc.count(g, "2", "lizard-warrior") == 2
    assert g.scores[me] == vp + 1
    # No enemy warrior is left in 2 to convert; its recruiter may still be sanctified.
    assert not any(a.endswith(" 2") for a in _offered(g, "convert"))
    assert "sanctify recruiter 2" in _offered(g, "sanctify")
    g.apply("sanctify keep 1")  # the Keep leaves the game (Law 6.2.2), a garden there
    assert sc.count(g, "1", "keep") == 0 and sc.count(g, "1", "garden") == 1
    assert pos.out_of_game(g, "keep") == 1
    assert g.scores[me] == vp + 2 and sc.supply(g, "garden") == 0
    assert _offered(g, "sanctify") == set()  # no garden to place: wood 5 is not offered
    # The Keep gone, 1's cat warriors may be converted now.
    assert _offered(g, "convert") == {"convert cat-warrior 1"}
    assert list(invariant_violations(g)) == []


@pytest.mark.parametrize("order", SEATINGS)
def test_a_replaced_warrior_sets_off_field_hospitals(bundle, order):
    """Law 6.2.3 (Field Hospitals) reacts to the removal as to any (Law 1.5.4): the
    Marquise, holding a mouse card, may rescue the warrior converted in 2 (mouse) to the
    Keep; the lizard warrior is placed all the same."""
    g = _at_daylight(bundle, order)
    cat = g.factions.index("marquise")
    mouse = next(c for c in ("mouse-shovel", "mouse-sword", "mouse-bag", "mouse-crossbow")
                 if c in g.space.names["cards"])
    sc.set_hand(g, cat, [mouse])
    g.apply("convert cat-warrior 2")
    assert sc.count(g, "2", "lizard-warrior") == 2 and sc.count(g, "2", "cat-warrior") == 0
    assert g.decision == "rescue" and g.to_play == cat
    keep_warriors = sc.count(g, "1", "cat-warrior")
    g.apply(next(a for a in g.legal() if a != "done"))
    assert sc.count(g, "1", "cat-warrior") == keep_warriors + 1
    assert g.factions[g.to_play] == "test-lizards" and g.decision == "actions"


@pytest.mark.parametrize("order", SEATINGS)
def test_the_other_content_verbs_play_their_programs(bundle, order):
    """swallow (a hand card discarded), bask (a card matching a clearing with a lizard
    in it: discarded, a warrior placed, Law 6.5's shape), hum (once a turn: draw)."""
    g = _at_daylight(bundle, order)
    me = g.factions.index("test-lizards")
    sc.set_hand(g, me, ["anvil"])  # fox
    assert _offered(g, "swallow") == {"swallow anvil"}
    # 1 is fox but its Keep forbids placing; 8 is fox with a lizard.
    assert _offered(g, "bask") == {"bask anvil 8"}
    g.apply("bask anvil 8")
    assert sc.count(g, "8", "lizard-warrior") == 2 and g.hand(me) == []
    assert _offered(g, "hum") == {"hum"}
    g.apply("hum")
    assert len(g.hand(me)) == 1 and _offered(g, "hum") == set()
    card = g.hand(me)[0]
    g.apply(f"swallow {card}")
    assert g.hand(me) == []


@pytest.mark.parametrize("order", SEATINGS)
def test_random_games_of_the_pack_parse_back_and_keep_the_invariants(bundle, order):
    """Every legal action's notation parses back to it and is one the scenario reader
    accepts (runtime/scenario.py expressible); the engine's invariants hold after each
    decision (runtime/conformance.py); the content verbs are taken."""
    from rootlaw.runtime.agents import RandomAgent

    g = Game(list(order), 3, bundle=bundle, pure=True)
    allowed, agent, taken = sc.expressible(g), RandomAgent(3), set()
    while not g.is_over and len(g.history) < 1500:
        legal = g.legal()
        assert set(legal) <= allowed, set(legal) - allowed
        assert all(g.parse(text) == a for text, a in legal.items())
        a = agent.choose(g, list(legal.values()))
        taken.add(g.notation(a).split(" ")[0])
        g.apply(a)
        assert list(invariant_violations(g)) == []
    assert {"convert", "sanctify", "hum"} <= taken


@pytest.fixture(scope="module")
def compiled(bundle):
    g = Game(["marquise", "test-lizards"], 1, bundle=bundle, pure=False)
    if not g.compiled:
        pytest.skip("no compiled core (auto-build off)")
    return g


@pytest.mark.parametrize("order", SEATINGS)
def test_both_cores_agree_on_the_content_verbs(bundle, compiled, order):
    """The compiled core runs the lines the pure one runs: the same listings and states
    through the scripted replaces, and in seeded random games of the pack."""
    pure, fast = _at_daylight(bundle, order), _at_daylight(bundle, order, pure=False)
    assert fast.compiled and not pure.compiled
    for g in (pure, fast):
        sc.put(g, "1", "sawmill", 0)
    for text in ("sanctify workshop 2", "convert cat-warrior 2", "sanctify keep 1",
                 "convert cat-warrior 1", "hum"):
        assert pure.legal() == fast.legal()
        pure.apply(text)
        fast.apply(text)
        assert list(pure.state) == list(fast.state)
    for seed in (1, 2):
        assert cores_agree(bundle, list(order), seed, 3000) is None
