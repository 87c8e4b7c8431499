"""`rootlaw bench`: the same seeded random games on the compiled and the pure core.

Measured here, never in tests.  The compiled core replays its games until
``min_seconds`` have passed so short runs still time well.
"""

from __future__ import annotations

import time

from rootlaw.spec import Bundle

from .game import Game


def _run(bundle: Bundle, factions: list[str], seeds: list[int], pure: bool) -> tuple[int, int]:
    decisions = 0
    for s in seeds:
        g = Game(factions, s, bundle=bundle, pure=pure)
        decisions += g._core.playout(s, 10_000_000)
    return decisions, len(seeds)


def run_bench(bundle: Bundle, factions: list[str], *, games: int = 20, seed: int = 1,
              min_seconds: float = 1.0) -> dict:
    seeds = list(range(seed, seed + games))
    out: dict = {"games": games, "seed": seed, "factions": factions, "bundle": bundle.hash}
    compiled_game = Game(factions, seed, bundle=bundle, pure=False)
    results = {}
    for name, pure in (("compiled", False), ("pure", True)):
        if name == "compiled" and not compiled_game.compiled:
            out["compiled"] = None
            continue
        rounds = 0
        dec = played = 0
        t0 = time.perf_counter()
        while True:
            d, n = _run(bundle, factions, seeds, pure)
            dec += d
            played += n
            rounds += 1
            elapsed = time.perf_counter() - t0
            if pure or elapsed >= min_seconds:
                break
        results[name] = {"decisions": dec, "games": played, "rounds": rounds,
                         "seconds": round(elapsed, 4),
                         "decisions_per_s": dec / elapsed, "games_per_s": played / elapsed}
        out[name] = results[name]
    if out.get("compiled") and out.get("pure"):
        out["speedup"] = out["compiled"]["decisions_per_s"] / out["pure"]["decisions_per_s"]
    else:
        out["speedup"] = None
    return out
