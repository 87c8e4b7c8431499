"""A Decree's column runs a program (Law 7.5.2: each card of a column is taken as the
column's action in a clearing matching the card).  A column's action is the general
Law's move or battle, or a program of the bundle's libraries whose first choice is a
clearing (or a piece and a clearing), its other fields binding the program's parameters
as a menu entry's do (models.Column).  The Eyrie's recruit and build columns are the
standard programs recruit_at (Law 7.5.2.I; its count the Law's number 'recruit', two for
the Charismatic, 7.8.2) and build_ruled (7.5.2.IV); their first spelling, an action of
the engine's with a 'building', still reads, and the rules hash writes them back in it
(the base game's stays ef5ee339ef4f9a3a).  The test pack 'column-programs' is a faction
with a Decree of its own: a column of its own program (perch: a token in a clearing it
rules, scored on its track), the standard recruit_at at its nests, and the Law's battle,
with no leaders, its failure hook discarding the columns and ending Daylight."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

DATA = Path(__file__).resolve().parent / "data" / "packs"
COLUMN = TypeAdapter(M.Column)
FOX, RABBIT, MOUSE, BIRD = "tax-collector", "cobbler", "mouse-root-tea", "armorers"


@cache
def herons_bundle():
    bundle = resolve([DATA / "column-programs"])
    gbuild.compile_core(bundle)
    return bundle


# ------------------------------------------------------------------- the model

@pytest.mark.parametrize("first, program", [("recruit", "recruit_at"),
                                            ("build", "build_ruled")])
def test_a_first_spelling_reads_as_the_standard_program(first, program):
    """Law 7.5.2.I and IV: the engine's recruit and build columns at a building are the
    standard programs at that one building, and say so again when dumped for the hash."""
    col = COLUMN.validate_python({"id": "c", "action": first, "building": "roost"})
    assert col.action == program and col.fields() == {"buildings": ["roost"]}
    assert col.first_spelling() == {"id": "c", "action": first, "building": "roost"}


def test_the_base_game_hashes_as_before():
    """The Eyrie's columns name programs now; the rules hash reads them as first written,
    so records of the base game keep loading."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    eyrie = next(f for f in b.canonical()["factions"] if f["id"] == "eyrie")
    assert eyrie["columns"] == [
        {"id": "recruit", "action": "recruit", "building": "roost"},
        {"id": "move", "action": "move", "building": None},
        {"id": "battle", "action": "battle", "building": None},
        {"id": "build", "action": "build", "building": "roost"}]
    assert [c.action for c in b.faction("eyrie").columns] == \
        ["recruit_at", "move", "battle", "build_ruled"]


def test_a_column_of_another_program_hashes_as_written():
    b = herons_bundle()
    herons = next(f for f in b.canonical()["factions"] if f["id"] == "test-herons")
    assert herons["columns"][0] == {"id": "perch", "action": "perch", "building": None,
                                    "token": "perch"}
    # recruit_at at one building is what the first spelling said: hashed as it.
    assert herons["columns"][1] == {"id": "muster", "action": "recruit", "building": "nest"}


# ------------------------------------------------------------------- in play

ORDERS = [("marquise", "test-herons"), ("test-herons", "eyrie"),
          ("alliance", "test-herons", "marquise")]


