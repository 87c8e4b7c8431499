"""What happened, and who saw it: the core's events in a player's words, per audience.

While a game records events (``Game.record_events``), the core reports each thing that
happens as one record (EVENTS in generator/tables.py): a card moved, pieces placed or
removed, VP scored and why, the dice and the hits of a battle, a hand shown, a hook (a
turmoil) or a trigger (an Outrage) set off, the deck reshuffled, the game won.  This
module names them and says what each audience sees of them:

- a card's name is seen by the seat that moved it, by the owners of the places it left
  and entered, and by everyone when either place is face up (Law 1.2); anyone else sees
  that *a card* moved (a draw, a card put face down, a random take);
- a hand shown is seen, card by card, by the seat it is shown to (and its owner);
- everything else is public.

An audience is ``None`` (the table: public facts only), a seat, or ``ALL`` (the record
of whoever runs the game: every card named).  ``describe`` gives
an event in words for an audience, ``record`` the whole event for a JSON log (with who
saw the card), and ``redact`` a decision's notation for an audience (a card it names
that went face down to that audience reads "a card").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Event:
    """One thing that happened: its kind (EVENTS) and its four numbers (see there)."""

    kind: str
    a: int
    b: int
    c: int
    d: int


def decode(g: Game, raw: Iterable[tuple[int, int, int, int, int]]) -> list[Event]:
    names = g.names["events"]
    out = []
    for code, a, b, c, d in raw:
        out.append(Event(names[code] if code >= 0 else "lost", a, b, c, d))
    return out


# ---------------------------------------------------------------------- places


def owner(g: Game, loc: int) -> int:
    """The seat whose hand, play area, columns or zone a card location is, or -1."""
    c, P = g.consts, g.consts["P"]
    for start, per in ((c["LOC_HAND"], 1), (c["LOC_PLAY"], 1), (c["LOC_COLUMN"], c["L"]),
                       (c["LOC_ZONE"], c["Z"])):
        if start <= loc < start + P * per:
            return (loc - start) // per
    return -1


def face_down(g: Game, loc: int) -> bool:
    """Whether a location is hidden from the table (Law 1.2): the deck, a hand, a
    face-down zone."""
    c = g.consts
    if loc == c["LOC_DECK"] or c["LOC_HAND"] <= loc < c["LOC_HAND"] + c["P"]:
        return True
    if loc >= c["LOC_ZONE"]:
        q, z = divmod(loc - c["LOC_ZONE"], c["Z"])
        return g.zone_face_down(q, g.names["zones"][g._seats[q]][z])
    return False


# The audience that sees everything: the record of whoever runs the game (a text log's
# default), not any player's view.
ALL = -2


def sees_place(g: Game, loc: int, viewer: int | None) -> bool:
    return viewer == ALL or not face_down(g, loc) or \
        (viewer is not None and owner(g, loc) == viewer)


def sees_card(g: Game, e: Event, viewer: int | None) -> bool:
    """Whether an audience (a seat, None for the table, ALL) sees which card a 'card'
    event moved."""
    return (viewer is not None and viewer == e.d) or sees_place(g, e.b, viewer) or \
        sees_place(g, e.c, viewer)


def place_name(g: Game, loc: int) -> str:
    """A card location in words: 'the deck', 'the discard pile', a seat's hand or zone."""
    c = g.consts
    fixed = {c["LOC_DECK"]: "the deck", c["LOC_DISCARD"]: "the discard pile",
             c["LOC_OUT"]: "out of the game", c["LOC_RESERVE"]: "its faction's reserve",
             c["LOC_AVAILABLE"]: "the available dominance cards"}
    if loc in fixed:
        return fixed[loc]
    q = owner(g, loc)
    who = f"the {g.factions[q]}'s" if q >= 0 else "a"
    if c["LOC_HAND"] <= loc < c["LOC_HAND"] + c["P"]:
        return f"{who} hand"
    if c["LOC_PLAY"] <= loc < c["LOC_PLAY"] + c["P"]:
        return f"{who} play area"
    if c["LOC_COLUMN"] <= loc < c["LOC_ZONE"]:
        col = (loc - c["LOC_COLUMN"]) % c["L"]
        return f"{who} {g.names['columns'][g._seats[q]][col]} column"
    z = (loc - c["LOC_ZONE"]) % c["Z"]
    return f"{who} {g.names['zones'][g._seats[q]][z]}"


# ---------------------------------------------------------------------- words


