"""Reading and editing a game's state in the game's own words.

Rules scenarios (``runtime/scenario.py``) and the Law tests put a game in a chosen
position with these functions and read it back.  Every edit keeps the engine's
invariants (``runtime/conformance.py``): pieces on the map + supply + out of the game
= the printed count; every card in exactly one place, the deck order holding exactly
the deck's cards; items in the supply + crafted = the starting supply.  An edit that
cannot keep them (more pieces than the supply holds, a copy of a card that does not
exist) raises a coded ``RootlawError`` and changes nothing.

Names are the content's ids: clearings, pieces, cards, items, roles, columns, suits and
seated factions.  Nothing here knows a particular faction, card or map.
"""

from __future__ import annotations

from collections.abc import Iterable

from rootlaw.generator.tables import CARD_KINDS, PIECE_KINDS, SUITS
from rootlaw.generator.tables import STOPS as STOP_NAMES
from rootlaw.spec.words import unknown_name

from .errors import RootlawError
from .game import PHASES, Game

PHASE_CODES = {name: code for code, name in PHASES.items() if code >= 0}
MAX_VP = 99  # far above the 30 that wins (Law 3.1): room for the tie rule (Law 3.1.1)
CRAFT_SUITS = SUITS[:3]  # crafting pieces are counted per clearing suit (Law 4.1.1)


def _bad(message: str, code: str = "VALUE-INVALID") -> RootlawError:
    return RootlawError(message, code=code)


def _tab(g: Game, name: str, i: int = 0) -> int:
    t = g._core_module.tables
    return t.table[t.table_layout.offsets[name] + i]


# ---------------------------------------------------------------------- names -> indices


def _index(names: list[str], value: object, what: str) -> int:
    try:
        return names.index(str(value))
    except ValueError:
        raise _bad(unknown_name(what, value, names, list_known=None),
                   code="REF-UNDEF") from None


def piece_index(g: Game, piece: str) -> int:
    return _index(g.names["pieces"], piece, "piece")


def clearing_index(g: Game, clearing: str | int) -> int:
    return _index(g.names["clearings"], clearing, "clearing")


def card_def(g: Game, card: str) -> int:
    return _index(g.names["cards"], card, "card")


def item_index(g: Game, item: str) -> int:
    return _index(g.names["items"], item, "item")


def seat_of(g: Game, faction: str) -> int:
    try:
        return g.factions.index(faction)
    except ValueError:
        raise _bad(f"faction {faction!r} is not seated (seated: {', '.join(g.factions)})",
                   code="REF-UNDEF") from None


def roles_of(g: Game, seat: int) -> list[str]:
    return g.names["roles"][g._seats[seat]]


def columns_of(g: Game, seat: int) -> list[str]:
    return g.names["columns"][g._seats[seat]]


def column_loc(g: Game, seat: int, column: str) -> int:
    col = _index(columns_of(g, seat), column, f"column of {g.factions[seat]}")
    return g.consts["LOC_COLUMN"] + seat * g.consts["L"] + col


def card_kind(g: Game, card: str) -> str:
    return CARD_KINDS[_tab(g, "DEF_KIND", card_def(g, card))]


def card_copies(g: Game, card: str) -> int:
    """How many physical copies of a card the bundle has."""
    d = card_def(g, card)
    return sum(1 for x in g.card_defs if x == d)


def piece_total(g: Game, piece: str) -> int:
    return _tab(g, "PIECE_COUNT", piece_index(g, piece))


def piece_kind(g: Game, piece: str) -> str:
    return PIECE_KINDS[_tab(g, "PIECE_KIND", piece_index(g, piece))]


def piece_owner(g: Game, piece: str) -> str:
    """The faction id a piece belongs to (seated or not)."""
    return g.names["factions"][_tab(g, "PIECE_OWNER", piece_index(g, piece))]


def per_clearing_limit(g: Game, piece: str) -> int | None:
    """At most this many of the piece in one clearing, when its content says so."""
    owner = piece_owner(g, piece)
    for f in g.bundle.factions:
        if f.id == owner:
            return getattr(f.pieces[piece], "per_clearing", None)
    return None


def slots(g: Game, clearing: str | int) -> int:
    return _tab(g, "CLEARING_SLOTS", clearing_index(g, clearing))


# ---------------------------------------------------------------------- pieces


def count(g: Game, clearing: str | int, piece: str) -> int:
    c, pc = clearing_index(g, clearing), piece_index(g, piece)
    return g.state[g.S["BOARD"] + c * g.consts["NP"] + pc]


def supply(g: Game, piece: str) -> int:
    return g.state[g.S["SUPPLY"] + piece_index(g, piece)]


def out_of_game(g: Game, piece: str) -> int:
    """Pieces removed from the game (a permanent removal, or an unseated faction's)."""
    return g.state[g.S["OUT"] + piece_index(g, piece)]


def buildings(g: Game, clearing: str | int) -> int:
    """Building slots taken in a clearing: its buildings and its ruin (Law 2.4, 5.1.4)."""
    c = clearing_index(g, clearing)
    NP = g.consts["NP"]
    n = g.state[g.S["RUINS"] + c]
    for pc in range(NP):
        if _tab(g, "PIECE_KIND", pc) == PIECE_KINDS.index("building"):
            n += g.state[g.S["BOARD"] + c * NP + pc]
    return n


