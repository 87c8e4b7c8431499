"""The program compiler: each use of a program becomes specialised code of the core.

A program (spec/models.py ``Program``, docs/language.md) is a list of parts run for one
player.  Wherever content runs one (a menu entry naming it, its fields binding the
program's parameters), the generator makes an *instance*: the program with its
parameters and its faction's pieces resolved to the bundle's dense numbers, and compiles
it into two methods of the core's class:

- ``gen_prog_<i>(n, p)``: the options of its first choice, as actions of its verb's type,
  each offered only when the program can do what it says: the requirements of its parts
  are hoisted into the listing (a piece to place left in the supply, a clearing it may be
  placed in, once per turn not yet used);
- ``do_prog_<i>(p, a)``: the option chosen, then the parts in order.

The code is written here, from the parts, with the numbers as constants: the template
(``core/programs.py.j2``) only places it.  Each instance's listing lists its options in
the order the parts' loops give them (clearings, then cards, ascending), which is the
order the hand-written routines they replace listed them in, so games, goldens and logs
are unchanged (tests/test_differential.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rootlaw.spec import models as M

# The first choice's shape, and how many options of the verb's action type it spans.
SHAPES = {"none": "1", "card": "K", "clearing": "C", "clearing_card": "C * K"}


class ProgramError(ValueError):
    """A program that cannot be compiled for a use (reported by validation first)."""


@dataclass
class Instance:
    """One use of a program: its index, what it runs and for whom, the code."""

    index: int
    program: str
    faction: int
    verb: str
    shape: str
    limit_slot: int            # its once-per-turn slot (LIMITS), or -1
    gen: str = ""
    do: str = ""
    uses: set[str] = field(default_factory=set)  # families its code calls (partials)


class _Resolver:
    """Names a program uses, as the bundle's dense numbers, for one use."""

    def __init__(self, program: str, params: dict, faction: M.FactionSpec,
                 pidx: dict[str, int]):
        self.program, self.params, self.faction, self.pidx = program, params, faction, pidx

    def _value(self, ref: str):
        if ref.startswith("$"):
            name = ref[1:]
            if name not in self.params:
                raise ProgramError(f"program {self.program}: no parameter {name!r} bound")
            return self.params[name]
        return ref

    def piece(self, ref: str) -> int:
        v = self._value(ref)
        if v == "warrior":
            v = next(k for k, p in self.faction.pieces.items() if p.kind == "warrior")
        if not isinstance(v, str) or v not in self.faction.pieces:
            raise ProgramError(f"program {self.program}: {ref!r} is no piece of "
                               f"{self.faction.id} ({v!r})")
        return self.pidx[v]

    def pieces(self, ref: str | list[str]) -> list[int]:
        v = self._value(ref) if isinstance(ref, str) else ref
        if isinstance(v, str):
            return [self.piece(v)]
        return [self.piece(x) for x in v]

    def zone(self, ref: str) -> int:
        v = self._value(ref)
        ids = [z.id for z in self.faction.zones]
        if v not in ids:
            raise ProgramError(f"program {self.program}: {ref!r} is no zone of "
                               f"{self.faction.id}")
        return ids.index(v)

    def box(self, ref: str) -> int:
        v = self._value(ref)
        ids = [b.id for b in self.faction.boxes]
        if v not in ids:
            raise ProgramError(f"program {self.program}: {ref!r} is no box of "
                               f"{self.faction.id}")
        return ids.index(v)


def shape_of(prog: M.Program) -> str:
    """What the program's first part chooses (its action's options)."""
    first = prog.do[0]
    if not isinstance(first, M.ChoosePart):
        return "none"
    if first.clearing is not None and first.card is not None:
        return "clearing_card"
    return "card" if first.card is not None else "clearing"


def _mask(pieces: list[int]) -> int:
    return sum(1 << x for x in sorted(set(pieces)))


def _clearing_test(f: M.ClearingFilter, r: _Resolver, c: str = "c") -> list[str]:
    """The tests of a clearing filter, as expressions on clearing variable c."""
    tests = []
    if f.has is not None:
        tests.append(f"self.s[S_BOARD + {c} * NP + {r.piece(f.has)}] > 0")
    if f.lacks is not None:
        tests.append(f"self.s[S_BOARD + {c} * NP + {r.piece(f.lacks)}] == 0")
    if f.has_any is not None:
        tests.append(f"self.has_building_in({c}, {_mask(r.pieces(f.has_any))})")
    return tests


