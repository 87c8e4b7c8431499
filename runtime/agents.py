"""Agents: something that picks one of the legal actions."""

from __future__ import annotations

from typing import Protocol

MASK32 = 0xFFFFFFFF


class Agent(Protocol):
    def choose(self, game, legal: list[int]) -> int: ...


class RandomAgent:
    """Uniform random choice with the core's own xorshift32 stream.

    Seeded alike, it makes exactly the choices of the core's fast random playout, so a
    game played decision by decision through the API (with a log) and the same game
    played inside the core end the same way.
    """

    def __init__(self, seed: int):
        self.x = (seed & MASK32) or 2463534242

    def _next(self, n: int) -> int:
        x = self.x
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.x = x
        return x % n

    def choose(self, game, legal: list[int]) -> int:
        return legal[self._next(len(legal))]


class FirstAgent:
    """Always the first legal action (deterministic baseline)."""

    def choose(self, game, legal: list[int]) -> int:
        return legal[0]
