"""rootlaw's agents as bots for the environments (runtime/envs/bots.py): the opponents'
policy in Gymnasium, the seat policy and a bot in PettingZoo's loop, a pyspiel.Bot."""

from __future__ import annotations

from rl_extra import need

need("numpy", "gymnasium", "pettingzoo", "pyspiel")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

import rootlaw.runtime.envs.openspiel  # noqa: E402, F401 -- registers the game
from rootlaw.runtime import Game  # noqa: E402
from rootlaw.runtime.agents import HeuristicAgent, make_agent, policy  # noqa: E402
from rootlaw.runtime.envs import GYMNASIUM_ID  # noqa: E402
from rootlaw.runtime.envs.bots import PettingZooBot, openspiel_bot  # noqa: E402
from rootlaw.runtime.envs.pettingzoo import env as pz_env  # noqa: E402

TWO = ["marquise", "eyrie"]


def test_the_opponents_of_a_gymnasium_learner_are_the_agent_made_from_the_game_seed():
    e = gymnasium.make(GYMNASIUM_ID, factions=TWO, faction="eyrie",
                       opponent=policy("heuristic"))
    obs, _ = e.reset(seed=4)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, reward, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(
            obs["action_mask"]))))
        done = term or trunc
    played = e.unwrapped.game
    assert isinstance(e.unwrapped.policy, HeuristicAgent) and played.is_over
    # The same game again: every opponent decision is the heuristic's, seeded by 4.
    g, agent = Game(TWO, 4), make_agent("heuristic", 4)
    for a in played.history:
        legal = g.legal_actions()
        if g.to_play != 1:
            assert agent.choose(g, legal) == a
        g.apply(a)
    assert reward == (1.0 if played.winner == 1 else -1.0)


def test_pettingzoo_bots_play_a_whole_game():
    e = pz_env(factions=TWO, seed=2, seat_policy=policy("heuristic"))
    e.reset()
    bots = {"marquise": PettingZooBot("ismcts:iterations=3", 1), "eyrie": PettingZooBot(
        "heuristic", 1)}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        e.step(None if term or trunc else bots[agent](e))
    g = e.unwrapped.game
    assert g.is_over and g.winner is not None


def test_an_openspiel_bot_plays_with_a_rootlaw_agent():
    game = pyspiel.load_game("rootlaw", {"factions": "marquise,eyrie", "seed": 3})
    bots = [openspiel_bot("heuristic", 1), openspiel_bot("random", 1)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.default_rng(0))
    assert sorted(returns) == [-1.0, 1.0]
    assert returns[0] == 1.0  # the heuristic beats the random agent on this deal
