"""Scoring VP and losing them are one part, 'score' (models.ScorePart): Law 3.2's VP
scored, or with 'lose' lost, never below 0 (Law 7.7.1, the Eyrie's turmoil: one VP per
bird card in the Decree).  The part first written 'lose_vp' still reads as a 'score' with
'lose', and every hashed dump (factions, the deck, a pack's own library) writes a loss as
'lose_vp' again, so records keep their hash: the base game's ef5ee339ef4f9a3a, the test
pack effect-parts' e4acb8d713aaab1c (its War Tax loses a VP), both taken from the engine
before the merge."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_located, deck_with_armorers_doing
from pydantic import TypeAdapter

from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.bundle import standard_library
from rootlaw.spec.catalogue import content_files, uses

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "packs"
PART = TypeAdapter(M.Instruction)
EFFECT = TypeAdapter(M.EffectOp)


@pytest.mark.parametrize("adapter", [PART, EFFECT], ids=["program", "effect"])
def test_lose_vp_is_the_first_spelling_of_a_loss(adapter):
    old = adapter.validate_python({"op": "lose_vp", "vp": 1, "who": "self"})
    new = adapter.validate_python({"op": "score", "vp": 1, "lose": True})
    assert isinstance(old, M.ScorePart) and old.op == "score" and old.lose
    assert old == new  # one model: the generator compiles both alike
    assert not adapter.validate_python({"op": "score", "vp": 1}).lose


def test_humiliate_is_a_loss_in_the_standard_library():
    """Law 7.7.1 as the standard program the Eyrie's turmoil names."""
    (part,) = standard_library().programs["lose_vp_per_column_card"].do
    assert isinstance(part, M.ScorePart) and part.lose
    assert part.vp == M.CardCount(cards="columns", suit="$suit")


def test_records_keep_their_hash():
    assert resolve().hash == "ef5ee339ef4f9a3a"
    assert resolve([DATA / "effect-parts"]).hash == "e4acb8d713aaab1c"


def test_a_packs_own_library_dumps_a_loss_as_lose_vp():
    """A library's programs are hashed whole (a pack's own rules): a loss written either
    way dumps as the 'lose_vp' it was first written as, and a score without 'lose'
    dumps without it."""
    from rootlaw.spec.bundle import _with_losses_as_written, _without_added_defaults

    lib = M.LibrarySpec.model_validate({
        "kind": "library", "id": "mine", "name": "Mine", "programs": {
            "tithe": {"do": [{"op": "score", "vp": {"cards": "hand"}, "lose": True},
                             {"op": "lose_vp", "vp": 2},
                             {"op": "score", "vp": 1}]}}})
    dumped = _with_losses_as_written(lib, _without_added_defaults(
        lib, lib.model_dump(mode="json"), "x-rootlaw-added-library"))
    do = dumped["programs"]["tithe"]["do"]
    assert do[0]["op"] == "lose_vp" and "lose" not in do[0] and do[0]["vp"]["cards"] == "hand"
    assert do[1]["op"] == "lose_vp" and do[1]["vp"] == 2 and "lose" not in do[1]
    assert do[2]["op"] == "score" and "lose" not in do[2]


@pytest.mark.parametrize("do, code, where, words", [
    ([{"op": "score", "vp": -1}], "VALUE-INVALID", "/vp", "'lose': true"),
    ([{"op": "lose_vp", "vp": 1, "lose": True}], "KEY-UNKNOWN", "/lose", "without 'lose'"),
    ([{"op": "score", "vp": 1, "lose": 1}], "VALUE-INVALID", "/lose", "")])
def test_a_wrong_loss_is_a_located_error(do, code, where, words):
    doc, i = deck_with_armorers_doing(do)
    assert_located(doc, code, f"/cards/{i}/abilities/0/do/0{where}", words)


def test_the_catalogue_has_one_vp_part():
    content = content_files(ROOT / "examples")
    assert "standard:lose_vp_per_column_card" in set(uses(content)[M.ScorePart])
    text = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert "| `score` |" in text and "| `lose_vp` |" not in text
