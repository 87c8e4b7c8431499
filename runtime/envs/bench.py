"""Decisions per second through the PettingZoo API against the plain ``Game`` loop, on
the same seeded random games (measured here, never in tests).

    python -m rootlaw.runtime.envs.bench [--games 20] [--seed 1] [--factions a,b]

- ``plain``: ``legal_actions()``, a random pick, ``apply()``.
- ``aec``: ``env.agent_iter()``, ``env.last()`` (observation and mask), a random pick
  from the mask, ``env.step()``, through ``env()``'s wrappers.
- ``aec_no_observation``: the same with ``last(observe=False)`` and the pick from the
  raw env's legal list: the API's own cost without the observation.
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


def _aec(factions, seeds, observe: bool) -> tuple[int, float]:
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
            legal = np.flatnonzero(obs["action_mask"]).tolist() if observe else \
                raw._legal_now()
            e.step(agent.choose(None, legal))
            n += 1
    return n, time.perf_counter() - t0


def _per_call(fn, reps: int) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def run(factions: list[str] | None = None, games: int = 20, seed: int = 1) -> dict:
    factions = list(factions or faction_mixes()[0])
    seeds = list(range(seed, seed + games))
    out: dict = {"factions": factions, "games": games, "seed": seed}
    g = Game(factions, seed)
    out["compiled"] = g.compiled
    for name, fn in (("plain", lambda: _plain(factions, seeds)),
                     ("aec", lambda: _aec(factions, seeds, True)),
                     ("aec_no_observation", lambda: _aec(factions, seeds, False))):
        n, dt = fn()
        out[name] = {"decisions": n, "seconds": round(dt, 4),
                     "decisions_per_s": round(n / dt), "us_per_decision": round(dt / n * 1e6, 2)}
    for _ in range(60):
        g.apply(g.legal_actions()[0])
    legal = g.legal_actions()
    out["observation_vector_us"] = round(_per_call(lambda: g.observation_vector(0), 2000) * 1e6, 2)
    out["legal_actions_us"] = round(_per_call(g.legal_actions, 20000) * 1e6, 2)
    out["mask_us"] = round(_per_call(lambda: action_mask(g.space.size, legal), 20000) * 1e6, 2)
    out["aec_over_plain"] = round(out["aec"]["us_per_decision"]
                                  / out["plain"]["us_per_decision"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rootlaw.runtime.envs.bench")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--factions", default="")
    args = p.parse_args(argv)
    factions = [f for f in args.factions.split(",") if f] or None
    print(json.dumps(run(factions, args.games, args.seed), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