def ability_name(g: Game, ident: str) -> str:
    """An ability's printed name (a faction's or a card's), by its id."""
    names = _NAMES.get(g.bundle.hash)
    if names is None:
        names = _NAMES[g.bundle.hash] = {
            ab.id: ab.name for src in (*g.bundle.factions, *g.bundle.deck.cards)
            for ab in getattr(src, "abilities", ()) if getattr(ab, "name", None)}
    return names.get(ident, ident)


_NAMES: dict[str, dict[str, str]] = {}


def _card(g: Game, card: int) -> str:
    return g.names["cards"][g.card_defs[card]]


def _piece(g: Game, pc: int) -> str:
    return g.names["pieces"][pc]


def _clearing(g: Game, c: int) -> str:
    return g.names["clearings"][c]


def _program(g: Game, pc: int) -> str:
    for start, end, name in g.names["programs"]:
        if start <= pc < end:
            return name
    return "an effect"


def _why(g: Game, e: Event) -> str:
    why = g.names["score_why"][e.c]
    if why == "placed":
        return f"{_piece(g, e.d)} placed"
    if why == "crafted":
        return f"crafting {g.names['cards'][e.d]}"
    if why == "effect":
        return _program(g, e.d)
    if why == "removed":
        return f"removing a {_piece(g, e.d)}"
    if why == "bonus":
        return f"bonus for removing a {_piece(g, e.d)}"
    if why == "track":
        return f"its {_piece(g, e.d)} track"
    if why == "columns":
        return f"{g.names['suits'][e.d]} cards in its columns"
    return "forests held"


def _zone(g: Game, loc: int) -> str:
    q, z = divmod(loc - g.consts["LOC_ZONE"], g.consts["Z"])
    return g.names["zones"][g._seats[q]][z]


def _card_words(g: Game, e: Event, viewer: int | None) -> str:
    name = _card(g, e.a) if sees_card(g, e, viewer) else "a card"
    c = g.consts
    src, dst = e.b, e.c
    src_q, dst_q = owner(g, src), owner(g, dst)
    hand, zone = c["LOC_HAND"], c["LOC_ZONE"]
    if src == c["LOC_DECK"] and hand <= dst < hand + c["P"]:
        return f"{g.factions[dst_q]} draws {name}"
    if src == c["LOC_DECK"] and dst >= zone:
        return f"{g.factions[dst_q]} draws {name} into its {_zone(g, dst)}"
    if dst == c["LOC_DISCARD"]:
        where = f" from {place_name(g, src)}" if src >= zone or src == c["LOC_DECK"] else ""
        who = g.factions[src_q] if src_q >= 0 else "the rules"
        return f"{who} discards {name}{where}"
    if dst == c["LOC_RESERVE"]:
        return f"{name} goes back to its faction's reserve"
    if src == c["LOC_RESERVE"]:
        return f"{g.factions[dst_q]} tucks {name} into its " \
               f"{g.names['columns'][g._seats[dst_q]][(dst - c['LOC_COLUMN']) % c['L']]} column"
    if hand <= src < hand + c["P"] and c["LOC_COLUMN"] <= dst < zone:
        return f"{g.factions[src_q]} adds {name} to its " \
               f"{g.names['columns'][g._seats[src_q]][(dst - c['LOC_COLUMN']) % c['L']]} column"
    if src == dst and hand <= src < hand + c["P"] and e.d >= 0:
        # (a card shown to one player, and kept: Law 13.2.4's guess)
        return f"{g.factions[src_q]} shows {name} to the {g.factions[e.d]}"
    if hand <= src < hand + c["P"] and hand <= dst < hand + c["P"]:
        return f"{g.factions[dst_q]} takes {name} from {place_name(g, src)}"
    if hand <= src < hand + c["P"] and dst >= zone:
        if src_q == dst_q:
            return f"{g.factions[src_q]} puts {name} into its {_zone(g, dst)}"
        return f"{g.factions[src_q]} gives {name} to {place_name(g, dst)}"
    who = g.factions[e.d] if e.d >= 0 else (g.factions[src_q] if src_q >= 0 else "the rules")
    return f"{who} moves {name} from {place_name(g, src)} to {place_name(g, dst)}"


def _box(g: Game, seat: int, b: int) -> str:
    """The name of box b of seat's faction."""
    boxes = g.names["boxes"][g._seats[seat]]
    return boxes[b] if 0 <= b < len(boxes) else str(b)


