"""Rules scenarios: put a game in a chosen position, act, and check the outcome.

A scenario file (JSON) names the factions and a seed, a ``position`` to set, and
``steps``: decisions to take (by notation) and what must hold after them.  Every key is
a row of one table, ``KEYS``: how its value is read (checked like content, with a JSON
pointer for every problem), how it sets the game (``position``) and how it is checked
(``expect``).  ``docs/scenarios.md`` is generated from that table
(``rootlaw scenario --docs --out docs/scenarios.md``).  Adding a key for a new part of
the state is one row: a reader, a setter and a checker.

A scenario can fail in two ways: an expectation that does not hold (a failure, located
by step and JSON pointer), or a file that cannot mean anything (``SCENARIO-INVALID``:
an unknown key, a value of the wrong type or out of bounds, a name the content does not
have, an action notation the engine cannot express).  Expectations are checked against
the bundle's whole action space, so a misspelt ``not_legal`` is an error, not a pass.

``rootlaw scenario FILES...`` runs them (see ``run_scenario``); ``rootlaw validate FILE``
reads one against the content without running it (``validate_file``).  The JSON Schema
of the files (``spec/schema/scenario.schema.json``, ``rootlaw schema --scenario``) is
built from the same table (``json_schema``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rootlaw.spec import SpecError, resolve
from rootlaw.spec.diagnostics import Diagnostic, line_index, nearest_line
from rootlaw.spec.jsonio import SCENARIO_MAX_BYTES, JsonInputError, parse, read_json, read_text
from rootlaw.spec.words import (
    did_you_mean,
    is_not,
    listing,
    out_of_range,
    pointer_subject,
    quoted,
    unknown_key,
    unknown_name,
)

from . import position as pos
from .core import compiled_available, want_pure
from .errors import IllegalAction, RootlawError
from .game import Game
from .position import (  # noqa: F401 -- the editing functions, for tests and tools
    card_defs,
    clear_board,
    column_loc,
    count,
    goto,
    move_card,
    piece_index,
    put,
    seat_of,
    set_dice,
    set_hand,
    set_role,
    set_ruins,
    set_vp,
    supply,
)

PHASE_CODES = pos.PHASE_CODES
MAX_STEPS = 10_000   # decisions in one scenario, a bound against runaway files
STOPS = tuple(pos.STOPS)  # where stop_at can hold the turn


class Invalid(Exception):
    """A scenario file that cannot mean anything: SCENARIO-INVALID at a JSON pointer."""

    def __init__(self, ptr: str, message: str):
        super().__init__(message)
        self.ptr = ptr
        self.message = message


def pointer(base: str, *parts: object) -> str:
    """Extend a JSON pointer (RFC 6901: '~' and '/' in a name are escaped)."""
    for p in parts:
        base += "/" + str(p).replace("~", "~0").replace("/", "~1")
    return base


# ---------------------------------------------------------------------- reading values


@dataclass
class Reader:
    """Reads one scenario's values against its game: names must exist, numbers be in
    bounds.  ``side`` is "position" or "expect" (bounds differ a little)."""

    g: Game
    side: str = "position"
    _notations: frozenset[str] | None = field(default=None, repr=False)

    # ---- shapes

    # The words are content's (rootlaw.spec.words): "'count' is a whole number, not the
    # text "3"", "unknown card ... (did you mean ...?)".

    def obj(self, v: object, ptr: str, what: str = "an object") -> dict:
        if not isinstance(v, dict):
            raise wrong(ptr, what, v)
        return v

    def lst(self, v: object, ptr: str, what: str = "a list") -> list:
        if not isinstance(v, list):
            raise wrong(ptr, what, v)
        return v

    def int_(self, v: object, ptr: str, lo: int, hi: int, what: str = "a whole number") -> int:
        if type(v) is not int:
            raise wrong(ptr, what, v)
        if not lo <= v <= hi:
            raise Invalid(ptr, out_of_range(pointer_subject(ptr), v, lo, hi))
        return v

    def str_(self, v: object, ptr: str, what: str = "text") -> str:
        if not isinstance(v, str):
            raise wrong(ptr, what, v)
        return v

    def bool_(self, v: object, ptr: str) -> bool:
        if not isinstance(v, bool):
            raise wrong(ptr, "true or false", v)
        return v

    def one_of(self, v: object, ptr: str, known: list[str], what: str) -> str:
        self.str_(v, ptr, f"a {what} id")
        if v not in known:
            raise Invalid(ptr, unknown_name(what, v, known, list_known=None))
        return v

    # ---- names

    def faction(self, v: object, ptr: str) -> str:
        return self.one_of(v, ptr, self.g.factions, "seated faction")

    def clearing(self, v: object, ptr: str) -> str:
        return self.one_of(v, ptr, self.g.names["clearings"], "clearing")

    def piece(self, v: object, ptr: str) -> str:
        name = self.one_of(v, ptr, self.g.names["pieces"], "piece")
        owner = pos.piece_owner(self.g, name)
        if owner not in self.g.factions:
            raise Invalid(ptr, f"{name!r} belongs to {owner}, who is not seated")
        return name

    def card(self, v: object, ptr: str) -> str:
        return self.one_of(v, ptr, self.g.names["cards"], "card")

    def cards(self, v: object, ptr: str) -> list[str]:
        out = [self.card(c, pointer(ptr, i)) for i, c in enumerate(self.lst(v, ptr))]
        for cid, n in Counter(out).items():
            have = pos.card_copies(self.g, cid)
            if n > have:
                raise Invalid(ptr, f"{n} copies of {cid!r}: the deck has {have}")
        return out

    def item(self, v: object, ptr: str) -> str:
        return self.one_of(v, ptr, self.g.names["items"], "item")

    def role(self, faction: str, v: object, ptr: str) -> str | None:
        if v is None:
            return None
        return self.one_of(v, ptr, pos.roles_of(self.g, self.g.factions.index(faction)),
                           f"role of {faction}")

    def column(self, faction: str, v: object, ptr: str) -> str:
        return self.one_of(v, ptr, pos.columns_of(self.g, self.g.factions.index(faction)),
                           f"column of {faction}")

    def per_faction(self, v: object, ptr: str, read: Callable[[str, object, str], Any]) -> dict:
        return {self.faction(f, pointer(ptr, f)): read(f, x, pointer(ptr, f))
                for f, x in self.obj(v, ptr, "an object of faction -> value").items()}

    def piece_count(self, piece: str, v: object, ptr: str) -> int:
        return self.int_(v, ptr, 0, pos.piece_total(self.g, piece), "a count of pieces")

    # ---- actions

    def notations(self) -> frozenset[str]:
        """Every notation the bundle's action space can express in this game, for every
        seated faction acting: what a legal-action expectation may name."""
        if self._notations is None:
            self._notations = expressible(self.g)
        return self._notations

    def action(self, v: object, ptr: str) -> str:
        self.str_(v, ptr, "an action notation")
        if v not in self.notations():
            # One look among some thousand notations (about 50 ms): once per file.
            meant = did_you_mean(v, self.notations(), most=len(self.notations())) or \
                " (a typo? see `rootlaw play` logs for the notation)"
            raise Invalid(ptr, f"{v!r} is no action this game can express{meant}")
        return v

    def actions(self, v: object, ptr: str) -> list[str]:
        return [self.action(a, pointer(ptr, i)) for i, a in enumerate(self.lst(v, ptr))]


def wrong(ptr: str, what: str, v: object) -> Invalid:
    """SCENARIO-INVALID for a value of the wrong type: "'count' is a whole number, not
    the text "3""."""
    return Invalid(ptr, is_not(pointer_subject(ptr), what, v))


_EXPRESSIBLE: dict[tuple, frozenset[str]] = {}


