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
- ``do_prog_<i>(p, m, a)``: the option chosen (of menu entry m), then the parts in order;
  a cost paid in zone cards (``spend``) or in pieces (``pay``) may wait on the actor's
  choice of cards or of the clearing that pays, so the parts after it are
  ``then_prog_<i>(p, c)``, run once it is paid (``zone_pay_settle``, ``then_pay``).

The code is written here, from the parts, with the numbers as constants: the template
(``core/programs.py.j2``) only places it.  Each instance's listing lists its options in
the order the parts' loops give them (clearings, then cards, ascending), which is the
order the hand-written routines they replace listed them in, so games, goldens and logs
are unchanged (tests/test_differential.py).
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from rootlaw.spec import models as M
from rootlaw.spec.diagnostics import RootlawError

# The first choice's shape, and how many options of the verb's action type it spans.
SHAPES = {"none": "1", "card": "K", "clearing": "C", "clearing_card": "C * K",
          "piece_clearing": "C * NP", "stage": "NSTAGE"}


# A first choice's clearing filter keys tested after the others in its listing (the
# order the hand-written routines tested in): a condition, alternatives, a neighbour, a
# piece's placement, a condition of the clearing tested.
_LATE = ("when", "holds", "any_of", "adjacent_to", "placeable")


class ProgramError(RootlawError, ValueError):
    """A program that cannot be compiled for a use (reported by validation first; what
    slips past it is still a user's error, printed without a traceback)."""

    code = "PROGRAM-USE"


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
    then: str = ""              # its parts after a cost ('spend', 'pay'), or ''
    pay_slot: int = -1          # a cost paid in pieces ('pay'): its place among its
    #                             faction's instances that pay (the FR_PAY frame's field)
    helpers: list[str] = field(default_factory=list)  # methods its code calls
    uses: set[str] = field(default_factory=set)  # families its code calls (partials)
    tag: str = ""               # its helpers' names (an effect part's); its index without
    stages: list[str] = field(default_factory=list)  # a stage choice's: the cycle's stages
    column: bool = False        # a column's (the Decree, Law 7.5.2): its listing takes the
    #                             suits its clearings may be of, its application says
    #                             whether a placement fell short (the card failed)
    clearing_of: str = ""       # a column's: the clearing of its action a, an expression
    after_battle: bool = False  # parts follow its 'battle' (then_prog, run by FR_THEN)
    others_exclusive: bool = True  # another's exclusive placement may forbid (Law 6.2.2)
    discards_resolving: bool = False  # a column's: discards the card it resolves
    vouched: set[int] = field(default_factory=set)  # its removes of the actor's pieces
    #                                                 the listing requires there (id)
    choice: str = ""            # a second choice's: its listing, whether it has an option
    #                             and its parts after it (FR_CHOICE), or ''
    choice_kind: str = ""       # what a second choice chooses: 'forest' (and a piece in
    #                             it), 'piece' (in the chosen clearing), or ''
    taken_slot: int = -1        # its counter of uses this turn (S_TAKEN), or -1
    first_among: Any = None     # the pieces its first choice chooses among, or None
    second_among: Any = None    # the pieces its second choice chooses among, or None
    offer: bool = False         # an offer's (models.Offer): the actor is another seat than
    #                             its faction's, 'holder' the faction's seat
    keeps_piece: bool = False   # the piece its first choice chose (named) is read after
    #                             its second choice (kept at S_PIECE_KEPT while it is
    #                             asked: public, it was said aloud)
    open_test: str = ""         # an offer's: whether a window opens for it (public facts)


TAKEN_SLOTS: ContextVar[dict | None] = ContextVar("taken_slots", default=None)
"""The counters of the programs whose value 'taken' reads how many times their action was
taken this turn (models.TakenValue): (faction index, program) -> its slot in S_TAKEN,
shared by every menu that offers it.  Set by tables.build_tables while it compiles one
bundle's programs."""

HOLDER_LINKS: ContextVar[bool] = ContextVar("holder_links", default=False)
"""Whether the bundle being compiled has links that are the holder's own (models.Moving:
rivers as paths, clearings with its crafting pieces adjacent): then a filter's adjacency
is the player's (the core's 'adjacent'), not the map's alone.  Set by tables.build_tables
for the time it compiles one bundle's programs."""


class _Resolver:
    """Names a program uses, as the bundle's dense numbers, for one use."""

    def __init__(self, program: str, params: dict, faction: M.FactionSpec | None,
                 pidx: dict[str, int], faction_index: int = -1):
        self.program, self.params, self.pidx = program, params, pidx
        self._faction = faction
        self.faction_index = faction_index  # the faction's index in the bundle

    @property
    def faction(self) -> M.FactionSpec:
        """The faction whose pieces, zones and boxes the names are (a card's effect
        program has none: it may be any faction's)."""
        if self._faction is None:
            raise ProgramError(f"{self.program}: a card's program names no piece, zone or "
                               "box (the card may be any faction's)")
        return self._faction

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

    def piece_type(self, index: int) -> str | None:
        """The type piece ``index`` of the faction shows (models.Piece.type), or None."""
        return next((p.type for k, p in self.faction.pieces.items()
                     if self.pidx[k] == index), None)

    def token_of_face(self, index: int) -> int | None:
        """The token piece ``index`` is one of the faces of, laid face down as it
        (models.Piece.faces), or None."""
        name = next((k for k, v in self.pidx.items() if v == index), "")
        return next((self.pidx[k] for k, p in self.faction.pieces.items()
                     if name in p.faces), None)

    def has_faces(self, index: int) -> bool:
        """Whether piece ``index`` is a token laid face down with faces its owner knows."""
        return any(p.faces for k, p in self.faction.pieces.items() if self.pidx[k] == index)

    def box_holding(self, index: int) -> int:
        """The faction's box that holds piece ``index``: its piece, or one of its list
        (validation: exactly one where a 'move' puts the piece in a box)."""
        name = next((k for k, v in self.pidx.items() if v == index), "")
        for b, box in enumerate(self.faction.boxes):
            if box.holds(name):
                return b
        raise ProgramError(f"program {self.program}: no box of {self.faction.id} holds "
                           f"{name} (PROGRAM-SHAPE)")

    def pieces(self, ref: str | list[str]) -> list[int]:
        """Pieces: one, a pieces parameter, or a list of these (a list's parameters of
        several pieces spread out in it)."""
        v = self._value(ref) if isinstance(ref, str) else ref
        if isinstance(v, str):
            return [self.piece(v)]
        out: list[int] = []
        for x in v:
            w = self._value(x) if isinstance(x, str) else x
            out += [self.piece(y) for y in ([w] if isinstance(w, str) else w)]
        return out

    def _index(self, ref: str, ids: list[str], what: str) -> int:
        v = self._value(ref)
        if v not in ids:
            raise ProgramError(f"program {self.program}: {ref!r} is no {what} of "
                               f"{self.faction.id}")
        return ids.index(v)

    def zone(self, ref: str) -> int:
        return self._index(ref, [z.id for z in self.faction.zones], "zone")

    def bound(self, ref: str):
        """What a name is bound to (None: a parameter the use leaves out)."""
        return self._value(ref)

    def box(self, ref: str) -> int:
        return self._index(ref, [b.id for b in self.faction.boxes], "box")

    def cycle(self, ref: str) -> int:
        return self._index(ref, [c.id for c in self.faction.cycles], "cycle")

    chose_piece = False  # whether the program's first choice chooses a piece
    event_piece = False  # a trigger's of each piece removed: 'piece' is that one (ev)
    card_box: str | None = None  # a card's program: its box's id (models.CardBox)
    card_source = -1  # ... and the card's definition

    def piece_expr(self, ref: str) -> str:
        """A piece as an expression: 'piece' is the chosen one (variable pc), or in the
        program of a trigger of each piece removed, that piece (ev)."""
        if ref == "piece" and self.chose_piece:
            return "pc"
        if ref == "piece" and self.event_piece:
            return "ev"
        if ref == "warrior" and self._faction is None:
            return "self.warrior(p)"  # a card's program: the actor's warrior
        return str(self.piece(ref))


def shape_of(prog: M.Program) -> str:
    """What the program's first part chooses (its action's options; a clearing and the
    piece a 'replace' replaces there: a piece and a clearing)."""
    return M.shape_chosen(prog)


def _mask(pieces: list[int]) -> int:
    return sum(1 << x for x in sorted(set(pieces)))


class _Code:
    """What compiling one method's values and filters needs besides expressions: the
    lines computed once before its loop over clearings (``hoist``: a value or condition
    the same for every clearing), and helper methods of the instance (a filter of the
    clearings adjacent to one)."""

    def __init__(self, inst: Instance, r: _Resolver, hoisting: bool):
        self.inst, self.r, self.hoisting = inst, r, hoisting
        self.lines: list[str] = []
        self.decls: list[str] = []
        self.choice_vars: set[str] = set()  # what a second choice chose, in its parts after
        self.choice_pieces: list[int] = []  # the pieces it may have chosen

    def hoist(self, expr: str) -> str:
        if not self.hoisting or expr.lstrip("-").isdigit():
            return expr
        name = f"w{len(self.decls)}"
        self.decls.append(f"        {name}: i64")
        self.lines.append(f"        {name} = {expr}")
        return name

    piece_lines: list[str] | None = None  # the listing's lines once per chosen piece

    def hoist_piece(self, expr: str) -> str:
        """A value of the chosen piece (pc), computed once per piece before the loop
        over clearings (in a listing; where no piece loop is, as it stands)."""
        if not self.hoisting:
            return expr
        if self.piece_lines is None:
            raise ProgramError(f"program {self.r.program}: the chosen piece is read where "
                               "no piece is chosen yet (a filter's count)")
        name = f"w{len(self.decls)}"
        self.decls.append(f"        {name}: i64")
        self.piece_lines.append(f"            {name} = {expr}")
        return name


NEVER = "0"  # a condition that never holds (a number parameter a use leaves out)


def _value(v, code: _Code, c: str = "c"):
    """A value as an expression (on clearing variable c and actor p), or None: a number
    parameter the use left out."""
    r = code.r
    if isinstance(v, bool):
        raise ProgramError(f"program {r.program}: {v!r} is no number")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        bound = r._value(v)
        if bound is None:
            return None
        if isinstance(bound, bool) or not isinstance(bound, int):
            raise ProgramError(f"program {r.program}: {v!r} is no number ({bound!r})")
        return str(bound)
    if isinstance(v, M.TrackCost):
        if v.track_cost == "piece" and r.chose_piece:
            return code.hoist_piece("self.next_cost(pc)")
        return code.hoist(f"self.next_cost({r.piece(v.track_cost)})")
    if isinstance(v, M.WarriorsAt):
        if v.warriors == "self":
            return f"self.s[S_BOARD + {c} * NP + self.warrior(p)]"
        return f"self.most_warriors_of_others(p, {c})"
    if isinstance(v, M.PiecesAt):
        return "(" + " + ".join(f"self.s[S_BOARD + {c} * NP + {pc}]"
                                for pc in r.pieces(v.pieces)) + ")"
    if isinstance(v, M.ChosenValue):
        # The number a second choice chose (nb, in the parts after it).
        if "nb" not in code.choice_vars:
            raise ProgramError(f"program {r.program}: 'chosen' 'number', and no number is "
                               "chosen before it (PROGRAM-SHAPE)")
        return "nb"
    if isinstance(v, M.ValueOf):
        # The number printed on the chosen piece (a first choice's, or a second's).
        if not r.chose_piece:
            raise ProgramError(f"program {r.program}: 'value_of' the chosen piece, and no "
                               "piece is chosen (PROGRAM-SHAPE)")
        return "self.t[T_PIECE_VALUE + pc]"
    if isinstance(v, M.ClearingCount):
        return f"self.{_count(v.clearings, code)}(p, {c})"
    if isinstance(v, M.SumValue):
        terms = [_value(x, code, c) for x in v.sum]
        if any(t is None for t in terms):
            return None
        terms = [t for t in terms if t != "0"]
        return "(" + " + ".join(terms) + ")" if len(terms) > 1 else (terms or ["0"])[0]
    if isinstance(v, M.IfValue):
        cond = _condition(v.if_, code, c)
        then, other = _value(v.then, code, c), _value(v.else_, code, c)
        if cond == NEVER:
            return other
        if then is None or other is None:
            return None
        return f"({then} if {cond} else {other})"
    if isinstance(v, (M.TrackVp, M.DrawBonus, M.CardCount)):
        return _card_track_value(v, code)
    if isinstance(v, M.TimesValue):
        terms = [_value(x, code, c) for x in v.times]
        if any(t is None for t in terms):
            return None
        return "(" + " * ".join(t for t in terms if t is not None) + ")"
    if isinstance(v, M.ForestsHeld):
        least = _value(v.forests_held, code, c)
        if least is None:
            return None
        code.inst.uses.add("forests")
        return f"self.forests_held(p, {least})"
    if isinstance(v, M.BoxValue) and v.box == "piece":
        # The box that holds the piece a second choice chose (Law 15.5.2: its Relics row).
        if "pc" not in code.choice_vars:
            raise ProgramError(f"program {r.program}: the box that holds 'piece', and no "
                               "second choice chose one before it (PROGRAM-SHAPE)")
        return f"self.s[S_BOX + p * B + {_box_of_chosen(r, code, code.inst)}]"
    if isinstance(v, M.BoxValue) and r.card_box is not None and v.box == r.card_box:
        # The pieces held on the card, of the copy in p's play area (models.CardBox).
        return f"self.pool_count(p, {r.card_source})"
    if isinstance(v, M.BoxValue):
        return f"self.s[S_BOX + p * B + {r.box(v.box)}]"
    if isinstance(v, M.SupplyCount):
        return "(" + " + ".join(f"self.s[S_SUPPLY + {x}]" for x in r.pieces(v.supply)) + ")"
    if isinstance(v, M.TakenValue):
        # The action's uses this turn before this one: its counter, which taking it
        # raises first (so read less one as it is carried out, as is while it is listed).
        slot = code.inst.taken_slot
        if slot < 0:
            raise ProgramError(f"program {r.program}: 'taken' counts a menu program's "
                               "uses (PROGRAM-SHAPE)")
        return f"self.s[S_TAKEN + {slot}]" if code.hoisting else \
            f"(self.s[S_TAKEN + {slot}] - 1)"
    if isinstance(v, M.LeastValue):
        terms = [_value(x, code, c) for x in v.least]
        if any(t is None for t in terms):
            return None
        return f"min({', '.join(t for t in terms if t is not None)})"
    if isinstance(v, M.LawNumber):
        # The actor's number (an ability of its 'numbers' may say it: Law 7.8.2), else 1.
        return "(self.ability(p, AB_RECRUIT_COUNT) or 1)"
    if isinstance(v, M.HalfValue):
        half = _value(v.half, code, c)
        return None if half is None else f"(({half} + 1) // 2)"
    if isinstance(v, M.DividedValue):
        x = _value(v.divided, code, c)
        up = f" + {v.by - 1}" if v.round == "up" and v.by > 1 else ""
        return None if x is None else f"(({x}{up}) // {v.by})"
    if isinstance(v, M.EventPieces):
        if not code.inst.tag.startswith("eff_"):
            raise ProgramError(f"program {r.program}: {{'event': 'pieces'}} is a trigger's "
                               "value (the pieces its event removed or moved)")
        return "ev"
    raise ProgramError(f"program {r.program}: an unknown value {v!r}")


