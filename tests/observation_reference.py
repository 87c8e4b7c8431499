"""The observation encoder in Python, as it was before the core encoded observations: the
reference the core's vectors are checked against (tests/test_fast_api.py).  Not used by
the runtime; the layout and meaning are documented in docs/agents.md.

``Game.observation(seat)`` is the readable view; this is the same information as one
``array('q')`` of fixed length per bundle, with named fields (``layout``).  Players are
listed from the observing seat on (index 0 is "me", then clockwise), so one policy can
play any seat.  Only what the seat may see goes in: its own hand by card, every other
hand as a size (Law 1.2).

Card fields count physical cards per card definition (``names["cards"]`` order);
``-1`` marks "none" in index fields (role, activated dominance, decision).  Zones (card
piles apart from the hand) give every seat their sizes; their cards go in only for the
zone's owner.  Boxes (warriors off the map) are public counts.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rootlaw.generator.tables import Names
    from rootlaw.runtime.game import Game


class ObservationEncoder:
    """Field offsets for one bundle's observation vectors, and the encoder."""

    def __init__(self, consts: dict[str, int], names: Names):
        c = consts
        self.consts = consts
        self.P, self.K, self.L, self.I = c["P"], c["K"], c["L"], c["I"]
        self.C, self.NP, self.N = c["C"], c["NP"], c["N"]
        self.U = c["U"]
        self.Z, self.B = c["Z"], c["B"]
        self.decisions: list[str] = list(names["frames"]) + list(names["ops"])
        self.cost_verbs: set[str] = set(names.get("cost_triggers", []))
        P, K, L, C, NP, n_items = self.P, self.K, self.L, self.C, self.NP, self.I
        fields = [
            ("seat", 1), ("phase", 1), ("turn", 1), ("current", 1), ("to_play", 1),
            ("decision", 1), ("over", 1), ("deck_size", 1),
            ("faction", P), ("vp", P), ("hand_size", P), ("role", P), ("dominance", P),
            ("board", C * NP), ("ruins", C), ("supply", NP), ("out", NP),
            ("hand", K), ("discard", K), ("available", K), ("removed", K),
            ("play_area", P * K), ("columns", P * L * K),
            ("items", n_items), ("crafted", P * n_items),
            ("used_effects", P * max(self.U, 1)), ("seen", P * K), ("seen_turn", P),
            *((f"battle_{x}", 1) for x in (
                "stage", "attacker", "defender", "clearing", "rolled_by_attacker",
                "rolled_by_defender", "extra_by_attacker", "extra_by_defender",
                "attacker_ignores_rolled", "defender_ignores_rolled")),
            ("zone_size", P * self.Z), ("zones", self.Z * K), ("boxes", P * self.B),
            ("cycles", P * c["NCYC"]), ("open_zones", P * self.Z * K),
        ]
        self.layout: dict[str, tuple[int, int]] = {}
        off = 0
        for name, size in fields:
            self.layout[name] = (off, size)
            off += size
        self.size = off

    def encode(self, g: Game, seat: int) -> array:
        P, K, L, C, NP, N = self.P, self.K, self.L, self.C, self.NP, self.N
        n_items = self.I
        S, st, lay = g.S, g.state, self.layout
        out = array("q", [0]) * self.size
        n = g.num_players

        def put(name: str, i: int, v: int) -> None:
            out[lay[name][0] + i] = v

        def rel(q: int) -> int:  # seat q as seen from the observer
            return (q - seat) % n

        put("seat", 0, seat)
        put("phase", 0, st[S["PHASE"]])
        put("turn", 0, st[S["TURN"]])
        put("current", 0, rel(st[S["CURRENT"]]))
        over = g.is_over
        put("to_play", 0, -1 if over else rel(g.to_play))
        d = g.decision
        if d is not None and d not in self.decisions:
            # A trigger's cost is its frame, named by the trigger's verb (Field Hospitals'
            # rescue); a step that runs a program: its op, as the core encodes it.
            d = "trigger_cost" if d in self.cost_verbs else "program"
        put("decision", 0, -1 if d is None else self.decisions.index(d))
        put("over", 0, int(over))
        put("deck_size", 0, st[S["DECK_LEN"]])
        for q in range(P):
            if q >= n:
                for name in ("faction", "role", "dominance"):
                    put(name, q, -1)
                continue
            r = rel(q)
            put("faction", r, g._seats[q])
            put("vp", r, st[S["VP"] + q])
            put("role", r, st[S["ROLE"] + q])
            put("dominance", r, st[S["DOMINANCE"] + q])
            for i in range(n_items):
                put("crafted", r * n_items + i, st[S["CRAFTED"] + q * n_items + i])
        for i in range(C * NP):
            put("board", i, st[S["BOARD"] + i])
        for i in range(C):
            put("ruins", i, st[S["RUINS"] + i])
        for i in range(NP):
            put("supply", i, st[S["SUPPLY"] + i])
            put("out", i, st[S["OUT"] + i])
        for i in range(n_items):
            put("items", i, st[S["ITEMS"] + i])
        defs = g.card_defs
        hand_sizes = [0] * P
        c = self.consts
        hand, play, column, zone = c["LOC_HAND"], c["LOC_PLAY"], c["LOC_COLUMN"], c["LOC_ZONE"]
        Z, B = self.Z, self.B
        piles = {c["LOC_DISCARD"]: "discard", c["LOC_AVAILABLE"]: "available",
                 c["LOC_OUT"]: "removed"}
        for card in range(N):
            loc, dd = st[S["CARD_LOC"] + card], defs[card]
            if hand <= loc < hand + n:
                q = loc - hand
                hand_sizes[rel(q)] += 1
                if q == seat:
                    out[lay["hand"][0] + dd] += 1
            elif loc in piles:
                out[lay[piles[loc]][0] + dd] += 1
            elif play <= loc < play + n:
                out[lay["play_area"][0] + rel(loc - play) * K + dd] += 1
            elif column <= loc < column + n * L:
                q, col = divmod(loc - column, L)
                out[lay["columns"][0] + (rel(q) * L + col) * K + dd] += 1
            elif zone <= loc < zone + n * Z:
                q, z = divmod(loc - zone, Z)
                out[lay["zone_size"][0] + rel(q) * Z + z] += 1
                if q == seat:  # its owner sees it (face down to everyone else, 8.2.3)
                    out[lay["zones"][0] + z * K + dd] += 1
                if not g.zone_face_down(q, g.names["zones"][g._seats[q]][z]):
                    out[lay["open_zones"][0] + (rel(q) * Z + z) * K + dd] += 1
        for q in range(n):
            for b in range(B):
                put("boxes", rel(q) * B + b, st[S["BOX"] + q * B + b])
        for r in range(P):
            put("hand_size", r, hand_sizes[r])
        ub = max(self.U, 1)  # the state keeps one flag per seat even with no effects
        for q in range(n):
            for u in range(ub):
                put("used_effects", rel(q) * ub + u, st[S["USED"] + q * ub + u])
        # What this seat saw of each hand (the state keeps it from the seat on already).
        for r in range(P):
            put("seen_turn", r, st[S["SEEN_TURN"] + seat * P + r])
            for dd in range(K):
                put("seen", r * K + dd, st[S["SEEN"] + (seat * P + r) * K + dd])
        # The battle in progress (public; -1 for the sides and clearing without one).
        put("battle_stage", 0, st[S["B_STAGE"]])
        for name, key in (("attacker", "B_ATT"), ("defender", "B_DEF")):
            q = st[S[key]]
            put(f"battle_{name}", 0, rel(q) if q >= 0 else -1)
        put("battle_clearing", 0, st[S["B_AT"]])
        for name, key in (("rolled_by_attacker", "B_ROLL_ATT"),
                          ("rolled_by_defender", "B_ROLL_DEF"),
                          ("extra_by_attacker", "B_EXTRA_ATT"),
                          ("extra_by_defender", "B_EXTRA_DEF")):
            put(f"battle_{name}", 0, st[S[key]])
        put("battle_attacker_ignores_rolled", 0, int(st[S["B_IGNORE_ATT"]] != 0))
        put("battle_defender_ignores_rolled", 0, int(st[S["B_IGNORE_DEF"]] != 0))
        # Each seat's cycle markers (public), from the observer on.
        ncyc = c["NCYC"]
        for q in range(n):
            for k in range(ncyc):
                put("cycles", rel(q) * ncyc + k, st[S["CYCLE"] + q * ncyc + k])
        return out
