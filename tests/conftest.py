"""Shared fixtures: every rules test runs on the compiled and on the pure core."""

from __future__ import annotations

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime import scenario as sc


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