def expressible(g: Game) -> frozenset[str]:
    """All notations of the game's action space, for every seated faction acting
    (roles and columns the acting faction does not have are left out)."""
    key = (g.bundle.hash, tuple(g.factions))
    got = _EXPRESSIBLE.get(key)
    if got is not None:
        return got
    out: set[str] = set()
    space = g.space
    for f in sorted(set(g._seats)):
        nroles, ncols = len(g.names["roles"][f]), len(g.names["columns"][f])
        for a in range(space.size):
            kind, x = space.decode(a)
            if kind == "role" and x >= nroles:
                continue
            if kind == "add" and x % g.consts["L"] >= ncols:
                continue
            if kind == "shift" and (x % g.consts["L"] >= ncols or
                                    x // g.consts["L"] % g.consts["L"] >= ncols):
                continue
            text = space.notation(a, f)
            if kind == "battle" or (kind == "use" and " on seat" in text):
                head, seat = text.rsplit(" seat", 1)
                if int(seat) >= g.num_players:
                    continue
                text = f"{head} {g.factions[int(seat)]}"
            out.add(text)
    _EXPRESSIBLE[key] = frozenset(out)
    return _EXPRESSIBLE[key]


def decisions(g: Game) -> list[str]:
    """Every name ``Game.decision`` can give: frame kinds, step ops, the programs the
    steps name (a step that runs a program is its decision), and the scenario stops."""
    ops = list(g.names["ops"])
    steps = [x for x in dict.fromkeys(g.names["steps"]) if x not in ops]
    return list(g.names["frames"]) + list(g.names.get("cost_triggers", [])) + ops + \
        steps + list(STOPS)


# ---------------------------------------------------------------------- applying


@dataclass
class Setting:
    """What a position keeps while it is applied: the cards it has placed (so a later
    key never takes them away again)."""

    pinned: set[int] = field(default_factory=set)


def _guard(ptr: str, fn: Callable, *args, **kw) -> Any:
    """Run an edit; a refused one (RootlawError) is SCENARIO-INVALID at ptr."""
    try:
        return fn(*args, **kw)
    except RootlawError as e:
        raise Invalid(ptr, e.message) from None


Failure = tuple[str, str]  # (JSON pointer, what differs)


def _diff(ptr: str, what: str, got: object, want: object) -> list[Failure]:
    return [] if got == want else [(ptr, f"{what}: {got} != {want}")]


def _multiset(cards: list[str]) -> list[str]:
    return sorted(cards)


# ---------------------------------------------------------------------- the keys


@dataclass(frozen=True)
class Key:
    """One scenario key: how its value is read, set (position) and checked (expect).

    ``read(reader, value, ptr)`` returns the value checked and normalised (raising
    ``Invalid``); ``put(game, value, setting, ptr)`` sets a position; ``check(game,
    value, ptr)`` returns the failures.  A key with no ``put`` is expect-only, one with no
    ``check`` position-only.  ``doc`` (position) and ``expect_doc`` (when checking means
    more than "the same, checked") feed docs/scenarios.md, with the examples of
    ``scenario_examples.json``; ``schema`` feeds the scenario files' JSON Schema
    (``spec/schema/scenario.schema.json``)."""

    name: str
    read: Callable[[Reader, Any, str], Any]
    put: Callable[[Game, Any, Setting, str], None] | None = None
    check: Callable[[Game, Any, str], list[Failure]] | None = None
    doc: str = ""
    expect_doc: str = ""
    schema: dict = field(default_factory=dict)
    """The value's shape as JSON Schema (for editors: names are only strings there; the
    reader checks them against the content)."""
    expect_schema: dict | None = None
    """Its shape under ``expect``, where it differs from ``schema``."""


# ---- clear

def _read_clear(r: Reader, v, ptr):
    return r.bool_(v, ptr)


def _put_clear(g, v, st, ptr):
    if v:
        pos.clear_board(g)


# ---- pieces

def _read_pieces(r: Reader, v, ptr):
    return _read_rows(r, v, ptr, "clearing", r.clearing, per_clearing=True)


def _read_rows(r: Reader, v, ptr, place: str, name_place, per_clearing: bool = False):
    """place -> piece -> count (a clearing's or a forest's pieces), each place named by
    ``name_place``; with ``per_clearing``, a token's limit in one clearing holds."""
    out: dict[str, dict[str, int]] = {}
    for at, row in r.obj(v, ptr, f"an object of {place} -> piece -> count").items():
        ap = pointer(ptr, at)
        name_place(at, ap)
        out[at] = {}
        for piece, n in r.obj(row, ap, "an object of piece -> count").items():
            pp = pointer(ap, piece)
            r.piece(piece, pp)
            out[at][piece] = r.piece_count(piece, n, pp)
            limit = pos.per_clearing_limit(r.g, piece) if per_clearing else None
            if limit is not None and n > limit:
                raise Invalid(pp, f"at most {limit} {piece} in a clearing")
    return out


def _put_pieces(g, v, st, ptr):
    for c, row in v.items():
        for piece, n in row.items():
            _guard(pointer(ptr, c, piece), pos.put, g, c, piece, n)


def _check_pieces(g, v, ptr):
    return [f for c, row in v.items() for piece, n in row.items()
            for f in _diff(pointer(ptr, c, piece), f"{piece} in {c}",
                           pos.count(g, c, piece), n)]


# ---- faces laid face down

def _read_faces_down(r: Reader, v, ptr):
    """clearing -> the face a token there hides (models.Piece.faces): its owner seated."""
    out: dict[str, str] = {}
    for c, face in r.obj(v, ptr, "an object of clearing -> face").items():
        cp = pointer(ptr, c)
        r.clearing(c, cp)
        name = r.piece(face, cp)
        if not any(name in r.g.token_faces(i) for i in range(len(r.g.names["pieces"]))):
            raise Invalid(cp, f"{name!r} is no face of a token laid face down (a piece's "
                          "'faces')")
        out[c] = name
    return out


def _put_faces_down(g, v, st, ptr):
    for c, face in v.items():
        _guard(pointer(ptr, c), pos.lay_face_down, g, c, face)


def _check_faces_down(g, v, ptr):
    seen = {}
    for q in range(g.num_players):
        seen.update(g.faces_down(q))
    return [f for c, face in v.items()
            for f in _diff(pointer(ptr, c), f"the face down in {c}", seen.get(c), face)]


# ---- forests

def _read_forests(r: Reader, v, ptr):
    def forest(fo, fp):
        if "FOREST" not in r.g.S:
            raise Invalid(fp, "no piece is ever in a forest in this game (its content puts "
                          "none there)")
        r.one_of(fo, fp, r.g.names["forests"], "forest")

    return _read_rows(r, v, ptr, "forest", forest)


def _put_forests(g, v, st, ptr):
    for fo, row in v.items():
        for piece, n in row.items():
            _guard(pointer(ptr, fo, piece), pos.put_in_forest, g, fo, piece, n)


def _check_forests(g, v, ptr):
    held = g.forest_counts()
    return [f for fo, row in v.items() for piece, n in row.items()
            for f in _diff(pointer(ptr, fo, piece), f"{piece} in forest {fo}",
                           held[fo].get(piece, 0), n)]


# ---- ruins

def _read_ruins(r: Reader, v, ptr):
    return {r.clearing(c, pointer(ptr, c)): r.int_(n, pointer(ptr, c), 0, 1, "0 or 1")
            for c, n in r.obj(v, ptr, "an object of clearing -> 0 or 1").items()}


def _put_ruins(g, v, st, ptr):
    for c, n in v.items():
        _guard(pointer(ptr, c), pos.set_ruins, g, c, n)


def _check_ruins(g, v, ptr):
    return [f for c, n in v.items()
            for f in _diff(pointer(ptr, c), f"ruins in {c}", pos.ruins(g, c), n)]


# ---- supply / out of the game

def _read_piece_counts(r: Reader, v, ptr):
    return {r.piece(p, pointer(ptr, p)): r.piece_count(p, n, pointer(ptr, p))
            for p, n in r.obj(v, ptr, "an object of piece -> count").items()}


def _put_supply(g, v, st, ptr):
    for p, n in v.items():
        _guard(pointer(ptr, p), pos.set_supply, g, p, n)


def _check_supply(g, v, ptr):
    return [f for p, n in v.items()
            for f in _diff(pointer(ptr, p), f"{p} in supply", pos.supply(g, p), n)]


def _check_out(g, v, ptr):
    return [f for p, n in v.items()
            for f in _diff(pointer(ptr, p), f"{p} out of the game", pos.out_of_game(g, p), n)]


# ---- hands, play areas, Decree columns

def _read_faction_cards(r: Reader, v, ptr):
    return r.per_faction(v, ptr, lambda f, x, p: r.cards(x, p))


def _put_hands(g, v, st, ptr):
    for f, cards in v.items():
        _guard(pointer(ptr, f), pos.set_hand, g, g.factions.index(f), cards, pinned=st.pinned)


def _check_hands(g, v, ptr):
    return [f_ for f, cards in v.items()
            for f_ in _diff(pointer(ptr, f), f"hand of {f}",
                            _multiset(g.hand(g.factions.index(f))), _multiset(cards))]


def _read_hand_size(r: Reader, v, ptr):
    return r.per_faction(v, ptr, lambda f, x, p: r.int_(x, p, 0, r.g.consts["N"]))


def _check_hand_size(g, v, ptr):
    return [f_ for f, n in v.items()
            for f_ in _diff(pointer(ptr, f), f"hand of {f}", len(g.hand(g.factions.index(f))),
                            n)]


def _put_play_area(g, v, st, ptr):
    for f, cards in v.items():
        _guard(pointer(ptr, f), pos.set_play_area, g, g.factions.index(f), cards,
               pinned=st.pinned)


def _check_play_area(g, v, ptr):
    return [f_ for f, cards in v.items()
            for f_ in _diff(pointer(ptr, f), f"play area of {f}",
                            _multiset(pos.play_area(g, g.factions.index(f))), _multiset(cards))]


def _read_columns(r: Reader, v, ptr):
    def one(f, x, p):
        return {r.column(f, col, pointer(p, col)): r.cards(cards, pointer(p, col))
                for col, cards in r.obj(x, p, "an object of column -> cards").items()}
    return r.per_faction(v, ptr, one)


def _put_columns(g, v, st, ptr):
    for f, cols in v.items():
        for col, cards in cols.items():
            _guard(pointer(ptr, f, col), pos.set_column, g, g.factions.index(f), col, cards,
                   pinned=st.pinned)


def _check_columns(g, v, ptr):
    out = []
    for f, cols in v.items():
        have = g.columns(g.factions.index(f))
        for col, cards in cols.items():
            out += _diff(pointer(ptr, f, col), f"{f}'s {col} column", _multiset(have[col]),
                         _multiset(cards))
    return out


# ---- dominance

def _read_dominance(r: Reader, v, ptr):
    def one(f, x, p):
        if x is None:
            return None
        r.card(x, p)
        if pos.card_kind(r.g, x) != "dominance":
            raise Invalid(p, f"{x!r} is not a dominance card")
        return x
    return r.per_faction(v, ptr, one)


def _put_dominance(g, v, st, ptr):
    for f, card in v.items():
        _guard(pointer(ptr, f), pos.set_dominance, g, g.factions.index(f), card,
               pinned=st.pinned)


def _check_dominance(g, v, ptr):
    return [f_ for f, card in v.items()
            for f_ in _diff(pointer(ptr, f), f"dominance of {f}",
                            pos.dominance(g, g.factions.index(f)), card)]


# ---- the shared piles

def _read_pile(r: Reader, v, ptr):
    return r.cards(v, ptr)


def _read_available(r: Reader, v, ptr):
    cards = r.cards(v, ptr)
    for i, c in enumerate(cards):
        if pos.card_kind(r.g, c) != "dominance":
            raise Invalid(pointer(ptr, i), f"{c!r} is not a dominance card")
    return cards


def _pile_key(name: str, displaced: str):
    def put_pile(g, v, st, ptr):
        c = g.consts
        to = {"deck": c["LOC_DECK"], "out": c["LOC_OUT"]}[displaced]
        _guard(ptr, pos.set_cards_at, g, pos.piles(g)[name], v, pinned=st.pinned,
               displaced_to=to)

    def check_pile(g, v, ptr):
        return _diff(ptr, name.replace("_", " "), _multiset(g.cards_at(pos.piles(g)[name])),
                     _multiset(v))
    return put_pile, check_pile


def _row_key(setter, getter, label):
    """A key of one value per faction and name (an item's count, a cycle's stage, a
    box's pieces): setter(g, seat, name, value) puts it, getter(g, seat, name) reads it,
    label(faction, name) says what differs."""
    def put_rows(g, v, st, ptr):
        for f, row in v.items():
            for name, x in row.items():
                _guard(pointer(ptr, f, name), setter, g, g.factions.index(f), name, x)

    def check_rows(g, v, ptr):
        return [d for f, row in v.items() for name, x in row.items()
                for d in _diff(pointer(ptr, f, name), label(f, name),
                               getter(g, g.factions.index(f), name), x)]
    return put_rows, check_rows


def _seat_key(setter, getter, label):
    """A key of one value per faction (its VP, its exhausted items): setter(g, seat,
    value) puts it, getter(g, seat) reads it, label(faction) says what differs."""
    def put_seats(g, v, st, ptr):
        for f, x in v.items():
            _guard(pointer(ptr, f), setter, g, g.factions.index(f), x)

    def check_seats(g, v, ptr):
        return [d for f, x in v.items()
                for d in _diff(pointer(ptr, f), label(f), getter(g, g.factions.index(f)), x)]
    return put_seats, check_seats


def _read_deck_top(r: Reader, v, ptr):
    cards = r.cards(v, ptr)
    if not cards:
        raise Invalid(ptr, "name at least one card (the deck's size is `deck_size`)")
    return cards


def _put_deck_top(g, v, st, ptr):
    _guard(ptr, pos.set_deck_top, g, v, pinned=st.pinned)


def _check_deck_top(g, v, ptr):
    return _diff(ptr, "top of the deck", pos.deck(g)[:len(v)], v)


def _read_deck_size(r: Reader, v, ptr):
    return r.int_(v, ptr, 0, r.g.consts["N"], "a number of cards")


def _put_deck_size(g, v, st, ptr):
    _guard(ptr, pos.set_deck_size, g, v, pinned=st.pinned)


def _check_deck_size(g, v, ptr):
    return _diff(ptr, "deck size", g.state[g.S["DECK_LEN"]], v)


# ---- items

def _read_crafted(r: Reader, v, ptr):
    def one(f, x, p):
        return {r.item(it, pointer(p, it)): r.int_(n, pointer(p, it), 0, 64, "a count of items")
                for it, n in r.obj(x, p, "an object of item -> count").items()}
    return r.per_faction(v, ptr, one)


_put_crafted, _check_crafted = _row_key(
    pos.set_crafted, lambda g, q, it: pos.crafted(g, q)[it], lambda f, it: f"{it} crafted by {f}")


def _read_exhausted(r: Reader, v, ptr):
    return r.per_faction(v, ptr, lambda f, x, p: r.int_(x, p, 0, 64, "a count of items"))


_put_exhausted, _check_exhausted = _seat_key(
    pos.set_exhausted, pos.exhausted, lambda f: f"items exhausted by {f}")


def _read_items(r: Reader, v, ptr):
    return {r.item(it, pointer(ptr, it)): r.int_(n, pointer(ptr, it), 0, 64, "a count of items")
            for it, n in r.obj(v, ptr, "an object of item -> count").items()}


def _check_items(g, v, ptr):
    have = pos.items(g)
    return [f for it, n in v.items()
            for f in _diff(pointer(ptr, it), f"{it} in the item supply", have[it], n)]


# ---- players

def _read_vp(r: Reader, v, ptr):
    return r.per_faction(v, ptr, lambda f, x, p: r.int_(x, p, 0, pos.MAX_VP, "a number of VP"))


_put_vp, _check_vp = _seat_key(pos.set_vp, lambda g, q: g.scores[q], lambda f: f"vp of {f}")


def _read_homes(r: Reader, v, ptr):
    return r.per_faction(v, ptr, lambda f, x, p: None if x is None else r.clearing(x, p))


def _put_homes(g, v, st, ptr):
    for f, c in v.items():
        pos.set_home(g, g.factions.index(f), c)


def _check_homes(g, v, ptr):
    return [f_ for f, c in v.items()
            for f_ in _diff(pointer(ptr, f), f"home of {f}", pos.home(g, g.factions.index(f)),
                            c)]


def _read_roles(r: Reader, v, ptr):
    return r.per_faction(v, ptr, r.role)


def _put_roles(g, v, st, ptr):
    for f, name in v.items():
        pos.set_role(g, g.factions.index(f), name)


def _check_roles(g, v, ptr):
    return [f_ for f, name in v.items()
            for f_ in _diff(pointer(ptr, f), f"role of {f}", pos.role(g, g.factions.index(f)),
                            name)]


def _read_retired(r: Reader, v, ptr):
    def one(f, x, p):
        names = [r.role(f, n, pointer(p, i)) for i, n in enumerate(r.lst(x, p))]
        if None in names:
            raise Invalid(p, "a retired role is a role id, not null")
        if len(set(names)) != len(names):
            raise Invalid(p, "a role is named twice")
        return names
    return r.per_faction(v, ptr, one)


def _put_retired(g, v, st, ptr):
    for f, names in v.items():
        _guard(pointer(ptr, f), pos.set_retired_roles, g, g.factions.index(f), names)


def _check_retired(g, v, ptr):
    return [f_ for f, names in v.items()
            for f_ in _diff(pointer(ptr, f), f"retired roles of {f}",
                            sorted(pos.retired_roles(g, g.factions.index(f))), sorted(names))]


def _read_cycles(r: Reader, v, ptr):
    def one(f, x, p):
        seat = r.g.factions.index(f)
        fi = r.g._seats[seat]
        known = r.g.names["cycles"][fi]
        out = {}
        for cy, stage in r.obj(x, p, "an object of cycle -> stage").items():
            cp = pointer(p, cy)
            r.one_of(cy, cp, known, f"cycle of {f}")
            out[cy] = r.one_of(stage, cp, r.g.names["stages"][fi][known.index(cy)],
                               f"stage of {f}'s {cy}")
        return out
    return r.per_faction(v, ptr, one)


_put_cycles, _check_cycles = _row_key(
    pos.set_cycle, lambda g, q, cy: pos.cycles(g, q)[cy], lambda f, cy: f"{f}'s {cy}")


def _read_first(r: Reader, v, ptr):
    return r.faction(v, ptr)


def _put_first(g, v, st, ptr):
    pos.set_first_player(g, v)


def _check_first(g, v, ptr):
    return _diff(ptr, "first player", pos.first_player(g), v)


# ---- dice

def _read_dice(r: Reader, v, ptr):
    rolls = r.lst(v, ptr, "a list of rolls [high, low] (or one roll)")
    if rolls and all(type(x) is int for x in rolls):
        rolls, one = [rolls], True   # the old form: one roll [high, low]
    else:
        one = False
    out = []
    for i, roll in enumerate(rolls):
        rp = ptr if one else pointer(ptr, i)
        r.lst(roll, rp, "a roll [high, low]")
        if len(roll) != 2:
            raise Invalid(rp, "a roll is two dice [high, low]")
        hi = r.int_(roll[0], pointer(rp, 0), 0, 3, "a die (0 to 3)")
        lo = r.int_(roll[1], pointer(rp, 1), 0, 3, "a die (0 to 3)")
        if hi < lo:
            raise Invalid(rp, f"the high die comes first: [{lo}, {hi}]")
        out.append((hi, lo))
    return out


def _put_dice(g, v, st, ptr):
    _guard(ptr, pos.set_dice_queue, g, v)


def _check_dice(g, v, ptr):
    return _diff(ptr, "rolls not yet used", [list(x) for x in pos.dice_queue(g)],
                 [list(x) for x in v])


# ---- turn

def _read_turn(r: Reader, v, ptr):
    t = r.obj(v, ptr)
    allowed = {"faction", "phase", "step", "at", "number"} if r.side == "position" else \
        {"faction", "phase", "step", "number"}
    _unknown(t, allowed, ptr, "'turn'")
    out = dict(t)
    if "faction" in t:
        r.faction(t["faction"], pointer(ptr, "faction"))
    elif r.side == "position":
        raise Invalid(ptr, "name the faction whose turn it is")
    if "phase" in t:
        r.one_of(t["phase"], pointer(ptr, "phase"), list(PHASE_CODES), "phase")
    if "number" in t:  # a turn under way is at least the first
        r.int_(t["number"], pointer(ptr, "number"), 1 if r.side == "position" else 0, 10**6,
               "a turn number")
    if r.side == "position":
        if "at" in t:
            if t["at"] != "start":
                raise Invalid(pointer(ptr, "at"), "'at' is \"start\" (the very beginning "
                              "of the turn, before Birdsong)")
            for k in ("phase", "step"):
                if k in t:
                    raise Invalid(pointer(ptr, k), "a turn started 'at' its start has no "
                                  f"{k}: the engine runs it from the beginning")
        else:
            out.setdefault("phase", "daylight")
    if "step" in t:
        phase = out.get("phase")
        if phase and "faction" in t:
            steps = pos.steps_of(r.g, t["faction"], phase)
            r.one_of(t["step"], pointer(ptr, "step"), steps,
                     f"step of {t['faction']}'s {phase}")
        else:
            r.one_of(t["step"], pointer(ptr, "step"), list(r.g.names["ops"]), "step op")
    return out


def _put_turn(g, v, st, ptr):
    if v.get("at") == "start":
        _guard(ptr, pos.begin_turn, g, v["faction"])
    else:
        _guard(ptr, pos.goto, g, v["faction"], v["phase"], v.get("step"))
    # A turn under way is at least the first: the engine stamps what a seat is shown
    # (a hand, Law 1.2.1) with the turn, and turn 0 reads as "never".
    pos.set_turn_number(g, v.get("number", max(g.turn, 1)))


def _check_turn(g, v, ptr):
    out = []
    if "faction" in v:
        out += _diff(pointer(ptr, "faction"), "turn of", g.factions[g.current], v["faction"])
    if "phase" in v:
        out += _diff(pointer(ptr, "phase"), "phase", g.phase, v["phase"])
    if "step" in v:
        out += _diff(pointer(ptr, "step"), "step", pos.step_op(g), v["step"])
    if "number" in v:
        out += _diff(pointer(ptr, "number"), "turn number", g.turn, v["number"])
    return out


# ---- counters

def _read_counters(r: Reader, v, ptr):
    c = r.obj(v, ptr)
    out: dict[str, Any] = {}
    for k, x in c.items():
        kp = pointer(ptr, k)
        if k in ("actions_left", "added", "added_birds"):
            out[k] = r.int_(x, kp, 0, 99)
        elif k == "recruited":
            out[k] = r.bool_(x, kp)
        elif k == "crafting_used":
            out[k] = {r.one_of(su, pointer(kp, su), list(pos.CRAFT_SUITS), "suit"):
                      r.int_(n, pointer(kp, su), 0, 99)
                      for su, n in r.obj(x, kp, "an object of suit -> count").items()}
        elif k == "resolved":
            out[k] = r.obj(x, kp, "an object of column -> cards")
        else:
            raise Invalid(kp, unknown_name("counter", k, pos.COUNTERS, list_known=None))
    return out


def _resolved_columns(g: Game, v: dict, ptr: str) -> None:
    """Columns of the current player: known only once the turn is set."""
    seat = g.current
    r = Reader(g)
    for col, cards in v.items():
        r.column(g.factions[seat], col, pointer(ptr, col))
        r.cards(cards, pointer(ptr, col))


def _put_counters(g, v, st, ptr):
    for k, x in v.items():
        if k == "resolved":
            _resolved_columns(g, x, pointer(ptr, k))
        _guard(pointer(ptr, k), pos.set_counter, g, k, x)


def _check_counters(g, v, ptr):
    have = pos.counters(g)
    out = []
    for k, x in v.items():
        kp = pointer(ptr, k)
        if k == "resolved":
            _resolved_columns(g, x, kp)
            for col, cards in x.items():
                out += _diff(pointer(kp, col), f"resolved in {col}",
                             _multiset(have[k][col]), _multiset(cards))
        elif k == "crafting_used":
            for su, n in x.items():
                out += _diff(pointer(kp, su), f"{su} crafting pieces used", have[k][su], n)
        else:
            out += _diff(kp, k.replace("_", " "), have[k], x)
    return out


# ---- rule, decisions and legal actions (expect only)

def _read_rule(r: Reader, v, ptr):
    return {r.clearing(c, pointer(ptr, c)): (None if f is None else r.faction(f, pointer(ptr, c)))
            for c, f in r.obj(v, ptr, "an object of clearing -> faction or null").items()}


def _check_rule(g, v, ptr):
    return [f_ for c, f in v.items() for f_ in _diff(pointer(ptr, c), f"ruler of {c}",
                                                     g.ruler(c), f)]


def _legal(g: Game) -> set[str]:
    return set() if g.is_over or pos.stopped(g) else set(g.legal())


def _check_legal(g, v, ptr):
    legal = _legal(g)
    return [(pointer(ptr, i), f"{a!r} should be legal") for i, a in enumerate(v)
            if a not in legal]


def _check_not_legal(g, v, ptr):
    legal = _legal(g)
    return [(pointer(ptr, i), f"{a!r} should not be legal") for i, a in enumerate(v)
            if a in legal]


def _check_legal_exactly(g, v, ptr):
    legal = _legal(g)
    return [] if legal == set(v) else [(ptr, f"legal {sorted(legal)} != {sorted(set(v))}")]


def _read_legal_prefix(r: Reader, v, ptr):
    out = {}
    for prefix, acts in r.obj(v, ptr, "an object of prefix -> actions").items():
        pp = pointer(ptr, prefix)
        if not any(a.startswith(prefix) for a in r.notations()):
            raise Invalid(pp, f"no action this game can express starts with {prefix!r}")
        out[prefix] = r.actions(acts, pp)
        for i, a in enumerate(out[prefix]):
            if not a.startswith(prefix):
                raise Invalid(pointer(pp, i), f"{a!r} does not start with {prefix!r}")
    return out


def _check_legal_prefix(g, v, ptr):
    legal = _legal(g)
    out = []
    for prefix, acts in v.items():
        have = {a for a in legal if a.startswith(prefix)}
        if have != set(acts):
            out.append((pointer(ptr, prefix),
                        f"legal {prefix!r}... {sorted(have)} != {sorted(set(acts))}"))
    return out


def _read_actions(r: Reader, v, ptr):
    return r.actions(v, ptr)


def _read_decision(r: Reader, v, ptr):
    if v is None:
        return None
    return r.one_of(v, ptr, decisions(r.g), "decision")


def _check_decision(g, v, ptr):
    return _diff(ptr, "decision", g.decision, v)


def _read_faction_or_null(r: Reader, v, ptr):
    return None if v is None else r.faction(v, ptr)


def _check_winner(g, v, ptr):
    return _diff(ptr, "winner", g.winner_faction, v)


def _check_to_play(g, v, ptr):
    got = None if g.is_over else g.factions[g.to_play]
    return _diff(ptr, "to play", got, v)


# ---- zones (a faction's card piles that are not its hand), boxes (its pieces held
# off the map), effects used this turn or battle

def _read_zones(r: Reader, v, ptr):
    def one(f, x, p):
        known = pos.zones_of(r.g, r.g.factions.index(f))
        return {r.one_of(z, pointer(p, z), known, f"zone of {f}"): r.cards(cards, pointer(p, z))
                for z, cards in r.obj(x, p, "an object of zone -> card ids").items()}
    return r.per_faction(v, ptr, one)


def _put_zones(g, v, st, ptr):
    for f, zones in v.items():
        for z, cards in zones.items():
            _guard(pointer(ptr, f, z), pos.set_zone, g, g.factions.index(f), z, cards,
                   pinned=st.pinned)


def _check_zones(g, v, ptr):
    return [f_ for f, zones in v.items() for z, cards in zones.items()
            for f_ in _diff(pointer(ptr, f, z), f"{z} of {f}",
                            _multiset(pos.zone(g, g.factions.index(f), z)), _multiset(cards))]


def _read_boxes(r: Reader, v, ptr):
    def one(f, x, p):
        known = pos.boxes_of(r.g, r.g.factions.index(f))
        return {r.one_of(b, pointer(p, b), known, f"box of {f}"):
                r.int_(n, pointer(p, b), 0, r.g.consts["W"], "a count of pieces")
                for b, n in r.obj(x, p, "an object of box -> count").items()}
    return r.per_faction(v, ptr, one)


_put_boxes, _check_boxes = _row_key(pos.set_box, pos.box, lambda f, b: f"{b} of {f}")


def _read_held(r: Reader, v, ptr):
    def one(f, x, p):
        return {r.card(c, pointer(p, c)): {
            r.piece(pc, pointer(p, c, pc)): r.piece_count(pc, n, pointer(p, c, pc))
            for pc, n in r.obj(row, pointer(p, c), "an object of piece -> count").items()}
            for c, row in r.obj(x, p, "an object of card -> pieces").items()}
    return r.per_faction(v, ptr, one)


def _put_held(g, v, st, ptr):
    for f, cards in v.items():
        for c, row in cards.items():
            for pc, n in row.items():
                _guard(pointer(ptr, f, c, pc), pos.set_held, g, g.factions.index(f), c, pc, n)


def _check_held(g, v, ptr):
    out: list[Failure] = []
    for f, cards in v.items():
        for c, row in cards.items():
            try:
                held = pos.held(g, g.factions.index(f), c)
            except RootlawError as e:  # (the card is no longer in the play area)
                out.append((pointer(ptr, f, c), e.message))
                continue
            for pc, n in row.items():
                out += _diff(pointer(ptr, f, c, pc), f"{pc} on {c} of {f}", held.get(pc, 0), n)
    return out


def _read_used(r: Reader, v, ptr):
    def one(f, x, p):
        ids = [r.one_of(e, pointer(p, i), pos.effects_of(r.g), "effect")
               for i, e in enumerate(r.lst(x, p, "a list of effect ids"))]
        if len(set(ids)) != len(ids):
            raise Invalid(p, "an effect is named twice")
        return ids
    return r.per_faction(v, ptr, one)


def _put_used(g, v, st, ptr):
    for f, ids in v.items():
        pos.set_used_effects(g, g.factions.index(f), ids)


def _check_used(g, v, ptr):
    return [f_ for f, ids in v.items()
            for f_ in _diff(pointer(ptr, f), f"effects used by {f}",
                            sorted(pos.used_effects(g, g.factions.index(f))), sorted(ids))]


_put_removed, _check_removed = _pile_key("removed", "deck")
_put_available, _check_available = _pile_key("available_dominance", "out")
_put_discard, _check_discard = _pile_key("discard", "deck")

# ---- shapes, for the JSON Schema

def _of(values: dict) -> dict:
    """An object of name -> value (a faction, a clearing, a piece ... -> value)."""
    return {"type": "object", "additionalProperties": values}


def _int(lo: int = 0, hi: int | None = None) -> dict:
    return {"type": "integer", "minimum": lo, **({} if hi is None else {"maximum": hi})}


_NAME = {"type": "string"}
_NAMES = {"type": "array", "items": _NAME}
_SET = {"type": "array", "items": _NAME, "uniqueItems": True}
_NAME_OR_NULL = {"type": ["string", "null"]}
_DIE = _int(0, 3)
_ROLL = {"type": "array", "prefixItems": [_DIE, _DIE], "minItems": 2, "maxItems": 2}
_TURN = {"faction": _NAME, "phase": {"enum": list(PHASE_CODES)}, "step": _NAME}
_TURN_SET = {"type": "object", "additionalProperties": False, "required": ["faction"],
             "properties": {**_TURN, "at": {"const": "start"}, "number": _int(1, 10**6)}}
_TURN_SEEN = {"type": "object", "additionalProperties": False,
              "properties": {**_TURN, "number": _int(0, 10**6)}}
_COUNTERS = {"type": "object", "additionalProperties": False, "properties": {
    "actions_left": _int(0, 99), "recruited": {"type": "boolean"},
    "crafting_used": {"type": "object", "additionalProperties": False,
                      "properties": {su: _int(0, 99) for su in pos.CRAFT_SUITS}},
    "resolved": _of(_NAMES), "added": _int(0, 99), "added_birds": _int(0, 99)}}


# The table.  A new part of the state is one row: a reader, a setter and a checker over
# accessors in runtime/position.py.  Position keys are applied in this order (so `clear`
# empties the map before `pieces`, cards placed by an earlier key are never taken by a
# later one, zones follow the pieces that set their capacity, the deck is arranged last
# among the cards, the turn starts once everything else is set, and the turn's counters
# and effects used are set on the turn that started).
KEYS: tuple[Key, ...] = (
    Key("clear", _read_clear, put=_put_clear,
        doc="Empty the map first: every piece back to its supply.",
        schema={"type": "boolean"}),
    Key("pieces", _read_pieces, put=_put_pieces, check=_check_pieces,
        doc="Pieces in clearings: clearing -> piece -> count, taken from (or returned to) "
        "the supply. Bounded by the supply; buildings and a ruin together fit the "
        "clearing's slots.",
        expect_doc="Counts of pieces in clearings (pieces not named are not checked).",
        schema=_of(_of(_int()))),
    Key("forests", _read_forests, put=_put_forests, check=_check_forests,
        doc="Pieces in forests (where the content puts pieces there, Law 15.3.1): forest "
        "id (its clearings' numbers joined by '_') -> piece -> count, taken from (or "
        "returned to) the supply.",
        expect_doc="Counts of pieces in forests (pieces not named are not checked).",
        schema=_of(_of(_int()))),
    Key("faces_down", _read_faces_down, put=_put_faces_down, check=_check_faces_down,
        doc="Tokens laid face down with a face their owner knows (a piece's 'faces', Law "
        "13.2.2): clearing -> the face, its token taken from the supply and laid there "
        "face down; one to a clearing.",
        expect_doc="The faces hidden in clearings: clearing -> face (only the clearings "
        "named are checked).",
        schema=_of({"type": "string"})),
    Key("ruins", _read_ruins, put=_put_ruins, check=_check_ruins,
        doc="Ruins: clearing -> 1 (a ruin) or 0 (none). A ruin takes a building slot.",
        expect_doc="Ruins: clearing -> 1 or 0.",
        schema=_of({"enum": [0, 1]})),
    Key("supply", _read_piece_counts, put=_put_supply, check=_check_supply,
        doc="Pieces in their supply: piece -> count. The others off the map are out of "
        "the game.",
        expect_doc="Pieces in their supply: piece -> count.",
        schema=_of(_int())),
    Key("out_of_game", _read_piece_counts, check=_check_out,
        expect_doc="Pieces removed from the game (a permanent removal, Law 6.2.2): "
        "piece -> count.",
        schema=_of(_int())),
    Key("hands", _read_faction_cards, put=_put_hands, check=_check_hands,
        doc="Hands: faction -> card ids, exactly (the cards a hand held before are "
        "discarded).",
        expect_doc="Hands, exactly (order does not matter).",
        schema=_of(_NAMES)),
    Key("hand_size", _read_hand_size, check=_check_hand_size,
        expect_doc="Number of cards in hands: faction -> count.",
        schema=_of(_int())),
    Key("play_area", _read_faction_cards, put=_put_play_area, check=_check_play_area,
        doc="Cards in play areas (crafted persistent cards, Law 4.1.3): faction -> card "
        "ids, exactly. An activated dominance card is under `dominance`.",
        expect_doc="Cards in play areas, exactly (an activated dominance card is under "
        "`dominance`).",
        schema=_of(_NAMES)),
    Key("columns", _read_columns, put=_put_columns, check=_check_columns,
        doc="Decree columns (Law 7.4): faction -> column -> card ids, each named column "
        "exactly (columns not named are left as they are; faction cards leaving go back "
        "to their reserve).",
        expect_doc="Decree columns: faction -> column -> card ids, each named column "
        "exactly (order does not matter).",
        schema=_of(_of(_NAMES))),
    Key("zones", _read_zones, put=_put_zones, check=_check_zones,
        doc="A faction's card piles that are not its hand (e.g. a face-down stack it "
        "spends from, Law 8.2.3): faction -> zone -> card ids, each named zone exactly "
        "(the cards leaving are discarded). Set after `pieces`: a zone's capacity may "
        "depend on the buildings on the map (Law 8.2.3.I).",
        expect_doc="A faction's zones: faction -> zone -> card ids, each named zone "
        "exactly (order does not matter).",
        schema=_of(_of(_NAMES))),
    Key("boxes", _read_boxes, put=_put_boxes, check=_check_boxes,
        doc="A faction's pieces held off the map (e.g. warriors kept on its board, Law "
        "8.5.3): faction -> box -> count, taken from (or returned to) the supply.",
        expect_doc="A faction's boxes: faction -> box -> count.",
        schema=_of(_of(_int()))),
    Key("held", _read_held, put=_put_held, check=_check_held,
        doc="Pieces held on a card in a faction's play area (a card's `box`: the Exiles "
        "deck's Coffin Makers): faction -> card -> piece -> count, taken from (or "
        "returned to) each piece's supply. Set after `play_area`.",
        expect_doc="Pieces held on cards: faction -> card -> piece -> count (a piece not "
        "named is not checked).",
        schema=_of(_of(_of(_int())))),
    Key("dominance", _read_dominance, put=_put_dominance, check=_check_dominance,
        doc="Activated dominance cards (Law 3.3.1): faction -> card id, or null for none. "
        "The card lies in the faction's play area; its VP no longer count.",
        expect_doc="Activated dominance cards: faction -> card id, or null for none.",
        schema=_of(_NAME_OR_NULL)),
    Key("available_dominance", _read_available, put=_put_available, check=_check_available,
        doc="Dominance cards discarded and available to take (Law 3.3.3), exactly; those "
        "leaving go out of the game.",
        expect_doc="Dominance cards available to take, exactly.",
        schema=_NAMES),
    Key("removed", _read_pile, put=_put_removed, check=_check_removed,
        doc="Cards removed from the game (e.g. dominance with two players, Law 5.1.3), "
        "exactly; those leaving go to the bottom of the deck.",
        expect_doc="Cards removed from the game, exactly.",
        schema=_NAMES),
    Key("discard", _read_pile, put=_put_discard, check=_check_discard,
        doc="The discard pile (Law 2.1), exactly; the cards leaving go to the bottom of "
        "the deck. Applied before `deck_size`, which may add to it.",
        expect_doc="The discard pile, exactly (order does not matter).",
        schema=_NAMES),
    Key("deck_top", _read_deck_top, put=_put_deck_top, check=_check_deck_top,
        doc="The top cards of the draw pile, the first one on top (drawn first).",
        expect_doc="The top cards of the draw pile, in order (the rest is not checked).",
        schema={**_NAMES, "minItems": 1}),
    Key("deck_size", _read_deck_size, put=_put_deck_size, check=_check_deck_size,
        doc="The number of cards in the draw pile: cards from its bottom go onto the "
        "discard pile, or discarded cards go under it.",
        expect_doc="The number of cards in the draw pile.",
        schema=_int()),
    Key("crafted", _read_crafted, put=_put_crafted, check=_check_crafted,
        doc="Crafted items (Law 4.1.2): faction -> item -> count, taken from (or returned "
        "to) the item supply.",
        expect_doc="Crafted items: faction -> item -> count (items not named are not "
        "checked).",
        schema=_of(_of(_int(0, 64)))),
    Key("exhausted", _read_exhausted, put=_put_exhausted, check=_check_exhausted,
        doc="Crafted items exhausted, face down (an effect's cost 'exhaust_item'): "
        "faction -> how many of its crafted items (set `crafted` first); only in a game "
        "whose rules exhaust items.",
        expect_doc="Crafted items exhausted: faction -> how many.",
        schema=_of(_int(0, 64))),
    Key("items", _read_items, check=_check_items,
        expect_doc="The item supply: item -> count. (To take an item out of the supply in "
        "a position, give it to a crafter with `crafted`.)",
        schema=_of(_int(0, 64))),
    Key("vp", _read_vp, put=_put_vp, check=_check_vp,
        doc="Victory points: faction -> VP (0 to 99; 30 or more wins as soon as the "
        "engine next checks, Law 3.1).",
        expect_doc="Victory points: faction -> VP.",
        schema=_of(_int(0, pos.MAX_VP))),
    Key("homes", _read_homes, put=_put_homes, check=_check_homes,
        doc="Home clearings (the corner a faction's setup took, Law 6.3.1, 7.3.1: what "
        "the clearing filters 'home' and 'opposite_home' read): faction -> clearing, or "
        "null for none.",
        expect_doc="Home clearings: faction -> clearing, or null for none.",
        schema=_of(_NAME_OR_NULL)),
    Key("roles", _read_roles, put=_put_roles, check=_check_roles,
        doc="Current roles (a faction's leader, Law 7.7.3): faction -> role id, or null "
        "for none.",
        expect_doc="Current roles: faction -> role id, or null for none.",
        schema=_of(_NAME_OR_NULL)),
    Key("retired_roles", _read_retired, put=_put_retired, check=_check_retired,
        doc="Roles face down: faction -> role ids (not all of them: the last one retired "
        "turns them all face up).",
        expect_doc="Roles face down: faction -> role ids, exactly.",
        schema=_of(_SET)),
    Key("cycles", _read_cycles, put=_put_cycles, check=_check_cycles,
        doc="Where cycle markers stand (a faction's 'cycles'): faction -> cycle -> stage "
        "(cycles not named are left as they are).",
        expect_doc="Where cycle markers stand: faction -> cycle -> stage (cycles not named "
        "are not checked).",
        schema=_of(_of(_NAME))),
    Key("first_player", _read_first, put=_put_first, check=_check_first,
        doc="The faction that took the first turn (Law 5.1.1).",
        expect_doc="The faction that took the first turn.",
        schema=_NAME),
    Key("dice", _read_dice, put=_put_dice, check=_check_dice,
        doc="Battle rolls to come, in order: a list of [high, low] rolls (dice 0 to 3, "
        "Law 4.3.3), or one roll [high, low]. They are used before the game's own dice.",
        expect_doc="The rolls of `dice` not yet used (usually [], all used).",
        schema={"anyOf": [{"type": "array", "items": _ROLL}, _ROLL]}),
    Key("turn", _read_turn, put=_put_turn, check=_check_turn,
        doc="Whose turn and where: {faction, phase, step} starts that phase at that step "
        "op (phase defaults to daylight, step to the phase's first; a step of a hook that "
        "a run_stage step runs in the current stage is reached through it); {faction, "
        "\"at\": "
        "\"start\"} begins the faction's turn through the engine's turn flow, "
        "start-of-Birdsong checks (dominance, Law 3.3.1) included. \"number\" sets the "
        "turn counter (default: 1, or the game's count if higher; what a seat is shown is "
        "remembered with the turn it saw it).",
        expect_doc="Whose turn it is and where: any of faction, phase, step (op), number "
        "(the turn counter: turns begun in the game, the first is 1).",
        schema=_TURN_SET, expect_schema=_TURN_SEEN),
    Key("counters", _read_counters, put=_put_counters, check=_check_counters,
        doc="Counters of the current turn, set once the turn is: actions_left, recruited "
        "(true/false), crafting_used (suit -> pieces, Law 4.1.1), resolved (column -> "
        "cards of the Decree resolved this turn, Law 7.5.2), added and added_birds (cards "
        "added to the Decree this turn, Law 7.4).",
        expect_doc="Counters of the current turn (those named), as in `position`.",
        schema=_COUNTERS),
    Key("used", _read_used, put=_put_used, check=_check_used,
        doc="Usable effects already used this turn (this battle, for battle effects): "
        "faction -> effect ids, exactly; a used once-per-turn effect is not offered "
        "again this turn. Set once the turn is.",
        expect_doc="Effects used this turn (or battle): faction -> effect ids, exactly.",
        schema=_of(_SET)),
    Key("rule", _read_rule, check=_check_rule,
        expect_doc="Who rules clearings (Law 2.5): clearing -> faction, or null for "
        "nobody.",
        schema=_of(_NAME_OR_NULL)),
    Key("legal", _read_actions, check=_check_legal,
        expect_doc="Actions that must be legal now (notations; each must be one the game "
        "can express).",
        schema=_NAMES),
    Key("not_legal", _read_actions, check=_check_not_legal,
        expect_doc="Actions that must not be legal now (each must be one the game can "
        "express: a typo is an error, not a pass).",
        schema=_NAMES),
    Key("legal_exactly", _read_actions, check=_check_legal_exactly,
        expect_doc="The whole set of legal actions.",
        schema=_NAMES),
    Key("legal_starting_with", _read_legal_prefix, check=_check_legal_prefix,
        expect_doc="For each prefix, exactly the legal actions starting with it.",
        schema=_of(_NAMES)),
    Key("decision", _read_decision, check=_check_decision,
        expect_doc="What is asked now, as `Game.decision` names it (a frame such as "
        "`ambush`, `foil`, `place`, or a step op such as `actions`), `end_of_turn` / "
        "`end_of_phase` where `stop_at` stopped, null once the game is over.",
        schema=_NAME_OR_NULL),
    Key("to_play", _read_faction_or_null, check=_check_to_play,
        expect_doc="The faction whose decision is pending (null once over).",
        schema=_NAME_OR_NULL),
    Key("winner", _read_faction_or_null, check=_check_winner,
        expect_doc="The winner, or null while nobody has won.",
        schema=_NAME_OR_NULL),
)
KEY = {k.name: k for k in KEYS}
POSITION_KEYS = [k.name for k in KEYS if k.put is not None]
EXPECT_KEYS = [k.name for k in KEYS if k.check is not None]
SCENARIO_KEYS = ("$schema", "name", "law", "factions", "seed", "position", "stop_at",
                 "steps", "do", "expect")
STEP_KEYS = ("do", "expect", "note")


# ---------------------------------------------------------------------- reading a file


@dataclass
class Step:
    do: list[tuple[str, str | int]]    # (pointer, action)
    expect: list[tuple[str, Key, Any]]  # (pointer, key, value)


@dataclass
class Scenario:
    factions: list[str] | None
    seed: int
    position: list[tuple[str, Key, Any]]
    steps: list[Step]
    stop_at: str | None


def _unknown(part: dict, known, ptr: str, noun: str) -> None:
    for k in part:
        if k not in known:
            raise Invalid(pointer(ptr, k), unknown_key(k, noun, sorted(known)))


def _read_head(data: object) -> tuple[list[str] | None, int]:
    if not isinstance(data, dict):
        raise Invalid("", is_not("a scenario", "a JSON object", data))
    _unknown(data, SCENARIO_KEYS, "", "a scenario")
    for k in ("name", "law", "$schema"):
        if k in data and not isinstance(data[k], str):
            raise wrong(pointer("", k), "text", data[k])
    factions = data.get("factions")
    if factions is not None and (not isinstance(factions, list) or not factions or
                                 not all(isinstance(f, str) for f in factions)):
        raise wrong("/factions", "a list of faction ids", factions)
    seed = data.get("seed", 1)
    if type(seed) is not int or not -(2**63) <= seed < 2**63:
        raise wrong("/seed", "a 64-bit whole number", seed)
    if "steps" in data and ("do" in data or "expect" in data):
        raise Invalid("/steps", "give `steps`, or `do` and `expect` (one step), not both")
    return factions, seed


def read_scenario(data: dict, g: Game) -> Scenario:
    """Check a scenario against its game and normalise it (raises Invalid)."""
    factions, seed = _read_head(data)
    stop_at = data.get("stop_at")
    if stop_at is not None and stop_at not in STOPS:
        raise Invalid("/stop_at", f"'stop_at' is {listing(STOPS, ' or ')}, not "
                      f"{quoted(stop_at)}{did_you_mean(stop_at, STOPS)}")
    r = Reader(g, "position")
    position = []
    raw = r.obj(data.get("position", {}), "/position")
    _unknown(raw, POSITION_KEYS, "/position", "'position'")
    for key in KEYS:  # table order
        if key.put is not None and key.name in raw:
            ptr = pointer("/position", key.name)
            position.append((ptr, key, key.read(r, raw[key.name], ptr)))
    if "steps" in data:
        raw_steps = [(pointer("/steps", i), s) for i, s in
                     enumerate(r.lst(data["steps"], "/steps", "a list of steps"))]
    else:
        raw_steps = [("", {k: data[k] for k in ("do", "expect") if k in data})]
    steps = []
    taken = 0
    e = Reader(g, "expect", _notations=None)
    for base, raw_step in raw_steps:
        r.obj(raw_step, base or "", "a step object {do, expect}")
        _unknown(raw_step, STEP_KEYS, base, "a step")
        if "note" in raw_step:
            r.str_(raw_step["note"], pointer(base, "note"))
        do = []
        for i, a in enumerate(r.lst(raw_step.get("do", []), pointer(base, "do"))):
            ap = pointer(base, "do", i)
            if type(a) is int:
                r.int_(a, ap, 0, g.space.size - 1, "an action")
            else:
                e.action(a, ap)
            do.append((ap, a))
        taken += len(do)
        if taken > MAX_STEPS:
            raise Invalid(pointer(base, "do"), f"more than {MAX_STEPS} decisions")
        expect = []
        raw_expect = e.obj(raw_step.get("expect", {}), pointer(base, "expect"))
        _unknown(raw_expect, EXPECT_KEYS, pointer(base, "expect"), "'expect'")
        for key in KEYS:
            if key.check is not None and key.name in raw_expect:
                ptr = pointer(base, "expect", key.name)
                expect.append((ptr, key, key.read(e, raw_expect[key.name], ptr)))
        steps.append(Step(do, expect))
    return Scenario(factions, seed, position, steps, stop_at)


# ---------------------------------------------------------------------- running


def apply_position(g: Game, items: list[tuple[str, Key, Any]] | dict) -> None:
    """Set a position (read items, or a raw ``position`` object, which is read first)."""
    if isinstance(items, dict):
        r = Reader(g)
        raw = r.obj(items, "/position")
        _unknown(raw, POSITION_KEYS, "/position", "'position'")
        items = [(pointer("/position", k.name), k, k.read(r, raw[k.name],
                                                          pointer("/position", k.name)))
                 for k in KEYS if k.put is not None and k.name in raw]
    st = Setting()
    named = {k.name: v for _, k, v in items}
    last_board_key = "ruins" if "ruins" in named else "pieces"
    for ptr, key, value in items:
        assert key.put is not None
        key.put(g, value, st, ptr)
        if key.name == last_board_key:
            _check_slots(g, named)


def _check_slots(g: Game, named: dict) -> None:
    """Buildings and a ruin fit each clearing's slots (Law 2.2.3 / 2.4).  The ruin is
    blamed when the position put it there, else the pieces."""
    for c in g.names["clearings"]:
        if pos.buildings(g, c) > pos.slots(g, c):
            where = pointer("/position", "ruins", c) if named.get("ruins", {}).get(c) else \
                pointer("/position", "pieces", c)
            raise Invalid(where, f"clearing {c} has {pos.slots(g, c)} building slots: "
                          f"{pos.buildings(g, c)} buildings and ruins do not fit")


def check(g: Game, expect: dict, base: str = "/expect") -> list[str]:
    """Differences between a game and expectations (empty when all hold); an invalid
    expectation raises Invalid."""
    e = Reader(g, "expect")
    raw = e.obj(expect, base)
    _unknown(raw, EXPECT_KEYS, base, "'expect'")
    out = []
    for key in KEYS:
        if key.check is not None and key.name in raw:
            ptr = pointer(base, key.name)
            out += [f"{p}: {m}" for p, m in key.check(g, key.read(e, raw[key.name], ptr), ptr)]
    return out


def _fmt(where: str, ptr: str, message: str) -> str:
    return f"{where}#{ptr}: {message}" if ptr else f"{where}: {message}"


def run_scenario(data: object, *, bundle=None, pure=None, where: str = "") -> list[str]:
    """Run one scenario; its problems as lines (empty: it passed)."""
    try:
        factions, seed = _read_head(data)
        assert isinstance(data, dict)
        try:
            g = Game(factions, seed, bundle=bundle, pure=pure)
        except RootlawError as e:
            raise Invalid("/factions", e.message) from None
        sc = read_scenario(data, g)
        if sc.stop_at is not None:
            pos.set_stop(g, sc.stop_at)
        apply_position(g, sc.position)
    except Invalid as e:
        return [_fmt(where, e.ptr, f"SCENARIO-INVALID: {e.message}")]
    problems: list[str] = []
    for i, step in enumerate(sc.steps):
        # A stop (stop_at) holds while a step's checks look: the next step goes on from
        # it, and so does each decision (the position's own stop is checked by step 0).
        if i > 0:
            pos.resume(g)
        for ptr, a in step.do:
            pos.resume(g)
            try:
                g.apply(a)
            except IllegalAction as e:
                return problems + [_fmt(where, ptr, str(e))]
        for ptr, key, value in step.expect:
            assert key.check is not None
            try:
                problems += [_fmt(where, p, m) for p, m in key.check(g, value, ptr)]
            except Invalid as e:
                return problems + [_fmt(where, e.ptr, f"SCENARIO-INVALID: {e.message}")]
            except RootlawError as e:
                return problems + [_fmt(where, ptr, f"SCENARIO-INVALID: {e.message}")]
    return problems


def run_file(path: Path, **kw) -> list[str]:
    # Read like every other JSON file (size cap, UTF-8, nesting limit, keys named twice):
    # a file that is not JSON gets that reader's coded error.
    try:
        _, parsed = read_json(path, max_bytes=SCENARIO_MAX_BYTES)
    except JsonInputError as e:
        return [str(e.diagnostic)]
    return run_scenario(parsed.data, where=str(path), **kw)


# ---------------------------------------------------------------------- validating


def pack_of(path: Path) -> Path | None:
    """The pack a scenario file lies in (the nearest folder above it with a pack.json:
    a pack's scenarios/ folder), or None."""
    for folder in Path(path).resolve().parents:
        if (folder / "pack.json").is_file():
            return folder
    return None


def validate_file(path: Path, packs: list[Path]) -> tuple[str, list[Diagnostic]]:
    """``rootlaw validate`` of a scenario file: (what it is, its findings).

    Read as ``run_file`` reads it, on the bundle of ``packs`` and of the pack the file
    lies in; its head, position, decisions and expectations are read against that game
    (names, bounds, notations) and the position is set, but no step is taken: whether
    the expectations hold is ``rootlaw scenario``'s to say.  A problem is SCENARIO-INVALID
    at its JSON pointer and line."""
    file = str(path)
    try:
        text = read_text(path, max_bytes=SCENARIO_MAX_BYTES)
        data = parse(text, file).data
    except JsonInputError as e:
        return "", e.diagnostics
    own = pack_of(path)
    named: list[str | Path] = [*packs, *([own] if own is not None else [])]
    try:
        bundle = resolve(named)
    except SpecError as e:
        return "", e.diagnostics
    try:
        factions, seed = _read_head(data)
        assert isinstance(data, dict)
        try:
            # (validate never compiles: the compiled core where one is built, else pure)
            g = Game(factions, seed, bundle=bundle,
                     pure=want_pure() or not compiled_available(bundle))
        except RootlawError as e:
            raise Invalid("/factions", e.message) from None
        sc = read_scenario(data, g)
        if sc.stop_at is not None:
            pos.set_stop(g, sc.stop_at)
        apply_position(g, sc.position)
    except Invalid as e:
        line = nearest_line(line_index(text, {e.ptr}), e.ptr)
        return "", [Diagnostic("SCENARIO-INVALID", e.message, file, line, e.ptr)]
    n = len(sc.steps)
    on = f"packs {', '.join(bundle.packs)}" if len(bundle.packs) > 1 else "the base game"
    return (f"scenario: {n} step{'s' if n != 1 else ''}, {' and '.join(g.factions)} on {on}; "
            "`rootlaw scenario` runs it"), []


# ---------------------------------------------------------------------- docs

HEAD_DOCS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("name",), "what the scenario shows (a string)"),
    (("law",), "the Law section(s) it checks, e.g. `\"4.3.5.II\"`"),
    (("factions",), "the seated factions, in seat order (default: every faction of the "
     "bundle)"),
    (("seed",), "the game's seed (default 1): setup hands, deck order, dice not forced"),
    (("position",), "the position to set (below); the game starts from its seed, before "
     "setup, and the keys apply in the order of the table below"),
    (("steps",), "a list of `{\"do\": [...], \"expect\": {...}}`: decisions to take "
     "(notations, as `rootlaw play` logs them), then what must hold; an optional "
     "`note` says what the step shows"),
    (("do", "expect"), "one step, without `steps` (the older form)"),
    (("stop_at",), f"{' or '.join(f'`{s}`' for s in STOPS)}: the engine stops where "
     "a turn (or any phase) ends instead of running on into the next one's automatic "
     "steps, so a step's checks see the state as it ended (`decision` is then the "
     "stop's name). The next step goes on from there (the first step checks the "
     "position as set), and so does each decision"),
    (("$schema",), "the JSON Schema the file follows, for editors (below)"),
)
"""The scenario file's own keys: docs/scenarios.md and the JSON Schema's descriptions."""


