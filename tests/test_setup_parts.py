"""The setup steps as programs of general parts (docs/language.md, the plan's item 4):
the standard setup_home_token (Law 6.3.1), setup_home_corner (7.3.1) and place_if_none
(7.4.3) are choices of a clearing ('clearing <n>', the verb 'clearing') from the filters
corner, taken_as_home, opposite_home 'another', placeable, fewest_warriors and first_of,
then place and take_home.  Each is reached through the engine's own setup and turn
flow, in more than one seat order, on both cores (core_kind)."""

from __future__ import annotations

import json

import pytest

from rootlaw.runtime import scenario as sc
from rootlaw.runtime.game import Game
from rootlaw.spec import models as M
from rootlaw.spec.bundle import resolve, standard_library
from rootlaw.spec.validate import validate


def home(g: Game, faction: str) -> str | None:
    """The clearing a seat's setup took as its home (None: none yet)."""
    c = g.state[g.S["HOME"] + sc.seat_of(g, faction)]
    return None if c < 0 else g.names["clearings"][c]


def to_decision(g: Game, decision: str) -> None:
    """The engine's own flow (the first legal action) up to a decision."""
    while g.decision != decision:
        g.apply(g.legal_actions()[0])


CORNERS = {"clearing 1", "clearing 2", "clearing 3", "clearing 4"}


# ------------------------------------------------------------- Law 6.3.1: the Keep


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise"),
                                      ("alliance", "marquise")])
def test_the_keep_goes_in_a_corner_of_choice_and_it_becomes_home(new_game, factions):
    """Law 6.3.1: the Marquise places the Keep in a corner clearing of her choice (no
    one's home yet: she sets up first, Law 5.1.7, in whichever seat); take_home makes it
    her home, which the next step reads (6.3.3: a warrior everywhere but the opposite
    corner)."""
    g = new_game(factions)
    assert g.decision == "setup_home_token"
    assert set(g.legal()) == CORNERS
    assert home(g, "marquise") is None
    g.apply("clearing 2")
    assert home(g, "marquise") == "2" and sc.count(g, "2", "keep") == 1
    assert sc.count(g, "4", "cat-warrior") == 0  # opposite the Keep (Law 6.3.3)
    assert sc.count(g, "1", "cat-warrior") == 1


# ---------------------------------------------- Law 7.3.1: a corner no one holds as home


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_the_eyrie_takes_the_corner_opposite_another_home_if_possible(new_game, factions):
    """Law 7.3.1: the roost goes in a corner that is no one's home, diagonally opposite
    another home if possible (first_of [opposite another home, any]); it becomes the
    Eyrie's home (take_home).  With that corner unable to take the roost (no open slot,
    Law 2.2.3: placeable), any corner no one holds as home."""
    for keep, opposite in (("1", "3"), ("3", "1")):  # corners of one slot
        g = new_game(factions)
        g.apply(f"clearing {keep}")
        to_decision(g, "setup_home_corner")
        assert set(g.legal()) == {f"clearing {opposite}"}
        fallback = g.clone()
        sc.set_ruins(fallback, opposite, 1)  # its one slot taken
        assert set(fallback.legal()) == CORNERS - {f"clearing {keep}", f"clearing {opposite}"}
        g.apply(f"clearing {opposite}")
        assert home(g, "eyrie") == opposite
        assert sc.count(g, opposite, "roost") == 1 and sc.count(g, opposite, "bird-warrior") == 6


@pytest.mark.parametrize("factions", [("eyrie", "alliance"), ("alliance", "eyrie")])
def test_with_no_home_taken_every_corner_is_offered(new_game, factions):
    """Law 7.3.1: with no other home on the map, 'if possible' falls back to every
    corner (first_of's second filter); a corner no one holds (taken_as_home false)."""
    g = new_game(factions)
    assert g.decision == "setup_home_corner"
    assert set(g.legal()) == CORNERS
    g.apply("clearing 3")
    assert home(g, "eyrie") == "3" and home(g, "alliance") is None


def test_the_corner_choice_depends_on_no_hidden_card(core_kind):
    """Law 1.2: whether the setup's corner is asked, and what it offers, depends on the
    map only: twins that differ only in the cards in hand are asked alike."""
    a = Game(["marquise", "eyrie"], 1, pure=core_kind == "pure")
    b = a.clone()
    sc.set_hand(a, 0, ["anvil"])
    sc.set_hand(b, 0, ["bird-ambush"])
    assert a.decision == b.decision == "setup_home_token"
    assert list(a.legal()) == list(b.legal())
    a.apply("clearing 1")
    b.apply("clearing 1")
    to_decision(a, "setup_home_corner")
    to_decision(b, "setup_home_corner")
    assert list(a.legal()) == list(b.legal()) == ["clearing 3"]


