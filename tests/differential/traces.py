"""The differential traces (issue 12: the rules rewritten as programs must play exactly
today's games): seeded random games of the base mixes, each decision reduced to a hash
of what it offered and where it left the game, chained over the game.

What is compared is the game as the Law sees it, not the engine's layout: the legal
actions by their notation (sorted: the listing's order is the engine's), then after the
chosen one the board, ruins, supplies, boxes, VP, where every card is and the deck's
order, items, crafted items, roles, dominance, cycles, effects used, hands seen, the
battle in progress, whose turn and phase it is, who decides now and about what, and the
game's random stream.  The random agent picks among the notations in sorted order, so a
rules engine that lists the same actions in another order plays the same game.

    python tests/differential/traces.py record   # writes tests/differential/*.trace

Each line of a .trace file: seed, decisions, the chained hash after every CHECK-th
decision and at the end (hex).
"""

from __future__ import annotations

import hashlib
import random
import sys
from array import array
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECK = 100  # decisions between stored hashes: a divergence is found within so many
TABLES = (("marquise", "eyrie"), ("eyrie", "alliance"), ("alliance", "marquise"),
          ("marquise", "eyrie", "alliance"), ("alliance", "eyrie", "marquise"),
          ("eyrie", "marquise", "alliance"))
GAMES = 1000
MAX_DECISIONS = 20_000
# The state the Law sees (names of the state layout, generator/tables.py).
FIELDS = ("RNG", "NPLAYERS", "CURRENT", "PHASE", "OVER", "WINNER", "TURN", "FIRST",
          "SEAT_FACTION", "VP", "HOME", "ROLE", "ROLES_RETIRED", "DOMINANCE", "CRAFT_USED",
          "BOARD", "RUINS", "SUPPLY", "OUT", "BOX", "CARD_LOC", "DECK_LEN", "ITEMS",
          "CRAFTED", "USED", "SEEN", "SEEN_TURN", "B_STAGE", "B_ATT", "B_DEF", "B_AT",
          "B_ROLL_ATT", "B_ROLL_DEF", "B_EXTRA_ATT", "B_EXTRA_DEF", "B_IGNORE_ATT",
          "B_IGNORE_DEF", "CYCLE")


def path_of(table: tuple[str, ...]) -> Path:
    return HERE / ("-".join(table) + ".trace")


def _slices(g) -> list[tuple[int, int]]:
    S, sizes = g.S, g._core_module.tables.state_layout.sizes
    return [(S[f], S[f] + sizes[f]) for f in FIELDS]


def play(table: tuple[str, ...], seed: int) -> tuple[int, list[str]]:
    """One game: (decisions, the chained hashes every CHECK decisions and at the end)."""
    from rootlaw.runtime import Game

    g = Game(list(table), seed)
    rng = random.Random(seed)
    slices = _slices(g)
    deck, deck_len = g.S["DECK"], g.S["DECK_LEN"]
    words: dict[tuple[int, int], str] = {}
    chain = hashlib.blake2b(f"{'-'.join(table)} {seed}".encode(), digest_size=8).digest()
    marks = []
    n = 0
    while not g.is_over and n < MAX_DECISIONS:
        who = g.to_play
        named = []
        for a in g.legal_actions():
            key = (a, who)
            w = words.get(key)
            if w is None:
                w = words[key] = g.notation(a)
            named.append((w, a))
        named.sort()
        w, a = named[rng.randrange(len(named))]
        g.apply(a)
        n += 1
        st = g.state
        view = array("q")
        for lo, hi in slices:
            view.extend(st[lo:hi])
        view.extend(st[deck:deck + st[deck_len]])
        h = hashlib.blake2b(chain, digest_size=8)
        h.update("\n".join(x for x, _ in named).encode())
        h.update(view.tobytes())
        h.update(f"{g.decision}/{-1 if g.is_over else g.to_play}".encode())
        chain = h.digest()
        if n % CHECK == 0:
            marks.append(chain.hex())
    marks.append(chain.hex())
    return n, marks


def line(seed: int, n: int, marks: list[str]) -> str:
    return f"{seed} {n} {' '.join(marks)}"


def record(games: int = GAMES) -> None:
    for table in TABLES:
        rows = [line(seed, *play(table, seed)) for seed in range(1, games + 1)]
        path_of(table).write_text("\n".join(rows) + "\n", encoding="ascii")
        print(f"wrote {path_of(table)} ({games} games)")


if __name__ == "__main__":
    if sys.argv[1:] != ["record"]:
        sys.exit(__doc__)
    record()
