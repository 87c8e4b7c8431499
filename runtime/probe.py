"""A few seeded games of a bundle, for ``rootlaw validate``: can a game on it end?

Content can pass every static check and still leave no game an end: a map too small for
the factions to score on validates clean, and every random game on it turns until the
decision cap.  So validate plays a few games (seeds 1, 2 ...; every faction of the bundle
seated, random agents, as ``simulate`` plays them) within a time budget, and reports:

- ``PLAY-STALL`` (error): not one game ended: each stalled for ``PROBE_STALL_ROUNDS``
  rounds (runtime/stall.py), or the engine found no decision; the finding names the
  stall (from which round, the VP, the factions that never scored in any game);
- ``PLAY-SLOW`` (warning): some games ended and some stalled that long.

Games the budget left undecided are only counted.  The probe never compiles: it runs the
bundle's compiled core when one is built or installed, else the pure path (slower, and
said so in the report).
"""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field

from rootlaw.spec import Bundle
from rootlaw.spec.diagnostics import PLAY_CODES

from .errors import RootlawError
from .stall import PROBE_STALL_ROUNDS, Progress, rounds_of

GAMES = 3
"""Games a probe plays by default (``rootlaw validate --play N``)."""
SECONDS = 10.0
"""Its time budget by default (``--play-seconds``)."""
CHUNK = 20_000  # decisions played between looks at the clock
CAP = 1_000_000  # decisions after which a game that is not stuck counts as undecided


@dataclass
class ProbeGame:
    seed: int
    ended: bool = False
    stuck: bool = False  # stalled PROBE_STALL_ROUNDS rounds, or no decision (engine)
    rounds: int = 0
    decisions: int = 0
    vp: tuple[int, ...] = ()
    best: tuple[int, ...] = ()  # each seat's highest VP in the game
    stall_from: int = 0  # the round the stall began in
    stall_rounds: int = 0
    engine: str = ""  # the engine's error, when it found no decision


@dataclass
class Probe:
    """What the seeded games showed; ``verdict()`` is the finding, if any."""

    map_id: str
    factions: list[str]
    compiled: bool
    games: list[ProbeGame] = field(default_factory=list)  # those that ended or stalled
    asked: int = 0
    started: int = 0
    seconds: float = 0.0

    @property
    def ended(self) -> int:
        return sum(g.ended for g in self.games)

    @property
    def stuck(self) -> list[ProbeGame]:
        return [g for g in self.games if g.stuck]

    def summary(self) -> str:
        """For validate's `ok:` line: what was played, in how long."""
        core = "compiled core" if self.compiled else "pure core"
        undecided = self.asked - self.ended - len(self.stuck)
        parts = [f"{self.ended} ended"]
        if self.stuck:
            parts.append(f"{len(self.stuck)} stalled")
        if undecided:
            parts.append(f"{undecided} undecided in the time budget")
        rounds = [g.rounds for g in self.games if g.ended]
        span = f", {min(rounds)} to {max(rounds)} rounds" if rounds else ""
        took = f"{self.seconds:.2f}" if self.seconds < 1 else f"{self.seconds:.1f}"
        played = f"{self.started} of {self.asked}" if self.started < self.asked else \
            str(self.asked)
        return (f"played {played} game{'s' if self.asked != 1 else ''} on map "
                f"{self.map_id} in {took} s ({core}): {', '.join(parts)}{span}")

    def verdict(self) -> tuple[str, str, str] | None:
        """(code, severity, message) when the games stalled, else None."""
        stuck = self.stuck
        if not stuck:
            return None
        seated = _and(self.factions)
        seeds = ", ".join(str(g.seed) for g in stuck)
        first = stuck[0]
        if first.engine:
            what = f"seed {first.seed}: {first.engine} (round {first.rounds})"
        else:
            vp = ", ".join(f"{f} {v}" for f, v in zip(self.factions, first.vp, strict=True))
            what = (f"seed {first.seed}: no faction reached a VP it had not had before in "
                    f"{first.stall_rounds} rounds, from round {first.stall_from} (VP {vp})")
        never = [f for p, f in enumerate(self.factions)
                 if all(g.best[p] == 0 for g in self.games if g.best)]
        if never:
            what += f"; {_and(never)} never scored in any game"
        if self.ended == 0:
            return ("PLAY-STALL", PLAY_CODES["PLAY-STALL"][0],
                    f"no game on map {self.map_id} ends: the {len(stuck)} seeded games "
                    f"({seated}; seeds {seeds}) all stalled; {what} [{self.summary()}]")
        return ("PLAY-SLOW", PLAY_CODES["PLAY-SLOW"][0],
                f"{len(stuck)} of {self.asked} seeded games on map {self.map_id} ({seated}) "
                f"stalled (seeds {seeds}) while {self.ended} ended; {what} "
                f"[{self.summary()}]")


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def probe(bundle: Bundle, *, games: int = GAMES, seed: int = 1, seconds: float = SECONDS,
          stall_rounds: int = PROBE_STALL_ROUNDS) -> Probe:
    """Play seeds seed .. seed+games-1 of the bundle (every faction seated) until each
    ends or stalls, within ``seconds`` in all."""
    from .core import compiled_available, load_core, want_pure
    from .simulate import play_rounds

    cm = load_core(bundle, pure=want_pure() or not compiled_available(bundle))
    mod = cm.module
    names = cm.tables.names["factions"]
    seated = [f.id for f in bundle.factions][:mod.LAYOUT["consts"]["P"]]
    seats = [names.index(f) for f in seated]
    S = mod.LAYOUT["state"]
    out = Probe(bundle.map.id, seated, cm.compiled, asked=games)
    t0 = time.perf_counter()
    deadline = t0 + seconds
    for i in range(games):
        if time.perf_counter() >= deadline:
            break
        s = seed + i
        out.started += 1
        state = array("q", [0]) * mod.LAYOUT["consts"]["STATE_SIZE"]
        core = mod.Core(state)
        core.init_game(s, seats)
        core.seed_agent(s)
        track = Progress([0] * len(seats))
        rec = None
        taken = 0
        game = ProbeGame(s)
        try:
            while taken < CAP and time.perf_counter() < deadline:
                rec = play_rounds(core, state, S, min(CAP, taken + CHUNK), taken,
                                  progress=track, stall_rounds=stall_rounds)
                taken = rec.decisions
                if state[S["OVER"]] or rec.stuck:
                    break
        except RootlawError as e:  # ENGINE-STUCK: no legal decision and no winner
            game.stuck, game.engine = True, e.message
        np_ = len(seats)
        game.rounds = rounds_of(state[S["TURN"]], np_)
        game.decisions = taken
        game.vp = tuple(state[S["VP"]:S["VP"] + np_])
        game.best = tuple(track.best)
        game.ended = bool(state[S["OVER"]])
        if rec is not None and rec.stuck:
            game.stuck = True
            game.stall_rounds = rounds_of(track.run, np_)
            game.stall_from = rounds_of(track.run_start, np_)
        if game.ended or game.stuck:
            out.games.append(game)
    out.seconds = time.perf_counter() - t0
    return out


__all__ = ["GAMES", "SECONDS", "Probe", "ProbeGame", "probe"]
