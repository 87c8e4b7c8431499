"""Information-set Monte Carlo tree search (determinized, open loop).

Each iteration samples what the searching seat cannot see (``Game.determinize``: the
other hands, face-down zones, the deck's order and the dice to come, consistent with
what the seat has seen) and walks the tree on that sample: nodes are sequences of
decisions from the position, each edge keyed by the action and the seat that took it,
so one tree gathers what the action is worth over every sample.  At each node the seat
deciding in the sample picks by PUCT: the edge's mean reward for that seat, plus an
exploration term led by a prior, the heuristic's one-ply look-ahead (core/agent.py.j2)
made soft.  A new edge's position is played on by the rollout policy (the heuristic or
random agents, inside the core) to a horizon, then scored by the evaluation: each seat's
reward is a win's 1 or a loss's 0, or, cut off, a logistic of its utility (its worth less
the best other seat's).  The most visited edge of the searching seat is played.

The budget is a number of iterations (reproducible: the same seed, the same choice) or
seconds (as many iterations as fit: not reproducible).
"""

from __future__ import annotations

import math
import time

from .agents import Streams, weights_array
from .errors import RootlawError

ROLLOUTS = ("heuristic", "random")

DEFAULTS = {
    "iterations": 200,
    "seconds": 0.0,        # 0: the iteration budget alone
    "rollout": "heuristic",
    "horizon": 2,          # rollouts stop this many turns on (0: at the leaf itself)
    "depth": 60,           # ... or after this many decisions, whichever comes first
    "c": 1.5,              # PUCT's exploration constant
    "temperature": 100.0,  # the prior: exp(utility gap / temperature), in 1/100 VP
    "scale": 400.0,        # a cut-off reward: logistic(utility / scale), in 1/100 VP
    "samples": 1,          # the heuristic's samples of dice (prior and rollouts)
    "eps": 50,             # rollouts: per mille of random decisions among the heuristic's
}


def spec_options() -> tuple[dict[str, tuple[type, float]], dict[str, tuple[str, ...]]]:
    """What an ``ismcts:`` spec takes: numbers (type, least value) and choices."""
    return ({"iterations": (int, 1), "seconds": (float, 0.0), "horizon": (int, 0),
             "depth": (int, 0), "c": (float, 0.0), "temperature": (float, 1e-9),
             "scale": (float, 1e-9), "samples": (int, 1), "eps": (int, 0)},
            {"rollout": ROLLOUTS})


class Node:
    """A sequence of decisions from the root: its visits, its edges (key action * seats
    + seat -> [visits, reward sum for that seat, the node it leads to, action, seat]),
    and the prior of each action seen legal there."""

    __slots__ = ("edges", "n", "order", "prior")

    def __init__(self):
        self.n = 0
        self.edges: dict[int, list] = {}
        self.prior: dict[int, float] = {}
        self.order: list[int] = []  # actions by prior, best first


