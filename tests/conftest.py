"""Shared fixtures: every rules test runs on the compiled and on the pure core."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from rootlaw.generator import build as gbuild
from rootlaw.runtime import Game
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import Bundle
from rootlaw.spec.loader import load_file

FAMILIES = Path(__file__).resolve().parent / "data" / "families"


@pytest.fixture(autouse=True)
def _hermetic_environment(monkeypatch):
    """What the user's environment may set does not reach the tests: no discovery path
    for packs, no request to run pack code (tests that need them set them)."""
    monkeypatch.delenv("ROOTLAW_PACK_PATH", raising=False)
    monkeypatch.delenv("ROOTLAW_ALLOW_CODE", raising=False)
    # Not a compile of every test bundle (test_build.py proves auto-build works), and not
    # the one-time pure-core notice in every test's stderr (test_build.py shows it).
    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "0")
    monkeypatch.setenv("ROOTLAW_PURE_NOTICE", "0")


@pytest.fixture(params=["compiled", "pure"])
def core_kind(request):
    return request.param


@pytest.fixture
def new_game(core_kind):
    """new_game(factions=..., seed=...) on the parametrised core."""

    def make(factions=("marquise", "eyrie"), seed=1):
        return Game(list(factions), seed, pure=(core_kind == "pure"))

    return make


def past_setup(factions, seed: int = 1, *, bundle: Bundle | None = None, pure: bool = True,
               clear: bool = False, empty_hands: bool = False) -> Game:
    """A game in this seat order past setup, through the engine's own setup flow (the
    first legal action at each decision); with ``clear`` the board emptied, with
    ``empty_hands`` every hand."""
    g = Game(list(factions), seed, bundle=bundle, pure=pure)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    if clear:
        sc.clear_board(g)
    if empty_hands:
        for q in range(g.num_players):
            sc.set_hand(g, q, [])
    return g


def play_alike(factions, seed: int, bundle: Bundle, *, cap: int,
               each: Callable[[Game], None] | None = None) -> tuple[Game, Game]:
    """The same random game on the pure and the compiled core in lock step (choices drawn
    from random.Random(seed)), their legal actions compared at every decision, events
    recorded; ``each`` is called with the pure game after each decision.  Returns the
    two games (pure, compiled), ended or ``cap`` decisions in."""
    games = (Game(list(factions), seed, bundle=bundle, pure=True),
             Game(list(factions), seed, bundle=bundle, pure=False))
    for g in games:
        g.record_events()
    rng = random.Random(seed)
    while not games[0].is_over and len(games[0].history) < cap:
        la = games[0].legal_actions()
        assert games[1].legal_actions() == la
        a = la[rng.randrange(len(la))]
        for g in games:
            g.apply(a)
        if each is not None:
            each(games[0])
    return games


def positioned(order, bundle: Bundle, core_kind: str, pieces: dict, faction: str,
               phase: str, step: str | None = None) -> Game:
    """A game past setup in this seat order on the core of ``core_kind``, the board
    holding only ``pieces`` (clearing -> {piece: count}) and every hand empty, at
    ``faction``'s ``phase`` (and its ``step``), reached through the engine's turn flow."""
    from rootlaw.runtime import position

    g = past_setup(order, bundle=bundle, pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    for clearing, here in pieces.items():
        for piece, n in here.items():
            position.put(g, clearing, piece, n)
    position.goto(g, faction, phase, step)
    return g


def error_lines(pack: Path, pointer: bool = False) -> list[str]:
    """What validate finds wrong with a pack, a line each: 'CODE [pointer] message'."""
    from rootlaw.spec.validate import validate

    return [" ".join([d.code, *([d.pointer] if pointer else []), d.message])
            for d in validate([pack], []).diagnostics if d.severity == "error"]


@pytest.fixture
def mid_game(new_game):
    """A game past setup, board cleared, ready for a scenario: (game, scenario module)."""

    def make(seed=1, clear=True):
        g = new_game(seed=seed)
        while g.phase == "setup":
            g.apply(g.legal_actions()[0])
        if clear:
            sc.clear_board(g)
        return g

    return make


@cache
def green_bundle(*factions: str) -> Bundle:
    """The base map and deck with these factions, base ones or from tests/data/families
    (test-green has triggers and an effect of its own; with three factions it is a
    third seat), compiled once."""
    b = base_bundle()
    fs = tuple(b.faction(f) if f in ("marquise", "eyrie") else load_file(FAMILIES / f"{f}.json")
               for f in factions)
    bundle = Bundle(b.map, b.deck, fs)
    gbuild.compile_core(bundle)
    return bundle


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@cache
def pack_bundle(pack: str) -> Bundle:
    """The base game with a test pack of tests/data/packs, its core compiled first (as
    example_bundle does for examples/)."""
    from rootlaw.spec import resolve

    bundle = resolve([Path(__file__).resolve().parent / "data" / "packs" / pack])
    gbuild.compile_core(bundle)
    return bundle


@cache
def example_bundle(pack: str) -> Bundle:
    """The base game with a pack of examples/, its core compiled before any game loads
    one (a game made first would load, and keep, the pure core: auto-build is off)."""
    from rootlaw.spec import resolve

    bundle = resolve([EXAMPLES / pack])
    gbuild.compile_core(bundle)
    return bundle


@pytest.fixture
def green_game(core_kind):
    """green_game(factions, seed, bundle_factions, setup=True, clear=True): a game on
    green_bundle (of bundle_factions, default the seated ones) on the parametrised core;
    past setup (unless setup=False) with the board cleared (unless clear=False: a
    cleared board is a position to goto from, not to play on)."""

    def make(factions=("marquise", "test-green"), seed=1, bundle_factions=None, setup=True,
             clear=True):
        b = green_bundle(*(bundle_factions or factions))
        g = Game(list(factions), seed, bundle=b, pure=(core_kind == "pure"))
        assert g.compiled == (core_kind == "compiled")
        if setup:
            while g.phase == "setup":
                g.apply(g.legal_actions()[0])
            if clear:
                sc.clear_board(g)
        return g

    return make


# ------------------------------------------------------------ content with one thing added

def faction_with(faction: str, ability: dict) -> tuple[dict, int]:
    """A base faction's document (as an author would write it) with one more ability,
    and that ability's index."""
    from rootlaw.spec import resolve

    f = next(x for x in resolve().factions if x.id == faction)
    doc = f.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    doc["abilities"] = [*doc["abilities"], ability]
    return doc, len(doc["abilities"]) - 1


