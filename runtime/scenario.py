"""Rules scenarios: put a game in a chosen position, act, and check the outcome.

The editing functions keep the invariants (pieces on map + supply + out = total; every
card in exactly one place).  The scenario file format (JSON: factions, seed, position,
do, expect) is described in docs/scenarios.md.

``rootlaw scenario FILES...`` runs them (see ``run_scenario``).
"""

from __future__ import annotations

from pathlib import Path

from rootlaw.spec.jsonio import SCENARIO_MAX_BYTES, JsonInputError, read_json

from . import rng
from .errors import RootlawError
from .game import Game

PHASE_CODES = {"birdsong": 0, "daylight": 1, "evening": 2}


def _tables(g: Game):
    t = g._core_module.tables
    return t.table, t.table_layout.offsets


def piece_index(g: Game, piece: str) -> int:
    try:
        return g.names["pieces"].index(piece)
    except ValueError:
        raise RootlawError(f"unknown piece {piece!r}", code="REF-UNDEF") from None


def clearing_index(g: Game, clearing: str | int) -> int:
    try:
        return g.names["clearings"].index(str(clearing))
    except ValueError:
        raise RootlawError(f"unknown clearing {clearing!r}", code="REF-UNDEF") from None


def seat_of(g: Game, faction: str) -> int:
    try:
        return g.factions.index(faction)
    except ValueError:
        raise RootlawError(f"faction {faction!r} is not seated", code="REF-UNDEF") from None


def count(g: Game, clearing: str | int, piece: str) -> int:
    c, pc = clearing_index(g, clearing), piece_index(g, piece)
    return g.state[g.S["BOARD"] + c * g.consts["NP"] + pc]


def supply(g: Game, piece: str) -> int:
    return g.state[g.S["SUPPLY"] + piece_index(g, piece)]


def put(g: Game, clearing: str | int, piece: str, n: int) -> None:
    """Set the count of a piece in a clearing, taking from or returning to supply."""
    c, pc = clearing_index(g, clearing), piece_index(g, piece)
    at = g.S["BOARD"] + c * g.consts["NP"] + pc
    delta = n - g.state[at]
    if delta > g.state[g.S["SUPPLY"] + pc]:
        raise RootlawError(f"not enough {piece} in supply for {n} in {clearing}",
                           code="VALUE-INVALID")
    g.state[at] = n
    g.state[g.S["SUPPLY"] + pc] -= delta


def clear_board(g: Game) -> None:
    """Return every piece on the map to its supply (homes are kept)."""
    for c in g.names["clearings"]:
        for pc in g.names["pieces"]:
            if count(g, c, pc):
                put(g, c, pc, 0)


def set_ruins(g: Game, clearing: str | int, n: int) -> None:
    g.state[g.S["RUINS"] + clearing_index(g, clearing)] = n


def card_defs(g: Game) -> list[int]:
    return g.card_defs


def _remove_from_deck(g: Game, card: int) -> None:
    n = g.state[g.S["DECK_LEN"]]
    deck = [g.state[g.S["DECK"] + i] for i in range(n)]
    if card in deck:
        deck.remove(card)
        for i, x in enumerate(deck):
            g.state[g.S["DECK"] + i] = x
        g.state[g.S["DECK_LEN"]] = n - 1


def move_card(g: Game, card_id: str, loc: int, *, prefer: tuple[int, ...] = (0, 1)) -> int:
    """Move one physical card of a def to a location code; take it from the deck or the
    discard pile first (``prefer``), else from anywhere.  A card moved into the deck
    goes on top: it is the next one drawn."""
    try:
        d = g.names["cards"].index(card_id)
    except ValueError:
        raise RootlawError(f"unknown card {card_id!r}", code="REF-UNDEF") from None
    defs = card_defs(g)
    locs = [g.state[g.S["CARD_LOC"] + i] for i in range(g.consts["N"])]
    candidates = [i for i, x in enumerate(defs) if x == d]
    candidates.sort(key=lambda i: (locs[i] not in prefer, i))
    for i in candidates:
        if locs[i] == loc:
            continue
        if locs[i] == 0:
            _remove_from_deck(g, i)
        g.state[g.S["CARD_LOC"] + i] = loc
        if loc == 0:
            n = g.state[g.S["DECK_LEN"]]
            g.state[g.S["DECK"] + n] = i
            g.state[g.S["DECK_LEN"]] = n + 1
        return i
    raise RootlawError(f"no free copy of {card_id!r}", code="VALUE-INVALID")