def json_schema() -> dict:
    """The JSON Schema of scenario files (``spec/schema/scenario.schema.json``), built
    from KEYS: every key and the shape of its value.  Names (factions, clearings,
    pieces, cards, notations) are strings here: they depend on the content, and
    ``rootlaw validate`` reads them against it."""
    doc = {k: text for keys, text in HEAD_DOCS for k in keys}

    def keys(side: str) -> dict:
        out = {}
        for k in KEYS:
            if side == "position" and k.put is not None:
                out[k.name] = {**k.schema, "description": k.doc}
            elif side == "expect" and k.check is not None:
                out[k.name] = {**(k.expect_schema or k.schema),
                               "description": k.expect_doc or k.doc}
        return {"type": "object", "additionalProperties": False, "properties": out}

    do = {"type": "array", "description": "Decisions to take, in order: notations (as "
          "`rootlaw play` logs them) or action indexes.",
          "items": {"type": ["string", "integer"], "minimum": 0}}
    step = {"type": "object", "additionalProperties": False, "properties": {
        "do": do, "expect": {"$ref": "#/$defs/Expect"},
        "note": {"type": "string", "description": "What the step shows."}}}
    head = {
        "$schema": {"type": "string", "description": doc["$schema"]},
        "name": {"type": "string", "description": doc["name"]},
        "law": {"type": "string", "description": doc["law"]},
        "factions": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                     "description": doc["factions"]},
        "seed": {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1,
                 "description": doc["seed"]},
        "position": {"$ref": "#/$defs/Position", "description": doc["position"]},
        "stop_at": {"enum": list(STOPS), "description": doc["stop_at"]},
        "steps": {"type": "array", "items": {"$ref": "#/$defs/Step"},
                  "description": doc["steps"]},
        "do": {**do, "description": doc["do"]},
        "expect": {"$ref": "#/$defs/Expect", "description": doc["expect"]},
    }
    assert set(head) == set(SCENARIO_KEYS), "every key of the file is in the schema"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rootlaw scenario file",
        "description": "A rules scenario: a position, decisions and what must hold after "
                       "each step (docs/scenarios.md). `rootlaw validate FILE` checks it "
                       "against the content, `rootlaw scenario FILE` runs it.",
        "type": "object", "additionalProperties": False, "properties": head,
        # `steps`, or `do` and `expect` (one step): not both.
        "dependentSchemas": {"steps": {"not": {"anyOf": [{"required": ["do"]},
                                                         {"required": ["expect"]}]}}},
        "$defs": {"Position": keys("position"), "Expect": keys("expect"), "Step": step},
    }


