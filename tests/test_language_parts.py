"""The language's parts (docs/language.md) beyond the menu actions the base game runs on
them: what a part does in another program than the base game's, what the compiler makes
of a value a use leaves out, and the findings that say a part is misused.

The Alliance's own rules on these parts (Law 8.4.2, spread) are tests/test_law_alliance.py
and the rules scenarios; tests/test_differential.py checks they play today's games.
Here a pack's library replaces the standard `spread` with a different rule written in
the same parts: a cost in zone cards (`spend`) whose count is a value (`if`, `not`,
`none_on_map`, `warriors`, a number parameter), a clearing filter `adjacent_to` a filter
(`has`, `lacks`).  Those games run on the pure core only: it runs the same generated
lines as the compiled one (a compiled build of a one-off bundle costs ~40 s of CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import faction_with, past_setup, with_menu_entries

from rootlaw.generator import build as gbuild
from rootlaw.generator import programs as P
from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.bundle import standard_library
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
SEM = ROOT / "tests" / "data" / "semantics"

# Spread, otherwise: into a clearing without the token next to one holding the actor's
# warriors and no token; the first costs `surcharge` cards, each later one as many cards
# as the actor has warriors there; nothing is scored.
OTHER_SPREAD = {
    "law": "8.4.2", "verb": "spread",
    "params": {"token": "piece", "zone": "zone", "surcharge_warriors": "number",
               "surcharge": "number"},
    "do": [
        {"op": "choose", "clearing": {"lacks": "$token",
                                      "adjacent_to": {"has": "warrior", "lacks": "$token"}}},
        {"op": "spend", "from": "$zone", "count": {
            "if": {"not": {"none_on_map": "$token"}}, "then": {"warriors": "self"},
            "else": "$surcharge"}},
        {"op": "place", "piece": "$token"},
    ],
}


# Revolt, otherwise: where the actor has a warrior and no base, one matching card; every
# enemy piece removed; one token placed (as far as its limit allows: a count of the
# clearings of the suit without it, Law 1.5.4), the base of the clearing's suit, and a
# warrior into the box, which must be left to put there (into_box's 'require').
OTHER_REVOLT = {
    "law": "8.4.1", "verb": "revolt",
    "params": {"token": "piece", "zone": "zone", "cost": "number", "buildings": "pieces",
               "box": "box"},
    "do": [
        {"op": "choose", "clearing": {"has": "warrior",
                                      "lacks": ["fox-base", "rabbit-base", "mouse-base"]}},
        {"op": "spend", "from": "$zone", "count": 1},
        {"op": "remove", "pieces": "enemy"},
        {"op": "place", "piece": "$token", "require": False,
         "count": {"clearings": {"suit": "clearing", "lacks": "$token"}}},
        {"op": "place", "piece": {"of_suit": "clearing", "among": "$buildings"}},
        {"op": "into_box", "piece": "warrior", "box": "$box"},
    ],
}


def _pack_bundle(tmp_path_factory, name: str, programs: dict):
    pack = tmp_path_factory.mktemp(name)
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": name, "name": "Rules otherwise", "version": "1",
         "requires": ["base"], "content": ["library.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "other", "programs": programs}), encoding="utf-8")
    return resolve([pack])


@pytest.fixture(scope="module")
def other_bundle(tmp_path_factory):
    return _pack_bundle(tmp_path_factory, "other-spread", {"spread": OTHER_SPREAD})


@pytest.fixture(scope="module")
def revolt_bundle(tmp_path_factory):
    return _pack_bundle(tmp_path_factory, "other-revolt", {"revolt": OTHER_REVOLT})


def test_a_pack_s_revolt_written_in_the_same_parts_plays_its_own_rule(revolt_bundle):
    """Autumn's clearing 1 (fox) has one slot.  The enemy's building holds it and its
    Keep forbids placing there (Law 6.2.2), but both go in the revolt before anything
    is placed: it is offered (Law 8.4.1's FAQ), and the remover scores them (Law 3.2.1)."""
    g = Game(["marquise", "alliance"], 1, bundle=revolt_bundle, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    pos.set_zone(g, 1, "supporters", ["anvil"])
    pos.set_box(g, 1, "officers", 0)
    for piece, n in (("keep", 1), ("sawmill", 1), ("cat-warrior", 2), ("alliance-warrior", 1)):
        sc.put(g, "1", piece, n)
    sc.put(g, "3", "alliance-warrior", 1)  # rabbit: the anvil (fox) does not match
    sc.goto(g, "alliance", "birdsong")
    revolts = {a for a in g.legal() if a.startswith("revolt ")}
    assert revolts == {"revolt 1"}
    vp = g.scores[1]
    g.apply("revolt 1")
    assert sc.count(g, "1", "keep") == sc.count(g, "1", "sawmill") == 0
    assert sc.count(g, "1", "cat-warrior") == 0 and g.scores[1] == vp + 2
    # 4 fox clearings lack sympathy, but one a clearing (Law 8.2.5.I): 1 is placed.
    assert sc.count(g, "1", "sympathy") == 1 and sc.count(g, "1", "fox-base") == 1
    assert g.box(1, "officers") == 1 and g.zone(1, "supporters") == []
    # A bird matches 3; the fox base is on the map now, so no fox clearing can revolt.
    sc.put(g, "6", "alliance-warrior", 1)
    pos.set_zone(g, 1, "supporters", ["bird-crossbow"])
    assert {a for a in g.legal() if a.startswith("revolt ")} == {"revolt 3"}
    # into_box requires a warrior left in the supply: with none, no revolt is offered.
    pos.set_box(g, 1, "officers", g.box(1, "officers") + sc.supply(g, "alliance-warrior"))
    assert not any(a.startswith("revolt ") for a in g.legal())


def _at_spread(bundle) -> Game:
    """Eyrie and Alliance past setup, the board, hands and supporters empty, the
    Alliance at its Birdsong's spread step (past revolt)."""
    g = Game(["eyrie", "alliance"], 1, bundle=bundle, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    pos.set_zone(g, 1, "supporters", [])
    sc.goto(g, "alliance", "birdsong")
    g.apply("done")  # no revolt
    return g


def _spreads(g) -> set[str]:
    return {a for a in g.legal() if a.startswith("spread ")}


def test_a_pack_s_spread_written_in_the_same_parts_plays_its_own_rule(other_bundle):
    """Autumn's paths: 8-4, 8-7; 12-4, 12-7, 12-9, 12-10, 12-11; 9-1, 9-4."""
    g = _at_spread(other_bundle)
    sc.put(g, "8", "alliance-warrior", 2)
    # adjacent_to {has warrior, lacks token}: next to 8.  None on the map: the cost is
    # the surcharge (1), and a bird card matches any clearing.
    assert _spreads(g) == set()  # no card to pay with
    pos.set_zone(g, 1, "supporters", ["bird-crossbow"])
    assert _spreads(g) == {"spread 4", "spread 7"}
    g.apply("spread 7")
    assert sc.count(g, "7", "sympathy") == 1 and g.zone(1, "supporters") == []
    assert g.scores[1] == 0  # this spread scores nothing: no 'score' in its place
    # One on the map now: the cost is the Alliance's warriors in the clearing: none in 4
    # (free, so offered with an empty zone); 8 is next to 7 (a token) and 4 (none there).
    assert _spreads(g) == {"spread 4"}
    g.apply("spread 4")
    assert sc.count(g, "4", "sympathy") == 1 and _spreads(g) == set()
    sc.put(g, "12", "alliance-warrior", 1)
    assert _spreads(g) == {"spread 9", "spread 10", "spread 11"}  # free: no warriors
    sc.put(g, "9", "alliance-warrior", 1)
    # Next to 12: 9 (now costs 1), 10, 11; next to 9: 1 (free), 12 (costs 1).
    assert _spreads(g) == {"spread 1", "spread 10", "spread 11"}
    pos.set_zone(g, 1, "supporters", ["bird-crossbow"])
    assert _spreads(g) == {"spread 1", "spread 9", "spread 10", "spread 11", "spread 12"}
    g.apply("spread 12")
    assert sc.count(g, "12", "sympathy") == 1 and g.zone(1, "supporters") == []


def test_the_standard_spread_is_still_the_law_s(other_bundle):
    """The pack's library replaces the standard program for its bundle only."""
    assert base_bundle().programs["spread"].do[1].count != other_bundle.programs["spread"] \
        .do[1].count
    assert other_bundle.programs["spread"].model_dump(by_alias=True, exclude_defaults=True) \
        ["do"][1]["count"] == OTHER_SPREAD["do"][1]["count"]


def _value_code(value, **params):
    b = base_bundle()
    f = next(x for x in b.factions if x.id == "alliance")
    r = P._Resolver("spread", params, f, {k: i for i, k in enumerate(f.pieces)})
    inst = P.Instance(0, "spread", 0, "spread", "clearing", -1)
    return P._value(value, P._Code(inst, r, hoisting=False))


def test_a_number_parameter_left_out_makes_its_comparison_false():
    """Law 8.4.2.I with no threshold (an entry without surcharge_warriors): martial law
    never applies, so the cost is the track's alone -- compiled away, not tested."""
    count = base_bundle().programs["spread"].do[1].count
    tok = list(next(x for x in base_bundle().factions if x.id == "alliance").pieces) \
        .index("sympathy")
    assert _value_code(count, token="sympathy", surcharge_warriors=None, surcharge=1) == \
        f"self.next_cost({tok})"
    assert "most_warriors_of_others" in _value_code(
        count, token="sympathy", surcharge_warriors=3, surcharge=1)
    # A left-out number where a number is needed has no value: the compiler says so.
    assert _value_code(M.SumValue(sum=[1, "$surcharge"]), surcharge=None) is None


def test_misused_parts_are_coded_located_findings():
    path = SEM / "program-spend.json"
    text = path.read_text(encoding="utf-8")

    def line(needle: str) -> int:
        assert text.count(needle) == 1, needle
        return text[:text.index(needle)].count("\n") + 1

    got = [(d.code, d.pointer, d.line) for d in validate([path]).diagnostics]
    assert got == [
        ("PROGRAM-REF", "/programs/nest/do/1/count/sum/0/track_cost",
         line('{"track_cost": "$pool"}')),
        ("PROGRAM-REF", "/programs/nest/do/1/count/sum/1/then", line('"$bonus"')),
        ("PROGRAM-REF", "/programs/rise/do/2/piece/among", line('"among": "$pool"')),
        ("PROGRAM-SHAPE", "/programs/nest/do/0/clearing/any_of/0/when",
         line('{"when": {"at_least"')),
        ("PROGRAM-SHAPE", "/programs/dabble/do/1", line('{"op": "spend", "from": "$pool", '
                                                        '"count": 1}')),
        ("PROGRAM-SHAPE", "/programs/dabble/do/2", line('{"op": "put"')),
        ("PROGRAM-SHAPE", "/programs/rise/do/0/card/matching/suit", line('"suit": "clearing"')),
        ("PROGRAM-SHAPE", "/programs/rise/do/2/piece", line('"among": "$pool"')),
        ("PROGRAM-SHAPE", "/programs/preen/do/1/count/clearings/lacks",
         line('"lacks": ["warrior"]')),
        ("PROGRAM-SHAPE", "/programs/preen/do/2", line('"count": 2}')),
    ]
    messages = [d.message for d in validate([path]).diagnostics]
    assert messages[0] == "'$pool' is a zone parameter; count/sum/track_cost takes piece"
    assert messages[2] == "'$pool' is a zone parameter; piece/among takes piece or pieces"
    assert "cannot count pieces in 'the clearing'" in messages[3]
    assert messages[6] == "rise: 'suit' is the chosen clearing's, and no clearing is chosen"
    assert messages[8] == "preen: no clearing both has and lacks 'warrior': this filter " \
        "passes none"
    assert messages[9] == "preen: one 'spend' a program (the parts after it wait on its " \
        "payment)"


@pytest.mark.parametrize("value, words", [
    ({"sume": [1]}, "'sume' is not a key of a sum (did you mean 'sum'?)"),
    ("five", "'count' is '$name', a number parameter of the program, not 'five'"),
    (3.5, "'count' is a whole number, '$name', a number parameter of the program or an "
          "object, not the number 3.5"),
    ({"if": {"none_on_mapp": "sympathy"}, "then": 1},
     "'none_on_mapp' is not a key of a 'none_on_map' condition (did you mean "
     "'none_on_map'?)"),
    # 'suit' is the chosen clearing's or a clearing suit's (the Favors' {"suit": "fox"}).
    ({"clearings": {"suit": "bird"}}, "'suit' is clearing, fox, rabbit or mouse, or '$name' "
     "(a suit parameter of the program), not 'bird'"),
])
def test_a_value_of_the_wrong_shape_is_told_in_the_author_s_words(tmp_path, value, words):
    doc = {"kind": "library", "id": "bad", "programs": {"nest": {
        "verb": "spread", "params": {"pool": "zone"},
        "do": [{"op": "choose", "clearing": {}},
               {"op": "spend", "from": "$pool", "count": value}]}}}
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    messages = [d.message for d in validate([path]).diagnostics]
    assert any(m.startswith(words) for m in messages), messages


def test_remove_names_one_of_yours_or_every_enemy_piece(tmp_path):
    doc = {"kind": "library", "id": "bad", "programs": {"rise": {"verb": "revolt", "do": [
        {"op": "choose", "clearing": {}}, {"op": "remove"},
        {"op": "remove", "piece": "warrior", "pieces": "enemy"}]}}}
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    got = [(d.code, d.pointer, d.message) for d in validate([path]).diagnostics]
    said = "'remove' names one of 'piece' (one of yours) or 'pieces' ('enemy')"
    assert got == [("VALUE-INVALID", "/programs/rise/do/1/piece", said),
                   ("VALUE-INVALID", "/programs/rise/do/2/piece", said)]


def test_a_choice_s_own_suit_compiles_to_no_test():
    """What FIELD-UNREAD says of 'suit': "clearing" in a choice's own filter: the
    clearing tested is the clearing chosen, so the listing's tests are the same without
    it; in 'adjacent_to' it compares the neighbour's suit with the chosen clearing's."""
    b = base_bundle()
    f = next(x for x in b.factions if x.id == "alliance")
    r = P._Resolver("recruit_at", {}, f, {k: i for i, k in enumerate(f.pieces)})

    def tests(flt: dict) -> list[str]:
        inst = P.Instance(0, "recruit_at", 0, "recruit", "clearing", -1)
        code = P._Code(inst, r, hoisting=True)
        return P._clearing_test(M.ClearingFilter.model_validate(flt), code) + inst.helpers

    assert tests({"has": "warrior", "suit": "clearing"}) == tests({"has": "warrior"})
    assert tests({"any_of": [{"has": "warrior", "suit": "clearing"}]}) == \
        tests({"any_of": [{"has": "warrior"}]})
    near = tests({"adjacent_to": {"has": "warrior", "suit": "clearing"}})
    assert near != tests({"adjacent_to": {"has": "warrior"}})
    assert any("T_CLEARING_SUIT + j] == self.t[T_CLEARING_SUIT + c]" in h for h in near)


@pytest.mark.parametrize("map_id, offered", [("autumn", {"revolt 1"}), ("warren", set())])
def test_a_revolt_of_suits_the_map_has_not_is_never_offered(map_id, offered):
    """What PROGRAM-NEVER says of tests/data/packs/program-never: the otters' lodges are
    fox and mouse (Law 8.4.1: the base of the clearing's suit), so on the warren (every
    clearing rabbit) their revolt is never offered; on Autumn, clearing 1 (fox) is."""
    b = resolve([ROOT / "tests" / "data" / "packs" / "program-never"], map_id=map_id)
    g = Game(["marquise", "test-otters"], 1, bundle=b, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    sc.put(g, "1", "ripple", 1)
    pos.set_zone(g, 1, "friends", ["bird-crossbow", "bird-ambush"])
    sc.goto(g, "test-otters", "birdsong")
    assert {a for a in g.legal() if a.startswith("revolt ")} == offered


def test_a_revolt_costing_more_than_its_zone_holds_is_never_offered():
    """What PROGRAM-NEVER says of tests/data/packs/program-cost: a revolt of 5 friends
    from a zone of 4 is not offered with the zone full of birds (matching any clearing),
    where one of 2 is (the test above, on Autumn)."""
    b = resolve([ROOT / "tests" / "data" / "packs" / "program-cost"])
    g = Game(["marquise", "test-otters"], 1, bundle=b, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    sc.put(g, "1", "ripple", 1)
    pos.set_zone(g, 1, "friends", ["bird-crossbow", "bird-ambush", "bird-dominance",
                                   "birdy-bindle"])
    sc.goto(g, "test-otters", "birdsong")
    assert len(g.zone(1, "friends")) == 4
    assert not any(a.startswith("revolt ") for a in g.legal())


# ---- build (Law 6.5.4): a choice of a piece and a clearing, a cost in pieces ('pay')


def _at_build(order: tuple[str, ...]) -> Game:
    """The Marquise at her Daylight's actions (past crafting), the board (ruins too)
    and hands empty but her buildings: a sawmill and a workshop fill clearing 2 (two
    slots), a recruiter is in 12, so each track's next building costs 1 wood (Law
    6.5.4.II)."""
    g = Game(list(order), 1, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for c in range(1, 13):
        pos.set_ruins(g, str(c), 0)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    sc.put(g, "2", "sawmill", 1)
    sc.put(g, "2", "workshop", 1)
    sc.put(g, "12", "recruiter", 1)
    sc.goto(g, "marquise", "daylight")
    if g.decision == "craft":
        g.apply("done")
    assert g.decision == "actions"
    return g


def _builds(g) -> list[str]:
    """The builds offered, in the engine's order."""
    return [g.notation(a) for a in g.legal_actions() if g.notation(a).startswith("build ")]


SEATINGS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


@pytest.mark.parametrize("order", SEATINGS, ids="-".join)
def test_build_pays_from_clearings_connected_through_clearings_the_builder_rules(order):
    """Law 6.5.4: build in a clearing you rule with an open slot; pay the wood from that
    clearing or clearings connected to it through clearings you rule (6.5.4.II), then
    place the building and score the space it uncovers (6.5.4.III).  Autumn's paths:
    2-10, 10-12; 3-6, 3-7, 3-11; 7-8, 7-12."""
    g = _at_build(order)
    sc.put(g, "12", "wood", 1)
    sc.put(g, "10", "cat-warrior", 1)
    sc.put(g, "3", "cat-warrior", 1)      # ruled, a slot open, its wood is beyond 7:
    sc.put(g, "7", "bird-warrior", 1)    # ruled by the Eyrie, not paid through
    sc.put(g, "7", "wood", 1)
    # 2 is full; 10 reaches 12's wood (through 10, 12); 3 reaches none: 7 is not hers.
    assert _builds(g) == ["build sawmill 10", "build sawmill 12", "build workshop 10",
                          "build workshop 12", "build recruiter 10", "build recruiter 12"]
    vp = g.scores[g.factions.index("marquise")]
    g.apply("build workshop 10")
    # One clearing can pay: paid without asking, the workshop placed and scored.
    assert g.decision == "actions"
    assert sc.count(g, "12", "wood") == 0 and sc.count(g, "7", "wood") == 1
    assert sc.count(g, "10", "workshop") == 1
    assert g.scores[g.factions.index("marquise")] == vp + 2  # workshop track: 0, 2, ...
    assert _builds(g) == []  # no wood she can reach: 7's is behind the Eyrie
    # Her warriors rule 7 now: its wood pays for 3 (next to it), for 7, and for 12 and 10
    # through 7 (path 7-12); a workshop costs 2 now, and one wood is in reach.
    sc.put(g, "7", "cat-warrior", 2)
    assert _builds(g) == ["build sawmill 3", "build sawmill 7", "build sawmill 10",
                          "build sawmill 12", "build recruiter 3", "build recruiter 7",
                          "build recruiter 10", "build recruiter 12"]


@pytest.mark.parametrize("order", SEATINGS[:2], ids="-".join)
def test_the_clearing_that_pays_is_asked_only_where_more_than_one_can(order):
    """Law 6.5.4.II: the wood may come from any connected clearing she rules: with wood
    in 10 and 12 she chooses (the 'pay' decision, one piece at a time); once one clearing
    alone can pay the rest, it pays without asking."""
    g = _at_build(order)
    sc.put(g, "10", "cat-warrior", 1)
    sc.put(g, "10", "wood", 1)
    sc.put(g, "12", "wood", 2)
    sc.put(g, "2", "sawmill", 2)   # (the workshop moved out: 2 holds two sawmills)
    sc.put(g, "2", "workshop", 0)
    sc.put(g, "11", "workshop", 1)
    # The next sawmill costs 2 (its track: 0, 1, 2, ...), recruiter and workshop 1.
    g.apply("build sawmill 10")
    assert g.decision == "pay" and set(g.legal()) == {"clearing 10", "clearing 12"}
    assert sc.count(g, "10", "sawmill") == 0  # not placed before it is paid
    g.apply("clearing 10")
    # Only 12 has wood left: its wood pays the second without asking.
    assert g.decision == "actions"
    assert sc.count(g, "10", "wood") == 0 and sc.count(g, "12", "wood") == 1
    assert sc.count(g, "10", "sawmill") == 1
    assert g.scores[g.factions.index("marquise")] == 2  # the sawmill track: 0, 1, 2


# A build otherwise, in the same parts: only where the actor has a warrior, a cost of 2
# of the token whatever the track says, nothing scored.
OTHER_BUILD = {
    "law": "6.5.4", "verb": "build", "params": {"buildings": "pieces", "pay_token": "piece"},
    "do": [
        {"op": "choose", "piece": {"among": "$buildings"},
         "clearing": {"rule": "self", "has": "warrior"}},
        {"op": "pay", "piece": "$pay_token", "count": 2},
        {"op": "place", "piece": "piece"},
    ],
}


@pytest.fixture(scope="module")
def build_bundle(tmp_path_factory):
    return _pack_bundle(tmp_path_factory, "other-build", {"build": OTHER_BUILD})


def test_a_pack_s_build_written_in_the_same_parts_plays_its_own_rule(build_bundle):
    g = Game(["marquise", "eyrie"], 1, bundle=build_bundle, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    sc.put(g, "12", "recruiter", 1)   # rules 12 (no warrior: not offered there)
    sc.put(g, "12", "wood", 1)
    sc.put(g, "10", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight")
    if g.decision == "craft":
        g.apply("done")
    assert _builds(g) == []  # 1 wood in reach, 2 owed
    sc.put(g, "10", "wood", 1)
    assert _builds(g) == ["build sawmill 10", "build workshop 10", "build recruiter 10"]
    g.apply("build recruiter 10")
    assert g.decision == "pay" and set(g.legal()) == {"clearing 10", "clearing 12"}
    g.apply("clearing 12")
    assert g.decision == "actions"  # then 10 alone can pay: without asking
    assert sc.count(g, "10", "wood") == sc.count(g, "12", "wood") == 0
    assert sc.count(g, "10", "recruiter") == 1 and g.scores == [0, 0]


def test_a_chosen_piece_and_a_cost_in_pieces_misused_are_located_findings(tmp_path):
    """'piece' is the piece the first choice chose: named where none is chosen, it is a
    PROGRAM-SHAPE finding; so is a second cost (the parts after a cost wait on it)."""
    doc = {"kind": "library", "id": "bad", "programs": {
        "nest": {"verb": "organize", "params": {"token": "piece"}, "do": [
            {"op": "choose", "clearing": {"rule": "self"}},
            {"op": "pay", "piece": "$token", "count": {"track_cost": "piece"}},
            {"op": "place", "piece": "piece"}]},
        "dam": {"verb": "build", "params": {"dams": "pieces", "log": "piece"}, "do": [
            {"op": "choose", "piece": {"among": "$dams"}, "clearing": {"rule": "self"}},
            {"op": "pay", "piece": "$log", "count": 1},
            {"op": "pay", "piece": "$log", "count": {"track_cost": "piece"}},
            {"op": "place", "piece": "piece"}]}}}
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    got = [(d.code, d.pointer, d.message) for d in validate([path]).diagnostics]
    assert got == [
        ("PROGRAM-SHAPE", "/programs/nest/do/1/count/track_cost",
         "nest: 'piece' is the chosen piece, and no piece is chosen"),
        ("PROGRAM-SHAPE", "/programs/nest/do/2/piece",
         "nest: 'piece' is the chosen piece, and no piece is chosen"),
        ("PROGRAM-SHAPE", "/programs/dam/do/2",
         "dam: one cost ('spend' or 'pay') a program (the parts after it wait on its "
         "payment)"),
    ]


def test_a_misspelt_piece_choice_or_pay_is_told_in_the_author_s_words(tmp_path):
    doc = {"kind": "library", "id": "bad", "programs": {"dam": {
        "verb": "build", "params": {"dams": "pieces"},
        "do": [{"op": "choose", "piece": {"amung": "$dams"}, "clearing": {"rule": "self"}},
               {"op": "pya", "piece": "warrior"}]}}}
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    messages = [d.message for d in validate([path]).diagnostics]
    assert "'amung' is not a key of a choice of a piece (did you mean 'among'?); a choice " \
        "of a piece has: among, same_type_as, named" in messages
    assert any(m.startswith("'op' must name a program part: ") and m.endswith(
        "not 'pya' (did you mean 'pay'?)") for m in messages), messages


@pytest.mark.parametrize("where, op, told", [
    # (a program's own 'move' takes a piece out of a forest: told what it is; an
    # effect's moves another player's warriors, stop 36)
    ("program", "move", "a program's moves are a menu's march (Law 4.2), its 'move' the "
                        "piece a second choice chose"),
    ("effect", "battle", "(an effect program battles with 'actions', a menu of one "
                         "'battle' entry (the Law's battle, 4.3))"),
    ("program", "recruit", "recruiting is the standard library's program 'recruit_at'"),
    ("effect", "move", "the holder's own move is 'actions' with a menu of one 'march' "
                       "entry (the Law's move, 4.2)"),
])
def test_a_law_verb_said_elsewhere_is_told_where_not_misspelt(tmp_path, where, op, told):
    """A verb of the Law that the language says in another place ('move': a menu's
    march, Law 4.2) is told where it lives, not taken for a misspelling of the nearest
    part ('remove')."""
    if where == "program":
        doc: dict = {"kind": "library", "id": "bad", "programs": {"hop": {
            "verb": "hop", "do": [{"op": "choose", "clearing": {"rule": "self"}},
                                  {"op": op, "count": 1}]}}}
    else:
        doc, _ = faction_with("marquise", {"kind": "effect", "id": "hop",
                                           "timing": "daylight", "do": [{"op": op}]})
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    messages = [d.message for d in validate([path]).diagnostics]
    assert any((f"not '{op}' " in m or f"a '{op}' program part" in m or
                f"a '{op}' of 'warrior'" in m or f"effect program's {op} is of" in m)
               and told in m for m in messages), messages
    assert not any("did you mean" in m for m in messages), messages


# A spread otherwise: a cost in pieces where no piece is chosen (a clearing alone): one
# sympathy token from a connected clearing the Alliance rules pays for the one placed.
PAID_SPREAD = {
    "law": "8.4.2", "verb": "spread", "params": {"token": "piece"},
    "do": [
        {"op": "choose", "clearing": {"rule": "self", "lacks": "$token"}},
        {"op": "pay", "piece": "$token", "count": 1},
        {"op": "place", "piece": "$token"},
    ],
}


@pytest.fixture(scope="module")
def paid_spread_bundle(tmp_path_factory):
    return _pack_bundle(tmp_path_factory, "paid-spread", {"spread": PAID_SPREAD})


def test_a_cost_in_pieces_with_a_clearing_chosen_alone(paid_spread_bundle):
    """Autumn's paths 10-12, 2-10: the token in 12 pays for one in 10 (connected through
    clearings the Alliance rules), and for none in 2 once 10 is not hers."""
    g = _at_spread(paid_spread_bundle)
    sc.put(g, "12", "alliance-warrior", 1)
    sc.put(g, "12", "sympathy", 1)
    sc.put(g, "10", "alliance-warrior", 1)
    sc.put(g, "2", "alliance-warrior", 1)
    assert _spreads(g) == {"spread 2", "spread 10"}
    g.apply("spread 10")
    assert g.decision != "pay"  # one clearing can pay
    assert sc.count(g, "12", "sympathy") == 0 and sc.count(g, "10", "sympathy") == 1
    sc.put(g, "10", "bird-warrior", 2)   # 10 is the Eyrie's: 2 and 12 reach no token
    assert g.decision == "actions" and _spreads(g) == set()
    sc.put(g, "10", "bird-warrior", 0)   # hers again: 10's token pays for 2 or 12
    assert _spreads(g) == {"spread 2", "spread 12"}


# ---------------------------------------------------------------- the steps as programs
#
# A step whose op names a program (models.ProgramStep: any op that is no engine step)
# runs it when the turn enters the step: the Eyrie's Evening score (Law 7.6.1) is the
# standard `score_track`, one `score` part of a `track_vp` value.  The base games reach
# these steps through their turn flow; a pack's library gives the same steps other
# programs of the same parts, and steps of programs of its own.

def _at_evening(factions: tuple[str, ...], bundle=None, pure: bool = True) -> Game:
    """Past setup, the board clear, every hand empty, VP 0; the Eyrie's turn about to
    enter its Evening."""
    g = Game(list(factions), 1, bundle=bundle, pure=pure)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
        sc.set_vp(g, q, 0)
    return g


def _scored(g: Game) -> list[tuple[str, int, str, str]]:
    """The 'scored' events since the last look: (faction, VP, why, for what)."""
    out = []
    for e in g.take_events():
        if e.kind == "scored":
            why = g.names["score_why"][e.c]
            what = g.names["pieces"][e.d] if why == "track" else \
                g.names["suits"][e.d] if why == "columns" else str(e.d)
            out.append((g.names["factions"][g._seats[e.a]], e.b, why, what))
    return out


@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie"),
                                      ("marquise", "alliance", "eyrie")])
@pytest.mark.parametrize("roosts, vp", [(0, 0), (1, 0), (3, 2), (7, 5)])
def test_score_of_a_track_s_vp_is_law_7_6_1_s_evening_score(factions, roosts, vp, core_kind):
    """Law 7.6.1: the Eyrie score the VP of the last Roosts space uncovered (0 with one
    roost, 2 with three, 5 with seven); with none on the map nothing is scored and no
    'scored' event is told.  The event's reason is the track's, for the roost, as the
    engine's step op told it (logs unchanged)."""
    g = _at_evening(factions, pure=core_kind == "pure")
    e = factions.index("eyrie")
    for c in ("2", "2", "5", "5", "7", "7", "8")[:roosts]:
        sc.put(g, c, "roost", sc.count(g, c, "roost") + 1)
    g.record_events()
    sc.goto(g, "eyrie", "evening", "score_track")
    assert g.scores[e] == vp and sum(g.scores) == vp
    assert _scored(g)[:1] == ([("eyrie", vp, "track", "roost")] if vp else [])
    assert "score_track" in pos.steps_of(g, "eyrie", "evening")


def test_a_step_runs_the_program_its_op_names(tmp_path_factory):
    """A pack's library replaces the standard score_track: the Eyrie's Evening step now
    scores the cards in its hand (a `cards` value), for an 'effect'."""
    b = _pack_bundle(tmp_path_factory, "handscore", {"score_track": {
        "law": "7.6.1", "params": {"building": "piece"},
        "do": [{"op": "score", "vp": {"cards": "hand"}}]}})
    for factions in (("eyrie", "marquise"), ("marquise", "eyrie")):
        g = _at_evening(factions, bundle=b)
        e = factions.index("eyrie")
        sc.put(g, "2", "roost", 3)
        sc.set_hand(g, e, ["cobbler", "armorers"])
        g.record_events()
        sc.goto(g, "eyrie", "evening", "score_track")
        assert g.scores[e] == 2
        assert _scored(g) == [("eyrie", 2, "effect", "-1")]


def _choosing_pack(tmp_path_factory, name: str, programs: dict):
    pack = tmp_path_factory.mktemp(name)
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": name, "name": "A step that chooses", "version": "1",
         "requires": ["base"], "content": ["library.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps({"kind": "library", "id": "other",
                                                   "programs": programs}), encoding="utf-8")
    return pack


# The Eyrie's Evening 'score_track' step, otherwise: the player chooses a clearing with
# a roost and scores the roosts' track VP (a step whose program begins with a choice).
TEND = {"score_track": {
    "law": "7.6.1", "verb": "tend", "params": {"building": "piece"},
    "do": [{"op": "choose", "clearing": {"has": "$building"}},
           {"op": "score", "vp": {"track_vp": "$building"}}]}}

# ... or reveals a hand card matching a clearing with a roost to place a warrior there.
SHOW = {"score_track": {
    "law": "7.6.1", "verb": "show", "params": {"building": "piece"},
    "do": [{"op": "choose", "clearing": {"has": "$building"},
            "card": {"from": "hand", "matching": "clearing"}},
           {"op": "place", "piece": "warrior"}]}}


@pytest.mark.parametrize("factions", [["marquise", "eyrie"], ["eyrie", "marquise"]])
def test_a_step_whose_program_chooses_asks_its_first_choice(tmp_path_factory, factions):
    """A step naming a program that begins with a choice is a decision of the step: its
    options are the choice's (in the program's verb), the program runs on the one taken
    and the step is over; with no option, the step is over unasked.  Reached through the
    turn flow from the Evening's start (Law 7.6: score_track is its first step)."""
    b = resolve([_choosing_pack(tmp_path_factory, "tend", TEND)])
    e = factions.index("eyrie")
    g = past_setup(factions, 3, bundle=b, clear=True, empty_hands=True)
    sc.put(g, "2", "roost", 1)
    sc.put(g, "6", "roost", 1)
    sc.put(g, "3", "keep", 1)
    vp = g.scores[e]
    sc.goto(g, "eyrie", "evening")
    assert g.to_play == e and g.decision == "score_track"
    assert sorted(g.legal()) == ["tend 2", "tend 6"]
    g.apply("tend 6")
    assert g.scores[e] == vp + 1  # two roosts on the map: the track's 1 VP
    assert g.decision != "score_track"
    # No roost on the map: no option, the step is over without asking.
    sc.clear_board(g)
    sc.put(g, "3", "keep", 1)
    sc.goto(g, "eyrie", "evening")
    assert g.decision != "score_track"


def test_a_step_choosing_a_hand_card_asks_on_public_facts_only(tmp_path_factory):
    """Twins that differ only in the Eyrie's hand cards (one matching a roost's clearing,
    one not): the step asks in both, offers 'done' in both, and only the cards differ
    (Law 1.2: whether a player is asked depends on what the table may know)."""
    b = resolve([_choosing_pack(tmp_path_factory, "show", SHOW)])
    seen = []
    for hand in (["bake-sale"], ["sword"]):  # rabbit (clearing 5's suit), mouse
        g = past_setup(["marquise", "eyrie"], 3, bundle=b, clear=True, empty_hands=True)
        sc.set_hand(g, 1, hand)
        sc.put(g, "5", "roost", 1)  # clearing 5: rabbit
        sc.put(g, "3", "keep", 1)
        sc.goto(g, "eyrie", "evening")
        seen.append((g.to_play, g.decision, sorted(g.legal())))
    assert seen[0][:2] == seen[1][:2] == (1, "score_track")
    assert seen[0][2] == ["done", "show bake-sale 5"] and seen[1][2] == ["done"]
    g.apply("done")
    assert g.decision != "score_track"


def test_a_step_s_program_that_chooses_and_pays_is_a_located_finding(tmp_path_factory):
    """A step's choice pays no cost (the parts after a cost are a menu entry's): a step
    program that chooses and spends is PROGRAM-USE at the step (and at no menu entry)."""
    pack = _choosing_pack(tmp_path_factory, "paying", {"score_track": {
        "verb": "tithe", "params": {"building": "piece"},
        "do": [{"op": "choose", "clearing": {"has": "$building"}},
               {"op": "pay", "piece": "$building", "count": 1},
               {"op": "score", "vp": {"track_vp": "$building"}}]}})
    found = [d for d in validate([pack]).diagnostics if d.code == "PROGRAM-USE"]
    assert [(Path(d.file).name, d.pointer) for d in found] == \
        [("eyrie.json", "/turn/evening/0")]
    assert "chooses and pays a cost at /programs/score_track/do/1" in found[0].message


def test_a_step_program_naming_what_its_faction_lacks_is_located_at_the_step(
        tmp_path_factory):
    """PROGRAM-USE at a step as at a menu entry: a piece its faction lacks, named by the
    program itself."""
    pack = tmp_path_factory.mktemp("lacking")
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "lacking", "name": "A step naming a piece", "version": "1",
         "requires": ["base"], "content": ["library.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps({"kind": "library", "id": "other",
        "programs": {"score_track": {
            "params": {"building": "piece"},
            "do": [{"op": "score", "vp": {"track_vp": "sawmill"}}]}}}), encoding="utf-8")
    found = [d for d in validate([pack]).diagnostics
             if d.code == "PROGRAM-USE"]
    assert [(Path(d.file).name, d.pointer) for d in found] == \
        [("eyrie.json", "/turn/evening/0")]
    assert "names piece 'sawmill'" in found[0].message and "a piece of marquise" in \
        found[0].message


TITHE = {"law": "6.6.1", "params": {"count": {"type": "number", "default": 2}},
         "do": [{"op": "draw", "count": "$count"}]}
"""A pack's own program, no standard one's name: draw cards (Law 6.6.1's draw), 2 unless
the step says."""


@pytest.fixture(scope="module")
def tithe_bundles(tmp_path_factory):
    """The Eyrie's Evening begins with a step of a pack's own program: {"op": "tithe"}
    (its default count) in one pack, its core compiled (for both cores' games: auto-build
    is off), and {"op": "tithe", "count": 0} in another (the pure core's)."""
    out = []
    for name, step in (("tithe", {"op": "tithe"}), ("tithe-none", {"op": "tithe", "count": 0})):
        pack = tmp_path_factory.mktemp(name)
        (pack / "pack.json").write_text(json.dumps(
            {"kind": "pack", "id": name, "name": "A step of its own", "version": "1",
             "requires": ["base"], "content": ["library.json", "patch.json"]}),
            encoding="utf-8")
        (pack / "library.json").write_text(json.dumps(
            {"kind": "library", "id": "tithes", "programs": {"tithe": TITHE}}),
            encoding="utf-8")
        (pack / "patch.json").write_text(json.dumps(
            {"kind": "patch", "target": "faction:eyrie", "patch": [
                {"op": "add", "path": "/turn/evening/0", "value": step}]}), encoding="utf-8")
        out.append(resolve([pack]))
    gbuild.compile_core(out[0])
    return out


@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie")])
def test_a_pack_s_own_program_is_a_step(factions, tithe_bundles, core_kind):
    """A step names a pack's own program as it names a standard one: the Eyrie's Evening
    draws (Law 6.6.1) 2 cards by the pack's tithe (its parameter's default) and then 1 by
    the standard draw (no roost on the map: no bonus, Law 7.6.2); with the step's count
    0, only the 1; without the pack, only the 1."""
    pure = core_kind == "pure"
    for bundle, drawn in ((tithe_bundles[0], 3), (tithe_bundles[1], 1), (None, 1)):
        g = _at_evening(factions, bundle=bundle, pure=pure or bundle is tithe_bundles[1])
        if bundle is tithe_bundles[0]:
            assert g.compiled == (not pure)
        e = factions.index("eyrie")
        first = "tithe" if bundle is not None else "score_track"
        assert pos.steps_of(g, "eyrie", "evening")[0] == first
        sc.goto(g, "eyrie", "evening", first)
        assert len(g.hand(e)) == drawn, (bundle is not None and bundle.packs, drawn)
    # The step dumps with its program's default, as a model's default did: the rules
    # (and the hash records keep) say what the step does, not how it was written.
    f = tithe_bundles[0].faction("eyrie")
    assert tithe_bundles[0].canonical()["factions"][
        [x.id for x in tithe_bundles[0].factions].index("eyrie")]["turn"]["evening"][0] == \
        {"op": "tithe", "count": 2}
    assert f.turn.evening[0].fields() == {}


def test_a_pack_s_own_step_program_is_validated_at_the_step(tmp_path_factory):
    """A pack's own program used as a step is checked at the step as a standard one is:
    a count of the wrong form (PROGRAM-USE) and a field it has no parameter for
    (KEY-UNKNOWN, with "did you mean"), located at the step in the patched faction."""
    pack = tmp_path_factory.mktemp("bad-tithe")
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "bad-tithe", "name": "A step of its own", "version": "1",
         "requires": ["base"], "content": ["library.json", "eyrie.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "tithes", "programs": {"tithe": TITHE}}), encoding="utf-8")
    eyrie = json.loads((Path(M.__file__).parent / "content" / "base" / "eyrie.json")
                       .read_text(encoding="utf-8"))
    eyrie.pop("$schema", None)
    eyrie["turn"]["evening"][:0] = [{"op": "tithe", "count": "two"},
                                    {"op": "tithe", "cuont": 1}]
    (pack / "eyrie.json").write_text(json.dumps(eyrie, indent=2), encoding="utf-8")
    found = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics]
    assert ("PROGRAM-USE", "/turn/evening/0", "tithe: program tithe's parameter 'count' "
            "is a number, and this step's 'count' is 'two'") in found
    assert ("KEY-UNKNOWN", "/turn/evening/1/cuont", "tithe: program tithe has no "
            "parameter 'cuont' (did you mean 'count'?) (its parameters: count)") in found


def _decree(g: Game, seat: int, cols: dict) -> None:
    """The seat's columns hold these cards only (viziers from the reserve)."""
    defs = pos.card_defs(g)
    lo = pos.column_loc(g, seat, "recruit")
    for i in range(g.consts["N"]):
        loc = g.state[g.S["CARD_LOC"] + i]
        if lo <= loc < lo + g.consts["L"]:
            vizier = g.names["cards"][defs[i]] == "loyal-vizier"
            g.state[g.S["CARD_LOC"] + i] = g.consts["LOC_RESERVE" if vizier else "LOC_DISCARD"]
    for col, cards in cols.items():
        for cid in cards:
            pos.move_card(g, cid, pos.column_loc(g, seat, col),
                          prefer=(g.consts["LOC_RESERVE"], 0, 1))


@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie"),
                                      ("alliance", "eyrie", "marquise")])