def describe(g: Game, e: Event, viewer: int | None = None) -> str:
    """The event in words, as ``viewer`` saw it (None: the table, public facts only).
    ``g`` is the game just after the event (a hand shown is read from the viewer's
    memory of it)."""
    f = g.factions
    k = e.kind
    if k == "card":
        return _card_words(g, e, viewer)
    if k == "placed":
        n = f"{e.d} " if e.d != 1 else ""
        return f"{f[e.a]} places {n}{_piece(g, e.c)} in clearing {_clearing(g, e.b)}"
    if k == "revealed":
        return f"{f[e.a]} turns over {_piece(g, e.c)} in clearing {_clearing(g, e.b)}: " \
               f"{_piece(g, e.d)}"
    if k == "moved_from_forest":
        return f"{e.d} {_piece(g, e.c)} move from forest {g.names['forests'][e.a]} to " \
               f"clearing {_clearing(g, e.b)}"
    if k == "moved_to_box":
        return f"{f[e.a]} takes {_piece(g, e.c)} from clearing {_clearing(g, e.b)} into " \
               f"its {_box(g, e.a, e.d)}"
    if k == "placed_in_forest":
        n = f"{e.d} " if e.d != 1 else ""
        return f"{f[e.a]} places {n}{_piece(g, e.c)} in forest {g.names['forests'][e.b]}"
    if k == "removed":
        by = f" by the {f[e.c]}" if e.c >= 0 else ""
        return f"{_piece(g, e.b)} removed from clearing {_clearing(g, e.a)}{by}"
    if k == "scored":
        verb = "scores" if e.b > 0 else "loses"
        return f"{f[e.a]} {verb} {abs(e.b)} VP ({_why(g, e)})"
    if k == "roll":
        return f"the dice roll {e.a} and {e.b}: the attacker deals {e.c} hit" \
               f"{'s' if e.c != 1 else ''}, the defender {e.d}"
    if k == "hits":
        return f"hits: the defender takes {e.a}, the attacker {e.b}"
    if k == "shown":
        text = f"the {f[e.a]}'s hand is shown to the {f[e.b]}"
        if viewer is not None and viewer in (e.a, e.b, ALL):
            seen = g.seen_hand(e.b, e.a)
            cards = ", ".join(seen[0]) if seen and seen[0] else "no cards"
            text += f": {cards}"
        return text
    if k == "hook":
        return f"{f[e.a]}: {g.names['hooks'][e.b]}"
    if k == "trigger":
        acts = f" ({f[e.d]} acts)" if e.d != e.a else ""
        return f"{f[e.a]}: {ability_name(g, g.names['triggers'][e.b])} in clearing " \
               f"{_clearing(g, e.c)}{acts}"
    if k == "turn":
        return f"turn {e.b}: the {f[e.a]}"
    if k == "moved":
        return f"{e.d} {_piece(g, e.c)} move from clearing {_clearing(g, e.a)} to " \
               f"{_clearing(g, e.b)}"
    if k == "paid":
        return f"{f[e.a]} pays a {_piece(g, e.c)} from clearing {_clearing(g, e.b)}"
    if k == "swapped":
        kinds = ", ".join(_piece(g, i) for i in range(e.d.bit_length()) if (e.d >> i) & 1)
        return f"{f[e.a]} swaps the {kinds} in clearings {_clearing(g, e.b)} and " \
               f"{_clearing(g, e.c)}"
    if k == "answered":
        return f"{f[e.a]} guesses {_piece(g, e.c)} in clearing {_clearing(g, e.b)}: " \
               f"{'right' if e.d else 'wrong'}"
    if k == "hit_ignored":
        return f"{f[e.a]} ignores the first hit it takes in clearing {_clearing(g, e.b)}"
    if k == "reshuffled":
        return f"the discard pile is shuffled into a new deck of {e.a} cards"
    if k == "won":
        return f"{f[e.a]} wins{' by dominance' if e.b else ''}"
    return f"{e.a} more events were not recorded"