def put(g: Game, clearing: str | int, piece: str, n: int) -> None:
    """Set the count of a piece in a clearing, taking from or returning to the supply.
    A token laid face down with faces its owner knows (models.Piece.faces) is laid with
    ``lay_face_down``; put only takes it away (0), its face back unseen."""
    c, pc = clearing_index(g, clearing), piece_index(g, piece)
    if g.token_faces(pc):
        if n != 0:
            raise _bad(f"a {piece} lies face down with a face its owner chose: lay it with "
                       "lay_face_down (a scenario's 'faces_down')")
        if piece_owner(g, piece) in g.factions:  # its face back unseen
            at = seat_of(g, piece_owner(g, piece)) * g.consts["C"] + c
            g.state[g.S["HFACE"] + at] = 0
            g.state[g.S["FACE_NOT"] + at] = 0
    token = _token_of_face(g, pc)
    if token is not None and n > 0:
        # A face lying face up: one token to a clearing, face up or down (13.2.2.II), and
        # no more than its owner has off the map besides those lying face down.
        family = [token, *(piece_index(g, x) for x in g.token_faces(token))]
        NP = g.consts["NP"]
        others = sum(g.state[g.S["BOARD"] + c * NP + x] for x in family if x != pc)
        if others + n > 1:
            raise _bad(f"clearing {clearing} holds a {g.names['pieces'][token]} already, "
                       "face up or down (one to a clearing)")
        if n - count(g, clearing, piece) > _face_left(g, pc):
            raise _bad(f"{n} {piece} in {clearing}: its owner has no more off the map")
    _set_count(g, g.S["BOARD"] + c * g.consts["NP"] + pc, piece, n, str(clearing))


def _token_of_face(g: Game, pc: int) -> int | None:
    """The token laid face down that piece pc is a face of, or None."""
    off = g._core_module.tables.table_layout.offsets.get("PIECE_FACE_DOWN")
    if off is None:
        return None
    fd = _tab(g, "PIECE_FACE_DOWN", pc)
    return fd if fd >= 0 else None


def _face_left(g: Game, f: int) -> int:
    """What the owner of face f has of it off the map and not lying face down."""
    seat = seat_of(g, piece_owner(g, g.names["pieces"][f]))
    C = g.consts["C"]
    return g.state[g.S["SUPPLY"] + f] - sum(
        g.state[g.S["HFACE"] + seat * C + x] == f + 1 for x in range(C))


def faces_down(g: Game, seat: int) -> dict[str, str]:
    """The faces of a seat's tokens lying face down: clearing -> face (Law 13.2.2)."""
    return g.faces_down(seat)


def lay_face_down(g: Game, clearing: str | int, face: str) -> None:
    """Lay one of a face's token face down in a clearing, hiding that face (models.Piece.
    faces): the token from its supply, the face from what its owner has left of it.
    One to a clearing (Law 13.2.2.II)."""
    c, f = clearing_index(g, clearing), piece_index(g, face)
    off = g._core_module.tables.table_layout.offsets.get("PIECE_FACE_DOWN")
    fd = _tab(g, "PIECE_FACE_DOWN", f) if off is not None else -1
    if fd < 0:
        raise _bad(f"{face} is no face of a token laid face down")
    token = g.names["pieces"][fd]
    if piece_owner(g, token) not in g.factions:
        raise _bad(f"{token} is a piece of {piece_owner(g, token)}, not in this game")
    seat = seat_of(g, piece_owner(g, token))
    C, NP = g.consts["C"], g.consts["NP"]
    if any(g.state[g.S["BOARD"] + c * NP + x]
           for x in [fd, *(piece_index(g, n) for n in g.token_faces(fd))]):
        raise _bad(f"clearing {clearing} holds a {token} already (one to a clearing)")
    left = _face_left(g, f)
    if left <= 0:
        raise _bad(f"no {face} left off the map to lay face down")
    _set_count(g, g.S["BOARD"] + c * NP + fd, token, 1, str(clearing))
    g.state[g.S["HFACE"] + seat * C + c] = f + 1
    g.state[g.S["FACE_NOT"] + seat * C + c] = 0  # (no guess at a new token yet)


def _set_count(g: Game, at: int, piece: str, n: int, where: str) -> None:
    """Set a place's count of a piece (state slot ``at``), taking from or returning to
    its supply."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise _bad(f"a count of pieces is a whole number from 0, not {n!r}")
    supply = g.S["SUPPLY"] + piece_index(g, piece)
    delta = n - g.state[at]
    if delta > g.state[supply]:
        raise _bad(f"{n} {piece} in {where}: the supply holds only {g.state[supply]} more "
                   f"(of {piece_total(g, piece)})")
    g.state[at] = n
    g.state[supply] -= delta
    face = other_face(g, piece)
    if face is not None:  # the same physical piece: out of play while this is placed
        pf = piece_index(g, face)
        g.state[g.S["SUPPLY"] + pf] -= delta
        g.state[g.S["OUT"] + pf] += delta


def other_face(g: Game, piece: str) -> str | None:
    """A two-faced building's other face (Law 15.2.2), or None."""
    if "PIECE_FACE" not in g._core_module.tables.table_layout.offsets:
        return None
    pf = _tab(g, "PIECE_FACE", piece_index(g, piece))
    return g.names["pieces"][pf] if pf >= 0 else None


def forest_index(g: Game, forest: str) -> int:
    """A forest's index, by its id ('1_2_5_10'), in a bundle whose content puts pieces in
    forests."""
    if "FOREST" not in g.S:
        raise _bad("no piece is ever in a forest in this game (its content puts none there)")
    if forest not in g.names["forests"]:
        raise _bad(f"no forest {forest!r} (the map's: {', '.join(g.names['forests'])})")
    return g.names["forests"].index(forest)


def put_in_forest(g: Game, forest: str, piece: str, n: int) -> None:
    """Set the count of a piece in a forest, taking from or returning to the supply."""
    fo, pc = forest_index(g, forest), piece_index(g, piece)
    _set_count(g, g.S["FOREST"] + fo * g.consts["NP"] + pc, piece, n, f"forest {forest}")


