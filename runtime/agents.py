"""Agents: something that picks one of the legal actions.

- ``RandomAgent``: uniform, with the core's own stream (the random playouts' agent).
- ``FirstAgent``: the first legal action.
- ``HeuristicAgent``: a one-ply look-ahead on an evaluation built from what the content
  declares (VP, what a track scores next or every turn, pieces and rule on the map,
  cards, dominance), run in the core.
- ``ISMCTSAgent`` (``rootlaw.runtime.search``): information-set Monte Carlo tree search.

Every agent is generic over content and reproducible from its seed, and none sees more
than its seat's observation: the heuristic and the search run on copies in which what
the seat cannot see (the other hands, face-down zones, the deck's order, the dice to
come) is sampled again (``Game.determinize``), never on the game itself.

An agent is made from a spec, ``name[:key=value[:key=value ...]]`` (``random``,
``heuristic:samples=1:rule=60``), by ``make_agent(spec, seed)``.  One agent
object can play any seat: its stream for a seat is drawn from its seed and the seat
(``seat_seed``), so a game's agents follow from the game seed alone (``table_agents``),
whichever process plays it.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rootlaw.generator.tables import EVAL_TERMS

from . import rng
from .errors import RootlawError

_MASK32 = rng.MASK32
_MASK64 = (1 << 64) - 1


class Agent(Protocol):
    def choose(self, game, legal: list[int]) -> int: ...


class RandomAgent:
    """Uniform random choice with the core's own xorshift32 stream.

    Seeded alike, it makes exactly the choices of the core's fast random playout, so a
    game played decision by decision through the API (with a log) and the same game
    played inside the core end the same way.
    """

    def __init__(self, seed: int):
        self.x = rng.seed_state(seed)

    def _next(self, n: int) -> int:
        self.x = rng.step(self.x)
        return rng.below(self.x, n)

    def choose(self, game, legal: list[int]) -> int:
        # rng.step and rng.below written out: this runs once per decision of every
        # random seat, and three Python calls cost more than the core's whole decision.
        x = self.x
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        self.x = x
        return legal[(x * len(legal)) >> 32]


class FirstAgent:
    """Always the first legal action (deterministic baseline)."""

    def choose(self, game, legal: list[int]) -> int:
        return legal[0]


# ---------------------------------------------------------------------- seeds


def mix64(x: int) -> int:
    """splitmix64's finaliser: nearby integers give unrelated 64-bit numbers."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def seat_seed(seed: int, seat: int) -> int:
    """The seed of an agent's stream for one seat: a function of the agent's seed (for
    a game's agents, the game seed) and the seat only, never of the process or the
    order in which games are played."""
    return mix64(mix64(seed & _MASK64) ^ (seat + 1))


class Streams:
    """One ``random.Random`` per seat, each seeded by ``seat_seed``, made when first used."""

    def __init__(self, seed: int):
        self.seed = seed
        self._by_seat: dict[int, random.Random] = {}

    def __call__(self, seat: int) -> random.Random:
        r = self._by_seat.get(seat)
        if r is None:
            r = self._by_seat[seat] = random.Random(seat_seed(self.seed, seat))
        return r


# ---------------------------------------------------------------------- the evaluation

DEFAULT_WEIGHTS: dict[str, int] = {
    "vp": 100,             # a victory point: the unit (everything is in hundredths of one)
    "income": 150,         # a VP a score_track step scores every turn (an income track)
    "next_step": 25,       # a VP the next piece placed from a track would score
    "draw_bonus": 80,      # a card drawn every turn from a track's draw bonus
    "warrior": 30,         # a warrior on the map
    "boxed": 60,           # a warrior in a box (an officer: an action every turn)
    "building": 80,        # a building on the map
    "token": 40,           # a token on the map
    "rule": 40,            # a clearing ruled (Law 2.5)
    "card": 40,            # a card in hand, up to the faction's hand limit
    "card_over": 10,       # ... beyond it (it will be discarded)
    "column_card": 25,     # a card in a column (the Decree)
    "zone_card": 50,       # a card in a zone (a pile apart from the hand)
    "play_card": 60,       # a card in the play area (crafted persistent cards)
    "dominance": 800,      # an activated dominance card (its VP no longer count) ...
    "dominance_step": 600,  # ... and each step towards winning by it
    "win": 100_000,        # the game won (lost: the negative)
}
"""The evaluation's weights, one per term of ``EVAL_TERMS`` (generator/tables.py; the
core's ``worths`` in core/agent.py.j2 reads them): what a seat's position is worth is the
sum of each term's count times its weight, and a seat's utility is its worth less the
best other seat's.  An agent spec can change any of them (``heuristic:rule=60``)."""


