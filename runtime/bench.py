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
- ``against`` (``--against CORE``): this build's compiled core and another build's
  (a core of the same rules compiled by another version of rootlaw: the one a change
  started from), their playouts measured in alternating rounds in one process, so a
  busy machine slows both alike; their ratio per workload (``run_against``).
- ``openspiel``: the seeded games through the OpenSpiel game (``legal_actions()``,
  ``apply_action()``: ``rootlaw.runtime.envs.openspiel.random_games``), against the
  plain loop's decisions/s (``of_plain``), when the ``rl`` extra is installed.

Every figure is measured alike: CPU time (``time.process_time``) of one round, the best
of ``rounds`` rounds (a machine shared with other work only ever slows a round down).  A
round of playouts is the seeded games once (the compiled core plays at least ``rounds``
rounds and on until ``min_seconds`` of CPU time have passed); a round of the Python loop
is the same games through the API.  Each figure's ``timer`` and ``timed`` say so in the
JSON, and each line of ``text`` says its unit, clock and what was timed.
"""

from __future__ import annotations

import importlib.util
import time
from array import array
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from rootlaw.spec import Bundle

from .agents import RandomAgent
from .core import load_core
from .errors import RootlawError
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
        "timer": timer(rounds),
        "python_loop": {**loop_figures(n, dt), "timed": LOOP_TIMED},
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
        return {"skipped": str(e)}  # EXTRA-MISSING: ... needs ... (the rl extra): pip ...
    loops = ("plain", "aec", "aec_fresh_observations", "aec_no_observation")
    out = envs_bench.run(factions, games, seed, rounds, loops)
    return {k: out[k] for k in ("timer", *loops, "aec_over_plain")}


OPENSPIEL_TIMED = ("each seeded game through OpenSpiel: new_initial_state(), then "
                   "legal_actions(), RandomAgent.choose, apply_action() to the end")


def run_openspiel(factions: list[str], games: int, seed: int, rounds: int,
                  plain: dict) -> dict:
    """The OpenSpiel loop, against the plain loop's figures (``plain``), or why it was
    not measured."""
    try:
        from .envs import openspiel as ros
    except ImportError as e:
        return {"skipped": str(e)}
    loop = loop_figures(*best_cpu(lambda: ros.random_games(factions, games, seed), rounds))
    return {"timer": timer(rounds), "timed": OPENSPIEL_TIMED, "loop": loop,
            "of_plain": round(loop["decisions_per_s"] / plain["decisions_per_s"], 3)}


AGENTS_TIMED = ("the heuristic's choose() at every position with a choice of one seeded "
                "game it plays in every seat; the search's choose() at some of them")


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
    chosen = positions[::step][:searches]
    agents: list = []

    def search() -> int:
        # A fresh agent a round, seeded alike: every round searches the same trees.
        agents.append(ISMCTSAgent(seed))
        for g in chosen:
            agents[-1].choose(g, g.legal_actions())
        return agents[-1].searched

    searched, cpu = best_cpu(search, rounds)
    t = agents[-1].timing
    parts = {k: t[k] for k in ("determinize", "priors", "rollout")}
    parts["tree"] = max(0.0, t["total"] - sum(parts.values()))
    return {"timer": timer(rounds), "timed": AGENTS_TIMED,
            "heuristic": {**loop_figures(n, dt), "positions": len(positions)},
            "ismcts": {"budget": f"{agents[-1].iterations} iterations, rollout "
                                 f"{agents[-1].rollout}",
                       "searches": len(chosen),
                       "iterations": searched,
                       "iterations_per_s": round(searched / cpu),
                       "ms_per_decision": round(cpu / max(1, len(chosen)) * 1e3, 1),
                       "time_share": {k: round(v / max(t["total"], 1e-9), 3)
                                      for k, v in parts.items()}}}


def default_workloads(bundle: Bundle) -> list[list[str]]:
    """The seatings measured when none is named: the bundle's first two factions (in
    setup order) and, when it has three or more, its first three."""
    ids = [f.id for f in bundle.factions]
    return [ids[:n] for n in (2, 3) if len(ids) >= n]


def timer(rounds: int) -> str:
    """How every figure is measured, in words."""
    n = max(1, rounds)
    return f"CPU time, best of {n} round{'s' if n != 1 else ''}"


PLAYOUT_TIMED = "Core.playout of each seeded game from its setup (Game() included)"
LOOP_TIMED = "each seeded game through the API: legal_actions(), RandomAgent.choose, apply()"


def run_playouts(bundle: Bundle, factions: list[str], seeds: list[int],
                 min_seconds: float, rounds: int = 3) -> dict:
    """Random playouts of the seeded games on the compiled core and on the pure core,
    each the best of ``rounds`` rounds of CPU time (the compiled core plays on until
    ``min_seconds`` of CPU time have passed, which steadies its far shorter rounds);
    their speedup."""
    out: dict = {"factions": factions}
    compiled_game = Game(factions, seeds[0], bundle=bundle, pure=False)
    rounds = max(1, rounds)
    for name, pure in (("compiled", False), ("pure", True)):
        if name == "compiled" and not compiled_game.compiled:
            out["compiled"] = None
            continue
        best, played, dec, games, round_dec = float("inf"), 0, 0, 0, 0
        start = time.process_time()
        while True:
            t0 = time.process_time()
            round_dec, n = _run(bundle, factions, seeds, pure)
            best = min(best, time.process_time() - t0)
            dec += round_dec
            games += n
            played += 1
            if played >= rounds and (pure or time.process_time() - start >= min_seconds):
                break
        best = max(best, 1e-9)
        out[name] = {"decisions": dec, "games": games, "rounds": played,
                     "round_decisions": round_dec, "round_games": len(seeds),
                     "seconds": round(best, 6), "timer": timer(played), "timed": PLAYOUT_TIMED,
                     "decisions_per_s": round_dec / best, "games_per_s": len(seeds) / best}
    if out.get("compiled") and out.get("pure"):
        out["speedup"] = out["compiled"]["decisions_per_s"] / out["pure"]["decisions_per_s"]
    else:
        out["speedup"] = None
    return out


AGAINST_TIMED = "Core.playout of each seeded game from init_game, in one process"


def load_against(path: str | Path, bundle: Bundle) -> ModuleType:
    """Another build's compiled core of the bundle's rules, to measure against: an
    extension module file, or the cache folder holding one (``rootlaw build`` prints
    where a core is).  Refused (coded) when it is missing, not a core, or a core of
    other rules: a ratio between two rule sets says nothing about the code."""
    from importlib.machinery import EXTENSION_SUFFIXES

    p = Path(path)
    if p.is_dir():
        found = sorted(f for f in p.iterdir() if f.name.startswith("rootlaw_core_")
                       and any(f.name.endswith(x) for x in EXTENSION_SUFFIXES))
        if len(found) != 1:
            raise RootlawError(f"--against {p}: a folder holding one compiled core "
                               f"(rootlaw_core_*{EXTENSION_SUFFIXES[0]}), found "
                               f"{len(found)}", code="FILE-MISSING")
        p = found[0]
    if not p.is_file():
        raise RootlawError(f"--against {p}: no such file", code="FILE-MISSING")
    spec = importlib.util.spec_from_file_location(p.name.split(".")[0], p) \
        if p.name.endswith(tuple(EXTENSION_SUFFIXES)) else None
    if spec is None or spec.loader is None:
        raise RootlawError(f"--against {p}: not a compiled core (an extension module, "
                           f"{EXTENSION_SUFFIXES[0]})", code="VALUE-INVALID")
    try:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except ImportError as e:
        raise RootlawError(f"--against {p}: failed to load ({e})",
                           code="VALUE-INVALID") from None
    if not (hasattr(mod, "Core") and hasattr(mod, "compiled") and mod.compiled()):
        raise RootlawError(f"--against {p}: not a compiled rootlaw core", code="VALUE-INVALID")
    theirs = getattr(mod, "BUNDLE_HASH", None)
    if theirs != bundle.hash:
        raise RootlawError(f"--against {p}: a core of other rules (bundle {theirs}, this "
                           f"bench's {bundle.hash}); compare two builds of one bundle",
                           code="VALUE-INVALID")
    return mod


def _raw_playouts(mod: ModuleType, seats: list[int], seeds: list[int]) -> int:
    """The seeded games played in the core itself (no Game wrapper): the same loop for
    both builds, so their ratio is the cores' alone."""
    decisions = 0
    for s in seeds:
        core = mod.Core(mod.new_state())
        core.init_game(s, seats)
        decisions += core.playout(s, 10_000_000)
    return decisions