@pytest.mark.parametrize("decree, lost", [
    ({"recruit": ["cobbler"], "move": ["tax-collector"]}, 0),
    ({"recruit": ["cobbler", "armorers"], "move": ["loyal-vizier"]}, 2),
    ({"recruit": ["cobbler"], "build": ["armorers", "sappers", "brutal-tactics"]}, 3)])
def test_lose_vp_of_the_columns_bird_cards_is_law_7_7_1_humiliate(factions, decree, lost,
                                                                   core_kind):
    """Law 7.7.1: in turmoil the Eyrie lose one VP per bird card in the Decree, loyal
    viziers too (a `score` part with `lose` of a `cards` value: in the columns, of a suit), the
    event's reason the columns', for birds; with no bird card, nothing is lost or told.
    The card fails at once: no roost matches the rabbit recruit (Law 7.5.2)."""
    g = _at_evening(factions, pure=core_kind == "pure")
    e = factions.index("eyrie")
    sc.set_vp(g, e, 5)
    sc.set_hand(g, e, ["fox-root-tea"])  # no crafting piece on the map: nothing to craft
    _decree(g, e, decree)
    g.record_events()
    sc.goto(g, "eyrie", "daylight")
    if g.decision == "craft":  # (asked with nothing to craft in some seatings)
        g.apply("done")
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    assert g.scores[e] == 5 - lost and sum(g.scores) == 5 - lost
    assert _scored(g) == ([("eyrie", -lost, "columns", "bird")] if lost else [])


