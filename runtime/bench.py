"""`rootlaw bench`: how fast the engine runs, measured on the same seeded random games.

Measured here, never in tests.  Three parts:

- ``compiled`` / ``pure``: random playouts inside the core (``Core.playout``) on each
  core; the compiled core replays its games until ``min_seconds`` have passed.  This is
  the first workload (by default the bundle's first two factions); ``workloads`` lists
  the playout figures of every workload (by default also the first three factions, a
  three-player game, when the bundle has three).
- ``api``: the Python API one decision at a time, on the compiled core when there is one:
  ``python_loop`` (``legal_actions()``, ``RandomAgent.choose``, ``apply()``, the loop a
  tool writes), and the cost of one call of ``legal_actions``, ``observation_vector``
  (into a reused buffer and into a new array), ``action_mask`` (into a reused buffer) and
  ``clone``, averaged over every position of one game.
- ``agents``: per workload, the heuristic agent's decisions/s over every position of one
  seeded game the heuristic plays, and the search agent's iterations/s at its default
  budget on some of them, with the share of its time spent sampling, on priors, on
  rollouts and in the tree (``run_agents``).
- ``pettingzoo``: the same games through the PettingZoo AEC API against the plain loop
  (``rootlaw.runtime.envs.bench``), when the ``rl`` extra is installed.

The API figures are CPU time (``time.process_time``), the best of ``rounds`` rounds: a
machine shared with other work only ever slows a round down.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

from rootlaw.spec import Bundle

from .agents import RandomAgent
from .game import Game


def _run(bundle: Bundle, factions: list[str], seeds: list[int], pure: bool) -> tuple[int, int]:
    decisions = 0
    for s in seeds:
        g = Game(factions, s, bundle=bundle, pure=pure)
        decisions += g._core.playout(s, 10_000_000)
    return decisions, len(seeds)


def best_cpu(fn: Callable[[], int], rounds: int) -> tuple[int, float]:
    """(what fn returns, its least CPU time over ``rounds`` calls)."""
    best, n = float("inf"), 0
    for _ in range(max(1, rounds)):
        t0 = time.process_time()
        n = fn()
        best = min(best, time.process_time() - t0)
    return n, max(best, 1e-9)


def loop_figures(decisions: int, seconds: float) -> dict:
    return {"decisions": decisions, "seconds": round(seconds, 4),
            "decisions_per_s": round(decisions / seconds),
            "us_per_decision": round(seconds / decisions * 1e6, 3)}


def python_loop(factions: list[str], seeds: list[int], bundle: Bundle | None = None) -> int:
    """Each seeded game played to its end one decision at a time through the API:
    ``legal_actions()``, a seeded random choice, ``apply()``; return decisions taken."""
    n = 0
    for s in seeds:
        g = Game(factions, s, bundle=bundle)
        agent = RandomAgent(s)
        while not g.is_over:
            g.apply(agent.choose(g, g.legal_actions()))
            n += 1
    return n


def game_positions(start: Game, agent=None) -> list[Game]:
    """Every position of one game played by ``agent`` in every seat (default: random),
    from its start to its end."""
    g = start.clone()
    agent = agent or RandomAgent(g.seed)
    out = [g.clone()]
    while not g.is_over:
        g.apply(agent.choose(g, g.legal_actions()))
        out.append(g.clone())
    return out


def per_call_us(positions: list[Game], op: Callable[[Game], object], rounds: int,
                reps: int = 20) -> float:
    """The CPU time of one ``op(game)``, averaged over the positions (each ``reps`` times
    in a row), best of ``rounds``."""
    def run() -> int:
        for g in positions:
            for _ in range(reps):
                op(g)
        return len(positions) * reps

    n, dt = best_cpu(run, rounds)
    return round(dt / n * 1e6, 3)


def run_api(bundle: Bundle, factions: list[str], seeds: list[int], rounds: int) -> dict:
    n, dt = best_cpu(lambda: python_loop(factions, seeds, bundle), rounds)
    positions = game_positions(Game(factions, seeds[0], bundle=bundle))
    first = positions[0]
    obs = array("q", bytes(8 * first.info.observation_size))
    mask = array("b", bytes(first.info.num_actions))
    return {
        "core": "compiled" if first.compiled else "pure",
        "timer": f"CPU time, best of {max(1, rounds)} rounds",
        "python_loop": loop_figures(n, dt),
        "positions": len(positions),
        "legal_actions_us": per_call_us(positions, lambda g: g.legal_actions(), rounds),
        "observation_vector_us": per_call_us(
            positions, lambda g: g.observation_vector(0, obs), rounds),
        "observation_vector_new_us": per_call_us(
            positions, lambda g: g.observation_vector(0), rounds),
        "mask_us": per_call_us(positions, lambda g: g.action_mask(mask), rounds),
        "clone_us": per_call_us(positions, lambda g: g.clone(), rounds),
        # Core.clone alone: the state (and listing) copied into a new core; the rest of
        # clone_us is the Game around it, mostly its history list, which grows.
        "clone_core_us": per_call_us(positions, lambda g: g._core.clone(), rounds),
    }


def run_pettingzoo(factions: list[str], games: int, seed: int, rounds: int) -> dict:
    """The PettingZoo AEC loop against the plain loop, or why it was not measured."""
    try:
        from .envs import bench as envs_bench
    except ImportError as e:
        return {"skipped": f"needs the rl extra (pip install 'rootlaw[rl]'): {e}"}
    loops = ("plain", "aec", "aec_fresh_observations", "aec_no_observation")
    out = envs_bench.run(factions, games, seed, rounds, loops)
    return {k: out[k] for k in (*loops, "aec_over_plain")}


def run_agents(bundle: Bundle, factions: list[str], seed: int, rounds: int,
               searches: int = 6) -> dict:
    """The heuristic agent's decisions/s (every position with a choice of one seeded
    game the heuristic plays in every seat, CPU time, best of ``rounds``) and the search
    agent's iterations/s at its default budget (``searches`` of those positions, spread
    over the game), with where the search's time goes."""
    from .agents import HeuristicAgent
    from .search import ISMCTSAgent

    played = game_positions(Game(factions, seed, bundle=bundle), HeuristicAgent(seed))
    positions = [g for g in played if not g.is_over and len(g.legal_actions()) > 1]

    def heuristic() -> int:
        agent = HeuristicAgent(seed)
        for g in positions:
            agent.choose(g, g.legal_actions())
        return len(positions)

    n, dt = best_cpu(heuristic, rounds)
    step = max(1, len(positions) // searches)
    search = ISMCTSAgent(seed)
    t0 = time.process_time()
    for g in positions[::step][:searches]:
        search.choose(g, g.legal_actions())
    cpu = max(time.process_time() - t0, 1e-9)
    t = search.timing
    parts = {k: t[k] for k in ("determinize", "priors", "rollout")}
    parts["tree"] = max(0.0, t["total"] - sum(parts.values()))
    return {"heuristic": {**loop_figures(n, dt), "positions": len(positions)},
            "ismcts": {"budget": f"{search.iterations} iterations, rollout {search.rollout}",
                       "searches": min(searches, len(positions[::step])),
                       "iterations": search.searched,
                       "iterations_per_s": round(search.searched / cpu),
                       "ms_per_decision": round(cpu / max(1, min(searches, len(positions)))
                                                * 1e3, 1),
                       "time_share": {k: round(v / max(t["total"], 1e-9), 3)
                                      for k, v in parts.items()}}}


def default_workloads(bundle: Bundle) -> list[list[str]]:
    """The seatings measured when none is named: the bundle's first two factions (in
    setup order) and, when it has three or more, its first three."""
    ids = [f.id for f in bundle.factions]
    return [ids[:n] for n in (2, 3) if len(ids) >= n]


def run_playouts(bundle: Bundle, factions: list[str], seeds: list[int],
                 min_seconds: float) -> dict:
    """Random playouts of the seeded games on the compiled core (repeated until
    ``min_seconds`` have passed) and once on the pure core; their speedup."""
    out: dict = {"factions": factions}
    compiled_game = Game(factions, seeds[0], bundle=bundle, pure=False)
    for name, pure in (("compiled", False), ("pure", True)):
        if name == "compiled" and not compiled_game.compiled:
            out["compiled"] = None
            continue
        rounds_played = 0
        dec = played = 0
        t0 = time.perf_counter()
        while True:
            d, n = _run(bundle, factions, seeds, pure)
            dec += d
            played += n
            rounds_played += 1
            elapsed = time.perf_counter() - t0
            if pure or elapsed >= min_seconds:
                break
        out[name] = {"decisions": dec, "games": played, "rounds": rounds_played,
                     "seconds": round(elapsed, 4),
                     "decisions_per_s": dec / elapsed, "games_per_s": played / elapsed}
    if out.get("compiled") and out.get("pure"):
        out["speedup"] = out["compiled"]["decisions_per_s"] / out["pure"]["decisions_per_s"]
    else:
        out["speedup"] = None
    return out


def run_bench(bundle: Bundle, factions: list[str] | list[list[str]] | None = None, *,
              games: int = 20, seed: int = 1, min_seconds: float = 1.0, rounds: int = 5,
              pettingzoo: bool = True, agents: bool = True) -> dict:
    """Every figure of ``rootlaw bench``.  ``factions``: one seating, several (each a
    workload of playouts; the API and PettingZoo figures use the first), or None for
    ``default_workloads``."""
    given: list = list(factions or [])
    if given and all(isinstance(f, str) for f in given):  # one seating, as faction ids
        workloads = [given]
    else:
        workloads = [list(w) for w in given] or default_workloads(bundle)
    seeds = list(range(seed, seed + games))
    first = workloads[0]
    out: dict = {"games": games, "seed": seed, "factions": first, "bundle": bundle.hash}
    measured = [run_playouts(bundle, w, seeds, min_seconds) for w in workloads]
    out.update({k: measured[0][k] for k in ("compiled", "pure", "speedup")})
    out["workloads"] = measured
    out["api"] = run_api(bundle, first, seeds, rounds)
    out["agents"] = [{"factions": w, **run_agents(bundle, w, seed, rounds)}
                     for w in workloads] if agents else {"skipped": "not asked (--no-agents)"}
    if pettingzoo and bundle.hash == _base_hash():
        out["pettingzoo"] = run_pettingzoo(first, games, seed, rounds)
    else:
        out["pettingzoo"] = {"skipped": "measured on the base game only" if pettingzoo
                             else "not asked (--no-pettingzoo)"}
    return out


def _base_hash() -> str:
    from .game import base_bundle

    return base_bundle().hash


def text(result: dict) -> list[str]:
    """The result in lines for people."""
    lines = []
    for i, w in enumerate(result.get("workloads") or [result]):
        if i:
            lines.append(f"-- {len(w['factions'])} players: {', '.join(w['factions'])}")
        else:
            lines.append(f"-- {len(result['factions'])} players: "
                         f"{', '.join(result['factions'])}")
        for path in ("compiled", "pure"):
            r = w.get(path)
            if r:
                lines.append(f"{path}: {r['decisions_per_s']:.0f} decisions/s, "
                             f"{r['games_per_s']:.2f} games/s ({r['decisions']} decisions)")
        if w.get("speedup"):
            lines.append(f"speedup: {w['speedup']:.1f}x")
    api = result.get("api")
    if api:
        loop = api["python_loop"]
        lines.append(f"python loop ({api['core']} core): {loop['decisions_per_s']} decisions/s, "
                     f"{loop['us_per_decision']:.2f} us/decision "
                     "(legal_actions + RandomAgent + apply)")
        lines.append(f"per call ({api['positions']} positions, {api['timer']}): "
                     f"legal_actions {api['legal_actions_us']:.3f} us, "
                     f"observation_vector {api['observation_vector_us']:.3f} us "
                     f"(new array {api['observation_vector_new_us']:.3f} us), "
                     f"mask {api['mask_us']:.3f} us, clone {api['clone_us']:.3f} us "
                     f"(core {api['clone_core_us']:.3f} us)")
    for ag in result.get("agents") or []:
        if not isinstance(ag, dict) or "heuristic" not in ag:
            continue
        h, m = ag["heuristic"], ag["ismcts"]
        share = ", ".join(f"{k} {100 * v:.0f}%" for k, v in m["time_share"].items())
        lines.append(f"agents ({', '.join(ag['factions'])}): heuristic {h['decisions_per_s']} "
                     f"decisions/s ({h['us_per_decision']:.0f} us a decision, "
                     f"{h['positions']} positions); ismcts ({m['budget']}) "
                     f"{m['iterations_per_s']} iterations/s, {m['ms_per_decision']:.0f} ms a "
                     f"decision (time: {share})")
    pz = result.get("pettingzoo")
    if pz and "skipped" not in pz:
        lines.append(f"pettingzoo AEC loop: {pz['aec']['us_per_decision']:.2f} us/decision, "
                     f"{pz['aec_over_plain']:.2f}x the plain loop "
                     f"({pz['plain']['us_per_decision']:.2f} us); new arrays at every "
                     f"observation {pz['aec_fresh_observations']['us_per_decision']:.2f} us, "
                     f"without observing {pz['aec_no_observation']['us_per_decision']:.2f} us")
    elif pz:
        lines.append(f"pettingzoo: skipped ({pz['skipped']})")
    return lines