def run_against(bundle: Bundle, workloads: list[list[str]], seeds: list[int],
                other: ModuleType, path: str, min_seconds: float, rounds: int) -> dict:
    """Each workload's random playouts on this build's compiled core and on ``other``,
    alternately (this, other, this, other ...), the best round of each: the ratio of
    this to other (above 1: this build is faster)."""
    core = load_core(bundle, pure=False)
    if not core.compiled:
        return {"path": path, "skipped": "no compiled core of this build to measure"}
    mine, names = core.module, core.tables.names["factions"]
    out: list[dict] = []
    for w in workloads:
        seats = [names.index(f) for f in w]
        best = {"this": float("inf"), "other": float("inf")}
        decisions = {"this": 0, "other": 0}
        played, start = 0, time.process_time()
        while played < max(1, rounds) or time.process_time() - start < 2 * min_seconds:
            for key, mod in (("this", mine), ("other", other)):
                t0 = time.process_time()
                decisions[key] = _raw_playouts(mod, seats, seeds)
                best[key] = min(best[key], max(time.process_time() - t0, 1e-9))
            played += 1
        dps = {k: decisions[k] / best[k] for k in best}
        out.append({"factions": w, "rounds": played, "timer": timer(played),
                    "timed": AGAINST_TIMED,
                    "this": {"decisions": decisions["this"], "decisions_per_s": dps["this"]},
                    "other": {"decisions": decisions["other"],
                              "decisions_per_s": dps["other"]},
                    "ratio": dps["this"] / dps["other"],
                    # One bundle's rules on two builds play the same seeded games to the
                    # same decision count; if not, one build changed a rule.
                    "same_games": decisions["this"] == decisions["other"]})
    return {"path": path, "workloads": out}


