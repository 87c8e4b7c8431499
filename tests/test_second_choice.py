"""A program's second choice: a forest and a piece in it, after a first choice of a
clearing, and the part 'move' of that piece into the clearing (test pack forest-relics:
the Marquise's 'dig' and 'delve').  Law 15.5.2, Battle then Delve: "Choose a clearing
whose suit matches the card suit. You must initiate a battle there if any enemy pieces
are there. Then, if you rule the clearing and it has at least one Keeper warrior, you may
delve there as follows (even if there was no enemy to battle). Move any relic from an
adjacent forest into that clearing."  The forest filter's 'adjacent_to': 'clearing' (the
chosen one) and 'when' with the condition 'here' (the chosen clearing passes a filter);
an 'optional' choice offers 'done'.  Through the turn flow (a Daylight of the Marquise's),
in three seat orders, on both cores."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.events import record
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "forest-relics"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]
# Forests of the Autumn map touching clearing 5: 1_2_5_10 only; clearing 1: 1_2_5_10 and
# 1_9_10_12; clearing 6: 2_6_10_11_12 and 3_6_11.


@cache
def relics():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def daylight(order, core_kind):
    g = past_setup(order, bundle=relics(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    return g


def ours(g, verb):
    return sorted(a for a in g.legal() if a.split()[0] == verb)


@pytest.mark.parametrize("order", ORDERS)
def test_dig_is_offered_only_next_to_a_forest_with_a_relic(core_kind, order):
    """Warriors in 1 and 6, relics only in forest 3_6_11: 'dig' is offered in clearing 6
    alone (the action's second choice has an option there only)."""
    g = daylight(order, core_kind)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put(g, "6", "cat-warrior", 1)
    sc.put_in_forest(g, "3_6_11", "jewel", 1)
    sc.put_in_forest(g, "3_6_11", "idol", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert ours(g, "dig") == ["dig 6"]
    g.apply("dig 6")
    assert g.decision == "choice" and g.current == g.factions.index("marquise")
    assert sorted(g.legal()) == ["forest 3_6_11 idol", "forest 3_6_11 jewel"]


@pytest.mark.parametrize("order", ORDERS)
def test_the_chosen_relic_moves_into_the_clearing(core_kind, order):
    g = daylight(order, core_kind)
    sc.put(g, "1", "cat-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.put_in_forest(g, "1_9_10_12", "idol", 2)
    sc.goto(g, "marquise", "daylight", "actions")
    g.record_events()
    g.apply("dig 1")
    assert sorted(g.legal()) == ["forest 1_2_5_10 tablet", "forest 1_9_10_12 idol"]
    g.apply("forest 1_9_10_12 idol")
    assert sc.count(g, "1", "idol") == 1
    assert g.forest_counts()["1_9_10_12"] == {"idol": 1}
    assert g.forest_counts()["1_2_5_10"] == {"tablet": 1}
    assert g.decision == "actions"  # the action is over: the next one
    moved = [record(g, e) for e in g.take_events() if e.kind == "moved_from_forest"]
    assert moved == [{"event": "moved_from_forest", "from_forest": "1_9_10_12", "to": "1",
                      "piece": "idol", "count": 1}]


@pytest.mark.parametrize("order", ORDERS)
def test_delve_after_a_battle_won_may_move_a_relic(core_kind, order):
    """Three cats and a bird in 5: 'delve 5' must fight; the cats roll 2 and 0 and lose
    none, the bird is gone: they rule 5 with warriors there, so they may delve from
    forest 1_2_5_10 (or decline: 'done')."""
    g = daylight(order, core_kind)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("delve 5")
    assert sc.count(g, "5", "bird-warrior") == 0
    assert g.decision == "choice"
    assert sorted(g.legal()) == ["done", "forest 1_2_5_10 tablet"]
    g.apply("forest 1_2_5_10 tablet")
    # moved into 5 and turned over (test_a_delved_relic_is_turned_over_...)
    assert sum(sc.count(g, "5", x) for x in ("tablet-1", "tablet-2", "tablet-3")) == 1
    assert sc.count(g, "5", "tablet") == 0 and g.forest_counts()["1_2_5_10"] == {}


@pytest.mark.parametrize("order", ORDERS)
def test_delve_may_be_declined(core_kind, order):
    g = daylight(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("delve 5")  # no enemy: no battle (Law 15.5.2: "even if there was no enemy")
    assert g.decision == "choice"
    g.apply("done")
    assert sc.count(g, "5", "tablet") == 0 and g.forest_counts()["1_2_5_10"] == {"tablet": 1}
    assert g.decision == "actions"


@pytest.mark.parametrize("order", ORDERS)
def test_no_delve_where_the_battle_leaves_the_clearing_to_another(core_kind, order):
    """One cat, three birds in 5: the cat rolls 1 (a bird lost), the birds 0: two birds
    to one cat, the Eyrie rules 5, so no relic is offered and the action is over."""
    g = daylight(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 1, 0)
    g.apply("delve 5")
    assert sc.count(g, "5", "bird-warrior") == 2 and sc.count(g, "5", "cat-warrior") == 1
    assert g.decision == "actions" and g.forest_counts()["1_2_5_10"] == {"tablet": 1}


# ---------------------------------------------------------------- validation


def _pack_with(tmp_path: Path, program: dict) -> Path:
    pack = tmp_path / "forest-relics"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["dig"] = program
    (pack / "library.json").write_text(json.dumps(lib, indent=1), encoding="utf-8")
    return pack


def _shape(pack: Path) -> list[tuple[str, str]]:
    return [(d.pointer, d.message) for d in validate([pack], []).diagnostics
            if d.code == "PROGRAM-SHAPE"]


@pytest.mark.parametrize("do, pointer, words", [
    # a second choice of a clearing (another one, Law 13.5.4: tests/test_face_down.py)
    # declined or repeated
    ([{"op": "choose", "clearing": {"has": "warrior"}},
      {"op": "choose", "clearing": {}, "optional": True}], "/programs/dig/do/1",
     "a second choice of a clearing is asked once, and not declined"),
    # a second choice of a clearing and a card
    ([{"op": "choose", "clearing": {"has": "warrior"}},
      {"op": "choose", "clearing": {}, "card": {}}], "/programs/dig/do/1",
     "a second choice chooses a 'forest' and a 'piece' in it"),
    # a move with no second choice before it
    ([{"op": "choose", "clearing": {"has": "warrior"}}, {"op": "move"}],
     "/programs/dig/do/1", "no choice before it chooses one"),
    # a move from the clearing after a choice of a piece in a forest (it would take a
    # piece of that kind from the clearing, not the one chosen)
    ([{"op": "choose", "clearing": {"has": "warrior"}},
      {"op": "choose", "forest": {"adjacent_to": "clearing"}, "piece": {"among": "$relics"}},
      {"op": "move", "from": "clearing", "to": "box"}],
     "/programs/dig/do/2", "the choice before it chooses one in a forest"),
    # a forest as the first choice
    ([{"op": "choose", "forest": {}, "piece": {"among": "$relics"}}],
     "/programs/dig/do/0/forest", "a forest is a second choice's"),
])
def test_shapes_of_second_choices_the_engine_cannot_offer(tmp_path, do, pointer, words):
    pack = _pack_with(tmp_path, {"law": "15.5.2", "verb": "dig",
                                 "params": {"relics": "tokens"}, "do": do})
    found = _shape(pack)
    assert any(p == pointer and words in m for p, m in found), found


def test_a_second_choice_naming_an_unknown_piece_is_found_at_the_use(tmp_path):
    pack = _pack_with(tmp_path, {
        "law": "15.5.2", "verb": "dig", "params": {"relics": "tokens"},
        "do": [{"op": "choose", "clearing": {"has": "warrior"}},
               {"op": "choose", "forest": {"lacks": "relik"}, "piece": {"among": "$relics"}},
               {"op": "move"}]})
    found = [d for d in validate([pack], []).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["PROGRAM-USE"]
    assert "'relik'" in found[0].message and "/do/1/forest/lacks" in found[0].message


# ---------------------------------------------------------------- turning a relic over


def _delve_a_face_down_tablet(order, core_kind, seed=1, ruled=()):
    g = past_setup(order, seed, bundle=relics(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    sc.put(g, "5", "cat-warrior", 1)
    for c in ruled:
        sc.put(g, c, "cat-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    m = g.factions.index("marquise")
    before = g.scores[m]
    g.record_events()
    g.apply("delve 5")
    g.apply("forest 1_2_5_10 tablet")
    turned = [x for x in ("tablet-1", "tablet-2", "tablet-3") if sc.count(g, "5", x)]
    return g, m, before, turned


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("ruled", [(), ("1", "2", "10")])
def test_a_delved_relic_is_turned_over_and_scores_its_value(core_kind, order, ruled):
    """Law 15.5.2: the face-down tablet moved into 5 is flipped: it is now one of the
    tablets of value 1, 2 or 3 (no face-down tablet left there); she scores its value,
    and loses one back where she rules fewer clearings around forest 1_2_5_10 (1, 2, 5,
    10) than the value: ruling 5 alone, for a 2 or a 3; ruling all four, never."""
    g, m, before, turned = _delve_a_face_down_tablet(order, core_kind, ruled=ruled)
    assert len(turned) == 1 and sc.count(g, "5", "tablet") == 0
    value = int(turned[0][-1])
    rules = 1 + len(ruled)
    assert g.scores[m] - before == value - (1 if rules < value else 0)
    said = [record(g, e) for e in g.take_events() if e.kind == "revealed"]
    assert said == [{"event": "revealed", "faction": "marquise", "clearing": "5",
                     "piece": "tablet", "is": turned[0]}]


def test_a_relic_turns_out_as_likely_as_its_values_are_many():
    """Four tablets, valued 1, 2, 3 and 3: over 200 seeds a delved tablet is a 3 about
    half the time, a 1 and a 2 about a quarter each."""
    seen = {"tablet-1": 0, "tablet-2": 0, "tablet-3": 0}
    for seed in range(1, 201):
        _, _, _, turned = _delve_a_face_down_tablet(ORDERS[0], "pure", seed)
        seen[turned[0]] += 1
    assert 70 <= seen["tablet-3"] <= 130 and all(25 <= seen[x] <= 75 for x in
                                                   ("tablet-1", "tablet-2")), seen


@pytest.mark.parametrize("order", ORDERS[:2])
def test_a_relic_face_up_already_stays_as_it_is(core_kind, order):
    g = daylight(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "jewel-2", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    m = g.factions.index("marquise")
    before = g.scores[m]
    g.apply("delve 5")
    g.apply("forest 1_2_5_10 jewel-2")
    assert sc.count(g, "5", "jewel-2") == 1
    assert g.scores[m] - before == 2 - 1  # ruling 5 alone, fewer than 2: one back


@pytest.mark.parametrize("do, pointer, words", [
    ([{"op": "choose", "clearing": {"has": "warrior"}}, {"op": "reveal"}],
     "/programs/dig/do/1", "'reveal' turns over the piece a second choice chose"),
    ([{"op": "choose", "clearing": {"has": "warrior"}},
      {"op": "score", "vp": {"value_of": "piece"}}],
     "/programs/dig/do/1", "'value_of' reads the chosen piece"),
    ([{"op": "choose", "clearing": {"has": "warrior"}},
      {"op": "score", "vp": {"clearings": {"adjacent_to_forest": True}}}],
     "/programs/dig/do/1", "'adjacent_to_forest' reads the forest a second choice chose"),
])
def test_what_reads_a_second_choice_before_one_is_a_shape_error(tmp_path, do, pointer,
                                                                words):
    pack = _pack_with(tmp_path, {"law": "15.5.2", "verb": "dig",
                                 "params": {"relics": "tokens"}, "do": do})
    found = _shape(pack)
    assert any(p == pointer and words in m for p, m in found), found


def test_a_piece_that_turns_over_to_another_kind_is_refused(tmp_path):
    pack = tmp_path / "forest-relics"
    shutil.copytree(PACK, pack)
    patch = json.loads((pack / "marquise.json").read_text(encoding="utf-8"))
    for op in patch["patch"]:
        if op["path"] == "/pieces/tablet":
            op["value"]["reveals"] = ["tablet-1", "sawmill"]
    (pack / "marquise.json").write_text(json.dumps(patch, indent=1), encoding="utf-8")
    found = [d for d in validate([pack], []).diagnostics if d.severity == "error"]
    assert found and "turns over to 'sawmill', which must be a token lying face up" in \
        found[0].message


@pytest.mark.parametrize("order", ORDERS[:2])
def test_what_a_face_down_relic_is_is_no_ones_to_know_before_it_is_turned(core_kind, order):
    """Law 1.2 (hidden information) with Law 15.2.1: a face-down relic's value is drawn
    as it is turned over, so twins whose futures differ (every seat's determinized copy,
    the future drawn from fresh streams) ask the same question, with the same options
    and the same observation, up to the flip; the values they turn over are each
    game's own (over several copies, not all the same)."""
    g = daylight(order, core_kind)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put_in_forest(g, "1_2_5_10", "tablet", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("delve 5")
    m = g.factions.index("marquise")
    turned = set()
    for seed in range(12):
        twin = g.determinize(m, seed)
        assert twin.decision == g.decision == "choice"
        assert sorted(twin.legal()) == sorted(g.legal())
        for q in range(g.num_players):
            assert twin.observation(q) == g.observation(q)
        twin.apply("forest 1_2_5_10 tablet")
        turned |= {x for x in ("tablet-1", "tablet-2", "tablet-3") if sc.count(twin, "5", x)}
    assert len(turned) > 1
