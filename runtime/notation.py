"""Action notation: every action index has a stable, human-readable string.

The action space is fixed by the bundle (see ``rootlaw.generator.tables.ACTION_TYPES``);
an index decodes to a type and parameters, and the notation spells them in the game's
words: ``move 1->5 x3``, ``battle 12 <faction>``, ``build <building> 5``,
``craft <card>``, ``pay <suit>`` (for a '?' cost icon), ``use <effect> [on <faction> |
at <clearing>]``, ``spread 5``, ``revolt 5``, ``organize 5``, ``mobilize <card>``,
``train <card>``; a zone card paid is ``spend <card>``.  A content verb (a program's
verb of its own, ``Names['verbs']``: a type after the engine's) is the verb followed by
its option: ``<verb>``, ``<verb> <card>``, ``<verb> <clearing>``, ``<verb> <card>
<clearing>``, ``<verb> <piece> <clearing>``.
Names that depend on the acting faction (roles, columns) use the actor's faction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rootlaw.generator.tables import Names


@dataclass(frozen=True)
class ActionSpace:
    offsets: dict[str, int]
    consts: dict[str, int]
    names: Names

    @classmethod
    def of(cls, layout: dict, names: Names) -> ActionSpace:
        return cls(dict(layout["actions"]), dict(layout["consts"]), names)

    @property
    def size(self) -> int:
        return self.consts["NACTIONS"]

    def decode(self, a: int) -> tuple[str, int]:
        """(type, offset within the type) of an action index."""
        if not 0 <= a < self.size:
            raise ValueError(f"action {a} is outside the action space 0..{self.size - 1}")
        best = None
        for name, off in self.offsets.items():
            if off <= a and (best is None or off >= self.offsets[best]):
                best = name
        assert best is not None  # offsets start at 0 ("done") and 0 <= a was checked
        return best, a - self.offsets[best]

    def notation(self, a: int, actor_faction: int) -> str:
        kind, x = self.decode(a)
        n = self.names
        c = self.consts
        shape = n.get("verbs", {}).get(kind)
        if shape is not None:
            return self.content_verb(kind, shape, x)
        if kind == "done":
            return "done"
        if kind == "clearing":
            return f"clearing {n['clearings'][x]}"
        if kind == "role":
            roles = n["roles"][actor_faction]
            return f"role {roles[x] if x < len(roles) else x}"
        if kind == "move":
            e, m = divmod(x, c["W"])
            a_, b_ = n["edges"][e].split("-")
            return f"move {a_}->{b_} x{m + 1}"
        if kind == "battle":
            cl, q = divmod(x, c["P"])
            return f"battle {n['clearings'][cl]} seat{q}"
        if kind == "build":
            cl, pc = divmod(x, c["NP"])
            return f"build {n['pieces'][pc]} {n['clearings'][cl]}"
        if kind == "recruit_all":
            return "recruit"
        if kind == "recruit":
            return f"recruit {n['clearings'][x]}"
        if kind in ("craft", "spend", "discard", "mobilize", "train", "card"):
            return f"{kind} {n['cards'][x]}"
        if kind in ("spread", "revolt", "organize"):
            return f"{kind} {n['clearings'][x]}"
        if kind == "add":
            d, col = divmod(x, c["L"])
            cols = n["columns"][actor_faction]
            return f"add {n['cards'][d]} to {cols[col] if col < len(cols) else col}"
        if kind == "shift":
            d, rest = divmod(x, c["L"] * c["L"])
            src, dst = divmod(rest, c["L"])
            cols = n["columns"][actor_faction]
            names = [cols[k] if k < len(cols) else str(k) for k in (src, dst)]
            return f"shift {n['cards'][d]} from {names[0]} to {names[1]}"
        if kind == "spend_place":
            cl, d = divmod(x, c["K"])
            return f"spend {n['cards'][d]} place {n['clearings'][cl]}"
        if kind == "remove":
            return f"remove {n['pieces'][x]}"
        if kind == "forest":
            fo, pc = divmod(x, c["NP"])
            return f"forest {n['forests'][fo]} {n['pieces'][pc]}"
        if kind == "piece":
            return f"piece {n['pieces'][x]}"
        if kind == "activate":
            return f"activate {n['cards'][x]}"
        if kind == "take":
            d, a = divmod(x, c["K"])
            return f"take {n['cards'][d]} spending {n['cards'][a]}"
        if kind == "fail":
            return "fail"
        if kind == "suit":
            return f"pay {n['suits'][x]}"
        if kind == "first":
            return f"first {n['triggers'][x]}"
        if kind == "use":
            u, t = divmod(x, c["TGT"])
            name = n["effects"][u]
            if t == 0:
                return f"use {name}"
            if t <= c["P"]:
                return f"use {name} on seat{t - 1}"
            return f"use {name} at {n['clearings'][t - 1 - c['P']]}"
        return f"{kind} {x}"

    def content_verb(self, verb: str, shape: str, x: int) -> str:
        """A content verb's option x, in the words of its shape (models.SHAPE_WORDS)."""
        n, c = self.names, self.consts
        if shape == "none":
            return verb
        if shape == "card":
            return f"{verb} {n['cards'][x]}"
        if shape == "clearing":
            return f"{verb} {n['clearings'][x]}"
        if shape == "stage":
            stages = n.get("verb_stages", {}).get(verb, [])
            return f"{verb} {stages[x] if x < len(stages) else x}"
        if shape == "clearing_card":
            cl, d = divmod(x, c["K"])
            return f"{verb} {n['cards'][d]} {n['clearings'][cl]}"
        assert shape == "piece_clearing", shape
        cl, pc = divmod(x, c["NP"])
        return f"{verb} {n['pieces'][pc]} {n['clearings'][cl]}"
