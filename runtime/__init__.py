"""rootlaw.runtime: the Game API, agents, logs and replays, and the `rootlaw` CLI."""

from .agents import FirstAgent, HeuristicAgent, RandomAgent, make_agent
from .errors import FileError, IllegalAction, LogError, RootlawError, SaveError
from .game import Game, GameInfo, base_bundle
from .search import ISMCTSAgent

__all__ = ["FileError", "FirstAgent", "Game", "GameInfo", "HeuristicAgent", "ISMCTSAgent",
           "IllegalAction", "LogError", "RandomAgent", "RootlawError", "SaveError",
           "base_bundle", "make_agent"]
