"""Pieces in forests (test pack forest-relics, a patch of the Marquise). Law 15.3.1:
"Collect all twelve relic tokens and shuffle them face down ... Place one randomly in
each forest"; 15.3.4: "Place all remaining relics randomly, as evenly as possible, among
forests not adjacent to clearings with your warriors". The part 'place' with ``"at":
{"each_forest": filter}`` and a piece drawn at random (``{"random": [kinds]}``, from the
supply, each piece there as likely as any other); a forest filter's ``away_from``
(touching no clearing that passes a clearing filter); a placement's ``evenly`` with the
count ``{"supply": kinds}``. Here the Marquise sets out twelve relics of three types:
one into each of the seven forests as her setup begins, then the rest, as evenly as
possible, among the forests that do not touch the Keep's clearing. Through the setup
flow, in three seat orders, on both cores; the pieces in forests in the observation, the
save, the invariants, the events and the picture."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.events import describe, record
from rootlaw.runtime.game import Game
from rootlaw.runtime.render import render_svg
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "forest-relics"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]
RELICS = ("tablet", "jewel", "idol")


@cache
def relics():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def keep_clearing(g) -> int:
    return next(int(c) for c, row in g.piece_counts().items() if row.get("keep"))


def in_forests(g) -> dict[str, int]:
    return {fo: sum(row.get(r, 0) for r in RELICS) for fo, row in g.forest_counts().items()}


def forests_of(g):
    return [(fo.id, set(fo.clearings)) for fo in g.bundle.map.forests]


@pytest.mark.parametrize("order", ORDERS)
def test_a_relic_in_each_forest_then_the_rest_away_from_the_keep(core_kind, order):
    """Seven forests, one relic each; the five left dealt as evenly as possible among
    those not touching the Keep's clearing (a corner's: five of them, one each); the
    supply is empty."""
    g = past_setup(order, bundle=relics(), pure=core_kind == "pure")
    keep = keep_clearing(g)
    away = [fid for fid, cl in forests_of(g) if keep not in cl]
    assert len(away) == 5
    want = {fid: 2 if fid in away else 1 for fid, _ in forests_of(g)}
    assert in_forests(g) == want
    assert all(sc.supply(g, r) == 0 for r in RELICS)
    assert not list(invariant_violations(g))


def _evenly_everywhere(tmp_path: Path) -> Path:
    """The pack with every relic dealt evenly among all seven forests at once (twelve:
    five forests get two, two get one), and none left for the rest."""
    pack = tmp_path / "forest-relics"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["relics_in_forests"]["do"] = [
        {"op": "place", "piece": {"random": "$relics"}, "count": {"supply": "$relics"},
         "evenly": True, "at": {"each_forest": {}}}]
    (pack / "library.json").write_text(json.dumps(lib, indent=1), encoding="utf-8")
    return pack


def test_pieces_dealt_evenly_fall_at_random_where_they_do_not_divide(tmp_path):
    """Law 15.3.4, "randomly, as evenly as possible": twelve relics in seven forests,
    each forest one or two, five with two; which five is the draw's (over 70 seeds each
    forest has two about five times in seven, 50 expected); the same on both cores."""
    bundle = resolve([_evenly_everywhere(tmp_path)])
    twos: Counter = Counter()
    for seed in range(1, 71):
        g = Game(["marquise", "eyrie"], seed, bundle=bundle, pure=True)
        got = in_forests(g)
        assert sorted(got.values()) == [1, 1, 2, 2, 2, 2, 2], got
        twos.update(f for f, n in got.items() if n == 2)
        assert not list(invariant_violations(g))
    assert set(twos) == set(g.names["forests"])
    assert all(35 <= n <= 63 for n in twos.values()), twos  # sd about 3.8
    gbuild.compile_core(bundle)
    for seed in (5, 6):
        assert Game(["eyrie", "marquise"], seed, bundle=bundle, pure=True).forest_counts() == \
            Game(["eyrie", "marquise"], seed, bundle=bundle, pure=False).forest_counts()


def test_the_draw_is_the_seed_s_and_every_type_is_as_likely():
    """One seed, one draw (on both cores); over 240 seeds the first forest's relic of the
    first step is each type about a third of the time (each piece in the supply as
    likely: four of each)."""
    draws = []
    for seed in range(1, 241):
        g = Game(["marquise", "eyrie"], seed, bundle=relics(), pure=True)
        first = g.forest_counts()[g.names["forests"][0]]
        assert sum(first.values()) == 1
        draws.append(next(iter(first)))
    counts = Counter(draws)
    assert set(counts) == set(RELICS)
    assert all(50 <= counts[r] <= 110 for r in RELICS), counts  # 80 expected, sd ~7.3
    for seed in (3, 4):
        pure = Game(["marquise", "eyrie"], seed, bundle=relics(), pure=True)
        compiled = Game(["marquise", "eyrie"], seed, bundle=relics(), pure=False)
        again = Game(["marquise", "eyrie"], seed, bundle=relics(), pure=True)
        assert pure.forest_counts() == compiled.forest_counts() == again.forest_counts()
    assert Game(["marquise", "eyrie"], 3, bundle=relics()).forest_counts() != \
        Game(["marquise", "eyrie"], 4, bundle=relics()).forest_counts()


@pytest.mark.parametrize("order", ORDERS[:2])
def test_every_seat_sees_the_forests(core_kind, order):
    """Pieces in forests are public: every seat's observation holds them, and the
    observation vector has the field in this bundle (not in the base game's)."""
    g = past_setup(order, bundle=relics(), pure=core_kind == "pure")
    for seat in range(g.num_players):
        assert g.observation(seat)["forests"] == g.forest_counts()
    layout = g.observation_layout
    assert layout["forests"][1] == len(g.names["forests"]) * g.consts["NP"]
    base = Game(list(order), 1, pure=core_kind == "pure")
    assert "forests" not in base.observation_layout
    assert "forests" not in base.observation(0) and "FOREST" not in base.S


def test_a_save_keeps_the_forests(tmp_path):
    g = past_setup(ORDERS[0], bundle=relics())
    g.apply(g.legal_actions()[0])
    back = Game.from_json(g.to_json(), bundle=relics())
    assert back.forest_counts() == g.forest_counts() and back.state == g.state


def test_a_piece_lost_from_a_forest_breaks_the_invariant():
    """The invariants count pieces in forests (Law 1.5.1): one taken from a forest by
    hand, neither in the supply nor anywhere, is found."""
    g = past_setup(ORDERS[0], bundle=relics())
    fo = next(i for i, row in enumerate(g.forest_counts().values()) if row)
    pc = g.names["pieces"].index(next(iter(list(g.forest_counts().values())[fo])))
    g.state[g.S["FOREST"] + fo * g.consts["NP"] + pc] -= 1
    assert any("map + supply + out + boxes" in v for v in invariant_violations(g))


def test_placing_in_forests_is_told_as_it_happens():
    """The step after the Marquise's setup places in forests: its events name the forest
    and the relic, in words and in a log's record."""
    g = Game(["marquise", "eyrie"], 5, bundle=relics(), pure=True)
    g.record_events()
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    placed = [e for e in g.take_events() if e.kind == "placed_in_forest"]
    assert sum(e.d for e in placed) == 5
    rec = record(g, placed[0])
    assert rec["forest"] in g.names["forests"] and rec["piece"] in RELICS
    assert describe(g, placed[0]) == \
        f"marquise places {rec['piece']} in forest {rec['forest']}"


def test_the_picture_draws_the_relics_in_their_forests():
    g = past_setup(ORDERS[0], bundle=relics())
    svg = render_svg(g)
    drawn = svg.count(" in the forest</title>")
    assert drawn == sum(len(row) for row in g.forest_counts().values())


def test_clearing_the_board_returns_them_to_the_supply():
    g = past_setup(ORDERS[0], bundle=relics())
    sc.clear_board(g)
    assert in_forests(g) == {fid: 0 for fid, _ in forests_of(g)}
    assert sum(sc.supply(g, r) for r in RELICS) == 12


# ---------------------------------------------------------------- validation


def _pack_with(tmp_path: Path, program: dict) -> Path:
    pack = tmp_path / "forest-relics"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["relics_away"] = program
    (pack / "library.json").write_text(json.dumps(lib, indent=1), encoding="utf-8")
    return pack


def test_a_random_piece_placed_in_the_chosen_clearing_is_a_shape_error(tmp_path):
    pack = _pack_with(tmp_path, {
        "params": {"relics": "tokens", "home": "token"},
        "do": [{"op": "place", "piece": {"random": "$relics"}}]})
    got = [(d.code, d.pointer) for d in validate([pack], []).diagnostics
           if d.severity == "error"]
    assert ("PROGRAM-SHAPE", "/programs/relics_away/do/0/piece") in got


def test_evenly_in_the_chosen_clearing_is_a_shape_error(tmp_path):
    pack = _pack_with(tmp_path, {
        "params": {"relics": "tokens", "home": "token"},
        "do": [{"op": "choose", "clearing": {}},
               {"op": "place", "piece": "wood", "count": 2, "evenly": True}]})
    got = [(d.code, d.pointer) for d in validate([pack], []).diagnostics
           if d.severity == "error"]
    assert ("PROGRAM-SHAPE", "/programs/relics_away/do/1/evenly") in got


def test_a_forest_filter_naming_an_unknown_piece_is_found_at_the_use(tmp_path):
    pack = _pack_with(tmp_path, {
        "params": {"relics": "tokens", "home": "token"},
        "do": [{"op": "place", "piece": {"random": "$relics"},
                "at": {"each_forest": {"lacks": "relik"}}}]})
    found = [d for d in validate([pack], []).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["PROGRAM-USE"]
    assert "'relik'" in found[0].message and "/at/each_forest/lacks" in found[0].message