def set_hand(g: Game, seat: int, cards: list[str]) -> None:
    """Replace a hand: the old cards go to the discard pile."""
    for i in range(g.consts["N"]):
        if g.state[g.S["CARD_LOC"] + i] == g.consts["LOC_HAND"] + seat:
            g.state[g.S["CARD_LOC"] + i] = 1
    for cid in cards:
        move_card(g, cid, g.consts["LOC_HAND"] + seat)


def column_loc(g: Game, seat: int, column: str) -> int:
    f = g._seats[seat]
    cols = g.names["columns"][f]
    return g.consts["LOC_COLUMN"] + seat * g.consts["L"] + cols.index(column)


def set_vp(g: Game, seat: int, vp: int) -> None:
    g.state[g.S["VP"] + seat] = vp


def set_role(g: Game, seat: int, role: str | None) -> None:
    f = g._seats[seat]
    g.state[g.S["ROLE"] + seat] = -1 if role is None else g.names["roles"][f].index(role)


def set_dice(g: Game, high: int, low: int) -> None:
    """Seed the game RNG so the next battle roll is (high, low) (Law 4.3.3)."""
    for state in range(1, 1 << 20):
        x = state
        rolls = []
        for _ in range(2):
            x = rng.step(x)
            rolls.append(rng.below(x, 4))
        if max(rolls) == high and min(rolls) == low:
            g.state[g.S["RNG"]] = state
            return
    raise RootlawError(f"no RNG state rolls {high},{low}")


def goto(g: Game, faction: str, phase: str, step: str | None = None) -> None:
    """Make it faction's turn at a phase (and step op of its program), then run on."""
    seat = seat_of(g, faction)
    f = g._seats[seat]
    table, off = _tables(g)
    ph = PHASE_CODES[phase]
    start = table[off["PHASE_RANGE"] + (f * 3 + ph) * 2]
    end = table[off["PHASE_RANGE"] + (f * 3 + ph) * 2 + 1]
    st = start
    if step is not None:
        ops = g.names["ops"]
        for i in range(start, end):
            if ops[table[off["STEP_OP"] + i]] == step:
                st = i
                break
        else:
            raise RootlawError(f"{faction} has no {step!r} step in {phase}", code="REF-UNDEF")
    s = g.S
    g.state[s["DEPTH"]] = 0
    g.state[s["B_STAGE"]] = 0
    g.state[s["CURRENT"]] = seat
    g.state[s["PHASE"]] = ph
    g.state[s["STEP"]] = st
    g.state[s["STEP_END"]] = end
    g.state[s["STEP_ENTERED"]] = 0
    g.state[s["RET_STEP"]] = -1
    for i in range(4):
        g.state[s["CRAFT_USED"] + i] = 0
    for c in range(g.consts["C"]):
        g.state[s["PLACE_LEFT"] + c] = 0
    g.state[s["CRAFT_ANY_LEFT"]] = 0
    g.state[s["RECRUITED"]] = 0
    g._core.advance()


def apply_position(g: Game, pos: dict) -> None:
    if pos.get("clear"):
        clear_board(g)
    for clearing, pieces in pos.get("pieces", {}).items():
        for piece, n in pieces.items():
            put(g, clearing, piece, n)
    for clearing, n in pos.get("ruins", {}).items():
        set_ruins(g, clearing, n)
    for faction, cards in pos.get("hands", {}).items():
        set_hand(g, seat_of(g, faction), cards)
    for faction, cols in pos.get("columns", {}).items():
        seat = seat_of(g, faction)
        for col, cards in cols.items():
            for cid in cards:
                move_card(g, cid, column_loc(g, seat, col), prefer=(0, 1, 3))
    for faction, vp in pos.get("vp", {}).items():
        set_vp(g, seat_of(g, faction), vp)
    for faction, role in pos.get("roles", {}).items():
        set_role(g, seat_of(g, faction), role)
    if "dice" in pos:
        set_dice(g, *pos["dice"])
    if "turn" in pos:
        t = pos["turn"]
        goto(g, t["faction"], t.get("phase", "daylight"), t.get("step"))


