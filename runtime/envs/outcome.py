"""Rewards, the same for every environment: at the end of a game, and shaped by VP.

- A winner gets ``WIN`` (+1); every other seat gets ``LOSS`` (-1).
- A coalition wins together: every partner of the winning seat counts as a winner
  (Law 9.2.8: with 4+ players a dominance card can form a coalition instead).  The
  engine has no coalitions yet, so today there are no partners, but the rule is
  written here and tested with coalitions given explicitly.
- A game stopped before it ends (a decision cap, a per-agent budget) gives ``STOPPED``
  (0) to every seat still playing, and the environments set their truncation flags.

Why -1 for a loss rather than 0: a two-player game without coalitions is then zero-sum,
so two-player self-play methods (value targets in [-1, 1], MCTS proven wins at the
maximum utility) apply unchanged, and a stopped game (0) lies halfway between a win and
a loss instead of counting as a loss.  The price: a losing agent gains by stalling a
game to its cap, so keep caps far above real game lengths when training (``rootlaw
play --games N --json`` reports mean decisions per game).

Shaped rewards (``reward="vp"`` in the environments; the default ``"terminal"`` gives
the rewards above alone): at every step an agent also gets the VP it gained since its
previous reward, divided by the victory total (30 VP: 1.0; VP lost counts negative), so
an agent's shaped return is its final VP / 30 plus the terminal reward.  The VP credit
the decisions that score at once, where the terminal reward reaches a decision only
through the rest of the game; but they also pay for points that do not win, so the
terminal reward stays the measure of play (against the random agent,
examples/rl/reinforce.py learns faster without the shaping: docs/agents.md).
"""

from __future__ import annotations

from collections.abc import Iterable

WIN = 1.0
LOSS = -1.0
STOPPED = 0.0
REWARDS = ("terminal", "vp")  # the environments' reward= choices


def winning_seats(winner: int | None, coalitions: Iterable[Iterable[int]] = ()) -> set[int]:
    """The seats that share the win: the winner and every coalition partner of it."""
    if winner is None:
        return set()
    won = {winner}
    for group in coalitions:
        seats = set(group)
        if winner in seats:
            won |= seats
    return won


def coalitions(game) -> list[set[int]]:
    """The coalitions standing in ``game``: sets of seats that win together.

    The engine has no coalitions yet.  When it gets them, read them from the game here;
    every environment takes its rewards through this function.
    """
    return []


def outcome_rewards(game, groups: Iterable[Iterable[int]] | None = None) -> list[float]:
    """Each seat's reward for a finished game (STOPPED for all if it has not ended)."""
    n = game.num_players
    if not game.is_over or game.winner is None:
        return [STOPPED] * n
    won = winning_seats(game.winner, coalitions(game) if groups is None else groups)
    return [WIN if seat in won else LOSS for seat in range(n)]


def vp_reward(gained: int, victory_points: int) -> float:
    """The shaped part of a step's reward: VP gained over the victory total."""
    return gained / victory_points
