"""A program's second choice of a piece in the chosen clearing, taken again and again,
and the parts it needs (test pack relic-recover: the Marquise's 'recover').  Law 15.5.2,
Move or Recover: "Step 1: Take Relic. Take a relic there of the same type as a waystation
there. Place it in your leftmost empty Relics space of that relic type. Step 2: Score
Points. Score victory points equal to the relic's value, and score two victory points if
you filled a Relics column. Step 3: Check for Discard. Count the number of clearings you
rule whose suit matches the clearing from which you are recovering the relic. If you rule
fewer of these clearings than the relic's value, then you must end this Recover action
... Otherwise, you may return to the Take Relic step or end this Recover action."

The parts: a piece choice's 'same_type_as' (each piece's 'type'), the choice's 'repeat',
'move' from the clearing into the box that holds the piece (a box of several kinds: a
tally of pieces taken out of play), the values 'least' and {"box": "piece"}, and 'stop'.
Through the turn flow (a Daylight of the Marquise's), in three seat orders, on both
cores.  Autumn: clearings 1, 6, 8 and 12 are foxes."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import error_lines, past_setup, positioned

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.events import record
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "relic-recover"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]


@cache
def relics():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def daylight(order, core_kind, pieces):
    """The Marquise's Daylight actions, the board holding only ``pieces`` (clearing ->
    {piece: count})."""
    return positioned(order, relics(), core_kind, pieces, "marquise", "daylight", "actions")


def seat(g):
    return g.factions.index("marquise")


def ours(g, verb):
    return sorted(a for a in g.legal() if a.split()[0] == verb)


RELICS = [f"{t}-{v}" for t in ("tablet", "jewel", "idol") for v in (1, 2, 3)]


@pytest.mark.parametrize("order", ORDERS)
def test_setup_draws_a_relic_at_random_into_each_clearing(core_kind, order):
    """A piece drawn at random ('random') placed in each clearing of a filter (Law
    15.3.1's shape, on clearings): twelve relics, one in each of the twelve clearings,
    through the setup flow (a random piece in clearings once needed the forests' code)."""
    g = past_setup(order, bundle=relics(), pure=core_kind == "pure")
    per = [sum(sc.count(g, str(c), x) for x in RELICS) for c in range(1, 13)]
    assert per == [1] * 12
    assert all(sc.supply(g, x) == 0 for x in RELICS)
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_only_relics_of_a_type_a_building_there_shows_are_offered(core_kind, order):
    """A sawmill (tablet) and a workshop (jewel) in 1 with cats: the tablets and the
    jewel there may be taken, not the idol (no recruiter there); clearing 6 has relics
    and cats but no building, so 'recover' is not offered there."""
    g = daylight(order, core_kind, {
        "1": {"cat-warrior": 2, "sawmill": 1, "workshop": 1, "tablet-1": 1, "tablet-3": 1,
              "jewel-2": 1, "idol-1": 1},
        "6": {"cat-warrior": 1, "idol-2": 1, "tablet-2": 1}})
    assert ours(g, "recover") == ["recover 1"]
    g.apply("recover 1")
    assert g.decision == "choice" and g.current == seat(g)
    assert sorted(g.legal()) == ["piece jewel-2", "piece tablet-1", "piece tablet-3"]


@pytest.mark.parametrize("order", ORDERS)
def test_a_relic_taken_goes_into_its_box_scores_and_may_be_followed(core_kind, order):
    g = daylight(order, core_kind, {
        "1": {"cat-warrior": 2, "sawmill": 1, "tablet-1": 1, "tablet-3": 1}})
    vp = g.scores[seat(g)]
    g.record_events()
    g.apply("recover 1")
    g.apply("piece tablet-1")
    assert sc.count(g, "1", "tablet-1") == 0
    assert g.boxes(seat(g)) == {"tablets": 1, "jewels": 0, "idols": 0}
    assert g.scores[seat(g)] == vp + 1  # its value
    moved = [record(g, e) for e in g.take_events() if e.kind == "moved_to_box"]
    assert moved == [{"event": "moved_to_box", "faction": "marquise", "from": "1",
                      "piece": "tablet-1", "box": "tablets"}]
    # Value 1, and she rules one fox clearing: she may take another, or end.
    assert g.decision == "choice" and sorted(g.legal()) == ["done", "piece tablet-3"]
    g.apply("done")
    assert g.decision == "actions" and sc.count(g, "1", "tablet-3") == 1
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_a_relic_worth_more_than_the_clearings_ruled_ends_the_action(core_kind, order):
    """tablet-3 is worth 3; she rules two fox clearings (1 and 6): 3 > 2, the action
    ends there, the tablet-1 left (it was offered before)."""
    g = daylight(order, core_kind, {
        "1": {"cat-warrior": 2, "sawmill": 1, "tablet-1": 1, "tablet-3": 1},
        "6": {"cat-warrior": 1}})
    vp = g.scores[seat(g)]
    g.apply("recover 1")
    g.apply("piece tablet-3")
    assert g.scores[seat(g)] == vp + 3
    assert g.decision == "actions" and sc.count(g, "1", "tablet-1") == 1
    assert ours(g, "recover") == ["recover 1"]  # a new action may take it


@pytest.mark.parametrize("order", ORDERS)
def test_ruling_as_many_clearings_as_the_value_lets_the_action_go_on(core_kind, order):
    """jewel-2 is worth 2 and clearing 1 is a fox: with 1, 6 and 8 ruled (three fox
    clearings) she may go on."""
    g = daylight(order, core_kind, {
        "1": {"cat-warrior": 1, "workshop": 1, "jewel-2": 1, "jewel-1": 1},
        "6": {"cat-warrior": 1}, "8": {"cat-warrior": 1}})
    g.apply("recover 1")
    g.apply("piece jewel-2")
    assert g.decision == "choice" and sorted(g.legal()) == ["done", "piece jewel-1"]
    g.apply("piece jewel-1")
    # Nothing left to take: the choice is not asked again.
    assert g.decision == "actions" and g.boxes(seat(g))["jewels"] == 2


@pytest.mark.parametrize("order", ORDERS)
def test_filling_a_set_of_the_three_types_scores_two_more(core_kind, order):
    """With one jewel and one idol recovered, the first tablet fills a set: 1 + 2 VP.
    The second tablet fills none (the jewels and idols hold one each): 1 VP."""
    g = daylight(order, core_kind, {
        "1": {"cat-warrior": 2, "sawmill": 1, "tablet-1": 1},
        "8": {"cat-warrior": 2, "sawmill": 1, "tablet-2": 1}})
    sc.set_box(g, seat(g), "jewels", 1)
    sc.set_box(g, seat(g), "idols", 1)
    vp = g.scores[seat(g)]
    g.apply("recover 1")
    g.apply("piece tablet-1")
    assert g.scores[seat(g)] == vp + 1 + 2
    assert g.decision == "actions"  # nothing more to take in 1: not asked again
    g.apply("recover 8")
    g.apply("piece tablet-2")  # worth 2, two fox clearings ruled (1, 8): goes on
    assert g.scores[seat(g)] == vp + 3 + 2
    assert g.boxes(seat(g)) == {"tablets": 2, "jewels": 1, "idols": 1}


@pytest.mark.parametrize("order", ORDERS[:2])
def test_a_recovered_relic_is_out_of_play_for_good(core_kind, order):
    """The box is a tally: the relic is neither on the map nor in the supply (Law 1.5.1:
    map + supply + out + boxes is the printed count, the invariants)."""
    g = daylight(order, core_kind, {"1": {"cat-warrior": 1, "sawmill": 1, "tablet-3": 1}})
    supply, out = sc.supply(g, "tablet-3"), sc.out_of_game(g, "tablet-3")
    g.apply("recover 1")
    g.apply("piece tablet-3")
    assert sc.count(g, "1", "tablet-3") == 0
    assert sc.supply(g, "tablet-3") == supply and sc.out_of_game(g, "tablet-3") == out + 1
    assert not list(invariant_violations(g))


# ------------------------------------------- a Retinue's column (the Eyrie's Decree here)


def decree(order, core_kind, cards, pieces):
    """The Eyrie's Daylight at its Decree, the move column holding ``cards`` (the others
    empty), the board only ``pieces``."""
    g = past_setup(order, bundle=relics(), pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    e = g.factions.index("eyrie")
    for col in ("recruit", "battle", "build"):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "move", cards)
    for clearing, here in pieces.items():
        for piece, n in here.items():
            sc.put(g, clearing, piece, n)
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    return g, e


@pytest.mark.parametrize("order", ORDERS)
def test_a_column_card_taken_as_recover_discards_itself_past_its_worth(core_kind, order):
    """Move or Recover (Law 15.5.2) from the Decree's move column, two fox cards in it:
    a tablet worth 3 where the Eyrie rules one fox clearing discards the card used and
    ends that recover (Check for Discard); the next card recovers the tablet worth 1 and
    stays (the Decree's cards stay in their columns)."""
    g, e = decree(order, core_kind, ["anvil", "fox-root-tea"],
                  {"1": {"bird-warrior": 2, "roost": 1, "bird-tablet-3": 1,
                         "bird-tablet-1": 1}})
    assert "recover 1" in g.legal()
    vp = g.scores[e]
    g.apply("recover 1")
    assert g.decision == "choice"
    assert sorted(g.legal()) == ["piece bird-tablet-1", "piece bird-tablet-3"]
    g.apply("piece bird-tablet-3")
    assert g.scores[e] == vp + 3 and g.boxes(e) == {"tablets": 1}
    assert len(g.columns(e)["move"]) == 1  # the card used is discarded
    assert g.decision == "resolve_columns" and "recover 1" in g.legal()
    g.apply("recover 1")
    g.apply("piece bird-tablet-1")
    assert g.scores[e] == vp + 4 and g.boxes(e) == {"tablets": 2}
    assert len(g.columns(e)["move"]) == 1  # worth 1, one fox clearing ruled: kept
    assert sc.count(g, "1", "bird-tablet-1") == 0 and sc.count(g, "1", "bird-tablet-3") == 0
    assert not list(invariant_violations(g))


# ---------------------------------------------------------------- validation


def _pack_with(tmp_path: Path, program: dict | None = None, boxes: list | None = None) -> Path:
    pack = tmp_path / "relic-recover"
    shutil.copytree(PACK, pack)
    if program is not None:
        lib = json.loads((pack / "library.json").read_text())
        lib["programs"]["recover"] = program
        (pack / "library.json").write_text(json.dumps(lib, indent=2))
    if boxes is not None:
        fac = json.loads((pack / "marquise.json").read_text())
        for op in fac["patch"]:
            if op["path"] == "/boxes":
                op["value"] = boxes
        (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    return pack


def _recover(*parts, repeat=True, same=True) -> dict:
    piece = {"among": "$relics"}
    if same:
        piece["same_type_as"] = "$stations"
    return {"law": "15.5.2", "verb": "recover",
            "params": {"relics": "tokens", "stations": "buildings"},
            "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                   {"op": "choose", "piece": piece, "repeat": repeat},
                   {"op": "move", "from": "clearing", "to": "box"}, *parts]}


def _findings(pack: Path) -> list[str]:
    return error_lines(pack, pointer=True)


def test_the_pack_validates():
    assert _findings(PACK) == []


def test_a_repeated_choice_is_followed_by_parts_that_ask_nothing(tmp_path):
    found = _findings(_pack_with(tmp_path, _recover({"op": "battle"})))
    assert any(x.startswith("PROGRAM-SHAPE /programs/recover/do/3") and
               "not 'battle'" in x for x in found), found


def test_stop_needs_a_second_choice_before_it(tmp_path):
    prog = {"law": "15.5.2", "verb": "recover", "params": {},
            "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                   {"op": "if", "if": {"at_least": [1, 1]}, "then": [{"op": "stop"}]}]}
    found = _findings(_pack_with(tmp_path, prog))
    assert any(x.startswith("PROGRAM-SHAPE /programs/recover/do/1") and "'stop'" in x
               for x in found), found


def test_a_piece_no_box_holds_is_refused(tmp_path):
    boxes = [{"id": "tablets", "piece": ["tablet-1", "tablet-2", "tablet-3"]},
             {"id": "jewels", "piece": ["jewel-1", "jewel-2", "jewel-3"]}]
    found = _findings(_pack_with(tmp_path, boxes=boxes))
    assert any(x.startswith("PROGRAM-USE") and "'idol-1' at" in x
               and "no box of marquise holds it" in x for x in found), found


def test_into_box_of_a_tally_is_refused(tmp_path):
    prog = _recover({"op": "into_box", "piece": "cat-warrior", "box": "tablets"})
    found = _findings(_pack_with(tmp_path, prog))
    assert any(x.startswith("PROGRAM-USE") and "a tally of pieces taken out of play" in x
               for x in found), found


def test_same_type_as_is_a_piece_in_the_clearing(tmp_path):
    prog = {"law": "15.5.2", "verb": "recover",
            "params": {"relics": "tokens", "stations": "buildings"},
            "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                   {"op": "choose", "forest": {"adjacent_to": "clearing"},
                    "piece": {"among": "$relics", "same_type_as": "$stations"}},
                   {"op": "move"}]}
    found = _findings(_pack_with(tmp_path, prog))
    assert any("PROGRAM-SHAPE /programs/recover/do/1/piece/same_type_as" in x
               for x in found), found


def test_a_move_from_the_forest_after_a_choice_in_the_clearing_is_refused(tmp_path):
    prog = _recover()
    prog["do"][2] = {"op": "move"}
    found = _findings(_pack_with(tmp_path, prog))
    assert any(x.startswith("PROGRAM-SHAPE /programs/recover/do/2") and "from the forest"
               in x for x in found), found


# ------------------------------------------- what an outside review found (stop 33)


def _recover_pack(tmp_path: Path, edit) -> Path:
    pack = tmp_path / "relic-recover"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text())
    edit(lib["programs"])
    (pack / "library.json").write_text(json.dumps(lib, indent=2))
    return pack


