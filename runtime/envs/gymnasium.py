"""Root as a single-agent Gymnasium environment: one learner, the other seats played by
a policy (the seeded random agent unless given).

    import gymnasium, rootlaw.runtime.envs
    env = gymnasium.make("rootlaw/Root-v0", factions=[...])
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(action)

A step is one decision of the learner; the other seats then play until the learner is
asked again or the game ends.  Observations, the action space, rewards and seeds are
those of the PettingZoo environment (docs/agents.md); ``action_masks()`` also gives the
mask (a new array), for libraries that ask for it that way.  Every observation is new
arrays, as Gymnasium asks (``fresh_observations=False``: the arrays are rewritten in
place at the next observation, as in PettingZoo, for callers that copy what they keep).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ._extra import require

require("rootlaw.runtime.envs.gymnasium", "numpy", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

from ..errors import IllegalAction, RootlawError  # noqa: E402
from ..game import Game  # noqa: E402
from . import outcome, picture  # noqa: E402
from .seats import bundle_for, game_info  # noqa: E402
from .table import (  # noqa: E402
    ILLEGAL_ACTIONS,
    SeatPolicy,
    SeatView,
    check_cap,
    check_choice,
    check_seed,
    default_policy,
    spaces_for,
)


class RootEnv(gymnasium.Env):
    """One game of Root per episode, seen from the learner's seat.

    factions: the seated factions in seat order (default: every faction of the bundle).
    faction: the learner's faction (default: the first seated).
    opponent: makes the agent for the other seats from the game seed (default: the
        seeded ``RandomAgent``; one agent plays all of them).
    packs, map, deck, max_decisions, illegal_action, render_mode: as the PettingZoo
        ``raw_env``; an illegal action with "terminate" ends the episode with reward -1.
    reward: "terminal" (default: win 1, loss -1, stopped 0 at the end) or "vp" (also,
        at every step, the VP the learner gained since its previous step over 30:
        ``rootlaw.runtime.envs.outcome``).
    fresh_observations: True (default, Gymnasium's rule: "users keep the data returned
        to them"): new arrays at every observation; False: the same arrays rewritten in
        place (faster; copy what you keep).
    """

    metadata = {"render_modes": picture.render_modes(), "render_fps": 1}
    game: Game  # the game of the episode, from reset() on

    def __init__(self, factions: Iterable[str] | None = None, faction: str | None = None,
                 opponent: SeatPolicy | None = None, packs: Iterable[str | os.PathLike] = (),
                 map: str | None = None, deck: str | None = None,
                 max_decisions: int | None = None, illegal_action: str = "terminate",
                 render_mode: str | None = None, pure: bool | None = None,
                 fresh_observations: bool = True, reward: str = "terminal"):
        self.bundle = bundle_for([str(p) for p in packs], map, deck)
        probe = Game(list(factions) if factions is not None else None, 0, bundle=self.bundle,
                     pure=pure)
        self.factions = list(probe.factions)
        self.faction = faction if faction is not None else self.factions[0]
        if self.faction not in self.factions:
            raise RootlawError(f"the learner's faction {self.faction!r} is not seated "
                               f"(seated: {', '.join(self.factions)})", code="REF-UNDEF")
        self.seat = self.factions.index(self.faction)
        self.info = game_info(self.bundle)
        self.max_decisions = check_cap("max_decisions", max_decisions) or \
            self.info.max_decisions
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.reward = check_choice("reward", reward, outcome.REWARDS)
        self._vp = 0  # the learner's VP at its last step (reward="vp")
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.render_mode = render_mode
        self._opponent = opponent or default_policy
        self._pure = pure
        self.observation_space, self.action_space = spaces_for(self.info)
        self._view = SeatView(self.info, self.seat, bool(fresh_observations))
        self._legal: list[int] | None = None
        self._ended = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        check_seed(seed)
        seed = None if seed is None else int(seed)  # numpy integers too
        super().reset(seed=None if seed is None else seed & (2**64 - 1))
        # The game of reset(seed=s) is game s (rootlaw play --seed s); later resets
        # without a seed draw theirs from the seeded np_random.
        self.game_seed = seed if seed is not None else \
            int(self.np_random.integers(0, 2**63))
        self.game = Game(self.factions, self.game_seed, bundle=self.bundle, pure=self._pure)
        self.policy = self._opponent(self.game_seed)
        self.illegal_actions = 0
        self._ended = False
        self._legal = None
        self._play_others()
        self._vp = self.game.scores[self.seat]
        return self._observe(), {}

    def step(self, action):
        if getattr(self, "game", None) is None:
            raise RootlawError("step() before reset()", code="VALUE-INVALID")
        g = self.game
        if self._ended or g.is_over or len(g.history) >= self.max_decisions:
            raise RootlawError("step() after the episode ended: call reset()",
                               code="VALUE-INVALID")
        try:
            g.apply(int(action))
        except IllegalAction:
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "terminate":
                self._ended = True
                return self._observe(), outcome.LOSS, True, False, {"illegal_action": True}
            self.illegal_actions += 1
            g.apply(self.policy.choose(g, self._legal_now()))
        self._legal = None
        self._play_others()
        reward = outcome.outcome_rewards(g)[self.seat] if g.is_over else 0.0
        if self.reward == "vp":
            vp = g.state[g.S["VP"] + self.seat]
            reward += outcome.vp_reward(vp - self._vp, self.info.victory_points)
            self._vp = vp
        truncated = not g.is_over and len(g.history) >= self.max_decisions
        return self._observe(), reward, g.is_over, truncated, {}

    def _play_others(self) -> None:
        g = self.game
        while not g.is_over and len(g.history) < self.max_decisions and \
                g.to_play != self.seat:
            g.apply(self.policy.choose(g, self._legal_now()))
            self._legal = None

    def _legal_now(self) -> list[int]:
        if self._legal is None:
            self._legal = self.game.legal_actions()
        return self._legal

    def _acting(self) -> bool:
        g = self.game
        return not (self._ended or g.is_over) and len(g.history) < self.max_decisions and \
            g.to_play == self.seat

    def _observe(self) -> dict:
        return self._view.observe(self.game, self._acting())

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a new mask (all 0 once the episode has ended)."""
        if self._acting():
            return np.frombuffer(self.game.action_mask(), np.int8)
        return np.zeros(self.info.num_actions, np.int8)

    def render(self):
        if getattr(self, "game", None) is None:
            raise RootlawError("render() before reset()", code="VALUE-INVALID")
        return picture.render(self.game, self.render_mode)

    def close(self) -> None:
        pass
