"""Root as a PettingZoo environment: agents are the seated factions, one decision a step.

    from rootlaw.runtime.envs.pettingzoo import env
    e = env(factions=[...], seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs)   # obs["action_mask"]
        e.step(action)

``env()`` wraps ``raw_env`` as PettingZoo's classic games do: the order checks of
``OrderEnforcingWrapper`` (a subclass of it) and the assertion of
``AssertOutOfBoundsWrapper`` (an action outside the space is an ``AssertionError``).  An
illegal action is replaced by the seat policy's choice by default (counted, and warned
about once per environment), so tools that sample without the mask play on, PettingZoo's
``max_cycles_test`` among them; ``illegal_action="terminate"`` ends the game as the
classic games' ``TerminateIllegalWrapper`` does (the offender gets -1, everyone else
0).  The wrapper calls straight through where PettingZoo's generic wrappers look every
attribute up by ``__getattr__`` (that was most of the API's cost per decision), and the
illegal-action rule lives in ``raw_env`` so that the parallel view shares it.
``parallel_env()`` is the turn-based parallel view.  Rewards: ``rootlaw.runtime.envs.outcome``; the
action space and the observation: docs/agents.md.

Each observation is ``{"observation": int64[observation_size], "action_mask":
int8[num_actions]}``; the mask is all 0 for an agent that is not to play.  The core
writes both arrays in place, into buffers each agent keeps: an agent's arrays change at
its next observation, so copy them to keep one (or pass ``fresh_observations=True``).
The legal actions are listed once per decision, by the core.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable

from ._extra import require

require("rootlaw.runtime.envs.pettingzoo", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils import EzPickle  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402
from pettingzoo.utils.wrappers.order_enforcing import (  # noqa: E402
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ..errors import IllegalAction, RootlawError  # noqa: E402
from ..game import Game  # noqa: E402
from . import outcome, picture  # noqa: E402
from .seats import bundle_for, game_info  # noqa: E402
from .table import (  # noqa: E402
    ILLEGAL_ACTIONS,
    SeatPolicy,
    SeatView,
    Seeds,
    check_cap,
    check_choice,
    default_policy,
    spaces_for,
)

NAME = "rootlaw_v0"
RENDER_MODES = picture.render_modes()  # listed in the metadata, and the modes accepted


def env(**kwargs) -> AECEnv:
    """The AEC environment, wrapped (arguments: ``raw_env``)."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` in one,
    calling the environment directly on the per-decision path: once reset, ``last`` and
    ``step`` are the environment's own (whose ``step`` asserts an action out of the
    action space and counts its calls, which ``agent_iter`` checks)."""

    def __init__(self, env: raw_env):
        super().__init__(env)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        return _AgentIterable(self, max_iter)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        # Reset once, last() and step() have nothing left to check here: the
        # environment's own, directly (instance attributes shadowing the wrapper's
        # methods, on purpose).
        setattr(self, "last", self.env.last)  # noqa: B010
        setattr(self, "step", self.env.step)  # noqa: B010

    @property
    def agent_selection(self):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    @property
    def agents(self):
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action) -> None:
        # Only before the first reset (then the environment's own step stands here).
        EnvLogger.error_step_before_reset()


_INTEGERS = (int, np.integer)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing ``agent_iter``, its checks written out in one call
    (its own goes through two ``__next__`` and the wrapper's properties per decision)."""

    _seen = -1  # the environment's count of steps and resets at the last agent given

    def __next__(self):
        wrapper = self.env
        if not wrapper._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert raw.moves != self._seen, "need to call step() or reset() in a loop over " \
            "`agent_iter`"
        self._seen = raw.moves
        return raw.agent_selection


def parallel_env(**kwargs) -> ParallelEnv:
    """The turn-based parallel view (arguments: ``raw_env``)."""
    return TurnBasedParallelEnv(**kwargs)