def _condition(cond, code: _Code, c: str = "c") -> str:
    """A condition as an expression (NEVER: it cannot hold for this use)."""
    if isinstance(cond, M.AtLeast):
        x, least = (_value(v, code, c) for v in cond.at_least)
        if x is None or least is None:
            return NEVER
        return f"({x} >= {least})"
    if isinstance(cond, M.NoneOnMap):
        return code.hoist("(" + " + ".join(f"self.on_map({x})" for x in
                                           code.r.pieces(cond.none_on_map)) + " == 0)")
    if isinstance(cond, M.NotCondition):
        inner = _condition(cond.not_, code, c)
        return "1" if inner == NEVER else f"(not {inner})"
    if isinstance(cond, M.MostCards):
        # Strictly more of the suit than of each other clearing suit (birds ignored).
        suit = _suit(code.r, cond.suit)
        if suit not in (0, 1, 2):
            raise ProgramError(f"program {code.r.program}: 'most_cards' of a suit that is "
                               "no clearing's")

        def of(x: int) -> str:
            return _card_track_value(M.CardCount(cards=cond.most_cards, suit=SUITS[x]), code)

        mine = of(suit)
        return "(" + " and ".join(f"{mine} > {of(x)}" for x in (0, 1, 2) if x != suit) + ")"
    if isinstance(cond, (M.AllOf, M.AnyOf)):
        every = isinstance(cond, M.AllOf)
        parts = cond.all_of if isinstance(cond, M.AllOf) else cond.any_of
        terms = [_condition(x, code, c) for x in parts]
        if every and NEVER in terms:
            return NEVER
        terms = [t for t in terms if t != NEVER]
        if not terms:
            return NEVER
        return "(" + (" and " if every else " or ").join(terms) + ")"
    if isinstance(cond, M.Here):
        # The chosen clearing passes a filter (Law 15.5.2: "if you rule the clearing").
        return "(" + (" and ".join(_clearing_test(cond.here, code, c)) or "1") + ")"
    if isinstance(cond, M.AtStage):
        # A cycle's marker on a stage (public, Law 1.2), the same for every clearing.
        k, stages = _cycle_of(cond.cycle, code)
        if cond.at_stage not in stages:
            raise ProgramError(f"program {code.r.program}: {cond.at_stage!r} is no stage "
                               "of its cycle")
        return code.hoist(f"(self.s[S_CYCLE + p * NCYC + {k}] == {stages.index(cond.at_stage)})")
    if isinstance(cond, M.Hides):
        raise ProgramError(f"program {code.r.program}: 'hides' is a guess answered aloud: "
                           "only an 'if' of a program asks it (PROGRAM-USE)")
    if isinstance(cond, M.Did):
        # What the program's last 'actions' part did (S_DID: 1 moved, 2 battled), public.
        mask = sum(1 << ("move", "battle").index(x) for x in set(cond.did))
        return f"((self.s[S_DID] & {mask}) == {mask})"
    raise ProgramError(f"program {code.r.program}: an unknown condition {cond!r}")


def _cycle_of(ref: str, code: _Code) -> tuple[int, list[str]]:
    """One of the actor's cycles: its index among the faction's, and its stages."""
    k = code.r.cycle(ref)
    return k, list(code.r.faction.cycles[k].stages)


def _stage_suit(ref: str, code: _Code) -> str:
    """The suit the marker of one of the actor's cycles is on, as the core's suit
    number (each stage a suit's name: CYCLE-STAGE), read once (a cycle is public)."""
    k, stages = _cycle_of(ref, code)
    if any(x not in SUITS[:3] for x in stages):
        raise ProgramError(f"program {code.r.program}: a suit is read of cycle "
                           f"{code.r.faction.cycles[k].id}, whose stages are not all suits")
    at = f"self.s[S_CYCLE + p * NCYC + {k}]"
    if stages == list(SUITS[:len(stages)]):
        return code.hoist(at)  # its stages in the core's order: the stage is the suit
    expr = str(SUITS.index(stages[-1]))
    for j in range(len(stages) - 2, -1, -1):
        expr = f"({SUITS.index(stages[j])} if {at} == {j} else {expr})"
    return code.hoist(expr)


def _any_of(x: str, pcs: list[int]) -> str:
    """Whether clearing x holds a piece of pcs: one piece is a read of the board,
    several a loop over the mask."""
    if len(pcs) == 1:
        return f"self.s[S_BOARD + {x} * NP + {pcs[0]}] > 0"
    return f"self.has_building_in({x}, {_mask(pcs)})"


def _none_of(x: str, pcs: list[int]) -> str:
    """Whether clearing x holds none of the pieces pcs (as _any_of)."""
    if len(pcs) == 1:
        return f"self.s[S_BOARD + {x} * NP + {pcs[0]}] == 0"
    return f"not self.has_building_in({x}, {_mask(pcs)})"


def _clearing_test(f: M.ClearingFilter, code: _Code, x: str = "c") -> list[str]:
    """The tests of a clearing filter, as expressions on clearing variable x ('the
    clearing', of 'suit', is c: the chosen one, or the one a choice is testing): the
    cheap ones (a piece there or not) first."""
    r = code.r
    tests = []
    if f.has is not None:
        tests.append(_any_of(x, [r.piece(f.has)]))
    lacks = r.bound(f.lacks) if isinstance(f.lacks, str) else f.lacks
    if isinstance(lacks, list):  # none of several (a pieces parameter, a list)
        assert f.lacks is not None
        tests.append(_none_of(x, r.pieces(f.lacks)))
    elif lacks is not None:
        assert isinstance(f.lacks, str)  # a list would be the case above
        tests.append(_none_of(x, [r.piece(f.lacks)]))
    if f.has_any is not None:
        tests.append(_any_of(x, r.pieces(f.has_any)))
    if f.rule == "self":
        tests.append(f"self.ruler({x}) == p")
    # The actor's home (Law 6.3.2, 7.3.2: a setup's corner; none yet: -1, no clearing).
    if f.home is not None:
        tests.append(f"{x} {'==' if f.home else '!='} self.s[S_HOME + p]")
    if f.opposite_home is not None:
        opposite = "(self.t[T_OPPOSITE + self.s[S_HOME + p]] if self.s[S_HOME + p] >= 0 " \
            "else -1)"
        if f.opposite_home in (True, False):
            tests.append(f"{x} {'==' if f.opposite_home else '!='} {opposite}")
    if f.opposite_home == "another":
        tests.append(f"self.opposite_another_home(p, {x})")
    if f.corner is not None:
        tests.append(f"{'' if f.corner else 'not '}self.t[T_CLEARING_CORNER + {x}]")
    if f.edge is not None:
        tests.append(f"{'' if f.edge else 'not '}self.t[T_CLEARING_EDGE + {x}]")
    if f.river is not None:
        tests.append(f"{'' if f.river else 'not '}self.t[T_CLEARING_RIVER + {x}]")
    if f.taken_as_home is not None:
        tests.append(f"{'' if f.taken_as_home else 'not '}self.taken_as_home({x})")
    if f.enemies is not None:
        tests.append(f"{'' if f.enemies else 'not '}self.enemies_in(p, {x})")
    if f.own_pieces is not None:
        tests.append(f"self.presence({x}, p) {'>' if f.own_pieces else '=='} 0")
    if f.suit == "clearing" and x != "c":
        tests.append(f"self.t[T_CLEARING_SUIT + {x}] == self.t[T_CLEARING_SUIT + c]")
    elif f.suit is not None and f.suit.startswith("$"):
        # A suit parameter's (a bird: no clearing is of it, the test fails everywhere).
        tests.append(f"self.t[T_CLEARING_SUIT + {x}] == {_suit(r, f.suit)}")
    elif f.suit is not None and f.suit != "clearing":
        tests.append(f"self.t[T_CLEARING_SUIT + {x}] == {SUITS.index(f.suit)}")
    if f.suit_of is not None:
        tests.append(f"self.t[T_CLEARING_SUIT + {x}] == {_stage_suit(f.suit_of, code)}")
    if f.when is not None:
        tests.append(_condition(f.when, code))
    if f.holds is not None:  # of the clearing tested: its values read x
        tests.append(_condition(f.holds, code, x))
    if f.any_of is not None:
        ways = [" and ".join(_clearing_test(g, code, x)) or "1" for g in f.any_of]
        tests.append("(" + " or ".join(f"({w})" for w in ways) + ")")
    if f.adjacent_to == "clearing":
        # Adjacent to the chosen clearing (c), as the actor sees paths (Law 2.3).
        tests.append(f"self.adjacent(p, c, {x})" if HOLDER_LINKS.get() else
                     f"(c >= 0 and self.t[T_ADJ + c * C + {x}])")
    elif f.adjacent_to is not None:
        tests.append(f"self.{_adjacent(f.adjacent_to, code)}(p, c, {x})")
    if f.adjacent_to_forest is not None:
        # The forest a second choice chose (kept at S_FOREST_CHOSEN as its parts run).
        tests.append(f"{'' if f.adjacent_to_forest else 'not '}"
                     f"self.forest_touches(self.s[S_FOREST_CHOSEN], {x})")
    if f.placeable is not None:
        tests += _placeable(f.placeable, r, x)
    return tests + _relative_tests(f, code, x)


def _placeable(ref, r: _Resolver, x: str) -> list[str]:
    """Where each of these pieces of the actor's may be placed: an open slot for a
    building (Law 2.2.3), no other's exclusive placement (6.2.2), room under a limit."""
    v = r.bound(ref) if isinstance(ref, str) else ref
    ids = [v] if isinstance(v, str) else list(v or [])
    tests: list[str] = []
    for ref_id in ids:
        pid = next(k for k, p in r.faction.pieces.items() if p.kind == "warrior") \
            if ref_id == "warrior" else ref_id
        if pid not in r.faction.pieces:
            raise ProgramError(f"program {r.program}: {pid!r} is no piece of {r.faction.id}")
        piece = r.faction.pieces[pid]
        if piece.kind == "building" and f"self.open_slots({x}) > 0" not in tests:
            tests.append(f"self.open_slots({x}) > 0")
        if piece.per_clearing:
            tests.append(f"self.room_for({x}, {r.pidx[pid]})")
    return tests + [f"self.may_place(p, {x})"] if ids else tests


def _relative_tests(f: M.ClearingFilter, code: _Code, x: str) -> list[str]:
    """The tests that read the other clearings of the filter (the same for every clearing,
    hoisted before a listing's loop): of the clearings passing the filter's other tests,
    those with the fewest warriors (Law 7.4.3); the first of 'first_of' through which
    some clearing passes (Law 7.3.1's 'if possible')."""
    if f.fewest_warriors is None and f.first_of is None:
        return []
    tests: list[str] = []
    others = f.model_copy(update={"fewest_warriors": None, "first_of": None})
    if f.first_of is not None:
        alts = [" and ".join(_clearing_test(g, code, x)) or "1" for g in f.first_of]
        found = code.hoist(f"self.{_first_of(others, f.first_of, code)}(p, -1)")
        tests.append("(" + " or ".join(f"({found} == {i} and {a})"
                                       for i, a in enumerate(alts)) + ")")
    if f.fewest_warriors:
        least = code.hoist(f"self.{_fewest(others, code)}(p, -1)")
        tests.append(f"self.warriors_in({x}) == {least}")
    return tests


def _first_of(others: M.ClearingFilter, alts: list[M.ClearingFilter], code: _Code) -> str:
    """A helper method: the index of the first alternative that, with the other tests,
    passes some clearing (-1: none does)."""
    inst = code.inst
    name = f"first_{inst.tag or inst.index}_{len(inst.helpers)}"
    inst.helpers.append("")
    slot = len(inst.helpers) - 1
    inner = _Code(inst, code.r, code.hoisting)
    base = _clearing_test(others, inner, "j")
    loops = []
    for i, g in enumerate(alts):
        tests = base + _clearing_test(g, inner, "j")
        loops += ["        for j in range(C):",
                  f"            if {' and '.join(tests) or '1'}:",
                  f"                return {i}"]
    h = ["    @cython.cfunc", "    @cython.exceptval(check=False)",
         f"    def {name}(self, p: i64, c: i64) -> i64:",
         '        """The first alternative of a first_of through which a clearing passes."""',
         "        j: i64", *inner.decls, *inner.lines, *loops, "        return -1"]
    inst.helpers[slot] = "\n".join(h)
    return name


def _fewest(others: M.ClearingFilter, code: _Code) -> str:
    """A helper method: the fewest warriors (everyone's) in a clearing passing the
    filter (1 << 30: none passes)."""
    return _helper(code, "fewest", "The fewest warriors in a clearing that passes the "
                   "filter.", others, "p: i64, c: i64", "",
                   "least = min(least, self.warriors_in(j))", "least",
                   ("        least: i64 = 1 << 30",))


def _helper(code: _Code, prefix: str, doc: str, f: M.ClearingFilter, head: str,
            found: str, hit: str, end: str, extra: tuple[str, ...] = ()) -> str:
    """A helper method of the instance that loops over clearings j passing filter f
    (its own hoisted lines inside it); its name."""
    inst = code.inst
    name = f"{prefix}_{inst.tag or inst.index}_{len(inst.helpers)}"
    inst.helpers.append("")  # its slot, before any helper the filter itself needs
    slot = len(inst.helpers) - 1
    inner = _Code(inst, code.r, code.hoisting)
    tests = _clearing_test(f, inner, "j")
    h = ["    @cython.cfunc", "    @cython.exceptval(check=False)",
         f"    def {name}(self, {head}) -> i64:", f'        """{doc}"""',
         "        j: i64", *extra, *inner.decls, *inner.lines,
         "        for j in range(C):",
         f"            if {' and '.join([found, *tests] if found else tests) or '1'}:",
         f"                {hit}", f"        return {end}"]
    inst.helpers[slot] = "\n".join(h)
    return name


def _adjacent(f: M.ClearingFilter, code: _Code) -> str:
    """A helper method: whether clearing x is adjacent to one that passes f."""
    # (For a player with links of its own, adjacency is "linked by a path" as that
    # player sees paths, Law 2.3: the core's 'adjacent'.)
    return _helper(code, "adj", "Whether clearing x is adjacent to one that passes the "
                   "filter (c: the chosen clearing).", f, "p: i64, c: i64, x: i64",
                   "self.adjacent(p, x, j)" if HOLDER_LINKS.get() else
                   "self.t[T_ADJ + x * C + j]", "return 1", "0")


def _count(f: M.ClearingFilter, code: _Code) -> str:
    """A helper method: how many clearings pass f."""
    return _helper(code, "count", "How many clearings pass the filter (c: the chosen "
                   "clearing).", f, "p: i64, c: i64", "", "n += 1", "n",
                   ("        n: i64 = 0",))


