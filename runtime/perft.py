"""Perft: count the decision sequences of a given length from a position.

Chess engines are checked by ``perft``: the number of move sequences of depth d from a
fixed position, compared with known counts; a mismatch is narrowed down with ``divide``
(the count below each first move).  Here the same counts every legal decision (dice and
draws come from the seeded stream in the state, so the tree is fixed).  A finished game
is a leaf.  ``tests/perft/*.perft`` keeps counts for fixed positions: any change to what
is legal anywhere in those trees shows up, not only on the path one game happens to take.
"""

from __future__ import annotations

from .agents import RandomAgent
from .game import Game


def perft(g: Game, depth: int) -> int:
    """Decision sequences of length ``depth`` from g (shorter ones that end the game
    count once)."""
    if depth == 0 or g.is_over:
        return 1
    legal = g.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for a in legal:
        h = g.clone()
        h.apply(a)
        total += perft(h, depth - 1)
    return total


def divide(g: Game, depth: int) -> dict[str, int]:
    """perft below each first decision, by notation."""
    out = {}
    for a in g.legal_actions():
        h = g.clone()
        h.apply(a)
        out[g.notation(a)] = perft(h, depth - 1)
    return out


def position(factions: list[str], seed: int, after: int, **kw) -> Game:
    """The position after ``after`` decisions of RandomAgent(seed) in game ``seed``."""
    g = Game(factions, seed, **kw)
    agent = RandomAgent(seed)
    for _ in range(after):
        if g.is_over:
            break
        g.apply(agent.choose(g, g.legal_actions()))
    return g


def parse_file(text: str) -> list[tuple[dict, list[tuple[int, int]], int]]:
    """(setup, [(depth, nodes)], line) entries of a .perft file: ``setup k=v ...`` opens
    a position (factions, seed, after), ``perft DEPTH NODES`` lines follow; ``#`` starts
    a comment."""
    entries: list[tuple[dict, list[tuple[int, int]], int]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, *rest = line.split()
        if word == "setup":
            setup = dict(kv.split("=", 1) for kv in rest)
            entries.append((setup, [], n))
        elif word == "perft" and entries and len(rest) == 2 and \
                all(x.isdigit() for x in rest):
            entries[-1][1].append((int(rest[0]), int(rest[1])))
        else:
            raise ValueError(f"line {n}: expected 'setup k=v ...' or 'perft DEPTH NODES'")
    return entries
