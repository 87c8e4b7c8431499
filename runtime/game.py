"""The Game API: new, legal actions, apply, clone, save/load, observation.

A game is its seed, its seats and the actions taken; the core keeps everything else in
one flat int64 array, so cloning is a copy and a save is a list of numbers that is also
checked by replaying its actions.
"""

from __future__ import annotations

import json
import os
import random
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rootlaw.generator.build import write_atomic
from rootlaw.generator.tables import STOPS, Names
from rootlaw.spec import Bundle, SpecError, resolve
from rootlaw.spec.jsonio import SAVE_MAX_BYTES, JsonInputError, parse, read_text
from rootlaw.spec.words import unknown_name

from . import content
from .core import CoreModule, load_core
from .errors import IllegalAction, RootlawError, SaveError
from .notation import ActionSpace

SAVE_FORMAT = content.FORMAT  # 2: the content is recorded (1: the bundle hash only)
VICTORY_POINTS = 30  # Law 3.1 (the core's VICTORY_VP)
MAX_DECISIONS = 1_000_000  # a playout stops here without a winner
PHASES = {-1: "setup", 0: "birdsong", 1: "daylight", 2: "evening"}

@dataclass(frozen=True)
class GameInfo:
    """Static facts about the game a bundle defines, apart from any state (for agents
    and tools): who can play, how big the spaces are, how it ends, where chance is."""

    bundle: str
    factions: tuple[str, ...]
    min_players: int
    max_players: int
    num_actions: int
    observation_size: int
    victory_points: int
    max_decisions: int
    chance: str = ("dice, shuffles and the first player come from a seeded xorshift32 "
                   "stream kept in the state: a seed and the actions fix the game")


def _save_error(e: JsonInputError, where: str) -> SaveError:
    """A save that cannot be read as JSON: SAVE-CORRUPT, with the reader's reason."""
    d = e.diagnostic
    what = {"JSON-SYNTAX": "not JSON", "JSON-DEPTH": "not a save (JSON nested too deep)",
            "FILE-TOO-BIG": "not a save (too big)", "FILE-ENCODING": "not JSON (not UTF-8)",
            "KEY-DUP": "a key named twice", "FILE-MISSING": "cannot read"}.get(d.code, d.code)
    place = (where or "<input>") + (f":{d.line}" if d.line else "") + \
        (f"#{d.pointer}" if d.pointer else "")
    return SaveError(f"{what}: {d.message}", where=place)


_BASE: Bundle | None = None


def base_bundle() -> Bundle:
    global _BASE  # noqa: PLW0603 -- one resolved base bundle per process
    if _BASE is None:
        _BASE = resolve()
    return _BASE


class _Seating:
    """What a game shares with its clones: the bundle and its core, the seats, the seed."""

    __slots__ = ("bundle", "factions", "seed", "core_module", "layout", "S", "consts",
                 "names", "space", "seats", "over_at")
    bundle: Bundle
    factions: list[str]
    seed: int
    core_module: CoreModule
    layout: dict
    S: dict[str, int]
    consts: dict[str, int]
    names: Names
    space: ActionSpace
    seats: list[int]
    over_at: int


def _fold(seed: int) -> int:
    """A seed of any size as the 32 bits the core's streams start from, every bit of it
    counting (splitmix64's finalizer): seeds that differ only in high bits differ."""
    x = seed & (2**64 - 1)
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
    return (x ^ (x >> 31)) & 0xFFFFFFFF