def _second_choice(inst: Instance, choice: M.ChoosePart, post: list, r: _Resolver) -> None:
    """A second choice's code (inst.choice): its listing in the chosen clearing c
    (gen_choice_<i>: a forest that passes its filter and a piece there, 'forest <forest>
    <piece>'; or a piece in c, 'piece <piece>'), whether it has an option
    (choice_has_<i>), and the parts after it on the option taken (choice_prog_<i>, with
    fo the forest and pc the piece: 1 when a choice that repeats is to be asked again)."""
    number = choice.number is not None and choice.clearing is None and \
        choice.piece is None and choice.forest is None and choice.card is None and \
        choice.stage is None
    another = choice.clearing is not None and choice.piece is None and \
        choice.forest is None and choice.card is None and choice.stage is None and \
        choice.number is None
    card = choice.card is not None and choice.clearing is None and choice.piece is None \
        and choice.forest is None and choice.stage is None and choice.number is None
    if choice.number is not None and not number:
        raise ProgramError(f"program {inst.program}: a number is chosen alone "
                           "(PROGRAM-SHAPE)")
    if not number and not another and not card and (
            choice.piece is None or choice.clearing is not None or
            choice.card is not None or choice.stage is not None):
        raise ProgramError(f"program {inst.program}: a second choice chooses a forest and a "
                           "piece in it, a piece in the chosen clearing, or another "
                           "clearing (PROGRAM-SHAPE)")
    code = _Code(inst, r, hoisting=False)
    among = r.pieces(choice.piece.among) if choice.piece is not None else []
    deco = ["    @cython.cfunc", "    @cython.exceptval(check=False)"]
    if number:
        # A number from min to max, read as the choice is asked (at most NUMBER_MOST):
        # 'number <n>' (Law 12.5.1, Dig: up to four warriors, at least one).
        assert choice.number is not None
        if any(isinstance(x, M.TakenValue) for x in M.walk(choice)):
            raise ProgramError(f"program {inst.program}: 'taken' in a second choice "
                               "(PROGRAM-SHAPE)")
        lo, hi = _value(choice.number.min, code), _value(choice.number.max, code)
        if lo is None or hi is None:
            raise ProgramError(f"program {inst.program}: a number's min or max is left out")
        loop = [f"        for nb in range(max({lo}, 0), min({hi}, {M.NUMBER_MOST}) + 1):",
                "            if 1:"]
        option, decode = "A_NUMBER + nb", ["        nb: i64 = a - A_NUMBER"]
        head = ["        nb: i64", *code.decls, *code.lines]
        chosen = {"nb"}
    elif card:
        # A card of the actor's hand, matching the chosen clearing where it says so (a
        # bird too, Law 2.1.1, unless not wild here): 'card <card>' (Law 13.2.4,
        # a guess at a plot: the matching card shown with it).
        assert choice.card is not None
        tests = ["self.find_in(LOC_HAND + p, d) >= 0"]
        if isinstance(choice.card.matching, M.ClearingFilter):
            raise ProgramError(f"program {inst.program}: a second choice's card matches "
                               "the chosen clearing ('matching': 'clearing') (PROGRAM-SHAPE)")
        if choice.card.matching == "clearing":
            tests.insert(0, _matches_clearing(choice.card))
        if choice.card.suit is not None:
            tests.insert(0, _of_suit(choice.card))
        loop = ["        for d in range(K):", f"            if {' and '.join(tests)}:"]
        option, decode = "A_CARD + d", ["        d = a - A_CARD"]
        head = ["        d: i64", *code.decls, *code.lines]
        chosen = {"d"}
    elif another:
        # Another clearing than the chosen one, passing the filter (its 'clearing' is
        # still c, the first): 'clearing <clearing>' (Law 13.5.4: the second plot token).
        assert choice.clearing is not None
        if any(isinstance(x, M.TakenValue) for x in M.walk(choice)):
            raise ProgramError(f"program {inst.program}: 'taken' in a second choice "
                               "(PROGRAM-SHAPE)")
        # (its own name, c2: parts after it loop over clearings as j)
        tests = ["c2 != c", *_clearing_test(choice.clearing, code, "c2")]
        loop = ["        for c2 in range(C):", f"            if {' and '.join(tests)}:"]
        option, decode = "A_CLEARING + c2", ["        c2: i64 = a - A_CLEARING"]
        head = ["        c2: i64", *code.decls, *code.lines]
        chosen = {"c2"}
    elif choice.forest is not None:
        tests = _forest_test(choice.forest, code, "fo")
        loop = ["        for fo in range(NFOREST):",
                f"            if not ({' and '.join(tests) or '1'}):",
                "                continue",
                "            for pc in range(NP):",
                f"                if ({_mask(among)} >> pc) & 1 and "
                "self.s[S_FOREST + fo * NP + pc] > 0:"]
        option, decode = "A_FOREST + fo * NP + pc", [
            "        fo: i64 = (a - A_FOREST) // NP", "        pc: i64 = (a - A_FOREST) % NP",
            "        self.s[S_FOREST_CHOSEN] = fo"]
        head = ["        fo: i64", "        pc: i64", *code.decls, *code.lines]
        chosen = {"fo", "pc"}
    elif choice.piece.named:
        # A piece named, not one on the map (a guess, Law 13.2.4): any of 'among'.
        loop = ["        for pc in range(NP):", f"            if ({_mask(among)} >> pc) & 1:"]
        option, decode = "A_PIECE + pc", ["        pc: i64 = a - A_PIECE"]
        head = ["        pc: i64", *code.decls, *code.lines]
        chosen = {"pc"}
    else:
        # A piece in the chosen clearing: one of 'among' there, of a type a piece of
        # 'same_type_as' there shows (the types are the content's: known here).
        same = ""
        if choice.piece.same_type_as is not None:
            like = r.pieces(choice.piece.same_type_as)
            body = []
            for x in among:
                mates = [y for y in like if r.piece_type(y) is not None and
                         r.piece_type(y) == r.piece_type(x)]
                body.append(f"        if pc == {x}:\n            return 1 if "
                            f"{_any_of('c', mates) if mates else NEVER} else 0")
            inst.helpers.append("\n".join([
                *deco, f"    def same_type_{inst.index}(self, c: i64, pc: i64) -> i64:",
                f'        """{inst.program}: whether piece pc\'s type is one a piece of its '
                'choice\'s \'same_type_as\' in clearing c shows."""', *body,
                "        return 0"]))
            same = f" and self.same_type_{inst.index}(c, pc)"
        loop = ["        for pc in range(NP):",
                f"            if ({_mask(among)} >> pc) & 1 and "
                f"self.s[S_BOARD + c * NP + pc] > 0{same}:"]
        option, decode = "A_PIECE + pc", ["        pc: i64 = a - A_PIECE"]
        head = ["        pc: i64", *code.decls, *code.lines]
        chosen = {"pc"}
    # the option's line: one level inside the loop's last 'if'
    inner = " " * (len(loop[-1]) - len(loop[-1].lstrip()) + 4)
    none_left: list[str] = []
    has_head = head
    if card:
        # A card the first choice's listing made sure of (choice_has): in a game it is
        # in the hand.  A sample dealt anew for another seat (determinize) may have taken
        # it away; 'done' then passes the parts by rather than leave nothing to choose.
        head = [*head, "        n0: i64 = n"]
        none_left = ["        if n == n0:", "            n = self.add(n, A_DONE)"]
    gen = [*deco, f"    def gen_choice_{inst.index}(self, n: i64, p: i64, c: i64) -> i64:",
           f'        """{inst.program}: the options of its second choice in clearing c."""',
           *head, *loop, f"{inner}n = self.add(n, {option})", *none_left, "        return n"]
    has = [*deco, f"    def choice_has_{inst.index}(self, p: i64, c: i64) -> i64:",
           f'        """{inst.program}: whether its second choice has an option in clearing '
           'c."""', *has_head, *loop, f"{inner}return 1", "        return 0"]
    after = _Code(inst, r, hoisting=False)
    after.choice_vars, after.choice_pieces = chosen, among
    # 'piece': the one the choice chose (a number chooses none)
    chose, r.chose_piece = r.chose_piece, r.chose_piece if number else True
    lines = _apply(post, r, after, inst)
    r.chose_piece = chose
    do = [*deco, f"    def choice_prog_{inst.index}(self, p: i64, c: i64, a: i64) -> i64:",
          f'        """{inst.program}: its parts after its second choice, on option a (1: '
          'the choice is asked again)."""',
          "        d: i64 = -1",
          # (the piece the first choice named, kept while this one was asked)
          *(["        pc: i64 = self.s[S_PIECE_KEPT]"] if inst.keeps_piece else []),
          *decode, *after.decls, *after.lines,
          *_locals(lines), f"        return {int(choice.repeat)}"]
    inst.choice = "\n\n".join("\n".join(x) for x in (gen, has, do))
    inst.choice_kind = "number" if number else "clearing" if another else \
        "card" if card else \
        "forest" if choice.forest is not None else "piece"


def _forest_test(f: M.ForestFilter, code: _Code, fo: str) -> list[str]:
    """The tests of a forest filter on forest ``fo`` (its pieces, and the clearings it
    touches; 'clearing': the chosen one, c)."""
    r = code.r
    tests: list[str] = []
    if f.when is not None:
        tests.append(_condition(f.when, code))
    if f.has is not None:
        tests.append(f"self.s[S_FOREST + {fo} * NP + {r.piece(f.has)}] > 0")
    if f.lacks is not None:
        tests += [f"self.s[S_FOREST + {fo} * NP + {x}] == 0" for x in r.pieces(f.lacks)]
    if f.adjacent_to == "clearing":
        tests.append(f"self.forest_touches({fo}, c)")
    elif f.adjacent_to is not None:
        tests.append(f"self.{_touching(f.adjacent_to, code)}(p, c, {fo})")
    if f.away_from is not None:
        tests.append(f"not self.{_touching(f.away_from, code)}(p, c, {fo})")
    return tests


def _touching(f: M.ClearingFilter, code: _Code) -> str:
    """A helper method: whether forest x touches a clearing that passes f (Law 2.4)."""
    return _helper(code, "touch", "Whether forest x touches a clearing that passes the "
                   "filter (c: the chosen clearing).", f, "p: i64, c: i64, x: i64",
                   "self.forest_touches(x, j)", "return 1", "0")


def _placing(part: M.PlacePart, r: _Resolver, count: str, place: str,
             indent: str) -> list[str]:
    """The lines placing ``count`` of a placement's piece at one place (``place``: the
    call, with slots for the piece and how many): a random piece drawn for each one."""
    if isinstance(part.piece, M.OfSuit):
        raise ProgramError(f"program {r.program}: a piece of a suit is placed in the chosen "
                           "clearing (PROGRAM-SHAPE)")
    if not isinstance(part.piece, M.RandomPiece):
        return [indent + place.format(r.piece_expr(part.piece), count)]
    mask = _mask(r.pieces(part.piece.random))
    return [f"{indent}for u in range({count}):",
            f"{indent}    b = self.draw_piece({mask})",
            f"{indent}    if b >= 0:",
            f"{indent}        {place.format('b', 1)}"]


def _spends(body: list) -> list[int]:
    return [i for i, part in enumerate(body) if isinstance(part, M.SpendPart)]


def _before_split(body: list) -> list:
    """The parts run as the action is taken: those up to a cost or a battle (the parts
    after it wait on the payment or the battle, so the listing cannot vouch for them)."""
    splits = _spends(body) + _pays(body) + _battles(body)
    return body[:min(splits) + 1] if splits else body


def _battles(body: list) -> list[int]:
    return [i for i, part in enumerate(body) if isinstance(part, M.BattlePart)]


def _pays(body: list) -> list[int]:
    return [i for i, part in enumerate(body) if isinstance(part, M.PayPart)]


