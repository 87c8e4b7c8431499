"""Decisions per second through the PettingZoo API against the plain ``Game`` loop, on
the same seeded random games (measured here, never in tests).

    python -m rootlaw.runtime.envs.bench [--games 20] [--seed 1] [--factions a,b]

- ``plain``: ``legal_actions()``, a random pick, ``apply()``.
- ``aec``: ``env.agent_iter()``, ``env.last()`` (observation and mask), a random pick
  from ``env.unwrapped.legal_actions()``, ``env.step()``, through ``env()``'s wrappers.
- ``aec_mask_pick``: the same, picking from ``np.flatnonzero(obs["action_mask"])`` as a
  policy that reads only the mask does (the difference is the policy's numpy, not the
  API's).
- ``aec_no_observation``: ``aec`` with ``last(observe=False)``: the API's own cost.
- ``observation_vector``, ``mask``: the cost of one observation and one mask alone.

The issue's target: ``aec`` at most 2x ``plain`` per decision.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from ..agents import RandomAgent
from ..game import Game
from .pettingzoo import env
from .seats import faction_mixes
from .table import action_mask


def _plain(factions, seeds) -> tuple[int, float]:
    n, t0 = 0, time.perf_counter()
    for s in seeds:
        g, agent = Game(factions, s), RandomAgent(s)
        while not g.is_over:
            g.apply(agent.choose(g, g.legal_actions()))
            n += 1
    return n, time.perf_counter() - t0


def _aec(factions, seeds, observe: bool, mask_pick: bool = False) -> tuple[int, float]:
    n, t0 = 0, time.perf_counter()
    e = env(factions=factions)
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
    return n, time.perf_counter() - t0


def _per_call(fn, reps: int) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def run(factions: list[str] | None = None, games: int = 20, seed: int = 1,
        rounds: int = 3) -> dict:
    """Each loop ``rounds`` times, the fastest kept (a shared machine's noise only ever
    slows a round down)."""
    factions = list(factions or faction_mixes()[0])
    seeds = list(range(seed, seed + games))
    out: dict = {"factions": factions, "games": games, "seed": seed}
    g = Game(factions, seed)
    out["compiled"] = g.compiled
    for name, fn in (("plain", lambda: _plain(factions, seeds)),
                     ("aec", lambda: _aec(factions, seeds, True)),
                     ("aec_mask_pick", lambda: _aec(factions, seeds, True, True)),
                     ("aec_no_observation", lambda: _aec(factions, seeds, False))):
        n, dt = min((fn() for _ in range(rounds)), key=lambda r: r[1])
        out[name] = {"decisions": n, "seconds": round(dt, 4),
                     "decisions_per_s": round(n / dt), "us_per_decision": round(dt / n * 1e6, 2)}
    for _ in range(60):
        g.apply(g.legal_actions()[0])
    legal = g.legal_actions()
    def best(fn, reps):
        return round(min(_per_call(fn, reps) for _ in range(rounds)) * 1e6, 2)

    out["observation_vector_us"] = best(lambda: g.observation_vector(0), 2000)
    out["legal_actions_us"] = best(g.legal_actions, 20000)
    out["mask_us"] = best(lambda: action_mask(g.space.size, legal), 20000)
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