def test_an_empty_list_of_pieces_is_told_where_it_is(tmp_path):
    def edit(progs):
        progs["recover"]["do"][5]["if"] = {"none_on_map": []}
    found = _findings(_recover_pack(tmp_path, edit))
    assert any(x.startswith("VALUE-INVALID /programs/recover/do/5/if/none_on_map") and
               "names no piece" in x for x in found), found


def test_a_choice_among_no_pieces_is_found_at_its_use(tmp_path):
    pack = _pack_with(tmp_path, None)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == "/turn/daylight/1/menu/-" and op["value"]["action"] == "recover":
            op["value"]["relics"] = []
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    found = _findings(pack)
    assert any(x.startswith("PROGRAM-USE") and "among '$relics'" in x and
               "never offered" in x for x in found), found


@pytest.mark.parametrize("parts, words", [
    ([{"op": "battle"}], "a 'battle' after a second choice"),
    ([{"op": "pay", "piece": "wood", "count": 1}], "a 'pay' after a second choice"),
])
def test_a_battle_or_a_cost_comes_before_the_second_choice(tmp_path, parts, words):
    def edit(progs):
        progs["recover"]["do"][1]["repeat"] = False
        progs["recover"]["do"][2:2] = parts
    found = _findings(_recover_pack(tmp_path, edit))
    assert any(x.startswith("PROGRAM-SHAPE /programs/recover/do/2") and words in x
               for x in found), found