def record(g: Game, e: Event) -> dict:
    """The whole event for a JSON log: its fields named, and for a card who saw it."""
    f, names = g.factions, g.names
    k = e.kind
    if k == "card":
        seen = [f[q] for q in range(g.num_players) if sees_card(g, e, q)]
        if e.b == e.c and e.d >= 0:
            # (a card shown to one player and kept, Law 13.2.4: 'd' is who saw it)
            return {"event": k, "card": _card(g, e.a), "from": place_name(g, e.b),
                    "to": place_name(g, e.c), "by": f[owner(g, e.b)], "shown_to": f[e.d],
                    "seen_by": seen}
        return {"event": k, "card": _card(g, e.a), "from": place_name(g, e.b),
                "to": place_name(g, e.c), "by": f[e.d] if e.d >= 0 else None,
                "seen_by": "all" if sees_card(g, e, None) else seen}
    if k == "placed":
        return {"event": k, "faction": f[e.a], "clearing": _clearing(g, e.b),
                "piece": _piece(g, e.c), "count": e.d}
    if k == "revealed":
        return {"event": k, "faction": f[e.a], "clearing": _clearing(g, e.b),
                "piece": _piece(g, e.c), "is": _piece(g, e.d)}
    if k == "moved_from_forest":
        return {"event": k, "from_forest": g.names["forests"][e.a],
                "to": _clearing(g, e.b), "piece": _piece(g, e.c), "count": e.d}
    if k == "moved_to_box":
        return {"event": k, "faction": f[e.a], "from": _clearing(g, e.b),
                "piece": _piece(g, e.c), "box": _box(g, e.a, e.d)}
    if k == "placed_in_forest":
        return {"event": k, "faction": f[e.a], "forest": g.names["forests"][e.b],
                "piece": _piece(g, e.c), "count": e.d}
    if k == "removed":
        return {"event": k, "clearing": _clearing(g, e.a), "piece": _piece(g, e.b),
                "by": f[e.c] if e.c >= 0 else None}
    if k == "scored":
        return {"event": k, "faction": f[e.a], "vp": e.b,
                "why": names["score_why"][e.c], "for": _why(g, e)}
    if k == "roll":
        return {"event": k, "dice": [e.a, e.b], "attacker_deals": e.c, "defender_deals": e.d}
    if k == "hits":
        return {"event": k, "defender_takes": e.a, "attacker_takes": e.b}
    if k == "shown":
        return {"event": k, "hand_of": f[e.a], "shown_to": f[e.b]}
    if k == "hook":
        return {"event": k, "faction": f[e.a], "hook": names["hooks"][e.b]}
    if k == "trigger":
        return {"event": k, "faction": f[e.a], "trigger": names["triggers"][e.b],
                "clearing": _clearing(g, e.c), "actor": f[e.d] if e.d >= 0 else None}
    if k == "reshuffled":
        return {"event": k, "cards": e.a}
    if k == "won":
        return {"event": k, "faction": f[e.a], "dominance": bool(e.b)}
    if k == "turn":
        return {"event": k, "faction": f[e.a], "turn": e.b}
    if k == "moved":
        return {"event": k, "from": _clearing(g, e.a), "to": _clearing(g, e.b),
                "piece": _piece(g, e.c), "count": e.d}
    if k == "paid":
        return {"event": k, "faction": f[e.a], "clearing": _clearing(g, e.b),
                "piece": _piece(g, e.c)}
    if k == "hit_ignored":
        return {"event": k, "faction": f[e.a], "clearing": _clearing(g, e.b)}
    if k == "answered":
        return {"event": k, "faction": f[e.a], "clearing": _clearing(g, e.b),
                "guess": _piece(g, e.c), "right": bool(e.d)}
    if k == "swapped":
        return {"event": k, "faction": f[e.a], "clearings": [_clearing(g, e.b),
                                                            _clearing(g, e.c)],
                "pieces": [_piece(g, i) for i in range(e.d.bit_length()) if (e.d >> i) & 1]}
    return {"event": "lost", "count": e.a}


def redact(g: Game, notation: str, events: list[Event], viewer: int | None) -> str:
    """A decision's notation as ``viewer`` may read it: a card it names that went to a
    place hidden from the viewer, unseen by it, reads 'a card' ('mobilize a card'); a
    face another seat laid face down, 'face-down' ('plot face-down 5')."""
    hidden = {_card(g, e.a) for e in events if e.kind == "card" and not sees_card(g, e, viewer)}
    # A face laid face down (models.Piece.faces): its name reads 'face-down' to all but
    # the seat that laid it (Law 13.2.2).
    faces = {x for e in events if e.kind == "placed" and viewer != ALL and viewer != e.a
             for x in g.token_faces(e.c)}
    hidden |= faces
    if not hidden:
        return notation
    out = " ".join(("a card" if w not in faces else "face-down") if w in hidden else w
                   for w in notation.split(" "))
    # (a second choice of a card, 'card <card>', reads 'a card', not 'card a card')
    return out[len("card "):] if out.startswith("card a card") else out


