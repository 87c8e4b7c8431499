"""Tokens carried by moving warriors (test pack carry-relics: the Marquise's warriors and
relics).  Law 15.2.4, Devout Knights: "When moving, the Keepers may move one relic with
each Keeper warrior that they move."  A warrior's 'carries': after a move, the mover is
asked which token to take along from the clearing left ('piece <piece>', the decision
'choice'), one at a time, one a warrior moved, or 'done'.  Through the turn flow (the
Marquise's march in Daylight), in three seat orders, on both cores."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import error_lines, positioned

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.events import record
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "carry-relics"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "marquise", "eyrie")]


@cache
def carrying():
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def daylight(order, core_kind, pieces, bundle=None):
    return positioned(order, bundle or carrying(), core_kind, pieces, "marquise", "daylight",
                      "actions")


@pytest.mark.parametrize("order", ORDERS)
def test_each_warrior_moved_may_take_one_token_along(core_kind, order):
    """Two of three cats move 1 -> 5 (she rules 1 with a sawmill and the cats): she may
    take two relics along, one at a time, then the march's second move is asked."""
    g = daylight(order, core_kind, {"1": {"cat-warrior": 3, "sawmill": 1, "tablet-2": 1,
                                          "idol-3": 2}})
    g.record_events()
    g.apply("move 1->5 x2")
    assert g.decision == "choice" and g.current == g.factions.index("marquise")
    assert sorted(g.legal()) == ["done", "piece idol-3", "piece tablet-2"]
    g.apply("piece idol-3")
    assert sorted(g.legal()) == ["done", "piece idol-3", "piece tablet-2"]
    g.apply("piece tablet-2")
    # Two warriors, two relics: the carrying is over, the march goes on.
    assert g.decision == "march"
    assert sc.count(g, "5", "idol-3") == 1 and sc.count(g, "5", "tablet-2") == 1
    assert sc.count(g, "1", "idol-3") == 1 and sc.count(g, "1", "tablet-2") == 0
    moved = [record(g, e) for e in g.take_events() if e.kind == "moved"]
    assert [(m["piece"], m["count"]) for m in moved] == [
        ("cat-warrior", 2), ("idol-3", 1), ("tablet-2", 1)]
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_done_leaves_the_rest(core_kind, order):
    g = daylight(order, core_kind, {"1": {"cat-warrior": 3, "sawmill": 1, "tablet-2": 1}})
    g.apply("move 1->5 x3")
    g.apply("done")
    assert g.decision == "march" and sc.count(g, "1", "tablet-2") == 1


@pytest.mark.parametrize("order", ORDERS)
def test_nothing_to_carry_asks_nothing(core_kind, order):
    """No relic in the clearing left: the move is all there is."""
    g = daylight(order, core_kind, {"1": {"cat-warrior": 2, "sawmill": 1},
                                    "5": {"tablet-1": 1}})
    g.apply("move 1->5 x1")
    assert g.decision == "march"


@pytest.mark.parametrize("order", ORDERS[:2])
def test_one_warrior_carries_one(core_kind, order):
    g = daylight(order, core_kind, {"1": {"cat-warrior": 2, "sawmill": 1, "jewel-3": 2}})
    g.apply("move 1->5 x1")
    g.apply("piece jewel-3")
    assert g.decision == "march"
    assert sc.count(g, "5", "jewel-3") == 1 and sc.count(g, "1", "jewel-3") == 1


# ---------------------------------------------------------------- validation


def _errors(tmp_path: Path, path: str, value) -> list[str]:
    pack = tmp_path / path.replace("/", "_") / "carry-relics"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == "/pieces/cat-warrior/carries":
            op["path"], op["value"] = path, value
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    return error_lines(pack)


def test_the_pack_validates():
    assert error_lines(PACK) == []


def test_only_warriors_carry_and_only_tokens(tmp_path):
    found = _errors(tmp_path, "/pieces/sawmill/carries", ["tablet-1"])
    assert any("a warrior carries tokens; sawmill is a building" in x for x in found), found
    found = _errors(tmp_path, "/pieces/cat-warrior/carries", ["workshop"])
    assert any("workshop a building" in x for x in found), found
    found = _errors(tmp_path / "typo", "/pieces/cat-warrior/carries", ["tablett-1"])
    assert any("unknown piece 'tablett-1'" in x for x in found), found


def test_a_token_s_per_clearing_limit_keeps_it_from_a_full_clearing(core_kind, tmp_path):
    """Law 8.2.5.I: a token at its per_clearing limit in the clearing entered is not
    carried in."""
    pack = tmp_path / "carry-limit" / "carry-relics"
    shutil.copytree(PACK, pack)
    fac = json.loads((pack / "marquise.json").read_text())
    for op in fac["patch"]:
        if op["path"] == "/pieces/tablet-3":
            op["value"]["per_clearing"] = 1
    (pack / "marquise.json").write_text(json.dumps(fac, indent=2))
    bundle = resolve([pack])
    if core_kind == "compiled":
        gbuild.compile_core(bundle)
    g = daylight(ORDERS[0], core_kind, {"1": {"cat-warrior": 2, "sawmill": 1, "tablet-3": 1,
                                              "jewel-1": 1}, "5": {"tablet-3": 1}}, bundle)
    g.apply("move 1->5 x2")
    assert sorted(g.legal()) == ["done", "piece jewel-1"]
