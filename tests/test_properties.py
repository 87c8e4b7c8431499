"""Properties of the Game API that must hold in every reachable position (hypothesis).

Positions are reached by a seed and a number of random decisions, so every example is
reproducible from the two integers hypothesis prints when a property fails.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rootlaw.runtime import Game, IllegalAction
from rootlaw.runtime.perft import position

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def reach(seed: int, decisions: int) -> Game:
    return position(["marquise", "eyrie"], seed, decisions)


positions = st.tuples(st.integers(1, 10_000), st.integers(0, 400))


@SETTINGS
@given(positions)
def test_every_legal_action_has_its_own_notation_that_parses_back(pos):
    g = reach(*pos)
    legal = g.legal_actions()
    texts = [g.notation(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions share a notation"
    for a, text in zip(legal, texts, strict=True):
        assert g.parse(text) == a


@SETTINGS
@given(positions, st.integers(0, 2**31 - 1))
def test_an_action_outside_the_legal_set_is_refused_and_changes_nothing(pos, pick):
    g = reach(*pos)
    legal = set(g.legal_actions())
    illegal = [a for a in range(g.space.size) if a not in legal]
    a = illegal[pick % len(illegal)]
    before, history = list(g.state), list(g.history)
    with pytest.raises(IllegalAction):
        g.apply(a)
    assert list(g.state) == before
    assert g.history == history


@SETTINGS
@given(positions, st.integers(1, 2**31 - 1))
def test_a_clone_plays_on_exactly_like_the_original(pos, agent_seed):
    g = reach(*pos)
    h = g.clone()
    g.playout(agent_seed, 200)
    h.playout(agent_seed, 200)
    assert list(g.state) == list(h.state)


@SETTINGS
@given(positions)
def test_a_position_survives_a_save_round_trip(pos):
    g = reach(*pos)
    h = Game.from_json(g.to_json())
    assert list(h.state) == list(g.state)
    assert h.legal_actions() == g.legal_actions()
