"""What the three environments share: seeds for successive games, the policy that plays
seats no learner holds, observations and action masks as numpy arrays, and the spaces.

Cheap by construction: the legal actions are listed at most once per decision and only
when someone asks (a mask, a policy), an observation is encoded only when observed, and
an observation array is a view of the encoded vector (no copy).
"""

from __future__ import annotations

from collections.abc import Callable

from ..agents import Agent, RandomAgent
from ..errors import RootlawError
from ..game import GameInfo
from ._extra import require

require("rootlaw.runtime.envs.table", "numpy")

import numpy as np  # noqa: E402

ILLEGAL_ACTIONS = ("terminate", "random", "raise")
# The observation vector holds counts, indices and -1 for "none" (docs/agents.md); no
# field has a bound the bundle states, so the space claims [-1, 2**31 - 1].
OBSERVATION_LOW = -1
OBSERVATION_HIGH = 2**31 - 1

SeatPolicy = Callable[[int], Agent]
"""Makes the agent for seats no learner holds, from the game's seed (a class such as
``RandomAgent`` or ``lambda seed: FirstAgent()``)."""


class Seeds:
    """The game seed of each reset.

    ``next(seed)`` with a seed plays that seed and restarts the stream from it; without
    one, the constructor's seed is played first, then seeds drawn from the stream (from
    fresh entropy if no seed was ever given).  So ``reset(seed=s)`` is game ``s``, the same
    game ``rootlaw play --seed s`` deals, and the resets after it are reproducible too.
    """

    def __init__(self, seed: int | None = None):
        check_seed(seed)
        self._first = None if seed is None else int(seed)
        self._stream: np.random.Generator | None = None

    def next(self, seed: int | None = None) -> int:
        check_seed(seed)
        seed = None if seed is None else int(seed)  # numpy integers too
        if seed is None and self._first is not None:
            seed = self._first
        self._first = None
        if seed is not None:
            self._stream = np.random.default_rng(seed & (2**64 - 1))
            return seed
        if self._stream is None:
            self._stream = np.random.default_rng()
        return int(self._stream.integers(0, 2**63))


def check_seed(seed: object) -> None:
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or \
            not -(2**63) <= int(seed) < 2**63:
        raise RootlawError(f"a seed is a 64-bit integer, not {seed!r}", code="VALUE-INVALID")


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RootlawError(f"{name} is one of {', '.join(choices)}, not {value!r}",
                           code="VALUE-INVALID")
    return value


def check_cap(name: str, value: int | None) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | np.integer)
                              or value < 1):
        raise RootlawError(f"{name} is a positive integer or None, not {value!r}",
                           code="VALUE-INVALID")
    return None if value is None else int(value)


def default_policy(seed: int) -> Agent:
    return RandomAgent(seed)


def observation_array(game, seat: int) -> np.ndarray:
    """The seat's observation vector as a new int64 array."""
    return np.frombuffer(game.observation_vector(seat), dtype=np.int64)


def action_mask(size: int, legal: list[int] | None) -> np.ndarray:
    """1 at each legal action, 0 elsewhere (all 0 when ``legal`` is None: not to play)."""
    mask = np.zeros(size, dtype=np.int8)
    if legal:
        mask[legal] = 1
    return mask


class SeatView:
    """One agent's observation arrays, written in place by the core at each observation
    (``Core.observe`` and ``Core.mask``: no new array, no Python loop).  With
    ``fresh=True`` each observation gets new arrays instead (copies of those), for
    callers that keep observations: Gymnasium's checker demands it."""

    __slots__ = ("observation", "mask", "fresh", "seat", "arrays")

    def __init__(self, info: GameInfo, seat: int, fresh: bool = False):
        self.seat = seat
        self.fresh = fresh
        self.observation = np.zeros(info.observation_size, np.int64)
        self.mask = np.zeros(info.num_actions, np.int8)
        # The observation over the arrays themselves, made once (not fresh: it is always
        # the same dict, as its arrays are always the same arrays).
        self.arrays = {"observation": self.observation, "action_mask": self.mask}

    def observe(self, game, acting: bool) -> dict:
        """{"observation", "action_mask"} of the seat; the mask is all 0 unless
        ``acting``."""
        core = game._core  # the seat is known good: straight to the core
        core.observe(self.seat, self.observation)
        if acting:
            core.mask(self.mask)
        else:
            self.mask.fill(0)
        if self.fresh:  # copies: cheaper than the core taking a new numpy array's buffer
            return {"observation": self.observation.copy(), "action_mask": self.mask.copy()}
        return self.arrays


def spaces_for(info: GameInfo):
    """(observation space, action space) of one agent: the dict observation PettingZoo's
    classic games use ({"observation", "action_mask"}) and the fixed action space."""
    from gymnasium import spaces

    observation = spaces.Dict({
        "observation": spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH,
                                  shape=(info.observation_size,), dtype=np.int64),
        "action_mask": spaces.Box(0, 1, shape=(info.num_actions,), dtype=np.int8),
    })
    return observation, spaces.Discrete(info.num_actions)