@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie")])
def test_discard_all_of_the_columns_is_law_7_7_2_purge(factions, core_kind):
    """Law 7.7.2: in turmoil the Eyrie discard every card in the Decree, the loyal
    viziers going back to be tucked again (a `discard_all` part from the columns); the
    hand is no part of the Decree and keeps its cards."""
    g = _at_evening(factions, pure=core_kind == "pure")
    e = factions.index("eyrie")
    sc.set_hand(g, e, ["fox-root-tea", "armorers"])
    _decree(g, e, {"recruit": ["cobbler", "sappers"], "move": ["loyal-vizier"],
                   "battle": ["tax-collector"]})
    defs, names, loc = pos.card_defs(g), g.names["cards"], g.S["CARD_LOC"]
    lo = pos.column_loc(g, e, "recruit")
    decree = [i for i in range(g.consts["N"]) if lo <= g.state[loc + i] < lo + g.consts["L"]]
    assert sorted(names[defs[i]] for i in decree) == \
        ["cobbler", "loyal-vizier", "sappers", "tax-collector"]
    sc.goto(g, "eyrie", "daylight")
    if g.decision == "craft":
        g.apply("done")
    assert set(g.legal()) == {"role charismatic", "role commander", "role despot"}
    assert all(cards == [] for cards in g.columns(e).values())
    assert sorted(g.hand(e)) == ["armorers", "fox-root-tea"]
    assert sorted(g.state[loc + i] for i in decree) == \
        sorted([g.consts["LOC_DISCARD"]] * 3 + [g.consts["LOC_RESERVE"]])
    g.apply("role despot")
    assert g.columns(e)["move"] == ["loyal-vizier"] and g.columns(e)["build"] == \
        ["loyal-vizier"]