def check(g: Game, expect: dict) -> list[str]:
    """Differences between a game and expectations (empty when all hold)."""
    bad = []
    for clearing, pieces in expect.get("pieces", {}).items():
        for piece, n in pieces.items():
            if count(g, clearing, piece) != n:
                bad.append(f"{piece} in {clearing}: {count(g, clearing, piece)} != {n}")
    for faction, vp in expect.get("vp", {}).items():
        got = g.scores[seat_of(g, faction)]
        if got != vp:
            bad.append(f"vp of {faction}: {got} != {vp}")
    legal = set(g.legal()) if not g.is_over else set()
    for a in expect.get("legal", []):
        if a not in legal:
            bad.append(f"{a!r} should be legal")
    for a in expect.get("not_legal", []):
        if a in legal:
            bad.append(f"{a!r} should not be legal")
    if "legal_exactly" in expect and legal != set(expect["legal_exactly"]):
        bad.append(f"legal {sorted(legal)} != {sorted(expect['legal_exactly'])}")
    if "decision" in expect and g.decision != expect["decision"]:
        bad.append(f"decision {g.decision} != {expect['decision']}")
    if "winner" in expect and g.winner_faction != expect["winner"]:
        bad.append(f"winner {g.winner_faction} != {expect['winner']}")
    if "to_play" in expect and g.factions[g.to_play] != expect["to_play"]:
        bad.append(f"to play: {g.factions[g.to_play]} != {expect['to_play']}")
    for faction, n in expect.get("hand_size", {}).items():
        got = len(g.hand(seat_of(g, faction)))
        if got != n:
            bad.append(f"hand of {faction}: {got} != {n}")
    return bad


POSITION_KEYS = {"clear", "pieces", "ruins", "hands", "columns", "vp", "roles", "dice", "turn"}
EXPECT_KEYS = {"pieces", "vp", "legal", "not_legal", "legal_exactly", "decision", "winner",
               "to_play", "hand_size"}
SCENARIO_KEYS = {"name", "law", "factions", "seed", "position", "do", "expect", "$schema"}


def _unknown_keys(data: dict, where: str) -> list[str]:
    bad = []
    for key, known, at in ((None, SCENARIO_KEYS, ""), ("position", POSITION_KEYS, "/position"),
                           ("expect", EXPECT_KEYS, "/expect")):
        part = data if key is None else data.get(key, {})
        if not isinstance(part, dict):
            bad.append(f"{where}#{at}: SCENARIO-INVALID: must be an object")
            continue
        for k in part:
            if k not in known:
                bad.append(f"{where}#{at}/{k}: SCENARIO-INVALID: unknown key {k!r} "
                           f"(known: {', '.join(sorted(known))})")
    return bad


def run_scenario(data: dict, *, bundle=None, pure=None, where: str = "") -> list[str]:
    if not isinstance(data, dict):
        return [f"{where}: SCENARIO-INVALID: a scenario is a JSON object"]
    bad = _unknown_keys(data, where)
    if bad:
        return bad
    try:
        g = Game(data.get("factions"), data.get("seed", 1), bundle=bundle, pure=pure)
        apply_position(g, data.get("position", {}))
    except RootlawError as e:
        return [f"{where}#/position: {e}"]
    except (KeyError, ValueError, TypeError) as e:
        return [f"{where}#/position: SCENARIO-INVALID: {e!r}"]
    for i, a in enumerate(data.get("do", [])):
        try:
            g.apply(a)
        except RootlawError as e:
            return [f"{where}#/do/{i}: {e}"]
    return [f"{where}: {b}" for b in check(g, data.get("expect", {}))]


def run_file(path: Path, **kw) -> list[str]:
    # Read like every other JSON file (size cap, UTF-8, nesting limit, keys named twice).
    try:
        _, parsed = read_json(path, max_bytes=SCENARIO_MAX_BYTES)
    except JsonInputError as e:
        return [str(e.diagnostic)]
    if not isinstance(parsed.data, dict):
        return [f"{path}: SCENARIO-INVALID: a scenario is a JSON object"]
    return run_scenario(parsed.data, where=str(path), **kw)
