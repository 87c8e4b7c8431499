"""Discarding down to a limit is one operation (models.DiscardDownTo): a turn step's, the
hand down to its 'limit' (each base faction's Evening); an effect program's, a zone down
to its capacity while in force (Law 8.2.4: the Alliance's supporters once its last base
is removed).  The effect's form was first written 'trim_zone'; it still reads, and the
rules hash reads the part as that op, so the base game hashes as before
(ef5ee339ef4f9a3a)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import TypeAdapter

from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.catalogue import content_files, places, use_counts, uses
from rootlaw.spec.loader import validate_data

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_spelling_is_the_same_operation():
    t = TypeAdapter(M.EffectOp)
    old = t.validate_python({"op": "trim_zone", "zone": "supporters"})
    new = t.validate_python({"op": "discard_down_to", "zone": "supporters"})
    assert isinstance(old, M.DiscardDownTo) and old == new and old.op == "discard_down_to"


def test_the_alliance_says_it_as_the_step_and_hashes_as_the_op_it_replaced():
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    alliance = next(f for f in b.canonical()["factions"] if f["id"] == "alliance")
    ops = [op for a in alliance["abilities"] for op in a.get("do", [])]
    assert {"op": "trim_zone", "zone": "supporters"} in ops
    assert not any(op.get("op") == "discard_down_to" for op in ops)


def _doc(faction: str) -> dict:
    f = next(x for x in resolve().factions if x.id == faction)
    return f.model_dump(by_alias=True, mode="json", exclude_defaults=True)


def test_a_step_discards_the_hand_not_a_zone():
    doc = _doc("alliance")
    i = next(i for i, s in enumerate(doc["turn"]["evening"]) if s["op"] == "discard_down_to")
    doc["turn"]["evening"][i]["zone"] = "supporters"
    _, found, _ = validate_data(doc)
    assert [(c, p) for c, _, p in found] == [("VALUE-INVALID", f"/turn/evening/{i}/zone")]


def test_an_effects_discard_down_to_names_its_zone():
    doc = _doc("alliance")
    for i, a in enumerate(doc["abilities"]):
        for j, op in enumerate(a.get("do", [])):
            if op.get("op") == "discard_down_to":
                del op["zone"]
                _, found, _ = validate_data(doc)
                assert [(c, p) for c, _, p in found] == \
                    [("KEY-MISSING", f"/abilities/{i}/do/{j}")]
                return
    pytest.fail("the Alliance's Outrage-side program has no discard_down_to")


def test_the_catalogue_lists_it_once_where_it_may_appear():
    assert places(M.DiscardDownTo) == ["Steps", "Effect ops"]
    content = content_files(ROOT / "examples")
    counts = use_counts(content)
    assert "Effect ops trim_zone" not in counts
    assert "base/alliance.json" in uses(content)[M.DiscardDownTo]
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    rows = [x for x in text.splitlines() if x.startswith("| `discard_down_to` |")]
    assert len(rows) == 1 and "May appear as: a step, an effect program's part." in rows[0]
    assert "| `trim_zone` |" not in text