def compile_instance(inst: Instance, prog: M.Program, r: _Resolver, pieces: list,
                     others_exclusive: bool = True) -> None:
    """Write the instance's listing and application code (see the module doc).
    ``others_exclusive``: whether another faction (or a card) of the bundle may forbid
    placing in a clearing (Law 6.2.2); without, the test is left out, as it always holds."""
    verb = f"A_{inst.verb.upper()}"
    inst.others_exclusive = others_exclusive
    slots = TAKEN_SLOTS.get()
    if slots is not None and any(isinstance(x, M.TakenValue) for x in M.walk(prog.do)):
        # (one counter per faction and program, whichever menu offers it)
        inst.taken_slot = slots.setdefault((inst.faction, inst.program), len(slots))
    first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
    body = prog.do[1:] if first is not None else prog.do
    # A second choice (a forest and a piece in it): the parts up to it run as any do, it
    # asks (FR_CHOICE), and the parts after it run on its option (choice_prog).
    second = next((k for k, x in enumerate(body) if isinstance(x, M.ChoosePart)), None)
    post: list = []
    if second is not None:
        body, post = body[:second + 1], body[second + 1:]
        if body[-1].piece is not None:
            inst.second_among = body[-1].piece.among
    if first is not None and first.piece is not None:
        inst.first_among = first.piece.among
    limit = {i: p.per_clearing or 0 for i, (_, _, p) in enumerate(pieces)}
    faces = {i for i, (_, _, p) in enumerate(pieces)
             if any(i == r.pidx.get(x) for _, _, q in pieces for x in q.faces)}
    for i in faces:
        limit[i] = 1  # a face laid face down is its token, one to a clearing (13.2.2.II)
    gen_code = _Code(inst, r, hoisting=True)
    r.chose_piece = first is not None and first.piece is not None
    if r.chose_piece:
        gen_code.piece_lines = []
    lacks = set()
    if first is not None and first.clearing is not None and first.clearing.lacks is not None:
        lacks.update(r.pieces(first.clearing.lacks))

    # ---- requirements: of the whole action (before any option), of each clearing
    before: list[str] = []
    at_clearing: list[str] = []
    at_card: list[str] = []  # of each card the first choice offers (d)
    costs: list[str] = []
    box_costs: list[str] = []  # of the whole action, read after the hoisted values
    # A limit (once_per_turn): the whole action once a turn, or once for each suit or
    # clearing (a bit of the slot for each: the key of the option, below).
    key = prog.once_per_turn if isinstance(prog.once_per_turn, str) else ""
    if inst.limit_slot >= 0 and not key:
        before.append(f"self.s[S_LIMITS + {inst.limit_slot}] != 0")
    by_card = key == "suit" and first is not None and first.card is not None
    if inst.limit_slot >= 0 and key:
        if first is None or (not by_card and first.clearing is None and first.piece is None):
            raise ProgramError(f"program {inst.program}: a limit 'once_per_turn': {key!r} "
                               "needs a first choice of a card or a clearing")
        if key == "clearing" and first.clearing is None and first.piece is None:
            raise ProgramError(f"program {inst.program}: a limit 'once_per_turn': "
                               "'clearing' needs a first choice of a clearing")
    used = f"(self.s[S_LIMITS + {inst.limit_slot}] >> {{}}) & 1 == 0"
    if by_card:
        at_card.append(used.format("self.t[T_DEF_SUIT + d]"))
    if first is not None and first.card is not None and first.card.suit is not None:
        # A card of one printed suit (Law 10.5.4: a bird card, so no bird is wild here).
        at_card.append(_of_suit(first.card))
    if inst.limit_slot >= 0 and key and not by_card:
        at_clearing.append(used.format("self.t[T_CLEARING_SUIT + c]" if key == "suit"
                                       else "c"))
    cleared = False  # every enemy piece in the clearing removed by a part before
    targets: list[str] = []  # the tests of the piece a 'replace' replaces (tg)
    removing: dict[str, int | str] = {}  # the actor's pieces its removes in the chosen clearing
    has = r.piece_expr(first.clearing.has) if first is not None and \
        first.clearing is not None and first.clearing.has is not None else None
    now = _before_split(body)  # run as the action is taken; the rest once paid or fought
    later = body[len(now):]
    for part in body:
        if isinstance(part, M.RemovePart) and part.pieces == "enemy" and part.kinds is None:
            cleared = True
        elif isinstance(part, M.RemovePart) and part.piece is not None and \
                part.at == "clearing" and any(part is x for x in now):
            # One of the actor's pieces removed (a cost: Law 8.5.4 ...): offered only where
            # as many are there as the program removes (Law 1.5.4; the choice's own 'has'
            # says one is).
            gone = r.piece_expr(part.piece)
            if part.count != 1:
                # How many, a value read as the action is offered (Law 13.5.2).
                many = _value(part.count, gen_code)
                if many is None:
                    raise ProgramError(f"program {inst.program}: remove's count is left out")
                removing[gone] = f"{removing.get(gone, 0)} + {many}"
                at_clearing.append(f"self.s[S_BOARD + c * NP + {gone}] >= "
                                   f"{removing[gone]}")
            else:
                removing[gone] = removing.get(gone, 0) + 1 if not isinstance(
                    removing.get(gone, 0), str) else f"{removing[gone]} + 1"
                if removing[gone] != 1 or gone != has:
                    at_clearing.append(f"self.s[S_BOARD + c * NP + {gone}] >= "
                                       f"{removing[gone]}")
            inst.vouched.add(id(part))
        elif isinstance(part, M.PlacePart) and part.require:
            if isinstance(part.piece, M.RandomPiece):
                # Drawn from the supply as it is placed: one of them must be left.
                among = r.pieces(part.piece.random)
                before.append("(" + " + ".join(f"self.s[S_SUPPLY + {x}]" for x in among)
                              + ") == 0")
                continue  # in each clearing or forest of a filter, as far as it allows
            if isinstance(part.at, M.AtEachForest) and isinstance(part.piece, str):
                before.append(f"self.s[S_SUPPLY + {r.piece_expr(part.piece)}] == 0")
                continue  # as far as the supply allows (Law 1.5.4)
            if isinstance(part.piece, M.OfSuit):
                # One of them left, of the clearing's suit (it checks the supply).
                among = r.pieces(part.piece.among)
                test = f"self.piece_of_suit({_mask(among)}, {_suit_expr(part.piece)}) >= 0"
                (at_card if part.piece.of_suit == "card" else at_clearing).append(test)
                kinds = {pieces[x][2].kind for x in among}
                pcs = among
            elif part.piece == "piece" and r.chose_piece:
                # The chosen piece: the listing's loop over pieces checks its supply.
                assert first is not None and first.piece is not None
                chosen = r.pieces(first.piece.among)
                kinds, pcs = {pieces[x][2].kind for x in chosen}, []
                if any(limit[x] for x in chosen):
                    at_clearing.append("self.room_for(c, pc)")
            else:
                pc = r.piece(part.piece)
                # (a face laid face down: what the actor has left of it, which only it
                # knows: Law 13.2.2)
                before.append(f"self.face_left(p, {pc}) <= 0" if part.face_down else
                              f"self.s[S_SUPPLY + {pc}] == 0")
                kinds, pcs = {pieces[pc][2].kind}, [pc]
            if isinstance(part.at, M.AtEach):
                before.append(f"self.on_map({r.piece(part.at.each)}) == 0")
                continue
            if isinstance(part.at, M.AtEachClearing):
                continue  # as far as the supply and the clearings allow (Law 1.5.4)
            for pc in pcs:
                # One a clearing, and the choice lacks it: there is room.
                if limit[pc] and not (limit[pc] == 1 and pc in lacks and pc not in faces):
                    at_clearing.append(f"self.room_for(c, {pc})")
            if "building" in kinds:
                # A slot (Law 2.3): once the enemy is gone, theirs are open too.
                at_clearing.append("self.room_once_cleared(p, c)" if cleared else
                                   "self.open_slots(c) > 0")
            if others_exclusive and not cleared:
                at_clearing.append("self.may_place(p, c)")
        elif isinstance(part, M.ReplacePart):
            # Both steps must be possible (the Law's Replace, G.23): a piece of the
            # actor's to place (the supply), room for it once the replaced one is gone.
            if isinstance(part.with_, M.OfSuit):
                # One of the clearing's suit left in the supply (it checks the supply).
                among = r.pieces(part.with_.among)
                if part.with_.of_suit != "clearing" or \
                        len({pieces[x][2].kind for x in among}) > 1 or \
                        any(limit[x] for x in among):
                    raise ProgramError(f"program {inst.program}: a 'replace' with a piece "
                                       "of the clearing's suit among pieces of one kind, "
                                       "with no limit per clearing")
                w = among[0]
                at_clearing.append(f"self.piece_of_suit({_mask(among)}, "
                                   f"{_suit_expr(part.with_)}) >= 0")
            else:
                w = r.piece(part.with_)
                before.append(f"self.s[S_SUPPLY + {w}] == 0")
            if limit[w]:
                at_clearing.append(f"self.room_for(c, {w})")
            targets += _replace_tests(part, r, pieces, w, others_exclusive and not cleared)
        elif isinstance(part, M.IntoBoxPart) and part.require and part.from_box:
            # A cost (Law 10.4.3: warriors spent from a box, returned to the supply): offered
            # only where the box holds the count, read as the action is offered.
            if r.bound(part.box) is not None:
                count = _value(part.count, gen_code)
                if count is None:
                    raise ProgramError(f"program {inst.program}: into_box's count is left "
                                       "out")
                if count != "0":
                    box_cost = f"self.s[S_BOX + p * B + {r.box(part.box)}] >= {count}"
                    if inst.shape in ("none", "card", "stage"):
                        box_costs.append(box_cost)  # no clearing: once, before the options
                    else:
                        costs.append(box_cost)
        elif isinstance(part, M.IntoBoxPart) and part.require:
            if r.bound(part.box) is not None:
                before.append(f"self.s[S_SUPPLY + {r.piece(part.piece)}] == 0")
        elif isinstance(part, M.SpendPart):
            # Payable in full: enough matching cards in the zone.
            count = _value(part.count, gen_code)
            if count is None:
                raise ProgramError(f"program {inst.program}: spend's count is left out")
            if count != "0":
                costs.append(f"self.zone_matching(p, {_spent_from(r, part)}, c) >= {count}")
        elif isinstance(part, M.PayPart):
            # Payable in full: enough of the piece in the clearing and those connected to
            # it through clearings the actor rules (Law 6.5.4.II).
            count = _value(part.count, gen_code)
            if count is None:
                raise ProgramError(f"program {inst.program}: pay's count is left out")
            if count != "0":
                costs.append(f"self.reachable_tokens(p, c, {r.piece(part.piece)}) >= {count}")
    if second is not None and r.chose_piece:
        # The piece named first, read after the second choice (Law 13.2.4: the guess,
        # then the card shown with it).
        inst.keeps_piece = True
    if second is not None:
        choice = body[-1]
        assert isinstance(choice, M.ChoosePart)
        named_first = r.chose_piece and first is not None and first.piece is not None \
            and first.piece.named
        if (r.chose_piece and not (named_first and choice.card is not None)) or \
                inst.shape not in ("clearing", "clearing_card", "piece_clearing"):
            raise ProgramError(f"program {inst.program}: a second choice follows a first "
                               "choice of a clearing (and no piece; a piece named, for a "
                               "card)")
        _second_choice(inst, choice, post, r)
        if not choice.optional and any(choice is x for x in _before_split(body)):
            # Offered only where the choice has an option (it asks as the action is taken).
            at_clearing.append(f"self.choice_has_{inst.index}(p, c)")
    if inst.column:
        # A column's card: its action in a clearing of the suits the card allows (Law
        # 7.5.2), tested first; no other shape is a column's (validation: PROGRAM-USE).
        if inst.shape not in ("clearing", "piece_clearing") or not r.chose_piece and \
                inst.shape == "piece_clearing":
            raise ProgramError(f"program {inst.program}: a column's program chooses a "
                               "clearing, or a piece and a clearing (PROGRAM-USE)")
        at_clearing.insert(0, "(within >> self.t[T_CLEARING_SUIT + c]) & 1")
    head = ", within: i64" if inst.column else ""
    g = [f"    def gen_prog_{inst.index}(self, n: i64, p: i64{head}) -> i64:",
         f'        """{inst.program} (Law {prog.law}) for faction {r.faction.id}: '
         f'the options of its first choice."""',
         "        c: i64", "        d: i64", "        suits: i64"]
    if r.chose_piece:
        g.append("        pc: i64")
    for test in before:
        g += [f"        if {test}:", "            return n"]
    tail: list[str] = []
    if box_costs:
        tail += [f"        if not ({' and '.join(box_costs)}):", "            return n"]
    if inst.shape == "stage":
        # Every stage of the cycle, in its order (Law 10.3.3: any suit space); what the
        # parts need of a clearing, none is chosen.
        assert first is not None and first.stage is not None
        if at_clearing or costs:
            raise ProgramError(f"program {inst.program}: a stage's choice chooses no "
                               "clearing its parts could need")
        k = r.cycle(first.stage)
        inst.stages = list(r.faction.cycles[k].stages)
        tail += [f"        for d in range({len(inst.stages)}):",
                 f"            n = self.add(n, {verb} + d)"]
        if first.except_current:
            # But the stage the marker is on (Law 14.4.4: "a different mood card").
            tail[-1:] = [f"            if d != self.s[S_CYCLE + p * NCYC + {k}]:",
                         f"                n = self.add(n, {verb} + d)"]
    elif inst.shape == "none":
        tail.append(f"        n = self.add(n, {verb})")
    elif inst.shape == "card":
        assert first is not None and first.card is not None  # the verb's shape (validated)
        card = first.card
        hand_test = "self.find_in(LOC_HAND + p, d) >= 0"
        hand_test = " and ".join([*at_card, hand_test])
        if isinstance(card.matching, M.ClearingFilter):
            tests = _clearing_test(card.matching, gen_code)
            # A bird matches any clearing (Law 2.1.1), unless not wild here (10.2.2).
            wild = "self.t[T_DEF_SUIT + d] == BIRD or " if card.birds_wild else ""
            tail += ["        suits = 0", "        for c in range(C):",
                     f"            if {' and '.join(tests) or '1'}:",
                     "                suits |= 1 << self.t[T_CLEARING_SUIT + c]",
                     "        if suits == 0:", "            return n",
                     "        for d in range(K):",
                     f"            if ({wild}"
                     "(suits >> self.t[T_DEF_SUIT + d]) & 1) and \\",
                     f"                    {hand_test}:",
                     f"                n = self.add(n, {verb} + d)"]
        else:
            tail += ["        for d in range(K):", f"            if {hand_test}:",
                     f"                n = self.add(n, {verb} + d)"]
    elif inst.shape == "piece_clearing" and r.chose_piece:
        tail += _piece_clearing_listing(first, r, gen_code, at_clearing, costs, verb)
    else:
        assert first is not None and first.clearing is not None  # the verb's shape
        f = first.clearing
        # The tests that read only the clearing first (every key but those of _LATE:
        # a key added to the filter is tested, wherever it goes), then the rest.
        cheap = _clearing_test(f.model_copy(update=dict.fromkeys(
            (*_LATE, "fewest_warriors", "first_of"))), gen_code)
        rest = _clearing_test(M.ClearingFilter(**{k: getattr(f, k) for k in _LATE}),
                              gen_code) + _relative_tests(f, gen_code, "c")
        tests = cheap + at_clearing + rest + costs
        if inst.column:  # the card's suits first: the cheapest test, and most clearings
            tests = [at_clearing[0], *cheap, *at_clearing[1:], *rest, *costs]
        tail += ["        for c in range(C):"]
        assert first is not None
        match = _matches_clearing(first.card) if first.card is not None else ""
        if inst.shape == "piece_clearing":  # a clearing, and the piece replaced there
            g.append("        tg: i64")
            tail += [f"            if not ({' and '.join(tests) or '1'}):",
                     "                continue",
                     "            for tg in range(NP):",
                     f"                if {' and '.join(targets)}:",
                     f"                    n = self.add(n, {verb} + c * NP + tg)"]
        elif inst.shape == "clearing":
            tail += [f"            if {' and '.join(tests) or '1'}:",
                     f"                n = self.add(n, {verb} + c)"]
        else:
            tail += [f"            if not ({' and '.join(tests) or '1'}):",
                     "                continue",
                     "            for d in range(K):",
                     f"                if {' and '.join([match, *at_card])} and \\",
                     "                        self.find_in(LOC_HAND + p, d) >= 0:",
                     f"                    n = self.add(n, {verb} + c * K + d)"]
    g[3:3] = gen_code.decls
    g += gen_code.lines + tail
    g.append("        return n")

    if inst.offer:
        # Whether a window opens for the offer (models.Offer): public facts only, a
        # clearing passing the first choice's filter (the board), and a hand not empty
        # when a card is chosen (its size); the options then read the taker's hand.
        if first is None or first.clearing is None or first.stage is not None or \
                (first.piece is not None and not first.piece.named):
            raise ProgramError(f"program {inst.program}: an offer's first choice is a "
                               "clearing (with a card, or a piece named) (PROGRAM-USE)")
        pub = _Code(inst, r, hoisting=False)
        tests = _clearing_test(first.clearing, pub)
        if pub.lines:
            raise ProgramError(f"program {inst.program}: an offer's filter reads what a "
                               "window cannot (PROGRAM-USE)")
        cards = any(isinstance(x, M.ChoosePart) and x.card is not None for x in prog.do)
        empty = ["        if self.hand_size(p) == 0:", "            return 0"] \
            if cards else []
        inst.open_test = "\n".join([
            "    @cython.cfunc", "    @cython.exceptval(check=False)",
            f"    def offer_open_{inst.index}(self, p: i64) -> i64:",
            f'        """{inst.program}: whether p may take the offer up now, as far as '
            'public facts tell."""',
            "        c: i64", *empty,
            "        for c in range(C):",
            f"            if {' and '.join(tests) or '1'}:",
            "                return 1",
            "        return 0"])

    # ---- application: the option chosen, the parts up to a cost paid in cards (which
    # may wait on the actor's choice of cards), the rest once it is paid (then_prog)
    d = [f"    def do_prog_{inst.index}(self, p: i64, m: i64, a: i64) -> i64:",
         f'        """{inst.program} for faction {r.faction.id}: the option chosen, then '
         'its parts in order."""',
         "        c: i64 = -1", "        d: i64 = -1"]
    if inst.shape == "card":
        d.append(f"        d = a - {verb}")
    elif inst.shape == "stage":
        d += ["        sg: i64", f"        sg = a - {verb}"]
    elif inst.shape == "clearing":
        d.append(f"        c = a - {verb}")
    elif inst.shape == "clearing_card":
        d += [f"        c = (a - {verb}) // K", f"        d = (a - {verb}) % K"]
    elif inst.shape == "piece_clearing" and r.chose_piece:
        d += ["        pc: i64", f"        c = (a - {verb}) // NP",
              f"        pc = (a - {verb}) % NP"]
    elif inst.shape == "piece_clearing":  # the piece a 'replace' replaces
        d += ["        tg: i64", f"        c = (a - {verb}) // NP",
              f"        tg = (a - {verb}) % NP"]
    if inst.column:
        inst.clearing_of = f"(a - {verb}) // NP" if inst.shape == "piece_clearing" else \
            f"a - {verb}"
        d += ["        short: i64 = 0", "        placed: i64"]
    if inst.taken_slot >= 0:
        d.append(f"        self.s[S_TAKEN + {inst.taken_slot}] += 1")
    if inst.limit_slot >= 0 and not key:
        d.append(f"        self.s[S_LIMITS + {inst.limit_slot}] = 1")
    elif inst.limit_slot >= 0:
        bit = "self.t[T_DEF_SUIT + d]" if by_card else \
            "self.t[T_CLEARING_SUIT + c]" if key == "suit" else "c"
        d.append(f"        self.s[S_LIMITS + {inst.limit_slot}] |= 1 << {bit}")
    spends = _spends(body)
    if len(spends) > 1:
        raise ProgramError(f"program {inst.program}: one 'spend' a program, for now")
    pays = _pays(body)
    if pays and (spends or len(pays) > 1):
        raise ProgramError(f"program {inst.program}: one cost ('spend' or 'pay') a program, "
                           "for now")
    battles = _battles(body)
    if battles and (spends or pays or len(battles) > 1 or inst.shape != "clearing"):
        raise ProgramError(f"program {inst.program}: one 'battle' a program, without a "
                           "cost, after a choice of a clearing alone, for now")
    inst.after_battle = bool(battles and later)
    if pays and any(isinstance(x, M.ReplacePart) for x in later):
        raise ProgramError(f"program {inst.program}: a 'replace' after a 'pay' is not "
                           "supported yet")
    if spends and r.chose_piece:
        raise ProgramError(f"program {inst.program}: a 'spend' after a piece is chosen is "
                           "not supported yet")
    do_code = _Code(inst, r, hoisting=False)
    # (the action's last part, unless a cost's or a battle's continuation or a column's
    # next card comes after it)
    d += _locals(_apply(now, r, do_code, inst,
                        last_asks=not later and not inst.column))
    d.append("        return short" if inst.column else "        return 0")
    deco = ["    @cython.cfunc", "    @cython.exceptval(check=False)"]
    inst.gen = "\n".join(deco + g)
    inst.do = "\n".join(deco + d)
    if spends or pays or (battles and later):
        t = [f"    def then_prog_{inst.index}(self, p: i64, c: i64) -> i64:",
             f'        """{inst.program} for faction {r.faction.id}: its parts after its '
             f'{"battle is over" if battles else "cost is paid"}."""',
             "        d: i64 = -1"]
        if r.chose_piece:  # the piece the payment is for (start_pay kept it)
            t.append("        pc: i64 = self.s[S_BUILD_PENDING]")
        elif inst.shape == "piece_clearing" and spends:
            # The piece a 'replace' replaces, kept while the cards are spent.
            t.append("        tg: i64 = self.s[S_BUILD_PENDING]")
        t += _locals(_apply(later, r, do_code, inst))
        t.append("        return 0")
        inst.then = "\n".join(deco + t)


def _matches_clearing(card: M.CardChoice) -> str:
    """The test of a card d matching the chosen clearing c: birds too (Law 2.1.1), unless
    not wild here (Law 10.2.2)."""
    return "self.suit_matches(self.t[T_DEF_SUIT + d], c)" if card.birds_wild else \
        "self.t[T_DEF_SUIT + d] == self.t[T_CLEARING_SUIT + c]"


def _of_suit(card: M.CardChoice) -> str:
    """The test of a card d of the choice's one printed suit (Law 10.5.4)."""
    assert card.suit is not None
    return f"self.t[T_DEF_SUIT + d] == {SUITS.index(card.suit)}"


def _piece_clearing_listing(first: M.ChoosePart | None, r: _Resolver, code: _Code,
                            at_clearing: list[str], costs: list[str], verb: str) -> list[str]:
    """The listing of a choice of a piece and a clearing together: for each of the pieces
    still in the supply, in their order (ascending), each clearing passing the filter and
    the requirements of the parts (the chosen piece's values computed once per piece)."""
    assert first is not None and first.piece is not None and code.piece_lines is not None
    f = first.clearing or M.ClearingFilter()
    # Cheap tests first, as the build routine had them: a slot open before who rules
    # (a loop over the pieces), before another's piece forbidding it, before the cost.
    # A column's card suits (at_clearing's first test, then) come before all: the
    # cheapest test, and it rules out most clearings.
    late = [t for t in at_clearing if t.startswith("self.may_place(")]
    within = [t for t in at_clearing[:1] if t.startswith("(within >> ")]
    tests = within + _clearing_test(f.model_copy(update={"rule": None}), code) + \
        [t for t in at_clearing if t not in late and t not in within] + \
        _clearing_test(M.ClearingFilter(rule=f.rule), code) + late + costs
    among = r.pieces(first.piece.among)
    # (faces laid face down: what the actor has left of each, which only it knows)
    left = "self.left_of(p, pc)" if any(r.token_of_face(x) is not None for x in among) \
        else "self.s[S_SUPPLY + pc]"
    if first.piece.named:
        # A piece named, a guess (Law 13.2.4: "guess the type of plot token"): any of
        # them, even one of which none can lie face down (all face up: a guess that can
        # only be wrong, yet the Law's to make); never what the actor has left to lay.
        left = "1"
    return ["        for pc in range(NP):",
            f"            if not ({_mask(among)} >> pc) & 1 or {left} == 0:",
            "                continue",
            *code.piece_lines,
            "            for c in range(C):",
            f"                if {' and '.join(tests) or '1'}:",
            f"                    n = self.add(n, {verb} + c * NP + pc)"]


