"""What every environment shares (no rl extra needed): rewards at the end, the faction
mixes derived from the bundle, a light core install, and the packaging of the envs."""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime.envs import (
    INSTALL,
    LOSS,
    STOPPED,
    WIN,
    faction_mixes,
    outcome_rewards,
    winning_seats,
)
from rootlaw.runtime.envs._extra import require
from rootlaw.runtime.envs.seats import game_info
from rootlaw.runtime.game import base_bundle

ROOT = Path(__file__).resolve().parent.parent


def finished(factions, seed=3) -> Game:
    g = Game(list(factions), seed)
    g.playout(seed)
    assert g.is_over and g.winner is not None
    return g


# ---------------------------------------------------------------------- rewards


def test_a_winner_gets_one_everyone_else_minus_one():
    for mix in faction_mixes():
        g = finished(mix)
        rewards = outcome_rewards(g)
        assert rewards[g.winner] == WIN == 1.0
        assert [r for s, r in enumerate(rewards) if s != g.winner] == \
            [LOSS] * (len(mix) - 1)
        assert LOSS == -1.0


def test_a_game_not_ended_gives_zero_to_all():
    g = Game(list(faction_mixes()[0]), 1)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    assert outcome_rewards(g) == [STOPPED] * g.num_players == [0.0] * g.num_players


def test_a_coalition_partner_of_the_winner_wins_too():
    # Law 9.2.8: a coalition wins together.  The engine has no coalitions yet, so they
    # are given here; the environments' rewards go through the same function.
    assert winning_seats(2, [{0, 2}]) == {0, 2}
    assert winning_seats(1, [{0, 2}]) == {1}
    assert winning_seats(3, [{0, 2}, {1, 3}]) == {1, 3}
    assert winning_seats(None, [{0, 2}]) == set()
    g = finished(faction_mixes()[0])
    other = 1 - g.winner
    assert outcome_rewards(g, [{g.winner, other}]) == [WIN, WIN]
    assert outcome_rewards(g, [{other}]) == outcome_rewards(g)


# ---------------------------------------------------------------------- mixes


def test_faction_mixes_are_every_seating_the_bundle_allows():
    info = game_info(base_bundle())
    want = [m for n in range(2, info.max_players + 1)
            for m in itertools.permutations(info.factions, n)]
    assert faction_mixes() == want
    assert set(faction_mixes(seatings=False)) == {
        m for n in range(2, info.max_players + 1)
        for m in itertools.combinations(info.factions, n)}
    for mix in faction_mixes():
        assert Game(list(mix), 1).factions == list(mix)


# ---------------------------------------------------------------------- install


def test_rootlaw_runtime_imports_none_of_the_rl_dependencies():
    code = ("import sys, rootlaw.runtime, rootlaw.runtime.cli\n"
            "heavy = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel') "
            "if m in sys.modules]\n"
            "assert not heavy, heavy\n"
            "import rootlaw.runtime.envs\n"
            "heavy = [m for m in ('pettingzoo', 'pyspiel') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_env_without_the_extra_says_how_to_install_it():
    # Each dependency absent in turn (sys.modules[name] = None hides an installed one);
    # one interpreter for the three, the envs import no dependency of another.
    code = ("import sys\n"
            "for module, dependency in (('pettingzoo', 'pettingzoo'), "
            "('gymnasium', 'gymnasium'), ('openspiel', 'pyspiel')):\n"
            "    saved = sys.modules.get(dependency)\n"
            "    sys.modules[dependency] = None\n"
            "    try:\n"
            "        __import__('rootlaw.runtime.envs.' + module)\n"
            "        print(module, 'imported')\n"
            "    except ImportError as e:\n"
            "        print(module, e)\n"
            "    del sys.modules[dependency]\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert len(out) == 3, out
    for line, dependency in zip(out, ("pettingzoo", "gymnasium", "pyspiel"), strict=True):
        assert INSTALL in line and dependency in line, line
    with pytest.raises(ImportError, match=r"rootlaw\[rl\]"):
        require("something", "no_such_module_here")


def test_setup_ships_every_runtime_package():
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    packages = next(kw.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                    for kw in node.keywords if kw.arg == "packages")
    listed = set(ast.literal_eval(packages))
    for init in (ROOT / "runtime").rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        assert "rootlaw." + ".".join(rel.parts) in listed, f"setup.py does not ship {rel}"