def herons_game(order, core_kind):
    g = past_setup(order, bundle=herons_bundle(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    h = g.factions.index("test-herons")
    for col in sc.columns_of(g, h):
        sc.set_column(g, h, col, [])
    return g, h


@pytest.mark.parametrize("order", ORDERS)
def test_a_columns_own_program_is_taken_in_a_clearing_matching_the_card(core_kind, order):
    """Law 7.5.2: the perch column's fox card is its program (a token where the herons
    rule, lacking one) in a fox clearing only; the token scores its track's space."""
    g, h = herons_game(order, core_kind)
    sc.set_column(g, h, "perch", [FOX])
    for c in ("1", "6", "2"):  # fox, fox, mouse (the Autumn map)
        sc.put(g, c, "heron", 1)
    sc.put(g, "6", "perch", 1)
    sc.set_vp(g, h, 0)
    sc.goto(g, "test-herons", "daylight")
    assert sorted(g.legal()) == ["perch 1"]
    g.apply("perch 1")
    assert sc.count(g, "1", "perch") == 1
    assert g.scores[h] == 2  # the second space of its track: 2 VP
    assert g.columns(h)["perch"] == [FOX]  # the Decree's cards stay (Law 7.5.2)
    assert (g.phase, g.current) != ("daylight", h)  # the Decree resolved: Daylight over


@pytest.mark.parametrize("order", ORDERS)
def test_a_standard_program_in_a_column_keeps_to_the_cards_suit(core_kind, order):
    """Law 7.5.2.I as the standard recruit_at: a warrior at a nest in a clearing of the
    card's suit (a bird card: any suit, Law 2.1.1)."""
    g, h = herons_game(order, core_kind)
    sc.put(g, "1", "nest", 1)  # fox
    sc.put(g, "2", "nest", 1)  # mouse
    sc.set_column(g, h, "muster", [MOUSE])
    sc.goto(g, "test-herons", "daylight")
    assert sorted(g.legal()) == ["recruit 2"]
    g.apply("recruit 2")
    assert sc.count(g, "2", "heron") == 1
    sc.set_column(g, h, "muster", [BIRD])
    sc.goto(g, "test-herons", "daylight")
    assert sorted(g.legal()) == ["recruit 1", "recruit 2"]


@pytest.mark.parametrize("order", ORDERS)
def test_a_card_its_program_cannot_take_runs_the_failure_hook(core_kind, order):
    """Law 7.5.2: a card that cannot be taken fails the Decree; the herons' hook discards
    the columns and ends Daylight (as the Eyrie's turmoil rests, 7.7.4)."""
    g, h = herons_game(order, core_kind)
    sc.put(g, "1", "heron", 1)  # fox: no rabbit clearing is ruled
    sc.set_column(g, h, "perch", [RABBIT])
    sc.goto(g, "test-herons", "daylight")
    # Daylight ended, Evening ran (a card drawn, no discard asked) and the turn passed.
    assert g.current != h and len(g.hand(h)) == 1
    assert sc.count(g, "1", "perch") == 0
    assert all(cards == [] for cards in g.columns(h).values())


# ------------------------------------------------------------------- the Charismatic

EYRIE_ORDERS = [("marquise", "eyrie"), ("eyrie", "alliance", "marquise")]


@pytest.mark.parametrize("order", EYRIE_ORDERS)
def test_a_recruit_placing_fewer_than_its_number_falls_into_turmoil(core_kind, order):
    """Law 7.5.2 with 7.8.2 and 1.5.4: the Charismatic's recruit places two warriors; with
    one left in the supply it places that one, and the card is not fully taken: turmoil
    (a new leader is chosen, Law 7.7.3)."""
    g = past_setup(order, pure=core_kind == "pure", clear=True, empty_hands=True)
    e = g.factions.index("eyrie")
    sc.set_role(g, e, "charismatic")
    for col in sc.columns_of(g, e):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "recruit", [FOX])
    sc.put(g, "1", "roost", 1)
    sc.set_supply(g, "bird-warrior", 1)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    assert list(g.legal()) == ["recruit 1"]
    g.apply("recruit 1")
    assert sc.count(g, "1", "bird-warrior") == 1
    assert set(g.legal()) == {"role builder", "role commander", "role despot"}


# ------------------------------------------------------------------- validation

def herons_pack(tmp_path: Path, columns: list, programs: dict | None = None) -> Path:
    """The test pack with the herons' columns (and the pack's programs) replaced."""
    src = DATA / "column-programs"
    for name in ("pack.json", "library.json", "herons.json"):
        (tmp_path / name).write_text((src / name).read_text(encoding="utf-8"),
                                     encoding="utf-8")
    doc = json.loads((src / "herons.json").read_text(encoding="utf-8"))
    doc["columns"] = columns
    (tmp_path / "herons.json").write_text(json.dumps(doc), encoding="utf-8")
    if programs is not None:
        lib = json.loads((src / "library.json").read_text(encoding="utf-8"))
        lib["programs"].update(programs)
        (tmp_path / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    return tmp_path


DRAW_ONLY = {"law": "7.5.2", "do": [{"op": "draw", "count": 1}]}
BY_CARD = {"law": "7.5.2", "verb": "stash", "params": {"zone": "zone"},
           "do": [{"op": "choose", "card": {"from": "hand"}}, {"op": "put", "zone": "$zone"}]}
PAID = {"law": "7.5.2", "verb": "settle", "params": {"token": "token"},
        "do": [{"op": "choose", "clearing": {"rule": "self"}},
               {"op": "pay", "piece": "$token", "count": 1},
               {"op": "place", "piece": "warrior"}]}


@pytest.mark.parametrize("column, programs, code, pointer, words", [
    ({"id": "perch", "action": "prech", "token": "perch"}, None, "PROGRAM-REF",
     "/columns/0/action", "did you mean 'perch'"),
    ({"id": "perch", "action": "perch"}, None, "PROGRAM-USE", "/columns/0",
     "column has no 'token'"),
    ({"id": "perch", "action": "perch", "token": "purch"}, None, "PROGRAM-USE",
     "/columns/0", "did you mean 'perch'"),
    ({"id": "perch", "action": "recruit_at", "buildings": ["perch"]}, None, "PIECE-KIND",
     "/columns/0/buildings/0", ""),
    ({"id": "perch", "action": "gather"}, {"gather": DRAW_ONLY}, "PROGRAM-USE",
     "/columns/0", "must begin with a choice of a clearing"),
    ({"id": "perch", "action": "stash", "zone": "x"}, {"stash": BY_CARD}, "PROGRAM-USE",
     "/columns/0", "must begin with a choice of a clearing"),
    ({"id": "perch", "action": "settle", "token": "perch"}, {"settle": PAID},
     "PROGRAM-USE", "/columns/0", "a column's action pays none"),
    ({"id": "perch", "action": "recruit"}, None, "KEY-MISSING", "/columns/0/building",
     "needs a 'building'"),
    ({"id": "perch", "action": "perch", "token": "perch", "building": "nest"}, None,
     "FIELD-UNREAD", "/columns/0/building", "read only with action recruit or build"),
])
def test_a_wrong_column_is_a_located_finding(tmp_path, column, programs, code, pointer,
                                             words):
    """What a column must be, each a coded finding at the column (with 'did you mean')."""
    pack = herons_pack(tmp_path, [column, {"id": "muster", "action": "recruit_at",
                                           "buildings": ["nest"]}], programs)
    found = [(d.code, d.pointer, d.message) for d in validate([pack], []).diagnostics]
    assert any(c == code and p == pointer and words in m for c, p, m in found), found


def test_the_herons_pack_is_clean():
    pack = DATA / "column-programs"
    assert list(validate([pack], []).diagnostics) == []


TIDE_PERCH = {"law": "7.5.2", "verb": "tideperch", "params": {"token": "token", "tide": "cycle"},
              "do": [{"op": "choose", "clearing": {"rule": "self", "lacks": "$token",
                                                   "suit_of": "$tide"}},
                     {"op": "place", "piece": "$token", "score": True},
                     {"op": "set_stage", "cycle": "$tide", "by": 1}]}


def test_a_cycle_a_columns_program_reads_and_moves_is_not_stuck(tmp_path):
    """CYCLE-STUCK sees a column as a use of its program (Law 7.5.2: a column binds the
    program's parameters as a menu entry does): a cycle only a column's program reads
    (a suit_of) and moves on (set_stage 'by') warns of nothing; the same cycle bound to
    no column is stuck and unread."""
    def pack(where: Path, bound: bool) -> Path:
        col = {"id": "perch", "action": "tideperch", "token": "perch"}
        if bound:
            col["tide"] = "tide"
        herons_pack(where, [col, {"id": "muster", "action": "recruit_at",
                                  "buildings": ["nest"]}], {"tideperch": TIDE_PERCH})
        doc = json.loads((where / "herons.json").read_text(encoding="utf-8"))
        doc["cycles"] = [{"id": "tide", "stages": ["fox", "rabbit", "mouse"]}]
        (where / "herons.json").write_text(json.dumps(doc), encoding="utf-8")
        return where

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert list(validate([pack(tmp_path / "a", True)], []).diagnostics) == []
    found = [(d.code, d.pointer, d.message)
             for d in validate([pack(tmp_path / "b", False)], []).diagnostics
             if d.code == "CYCLE-STUCK"]
    assert [(c, p) for c, p, _ in found] == [("CYCLE-STUCK", "/cycles/0")] * 2, found
