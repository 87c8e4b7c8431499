"""Invariants checked after every decision of whole random games (both cores).

- pieces on the map + supply + out of the game = the faction's total (Law 1.5.1);
- every card is in exactly one place, the deck array holds exactly the deck cards;
- items in the supply + crafted items = the starting supply (Law 5.1.5);
- buildings never exceed a clearing's slots (Law 2.2.3); VP never negative;
- a decision lists each legal action once;
- VP recorded in the log match the game at every decision (replay).
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import Game, RandomAgent
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import play_game, replay_log


def check_invariants(g: Game) -> None:
    problems = list(invariant_violations(g))
    assert not problems, problems


@pytest.mark.parametrize("corrupt, expected", [
    (lambda g: g.state.__setitem__(g.S["SUPPLY"], g.state[g.S["SUPPLY"]] + 1), "Law 1.5.1"),
    (lambda g: g.state.__setitem__(g.S["DECK_LEN"], g.state[g.S["DECK_LEN"]] - 1), "deck"),
    (lambda g: g.state.__setitem__(g.S["ITEMS"], g.state[g.S["ITEMS"]] + 1), "Law 5.1.5"),
    (lambda g: g.state.__setitem__(g.S["VP"], -1), "negative VP"),
    (lambda g: g.state.__setitem__(g.S["CARD_LOC"], 6), "no known place"),
])
def test_the_invariant_checker_finds_a_corrupt_state(new_game, corrupt, expected):
    g = new_game()
    assert not list(invariant_violations(g))
    corrupt(g)
    assert any(expected in v for v in invariant_violations(g))


def test_the_invariant_checker_finds_an_action_listed_twice(new_game, monkeypatch):
    g = new_game()
    legal = g.legal_actions()
    assert not list(invariant_violations(g))
    monkeypatch.setattr(g, "legal_actions", lambda: [*legal, legal[0]])
    assert any("listed twice" in v for v in invariant_violations(g))


@pytest.mark.parametrize("seed", range(1, 13))
def test_invariants_hold_after_every_decision(seed, new_game):
    g = new_game(seed=seed)
    agent = RandomAgent(seed)
    check_invariants(g)
    while not g.is_over:
        g.apply(agent.choose(g, g.legal_actions()))
        check_invariants(g)
        assert g.legal_actions() or g.is_over  # never stuck without a winner


@pytest.mark.parametrize("seed", range(1, 4))
def test_vp_consistent_with_the_log(seed, tmp_path):
    path = tmp_path / "game.jsonl"
    g = play_game(base_bundle(), ["marquise", "eyrie"], seed, log_path=str(path))
    replayed = replay_log(path, base_bundle())  # checks VP after every decision
    assert replayed.scores == g.scores