class Game:
    """One game of Root on a bundle's rules core.

    A game's own data is its core (with the state) and its history; the rest is shared
    with its clones (``_Seating``), so that a clone costs a copy of the state, not of
    every attribute."""

    def __init__(self, factions: Iterable[str] | None = None, seed: int = 0, *,
                 bundle: Bundle | None = None, pure: bool | None = None,
                 _restore: tuple[list[int], list[int]] | None = None):
        cfg = self._cfg = _Seating()
        cfg.bundle = bundle or base_bundle()
        # Default seats: every faction of the bundle, in setup order.
        cfg.factions = list(factions) if factions else [f.id for f in cfg.bundle.factions]
        if isinstance(seed, bool) or not isinstance(seed, int) or \
                not -(2**63) <= seed < 2**63:
            raise RootlawError(f"a seed is a 64-bit integer, not {seed!r}", code="VALUE-INVALID")
        cfg.seed = seed
        cfg.core_module = load_core(cfg.bundle, pure)
        mod = cfg.core_module.module
        cfg.layout = cfg.core_module.layout
        cfg.S = cfg.layout["state"]
        cfg.consts = cfg.layout["consts"]
        names = cfg.names = cfg.core_module.tables.names
        cfg.space = ActionSpace.of(cfg.layout, names)
        seats = []
        for fid in cfg.factions:
            if fid not in names["factions"]:
                raise RootlawError(unknown_name("faction", fid, names["factions"],
                                                list_known=None), code="REF-UNDEF")
            seats.append(names["factions"].index(fid))
        if len(set(seats)) != len(seats):
            raise RootlawError("a faction can only be seated once", code="VALUE-INVALID")
        if not 2 <= len(seats) <= cfg.consts["P"]:
            P = cfg.consts["P"]
            raise RootlawError(f"a game needs {'2' if P == 2 else f'2 to {P}'} factions "
                               f"(this bundle has {P})",
                               code="VALUE-INVALID")
        cfg.seats = seats
        cfg.over_at = cfg.S["OVER"]
        # A State counts writes from Python, so the core never reuses a listing of legal
        # actions across one (scenario helpers write g.state directly).
        self.state = mod.new_state()
        self._core = mod.Core(self.state)
        self._history: list[int] = []
        self._history_shared = False
        self._sampled = False  # made by determinize(): not a game that was played
        if _restore is None:
            self._core.init_game(seed, seats)
        else:
            state, history = _restore
            self.state[:] = array("q", state)
            self._history = list(history)

    @property
    def history(self) -> list[int]:
        """The decisions taken so far, as action indices (read it; do not change it: a
        clone may share the list until either game takes a decision)."""
        return self._history

    def _record(self, actions: list[int] | int) -> None:
        """Add decisions to the history.  A clone shares its parent's history list until
        one of them records a decision (copy on write): clone() copies no history."""
        if self._history_shared:
            self._history = self._history[:]
            self._history_shared = False
        if isinstance(actions, int):
            self._history.append(actions)
        else:
            self._history.extend(actions)

    # What the clones share, under the names the runtime has always used.
    bundle = property(lambda self: self._cfg.bundle)
    factions = property(lambda self: self._cfg.factions)
    seed = property(lambda self: self._cfg.seed)
    layout = property(lambda self: self._cfg.layout)
    S = property(lambda self: self._cfg.S)
    consts = property(lambda self: self._cfg.consts)
    names = property(lambda self: self._cfg.names)
    space = property(lambda self: self._cfg.space)
    _seats = property(lambda self: self._cfg.seats)
    _core_module = property(lambda self: self._cfg.core_module)

    # ------------------------------------------------------------------ basics

    @property
    def compiled(self) -> bool:
        return self._core_module.compiled

    def _s(self, name: str, i: int = 0) -> int:
        return self.state[self.S[name] + i]

    @property
    def num_players(self) -> int:
        return self._s("NPLAYERS")

    @property
    def is_over(self) -> bool:
        return self.state[self._cfg.over_at] != 0

    @property
    def winner(self) -> int | None:
        w = self._s("WINNER")
        return None if w < 0 else w

    @property
    def winner_faction(self) -> str | None:
        w = self.winner
        return None if w is None else self.factions[w]

    @property
    def scores(self) -> list[int]:
        return [self._s("VP", p) for p in range(self.num_players)]

    @property
    def to_play(self) -> int:
        """The seat whose decision is pending."""
        return self._core.to_play()

    @property
    def current(self) -> int:
        return self._s("CURRENT")

    @property
    def turn(self) -> int:
        return self._s("TURN")

    @property
    def phase(self) -> str:
        return PHASES[self._s("PHASE")]

    @property
    def decision(self) -> str | None:
        """What the pending decision is about: a frame kind when something interrupts
        a step ("ambush", "foil", "place", "pay", "phase_end", "battle_effects" ...),
        otherwise the step's op ("craft", "actions", "resolve_columns" ...; a step that
        runs a program, the program's name as the step's 'op' gives it); where a
        scenario holds the turn, "end_of_turn" or "end_of_phase"; None once the game is
        over.
        The same answer for every seat: it is public."""
        if self.is_over:
            return None
        stop = self._s("STOPPED")
        if stop:  # a scenario holds the turn where it (or a phase) ended
            return STOPS[stop - 1]
        depth = self._s("DEPTH")
        if depth > 0:
            top = self.S["FRAMES"] + (depth - 1) * self.consts["FRAME_FIELDS"]
            kind = self.names["frames"][self.state[top] - 1]
            if kind == "trigger_cost":  # named by the trigger: its verb (Law 6.2.3: rescue)
                return self.names["cost_triggers"][-1 - self.state[top + 2]]
            if kind == "zone_give" and self.state[top + 7] == -1:
                return "take"  # a card of the discard pile (models.TakePart)
            return kind
        t = self._core_module.tables
        st = self._s("STEP")
        op = self.names["ops"][t.table[t.table_layout.offsets["STEP_OP"] + st]]
        # A step that runs a program is the program's, by the name its 'op' gives it.
        return self.names["steps"][st] if op == "program" else op

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        """The pending decision's legal actions.  The core lists a decision once: asking
        again, or applying one, reuses that listing until the state changes."""
        return self._core.legal_actions()

    def action_mask(self, out=None):
        """The legal actions as an int8 mask over the action space (1 legal, 0 not),
        written into ``out`` (a writable array('b') or numpy int8 array of
        ``info.num_actions``, reused without a new array) or into a new array('b')."""
        try:
            return self._core.mask(out)
        except (TypeError, ValueError, BufferError) as e:
            raise RootlawError(f"action_mask: {e}", code="VALUE-INVALID") from None

    def note_edit(self) -> None:
        """Say that ``state`` was written other than by item assignment (through
        ``memoryview(g.state)`` or numpy): the pending decision is listed anew.  Item
        assignment (``g.state[i] = v``, what runtime/position.py does) needs no call."""
        self._core_module.module.note_edit()

    def notation(self, action: int) -> str:
        fac = self._seats[self.to_play] if not self.is_over else 0
        try:
            text = self.space.notation(action, fac)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        if text.startswith("battle ") or (text.startswith("use ") and " on seat" in text):
            # Name the defender (the target) by faction, not seat.
            head, seat = text.rsplit(" seat", 1)
            text = f"{head} {self.factions[int(seat)]}"
        return text

    def legal(self) -> dict[str, int]:
        """Legal actions by notation."""
        return {self.notation(a): a for a in self.legal_actions()}

    def parse(self, text: str) -> int:
        legal = self.legal()
        if text in legal:
            return legal[text]
        raise IllegalAction(f"{text!r} is not legal now (to play: "
                            f"{self.factions[self.to_play]}; legal: "
                            f"{', '.join(sorted(legal)[:12])}{' ...' if len(legal) > 12 else ''})")

    def apply(self, action: int | str) -> None:
        """Apply one decision (index or notation); an illegal one changes nothing."""
        if type(action) is int:  # the common case: one call into the core
            try:
                if self._core.apply(action):
                    self._record(action)
                    return
            except OverflowError:  # beyond 64 bits: refused below
                pass
        self._apply_checked(action)

    def _apply_checked(self, action: int | str) -> None:
        """apply() for notation, other types and actions the core refused: the error
        that says why, or the action applied."""
        if self.is_over:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            action = self.parse(action)
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"an action is an int or a notation string, not {action!r}")
        if not 0 <= action < self.space.size or not self._core.apply(int(action)):
            raise IllegalAction(f"action {action} is not legal now")
        self._record(int(action))

    def playout(self, agent_seed: int, max_decisions: int = MAX_DECISIONS) -> int:
        """Random agents play on inside the core (fast path); returns decisions taken."""
        trace = self._core.playout_trace(agent_seed, max_decisions)
        self._record(trace)
        return len(trace)

    # ------------------------------------------------------------------ copies and saves

    def clone(self) -> Game:
        """An independent copy: the core copies its state (and its listing of legal
        actions) into a new core; the history is shared until either game takes a
        decision (copy on write), the rest shared for good."""
        g = object.__new__(type(self))
        g._cfg = self._cfg
        core = g._core = self._core.clone()
        g.state = core.state
        g._history = self._history
        g._history_shared = self._history_shared = True
        g._sampled = self._sampled
        return g

    def determinize(self, seat: int | None, rng: int | random.Random | None = None, *,
                    cards: bool = True, future: bool = True) -> Game:
        """A copy of the game in which what ``seat`` cannot see is sampled again,
        consistently with what it has seen: the cards in other hands, in face-down zones
        and the deck's order are dealt again among the places they fill (every count
        stays; a card the seat knows the place of stays there: one it was shown, gave or
        saw taken face up), and the future (dice, shuffles, random takes) is drawn from a
        fresh stream.  ``seat``'s observation of the copy is its observation of this
        game.  What a search agent plays on, rather than the real state (Law 1.2).

        ``rng``: a seed, a ``random.Random`` (one 63-bit draw), or None (OS entropy).
        ``cards`` / ``future`` False keeps that part as it is.  ``seat`` None samples
        what no seat sees: the deck's order (with ``cards``) and the future.  The copy is
        a sample, not a game that was played: it cannot be saved (``SAVE-SAMPLED``)."""
        if seat is not None:
            self._seat(seat)
        if rng is None:
            seed = random.SystemRandom().getrandbits(63)
        elif isinstance(rng, random.Random):
            seed = rng.getrandbits(63)
        elif isinstance(rng, int) and not isinstance(rng, bool):
            seed = rng
        else:
            raise RootlawError(f"determinize: rng is a seed or a random.Random, not {rng!r}",
                               code="VALUE-INVALID")
        g = self.clone()
        what = (1 if seat is not None else 4) * int(cards) | 2 * int(future)
        g._core.determinize(seat if seat is not None else 0, _fold(seed), what)
        g._sampled = True
        return g

    def record_events(self, on: bool = True) -> None:
        """Start (or stop) recording what happens (runtime/events.py): cards moved,
        pieces placed and removed, VP and why, dice, hits, hands shown ...; read them
        with ``take_events``.  Off by default: a game that does not ask pays nothing."""
        self._core.events_on(int(bool(on)))

    def take_events(self) -> list:
        """The events (``rootlaw.runtime.events.Event``) since the last call."""
        from .events import decode

        return decode(self, self._core.take_events())

    def knowledge(self, seat: int) -> list[int]:
        """What ``seat`` knows of where each physical card is: 0 where it knows, else a
        group number (it cannot tell apart the hidden cards of one group).  Only the
        cards in places hidden from the seat mean anything (it sees the rest)."""
        return list(self._core.knowledge(self._seat(seat)))

    def to_dict(self) -> dict:
        """The save: its format, the content it was played on (the bundle hash, and the
        packs, map and deck that make it: see runtime/content.py), the seats, the seed,
        the actions taken and the state they lead to."""
        if self._sampled:
            raise SaveError("a determinized game is a sample of what a seat cannot see, "
                            "not a game that was played: no seed and actions reach it",
                            code="SAVE-SAMPLED")
        return {
            "format": SAVE_FORMAT,
            "bundle": self.bundle.hash,
            **content.record(self.bundle),
            "factions": self.factions,
            "seed": self.seed,
            "actions": list(self.history),
            "state": list(self.state),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object, *, bundle: Bundle | None = None,
                  pure: bool | None = None, where: str = "",
                  packs: Sequence[str | os.PathLike] | None = None, map_id: str | None = None,
                  deck_id: str | None = None) -> Game:
        """A game from a save's data: every value is checked (a wrong type anywhere is a
        SaveError at its pointer), then the actions are replayed and the state compared.

        The content is the save's own (its packs found again: ``packs`` are folders to
        look in first, see runtime/content.py), or ``bundle`` when given."""
        if not isinstance(data, dict):
            raise SaveError("a save is a JSON object", where=where)

        def at(key: str) -> str:
            return f"{where}#/{key}"

        def fail(message: str, place: str) -> None:
            raise SaveError(message, where=place)

        for key in ("format", "bundle", "factions", "seed", "actions", "state"):
            if key not in data:
                raise SaveError(f"missing key {key!r}", where=at(key).lstrip("#"))
        fmt = data["format"]
        if type(fmt) is not int or fmt not in (1, SAVE_FORMAT):
            raise SaveError(f"unsupported save format {fmt!r} (this rootlaw reads formats 1 "
                            f"and {SAVE_FORMAT})", where=at("format"))
        if not isinstance(data["bundle"], str):
            raise SaveError("'bundle' must be a bundle hash (a string)", where=at("bundle"))
        opts = content.Options.of(packs, map_id, deck_id)
        if bundle is None and fmt == 1:
            named = data.get("packs")
            ids = named if isinstance(named, list) and \
                all(isinstance(x, str) for x in named) else None
            bundle = content.legacy_bundle(data["bundle"], opts, "SAVE", SaveError, where, ids)
        elif bundle is None:
            recs, m, d = content.parse_record(data, fail, at)
            bundle = content.bundle_of(recs, m, d, data["bundle"], opts, "SAVE", SaveError,
                                       where)
        if data["bundle"] != bundle.hash:
            raise SaveError(f"the save is for bundle {data['bundle']}, this is {bundle.hash}",
                            where=where, code="SAVE-BUNDLE")
        acts, st, seed = data["actions"], data["state"], data["seed"]
        if not (isinstance(acts, list) and all(type(a) is int for a in acts)):
            raise SaveError("'actions' must be a list of integers", where=at("actions"))
        if not (isinstance(st, list) and all(type(v) is int for v in st)):
            raise SaveError("'state' must be a list of integers", where=at("state"))
        if type(seed) is not int or not -(2**63) <= seed < 2**63:
            raise SaveError("'seed' must be a 64-bit integer", where=at("seed"))
        fs = data["factions"]
        if not (isinstance(fs, list) and fs and all(isinstance(f, str) for f in fs)):
            raise SaveError("'factions' must be a non-empty list of faction ids",
                            where=at("factions"))
        # Replay the actions: a save must be a game the rules can reach.
        try:
            g = cls(fs, seed, bundle=bundle, pure=pure)
        except RootlawError as e:
            raise SaveError(e.message, where=at("factions")) from None
        for i, a in enumerate(acts):
            try:
                g.apply(a)
            except IllegalAction:
                raise SaveError(f"action #{i} ({a}) is not legal when replayed",
                                where=at(f"actions/{i}")) from None
        if len(st) != len(g.state) or g.live_state() != g.live_state(st):
            raise SaveError("the saved state does not match its replayed actions",
                            where=at("state"))
        return g

    def live_state(self, state=None) -> list[int]:
        """The state (this game's, or a saved one of this bundle) without the decision
        stack's slots above its depth: what is left there by frames already answered
        is no part of the game (a push clears the slot it takes), so how the engine
        lays out its frames inside an answer may change without a save made before
        the change being refused."""
        st = list(self.state if state is None else state)
        ff = self.consts["FRAME_FIELDS"]
        start = self.S["FRAMES"] + st[self.S["DEPTH"]] * ff
        end = self.S["FRAMES"] + self.consts["MAX_FRAMES"] * ff
        for i in range(max(start, self.S["FRAMES"]), min(end, len(st))):
            st[i] = 0
        return st

    @classmethod
    def from_json(cls, text: str, **kw) -> Game:
        where = kw.pop("where", "")
        if not isinstance(text, str):
            raise SaveError("a save is JSON text", where=where)
        try:
            data = parse(text, where or "<input>").data
        except JsonInputError as e:
            raise _save_error(e, where) from None
        return cls.from_dict(data, where=where, **kw)

    def save(self, path: str | os.PathLike) -> None:
        """Write the save atomically; a failure (a missing folder, no permission, a full
        disk) is a FileError (IO-ERROR) naming the path, never a raw OSError."""
        write_atomic(Path(path), self.to_json() + "\n", parents=False)

    @classmethod
    def load(cls, path: str | os.PathLike, **kw) -> Game:
        """Read a save (at most SAVE_MAX_BYTES) and replay it; anything wrong is a
        SaveError naming the file and, where it can, the line or JSON pointer."""
        try:
            text = read_text(path, max_bytes=SAVE_MAX_BYTES)
        except JsonInputError as e:
            raise _save_error(e, str(path)) from None
        return cls.from_json(text, where=str(path), **kw)

    # ------------------------------------------------------------------ views

    def token_faces(self, pc: int) -> list[str]:
        """The faces of token pc if it is laid face down with faces its owner knows
        (models.Piece.faces), else none."""
        off = self._core_module.tables.table_layout.offsets.get("PIECE_FACES")
        if off is None:
            return []
        mask = self._core_module.tables.table[off + pc]
        return [n for i, n in enumerate(self.names["pieces"]) if (mask >> i) & 1]

    def faces_down(self, seat: int) -> dict[str, str]:
        """The faces of seat's own tokens lying face down (models.Piece.faces, Law
        13.2.2): clearing -> the face its token there hides.  Only seat knows them, so
        ``observation`` shows a seat its own alone; empty in a bundle without such
        tokens."""
        self._seat(seat)
        if "HFACE" not in self.S:
            return {}
        C = self.consts["C"]
        at = self.S["HFACE"] + seat * C
        return {self.names["clearings"][c]: self.names["pieces"][self.state[at + c] - 1]
                for c in range(C) if self.state[at + c]}

    def faces_ruled_out(self, seat: int) -> dict[str, list[str]]:
        """The faces seat's tokens lying face down are known not to hide (wrong guesses,
        answered aloud: Law 13.2.4): clearing -> those faces.  Public; empty in a bundle
        without such tokens."""
        self._seat(seat)
        if "FACE_NOT" not in self.S:
            return {}
        C, t = self.consts["C"], self._core_module.tables
        first = t.table[t.table_layout.offsets["FACTION_FIRST_PIECE"] + self._seats[seat]]
        out = {}
        for c in range(C):
            mask = self.state[self.S["FACE_NOT"] + seat * C + c]
            if mask:
                out[self.names["clearings"][c]] = [
                    self.names["pieces"][first + i] for i in range(mask.bit_length())
                    if (mask >> i) & 1]
        return out

    def piece_counts(self) -> dict[str, dict[str, int]]:
        """Pieces on the map: clearing -> piece -> count."""
        C, NP = self.consts["C"], self.consts["NP"]
        out = {}
        for c in range(C):
            row = {}
            for pc in range(NP):
                n = self.state[self.S["BOARD"] + c * NP + pc]
                if n:
                    row[self.names["pieces"][pc]] = n
            out[self.names["clearings"][c]] = row
        return out

    def forest_counts(self) -> dict[str, dict[str, int]]:
        """Pieces in forests: forest -> piece -> count (every forest listed, empty ones
        too, where the bundle's content puts pieces in forests; else none)."""
        if "FOREST" not in self.S:
            return {}
        NP = self.consts["NP"]
        at = self.S["FOREST"]
        return {fo: {self.names["pieces"][pc]: n for pc in range(NP)
                     if (n := self.state[at + i * NP + pc])}
                for i, fo in enumerate(self.names["forests"])}

    @property
    def card_defs(self) -> list[int]:
        """The card def of each physical card (static for the bundle)."""
        t = self._core_module.tables
        off = t.table_layout.offsets["CARD_DEF"]
        return t.table[off:off + self.consts["N"]]

    def cards_at(self, loc: int) -> list[str]:
        at = self.S["CARD_LOC"]
        return [self.names["cards"][d] for i, d in enumerate(self.card_defs)
                if self.state[at + i] == loc]

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < self.num_players:
            raise RootlawError(f"no seat {seat!r} (seats 0..{self.num_players - 1})",
                               code="REF-UNDEF")
        return seat

    def _clearing(self, clearing: str | int) -> int:
        try:
            return self.names["clearings"].index(str(clearing))
        except ValueError:
            raise RootlawError(f"no clearing {clearing!r} on this map",
                               code="REF-UNDEF") from None

    def hand(self, seat: int) -> list[str]:
        return self.cards_at(self.consts["LOC_HAND"] + self._seat(seat))

    def zone_loc(self, seat: int, zone: str) -> int:
        """The card location of a seat's zone (the core's LOC_ZONE + seat * Z + zone)."""
        zones = self.names["zones"][self._seats[self._seat(seat)]]
        if zone not in zones:
            raise RootlawError(f"{self.factions[seat]} has no zone {zone!r}"
                               f"{' (zones: ' + ', '.join(zones) + ')' if zones else ''}",
                               code="REF-UNDEF")
        return self.consts["LOC_ZONE"] + seat * self.consts["Z"] + zones.index(zone)

    def zone(self, seat: int, zone: str) -> list[str]:
        """The cards in a seat's zone (whoever may see them: this is the whole state)."""
        return self.cards_at(self.zone_loc(seat, zone))

    def zone_face_down(self, seat: int, zone: str) -> bool:
        """Whether only the seat sees the cards of its zone (its content's face_down)."""
        f = self._seats[self._seat(seat)]
        zones = self.names["zones"][f]
        if zone not in zones:
            raise RootlawError(f"{self.factions[seat]} has no zone {zone!r}", code="REF-UNDEF")
        return bool(self.bundle.factions[f].zones[zones.index(zone)].face_down)

    def zones(self, seat: int) -> dict[str, list[str]]:
        return {z: self.zone(seat, z) for z in self.names["zones"][self._seats[self._seat(seat)]]}

    def box_index(self, seat: int, box: str) -> int:
        """The state index of a seat's box (S_BOX + seat * B + box)."""
        boxes = self.names["boxes"][self._seats[self._seat(seat)]]
        if box not in boxes:
            raise RootlawError(f"{self.factions[seat]} has no box {box!r}"
                               f"{' (boxes: ' + ', '.join(boxes) + ')' if boxes else ''}",
                               code="REF-UNDEF")
        return self.S["BOX"] + seat * self.consts["B"] + boxes.index(box)

    def box(self, seat: int, box: str) -> int:
        """How many warriors are in a seat's box."""
        return self.state[self.box_index(seat, box)]

    def boxes(self, seat: int) -> dict[str, int]:
        return {b: self.box(seat, b) for b in self.names["boxes"][self._seats[self._seat(seat)]]}

    def columns(self, seat: int) -> dict[str, list[str]]:
        f = self._seats[self._seat(seat)]
        L = self.consts["L"]
        return {col: self.cards_at(self.consts["LOC_COLUMN"] + seat * L + i)
                for i, col in enumerate(self.names["columns"][f])}

    def play_area(self, seat: int) -> list[str]:
        """Cards in a seat's play area (Law 2.1.4): persistent cards it crafted, its
        activated dominance card; public."""
        return self.cards_at(self.consts["LOC_PLAY"] + self._seat(seat))

    def used_effects(self, seat: int) -> list[str]:
        """The usable effects a seat has used this turn (this battle, for battle
        effects); public."""
        U = self.consts["U"]
        at = self.S["USED"] + self._seat(seat) * U
        return [self.names["effects"][u] for u in range(U) if self.state[at + u]]

    def cycles(self, seat: int) -> dict[str, str]:
        """Where each of a seat's cycles stands: cycle id -> its current stage (the
        faction's 'cycles'); public."""
        f, ncyc = self._seats[self._seat(seat)], self.consts["NCYC"]
        return {cy: self.names["stages"][f][k][self._s("CYCLE", seat * ncyc + k)]
                for k, cy in enumerate(self.names["cycles"][f])}

    def seen_hand(self, viewer: int, seat: int) -> tuple[list[str], int] | None:
        """What viewer saw of seat's hand when it was last shown to viewer (Law 1.2.1
        'show'), and the turn it saw it; None if never.  Only viewer's own observation
        holds it."""
        P, K = self.consts["P"], self.consts["K"]
        viewer, seat = self._seat(viewer), self._seat(seat)
        r = (seat - viewer) % self.num_players  # kept from the viewer on
        turn = self.state[self.S["SEEN_TURN"] + viewer * P + r]
        if not turn:
            return None
        at = self.S["SEEN"] + (viewer * P + r) * K
        return ([name for d, name in enumerate(self.names["cards"])
                 for _ in range(self.state[at + d])], turn)

    def battle(self) -> dict | None:
        """The battle in progress (public): who fights where, at which step, the rolled
        hits each side deals (once rolled), extra hits, and hits ignored; None without."""
        stage = self._s("B_STAGE")
        if not stage:
            return None
        att, dfn = self._s("B_ATT"), self._s("B_DEF")
        return {"attacker": self.factions[att], "defender": self.factions[dfn],
                "clearing": self.names["clearings"][self._s("B_AT")], "stage": stage,
                "rolled": {"attacker": self._s("B_ROLL_ATT"), "defender": self._s("B_ROLL_DEF")},
                "extra_hits": {"attacker": self._s("B_EXTRA_ATT"),
                               "defender": self._s("B_EXTRA_DEF")},
                "ignores_rolled_hits": {"attacker": bool(self._s("B_IGNORE_ATT")),
                                        "defender": bool(self._s("B_IGNORE_DEF"))}}

    def ruler(self, clearing: str) -> str | None:
        r = self._core.ruler_of(self._clearing(clearing))
        return None if r < 0 else self.factions[r]

    @property
    def info(self) -> GameInfo:
        return GameInfo(bundle=self.bundle.hash, factions=tuple(self.names["factions"]),
                        min_players=2, max_players=self.consts["P"],
                        num_actions=self.space.size,
                        observation_size=self.consts["OBS_SIZE"],
                        victory_points=VICTORY_POINTS, max_decisions=MAX_DECISIONS)

    @property
    def observation_layout(self) -> dict[str, tuple[int, int]]:
        """Field name -> (offset, size) of ``observation_vector``: OBSERVATION in
        generator/tables.py, placed for the bundle (docs/agents.md describes the fields)."""
        return dict(self.layout["observation"])

    @property
    def observation_visibility(self) -> dict[str, str]:
        """Field name -> who sees it: "public" (everyone), "owner" (the observer's own
        part only: its hand), "hidden" (cards nobody sees, shown as how many),
        "face_up" (the cards of the places face up to everyone: face-up zones)."""
        return dict(self.layout["observation_visibility"])

    def observation_vector(self, seat: int, out=None):
        """The seat's observation as one flat int64 vector of fixed length per bundle
        (``info.observation_size``), players listed from the seat on; it holds what
        ``observation`` holds.  Encoded by the core, into ``out`` (a writable array('q')
        or numpy int64 array, reused without a new array) or into a new array('q')."""
        if type(seat) is not int:
            self._seat(seat)  # refuses all but a seat number
        try:
            v = self._core.observe(seat, out)
        except (TypeError, ValueError, BufferError) as e:
            raise RootlawError(f"observation_vector: {e}", code="VALUE-INVALID") from None
        except OverflowError:
            v = None
        if v is None:
            self._seat(seat)  # no such seat: says so
        return v

    def observation(self, seat: int) -> dict:
        """What seat can see: its own hand, others' hand sizes, public board and piles."""
        self._seat(seat)
        players = []
        for q in range(self.num_players):
            f = self._seats[q]
            role = self._s("ROLE", q)
            players.append({
                "faction": self.factions[q],
                "vp": self._s("VP", q),
                "hand_size": len(self.hand(q)),
                "hand": self.hand(q) if q == seat else None,
                "columns": self.columns(q),
                "role": self.names["roles"][f][role] if role >= 0 else None,
                "crafted": {it: self.state[self.S["CRAFTED"] + q * self.consts["I"] + i]
                            for i, it in enumerate(self.names["items"])},
                # how many of them are exhausted, face down (0 where no rule exhausts)
                "exhausted": self._s("EXHAUSTED", q) if "EXHAUSTED" in self.S else 0,
                # An activated dominance card lies face up (Law 3.3.1); cards in play.
                "dominance": (self.names["cards"][self._s("DOMINANCE", q)]
                              if self._s("DOMINANCE", q) >= 0 else None),
                "play_area": self.play_area(q),
                "used_effects": self.used_effects(q),
                # A zone's size is public, its cards its owner's only when it is face
                # down (Law 8.2.3), everyone's when face up;
                # boxes are public.
                "zones": {z: {"size": len(cards),
                              "cards": cards if q == seat or not self.zone_face_down(q, z)
                              else None}
                          for z, cards in self.zones(q).items()},
                "boxes": self.boxes(q),
                "cycles": self.cycles(q),
                # The faces its tokens lying face down hide: its own only (Law 13.2.2).
                "faces_down": self.faces_down(q) if q == seat else None,
                # What wrong guesses ruled out of them (Law 13.2.4): everyone heard.
                "faces_ruled_out": self.faces_ruled_out(q),
            })
        seen = {}
        for q in range(self.num_players):
            shown = self.seen_hand(seat, q) if q != seat else None
            if shown is not None:
                seen[self.factions[q]] = {"cards": shown[0], "turn": shown[1]}
        return {
            "seat": seat,
            "turn": self.turn,
            "phase": self.phase,
            "current": self.current,
            "to_play": self.to_play,
            "decision": self.decision,
            "players": players,
            "board": self.piece_counts(),
            **({"forests": self.forest_counts()} if "FOREST" in self.S else {}),
            "discard": self.cards_at(self.consts["LOC_DISCARD"]),
            # Law 3.3.3: face up, public; removed from the game, e.g. Law 5.1.3
            "available_dominance": self.cards_at(self.consts["LOC_AVAILABLE"]),
            "removed": self.cards_at(self.consts["LOC_OUT"]),
            "deck_size": self._s("DECK_LEN"),
            "items": {it: self._s("ITEMS", i) for i, it in enumerate(self.names["items"])},
            "battle": self.battle(),
            # Hands shown to this seat only (a 'show' part): what it saw, and when.
            "seen": seen,
            "over": self.is_over,
            "winner": self.winner_faction,
        }


__all__ = ["Game", "GameInfo", "IllegalAction", "RootlawError", "SaveError", "SpecError",
           "base_bundle", "write_atomic"]
