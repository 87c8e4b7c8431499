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

from rootlaw.generator import programs as P
from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M
from rootlaw.spec import resolve
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
    ({"clearings": {"suit": "fox"}}, "'suit' is clearing, not 'fox'"),
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
        "of a piece has: among" in messages
    assert any(m.startswith("'op' must name this object: ") and m.endswith(
        "not 'pya' (did you mean 'pay'?)") for m in messages), messages


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