@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie"),
                                      ("alliance", "marquise", "eyrie")])
def test_the_step_stop_is_law_7_7_4_rest(factions, core_kind):
    """Law 7.7.4, Rest: "End Daylight and begin Evening".  The turmoil hook's last step
    is the part `stop`, the one that ends a Keepers' Recover action: as a step it ends
    the phase at once, so the Eyrie's Evening follows the new leader's choice with no
    more of Daylight (not even its closing window for Daylight effects), reached through
    the turn's own flow (a card of the Decree that cannot be resolved)."""
    g = _at_evening(factions, pure=core_kind == "pure")
    e = factions.index("eyrie")
    _decree(g, e, {"recruit": ["fox-root-tea"], "move": ["rabbit-root-tea"]})
    # A Daylight effect the Eyrie could use as Daylight ends (Tax Collector, a warrior
    # of theirs on the map): Rest ends it at once, with no such window.
    pos.set_play_area(g, e, ["tax-collector"])
    sc.put(g, "1", "bird-warrior", 1)
    sc.goto(g, "eyrie", "daylight")
    if g.decision == "craft":
        g.apply("done")
    assert g.decision == "choose_role"  # no roost: the recruit failed, turmoil
    g.apply("role commander")
    # Evening asks nothing here (no roost to score, one card drawn, under the limit):
    # it ran, and the next player's turn began.
    assert g.current == (e + 1) % len(factions) and g.phase != "setup"
    assert len(g.hand(e)) == 1  # Evening's draw (Law 7.6.2)
    assert g.columns(e)["move"] == ["loyal-vizier"]  # purged, the new viziers tucked