def test_evenly_reads_its_count_before_it_lists_the_places(core_kind):
    """A count read from the forests held (whose reckoning uses the scratch the places
    are listed in) deals to the forests listed, not to clearings of its reckoning: the
    invariants hold after setup (found writing pieces to clearing -1)."""
    from rootlaw.runtime.game import Game
    lib = json.loads((PACK / "library.json").read_text())
    assert "scatter_relics" in lib["programs"]
    bundle = resolve([_evenly_from_forests()])
    if core_kind == "compiled":
        gbuild.compile_core(bundle)
    for seed in (1, 2, 3):
        g = Game(["marquise", "eyrie"], seed, bundle=bundle, pure=core_kind == "pure")
        assert not list(invariant_violations(g)), seed
        assert sum(sc.count(g, str(c), x) for c in range(1, 13) for x in RELICS) == 4


@cache
def _evenly_from_forests() -> Path:
    import tempfile
    pack = Path(tempfile.mkdtemp()) / "relic-recover"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text())
    lib["programs"]["scatter_relics"]["do"] = [
        {"op": "place", "piece": {"random": "$relics"}, "evenly": True,
         "count": {"sum": [{"forests_held": 1}, 4]}, "at": {"each_clearing": {}}}]
    (pack / "library.json").write_text(json.dumps(lib, indent=2))
    return pack
