"""Saves made while the Alliance pays supporters (a zone_pay decision) by the engine
before spread and revolt became programs (issue 12) load, on both cores, to the very
state they recorded, and the payment finishes as it did then.

tests/golden/format-2-paying/ holds saves written by main at a2e468b (the base pack's
files hash c9f7a421ab7f75a5, bundle ef5ee339ef4f9a3a), from seeded random games (the
random choice among the sorted notations, seed 1): '*-paying-*' with the payment
pending (the state holds what it is for: ZPAY_ACTION, ZPAY_ENTRY), '*-paid-*' the same
game once it was paid (the last card in sorted order each time) and the action
finished: its token placed, or the revolt's enemy removed (the Marquise's Field
Hospitals then asked), its base, warriors and officer placed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rootlaw.runtime import Game

PAYING = Path(__file__).resolve().parent / "golden" / "format-2-paying"
SAVES = sorted(p.name for p in PAYING.glob("*.json"))


def test_the_saves_are_the_old_engine_s_mid_payment():
    assert len(SAVES) == 4
    for name in SAVES:
        data = json.loads((PAYING / name).read_text(encoding="utf-8"))
        assert data["bundle"] == "ef5ee339ef4f9a3a"
        assert data["packs"][0]["hash"] == "c9f7a421ab7f75a5"


@pytest.mark.parametrize("save", SAVES)
def test_an_old_save_mid_payment_loads_to_its_state(save, core_kind):
    data = json.loads((PAYING / save).read_text(encoding="utf-8"))
    g = Game.load(PAYING / save, pure=(core_kind == "pure"))  # replays, compares the state
    assert g.history == data["actions"] and g.live_state() == g.live_state(data["state"])
    verb = g.notation(next(a for a in reversed(g.history) if g.notation(a).split()[0] in
                           ("spread", "revolt"))).split()[0]
    assert verb == save.split("-")[0]
    if "-paying-" in save:
        assert g.decision == "zone_pay"
        assert g.state[g.S["ZPAY_LEFT"]] > 0 and g.state[g.S["ZPAY_ACTION"]] > 0
        # Paying it on this engine reaches the state the old one saved once paid.
        paid = json.loads((PAYING / save.replace("-paying-", "-paid-"))
                          .read_text(encoding="utf-8"))
        while g.decision == "zone_pay":
            g.apply(sorted(g.legal())[-1])
        assert g.history == paid["actions"] and g.live_state() == g.live_state(paid["state"])
    else:
        assert g.decision != "zone_pay" and g.state[g.S["ZPAY_ACTION"]] == 0


# Saves made while the Marquise pays wood for a build (an FR_PAY decision: the choice of
# the clearing that pays, asked while more than one can) by the engine before build became
# the standard library's program (issue 12, main at 16d42b5: the base pack's files hash
# a47426c682facbad), from seeded random games (the random choice among the sorted
# notations): '*-paying-*' with the payment pending (BUILD_PENDING, PAY_LEFT, PAY_TOKEN,
# PAY_AT: what it is for), '*-paid-*' the same game once paid (the last clearing in sorted
# order each time): the building placed and its VP scored (Law 6.5.4.II-III).
BUILDING = Path(__file__).resolve().parent / "golden" / "format-2-building"
BUILD_SAVES = sorted(p.name for p in BUILDING.glob("*-paying-*.json"))


def test_the_build_saves_are_the_old_engine_s_mid_payment():
    assert len(BUILD_SAVES) == 3
    for name in BUILD_SAVES:
        for kind in ("-paying-", "-paid-"):
            data = json.loads((BUILDING / name.replace("-paying-", kind))
                              .read_text(encoding="utf-8"))
            assert data["bundle"] == "ef5ee339ef4f9a3a"
            assert data["packs"][0]["hash"] == "a47426c682facbad"


@pytest.mark.parametrize("save", BUILD_SAVES)
def test_an_old_save_mid_build_payment_loads_and_pays_as_it_did(save, core_kind):
    data = json.loads((BUILDING / save).read_text(encoding="utf-8"))
    g = Game.load(BUILDING / save, pure=(core_kind == "pure"))  # replays, compares the state
    assert g.history == data["actions"] and g.live_state() == g.live_state(data["state"])
    assert g.notation(g.history[-1]).startswith("build ")
    assert g.decision == "pay" and g.state[g.S["PAY_LEFT"]] > 0
    # The building waiting on the payment, where it goes: placed once paid, not before.
    board = g.S["BOARD"] + g.state[g.S["PAY_AT"]] * g.consts["NP"] + \
        g.state[g.S["BUILD_PENDING"]]
    before = g.state[board]
    paid = json.loads((BUILDING / save.replace("-paying-", "-paid-")).read_text(encoding="utf-8"))
    while g.decision == "pay":
        g.apply(sorted(g.legal())[-1])
    assert g.history == paid["actions"] and g.live_state() == g.live_state(paid["state"])
    assert g.decision != "pay" and g.state[board] == before + 1
