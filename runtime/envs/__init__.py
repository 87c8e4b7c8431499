"""Environments for learning agents, on the ``Game`` API.

- ``rootlaw.runtime.envs.pettingzoo``: PettingZoo AEC (``env``, ``raw_env``) and its
  turn-based parallel view (``parallel_env``); the agents are the seated factions.
- ``rootlaw.runtime.envs.gymnasium``: one learner against seats played by a policy
  (random by default); ``gymnasium.make("rootlaw/Root-v0", factions=[...])`` works once
  this package is imported.
- ``rootlaw.runtime.envs.openspiel``: importing it registers the OpenSpiel game
  ``"rootlaw"`` (``pyspiel.load_game("rootlaw", {"factions": "a,b"})``).

Their dependencies come with the extra: ``pip install "rootlaw[rl]"``.  This package
itself needs none of them (and ``import rootlaw.runtime`` never imports it), so its
helpers work without the extra: ``faction_mixes`` and the rewards in ``outcome``.
The action space, the observation, rewards and seeds: docs/agents.md.
"""

from __future__ import annotations

from ._extra import INSTALL, missing
from .outcome import LOSS, STOPPED, WIN, outcome_rewards, winning_seats
from .seats import faction_mixes

GYMNASIUM_ID = "rootlaw/Root-v0"


def _register_gymnasium() -> None:
    if missing("gymnasium", "numpy"):
        return
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(id=GYMNASIUM_ID,
                           entry_point="rootlaw.runtime.envs.gymnasium:RootEnv")


_register_gymnasium()

__all__ = ["GYMNASIUM_ID", "INSTALL", "LOSS", "STOPPED", "WIN", "faction_mixes",
           "outcome_rewards", "winning_seats"]
