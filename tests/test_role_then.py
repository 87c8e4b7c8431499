"""A role's cards come with it as the choose_role step's program 'then' (Law 7.3.4, Step 4:
Tuck Viziers; Law 7.7.3, Depose: "Tuck your Loyal Viziers into the Decree spaces listed
on your new leader"): the standard 'tuck_role_cards' is the part 'tuck' into the
columns the role names, the part the Keepers' Faithful Retainers are tucked with (Law
15.3.5).  A pack may carry out a program of its own there; a 'then' that names no
program, or one that chooses, is a coded, located finding."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import herons_pack, herons_with_roles
from pydantic import TypeAdapter

from rootlaw.generator import build as gbuild
from rootlaw.runtime import Game
from rootlaw.runtime import position as pos
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M
from rootlaw.spec.validate import validate

ORDERS = [("marquise", "eyrie"), ("eyrie", "alliance", "marquise")]


def _to_eyrie_role(g: Game) -> int:
    """Setup played through the engine's own flow up to the Eyrie's choice of leader."""
    e = list(g.factions).index("eyrie")
    while not (g.decision == "choose_role" and g.to_play == e):
        g.apply(g.legal_actions()[0])
    return e


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("role, columns", [("builder", ("recruit", "move")),
                                           ("despot", ("move", "build"))])
def test_the_new_leader_s_viziers_are_tucked_where_it_says(order, role, columns, core_kind):
    """Law 7.3.4: the two Loyal Viziers go into the Decree columns the chosen leader
    lists, and nowhere else."""
    g = Game(list(order), 3, pure=core_kind == "pure")
    e = _to_eyrie_role(g)
    g.apply(f"role {role}")
    assert {c: v for c, v in g.columns(e).items() if v} == \
        {c: ["loyal-vizier"] for c in columns}


def _with_then(then: str | None, library: M.LibrarySpec | None = None):
    """The base bundle, the Eyrie's setup choose_role carrying out ``then``."""
    b = base_bundle()
    eyrie = b.faction("eyrie")
    setup = [s.model_copy(update={"then": then}) if isinstance(s, M.ChooseRole) else s
             for s in eyrie.setup]
    factions = tuple(f.model_copy(update={"setup": setup}) if f.id == "eyrie" else f
                     for f in b.factions)
    libs = (*b.library, library) if library is not None else b.library
    return dataclasses.replace(b, factions=factions, libraries=libs)


@pytest.fixture(scope="module")
def crown_bundle():
    crown = TypeAdapter(M.LibrarySpec).validate_python(
        {"kind": "library", "id": "crowning", "programs": {"crown": {
            "law": "7.3.4", "do": [{"op": "tuck", "into": "role"},
                                   {"op": "draw", "count": 1}]}}})
    b = _with_then("crown", crown)
    gbuild.compile_core(b)
    return b


@pytest.fixture(scope="module")
def bare_bundle():
    b = _with_then(None)
    gbuild.compile_core(b)
    return b


@pytest.mark.parametrize("order", ORDERS)
def test_a_pack_s_then_carries_out_its_own_program(order, crown_bundle, core_kind):
    """A 'then' of the pack's own: the viziers tucked, and a card drawn (a leader that
    brings more than its cards), both as the role is taken, asking nothing."""
    g = Game(list(order), 3, bundle=crown_bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    e = _to_eyrie_role(g)
    hand = len(g.hand(e))
    g.apply("role commander")
    assert g.columns(e)["move"] == ["loyal-vizier"] == g.columns(e)["battle"]
    assert len(g.hand(e)) == hand + 1


def test_a_then_of_null_takes_the_role_alone(bare_bundle, core_kind):
    """'then': null carries out nothing: the role is taken, no card tucked."""
    g = Game(["marquise", "eyrie"], 3, bundle=bare_bundle, pure=core_kind == "pure")
    assert g.compiled == (core_kind == "compiled")
    e = _to_eyrie_role(g)
    g.apply("role commander")
    assert all(v == [] for v in g.columns(e).values())
    assert pos.seat_of(g, "eyrie") == e


def _pack(tmp_path: Path, then: str, programs: dict) -> list[tuple[str, str, str]]:
    faction = herons_with_roles()
    faction["setup"][1]["then"] = then
    return [(d.code, d.pointer, d.message)
            for d in validate([herons_pack(tmp_path, faction, programs)]).diagnostics
            if d.severity == "error"]


def test_a_then_naming_no_program_is_located_at_it(tmp_path):
    found = _pack(tmp_path, "tuck_role_card", {})
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-REF", "/setup/1/then")]
    assert "did you mean 'tuck_role_cards'" in found[0][2]


def test_a_then_that_chooses_is_located_at_it(tmp_path):
    found = _pack(tmp_path, "crown", {"crown": {"verb": "crown", "do": [
        {"op": "choose", "clearing": {"has": "nest"}},
        {"op": "place", "piece": "warrior"}]}})
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-USE", "/setup/1/then")]
    assert "asking nothing more" in found[0][2]


def test_a_tuck_into_the_role_of_a_faction_without_roles_is_located(tmp_path):
    """The part 'tuck' into 'role' reads the faction's roles (PROGRAM-USE without)."""
    faction = herons_with_roles()
    faction["setup"] = faction["setup"][:1] + [{"op": "tuck_them"}]
    faction["hooks"]["turmoil"] = [x for x in faction["hooks"]["turmoil"]
                                   if x["op"] != "choose_role"]
    faction.pop("roles")
    pack = herons_pack(tmp_path, faction, {
        "tuck_them": {"do": [{"op": "tuck", "into": "role"}]}})
    found = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics
             if d.severity == "error"]
    assert [(c, p) for c, p, _ in found] == [("PROGRAM-USE", "/setup/1")]
    assert "has no roles" in found[0][2]


def test_the_first_spelling_without_then_tucks_as_before():
    """A choose_role written before 'then' existed carries out 'tuck_role_cards', and
    the rules hash writes it as it was."""
    step = TypeAdapter(M.Step).validate_python({"op": "choose_role"})
    assert isinstance(step, M.ChooseRole) and step.then == "tuck_role_cards"
    eyrie = base_bundle().faction("eyrie")
    assert eyrie.setup[1] == step
    canonical = base_bundle().canonical()
    dumped = next(f for f in canonical["factions"] if f["id"] == "eyrie")
    assert dumped["setup"][1] == {"op": "choose_role"}