def clear_board(g: Game) -> None:
    """Return every piece on the map, in its clearings and forests, to its supply (homes
    are kept)."""
    for c in g.names["clearings"]:
        for pc in g.names["pieces"]:
            if count(g, c, pc):
                put(g, c, pc, 0)
    for forest, pieces in g.forest_counts().items():
        for pc in pieces:
            put_in_forest(g, forest, pc, 0)


def set_supply(g: Game, piece: str, n: int) -> None:
    """Set how many of a piece are in its supply; the others off the map are out of the
    game (Law 1.5.1: pieces are limited by their supply)."""
    pcs = [piece_index(g, x) for x in (piece, other_face(g, piece)) if x is not None]
    off_map = min(g.state[g.S["SUPPLY"] + x] + g.state[g.S["OUT"] + x] for x in pcs)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= off_map:
        raise _bad(f"{piece} in supply: {n!r} is not between 0 and {off_map}, the pieces "
                   "off the map")
    pc = piece_index(g, piece)
    if _token_of_face(g, pc) is not None:
        down = g.state[g.S["SUPPLY"] + pc] - _face_left(g, pc)
        if n < down:
            raise _bad(f"{piece} in supply: {n} is fewer than the {down} lying face down "
                       "(a face's supply counts those too)")
    for x in pcs:  # (a two-faced building's other face with it: one physical piece)
        off = g.state[g.S["SUPPLY"] + x] + g.state[g.S["OUT"] + x]
        g.state[g.S["SUPPLY"] + x] = n
        g.state[g.S["OUT"] + x] = off - n


