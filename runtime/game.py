"""The Game API: new, legal actions, apply, clone, save/load, observation.

A game is its seed, its seats and the actions taken; the core keeps everything else in
one flat int64 array, so cloning is a copy and a save is a list of numbers that is also
checked by replaying its actions.
"""

from __future__ import annotations

import json
import os
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rootlaw.generator.build import write_atomic
from rootlaw.generator.tables import STOPS
from rootlaw.spec import Bundle, SpecError, resolve
from rootlaw.spec.jsonio import SAVE_MAX_BYTES, JsonInputError, parse, read_text

from .core import CoreModule, load_core
from .encode import ObservationEncoder
from .errors import IllegalAction, RootlawError, SaveError
from .notation import ActionSpace

SAVE_FORMAT = 1
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
_ENCODERS: dict[str, ObservationEncoder] = {}  # one per bundle


def base_bundle() -> Bundle:
    global _BASE  # noqa: PLW0603 -- one resolved base bundle per process
    if _BASE is None:
        _BASE = resolve()
    return _BASE


class Game:
    """One game of Root on a bundle's rules core."""

    def __init__(self, factions: Iterable[str] | None = None, seed: int = 0, *,
                 bundle: Bundle | None = None, pure: bool | None = None,
                 _restore: tuple[list[int], list[int]] | None = None):
        self.bundle = bundle or base_bundle()
        # Default seats: every faction of the bundle, in setup order.
        self.factions = list(factions) if factions else [f.id for f in self.bundle.factions]
        if isinstance(seed, bool) or not isinstance(seed, int) or \
                not -(2**63) <= seed < 2**63:
            raise RootlawError(f"a seed is a 64-bit integer, not {seed!r}", code="VALUE-INVALID")
        self.seed = seed
        self._core_module: CoreModule = load_core(self.bundle, pure)
        mod = self._core_module.module
        self.layout = self._core_module.layout
        self.S = self.layout["state"]
        self.consts = self.layout["consts"]
        names = self._core_module.tables.names
        self.names = names
        self.space = ActionSpace.of(self.layout, names)
        seats = []
        for fid in self.factions:
            if fid not in names["factions"]:
                raise RootlawError(f"unknown faction {fid!r} (known: "
                                   f"{', '.join(names['factions'])})", code="REF-UNDEF")
            seats.append(names["factions"].index(fid))
        if len(set(seats)) != len(seats):
            raise RootlawError("a faction can only be seated once", code="VALUE-INVALID")
        if not 2 <= len(seats) <= self.consts["P"]:
            P = self.consts["P"]
            raise RootlawError(f"a game needs {'2' if P == 2 else f'2 to {P}'} factions "
                               f"(this bundle has {P})",
                               code="VALUE-INVALID")
        self._seats = seats
        self.state = array("q", [0]) * self.consts["STATE_SIZE"]
        self._core = mod.Core(self.state)
        self.history: list[int] = []
        if _restore is None:
            self._core.init_game(self.seed, seats)
        else:
            state, history = _restore
            self.state[:] = array("q", state)
            self.history = list(history)

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
        return bool(self._s("OVER"))

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
        a step ("ambush", "foil", "place", "pay", "daylight_end" ...), otherwise the
        step's op ("craft", "actions", "resolve_columns" ...); where a scenario holds the
        turn, "end_of_turn" or "end_of_phase"; None once the game is over.
        The same answer for every seat: it is public."""
        if self.is_over:
            return None
        stop = self._s("STOPPED")
        if stop:  # a scenario holds the turn where it (or a phase) ended
            return STOPS[stop - 1]
        depth = self._s("DEPTH")
        if depth > 0:
            return self.names["frames"][self.state[self.S["FRAMES"] + (depth - 1) * 4] - 1]
        t = self._core_module.tables
        op = t.table[t.table_layout.offsets["STEP_OP"] + self._s("STEP")]
        return self.names["ops"][op]

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        return self._core.legal_actions()

    def notation(self, action: int) -> str:
        fac = self._seats[self.to_play] if not self.is_over else 0
        try:
            text = self.space.notation(action, fac)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        if text.startswith("battle "):
            # Name the defender by faction, not seat.
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
        if self.is_over:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            action = self.parse(action)
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"an action is an int or a notation string, not {action!r}")
        if not 0 <= action < self.space.size or not self._core.apply(action):
            raise IllegalAction(f"action {action} is not legal now")
        self.history.append(action)

    def playout(self, agent_seed: int, max_decisions: int = MAX_DECISIONS) -> int:
        """Random agents play on inside the core (fast path); returns decisions taken."""
        trace = self._core.playout_trace(agent_seed, max_decisions)
        self.history.extend(trace)
        return len(trace)

    # ------------------------------------------------------------------ copies and saves

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = array("q", self.state)
        g._core = self._core_module.module.Core(g.state)
        g.history = list(self.history)
        return g

    def to_dict(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "bundle": self.bundle.hash,
            "packs": list(self.bundle.packs),
            "factions": self.factions,
            "seed": self.seed,
            "actions": list(self.history),
            "state": list(self.state),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: object, *, bundle: Bundle | None = None,
                  pure: bool | None = None, where: str = "") -> Game:
        """A game from a save's data: every value is checked (a wrong type anywhere is a
        SaveError at its pointer), then the actions are replayed and the state compared."""
        if not isinstance(data, dict):
            raise SaveError("a save is a JSON object", where=where)

        def at(key: str) -> str:
            return f"{where}#/{key}"

        for key in ("format", "bundle", "factions", "seed", "actions", "state"):
            if key not in data:
                raise SaveError(f"missing key {key!r}", where=at(key).lstrip("#"))
        if type(data["format"]) is not int or data["format"] != SAVE_FORMAT:
            raise SaveError(f"unsupported save format {data['format']!r}", where=at("format"))
        bundle = bundle or base_bundle()
        if not isinstance(data["bundle"], str):
            raise SaveError("'bundle' must be a bundle hash (a string)", where=at("bundle"))
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
        if list(g.state) != st:
            raise SaveError("the saved state does not match its replayed actions",
                            where=at("state"))
        return g

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

    def ruler(self, clearing: str) -> str | None:
        r = self._core.ruler_of(self._clearing(clearing))
        return None if r < 0 else self.factions[r]

    @property
    def info(self) -> GameInfo:
        return GameInfo(bundle=self.bundle.hash, factions=tuple(self.names["factions"]),
                        min_players=2, max_players=self.consts["P"],
                        num_actions=self.space.size, observation_size=self._encoder().size,
                        victory_points=VICTORY_POINTS, max_decisions=MAX_DECISIONS)

    @property
    def observation_layout(self) -> dict[str, tuple[int, int]]:
        """Field name -> (offset, size) of ``observation_vector`` (see runtime/encode.py)."""
        return self._encoder().layout

    def observation_vector(self, seat: int) -> array:
        """The seat's observation as one flat int64 array of fixed length per bundle,
        players listed from the seat on; it holds what ``observation`` holds."""
        return self._encoder().encode(self, self._seat(seat))

    def _encoder(self) -> ObservationEncoder:
        enc = _ENCODERS.get(self.bundle.hash)
        if enc is None:
            enc = _ENCODERS[self.bundle.hash] = ObservationEncoder(self.consts, self.names)
        return enc

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
                # An activated dominance card lies face up (Law 3.3.1); cards in play.
                "dominance": (self.names["cards"][self._s("DOMINANCE", q)]
                              if self._s("DOMINANCE", q) >= 0 else None),
                "play_area": self.cards_at(self.consts["LOC_PLAY"] + q),
                # A zone's size is public; its cards only to its owner unless it is
                # public (Law 8.2.3: such a stack is face down).  Boxes are public.
                "zones": {z: {"size": len(cards),
                              "cards": cards if q == seat or vis == "public" else None}
                          for (z, cards), vis in zip(self.zones(q).items(),
                                                     self.names["zone_visibility"][f],
                                                     strict=True)},
                "boxes": self.boxes(q),
            })
        return {
            "seat": seat,
            "turn": self.turn,
            "phase": self.phase,
            "current": self.current,
            "to_play": self.to_play,
            "decision": self.decision,
            "players": players,
            "board": self.piece_counts(),
            "discard": self.cards_at(self.consts["LOC_DISCARD"]),
            # Law 3.3.3: face up, public; removed from the game, e.g. Law 5.1.3
            "available_dominance": self.cards_at(self.consts["LOC_AVAILABLE"]),
            "removed": self.cards_at(self.consts["LOC_OUT"]),
            "deck_size": self._s("DECK_LEN"),
            "items": {it: self._s("ITEMS", i) for i, it in enumerate(self.names["items"])},
            "over": self.is_over,
            "winner": self.winner_faction,
        }


__all__ = ["Game", "GameInfo", "IllegalAction", "RootlawError", "SaveError", "SpecError",
           "base_bundle", "write_atomic"]