def _replace_tests(part: M.ReplacePart, r: _Resolver, pieces: list, w: int,
                   exclusive: bool) -> list[str]:
    """The tests of the piece tg a 'replace' may replace in clearing c, for the actor's
    piece w: one is there, an enemy's (another faction's: seats hold one faction each),
    of a kind the part names; a building put in place of no building needs an open slot
    (in place of one, it takes that one's slot); no exclusive placement of another's (a
    Keep, Law 6.2.2) forbids placing once tg is gone (``exclusive``: one may be in play).
    The reading taken (the Law outline): G.23, "you cannot replace a piece unless you
    can take both steps", over Law 1.5.4's "as far as possible" (which would remove the
    piece and place nothing when the supply is empty): a replace whose placement cannot
    be made (no piece in the supply, a Keep, no slot) is not offered, rather than a
    removal without a placement."""
    kinds = part.kinds()
    tests = ["self.s[S_BOARD + c * NP + tg] > 0",
             f"self.t[T_PIECE_OWNER + tg] != {r.faction_index}"]
    if len(kinds) < 3:
        tests.append("(" + " or ".join(f"self.t[T_PIECE_KIND + tg] == PK_{k.upper()}"
                                        for k in kinds) + ")")
    if pieces[w][2].kind == "building":
        tests.append("(self.t[T_PIECE_KIND + tg] == PK_BUILDING or self.open_slots(c) > 0)")
    if exclusive:
        tests.append("self.may_place_after(p, c, tg)")
    return tests


def _transfer(src: str, dst: str, count: str, var: str,
              indent: str = "        ") -> list[str]:
    """Lines moving up to ``count`` pieces from state slot src to dst, as many as src
    holds (a supply and a box: into_box, and a box cost's return to the supply)."""
    return [f"{indent}{var} = min({count}, self.s[{src}])", f"{indent}self.s[{src}] -= {var}",
            f"{indent}self.s[{dst}] += {var}"]


def _locals(lines: list[str]) -> list[str]:
    """Lines with the declarations of the locals they use (b: a piece of a suit, e: an
    enemy piece, j: a clearing of a filter) first."""
    decls = [f"        {v}: i64" for v, use in (("b", "        b = "), ("e", "for e in "),
                                                   ("j", "for j in "), ("fx", "for fx in "),
                                                   ("u", "for u in "), ("u", "        u = 0"))
             if any(use in x for x in lines)]
    return list(dict.fromkeys(decls)) + lines


def _apply(parts: list, r: _Resolver, code: _Code, inst: Instance,
           last_asks: bool = False, nested: bool = False) -> list[str]:
    """The application lines of parts, in order (c and d: the chosen clearing, card).
    ``last_asks``: the last of them is the last the action carries out, so a placement
    in each clearing of a filter may leave a question after it (FR_PLACE, place_owed).
    ``nested``: an 'if''s parts, which the action's listing did not judge (no
    requirement of it: a placement there places where it can, or nothing)."""
    d: list[str] = []
    for at, part in enumerate(parts):
        if isinstance(part, STEP_PARTS):
            d += _apply_step_part(part, r, code, inst)
            continue
        if isinstance(part, M.ChoosePart):
            # The second choice (the last of the parts before it, choice_prog the rest):
            # asked once the parts before it are carried out, if it has an option.
            if not inst.choice:
                raise ProgramError(f"program {inst.program}: a second choice is not "
                                   "supported here")
            if inst.keeps_piece:
                d.append("        self.s[S_PIECE_KEPT] = pc")
            d.append(f"        self.prog_choice(p, c, {inst.index}, {int(part.optional)})")
            continue
        if isinstance(part, M.TakePart):
            # At random from each other player with a piece in the chosen clearing (the
            # one from the discard pile asks a choice: an effect program's).
            if part.source != "others_here":
                raise ProgramError(f"program {inst.program}: a take from the discard pile "
                                   "is an effect program's part (PROGRAM-SHAPE)")
            d.append("        self.take_from_others(p, c)")
            inst.uses.add("hands")
            continue
        if isinstance(part, M.SwapPart):
            # The chosen clearing's pieces of these kinds and the other's (c2, a second
            # choice's), exchanged (Law G.33), hidden faces with them.
            if "c2" not in code.choice_vars:
                raise ProgramError(f"program {inst.program}: 'swap' exchanges pieces with "
                                   "the clearing a second choice chose (PROGRAM-SHAPE)")
            d.append(f"        self.swap_pieces(p, c, c2, {_mask(r.pieces(part.pieces))})")
            continue
        if isinstance(part, M.RevealPart) and part.piece != "piece":
            # A piece named, in the chosen clearing (no second choice): pc is it now.
            named = r.piece(part.piece)
            if not r.has_faces(named) and not any(
                    q.reveals for k, q in r.faction.pieces.items() if r.pidx[k] == named):
                raise ProgramError(f"program {inst.program}: 'reveal' of {part.piece!r}, "
                                   "which does not lie face down ('faces' or 'reveals') "
                                   "(PROGRAM-USE)")
            d.append(f"        pc = self.{_reveal_call(inst, r, [named])}(p, c, {named})")
            continue
        if isinstance(part, (M.RevealPart, M.MovePart)):
            # The piece a second choice chose (pc), in its forest (fo) or in the chosen
            # clearing: turned over where it lies, moved into the chosen clearing, or
            # moved from the clearing into the actor's box that holds it.
            from_forest = isinstance(part, M.MovePart) and part.source == "forest"
            if "pc" not in code.choice_vars or (from_forest and "fo" not in code.choice_vars):
                raise ProgramError(f"program {inst.program}: '{part.op}' acts on the piece "
                                   "a second choice chose (PROGRAM-SHAPE)")
            if isinstance(part, M.RevealPart):
                # A token whose face its owner chose shows it (Law 13.2.2); one whose
                # face nobody knows has it drawn as it turns (15.2.1).
                among = r.pieces(inst.second_among) if inst.second_among else []
                d.append(f"        pc = self.{_reveal_call(inst, r, among)}(p, c, pc)")
            elif from_forest and part.to == "clearing":
                d.append("        self.move_from_forest(p, fo, c, pc)")
            elif part.source == "clearing" and part.to == "box":
                d += _into_box_holding(r, code, inst)
            else:
                raise ProgramError(f"program {inst.program}: 'move' from the "
                                   f"{part.source} to the {part.to}: a piece moves from its "
                                   "forest into the chosen clearing, or from the clearing "
                                   "into a box (PROGRAM-SHAPE)")
            continue
        if isinstance(part, M.TuckPart) and part.into == "role":
            # Into the columns the actor's role names (its 'tuck', T_ROLE_TUCK); with no
            # roles or no cards of its own there is nothing to tuck (a choose_role's
            # default 'then', as before it had one; written, validation refuses it).
            if not r.faction.roles or not r.faction.cards:
                continue
            d += ["        if self.s[S_ROLE + p] >= 0:",
                  "            self.tuck_cards(p, self.t[T_ROLE_TUCK + self.faction(p) * R + "
                  "self.s[S_ROLE + p]])"]
            inst.uses.update(("columns", "roles"))
            continue
        if isinstance(part, M.TuckPart):
            # The actor's faction cards from its reserve, one into each column named.
            cols = [c.id for c in r.faction.columns]
            into = cols if part.into == "each" else part.into
            unknown = [x for x in into if x not in cols]
            if unknown or not r.faction.cards:
                raise ProgramError(f"program {inst.program}: tuck into {unknown or into}: "
                                   f"{r.faction.id} has no such column, or no cards of its "
                                   "own (PROGRAM-USE)")
            d.append(f"        self.tuck_cards(p, {sum(1 << cols.index(x) for x in into)})")
            inst.uses.add("columns")
            continue
        if isinstance(part, M.StopPart):
            # The action ends here (a repeated choice is not asked again).
            if "pc" not in code.choice_vars:
                raise ProgramError(f"program {inst.program}: 'stop' ends the parts after a "
                                   "second choice (PROGRAM-SHAPE)")
            d.append("        return 0")
            continue
        if M.chosen_card_part(part):
            # The card the first choice chose, shown or given to the holder (an offer's
            # program: the offerer, Law 13.2.4); only where one was chosen.
            if "d" not in code.choice_vars and inst.shape not in ("card", "clearing_card"):
                raise ProgramError(f"program {inst.program}: '{part.op}' of the chosen "
                                   "card, and no card is chosen (PROGRAM-SHAPE)")
            if part.to != "holder" or not inst.offer:
                raise ProgramError(f"program {inst.program}: '{part.op}' of the chosen card "
                                   "goes to the 'holder' of an offer (PROGRAM-USE)")
            holder = f"self.seat_of_faction({inst.faction})"
            if isinstance(part, M.ShowPart):
                d.append(f"        self.show_card(p, {holder}, d)")
            else:
                d.append(f"        self.give_card(self.find_in(LOC_HAND + p, d), {holder}, 1, "
                         "0)")
            inst.uses.add("hands")
            continue
        if isinstance(part, (M.GivePart, M.ShowPart)):
            raise ProgramError(f"program {inst.program}: '{part.op}' is an effect program's "
                               "part (PROGRAM-SHAPE)")
        if isinstance(part, M.DiscardPart) and part.card == "resolving":
            # The column's card this action resolves (do_col_prog kept it, Law 15.5.2).
            if not inst.column:
                raise ProgramError(f"program {inst.program}: 'discard' of the resolving card "
                                   "outside a column's program (PROGRAM-USE)")
            d.append("        self.discard(self.s[S_RESOLVING])")
            inst.discards_resolving = True
        elif isinstance(part, M.DiscardPart):
            d.append("        self.discard(self.find_in(LOC_HAND + p, d))")
        elif isinstance(part, M.PutPart):
            d.append(f"        self.zone_gain(p, {r.zone(part.zone)}, "
                     "self.find_in(LOC_HAND + p, d))")
            inst.uses.add("zones")
        elif isinstance(part, M.PlacePart) and part.face_down and nested:
            raise ProgramError(f"program {inst.program}: a token laid face down is no part "
                               "of an 'if' (PROGRAM-SHAPE)")
        elif isinstance(part, M.PlacePart) and part.face_down:
            d.append(f"        self.place_face_down(p, c, {_face_down(part, r, inst)})")
        elif isinstance(part, M.PlacePart):
            count = _value(part.count, code)
            if count is None:
                raise ProgramError(f"program {inst.program}: place's count is left out")
            if isinstance(part.piece, str) and part.piece != "piece" and \
                    r.token_of_face(r.piece(part.piece)) is not None:
                raise ProgramError(f"program {inst.program}: {part.piece!r} is a face of a "
                                   "token laid face down: it is placed 'face_down' "
                                   "(PROGRAM-USE)")
            ind = ""
            if isinstance(part.piece, M.OfSuit):
                d.append(f"        b = self.piece_of_suit({_mask(r.pieces(part.piece.among))}, "
                         f"{_suit_expr(part.piece)})")
                d.append("        if b >= 0:")
                pc, ind = "b", "    "
            elif isinstance(part.piece, M.RandomPiece):
                pc = "b"  # drawn anew for each piece placed
                if isinstance(part.at, (str, M.AtEach)):
                    raise ProgramError(f"program {inst.program}: a random piece is placed "
                                       "in each clearing or forest of a filter")
            else:
                pc = r.piece_expr(part.piece)
            if isinstance(part.at, M.AtForest):
                raise ProgramError(f"program {inst.program}: a piece placed in a forest of "
                                   "the actor's choice is an effect program's "
                                   "(PROGRAM-SHAPE)")
            if part.evenly and isinstance(part.at, (M.AtEachForest, M.AtEachClearing)):
                # The count dealt among the places as evenly as possible (Law 15.3.4):
                # the places listed in the scratch k, then dealt (spread_evenly).
                forests = isinstance(part.at, M.AtEachForest)
                # (a clearing: none another player's exclusive placement forbids, Law 6.2.2)
                tests = _forest_test(part.at.each_forest, code, "fx") if forests else \
                    [*_clearing_test(part.at.each_clearing, code, "fx"),
                     "self.may_place(p, fx)"]
                mask = _mask(r.pieces(part.piece.random)) \
                    if isinstance(part.piece, M.RandomPiece) else 0
                fixed = "-1" if isinstance(part.piece, M.RandomPiece) else pc
                # (the count read first: a value may use the scratch, forests_held)
                d += [f"        b = {count}", "        u = 0",
                      f"        for fx in range({'NFOREST' if forests else 'C'}):",
                      f"            if {' and '.join(tests) or '1'}:",
                      "                self.k[u] = fx", "                u += 1",
                      f"        self.spread_evenly(p, u, b, {mask}, {fixed}, {int(forests)})"]
            elif isinstance(part.at, M.AtEachForest):
                # One placement per forest passing the filter, in the map's order of its
                # forests (Law 15.3.1: a relic in each forest).
                tests = _forest_test(part.at.each_forest, code, "fx")
                d += ["        for fx in range(NFOREST):",
                      f"            if {' and '.join(tests) or '1'}:"]
                d += _placing(part, r, count, "self.place_in_forest(p, fx, {}, {})",
                              "                ")
            elif isinstance(part.piece, M.RandomPiece):
                assert isinstance(part.at, M.AtEachClearing)
                tests = [*_clearing_test(part.at.each_clearing, code, "j"),
                         "self.may_place(p, j)"]  # (Law 6.2.2, as below)
                d += ["        for j in range(C):",
                      f"            if {' and '.join(tests) or '1'}:"]
                d += _placing(part, r, count, "self.place(p, j, {}, {})", "                ")
            elif isinstance(part.at, M.AtEach) and last_asks and at == len(parts) - 1:
                # One per piece of that kind; the player chooses where short pieces go
                # (Law 1.5.4, place_owed), the action's last part.
                d.append(f"        {ind}self.place_per_building(p, {r.piece(part.at.each)}, "
                         f"{pc})")
            elif isinstance(part.at, M.AtEach):
                # With parts after it (or in an 'if'), which would run before an answer:
                # in clearing order, as far as the supply allows.
                d += [f"        {ind}for j in range(C):",
                      f"            {ind}self.place(p, j, {pc}, "
                      f"self.s[S_BOARD + j * NP + {r.piece(part.at.each)}])"]
            elif isinstance(part.at, M.AtEachClearing):
                # One placement per clearing passing the filter (the filter's tests read
                # 'the clearing' as the chosen one, c), none where another player's
                # exclusive placement forbids it (Law 6.2.2, the Keep).  As the action's
                # last part, the player chooses where short pieces go (Law 1.5.4,
                # place_owed); with parts after it, which would run before the answer,
                # in clearing order.
                tests = [*_clearing_test(part.at.each_clearing, code, "j"),
                         "self.may_place(p, j)"]
                d += [f"        {ind}for j in range(C):",
                      f"            {ind}if {' and '.join(tests) or '1'}:"]
                if last_asks and at == len(parts) - 1:
                    d += [f"                {ind}self.owe(j, {pc}, {count})",
                          f"        {ind}self.place_owed(p, {pc})"]
                else:
                    d.append(f"                {ind}self.place(p, j, {pc}, {count})")
            elif nested:
                # In the chosen clearing, where there is one and nothing forbids it (Law
                # 6.2.2), as far as the supply allows: the listing vouched for none of it.
                d += [f"        {ind}if c >= 0 and self.may_place(p, c):",
                      f"            {ind}self.place(p, c, {pc}, {count})"]
                if part.score:
                    raise ProgramError(f"program {inst.program}: a placement that scores "
                                       "is no part of an 'if' (PROGRAM-SHAPE)")
            elif inst.column and not ind:
                # Placed as far as the supply allows (Law 1.5.4), yet the card is not
                # fully taken: a failed card (Law 7.5.2; the FAQ on 7.7).
                d += [f"        placed = self.place(p, c, {pc}, {count})",
                      f"        if placed < {count}:", "            short = 1"]
                if part.score:
                    d += ["        if placed > 0:",
                          f"            self.score(p, self.track_vp({pc}), WHY_PLACED, {pc})"]
            else:
                if not part.require and inst.others_exclusive:
                    # Not a requirement of the action, so the listing did not test the
                    # clearing: none where another's exclusive placement forbids (6.2.2).
                    d.append(f"        {ind}if self.may_place(p, c):")
                    ind += "    "
                if part.score:
                    d += [f"        {ind}if self.place(p, c, {pc}, {count}) > 0:",
                          f"            {ind}self.score(p, self.track_vp({pc}), WHY_PLACED, "
                          f"{pc})"]
                else:
                    d.append(f"        {ind}self.place(p, c, {pc}, {count})")
        elif isinstance(part, M.RemovePart):
            d += _remove(part, r, code, vouched=id(part) in inst.vouched)
        elif isinstance(part, M.SetStagePart) and part.by is not None:
            # The marker on by 'by' stages, round the ring (a cycle is public).
            by = _value(part.by, code)
            if by is None:
                raise ProgramError(f"program {inst.program}: set_stage's 'by' is left out")
            d.append(f"        self.advance_cycle(p, {r.cycle(part.cycle)}, {by})")
            inst.uses.add("cycles")
        elif isinstance(part, M.SetStagePart):
            # The marker on the chosen stage, or on one named (a cycle is public).
            k, stages = _cycle_of(part.cycle, code)
            if part.stage == "chosen":
                if inst.shape != "stage" or inst.stages != stages:
                    raise ProgramError(f"program {inst.program}: set_stage 'chosen', and "
                                       "no stage of its cycle is chosen")
                to = "sg"
            elif part.stage in stages:
                to = str(stages.index(part.stage))
            else:
                raise ProgramError(f"program {inst.program}: {part.stage!r} is no stage "
                                   "of its cycle")
            d.append(f"        self.s[S_CYCLE + p * NCYC + {k}] = {to}")
        elif isinstance(part, M.IfPart):
            # The parts of the branch the condition picks, read as the 'if' is reached
            # (Law 10.4.1: after the Lost Souls are counted, before they are discarded).
            if isinstance(part.if_, M.Hides):
                # A guess at the face lying face down in the chosen clearing, answered
                # aloud (the event 'answered': Law 13.2.4).
                if part.if_.hides == "piece" and not (inst.keeps_piece or
                                                      "pc" in code.choice_vars):
                    raise ProgramError(f"program {inst.program}: 'hides' 'piece' reads the "
                                       "piece a choice named (PROGRAM-SHAPE)")
                cond = f"self.guess_face(p, c, {r.piece_expr(part.if_.hides)})"
                inst.uses.add("faces")
            else:
                cond = _condition(part.if_, code)
            then, other = _apply(part.then, r, code, inst, nested=True), \
                _apply(part.else_, r, code, inst, nested=True)
            if cond == NEVER:
                d += other
            else:
                d += [f"        if {cond}:", *("    " + x for x in then or ["        pass"])]
                if other:
                    d += ["        else:", *("    " + x for x in other)]
        elif isinstance(part, M.TakeHomePart):
            # The chosen clearing is the actor's home (Law 6.3.1, 7.3.1).
            d.append("        self.s[S_HOME + p] = c")
        elif isinstance(part, M.ReplacePart):
            # The chosen piece tg removed (one removal event, Law 1.5.4; the actor scores
            # a building or token, Law 3.2.1; what it sets off waits as frames while the
            # program goes on), then the actor's piece placed in its spot (G.23).
            if isinstance(part.with_, M.OfSuit):
                d += [f"        b = self.piece_of_suit({_mask(r.pieces(part.with_.among))}, "
                      f"{_suit_expr(part.with_)})",
                      "        self.remove_piece(c, tg, p)", "        self.flush_removals()",
                      "        self.place(p, c, b, 1)"]
            else:
                d += ["        self.remove_piece(c, tg, p)", "        self.flush_removals()",
                      f"        self.place(p, c, {r.piece(part.with_)}, 1)"]
        elif isinstance(part, M.IntoBoxPart):
            if r.bound(part.box) is None:
                continue  # a box the use leaves out: no such part
            boxed, bx = r.piece(part.piece), r.box(part.box)
            if part.who != "self":
                raise ProgramError(f"program {inst.program}: into_box for {part.who!r}: "
                                   "an effect program's (PROGRAM-SHAPE)")
            # As many as the supply holds, up to the count; from the box (a cost, Law
            # 10.4.3), as many as the box holds (the listing offered it only where the
            # box holds them all, unless the part is not required).
            src, dst = f"S_SUPPLY + {boxed}", f"S_BOX + p * B + {bx}"
            if part.from_box:
                src, dst = dst, src
            if part.count == 1:
                d += [f"        if self.s[{src}] > 0:",
                      f"            self.s[{src}] -= 1",
                      f"            self.s[{dst}] += 1"]
            else:
                count = _value(part.count, code)
                if count is None:
                    raise ProgramError(f"program {inst.program}: into_box's count is left "
                                       "out")
                d += _transfer(src, dst, count, "b")
        elif isinstance(part, M.SpendPart):
            # The cards are spent (the actor choosing, FR_ZONE_PAY); once paid in full,
            # zone_pay_settle runs then_prog with the clearing.
            count = _value(part.count, code)
            if inst.shape == "piece_clearing" and not r.chose_piece:
                # The piece a 'replace' after it replaces: kept while the cards are spent.
                d.append("        self.s[S_BUILD_PENDING] = tg")
            d.append(f"        self.zone_pay(p, m, {_spent_from(r, part)}, c, {count}, a)")
            inst.uses.add("zones")
        elif isinstance(part, M.PayPart):
            # The pieces are paid (the actor choosing where, FR_PAY, while more than one
            # clearing can pay); once paid in full, pay_one runs then_prog with the
            # clearing (then_pay, by the instance's pay_slot).
            count = _value(part.count, code)
            if count is None:
                raise ProgramError(f"program {inst.program}: pay's count is left out")
            d.append(f"        self.start_pay(p, {inst.pay_slot}, c, "
                     f"{'pc' if r.chose_piece else '0'}, {r.piece(part.piece)}, {count})")
            inst.uses.add("pay")
        elif isinstance(part, M.BattlePart):
            # The battle (the defender asked, FR_DEFENDER, or declined); the parts after
            # it wait below it (FR_THEN) and run once it is over (Law 4.3).
            d.append(f"        self.prog_battle(p, c, {inst.index}, "
                     f"{int(inst.after_battle)}, {int(not part.optional)})")
            inst.uses.add("prog_battle")
    return d