def herons_with_roles() -> dict:
    """An Eyrie-like faction of a pack's own, roles, columns and viziers (from
    tests/data/semantics/role-then-unknown.json, its ids its own), its choose_role
    written as before 'then' existed."""
    import json
    from pathlib import Path

    text = (Path(__file__).resolve().parent / "data" / "semantics" /
            "role-then-unknown.json").read_text(encoding="utf-8")
    for old, new in (("bird-warrior", "heron-warrior"), ("roost", "nest"),
                     ("loyal-vizier", "heron-vizier"), ("lords-of-the-forest", "marsh-lords"),
                     ("disdain-for-trade", "heron-disdain"),
                     ("charismatic-recruits", "heron-call"),
                     ("commander-extra-hit", "heron-strike"),
                     ("despot-trophies", "heron-spoils")):
        text = text.replace(f'"{old}"', f'"{new}"')
    doc = json.loads(text)
    doc["setup"][1].pop("then")
    return doc


def herons_pack(folder, faction: dict, programs: dict):
    """A pack folder of one faction document (herons.json) and a library of programs of
    its own (library.json), on the base game; its path."""
    import json

    (folder / "herons.json").write_text(json.dumps(faction), encoding="utf-8")
    (folder / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "herons-rites", "programs": programs}), encoding="utf-8")
    (folder / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "herons", "name": "Herons", "version": "1",
         "requires": ["base"], "content": ["library.json", "herons.json"]}),
        encoding="utf-8")
    return folder


def with_menu_entries(faction: str, entries: list[dict], programs: dict) -> Bundle:
    """The base bundle, a base faction's Daylight menu given more entries running
    programs of a library of its own (the core not built: the caller compiles it)."""
    import dataclasses

    from pydantic import TypeAdapter

    from rootlaw.runtime.game import base_bundle
    from rootlaw.spec import models as M

    b = base_bundle()
    added = [TypeAdapter(M.MenuAction).validate_python(e) for e in entries]
    f = b.faction(faction)
    daylight = [s.model_copy(update={"menu": [*s.menu, *added]})
                if isinstance(s, M.Actions) else s for s in f.turn.daylight]
    f = f.model_copy(update={"turn": f.turn.model_copy(update={"daylight": daylight})})
    lib = TypeAdapter(M.LibrarySpec).validate_python(
        {"kind": "library", "id": f"{faction}-extra", "programs": programs})
    return dataclasses.replace(b, factions=tuple(f if x.id == faction else x
                                                 for x in b.factions),
                               libraries=(*b.library, lib))


def base_with_cards(*cards: dict) -> Bundle:
    """The base bundle with these cards (documents) added to its deck, its compiled core
    built (the tests' auto-build is off)."""
    import dataclasses

    from rootlaw.generator import build as gbuild
    from rootlaw.runtime.game import base_bundle
    from rootlaw.spec import models as M

    b = base_bundle()
    bundle = dataclasses.replace(b, deck=b.deck.model_copy(update={"cards": [
        *b.deck.cards, *(M.Card.model_validate(c) for c in cards)]}))
    gbuild.compile_core(bundle)
    return bundle


def deck_with_armorers_doing(do: list) -> tuple[dict, int]:
    """The base deck's document with Armorers' effect program replaced, and the card's
    index."""
    from rootlaw.spec import resolve

    doc = resolve().deck.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    card = next(c for c in doc["cards"] if c["id"] == "armorers")
    card["abilities"][0]["do"] = do
    return doc, doc["cards"].index(card)


def assert_located(doc: dict, code: str, pointer: str, words: str) -> None:
    """Validating doc finds `code` at `pointer`, and every finding of that code says
    `words`."""
    from rootlaw.spec.loader import validate_data

    _, found, _ = validate_data(doc)
    assert found, "accepted"
    assert (code, pointer) in [(c, p) for c, _, p in found], found
    assert all(words in m for c, m, p in found if c == code)
