"""The Python mirror of the core's random numbers (see ``xorshift32`` in the template).

The core draws dice, shuffles and seats from one xorshift32 stream kept in the game
state; the random agent uses a second stream of the same generator.  Seeds are mixed
first, so that nearby seeds start far apart, and a number below ``n`` is taken from the
high bits (``x * n >> 32``): the low bits of consecutive xorshift32 states follow the
seed's low bits too closely to be used alone.
"""

from __future__ import annotations

MASK32 = 0xFFFFFFFF
ZERO_SEED = 2463534242  # xorshift32 must not start at 0


def seed_state(seed: int) -> int:
    """The first state of a stream for a seed (an integer hash, never 0)."""
    x = seed & MASK32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & MASK32
    x = (x >> 16) ^ x
    return x or ZERO_SEED


def step(x: int) -> int:
    """One xorshift32 step."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    return x


def below(x: int, n: int) -> int:
    """A number in [0, n) from the state x."""
    return (x * n) >> 32
