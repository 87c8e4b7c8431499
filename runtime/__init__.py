"""rootlaw.runtime: the Game API, agents, logs and replays, and the `rootlaw` CLI."""

from .agents import FirstAgent, RandomAgent
from .errors import FileError, IllegalAction, LogError, RootlawError, SaveError
from .game import Game, GameInfo, base_bundle

__all__ = ["FileError", "FirstAgent", "Game", "GameInfo", "IllegalAction", "LogError",
           "RandomAgent", "RootlawError", "SaveError", "base_bundle"]