# --------------------------------------------- Law 7.4.3: the new roost, fewest warriors


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_a_new_roost_goes_where_the_fewest_warriors_are_and_it_fits(new_game, factions):
    """Law 7.4.3: with no roost on the map, the Eyrie places a roost and three warriors
    in a clearing with the fewest warriors (everyone's) where they can be placed: a
    clearing with no open slot is left out before the fewest are counted (placeable,
    then fewest_warriors); with a roost on the map the step asks nothing."""
    g = new_game(factions)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for c in range(1, 13):
        sc.put(g, str(c), "cat-warrior", 1 if c in (5, 7) else 2)  # 5, 7: the fewest
    sc.put(g, "7", "sawmill", 2)  # 7: both its slots full
    t = g.clone()
    sc.goto(g, "eyrie", "birdsong", "place_if_none")
    assert g.decision == "place_if_none"
    assert list(g.legal()) == ["clearing 5"]
    g.apply("clearing 5")
    assert sc.count(g, "5", "roost") == 1 and sc.count(g, "5", "bird-warrior") == 3
    # A roost on the map: nothing asked, the turn goes on.
    sc.put(t, "9", "roost", 1)
    sc.goto(t, "eyrie", "birdsong", "place_if_none")
    assert t.decision != "place_if_none"


def test_the_fewest_count_every_players_warriors(new_game):
    """Law 7.4.3 with three players: a clearing's warriors are everyone's (the Alliance's
    count as the Marquise's do)."""
    g = new_game(("marquise", "eyrie", "alliance"))
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    for c in range(1, 13):
        if c not in (6, 11):  # no warrior in 6 and 11 only
            sc.put(g, str(c), "cat-warrior" if c % 2 else "alliance-warrior", 1)
    sc.goto(g, "eyrie", "birdsong", "place_if_none")
    assert list(g.legal()) == ["clearing 6", "clearing 11"]


# ------------------------------------------------------------------ the records' hash


def test_the_setup_steps_hash_as_their_step_models_did():
    """The base rules' hash is unchanged (ef5ee339ef4f9a3a): a step naming one of these
    programs dumps as the model it replaced; the druids' too (82ce789d63ffc14d)."""
    assert resolve().hash == "ef5ee339ef4f9a3a"
    assert resolve(["examples/hedge-druids"]).hash == "82ce789d63ffc14d"
    lib = standard_library().programs
    for name in ("setup_home_token", "setup_home_corner", "place_if_none"):
        assert lib[name].verb == M.STEP_CHOICE_VERB and name not in M.ENGINE_STEP_OPS


# ------------------------------------------------------------------ validation


def _library(programs: dict) -> dict:
    return {"kind": "library", "id": "mine", "name": "Mine", "programs": programs}


def _codes(tmp_path, doc: dict) -> list[tuple[str, str]]:
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return [(d.code, d.pointer) for d in validate([path]).diagnostics]


def test_take_home_needs_a_chosen_clearing(tmp_path):
    """PROGRAM-SHAPE, located at the part: take_home makes the chosen clearing home
    (Law 6.3.1), so a program that chooses none cannot take one."""
    doc = _library({"nest_here": {"law": "7.3.1", "do": [
        {"op": "place", "piece": "warrior", "at": {"each_clearing": {"corner": True}}},
        {"op": "take_home"}]}})
    assert ("PROGRAM-SHAPE", "/programs/nest_here/do/1") in _codes(tmp_path, doc)


def test_the_clearing_verb_is_a_choice_of_a_clearing_alone(tmp_path):
    """PROGRAM-SHAPE at the verb: 'clearing' offers one clearing ('clearing <n>'), so a
    program choosing a card under it is told so."""
    doc = _library({"pick": {"law": "6.3.1", "verb": "clearing", "do": [
        {"op": "choose", "card": {"from": "hand"}}, {"op": "discard"}]}})
    assert ("PROGRAM-SHAPE", "/programs/pick/verb") in _codes(tmp_path, doc)
    ok = _library({"pick": {"law": "6.3.1", "verb": "clearing", "do": [
        {"op": "choose", "clearing": {"corner": True, "taken_as_home": False}},
        {"op": "take_home"}]}})
    assert [c for c in _codes(tmp_path, ok) if c[0] == "PROGRAM-SHAPE"] == []


