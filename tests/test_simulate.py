"""The core's resumable random playout: seed_agent + play_on continue one agent stream
in stages (e.g. stopped at each round's end) and play the game playout plays."""

from __future__ import annotations

import pytest

from rootlaw.runtime import Game


@pytest.mark.parametrize("seed", [1, 2, 17])
def test_play_on_in_stages_plays_the_game_playout_plays(core_kind, seed):
    """seed_agent + play_on stopped at every round's end is Game.playout's game: the
    same final state, the same number of decisions; each stop is at the asked turn."""
    pure = core_kind == "pure"
    whole = Game(["marquise", "eyrie"], seed, pure=pure)
    n_whole = whole.playout(seed)
    staged = Game(["marquise", "eyrie"], seed, pure=pure)
    core, S = staged._core, staged.S
    core.seed_agent(seed)
    taken, stop = 0, 3
    while not staged.is_over:
        taken += core.play_on(1_000_000, stop)
        if not staged.is_over:
            assert staged.turn == stop  # stopped as the turn counter reached it
            assert staged.state[S["CURRENT"]] == staged.state[S["FIRST"]]  # a new round
        stop += 2
    assert taken == n_whole
    assert list(staged.state) == list(whole.state)


def test_play_on_respects_the_decision_cap_and_continues_the_agent_stream(core_kind):
    pure = core_kind == "pure"
    whole = Game(["eyrie", "marquise"], 5, pure=pure)
    trace = whole._core.playout_trace(5, 1_000_000)
    g = Game(["eyrie", "marquise"], 5, pure=pure)
    g._core.seed_agent(5)
    assert g._core.play_on(40, 0) == 40
    assert g._core.play_on(len(trace) - 40 + 10, 0) == len(trace) - 40
    assert list(g.state) == list(whole.state)