def test_the_step_stop_was_first_written_end_phase():
    """A step written 'end_phase' (the first spelling) is the step 'stop', and the base
    game's rules hash writes it so: records made before keep their bundle."""
    from pydantic import TypeAdapter

    from rootlaw.spec import models as M

    steps = TypeAdapter(list[M.Step])
    old, new = steps.validate_python([{"op": "end_phase"}, {"op": "stop"}])
    assert isinstance(old, M.StopPart) and old == new
    eyrie = resolve().faction("eyrie")
    assert eyrie.hooks["turmoil"][-1] == new
    assert {"op": "end_phase"} in resolve().canonical()["factions"][
        [f.id for f in resolve().factions].index("eyrie")]["hooks"]["turmoil"]



@pytest.mark.parametrize("factions", [("eyrie", "marquise"), ("marquise", "eyrie"),
                                      ("marquise", "alliance", "eyrie")])
@pytest.mark.parametrize("hand, drawn", [([], 1), (["cobbler"], 0),
                                         (["cobbler", "armorers"], 0)])
def test_draw_while_the_hand_is_empty_is_law_7_4_1_emergency_orders(factions, hand, drawn,
                                                                     core_kind):
    """Law 7.4.1: in Birdsong the Eyrie draw a card if they have none in hand (the part
    `if`: `not` `at_least` one card in the hand, then a `draw` of the step's count);
    with a card in hand they draw none.  Nobody else draws."""
    prog = standard_library().programs["draw_if_hand_empty"]
    assert [x.op for x in prog.do] == ["if"] and [x.op for x in prog.do[0].then] == ["draw"]
    g = _at_evening(factions, pure=core_kind == "pure")
    e = factions.index("eyrie")
    sc.set_hand(g, e, hand)
    sizes = [len(g.hand(q)) for q in range(g.num_players)]
    sc.goto(g, "eyrie", "birdsong", "draw_if_hand_empty")
    assert g.decision == "add_to_columns"
    assert len(g.hand(e)) == len(hand) + drawn
    assert [len(g.hand(q)) for q in range(g.num_players) if q != e] == \
        [n for q, n in enumerate(sizes) if q != e]