def run_bench(bundle: Bundle, factions: list[str] | list[list[str]] | None = None, *,
              games: int = 20, seed: int = 1, min_seconds: float = 1.0, rounds: int = 3,
              pettingzoo: bool = True, agents: bool = True,
              against: str | Path | None = None) -> dict:
    """Every figure of ``rootlaw bench``.  ``factions``: one seating, several (each a
    workload of playouts; the API and PettingZoo figures use the first), or None for
    ``default_workloads``; ``against``: another build's compiled core of the same rules
    (``load_against``), measured alternately with this one's (``run_against``)."""
    other = load_against(against, bundle) if against is not None else None
    given: list = list(factions or [])
    if given and all(isinstance(f, str) for f in given):  # one seating, as faction ids
        workloads = [given]
    else:
        workloads = [list(w) for w in given] or default_workloads(bundle)
    seeds = list(range(seed, seed + games))
    first = workloads[0]
    out: dict = {"games": games, "seed": seed, "factions": first, "bundle": bundle.hash}
    out["timer"] = timer(rounds)
    measured = [run_playouts(bundle, w, seeds, min_seconds, rounds) for w in workloads]
    out.update({k: measured[0][k] for k in ("compiled", "pure", "speedup")})
    out["workloads"] = measured
    if other is not None:
        out["against"] = run_against(bundle, workloads, seeds, other, str(against),
                                     min_seconds, rounds)
    out["api"] = run_api(bundle, first, seeds, rounds)
    out["agents"] = [{"factions": w, **run_agents(bundle, w, seed, rounds)}
                     for w in workloads] if agents else {"skipped": "not asked (--no-agents)"}
    if pettingzoo and bundle.hash == _base_hash():
        out["pettingzoo"] = run_pettingzoo(first, games, seed, rounds)
        out["openspiel"] = run_openspiel(first, games, seed, rounds,
                                         out["api"]["python_loop"])
    else:
        why = {"skipped": "measured on the base game only" if pettingzoo
               else "not asked (--no-pettingzoo)"}
        out["pettingzoo"], out["openspiel"] = why, dict(why)
    return out


def _base_hash() -> str:
    from .game import base_bundle

    return base_bundle().hash