# What a decision says, in a player's words, by what was asked (Game.decision): 'done'
# declines something different in each, and a card spent pays for different things.
_DONE = {
    "ambush": "plays no ambush", "foil": "does not foil the ambush",
    "march": "moves no more", "phase_end": "ends {phase}",
    "phase_start": "uses nothing more at the start of {phase}",
    "battle_effects": "uses no more battle effects", "take_actions": "takes no more actions",
    "zone_give": "has no matching card to give", "actions": "takes no more actions",
    "craft": "crafts nothing more", "rescue": "lets the removed warriors go",
    "add_to_columns": "adds no more cards", "resolve_columns": "goes on",
    "discard_down_to": "keeps the hand", "draw_instead": "draws",
}
_SPEND = {
    "ambush": "ambushes with {card}", "foil": "foils the ambush with {card}",
    "zone_pay": "pays with {card}", "zone_give": "gives {card}",
    "actions": "spends {card} for one more action", "rescue": "spends {card} to rescue them",
    "take": "takes {card} from the discard pile",
}
_CLEARING = {"place": "places in clearing {c}", "pay": "pays from clearing {c}"}


# What a decision asks, by Game.decision, for a reader (the viewer's "decides ...").
_ASKED = {
    "ambush": "whether to ambush", "foil": "whether to foil the ambush",
    "march": "the march's next move", "remove": "which piece the hits remove",
    "rescue": "whether to rescue the removed warriors", "pay": "which clearing pays",
    "place": "where the pieces go", "craft_any": "how to pay a '?'",
    "phase_end": "anything before the phase ends",
    "phase_start": "anything at the start of the phase",
    "battle_effects": "battle effects", "take_actions": "the actions an effect gives",
    "zone_pay": "which cards pay", "zone_give": "which card to give",
    "zone_trim": "which card to discard", "react_order": "which effect comes first",
    "choice": "a choice of a forest, a piece or a move",
    "take": "which card to take from the discard pile",
    "draw_instead": "whether to use an effect instead of drawing",
    "actions": "an action", "craft": "what to craft", "discard_down_to": "what to discard",
    "add_to_columns": "cards for the columns", "resolve_columns": "the next column card",
    "choose_role": "a leader", "end_of_turn": "(held at the end of the turn)",
    "end_of_phase": "(held at the end of the phase)",
}


def asked_words(asked: str | None) -> str:
    """What a decision asks about, in words ('whether to ambush'); a setup step or a
    homebrew step reads as its op, underscores as spaces."""
    if not asked:
        return ""
    if asked.startswith("setup_"):
        return "setup: " + asked[len("setup_"):].replace("_", " ")
    return _ASKED.get(asked, asked.replace("_", " "))


def decision_words(asked: str | None, notation: str, phase: str) -> str:
    """A decision as a player says it: 'done' to an ambush is 'plays no ambush', a card
    spent to an Outrage is 'gives ...', a setup clearing 'chooses clearing 4' (what it
    places follows as events); other notations read as they are ('move 1->5 x3')."""
    words = notation.split(" ")
    if notation == "done":
        return _DONE.get(asked or "", "is done").format(phase=phase)
    if words[0] == "spend" and len(words) == 2:
        return _SPEND.get(asked or "", "spends {card}").format(card=words[1])
    if words[0] == "clearing" and len(words) == 2:
        return _CLEARING.get(asked or "", "chooses clearing {c}").format(c=words[1])
    if words[0] == "pay" and len(words) == 2:
        return f"pays a '?' with a {words[1]} piece"
    if words[0] == "first" and len(words) == 2:
        return f"resolves {words[1]} first"
    if words[0] == "remove" and len(words) == 2:
        return f"removes {words[1]} first"
    if words[0] == "role" and len(words) == 2:
        return f"chooses the {words[1]}"
    if words[0] == "discard" and len(words) == 2:
        return f"discards {words[1]}"
    if words[0] == "fail":
        return "takes up a card it cannot resolve"
    return notation


def public_fingerprint(g: Game, events: list[Event], viewer: int | None) -> tuple:
    """What ``viewer`` learns from events, as comparable values: a card's identity only
    where it sees it (the twin check compares these)."""
    out: list[tuple] = []
    for e in events:
        if e.kind == "card":
            shown = g.card_defs[e.a] if sees_card(g, e, viewer) else -1
            out.append(("card", shown, e.b, e.c, e.d))
        elif e.kind == "shown" and viewer not in (e.a, e.b, ALL):
            out.append(("shown", e.a, e.b))
        else:
            out.append((e.kind, e.a, e.b, e.c, e.d))
    return tuple(out)


__all__ = ["ALL", "Event", "ability_name", "asked_words", "decision_words", "decode",
           "describe", "face_down", "owner", "public_fingerprint", "record", "redact",
           "sees_card"]