@pytest.mark.parametrize("factions", [("alliance", "marquise"), ("marquise", "alliance"),
                                      ("eyrie", "marquise", "alliance")])
def test_draw_into_a_zone_is_law_8_3_4_s_supporters(factions, core_kind):
    """Law 8.3.4: at setup the Alliance draw three cards into their Supporters stack (a
    `draw` part `into` a zone): the deck gives three cards, into the zone, none to a
    hand."""
    g = Game(list(factions), 1, pure=core_kind == "pure")
    a = factions.index("alliance")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    assert len(g.zone(a, "supporters")) == 3
    assert len(g.hand(a)) == 3  # the opening hand (Law 5.1.6), no more
    assert sum(len(g.hand(q)) for q in range(g.num_players)) == 3 * g.num_players


def test_draw_into_a_full_zone_discards_the_rest(tmp_path_factory):
    """Law 8.2.3.I with 8.3.4: a pack's library has the Alliance draw seven supporters at
    setup; the stack holds five (no base on the map), so two are discarded: the discard
    pile takes what the zone cannot."""
    b = _pack_bundle(tmp_path_factory, "seven", {"draw_to_zone": {
        "law": "8.3.4", "params": {"zone": "zone", "count": "number"},
        "do": [{"op": "draw", "count": {"sum": ["$count", 4]}, "into": "$zone"}]}})
    for factions in (("alliance", "marquise"), ("marquise", "alliance")):
        g = Game(list(factions), 1, bundle=b, pure=True)
        a = factions.index("alliance")
        while g.phase == "setup":
            g.apply(g.legal_actions()[0])
        assert len(g.zone(a, "supporters")) == 5
        discard = g.consts["LOC_DISCARD"]
        assert sum(1 for i in range(g.consts["N"])
                   if g.state[g.S["CARD_LOC"] + i] == discard) == 2