def compile_instance(inst: Instance, prog: M.Program, r: _Resolver, pieces: list,
                     others_exclusive: bool = True) -> None:
    """Write the instance's listing and application code (see the module doc).
    ``others_exclusive``: whether another faction (or a card) of the bundle may forbid
    placing in a clearing (Law 6.2.2); without, the test is left out, as it always holds."""
    verb = f"A_{inst.verb.upper()}"
    first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
    body = prog.do[1:] if first is not None else prog.do
    per_clearing = {i: bool(p.per_clearing) for i, (_, _, p) in enumerate(pieces)}

    # ---- requirements: of the whole action (before any option), of each clearing
    before: list[str] = []
    at_clearing: list[str] = []
    if inst.limit_slot >= 0:
        before.append(f"self.s[S_LIMITS + {inst.limit_slot}] != 0")
    for part in body:
        if isinstance(part, M.PlacePart):
            pc = r.piece(part.piece)
            before.append(f"self.s[S_SUPPLY + {pc}] == 0")
            if isinstance(part.at, M.AtEach):
                before.append(f"self.on_map({r.piece(part.at.each)}) == 0")
            else:
                if per_clearing[pc]:
                    at_clearing.append(f"self.room_for(c, {pc})")
                if others_exclusive:
                    at_clearing.append("self.may_place(p, c)")
        elif isinstance(part, M.IntoBoxPart):
            before.append(f"self.s[S_SUPPLY + {r.piece(part.piece)}] == 0")
    g = [f"    def gen_prog_{inst.index}(self, n: i64, p: i64) -> i64:",
         f'        """{inst.program} (Law {prog.law}) for faction {r.faction.id}: '
         f'the options of its first choice."""',
         "        c: i64", "        d: i64", "        suits: i64"]
    for test in before:
        g += [f"        if {test}:", "            return n"]
    if inst.shape == "none":
        g.append(f"        n = self.add(n, {verb})")
    elif inst.shape == "card":
        card = first.card
        hand_test = "self.find_in(LOC_HAND + p, d) >= 0"
        if isinstance(card.matching, M.ClearingFilter):
            tests = _clearing_test(card.matching, r)
            g += ["        suits = 0", "        for c in range(C):",
                  f"            if {' and '.join(tests) or '1'}:",
                  "                suits |= 1 << self.t[T_CLEARING_SUIT + c]",
                  "        if suits == 0:", "            return n",
                  "        for d in range(K):",
                  "            if (self.t[T_DEF_SUIT + d] == BIRD or "
                  "(suits >> self.t[T_DEF_SUIT + d]) & 1) and \\",
                  f"                    {hand_test}:",
                  f"                n = self.add(n, {verb} + d)"]
        else:
            g += ["        for d in range(K):", f"            if {hand_test}:",
                  f"                n = self.add(n, {verb} + d)"]
    else:
        tests = _clearing_test(first.clearing, r) + at_clearing
        g += ["        for c in range(C):"]
        if inst.shape == "clearing":
            g += [f"            if {' and '.join(tests) or '1'}:",
                  f"                n = self.add(n, {verb} + c)"]
        else:
            g += [f"            if not ({' and '.join(tests) or '1'}):", "                continue",
                  "            for d in range(K):",
                  "                if self.suit_matches(self.t[T_DEF_SUIT + d], c) and \\",
                  "                        self.find_in(LOC_HAND + p, d) >= 0:",
                  f"                    n = self.add(n, {verb} + c * K + d)"]
    g.append("        return n")

    # ---- application
    d = [f"    def do_prog_{inst.index}(self, p: i64, a: i64) -> i64:",
         f'        """{inst.program} for faction {r.faction.id}: the option chosen, then '
         'its parts in order."""',
         "        c: i64 = -1", "        d: i64 = -1"]
    if inst.shape == "card":
        d.append(f"        d = a - {verb}")
    elif inst.shape == "clearing":
        d.append(f"        c = a - {verb}")
    elif inst.shape == "clearing_card":
        d += [f"        c = (a - {verb}) // K", f"        d = (a - {verb}) % K"]
    if inst.limit_slot >= 0:
        d.append(f"        self.s[S_LIMITS + {inst.limit_slot}] = 1")
    for part in body:
        if isinstance(part, M.ChoosePart):
            raise ProgramError(f"program {inst.program}: a second choice is not supported yet")
        if isinstance(part, M.DiscardPart):
            d.append("        self.discard(self.find_in(LOC_HAND + p, d))")
        elif isinstance(part, M.PutPart):
            d.append(f"        self.zone_gain(p, {r.zone(part.zone)}, "
                     "self.find_in(LOC_HAND + p, d))")
            inst.uses.add("zones")
        elif isinstance(part, M.PlacePart):
            pc = r.piece(part.piece)
            if isinstance(part.at, M.AtEach):
                d.append(f"        self.place_per_building(p, {r.piece(part.at.each)}, {pc})")
            elif part.score:
                d += [f"        if self.place(p, c, {pc}, {part.count}) > 0:",
                      f"            self.score(p, self.track_vp({pc}), WHY_PLACED, {pc})"]
            else:
                d.append(f"        self.place(p, c, {pc}, {part.count})")
        elif isinstance(part, M.RemovePart):
            d += [f"        self.remove_piece(c, {r.piece(part.piece)}, p)",
                  "        self.flush_removals()"]
        elif isinstance(part, M.IntoBoxPart):
            pc, bx = r.piece(part.piece), r.box(part.box)
            d += [f"        if self.s[S_SUPPLY + {pc}] > 0:",
                  f"            self.s[S_SUPPLY + {pc}] -= 1",
                  f"            self.s[S_BOX + p * B + {bx}] += 1"]
    d.append("        return 0")
    deco = ["    @cython.cfunc", "    @cython.exceptval(check=False)"]
    inst.gen = "\n".join(deco + g)
    inst.do = "\n".join(deco + d)


def compile_use(entry: M.BaseModel, prog: M.Program, index: int, limit_slot: int,
                faction_index: int, bundle, pidx: dict[str, int], pieces: list) -> Instance:
    """The instance of ``prog`` that a menu entry of the bundle's faction ``faction_index``
    runs: the entry's fields of the program's parameters' names bind them."""
    factions = list(bundle.factions)
    faction = factions[faction_index]
    params = {k: getattr(entry, k) for k in prog.params}
    action = getattr(entry, "action", "?")
    inst = Instance(index, action, faction_index, prog.verb, shape_of(prog), limit_slot)
    others = any(isinstance(a, M.ExclusivePlacement) for i, f in enumerate(factions)
                 if i != faction_index for a in f.abilities) or \
        any(isinstance(a, M.ExclusivePlacement) for c in bundle.deck.cards for a in c.abilities)
    compile_instance(inst, prog, _Resolver(action, params, faction, pidx), pieces, others)
    return inst