def test_a_menu_cannot_offer_the_clearing_verb(tmp_path_factory):
    """PROGRAM-USE, located at the menu entry: a program of the verb 'clearing' is a
    step's choice (Law 6.3.1's corner), no action a menu can offer (its options would be
    told apart from no other action's)."""
    pack = tmp_path_factory.mktemp("clearing-verb")
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "clearing-verb", "name": "Organize otherwise", "version": "1",
         "requires": ["base"], "content": ["library.json"]}), encoding="utf-8")
    (pack / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "other", "programs": {"organize": {
            "law": "8.6.1.IV", "verb": "clearing", "params": {"token": "token"},
            "do": [{"op": "choose", "clearing": {"lacks": "$token"}},
                   {"op": "place", "piece": "$token"}]}}}), encoding="utf-8")
    found = [(d.code, d.file.rsplit("/", 1)[-1], d.message)
             for d in validate([pack]).diagnostics]
    uses = [f for f in found if f[0] == "PROGRAM-USE"]
    assert [f[1] for f in uses] == ["alliance.json"]
    assert "is a step's choice of a clearing" in uses[0][2]
    assert not any(f[0] == "PROGRAM-SHAPE" for f in found)


# ------------------------------------------------------------ the cycles: moving on


def test_advance_cycle_is_a_standard_program_of_set_stage_by():
    """A cycle's marker moved on (the Hedge Druids' D.6.4, the wheel turns) is the part
    'set_stage' 'by' a number of stages (a cycle parameter, 'by' a number parameter), no
    engine step; the druids' rules keep their hash (82ce789d63ffc14d)."""
    prog = standard_library().programs["advance_cycle"]
    assert [(x.op, x.by) for x in prog.do] == [("set_stage", "$by")] and \
        prog.param_types() == {"cycle": "cycle", "by": "number"}
    assert "advance_cycle" not in M.ENGINE_STEP_OPS
    assert resolve(["examples/hedge-druids"]).hash == "82ce789d63ffc14d"


def test_advance_is_the_first_spelling_of_set_stage_by():
    """One operation, a cycle's marker moved (D.6.4 on by stages, Law 10.3.3 onto one):
    the part first written 'advance' reads as set_stage 'by' (1 unless given); naming a
    stage and 'by' at once is a located error."""
    from pydantic import TypeAdapter

    parts = TypeAdapter(M.Instruction)
    old = parts.validate_python({"op": "advance", "cycle": "wheel"})
    assert isinstance(old, M.SetStagePart) and (old.op, old.by) == ("set_stage", 1)
    assert parts.validate_python({"op": "advance", "cycle": "wheel", "by": 2}).by == 2
    named = parts.validate_python({"op": "set_stage", "cycle": "wheel", "stage": "summer"})
    assert (named.stage, named.by) == ("summer", None)
    for bad in ({"op": "set_stage", "cycle": "wheel", "stage": "summer", "by": 1},
                {"op": "advance", "cycle": "wheel", "stage": "summer"}):
        with pytest.raises(ValueError, match="VALUE-INVALID|not both|names no stage"):
            parts.validate_python(bad)


@pytest.mark.parametrize("order", [("marquise", "druids"), ("druids", "marquise")])
def test_the_wheel_turns_at_the_end_of_the_druids_evening(core_kind, order):
    """D.6.4 through the engine's own turn flow, in both seat orders: the Evening's last
    step turns the wheel to the next season, round the ring after winter."""
    from conftest import example_bundle

    b = example_bundle("hedge-druids")
    g = Game(list(order), 3, bundle=b, pure=core_kind == "pure")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    seat = g.factions.index("druids")
    stages = ["spring", "summer", "fall", "winter"]

    def stage() -> str:
        return stages[g.state[g.S["CYCLE"] + seat * g.consts["NCYC"]]]

    seen = [stage()]
    for _ in range(20000):
        if len(seen) == 6 or g.is_over:
            break
        g.apply(g.legal_actions()[0])
        if stage() != seen[-1]:
            seen.append(stage())
    assert len(seen) >= 5  # the wheel went all the way round
    assert seen == ["spring", "summer", "fall", "winter", "spring", "summer"][:len(seen)]
