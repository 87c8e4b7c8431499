"""Agents: something that picks one of the legal actions."""

from __future__ import annotations

from typing import Protocol

from . import rng


class Agent(Protocol):
    def choose(self, game, legal: list[int]) -> int: ...


class RandomAgent:
    """Uniform random choice with the core's own xorshift32 stream.

    Seeded alike, it makes exactly the choices of the core's fast random playout, so a
    game played decision by decision through the API (with a log) and the same game
    played inside the core end the same way.
    """

    def __init__(self, seed: int):
        self.x = rng.seed_state(seed)

    def _next(self, n: int) -> int:
        self.x = rng.step(self.x)
        return rng.below(self.x, n)

    def choose(self, game, legal: list[int]) -> int:
        return legal[self._next(len(legal))]


class FirstAgent:
    """Always the first legal action (deterministic baseline)."""

    def choose(self, game, legal: list[int]) -> int:
        return legal[0]
