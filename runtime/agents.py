"""Agents: something that picks one of the legal actions."""

from __future__ import annotations

from typing import Protocol

from . import rng

_MASK32 = rng.MASK32


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
        # rng.step and rng.below written out: this runs once per decision of every
        # random seat, and three Python calls cost more than the core's whole decision.
        x = self.x
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        self.x = x
        return legal[(x * len(legal)) >> 32]


class FirstAgent:
    """Always the first legal action (deterministic baseline)."""

    def choose(self, game, legal: list[int]) -> int:
        return legal[0]