def set_ruins(g: Game, clearing: str | int, n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n not in (0, 1):
        raise _bad(f"a clearing has a ruin (1) or not (0), not {n!r}")
    g.state[g.S["RUINS"] + clearing_index(g, clearing)] = n


def ruins(g: Game, clearing: str | int) -> int:
    return g.state[g.S["RUINS"] + clearing_index(g, clearing)]


# ---------------------------------------------------------------------- cards


def card_defs(g: Game) -> list[int]:
    return g.card_defs


def _locs(g: Game) -> list[int]:
    return [g.state[g.S["CARD_LOC"] + i] for i in range(g.consts["N"])]


def deck(g: Game) -> list[str]:
    """The draw pile, top card (the next one drawn) first."""
    n = g.state[g.S["DECK_LEN"]]
    cards = g.names["cards"]
    defs = g.card_defs
    return [cards[defs[g.state[g.S["DECK"] + i]]] for i in range(n - 1, -1, -1)]


def _deck_order(g: Game) -> list[int]:
    """Physical cards of the deck, bottom first (the core draws from the end)."""
    return [g.state[g.S["DECK"] + i] for i in range(g.state[g.S["DECK_LEN"]])]


def _write_deck(g: Game, order: list[int]) -> None:
    for i, x in enumerate(order):
        g.state[g.S["DECK"] + i] = x
        g.state[g.S["CARD_LOC"] + x] = g.consts["LOC_DECK"]
    g.state[g.S["DECK_LEN"]] = len(order)


def _relocate(g: Game, card: int, loc: int, *, top: bool = True) -> None:
    """Move one physical card; the deck keeps its order (a card entering it goes on top,
    or under it with ``top=False``)."""
    if g.state[g.S["CARD_LOC"] + card] == g.consts["LOC_DECK"]:
        _write_deck(g, [x for x in _deck_order(g) if x != card])
    _empty_pool(g, card, loc)
    g.state[g.S["CARD_LOC"] + card] = loc
    if loc == g.consts["LOC_DECK"]:
        order = _deck_order(g)
        _write_deck(g, order + [card] if top else [card] + order)


def discard_place(g: Game, card: int) -> int:
    """Where a discarded card goes: faction cards to their reserve, dominance cards to
    the available ones (Law 3.3.3), the others to the discard pile (Law 2.1)."""
    kind = CARD_KINDS[_tab(g, "DEF_KIND", g.card_defs[card])]
    c = g.consts
    return {"faction": c["LOC_RESERVE"], "dominance": c["LOC_AVAILABLE"]}.get(
        kind, c["LOC_DISCARD"])


def move_card(g: Game, card_id: str, loc: int, *, prefer: tuple[int, ...] = (0, 1),
              pinned: set[int] | None = None) -> int:
    """Move one physical card of a def to a location code; take it from the deck or the
    discard pile first (``prefer``), else from anywhere but the ``pinned`` cards.  A card
    moved into the deck goes on top: it is the next one drawn.  Returns the card."""
    d = card_def(g, card_id)
    locs = _locs(g)
    pinned = pinned or set()
    candidates = [i for i, x in enumerate(g.card_defs) if x == d and i not in pinned]
    rank = {x: k for k, x in enumerate(prefer)}
    candidates.sort(key=lambda i: (rank.get(locs[i], len(rank)), i))
    for i in candidates:
        if locs[i] == loc and loc != g.consts["LOC_DECK"]:
            continue
        _relocate(g, i, loc)
        return i
    raise _bad(f"no free copy of {card_id!r} (the bundle has {card_copies(g, card_id)})")


def set_cards_at(g: Game, loc: int, cards: Iterable[str], *, pinned: set[int] | None = None,
                 displaced_to: int | None = None) -> list[int]:
    """Make a place hold exactly these cards.  Copies already there stay; the cards that
    leave are discarded (``discard_place``) or moved to ``displaced_to``.  Returns the
    physical cards now there; they are added to ``pinned``."""
    pinned = pinned if pinned is not None else set()
    here = [i for i, x in enumerate(_locs(g)) if x == loc]
    want = list(cards)
    keep: list[int] = []
    for cid in want:
        d = card_def(g, cid)
        for i in here:
            if g.card_defs[i] == d and i not in keep:
                keep.append(i)
                break
    for i in here:
        if i not in keep:
            _relocate(g, i, discard_place(g, i) if displaced_to is None else displaced_to,
                      top=False)
    pinned.update(keep)
    placed = list(keep)
    needed = list(want)
    for i in keep:
        needed.remove(g.names["cards"][g.card_defs[i]])
    for cid in needed:
        i = move_card(g, cid, loc, prefer=(0, 1, 3, 2, 4), pinned=pinned)
        pinned.add(i)
        placed.append(i)
    return placed


def set_hand(g: Game, seat: int, cards: list[str], *, pinned: set[int] | None = None) -> None:
    """Replace a hand; the cards that leave it are discarded."""
    set_cards_at(g, g.consts["LOC_HAND"] + seat, cards, pinned=pinned)


def set_column(g: Game, seat: int, column: str, cards: list[str], *,
               pinned: set[int] | None = None) -> None:
    """Make a Decree column hold exactly these cards (the others are discarded: faction
    cards to their reserve)."""
    set_cards_at(g, column_loc(g, seat, column), cards, pinned=pinned)


def play_area(g: Game, seat: int) -> list[str]:
    """Cards in a seat's play area (crafted persistent cards), without an activated
    dominance card (see ``dominance``)."""
    cards = g.cards_at(g.consts["LOC_PLAY"] + seat)
    active = dominance(g, seat)
    if active is not None:
        cards.remove(active)
    return cards


def set_play_area(g: Game, seat: int, cards: list[str], *,
                  pinned: set[int] | None = None) -> None:
    active = dominance(g, seat)
    set_cards_at(g, g.consts["LOC_PLAY"] + seat,
                 list(cards) + ([active] if active is not None else []), pinned=pinned)


def _empty_pool(g: Game, card: int, loc: int) -> None:
    """A card with a box (models.CardBox) that leaves the play areas holds nothing: its
    pieces go back to their owners' supplies, as the engine's discard does."""
    play = g.consts["LOC_PLAY"]
    if "CARD_POOL" not in g._core_module.tables.table_layout.offsets or \
            play <= loc < play + g.num_players:
        return
    h = _tab(g, "CARD_POOL", card)
    if h < 0:
        return
    NP = g.consts["NP"]
    for pc in range(NP):
        g.state[g.S["SUPPLY"] + pc] += g.state[g.S["POOL"] + h * NP + pc]
        g.state[g.S["POOL"] + h * NP + pc] = 0


def _pool_at(g: Game, seat: int, card: str) -> int:
    """The state offset of the pieces held on the copy of a card in a seat's play area
    (models.CardBox)."""
    d = card_def(g, card)
    loc = g.consts["LOC_PLAY"] + seat
    copies = [i for i in range(g.consts["N"]) if g.state[g.S["CARD_LOC"] + i] == loc and
              _tab(g, "CARD_DEF", i) == d]
    if not copies or "CARD_POOL" not in g._core_module.tables.table_layout.offsets or \
            _tab(g, "CARD_POOL", copies[0]) < 0:
        raise _bad(f"{g.factions[seat]} has no {card} with a box in its play area")
    return g.S["POOL"] + _tab(g, "CARD_POOL", copies[0]) * g.consts["NP"]


def held(g: Game, seat: int, card: str) -> dict[str, int]:
    """The pieces held on a card in a seat's play area (models.CardBox), by piece."""
    at = _pool_at(g, seat, card)
    return {name: g.state[at + pc] for pc, name in enumerate(g.names["pieces"])
            if g.state[at + pc]}


def set_held(g: Game, seat: int, card: str, piece: str, n: int) -> None:
    """Set how many of a piece a card in a seat's play area holds, taking them from (or
    returning them to) its owner's supply: map + supply + out + boxes and cards stays
    the printed count (Law 1.5.1)."""
    at, pc = _pool_at(g, seat, card) + piece_index(g, piece), piece_index(g, piece)
    have = g.state[at] + g.state[g.S["SUPPLY"] + pc]
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= have:
        raise _bad(f"{card}'s {piece}: {n!r} is not between 0 and {have}, those on the "
                   "card and in the supply")
    g.state[g.S["SUPPLY"] + pc] = have - n
    g.state[at] = n


# ---------------------------------------------------------------------- effects used


def effects_of(g: Game) -> list[str]:
    """The ids of every usable effect of the bundle (faction abilities and abilities of
    persistent cards, Law 4.1.3)."""
    return list(g.names["effects"])


def used_effects(g: Game, seat: int) -> list[str]:
    """The effects a seat has used this turn (this battle, for battle effects)."""
    return g.used_effects(seat)


def set_used_effects(g: Game, seat: int, ids: list[str]) -> None:
    """Mark exactly these effects as used by the seat this turn (or battle): a
    once-per-turn effect marked so cannot be used again until the next turn."""
    known = effects_of(g)
    U = g.consts["U"]
    at = g.S["USED"] + seat * U
    for i in ids:
        _index(known, i, "effect")
    for u, name in enumerate(known):
        g.state[at + u] = int(name in ids)


# ---------------------------------------------------------------------- zones and boxes


def zones_of(g: Game, seat: int) -> list[str]:
    """The ids of a seat's zones (its card piles apart from the hand)."""
    return list(g.names["zones"][g._seats[seat]])


def zone(g: Game, seat: int, zone_id: str) -> list[str]:
    """The cards in a seat's zone."""
    _index(zones_of(g, seat), zone_id, f"zone of {g.factions[seat]}")
    return g.zone(seat, zone_id)


def zone_capacity(g: Game, seat: int, zone_id: str) -> int | None:
    """The most cards the zone holds now: its capacity, or None while unlimited (no
    capacity, or one of the buildings that lift it on the map, Law 8.2.3.I)."""
    spec = next(z for z in g.bundle.faction(g.factions[seat]).zones if z.id == zone_id)
    if spec.capacity is None:
        return None
    on_map = {pc for row in g.piece_counts().values() for pc, n in row.items() if n}
    return None if on_map & set(spec.unlimited_while) else spec.capacity


def set_zone(g: Game, seat: int, zone_id: str, cards: list[str], *,
             pinned: set[int] | None = None) -> None:
    """Make a seat's zone hold exactly these cards (the others are discarded).  More
    cards than its capacity in force is a position the rules never reach: refused (put
    the building that lifts it on the map first)."""
    _index(zones_of(g, seat), zone_id, f"zone of {g.factions[seat]}")
    cap = zone_capacity(g, seat, zone_id)
    if cap is not None and len(cards) > cap:
        raise _bad(f"{g.factions[seat]}'s {zone_id} holds at most {cap} cards now "
                   f"(Law 8.2.3.I), not {len(cards)}")
    set_cards_at(g, g.zone_loc(seat, zone_id), cards, pinned=pinned)


def boxes_of(g: Game, seat: int) -> list[str]:
    """The ids of a seat's boxes (its warriors off the map)."""
    return list(g.names["boxes"][g._seats[seat]])


def box(g: Game, seat: int, box_id: str) -> int:
    _index(boxes_of(g, seat), box_id, f"box of {g.factions[seat]}")
    return g.box(seat, box_id)


def set_box(g: Game, seat: int, box_id: str, n: int) -> None:
    """Set how many warriors are in a seat's box, taking them from (or returning them
    to) the supply: map + supply + out + boxes stays the printed count (Law 1.5.1)."""
    b = _index(boxes_of(g, seat), box_id, f"box of {g.factions[seat]}")
    at = g.box_index(seat, box_id)
    pc = _tab(g, "BOX_PIECE", g._seats[seat] * g.consts["B"] + b)
    if pc < 0:
        # A tally of pieces taken out of play (models.Box.piece, a list): its count
        # alone, the pieces it stands for not taken from anywhere.
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 64:
            raise _bad(f"{g.factions[seat]}'s {box_id}: {n!r} is not a count from 0 to 64")
        g.state[at] = n
        return
    have = g.state[at] + g.state[g.S["SUPPLY"] + pc]
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= have:
        raise _bad(f"{g.factions[seat]}'s {box_id}: {n!r} is not between 0 and {have}, "
                   f"the {g.names['pieces'][pc]} in the box and the supply")
    g.state[g.S["SUPPLY"] + pc] = have - n
    g.state[at] = n


def dominance(g: Game, seat: int) -> str | None:
    """The dominance card a seat has activated (Law 3.3.1), or None."""
    d = g.state[g.S["DOMINANCE"] + seat]
    return None if d < 0 else g.names["cards"][d]


def set_dominance(g: Game, seat: int, card: str | None, *,
                  pinned: set[int] | None = None) -> None:
    """Activate a dominance card for a seat: it lies face up in its play area and its
    score marker leaves the track (Law 3.3.1).  A card activated before is discarded
    (it becomes available, Law 3.3.3)."""
    pinned = pinned if pinned is not None else set()
    old = dominance(g, seat)
    play = g.consts["LOC_PLAY"] + seat
    if old is not None:
        d = card_def(g, old)
        phys = next(x for x, loc in enumerate(_locs(g)) if loc == play and g.card_defs[x] == d)
        _relocate(g, phys, discard_place(g, phys))
        g.state[g.S["DOMINANCE"] + seat] = -1
    if card is None:
        return
    if card_kind(g, card) != "dominance":
        raise _bad(f"{card!r} is not a dominance card")
    pinned.add(move_card(g, card, play, prefer=(0, 1, 2, 4, 3), pinned=pinned))
    g.state[g.S["DOMINANCE"] + seat] = card_def(g, card)


def piles(g: Game) -> dict[str, int]:
    """The shared card places by their scenario names."""
    c = g.consts
    return {"discard": c["LOC_DISCARD"], "available_dominance": c["LOC_AVAILABLE"],
            "removed": c["LOC_OUT"]}


def set_deck_top(g: Game, cards: list[str], *, pinned: set[int] | None = None) -> None:
    """Put these cards on top of the draw pile, the first one on top (drawn first)."""
    pinned = pinned if pinned is not None else set()
    for cid in reversed(cards):
        i = move_card(g, cid, g.consts["LOC_DECK"], prefer=(0, 1, 3, 2, 4), pinned=pinned)
        pinned.add(i)


def set_deck_size(g: Game, n: int, *, pinned: set[int] | None = None) -> None:
    """Make the draw pile n cards: cards from its bottom go onto the discard pile, or
    cards of the discard pile go under it."""
    pinned = pinned or set()
    order = _deck_order(g)  # bottom first
    if n < len(order):
        keep_top = [x for x in order if x in pinned]
        if len(keep_top) > n:
            raise _bad(f"the deck cannot be {n} cards: {len(keep_top)} are placed on it")
        loose = [x for x in order if x not in pinned]
        for x in loose[:len(order) - n]:
            g.state[g.S["CARD_LOC"] + x] = g.consts["LOC_DISCARD"]
        _write_deck(g, [x for x in order if g.state[g.S["CARD_LOC"] + x] ==
                        g.consts["LOC_DECK"]])
    elif n > len(order):
        pile = [i for i, loc in enumerate(_locs(g))
                if loc == g.consts["LOC_DISCARD"] and i not in pinned]
        if len(order) + len(pile) < n:
            raise _bad(f"the deck cannot be {n} cards: it has {len(order)} and the discard "
                       f"pile {len(pile)} more")
        _write_deck(g, pile[:n - len(order)] + order)


# ---------------------------------------------------------------------- items


def items(g: Game) -> dict[str, int]:
    """The item supply (Law 4.1.2)."""
    return {it: g.state[g.S["ITEMS"] + i] for i, it in enumerate(g.names["items"])}


def crafted(g: Game, seat: int) -> dict[str, int]:
    I_ = g.consts["I"]
    return {it: g.state[g.S["CRAFTED"] + seat * I_ + i]
            for i, it in enumerate(g.names["items"])}


def set_crafted(g: Game, seat: int, item: str, n: int) -> None:
    """Set a seat's crafted items of a kind, taking from or returning to the supply."""
    i = item_index(g, item)
    at = g.S["CRAFTED"] + seat * g.consts["I"] + i
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise _bad(f"a count of items is a whole number from 0, not {n!r}")
    delta = n - g.state[at]
    if delta > g.state[g.S["ITEMS"] + i]:
        raise _bad(f"{n} {item} crafted: the item supply holds only "
                   f"{g.state[g.S['ITEMS'] + i]} more")
    if "EXHAUSTED" in g.S and \
            sum(crafted(g, seat).values()) + delta < g.state[g.S["EXHAUSTED"] + seat]:
        raise _bad(f"{n} {item} crafted would leave fewer crafted items than the "
                   f"{g.state[g.S['EXHAUSTED'] + seat]} exhausted: set those first")
    g.state[at] = n
    g.state[g.S["ITEMS"] + i] -= delta


def exhausted(g: Game, seat: int) -> int:
    """How many of a seat's crafted items are exhausted, face down (models.Effect.cost);
    0 in a bundle where nothing exhausts one."""
    if "EXHAUSTED" not in g.S:
        return 0
    return g.state[g.S["EXHAUSTED"] + seat]


def set_exhausted(g: Game, seat: int, n: int) -> None:
    """Set how many of a seat's crafted items are exhausted (at most its crafted items)."""
    if "EXHAUSTED" not in g.S:
        raise _bad("nothing in this game's rules exhausts an item")
    have = sum(crafted(g, seat).values())
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= have:
        raise _bad(f"exhausted items are a whole number from 0 to the {have} crafted, "
                   f"not {n!r}")
    g.state[g.S["EXHAUSTED"] + seat] = n


# ---------------------------------------------------------------------- players


def set_vp(g: Game, seat: int, vp: int) -> None:
    """Set a seat's VP.  30 or more has won (Law 3.1) as soon as the engine next checks:
    positions use it for the tie rule (Law 3.1.1)."""
    if isinstance(vp, bool) or not isinstance(vp, int) or not 0 <= vp <= MAX_VP:
        raise _bad(f"VP are 0 to {MAX_VP}, not {vp!r}")
    g.state[g.S["VP"] + seat] = vp


def home(g: Game, seat: int) -> str | None:
    """A seat's home clearing (the corner its setup took: Law 6.3.1, 7.3.1), or None."""
    c = g.state[g.S["HOME"] + seat]
    return None if c < 0 else g.names["clearings"][c]


def set_home(g: Game, seat: int, clearing: str | int | None) -> None:
    """Make a clearing a seat's home (what the filters 'home' and 'opposite_home' read),
    or none (None)."""
    g.state[g.S["HOME"] + seat] = -1 if clearing is None else clearing_index(g, clearing)


def role(g: Game, seat: int) -> str | None:
    r = g.state[g.S["ROLE"] + seat]
    return None if r < 0 else roles_of(g, seat)[r]


def set_role(g: Game, seat: int, name: str | None) -> None:
    g.state[g.S["ROLE"] + seat] = -1 if name is None else \
        _index(roles_of(g, seat), name, f"role of {g.factions[seat]}")


def retired_roles(g: Game, seat: int) -> list[str]:
    """Roles lying face down (Law 7.7.3)."""
    mask = g.state[g.S["ROLES_RETIRED"] + seat]
    return [r for k, r in enumerate(roles_of(g, seat)) if (mask >> k) & 1]


def set_retired_roles(g: Game, seat: int, names: list[str]) -> None:
    roles = roles_of(g, seat)
    mask = 0
    for name in names:
        mask |= 1 << _index(roles, name, f"role of {g.factions[seat]}")
    if roles and mask == (1 << len(roles)) - 1:
        # The engine turns every role face up again when the last one is retired.
        raise _bad("not every role can be face down: the last one turns them face up")
    g.state[g.S["ROLES_RETIRED"] + seat] = mask


def first_player(g: Game) -> str:
    return g.factions[g.state[g.S["FIRST"]]]


def set_first_player(g: Game, faction: str) -> None:
    g.state[g.S["FIRST"]] = seat_of(g, faction)


# ---------------------------------------------------------------------- per-turn counters


def counters(g: Game) -> dict:
    """The current turn's counters, by name (see ``set_counter``)."""
    s, S = g.state, g.S
    seat = g.current
    resolved: dict[str, list[str]] = {}
    for col in columns_of(g, seat):
        loc = column_loc(g, seat, col)
        resolved[col] = [g.names["cards"][g.card_defs[i]] for i, x in enumerate(_locs(g))
                         if x == loc and s[S["CARD_DONE"] + i]]
    return {
        "actions_left": s[S["ACTIONS_LEFT"]],
        "recruited": any(s[S["LIMITS"] + k] for k in _limit_slots(g, seat)),
        "crafting_used": {su: s[S["CRAFT_USED"] + k] for k, su in enumerate(CRAFT_SUITS)},
        "resolved": resolved,
        "added": s[S["ADDED"]],
        "added_birds": s[S["ADDED_BIRDS"]],
    }


def _limit_slots(g: Game, seat: int) -> list[int]:
    """The once-per-turn slots (LIMITS) of the programs a seat's faction runs (a recruit
    at each of a building): the scenario counter "recruited" is whether one is used."""
    f = g._seats[seat]
    return [slot for _, fi, slot in g.names["instances"] if fi == f and slot >= 0]


COUNTERS = ("actions_left", "recruited", "crafting_used", "resolved", "added", "added_birds")


def set_counter(g: Game, name: str, value) -> None:
    """Set one counter of the current turn: ``actions_left`` (actions still to take in
    an actions step), ``recruited`` (the once-a-turn recruit is used), ``crafting_used``
    (suit -> crafting pieces used this turn, Law 4.1.1), ``resolved`` (column -> cards
    of the current player's Decree already resolved this turn, Law 7.5.2), ``added`` and
    ``added_birds`` (cards, and bird cards, added to the Decree this turn, Law 7.4)."""
    s, S = g.state, g.S
    if name == "actions_left":
        s[S["ACTIONS_LEFT"]] = value
    elif name == "recruited":
        for k in _limit_slots(g, g.current):
            s[S["LIMITS"] + k] = int(value)
    elif name == "crafting_used":
        for su, n in value.items():
            s[S["CRAFT_USED"] + CRAFT_SUITS.index(su)] = n
    elif name == "resolved":
        seat = g.current
        locs = _locs(g)
        for col, cards in value.items():
            loc = column_loc(g, seat, col)
            here = [i for i, x in enumerate(locs) if x == loc]
            for i in here:
                s[S["CARD_DONE"] + i] = 0
            for cid in cards:
                d = card_def(g, cid)
                free = [i for i in here if g.card_defs[i] == d and not s[S["CARD_DONE"] + i]]
                if not free:
                    raise _bad(f"{cid!r} is not in {g.factions[seat]}'s {col} column")
                s[S["CARD_DONE"] + free[0]] = 1
    elif name == "added":
        s[S["ADDED"]] = value
    elif name == "added_birds":
        s[S["ADDED_BIRDS"]] = value
    else:
        raise _bad(f"unknown counter {name!r} (known: {', '.join(COUNTERS)})",
                   code="REF-UNDEF")


# ---------------------------------------------------------------------- cycles


def cycles(g: Game, seat: int) -> dict[str, str]:
    """Where a seat's cycles stand: cycle id -> stage (models.Cycle)."""
    return g.cycles(seat)


def set_cycle(g: Game, seat: int, cycle: str, stage: str) -> None:
    """Put a seat's cycle marker on a stage."""
    f = g._seats[seat]
    k = _index(g.names["cycles"][f], cycle, f"cycle of {g.factions[seat]}")
    stages = g.names["stages"][f][k]
    g.state[g.S["CYCLE"] + seat * g.consts["NCYC"] + k] = \
        _index(stages, stage, f"stage of {g.factions[seat]}'s {cycle}")


# ---------------------------------------------------------------------- turn flow


def set_turn_number(g: Game, number: int) -> None:
    """Set the turn counter (turns begun in the game, the first is 1)."""
    g.state[g.S["TURN"]] = number


def _program(g: Game, f: int, phase: str) -> tuple[int, int]:
    ph = _index(list(PHASE_CODES), phase, "phase")
    return _tab(g, "PHASE_RANGE", (f * 3 + ph) * 2), _tab(g, "PHASE_RANGE", (f * 3 + ph) * 2 + 1)


def _stage_hooks(g: Game, seat: int, f: int, step: int, stage: int | None):
    """The hooks a run_stage step runs: in one stage (its index), or in any stage
    (None); as step ranges (start, end)."""
    cycle = _tab(g, "STEP_A", step)
    first = _tab(g, "STEP_C", step)
    n = _tab(g, "CYCLE_LEN", f * g.consts["NCYC"] + cycle)
    for x in range(n) if stage is None else [stage]:
        h = _tab(g, "STAGE_HOOK", first + x)
        if h >= 0:
            yield _tab(g, "HOOK_RANGE", 2 * h), _tab(g, "HOOK_RANGE", 2 * h + 1)


def goto(g: Game, faction: str, phase: str, step: str | None = None) -> None:
    """Make it faction's turn at a phase (and step op of its program), then run on.
    The phase's earlier steps do not run: for the very start of a turn, with its
    start-of-Birdsong checks, use ``begin_turn``."""
    seat = seat_of(g, faction)
    f = g._seats[seat]
    ph = _index(list(PHASE_CODES), phase, "phase")
    start, end = _program(g, f, phase)
    st, ret, ret_end = start, -1, 0
    if step is not None:
        for i in range(start, end):
            if _step_name(g, i) == step:
                st = i
                break
        else:
            # A step of a hook that a run_stage step of the phase runs in the seat's
            # current stage: the hook's program, returning after the run_stage step.
            found = None
            for i in range(start, end):
                if _step_name(g, i) != "run_stage":
                    continue
                stage = g.state[g.S["CYCLE"] + seat * g.consts["NCYC"] + _tab(g, "STEP_A", i)]
                for h0, h1 in _stage_hooks(g, seat, f, i, stage):
                    j = next((j for j in range(h0, h1) if _step_name(g, j) == step), None)
                    if j is not None and found is None:
                        found = (j, h1, i + 1)
            if found is None:
                raise _bad(f"{faction} has no {step!r} step in {phase} (in the stages its "
                           "cycles stand on)", code="REF-UNDEF")
            st, ret, ret_end = found[0], found[2], end
            end = found[1]
    s = g.S
    g.state[s["DEPTH"]] = 0
    g.state[s["STOPPED"]] = 0  # a turn held by an earlier stop is left behind
    g.state[s["B_STAGE"]] = 0
    g.state[s["HOLD_VICTORY"]] = 0  # a battle's hits no longer landing
    g.state[s["LEDGER_N"]] = 0  # nor a removal event in progress
    g.state[s["LEDGER_NC"]] = 0
    for i in range(g.consts["EV_CLEARINGS"] * g.consts["NP"]):
        g.state[s["LEDGER"] + i] = 0
    g.state[s["CURRENT"]] = seat
    g.state[s["PHASE"]] = ph
    g.state[s["STEP"]] = st
    g.state[s["STEP_END"]] = end
    g.state[s["STEP_ENTERED"]] = 0
    g.state[s["RET_STEP"]] = ret
    g.state[s["RET_END"]] = ret_end
    for i in range(4):
        g.state[s["CRAFT_USED"] + i] = 0
    for c in range(g.consts["C"]):
        g.state[s["PLACE_LEFT"] + c] = 0
    g.state[s["CRAFT_ANY_LEFT"]] = 0
    for k in range(g.consts["NLIMITS"]):
        g.state[s["LIMITS"] + k] = 0
    g._core.advance()


def steps_of(g: Game, faction: str, phase: str) -> list[str]:
    """The step ops of a faction's phase, in order, then those of the hooks its
    run_stage steps run in any stage."""
    seat = seat_of(g, faction)
    f = g._seats[seat]
    start, end = _program(g, f, phase)
    out = [_step_name(g, i) for i in range(start, end)]
    for i in range(start, end):
        if _step_name(g, i) == "run_stage":
            for h0, h1 in _stage_hooks(g, seat, f, i, None):
                out += [_step_name(g, j) for j in range(h0, h1) if _step_name(g, j) not in out]
    return out


def step_op(g: Game) -> str | None:
    """The op of the step the turn is at (None past the end of a program)."""
    st = g.state[g.S["STEP"]]
    if st >= g.state[g.S["STEP_END"]]:
        return None
    return _step_name(g, st)


def _step_name(g: Game, st: int) -> str:
    """Step st's op as the content names it (a step that runs a program: the program's
    name, as its 'op' gives it)."""
    return g.names["steps"][st]


def ruler(g: Game, clearing: str) -> str | None:
    return g.ruler(clearing)


# ---------------------------------------------------------------------- dice


def set_dice_queue(g: Game, rolls: list[tuple[int, int]]) -> None:
    """Queue battle rolls, each (high, low) with dice 0 to 3 (Law 4.3.3): the next
    battles use them in order, before the game's own dice."""
    most = g.consts["MAX_DICE"]
    if len(rolls) > most:
        raise _bad(f"at most {most} rolls can be queued, not {len(rolls)}")
    for k, (high, low) in enumerate(rolls):
        if not (0 <= low <= high <= 3):
            raise _bad(f"a roll is [high, low] with dice 0 to 3, not [{high}, {low}]")
        g.state[g.S["DICE"] + 2 * k] = high
        g.state[g.S["DICE"] + 2 * k + 1] = low
    g.state[g.S["DICE_POS"]] = 0
    g.state[g.S["DICE_LEN"]] = 2 * len(rolls)


def dice_queue(g: Game) -> list[tuple[int, int]]:
    """The queued rolls not yet used."""
    s, S = g.state, g.S
    left = [s[S["DICE"] + i] for i in range(s[S["DICE_POS"]], s[S["DICE_LEN"]])]
    return [(left[i], left[i + 1]) for i in range(0, len(left), 2)]


def set_dice(g: Game, high: int, low: int) -> None:
    """The next battle roll is (high, low) (Law 4.3.3)."""
    set_dice_queue(g, [(high, low)])


# ---------------------------------------------------------------------- turn flow aids

STOPS = {name: i + 1 for i, name in enumerate(STOP_NAMES)}  # the core's STOP_* codes


def begin_turn(g: Game, faction: str) -> None:
    """Begin a faction's turn through the engine's turn flow (its start-of-Birdsong
    checks included), then run to the first decision."""
    g._core.begin_turn(seat_of(g, faction))


def set_stop(g: Game, at: str | None) -> None:
    """Hold the turn where it ends ("end_of_turn") or where any phase ends
    ("end_of_phase") instead of running on into the next one; None: never."""
    g._core.set_stop(0 if at is None else STOPS[at])


def stopped(g: Game) -> str | None:
    """Where the engine holds the turn now, or None."""
    code = g.state[g.S["STOPPED"]]
    return next((name for name, c in STOPS.items() if c == code), None) if code else None


def resume(g: Game) -> None:
    """Go on from a stop (nothing when there is none)."""
    g._core.resume()


__all__ = [
    "CRAFT_SUITS", "PHASE_CODES", "buildings", "card_copies", "card_def", "card_defs",
    "card_kind", "clear_board", "clearing_index", "column_loc", "columns_of", "count",
    "counters", "crafted", "cycles", "deck", "discard_place", "dominance", "first_player", "goto",
    "item_index", "items", "move_card", "out_of_game", "per_clearing_limit", "piece_index",
    "piece_kind", "piece_owner", "piece_total", "piles", "play_area", "put", "retired_roles",
    "role", "roles_of", "ruins", "ruler", "seat_of", "set_cards_at", "set_column",
    "set_counter", "set_crafted", "set_cycle", "set_deck_size", "set_deck_top", "set_dominance",
    "set_first_player", "set_hand", "set_play_area", "set_retired_roles", "set_role",
    "set_ruins", "set_supply", "set_vp", "slots", "step_op", "steps_of", "supply",
    "begin_turn", "dice_queue", "resume", "set_dice", "set_dice_queue", "set_stop",
    "stopped", "STOPS", "exhausted", "set_exhausted", "faces_down", "lay_face_down",
    "box", "boxes_of", "set_box", "set_zone", "zone", "zone_capacity", "zones_of",
]