def _face_down(part: M.PlacePart, r: _Resolver, inst: Instance) -> str:
    """The face a placement lays face down (models.PlacePart.face_down): the chosen
    piece, or one named; each of them one of a token's faces, one of it in the chosen
    clearing."""
    if part.at != "clearing" or part.count != 1 or not isinstance(part.piece, str):
        raise ProgramError(f"program {inst.program}: a face is laid face down one at a "
                           "time, in the chosen clearing (PROGRAM-USE)")
    if part.piece == "piece" and r.chose_piece and inst.first_among is not None:
        among, expr = r.pieces(inst.first_among), "pc"
    else:
        among = [r.piece(part.piece)]
        expr = str(among[0])
    if any(r.token_of_face(x) is None for x in among):
        raise ProgramError(f"program {inst.program}: 'face_down' lays one of a token's "
                           "'faces' face down; the piece placed is none (PROGRAM-USE)")
    inst.uses.add("faces")
    return expr


def _reveal_call(inst: Instance, r: _Resolver, among: list[int]) -> str:
    """Which reveal the pieces a 'reveal' may turn over take (a second choice's, or the
    one it names): 'reveal_face' for tokens laid face down with faces their owner chose,
    'reveal_piece' for pieces that turn out to be one drawn at random; never both."""
    faced = [x for x in among if r.has_faces(x)]
    if faced and len(faced) != len(among):
        raise ProgramError(f"program {inst.program}: 'reveal' of tokens whose face their "
                           "owner chose and of pieces drawn as they turn, in one choice "
                           "(PROGRAM-USE)")
    if faced:
        inst.uses.add("faces")
    return "reveal_face" if faced else "reveal_piece"


def _held(r: _Resolver, code: _Code, inst: Instance) -> list[tuple[int, int, bool]]:
    """The boxes the pieces a second choice may choose go into: (box, mask of the
    pieces, whether the box is a tally of pieces taken out of play)."""
    out: dict[int, int] = {}
    for x in code.choice_pieces:
        b = r.box_holding(x)
        out[b] = out.get(b, 0) | (1 << x)
    return [(b, m, r.faction.boxes[b].tally) for b, m in out.items()]


def _box_of_chosen(r: _Resolver, code: _Code, inst: Instance) -> str:
    """The index of the actor's box that holds the chosen piece pc, an expression."""
    held = _held(r, code, inst)
    if not held:
        raise ProgramError(f"program {r.program}: the box that holds 'piece', and its "
                           "second choice chooses among no pieces (PROGRAM-USE)")
    expr = str(held[-1][0])
    for b, m, _ in reversed(held[:-1]):
        expr = f"({b} if ({m} >> pc) & 1 else {expr})"
    return expr


def _into_box_holding(r: _Resolver, code: _Code, inst: Instance) -> list[str]:
    """The lines moving the chosen piece pc from the chosen clearing into the actor's
    box that holds it (Law 15.5.2: a relic recovered into its Relics row)."""
    held = _held(r, code, inst)
    if len(held) == 1:
        b, _, tally = held[0]
        return [f"        self.move_to_box(p, c, pc, {b}, {int(tally)})"]
    d: list[str] = []
    for k, (b, m, tally) in enumerate(held):
        d += [f"        {'if' if k == 0 else 'elif'} ({m} >> pc) & 1:",
              f"            self.move_to_box(p, c, pc, {b}, {int(tally)})"]
    return d


def _remove(part: M.RemovePart, r: _Resolver, code: _Code, effect: bool = False,
            vouched: bool = False) -> list[str]:
    """The lines of a 'remove': every enemy piece or one of the actor's, in the chosen
    clearing c (an effect program's: its clearing, none when -1) or in each clearing j of
    a filter; one removal event (Law 1.5.4), whose reactions (field hospitals, triggers)
    wait as frames while the program goes on.  In an effect program one of the actor's
    pieces is removed only where there is one (a program's listing requires it)."""
    x = "c" if part.at == "clearing" else "j"
    if part.pieces == "enemy":
        # (of some kinds only: Law 14.4.1's buildings and tokens)
        kinds = "" if part.kinds is None else " and (" + " or ".join(
            f"self.t[T_PIECE_KIND + e] == PK_{k.upper()}" for k in sorted(set(part.kinds))) + ")"
        body = ["for e in range(NP):",
                f"    if self.t[T_PIECE_OWNER + e] != self.faction(p){kinds}:",
                f"        while self.s[S_BOARD + {x} * NP + e] > 0:",
                f"            self.remove_piece({x}, e, p)"]
    else:
        assert part.piece is not None  # 'piece' or 'pieces' (validated)
        pc = r.piece_expr(part.piece)
        body = [f"self.remove_piece({x}, {pc}, p)"]
        if part.as_token:
            # As the token, its face unread: no trigger on the face reacts (13.2.4).
            if part.count != 1 or effect or not r.has_faces(r.piece(part.piece)):
                raise ProgramError(f"program {r.program}: 'as_token' removes one token laid "
                                   "face down ('faces') in a menu's or an offer's program "
                                   "(PROGRAM-USE)")
            body = [f"self.unface({x}, {pc})", *body]
        if part.count != 1:
            # Several of one's own, one removal event (Law 13.5.2); as far as there are.
            many = _value(part.count, code)
            if many is None or effect:
                raise ProgramError(f"program {r.program}: remove's count is a menu "
                                   "program's, with its value given (PROGRAM-USE)")
            return [f"        for u in range({many}):",
                    f"            if self.s[S_BOARD + {x} * NP + {pc}] > 0:",
                    f"                self.remove_piece({x}, {pc}, p)",
                    "        self.flush_removals()"]
        if not vouched or effect or x == "j":
            # Only where one is there (Law 1.5.4): an action's listing requires it as it
            # is taken (vouched), not after a cost or a battle, in an effect or a filter.
            body = [f"if self.s[S_BOARD + {x} * NP + {pc}] > 0:", *("    " + y for y in body)]
    if isinstance(part.at, M.ClearingFilter):
        tests = _clearing_test(part.at, code, "j")
        body = ["for j in range(C):", f"    if {' and '.join(tests) or '1'}:",
                *("        " + y for y in body)]
    elif effect:
        body = ["if c >= 0:", *("    " + y for y in body)]
    lines = ["        " + y for y in body]
    if effect and part.pieces != "enemy" and part.at == "clearing":
        # Ended where a piece was removed only (as the op it replaced did).
        return lines[:-1] + [lines[-1], "                self.flush_removals()"]
    return lines + ["        self.flush_removals()"]


def compile_use(entry: M.ProgramEntry | M.ProgramStep, prog: M.Program, index: int,
                limit_slot: int,
                faction_index: int, bundle, pidx: dict[str, int], pieces: list,
                pay_slot: int = -1, offer: bool = False) -> Instance:
    """The instance of ``prog`` that a menu entry of the bundle's faction ``faction_index``
    runs: the entry's fields of the program's parameters' names bind them.  ``pay_slot``:
    for a program with a 'pay', how many of the faction's instances before it pay."""
    factions = list(bundle.factions)
    faction = factions[faction_index]
    params = prog.bind(M.use_fields(entry))
    action = str(entry.action if isinstance(entry, M.ProgramEntry) else entry.op)
    inst = Instance(index, action, faction_index, prog.verb or "", shape_of(prog), limit_slot)
    inst.pay_slot = pay_slot
    inst.offer = offer
    if prog.once_per_turn == "clearing" and len(bundle.map.clearings) > 62:
        raise ProgramError(f"program {action}: a limit once per clearing on a map of more "
                           "than 62 clearings (one bit of a slot each)")
    compile_instance(inst, prog, _Resolver(action, params, faction, pidx, faction_index),
                     pieces, _others_exclusive(bundle, faction_index))
    return inst


def compile_column_use(column: M.ColumnWay, prog: M.Program, index: int, faction_index: int,
                       bundle, pidx: dict[str, int], pieces: list) -> Instance:
    """The instance of ``prog`` a column of faction ``faction_index`` runs (its 'action'
    names the program, its fields bind the parameters): a menu entry's, whose listing
    keeps to the suits the column's card allows and whose application says whether a
    placement fell short (the card failed, Law 7.5.2)."""
    faction = list(bundle.factions)[faction_index]
    if any(isinstance(x, (M.SpendPart, M.PayPart)) for x in prog.do) or prog.once_per_turn:
        raise ProgramError(f"program {column.action}: a column's program pays no cost and "
                           "has no limit (PROGRAM-USE)")
    params = prog.bind(M.use_fields(column))
    inst = Instance(index, column.action, faction_index, prog.verb or "", shape_of(prog), -1,
                    column=True)
    compile_instance(inst, prog, _Resolver(column.action, params, faction, pidx,
                                           faction_index),
                     pieces, _others_exclusive(bundle, faction_index))
    return inst


def _others_exclusive(bundle, faction_index: int) -> bool:
    """Whether another faction (or a card) of the bundle may forbid placing in a clearing
    (Law 6.2.2: an exclusive placement)."""
    return any(isinstance(a, M.ExclusivePlacement) for i, f in enumerate(bundle.factions)
               if i != faction_index for a in f.abilities) or \
        any(isinstance(a, M.ExclusivePlacement) for c in bundle.deck.cards for a in c.abilities)


# ---- the steps as programs: a step runs a program that chooses nothing, when entered


STEP_PARTS = (M.ScorePart, M.DrawPart, M.DiscardAllPart, M.PutAllPart)
"""The parts that score, draw and discard (what the steps ran as engine ops)."""
SUITS = ("fox", "rabbit", "mouse", "bird")  # the core's suit numbers (tables.SUITS)