def weights_array(weights: dict[str, int] | None = None) -> array:
    """The weight vector the core reads (int64, in ``EVAL_TERMS`` order)."""
    w = {**DEFAULT_WEIGHTS, **(weights or {})}
    return array("q", [int(w[t]) for t in EVAL_TERMS])


class HeuristicAgent:
    """One-ply look-ahead on the evaluation: for each legal action, the position it
    leads to (the questions it raises answered by 'done' where offered, else at random;
    dice and shuffles sampled ``samples`` times and averaged) is evaluated for the seat
    deciding, and the best action is taken ('done' when nothing is better).  It runs in
    the core, on a determinized copy of the game made from the seat's view: well under a
    millisecond a decision (``rootlaw bench``)."""

    def __init__(self, seed: int = 0, *, samples: int = 2,
                 weights: dict[str, int] | None = None):
        if samples < 1:
            raise RootlawError(f"heuristic: samples must be at least 1, not {samples}",
                               code="VALUE-INVALID")
        self.samples = samples
        self.weights = weights_array(weights)
        self.streams = Streams(seed)

    def choose(self, game, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        seat = game.to_play
        r = self.streams(seat)
        d = game.determinize(seat, r)
        core = d._core
        core.seed_agent(r.getrandbits(32))
        return core.heuristic(self.weights, self.samples)


# ---------------------------------------------------------------------- specs


@dataclass(frozen=True)
class Spec:
    """A parsed agent spec: the agent's name and its options (key -> value text)."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options)])


def parse_spec(text: str) -> Spec:
    """``name[:key=value ...]`` as a Spec; a name or option that is not known is a
    RootlawError (AGENT-INVALID) saying what is."""
    parts = [p.strip() for p in str(text).strip().split(":")]
    name = parts[0]
    if name not in AGENTS:
        raise RootlawError(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})",
                           code="AGENT-INVALID")
    opts = []
    for p in parts[1:]:
        key, eq, value = p.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise RootlawError(f"agent {name}: an option is key=value, not {p!r}",
                               code="AGENT-INVALID")
        opts.append((key.strip(), value.strip()))
    spec = Spec(name, tuple(opts))
    make_agent(spec, 0)  # every option checked now, not at the first game
    return spec


def parse_agents(text: str, seats: int) -> list[Spec]:
    """``--agents``: one spec per seat, separated by commas; one spec alone plays every
    seat."""
    specs = [parse_spec(t) for t in str(text).split(",") if t.strip()]
    if len(specs) == 1:
        specs = specs * seats
    if len(specs) != seats:
        raise RootlawError(f"--agents names {len(specs)} agents for {seats} seats (one per "
                           "seat, or one for all)", code="AGENT-INVALID")
    return specs


def _number(spec: Spec, key: str, value: str, kind: type, low: float):
    try:
        x = kind(value)
    except ValueError:
        raise RootlawError(f"agent {spec.name}: {key} is a number, not {value!r}",
                           code="AGENT-INVALID") from None
    if not x >= low:
        raise RootlawError(f"agent {spec.name}: {key} must be at least {low}, not {value}",
                           code="AGENT-INVALID")
    return x


def _options(spec: Spec, known: dict[str, tuple[type, float]],
             choices: dict[str, tuple[str, ...]] | None = None,
             weights: bool = False) -> tuple[dict, dict[str, int]]:
    """A spec's options read against what its agent takes: numbers (type, least value),
    choices, and (weights=True) evaluation weights by term name."""
    out: dict = {}
    w: dict[str, int] = {}
    for key, value in spec.options:
        if key in known:
            out[key] = _number(spec, key, value, *known[key])
        elif choices and key in choices:
            if value not in choices[key]:
                raise RootlawError(f"agent {spec.name}: {key} is one of "
                                   f"{', '.join(choices[key])}, not {value!r}",
                                   code="AGENT-INVALID")
            out[key] = value
        elif weights and key in DEFAULT_WEIGHTS:
            w[key] = _number(spec, key, value, int, -(10**9))
        else:
            takes = [*known, *(choices or {}), *(["<evaluation term>"] if weights else [])]
            raise RootlawError(f"agent {spec.name}: no option {key!r} (options: "
                               f"{', '.join(takes) or 'none'})", code="AGENT-INVALID")
    return out, w


def _random(spec: Spec, seed: int):
    _options(spec, {})
    return SeatedRandom(seed)


def _first(spec: Spec, seed: int):
    _options(spec, {})
    return FirstAgent()


def _heuristic(spec: Spec, seed: int):
    opts, w = _options(spec, {"samples": (int, 1)}, weights=True)
    return HeuristicAgent(seed, weights=w, **opts)


def _ismcts(spec: Spec, seed: int):
    from .search import ISMCTSAgent, spec_options

    opts, w = _options(spec, *spec_options(), weights=True)
    return ISMCTSAgent(seed, weights=w, **opts)


AGENTS: dict[str, Callable[[Spec, int], Agent]] = {
    "random": _random, "first": _first, "heuristic": _heuristic, "ismcts": _ismcts}
"""The agents a spec can name, and how each is made from its options and a seed."""


class SeatedRandom:
    """The random agent of a mixed table: a ``RandomAgent`` per seat, seeded by
    ``seat_seed``.  (A table of random agents alone plays as ``rootlaw play`` always
    has: one ``RandomAgent`` seeded with the game seed, as the core's fast playout.)"""

    def __init__(self, seed: int):
        self.seed = seed
        self._by_seat: dict[int, RandomAgent] = {}

    def choose(self, game, legal: list[int]) -> int:
        seat = game.to_play
        a = self._by_seat.get(seat)
        if a is None:
            a = self._by_seat[seat] = RandomAgent(seat_seed(self.seed, seat))
        return a.choose(game, legal)


def make_agent(spec: Spec | str, seed: int = 0) -> Agent:
    """The agent a spec names, seeded."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    return AGENTS[spec.name](spec, seed)


def all_random(specs: Sequence[Spec]) -> bool:
    """A table of random agents only: it plays inside the core (the fast path)."""
    return all(s.name == "random" and not s.options for s in specs)


def table_agents(specs: Sequence[Spec], seed: int) -> list[Agent]:
    """The agents of a game of seed ``seed``, one per seat.  All random: one
    ``RandomAgent(seed)`` for every seat (the core's playout, the game ``rootlaw play``
    has always played); else each seat's agent made from the game seed (its streams per
    seat follow from the seed and the seat)."""
    if all_random(specs):
        return [RandomAgent(seed)] * len(specs)
    return [make_agent(s, seed) for s in specs]


def policy(spec: Spec | str) -> Callable[[int], Agent]:
    """A seat policy for the environments: makes the agent from the game seed
    (Gymnasium's ``opponent=``, PettingZoo's ``seat_policy=``)."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    return lambda seed: make_agent(parsed, seed)


__all__ = ["AGENTS", "DEFAULT_WEIGHTS", "Agent", "FirstAgent", "HeuristicAgent",
           "RandomAgent", "SeatedRandom", "Spec", "make_agent", "parse_agents",
           "parse_spec", "policy", "seat_seed", "table_agents", "weights_array"]
