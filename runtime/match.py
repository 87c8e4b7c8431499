"""Strength by simulation: a seat-balanced match between two agents, and a round robin
of a bundle's factions with one agent in every seat (``rootlaw simulate --match A,B``,
``rootlaw simulate --round-robin``).

A match plays, for each seat in turn, ``games`` seeded games with agent A in that seat
and agent B in every other (the same seeds in every seating, so each deal is played from
both sides), and reports A's win rate in each seating and over all of them with 95%
Wilson intervals.  A round robin plays every table of two or more of the factions given
(the pairs, the three together ...) with the agent in every seat, and beside it the same
tables with random agents: win rates per faction and per place in the turn order.

Each table is one ``simulate`` run (runtime/simulate.py): the same results on every
backend for the same seed.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

from .agents import parse_spec
from .errors import RootlawError
from .simulate import DIGITS, simulate, summary, wilson_interval

FORMAT = "rootlaw-match/1"
BASELINE_GAMES = 10_000
"""Random games per table beside a round robin's (cheap: they run inside the core)."""


def _r(x: float) -> float:
    return round(x, DIGITS)


def _rate(wins: int, games: int) -> dict:
    lo, hi = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_rate": _r(wins / games) if games else None,
            "win_rate_ci95": [_r(lo), _r(hi)] if games else None}


@contextlib.contextmanager
def _ray_session(ray: str | None, jobs: int | None) -> Iterator[None]:
    """One Ray session for all the tables (each simulate call would start its own)."""
    if not ray:
        yield
        return
    from .simulate import _ray_init

    started = _ray_init(ray, jobs)
    try:
        yield
    finally:
        if started:
            import ray as ray_mod
            ray_mod.shutdown()


def match(bundle, factions: list[str], a: str, b: str, *, games: int, seed: int = 0,
          jobs: int | None = None, ray: str | None = None, max_decisions: int = 1_000_000,
          pure: bool | None = None, on_table: Callable[[str], None] | None = None) -> dict:
    """A seat-balanced match of agent A against agent B (specs) at a table of
    ``factions``: ``games`` games per seating, A in each seat in turn."""
    a, b = str(parse_spec(a)), str(parse_spec(b))
    n = len(factions)
    seatings = []
    total_a = total_b = total = 0
    t0 = time.perf_counter()
    with _ray_session(ray, jobs):
        for k in range(n):
            specs = [a if q == k else b for q in range(n)]
            if on_table:
                on_table(f"{factions[k]}: {a}; the others: {b}")
            t1 = time.perf_counter()
            sim = simulate(bundle, factions, games=games, seed=seed, jobs=jobs, ray=ray,
                           max_decisions=max_decisions, pure=pure, agents=specs)
            if sim.interrupted:
                raise KeyboardInterrupt
            data = summary(sim)
            won_a = data["results"][factions[k]]["wins"]
            won_b = sum(data["results"][f]["wins"] for q, f in enumerate(factions) if q != k)
            played = data["games"]
            seatings.append({"seat": k, "faction": factions[k], "agents": specs,
                             "a": _rate(won_a, played), "b": _rate(won_b, played),
                             "stopped": data["outcomes"]["stopped"],
                             "turn_order": data["turn_order"],
                             "mean_vp": {f: r["mean_vp"] for f, r in data["results"].items()},
                             "decisions": data["length"]["decisions"]["mean"],
                             "seconds_per_game": _r((time.perf_counter() - t1) / played)})
            total_a += won_a
            total_b += won_b
            total += played
    return {"format": FORMAT, "kind": "match", "bundle": bundle.hash, "factions": factions,
            "a": a, "b": b, "seed": seed, "games_per_seating": games,
            "seeds": "in every seating, game i uses seed + i",
            "confidence": {"level": 0.95, "method": "wilson"},
            "result": {"a": _rate(total_a, total), "b": _rate(total_b, total)},
            "seatings": seatings, "seconds": _r(time.perf_counter() - t0)}


def tables(factions: list[str]) -> list[list[str]]:
    """Every table of two or more of the factions, in their order (the pairs first)."""
    return [list(c) for k in range(2, len(factions) + 1)
            for c in itertools.combinations(factions, k)]