def _suit(r: _Resolver, ref: str) -> int:
    v = r.bound(ref)
    if v not in SUITS:
        raise ProgramError(f"program {r.program}: {ref!r} is no suit ({v!r})")
    return SUITS.index(v)


def _spent_from(r: _Resolver, part: M.SpendPart) -> int:
    """The zone a 'spend' pays from, as the core's zone_pay reads it: the zone's index,
    or -1 for the hand (a bundle spending from a hand: render.spends_from_hand)."""
    return -1 if r.bound(part.source) == "hand" else r.zone(part.source)


def _cards_at(r: _Resolver, ref: str) -> str:
    """A place of the actor's cards as the core's card location (p: the actor):
    'hand', 'columns' (a range: COLUMNS), or a zone."""
    v = r.bound(ref)
    if v == "hand":
        return "LOC_HAND + p"
    if v == "columns":
        return "COLUMNS"
    return f"LOC_ZONE + p * Z + {r.zone(ref)}"


def _suit_expr(ofs: M.OfSuit) -> str:
    """The suit an 'of_suit' reads: the chosen clearing's (c) or card's (d)."""
    return "self.t[T_DEF_SUIT + d]" if ofs.of_suit == "card" else "self.t[T_CLEARING_SUIT + c]"


def _card_track_value(v, code: _Code) -> str:
    """A value of the actor's cards or tracks, as an expression (on actor p)."""
    r = code.r
    if isinstance(v, M.TrackVp) and isinstance(v.track_vp, M.OfSuit):
        return f"self.track_vp_of_suit({_mask(r.pieces(v.track_vp.among))}, " \
            f"{_suit_expr(v.track_vp)})"
    if isinstance(v, M.TrackVp) and isinstance(v.track_vp, str):
        return f"self.track_vp_uncovered({r.piece(v.track_vp)})"
    if isinstance(v, M.DrawBonus):
        pcs: list[int] = []
        for ref in v.draw_bonus:
            if r.bound(ref) is not None:
                pcs += r.pieces(ref)
        terms = [f"self.track_draw_bonus({x})" for x in sorted(set(pcs))]
        return "(" + " + ".join(terms) + ")" if len(terms) > 1 else (terms or ["0"])[0]
    assert isinstance(v, M.CardCount)
    suit = -1 if v.suit is None else _suit(r, v.suit)
    at = _cards_at(r, v.cards)
    if at == "COLUMNS":
        return f"self.cards_in_columns(p, {suit})"
    if at.startswith("LOC_ZONE"):
        code.inst.uses.add("zones")
    if suit < 0 and at == "LOC_HAND + p":
        return "self.hand_size(p)"
    return f"self.cards_at(p, {at}, {suit})"


def _why(v, r: _Resolver) -> tuple[str, str]:
    """The reason a 'scored' event gives for VP of a value, and what it is for: a
    track's VP, the track's piece; cards in the columns of a suit, the suit."""
    if isinstance(v, M.TrackVp) and isinstance(v.track_vp, M.OfSuit):
        return "WHY_TRACK", f"self.first_of_suit({_mask(r.pieces(v.track_vp.among))}, " \
            f"{_suit_expr(v.track_vp)})"
    if isinstance(v, M.TrackVp) and isinstance(v.track_vp, str):
        return "WHY_TRACK", str(r.piece(v.track_vp))
    if isinstance(v, M.CardCount) and r.bound(v.cards) == "columns" and v.suit is not None:
        return "WHY_COLUMNS", str(_suit(r, v.suit))
    if _reads(v, M.ForestsHeld):
        return "WHY_FORESTS", "-1"
    return "WHY_EFFECT", "-1"


def _reads(v, kind: type) -> bool:
    """Whether a value is, or is made of, a value of this kind."""
    if isinstance(v, kind):
        return True
    if isinstance(v, (M.SumValue, M.TimesValue)):
        return any(_reads(x, kind) for x in (v.sum if isinstance(v, M.SumValue) else v.times))
    if isinstance(v, M.IfValue):
        return _reads(v.then, kind) or _reads(v.else_, kind)
    return False


def _apply_step_part(part, r: _Resolver, code: _Code, inst: Instance,
                     effect_at: int = -1) -> list[str]:
    """The application lines of a part that scores, draws or discards (for p).
    ``effect_at``: the part's place in the effect programs' table, when it is an effect
    program's (what a 'scored' event for an effect names); -1: a program's, whose parts
    are carried out by its actor."""
    if effect_at < 0 and getattr(part, "who", "self") != "self":
        raise ProgramError(f"program {inst.program}: {part.op} for {part.who!r} outside an "
                           "effect program (PROGRAM-SHAPE)")
    if isinstance(part, M.ScorePart):
        vp = _value(part.vp, code)
        if vp is None:
            raise ProgramError(f"program {inst.program}: {part.op}'s vp is left out")
        why, what = _why(part.vp, r)
        if why == "WHY_EFFECT" and effect_at >= 0:
            what = str(effect_at)
        sign = "-" if part.lose else ""
        return [f"        self.score(p, {sign}{vp}, {why}, {what})"]
    if isinstance(part, M.DrawPart):
        count = _value(part.count, code)
        if count is None:
            raise ProgramError(f"program {inst.program}: draw's count is left out")
        if part.into is None:
            return [f"        self.draw(p, {count})"]
        inst.uses.add("zones")
        return [f"        for d in range({count}):",
                f"            self.draw_to_zone(p, {r.zone(part.into)})"]
    if isinstance(part, M.PutAllPart):
        src, dst = _cards_at(r, part.source), _cards_at(r, part.into)
        if "COLUMNS" in (src, dst) or src == dst:
            raise ProgramError(f"program {inst.program}: put_all between two places of "
                               "cards of the actor's, the hand or zones")
        inst.uses.add("zones")
        if dst == "LOC_HAND + p":
            # Into the hand: every holder of the zone saw them go (a face-down zone's
            # cards stay its owner's knowledge; a face-up one's, everyone's).
            move = ["                self.hand_gain(p, d)"]
        else:
            move = [f"                self.zone_gain(p, {r.zone(part.into)}, d)"]
        return ["        for d in range(N):", f"            if self.s[S_CARD_LOC + d] == {src}:",
                *move]
    assert isinstance(part, M.DiscardAllPart)
    at = _cards_at(r, part.source)
    test = "self.in_columns(p, d)" if at == "COLUMNS" else f"self.s[S_CARD_LOC + d] == {at}"
    if at.startswith("LOC_ZONE"):
        inst.uses.add("zones")
    if part.except_suit is not None:
        # All but one suit's cards (birds are not foxes: the Partisans).
        return ["        for d in range(N):", f"            if {test} and \\",
                "                    self.t[T_DEF_SUIT + self.t[T_CARD_DEF + d]] != "
                f"{SUITS.index(part.except_suit)}:",
                "                self.discard(d)"]
    if part.suit is not None:
        # One suit's cards alone, as printed (the Duchy's revealed birds, Law 12.6.1).
        return ["        for d in range(N):", f"            if {test} and \\",
                "                    self.t[T_DEF_SUIT + self.t[T_CARD_DEF + d]] == "
                f"{SUITS.index(part.suit)}:",
                "                self.discard(d)"]
    if part.matching is None:
        return ["        for d in range(N):", f"            if {test}:",
                "                self.discard(d)"]
    # Only the cards matching the clearing (birds match any, Law 2.1.1).
    lines = ["        for d in range(N):", f"            if {test} and \\",
             "                    self.suit_matches(self.t[T_DEF_SUIT + self.t[T_CARD_DEF + d]], "
             "c):",
             "                self.discard(d)"]
    if effect_at >= 0:  # an effect program's clearing: none, nothing to match
        lines = ["        if c >= 0:", *("    " + x for x in lines)]
    return lines


def compile_step_use(step: M.ProgramStep, prog: M.Program, index: int, faction_index: int,
                     bundle, pidx: dict[str, int], pieces: list) -> Instance:
    """The instance of ``prog`` a step of faction ``faction_index`` runs when it is
    entered (the step's 'op' names the program, its fields bind the parameters, as a menu
    entry's do): a program that chooses nothing is only its application,
    ``do_prog_<i>(p, -1, 0)``, run as the step is entered; one whose first part is a
    choice is compiled as a menu entry's is, and the step offers its options."""
    faction = list(bundle.factions)[faction_index]
    name = getattr(step, "op", "?")
    if isinstance(prog.do[0], M.ChoosePart):
        # A step that chooses: its first choice is the step's decision, offered as its
        # verb's actions (gen_prog_<i>), then the program runs (do_prog_<i>) and the step
        # is over.  A cost's continuation is a menu entry's (then_prog): not at a step.
        if any(isinstance(x, (M.SpendPart, M.PayPart)) for x in prog.do):
            raise ProgramError(f"program {name}: a step's program pays no cost")
        return compile_use(step, prog, index, -1, faction_index, bundle, pidx, pieces)
    params = prog.bind(M.use_fields(step))
    inst = Instance(index, name, faction_index, "", "none", -1)
    r = _Resolver(name, params, faction, pidx)
    code = _Code(inst, r, hoisting=False)
    d = [f"    def do_prog_{index}(self, p: i64, m: i64, a: i64) -> i64:",
         f'        """{name} (Law {prog.law}) for faction {faction.id}: the step\'s parts in '
         'order."""']
    lines = _apply(prog.do, r, code, inst, last_asks=True)
    if any("for d in" in x or x.startswith("        d = ") for x in lines):
        d.append("        d: i64")
    # No clearing is chosen: a filter's 'the clearing' (an adjacency helper's c) is none.
    d.append("        c: i64 = -1")
    d += _locals(lines)
    d.append("        return 0")
    inst.do = "\n".join(["    @cython.cfunc", "    @cython.exceptval(check=False)", *d])
    return inst


# ---- effect programs' parts: each occurrence compiled on its own


@dataclass(frozen=True)
class EffectJump:
    """In an effect program's table, after an 'if''s 'then' parts: skip its 'else' parts
    (``over`` ops), which run only where the condition did not hold."""

    over: int
    op: str = "jump"


def effect_ops(prog: list) -> list:
    """An effect program's ops as its table lays them out: a 'give' followed by the parts
    it runs 'otherwise' (the give skips them when it gives a card); an 'if' followed by
    its 'then' parts, and, where it has 'else' parts, a jump over them and them (the 'if'
    skips its 'then' parts and the jump where its condition does not hold)."""
    out: list = []
    for op in prog:
        out.append(op)
        out.extend(getattr(op, "otherwise", None) or ())
        if isinstance(op, M.IfPart):
            out.extend(effect_ops(op.then))
            if op.else_:
                tail = effect_ops(op.else_)
                out.append(EffectJump(len(tail)))
                out.extend(tail)
    return out


_CARD_KINDS = ("item", "ambush", "dominance", "persistent", "immediate")  # the core's CK_


def take_mask(part: M.TakePart) -> int:
    """A take's kinds as a mask over the core's card kinds (0: any kind)."""
    return sum(1 << _CARD_KINDS.index(x) for x in part.kind or ())


@dataclass
class EffectPart:
    """One part of an effect program (models.EFFECT_PARTS), compiled: ``do_eff_<k>``
    (run by the effect programs' interpreter for the op code 'part', EOP_A k) and the
    helper methods its values call."""

    index: int
    code: str
    uses: set[str] = field(default_factory=set)
    can: bool = False
    """Whether it has ``can_eff_<k>(actor, c)``: whether it would do anything now (a
    placement: a clearing it places in), read before a trigger's cost is asked."""
    forest: bool = False
    """Whether it has ``forest_ok_eff_<k>(p, c, fo)``: a placement in a forest of the
    actor's choice (models.AtForest), whether forest fo passes its filter."""
    move: bool = False
    """Whether it has ``move_count_eff_<k>(p, c)``: a move of a player's warriors
    (models.MovePart 'warrior'), how many of p's leave clearing c (-1: any number)."""


# The seat each 'who' names, as the compiled method's argument.
_WHO_ARG = {"self": "actor", "target": "target", "opponent": "opponent", "holder": "holder"}
# Where a given card goes (the core's give_card): a zone (0: what the frame zone_give's
# field always meant), a hand, the discard pile.
_GIVE_ZONE, _GIVE_HAND, _GIVE_DISCARD = 0, 1, 2


def _give(part: M.GivePart, r: _Resolver, inst: Instance, code: _Code) -> list[str]:
    """The lines of a 'give' (p: the giver, q: the receiver): the card chosen by the
    giver (the frame zone_give, asked whenever p's hand is not empty: a public fact, Law
    1.2) or at random (the k-th of the matching cards in card order, k from the game's
    dice); returns how many of the ops after it to skip: its 'otherwise' parts, which
    run when there is no card to give."""
    skip = len(part.otherwise)
    if part.to == "discard":
        kind, zone = _GIVE_DISCARD, 0
    elif part.into is None:
        kind, zone = _GIVE_HAND, 0
    else:
        kind, zone = _GIVE_ZONE, r.zone(part.into)
        inst.uses.add("zones")
    match = "c" if part.matching is not None else "-1"
    if part.to == "discard":
        d = ["        q = -1"]  # nobody receives it
    else:
        d = [f"        q = {_WHO_ARG[part.to]}", "        if q < 0:",
             f"            return {skip}"]
    if part.matching is not None:
        d += ["        if c < 0:", f"            return {skip}"]
    if part.source == "play_area":
        # The actor picks one of p's crafted cards (face up, Law 4.1.3): FR_ZONE_GIVE
        # asks the actor, its field 7 the giver + 1.
        return d + ["        if self.crafted_cards(p) > 0:",
                    f"            self.give_ask(actor, q, {kind}, {zone}, -1, {skip})",
                    "            self.set_top(7, p + 1)",
                    "            return 0",
                    "        return 0"]
    if part.pick == "choice":
        return d + ["        if self.hand_size(p) > 0:",
                    f"            self.give_ask(p, q, {kind}, {zone}, {match}, {skip})",
                    "        return 0"]
    if part.count != 1:
        # One card after another, at random, as far as the hand allows (Law 10.2.5: one
        # for each of a kind of piece removed); 'otherwise' when the first finds none.
        count = _value(part.count, code)
        if count is None:
            raise ProgramError(f"{r.program}: give's count is left out")
        return d + [f"        n = self.hand_matching(p, {match})", "        if n == 0:",
                    "            return 0",
                    f"        for j in range({count}):",
                    f"            n = self.hand_matching(p, {match})",
                    "            if n > 0:",
                    f"                self.give_card(self.hand_nth(p, {match}, self.rand(n)), "
                    f"q, {kind}, {zone})",
                    f"        return {skip}"]
    return d + [f"        n = self.hand_matching(p, {match})", "        if n > 0:",
                f"            self.give_card(self.hand_nth(p, {match}, self.rand(n)), q, "
                f"{kind}, {zone})",
                f"            return {skip}",
                "        return 0"]