class raw_env(AECEnv, EzPickle):  # noqa: N801 -- PettingZoo's name for the bare environment
    """One game of Root per episode.

    factions: the seated factions in seat order (default: every faction of the bundle).
    seed: the game of the first ``reset()`` without a seed (see ``table.Seeds``).
    packs: content packs on top of the base game; map, deck: a pack's map or deck (as
        ``rootlaw play --map/--deck``).
    max_cycles: how many decisions each agent is asked for.  An agent that has had its
        ``max_cycles`` decisions is truncated (reward 0) and leaves; the seat policy plays
        its seat on so the agents still in get theirs, and the episode ends when the
        game ends or every agent has left.  So every agent is asked equally often, which
        is what a cycle means in PettingZoo (its ``max_cycles_test`` checks exactly that),
        although Root's decisions come in runs of one faction.  None: no budget.
    max_decisions: the game stops after this many decisions in all (counting the seat
        policy's) and every agent still in is truncated, reward 0, as ``rootlaw play
        --max-decisions`` stops a game.  Default: ``Game.info.max_decisions``.
    illegal_action: "random" (default: the seat policy decides instead; counted in
        ``illegal_actions`` and warned about once per environment; tools that sample
        without the mask play on), "terminate" (PettingZoo's classic rule: the game ends,
        the offender gets -1, everyone else 0) or "raise" (``IllegalAction``).
    seat_policy: makes the agent that plays seats whose agent has left and, with
        "random", replaces illegal actions; called with the game seed (default: the
        seeded ``RandomAgent``).
    reward: "terminal" (default: win 1, loss -1, stopped 0 at the end) or "vp" (also, at
        every step, the VP each agent gained in it over 30: ``rewards`` holds the step's,
        ``last()`` what came since the agent last acted; ``rootlaw.runtime.envs.outcome``).
    render_mode: "human" (the text printed, render() returns None), "ansi" (the text) or
        "svg" (the board picture, rootlaw.runtime.render): ``metadata["render_modes"]``.
    fresh_observations: False (default): an agent's observation arrays are its own
        buffers, rewritten in place at its next observation (copy what you keep); True:
        new arrays at every observation (slower).
    """

    metadata = {"name": NAME, "render_modes": RENDER_MODES,
                "is_parallelizable": False, "render_fps": 1}
    game: Game  # the game of the episode, from reset() on

    def __init__(self, factions: Iterable[str] | None = None, seed: int | None = None,
                 packs: Iterable[str | os.PathLike] = (), map: str | None = None,
                 deck: str | None = None, max_cycles: int | None = None,
                 max_decisions: int | None = None, illegal_action: str = "random",
                 seat_policy: SeatPolicy | None = None, render_mode: str | None = None,
                 pure: bool | None = None, fresh_observations: bool = False,
                 reward: str = "terminal"):
        factions = list(factions) if factions is not None else None
        packs = [str(p) for p in packs]
        EzPickle.__init__(self, factions=factions, seed=seed, packs=packs, map=map, deck=deck,
                          max_cycles=max_cycles, max_decisions=max_decisions,
                          illegal_action=illegal_action, seat_policy=seat_policy,
                          render_mode=render_mode, pure=pure,
                          fresh_observations=fresh_observations, reward=reward)
        super().__init__()
        self.bundle = bundle_for(packs, map, deck)
        probe = Game(factions, 0, bundle=self.bundle, pure=pure)  # checks the seating
        self.info = game_info(self.bundle)
        self.possible_agents = list(probe.factions)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.max_cycles = check_cap("max_cycles", max_cycles)
        self.max_decisions = check_cap("max_decisions", max_decisions) or \
            self.info.max_decisions
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.reward = check_choice("reward", reward, outcome.REWARDS)
        if self.reward == "vp":  # the plain step() stays as it is, for the terminal reward
            setattr(self, "step", self._step_with_vp)  # noqa: B010
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(RENDER_MODES))
        self.render_mode = render_mode
        self._seat_policy = seat_policy or default_policy
        self._warned_illegal = False
        self._seeds = Seeds(seed)
        self._pure = pure
        self.moves = 0  # calls of reset() and step(): agent_iter checks one came between
        self.observation_spaces = {}
        self.action_spaces = {}
        for a in self.possible_agents:  # one space object per agent, seeded separately
            self.observation_spaces[a], self.action_spaces[a] = spaces_for(self.info)
        self._views = {a: SeatView(self.info, i, bool(fresh_observations))
                       for i, a in enumerate(self.possible_agents)}

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.moves += 1
        self.game_seed = self._seeds.next(seed)
        self.game = Game(self.possible_agents, self.game_seed, bundle=self.bundle,
                         pure=self._pure)
        self.policy = self._seat_policy(self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.asked = dict.fromkeys(self.agents, 0)  # counted under max_cycles
        self._vp = dict.fromkeys(self.agents, 0)  # each agent's VP so far (reward="vp")
        self._someone_left = False
        self.illegal_actions = 0
        self._skip_agent_selection = None
        self._legal: list[int] | None = None
        self.agent_selection = self.possible_agents[self.game.to_play]

    def step(self, action) -> None:
        self.moves += 1
        agent = self.agent_selection
        try:
            gone = self.terminations[agent] or self.truncations[agent]
        except KeyError:  # every agent has left: PettingZoo warns and does nothing
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if gone:
            self._was_dead_step(action)
            return
        g = self.game
        try:  # Game.apply's common case, one call less
            applied = type(action) is int and g._core.apply(action)
        except OverflowError:  # beyond 64 bits: refused as Game.apply refuses it
            applied = False
        if applied:
            if g._history_shared:  # Game._record, its common case written out
                g._record(action)
            else:
                g._history.append(action)
        else:
            # PettingZoo's AssertOutOfBoundsWrapper, here: an action outside the space.
            assert isinstance(action, _INTEGERS) and not isinstance(action, bool) and \
                0 <= action < self.info.num_actions, "action is not in action space"
            self._apply_checked(g, agent, action)
            if self.terminations[agent]:  # ended by the illegal action
                return
        self._legal = None
        if self.max_cycles is not None:
            asked = self.asked[agent] = self.asked[agent] + 1
            if asked >= self.max_cycles:
                self.truncations[agent] = True  # its budget is spent: it leaves, reward 0
                self._someone_left = True
                self._play_on()
                return
        seat = g._core.deciding()
        if seat >= 0 and not self._someone_left and len(g._history) < self.max_decisions:
            self.agent_selection = self.possible_agents[seat]  # the common case
            return
        self._play_on()

    def _step_with_vp(self, action) -> None:
        """step() with reward="vp": the step's rewards (cleared first) also hold the VP
        each agent still in gained in it, over 30, and so do the agents' cumulative
        rewards; the acting agent's cumulative reward starts again from 0, as an AEC
        agent's last() reports what came since it acted."""
        agent = self.agent_selection
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        if agent in live:
            self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        raw_env.step(self, action)
        g = self.game
        base, victory = g.S["VP"], self.info.victory_points
        for a in live:
            vp = g.state[base + self._seat[a]]
            if vp != self._vp[a]:
                r = outcome.vp_reward(vp - self._vp[a], victory)
                self._vp[a] = vp
                if a in self.rewards:
                    self.rewards[a] += r
                    self._cumulative_rewards[a] += r

    def _apply_checked(self, g: Game, agent: str, action) -> None:
        """Game.apply with its checks, and what an illegal action does here."""
        try:
            g.apply(int(action))
        except IllegalAction:
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "terminate":
                self._end_by_illegal_action(agent)
                return
            self.illegal_actions += 1
            if not self._warned_illegal:
                self._warned_illegal = True
                warnings.warn(f"rootlaw: {agent}'s action {int(action)} is not legal now: the "
                              "seat policy chose instead (illegal_action='random', the "
                              "default; this environment counts them in "
                              "unwrapped.illegal_actions and says so once; 'terminate' ends "
                              "the game, 'raise' raises)", stacklevel=3)
            g.apply(self.policy.choose(g, self.legal_actions()))

    def _play_on(self) -> None:
        """Play the seats of agents that have left; then select whoever acts next (an
        agent that has just been truncated or terminated first, for its last step)."""
        g = self.game
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        while live:
            if g.is_over:
                rewards = outcome.outcome_rewards(g)
                for a in live:
                    self.terminations[a] = True
                    self.rewards[a] = rewards[self._seat[a]]
                self._accumulate_rewards()
                break
            if len(g.history) >= self.max_decisions:
                for a in live:
                    self.truncations[a] = True  # a stopped game: reward 0
                break
            agent = self.possible_agents[g.to_play]
            if agent in live:
                self.agent_selection = agent
                break
            g.apply(self.policy.choose(g, self.legal_actions()))
            self._legal = None
        self._deads_step_first()

    def _end_by_illegal_action(self, agent: str) -> None:
        # As PettingZoo's TerminateIllegalWrapper: the game ends, the offender gets -1.
        for a in self.agents:
            self.terminations[a] = True
            self.rewards[a] = 0.0
        self.rewards[agent] = outcome.LOSS
        self._accumulate_rewards()
        self._deads_step_first()

    def legal_actions(self) -> list[int]:
        """The acting agent's legal actions (what its mask marks), listed once per
        decision: cheaper for a policy than ``np.flatnonzero(obs["action_mask"])``."""
        if self._legal is None:
            self._legal = self.game._core.legal_actions()
        return self._legal

    # ------------------------------------------------------------------ views

    def last(self, observe: bool = True):
        """AECEnv.last, with the acting agent's observation made from what it reads."""
        agent = self.agent_selection
        terminated, truncated = self.terminations[agent], self.truncations[agent]
        obs = None
        if observe:
            view = self._views[agent]
            if terminated or truncated or view.fresh:
                obs = view.observe(self.game, not (terminated or truncated))
            else:  # SeatView.observe of the acting agent, written out
                core = self.game._core
                core.observe(view.seat, view.observation)
                core.mask(view.mask)  # all 0 once the game is over: nothing is legal
                obs = view.arrays
        return obs, self._cumulative_rewards[agent], terminated, truncated, self.infos[agent]

    def observe(self, agent: str) -> dict:
        g = self.game
        acting = agent == self.agent_selection and not g.is_over and not (
            self.terminations.get(agent) or self.truncations.get(agent))
        return self._views[agent].observe(g, acting)

    def render(self):
        if getattr(self, "game", None) is None:
            raise RootlawError("render() before reset()", code="VALUE-INVALID")
        return picture.render(self.game, self.render_mode)

    def close(self) -> None:
        pass


class TurnBasedParallelEnv(ParallelEnv, EzPickle):
    """The parallel view of the turn-based game: every step each agent still in hands an
    action, the acting agent's is applied and the others' are ignored
    (``infos[agent]["active_agent"]`` names who acts, as PettingZoo's turn-based wrapper
    does).  Every agent is asked at every step, so ``max_cycles`` here counts steps: after
    ``max_cycles`` steps every agent still in is truncated, reward 0.  Other arguments
    as ``raw_env``."""

    metadata = {**raw_env.metadata, "name": NAME + "_parallel"}

    def __init__(self, max_cycles: int | None = None, **kwargs):
        EzPickle.__init__(self, max_cycles=max_cycles, **kwargs)
        self.aec = raw_env(**kwargs)
        self.max_cycles = check_cap("max_cycles", max_cycles)
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        self.steps = 0
        return ({a: self.aec.observe(a) for a in self.agents}, self._infos())

    def _infos(self) -> dict:
        return {a: {"active_agent": self.aec.agent_selection} for a in self.agents}

    def step(self, actions: dict):
        aec = self.aec
        aec.step(actions[aec.agent_selection])
        self.steps += 1
        agents = self.agents
        rewards = {a: float(aec.rewards[a]) for a in agents}
        terminations = {a: aec.terminations[a] for a in agents}
        truncations = {a: aec.truncations[a] for a in agents}
        if self.max_cycles is not None and self.steps >= self.max_cycles:
            for a in agents:
                if not terminations[a]:
                    truncations[a] = True
        observations = {a: aec.observe(a) for a in agents}
        infos = self._infos()
        self.agents = [a for a in agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
