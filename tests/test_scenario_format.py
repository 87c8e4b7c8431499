"""The scenario format (runtime/scenario.py): every key sets and checks its part of the
state, every kind of bad file is a located SCENARIO-INVALID (never a traceback, never a
pass that cannot fail), and docs/scenarios.md is generated from the key table."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from conftest import example_bundle

from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.spec import resolve

ROOT = Path(__file__).resolve().parent.parent

BASE = {
    "name": "a march of two moves",
    "law": "4.2",
    "factions": ["marquise", "eyrie"],
    "seed": 1,
    "position": {
        "clear": True,
        "pieces": {"5": {"cat-warrior": 3}},
        "hands": {"marquise": [], "eyrie": []},
        "turn": {"faction": "marquise", "phase": "daylight", "step": "actions"},
    },
    "steps": [{"do": ["move 5->1 x2"], "expect": {"pieces": {"1": {"cat-warrior": 2}}}}],
}


def with_(path: str, value, base=BASE) -> dict:
    """A copy of a scenario with the value at a JSON pointer replaced (or added)."""
    data = copy.deepcopy(base)
    parts = path.strip("/").split("/")
    at = data
    for p in parts[:-1]:
        at = at[int(p)] if isinstance(at, list) else at.setdefault(p, {})
    if isinstance(at, list):
        at[int(parts[-1])] = value
    else:
        at[parts[-1]] = value
    return data


def without(path: str, base=BASE) -> dict:
    data = copy.deepcopy(base)
    parts = path.strip("/").split("/")
    at = data
    for p in parts[:-1]:
        at = at[p]
    del at[parts[-1]]
    return data


def test_the_base_scenario_passes():
    assert sc.run_scenario(BASE) == []


@pytest.mark.parametrize("factions", [["marquise", "eyrie"], ["eyrie", "marquise"]])
def test_a_position_sets_and_a_step_checks_the_homes(factions):
    """'homes' (Law 6.3.1, 7.3.1: the corner a setup took, read by the filters 'home'
    and 'opposite_home'): a position sets them, null for none, and a step checks them;
    an outside author could not test a program reading the home after 'clear'."""
    data = {"name": "homes", "law": "6.3.1", "factions": factions, "seed": 1,
            "position": {"clear": True, "homes": {"marquise": "3", "eyrie": None},
                         "turn": {"faction": "marquise", "phase": "birdsong"}},
            "steps": [{"expect": {"homes": {"marquise": "3", "eyrie": None}}}]}
    assert sc.run_scenario(data) == []
    data["steps"][0]["expect"]["homes"]["marquise"] = "1"
    [failure] = sc.run_scenario(data)
    assert "/steps/0/expect/homes/marquise" in failure and "home of marquise" in failure
    data["position"]["homes"]["eyrie"] = "13"
    [invalid] = sc.run_scenario(data)
    assert "/position/homes/eyrie" in invalid and "clearing" in invalid


# ---------------------------------------------------------------------- invalid files

INVALID = [
    # (what, scenario, JSON pointer, fragment of the message)
    ("not an object", [], "", "a scenario is a JSON object"),
    ("unknown top key", with_("/positon", {}), "/positon",
     "'positon' is not a key of a scenario (did you mean 'position'?); a scenario has: "
     "$schema, do, expect, factions, law, name, position, seed, steps, stop_at"),
    ("unknown position key", with_("/position/peices", {}), "/position/peices",
     "'peices' is not a key of 'position' (did you mean 'pieces'?); 'position' has: "),
    ("unknown expect key", with_("/steps/0/expect/peices", {}), "/steps/0/expect/peices",
     "'peices' is not a key of 'expect' (did you mean 'pieces'?); 'expect' has: "),
    ("unknown step key", with_("/steps/0/dos", []), "/steps/0/dos",
     "'dos' is not a key of a step (did you mean 'do'?); a step has: do, expect, note"),
    ("steps and do", with_("/do", []), "/steps", "not both"),
    ("steps not a list", with_("/steps", {}), "/steps",
     "'steps' is a list of steps, not an empty object"),
    ("a step not an object", with_("/steps/0", "go"), "/steps/0",
     "each entry of 'steps' is a step object {do, expect}, not the text \"go\""),
    ("position not an object", with_("/position", []), "/position",
     "'position' is an object, not an empty list"),
    ("name not a string", with_("/name", 3), "/name", "'name' is text, not the number 3"),
    ("seed a string", with_("/seed", "1"), "/seed", "64-bit"),
    ("seed too big", with_("/seed", 2**64), "/seed", "64-bit"),
    ("factions a string", with_("/factions", "marquise"), "/factions", "list of faction"),
    ("faction seated twice", with_("/factions", ["marquise", "marquise"]), "/factions",
     "only be seated once"),
    ("unknown faction", with_("/factions", ["marquise", "woodland"]), "/factions",
     "unknown faction 'woodland'"),
    ("negative count", with_("/position/pieces/5/cat-warrior", -1),
     "/position/pieces/5/cat-warrior", "'cat-warrior' is from 0 to 25, not -1"),
    ("huge count", with_("/position/pieces/5/cat-warrior", 10**30),
     "/position/pieces/5/cat-warrior", "'cat-warrior' is from 0 to 25, not a number of 31 "
     "digits"),
    ("count as a string", with_("/position/pieces/5/cat-warrior", "3"),
     "/position/pieces/5/cat-warrior", "'cat-warrior' is a count of pieces, not the text \"3\""),
    ("count as a boolean", with_("/position/pieces/5/cat-warrior", True),
     "/position/pieces/5/cat-warrior", "a count of pieces, not true"),
    ("count as a fraction", with_("/position/pieces/5/cat-warrior", 2.5),
     "/position/pieces/5/cat-warrior", "a count of pieces, not the number 2.5"),
    ("count null", with_("/position/pieces/5/cat-warrior", None),
     "/position/pieces/5/cat-warrior", "not null"),
    ("more than the supply", with_("/position/pieces/1", {"cat-warrior": 23}),
     "/position/pieces/1/cat-warrior", "the supply holds only 22 more"),
    ("buildings beyond slots", with_("/position/pieces/1", {"sawmill": 1, "workshop": 1}),
     "/position/pieces/1", "clearing 1 has 1 building slots"),
    ("buildings and a ruin beyond slots", with_("/position/pieces/6", {"sawmill": 2}),
     "/position/pieces/6", "clearing 6 has 2 building slots"),
    ("a ruin where a building stands",
     with_("/position/ruins", {"1": 1}, with_("/position/pieces/1", {"sawmill": 1})),
     "/position/ruins/1", "clearing 1 has 1 building slots"),
    ("a ruin of 2", with_("/position/ruins", {"1": 2}), "/position/ruins/1",
     "each entry of 'ruins' is from 0 to 1, not 2"),
    ("unknown clearing", with_("/position/pieces/13", {}), "/position/pieces/13",
     "unknown clearing '13'"),
    ("unknown piece", with_("/position/pieces/5/timber", 1), "/position/pieces/5/timber",
     "unknown piece 'timber'"),
    ("unknown card", with_("/position/hands/marquise", ["anvill"]),
     "/position/hands/marquise/0", "unknown card 'anvill' (did you mean 'anvil'?)"),
    ("unseated faction", with_("/position/hands/vagabond", []), "/position/hands/vagabond",
     "unknown seated faction 'vagabond'"),
    ("more copies than the deck", with_("/position/hands/marquise", ["anvil", "anvil"]),
     "/position/hands/marquise", "2 copies of 'anvil': the deck has 1"),
    ("one card in two hands",
     with_("/position/hands/eyrie", ["anvil"], with_("/position/hands/marquise", ["anvil"])),
     "/position/hands/eyrie", "no free copy of 'anvil'"),
    ("hand not a list", with_("/position/hands/marquise", "anvil"),
     "/position/hands/marquise", "'marquise' is a list, not the text \"anvil\""),
    ("negative vp", with_("/position/vp", {"eyrie": -1}), "/position/vp/eyrie",
     "'eyrie' is from 0 to 99, not -1"),
    ("vp too high", with_("/position/vp", {"eyrie": 100}), "/position/vp/eyrie",
     "'eyrie' is from 0 to 99, not 100"),
    ("huge vp", with_("/position/vp", {"eyrie": 10**30}), "/position/vp/eyrie",
     "from 0 to 99, not a number of 31 digits"),
    ("vp as a string", with_("/position/vp", {"eyrie": "5"}), "/position/vp/eyrie",
     "'eyrie' is a number of VP, not the text \"5\""),
    ("supply above what is off the map", with_("/position/supply", {"cat-warrior": 23}),
     "/position/supply/cat-warrior", "not between 0 and 22"),
    ("unknown role", with_("/position/roles", {"eyrie": "king"}), "/position/roles/eyrie",
     "unknown role of eyrie 'king'"),
    ("a role of a faction with none", with_("/position/roles", {"marquise": "builder"}),
     "/position/roles/marquise", "(known: none)"),
    ("every role retired",
     with_("/position/retired_roles",
           {"eyrie": ["builder", "charismatic", "commander", "despot"]}),
     "/position/retired_roles/eyrie", "not every role can be face down"),
    ("unknown column", with_("/position/columns", {"eyrie": {"sideways": []}}),
     "/position/columns/eyrie/sideways", "unknown column of eyrie 'sideways'"),
    ("unknown item", with_("/position/crafted", {"eyrie": {"spoon": 1}}),
     "/position/crafted/eyrie/spoon", "unknown item 'spoon'"),
    ("more items than the supply", with_("/position/crafted", {"eyrie": {"hammer": 2}}),
     "/position/crafted/eyrie/hammer", "the item supply holds only 1 more"),
    ("not a dominance card", with_("/position/available_dominance", ["anvil"]),
     "/position/available_dominance/0", "not a dominance card"),
    ("dominance not a dominance card", with_("/position/dominance", {"eyrie": "anvil"}),
     "/position/dominance/eyrie", "not a dominance card"),
    ("deck too big", with_("/position/deck_size", 1000), "/position/deck_size",
     "'deck_size' is from 0 to 56, not 1000"),
    ("empty deck_top", with_("/position/deck_top", []), "/position/deck_top",
     "at least one card"),
    ("a die of 4", with_("/position/dice", [4, 0]), "/position/dice/0",
     "each entry of 'dice' is from 0 to 3, not 4"),
    ("the low die first", with_("/position/dice", [0, 3]), "/position/dice",
     "the high die comes first"),
    ("a roll of one die", with_("/position/dice", [[1]]), "/position/dice/0",
     "a roll is two dice"),
    ("dice a string", with_("/position/dice", "3"), "/position/dice",
     "'dice' is a list of rolls [high, low] (or one roll), not the text \"3\""),
    ("turn without a faction", with_("/position/turn", {"phase": "daylight"}),
     "/position/turn", "name the faction"),
    ("unknown phase", with_("/position/turn/phase", "night"), "/position/turn/phase",
     "unknown phase 'night' (known: birdsong, daylight, evening)"),
    ("a step the phase does not have", with_("/position/turn/faction", "eyrie"),
     "/position/turn/step", "unknown step of eyrie's daylight 'actions'"),
    ("turn at the end", with_("/position/turn", {"faction": "eyrie", "at": "end"}),
     "/position/turn/at", "'at' is \"start\""),
    ("turn at the start of a step",
     with_("/position/turn", {"faction": "eyrie", "at": "start", "step": "craft"}),
     "/position/turn/step", "has no step"),
    ("unknown counter", with_("/position/counters", {"bogus": 1}),
     "/position/counters/bogus", "unknown counter 'bogus'"),
    ("negative actions left", with_("/position/counters", {"actions_left": -1}),
     "/position/counters/actions_left",
     "'actions_left' is from 0 to 99, not -1"),
    ("a column the current player does not have",
     with_("/position/counters", {"resolved": {"move": []}}),
     "/position/counters/resolved/move", "unknown column of marquise 'move'"),
    ("not_legal typo", with_("/steps/0/expect/not_legal", ["move 5->1 x1", "mvoe 5->1 x1"]),
     "/steps/0/expect/not_legal/1",
     "'mvoe 5->1 x1' is no action this game can express (did you mean 'move 5->1 x1'?)"),
    ("legal along no path", with_("/steps/0/expect/legal", ["move 5->10 x1"]),
     "/steps/0/expect/legal/0", "no action this game can express"),
    ("legal_exactly typo", with_("/steps/0/expect/legal_exactly", ["dnoe"]),
     "/steps/0/expect/legal_exactly/0", "no action"),
    ("battle against an unseated seat", with_("/steps/0/expect/legal", ["battle 5 seat2"]),
     "/steps/0/expect/legal/0", "no action"),
    ("unknown prefix", with_("/steps/0/expect/legal_starting_with", {"mvoe": []}),
     "/steps/0/expect/legal_starting_with/mvoe", "no action this game can express starts"),
    ("an action without its prefix",
     with_("/steps/0/expect/legal_starting_with", {"move 5->": ["move 1->5 x1"]}),
     "/steps/0/expect/legal_starting_with/move 5->/0", "does not start with"),
    ("do along no path", with_("/steps/0/do", ["move 5->10 x1"]), "/steps/0/do/0",
     "no action this game can express"),
    ("do an object", with_("/steps/0/do", [{"a": 1}]), "/steps/0/do/0",
     "each entry of 'do' is an action notation, not an object"),
    ("do an index out of the space", with_("/steps/0/do", [10**9]), "/steps/0/do/0",
     "each entry of 'do' is from 0 to "),
    ("decision typo", with_("/steps/0/expect/decision", "ambsh"), "/steps/0/expect/decision",
     "unknown decision 'ambsh' (did you mean 'ambush'?)"),
    ("to_play unseated", with_("/steps/0/expect/to_play", "vagabond"),
     "/steps/0/expect/to_play", "unknown seated faction"),
    ("winner unseated", with_("/steps/0/expect/winner", "vagabond"),
     "/steps/0/expect/winner", "unknown seated faction"),
    ("negative hand size", with_("/steps/0/expect/hand_size", {"marquise": -1}),
     "/steps/0/expect/hand_size/marquise",
     "'marquise' is from 0 to 56, not -1"),
    ("ruler unknown", with_("/steps/0/expect/rule", {"5": "nobody"}),
     "/steps/0/expect/rule/5", "unknown seated faction 'nobody'"),
    ("expect a turn key of position", with_("/steps/0/expect/turn", {"at": "start"}),
     "/steps/0/expect/turn/at",
     "'at' is not a key of 'turn'; 'turn' has: faction, number, phase, step"),
    ("unknown stop", with_("/stop_at", "end_of_game"), "/stop_at",
     "'stop_at' is end_of_turn or end_of_phase, not 'end_of_game' (did you mean 'end_of_phase'?)"),
]


@pytest.mark.parametrize("what, data, ptr, fragment", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_scenarios_are_located_errors(what, data, ptr, fragment):
    problems = sc.run_scenario(data, where="f.json")
    assert len(problems) == 1, problems
    head = f"f.json#{ptr}: SCENARIO-INVALID: " if ptr else "f.json: SCENARIO-INVALID: "
    assert problems[0].startswith(head), problems[0]
    assert fragment in problems[0], problems[0]


def test_a_position_error_changes_no_later_key():
    """A refused edit stops the position: nothing after it runs (the game is dropped)."""
    data = with_("/position/pieces/1", {"cat-warrior": 23})
    data["position"]["vp"] = {"eyrie": 5}
    assert sc.run_scenario(data)[0].startswith("#/position/pieces/1/cat-warrior")


JUNK = [-1, 10**30, -(10**30), "x", "", None, [], {}, True, 1.5, [1, 2], {"a": 1}]


def _leaves(data, ptr=""):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, f"{ptr}/{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, f"{ptr}/{i}")
    if ptr:
        yield ptr


def test_random_damage_never_raises():
    """Any value anywhere: a located error or a result, never an exception escaping."""
    example = sc.examples()["scenario"]
    rng = random.Random(7)
    leaves = list(_leaves(example))
    for _ in range(150):
        data = with_(rng.choice(leaves), rng.choice(JUNK), example)
        problems = sc.run_scenario(data, where="f.json")
        assert all(isinstance(p, str) and p.startswith("f.json") for p in problems)


@pytest.mark.parametrize("content, code", [
    (b"[" * 100_000, "JSON-DEPTH"),
    (b"\xff\xfe\x00garbage", "FILE-ENCODING"),
    (b"{\"name\": ", "JSON-SYNTAX"),
    (b"{\"name\": NaN}", "JSON-SYNTAX"),
    (b" " * (2**20 + 1), "FILE-TOO-BIG"),
    (b"[1, 2]", "SCENARIO-INVALID"),
])
def test_unreadable_files_are_coded_errors(tmp_path, content, code):
    """Scenario files are read like every JSON file of the project (spec/jsonio)."""
    f = tmp_path / "bad.json"
    f.write_bytes(content)
    problems = sc.run_file(f)
    assert len(problems) == 1 and problems[0].startswith(str(f)) and code in problems[0]


# ---------------------------------------------------------------------- failing and passing


def test_failures_name_the_step_and_the_pointer():
    data = copy.deepcopy(BASE)
    data["steps"].append({"do": ["move 1->5 x1"],
                          "expect": {"pieces": {"5": {"cat-warrior": 3}}, "vp": {"eyrie": 0}}})
    assert sc.run_scenario(data, where="f.json") == [
        "f.json#/steps/1/expect/pieces/5/cat-warrior: cat-warrior in 5: 2 != 3"]


def test_expectations_hold_after_each_step_not_only_the_last():
    data = copy.deepcopy(BASE)
    data["steps"] = [{"expect": {"pieces": {"5": {"cat-warrior": 3}}}},
                     {"do": ["move 5->1 x2"], "expect": {"pieces": {"5": {"cat-warrior": 1}}}},
                     {"do": ["move 1->5 x1"], "expect": {"pieces": {"5": {"cat-warrior": 3}}}}]
    assert sc.run_scenario(data) == [
        "#/steps/2/expect/pieces/5/cat-warrior: cat-warrior in 5: 2 != 3"]


def test_an_illegal_decision_stops_the_scenario_at_its_step():
    data = copy.deepcopy(BASE)
    data["steps"].append({"do": ["move 5->1 x3"], "expect": {"vp": {"eyrie": 9}}})
    problems = sc.run_scenario(data)
    assert len(problems) == 1
    assert problems[0].startswith("#/steps/1/do/0: ACTION-ILLEGAL: 'move 5->1 x3'")


def test_the_old_form_is_one_step_with_its_own_pointers():
    data = without("/steps")
    data["do"] = ["move 5->1 x2"]
    data["expect"] = {"pieces": {"1": {"cat-warrior": 3}}}
    assert sc.run_scenario(data) == [
        "#/expect/pieces/1/cat-warrior: cat-warrior in 1: 2 != 3"]


# Each shared key, set in a position and then expected with the same value: it holds;
# expected with another value: it fails.  (A key that sets nothing, or checks nothing,
# would show here.)
ROUND_TRIP = {
    "pieces": ({"5": {"cat-warrior": 3, "sawmill": 2}}, {"5": {"sawmill": 1}}),
    "ruins": ({"10": 0, "5": 1}, {"10": 1}),
    "supply": ({"cat-warrior": 2}, {"cat-warrior": 3}),
    "hands": ({"marquise": ["anvil", "sword"], "eyrie": ["bird-ambush"]},
              {"marquise": ["anvil"]}),
    "play_area": ({"marquise": ["armorers"]}, {"marquise": []}),
    "columns": ({"eyrie": {"move": ["anvil", "loyal-vizier"], "build": ["sword"]}},
                {"eyrie": {"move": ["anvil"]}}),
    "dominance": ({"marquise": "fox-dominance"}, {"marquise": None}),
    "available_dominance": (["mouse-dominance", "bird-dominance"], ["mouse-dominance"]),
    "removed": (["rabbit-dominance"], []),
    "discard": (["fox-ambush", "anvil"], ["fox-ambush"]),
    "deck_top": (["sword", "anvil", "investments"], ["anvil"]),
    "deck_size": (7, 8),
    "crafted": ({"eyrie": {"hammer": 1, "boot": 2}}, {"eyrie": {"boot": 1}}),
    "vp": ({"marquise": 12, "eyrie": 29}, {"eyrie": 28}),
    "roles": ({"eyrie": "despot"}, {"eyrie": None}),
    "homes": ({"marquise": "4", "eyrie": None}, {"marquise": "1", "eyrie": None}),
    "retired_roles": ({"eyrie": ["builder", "commander"]}, {"eyrie": ["builder"]}),
    "first_player": ("eyrie", "marquise"),
    "dice": ([[3, 1], [2, 2]], [[3, 1]]),
    "counters": ({"actions_left": 1, "recruited": True, "crafting_used": {"fox": 1}},
                 {"crafting_used": {"fox": 0}}),
    "zones": ({"alliance": {"supporters": ["anvil", "bird-ambush", "sword"]}},
              {"alliance": {"supporters": ["anvil"]}}),
    "boxes": ({"alliance": {"officers": 3}}, {"alliance": {"officers": 2}}),
    "used": ({"marquise": ["tax-collector", "codebreakers"]}, {"marquise": ["codebreakers"]}),
}
# Keys about a faction's own parts need it seated.
SEATED = {"zones": ["marquise", "eyrie", "alliance"], "boxes": ["alliance", "marquise", "eyrie"]}


# Keys for what no base faction has, on a pack of examples/ (scenario_examples.json's
# "homebrew" section names it).
HOMEBREW_ROUND_TRIP = {
    "cycles": ({"druids": {"wheel": "fall"}}, {"druids": {"wheel": "spring"}}),
    "forests": ({"4_9_12": {"idol": 2}}, {"4_9_12": {"idol": 1}}),
    "held": ({"eyrie": {"coffin-makers": {"cat-warrior": 3}}},
             {"eyrie": {"coffin-makers": {"cat-warrior": 2}}}),
    "exhausted": ({"marquise": 2}, {"marquise": 1}),
    "faces_down": ({"5": "bomb", "9": "raid"}, {"5": "raid"}),
}


def home_bundle(home: dict):
    """A homebrew section's pack: an examples/ folder's name, or a path in the repo (with
    its 'deck', where the pack's deck replaces the standard one)."""
    return resolve([ROOT / home["pack"]], deck_id=home.get("deck")) if "/" in home["pack"] \
        else example_bundle(home["pack"])


def homebrew_scenario(key: str) -> tuple[dict, object]:
    home = next(h for h in sc.examples()["homebrew"]
                if key in h["position"] or key in h["expect"])
    # ('given': the position the key needs first: a card in a play area for 'held',
    # items crafted for 'exhausted')
    data = {"name": "a homebrew position", "law": "-", "factions": home["factions"],
            "position": {"clear": True, **home.get("given", {})}, "steps": []}
    return data, home_bundle(home)


def test_every_shared_key_has_a_round_trip_case():
    # `turn` is checked by the turn-flow scenarios (a position's turn is where it starts).
    shared = {k.name for k in sc.KEYS if k.put and k.check}
    assert shared - {"turn"} == set(ROUND_TRIP) | set(HOMEBREW_ROUND_TRIP)


@pytest.mark.parametrize("key", sorted(HOMEBREW_ROUND_TRIP))
def test_a_homebrew_key_set_in_a_position_is_checked_by_expect(key):
    value, other = HOMEBREW_ROUND_TRIP[key]
    data, bundle = homebrew_scenario(key)
    data["position"][key] = value
    data["steps"] = [{"expect": {key: value}}]
    assert sc.run_scenario(data, bundle=bundle) == []
    data["steps"] = [{"expect": {key: other}}]
    problems = sc.run_scenario(data, bundle=bundle)
    assert len(problems) == 1 and problems[0].startswith(f"#/steps/0/expect/{key}")


@pytest.mark.parametrize("key", sorted(ROUND_TRIP))
def test_a_key_set_in_a_position_is_checked_by_expect(key):
    value, other = ROUND_TRIP[key]
    data = copy.deepcopy(BASE)
    data["factions"] = SEATED.get(key, data["factions"])
    data["position"][key] = value
    data["steps"] = [{"expect": {key: value}}]
    assert sc.run_scenario(data) == []
    data["steps"] = [{"expect": {key: other}}]
    problems = sc.run_scenario(data)
    assert len(problems) == 1 and problems[0].startswith(f"#/steps/0/expect/{key}")


def test_position_cards_keep_the_engine_invariants():
    from rootlaw.runtime.conformance import invariant_violations

    g = Game(["marquise", "eyrie", "alliance"], 3)
    sc.apply_position(g, sc.examples()["position"])
    assert list(invariant_violations(g)) == []
    assert pos.deck(g)[:2] == ["sword", "investments"]
    assert g.state[g.S["DECK_LEN"]] == 20
    assert pos.dominance(g, 0) == "fox-dominance"
    assert g.cards_at(g.consts["LOC_AVAILABLE"]) == ["mouse-dominance"]


def test_cards_placed_by_one_key_are_not_taken_by_a_later_one():
    """Both bird ambushes: one on top of the deck, one in a hand; the hand is set first,
    the deck later must take the other copy, not the one in the hand."""
    data = copy.deepcopy(BASE)
    data["position"]["hands"] = {"eyrie": ["bird-ambush"], "marquise": []}
    data["position"]["deck_top"] = ["bird-ambush"]
    data["steps"] = [{"expect": {"hands": {"eyrie": ["bird-ambush"]},
                                 "deck_top": ["bird-ambush"]}}]
    assert sc.run_scenario(data) == []
    data["position"]["discard"] = ["bird-ambush"]
    assert "no free copy of 'bird-ambush'" in sc.run_scenario(data)[0]


def test_expressible_notations_cover_every_legal_action_of_random_games():
    """Every action a game offers is one the scenario reader accepts."""
    from rootlaw.runtime.agents import RandomAgent

    g = Game(["eyrie", "marquise"], 5)
    allowed = sc.expressible(g)
    agent = RandomAgent(5)
    while not g.is_over and len(g.history) < 600:
        legal = g.legal()
        assert set(legal) <= allowed, set(legal) - allowed
        g.apply(agent.choose(g, list(legal.values())))


# ---------------------------------------------------------------------- docs and examples


def test_scenario_docs_are_current():
    committed = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert committed == sc.scenarios_markdown(), \
        "docs/scenarios.md is stale: run `rootlaw scenario --docs --out docs/scenarios.md`"


def test_every_key_has_a_documented_example_that_reads():
    ex = sc.examples()
    g = Game(None, 1)  # every faction of the bundle seated: the examples name them all
    homes = ex["homebrew"]  # keys no base faction uses, each section on a pack of its own
    games = [Game(home["factions"], 1, bundle=home_bundle(home)) for home in homes]
    for side, names in (("position", sc.POSITION_KEYS), ("expect", sc.EXPECT_KEYS)):
        theirs = [k for home in homes for k in home[side]]
        assert sorted([*ex[side], *theirs]) == sorted(names), side
        assert not set(ex[side]) & set(theirs) and len(set(theirs)) == len(theirs)
        r = sc.Reader(g, side)
        for k in sc.KEYS:
            if k.name in ex[side]:
                k.read(r, ex[side][k.name], f"/{side}/{k.name}")
            for i, (home, h) in enumerate(zip(homes, games, strict=True)):
                if k.name in home[side]:
                    k.read(sc.Reader(h, side), home[side][k.name],
                           f"/homebrew/{i}/{side}/{k.name}")
    assert all(k.doc for k in sc.KEYS if k.put) and all(k.expect_doc for k in sc.KEYS
                                                         if k.check)


@pytest.mark.parametrize("pure", [False, True])
def test_the_docs_example_scenario_passes(pure):
    assert sc.run_scenario(sc.examples()["scenario"], pure=pure) == []


def test_the_docs_example_is_valid_json_as_printed():
    text = sc.scenarios_markdown()
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(block) == sc.examples()["scenario"]


# ---------------------------------------------------------------------- turn flow aids


def _steps(position: dict, steps: list, **more) -> dict:
    data = {"factions": ["marquise", "eyrie"], "position": position, "steps": steps}
    data.update(more)
    return data


@pytest.mark.parametrize("pure", [False, True])
def test_a_turn_begun_at_its_start_runs_birdsong(pure):
    """Law 6.4 through the turn flow: the Marquise's turn begins, Birdsong places wood
    at her sawmills, Daylight asks; the turn counter counts it."""
    data = _steps({"clear": True, "pieces": {"5": {"sawmill": 2}}, "hands": {"marquise": []},
                   "turn": {"faction": "marquise", "at": "start"}},
                  [{"expect": {"pieces": {"5": {"wood": 2}}, "decision": "actions",
                               "turn": {"faction": "marquise", "phase": "daylight",
                                        "number": 1}}}])
    assert sc.run_scenario(data, pure=pure) == []


@pytest.mark.parametrize("pure", [False, True])
def test_a_position_mid_turn_is_in_a_turn_and_keeps_what_a_seat_is_shown(pure):
    """A position set in a phase is in turn 1 (or its 'number'), not 0: a hand shown
    there (Codebreakers, Law 1.2.1 'show') is remembered by the viewer."""
    data = _steps({"clear": True, "hands": {"marquise": ["anvil"], "eyrie": []},
                   "play_area": {"eyrie": ["codebreakers"]},
                   "turn": {"faction": "eyrie", "phase": "daylight"}},
                  [{"expect": {"turn": {"number": 1}}}])
    assert sc.run_scenario(data, pure=pure) == []
    data["position"]["turn"]["number"] = 7
    data["steps"] = [{"expect": {"turn": {"number": 7}}}]
    assert sc.run_scenario(data, pure=pure) == []
    g = Game(["marquise", "eyrie"], 1, pure=pure)
    sc.apply_position(g, data["position"])
    g.apply("use codebreakers on marquise")
    assert g.seen_hand(1, 0) == (["anvil"], 7)
    assert g.observation(seat=1)["seen"] == {"marquise": {"cards": ["anvil"], "turn": 7}}


@pytest.mark.parametrize("pure", [False, True])
def test_stop_at_end_of_phase_holds_each_phase_end(pure):
    data = _steps({"clear": True, "pieces": {"5": {"sawmill": 1, "cat-warrior": 1}},
                   "hands": {"marquise": ["anvil", "sword", "bake-sale", "investments",
                                          "cobbler"], "eyrie": []},
                   "deck_top": ["codebreakers"],
                   "turn": {"faction": "marquise", "at": "start"}},
                  [{"note": "Birdsong placed the wood and ended",
                    "expect": {"decision": "end_of_phase", "legal_exactly": [],
                               "turn": {"phase": "birdsong"}, "pieces": {"5": {"wood": 1}},
                               "to_play": "marquise"}},
                   {"note": "the step goes on: Daylight, one action, done",
                    "do": ["move 5->1 x1", "done", "done"],
                    "expect": {"decision": "end_of_phase", "turn": {"phase": "daylight"}}},
                   {"note": "Evening draws the sixth card; the discard ends the turn",
                    "expect": {"decision": "discard_down_to", "hand_size": {"marquise": 6}}},
                   {"do": ["discard codebreakers"],
                    "expect": {"decision": "end_of_turn", "hand_size": {"marquise": 5},
                               "turn": {"faction": "marquise", "phase": "evening"}}},
                   {"note": "then the Eyrie's turn",
                    "expect": {"turn": {"faction": "eyrie", "phase": "birdsong"}}}],
                  stop_at="end_of_phase")
    assert sc.run_scenario(data, pure=pure) == []


@pytest.mark.parametrize("pure", [False, True])
def test_stop_at_end_of_phase_after_the_daylight_window_and_after_rest(pure):
    """The two other ways a phase ends: 'done' in the end-of-Daylight dominance window
    (Law 3.3.1), and turmoil's Rest (Law 7.7.4)."""
    window = _steps({"clear": True, "hands": {"marquise": ["anvil"]}, "vp": {"marquise": 10},
                     "removed": ["bird-dominance", "mouse-dominance", "rabbit-dominance"],
                     "turn": {"faction": "marquise", "phase": "daylight", "step": "actions"},
                     "counters": {"actions_left": 0}},
                    [{"do": ["done"], "expect": {"decision": "phase_end"}},
                     {"do": ["done"], "expect": {"decision": "end_of_phase",
                                                 "turn": {"phase": "daylight"}}},
                     {"expect": {"decision": "end_of_turn", "turn": {"phase": "evening"},
                                 "hand_size": {"marquise": 2}}}],
                    stop_at="end_of_phase")
    assert sc.run_scenario(window, pure=pure) == []
    rest = _steps({"clear": True, "pieces": {"3": {"roost": 1}}, "hands": {"eyrie": []},
                   "roles": {"eyrie": "builder"},
                   "columns": {"eyrie": {"recruit": ["anvil"]}},
                   "turn": {"faction": "eyrie", "phase": "daylight", "step": "resolve_columns"}},
                  [{"do": ["role despot"], "expect": {"decision": "end_of_phase",
                                                      "turn": {"phase": "daylight"},
                                                      "roles": {"eyrie": "despot"}}},
                   {"expect": {"decision": "end_of_turn", "turn": {"phase": "evening"},
                               "hand_size": {"eyrie": 1}}}],
                  stop_at="end_of_phase")
    assert sc.run_scenario(rest, pure=pure) == []


def test_without_stop_at_the_engine_runs_on():
    """The control: the same decisions without stop_at run into the Eyrie's turn."""
    data = copy.deepcopy(sc.examples()["scenario"])
    del data["stop_at"]
    problems = sc.run_scenario(data)
    assert "#/steps/1/expect/decision: decision: add_to_columns != end_of_turn" in problems


def test_a_stop_in_a_position_is_checked_by_the_first_step():
    data = _steps({"clear": True, "hands": {"marquise": ["anvil"], "eyrie": []},
                   "turn": {"faction": "marquise", "phase": "evening"}},
                  [{"expect": {"decision": "end_of_turn", "hand_size": {"marquise": 2}}},
                   {"expect": {"turn": {"faction": "eyrie"}, "hand_size": {"eyrie": 1}}}],
                  stop_at="end_of_turn")
    assert sc.run_scenario(data) == []


def test_dice_rolls_are_used_in_order_and_the_game_rolls_after():
    data = _steps({"clear": True, "pieces": {"5": {"cat-warrior": 6, "bird-warrior": 6}},
                   "hands": {"marquise": [], "eyrie": []},
                   "dice": [[3, 0], [1, 1]],
                   "turn": {"faction": "marquise", "phase": "daylight", "step": "actions"}},
                  [{"do": ["battle 5 eyrie"],
                    "expect": {"pieces": {"5": {"bird-warrior": 3, "cat-warrior": 6}},
                               "dice": [[1, 1]]}},
                   {"do": ["battle 5 eyrie"],
                    "expect": {"pieces": {"5": {"bird-warrior": 2, "cat-warrior": 5}},
                               "dice": []}}])
    assert sc.run_scenario(data) == []


def test_too_many_dice_rolls_are_invalid():
    data = with_("/position/dice", [[1, 0]] * 17)
    assert sc.run_scenario(data) == [
        "#/position/dice: SCENARIO-INVALID: at most 16 rolls can be queued, not 17"]


def test_a_piece_limited_per_clearing_is_bounded(monkeypatch):
    """Content may limit a piece per clearing (none of the base game's does yet): a
    position with more is invalid where it says so."""
    monkeypatch.setattr(pos, "per_clearing_limit",
                        lambda g, piece: 1 if piece == "wood" else None)
    data = with_("/position/pieces/5/wood", 2)
    assert sc.run_scenario(data) == [
        "#/position/pieces/5/wood: SCENARIO-INVALID: at most 1 wood in a clearing"]
    assert sc.run_scenario(with_("/position/pieces/5/wood", 1)) == []


# ---------------------------------------------------------------------- the JSON Schema

SCENARIO_SCHEMA = ROOT / "spec" / "schema" / "scenario.schema.json"
SCENARIO_FILES = sorted((ROOT / "tests" / "scenarios").rglob("*.json")) + \
    sorted(ROOT.glob("examples/*/scenarios/*.json"))


def test_the_committed_scenario_schema_is_current():
    assert SCENARIO_SCHEMA.read_text(encoding="utf-8") == sc.schema_text(), \
        "spec/schema/scenario.schema.json is stale: run `rootlaw schema --write`"


def test_the_scenario_schema_has_every_key_of_the_table():
    s = sc.json_schema()
    assert set(s["properties"]) == set(sc.SCENARIO_KEYS)
    assert list(s["$defs"]["Position"]["properties"]) == sc.POSITION_KEYS
    assert list(s["$defs"]["Expect"]["properties"]) == sc.EXPECT_KEYS
    assert all(k.schema for k in sc.KEYS), "every key says the shape of its value"


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_scenario_file_names_the_scenario_schema_and_passes_it(path):
    """What an editor sees: the file names the committed schema, and follows it."""
    jsonschema = pytest.importorskip("jsonschema")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "$schema" in data, f"{path} does not name its JSON Schema in '$schema'"
    assert (path.parent / data["$schema"]).resolve() == SCENARIO_SCHEMA.resolve()
    v = jsonschema.Draft202012Validator(json.loads(SCENARIO_SCHEMA.read_text(encoding="utf-8")))
    assert [e.message for e in v.iter_errors(data)] == []


def test_every_documented_example_value_follows_its_keys_schema():
    jsonschema = pytest.importorskip("jsonschema")
    s = sc.json_schema()
    ex = sc.examples()
    jsonschema.Draft202012Validator.check_schema(s)
    assert list(jsonschema.Draft202012Validator(s).iter_errors(ex["scenario"])) == []
    for side, part in (("position", "Position"), ("expect", "Expect")):
        props = s["$defs"][part]["properties"]
        for name, value in {**ex[side], **{k: v for home in ex["homebrew"]
                                           for k, v in home[side].items()}}.items():
            errors = list(jsonschema.Draft202012Validator(props[name]).iter_errors(value))
            assert errors == [], f"{side} {name}: {errors[0].message}"


# Wrong shapes (of the INVALID cases above, those that are not about names): the schema
# refuses them as the reader does, so an editor marks them as they are typed.
SHAPES = ["not an object", "unknown top key", "unknown position key", "unknown expect key",
          "unknown step key", "steps and do", "steps not a list", "a step not an object",
          "position not an object", "name not a string", "seed a string", "seed too big",
          "factions a string", "negative count", "count as a string", "count as a boolean",
          "count as a fraction", "count null", "a ruin of 2", "hand not a list",
          "negative vp", "vp too high", "vp as a string", "empty deck_top", "a die of 4",
          "a roll of one die", "dice a string", "turn without a faction", "unknown phase",
          "turn at the end", "unknown counter", "negative actions left", "do an object",
          "negative hand size", "expect a turn key of position", "unknown stop"]


@pytest.mark.parametrize("what", SHAPES)
def test_the_scenario_schema_refuses_what_the_reader_refuses_as_a_shape(what):
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(sc.json_schema())
    assert not list(v.iter_errors(BASE)), "the base scenario follows the schema"
    data = {c[0]: c[1] for c in INVALID}[what]
    assert sc.run_scenario(data)[0].count("SCENARIO-INVALID") == 1
    assert list(v.iter_errors(data)), f"the schema accepts {what}"
