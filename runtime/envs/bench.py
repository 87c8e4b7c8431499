"""Decisions per second through the PettingZoo API against the plain ``Game`` loop, on
the same seeded random games (measured here, never in tests; ``rootlaw bench`` reports
the main figures too).

    python -m rootlaw.runtime.envs.bench [--games 20] [--seed 1] [--factions a,b]

- ``plain``: ``legal_actions()``, a random pick, ``apply()`` (``rootlaw.runtime.bench``).
- ``aec``: ``env.agent_iter()``, ``env.last()`` (observation and mask), a random pick
  from ``env.unwrapped.legal_actions()``, ``env.step()``, through ``env()``'s wrappers.
- ``aec_fresh_observations``: ``aec`` with ``fresh_observations=True`` (new arrays at
  every observation, as Gymnasium asks, instead of each agent's reused buffers).
- ``aec_mask_pick``: the same, picking from ``np.flatnonzero(obs["action_mask"])`` as a
  policy that reads only the mask does (the difference is the policy's numpy, not the
  API's).
- ``aec_no_observation``: ``aec`` with ``last(observe=False)``: the API's own cost.
- ``observation_vector``, ``mask``: the cost of one observation and one mask alone, into
  reused buffers.

CPU time, the best of ``rounds`` rounds.  The issue's target: ``aec`` at most 2x
``plain`` per decision.
"""

from __future__ import annotations

import argparse
import json

from ..agents import RandomAgent
from ..bench import best_cpu, loop_figures, python_loop, timer
from ..game import Game
from ._extra import require

require("rootlaw.runtime.envs.bench", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402

from .pettingzoo import env  # noqa: E402
from .seats import faction_mixes  # noqa: E402


def _aec(factions, seeds, observe: bool, mask_pick: bool = False,
         fresh: bool = False) -> int:
    n = 0
    e = env(factions=factions, fresh_observations=fresh)
    raw = e.unwrapped
    for s in seeds:
        e.reset(seed=s)
        agent = RandomAgent(s)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last(observe)
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist() if mask_pick else \
                raw.legal_actions()
            e.step(agent.choose(None, legal))
            n += 1
    return n


def _per_call(fn, reps: int, rounds: int) -> float:
    def run() -> int:
        for _ in range(reps):
            fn()
        return reps

    n, dt = best_cpu(run, rounds)
    return round(dt / n * 1e6, 3)


LOOPS = ("plain", "aec", "aec_fresh_observations", "aec_mask_pick", "aec_no_observation")


def run(factions: list[str] | None = None, games: int = 20, seed: int = 1,
        rounds: int = 3, loops: tuple[str, ...] = LOOPS) -> dict:
    """Each loop ``rounds`` times, the fastest kept (a shared machine's noise only ever
    slows a round down)."""
    factions = list(factions or faction_mixes()[0])
    seeds = list(range(seed, seed + games))
    out: dict = {"factions": factions, "games": games, "seed": seed,
                 "timer": timer(rounds)}
    g = Game(factions, seed)
    out["compiled"] = g.compiled
    runs = {"plain": lambda: python_loop(factions, seeds),
            "aec": lambda: _aec(factions, seeds, True),
            "aec_fresh_observations": lambda: _aec(factions, seeds, True, fresh=True),
            "aec_mask_pick": lambda: _aec(factions, seeds, True, True),
            "aec_no_observation": lambda: _aec(factions, seeds, False)}
    for name in ("plain", "aec", *(x for x in loops if x not in ("plain", "aec"))):
        out[name] = loop_figures(*best_cpu(runs[name], rounds))
    for _ in range(60):
        g.apply(g.legal_actions()[0])
    obs = np.zeros(g.info.observation_size, np.int64)
    mask = np.zeros(g.info.num_actions, np.int8)
    out["observation_vector_us"] = _per_call(lambda: g.observation_vector(0, obs), 2000, rounds)
    out["legal_actions_us"] = _per_call(g.legal_actions, 20000, rounds)
    out["mask_us"] = _per_call(lambda: g.action_mask(mask), 20000, rounds)
    out["aec_over_plain"] = round(out["aec"]["us_per_decision"]
                                  / out["plain"]["us_per_decision"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rootlaw.runtime.envs.bench")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--factions", default="")
    args = p.parse_args(argv)
    factions = [f for f in args.factions.split(",") if f] or None
    print(json.dumps(run(factions, args.games, args.seed, args.rounds), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