def schema_text() -> str:
    """The committed scenario schema's text (``rootlaw schema --scenario``)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"


def _json(v: object) -> str:
    return json.dumps(v)


def pretty_json(v: object, indent: int = 0, width: int = 88) -> str:
    """JSON as people write it: a value on one line when it fits, else one item a line."""
    flat = json.dumps(v)
    if len(flat) + indent <= width or not isinstance(v, dict | list) or not v:
        return flat
    pad = " " * (indent + 2)
    if isinstance(v, dict):
        items = [f"{pad}{json.dumps(k)}: {pretty_json(x, indent + 2, width)}"
                 for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty_json(x, indent + 2, width) for x in v]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


EXAMPLES_PATH = Path(__file__).resolve().parent / "scenario_examples.json"


def examples() -> dict:
    """The docs' examples (on the base game): a whole scenario, and one value per key;
    under "homebrew", the values of keys no base-game faction has a use for, each section
    read on a pack of the repository (an examples/ folder's name, or a path; its
    factions given there)."""
    return json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))


def _example(ex: dict, side: str, key: str):
    if key in ex[side]:
        return ex[side][key]
    return next(home[side][key] for home in ex["homebrew"] if key in home[side])


def scenarios_markdown() -> str:
    """docs/scenarios.md, generated from KEYS and the examples (a test keeps the committed
    copy current, and runs the examples)."""
    ex = examples()
    lines = [
        "# Rules scenarios", "",
        "Generated from `runtime/scenario.py` by `rootlaw scenario --docs --out "
        "docs/scenarios.md`; do not edit by hand.", "",
        "A scenario puts a game in a chosen position, takes decisions by notation, and "
        "checks what holds after each step. `rootlaw scenario FILES...` runs them (a "
        "folder runs every `*.json` in it; a file inside a pack's folder on that pack, "
        "unless `--pack` says which) and prints `N passed, M failed`; the exit code "
        "is non-zero on failure, so content packs can run their scenarios in CI "
        "(`rootlaw check --pack` runs a pack's `scenarios/` folder too).", "",
        "```json", pretty_json(ex["scenario"]), "```", "",
        "## The file", "",
        "| key | meaning |",
        "|---|---|",
        *[f"| {', '.join(f'`{k}`' for k in keys)} | {text} |" for keys, text in HEAD_DOCS],
        "", "Editors complete and check scenario files from the JSON Schema "
        "`spec/schema/scenario.schema.json` when a file names it in `\"$schema\"` (a path "
        "relative to the file, as content files name theirs). The schema knows the shapes; "
        "the names (factions, clearings, pieces, cards, notations) depend on the content: "
        "`rootlaw validate FILE` reads them against it without running the scenario (on "
        "the packs given with `--pack` and the pack the file lies in), `rootlaw scenario "
        "FILE` runs it.",
        "", "## Position keys", "",
        "| key | meaning | example |",
        "|---|---|---|",
    ]
    for k in KEYS:
        if k.put is not None:
            example = _json(_example(ex, "position", k.name))
            lines.append(f"| `{k.name}` | {k.doc} | `{example}` |")
    lines += ["", "## Expect keys", "",
              "Each expectation is checked after its step's decisions; a failure names the "
              "step and the JSON pointer of the expectation.", "",
              "| key | meaning | example |", "|---|---|---|"]
    for k in KEYS:
        if k.check is not None:
            example = _json(_example(ex, "expect", k.name))
            lines.append(f"| `{k.name}` | {k.expect_doc} | `{example}` |")
    lines += [
        "", "## When a scenario is invalid", "",
        "A file that cannot mean anything is reported as `SCENARIO-INVALID` with the JSON "
        "pointer of the problem, and the scenario fails: an unknown key, a value of the "
        "wrong type, a name the content does not have (faction, clearing, piece, card, "
        "item, role, column, step, decision), a count out of bounds (negative, more than "
        "the supply holds, buildings beyond a clearing's slots), VP outside 0 to 99, and "
        "an action notation the game cannot express in `do` or in any legal-action "
        "expectation: a misspelt `not_legal` is an error, never a pass.", "",
    ]
    return "\n".join(lines)


__all__ = ["EXPECT_KEYS", "KEYS", "POSITION_KEYS", "Invalid", "Key", "apply_position",
           "check", "expressible", "json_schema", "read_scenario", "run_file", "run_scenario",
           "scenarios_markdown", "validate_file"]