def compile_effect_part(part, k: int, at: int, where: str, holder: M.FactionSpec | None,
                        pidx: dict[str, int], event_piece: bool = False,
                        source: int = -1, card_box: str | None = None,
                        removed: tuple[str, ...] = ()) -> EffectPart:
    """Part ``part`` of the effect program ``where`` (an effect's, a trigger's or an
    immediate card's id), at place ``at`` of the effect programs' table: the method
    ``do_eff_<k>(actor, target, opponent, c)``, carried out for the seat its 'who' names
    (none: nothing happens), with its values read as that seat's and c the program's
    clearing.  ``holder``: the faction whose ability it is (None: a card's, which names
    no piece, zone or box).  ``source``: the card definition whose ability the program is
    (-1: a faction's), which a 'discard' of 'this' card discards."""
    if any(M.chosen_card_part(x) for x in M.walk(part)):
        raise ProgramError(f"{where}: the 'chosen' card is a program's choice's; an effect "
                           "program chooses none (EFFECT-PART)")
    inst = Instance(k, where, -1, "", "none", -1, tag=f"eff_{k}")
    r = _Resolver(where, {}, holder, pidx)
    r.event_piece = event_piece
    r.card_box, r.card_source = card_box, source
    code = _Code(inst, r, hoisting=False)
    # A part of a removal's trigger that takes the pieces removed from the supply (one of
    # the trigger's removed pieces, as many as the event removed; or, for each piece
    # removed, that piece) takes only those no other rule has taken yet, in a bundle that
    # counts them (S_LOOSE: tables.Tables.loose; ``removed``: the trigger's pieces there).
    takes_removed = bool(removed) and isinstance(part, (M.PlacePart, M.IntoBoxPart)) and \
        not getattr(part, "from_box", False) and (
            (event_piece and part.piece == "piece") or
            (isinstance(part.count, M.EventPieces) and part.piece in removed))
    if isinstance(part, M.RemovePart):
        lines = _remove(part, r, code, effect=True)
    elif isinstance(part, M.GivePart):
        lines = _give(part, r, inst, code)
        inst.uses.add("hands")
    elif isinstance(part, M.ShowPart):
        inst.uses.add("hands")
        # p's hand shown to q (Law 1.2.1), q alone sees it.
        lines = [f"        q = {_WHO_ARG[part.to]}", "        if q >= 0:",
                 "            self.show_hand(p, q)"]
    elif isinstance(part, M.IntoBoxPart) and card_box is not None and part.box == card_box:
        # The card's own box, of the copy in p's play area (models.CardBox): the piece
        # from its owner's supply onto the card, as many as the supply holds up to the
        # count; or, 'from_box', every piece on it back to its owner's supply.
        if part.from_box:
            lines = [f"        self.pool_return(self.pool_of(p, {source}))"]
        else:
            pc = r.piece_expr(part.piece)
            count = _value(part.count, code)
            take = f"self.take_loose({pc}, {count})" if takes_removed else \
                f"min({count}, self.s[S_SUPPLY + {pc}])"
            lines = [f"        d = self.pool_of(p, {source})",
                     f"        q = {take} if d >= 0 else 0",
                     "        if q > 0:",
                     f"            self.s[S_SUPPLY + {pc}] -= q",
                     f"            self.s[S_POOL + d * NP + {pc}] += q"]
    elif isinstance(part, M.IntoBoxPart):
        # As many of the piece as the supply holds, up to the count (Law 10.2.3).
        # From the box: as many as the box holds, up to the count (Law 8.2.4).
        count = _value(part.count, code)
        boxed, bx = r.piece(part.piece), r.box(part.box)
        src, dst = f"S_SUPPLY + {boxed}", f"S_BOX + p * B + {bx}"
        if part.from_box:
            src, dst = dst, src
        take = f"self.take_loose({boxed}, {count})" if takes_removed else \
            f"min({count}, self.s[{src}])"
        lines = [f"        q = {take}", "        if q > 0:",
                 f"            self.s[{src}] -= q",
                 f"            self.s[{dst}] += q"]
    elif isinstance(part, M.PlacePart):
        lines, can = _effect_place(part, r, code, inst, where, takes_removed)
    elif isinstance(part, M.IfPart):
        # Its 'then' parts follow it in the table (and a jump over its 'else' parts,
        # which follow that): where the condition does not hold, skip them and the jump.
        over = len(effect_ops(part.then)) + (1 if part.else_ else 0)
        cond = _condition(part.if_, code, "c")
        lines = [f"        if not {'0' if cond == NEVER else cond}:",
                 f"            return {over}", "        return 0"]
    elif isinstance(part, EffectJump):
        lines = [f"        return {part.over}"]
    elif isinstance(part, M.TakePart) and part.source == "others_here":
        # A random card from each other player with a piece in the program's clearing.
        inst.uses.add("hands")
        lines = ["        self.take_from_others(p, c)", "        return 0"]
    elif isinstance(part, M.TakePart):
        # p chooses a card of the discard pile (FR_ZONE_GIVE from the pile: field 7 -1,
        # 2 the kinds' mask), when one passes: public facts (Law 2.1.3).
        inst.uses.add("hands")
        mask = take_mask(part)
        match = "c" if part.matching is not None else "-1"
        lines = ([] if part.matching is None else ["        if c < 0:", "            return 0"])
        lines += [f"        if self.takeable(p, {mask}, {match}) > 0:",
                  f"            self.take_ask(p, {mask}, {match})"]
    elif isinstance(part, M.MovePart):
        # The actor chooses a move of p's warriors (FR_CHOICE, core/choices.py.j2), when
        # there is one; its count, read of the clearing left as p's, is move_count_eff_k.
        if part.piece != "warrior":
            raise ProgramError(f"{where}: an effect program's move is of 'warrior' "
                               "(EFFECT-IF)")
        inst.uses.update(("choices", "move"))
        lines = [f"        self.ask_move_warriors(actor, p, {k}, {int(part.ignore_rule)})"]
    elif isinstance(part, M.DiscardPart):
        # 'this' card, from the play area of the one carrying the program out (a card's
        # effect is used by its holder): EFFECT-PART keeps it to cards' programs.
        if part.card != "this" or source < 0:
            raise ProgramError(f"{where}: an effect program's discard is of 'this' card, "
                               "in a card's program (EFFECT-PART)")
        lines = [f"        d = self.find_in(LOC_PLAY + p, {source})", "        if d >= 0:",
                 "            self.discard(d)"]
    else:
        lines = _apply_step_part(part, r, code, inst, effect_at=at)
    who = getattr(part, "who", "self")
    skip = len(getattr(part, "otherwise", None) or ())
    d = ["    @cython.cfunc", "    @cython.exceptval(check=False)",
         f"    def do_eff_{k}(self, actor: i64, target: i64, opponent: i64, holder: i64, "
         "c: i64, ev: i64) -> i64:",
         f'        """{where}: its {part.op} (for {who}); returns how many of the ops '
         'after it to skip."""',
         f"        p: i64 = {_WHO_ARG[who]}"]
    if any("for d in" in x or x.startswith("        d = ") for x in lines):
        d.append("        d: i64")
    if any(x.startswith("        q = ") for x in lines):
        d.append("        q: i64")
    if any("n = self.hand_matching" in x for x in lines):
        d.append("        n: i64")
    if who != "self" or skip:
        d += ["        if p < 0:", f"            return {skip}"]
    d += _locals(lines)
    if not lines[-1].startswith("        return"):
        d.append("        return 0")
    code_parts = ["\n".join(d)]
    forest = isinstance(part, M.PlacePart) and isinstance(part.at, M.AtForest)
    move = isinstance(part, M.MovePart)
    if move:
        assert isinstance(part, M.MovePart)
        mcode = _Code(inst, r, hoisting=False)
        count = "-1" if part.count is None else _value(part.count, mcode)
        if count is None:
            raise ProgramError(f"{where}: move's count is left out")
        code_parts.append("\n".join([
            "    @cython.cfunc", "    @cython.exceptval(check=False)",
            f"    def move_count_eff_{k}(self, p: i64, c: i64) -> i64:",
            f'        """{where}: how many of p\'s warriors its move takes out of c (-1: '
            'any number)."""', *mcode.decls, *mcode.lines, f"        return {count}"]))
    if isinstance(part, M.PlacePart):
        code_parts.append("\n".join([
            "    @cython.cfunc", "    @cython.exceptval(check=False)",
            f"    def can_eff_{k}(self, actor: i64, c: i64, ev: i64) -> i64:",
            f'        """{where}: whether its place would place anywhere now (ev: a '
            'trigger\'s event\'s pieces)."""',
            "        p: i64 = actor", *_locals(can)]))
    if forest:
        assert isinstance(part, M.PlacePart) and isinstance(part.at, M.AtForest)
        tests = _forest_test(part.at.forest, code, "fo")
        code_parts.append("\n".join([
            "    @cython.cfunc", "    @cython.exceptval(check=False)",
            f"    def forest_ok_eff_{k}(self, p: i64, c: i64, fo: i64) -> i64:",
            f'        """{where}: whether forest fo passes its place\'s filter (c: the '
            'program\'s clearing)."""', *code.decls, *code.lines,
            f"        return 1 if {' and '.join(tests) or '1'} else 0"]))
        inst.uses.add("forest_pick")
    return EffectPart(k, "\n\n".join([*code_parts, *inst.helpers]), inst.uses,
                      can=isinstance(part, M.PlacePart), forest=forest, move=move)


def compile_hit_condition(cond, k: int, where: str, holder: M.FactionSpec | None,
                          pidx: dict[str, int]) -> str:
    """The condition of a battle ability's 'taking' (models.BattleTaking.holds), read of
    the battle clearing c for its holder p: the method ``first_hit_holds_<k>(p, c)``
    (1: the first hit p takes is ignored, Law 15.2.4), and the helpers its values call.
    No condition: always."""
    return _battle_condition(cond, f"first_hit_holds_{k}", f"hit_{k}", k, where, holder,
                             pidx, "whether the first hit p takes in battle in c is ignored")


def compile_battle_hits_condition(cond, k: int, where: str, holder: M.FactionSpec | None,
                                  pidx: dict[str, int]) -> str:
    """The condition of a battle ability's extra hits (models.BattleAttacking.holds,
    BattleDefending.holds), read of the battle clearing c for its holder p as hits are
    counted: the method ``battle_hits_holds_<k>(p, c)``.  No condition: always."""
    return _battle_condition(cond, f"battle_hits_holds_{k}", f"bhits_{k}", k, where, holder,
                             pidx, "whether p deals its extra hits in battle in c")


def compile_effect_condition(cond, k: int, where: str, holder: M.FactionSpec | None,
                             pidx: dict[str, int]) -> str:
    """An effect's 'when' (models.Effect.when), read of the battle clearing c for the
    player p who would use it: the method ``effect_when_<k>(p, c)`` (1: offered)."""
    return _battle_condition(cond, f"effect_when_{k}", f"when_{k}", k, where, holder, pidx,
                             "whether p may use the effect in battle in c")


def _battle_condition(cond, name: str, tag: str, k: int, where: str,
                      holder: M.FactionSpec | None, pidx: dict[str, int], what: str) -> str:
    """A condition of an ability read of the battle clearing c for p: the method
    ``name(p, c)`` and the helpers its values call (no condition: always)."""
    inst = Instance(k, where, -1, "", "none", -1, tag=tag)
    r = _Resolver(where, {}, holder, pidx)
    code = _Code(inst, r, hoisting=False)
    expr = "1" if cond is None else _condition(cond, code, "c")
    method = ["    @cython.cfunc", "    @cython.exceptval(check=False)",
              f"    def {name}(self, p: i64, c: i64) -> i64:",
              f'        """{where}: {what}."""',
              f"        return 1 if {'0' if expr == NEVER else expr} else 0"]
    return "\n\n".join(["\n".join(method), *inst.helpers])


def _effect_place(part: M.PlacePart, r: _Resolver, code: _Code, inst: Instance,
                  where: str, takes_removed: bool = False) -> tuple[list[str], list[str]]:
    """An effect program's placement (Law 6.2.3: the removed warriors placed in the
    keep's clearing), for p: in the program's clearing c, or in each clearing that passes
    a filter; as far as the supply allows (Law 1.5.4).  With the lines of its check:
    whether it would place anywhere (a clearing, the piece in the supply).
    ``takes_removed``: it places pieces just removed, those no other rule has taken
    (S_LOOSE); a forest of the actor's choice is asked later, and takes no count."""
    if isinstance(part.piece, (M.OfSuit, M.RandomPiece)) or \
            isinstance(part.at, (M.AtEach, M.AtEachForest)) or part.score or part.evenly \
            or part.face_down:
        raise ProgramError(f"{where}: an effect program's place puts a piece in its "
                           "clearing, in each clearing of a filter or in a forest of the "
                           "actor's choice (EFFECT-PART)")
    count = _value(part.count, code)
    if count is None:
        raise ProgramError(f"{where}: place's count is left out")
    pc = r.piece_expr(part.piece)
    supply = f"self.s[S_SUPPLY + {pc}] > 0"
    place = "self.place"
    if takes_removed and not isinstance(part.at, M.AtForest):
        # (as many as are placed are taken: a per_clearing limit may place fewer)
        supply = f"({supply} and self.s[S_LOOSE + {pc}] > 0)"
        place = "self.place_loose"
    if isinstance(part.at, M.AtForest):
        # The actor chooses the forest (asked as FR_CHOICE while one passes the filter).
        lines = [f"        if {supply}:",
                 f"            self.pick_forest(p, c, {pc}, {count}, {inst.index})"]
        can = [f"        return {supply} and self.forest_options(p, c, {inst.index}) > 0"]
        return lines, can
    if isinstance(part.at, M.AtEachClearing):
        tests = " and ".join(_clearing_test(part.at.each_clearing, code, "j")) or "1"
        # (Nowhere another player's exclusive placement forbids, Law 6.2.2.)  The player
        # chooses where short pieces go (Law 1.5.4, place_owed): its question waits above
        # the program, whose next op runs once it is answered (effect_step).  Pieces just
        # removed are placed in clearing order (one clearing, Law 6.2.3's).
        lines = ["        for j in range(C):",
                 f"            if {tests} and self.may_place(p, j):"]
        lines += [f"                {place}(p, j, {pc}, {count})"] if takes_removed else \
            [f"                self.owe(j, {pc}, {count})", f"        self.place_owed(p, {pc})"]
        can = [f"        if not {supply}:", "            return 0",
               "        for j in range(C):", f"            if {tests} and self.may_place(p, j):",
               "                return 1", "        return 0"]
    else:
        lines = ["        if c >= 0 and self.may_place(p, c):",
                 f"            {place}(p, c, {pc}, {count})"]
        can = [f"        return c >= 0 and {supply} and self.may_place(p, c)"]
    return lines, can


# ---- the general Law's menu actions with a cycle's suit and a cost (Law 10.4.3)


def compile_menu_where(entries: list[tuple[int, int, M.FactionSpec, Any]],
                       pidx: dict[str, int]) -> str:
    """The methods the battle and march entries that name a 'suit_of', a 'cost' or a
    'when' call (``entries``: each entry's index in the menu tables, its faction's index,
    the faction, the entry): ``menu_suits(m, p)`` the suits its clearings may be of (a
    bitmask: the suit the cycle's marker is on, or all three), ``menu_payable(m, p)``
    whether it is offered now (its 'when' holds, its cost can be paid), ``menu_pay(m,
    p)`` paying it (the box's warriors back to the supply, as many as the count says,
    read as it is paid)."""
    suits = ["        return 7"]
    payable = ["        return 1"]
    pay = ["        return 0"]
    helpers: list[str] = []
    for m, fi, faction, entry in reversed(entries):
        name = f"menu {entry.action}"
        r = _Resolver(name, {}, faction, pidx, fi)
        inst = Instance(-1, name, fi, "", "none", -1, tag=f"menu_{m}")
        code = _Code(inst, r, hoisting=False)
        if entry.suit_of is not None:
            suits[:0] = [f"        if m == {m}:",
                         f"            return 1 << {_stage_suit(entry.suit_of, code)}"]
        tests = []
        if entry.when is not None:
            # Offered only while the condition holds (Law 12.5.2): read before anything
            # is chosen, so of no clearing (models: VALUE-INVALID where it reads one;
            # a count of clearings passes -1 to its helper, which reads none).
            if any(True for _ in M.reads_chosen(entry.when, ())):
                raise ProgramError(f"{name}: its 'when' reads a chosen clearing, card or "
                                   "piece, and none is chosen (validation reports it: "
                                   "VALUE-INVALID)")
            cond = _condition(entry.when, code, "-1")
            tests.append("0" if cond == NEVER else cond)
        if entry.cost is not None:
            count = _value(entry.cost.count, code)
            if count is None:
                raise ProgramError(f"{name}: its cost's count is left out")
            box = f"S_BOX + p * B + {r.box(entry.cost.box)}"
            tests.append(f"self.s[{box}] >= {count}")
            pay[:0] = [f"        if m == {m}:",
                       *_transfer(box, f"S_SUPPLY + {r.piece(entry.cost.piece)}", count, "q",
                                  "            "),
                       "            return 0"]
        if tests:
            assert not code.decls and not code.lines  # (nothing hoisted: hoisting off)
            payable[:0] = [f"        if m == {m}:",
                           f"            return {' and '.join(tests)}"]
        helpers += inst.helpers
    deco = ["    @cython.cfunc", "    @cython.exceptval(check=False)"]
    return "\n".join([
        *deco, "    def menu_suits(self, m: i64, p: i64) -> i64:",
        '        """The suits (a bitmask) of the clearings a menu entry acts in."""', *suits,
        "", *deco, "    def menu_payable(self, m: i64, p: i64) -> i64:",
        '        """Whether a menu entry is offered now: its \'when\' holds, its cost can be '
        'paid."""', *payable,
        "", *deco, "    def menu_pay(self, m: i64, p: i64) -> i64:",
        '        """Pay a menu entry\'s cost."""', "        q: i64", *pay,
        *(f"\n{x}" for x in helpers)])
