"""`rootlaw simulate`: many seeded random games on local processes or a Ray cluster.

Seeds.  Game i of a run (i = 0 .. games-1) uses seed S+i for the game (first player,
shuffles, dice) and for its random agents: it is the game ``rootlaw play --seed S+i``
plays, and ``Game(factions, S+i).playout(S+i)``.

Chunks.  The games are cut into chunks of consecutive indices whose size depends on
the number of games only.  A chunk comes back as a ``Tally`` of integers (wins by
outcome, VP sums by round, histograms of game length); integer sums are exact, so the
totals are the same whatever order the chunks finish in, how many workers played them
and on which backend.  Floats are computed once, from the totals (``summary``), and
rounded to ``DIGITS`` places: ``--json`` is byte-identical for a seed on any backend.

The core.  The parent builds the bundle's core once (compiled when a compiler is
available, else the pure path) and the workers only load it: local processes load the
very file the parent loaded; Ray workers receive the artifact (rendered source and
compiled extension, keyed by ``core_key``; put once in Ray's object store, named by
every task) and install it into their own cache when it is missing.  Each worker
reports what it loaded and whether the Cython compiler was ever imported in it
(``WorkerInfo``), so "workers never compile" is checked, not assumed.

Ctrl-C.  A chunk checks between games whether to stop; stopped, it returns the games it
finished (the first games of the chunk, a prefix of its indices), so no finished game is
lost.  Local workers stop on the SIGINT the terminal sends the process group (the
parent sends it too); Ray workers never see the driver's SIGINT (Ray blocks it), so the
driver raises a flag in a small actor that their chunks read every ``STOP_POLL``
seconds.  The parent waits ``STOP_GRACE`` seconds for the chunks in flight, then
stops the workers; a second Ctrl-C stops them at once.  Uninterrupted, every chunk
plays whole and nothing changes.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import math
import os
import signal
import socket
import sys
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .errors import RootlawError
from .stall import Progress

FORMAT = "rootlaw-simulate/1"
OUTCOMES = ("vp", "dominance", "coalition", "stopped")
Z95 = 1.959963984540054  # the unit normal's 97.5% quantile: two-sided 95%
DIGITS = 4  # every float in the summary is rounded to this many places
MAX_CHUNK = 1000
CHUNKS = 200  # aim for about this many chunks (fewer for small runs, never > MAX_CHUNK)
STOP_GRACE = 20.0  # seconds the parent waits for the chunks in flight after a Ctrl-C
STOP_POLL = 0.25  # seconds between a Ray chunk's looks at the stop flag


def chunk_size(games: int) -> int:
    """Games per chunk: a function of the number of games only (never of the workers)."""
    return max(1, min(MAX_CHUNK, -(-games // CHUNKS)))


def chunks(games: int) -> list[tuple[int, int]]:
    """(first game index, count) of each chunk, in index order."""
    n = chunk_size(games)
    return [(i, min(n, games - i)) for i in range(0, games, n)]


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (95% for the default z):
    unlike the normal approximation it stays inside [0, 1] and is sensible near 0 or 1."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


# ---------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameRecord:
    """What the summary needs from one game.  ``vp_by_round[r]`` holds the seats' VP at
    the end of round r+1 (when the turn counter first passes it, i.e. when the next
    round's first decision is asked), or at the game's end for the round it ended in;
    a round is every seat's turn once, from the first player on."""

    winner: int  # seat, -1 if none
    outcome: str  # one of OUTCOMES
    first: int  # the first player's seat
    turns: int  # the turn counter at the end (the turn the game ended in)
    rounds: int  # rounds the game was in: ceil(turns / players)
    decisions: int
    vp: tuple[int, ...]
    vp_by_round: tuple[tuple[int, ...], ...]
    stalled_turns: int = 0  # turns in which no seat reached a VP it had not had (stall.py)
    longest_stall: int = 0  # the longest run of such turns
    stuck: bool = False  # stopped as stuck (play_rounds' stall_rounds)


def classify(state, S: dict[str, int]) -> tuple[int, str]:
    """(winner seat, outcome) of a finished or stopped game, read from its state.
    The core ends a game in two ways: 30 VP (Law 3.1) and an activated dominance card
    at the start of Birdsong (Law 3.3.1, the winner's dominance is set).  'coalition'
    stays at 0 until a faction can form one; a game not over is 'stopped'."""
    if not state[S["OVER"]]:
        return -1, "stopped"
    w = state[S["WINNER"]]
    if w < 0:
        raise RootlawError("a game ended without a winner", code="ENGINE-NO-WINNER")
    return w, ("dominance" if state[S["DOMINANCE"] + w] >= 0 else "vp")


def play_rounds(core, state, S: dict[str, int], max_decisions: int,
                taken: int = 0, *, progress: Progress | None = None,
                stall_rounds: int | None = None) -> GameRecord:
    """Random agents play on from the position (the agent stream already seeded with
    ``core.seed_agent``) round by round until the game ends or ``max_decisions`` have
    been taken in all; the scores are read at each round's end.  ``progress`` follows
    the game turn by turn (a new one from the position's VP without); with
    ``stall_rounds``, a game stuck that long stops too (``stuck``; runtime/stall.py)."""
    np_ = state[S["NPLAYERS"]]
    vp_at, turn_at, over_at = S["VP"], S["TURN"], S["OVER"]
    rows: list[tuple[int, ...]] = []
    r = start = max(1, -(-state[turn_at] // np_))  # the round in progress (setup: 1)
    if progress is None:
        progress = Progress(state[vp_at:vp_at + np_])
    stuck = False
    while True:
        stop = r * np_ + 1
        while True:  # turn by turn, for the stalled turns (runtime/stall.py)
            turn = state[turn_at]
            taken += core.play_on(max_decisions - taken, min(turn + 1, stop))
            if state[turn_at] <= turn or state[over_at]:
                break
            if turn >= 1:  # a whole turn (not setup) ended
                progress.turn(turn, state[vp_at:vp_at + np_])
                stuck = stall_rounds is not None and progress.stuck(np_, stall_rounds)
            if state[turn_at] >= stop or stuck:
                break
        if state[turn_at] < stop and not state[over_at] and taken < max_decisions and \
                not stuck:
            raise RootlawError("no legal decision and no winner", code="ENGINE-STUCK")
        rows.append(tuple(state[vp_at:vp_at + np_]))
        if state[over_at] or taken >= max_decisions or stuck:
            break
        r += 1
    turns = state[turn_at]
    rounds = max(1, -(-turns // np_))
    # A game can end (dominance) or stop right as a round begins: that round has the
    # final scores too.  From a position mid-game, the rows start at its round.
    while len(rows) < rounds - start + 1:
        rows.append(rows[-1])
    winner, outcome = classify(state, S)
    return GameRecord(winner=winner, outcome=outcome, first=state[S["FIRST"]], turns=turns,
                      rounds=rounds, decisions=taken, vp=rows[-1], vp_by_round=tuple(rows),
                      stalled_turns=progress.stalled, longest_stall=progress.longest,
                      stuck=stuck)


def play_game(mod: ModuleType, seats: list[int], seed: int, max_decisions: int) -> GameRecord:
    """Game ``seed`` from setup to the end, random agents seeded with ``seed``."""
    layout = mod.LAYOUT
    state = array("q", [0]) * layout["consts"]["STATE_SIZE"]
    core = mod.Core(state)
    core.init_game(seed, seats)
    core.seed_agent(seed)
    return play_rounds(core, state, layout["state"], max_decisions)


# ---------------------------------------------------------------------- tallies


@dataclass
class Tally:
    """Integer totals over some games; two tallies add up exactly (``merge``)."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # by seat
    outcomes: dict[str, list[int]] = field(default_factory=dict)  # outcome -> by seat
    stopped: int = 0
    first: list[int] = field(default_factory=list)  # games each seat went first
    first_wins: list[int] = field(default_factory=list)  # ... and won
    vp: list[int] = field(default_factory=list)  # final VP sums by seat
    round_games: list[int] = field(default_factory=list)  # games that were in round r+1
    round_vp: list[list[int]] = field(default_factory=list)  # their VP sums by round, seat
    end_vp: list[list[int]] = field(default_factory=list)  # final VP sums by last round
    turns: dict[int, int] = field(default_factory=dict)  # histograms: value -> games
    rounds: dict[int, int] = field(default_factory=dict)
    decisions: dict[int, int] = field(default_factory=dict)
    stalled_turns: int = 0  # over all games (runtime/stall.py)
    longest_stall: dict[int, int] = field(default_factory=dict)  # histogram, in turns
    order_wins: list[int] = field(default_factory=list)  # by turn order: 0 the first player

    def __post_init__(self) -> None:
        p = self.players
        self.order_wins = self.order_wins or [0] * p
        self.wins = self.wins or [0] * p
        self.outcomes = self.outcomes or {o: [0] * p for o in OUTCOMES if o != "stopped"}
        self.first = self.first or [0] * p
        self.first_wins = self.first_wins or [0] * p
        self.vp = self.vp or [0] * p

    def add(self, g: GameRecord) -> None:
        self.games += 1
        self.first[g.first] += 1
        if g.outcome == "stopped":
            self.stopped += 1
        else:
            self.wins[g.winner] += 1
            self.order_wins[(g.winner - g.first) % self.players] += 1
            self.outcomes[g.outcome][g.winner] += 1
            if g.winner == g.first:
                self.first_wins[g.winner] += 1
        for p, v in enumerate(g.vp):
            self.vp[p] += v
        self._grow(len(g.vp_by_round))
        for r, row in enumerate(g.vp_by_round):
            self.round_games[r] += 1
            for p, v in enumerate(row):
                self.round_vp[r][p] += v
        for p, v in enumerate(g.vp_by_round[-1]):
            self.end_vp[len(g.vp_by_round) - 1][p] += v
        self.stalled_turns += g.stalled_turns
        for hist, value in ((self.turns, g.turns), (self.rounds, g.rounds),
                            (self.decisions, g.decisions), (self.longest_stall, g.longest_stall)):
            hist[value] = hist.get(value, 0) + 1

    def _grow(self, rounds: int) -> None:
        while len(self.round_games) < rounds:
            self.round_games.append(0)
            self.round_vp.append([0] * self.players)
            self.end_vp.append([0] * self.players)

    def mean_vp_by_round(self) -> list[list[float]]:
        """Mean VP at each round's end over all the games, [round][seat]: a game that
        has ended counts with its final scores in the rounds after its last."""
        out = []
        ended = [0] * self.players  # final VP of the games that ended before round r
        for r in range(len(self.round_games)):
            out.append([(self.round_vp[r][p] + ended[p]) / self.games
                        for p in range(self.players)])
            for p in range(self.players):
                ended[p] += self.end_vp[r][p]
        return out

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.stopped += other.stopped
        for mine, theirs in ((self.wins, other.wins), (self.first, other.first),
                             (self.first_wins, other.first_wins), (self.vp, other.vp),
                             (self.order_wins, other.order_wins)):
            for p, v in enumerate(theirs):
                mine[p] += v
        for o, row in other.outcomes.items():
            for p, v in enumerate(row):
                self.outcomes[o][p] += v
        self._grow(len(other.round_games))
        for r, n in enumerate(other.round_games):
            self.round_games[r] += n
            for p in range(self.players):
                self.round_vp[r][p] += other.round_vp[r][p]
                self.end_vp[r][p] += other.end_vp[r][p]
        self.stalled_turns += other.stalled_turns
        for mine_h, theirs_h in ((self.turns, other.turns), (self.rounds, other.rounds),
                                 (self.decisions, other.decisions),
                                 (self.longest_stall, other.longest_stall)):
            for value, n in theirs_h.items():
                mine_h[value] = mine_h.get(value, 0) + n


# ---------------------------------------------------------------------- workers


@dataclass(frozen=True)
class CoreRef:
    """Where the parent's core is, for workers on this machine."""

    key: str
    name: str  # the module name it was loaded under
    path: str
    compiled: bool


@dataclass(frozen=True)
class CoreArtifact:
    """The parent's core as bytes, for workers elsewhere (Ray): the rendered source and,
    when the parent runs compiled, the extension with the file name it was built as."""

    key: str
    source: bytes
    ext_file: str | None = None
    ext_bytes: bytes | None = None


@dataclass(frozen=True)
class WorkerInfo:
    """What one worker process did with the core."""

    host: str
    pid: int
    core_file: str
    compiled: bool
    installed: bool  # it wrote the shipped artifact into its own cache
    compiler_imported: bool  # the Cython compiler was imported in this process


@dataclass(frozen=True)
class ChunkTask:
    index: int
    first: int  # game index
    count: int
    seed: int
    seats: tuple[int, ...]
    max_decisions: int
    # A table of agents other than random ones (runtime/agents.py specs, one per seat),
    # and what a worker needs to seat them: the factions and the bundle.
    agents: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    bundle: Any = None
    core_key: str = ""


_LOADED: dict[str, tuple[ModuleType, bool]] = {}  # per process: core key -> (module, installed)


def _compiler_imported() -> bool:
    return any(m in sys.modules for m in ("Cython.Build", "Cython.Compiler.Main"))


def _load_file(path: Path, name: str) -> ModuleType:
    from .core import _load_path
    return _load_path(path, name)


def load_ref(ref: CoreRef) -> ModuleType:
    """Load the parent's core from the parent's file (a local worker)."""
    if ref.key in _LOADED:
        return _LOADED[ref.key][0]
    if ref.name.startswith("rootlaw."):  # the core installed with the package
        mod = importlib.import_module(ref.name)
    else:
        mod = _load_file(Path(ref.path), ref.name)
    _LOADED[ref.key] = (mod, False)
    return mod


def install_files(art: CoreArtifact) -> tuple[Path, str, bool]:
    """Write a shipped core into this machine's cache unless it is there already:
    (the file to load, the module name to load it under, whether it was written).
    An extension built for another platform is not loadable here: the source (the pure
    path) is used instead."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from rootlaw.generator.build import cache_dir, module_name, verified, write_atomic, write_sum

    d = cache_dir() / art.key
    name = module_name(art.key)
    if art.ext_file and art.ext_bytes is not None and \
            any(art.ext_file.endswith(s) for s in EXTENSION_SUFFIXES):
        path = d / art.ext_file
        stem = art.ext_file.split(".", 1)[0]
        # An extension's init function is named after the file it was built as: one
        # built into the installed package ("base") loads under a name ending so.
        load_as = name if stem == name else f"{name}_shipped.{stem}"
        # Like a local build, an extension is used only with a sum file that vouches for
        # it (a truncated copy is written again), and gets one, so later runs in this
        # cache load it rather than rebuild.
        if verified(path, art.key):
            return path, load_as, False
        # another worker may write it too: the same bytes either way
        write_atomic(path, art.ext_bytes, mode=0o755)
        write_sum(path, art.key)
        return path, load_as, True
    path, load_as = d / f"{name}.py", f"rootlaw_core_pure_{art.key}"
    if path.exists():
        return path, load_as, False
    write_atomic(path, art.source)
    return path, load_as, True


def install_artifact(art: CoreArtifact) -> tuple[ModuleType, bool]:
    """Load a shipped core (a Ray worker), installing it first when it is missing;
    (module, whether it was written).  Loaded once per process."""
    if art.key not in _LOADED:
        path, load_as, written = install_files(art)
        _LOADED[art.key] = (_load_file(path, load_as), written)
    return _LOADED[art.key]


def _info(mod: ModuleType, installed: bool) -> WorkerInfo:
    return WorkerInfo(host=socket.gethostname(), pid=os.getpid(), core_file=str(mod.__file__),
                      compiled=bool(mod.compiled()), installed=installed,
                      compiler_imported=_compiler_imported())


def run_chunk(mod: ModuleType, task: ChunkTask,
              stop: Callable[[], bool] | None = None) -> Tally:
    """The chunk's games in index order; when ``stop()`` turns true (asked before each
    game) the games finished so far: ``tally.games`` of them, from ``task.first`` on."""
    tally = Tally(len(task.seats))
    seats = list(task.seats)
    for i in range(task.first, task.first + task.count):
        if stop is not None and stop():
            break
        if task.agents:
            tally.add(play_agents_game(mod, task, task.seed + i))
        else:
            tally.add(play_game(mod, seats, task.seed + i, task.max_decisions))
    return tally


class AgentsTable:
    """What play_rounds asks of a core (``play_on``), for a table of agents choosing
    through the Game API one decision at a time."""

    def __init__(self, game, agents: list):
        self.game = game
        self.agents = agents

    def play_on(self, max_decisions: int, stop_turn: int) -> int:
        g, agents = self.game, self.agents
        taken = 0
        while not g.is_over and taken < max_decisions:
            if stop_turn > 0 and g.turn >= stop_turn:
                break
            legal = g.legal_actions()
            if not legal:
                break
            g.apply(agents[g.to_play].choose(g, legal))
            taken += 1
        return taken


def play_agents_game(mod: ModuleType, task: ChunkTask, seed: int) -> GameRecord:
    """Game ``seed`` from setup to the end, each seat played by its agent, made from the
    game seed (runtime/agents.py: the same agents on every backend)."""
    from rootlaw.generator.tables import build_tables

    from . import core as rcore
    from .agents import parse_spec, table_agents
    from .game import Game

    pure = not mod.compiled()
    key = (task.core_key, pure)
    if key not in rcore._LOADED:  # this process's Game runs on the core it loaded
        rcore._LOADED[key] = rcore.CoreModule(mod, not pure, "simulate",
                                              build_tables(task.bundle))
    g = Game(list(task.factions), seed, bundle=task.bundle, pure=pure)
    agents = table_agents([parse_spec(a) for a in task.agents], seed)
    return play_rounds(AgentsTable(g, agents), g.state, g.S, task.max_decisions)


_STOP = [False]  # a local worker's: set by its SIGINT handler, read between games


def _note_stop(signum, frame) -> None:
    _STOP[0] = True


def _stopped() -> bool:
    return _STOP[0]


def _local_init(ref: CoreRef) -> None:
    # Ctrl-C reaches the whole process group (and the parent passes it on): a worker
    # finishes the game it is playing and returns its chunk so far, never a half game.
    # It started with Ctrl-C blocked (_sigint_held): one that came meanwhile lands now.
    signal.signal(signal.SIGINT, _note_stop)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    load_ref(ref)


def _local_chunk(ref: CoreRef, task: ChunkTask) -> tuple[int, Tally, WorkerInfo]:
    mod = load_ref(ref)
    tally = run_chunk(mod, task, _stopped)
    return task.index, tally, _info(mod, False)


class StopFlag:
    """Ray's stop flag (an actor): the driver raises it on Ctrl-C, chunks read it."""

    def __init__(self) -> None:
        self.up = False

    def raise_(self) -> None:
        self.up = True

    def read(self) -> bool:
        return self.up


def _ray_chunk(key: str, art_box: list, task: ChunkTask,
               flag=None) -> tuple[int, Tally, WorkerInfo]:
    # The artifact's reference comes inside a list, so Ray does not fetch the core's
    # bytes for every task: only a worker that has not loaded the core yet gets them.
    import ray

    if key in _LOADED:
        mod, installed = _LOADED[key]
    else:
        mod, installed = install_artifact(ray.get(art_box[0]))
    up, looked = [False], [time.monotonic()]

    def stop() -> bool:
        # A look at the flag costs a round trip: at most every STOP_POLL seconds.
        if flag is not None and not up[0] and time.monotonic() - looked[0] >= STOP_POLL:
            up[0] = bool(ray.get(flag.read.remote()))
            looked[0] = time.monotonic()
        return up[0]

    tally = run_chunk(mod, task, stop)
    return task.index, tally, _info(mod, installed)


# ---------------------------------------------------------------------- the parent


@dataclass
class Simulation:
    """A run: its parameters, the totals of the chunks that finished, the workers."""

    bundle: str
    factions: list[str]
    seed: int
    games_requested: int
    max_decisions: int
    core_key: str
    core_compiled: bool
    backend: str
    total: Tally
    chunk_tallies: dict[int, Tally] = field(default_factory=dict)  # chunk index -> tally
    workers: dict[tuple[str, int], WorkerInfo] = field(default_factory=dict)  # (host, pid)
    interrupted: bool = False
    seconds: float = 0.0  # the whole run, from starting the workers to the last chunk
    ray_start_seconds: float | None = None  # of which starting or reaching Ray
    notes: list[str] = field(default_factory=list)
    agents: list[str] | None = None  # the seats' agent specs (None: random agents)

    @property
    def games(self) -> int:
        return self.total.games

    def played(self) -> list[tuple[int, int]]:
        """The seeds of the games that finished, as (first, last) ranges in order: all
        of them uninterrupted; after a Ctrl-C the whole chunks and the first games of
        the chunks that were playing."""
        out: list[tuple[int, int]] = []
        for index, (first, _count) in enumerate(chunks(self.games_requested)):
            t = self.chunk_tallies.get(index)
            if t is None or not t.games:
                continue
            lo, hi = self.seed + first, self.seed + first + t.games - 1
            if out and out[-1][1] == lo - 1:
                out[-1] = (out[-1][0], hi)
            else:
                out.append((lo, hi))
        return out

    @property
    def workers_compiled(self) -> list[tuple[str, int]]:
        """Workers in which the Cython compiler was imported (there should be none)."""
        return sorted(at for at, w in self.workers.items() if w.compiler_imported)


def prepare_core(bundle, pure: bool | None = None) -> tuple[ModuleType, bool, list[str]]:
    """Build the bundle's core once, here: compiled when it can be (one loaded already,
    a cached or installed compiled core, else compile it now), else the pure path.
    Returns (module, compiled, notes for the user)."""
    from rootlaw.generator import build as gbuild

    from . import core as rcore

    notes: list[str] = []
    if pure is None:
        pure = rcore.want_pure()
    key = gbuild.core_key(bundle)
    if not pure and (key, False) not in rcore._LOADED and \
            gbuild.compiled_path(bundle) is None and rcore._installed(key) is None:
        try:
            gbuild.compile_core(bundle)
            notes.append(f"compiled the core for bundle {bundle.hash} (once, here)")
        except Exception as e:  # noqa: BLE001 -- no compiler: the pure path still runs
            notes.append(f"compiling the core failed ({e}); running the pure-Python path")
    cm = rcore.load_core(bundle, pure)
    return cm.module, cm.compiled, notes


def core_ref(mod: ModuleType, key: str) -> CoreRef:
    return CoreRef(key=key, name=mod.__name__, path=str(mod.__file__),
                   compiled=bool(mod.compiled()))


def core_artifact(mod: ModuleType, key: str, bundle) -> CoreArtifact:
    """The loaded core as bytes: its extension file (when compiled) and the source
    beside it (rendered again only if it is not there)."""
    from rootlaw.generator.build import module_name, render_core

    path = Path(str(mod.__file__))
    src = path.with_name(f"{module_name(key)}.py")
    if not src.exists():
        src = path.with_name("base.py")  # the core installed with the package
    source = src.read_bytes() if src.exists() else render_core(bundle).encode()
    if not mod.compiled():
        return CoreArtifact(key=key, source=source)
    return CoreArtifact(key=key, source=source, ext_file=path.name,
                        ext_bytes=path.read_bytes())


OnChunk = Callable[[int, Tally, WorkerInfo | None], None]


class _FirstCtrlC:
    """In this process: Ctrl-C only asks to stop (``up``; ``presses`` counts them), so a
    game is never cut in half, and no KeyboardInterrupt lands in the middle of a lock's
    bookkeeping (concurrent.futures' waits take every future's lock: one interrupted
    there leaves them taken, and the interpreter hangs at exit).  With
    ``second_raises``, a second Ctrl-C raises KeyboardInterrupt as usual.  Only in the
    main thread (elsewhere Python delivers no SIGINT)."""

    def __init__(self, second_raises: bool = True) -> None:
        self.up = False
        self.presses = 0
        self.second_raises = second_raises
        self._old: Any = None

    def __enter__(self) -> _FirstCtrlC:
        import threading

        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def _on_sigint(self, signum, frame) -> None:
        self.presses += 1
        if self.up and self.second_raises:
            raise KeyboardInterrupt
        self.up = True

    def __exit__(self, *exc) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def __call__(self) -> bool:
        return self.up


@contextlib.contextmanager
def _sigint_held():
    """Ctrl-C held back (blocked, not lost) for the block: a process started in it
    inherits the blocked signal across exec, so a worker still starting up when Ctrl-C
    comes does not die of it with a traceback: its initializer installs what Ctrl-C does
    and then lets it in (``_local_init``).  Here, a Ctrl-C that came meanwhile arrives as
    the block ends.  Where signals cannot be blocked (Windows), nothing is held."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _run_inline(mod: ModuleType, tasks: list[ChunkTask], on_chunk: OnChunk) -> None:
    with _FirstCtrlC() as stop:
        for t in tasks:
            on_chunk(t.index, run_chunk(mod, t, stop), None)
            if stop.up:
                raise KeyboardInterrupt


POLL = 0.25  # seconds between the parent's looks at a Ctrl-C while it waits for chunks


def _run_processes(ref: CoreRef, tasks: list[ChunkTask], jobs: int, on_chunk: OnChunk) -> None:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    with _FirstCtrlC(second_raises=False) as stop:
        # spawn: a fresh interpreter per worker (nothing forked from the parent, the
        # same on every OS), which loads the parent's core file in its initializer.
        pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_local_init, initargs=(ref,))
        try:
            with _sigint_held():  # the workers are spawned by the first submissions
                pending = {pool.submit(_local_chunk, ref, t) for t in tasks}
            while pending and not stop.up:
                done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                for fut in done:
                    on_chunk(*fut.result())
            if stop.up:
                # Ctrl-C: the queued chunks are dropped; the workers (told again here,
                # for a SIGINT sent to this process alone) finish their game and return
                # their chunk so far.  A second Ctrl-C, or STOP_GRACE seconds, and they
                # are stopped.
                for fut in pending:
                    fut.cancel()
                for proc in list((getattr(pool, "_processes", None) or {}).values()):
                    with contextlib.suppress(OSError):
                        os.kill(proc.pid, signal.SIGINT)
                pending = {f for f in pending if not f.cancelled()}
                deadline = time.monotonic() + STOP_GRACE
                while pending and stop.presses < 2 and time.monotonic() < deadline:
                    done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                    for fut in done:
                        if not fut.cancelled() and fut.exception() is None:
                            on_chunk(*fut.result())
                raise KeyboardInterrupt
        except BaseException as e:
            # Ctrl-C or a failed chunk: stop every worker now, not after the queued chunks.
            procs = list((getattr(pool, "_processes", None) or {}).values())
            # The pool's manager thread, held before shutdown() forgets it: it must be
            # joined (it sees the workers gone and closes its wake-up pipe), or it races
            # the interpreter's exit hook, which then writes to the pipe as it closes
            # (EBADF traceback at exit, CPython 3.11).  shutdown(wait=False) sets the
            # pool's own reference to None, so a later shutdown(wait=True) joins nothing.
            manager = getattr(pool, "_executor_manager_thread", None)
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.join()
            if manager is not None:
                manager.join()
            pool.shutdown(wait=True)
            if isinstance(e, BrokenProcessPool):
                raise RootlawError(f"a worker process died: {e}", code="WORKER-FAILED") \
                    from None
            raise
        pool.shutdown()


def _ray_init(address: str, jobs: int | None) -> bool:
    """Connect to (or start) Ray; True when this call started it (we shut it down)."""
    from .extras import require

    require("ray", "--ray")
    import ray

    if ray.is_initialized():
        return False
    kw: dict = {"include_dashboard": False, "log_to_driver": False,
                "configure_logging": False}
    if address == "local":
        kw["address"] = "local"
        if jobs:
            kw["num_cpus"] = jobs
    else:
        kw["address"] = address
    try:
        ray.init(**kw)
    except (ConnectionError, ValueError, RuntimeError) as e:
        raise RootlawError(f"cannot start or reach Ray at {address!r}: {e}",
                           code="RAY-UNAVAILABLE") from None
    return True


def _run_ray(art: CoreArtifact, tasks: list[ChunkTask], address: str, jobs: int | None,
             on_chunk: OnChunk, on_ready: Callable[[float], None]) -> None:
    import ray

    t0 = time.perf_counter()
    started = _ray_init(address, jobs)
    on_ready(time.perf_counter() - t0)
    refs: list = []
    flag: Any = None  # the stop flag's actor handle
    # Ctrl-C through a handler of ours, installed after Ray's start-up: the loop below
    # looks at it between two waits, so a press is never lost in Ray's own calls (a
    # KeyboardInterrupt raised inside them did not always reach this loop: the run went
    # on); a second press raises as usual (cutting the grace below short).
    ctrl = _FirstCtrlC(second_raises=True)
    try:
        ctrl.__enter__()
        remote = ray.remote(num_cpus=1)(_ray_chunk)
        flag = ray.remote(num_cpus=0)(StopFlag).remote()
        art_box = [ray.put(art)]  # stored once; each task names it (see _ray_chunk)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        window = 2 * max(1, jobs or cpus)  # chunks in flight at once
        todo = list(tasks)
        while todo or refs:
            if ctrl():
                raise KeyboardInterrupt
            while todo and len(refs) < window:
                refs.append(remote.remote(art.key, art_box, todo.pop(0), flag))
            # A bounded wait: Ray's wait does not look at signals, so a Ctrl-C (SIGINT,
            # or interrupt_main) reaches this loop only between two waits.
            done, refs = ray.wait(refs, num_returns=1, timeout=0.25)
            for ref in done:
                index, tally, info = ray.get(ref)
                on_chunk(index, tally, info)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt) and flag is not None and refs:
            # Ctrl-C: raise the flag; the chunks in flight return their games so far.
            with contextlib.suppress(KeyboardInterrupt):
                flag.raise_.remote()
                done, refs = ray.wait(refs, num_returns=len(refs), timeout=STOP_GRACE)
                for ref in done:
                    with contextlib.suppress(Exception):
                        on_chunk(*ray.get(ref))
        for ref in refs:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        ctrl.__exit__()
        if started:
            # A press during the shutdown does not cut it short (a Ray left half shut
            # down would hang the next start): it is counted, and the run ends anyway.
            with _FirstCtrlC(second_raises=False):
                ray.shutdown()


def simulate(bundle, factions: list[str], *, games: int, seed: int = 0,
             jobs: int | None = None, ray: str | None = None,
             max_decisions: int = 1_000_000, pure: bool | None = None,
             on_start: Callable[[Simulation], Any] | None = None,
             agents: Sequence[str] | None = None) -> Simulation:
    """Play ``games`` random games (game i: seed+i) and total them.  jobs=None: one
    process per CPU; jobs=1: in this process.  ray: None (local processes), "local"
    (start a local Ray instance) or a Ray address.  A Ctrl-C stops the workers and
    returns every game that finished (``interrupted``; ``Simulation.played`` says which:
    whole chunks, and the first games of the chunks that were playing).  ``on_start(sim)``,
    called once the core is ready, may return a progress bar (``update(n)``, ``close()``)
    to follow the games.  ``agents``: one agent spec per seat (runtime/agents.py; each
    agent made from the game's seed, so the same on every backend); None or random agents
    alone: the random games, played inside the core."""
    from rootlaw.generator.build import core_key

    from .game import Game

    if games < 1:
        raise RootlawError(f"--games must be at least 1, not {games}", code="VALUE-INVALID")
    if jobs is not None and jobs < 1:
        raise RootlawError(f"--jobs must be at least 1, not {jobs}", code="VALUE-INVALID")
    if max_decisions < 1:
        raise RootlawError(f"--max-decisions must be at least 1, not {max_decisions}",
                           code="VALUE-INVALID")
    if not (seed >= -(2**63) and seed + games - 1 < 2**63):
        raise RootlawError("the seeds must be 64-bit integers", code="VALUE-INVALID")
    if ray:  # before the core is built and any game played, as --plot is checked
        from .extras import require

        require("ray", "--ray")
    mod, compiled, notes = prepare_core(bundle, pure)
    # Game checks the seats (known factions, each once, how many) with clear errors.
    g = Game(factions, seed, bundle=bundle, pure=not compiled)
    seats = tuple(g._seats)
    key = core_key(bundle)
    specs = None
    if agents is not None:
        from .agents import all_random, parse_agents

        parsed = parse_agents(",".join(agents), len(seats))
        specs = None if all_random(parsed) else tuple(str(a) for a in parsed)
    table = {} if specs is None else {"agents": specs, "factions": tuple(g.factions),
                                      "bundle": bundle, "core_key": key}
    tasks = [ChunkTask(index=i, first=first, count=count, seed=seed, seats=seats,
                       max_decisions=max_decisions, **table)
             for i, (first, count) in enumerate(chunks(games))]
    k = min(jobs or os.cpu_count() or 1, len(tasks))  # no idle workers to start
    backend = (f"ray ({'local' if ray == 'local' else ray})" if ray else
               "this process" if k == 1 else f"{k} local processes")
    sim = Simulation(bundle=bundle.hash, factions=list(g.factions), seed=seed,
                     games_requested=games, max_decisions=max_decisions, core_key=key,
                     core_compiled=compiled, backend=backend, total=Tally(len(seats)),
                     notes=notes, agents=list(specs) if specs else None)

    def on_chunk(index: int, tally: Tally, info: WorkerInfo | None) -> None:
        # One assignment, so a Ctrl-C arriving here leaves the chunk in or out, whole.
        sim.chunk_tallies[index] = tally
        if info is not None:
            sim.workers[info.host, info.pid] = info
        if progress is not None:
            progress.update(tally.games)

    progress = on_start(sim) if on_start is not None else None
    t0 = time.perf_counter()
    try:
        if ray:
            _run_ray(core_artifact(mod, key, bundle), tasks, ray, jobs, on_chunk,
                     lambda s: setattr(sim, "ray_start_seconds", s))
        elif k == 1:
            _run_inline(mod, tasks, on_chunk)
        else:
            _run_processes(core_ref(mod, key), tasks, k, on_chunk)
    except KeyboardInterrupt:
        sim.interrupted = True
    finally:
        if progress is not None:
            progress.close()
    sim.seconds = time.perf_counter() - t0
    for index in sorted(sim.chunk_tallies):  # exact integer sums: any order would do
        sim.total.merge(sim.chunk_tallies[index])
    return sim


# ---------------------------------------------------------------------- the summary


def check_plot(path: Path) -> None:
    """Fail early when --plot cannot be written: matplotlib missing, no such folder."""
    from .extras import require

    if not path.parent.resolve().is_dir():  # a typo first: it is wrong with any extra
        raise RootlawError(f"no folder {path.parent} for the plot", code="IO-ERROR",
                           where=str(path))
    require("plot", "--plot")


def _r(x: float) -> float:
    return round(x, DIGITS)


PERCENTILES = (90, 99)
"""Of game lengths, beside the median (p50): the tail is long (docs/simulate.md)."""
LONG_ROUNDS = (100, 1000)
"""Games over this many rounds are counted (``rounds_over``)."""


def spread(hist: dict[int, int]) -> dict:
    """mean, sd (sample), min, median, p90, p99, max of a histogram of integers,
    computed from exact integer sums (the same totals give the same floats); a
    percentile is the nearest-rank one (the smallest value with at least that share of
    the games at or below it)."""
    n = sum(hist.values())
    if n == 0:
        return {"mean": None, "sd": None, "min": None, "median": None,
                **{f"p{q}": None for q in PERCENTILES}, "max": None}
    s = sum(v * c for v, c in hist.items())
    ss = sum(v * v * c for v, c in hist.items())
    sd = math.sqrt((n * ss - s * s) / (n * (n - 1))) if n > 1 else 0.0
    values = sorted(hist)
    # The median: the middle value, or the mean of the two middle ones.
    def nth(i: int) -> int:
        seen = 0
        for v in values:
            seen += hist[v]
            if seen > i:
                return v
        return values[-1]
    median = nth((n - 1) // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2
    return {"mean": _r(s / n), "sd": _r(sd), "min": values[0], "median": _r(median),
            **{f"p{q}": nth(-(-q * n // 100) - 1) for q in PERCENTILES}, "max": values[-1]}


def summary(sim: Simulation) -> dict:
    """The run as plain data, keys in a fixed order (``--json``; docs/simulate.md)."""
    t = sim.total
    n = t.games
    all_turns = sum(v * c for v, c in t.turns.items())
    factions = {}
    by_round = t.mean_vp_by_round() if n else []
    for p, f in enumerate(sim.factions):
        lo, hi = wilson_interval(t.wins[p], n)
        factions[f] = {
            "wins": t.wins[p],
            "win_rate": _r(t.wins[p] / n) if n else None,
            "win_rate_ci95": [_r(lo), _r(hi)] if n else None,
            "wins_by": {o: t.outcomes[o][p] for o in OUTCOMES if o != "stopped"},
            "first_player": {"games": t.first[p], "wins": t.first_wins[p]},
            "mean_vp": _r(t.vp[p] / n) if n else None,
            "mean_vp_by_round": [_r(row[p]) for row in by_round],
        }
    agents = {"agents": sim.agents} if sim.agents else {}
    return {
        "format": FORMAT,
        "bundle": sim.bundle,
        "factions": sim.factions,
        **agents,
        "seed": sim.seed,
        "seeds": "game i uses seed + i",
        "games_requested": sim.games_requested,
        "games": n,
        "interrupted": sim.interrupted,
        "max_decisions": sim.max_decisions,
        "confidence": {"level": 0.95, "method": "wilson"},
        "outcomes": {o: (t.stopped if o == "stopped" else sum(t.outcomes[o]))
                     for o in OUTCOMES},
        "results": factions,
        # Wins by place in the turn order (the first player, the second ...): seat
        # effects apart from the factions.
        "turn_order": [{"wins": w, "win_rate": _r(w / n) if n else None,
                        "win_rate_ci95": [_r(x) for x in wilson_interval(w, n)] if n else None}
                       for w in t.order_wins],
        "playing_by_round": list(t.round_games),
        "length": {"turns": spread(t.turns), "rounds": spread(t.rounds),
                   "decisions": spread(t.decisions)},
        "rounds_over": {str(k): sum(c for v, c in t.rounds.items() if v > k)
                        for k in LONG_ROUNDS},
        "stalls": {"stalled_turns": t.stalled_turns,
                   "share": _r(t.stalled_turns / all_turns) if all_turns else None,
                   "longest": spread(t.longest_stall)},
    }


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_text(data: dict) -> str:
    """The summary as tables for people."""
    lines = []
    fs = data["factions"]
    w = max(8, *(len(f) for f in fs))
    lines.append(f"{'faction':<{w}}  {'wins':>6}  {'win rate':>8}  {'95% CI (Wilson)':<17}  "
                 f"{'30 VP':>6}  {'dominance':>9}  {'coalition':>9}  {'won as 1st':>11}  "
                 f"{'mean VP':>7}")
    for f in fs:
        r = data["results"][f]
        ci = r["win_rate_ci95"]
        ci_text = "-" if ci is None else f"{_pct(ci[0])} - {_pct(ci[1])}"
        first = f"{r['first_player']['wins']}/{r['first_player']['games']}"
        mean_vp = "-" if r["mean_vp"] is None else f"{r['mean_vp']:.2f}"
        lines.append(f"{f:<{w}}  {r['wins']:>6}  {_pct(r['win_rate']):>8}  {ci_text:<17}  "
                     f"{r['wins_by']['vp']:>6}  {r['wins_by']['dominance']:>9}  "
                     f"{r['wins_by']['coalition']:>9}  {first:>11}  {mean_vp:>7}")
    order = data.get("turn_order")
    if order:
        lines.append("by turn order: " + ", ".join(
            f"{_ordinal(i + 1)} {x['wins']} ({_pct(x['win_rate'])})" for i, x in enumerate(order)))
    o = data["outcomes"]
    lines.append(f"outcomes: 30 VP {o['vp']}, dominance {o['dominance']}, coalition "
                 f"{o['coalition']}, stopped {o['stopped']} (the cap: {data['max_decisions']} "
                 f"decisions)")
    lines.append("")
    lines.append(f"{'length':<13}  {'mean':>9}  {'sd':>9}  {'min':>6}  {'median':>8}  "
                 + "  ".join(f"{f'p{q}':>7}" for q in PERCENTILES) + f"  {'max':>7}")
    stalls = data["stalls"]
    for name, s in [*data["length"].items(), ("longest stall", stalls["longest"])]:
        if s["mean"] is None:
            continue
        lines.append(f"{name:<13}  {s['mean']:>9.2f}  {s['sd']:>9.2f}  {s['min']:>6}  "
                     f"{s['median']:>8g}  " + "  ".join(f"{s[f'p{q}']:>7}" for q in PERCENTILES)
                     + f"  {s['max']:>7}")
    n = data["games"]
    over = ", ".join(f"{k} over {r} rounds ({_pct(k / n if n else None)})"
                     for r, k in data["rounds_over"].items())
    lines.append(f"long games: {over}")
    lines.append(f"stalled turns: {stalls['stalled_turns']} ({_pct(stalls['share'])} of all "
                 "turns: no faction reached a VP it had not had before; longest stall above, "
                 "in turns)")
    lines.append("")
    lines.append("mean VP at each round's end, over all games (a game that ended keeps its "
                 "final VP); playing: games still on in that round")
    head = f"{'round':>5}  {'playing':>7}  " + "  ".join(f"{f:>{max(6, len(f))}}" for f in fs)
    lines.append(head)
    for r, n in enumerate(data["playing_by_round"]):
        vals = "  ".join(f"{data['results'][f]['mean_vp_by_round'][r]:>{max(6, len(f))}.2f}"
                         for f in fs)
        lines.append(f"{r + 1:>5}  {n:>7}  {vals}")
    return "\n".join(lines)


def worker_report(sim: Simulation) -> str:
    """One line on where the core came from in the workers."""
    if not sim.workers:
        return "workers: none (played in this process)"
    ws = list(sim.workers.values())
    loaded = sum(1 for w in ws if not w.installed)
    installed = len(ws) - loaded
    compiled = sum(1 for w in ws if w.compiled)
    parts = [f"{len(ws)} worker process{'es' if len(ws) != 1 else ''} ran the core built "
             f"here ({compiled} compiled, {len(ws) - compiled} pure"]
    if installed:
        parts.append(f"; {installed} installed it from the payload")
    parts.append(")")
    bad = sim.workers_compiled
    parts.append("; none compiled" if not bad else
                 f"; the Cython compiler was imported in {len(bad)} of them")
    return "workers: " + "".join(parts)


def seed_ranges(ranges: list[tuple[int, int]], most: int = 6) -> str:
    """Seed ranges in words: '0..41, 1000..1037' (the first ``most``, then how many more)."""
    if not ranges:
        return "none"
    words = [f"{a}..{b}" if a != b else str(a) for a, b in ranges[:most]]
    if len(ranges) > most:
        words.append(f"and {len(ranges) - most} more ranges")
    return ", ".join(words)


def cli_header(sim: Simulation) -> str:
    last = sim.seed + sim.games_requested - 1
    seated = sim.factions if not sim.agents else \
        [f"{f} ({a})" for f, a in zip(sim.factions, sim.agents, strict=True)]
    return (f"simulate: {sim.games_requested} games, seeds {sim.seed}..{last}, "
            f"{' vs '.join(seated)}; core {'compiled' if sim.core_compiled else 'pure'} "
            f"({sim.core_key}); {sim.backend}")