@pytest.mark.parametrize("factions", [("alliance", "marquise"), ("marquise", "alliance"),
                                      ("eyrie", "alliance", "marquise")])
@pytest.mark.parametrize("bases, drawn", [((), 1), (("fox-base",), 2),
                                          (("fox-base", "rabbit-base", "mouse-base"), 4)])
def test_draw_plus_the_bonuses_uncovered_is_law_8_6_2(factions, bases, drawn, core_kind):
    """Law 8.6.2: in Evening the Alliance draw one card plus one per draw bonus
    uncovered on their bases' tracks (each base: one, once on the map): a `draw` of a
    `sum` of the step's count and a `draw_bonus` value of several buildings."""
    g = _at_evening(factions, pure=core_kind == "pure")
    a = factions.index("alliance")
    for base, c in zip(bases, ("1", "3", "2"), strict=False):  # fox, rabbit, mouse
        sc.put(g, c, base, 1)
    deck = g.state[g.S["DECK_LEN"]]
    pos.set_stop(g, "end_of_turn")  # the next player does not draw yet
    sc.goto(g, "alliance", "evening", "draw")
    assert len(g.hand(a)) == drawn and g.state[g.S["DECK_LEN"]] == deck - drawn
    assert sum(len(g.hand(q)) for q in range(g.num_players)) == drawn


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise")])
@pytest.mark.parametrize("recruiters, drawn", [(0, 1), (2, 1), (3, 2), (5, 3), (6, 3)])
def test_draw_plus_one_building_s_bonuses_is_law_6_6_1(factions, recruiters, drawn,
                                                       core_kind):
    """Law 6.6.1: the Marquise draw one card plus one per draw bonus uncovered on the
    recruiters' track (at 3 and at 5 recruiters): a `draw_bonus` of one building."""
    g = _at_evening(factions, pure=core_kind == "pure")
    m = factions.index("marquise")
    for c in ("1", "2", "2", "5", "5", "7")[:recruiters]:
        sc.put(g, c, "recruiter", sc.count(g, c, "recruiter") + 1)
    deck = g.state[g.S["DECK_LEN"]]
    pos.set_stop(g, "end_of_turn")  # the next player does not draw yet
    sc.goto(g, "marquise", "evening", "draw")
    assert len(g.hand(m)) == drawn and g.state[g.S["DECK_LEN"]] == deck - drawn
    assert sum(len(g.hand(q)) for q in range(g.num_players)) == drawn


