"""rootlaw's agents (runtime/agents.py: heuristic, ismcts, random ...) as bots for the
three environments.

- Gymnasium: the opponents' policy is a seat policy, ``opponent=policy("heuristic")``
  (``rootlaw.runtime.agents.policy``: the agent is made from each game's seed).
- PettingZoo: ``seat_policy=policy(...)`` plays the seats of agents that have left; a
  ``PettingZooBot`` plays the acting agent's seat in your loop: ``action = bot(env)``.
- OpenSpiel: ``openspiel_bot(agent)`` is a ``pyspiel.Bot`` (for ``evaluate_bots`` and the
  like).

The agents read the game behind the environment, as they read any game: only through
``Game.determinize`` of the seat deciding (what it cannot see sampled again), so a bot
sees no more than its seat's observation.
"""

from __future__ import annotations

from ..agents import Agent, make_agent, policy


def _agent(agent: Agent | str, seed: int) -> Agent:
    return make_agent(agent, seed) if isinstance(agent, str) else agent


class PettingZooBot:
    """The action of a rootlaw agent for the acting agent of a PettingZoo environment
    (``env()``, ``raw_env()`` or a wrapper of them): ``bot(env)``."""

    def __init__(self, agent: Agent | str, seed: int = 0):
        self.agent = _agent(agent, seed)

    def __call__(self, env) -> int:
        raw = env.unwrapped
        return self.agent.choose(raw.game, raw.legal_actions())


def openspiel_bot(agent: Agent | str, seed: int = 0):
    """A ``pyspiel.Bot`` that plays with a rootlaw agent (a spec or an agent object);
    needs OpenSpiel (the ``rl`` extra)."""
    import pyspiel

    chooser = _agent(agent, seed)

    class RootlawBot(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state) -> int:
            g = state.game
            return chooser.choose(g, g.legal_actions())

        def restart_at(self, state) -> None:
            pass

        def inform_action(self, state, player_id, action) -> None:
            pass

        def provides_policy(self) -> bool:
            return False

        def is_clonable(self) -> bool:
            return False

    return RootlawBot()


__all__ = ["PettingZooBot", "openspiel_bot", "policy"]