def round_robin(bundle, factions: list[str], agent: str, *, games: int, seed: int = 0,
                jobs: int | None = None, ray: str | None = None,
                max_decisions: int = 1_000_000, pure: bool | None = None,
                baseline_games: int = BASELINE_GAMES,
                on_table: Callable[[str], None] | None = None) -> dict:
    """Every table of the factions with ``agent`` in every seat (``games`` each), and the
    same tables with random agents (``baseline_games`` each; 0: none)."""
    if len(factions) < 2:
        raise RootlawError("a round robin needs two factions or more", code="VALUE-INVALID")
    agent = str(parse_spec(agent))
    out = []
    t0 = time.perf_counter()
    with _ray_session(ray, jobs):
        for table in tables(factions):
            row: dict[str, Any] = {"factions": table}
            for name, spec, n in (("agent", agent, games), ("random", "random", baseline_games)):
                if n <= 0:
                    continue
                if on_table:
                    on_table(f"{', '.join(table)}: {spec} in every seat, {n} games")
                t1 = time.perf_counter()
                sim = simulate(bundle, table, games=n, seed=seed, jobs=jobs, ray=ray,
                               max_decisions=max_decisions, pure=pure,
                               agents=[spec] * len(table))
                if sim.interrupted:
                    raise KeyboardInterrupt
                data = summary(sim)
                row[name] = {"spec": spec, "games": data["games"],
                             "results": {f: _rate(r["wins"], data["games"])
                                         for f, r in data["results"].items()},
                             "turn_order": data["turn_order"],
                             "stopped": data["outcomes"]["stopped"],
                             "mean_vp": {f: r["mean_vp"] for f, r in data["results"].items()},
                             "decisions": data["length"]["decisions"]["mean"],
                             "seconds_per_game": _r((time.perf_counter() - t1) / data["games"])}
            out.append(row)
    return {"format": FORMAT, "kind": "round_robin", "bundle": bundle.hash,
            "factions": factions, "agent": agent, "seed": seed, "games": games,
            "baseline_games": baseline_games, "seeds": "at every table, game i uses seed + i",
            "confidence": {"level": 0.95, "method": "wilson"}, "tables": out,
            "seconds": _r(time.perf_counter() - t0)}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ci(r: dict) -> str:
    ci = r["win_rate_ci95"]
    return "-" if ci is None else f"{_pct(ci[0])} - {_pct(ci[1])}"


def format_match(data: dict) -> str:
    """A match for people: A's win rate in each seating and over all."""
    lines = [f"match: {data['a']} (A) vs {data['b']} (B) at {', '.join(data['factions'])}, "
             f"{data['games_per_seating']} games per seating (seeds {data['seed']}..)"]
    for s in data["seatings"]:
        a = s["a"]
        lines.append(f"  A as {s['faction']:<10} {a['wins']:>5}/{a['games']:<5} "
                     f"{_pct(a['win_rate']):>6}  95% CI {_ci(a):<17} "
                     f"({s['seconds_per_game']:.2f} s a game, {s['stopped']} stopped)")
    a, b = data["result"]["a"], data["result"]["b"]
    lines.append(f"A: {a['wins']}/{a['games']} {_pct(a['win_rate'])} (95% CI {_ci(a)}); "
                 f"B: {b['wins']}/{b['games']} {_pct(b['win_rate'])} (95% CI {_ci(b)})")
    return "\n".join(lines)


def format_round_robin(data: dict) -> str:
    """A round robin for people: each table's win rates, the agent's beside random's."""
    lines = [f"round robin: {data['agent']} in every seat, {data['games']} games a table "
             f"(random agents: {data['baseline_games']}), seeds {data['seed']}.."]
    for t in data["tables"]:
        lines.append(f"-- {', '.join(t['factions'])}")
        for name in ("agent", "random"):
            r = t.get(name)
            if not r:
                continue
            cells = "  ".join(f"{f} {_pct(x['win_rate'])} ({_ci(x)})"
                              for f, x in r["results"].items())
            order = ", ".join(_pct(x["win_rate"]) for x in r["turn_order"])
            lines.append(f"  {r['spec']:<12} {cells}; by turn order {order}; "
                         f"{r['seconds_per_game']:.2f} s a game")
    return "\n".join(lines)


__all__ = ["BASELINE_GAMES", "FORMAT", "format_match", "format_round_robin", "match",
           "round_robin", "tables"]