class ISMCTSAgent:
    """Information-set MCTS (see the module docstring).  Options (``ismcts:key=value``):
    iterations, seconds, rollout (heuristic or random), horizon (turns), depth
    (decisions), c, temperature, scale, samples, eps; and evaluation weights by term."""

    def __init__(self, seed: int = 0, *, weights: dict[str, int] | None = None, **options):
        unknown = set(options) - set(DEFAULTS)
        if unknown:
            raise RootlawError(f"ismcts: no option {sorted(unknown)[0]!r}",
                               code="AGENT-INVALID")
        o = {**DEFAULTS, **options}
        if o["rollout"] not in ROLLOUTS:
            raise RootlawError(f"ismcts: rollout is one of {', '.join(ROLLOUTS)}",
                               code="AGENT-INVALID")
        self.iterations = int(o["iterations"])
        self.seconds = float(o["seconds"])
        self.rollout = o["rollout"]
        self.horizon = int(o["horizon"])
        self.depth = int(o["depth"])
        self.c = float(o["c"])
        self.temperature = float(o["temperature"])
        self.scale = float(o["scale"])
        self.samples = int(o["samples"])
        self.eps = int(o["eps"])
        self.weights = weights_array(weights)
        self.streams = Streams(seed)
        self.last_iterations = 0  # of the last search (bench, tests)
        # Where the time goes, summed over every search (rootlaw bench): sampling the
        # hidden state, the heuristic's priors, rollouts and evaluation (both in the
        # core), and the rest: the tree walked in Python.
        self.timing = dict.fromkeys(("determinize", "priors", "rollout", "total"), 0.0)
        self.searched = 0  # iterations over every search

    # ------------------------------------------------------------------ the search

    def choose(self, game, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        seat = game.to_play
        r = self.streams(seat)
        root = Node()
        players = game.num_players
        clock = time.perf_counter
        start = clock()
        deadline = start + self.seconds if self.seconds > 0 else None
        timing = self.timing
        i = 0
        while True:
            if deadline is None:
                if i >= self.iterations:
                    break
            elif i > 0 and clock() >= deadline:
                break
            t0 = clock()
            d = game.determinize(seat, r)
            timing["determinize"] += clock() - t0
            self._iterate(d, root, players, r)
            i += 1
        self.last_iterations = i
        self.searched += i
        timing["total"] += clock() - start
        best, most = legal[0], (-1, 0.0)
        for a in legal:  # the most visited; ties: the best mean, then the first listed
            e = root.edges.get(a * players + seat)
            if e is not None and (e[0], e[1] / e[0]) > most:
                best, most = a, (e[0], e[1] / e[0])
        return best

    def _priors(self, node: Node, core, legal: list[int]) -> None:
        """The heuristic's utilities of the legal actions on this sample, made soft, for
        the actions the node has no prior for yet (another sample may allow others)."""
        t0 = time.perf_counter()
        vals = core.heuristic_values(self.weights, self.samples)
        self.timing["priors"] += time.perf_counter() - t0
        top = max(vals)
        t = self.temperature
        for a, v in zip(legal, vals, strict=True):
            if a not in node.prior:
                node.prior[a] = math.exp((v - top) / t)
        node.order = sorted(node.prior, key=node.prior.__getitem__, reverse=True)

    def _iterate(self, d, root: Node, players: int, r) -> None:
        core = d._core
        core.seed_agent(r.getrandbits(32))
        path: list[list] = []
        node = root
        c = self.c
        while True:
            actor = core.deciding()
            if actor < 0:
                break
            legal = core.legal_actions()
            if len(legal) == 1:  # forced: no edge, no node
                core.apply(legal[0])
                continue
            allowed = set(legal)
            if not node.prior or not allowed.issubset(node.prior):
                self._priors(node, core, legal)
            prior = node.prior
            edges = node.edges
            sq = c * math.sqrt(node.n + 1)
            best_key, best_score, best_a = -1, -1.0, -1
            seen_q, seen = 0.0, 0
            for key, ed in edges.items():  # the visited edges of this seat, still legal
                if key % players != actor or ed[3] not in allowed:
                    continue
                q = ed[1] / ed[0]
                seen_q += q
                seen += 1
                score = q + sq * prior[ed[3]] / (1 + ed[0])
                if score > best_score:
                    best_key, best_score, best_a = key, score, ed[3]
            fpu = seen_q / seen - 0.1 if seen else 0.5  # an unvisited edge's value
            for a in node.order:  # the unvisited edge with the highest prior
                key = a * players + actor
                if key not in edges and a in allowed:
                    if fpu + sq * prior[a] > best_score:
                        best_key, best_a = key, a
                    break
            e = edges.get(best_key)
            core.apply(best_a)
            node.n += 1
            if e is None:
                e = edges[best_key] = [0, 0.0, None, best_a, actor]
                path.append(e)
                break
            path.append(e)
            if e[2] is None:
                e[2] = Node()
            node = e[2]
        rewards = self._leaf(d, players)
        for e in path:
            e[0] += 1
            e[1] += rewards[e[4]]

    def _leaf(self, d, players: int) -> list[float]:
        """Play the leaf's position on to the horizon, then each seat's reward."""
        core = d._core
        t0 = time.perf_counter()
        if core.deciding() >= 0 and (self.horizon > 0 or self.depth > 0):
            stop = d.turn + self.horizon if self.horizon > 0 else 0
            if self.rollout == "random":
                core.play_on(self.depth or 10**9, stop)
            else:
                core.play_heuristic(self.weights, self.samples, self.eps,
                                    self.depth or 10**9, stop)
        winner = d.winner if d.is_over else None
        if winner is not None:
            self.timing["rollout"] += time.perf_counter() - t0
            return [1.0 if p == winner else 0.0 for p in range(players)]
        worth = core.worth_of_seats(self.weights)
        self.timing["rollout"] += time.perf_counter() - t0
        out = []
        for p in range(players):
            other = max(worth[q] for q in range(players) if q != p)
            x = (worth[p] - other) / self.scale
            out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x)))))
        return out