def text(result: dict) -> list[str]:
    """The result in lines for people: each says its unit, its clock and what it timed."""
    games = result.get("games")
    lines = [f"every figure: the CPU time (time.process_time) of one round, the best of the "
             f"rounds played; a round plays the {games} seeded games from seed "
             f"{result.get('seed')} once"]
    for i, w in enumerate(result.get("workloads") or [result]):
        factions = w["factions"] if i else result["factions"]
        lines.append(f"-- {len(factions)} players: {', '.join(factions)}")
        for path in ("compiled", "pure"):
            r = w.get(path)
            if r:
                lines.append(f"{path} playout: {r['decisions_per_s']:.0f} decisions/s, "
                             f"{r['games_per_s']:.2f} games/s (Core.playout of {games} "
                             f"seeded games, {r['round_decisions']} decisions; "
                             f"{r['timer']})")
        if w.get("speedup"):
            lines.append(f"speedup: {w['speedup']:.1f}x (compiled over pure playout, "
                         "decisions/s)")
    vs = result.get("against") or {}
    if "skipped" in vs:
        lines.append(f"against {vs['path']}: skipped ({vs['skipped']})")
    for w in vs.get("workloads", []):
        lines.append(f"against {vs['path']} ({len(w['factions'])} players): this build "
                     f"{w['this']['decisions_per_s']:.0f} decisions/s, that one "
                     f"{w['other']['decisions_per_s']:.0f}: x{w['ratio']:.3f} (compiled "
                     f"playouts in alternating rounds, {w['rounds']} each; {w['timer']})")
        if not w["same_games"]:
            lines.append(f"  the two builds played different games ({w['this']['decisions']}"
                         f" and {w['other']['decisions']} decisions): one changed a rule")
    api = result.get("api")
    if api:
        loop = api["python_loop"]
        lines.append(f"python loop ({api['core']} core): {loop['decisions_per_s']} decisions/s, "
                     f"{loop['us_per_decision']:.2f} us/decision (legal_actions + RandomAgent "
                     f"+ apply over the {games} games; {api['timer']})")
        lines.append(f"per call (us per call, averaged over the {api['positions']} positions "
                     f"of one game; {api['timer']}): "
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
        lines.append(f"heuristic agent ({', '.join(ag['factions'])}): {h['decisions_per_s']} "
                     f"decisions/s, {h['us_per_decision']:.0f} us a decision (choose() at "
                     f"the {h['positions']} positions with a choice of a game it plays; "
                     f"{ag['timer']})")
        lines.append(f"search agent ({', '.join(ag['factions'])}): ismcts ({m['budget']}) "
                     f"{m['iterations_per_s']} iterations/s, {m['ms_per_decision']:.0f} ms a "
                     f"decision, time: {share} (choose() at {m['searches']} of those "
                     f"positions; {ag['timer']})")
    pz = result.get("pettingzoo")
    if pz and "skipped" not in pz:
        lines.append(f"pettingzoo AEC loop: {pz['aec']['decisions_per_s']} decisions/s, "
                     f"{pz['aec']['us_per_decision']:.2f} us/decision, "
                     f"{pz['aec_over_plain']:.2f}x the plain loop "
                     f"({pz['plain']['us_per_decision']:.2f} us); new arrays at every "
                     f"observation {pz['aec_fresh_observations']['us_per_decision']:.2f} us, "
                     f"without observing {pz['aec_no_observation']['us_per_decision']:.2f} us "
                     f"(the {games} games; {pz['timer']})")
    elif pz:
        lines.append(f"pettingzoo: skipped ({pz['skipped']})")
    spiel = result.get("openspiel")
    if spiel and "skipped" not in spiel:
        loop = spiel["loop"]
        lines.append(f"openspiel loop: {loop['decisions_per_s']} decisions/s, "
                     f"{loop['us_per_decision']:.2f} us/decision, {spiel['of_plain']:.2f} of "
                     f"the python loop's decisions/s (new_initial_state, legal_actions + "
                     f"RandomAgent + apply_action over the {games} games; {spiel['timer']})")
    elif spiel:
        lines.append(f"openspiel: skipped ({spiel['skipped']})")
    return lines