def _pack_findings(tmp_path_factory, name: str, programs: dict) -> list:
    pack = tmp_path_factory.mktemp(name)
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": name, "name": "Programs otherwise", "version": "1",
         "requires": ["base"], "content": ["library.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "other", "programs": programs}), encoding="utf-8")
    return [(d.code, Path(d.file).name, d.pointer, d.message)
            for d in validate([pack]).diagnostics]


def test_a_program_with_no_verb_is_no_menu_action(tmp_path_factory):
    """A program with no 'verb' is no action: a menu entry naming it is PROGRAM-USE at
    the entry; one that begins with a choice needs a verb (PROGRAM-SHAPE)."""
    found = _pack_findings(tmp_path_factory, "verbless", {
        "mobilize": {"params": {"zone": "zone"}, "do": [{"op": "draw", "into": "$zone"}]},
        "organize": {"params": {"token": "piece"},
                     "do": [{"op": "choose", "clearing": {"lacks": "$token"}},
                            {"op": "place", "piece": "$token"}]}})
    uses = [f for f in found if f[0] == "PROGRAM-USE" and "no 'verb'" in f[3]]
    assert {(f[1], f[3].split(":")[0]) for f in uses} == {("alliance.json", "mobilize"),
                                                         ("alliance.json", "organize")}
    assert ("PROGRAM-SHAPE", "library.json", "/programs/organize",
            "organize: its first part is a choice, so it is an action and needs a 'verb' "
            "(one of the engine's: recruit_all, mobilize, train, recruit, organize, "
            "spend_place, spread, revolt, build; or a word of its own)") in found
    assert not any(f[2] == "/programs/mobilize" for f in found)


def test_a_step_s_parts_name_what_the_faction_has(tmp_path_factory):
    """PROGRAM-USE for the steps' parts and values: a zone the faction lacks (a draw
    into it, its cards counted), a suit parameter given no suit."""
    found = _pack_findings(tmp_path_factory, "steps-otherwise", {
        "discard_columns": {"do": [{"op": "discard_all", "from": "friends"}]},
        "score_track": {"params": {"building": "piece"},
                        "do": [{"op": "score", "vp": {"cards": "supporters"}}]}})
    at = {(f[1], f[2]): f[3] for f in found if f[0] == "PROGRAM-USE"}
    assert "names zone 'friends'" in at[("eyrie.json", "/hooks/turmoil/1")]
    assert "names zone 'supporters'" in at[("eyrie.json", "/turn/evening/0")]


@pytest.fixture(scope="module")
def muster_bundle():
    """Two entries of one program, each giving its suit: rabbit, and bird."""
    prog = {"params": {"suit": "suit"},
            "do": [{"op": "choose", "clearing": {"suit": "$suit", "has": "warrior"}},
                   {"op": "place", "piece": "warrior"}]}
    b = with_menu_entries("marquise", [{"action": "muster", "suit": "rabbit"},
                              {"action": "gather", "suit": "bird"}],
                             {"muster": {"verb": "muster", **prog},
                              "gather": {"verb": "gather", **prog}})
    gbuild.compile_core(b)
    return b


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_a_clearing_filter_s_suit_may_be_a_parameter(factions, muster_bundle, core_kind):
    """A filter's 'suit' names a suit parameter (an outside author's Corvid scatter, a
    suit per entry): a menu entry gives it, and the choice offers the clearings of that
    suit only (a bird: none, Law 2.1: no clearing is of the bird suit)."""
    g = Game(list(factions), 1, bundle=muster_bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for c in ("1", "3", "5", "2"):  # fox 1, rabbit 3 and 5, mouse 2
        sc.put(g, c, "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert sorted(a.split()[1] for a in g.legal() if a.startswith("muster ")) == ["3", "5"]
    assert not [a for a in g.legal() if a.startswith("gather ")]
