"""'did' read by a library program run as a step after a turn step's actions (Law
14.7.5, Relentless: "Whenever you take the Advance the Warlord action and both move and
battle"; models.Did, CONDITION-DID).

The test pack tests/data/packs/did-after-step gives the Marquise a Daylight step after
her actions: a VP if those actions both moved and initiated a battle.  Each game reaches
her Daylight through the turn flow, in two seat orders, on both cores.  Autumn: 1 is
adjacent to 5, 9 and 10.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import pack_bundle, past_setup

from rootlaw.runtime import position as pos
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "did-after-step"
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
ORDERS = pytest.mark.parametrize("order", [("marquise", "eyrie"),
                                           ("eyrie", "alliance", "marquise")],
                                 ids=["me", "eam"])


@pytest.fixture(scope="module")
def bundle():
    return pack_bundle("did-after-step")


def _daylight(bundle, order, pure):
    """The Marquise at her Daylight's actions: four warriors in 1, two Eyrie warriors in
    5, no cards; 0 VP."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    m = pos.seat_of(g, "marquise")
    pos.put(g, "1", "cat-warrior", 4)
    pos.put(g, "5", "bird-warrior", 2)
    pos.goto(g, "marquise", "daylight", "actions")
    pos.set_vp(g, m, 0)
    assert g.to_play == m and g.compiled is not pure
    return g, m


def _move(g) -> None:
    """Two warriors from 1 to 5, the march's second move declined."""
    g.apply("move 1->5 x2")
    if g.decision == "march":
        g.apply("done")


def _move_and_battle(g) -> None:
    """Her move, then a battle in 5 (no hits rolled)."""
    _move(g)
    pos.set_dice(g, 0, 0)
    g.apply("battle 5 eyrie")


def _finish_daylight(g, m):
    """Her actions ended ('done', and 'done' to any battle question), on to Evening."""
    while g.phase == "daylight" and not g.is_over:
        g.apply("done")
    assert g.phase == "evening" or g.to_play != m


@CORES
@ORDERS
def test_a_move_and_a_battle_score(bundle, order, pure):
    g, m = _daylight(bundle, order, pure)
    _move_and_battle(g)
    _finish_daylight(g, m)
    assert g.scores[m] == 1


@CORES
@ORDERS
@pytest.mark.parametrize("only", ["move", "battle", "neither"])
def test_one_of_them_alone_scores_nothing(bundle, order, pure, only):
    """A move alone, a battle alone (her warriors moved there by setting, not by an
    action), or nothing: no VP; and a move in an earlier turn's actions is not read, as
    each actions step begins with nothing done."""
    g, m = _daylight(bundle, order, pure)
    if only == "move":
        _move(g)
    elif only == "battle":
        pos.put(g, "5", "cat-warrior", 2)
        pos.set_dice(g, 0, 0)
        g.apply("battle 5 eyrie")
    _finish_daylight(g, m)
    assert g.scores[m] == 0


def _pack_with(tmp_path: Path, daylight_step_at: int | None, menu: bool = False) -> Path:
    d = tmp_path / "did-after-step"
    shutil.copytree(PACK, d)
    p = d / "marquise-relentless.json"
    doc = json.loads(p.read_text(encoding="utf-8"))
    if daylight_step_at is not None:
        doc["patch"][-1]["path"] = f"/turn/daylight/{daylight_step_at}"
    if menu:
        doc["patch"][-1] = {"op": "add", "path": "/turn/daylight/1/menu/-",
                            "value": {"action": "relentless"}}
        lib = json.loads((d / "library.json").read_text(encoding="utf-8"))
        lib["programs"]["relentless"]["verb"] = "relent"
        lib["programs"]["relentless"]["do"].insert(
            0, {"op": "choose", "clearing": {"rule": "self"}})
        (d / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    p.write_text(json.dumps(doc), encoding="utf-8")
    return d


@pytest.mark.parametrize("case", ["before-the-actions", "a-menu-entry"])
def test_did_where_no_actions_came_before_is_refused_at_the_use(tmp_path, case):
    pack = _pack_with(tmp_path, 0 if case == "before-the-actions" else None,
                      menu=case == "a-menu-entry")
    found = [(d.code, d.file, d.pointer, d.message) for d in validate([pack], []).diagnostics
             if d.severity == "error"]
    assert any(c == "CONDITION-DID" and f.endswith("marquise-relentless.json") and
               "reads 'did'" in m for c, f, _, m in found), found


@CORES
@ORDERS
def test_what_an_earlier_actions_step_did_is_not_read(bundle, order, pure):
    """A move and a battle score in one Daylight; in the next, whose actions do nothing,
    the step reads nothing done (each actions step begins with nothing done)."""
    g, m = _daylight(bundle, order, pure)
    _move_and_battle(g)
    _finish_daylight(g, m)
    assert g.scores[m] == 1
    pos.goto(g, "marquise", "daylight", "actions")
    _finish_daylight(g, m)
    assert g.scores[m] == 1
