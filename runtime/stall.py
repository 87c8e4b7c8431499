"""Progress and stalls: when a game has stopped getting anywhere.

A game ends when a faction reaches 30 VP (Law 3.1) or wins by dominance (Law 3.3.1).
*Progress* is a faction reaching a VP it has not had before in the game.  VP can be lost
(turmoil, Law 7.7.2; negative scores), so getting them back is not progress; with at
most 30 new VP per faction before somebody wins, progress cannot go on for ever without
a winner.  A turn in which no faction makes progress is a *stalled turn*; a game whose
last ``STALL_ROUNDS`` rounds were all stalled is *stuck*: its table has frozen so that,
as far as its players' decisions reach, nobody can score.

Random games have a long legal tail, and it is made of stalls: of 120,000 seeded
three-player games of the base game (docs/simulate.md), 297 stalled over 100 rounds, 19
over 1,000 and the longest for 4,850 rounds before it ended.  Such a table has frozen so
that only one faction can still score, and it seldom manages to (docs/simulate.md tells
one such game).  Above 1,000 rounds the measured stalls thin out by about a factor e
every 1,900 rounds, so:

- ``STALL_ROUNDS`` (``rootlaw check``, one game judged alone) is 20,000 rounds: by that
  fall-off, about one legal game in a hundred million would stall so long;
- ``PROBE_STALL_ROUNDS`` (``rootlaw validate``'s seeded games) is 500 rounds: content is
  found stuck only when *every* game of the probe stalls that long, and on the base
  game one in 5,000 does (three at once: about one in 10^11).

A dominance win needs no VP (Law 3.3.1), so a game can also end after a long stall;
the measurements count those too.

``simulate`` counts stalled turns and the longest stall of each game, ``check`` fails a
game that is stuck (not one that is merely long), and ``validate`` plays a few seeded
games of a pack and names what stalls (runtime/probe.py).
"""

from __future__ import annotations

from collections.abc import Sequence

STALL_ROUNDS = 20_000
"""Rounds without progress after which one game is stuck (``rootlaw check``)."""
PROBE_STALL_ROUNDS = 500
"""The same for the seeded games ``rootlaw validate`` plays (all of them must stall)."""


class Progress:
    """One game followed turn by turn: each seat's best VP so far, the stalled turns,
    the run of stalled turns going on, the longest one and where it began."""

    __slots__ = ("best", "stalled", "run", "longest", "run_start", "longest_start")

    def __init__(self, vp: Sequence[int]):
        self.best = list(vp)
        self.stalled = 0
        self.run = 0
        self.longest = 0
        self.run_start = 0  # the first turn of the run going on
        self.longest_start = 0

    def turn(self, number: int, vp: Sequence[int]) -> bool:
        """Turn ``number`` ended with these VP: whether a seat made progress in it."""
        moved = False
        for p, v in enumerate(vp):
            if v > self.best[p]:
                self.best[p] = v
                moved = True
        if moved:
            self.run = 0
            return True
        if self.run == 0:
            self.run_start = number
        self.stalled += 1
        self.run += 1
        if self.run > self.longest:
            self.longest = self.run
            self.longest_start = self.run_start
        return False

    def stuck(self, players: int, rounds: int = STALL_ROUNDS) -> bool:
        """The last ``rounds`` rounds (of ``players`` turns each) were all stalled."""
        return self.run >= rounds * players


def rounds_of(turns: int, players: int) -> int:
    """Turns as rounds, rounded up (a round is every seat's turn once)."""
    return -(-turns // max(players, 1))


__all__ = ["PROBE_STALL_ROUNDS", "STALL_ROUNDS", "Progress", "rounds_of"]
