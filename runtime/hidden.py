"""Hidden information as a security boundary: the twin check (``rootlaw check --hidden``).

Every seat sees who is asked and about what, and what happens on the board; so whether a
player is asked, what kind of decision comes next, and every public effect must depend
only on what every seat may know (Law 1.2: hands and face-down zones are private, the
deck's order and the dice to come are nobody's).  The check looks for a breach from
outside, as a player at the table could:

1. From positions of seeded random games, for each seat, make a *twin*: the same game
   with what that seat cannot see sampled again (``Game.determinize``): the other hands,
   the face-down zones and the deck's order (a *cards* twin), or the dice and shuffles
   to come (a *future* twin).  The seat's observation of the twin is its observation of
   the game: the two are the same game to it.
2. Play both on with the same choices, wherever both allow them (the player deciding may
   hold different cards in the twin: a choice only one of them allows ends the pair).
3. After each decision compare what the seat sees: its observation vector, in which the
   decision's kind and who decides are fields, and, when the seat decides, its options.

The two games may come apart honestly only where something hidden is shown: a card
revealed (discarded, played, taken into the seat's hand, a hand shown to it), or the
dice rolled.  So a pair ends (``revealed``) the first time a card-identity field of the
observation differs (hand, piles, play areas, columns, zones, hands seen), or, for a
future twin, once the game's stream has been drawn from.  Any other difference, before
that, is a *leak*: the seat learned something hidden without anything being shown.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rootlaw.spec import Bundle

from .agents import RandomAgent
from .events import describe, public_fingerprint
from .game import Game

# Observation fields that name cards (or what a seat saw of a hand): a difference there
# is a card shown, the honest way for two twins to come apart.
CARD_FIELDS = ("hand", "discard", "available", "removed", "play_area", "columns", "zones",
               "open_zones", "seen", "seen_turn")


@dataclass(frozen=True)
class Leak:
    """One point where a seat's view of two twins differed with nothing shown."""

    factions: tuple[str, ...]
    seed: int        # the game's seed (random agents seeded with it played to the position)
    position: int    # decisions taken before the twins were made
    decision: int    # the decision after which they differed (history index)
    seat: int        # whose view differed
    twin: str        # "cards" or "future"
    what: str        # "observation" (fields listed in detail), "options"
    detail: str
    action: str      # the last decision applied to both, in notation

    def __str__(self) -> str:
        return (f"HIDDEN-LEAK {','.join(self.factions)} seed {self.seed}: twin of seat "
                f"{self.seat} ({self.factions[self.seat]}, {self.twin}) made after decision "
                f"{self.position}; after decision {self.decision} ({self.action}) its "
                f"{self.what} differ: {self.detail}")


@dataclass
class HiddenReport:
    """What ``check_hidden`` did and found."""

    games: int = 0
    pairs: int = 0          # twin pairs played on
    compared: int = 0       # decisions after which a pair was compared
    revealed: int = 0       # pairs ended honestly: something hidden was shown
    parted: int = 0         # pairs ended by a choice only one twin allowed
    ran_out: int = 0        # pairs that reached the horizon or the end of the game
    leaks: list[Leak] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.leaks


def _fields(g: Game) -> list[tuple[str, int, int, bool]]:
    return [(name, off, size, name in CARD_FIELDS)
            for name, (off, size) in g.observation_layout.items()]


def _differ(fields, a, b) -> tuple[list[str], list[str]]:
    """(card fields, other fields) on which two observations differ."""
    cards: list[str] = []
    other: list[str] = []
    for name, off, size, is_card in fields:
        if a[off:off + size] != b[off:off + size]:
            (cards if is_card else other).append(name)
    return cards, other


def play_twins(a: Game, b: Game, seat: int, *, horizon: int, rng: random.Random,
               future: bool) -> tuple[str, str, int, str]:
    """Play twins a and b on with the same choices and compare seat's view after each
    decision.  Return (how it ended: "leak", "revealed", "parted", "ran_out", what
    differed, the decision it ended at, the last action's notation)."""
    fields = _fields(a)
    rng_at = a.S["RNG"]
    a.record_events()
    b.record_events()
    last = "(the position itself)"
    va, vb = a.observation_vector(seat), b.observation_vector(seat)
    cards, other = _differ(fields, va, vb)
    if cards or other:  # determinize must give the seat the same view
        return "leak", "observation at the start: " + ", ".join(cards + other), \
            len(a.history), last
    for _ in range(horizon):
        if a.is_over or b.is_over:
            return "ran_out", "", len(a.history), last
        la, lb = a.legal_actions(), b.legal_actions()
        if a.to_play == seat and la != lb:
            return "leak", "options: " + _options(a, la, lb), len(a.history), last
        common = sorted(set(la) & set(lb)) if la != lb else la
        if not common:
            return "parted", "", len(a.history), last
        act = common[rng.randrange(len(common))]
        last = a.notation(act)
        before = a.state[rng_at], b.state[rng_at]
        a.apply(act)
        b.apply(act)
        drew = a.state[rng_at] != before[0] or b.state[rng_at] != before[1]
        a.observation_vector(seat, va)
        b.observation_vector(seat, vb)
        cards, other = _differ(fields, va, vb)
        ea, eb = a.take_events(), b.take_events()
        fa, fb = public_fingerprint(a, ea, seat), public_fingerprint(b, eb, seat)
        if fa != fb and _shows_cards(fa, fb):
            cards.append("events")
        elif fa != fb:
            other.append("events (" + "; ".join(
                describe(a, e, seat) for e in ea if e not in eb)[:200] + ")")
        if cards or (future and drew):
            return "revealed", "", len(a.history) - 1, last
        if other:
            return "leak", "observation: " + ", ".join(other), len(a.history) - 1, last
    return "ran_out", "", len(a.history), last


