"""rootlaw.runtime: the Game API, agents, logs and replays, and the `rootlaw` CLI."""

from .agents import FirstAgent, RandomAgent
from .errors import IllegalAction, RootlawError, SaveError
from .game import Game, GameInfo, base_bundle

__all__ = ["FirstAgent", "Game", "GameInfo", "IllegalAction", "RandomAgent", "RootlawError",
           "SaveError", "base_bundle"]