def _shows_cards(fa: tuple, fb: tuple) -> bool:
    """Whether two runs of events differ where a card is shown to the seat: at a
    differing place (or past the shorter run) a card event naming the card it moved,
    a hand shown, or a piece turned face up (Law 13.2.2: the face a token hid).  A card
    moved unseen is no reveal: the number of them must agree."""
    def shows(x: tuple | None) -> bool:
        # (a token laid face down turned face up shows the face its owner chose)
        # (and a guess at such a face answered aloud, Law 13.2.4: right or wrong, it
        # tells something of the face)
        return x is not None and ((x[0] == "card" and x[1] >= 0) or x[0] == "shown"
                                  or x[0] == "revealed" or x[0] == "answered")
    n = max(len(fa), len(fb))
    for i in range(n):
        x = fa[i] if i < len(fa) else None
        y = fb[i] if i < len(fb) else None
        if x != y:
            # (the first difference decides: what differs before a show is a leak)
            return shows(x) or shows(y)
    return False


def _options(g: Game, la: list[int], lb: list[int]) -> str:
    only_a = [g.notation(x) for x in la if x not in set(lb)][:4]
    only_b = [g.notation(x) for x in lb if x not in set(la)][:4]
    return f"only in the game: {only_a or '-'}; only in the twin: {only_b or '-'}"


def check_hidden(bundle: Bundle, factions: Sequence[str] | None = None, *, games: int = 20,
                 seed: int = 1, positions: int = 6, horizon: int = 80,
                 pure: bool | None = None, max_decisions: int = 20_000,
                 progress: Callable[[int], None] | None = None) -> HiddenReport:
    """The twin check over ``games`` seeded random games of a bundle: in each, at
    ``positions`` decisions drawn at random (from the game's seed), one cards twin and
    one future twin for every seat, each played on for up to ``horizon`` decisions.
    Deterministic for the same arguments."""
    rep = HiddenReport()
    t0 = time.perf_counter()
    for i in range(games):
        gseed = seed + i
        g = Game(list(factions) if factions else None, gseed, bundle=bundle, pure=pure)
        trace = g.clone()
        n = trace.playout(gseed, max_decisions)
        pick = random.Random(gseed * 7919 + 17)
        at = sorted(pick.sample(range(n), min(positions, n)))
        k = 0
        for pos in at:
            while len(g.history) < pos:
                g.apply(trace.history[k])
                k += 1
            if g.is_over:
                break
            for seat in range(g.num_players):
                for twin, what in (("cards", (True, False)), ("future", (False, True))):
                    b = g.determinize(seat, pick.getrandbits(63), cards=what[0],
                                      future=what[1])
                    a = g.clone()
                    end, detail, where, last = play_twins(
                        a, b, seat, horizon=horizon, rng=random.Random(pick.getrandbits(32)),
                        future=twin == "future")
                    rep.pairs += 1
                    rep.compared += where - pos
                    if end == "leak":
                        rep.leaks.append(Leak(tuple(g.factions), gseed, pos, where, seat,
                                              twin, detail.split(":")[0], detail, last))
                    else:
                        setattr(rep, end, getattr(rep, end) + 1)
        rep.games += 1
        if progress is not None:
            progress(1)
    rep.seconds = time.perf_counter() - t0
    return rep


@dataclass(frozen=True)
class Peek:
    """A position where an agent chose differently in games its seat cannot tell apart."""

    seed: int        # the game's seed (random agents seeded with it played to the position)
    position: int    # decisions taken before it
    seat: int
    choices: tuple[str, ...]  # in the game, then in each twin (notation)

    def __str__(self) -> str:
        return (f"AGENT-PEEKS seed {self.seed} after decision {self.position}: seat "
                f"{self.seat} chose {', '.join(self.choices)} in twins it cannot tell apart")


def check_agent(make: Callable[[int], Any], bundle: Bundle | None = None,
                factions: Sequence[str] | None = None, *, games: int = 3, seed: int = 1,
                every: int = 7, twins: int = 2, agent_seed: int = 42,
                max_decisions: int = 3000) -> tuple[int, list[Peek]]:
    """Whether an agent chooses from its seat's view alone (Law 1.2).  At every
    ``every``-th position of seeded random games where the seat deciding has a choice,
    ``twins`` twins of the game are made for that seat (``Game.determinize``: the other
    hands, face-down zones, the deck's order and the dice to come dealt again; the
    seat's observation stays the same), and a new agent (``make(agent_seed)``) chooses
    in the game and in each twin.  An honest agent chooses the same in all; one that
    reads the hidden state does not.  Returns (positions compared, the positions where
    the choices differed)."""
    peeks: list[Peek] = []
    compared = 0
    for i in range(games):
        gseed = seed + i
        g = Game(list(factions) if factions else None, gseed, bundle=bundle)
        walker = RandomAgent(gseed)
        pick = random.Random(gseed)
        while not g.is_over and len(g.history) < max_decisions:
            legal = g.legal_actions()
            if len(g.history) % every == 0 and len(legal) > 1:
                seat = g.to_play
                games_alike = [g] + [g.determinize(seat, pick.getrandbits(63))
                                     for _ in range(twins)]
                choices = tuple(g.notation(make(agent_seed).choose(x, x.legal_actions()))
                                for x in games_alike)
                compared += 1
                if len(set(choices)) > 1:
                    peeks.append(Peek(gseed, len(g.history), seat, choices))
            g.apply(walker.choose(g, legal))
    return compared, peeks


__all__ = ["CARD_FIELDS", "HiddenReport", "Leak", "Peek", "check_agent", "check_hidden",
           "play_twins"]
