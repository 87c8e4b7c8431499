"""Semantic checks: what makes content playable, beyond what the schema can say.

The schema says a map has clearings and paths; these checks say that the paths join
every clearing, that there are corners for every faction that sets up in one, that setup
finds room for the buildings it places.  A check is a small function registered in
``CHECKS`` with a stable code, a severity, the kind of content it reads and a one-line
summary; ``docs/validation.md`` is generated from the table (``rootlaw validate
--list-checks``) and a test fails when it is stale.

Document checks read one map, deck or faction; bundle checks read a map, a deck and the
factions together (corners against the factions' home setups, a faction's cards against
the deck's).  A check yields ``(loc, message)`` (document) or ``(document, loc,
message)`` (bundle); the runners turn them into located Diagnostics.

Errors mean a game on this content breaks or departs from the Law: ``resolve`` refuses
them and ``rootlaw validate`` exits 1.  Warnings are worth a look but do not break a
game (``rootlaw validate --strict`` fails on them too).

Effects are data too (abilities of factions and persistent cards, immediate cards'
programs): an op the engine does not have is the loader's VALUE-INVALID; the checks
here find programs that cannot run where they stand (a battle op outside a battle, an op
that needs a target the effect never chooses, actions inside a window) and cards that
do nothing (not craftable).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeGuard

from pydantic import BaseModel

from . import models as M
from .diagnostics import (
    INPUT_CODES,
    LOADER_CODES,
    MAX_PER_FILE,
    PLAY_CODES,
    Diagnostic,
    too_many,
    unlocated,
    with_lines,
)
from .words import did_you_mean, quoted, suggestion

Loc = tuple


@dataclass(frozen=True)
class Check:
    code: str
    severity: str  # "error" | "warning"
    scope: str  # "map" | "deck" | "faction" | "faction, deck" | "bundle"
    summary: str
    law: str
    example: str
    fn: Callable[..., Iterable]


CHECKS: list[Check] = []

_SCOPE_TYPES: dict[str, Any] = {
    "map": M.MapSpec, "deck": M.DeckSpec, "faction": M.FactionSpec,
    "faction, deck": (M.FactionSpec, M.DeckSpec),  # effects live in both
    "library": M.LibrarySpec,
    "faction, deck, library": (M.FactionSpec, M.DeckSpec, M.LibrarySpec),
}
USES = "uses"
"""The scope of the checks of programs where they are used: each menu entry that runs a
program of the bundle's libraries, for its faction (for a card's menu, every faction),
on each map (the function gets the map, the deck, the factions and the programs)."""


def check(code: str, severity: str, scope: str, summary: str, law: str = "", *,
          example: str):
    """Register a check (the decorated function yields its findings)."""
    assert severity in ("error", "warning") and \
        (scope in _SCOPE_TYPES or scope in ("bundle", USES))

    def register(fn: Callable[..., Iterable]) -> Callable[..., Iterable]:
        CHECKS.append(Check(code, severity, scope, summary, law, example, fn))
        return fn

    return register


# --------------------------------------------------------------------------- helpers


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def _adjacency(m: M.MapSpec, rivers: bool = False) -> dict[int, set[int]]:
    """Clearings linked by a path (Law 2.3), and by a river too where rivers are paths
    (models.Moving)."""
    adj: dict[int, set[int]] = {c.id: set() for c in m.clearings}
    for a, b in [*m.paths, *(m.rivers if rivers else [])]:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def _index(m: M.MapSpec) -> dict[int, int]:
    return {c.id: i for i, c in enumerate(m.clearings)}


def _free_slots(c: M.Clearing) -> int:
    return c.slots - (1 if c.ruin else 0)


def _programs(f: M.FactionSpec) -> Iterator[tuple[Loc, list]]:
    yield ("setup",), f.setup
    for ph in ("birdsong", "daylight", "evening"):
        yield ("turn", ph), getattr(f.turn, ph)
    for name, steps in f.hooks.items():
        yield ("hooks", name), steps


NEEDS_HOME = (M.SetupBuildingsNearHome,)
"""Engine setup steps that work from the home (a program's are those whose filters read
it: SETUP-NO-HOME at uses)."""


def _step_program(s: Any, programs: dict[str, Library] | None = None) -> M.Program | None:
    """The program a step names: of the bundle's libraries (``programs``, a check of the
    uses), or of the standard library alone (a faction check sees the faction alone, so
    a pack's own programs are validated at their uses)."""
    if not isinstance(s, M.ProgramStep):
        return None
    if programs is not None:
        lib = programs.get(s.op)
        return lib.program if lib is not None else None
    from .bundle import standard_library  # the bundle module imports this one
    return standard_library().programs.get(s.op)


def takes_home(s: Any, programs: dict[str, Library] | None = None) -> bool:
    """Whether a step takes a home: its program's 'take_home' (Law 6.3.1, 7.3.1: the
    standard setup_home_token, setup_home_corner; with ``programs``, a pack's own too,
    Law 10.3.2's and any other faction's that chooses its home by its own rules)."""
    prog = _step_program(s, programs)
    return prog is not None and any(isinstance(x, M.TakeHomePart) for x in prog.do)


def home_building(s: Any) -> str | None:
    """The building a step that takes a home places in it (its program's 'place' of a
    building parameter: setup_home_corner's), or None."""
    prog = _step_program(s)
    if prog is None or not takes_home(s):
        return None
    assert isinstance(s, M.ProgramStep)
    types = prog.param_types()
    for part in prog.do:
        if isinstance(part, M.PlacePart) and isinstance(part.piece, str) and \
                part.piece.startswith("$") and types.get(part.piece[1:]) == "building":
            v = s.fields().get(part.piece[1:])
            return v if isinstance(v, str) else None
    return None


def _is_setup_step(s: Any) -> bool:
    return isinstance(s, NEEDS_HOME) or takes_home(s)


def home_steps(f: M.FactionSpec, programs: dict[str, Library] | None = None) -> list[int]:
    """The setup steps that take a home (``programs``: the bundle's, a pack's own
    programs counted; without, the standard library's)."""
    return [i for i, s in enumerate(f.setup) if takes_home(s, programs)]


def _duplicates(ids: Iterable[str]) -> Iterator[tuple[int, str, int]]:
    """(index, id, index of the first) for each id seen before."""
    first: dict[str, int] = {}
    for i, x in enumerate(ids):
        if x in first:
            yield i, x, first[x]
        else:
            first[x] = i


# --------------------------------------------------------------------------- maps


@check("MAP-DISCONNECTED", "error", "map",
       "Some clearings cannot be reached from the others along paths: pieces never meet "
       "there, and a game can fail to end.", "2.2.1",
       example='`"paths": [[1, 2], [3, 4]]`: 1-2 and 3-4 never meet')
def _connected(m: M.MapSpec):
    adj = _adjacency(m)
    start = m.clearings[0].id
    seen = {start}
    todo = [start]
    while todo:
        for n in adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    cut = [c.id for c in m.clearings if c.id not in seen]
    if cut:
        i = _index(m)[cut[0]]
        yield ("clearings", i, "id"), (
            f"clearing{'s' if len(cut) > 1 else ''} {', '.join(map(str, cut))} "
            f"cannot be reached from clearing {start} along paths")


@check("MAP-NO-CORNER", "error", "map",
       "The map has no corner clearing: factions that start in a corner cannot set up.",
       "6.3.2, 7.3.2",
       example='no clearing has `"corner": true`')
def _has_corners(m: M.MapSpec):
    if not any(c.corner for c in m.clearings):
        yield ("clearings",), "no clearing is a corner ('corner': true)"


@check("MAP-OPPOSITE", "error", "map",
       "'opposite_corners' is empty, names a clearing that is not a corner, names a "
       "corner twice, or leaves a corner without its opposite: setup (a warrior "
       "everywhere but the opposite corner) and bird dominance need every corner paired.",
       "3.3.1, 6.3.3, 7.3.2",
       example='`"opposite_corners": [[1, 5]]` where 5 is not a corner')
def _opposites(m: M.MapSpec):
    corners = {c.id for c in m.clearings if c.corner}
    if not corners:
        return  # MAP-NO-CORNER says it
    if not m.opposite_corners:
        yield ("opposite_corners",), "no opposite corners are listed"
        return
    paired: dict[int, int] = {}
    for i, pair in enumerate(m.opposite_corners):
        for j, x in enumerate(pair):
            if x not in corners:
                yield ("opposite_corners", i, j), f"clearing {x} is not a corner"
            elif x in paired:
                yield ("opposite_corners", i, j), \
                    f"corner {x} is already paired (at /opposite_corners/{paired[x]})"
            else:
                paired[x] = i
    idx = _index(m)
    for c in sorted(corners - set(paired)):
        yield ("clearings", idx[c], "corner"), f"corner {c} has no opposite corner"


@check("MAP-SLOTS-NONE", "error", "map",
       "A clearing with no building slots: no building can ever stand there, and a "
       "setup that places buildings near a home may find no room.", "2.2.3",
       example='`{"id": 7, "suit": "fox", "slots": 0}`')
def _slots(m: M.MapSpec):
    for i, c in enumerate(m.clearings):
        if c.slots == 0:
            yield ("clearings", i, "slots"), f"clearing {c.id} has no building slots"


@check("MAP-RUIN-SLOT", "error", "map",
       "A ruin on a clearing with no slot to spare: the ruin fills a slot, so the "
       "clearing needs at least two.", "2.2.4",
       example='`{"id": 6, "suit": "fox", "slots": 1, "ruin": true}`')
def _ruins(m: M.MapSpec):
    for i, c in enumerate(m.clearings):
        if c.ruin and c.slots < 2:
            yield ("clearings", i, "ruin"), (
                f"clearing {c.id} has {c.slots} slot{'' if c.slots == 1 else 's'}: a ruin "
                "there leaves no room for a building")


@check("MAP-LINK-DUP", "error", "map",
       "A path or river listed twice (in either direction).", "2.2.1, 2.3",
       example='`"paths": [[1, 5], [5, 1]]`')
def _link_dups(m: M.MapSpec):
    for group, pairs in (("paths", m.paths), ("rivers", m.rivers)):
        first: dict[tuple[int, int], int] = {}
        for i, (a, b) in enumerate(pairs):
            key = _pair(a, b)
            if key in first:
                yield (group, i), f"{a}-{b} is already listed at /{group}/{first[key]}"
            else:
                first[key] = i


@check("MAP-RIVER-PATH", "error", "map",
       "A river between two clearings that a path already joins: rivers are not paths, "
       "and one link cannot be both.", "2.3",
       example='`"paths": [[4, 7]], "rivers": [[7, 4]]`')
def _river_paths(m: M.MapSpec):
    paths = {_pair(a, b): i for i, (a, b) in enumerate(m.paths)}
    for i, (a, b) in enumerate(m.rivers):
        if _pair(a, b) in paths:
            yield ("rivers", i), (f"river {a}-{b} repeats the path at "
                                  f"/paths/{paths[_pair(a, b)]}")


@check("MAP-FOREST", "error", "map",
       "A forest that touches fewer than two clearings or lists a clearing twice, or a "
       "forest listed as adjacent to itself: forests are areas enclosed by paths and "
       "clearings.", "2.4, 2.4.1",
       example='`{"id": "5", "clearings": [5]}`')
def _forests(m: M.MapSpec):
    for i, f in enumerate(m.forests):
        for j, _x, k in _duplicates(map(str, f.clearings)):
            yield ("forests", i, "clearings", j), \
                f"forest {f.id}: clearing {f.clearings[j]} is listed twice (first at {k})"
        if len(set(f.clearings)) < 2:
            yield ("forests", i, "clearings"), \
                f"forest {f.id} touches {len(set(f.clearings))} clearing(s); a forest " \
                "lies between at least two"
    for i, (a, b) in enumerate(m.forest_adjacency):
        if a == b:
            yield ("forest_adjacency", i), f"forest {a} is listed as adjacent to itself"


@check("ID-DUP", "error", "map", "Two forests with one id.",
       example='two forests `"id": "1_2_5"`')
def _forest_ids(m: M.MapSpec):
    for i, fid, k in _duplicates(f.id for f in m.forests):
        yield ("forests", i, "id"), f"duplicate forest id {fid!r} (first at /forests/{k})"


@check("MAP-FOREST-ID", "warning", "map",
       "A forest id that is not its clearings' numbers, sorted and joined by '_' (the "
       "convention that keeps forest ids stable across files).",
       example='`{"id": "north", "clearings": [1, 2, 5]}`')
def _forest_id_convention(m: M.MapSpec):
    for i, f in enumerate(m.forests):
        want = "_".join(str(x) for x in sorted(set(f.clearings)))
        if f.id != want:
            yield ("forests", i, "id"), f"forest {f.id!r} would be named {want!r}"


@check("MAP-SUIT-MISSING", "warning", "map",
       "A suit with no clearing on the map: cards of that suit can never be spent for a "
       "matching clearing, and crafting pieces never produce it.", "2.2.2",
       example='no clearing has `"suit": "mouse"`')
def _suits(m: M.MapSpec):
    have = {c.suit for c in m.clearings}
    missing = [s for s in ("fox", "rabbit", "mouse") if s not in have]
    if missing:
        yield ("clearings",), f"no {' or '.join(missing)} clearing"


# --------------------------------------------------------------------------- factions


@check("SETUP-HOME-TWICE", "error", "faction",
       "A setup program with more than one home step (setup_home_token, "
       "setup_home_corner): the faction takes two corners and places more buildings "
       "than its home can hold.", "6.3.2, 7.3.2",
       example='`"setup": [{"op": "setup_home_corner", ...}, {"op": "setup_home_corner", ...}]`')
def _home_twice(f: M.FactionSpec):
    homes = home_steps(f)
    for i in homes[1:]:
        yield ("setup", i), (f"step {f.setup[i].op}: the setup already took a home at "
                             f"/setup/{homes[0]}")


@check("SETUP-NO-HOME", "error", "faction",
       "A setup step that works from the faction's home (setup_buildings_near_home) "
       "before any home step chose it.", "6.3.4",
       example='`"setup": [{"op": "setup_buildings_near_home", "buildings": ["sawmill"]}]`')
def _needs_home(f: M.FactionSpec):
    homes = home_steps(f)
    for i, s in enumerate(f.setup):
        if isinstance(s, NEEDS_HOME) and not any(h < i for h in homes):
            yield ("setup", i), f"step {s.op} needs a home, but no earlier step takes one"


def _program_reads_home(prog: M.Program) -> bool:
    """Whether a clearing filter of the program, at any depth, tests the actor's home."""
    return any(isinstance(x, M.ClearingFilter) and
               (x.home is not None or x.opposite_home in (True, False))
               for x in M.walk(prog.do))


@check("REF-UNDEF", "error", USES,
       "A step's cycle parameter (the standard advance_cycle's 'cycle') naming no cycle "
       "of the faction's.",
       example='`{"op": "advance_cycle", "cycle": "tyde"}` with a cycle `tide`')
def _cycle_params(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    for use in _step_uses(fs, programs):
        ids = [c.id for c in use.faction.cycles]
        for name, typ in use.lib.program.param_types().items():
            v = use.params.get(name)
            if typ == "cycle" and isinstance(v, str) and v not in ids:
                yield use.doc, (*use.loc, name), (
                    f"step {use.name}: {M.unknown('cycle', v, ids)}" +
                    ("" if ids else " (the faction's 'cycles' define it)"))


def _located(obj: Any, at: tuple) -> Iterator[tuple[tuple, BaseModel]]:
    """(where, model) of every model in a part, obj itself first, its pointer in the
    file's own keys (a field's alias; a map's key: a library's programs, a faction's
    hooks)."""
    if isinstance(obj, BaseModel):
        yield at, obj
        for name, info in type(obj).model_fields.items():
            yield from _located(getattr(obj, name), (*at, info.alias or name))
    elif isinstance(obj, (list, tuple)):
        for j, v in enumerate(obj):
            yield from _located(v, (*at, j))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _located(v, (*at, k))


def _cycle_reads(use: _Use) -> Iterator[tuple[tuple, str, str, str | None]]:
    """(where, what, the cycle's name as written, the stage) of each read or setting of a
    cycle in a used program: a filter's suit of a cycle ('suit'), a condition at a stage
    ('stage'), a choice of a stage ('choose'), a 'set_stage' ('set'; 'move', on 'by' stages)."""
    for where, x in _located(use.lib.program.do, ("do",)):
        if isinstance(x, M.ClearingFilter) and x.suit_of is not None:
            yield (*where, "suit_of"), "suit", x.suit_of, None
        elif isinstance(x, M.AtStage):
            yield (*where, "cycle"), "stage", x.cycle, x.at_stage
        elif isinstance(x, M.ChoosePart) and x.stage is not None:
            yield (*where, "stage"), "choose", x.stage, None
        elif isinstance(x, M.SetStagePart) and x.by is not None:
            yield (*where, "cycle"), "move", x.cycle, None  # on by some stages
        elif isinstance(x, M.SetStagePart):
            yield (*where, "cycle"), "set", x.cycle, x.stage


def _cycle_named(use: _Use, ref: str) -> Any:
    """The cycle of the use's faction a program's name stands for (None: none; the name
    itself when it is no cycle of the faction's)."""
    name = use.params.get(ref[1:], _UNBOUND) if ref.startswith("$") else ref
    if name is _UNBOUND or not isinstance(name, str):
        return None
    return next((c for c in use.faction.cycles if c.id == name), name)


@check("CYCLE-STAGE", "error", USES,
       "A program reads the suit a cycle's marker is on (a filter's `suit_of`) of a cycle "
       "whose stages are not all suits (fox, rabbit, mouse), or names "
       "no cycle of the faction's (a suit read, `at_stage`, a stage's choice, "
       "`set_stage`), at a use; or `at_stage` or `set_stage` names a stage its cycle has "
       "not, or `set_stage` puts the marker on the 'chosen' stage of a cycle whose stage "
       "the program's first choice does not choose.", "10.3.3, 10.4.3",
       example='`{"suit_of": "$outcast"}` bound to a cycle of stages `[\"spring\", '
               '\"summer\"]`')
def _cycle_stage(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        act = use.name
        first = use.lib.program.do[0]
        chosen = _cycle_named(use, first.stage) if isinstance(first, M.ChoosePart) and \
            first.stage is not None else None
        for where, what, ref, stage in _cycle_reads(use):
            cy = _cycle_named(use, ref)
            at = _at(use, where)
            if isinstance(cy, str):
                ids = [c.id for c in use.faction.cycles]
                yield use.doc, use.loc, (f"{act}: program {act} names cycle {ref!r} at {at}: "
                                         f"{M.unknown('cycle', cy, ids)}")
            elif cy is None:
                continue
            elif what == "suit" and (bad := [x for x in cy.stages
                                              if x not in ("fox", "rabbit", "mouse")]):
                yield use.doc, use.loc, (
                    f"{act}: program {act} reads the suit of cycle {cy.id} at {at}, and its "
                    f"stages {', '.join(repr(x) for x in bad)} are no suits (fox, rabbit, "
                    "mouse)")
            elif what == "set" and stage == "chosen" and chosen is not cy:
                yield use.doc, use.loc, (
                    f"{act}: program {act} puts cycle {cy.id}'s marker on the chosen stage "
                    f"at {at}, and its first choice chooses no stage of {cy.id}")
            elif stage is not None and stage != "chosen" and stage not in cy.stages:
                yield use.doc, use.loc, (
                    f"{act}: program {act} names stage {stage!r} of cycle {cy.id} at {at}: "
                    f"{M.unknown('stage', stage, list(cy.stages))}")


@check("SETUP-NO-HOME", "error", USES,
       "A step whose program's clearing filters read the faction's home (home, "
       "opposite_home: the standard setup_warriors_everywhere) while no earlier setup "
       "step took one: in setup, before the home step; in a turn, with no home step.",
       "6.3.3, 10.3.2",
       example='`"setup": [{"op": "setup_warriors_everywhere"}]`')
def _program_needs_home(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                        programs: dict[str, Library]):
    for use in _step_uses(fs, programs):
        prog = use.lib.program
        if not _program_reads_home(prog):
            continue
        took = next((i for i, x in enumerate(prog.do) if isinstance(x, M.TakeHomePart)), None)
        if took is not None and not _program_reads_home(
                prog.model_copy(update={"do": prog.do[:took]})):
            continue  # it takes the home itself before it reads it (Law 10.3.2)
        homes = home_steps(use.faction, programs)
        in_setup = use.loc[0] == "setup"
        if not any(h < use.loc[1] for h in homes) if in_setup else not homes:
            yield use.doc, use.loc, (f"step {use.name} reads the faction's home, but no "
                                    f"{'earlier ' if in_setup else ''}setup step takes one")


@check("STEP-SETUP-ONLY", "error", "faction",
       "A setup step (setup_home_token, setup_home_corner, setup_buildings_near_home) in a "
       "turn or hook program.", "5.1.7",
       example='`"birdsong": [{"op": "setup_home_token", "token": "keep"}]`')
def _setup_only(f: M.FactionSpec):
    for base, steps in _programs(f):
        if base == ("setup",):
            continue
        for i, s in enumerate(steps):
            if _is_setup_step(s):
                yield (*base, i), f"step {s.op} belongs in 'setup'"


@check("TRACK-LENGTH", "error", "faction",
       "A track row ('cost' or 'vp') that is not as long as the pieces it governs: each "
       "space is one building, so a short row makes the extra buildings free (or "
       "pointless) and a long one has spaces no building reaches.", "6.3.5, 6.5.4, 7.3.5",
       example='`{"kind": "building", "count": 6, "track": {"cost": [0, 1, 2]}}`')
def _track_length(f: M.FactionSpec):
    for pid, p in f.pieces.items():
        if p.track is None:
            continue
        for row in ("cost", "vp"):
            values = getattr(p.track, row)
            if values and len(values) != p.count:
                yield ("pieces", pid, "track", row), (
                    f"{pid}: {len(values)} {row} value{'s' if len(values) != 1 else ''} "
                    f"for {p.count} pieces")


@check("TRACK-DRAW-AT", "error", "faction",
       "A card-draw bonus ('draw_at') that no number of buildings reaches, or thresholds "
       "out of order: each is the count of buildings on the map (1 to the supply) that "
       "uncovers the bonus.", "6.6, 7.6.2",
       example='`"count": 6, "track": {"draw_at": [5, 3]}`')
def _track_draw_at(f: M.FactionSpec):
    for pid, p in f.pieces.items():
        if p.track is None:
            continue
        last = 0
        for i, t in enumerate(p.track.draw_at):
            if not 1 <= t <= p.count:
                yield ("pieces", pid, "track", "draw_at", i), \
                    f"{pid}: a bonus at {t} buildings, but there are 1 to {p.count}"
            elif t <= last:
                yield ("pieces", pid, "track", "draw_at", i), \
                    f"{pid}: thresholds must increase ({t} after {last})"
            last = max(last, t)


# The piece kinds each field takes: where a building or a token is required, another
# kind is an error the engine would not notice (a warrior "built", a token "recruited at").
_KINDS: dict[tuple[type, str], tuple[str, ...]] = {
    (M.FactionSpec, "crafting_piece"): ("building", "token"),
    (M.CraftingPieces, "among"): ("building", "token"),
    (M.PlaceAtBuildings, "piece"): ("warrior", "token"),
    (M.PlaceAtBuildings, "building"): ("building",),
    (M.SetupBuildingsNearHome, "buildings"): ("building",),
    (M.ExclusivePlacement, "token"): ("token",),
    (M.Zone, "unlimited_while"): ("building",),
    (M.Box, "piece"): ("warrior",),
    (M.Trigger, "pieces"): ("warrior", "building", "token"),
    (M.Trigger, "token"): ("token",),
}


_REFS: list[Any] = [None, []]
"""The faction whose piece references were walked last, and them: five checks read them
(found by fuzzing: walking a 20,000-step setup five times made validate take 2.3 s)."""


def _piece_refs(f: M.FactionSpec) -> Iterator[tuple[Loc, Any, str, str]]:
    """(loc, model, field, piece id) of every piece a faction's entries name."""
    if _REFS[0] is not f:
        _REFS[:] = [f, list(_walk_piece_refs(f))]
    return iter(_REFS[1])


def _walk_piece_refs(f: M.FactionSpec) -> Iterator[tuple[Loc, Any, str, str]]:
    def refs(loc: Loc, obj: Any) -> Iterator[tuple[Loc, Any, str, str]]:
        for (cls, name), _kinds in _KINDS.items():
            if isinstance(obj, cls):
                v = getattr(obj, name)
                if isinstance(v, list):
                    for j, x in enumerate(v):
                        yield (*loc, name, j), obj, name, x
                elif isinstance(v, str):
                    yield (*loc, name), obj, name, v

    yield from refs((), f)
    if isinstance(f.crafting_piece, M.CraftingPieces):
        yield from refs(("crafting_piece",), f.crafting_piece)
    for i, z in enumerate(f.zones):
        yield from refs(("zones", i), z)
    for i, b in enumerate(f.boxes):
        yield from refs(("boxes", i), b)
    for i, a in enumerate(f.abilities):
        yield from refs(("abilities", i), a)
        for j, op in enumerate(getattr(a, "do", [])):
            for k, m in enumerate(getattr(op, "menu", [])):
                yield from refs(("abilities", i, "do", j, "menu", k), m)
    for i, c in enumerate(f.columns):
        yield from refs(("columns", i), c)
    for base, steps in _programs(f):
        for i, s in enumerate(steps):
            yield from refs((*base, i), s)
            if isinstance(s, M.Actions):
                for k, m in enumerate(s.menu):
                    yield from refs((*base, i, "menu", k), m)


@check("PIECE-KIND", "error", "faction",
       "A piece of the wrong kind where a building, a token or a warrior is required (a "
       "token named as a building to recruit at, a warrior as a payment token, a box "
       "that holds a building, unless it is a tally of several kinds ...), a track "
       "under a warrior, or a 'per_clearing' limit on "
       "a warrior or a building: only a token's placement keeps to it (warriors move in "
       "past any limit, and a building that finds no room would be paid for and not "
       "placed).", "8.2.5.I",
       example='`{"action": "recruit_all", "building": "wood"}` where wood is a token')
def _piece_kinds(f: M.FactionSpec):
    for pid, p in f.pieces.items():
        if p.track is not None and p.kind == "warrior":
            yield ("pieces", pid, "track"), \
                f"{pid} is a warrior; only buildings and tokens have tracks"
        if p.per_clearing is not None and p.kind != "token":
            yield ("pieces", pid, "per_clearing"), \
                f"{pid} is a {p.kind}; only tokens have a per_clearing limit"
    for loc, obj, name, pid in _piece_refs(f):
        kinds = next(k for (cls, n), k in _KINDS.items() if isinstance(obj, cls) and n == name)
        named = f.pieces.get(pid)
        if isinstance(obj, M.Box) and obj.tally:
            continue  # a tally of pieces taken out of play: of any kind
        if named is not None and named.kind not in kinds:
            what = getattr(obj, "op", None) or getattr(obj, "action", None) or \
                getattr(obj, "kind", None) or type(obj).__name__.lower()
            yield loc, (f"{what} {name}: {pid!r} is a {named.kind}, expected "
                        f"{' or '.join(kinds)}")


def _program_of(s: Any, programs: dict[str, Library]) -> M.Program | None:
    """The program a step runs (None: an engine step, or a name no library has)."""
    lib = programs.get(s.op) if isinstance(s, M.ProgramStep) else None
    return lib.program if lib is not None else None


def _turn_programs(f: M.FactionSpec, programs: dict[str, Library]) -> Iterator[Any]:
    """Every program a faction's turn may run: its steps', its menu entries', its hooks'
    (run_stage's, a column's failure) and its columns' (None for a name no library has)."""
    steps = [s for ph in ("birdsong", "daylight", "evening") for s in getattr(f.turn, ph)]
    steps += [s for h in f.hooks.values() for s in h]
    for s in steps:
        if isinstance(s, M.ProgramStep):
            yield _program_of(s, programs)
        elif isinstance(s, M.ChooseRole) and s.then is not None:
            lib = programs.get(s.then)
            yield lib.program if lib is not None else None
        elif isinstance(s, M.Actions):
            for entry in s.menu:
                if isinstance(entry, M.ProgramEntry):
                    lib = programs.get(entry.action)
                    yield lib.program if lib is not None else None
    for col in f.columns:
        for _, way in col.ways():
            if way.action not in M.COLUMN_ROUTINES:
                lib = programs.get(way.action)
                yield lib.program if lib is not None else None


@check("TURN-NO-DRAW", "warning", USES,
       "A turn nothing of which draws cards into the hand (a 'draw' part, as the standard "
       "'draw' step's, at any depth of a program its steps, menu entries, hooks or columns "
       "run): the faction's cards only run out (every faction of the Law draws in its "
       "Evening), and a game can stall with no cards left to play.",
       "6.6, 7.6.2",
       example='`"evening": [{"op": "discard_down_to", "limit": 5}]`')
def _draws(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
           programs: dict[str, Library]):
    for f in fs:
        progs = list(_turn_programs(f, programs))
        if any(prog is None for prog in progs):
            continue  # a program of its pack's (validated alone) or none (PROGRAM-REF)
        if not any(isinstance(part, M.DrawPart) and part.into is None
                   for prog in progs for _, part in M.flat_parts(prog.do)):
            yield f, ("turn",), ("nothing in the turn draws cards (no program its steps, "
                                 "menu entries, hooks or columns run has a 'draw')")


# Parts of a step's program that may ask the player: a choice, which cards to spend,
# which clearing pays.
_ASKING_PARTS = (M.ChoosePart, M.SpendPart, M.PayPart)
_AUTOMATIC = (M.StopPart,)
"""Engine steps that never ask the player anything: they run on their own."""


def _may_ask(s: Any, f: M.FactionSpec, programs: dict[str, Library]) -> bool:
    if isinstance(s, M.Actions):
        return s.count != 0 or s.extra_action_suit is not None
    if isinstance(s, M.RunStage):  # asks what one of the hooks it runs asks
        return any(not isinstance(x, M.RunStage) and _may_ask(x, f, programs)
                   for h in s.hooks.values() for x in f.hooks.get(h, []))
    if isinstance(s, M.ProgramStep):
        prog = _program_of(s, programs)
        return prog is None or any(isinstance(part, _ASKING_PARTS) for part in prog.do)
    return not isinstance(s, _AUTOMATIC)


@check("TURN-NO-DECISION", "error", USES,
       "A turn in which nothing ever asks the player anything (only automatic steps, such "
       "as stop or a step whose program neither chooses nor spends nor pays, like "
       "draw and score_track, or actions with a count of 0, and no usable effect): the "
       "faction never acts, and a game seating only such factions turns forever without a "
       "decision.", "5.2",
       example='`"turn": {"evening": [{"op": "draw", "count": 1}]}`')
def _turn_decides(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    for f in fs:
        steps = [s for ph in ("birdsong", "daylight", "evening") for s in getattr(f.turn, ph)]
        usable = any(isinstance(a, M.Effect) and not a.timing.startswith("battle_")
                     for a in f.abilities)
        if not usable and not any(_may_ask(s, f, programs) for s in steps):
            yield f, ("turn",), "no step of the turn asks the player to decide anything"


@check("ZONE-CAPACITY", "warning", "faction",
       "A zone whose capacity is 0 and is never lifted: every card gained into it is "
       "discarded at once, so spending from it is never possible.", "8.2.3.I",
       example='`{"id": "supporters", "capacity": 0}`')
def _zone_capacity(f: M.FactionSpec):
    for i, z in enumerate(f.zones):
        if z.capacity == 0 and not z.unlimited_while:
            yield ("zones", i, "capacity"), f"zone {z.id} can never hold a card"


@check("ZONE-DISCARDS", "error", "faction",
       "A zone that takes every card spent or discarded (takes_discards) but is face down "
       "or has a capacity: such a pile is public and takes every card (Law 10.2.6), so "
       "hiding its cards or capping it would lose cards the table saw go there.",
       "10.2.6", example='`{"id": "lost-souls", "takes_discards": true}` (face down)')
def _zone_discards(f: M.FactionSpec):
    for i, z in enumerate(f.zones):
        if not z.takes_discards:
            continue
        if z.face_down:
            yield ("zones", i, "face_down"), (
                f"zone {z.id} takes discards, so it is face up: add \"face_down\": false")
        if z.capacity is not None:
            yield ("zones", i, "capacity"), f"zone {z.id} takes discards: it has no capacity"


@check("ID-DUP", "error", "faction",
       "Two abilities, faction cards, roles, columns, zones or boxes of one faction with "
       "one id; or a list of pieces (a step's or a menu entry's buildings, a trigger's "
       "pieces, a zone's unlimited_while ...) or a role's tuck naming one twice: these "
       "lists are sets, and a name given twice does not count twice.",
       example='two abilities `"id": "the-keep"`; `"unlimited_while": ["base", "base"]`')
def _faction_ids(f: M.FactionSpec):
    for group, what in (("abilities", "ability"), ("cards", "card"), ("columns", "column"),
                        ("roles", "role"), ("zones", "zone"), ("boxes", "box")):
        for i, x, k in _duplicates(e.id for e in getattr(f, group)):
            yield (group, i, "id"), f"duplicate {what} id {x!r} (first at /{group}/{k})"
    # The engine keeps such lists as sets of bits: a repeat does not place, lift or
    # tuck twice (found by fuzzing: it set another piece's bit instead).
    lists: dict[Loc, list[str]] = {}
    for loc, obj, name, pid in _piece_refs(f):
        if isinstance(getattr(obj, name), list):
            lists.setdefault(loc[:-1], []).append(pid)
    for i, r in enumerate(f.roles):
        lists[("roles", i, "tuck")] = list(r.tuck)
    for base, names in lists.items():
        for j, x, k in _duplicates(names):
            yield (*base, j), f"{x!r} is named twice (first at /{'/'.join(map(str, base))}/{k})"


@check("ID-DUP", "error", "deck",
       "A card's trigger naming one piece twice in its 'pieces' (a set: a name given twice "
       "does not count twice).",
       example='`"pieces": ["roost", "roost"]`')
def _deck_piece_lists(d: M.DeckSpec):
    for i, c in enumerate(d.cards):
        for j, a in enumerate(c.abilities):
            for k, x, first in _duplicates(getattr(a, "pieces", [])):
                yield ("cards", i, "abilities", j, "pieces", k), \
                    f"card {c.id}: {x!r} is named twice (first at index {first})"


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class _Program:
    """An effect program and what it stands in: a usable effect (its timing and target),
    a trigger, or an immediate card's on_craft."""

    loc: Loc          # the program's owner: an ability, or a card (for on_craft)
    key: str          # 'do' or 'on_craft'
    ops: list
    battle: bool      # runs in a battle (battle timings)
    player: bool      # has a player to act on ('target': a chosen player; a trigger's other)
    clearing: bool    # has a clearing (a chosen one, the battle's, the event's)
    phase: bool       # an effect of a phase, at its start or between actions (actions
    #                   may be taken there: no action is interrupted, Law 1.4.2)
    where: str        # for messages


def _programs_of(abilities: list, base: Loc) -> Iterator[_Program]:
    for i, a in enumerate(abilities):
        loc = (*base, i)
        if isinstance(a, M.Effect):
            battle = a.timing.startswith("battle_")
            yield _Program(loc, "do", a.do, battle,
                           a.target in ("other_player", "other_player_with_cards",
                                        "other_player_with_crafted",
                                        "other_player_with_warriors"),
                           battle or a.target in ("own_warrior", "clearing"),
                           not battle, f"effect {a.id} ({a.timing})")
        elif isinstance(a, M.Trigger):
            # (an item crafted happens in no clearing: its program has none)
            yield _Program(loc, "do", a.do, False, True, a.on != "item_crafted", False,
                           f"trigger {a.id}")


def _effect_programs(doc: Any) -> Iterator[_Program]:
    """Every effect program of a faction or of a deck's cards."""
    if isinstance(doc, M.FactionSpec):
        yield from _programs_of(doc.abilities, ("abilities",))
        return
    for i, c in enumerate(doc.cards):
        yield from _programs_of(c.abilities, ("cards", i, "abilities"))
        if c.on_craft:
            yield _Program(("cards", i), "on_craft", c.on_craft, False, False, False, False,
                           f"card {c.id} (on_craft)")


def _ops(doc: Any) -> Iterator[tuple[Loc, _Program, Any]]:
    """Each op of each effect program, with the parts a 'give' runs 'otherwise' after it
    and the parts an 'if' carries out (after the 'if')."""
    for prog in _effect_programs(doc):
        yield from _ops_of(prog.ops, (*prog.loc, prog.key), prog)


def _ops_of(ops: list, at: Loc, prog: _Program) -> Iterator[tuple[Loc, _Program, Any]]:
    for j, op in enumerate(ops):
        yield (*at, j), prog, op
        for k, x in enumerate(getattr(op, "otherwise", None) or ()):
            yield (*at, j, "otherwise", k), prog, x
        if isinstance(op, M.IfPart):
            yield from _ops_of(op.then, (*at, j, "then"), prog)
            yield from _ops_of(op.else_, (*at, j, "else"), prog)


def _seats(op: Any) -> set[str]:
    """The players an effect program's part names ('who', and a give's or show's 'to')."""
    return {x for x in (getattr(op, "who", None), getattr(op, "to", None))
            if x not in (None, "discard")}


@check("EFFECT-PARAM", "error", "faction, deck",
       "An effect with a meaningless parameter: a 'side' on an effect outside battle; "
       "'mandatory' on an effect that is not at the start or the end of a phase (only "
       "there can the phase wait for it).", "1.4.1, 4.3",
       example='`{"kind": "effect", "timing": "daylight", "side": "defender", ...}`')
def _effect_params(doc: Any):
    abilities = doc.abilities if isinstance(doc, M.FactionSpec) else []
    bases = [(("abilities",), abilities)] if isinstance(doc, M.FactionSpec) else \
        [(("cards", i, "abilities"), c.abilities) for i, c in enumerate(doc.cards)]
    for base, abs_ in bases:
        for i, a in enumerate(abs_):
            if not isinstance(a, M.Effect):
                continue
            if a.side != "any" and not a.timing.startswith("battle_"):
                yield (*base, i, "side"), f"effect {a.id}: a 'side' outside battle means nothing"
            if a.mandatory and not a.timing.startswith(("start_of_", "end_of_")):
                yield (*base, i, "mandatory"), \
                    f"effect {a.id}: only an effect at the start or the end of a phase " \
                    "can be mandatory"


@check("EFFECT-TARGET", "error", "faction, deck",
       "An effect op that needs what its program never has: a player to act on "
       "('who' or 'to': target) without a player target, a clearing "
       "(a 'remove' there, a give 'matching' it, a part whose value reads "
       "the clearing: 'warriors', a filter's 'suit') without one.  Triggers have "
       "the other player and the event's clearing (an item crafted has none); immediate "
       "cards have neither.",
       "1.4.1",
       example='`{"timing": "daylight", "target": "none", "do": '
               '[{"op": "show", "who": "target", "to": "self"}]}`')
def _effect_targets(doc: Any):
    for loc, prog, op in _ops(doc):
        player = "target" in _seats(op)
        clearing = _part_reads_clearing(op)
        if player and not prog.player:
            yield loc, f"{prog.where}: {op.op} needs a player to act on, and none is chosen"
        if clearing and not prog.clearing:
            yield loc, f"{prog.where}: {op.op} needs a clearing, and none is chosen"


def _part_reads_clearing(part: Any) -> bool:
    """Whether an effect program's part (models.EFFECT_PARTS) reads the program's
    clearing: a 'remove' there, a value of pieces there or of its suit, a filter of its
    suit."""
    if isinstance(part, M.RemovePart):
        return part.at == "clearing" or any(
            f.suit == "clearing" for _, f in _filters_in(part.at, ()))
    if isinstance(part, M.ScorePart):
        return _counts_in_clearing(part.vp)
    if isinstance(part, M.PlacePart):
        return part.at == "clearing" or _counts_in_clearing(part.count)
    if isinstance(part, (M.DiscardAllPart, M.GivePart, M.TakePart)):
        return part.matching is not None
    if isinstance(part, M.IfPart):  # (its parts are the program's ops: told apart)
        return any(isinstance(x, (M.Here, M.WarriorsAt, M.PiecesAt)) or (
            isinstance(x, M.ClearingFilter) and x.suit == "clearing")
            for x in M.walk(part.if_))
    return isinstance(part, M.DrawPart) and _counts_in_clearing(part.count)


@check("EFFECT-PART", "error", "faction, deck",
       "A program part of an effect program that names what it cannot: a parameter "
       "('$name': an effect program has none), a piece or zone its faction does not have, "
       "a zone of a player who is not the holder (a zone is the holder's: 'who' or a "
       "give's 'to' target or opponent, or self in a trigger the other player carries "
       "out), "
       "or, in a card's program, any piece but 'warrior' (the actor's) or any zone (the "
       "card may be any faction's); what only a program's choice gives (the 'chosen' card "
       "shown or given, 'hides', 'remove' 'as_token').",
       example='`{"op": "draw", "into": "supporters"}` in a card\'s effect')
def _effect_part_names(doc: Any):
    faction = doc if isinstance(doc, M.FactionSpec) else None
    for i, ab in enumerate(faction.abilities if faction is not None else ()):
        if isinstance(ab, M.Trigger) and ab.whose == "any":
            yield ("abilities", i, "whose"), (f"trigger {ab.id}: any player's warriors "
                                              "removed go into a card's box (its 'box'): "
                                              "a faction's trigger reacts to its own pieces")
    for loc, prog, op in _ops(doc):
        if isinstance(op, M.IfPart) and any(isinstance(x, M.Hides) for x in M.walk(op.if_)):
            yield (*loc, "if"), (f"{prog.where}: 'hides' reads a guess a program's choice "
                                 "named; an effect program names none")
        if not isinstance(op, M.EFFECT_PARTS):
            continue
        if M.chosen_card_part(op):
            yield loc, (f"{prog.where}: '{op.op}' of the 'chosen' card: a program's first "
                        "or second choice chooses it; an effect program chooses none")
        if isinstance(op, M.RemovePart) and op.as_token:
            yield loc, (f"{prog.where}: 'as_token' removes a face-down token a guess "
                        "named, in a program's 'if'; an effect program's removal of one "
                        "is its face's (Law 13.7)")
        if isinstance(op, M.PlacePart) and (
                isinstance(op.piece, (M.OfSuit, M.RandomPiece)) or
                isinstance(op.at, (M.AtEach, M.AtEachForest)) or op.score or op.evenly):
            yield loc, (f"{prog.where}: an effect program's place puts a piece in its "
                        "clearing, in each clearing of a filter or in a forest of the "
                        "actor's choice ('at'), not one of a suit or drawn at random, at "
                        "each building or in each forest, evenly, or scoring its track")
        if any(isinstance(x, M.ValueOf) or (isinstance(x, M.BoxValue) and x.box == "piece")
               for x in M.walk(op)):
            yield loc, (f"{prog.where}: 'value_of' and the box that holds 'piece' read a "
                        "piece a program's choice chose; an effect program chooses none")
        if isinstance(op, M.PlacePart) and isinstance(op.at, M.AtForest) and any(
                isinstance(x, M.EventPieces) for x in M.walk(op.at)):
            yield (*loc, "at", "forest"), (f"{prog.where}: a forest of the actor's choice "
                                           "is listed before the program runs, and reads "
                                           "no event's pieces")
        if isinstance(op, M.PlacePart) and faction is not None and \
                isinstance(op.piece, str) and op.piece in faction.pieces and \
                faction.pieces[op.piece].kind == "building":
            yield (*loc, "piece"), (f"{prog.where}: an effect program's place puts "
                                    "warriors or tokens, not a building (its slot, Law "
                                    "2.2.3, is no effect's to check)")
        ability = faction.abilities[loc[1]] if faction is not None else \
            doc.cards[loc[1]].abilities[loc[3]] if loc[2] == "abilities" else None
        card_box = doc.cards[loc[1]].box if faction is None else None
        if card_box is not None and (
                (isinstance(op, M.IntoBoxPart) and op.box == card_box.id) or any(
                    isinstance(x, M.BoxValue) and x.box == card_box.id for x in M.walk(op))):
            if getattr(ability, "actor", "self") != "self":
                yield loc, (f"{prog.where}: the card's box is its holder's: a program that "
                            "names it is carried out by the holder ('actor': 'self')")
            elif getattr(op, "who", "self") not in ("self", "holder"):
                yield (*loc, "who"), (f"{prog.where}: the card's box is its holder's: a part "
                                      "that names it is for the holder ('who': 'self')")
        if isinstance(op, M.IntoBoxPart) and card_box is not None and \
                op.box == card_box.id and op.from_box and "count" in op.model_fields_set:
            yield (*loc, "count"), (f"{prog.where}: a card's box holds any player's "
                                    "pieces, and 'from_box' empties it whole, each piece "
                                    "to its owner's supply: no 'count'")
        refs = _part_refs(op) if isinstance(op, (M.RemovePart, M.PlacePart,
                                                 M.IntoBoxPart)) else _step_part_refs(op)
        for where, name, want in refs:
            kind = "zone" if "zone" in want else "box" if "box" in want else \
                "piece" if "piece" in want else "number"
            if kind == "piece" and name == "warrior":
                continue  # the actor's warrior, whoever holds the card
            if kind == "piece" and name == "piece" and where == ("piece",) and \
                    isinstance(op, (M.PlacePart, M.IntoBoxPart)) and \
                    getattr(ability, "per_piece", False):
                continue  # the piece removed (a trigger's for each piece), placed or held
            if kind == "box" and card_box is not None and name == card_box.id:
                continue  # the card's own box
            if name.startswith("$"):
                yield (*loc, *where), (f"{prog.where}: {name!r}: an effect program has no "
                                       "parameters")
            elif faction is None and kind == "box":
                yield (*loc, *where), (f"{prog.where}: {op.op} names box {name!r}; a "
                                       "card's program may be any faction's, and names none "
                                       "but the card's own box (its 'box'" +
                                       (f": {card_box.id!r})" if card_box else
                                        ", and it has none)"))
            elif faction is None:
                yield (*loc, *where), (f"{prog.where}: {op.op} names {kind} {name!r}; a "
                                       "card's program may be any faction's, and names none")
            elif kind == "zone" and not _zone_seat_holds(
                    op.to if isinstance(op, M.GivePart) else getattr(op, "who", "self"),
                    faction.abilities[loc[1]]):
                yield (*loc, *where), (f"{prog.where}: {op.op} names zone {name!r}, the "
                                       "holder's, for another player")
            elif kind == "box" and isinstance(op, M.IntoBoxPart) and not _zone_seat_holds(
                    op.who, faction.abilities[loc[1]]):
                yield (*loc, *where), (f"{prog.where}: {op.op} names box {name!r}, the "
                                       "holder's, for another player (whose boxes are "
                                       "not the holder's)")
            else:
                known = [z.id for z in faction.zones] if kind == "zone" else \
                    [b.id for b in faction.boxes] if kind == "box" else \
                    [*faction.pieces, "warrior"]
                if name not in known:
                    yield (*loc, *where), (f"{prog.where}: " +
                                           M.unknown(kind, name, known))


@check("EFFECT-IF", "error", "faction, deck",
       "An effect program's 'if', 'discard' or 'move' that the effect cannot carry out: "
       "a part of its 'then' or 'else' that is no effect program's part (put_all, "
       "set_stage, stop, tuck), a 'discard' of any card but 'this' one (an effect "
       "program chooses no card), 'this' in a faction's program (only a card is "
       "'this') or in an immediate card's on_craft (discarded anyway), a 'move' of any "
       "piece but 'warrior' (it chooses no piece) or with a 'from' or 'to'.",
       example='`{"op": "if", "if": {"did": ["move"]}, "then": [{"op": "discard", '
               '"card": "chosen"}]}` in a card\'s effect')
def _effect_if(doc: Any):
    for loc, prog, op in _ops(doc):
        if isinstance(op, M.IfPart):
            for branch, parts in (("then", op.then), ("else", op.else_)):
                for k, x in enumerate(parts):
                    if not isinstance(x, M.EFFECT_PARTS):
                        yield (*loc, branch, k), (f"{prog.where}: {x.op} is no effect "
                                                  "program's part")
        if isinstance(op, M.MovePart) and op.piece != "warrior":
            yield (*loc, "piece"), (f"{prog.where}: an effect program's move is of "
                                    "'warrior', a player's warriors the one carrying it "
                                    "out moves (an effect program chooses no piece); the "
                                    "holder's own move is 'actions' with a menu of one "
                                    "'march' entry (the Law's move, 4.2)")
        elif isinstance(op, M.MovePart) and {"source", "to"} & op.model_fields_set:
            yield loc, (f"{prog.where}: a move of 'warrior' goes from a clearing to an "
                        "adjacent one, the mover's choice: its 'from' and 'to' are a "
                        "program's move's (a piece a second choice chose)")
        if isinstance(op, M.DiscardPart):
            if op.card != "this":
                yield (*loc, "card"), (f"{prog.where}: an effect program discards 'this' "
                                       f"card, not the {op.card!r} one (it chooses none)")
            elif isinstance(doc, M.FactionSpec):
                yield (*loc, "card"), (f"{prog.where}: 'this' card is a card's program's; "
                                       "a faction's ability is no card")
            elif prog.key == "on_craft":
                yield (*loc, "card"), (f"{prog.where}: an immediate card is discarded once "
                                       "its effect is resolved (Law 4.1.2): 'this' is a "
                                       "persistent card's ability's")


@check("CONDITION-DID", "error", "faction, deck",
       "A condition 'did' (what the actions of an effect program's 'actions' part, or of "
       "a turn step's, did) anywhere but an 'if' of an effect program after that "
       "program's 'actions' part, or a library program run as a step after an 'actions' "
       "step of the same list (CONDITION-DID at uses): elsewhere no actions were taken "
       "for it to read.", "14.7.5",
       example='`{"op": "if", "if": {"did": ["move", "battle"]}, ...}` as an effect '
               'program\'s first part')
def _condition_did(doc: Any):
    fine: set[int] = set()
    for prog in _effect_programs(doc):
        acted = False
        for op in prog.ops:
            if isinstance(op, M.Actions):
                acted = True
            elif acted and isinstance(op, M.IfPart):
                fine.update(id(x) for x in M.walk(op) if isinstance(x, M.Did))
    for loc, x in _located(doc, ()):
        if isinstance(x, M.Did) and id(x) not in fine:
            yield loc, ("'did' reads what an effect program's 'actions' part did: it is "
                        "an 'if' of that program, after the part (or of a library "
                        "program run as a step after an 'actions' step)")


@check("CONDITION-DID", "error", USES,
       "A library program that reads 'did' run where no actions were taken for it to "
       "read: by a menu entry, a column or an offer, or as a step with no 'actions' step "
       "before it in its list (Law 14.7.5, Relentless: \"Whenever you take the Advance the "
       "Warlord action and both move and battle\", a step after that action's).",
       "14.7.5",
       example='`"daylight": [{"op": "relentless"}, {"op": "actions", ...}]`, the program '
               'relentless reading did')
def _program_did(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        if not any(isinstance(x, M.Did) for x in M.walk(use.lib.program.do)):
            continue
        if use.what != "step":
            yield use.doc, use.loc, (
                f"{use.what} {use.name}: its program reads 'did', what the actions of "
                "an 'actions' step before it did; a menu's program is no step after one")
            continue
        k = use.loc[-1]  # (a role's 'then': no list of steps before it)
        steps = dict(_programs(use.faction)).get(tuple(use.loc[:-1]), [])
        if not isinstance(k, int) or not any(isinstance(s, M.Actions) for s in steps[:k]):
            yield use.doc, use.loc, (
                f"step {use.name}: its program reads 'did', what the actions of an "
                "'actions' step before it did, and no step before it in this list is one")


def _zone_seat_holds(seat: str, ability: Any) -> bool:
    """Whether the player a part names is the holder of the ability, whose zones it may
    name: 'holder', or 'self' unless another player carries the trigger out."""
    if seat == "holder":
        return True
    return seat == "self" and not (isinstance(ability, M.Trigger) and ability.actor == "other")


@check("EFFECT-BATTLE-ONLY", "error", "faction, deck",
       "A battle op (hits, 'who': opponent) in a program that "
       "does not run in a battle (a phase timing, a trigger, an immediate card).",
       "4.3.2, 4.3.4",
       example='`{"timing": "daylight", "do": [{"op": "hits", "extra": 1}]}`')
def _effect_battle_only(doc: Any):
    for loc, prog, op in _ops(doc):
        if prog.battle:
            continue
        if isinstance(op, M.HitsOp) or \
                "opponent" in _seats(op):
            yield loc, f"{prog.where}: {op.op} works only in a battle"


@check("EFFECT-TAKE-ACTIONS", "error", "faction, deck",
       "take_actions outside an effect of a phase: a battle effect runs inside a battle, "
       "a trigger or an immediate card inside someone's action (Law 1.4.2: nothing "
       "interrupts an action); an effect of a phase runs at its start or between "
       "actions.", "1.4.1, 1.4.2",
       example='`{"timing": "battle_after_roll", "do": [{"op": "take_actions", '
               '"menu": [...]}]}`')
def _effect_take_actions(doc: Any):
    for loc, prog, op in _ops(doc):
        if isinstance(op, M.Actions) and not prog.phase:
            yield loc, f"{prog.where}: actions only in an effect of a phase, not in a " \
                "battle's, a trigger's or a card's on_craft"


@check("EFFECT-ACTIONS", "error", "faction, deck",
       "An effect program's 'actions' part (the turn step's operation: take actions from "
       "a menu) with what only a step supports: a count that is not a number of 1 to 10 "
       "(a box's warriors, or null for any number), an 'extra_action_suit' (extra "
       "actions paid with a card, Law 6.5, are a turn's), an empty menu, a battle's "
       "or march's 'suit_of', 'cost' or 'when' (a turn step's menu entry's), or 'must' "
       "with an "
       "entry besides march and battle (whether 'done' is offered would read the hand "
       "where an entry's options do).",
       "1.4.1, 6.5",
       example='`{"timing": "start_of_daylight", "do": [{"op": "actions", "count": null, '
               '"menu": [{"action": "battle"}]}]}`')
def _effect_actions(doc: Any):
    if isinstance(doc, M.FactionSpec):
        # ('must' is an effect's: a step's actions end with 'done', Law 6.5's "up to")
        for where, steps in (("setup", doc.setup), *(
                (("turn", ph), getattr(doc.turn, ph))
                for ph in ("birdsong", "daylight", "evening")),
                *((("hooks", h), st) for h, st in doc.hooks.items())):
            base = where if isinstance(where, tuple) else (where,)
            for k, st in enumerate(steps):
                if isinstance(st, M.Actions) and st.must:
                    yield (*base, k, "must"), ("a step's actions may end with 'done' "
                                               "('must' is an effect program's)")
    for loc, prog, op in _ops(doc):
        if not isinstance(op, M.Actions):
            continue
        if not isinstance(op.count, int) or not 1 <= op.count <= 10:
            yield (*loc, "count"), (f"{prog.where}: an effect's actions take a number of "
                                    f"actions, 1 to 10 (not {op.count!r})")
        if op.extra_action_suit is not None:
            yield (*loc, "extra_action_suit"), (
                f"{prog.where}: extra actions paid with a card are a turn step's "
                "(Law 6.5), not an effect's")
        if not op.menu:
            yield (*loc, "menu"), f"{prog.where}: an effect's actions need a menu"
        for k, m in enumerate(op.menu):
            for key in ("suit_of", "cost", "when"):
                if getattr(m, key, None) not in (None, False):
                    yield (*loc, "menu", k, key), (
                        f"{prog.where}: a {m.action}'s {key!r} is a turn step's menu "
                        "entry's (the faction's cycles and boxes), not an effect's")
            if op.must and not isinstance(m, (M.MarchAction, M.BattleAction)):
                yield (*loc, "must"), (
                    f"{prog.where}: actions that must be taken ('must') are moves and "
                    f"battles, not {m.action!r}: whether 'done' is offered would tell "
                    "what the hand holds where an entry's options read it (Law 1.2)")


@check("EFFECT-ZONE", "error", "deck",
       "A zone op (discard_down_to of a zone, first written trim_zone) in a card's "
       "program: zones and boxes are a faction's, and a card has none to name.", "8.2.3",
       example='`{"kind": "trigger", ..., "do": [{"op": "trim_zone", "zone": "supporters"}]}` '
               'on a card')
def _effect_zone(d: M.DeckSpec):
    for loc, prog, op in _ops(d):
        if isinstance(op, M.ZONE_OPS):
            yield loc, f"{prog.where}: {op.op} names a faction's zone or box; a card has none"


@check("EFFECT-COST", "error", "faction",
       "A faction's effect with 'cost': discard: only a card can be discarded to use it.",
       example='`{"kind": "effect", "cost": "discard", ...}` in a faction')
def _effect_cost(f: M.FactionSpec):
    for i, a in enumerate(f.abilities):
        if isinstance(a, M.Effect) and a.cost == "discard":
            yield ("abilities", i, "cost"), \
                f"effect {a.id}: a faction has no card of its own to discard for it"


@check("TRIGGER-PIECES", "error", "faction, deck",
       "A trigger whose event names nothing: pieces_removed without 'pieces', "
       "warriors_moved_in without a 'token' (or the other event's parameter given).",
       "1.5.4",
       example='`{"kind": "trigger", "on": "pieces_removed", "pieces": [], ...}`')
def _trigger_pieces(doc: Any):
    bases = [(("abilities",), doc.abilities)] if isinstance(doc, M.FactionSpec) else \
        [(("cards", i, "abilities"), c.abilities) for i, c in enumerate(doc.cards)]
    for base, abs_ in bases:
        for i, a in enumerate(abs_):
            if not isinstance(a, M.Trigger):
                continue
            if a.on == "pieces_removed" and not a.pieces:
                yield (*base, i, "pieces"), f"trigger {a.id}: which pieces' removal?"
            if a.on == "pieces_removed" and a.token is not None:
                yield (*base, i, "token"), f"trigger {a.id}: 'token' is for warriors_moved_in"
            if a.on == "warriors_moved_in" and a.token is None:
                yield (*base, i), f"trigger {a.id}: moved into a clearing with which token?"
            if a.on == "warriors_moved_in" and a.pieces:
                yield (*base, i, "pieces"), f"trigger {a.id}: 'pieces' is for pieces_removed"


@check("CARD-NO-EFFECT", "warning", "deck",
       "A persistent card with no abilities or an immediate card with no 'on_craft': what "
       "it does is not data, so it is not offered for crafting.", "4.1",
       example='`{"kind": "persistent", "cost": ["fox"], "text": "..."}` without abilities')
def _card_no_effect(d: M.DeckSpec):
    for i, c in enumerate(d.cards):
        if c.kind == "persistent" and not c.abilities:
            yield ("cards", i, "id"), f"card {c.id}: persistent with no abilities: not craftable"
        if c.kind == "immediate" and not c.on_craft:
            yield ("cards", i, "id"), f"card {c.id}: immediate with no on_craft: not craftable"


# --------------------------------------------------------------------------- no effect
#
# Content that validates and can never change a game: an op between a player and
# themselves, or a field the engine reads only where it does not stand.  Each is a
# warning (the game runs; it is just not what the author meant).

def _one_player(op: Any, ability: Any) -> bool:
    """Whether a give or show is between one player and themselves where it stands: in a
    trigger the other player carries out, that player is also the target; elsewhere the
    holder is the program's actor."""
    if not isinstance(op, (M.GivePart, M.ShowPart)) or op.to == "discard":
        return False
    same = {"target": "self"} if isinstance(ability, M.Trigger) and ability.actor == "other" \
        else {"holder": "self"}
    return same.get(op.who, op.who) == same.get(op.to, op.to)


@check("EFFECT-NO-EFFECT", "warning", "faction, deck",
       "An effect op that can change nothing where it stands: in a trigger carried out by "
       "the other player ('actor': other) that player is also the program's target, so "
       "a give from the target to 'self' takes a card from their own hand into it and a "
       "show of the target's hand to 'self' shows them their own hand (a give or show "
       "between one player and themselves); a score of 0 VP.", "1.5.4",
       example='`{"kind": "trigger", "actor": "other", "do": '
               '[{"op": "give", "who": "target", "to": "self", "pick": "random"}]}`')
def _effect_no_effect(doc: Any):
    bases = [(("abilities",), doc.abilities)] if isinstance(doc, M.FactionSpec) else \
        [(("cards", i, "abilities"), c.abilities) for i, c in enumerate(doc.cards)]
    for base, abs_ in bases:
        for i, a in enumerate(abs_):
            if not isinstance(a, (M.Trigger, M.Effect)):
                continue
            for j, op in enumerate(a.do):
                if not isinstance(op, (M.GivePart, M.ShowPart)) or not _one_player(op, a):
                    continue
                if isinstance(a, M.Trigger) and a.actor == "other":
                    yield (*base, i, "do", j), (
                        f"trigger {a.id}: {op.op} by the other player, whose target is "
                        "that player too: nothing happens ('actor': self acts on the "
                        "other player)")
                else:
                    yield (*base, i, "do", j), (
                        f"{a.kind} {a.id}: {op.op} from {op.who!r} to {op.to!r}, one "
                        "player: nothing happens")
    for loc, prog, op in _ops(doc):
        if isinstance(op, M.ScorePart) and op.vp == 0:
            yield (*loc, "vp"), f"{prog.where}: score of 0 VP scores nothing"


# A track's rows: each is read by the programs that name the piece (cost: track_cost;
# vp: a scoring place, track_vp; draw_at: draw_bonus), at their uses.
_TRACK_ROWS = ("cost", "vp", "draw_at")


def _reads_target(op: Any, target: str) -> bool:
    if target in ("other_player", "other_player_with_cards", "other_player_with_crafted",
                  "other_player_with_warriors"):
        return "target" in _seats(op) or any(
            _reads_target(x, target) for x in getattr(op, "otherwise", None) or ())
    return _part_reads_clearing(op)


@check("FIELD-UNREAD", "warning", "faction, deck",
       "A field that nothing reads where it stands, so it changes nothing: a piece's "
       "'suit' or a track row that nothing the faction does reads (the uses' check "
       "below says which); a zone's 'unlimited_while' with no 'capacity' to lift; a column's "
       "'building' on a move or battle column; a 'crafting_piece' with no craft step or "
       "action; an effect's 'target' that no op of its program uses (the player chooses "
       "one for nothing).", "",
       example='`"wood": {"kind": "token", "count": 8, "suit": "fox"}`')
def _field_unread(doc: Any):
    if isinstance(doc, M.FactionSpec):
        yield from _faction_fields_unread(doc)
    abilities = [(("abilities", i), a) for i, a in enumerate(doc.abilities)] \
        if isinstance(doc, M.FactionSpec) else \
        [(("cards", i, "abilities", j), a) for i, c in enumerate(doc.cards)
         for j, a in enumerate(c.abilities)]
    for loc, a in abilities:
        if isinstance(a, M.Effect) and a.target != "none" and \
                not any(_reads_target(op, a.target) for op in a.do):
            yield (*loc, "target"), (f"effect {a.id}: no op of its program uses the "
                                     f"{a.target.replace('_', ' ')} it asks for")


def _faction_fields_unread(f: M.FactionSpec):
    # (a piece's suit and its track rows: _piece_fields_unread, which sees the programs)
    for i, z in enumerate(f.zones):
        if z.capacity is None and z.unlimited_while:
            yield ("zones", i, "unlimited_while"), \
                f"zone {z.id} has no capacity for 'unlimited_while' to lift"
    for i, col in enumerate(f.columns):
        if col.building is not None and col.action in M.COLUMN_ROUTINES:
            yield ("columns", i, "building"), \
                f"column {col.id}: a {col.action} column places no building"
        elif col.building is not None:
            yield ("columns", i, "building"), \
                (f"column {col.id}: 'building' is read only with action recruit or build "
                 f"(their first spelling); program {col.action} is given its parameters "
                 "by the column's other fields")
    if f.crafting_piece is not None:
        steps = [s for _, prog in _programs(f) for s in prog]
        menus = [m for _, menu in _menus(f) for m in menu]
        if not any(isinstance(s, M.Craft) for s in steps) and \
                not any(isinstance(m, M.CraftAction) for m in menus):
            yield ("crafting_piece",), \
                f"crafting_piece {f.crafting_piece!r}: the faction never crafts"


# --------------------------------------------------------------------------- bundles


def corner_takers(factions: Iterable[M.FactionSpec],
                  programs: dict[str, Library] | None = None) -> list[M.FactionSpec]:
    """The factions whose setup takes a corner as their home: a home step whose
    program's first choice is of a corner clearing (the standard ones', Law 6.3.1,
    7.3.1; a pack's own, Law 10.3.2, with ``programs``)."""
    def corner(s: Any) -> bool:
        prog = _step_program(s, programs)
        first = prog.do[0] if prog is not None and prog.do else None
        return isinstance(first, M.ChoosePart) and first.clearing is not None and \
            first.clearing.corner is True

    return [f for f in factions
            if any(corner(f.setup[i]) for i in home_steps(f, programs))]


@check("MAP-CORNERS-FEW", "error", USES,
       "Fewer corner clearings than the factions that take one at setup: with every "
       "faction seated, one finds no corner.", "6.3.2, 7.3.2, 10.3.2",
       example='a map with 2 corners and 3 factions that set up in one')
def _corners_enough(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                    programs: dict[str, Library]):
    corners = sum(1 for c in m.clearings if c.corner)
    takers = corner_takers(fs, programs)
    if corners and corners < len(takers):
        yield m, ("clearings",), (
            f"{corners} corner clearing{'s' if corners != 1 else ''}, but "
            f"{len(takers)} factions take one at setup ({', '.join(f.id for f in takers)})")


@check("MAP-EDGE-NONE", "error", USES,
       "Content chooses or counts clearings by the map's edge (a clearing filter's "
       "'edge'), but the map marks no clearing on its edge: such a filter passes no "
       "clearing, or every one.", "G.15, 15.3",
       example='`{"clearing": {"edge": true}}` in a program a faction uses, on a map with '
               'no `"edge": true`')
def _edge_marked(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]):
    if any(c.edge for c in m.clearings):
        return
    for use in _uses(d, fs, programs):
        if M.reads_edge(use.lib.program):
            yield use.doc, use.loc, (
                f"{use.what} {use.name}: program {use.name} reads the map's edge, and "
                f"map {m.id!r} marks no clearing on it (a clearing's 'edge': true, Law G.15)")
    for doc in (*fs, *([d] if d is not None else [])):
        for name in type(doc).model_fields:
            if M.reads_edge(getattr(doc, name)):
                yield doc, (name,), (
                    f"{name} reads the map's edge, and map {m.id!r} marks no clearing on it "
                    "(a clearing's 'edge': true, Law G.15)")


@check("MAP-RIVER-NONE", "error", USES,
       "Content chooses or counts clearings by the rivers (a clearing filter's 'river'), "
       "but the map has no river: such a filter passes no clearing, or every one.",
       "2.3, 11.3.2",
       example='`{"clearing": {"river": true}}` in a program a faction uses, on a map '
               'with no `rivers`')
def _rivers_there(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    if m is None or m.rivers:
        return
    for use in _uses(d, fs, programs):
        if M.reads_river(use.lib.program):
            yield use.doc, use.loc, (
                f"{use.what} {use.name}: program {use.name} reads the rivers, and map "
                f"{m.id!r} has none (its 'rivers', Law 2.3)")
    for doc in (*fs, *([d] if d is not None else [])):
        for name in type(doc).model_fields:
            if M.reads_river(getattr(doc, name)):
                yield doc, (name,), (
                    f"{name} reads the rivers, and map {m.id!r} has none (its 'rivers', "
                    "Law 2.3)")


@check("ZONE-DISCARDS-TWO", "error", "bundle",
       "Two factions of a bundle with a zone that takes every card spent or discarded: "
       "each card can go into one pile only, and the Law (10.2.6) names no order.",
       "10.2.6", example='two factions, each with `"takes_discards": true` on a zone')
def _one_catcher(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    seen: list[str] = []
    for f in fs:
        for i, z in enumerate(f.zones):
            if z.takes_discards:
                if seen:
                    yield f, ("zones", i, "takes_discards"), (
                        f"zone {z.id} takes discards, and so does {seen[0]}: a bundle "
                        "has at most one such pile")
                seen.append(f"{f.id}'s {z.id}")


@check("SETUP-SLOTS", "error", "bundle",
       "A corner with fewer free slots (slots less its ruin) than a faction's setup "
       "places buildings there (setup_home_corner: one in the corner; "
       "setup_buildings_near_home: its buildings in the corner and the clearings next "
       "to it).", "2.2.3, 6.3.4, 7.3.2",
       example='a corner `{"slots": 1, "ruin": true, "corner": true}` and a faction '
               'with setup_home_corner')
def _setup_room(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    adj, adj_rivers = _adjacency(m), _adjacency(m, rivers=True)
    by_id = {c.id: c for c in m.clearings}
    idx = _index(m)
    for c in m.clearings:
        if not c.corner:
            continue
        for f in fs:
            if not home_steps(f):
                continue
            for s in f.setup:
                building = home_building(s)
                if building is not None and _free_slots(c) < 1:
                    yield m, ("clearings", idx[c.id], "slots"), (
                        f"corner {c.id} has no free slot for the {building} that "
                        f"{f.id} places there at setup")
                links = [a for a in f.abilities if isinstance(a, M.Moving)]
                if isinstance(s, M.SetupBuildingsNearHome) and \
                        not any(a.crafting_adjacent for a in links):
                    # (a faction's own links are its adjacency at setup too; clearings
                    # joined by its crafting pieces depend on the play, so not judged)
                    near = adj_rivers if any(a.rivers_are_paths for a in links) else adj
                    room = _free_slots(c) + sum(_free_slots(by_id[n]) for n in near[c.id])
                    if room < len(s.buildings):
                        yield m, ("clearings", idx[c.id], "slots"), (
                            f"corner {c.id} and the clearings next to it have {room} free "
                            f"slot{'s' if room != 1 else ''}, but {f.id} places "
                            f"{len(s.buildings)} buildings there at setup")


@check("ID-DUP", "error", "bundle",
       "A faction card with the id of a deck card or of another faction's card, a "
       "piece defined by two factions, or two usable effects with one id ('use <id>').",
       example='a faction card `"id": "bird-ambush"` (a deck card\'s id)')
def _bundle_ids(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    deck_cards = {c.id for c in d.cards}
    card_owner: dict[str, str] = {}
    piece_owner: dict[str, str] = {}
    for f in fs:
        for i, c in enumerate(f.cards):
            if c.id in deck_cards:
                yield f, ("cards", i, "id"), \
                    f"faction card {c.id!r} has the id of a card of deck {d.id!r}"
            elif c.id in card_owner and card_owner[c.id] != f.id:
                yield f, ("cards", i, "id"), \
                    f"faction card {c.id!r} is also a card of {card_owner[c.id]!r}"
            card_owner.setdefault(c.id, f.id)
        for pid in f.pieces:
            if pid in piece_owner:
                yield f, ("pieces", pid), \
                    f"piece {pid!r} is defined by both {piece_owner[pid]!r} and {f.id!r}"
            piece_owner.setdefault(pid, f.id)
    # A usable effect is named by its id ('use <id>'): one id, one effect.
    effect_at: dict[str, str] = {}
    effects = [(d, ("cards", i, "abilities", j), a) for i, c in enumerate(d.cards)
               for j, a in enumerate(c.abilities)] + \
        [(f, ("abilities", i), a) for f in fs for i, a in enumerate(f.abilities)]
    for doc, loc, a in effects:
        if not isinstance(a, M.Effect):
            continue
        if a.id in effect_at:
            yield doc, (*loc, "id"), \
                f"effect id {a.id!r} is also the id of an effect of {effect_at[a.id]!r}"
        effect_at.setdefault(a.id, f"{doc.kind} {doc.id}")


@check("REF-UNDEF", "error", "bundle",
       "A card's ability naming a piece no faction of the bundle has (a trigger's pieces or "
       "token, a token ability's token).",
       example='`{"kind": "trigger", "on": "pieces_removed", "pieces": ["nest"]}` on a card')
def _card_piece_refs(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    known = {pid for f in fs for pid in f.pieces}
    # A name is looked for among the pieces for the findings a file lists (the first
    # MAX_PER_FILE), not for each of a 200,000-name list's.
    looked = 0
    for i, c in enumerate(d.cards):
        for j, a in enumerate(c.abilities):
            # ('warrior' in a trigger's pieces is its holder's, whoever holds the card.)
            names: list[tuple[Loc, str]] = [(("pieces", k), x) for k, x in
                                            enumerate(getattr(a, "pieces", []))
                                            if x != "warrior"]
            token = getattr(a, "token", None)
            if token is not None:
                names.append((("token",), token))
            for at, x in names:
                if x not in known:
                    looked += 1
                    meant = did_you_mean(x, sorted(known)) if looked <= MAX_PER_FILE else ""
                    yield d, ("cards", i, "abilities", j, *at), \
                        f"card {c.id}: no faction has a piece {x!r}{meant}"


def _taking_names(a: Any) -> Iterator[tuple[Loc, str]]:
    """(where, name) of each name an ability's condition gives: a battle ability's
    'taking' 'holds', an effect's 'when'."""
    if isinstance(a, M.Battle) and a.taking is not None and a.taking.holds is not None:
        for at, name, _ in _condition_refs(a.taking.holds, ("taking", "holds")):
            yield at, name
    if isinstance(a, M.Effect) and a.when is not None:
        for at, name, _ in _condition_refs(a.when, ("when",)):
            yield at, name


@check("REF-UNDEF", "error", "faction",
       "A battle ability's condition ('taking' 'holds') or an effect's ('when') naming a "
       "piece the faction does not have, or a parameter (an ability has none).", "15.2.4",
       example='`{"kind": "battle", "taking": {"ignore_first": true, "holds": {"at_least": '
               '[{"pieces": "relik"}, 1]}}}` with a piece `relic`')
def _taking_refs(f: M.FactionSpec):
    for i, a in enumerate(f.abilities):
        for at, name in _taking_names(a):
            if name.startswith("$"):
                yield ("abilities", i, *at), (
                    f"ability {a.id}: {name!r} is a parameter, and an ability has none")
            elif name != "warrior" and name not in f.pieces:
                yield ("abilities", i, *at), (
                    f"ability {a.id}: {M.unknown('piece', name, list(f.pieces))}")


def _menu_whens(f: M.FactionSpec) -> Iterator[tuple[tuple, Any]]:
    """(where, condition) of each 'when' of a battle or march entry of the menus of the
    faction's setup's, turn's and hooks' steps."""
    for where, steps in ((("setup",), f.setup),
                         *((("turn", ph), getattr(f.turn, ph))
                           for ph in ("birdsong", "daylight", "evening")),
                         *((("hooks", h), st) for h, st in f.hooks.items())):
        for k, st in enumerate(steps):
            for j, m in enumerate(st.menu if isinstance(st, M.Actions) else ()):
                if getattr(m, "when", None) is not None:
                    yield (*where, k, "menu", j, "when"), m.when


@check("REF-UNDEF", "error", "faction",
       "A battle's or march's 'when' (a turn step's menu entry's) naming what the faction "
       "does not have: a piece, a zone, a box, a cycle or one of its stages; or a "
       "parameter (a battle or march entry has none).", "12.5.2",
       example='`{"action": "battle", "when": {"at_least": [{"box": "captian"}, 1]}}` '
               'with a box `captain`')
def _menu_when_refs(f: M.FactionSpec):
    known = {"piece": [*f.pieces, "warrior"], "zone": [z.id for z in f.zones],
             "box": [b.id for b in f.boxes]}
    for at, cond in _menu_whens(f):
        for where, name, want in _condition_refs(cond, ()):
            kind = "zone" if "zone" in want else "box" if "box" in want else \
                "piece" if "piece" in want else None
            if name.startswith("$") or kind is None:
                yield (*at, *where), (f"menu entry: {name!r} is a parameter, and a "
                                      "battle or march entry has none")
            elif name not in known[kind]:
                yield (*at, *where), f"menu entry: {M.unknown(kind, name, known[kind])}"
        for where, x in _located(cond, ()):
            if not isinstance(x, M.AtStage):
                continue
            cycle = next((c for c in f.cycles if c.id == x.cycle), None)
            if cycle is None:
                yield (*at, *where, "cycle"), (
                    f"menu entry: {M.unknown('cycle', x.cycle, [c.id for c in f.cycles])}")
            elif x.at_stage not in cycle.stages:
                yield (*at, *where, "at_stage"), (
                    f"menu entry: cycle {cycle.id} has no stage {x.at_stage!r}"
                    f"{did_you_mean(x.at_stage, cycle.stages)}")


@check("REF-UNDEF", "error", "bundle",
       "A card's battle ability whose condition ('taking' 'holds') names a piece, or an "
       "effect whose 'when' does: whoever holds the card, a card names no faction's "
       "pieces.", "15.2.4",
       example='`{"kind": "battle", "taking": {"ignore_first": true, "holds": {"at_least": '
               '[{"pieces": "relic"}, 1]}}}` on a card')
def _card_taking_refs(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    for i, c in enumerate(d.cards):
        for j, a in enumerate(c.abilities):
            for at, name in _taking_names(a):
                yield d, ("cards", i, "abilities", j, *at), (
                    f"card {c.id}: ability {a.id} names {name!r}: a card's condition names "
                    "no piece or parameter ('warriors' counts its holder's)")


# --------------------------------------------------------------------------- limits

MAX_PIECE_TYPES = 63
"""Kinds of pieces in all the factions together: the core keeps sets of pieces (the
buildings a step names, a trigger's pieces, a zone's lifting buildings) as 64-bit
masks, one bit per piece."""
MAX_ROLES = 62
"""Roles of one faction (a mask over the roles, and one bit for 'no role held')."""
MAX_COLUMNS = 63
"""Columns of one faction (a role's tucked columns are a mask)."""
MAX_STEPS = 1000
"""Steps in one program of a faction (its setup, a phase of its turn, a hook): a
Daylight of 20,000 steps took a game past 100,000 decisions with no winner; one of 1000
ends in about 15,000."""
MAX_CARDS = 1000
"""Cards in a game, copies counted (the deck and the factions' own cards): every card
is tracked in every decision, so the cost of a decision grows with the deck.  Root's
decks hold 54."""


@check("ENGINE-LIMIT", "error", "faction",
       "A faction with more roles (62), columns (63) or kinds of pieces (63) than the "
       "engine holds: it keeps sets of them as 64-bit masks; or a program (the setup, a "
       f"phase, a hook) of more than {MAX_STEPS} steps, whose games hardly ever end.",
       example='a faction with 70 kinds of tokens')
def _faction_limits(f: M.FactionSpec):
    for base, steps in _programs(f):
        if len(steps) > MAX_STEPS:
            # Found by fuzzing: a Daylight of 20,000 steps validated clean and its games
            # had no winner after 100,000 decisions.
            yield (*base, MAX_STEPS), (f"{len(steps)} steps in one program: the engine runs "
                                       f"at most {MAX_STEPS}")
    for group, limit in (("roles", MAX_ROLES), ("columns", MAX_COLUMNS)):
        items = getattr(f, group)
        if len(items) > limit:
            yield (group, limit), f"{len(items)} {group}: the engine holds at most {limit}"
    if len(f.pieces) > MAX_PIECE_TYPES:
        pid = list(f.pieces)[MAX_PIECE_TYPES]
        yield ("pieces", pid), (f"{len(f.pieces)} kinds of pieces: the engine holds at most "
                                f"{MAX_PIECE_TYPES} in all the factions together")


@check("ENGINE-LIMIT", "error", "deck",
       f"A deck of more than {MAX_CARDS} cards, copies counted: every card is tracked in "
       "every decision, so such a game slows to a crawl (Root's decks hold 54).",
       example='3000 cards of `"count": 64`')
def _deck_limit(d: M.DeckSpec):
    total = 0
    for i, c in enumerate(d.cards):
        total += c.count
        if total > MAX_CARDS:
            yield ("cards", i), (f"{sum(x.count for x in d.cards)} cards, copies counted: "
                                 f"the engine holds at most {MAX_CARDS}")
            return


@check("ENGINE-LIMIT", "error", "bundle",
       f"More kinds of pieces in the factions together than the engine holds "
       f"({MAX_PIECE_TYPES}: sets of pieces are 64-bit masks), or more than {MAX_CARDS} "
       "cards in the deck and the factions' own cards together.",
       example='four factions of 20 kinds of pieces each')
def _bundle_limits(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...]):
    n = 0
    for f in fs:
        for pid in f.pieces:
            n += 1
            if n == MAX_PIECE_TYPES + 1 and len(f.pieces) <= MAX_PIECE_TYPES:
                total = sum(len(x.pieces) for x in fs)
                yield f, ("pieces", pid), (
                    f"{total} kinds of pieces in the factions together: the engine holds at "
                    f"most {MAX_PIECE_TYPES}")
    cards = sum(c.count for c in d.cards)
    if cards <= MAX_CARDS:
        for f in fs:
            for i, c in enumerate(f.cards):
                cards += c.count
                if cards > MAX_CARDS:
                    yield f, ("cards", i), (
                        f"the deck's and the factions' cards come to more than {MAX_CARDS}, "
                        "copies counted: the engine holds at most that")
                    return


# --------------------------------------------------------------------------- cycles, forests

HOOK_RUNNERS = (M.RunStage, M.ResolveColumns)
"""Steps that run a hook of the faction's (and then go on after themselves)."""


@check("HOOK-NESTED", "error", "faction",
       "A step that runs a hook (run_stage, resolve_columns) inside a hook: the engine "
       "returns from one hook at a time, so the outer program would not go on (and a "
       "hook whose resolve_columns fails into itself never ends).",
       example='`"hooks": {"spring": [{"op": "run_stage", "cycle": "wheel", ...}]}`')
def _hook_nested(f: M.FactionSpec):
    for name, steps in f.hooks.items():
        for i, s in enumerate(steps):
            if isinstance(s, HOOK_RUNNERS):
                yield ("hooks", name, i), (f"step {s.op} in hook {name!r}: a hook cannot run "
                                           "another hook; run it from a setup or turn program")


@check("ID-DUP", "error", "faction",
       "Two cycles of one faction with one id, or a stage named twice in one cycle.",
       example='`"stages": ["spring", "summer", "spring"]`')
def _cycle_ids(f: M.FactionSpec):
    for i, x, k in _duplicates(cy.id for cy in f.cycles):
        yield ("cycles", i, "id"), f"duplicate cycle id {x!r} (first at /cycles/{k})"
    for i, cy in enumerate(f.cycles):
        for j, x, k in _duplicates(cy.stages):
            yield ("cycles", i, "stages", j), \
                f"cycle {cy.id}: stage {x!r} is listed twice (first at {k})"


def _advances(s: Any) -> list[tuple[Any, int]]:
    """(the cycle, by how many stages) of each move on (a 'set_stage' 'by') a step's
    (standard) program makes: the standard advance_cycle's."""
    prog = _step_program(s)
    if prog is None:
        return []
    assert isinstance(s, M.ProgramStep)
    fields = prog.bind(s.fields())

    def bound(v: Any) -> Any:
        return fields.get(v[1:]) if isinstance(v, str) and v.startswith("$") else v

    return [(bound(x.cycle), by if isinstance(by := bound(x.by), int) else 1)
            for x in prog.do if _moves_on(x)]


def _moves_on(x: Any) -> TypeGuard[M.SetStagePart]:
    """A part that moves a cycle's marker on by some stages (set_stage 'by')."""
    return isinstance(x, M.SetStagePart) and x.by is not None


def _reads_cycle(use: Any, cycle: str) -> bool:
    """Whether a use of a program (a step, a menu entry, a column) may read a cycle: it binds a
    field to it, and its program is no standard one that only moves it on (a pack's own
    program is seen at its uses: a suit or a stage read of it, CYCLE-STAGE)."""
    if not isinstance(use, (M.ProgramStep, M.ProgramEntry, M.ColumnWay)) or \
            cycle not in use.fields().values():
        return False
    prog = _step_program(use) if isinstance(use, M.ProgramStep) else None
    return prog is None or not all(_moves_on(x) for x in prog.do)


def _may_set_cycle(use: Any, cycle: str) -> bool:
    """Whether a use of a program may put a cycle's marker on a stage (set_stage): it
    binds a field to the cycle, and its program is a pack's own (seen at its uses, not
    here) or a standard one with a 'set_stage'."""
    if not isinstance(use, (M.ProgramStep, M.ProgramEntry, M.ColumnWay)) or \
            cycle not in use.fields().values():
        return False
    prog = _step_program(use) if isinstance(use, M.ProgramStep) else None
    return prog is None or any(isinstance(x, M.SetStagePart) and x.by is None
                                for _, x in M.flat_parts(prog.do))


@check("CYCLE-STUCK", "warning", USES,
       "A cycle that no step moves on (no advance_cycle nor a program bound to it or "
       "naming it that may set its stage, or each advance_cycle moves it by a whole turn "
       "of the ring: its marker never leaves its first stage) or that nothing reads (no "
       "run_stage, no program it is bound to or that names it: where it stands changes "
       "nothing).",
       example='`"cycles": [{"id": "wheel", ...}]` with no `advance_cycle` step')
def _cycle_stuck(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]):
    for f in fs:
        for loc, said in _cycle_stuck_in(f, programs):
            yield f, loc, said


def _named_cycle_uses(f: M.FactionSpec, programs: dict[str, Library],
                      cycle: str) -> tuple[bool, bool]:
    """(whether a program the faction runs may set the cycle's stage, whether one reads
    it), where the program names the cycle by its id (a pack's own program for its own
    faction), not through a parameter its use binds."""
    names = {s.op for _, prog in _programs(f) for s in prog if isinstance(s, M.ProgramStep)}
    names |= {s.then for _, prog in _programs(f) for s in prog
              if isinstance(s, M.ChooseRole) and s.then is not None}
    names |= {e.action for _, menu in _menus(f) for e in menu
              if isinstance(e, M.ProgramEntry)}
    names |= {w.action for c in f.columns for _, w in c.ways()}
    sets = reads = False
    for name in names:
        lib = programs.get(name)
        for x in M.walk(lib.program.do if lib is not None else ()):
            if isinstance(x, M.SetStagePart) and x.cycle == cycle:
                sets = True
            elif isinstance(x, M.AtStage) and x.cycle == cycle or \
                    isinstance(x, M.ClearingFilter) and x.suit_of == cycle:
                reads = True
    return sets, reads


def _cycle_stuck_in(f: M.FactionSpec, programs: dict[str, Library]):
    steps = [s for _, prog in _programs(f) for s in prog]
    # (a column that runs a program binds its fields as a menu entry does: Law 7.5.2)
    uses = [*steps, *(e for _, menu in _menus(f) for e in menu),
            *(w for c in f.columns for _, w in c.ways())]
    for i, cy in enumerate(f.cycles):
        moves = [by for s in steps for c, by in _advances(s) if c == cy.id]
        sets, reads = _named_cycle_uses(f, programs, cy.id)
        read = reads or any(isinstance(s, M.RunStage) and s.cycle == cy.id for s in steps) \
            or any(_reads_cycle(u, cy.id) for u in uses)
        if not moves and not sets and not any(_may_set_cycle(u, cy.id) for u in uses):
            yield ("cycles", i), f"cycle {cy.id}: no advance_cycle step moves it"
        elif moves and all(by % len(cy.stages) == 0 for by in moves):
            yield ("cycles", i), (f"cycle {cy.id}: advance_cycle moves it by "
                                  f"{' or '.join(sorted({str(b) for b in moves}))} of its "
                                  f"{len(cy.stages)} stages, all the way round: it never "
                                  "leaves its first stage")
        if not read:
            yield ("cycles", i), f"cycle {cy.id}: no run_stage step reads it"


# --------------------------------------------------------------------------- menus


def _menus(doc: Any) -> Iterator[tuple[Loc, list]]:
    """Every menu of a faction (its actions steps) or of a faction's or a card's effects
    (take_actions)."""
    if isinstance(doc, M.FactionSpec):
        for base, steps in _programs(doc):
            for i, s in enumerate(steps):
                if isinstance(s, M.Actions):
                    yield (*base, i, "menu"), s.menu
    for loc, _prog, op in _ops(doc):
        if isinstance(op, M.Actions):
            yield (*loc, "menu"), op.menu


@check("MENU-DUP", "error", "faction, deck",
       "A menu with two entries of one action (two battles, two builds ...): the engine "
       "tells a menu's actions apart by what they do, not by the entry that offers them, "
       "so it would list each of them twice and take the first entry's parameters for "
       "both.",
       example='`"menu": [{"action": "march", "moves": 2}, {"action": "march", "moves": 1}]`')
def _menu_dup(doc: Any):
    # Found by fuzzing: a menu of a hundred copies of the Marquise's entries validated
    # clean and overflowed the core's list of legal actions (a traceback in the first
    # Daylight); two copies already listed every action twice.
    for loc, menu in _menus(doc):
        for k, x, first in _duplicates(m.action for m in menu):
            yield (*loc, k, "action"), (f"a second {x!r} entry in one menu (the first is "
                                        f"entry {first}): one entry per action")


# --------------------------------------------------------------------------- runners


def _key(doc: Any) -> str:
    return f"{doc.kind}:{doc.id}"


class Findings:
    """Collects findings: each once (bundle checks repeat across maps and decks), at
    most MAX_PER_FILE per file (the rest are only counted: a map with a hundred thousand
    duplicate paths must not cost a hundred thousand diagnostics), located last."""

    def __init__(self) -> None:
        self._items: dict[Diagnostic, None] = {}
        self._per: dict[str, int] = {}
        self._unlisted: dict[str, int] = {}

    def add(self, code: str, message: str, file: str, loc: Loc, severity: str) -> None:
        if self._per.get(file, 0) >= MAX_PER_FILE:
            self._unlisted[file] = self._unlisted.get(file, 0) + 1
            return
        d = unlocated(code, message, file, loc, severity)
        if d not in self._items:
            self._items[d] = None
            self._per[file] = self._per.get(file, 0) + 1

    def diagnostics(self) -> list[Diagnostic]:
        return with_lines(list(self._items)) + \
            [too_many(file, n) for file, n in self._unlisted.items()]


def check_document(doc: Any, file: str, into: Findings | None = None) -> Findings:
    """Run every document check on one map, deck or faction (into ``into``)."""
    out = into or Findings()
    for c in CHECKS:
        if c.scope in _SCOPE_TYPES and isinstance(doc, _SCOPE_TYPES[c.scope]):
            for loc, message in c.fn(doc):
                out.add(c.code, message, file, loc, c.severity)
    return out


def check_bundle(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 sources: dict[str, str], into: Findings | None = None,
                 libraries: Iterable[M.LibrarySpec] | None = None) -> Findings:
    """Run every bundle check on a map, a deck and the factions together, and every
    check of the programs their menus run (of ``libraries``, in order, a later one's
    program replacing an earlier one's; None: the standard library alone), into
    ``into``; a finding is in the file of the document it concerns (``sources``:
    'kind:id' -> file)."""
    out = into or Findings()
    if libraries is None:
        from .bundle import standard_library  # the bundle module imports this one

        libraries = (standard_library(),)
    programs = {pid: Library(lib.id, prog, sources.get(_key(lib), ""))
                for lib in libraries for pid, prog in lib.programs.items()}
    for c in CHECKS:
        if c.scope in ("bundle", USES):
            found = c.fn(m, d, fs) if c.scope == "bundle" else c.fn(m, d, fs, programs)
            for doc, loc, message in found:
                out.add(c.code, message, sources.get(_key(doc), ""), loc, c.severity)
    return out


def check_faction_alone(f: M.FactionSpec, file: str, into: Findings | None = None) -> Findings:
    """Run the checks of the programs a faction's menus run that need no map or deck, for
    a faction file validated on its own (into ``into``): its entries are read against the
    standard library, and one naming another program is left to its pack's validation
    (the pack may define it)."""
    from .bundle import standard_library  # the bundle module imports this one

    out = into or Findings()
    lib = standard_library()
    programs = {pid: Library(lib.id, prog, "library.json") for pid, prog in lib.programs.items()}
    for c in CHECKS:
        if c.scope == USES and c.fn not in _NEEDS_BUNDLE:
            for doc, loc, message in c.fn(None, None, (f,), programs):
                if doc is f:
                    out.add(c.code, message, file, loc, c.severity)
    # A name no standard program has may be the pack's program: a warning here, the
    # pack's validation says (a misspelt step op otherwise passed unnoticed).
    for doc, loc, message in _entry_programs(None, None, (f,), programs):
        if doc is f:
            out.add("PROGRAM-REF", f"{message}; unless its pack's library defines it",
                    file, loc, "warning")
    return out


# --------------------------------------------------------------------------- programs


_PIECE, _PIECES, _NUMBER = ("piece",), ("piece", "pieces"), ("number",)


def _of_suits(part: Any) -> Iterator[tuple[tuple, M.OfSuit]]:
    """(where, it) of each 'of_suit' a part reads: its piece, or a track value's."""
    if isinstance(part, M.PlacePart) and isinstance(part.piece, M.OfSuit):
        yield ("piece",), part.piece
    if isinstance(part, M.ReplacePart) and isinstance(part.with_, M.OfSuit):
        yield ("with",), part.with_
    for where, v in _values_of(part):
        if isinstance(v, M.TrackVp) and isinstance(v.track_vp, M.OfSuit):
            yield (*where, "track_vp"), v.track_vp


def _values_of(part: Any) -> Iterator[tuple[tuple, Any]]:
    """(where, it) of each value in a part, nested ones too."""
    todo: list[tuple[tuple, Any]] = [((k,), getattr(part, k, None))
                                     for k in ("count", "vp")]
    while todo:
        at, v = todo.pop()
        if isinstance(v, M.SumValue):
            todo += [((*at, "sum", j), x) for j, x in enumerate(v.sum)]
        elif isinstance(v, M.LeastValue):
            todo += [((*at, "least", j), x) for j, x in enumerate(v.least)]
        elif isinstance(v, M.HalfValue):
            todo.append(((*at, "half"), v.half))
        elif isinstance(v, M.DividedValue):
            todo.append(((*at, "divided"), v.divided))
        elif isinstance(v, M.TimesValue):
            todo += [((*at, "times", j), x) for j, x in enumerate(v.times)]
        elif isinstance(v, M.IfValue):
            todo += [((*at, "then"), v.then), ((*at, "else"), v.else_)]
        elif isinstance(v, M.BaseModel):
            yield at, v


def _pieces_refs(v: str | list | None, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    """A piece or several: a name (a piece or pieces parameter) or a list of pieces, a
    parameter of several spreading out in it (generator: _Resolver.pieces)."""
    if isinstance(v, str):
        yield at, v, _PIECES
    elif v is not None:
        for j, x in enumerate(v):
            yield (*at, j), x, _PIECES


def _filter_refs(f: M.ClearingFilter | None, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    """(where, name, the parameter types it may be) of each name a clearing filter gives."""
    if f is None:
        return
    if f.has is not None:
        yield (*at, "has"), f.has, _PIECE
    if f.suit is not None and f.suit.startswith("$"):
        yield (*at, "suit"), f.suit, ("suit",)
    yield from _pieces_refs(f.lacks, (*at, "lacks"))
    yield from _pieces_refs(f.has_any, (*at, "has_any"))
    if f.when is not None:
        yield from _condition_refs(f.when, (*at, "when"))
    if f.holds is not None:
        yield from _condition_refs(f.holds, (*at, "holds"))
    for j, g in enumerate(f.any_of or ()):
        yield from _filter_refs(g, (*at, "any_of", j))
    if isinstance(f.adjacent_to, M.ClearingFilter):
        yield from _filter_refs(f.adjacent_to, (*at, "adjacent_to"))
    yield from _pieces_refs(f.placeable, (*at, "placeable"))
    for j, g in enumerate(f.first_of or ()):
        yield from _filter_refs(g, (*at, "first_of", j))


def _forest_refs(f: M.ForestFilter, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    """(where, name, the parameter types it may be) of each name a forest filter gives."""
    if f.has is not None:
        yield (*at, "has"), f.has, _PIECE
    yield from _pieces_refs(f.lacks, (*at, "lacks"))
    if isinstance(f.adjacent_to, M.ClearingFilter):
        yield from _filter_refs(f.adjacent_to, (*at, "adjacent_to"))
    yield from _filter_refs(f.away_from, (*at, "away_from"))
    if f.when is not None:
        yield from _condition_refs(f.when, (*at, "when"))


def _value_refs(v: Any, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    if isinstance(v, str):
        yield at, v, _NUMBER
    elif isinstance(v, M.TrackCost):
        yield (*at, "track_cost"), v.track_cost, _PIECE
    elif isinstance(v, M.ClearingCount):
        yield from _filter_refs(v.clearings, (*at, "clearings"))
    elif isinstance(v, M.PiecesAt):
        yield from _pieces_refs(v.pieces, (*at, "pieces"))
    elif isinstance(v, M.SumValue):
        for j, x in enumerate(v.sum):
            yield from _value_refs(x, (*at, "sum", j))
    elif isinstance(v, M.LeastValue):
        for j, x in enumerate(v.least):
            yield from _value_refs(x, (*at, "least", j))
    elif isinstance(v, M.SupplyCount):
        yield from _pieces_refs(v.supply, (*at, "supply"))
    elif isinstance(v, M.BoxValue) and v.box != "piece":
        yield (*at, "box"), v.box, ("box",)
    elif isinstance(v, M.TimesValue):
        for j, x in enumerate(v.times):
            yield from _value_refs(x, (*at, "times", j))
    elif isinstance(v, M.HalfValue):
        yield from _value_refs(v.half, (*at, "half"))
    elif isinstance(v, M.DividedValue):
        yield from _value_refs(v.divided, (*at, "divided"))
    elif isinstance(v, M.IfValue):
        yield from _condition_refs(v.if_, (*at, "if"))
        yield from _value_refs(v.then, (*at, "then"))
        yield from _value_refs(v.else_, (*at, "else"))
    elif isinstance(v, (M.TrackVp, M.DrawBonus, M.CardCount)):
        yield from _card_track_refs(v, at)


_OWN_PLACES = ("hand", "columns")  # places of cards a part names that are no zone


def _card_track_refs(v: Any, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    """The names of a value of cards or tracks (the steps' values)."""
    if isinstance(v, M.TrackVp) and isinstance(v.track_vp, M.OfSuit):
        yield from _pieces_refs(v.track_vp.among, (*at, "track_vp", "among"))
    elif isinstance(v, M.TrackVp) and isinstance(v.track_vp, str):
        yield (*at, "track_vp"), v.track_vp, _PIECE
    elif isinstance(v, M.DrawBonus):
        for j, x in enumerate(v.draw_bonus):
            yield (*at, "draw_bonus", j), x, _PIECES
    else:
        if v.cards not in _OWN_PLACES:
            yield (*at, "cards"), v.cards, ("zone",)
        if v.suit is not None and v.suit.startswith("$"):
            yield (*at, "suit"), v.suit, ("suit",)


def _step_part_refs(part: Any) -> Iterator[tuple[tuple, str, tuple]]:
    """The names of a part that scores, draws or discards (or, in an effect program,
    an 'if''s condition, a move's count)."""
    if isinstance(part, M.IfPart):
        yield from _condition_refs(part.if_, ("if",))
    elif isinstance(part, M.MovePart) and part.count is not None:
        yield from _value_refs(part.count, ("count",))
    elif isinstance(part, M.ScorePart):
        yield from _value_refs(part.vp, ("vp",))
    elif isinstance(part, M.DrawPart):
        yield from _value_refs(part.count, ("count",))
        if part.into is not None:
            yield ("into",), part.into, ("zone",)
    elif isinstance(part, M.GivePart) and part.into is not None:
        yield ("into",), part.into, ("zone",)
    elif isinstance(part, M.DiscardAllPart) and part.source not in _OWN_PLACES:
        yield ("from",), part.source, ("zone",)
    elif isinstance(part, M.PutAllPart):
        for key, ref in (("from", part.source), ("into", part.into)):
            if ref not in _OWN_PLACES:
                yield (key,), ref, ("zone",)


def _condition_refs(c: Any, at: tuple) -> Iterator[tuple[tuple, str, tuple]]:
    if isinstance(c, M.AtLeast):
        for j, x in enumerate(c.at_least):
            yield from _value_refs(x, (*at, "at_least", j))
    elif isinstance(c, M.NoneOnMap):
        yield from _pieces_refs(c.none_on_map, (*at, "none_on_map"))
    elif isinstance(c, M.NotCondition):
        yield from _condition_refs(c.not_, (*at, "not"))
    elif isinstance(c, (M.AllOf, M.AnyOf)):
        key = "all_of" if isinstance(c, M.AllOf) else "any_of"
        for j, x in enumerate(getattr(c, key)):
            yield from _condition_refs(x, (*at, key, j))
    elif isinstance(c, M.Here):
        yield from _filter_refs(c.here, (*at, "here"))
    elif isinstance(c, M.MostCards):
        if c.most_cards not in _OWN_PLACES:
            yield (*at, "most_cards"), c.most_cards, ("zone",)
        if c.suit.startswith("$"):
            yield (*at, "suit"), c.suit, ("suit",)


def _part_refs(part: Any) -> Iterator[tuple[tuple, str, tuple]]:
    """(where in the part, name, the parameter types it may be) of each name a program
    part gives."""
    if isinstance(part, M.MovePart) or (isinstance(part, M.RevealPart) and
                                        part.piece == "piece"):
        return  # the piece a second choice chose
    if isinstance(part, M.SwapPart):
        # one piece, a pieces parameter, or a list of either (spread out in it)
        refs = [part.pieces] if isinstance(part.pieces, str) else part.pieces
        for j, x in enumerate(refs):
            yield ("pieces",) if isinstance(part.pieces, str) else ("pieces", j), x, _PIECES
        return
    if isinstance(part, M.ChoosePart) and part.forest is not None:
        yield from _forest_refs(part.forest, ("forest",))
        if part.piece is not None:
            yield from _pieces_refs(part.piece.among, ("piece", "among"))
            if part.piece.same_type_as is not None:
                yield from _pieces_refs(part.piece.same_type_as, ("piece", "same_type_as"))
        return
    for key, want in (("piece", _PIECE), ("zone", ("zone",)), ("box", ("box",))):
        v = getattr(part, key, None)
        if isinstance(v, str):
            yield (key,), v, want
    at = getattr(part, "at", None)
    if isinstance(at, M.AtEach):
        yield ("at", "each"), at.each, _PIECE
    if isinstance(at, M.ClearingFilter):
        yield from _filter_refs(at, ("at",))
    if isinstance(at, M.AtEachClearing):
        yield from _filter_refs(at.each_clearing, ("at", "each_clearing"))
    if isinstance(at, M.AtEachForest):
        yield from _forest_refs(at.each_forest, ("at", "each_forest"))
    if isinstance(at, M.AtForest):
        yield from _forest_refs(at.forest, ("at", "forest"))
    if isinstance(part, M.PlacePart):
        if isinstance(part.piece, M.OfSuit):
            yield from _pieces_refs(part.piece.among, ("piece", "among"))
        if isinstance(part.piece, M.RandomPiece):
            yield from _pieces_refs(part.piece.random, ("piece", "random"))
        yield from _value_refs(part.count, ("count",))
    if isinstance(part, M.SpendPart):
        if part.source != "hand":
            yield ("from",), part.source, ("zone",)
        yield from _value_refs(part.count, ("count",))
    if isinstance(part, (M.PayPart, M.IntoBoxPart)):
        yield from _value_refs(part.count, ("count",))
    if isinstance(part, M.ReplacePart) and isinstance(part.with_, M.OfSuit):
        yield from _pieces_refs(part.with_.among, ("with", "among"))
    elif isinstance(part, M.ReplacePart) and isinstance(part.with_, str):
        yield ("with",), part.with_, _PIECE
    if isinstance(part, M.IfPart):
        yield from _condition_refs(part.if_, ("if",))
    if isinstance(part, M.ChoosePart) and part.piece is not None:
        yield from _pieces_refs(part.piece.among, ("piece", "among"))
        if part.piece.same_type_as is not None:
            yield from _pieces_refs(part.piece.same_type_as, ("piece", "same_type_as"))
    if isinstance(part, M.ChoosePart):
        yield from _filter_refs(part.clearing, ("clearing",))
        if part.card is not None and isinstance(part.card.matching, M.ClearingFilter):
            yield from _filter_refs(part.card.matching, ("card", "matching"))
    yield from _step_part_refs(part)


def _filters_in(f: M.ClearingFilter | None, at: tuple) -> Iterator[tuple[tuple, Any]]:
    """(where, filter) of a clearing filter and every filter nested in it."""
    if f is None:
        return
    yield at, f
    if f.when is not None:
        yield from _value_filters(f.when, (*at, "when"))
    if f.holds is not None:
        yield from _value_filters(f.holds, (*at, "holds"))
    for j, g in enumerate(f.any_of or ()):
        yield from _filters_in(g, (*at, "any_of", j))
    if isinstance(f.adjacent_to, M.ClearingFilter):
        yield from _filters_in(f.adjacent_to, (*at, "adjacent_to"))


def _value_filters(v: Any, at: tuple) -> Iterator[tuple[tuple, Any]]:
    """(where, filter) of every clearing filter of a value or condition."""
    if isinstance(v, M.ClearingCount):
        yield from _filters_in(v.clearings, (*at, "clearings"))
    elif isinstance(v, M.SumValue):
        for j, x in enumerate(v.sum):
            yield from _value_filters(x, (*at, "sum", j))
    elif isinstance(v, M.IfValue):
        yield from _value_filters(v.if_, (*at, "if"))
        yield from _value_filters(v.then, (*at, "then"))
        yield from _value_filters(v.else_, (*at, "else"))
    elif isinstance(v, M.AtLeast):
        for j, x in enumerate(v.at_least):
            yield from _value_filters(x, (*at, "at_least", j))
    elif isinstance(v, M.NotCondition):
        yield from _value_filters(v.not_, (*at, "not"))


def _filters_of(part: Any) -> Iterator[tuple[tuple, Any]]:
    """(where, filter) of every clearing filter of a part, nested ones too."""
    if isinstance(part, M.ChoosePart):
        yield from _filters_in(part.clearing, ("clearing",))
        if part.card is not None and isinstance(part.card.matching, M.ClearingFilter):
            yield from _filters_in(part.card.matching, ("card", "matching"))
    if isinstance(part, M.RemovePart) and isinstance(part.at, M.ClearingFilter):
        yield from _filters_in(part.at, ("at",))
    yield from _value_filters(getattr(part, "count", None), ("count",))


def _counts_in_clearing(v: Any) -> bool:
    """Whether a value or condition reads the chosen clearing (pieces there, its suit)."""
    if isinstance(v, (M.WarriorsAt, M.PiecesAt)):
        return True
    if isinstance(v, M.ClearingCount):
        return any(f.suit == "clearing" for _, f in _value_filters(v, ()))
    if isinstance(v, M.SumValue):
        return any(_counts_in_clearing(x) for x in v.sum)
    if isinstance(v, M.IfValue):
        return any(_counts_in_clearing(x) for x in (v.if_, v.then, v.else_))
    if isinstance(v, M.AtLeast):
        return any(_counts_in_clearing(x) for x in v.at_least)
    if isinstance(v, M.NotCondition):
        return _counts_in_clearing(v.not_)
    return False


def _whens(f: M.ClearingFilter | None, at: tuple) -> Iterator[tuple[tuple, Any]]:
    """(where, condition) of each 'when' of a filter, nested ones too."""
    if f is None:
        return
    if f.when is not None:
        yield (*at, "when"), f.when
    for j, g in enumerate(f.any_of or ()):
        yield from _whens(g, (*at, "any_of", j))
    if isinstance(f.adjacent_to, M.ClearingFilter):
        yield from _whens(f.adjacent_to, (*at, "adjacent_to"))


@check("PROGRAM-REF", "error", "library",
       "A program's part names a parameter the program does not declare ('$name'), or one "
       "of the wrong type (a zone where a piece goes ...).",
       example="library.json:9: PROGRAM-REF at /programs/train/do/2/box: '$boxes' is no "
               "parameter of train (its parameters: buildings, box)")
def _program_refs(lib: M.LibrarySpec) -> Iterator[tuple[Loc, str]]:
    for pid, prog in lib.programs.items():
        for i, part in M.flat_parts(prog.do):
            for where, v, want in _part_refs(part):
                if not v.startswith("$"):
                    continue
                name = v[1:]
                loc = ("programs", pid, "do", *i, *where)
                if name not in prog.params:
                    known = ", ".join(prog.params) or "none"
                    yield loc, f"{v!r} is no parameter of {pid} (its parameters: {known})"
                    continue
                typ = prog.param_types()[name]
                if M.param_family(typ) not in want:
                    key = "/".join(str(x) for x in where if not isinstance(x, int))
                    yield loc, (f"{v!r} is a {typ} parameter; {key} takes "
                                f"{' or '.join(want)}")


@check("PROGRAM-SHAPE", "error", "library",
       "A program the engine cannot offer: its verb is an engine action type whose options "
       "are not what its first choice chooses, an engine word that is no verb ('move', "
       "'battle', 'done', 'use' ...), a word with a '-', or the content's own verb of "
       "another program whose first choice chooses another thing (one verb, one action "
       "type); a choice is not its first part, a part acts on a "
       "card or a clearing no choice chose (a 'spend', an 'of_suit' piece, a filter's "
       "'suit'), a second 'spend', a second cost ('spend' or 'pay'), 'piece' where no "
       "piece is chosen, a card part after a 'spend', a 'replace' whose first choice "
       "chooses more than a clearing, a second 'replace', a 'replace' after a cost, a "
       "filter's 'when' (the "
       "same for every clearing) counts pieces in the clearing being chosen, or a filter "
       "has and lacks one piece (it passes no clearing), or a part for a 'who' other "
       "than 'self' (only an effect program has a target or an opponent), a 'give' "
       "or 'show' (a card between two players: an effect program's part), or a piece "
       "drawn at random ('random') placed elsewhere than in each clearing or forest of "
       "a filter; 'hides' anywhere but as an 'if' of its own, or with no piece 'named' "
       "before it; a piece 'named' in a forest; a placement inside an 'if' that scores or "
       "lays a face face down.",
       example="library.json:4: PROGRAM-SHAPE at /programs/perch/verb: 'mobilize' is "
               "offered one card at a time; perch's first choice chooses a clearing")
def _program_shape(lib: M.LibrarySpec) -> Iterator[tuple[Loc, str]]:
    own: dict[str, tuple[str, str]] = {}  # a content verb: its first program, its shape
    for pid, prog in lib.programs.items():
        first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
        chose = M.shape_chosen(prog)
        if chose == "nothing":
            yield ("programs", pid, "do", 0), f"{pid}: a choice chooses a clearing, a card " \
                "or both, or a cycle's stage alone" + (
                    " (a 'number' is a second choice's, after a first choice of a clearing)"
                    if first is not None and first.number is not None else "")
            continue
        if prog.verb is None and chose != "none":
            yield ("programs", pid), (
                f"{pid}: its first part is a choice, so it is an action and needs a 'verb' "
                f"(one of the engine's: {', '.join(M.VERB_SHAPES)}; or a word of its own)")
        elif prog.verb is not None:
            yield from _verb_shape(pid, prog.verb, chose, own)
        yield from _pay_shape(pid, prog, chose)
        key = prog.once_per_turn
        if key in ("suit", "clearing") and not (
                key in chose or (key == "suit" and ("card" in chose or "clearing" in chose))):
            yield ("programs", pid, "once_per_turn"), (
                f"{pid}: once per turn for each {key}: the {key} is the chosen "
                f"{'card or clearing' if key == 'suit' else 'clearing'}'s, and the program's "
                f"first part chooses no {'card or clearing' if key == 'suit' else 'clearing'}")
        for at, part in M.flat_parts(prog.do):
            if len(at) > 1 and isinstance(part, M.DiscardPart) and part.card == "chosen" \
                    and "card" not in chose:  # inside an 'if'
                yield ("programs", pid, "do", *at), \
                    f"{pid}: 'discard' acts on the chosen card, and no card is chosen"
            if len(at) > 1 and getattr(part, "who", "self") != "self":  # inside an 'if'
                yield ("programs", pid, "do", *at, "who"), (
                    f"{pid}: '{part.op}' for {part.who!r}: only an effect program has a "
                    "target or a battle's opponent; a program's parts are its actor's")
            if len(at) > 1 and isinstance(part, M.PlacePart) and (part.score or
                                                                   part.face_down):
                key, does = ("score", "scores") if part.score else \
                    ("face_down", "lays a face face down")
                yield ("programs", pid, "do", *at, key), (
                    f"{pid}: a placement that {does} is no part of an 'if' (one in an "
                    "'if' places where it can, or nothing)")
            if len(at) > 1 and isinstance(part, M.PlacePart):
                # (the checks below of the program's own parts, for an 'if''s)
                if isinstance(part.at, M.AtForest):
                    yield ("programs", pid, "do", *at, "at"), (
                        f"{pid}: a piece placed in a forest of the actor's choice is an "
                        "effect program's")
                each = (M.AtEachClearing, M.AtEachForest)
                if part.evenly and not isinstance(part.at, each):
                    yield ("programs", pid, "do", *at, "evenly"), (
                        f"{pid}: 'evenly' deals the count among each clearing or forest "
                        "of a filter ('at': each_clearing or each_forest)")
                if isinstance(part.piece, M.RandomPiece) and not isinstance(part.at, each):
                    yield ("programs", pid, "do", *at, "piece"), (
                        f"{pid}: a piece drawn at random is placed in each clearing or "
                        "forest of a filter ('at': each_clearing or each_forest)")
                if part.at == "clearing" and "clearing" not in chose:
                    yield ("programs", pid, "do", *at), (
                        f"{pid}: 'place' acts in the chosen clearing, and no clearing is "
                        "chosen")
        named = any(isinstance(x, M.ChoosePart) and x.piece is not None and x.piece.named
                    for x in prog.do)
        card_later = any(isinstance(x, M.ChoosePart) and x.card is not None
                         for x in prog.do[1:])
        for at, part in M.flat_parts(prog.do):
            if isinstance(part, M.IfPart) and isinstance(part.if_, M.Hides) and \
                    part.if_.hides == "piece" and not named:
                yield ("programs", pid, "do", *at, "if"), (
                    f"{pid}: 'hides' 'piece' reads the piece a second choice 'named', and "
                    "no choice before it names one")
            if not isinstance(part, M.IfPart) and \
                    any(isinstance(x, M.Hides) for x in M.walk(part)):
                yield ("programs", pid, "do", *at), (
                    f"{pid}: 'hides' is a guess answered aloud: it is an 'if' of its own "
                    "(not inside a filter, a value or another condition)")
            if isinstance(part, M.IfPart) and not isinstance(part.if_, M.Hides) and \
                    any(isinstance(x, M.Hides) for x in M.walk(part.if_)):
                yield ("programs", pid, "do", *at, "if"), (
                    f"{pid}: 'hides' is a guess answered aloud: it is an 'if' of its own "
                    "(not inside 'not', 'all_of' or 'any_of')")
            if M.chosen_card_part(part) and "card" not in chose and not card_later:
                yield ("programs", pid, "do", *at), (
                    f"{pid}: '{part.op}' of the chosen card, and no card is chosen")
        for i, part in enumerate(prog.do):
            who = getattr(part, "who", "self")
            if M.chosen_card_part(part):
                pass  # the chosen card to an offer's holder (PROGRAM-USE: an offer's)
            elif isinstance(part, (M.GivePart, M.ShowPart)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: '{part.op}' is a card between two players, an effect "
                    "program's part (a program's parts are its actor's alone)")
            elif isinstance(part, M.TakePart) and part.source == "discard":
                yield ("programs", pid, "do", i), (
                    f"{pid}: a 'take' from the discard pile is an effect program's part; "
                    "a program takes 'from' 'others_here' (at random, asking nothing)")
            elif who != "self":
                yield ("programs", pid, "do", i, "who"), (
                    f"{pid}: '{part.op}' for {who!r}: only an effect program has a "
                    "target or a battle's opponent; a program's parts are its actor's")
            if isinstance(part, M.ChoosePart) and i > 0:
                yield from _second_choice_shape(pid, prog, i, part, chose)
            if isinstance(part, M.ChoosePart) and i == 0 and part.clearing is not None and \
                    any(isinstance(x, M.ClearingFilter) and x.adjacent_to == "clearing"
                        for x in M.walk(part.clearing)):
                yield ("programs", pid, "do", i, "clearing"), (
                    f"{pid}: 'adjacent_to': 'clearing' reads the chosen clearing, which "
                    "this first choice is choosing (a filter after it may read it)")
            second = any(isinstance(x, M.ChoosePart) for x in prog.do[1:i])
            second_clearing = any(isinstance(x, M.ChoosePart) and x.clearing is not None
                                  for x in prog.do[1:i])
            # (a second choice of a piece, or of a forest and a piece: not a number's)
            second_piece = any(isinstance(x, M.ChoosePart) and x.piece is not None
                               for x in prog.do[1:i])
            second_forest = any(isinstance(x, M.ChoosePart) and x.forest is not None
                                for x in prog.do[1:i])
            if isinstance(part, M.SwapPart) and not second_clearing:
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'swap' exchanges pieces between the chosen clearing and the "
                    "one a second choice chose, and no choice before it chooses one")
            if isinstance(part, M.RevealPart) and part.piece == "piece" and not second_piece:
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'reveal' turns over the piece a second choice chose, and no "
                    "choice before it chooses one (or name the piece: 'piece': a token "
                    "in the chosen clearing)")
            if isinstance(part, M.RevealPart) and part.piece != "piece" and \
                    (prog.do[0].op != "choose" or prog.do[0].clearing is None):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'reveal' of {part.piece!r} turns one over in the chosen "
                    "clearing, and the program's first choice chooses none")
            if not second_forest and any(isinstance(x, M.ClearingFilter) and
                                         x.adjacent_to_forest is not None
                                         for x in M.walk(part)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: a filter's 'adjacent_to_forest' reads the forest a second "
                    "choice chose, and no choice before it chooses one")
            if any(isinstance(f, (M.ClearingFilter, M.ForestFilter)) and
                   any(isinstance(x, M.ChosenValue) for x in M.walk(f))
                   for f in M.walk(part)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: {{\"chosen\": \"number\"}} is read by a part's own count, "
                    "value or condition, not inside a clearing's or forest's filter")
            elif not any(isinstance(x, M.ChoosePart) and x.number is not None
                         for x in prog.do[1:i]) and any(
                    isinstance(x, M.ChosenValue) for x in M.walk(part)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: {{\"chosen\": \"number\"}} reads the number a second choice "
                    "chose, and no choice before it chooses one")
            if not second_piece and chose != "piece_clearing" and any(
                    isinstance(x, M.ValueOf) for x in M.walk(part)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'value_of' reads the chosen piece, and no piece is chosen "
                    "before it")
            if isinstance(part, M.DiscardPart) and part.card == "this":
                yield ("programs", pid, "do", i, "card"), (
                    f"{pid}: 'this' card is a card's effect program's; a program discards "
                    "the card its choice chose, or the column's card it resolves")
            if isinstance(part, M.MovePart) and (
                    part.piece == "warrior" or part.who != "self" or part.count is not None
                    or part.ignore_rule):
                yield ("programs", pid, "do", i), (
                    f"{pid}: a 'move' of 'warrior' (with its 'who', 'count', "
                    "'ignore_rule') is an effect program's: a program's moves are a "
                    "menu's march (Law 4.2), its 'move' the piece a second choice chose")
            elif isinstance(part, M.MovePart) and not second_piece:
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'move' moves the piece a second choice chose, and no choice "
                    "before it chooses one")
            elif isinstance(part, M.MovePart) and (part.source, part.to) not in (
                    ("forest", "clearing"), ("clearing", "box")):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'move' from the {part.source} to the {part.to}: a piece moves "
                    "from its forest into the chosen clearing, or from the clearing into a "
                    "box")
            elif isinstance(part, M.MovePart) and part.source == "forest" and not any(
                    isinstance(x, M.ChoosePart) and x.forest is not None
                    for x in prog.do[1:i]):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'move' from the forest moves a piece a second choice chose in "
                    "a forest, and the choice before it chooses a piece in the clearing")
            elif isinstance(part, M.MovePart) and part.source == "clearing" and any(
                    isinstance(x, M.ChoosePart) and x.forest is not None
                    for x in prog.do[1:i]):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'move' from the clearing moves a piece a second choice chose in "
                    "the clearing, and the choice before it chooses one in a forest")
            if second and isinstance(part, (M.BattlePart, M.PayPart, M.SpendPart)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: a '{part.op}' after a second choice: a battle or a cost comes "
                    "before the second choice (the parts after it run as it is answered)")
            if second and any(isinstance(x, M.DiscardPart) and x.card == "chosen"
                              for _, x in M.flat_parts([part])):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'discard' of the chosen card after a second choice: discard it "
                    "before the second choice")
            if not second_piece and any(isinstance(x, M.BoxValue) and x.box == "piece"
                                  for x in M.walk(part)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: the box that holds 'piece' reads the piece a second choice "
                    "chose, and no choice before it chooses one")
            if not second and any(isinstance(x, M.StopPart) for _, x in
                                  M.flat_parts([part])):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'stop' ends the parts after a second choice, and no choice "
                    "before it chooses one")
            if isinstance(part, M.ChoosePart) and i == 0 and (
                    part.repeat or (part.piece is not None and
                                    part.piece.same_type_as is not None)):
                yield ("programs", pid, "do", i), (
                    f"{pid}: 'repeat' and 'same_type_as' are a second choice's, after a "
                    "first choice of a clearing")
            if isinstance(part, M.ChoosePart) and i == 0 and part.forest is not None:
                yield ("programs", pid, "do", i, "forest"), (
                    f"{pid}: a forest is a second choice's, after a first choice of a "
                    "clearing")
            if isinstance(part, M.PlacePart) and isinstance(part.piece, M.OfSuit) and \
                    isinstance(part.at, M.AtEachForest):
                yield ("programs", pid, "do", i, "piece"), (
                    f"{pid}: a piece of a suit ('of_suit') is placed in the chosen clearing, "
                    "not in forests")
            if isinstance(part, M.PlacePart) and isinstance(part.at, M.AtForest):
                yield ("programs", pid, "do", i, "at"), (
                    f"{pid}: a piece placed in a forest of the actor's choice is an effect "
                    "program's (a trigger's: Law 15.2.5); a program's choice of a forest "
                    "is a second choice ('choose' with 'forest')")
            if isinstance(part, M.PlacePart) and part.evenly and \
                    not isinstance(part.at, (M.AtEachClearing, M.AtEachForest)):
                yield ("programs", pid, "do", i, "evenly"), (
                    f"{pid}: 'evenly' deals the count among each clearing or forest of a "
                    "filter ('at': each_clearing or each_forest)")
            if isinstance(part, M.PlacePart) and isinstance(part.piece, M.RandomPiece) and \
                    not isinstance(part.at, (M.AtEachClearing, M.AtEachForest)):
                yield ("programs", pid, "do", i, "piece"), (
                    f"{pid}: a piece drawn at random is placed in each clearing or forest "
                    "of a filter ('at': each_clearing or each_forest)")
            if isinstance(part, (M.DiscardPart, M.PutPart)) and "card" not in chose and \
                    getattr(part, "card", "chosen") == "chosen":
                yield ("programs", pid, "do", i), \
                    f"{pid}: '{part.op}' acts on the chosen card, and no card is chosen"
            if isinstance(part, M.ReplacePart):
                yield from _replace_shape(pid, prog, i, first)
            clearing_part = isinstance(part, (M.SpendPart, M.PayPart, M.ReplacePart,
                                              M.TakeHomePart, M.BattlePart)) or (
                isinstance(part, (M.PlacePart, M.RemovePart)) and part.at == "clearing") or (
                isinstance(part, M.DiscardAllPart) and part.matching is not None)
            if clearing_part and "clearing" not in chose:
                yield ("programs", pid, "do", i), \
                    f"{pid}: '{part.op}' acts in the chosen clearing, and no clearing is chosen"
            if isinstance(part, M.SpendPart) and any(
                    isinstance(x, M.SpendPart) for x in prog.do[:i]):
                yield ("programs", pid, "do", i), \
                    f"{pid}: one 'spend' a program (the parts after it wait on its payment)"
            if isinstance(part, M.BattlePart) and any(
                    isinstance(x, (M.SpendPart, M.PayPart, M.BattlePart))
                    for j, x in enumerate(prog.do) if j != i):
                yield ("programs", pid, "do", i), \
                    f"{pid}: one 'battle' a program, and no cost ('spend', 'pay') with it, " \
                    "for now (the parts after it wait on the battle)"
            if isinstance(part, M.BattlePart) and "clearing" in chose and chose != "clearing":
                yield ("programs", pid, "do", i), \
                    f"{pid}: a 'battle' follows a choice of a clearing alone, for now (the " \
                    "parts after it keep the clearing, not a chosen card or piece)"
            if isinstance(part, (M.DiscardPart, M.PutPart)) and \
                    getattr(part, "card", "chosen") == "chosen" and any(
                    isinstance(x, M.SpendPart) for x in prog.do[:i]):
                yield ("programs", pid, "do", i), \
                    f"{pid}: '{part.op}' acts on the chosen card, which a 'spend' before " \
                    "it does not keep: put it before the 'spend'"
            for where, v in _values_of(part):
                if isinstance(v, M.EventPieces):
                    yield ("programs", pid, "do", i, *where), \
                        f"{pid}: {{'event': 'pieces'}} is what a trigger's event removed " \
                        "or moved, and a library program is no trigger's: write the part " \
                        "in the trigger's 'do'"
            for where, ofs in _of_suits(part):
                if ofs.of_suit not in chose:
                    yield ("programs", pid, "do", i, *where), \
                        f"{pid}: 'of_suit' is the chosen {ofs.of_suit}'s suit, and no " \
                        f"{ofs.of_suit} is chosen"
            if "clearing" not in chose:
                for where, f in _filters_of(part):
                    if f.suit == "clearing":
                        yield ("programs", pid, "do", i, *where, "suit"), \
                            f"{pid}: 'suit' is the chosen clearing's, and no clearing is " \
                            "chosen"
            for where, f in _filters_of(part):
                lacks = [f.lacks] if isinstance(f.lacks, str) else (f.lacks or [])
                if f.has is not None and f.has in lacks:
                    yield ("programs", pid, "do", i, *where, "lacks"), \
                        f"{pid}: no clearing both has and lacks {f.has!r}: this filter " \
                        "passes none"
            if isinstance(part, M.ChoosePart):
                fs: list[tuple[tuple[str, ...], M.ClearingFilter | None]] = \
                    [(("clearing",), part.clearing)]
                if part.card is not None and isinstance(part.card.matching, M.ClearingFilter):
                    fs.append((("card", "matching"), part.card.matching))
                for at, f in fs:
                    for where, cond in _whens(f, at):
                        if _counts_in_clearing(cond):
                            yield ("programs", pid, "do", i, *where), \
                                f"{pid}: a filter's 'when' is the same for every clearing, " \
                                "so it cannot count pieces in 'the clearing': this choice " \
                                "is choosing it"


def _replace_shape(pid: str, prog: M.Program, i: int,
                   first: M.ChoosePart | None) -> Iterator[tuple[Loc, str]]:
    """PROGRAM-SHAPE of a 'replace': the piece it replaces is part of the action's option
    with the clearing, so the first choice chooses a clearing alone, one 'replace' a
    program, none after a 'pay' (the parts after a cost wait on its payment: a spend's
    keeps the piece, S_BUILD_PENDING, a pay's not yet)."""
    at = ("programs", pid, "do", i)
    if first is not None and (first.card is not None or first.piece is not None):
        yield at, (f"{pid}: 'replace' chooses the piece it replaces with the clearing, so "
                   "the first choice chooses a clearing alone (no card, no piece)")
    if any(isinstance(x, M.ReplacePart) for x in prog.do[:i]):
        yield at, f"{pid}: one 'replace' a program (its piece is the action's option)"
    if any(isinstance(x, M.PayPart) for x in prog.do[:i]):
        yield at, f"{pid}: a 'replace' after a 'pay' is not supported yet"


_WHAT = {"none": "as one action", "card": "one card at a time",
         "clearing": "one clearing at a time",
         "clearing_card": "one clearing and card at a time",
         "piece_clearing": "one piece and clearing at a time",
         "stage": "one stage of a cycle at a time"}
_CHOSEN = {"none": "nothing", "card": "a card", "clearing": "a clearing",
           "clearing_card": "a clearing and a card", "piece_clearing": "a piece and a clearing",
           "stage": "a cycle's stage"}


def _verb_shape(pid: str, verb: str, chose: str,
                own: dict[str, tuple[str, str]]) -> Iterator[tuple[Loc, str]]:
    """PROGRAM-SHAPE of a program's verb: an engine verb of another shape, an engine word
    that is no verb, a word with '-', a content verb ``own`` holds with another shape
    (``own``: each content verb's first program and shape, filled in)."""
    at = ("programs", pid, "verb")
    if verb == M.STEP_CHOICE_VERB:
        if chose != "clearing":
            yield at, (f"{verb!r} is a step's choice of a clearing alone ('clearing <n>'); "
                       f"{pid}'s first choice chooses {_CHOSEN[chose]}")
        return
    shape = M.VERB_SHAPES.get(verb)
    if shape is not None:
        if shape != chose:
            yield at, (f"{verb!r} is offered {_WHAT[shape]}; {pid}'s first choice chooses "
                       f"{_CHOSEN[chose]}")
        return
    if verb in M.ENGINE_WORDS:
        yield at, (f"{verb!r} is the engine's own action word, no verb a program can be "
                   f"offered as: give the action a word of its own (or one of the engine's "
                   f"verbs: {', '.join(M.VERB_SHAPES)})")
        return
    if "-" in verb:
        yield at, f"{verb!r}: a verb is one word of letters, digits and '_' (no '-')"
        return
    if verb in own and own[verb][1] != chose:
        other, shape = own[verb]
        yield at, (f"{verb!r} is {other}'s verb, offered {_WHAT[shape]}; {pid}'s first "
                   f"choice chooses {_CHOSEN[chose]} (one verb is one action type: give "
                   "one of them another word)")
        return
    own.setdefault(verb, (pid, chose))


@dataclass(frozen=True)
class _LibraryDoc:
    """A library as a finding's document (its kind and id: the file it is in)."""

    id: str
    kind: str = "library"


@check("PROGRAM-SHAPE", "error", USES,
       "The content's own verb of programs of two of the bundle's libraries whose first "
       "choices choose different things (one verb is one action type of the bundle).",
       example="terns.json:7: PROGRAM-SHAPE at /programs/gobble/verb: 'swallow' is "
               "gulp's verb, offered one clearing at a time; gobble's first choice chooses "
               "a card (one verb is one action type: give one of them another word)")
def _bundle_verbs(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    own: dict[str, tuple[str, str]] = {}
    where: dict[str, str] = {}  # a content verb: the library of its first program
    for pid, lib in programs.items():
        verb = lib.program.verb
        if verb is None or verb in M.VERB_SHAPES or verb in M.ENGINE_WORDS or "-" in verb:
            continue  # the library's own check's
        chose = M.shape_chosen(lib.program)
        if verb in own and where[verb] == lib.id:
            continue  # one library's: its own check's
        for loc, message in _verb_shape(pid, verb, chose, own):
            yield _LibraryDoc(lib.id), loc, message
        where.setdefault(verb, lib.id)


@check("MENU-DUP", "error", USES,
       "A menu with two entries running programs of one verb (two programs both "
       "'sanctify', or both 'recruit'): an action's type is its verb, so the engine "
       "would list their options as one type's and take the first entry's for both.",
       example="lizards.json:24: MENU-DUP at /turn/daylight/1/menu/4/action: 'bless' "
               "runs a program of verb 'sanctify', as entry 2 ('sanctify') does: one "
               "entry per verb")
def _menu_verb_dup(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                   programs: dict[str, Library]):
    for doc in (*fs, *([d] if d is not None else [])):
        for loc, menu in _menus(doc):
            verbs = [(k, e.action, programs[e.action].program.verb) for k, e in
                     enumerate(menu) if e.action in programs and
                     programs[e.action].program.verb is not None]
            seen: dict[str, tuple[int, str]] = {}
            for k, action, verb in verbs:
                assert verb is not None
                if verb in seen and seen[verb][1] != action:  # one action twice: MENU-DUP's
                    first, other = seen[verb]
                    yield doc, (*loc, k, "action"), (
                        f"{action!r} runs a program of verb {verb!r}, as entry {first} "
                        f"({other!r}) does: one entry per verb")
                seen.setdefault(verb, (k, action))


# The parts that may follow a second choice that repeats: none of them asks anything or
# sets anything off that waits (the choice is asked again as they end).
_REPEATABLE = (M.MovePart, M.RevealPart, M.ScorePart, M.DrawPart, M.IfPart, M.StopPart,
               M.DiscardPart, M.SetStagePart, M.PutAllPart, M.DiscardAllPart)


def _second_choice_shape(pid: str, prog: M.Program, i: int, part: M.ChoosePart,
                         chose: str) -> Iterator[tuple[Loc, str]]:
    """PROGRAM-SHAPE of a choice after the first part: a forest and a piece in it, or a
    piece in the chosen clearing, once, after a first choice of a clearing (and no
    piece); one that repeats, followed by parts that ask nothing."""
    at: Loc = ("programs", pid, "do", i)
    number = part.number is not None
    another = part.clearing is not None and part.piece is None and part.forest is None \
        and part.card is None and part.stage is None and not number
    card = part.card is not None and part.clearing is None and part.piece is None and \
        part.forest is None and part.stage is None and not number
    alone = part.clearing is None and part.piece is None and part.forest is None and \
        part.card is None and part.stage is None
    first = prog.do[0]
    named_first = isinstance(first, M.ChoosePart) and first.piece is not None and \
        first.piece.named
    if number and not alone:
        yield (*at, "number"), (f"{pid}: a 'number' is chosen alone (Law 12.5.1, Dig: "
                                "a count of warriors), not with a clearing, a card, a "
                                "piece, a forest or a stage")
    elif number and part.repeat:
        yield (*at, "repeat"), f"{pid}: a number is chosen once"
    elif number and any(isinstance(x, (M.TakenValue, M.ChosenValue))
                        for x in M.walk(part.number)):
        yield (*at, "number"), (f"{pid}: a number's 'min' and 'max' read the game, not "
                                "'taken' nor the number itself")
    elif not number and not another and not card and (
            part.piece is None or part.clearing is not None or part.card is not None or
            part.stage is not None):
        yield at, (f"{pid}: a second choice chooses a 'forest' and a 'piece' in it (Law "
                   "15.5.2: a relic from an adjacent forest), a 'piece' in the chosen "
                   "clearing (Recover: a relic there), another 'clearing' (13.5.4, "
                   "Trick), a 'card' of the hand (13.2.4, Exposure), or a 'number' "
                   "(12.5.1, Dig), nothing else")
    elif card and not isinstance(part.card.matching, (str, type(None))):
        yield (*at, "card", "matching"), (
            f"{pid}: a second choice's card matches the chosen clearing ('matching': "
            "'clearing'), not a filter of its own")
    elif not (chose in ("clearing", "clearing_card") or
              (card and chose == "piece_clearing" and named_first)):
        yield at, (f"{pid}: a second choice follows a first choice of a clearing (and "
                   "no piece; a second choice of a card may follow a piece 'named' too)")
    elif any(isinstance(x, M.ChoosePart) for x in prog.do[1:i]):
        yield at, f"{pid}: one second choice a program, for now"
    elif another and (part.optional or part.repeat):
        yield at, f"{pid}: a second choice of a clearing is asked once, and not declined"
    elif part.piece is not None and part.piece.named and \
            (part.forest is not None or part.piece.same_type_as is not None):
        yield (*at, "piece", "named"), (
            f"{pid}: a piece 'named' is a guess, not one on the map: no forest, no "
            "'same_type_as'")
    elif part.forest is not None and part.piece is not None and \
            part.piece.same_type_as is not None:
        yield (*at, "piece", "same_type_as"), (
            f"{pid}: 'same_type_as' compares the chosen piece with pieces in the chosen "
            "clearing: a choice of a piece there, not in a forest")
    if part.repeat:
        for k, x in M.flat_parts(prog.do[i + 1:]):
            if not isinstance(x, _REPEATABLE):
                yield ("programs", pid, "do", i + 1 + k[0], *k[1:]), (
                    f"{pid}: the parts after a choice that repeats ask nothing and set off "
                    f"nothing that waits (it is asked again as they end): not '{x.op}'")


def _pay_shape(pid: str, prog: M.Program, chose: str) -> Iterator[tuple[Loc, str]]:
    """PROGRAM-SHAPE of the chosen piece and a 'pay': 'piece' named where no piece is
    chosen, a second cost (the parts after a cost wait on its payment)."""
    for i, part in enumerate(prog.do):
        refs = [(("piece",), getattr(part, "piece", None))]
        refs += [(("count", *w), v.track_cost) for w, v in _track_costs(
            getattr(part, "count", None), ())]
        chosen_later = any(isinstance(x, M.ChoosePart) and x.piece is not None
                           for x in prog.do[1:i])  # a second choice's piece
        for where, v in refs:
            if v == "piece" and chose != "piece_clearing" and not chosen_later:
                yield ("programs", pid, "do", i, *where), \
                    f"{pid}: 'piece' is the chosen piece, and no piece is chosen"
        if isinstance(part, M.PayPart) and any(
                isinstance(x, (M.SpendPart, M.PayPart)) for x in prog.do[:i]):
            yield ("programs", pid, "do", i), \
                f"{pid}: one cost ('spend' or 'pay') a program (the parts after it wait on " \
                "its payment)"
        if isinstance(part, M.SpendPart) and chose == "piece_clearing" and \
                not any(isinstance(x, M.ReplacePart) for x in prog.do):
            yield ("programs", pid, "do", i), \
                f"{pid}: a 'spend' after a piece is chosen is not supported yet"


def _track_costs(v: Any, at: tuple) -> Iterator[tuple[tuple, M.TrackCost]]:
    """(where, value) of each track cost in a value."""
    if isinstance(v, M.TrackCost):
        yield (*at, "track_cost"), v
    elif isinstance(v, M.SumValue):
        for j, x in enumerate(v.sum):
            yield from _track_costs(x, (*at, "sum", j))
    elif isinstance(v, M.IfValue):
        yield from _track_costs(v.then, (*at, "then"))
        yield from _track_costs(v.else_, (*at, "else"))


# --------------------------------------------------------------------------- programs in use


@dataclass(frozen=True)
class Library:
    """A program of the bundle's libraries: the library's id, the program, its file."""

    id: str
    program: M.Program
    file: str


@dataclass(frozen=True)
class _Use:
    """A menu entry that runs a program, for one faction: where the entry is (the
    document and pointer), the entry, the faction, the program's name and library, and
    what the entry binds each parameter to (``_UNBOUND``: a field the entry has not)."""

    doc: Any
    loc: Loc
    entry: Any
    faction: M.FactionSpec
    name: str
    lib: Library
    params: dict

    @property
    def what(self) -> str:
        """What the use is, in the author's words: a step or a menu entry."""
        return "step" if isinstance(self.entry, M.ProgramStep) else \
            "column" if isinstance(self.entry, M.ColumnWay) else \
            "offer" if self.loc[:1] == ("abilities",) and self.loc[-1] == "use" else "entry"

    @property
    def column(self) -> str:
        """A column's use: the column's id (its 'or' ways are uses of their own)."""
        return self.faction.columns[self.loc[1]].id


_UNBOUND = object()


def _uses(d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
          programs: dict[str, Library]) -> Iterator[_Use]:
    """Every use of a program: a menu entry (of a faction, or of a card: then for every
    faction, as the core compiles it) whose action names one."""
    for doc in (*fs, *([d] if d is not None else [])):
        for loc, menu in _menus(doc):
            for k, entry in enumerate(menu):
                lib = programs.get(entry.action)
                if lib is None:
                    continue
                bound = lib.program.bind(M.use_fields(entry))
                params = {name: bound.get(name, _UNBOUND) for name in lib.program.params}
                for f in ([doc] if isinstance(doc, M.FactionSpec) else fs):
                    yield _Use(doc, (*loc, k), entry, f, entry.action, lib, params)
    yield from _step_uses(fs, programs)
    yield from _column_uses(fs, programs)
    for f in fs:  # an offer's program (models.Offer), as a menu entry's
        for k, ab in enumerate(f.abilities):
            lib = programs.get(ab.use.action) if isinstance(ab, M.Offer) else None
            if lib is not None:
                bound = lib.program.bind(M.use_fields(ab.use))
                params = {name: bound.get(name, _UNBOUND) for name in lib.program.params}
                yield _Use(f, ("abilities", k, "use"), ab.use, f, ab.use.action, lib, params)


def _column_uses(fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]) -> Iterator[_Use]:
    """Every column that runs a program (its 'action' is no routine of the Law's): its
    fields bind the parameters, as a menu entry's do."""
    for f in fs:
        for i, col in enumerate(f.columns):
            for at, way in col.ways():
                lib = programs.get(way.action) if way.action not in M.COLUMN_ROUTINES \
                    else None
                if lib is None:
                    continue
                bound = lib.program.bind(M.use_fields(way))
                params = {name: bound.get(name, _UNBOUND) for name in lib.program.params}
                yield _Use(f, ("columns", i, *at), way, f, way.action, lib, params)


def _step_uses(fs: tuple[M.FactionSpec, ...], programs: dict[str, Library]) -> Iterator[_Use]:
    """Every step that runs a program: its 'op' names one (the engine has no step op of
    that name), its fields bind the parameters, as a menu entry's do."""
    for f in fs:
        for loc, steps in _programs(f):
            for k, written in enumerate(steps):
                step, at = written, (*loc, k)
                if isinstance(written, M.ChooseRole) and written.then is not None and \
                        "then" in written.model_fields_set:
                    # The program carried out once the role is taken, as the content
                    # wrote it: a step of its own (it chooses nothing, takes no
                    # parameter), located at its 'then'.  (Left out, it is the standard
                    # tuck_role_cards, which tucks nothing where there is nothing to
                    # tuck, as a choose_role did before 'then'.)
                    step = M.ProgramStep.model_validate({"op": written.then})
                    at = (*at, "then")
                lib = programs.get(step.op) if isinstance(step, M.ProgramStep) else None
                if lib is None:
                    continue
                bound = lib.program.bind(M.use_fields(step))
                params = {name: bound.get(name, _UNBOUND) for name in lib.program.params}
                yield _Use(f, at, step, f, step.op, lib, params)


def _at(use: _Use, where: tuple) -> str:
    """Where a part of the used program is: its pointer, in its library's file."""
    ptr = "/" + "/".join(str(x) for x in ("programs", use.name, *where))
    return f"{ptr} ({use.lib.file})" if use.lib.file else ptr


_PARAM_FORMS = {"piece": (str, type(None)), "zone": (str,), "box": (str, type(None)),
                "pieces": (str, list), "number": (int, type(None)), "suit": (str,),
                "cycle": (str,)}


def _bound_names(use: _Use, v: str, where: tuple) -> Iterator[tuple[str, str]]:
    """(the name, or '' for a parameter left out) of what a program's name stands for at
    a use; nothing for a name PROGRAM-REF reports or a number."""
    if not v.startswith("$"):
        if v != "piece" or not any(isinstance(x, M.ChoosePart) and x.piece is not None
                                   for x in use.lib.program.do):
            yield v, v  # ('piece': the chosen one, a first or second choice's)
        return
    name = v[1:]
    bound = use.params.get(name, _UNBOUND)
    if bound is _UNBOUND or use.lib.program.param_types().get(name) == "number":
        return
    if bound is None:
        if "lacks" not in where and "draw_bonus" not in where:
            # (lacking none of nothing is no test, no building's bonus adds nothing: the
            # compiler leaves them out)
            yield v, ""
        return
    if not isinstance(bound, (str, list)):
        return  # of another form: reported with the parameters
    for x in ([bound] if isinstance(bound, str) else bound):
        if isinstance(x, str):
            yield v, x


def _left_out(v: Any, params: dict) -> list[str]:
    """The number parameters left out (null) that leave a value without a number at a
    use, as the compiler reads it: a comparison with one is false (not left out)."""
    if isinstance(v, str):
        return [v] if params.get(v[1:], 0) is None else []
    if isinstance(v, M.SumValue):
        return [x for t in v.sum for x in _left_out(t, params)]
    if isinstance(v, M.IfValue):
        if _never(v.if_, params):
            return _left_out(v.else_, params)
        return _left_out(v.then, params) + _left_out(v.else_, params)
    return []


def _never(c: Any, params: dict) -> bool:
    """Whether a condition cannot hold at a use (a comparison with a number left out)."""
    if isinstance(c, M.AtLeast):
        return any(_left_out(x, params) for x in c.at_least)
    return False


def _least(v: Any, use: _Use) -> int | None:
    """The least a value can be at a use (None: not known, or left out): a track's
    cost its cheapest space, pieces and clearings counted none."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        bound = use.params.get(v[1:])
        return bound if isinstance(bound, int) and not isinstance(bound, bool) else None
    if isinstance(v, M.TrackCost) and v.track_cost == "piece":
        return _least_chosen_cost(use)
    if isinstance(v, M.TrackCost):
        names = _resolved(use, v.track_cost) or []
        p = use.faction.pieces.get(names[0]) if len(names) == 1 else None
        return min(p.track.cost) if p is not None and p.track and p.track.cost else None
    if isinstance(v, (M.WarriorsAt, M.PiecesAt, M.ClearingCount)):
        return 0
    if isinstance(v, M.SumValue):
        terms = [_least(t, use) for t in v.sum]
        known = [t for t in terms if t is not None]
        return None if len(known) < len(terms) else sum(known)
    if isinstance(v, M.IfValue):
        other = _least(v.else_, use)
        if _never(v.if_, use.params):
            return other
        then = _least(v.then, use)
        return None if then is None or other is None else min(then, other)
    return None


def _least_chosen_cost(use: _Use) -> int | None:
    """The least track cost of the pieces the program's first choice chooses among (its
    cheapest space of any), at a use; None: not known."""
    first = use.lib.program.do[0]
    among = first.piece.among if isinstance(first, M.ChoosePart) and first.piece else None
    costs = []
    for name in _resolved(use, among) or []:
        p = use.faction.pieces.get(name)
        if p is None or not p.track or not p.track.cost:
            return None  # PROGRAM-USE's, or no cost row (COST-ROW)
        costs.append(min(p.track.cost))
    return min(costs) if costs else None


@check("COLUMN-WAYS", "error", USES,
       "A column whose ways of taking a card ('or') include two of one action type (two "
       "moves, or two programs of one verb): a card is taken by the way whose action the "
       "player picks, and the engine tells ways apart by their action's type.",
       example="keepers.json:60: COLUMN-WAYS at /columns/2/or/0/action: column roam: "
               "'move' is taken as the column's own action is (a move): one way per "
               "action type")
def _column_ways(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                 programs: dict[str, Library]):
    for f in fs:
        for i, col in enumerate(f.columns):
            seen: dict[str, str] = {}
            for at, way in col.ways():
                lib = programs.get(way.action)
                kind = way.action if way.action in M.COLUMN_ROUTINES or lib is None else \
                    lib.program.verb or way.action
                if kind in seen:
                    yield f, ("columns", i, *at, "action"), (
                        f"column {col.id}: {way.action!r} is taken as {seen[kind]} is "
                        f"(a {kind}): one way per action type")
                seen.setdefault(kind, "the column's own action" if not at
                                else f"way {at[1]} ({way.action!r})")


@check("PROGRAM-USE", "error", USES,
       "A menu entry runs a program that cannot run for its faction: the program names a "
       "piece, zone or box (by its id, or through a parameter the entry binds) that the "
       "faction does not have, the entry has no field for one of the program's parameters "
       "or one of the wrong form, or leaves out a number a part's count needs; a menu "
       "entry's, step's or column's program shows or gives the chosen card to an offer's "
       "'holder', which only an offer has; an offer's program does not begin with a "
       "choice of a clearing (and a card); a 'remove' 'as_token' of a piece with no "
       "'faces'. Located at the entry; the message gives the program's part (its library "
       "file and pointer).",
       example="druids.json:40: PROGRAM-USE at /turn/daylight/1/menu/3: organize: program "
               "organize names piece 'warior' at /programs/organize/do/1/piece "
               "(library.json), which druids does not have (did you mean 'warrior'?)")
def _program_uses(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        f, prog, act = use.faction, use.lib.program, use.name
        yield from _use_shape(use)
        types = prog.param_types()
        fields = M.use_fields(use.entry)
        for name, typ in types.items():
            v = use.params[name]
            forms = _PARAM_FORMS[M.param_family(typ)]
            if v is _UNBOUND:
                near = suggestion(name, [k for k in fields if k not in types])
                hint = f" (did you mean {name!r} where it says {near!r}?)" if near else ""
                yield use.doc, use.loc, (
                    f"{act}: program {act} has a {typ} parameter {name!r}, and a {act!r} "
                    f"{use.what} has no {name!r} to give it{hint} (its fields: "
                    f"{', '.join(fields) or 'none'})")
            elif not isinstance(v, forms) or isinstance(v, bool):
                yield use.doc, use.loc, (
                    f"{act}: program {act}'s parameter {name!r} is a {typ}, and this "
                    f"{use.what}'s {name!r} is {quoted(v)}")
        pieces = [*f.pieces, "warrior"]
        zones, boxes = [z.id for z in f.zones], [b.id for b in f.boxes]
        for i, part in M.flat_parts(prog.do):
            if isinstance(part, M.IntoBoxPart) and isinstance(part.box, str) and \
                    part.box.startswith("$") and use.params.get(part.box[1:]) is None:
                continue  # a box the entry leaves out leaves the part out
            for where, v, want in _part_refs(part):
                kind = "zone" if "zone" in want else "box" if "box" in want else \
                    "suit" if "suit" in want else "piece"
                known = {"zone": zones, "box": boxes, "piece": pieces,
                         "suit": list(typing.get_args(M.Suit))}[kind]
                for ref, x in _bound_names(use, v, where):
                    at = _at(use, ("do", *i, *where))
                    if not x:
                        yield use.doc, use.loc, (
                            f"{act}: program {act} names {ref!r} at {at}, which this "
                            f"{use.what} leaves out: give it a {kind}")
                    elif x not in known:
                        hint = did_you_mean(x, known)
                        owner = next((g.id for g in fs if x in g.pieces), None) \
                            if kind == "piece" else None
                        if not hint and owner:
                            hint = f" (a piece of {owner})"
                        elif not hint and kind != "piece":
                            hint = f" (its {kind}{'es' if kind == 'box' else 's'}: "\
                                f"{', '.join(known) or 'none'})"
                        through = f" ({ref!r})" if ref != x else ""
                        yield use.doc, use.loc, (
                            f"{act}: program {act} names {kind} {x!r}{through} at {at}, "
                            f"which {f.id} does not have{hint}")
            yield from _box_use(use, prog, i, part)
            yield from _tuck_use(use, i, part)
            yield from _choice_among_none(use, i, part)
            yield from _face_use(use, prog, i, part)
            if isinstance(part, (M.PlacePart, M.SpendPart, M.PayPart)):
                for ref in dict.fromkeys(_left_out(part.count, use.params)):
                    yield use.doc, use.loc, (
                        f"{act}: program {act}'s '{part.op}' counts with {ref!r} at "
                        f"{_at(use, ('do', *i, 'count'))}, which this {use.what} leaves out: "
                        f"give it {ref[1:]!r}")
            if isinstance(part, M.ChoosePart) and part.number is not None:
                for end in ("min", "max"):
                    for ref in dict.fromkeys(_left_out(getattr(part.number, end),
                                                       use.params)):
                        yield use.doc, use.loc, (
                            f"{act}: program {act}'s number chosen reads {ref!r} at "
                            f"{_at(use, ('do', *i, 'number', end))}, which this {use.what} "
                            f"leaves out: give it {ref[1:]!r}")


def _face_use(use: _Use, prog: M.Program, i: tuple, part: Any) -> Iterator[tuple]:
    """PROGRAM-USE of faces (models.Piece.faces): a face placed face up, or a piece that
    is no face laid face down; a 'reveal' of a named piece that does not lie face down."""
    f, act = use.faction, use.name
    faces = {x for p in f.pieces.values() for x in p.faces}

    def names(ref) -> list[str]:
        refs = [ref] if isinstance(ref, str) else list(ref)
        out: list[str] = []
        for r in refs:
            v = use.params.get(r[1:]) if isinstance(r, str) and r.startswith("$") else r
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, (list, tuple)):  # (a parameter left out: PROGRAM-USE's)
                out += [x for x in v if isinstance(x, str)]
        return out

    tokens = {k for k, p in f.pieces.items() if p.faces}
    if isinstance(part, M.PlacePart) and isinstance(part.piece, str):
        if part.piece == "piece":
            first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
            placed = names(first.piece.among) if first and first.piece else []
        else:
            placed = names(part.piece)
        wrong = [x for x in placed if (x in faces) != part.face_down or x in tokens]
        if wrong:
            yield use.doc, use.loc, (
                f"{act}: program {act} places {wrong[0]!r} at {_at(use, ('do', *i))}: "
                + (f"{wrong[0]!r} is a face of a token laid face down, placed only "
                   "'face_down' (Law 13.2.2)" if wrong[0] in faces else
                   f"{wrong[0]!r} lies face down: lay one of its faces ('face_down')"
                   if wrong[0] in tokens else
                   f"'face_down' lays one of a token's 'faces', and {wrong[0]!r} is none"))
    for key in ("pay", "replace"):
        if part.op == key:
            ref = part.piece if key == "pay" else part.with_
            hit = [x for x in (names(ref) if isinstance(ref, str) else [])
                   if x in faces or x in tokens]
            if hit:
                yield use.doc, use.loc, (
                    f"{act}: program {act}'s '{key}' at {_at(use, ('do', *i))} names "
                    f"{hit[0]!r}, a token laid face down or one of its faces: only 'place' "
                    "('face_down'), 'reveal', 'swap' and removal move those")
    if isinstance(part, M.MovePart):
        second = next((x for x in prog.do[1:] if isinstance(x, M.ChoosePart) and
                       x.piece is not None), None)
        moved = names(second.piece.among) if second is not None else []
        if any(x in faces or x in tokens for x in moved):
            yield use.doc, use.loc, (
                f"{act}: program {act}'s 'move' at {_at(use, ('do', *i))} moves a token "
                "laid face down or one of its faces: its face stays where it lies")
    if isinstance(part, M.SwapPart):
        listed = set(names(part.pieces))
        for t in tokens:
            family = {t, *f.pieces[t].faces}
            if listed & family and not family <= listed:
                yield use.doc, use.loc, (
                    f"{act}: program {act}'s 'swap' at {_at(use, ('do', *i))} names some "
                    f"of {t!r} and its faces: name them all (one lies in a clearing, face "
                    "up or down: Law 13.2.2.II)")
    if isinstance(part, M.RevealPart) and part.piece != "piece":
        for x in names(part.piece):
            pc = f.pieces.get(x)
            if pc is not None and not pc.faces and not pc.reveals:
                yield use.doc, use.loc, (
                    f"{act}: program {act} turns {x!r} face up at {_at(use, ('do', *i))}, "
                    f"and {x!r} does not lie face down (no 'faces' or 'reveals')")


def _choice_among_none(use: _Use, i: tuple, part: Any) -> Iterator[tuple]:
    """PROGRAM-USE of a choice of a piece among none: every piece parameter it names is
    bound to an empty list (it could never be offered)."""
    if not (isinstance(part, M.ChoosePart) and part.piece is not None):
        return
    among = part.piece.among
    names = [among] if isinstance(among, str) else among
    if names and all(isinstance(x, str) and x.startswith("$") and
                     use.params.get(x[1:]) == [] for x in names):
        yield use.doc, use.loc, (
            f"{use.name}: program {use.name} chooses a piece among {among!r} at "
            f"{_at(use, ('do', *i, 'piece', 'among'))}, and this {use.what} gives none: "
            "it is never offered")


def _tuck_use(use: _Use, i: tuple, part: Any) -> Iterator[tuple]:
    """PROGRAM-USE of a 'tuck': a column the faction does not have, or a faction with no
    cards of its own to tuck."""
    if not isinstance(part, M.TuckPart):
        return
    f, act = use.faction, use.name
    cols = [c.id for c in f.columns]
    if not f.cards:
        yield use.doc, use.loc, (
            f"{act}: program {act} tucks {f.id}'s own cards at {_at(use, ('do', *i))}, and "
            f"{f.id} has none ('cards')")
    if part.into == "role" and not f.roles:
        yield use.doc, use.loc, (
            f"{act}: program {act} tucks cards into the columns of {f.id}'s role at "
            f"{_at(use, ('do', *i, 'into'))}, and {f.id} has no roles")
    for x in ([] if part.into in ("each", "role") else part.into):
        if x not in cols:
            yield use.doc, use.loc, (
                f"{act}: program {act} tucks a card into column {x!r} at "
                f"{_at(use, ('do', *i, 'into'))}, which {f.id} does not have"
                f"{did_you_mean(x, cols) or ' (its columns: ' + (', '.join(cols) or 'none') + ')'}")


def _held_by(f: M.FactionSpec, piece: str) -> list[str]:
    """The faction's boxes that hold a piece (a box's piece, or one of its list)."""
    return [b.id for b in f.boxes if b.holds(piece)]


def _box_use(use: _Use, prog: M.Program, i: tuple, part: Any) -> Iterator[tuple]:
    """PROGRAM-USE of boxes: a piece moved into the box that holds it, where none or
    several of the faction's do; 'into_box' of a tally (pieces taken out of play into it
    by 'move' alone)."""
    f, act = use.faction, use.name
    own = M.walk(part.if_) if isinstance(part, M.IfPart) else M.walk(part)  # (not its branches')
    if (isinstance(part, M.MovePart) and part.to == "box") or any(
            isinstance(x, M.BoxValue) and x.box == "piece" for x in own):
        choice = next((x for x in prog.do[1:] if isinstance(x, M.ChoosePart)), None)
        if choice is not None and choice.piece is not None:
            among = choice.piece.among
            for _ref, x in (y for v in ([among] if isinstance(among, str) else among)
                            for y in _bound_names(use, v, ("piece", "among"))):
                held = _held_by(f, x)
                if x and len(held) != 1:
                    yield use.doc, use.loc, (
                        f"{act}: program {act} reads or fills the box that holds {x!r} at "
                        f"{_at(use, ('do', *i))}, and "
                        f"{'no box' if not held else 'boxes ' + ', '.join(held)} of {f.id} "
                        f"hold{'s' if not held else ''} it: one box must")
    if isinstance(part, M.IntoBoxPart):
        for _ref, x in _bound_names(use, part.box, ("box",)):
            box = next((b for b in f.boxes if b.id == x), None)
            if box is not None and box.tally:
                yield use.doc, use.loc, (
                    f"{act}: program {act} puts pieces into box {x!r} at "
                    f"{_at(use, ('do', *i))}, a tally of pieces taken out of play: only "
                    "'move' puts a piece there, and nothing takes it out")


@check("PROGRAM-REF", "error", USES,
       "A menu entry whose 'action' is neither one of the general Law's actions (battle, "
       "march, craft) nor a program of the bundle's libraries; a step whose 'op' is neither "
       "one of the engine's steps nor such a program; an offer whose 'use' names no "
       "program, or one another offer runs already.",
       example="alliance.json:59: PROGRAM-REF at /turn/daylight/0/menu/1: 'mobilise' is no "
               "action or program (did you mean 'mobilize'?)")
def _entry_programs(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                    programs: dict[str, Library]):
    known = [*M.ENGINE_MENU_ACTIONS, *programs]
    for doc in (*fs, *([d] if d is not None else [])):
        for loc, menu in _menus(doc):
            for k, entry in enumerate(menu):
                if isinstance(entry, M.ProgramEntry) and entry.action not in programs:
                    yield doc, (*loc, k, "action"), (
                        f"{entry.action!r} is no action or program"
                        f"{did_you_mean(entry.action, known)} (the Law's: "
                        f"{', '.join(M.ENGINE_MENU_ACTIONS)}; programs: "
                        f"{', '.join(sorted(programs)) or 'none'})")
    for f in fs:
        for i, col in enumerate(f.columns):
            for at, way in col.ways():
                if way.action not in M.COLUMN_ROUTINES and way.action not in programs:
                    yield f, ("columns", i, *at, "action"), (
                        f"column {col.id}: {way.action!r} is no column action or program"
                        f"{did_you_mean(way.action, [*M.COLUMN_ROUTINES, *programs])} (the "
                        f"Law's: {', '.join(M.COLUMN_ROUTINES)}; programs: "
                        f"{', '.join(sorted(programs)) or 'none'})")
    offered: dict[str, tuple] = {}  # a program an offer runs: the first offer's place
    for f in fs:
        for k, ab in enumerate(f.abilities):
            if not isinstance(ab, M.Offer):
                continue
            if ab.use.action not in programs:
                yield f, ("abilities", k, "use", "action"), (
                    f"offer {ab.id}: {ab.use.action!r} is no program"
                    f"{did_you_mean(ab.use.action, list(programs))} (an offer runs a "
                    f"program of the bundle's libraries: "
                    f"{', '.join(sorted(programs)) or 'none'})")
            elif ab.use.action in offered:
                yield f, ("abilities", k, "use", "action"), (
                    f"offer {ab.id}: program {ab.use.action!r} is another offer's already "
                    f"({offered[ab.use.action][0]}): its actions are its verb's, so one "
                    "offer a program")
            else:
                offered[ab.use.action] = (f"{f.id}'s {ab.id}",)
    steps = [*M.ENGINE_STEP_OPS, *programs]
    for f in fs:
        for loc, program in _programs(f):
            for k, s in enumerate(program):
                if isinstance(s, M.ProgramStep) and s.op not in programs:
                    yield f, (*loc, k, "op"), (
                        f"{s.op!r} is no step or program{did_you_mean(s.op, steps)} (the "
                        f"engine's steps: {', '.join(M.ENGINE_STEP_OPS)}; programs: "
                        f"{', '.join(sorted(programs)) or 'none'})")
                if isinstance(s, M.ChooseRole) and s.then is not None and \
                        s.then not in programs:
                    yield f, (*loc, k, "then"), (
                        f"choose_role then {s.then!r}: no program of that name"
                        f"{did_you_mean(s.then, list(programs))} (programs: "
                        f"{', '.join(sorted(programs)) or 'none'})")


@check("FIELD-UNREAD", "warning", USES,
       "A menu entry's field that is no parameter of the program it runs: nothing reads it "
       "(a misspelt parameter, or a pack's program that takes fewer than the standard one "
       "it replaces).",
       example="alliance.json:59: FIELD-UNREAD (warning) at /turn/daylight/0/menu/1/zones: "
               "mobilize: program mobilize has no parameter 'zones' (did you mean 'zone'?)")
def _entry_fields_unread(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                         programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        if isinstance(use.entry, M.ProgramStep):
            continue  # a step's: KEY-UNKNOWN, below
        types = use.lib.program.param_types()
        fields = M.use_fields(use.entry)
        for k in fields:
            if k not in types:
                yield use.doc, (*use.loc, k), (
                    f"{use.name}: program {use.name} has no parameter {k!r}"
                    f"{did_you_mean(k, list(types))} (its parameters: "
                    f"{', '.join(types) or 'none'})")


@check("KEY-UNKNOWN", "error", USES,
       "A step's field that is no parameter of the program its 'op' names: a step is as "
       "closed as the step models were before steps named programs (a misspelt key is an "
       "error, with 'did you mean'); a pack whose program replaces a standard step's with "
       "fewer parameters patches the steps that give the rest.",
       example="marquise.json:40: KEY-UNKNOWN at /turn/evening/0/cuont: draw: program draw "
               "has no parameter 'cuont' (did you mean 'count'?)")
def _step_fields_unknown(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                         programs: dict[str, Library]):
    for use in _step_uses(fs, programs):
        types = use.lib.program.param_types()
        for k in M.use_fields(use.entry):
            if k not in types:
                yield use.doc, (*use.loc, k), (
                    f"{use.name}: program {use.name} has no parameter {k!r}"
                    f"{did_you_mean(k, list(types))} (its parameters: "
                    f"{', '.join(types) or 'none'})")


def _use_pieces(use: _Use) -> Iterator[tuple[Loc, str, str, str]]:
    """(where, parameter, its type, piece id) of each piece a use binds a piece or
    pieces parameter to, located at the entry's field (and index in a list)."""
    types = use.lib.program.param_types()
    fields = M.use_fields(use.entry)
    for name, typ in types.items():
        if M.param_family(typ) not in ("piece", "pieces"):
            continue
        v = use.params.get(name)
        at = (*use.loc, name) if name in fields else use.loc
        if isinstance(v, str):
            yield at, name, typ, v
        elif isinstance(v, list):
            for j, x in enumerate(v):
                if isinstance(x, str):
                    yield (*at, j) if name in fields else at, name, typ, x


@check("PIECE-KIND", "error", USES,
       "A menu entry binds a program's parameter of one kind of piece (a building, a "
       "token, a warrior, or a list of buildings or tokens) to a piece of another kind.",
       "8.2.5.I",
       example='`{"action": "recruit_all", "building": "wood"}` where wood is a token')
def _use_piece_kinds(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                     programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        for at, name, typ, pid in _use_pieces(use):
            kind = M.PIECE_KINDS[typ][1]
            p = use.faction.pieces.get(pid)
            if kind is not None and p is not None and p.kind != kind:
                yield use.doc, at, (f"{use.name} {name}: {pid!r} is a {p.kind}, expected a "
                                    f"{kind}")


@check("ID-DUP", "error", USES,
       "A menu entry's list of pieces for a program's parameter naming one piece twice: "
       "such lists are sets, and a name given twice does not count twice.",
       example='`{"action": "train", "buildings": ["fox-base", "fox-base"], ...}`')
def _use_piece_lists(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                     programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        fields = M.use_fields(use.entry)
        for name, v in fields.items():
            if not isinstance(v, list) or name in _suited(use.lib.program):
                continue  # (the repeats of a list placed by suit: PIECE-SUIT)
            for j, x, k in _duplicates(v):
                yield use.doc, (*use.loc, name, j), \
                    f"{x!r} is named twice (first at {name}/{k})"


def _suited(prog: M.Program) -> set[str]:
    """The parameters a program places the piece of the chosen clearing's suit among (a
    'place' of it, or a 'replace' with it), and the pieces it names by id ('=id')."""
    ofs = [part.piece if isinstance(part, M.PlacePart) else part.with_ for part in prog.do
           if isinstance(part, (M.PlacePart, M.ReplacePart))]
    out: set[str] = set()
    for x in ofs:
        if not isinstance(x, M.OfSuit):
            continue
        for ref in [x.among] if isinstance(x.among, str) else x.among:
            # (a piece named by its id: '=id', as _track_rows_read keys it)
            out.add(ref[1:] if ref.startswith("$") else "=" + ref)
    return out


def _track_rows_read(prog: M.Program) -> dict[str, set[str]]:
    """The track rows a program reads of the pieces each parameter names: 'cost' where a
    value reads the track's cost, 'vp' where a 'place' scores the space it uncovers or a
    value reads the track's VP (track_vp), 'draw_at' where a value reads its uncovered
    draw bonuses (draw_bonus)."""
    out: dict[str, set[str]] = {}
    # 'piece': the piece the first choice chose, among a parameter's pieces (build's)
    first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
    chosen = first.piece.among if first is not None and first.piece is not None else None

    def param(ref: str) -> str | None:
        if ref == "piece" and isinstance(chosen, str):
            ref = chosen
        return ref[1:] if ref.startswith("$") else None

    rows = {"track_cost": "cost", "track_vp": "vp", "draw_bonus": "draw_at"}
    for part in prog.do:
        for where, ref, _want in _part_refs(part):
            # (a draw bonus's names are indexed: draw_bonus/j)
            key = next((w for w in reversed(where) if isinstance(w, str)), None)
            if key == "among" and "track_vp" in where:
                key = "track_vp"  # the pieces one of a suit is read of (of_suit)
            row = rows.get(key) if key is not None else None
            name = param(ref) if row is not None else None
            if row is not None and name is None and not ref.startswith("$") and \
                    ref not in ("piece", "warrior"):
                name = "=" + ref  # a piece named by its id
            if name is not None:
                out.setdefault(name, set()).add(row)  # type: ignore[arg-type]
    for _, part in M.flat_parts(prog.do):
        if not (isinstance(part, M.PlacePart) and part.score):
            continue
        # A scoring placement: of a piece, or of the one of the clearing's suit among
        # some (Law 11's trade posts); a piece named by its id is keyed '=id'.
        among = part.piece.among if isinstance(part.piece, M.OfSuit) else part.piece
        for ref in ([among] if isinstance(among, str) else
                    among if isinstance(among, list) else []):
            name = param(ref)
            if name is None and not ref.startswith("$") and ref not in ("piece", "warrior"):
                name = "=" + ref
            if name is not None:
                out.setdefault(name, set()).add("vp")
    return out


@check("TRACK-MISSING", "error", USES,
       "A menu entry or a step binds a program's parameter to a piece without the track "
       "row the program reads of it: the 'cost' row where it pays a track's cost (without "
       "one, placing is free), the 'vp' row where placing it scores or a value reads its "
       "VP (track_vp: score_track's; without one it scores nothing).", "6.5.4.II, 7.6.1, "
       "8.4.2",
       example='`{"action": "spread", "token": "sympathy", ...}` where sympathy has no cost row')
def _use_tracks(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        reads = _track_rows_read(use.lib.program)
        for at, name, _typ, pid in _use_pieces(use):
            p = use.faction.pieces.get(pid)
            if p is None or p.kind == "warrior":
                continue
            track = p.track or M.Track()
            for row in sorted(reads.get(name, set()) - {"draw_at"}):  # (TRACK-DRAW-NONE's)
                if not getattr(track, row):
                    what = "so placing it is free" if row == "cost" else \
                        "so it scores nothing"
                    yield use.doc, at, f"{use.name}: {pid!r} has no {row!r} row, {what}"


@check("TRACK-DRAW-NONE", "warning", USES,
       "A use binds a program's parameter whose draw bonuses it reads (draw_bonus: the "
       "standard 'draw' step's bonus_building) to a building whose track has no "
       "'draw_at' bonuses: the bonus is always 0.", "6.6.1",
       example='`{"op": "draw", "bonus_building": "sawmill"}` where sawmill has no draw_at')
def _use_draw_bonus(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                    programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        reads = _track_rows_read(use.lib.program)
        for at, name, _typ, pid in _use_pieces(use):
            p = use.faction.pieces.get(pid)
            if "draw_at" in reads.get(name, ()) and p is not None and \
                    p.kind == "building" and not (p.track and p.track.draw_at):
                yield use.doc, at, f"{use.name}: {pid!r} has no 'draw_at' bonuses"


@check("PIECE-SUIT", "error", USES,
       "A program places the building or token of the chosen clearing's suit among "
       "pieces a menu entry names ('of_suit'): one without a 'suit' is never placed; two "
       "of one suit leave the clearing able to take either.", "8.4.1",
       example='`{"action": "revolt", "buildings": ["base"], ...}` where base has no suit')
def _use_suits(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
               programs: dict[str, Library]):
    for use in _uses(d, fs, programs):
        suited = _suited(use.lib.program)
        first: dict[str, str] = {}
        for at, name, _typ, pid in _use_pieces(use):
            p = use.faction.pieces.get(pid)
            if name not in suited or p is None or p.kind == "warrior":
                continue
            earlier = first.get(p.suit) if p.suit is not None else None
            if p.suit is None:
                yield use.doc, at, (f"{use.name}: {pid!r} has no 'suit', so no "
                                    f"{use.name} ever places it")
            elif earlier is None:
                first[p.suit] = pid
            else:
                yield use.doc, at, f"{use.name}: {pid!r} and {earlier!r} are both {p.suit}"


@check("FIELD-UNREAD", "warning", USES,
       "A piece's field that nothing its faction does reads: its 'suit' (read where a "
       "program places the building or token of a clearing's suit among pieces, "
       "revolt's; build places a building in any clearing, and a warrior has no use "
       "for one), "
       "a track row (cost: build, a program's track_cost; vp: build, score_track, a "
       "program's scoring 'place'; draw_at: a draw's bonus).",
       example='`"wood": {"kind": "token", "count": 8, "suit": "fox"}`')
def _piece_fields_unread(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                         programs: dict[str, Library]):
    uses = list(_uses(d, fs, programs))
    for f in fs:
        named: dict[str, set[str]] = {row: set() for row in _TRACK_ROWS}
        suited: set[str] = set()
        for use in uses:
            if use.faction is not f:
                continue
            reads, by_suit = _track_rows_read(use.lib.program), _suited(use.lib.program)
            for key, rows in reads.items():  # pieces the program names by their id
                if key.startswith("="):
                    for row in rows:
                        named[row].add(key[1:])
            suited |= {key[1:] for key in by_suit if key.startswith("=")}
            for _at, name, _typ, pid in _use_pieces(use):
                for row in reads.get(name, ()):
                    named[row].add(pid)
                if name in by_suit:
                    suited.add(pid)
        for pid, p in f.pieces.items():
            if p.suit is not None and pid not in suited:
                why = "no program places it by suit" if p.kind != "warrior" else \
                    "it is a warrior"
                yield f, ("pieces", pid, "suit"), f"{pid}: nothing reads its suit ({why})"
            if p.track is None or p.kind == "warrior":  # a warrior's track: PIECE-KIND
                continue
            for row in _TRACK_ROWS:
                if getattr(p.track, row) and pid not in named[row]:
                    yield f, ("pieces", pid, "track", row), \
                        f"{pid}: no step reads its {row!r} row"


def _use_shape(use: _Use) -> Iterator[tuple[Any, Loc, str]]:
    """A step's program that chooses and pays a cost (a cost's continuation is a menu
    entry's), or a menu entry's program that is no action (it has no verb)."""
    prog, act = use.lib.program, use.name
    for at, part in M.flat_parts(prog.do):
        if M.chosen_card_part(part) and use.what != "offer":
            yield use.doc, use.loc, (
                f"{act}: program {act}'s '{part.op}' at {_at(use, ('do', *at))} goes to "
                f"the 'holder' of an offer, and a "
                f"{'menu entry' if use.what == 'entry' else use.what} has none (only an offer's "
                "program, run by another player, has)")
    for at, part in M.flat_parts(prog.do):
        if isinstance(part, M.RemovePart) and part.as_token and part.piece is not None:
            v = use.params.get(part.piece[1:]) if part.piece.startswith("$") else part.piece
            piece = use.faction.pieces.get(v) if isinstance(v, str) else None
            if piece is not None and not piece.faces:
                yield use.doc, use.loc, (
                    f"{act}: program {act}'s 'remove' at {_at(use, ('do', *at))} takes "
                    f"{v!r} 'as_token', and {v!r} is no token laid face down (it has no "
                    "'faces')")
    first = prog.do[0]
    if use.what == "offer" and not (
            isinstance(first, M.ChoosePart) and first.clearing is not None and
            first.stage is None and (first.piece is None or first.piece.named)):
        yield use.doc, use.loc, (
            f"{act}: an offer's program begins with the taker's choice of a clearing "
            f"(with a card, or a piece named) ({_at(use, ('do', 0))}): whether a window "
            "opens for it reads that clearing's filter")
    if not isinstance(use.entry, M.ColumnWay):
        for at, part in M.flat_parts(prog.do):
            if isinstance(part, M.DiscardPart) and part.card == "resolving":
                yield use.doc, use.loc, (
                    f"{act}: program {act} discards the column card it resolves at "
                    f"{_at(use, ('do', *at))}, and a {use.what} resolves no column card "
                    "(only a Decree column's program does)")
    if use.loc[-1] == "then" and isinstance(prog.do[0], M.ChoosePart):
        # A choose_role's 'then' is carried out as the role is taken: it asks nothing.
        yield use.doc, use.loc, (
            f"{act}: program {act} chooses at {_at(use, ('do', 0))}, and a choose_role's "
            "'then' is carried out as the role is taken, asking nothing more")
    elif isinstance(use.entry, M.BaseModel) and "op" in type(use.entry).model_fields:
        costs = [k for k, x in enumerate(prog.do) if isinstance(x, (M.SpendPart, M.PayPart))]
        if isinstance(prog.do[0], M.ChoosePart) and costs:
            yield use.doc, use.loc, (
                f"{act}: program {act} chooses and pays a cost at "
                f"{_at(use, ('do', costs[0]))}: a step's choice pays none (a cost's "
                "parts after it are a menu entry's; name it in an 'actions' menu)")
    elif isinstance(use.entry, M.ColumnWay):
        first = prog.do[0]
        chooses = isinstance(first, M.ChoosePart) and first.clearing is not None and \
            first.card is None and first.stage is None
        costs = [k for k, x in enumerate(prog.do) if isinstance(x, (M.SpendPart, M.PayPart))]
        if prog.verb is None or prog.verb == M.STEP_CHOICE_VERB or not chooses:
            yield use.doc, use.loc, (
                f"column {use.column}: program {act} ({_at(use, ())}) must begin with a "
                "choice of a clearing (or of a piece and a clearing), in a verb of its "
                "own: a column's card is taken as its action in a clearing matching the "
                "card (Law 7.5.2)")
        elif costs:
            yield use.doc, use.loc, (
                f"column {use.column}: program {act} pays a cost at "
                f"{_at(use, ('do', costs[0]))}: a column's action pays none (its card is "
                "its cost, Law 7.5.2)")
        elif prog.once_per_turn:
            yield use.doc, use.loc, (
                f"column {use.column}: program {act} is once a turn "
                f"({_at(use, ('once_per_turn',))}): a column takes it once for each card")
    elif prog.verb is None:
        yield use.doc, use.loc, (
            f"{act}: program {act} has no 'verb', so it is no action a menu can offer "
            f"({_at(use, ())}): give it one, or run it as a step")
    elif prog.verb == M.STEP_CHOICE_VERB:
        yield use.doc, use.loc, (
            f"{act}: program {act}'s verb {prog.verb!r} is a step's choice of a clearing "
            f"({_at(use, ('verb',))}), no action a menu can offer: give it a verb of its "
            "own, or run it as a step")


def _resolved(use: _Use, ref: str | list | None) -> list[str] | None:
    """The pieces a name or list of a part stands for at a use (None: left out)."""
    if ref is None:
        return None
    if isinstance(ref, list):
        return list(ref)
    if ref.startswith("$"):
        v = use.params.get(ref[1:])
        if not isinstance(v, (str, list)):
            return None  # left out, or PROGRAM-USE's
        return [v] if isinstance(v, str) else list(v)
    return [ref]


@check("FOREST-SCORE", "warning", USES,
       "A step whose program counts the forests held ('forests_held': the standard "
       "score_forests) but never counts one on the map: the map has no forests, or the "
       "least clearings to rule is more than any of its forests touches.", "2.4",
       example='`{"op": "score_forests", "min": 7}` on a map whose forests touch 3 to 5 '
       'clearings')
def _forest_score(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                  programs: dict[str, Library]):
    most = max([len(set(fo.clearings)) for fo in m.forests] + [0])
    for use in _step_uses(fs, programs):
        for held in (x for x in M.walk(use.lib.program.do) if isinstance(x, M.ForestsHeld)):
            least: Any = held.forests_held
            field = None
            if isinstance(least, str):
                field, least = least[1:], use.params.get(least[1:])
            if not isinstance(least, int) or isinstance(least, bool):
                continue  # a parameter left out: PROGRAM-USE says
            if not m.forests:
                yield use.doc, use.loc, f"{use.name}: map {m.id!r} has no forests"
            elif least > most:
                at = (*use.loc, field) if field in M.use_fields(use.entry) else use.loc
                yield use.doc, at, (
                    f"{use.name}: a forest is held ruling at least {least} of its "
                    f"clearings, but the forests of map {m.id!r} touch at most {most} "
                    "clearings")


@check("PROGRAM-NEVER", "warning", USES,
       "A menu entry whose program can never be offered where it is used: its first "
       "choice's 'when' compares with a number the entry leaves out (so it never holds and "
       "no clearing passes), its 'spend' costs more cards at the least than its zone can "
       "ever hold (a capacity nothing lifts), its 'pay' costs more pieces at the least than "
       "the faction has of that piece, its 'into_box' 'from_box' returns more pieces at "
       "the least than the box can ever hold, or it places the piece of the chosen "
       "clearing's suit ('of_suit', required) among pieces of no suit the map has a "
       "clearing of.",
       example="otters.json:37: PROGRAM-NEVER (warning) at /turn/birdsong/0/menu/0: revolt: "
               "program revolt places the piece of the chosen clearing's suit among "
               "fox-lodge (fox), mouse-lodge (mouse) at /programs/revolt/do/3/piece "
               "(library.json), and map 'warren' has clearings of rabbit only: it is never "
               "offered there")
def _program_never(m: M.MapSpec, d: M.DeckSpec, fs: tuple[M.FactionSpec, ...],
                   programs: dict[str, Library]):
    suits = {c.suit for c in m.clearings}
    for use in _uses(d, fs, programs):
        prog, act, f = use.lib.program, use.name, use.faction
        first = prog.do[0] if isinstance(prog.do[0], M.ChoosePart) else None
        flt = first.clearing if first is not None else None
        if flt is not None and flt.when is not None and _never(flt.when, use.params):
            yield use.doc, use.loc, (
                f"{act}: program {act}'s choice has a 'when' at "
                f"{_at(use, ('do', 0, 'clearing', 'when'))} that compares with a number this "
                "entry leaves out, so it never holds: no clearing passes it")
        yield from _empty_choice(use, first)
        for i, part in enumerate(prog.do):
            yield from _pay_never(use, i, part)
            yield from _box_cost_never(use, i, part)
            if isinstance(part, M.SpendPart):
                zone = next((z for z in f.zones
                             if [z.id] == _resolved(use, part.source)), None)
                least = _least(part.count, use)
                if zone is not None and zone.capacity is not None and \
                        not zone.unlimited_while and least is not None and \
                        least > zone.capacity:
                    yield use.doc, use.loc, (
                        f"{act}: program {act} spends at least {least} cards from zone "
                        f"{zone.id} at {_at(use, ('do', i))}, which holds at most "
                        f"{zone.capacity} (nothing lifts its capacity): it is never offered")
            if not (isinstance(part, M.PlacePart) and part.require and
                    isinstance(part.piece, M.OfSuit)):
                continue
            among = _resolved(use, part.piece.among) or []
            if not among or any(x not in f.pieces for x in among):
                continue  # PROGRAM-USE
            of = {x: f.pieces[x].suit for x in among}
            if any(of.values()) and not any(s in suits for s in of.values() if s):
                # (none with a suit: PIECE-SUIT)
                theirs = ", ".join(f"{x} ({s or 'no suit'})" for x, s in of.items())
                yield use.doc, use.loc, (
                    f"{act}: program {act} places the piece of the chosen clearing's suit "
                    f"among {theirs} at {_at(use, ('do', i, 'piece'))}, and map {m.id!r} "
                    f"has clearings of {', '.join(sorted(suits))} only: it is never offered "
                    "there")


def _passes_none(flt: M.ClearingFilter, use: _Use, at: tuple) -> tuple | None:
    """Where a clearing filter holds a test that no clearing can pass at this use: a
    'has_any' the use binds to no pieces at all (or an 'adjacent_to' or every 'any_of'
    branch that passes none); None when some clearing may pass."""
    if flt.has_any is not None and _resolved(use, flt.has_any) == []:
        return (*at, "has_any")
    if isinstance(flt.adjacent_to, M.ClearingFilter):
        inner = _passes_none(flt.adjacent_to, use, (*at, "adjacent_to"))
        if inner is not None:
            return inner
    if flt.any_of:
        branches = [_passes_none(b, use, (*at, "any_of", j)) for j, b in enumerate(flt.any_of)]
        if all(b is not None for b in branches):
            return branches[0]
    return None


def _empty_choice(use: _Use, first: M.ChoosePart | None) -> Iterator[tuple]:
    """PROGRAM-NEVER of a first choice with no option at this use: its pieces ('among')
    or a filter's 'has_any' bound to an empty list (train's buildings: [])."""
    if first is None:
        return
    act, where = use.name, None
    if first.piece is not None and _resolved(use, first.piece.among) == []:
        where = ("do", 0, "piece", "among")
    matching = first.card.matching if first.card is not None else None
    for at, flt in ((("do", 0, "clearing"), first.clearing),
                    (("do", 0, "card", "matching"), matching)):
        if where is None and isinstance(flt, M.ClearingFilter):
            where = _passes_none(flt, use, at)
    if where is not None:
        yield use.doc, use.loc, (
            f"{act}: program {act}'s choice reads an empty list of pieces at "
            f"{_at(use, where)} (this entry gives none): it has no option, so it is never "
            "offered")


def _pay_never(use: _Use, i: int, part: Any) -> Iterator[tuple]:
    """PROGRAM-NEVER of a 'pay': more pieces at the least than the faction has of it (a
    track's cheapest cost above its token's whole supply)."""
    if not isinstance(part, M.PayPart):
        return
    names = _resolved(use, part.piece) or []
    piece = use.faction.pieces.get(names[0]) if len(names) == 1 else None
    least = _least(part.count, use)
    if piece is not None and least is not None and least > piece.count:
        act = use.name
        yield use.doc, use.loc, (
            f"{act}: program {act} pays at least {least} {names[0]} at "
            f"{_at(use, ('do', i))}, and {use.faction.id} has {piece.count} in all: it is "
            "never offered")


def _box_cost_never(use: _Use, i: int, part: Any) -> Iterator[tuple]:
    """PROGRAM-NEVER of an 'into_box' 'from_box' cost: more pieces at the least than the
    box can ever hold (the faction's whole count of the box's piece)."""
    if not (isinstance(part, M.IntoBoxPart) and part.from_box and part.require):
        return
    names = _resolved(use, part.box) or []
    box = next((b for b in use.faction.boxes if [b.id] == names), None)
    piece = use.faction.pieces.get(box.piece) \
        if box is not None and not box.tally else None
    least = _least(part.count, use)
    if box is not None and piece is not None and least is not None and least > piece.count:
        act = use.name
        yield use.doc, use.loc, (
            f"{act}: program {act} returns at least {least} {box.piece} from box {box.id} "
            f"at {_at(use, ('do', i))}, which holds at most {piece.count} (all of "
            f"{use.faction.id}'s {box.piece}): it is never offered")


@check("FIELD-UNREAD", "warning", "library",
       "A choice's clearing filter that gives 'suit': \"clearing\" for the clearing it is "
       "choosing (at its top or in its 'any_of'): a clearing is always of its own suit, "
       "so it passes every clearing. In 'adjacent_to' or a count's filter it is the "
       "chosen clearing's suit.",
       example='`{"op": "choose", "clearing": {"suit": "clearing", "has": "warrior"}}`')
def _choice_suit_unread(lib: M.LibrarySpec) -> Iterator[tuple[Loc, str]]:
    def own(flt: M.ClearingFilter | None, at: tuple) -> Iterator[tuple]:
        if flt is None:
            return
        if flt.suit == "clearing":
            yield (*at, "suit")
        for j, g in enumerate(flt.any_of or ()):
            yield from own(g, (*at, "any_of", j))

    for pid, prog in lib.programs.items():
        part = prog.do[0]
        if isinstance(part, M.ChoosePart):
            for at in own(part.clearing, ("programs", pid, "do", 0, "clearing")):
                yield at, (f"{pid}: 'suit': \"clearing\" in the choice of a clearing is the "
                           "suit of the clearing being chosen, which every clearing matches: "
                           "it changes nothing")


# --------------------------------------------------------------------------- the docs


def checks_markdown() -> str:
    """docs/validation.md: every code validate reports, with its severity and an example."""
    lines = ["# Validation codes", "",
             "Generated from `spec/diagnostics.py` and `spec/semantics.py` by "
             "`rootlaw validate --list-checks --out docs/validation.md`; do not edit by "
             "hand.", "",
             "`rootlaw validate` reads content in two passes. The loader checks that each "
             "file is JSON and follows the schema; then the semantic checks look at what "
             "makes content playable, one document at a time and for the resolved bundle "
             "(each map and deck with the factions). Every finding has a stable code, a "
             "severity, a file, a line and a JSON pointer, and says in the author's terms "
             "what the file has, what it should have there and, for a misspelt key, value, "
             "op or id, the one meant: `'cout' is not a key of a piece (did you mean "
             "'count'?); a piece has: kind, count, ...`. Every command that loads "
             "content (`play`, `build`, `check` ...) refuses content with errors, not only "
             "`validate`.", "",
             "Effects are data (abilities of factions and persistent cards, immediate "
             "cards' `on_craft`): an op or ability kind the engine does not have is the "
             "loader's `VALUE-INVALID` at its `op` or `kind`; the `EFFECT-*` checks find "
             "programs that cannot run where they stand.", "",
             "## Exit codes", "",
             "- `0`: no errors (warnings alone exit 0; `--strict` makes them fail too)",
             "- `1`: errors in the content (or warnings, with `--strict`: the path's line "
             "then says `failed:`, not `ok:`)",
             "- `2`: unusable input: a file that is missing, unreadable, not UTF-8, not "
             "JSON, nested too deep or too big (the codes marked *input* below)", "",
             "## In CI and pre-commit", "",
             "- `rootlaw validate my-pack`: the pack, the packs it requires and the base "
             "game; `--pack DIR` makes a required pack that is not installed available, "
             "and findings stay in the file (and pack) that holds them.",
             "- `rootlaw validate --format github my-pack` in a GitHub Actions step "
             "annotates the files of a pull request; `--format json` is for other tools.",
             "- pre-commit: this repository's `.pre-commit-hooks.yaml` defines the hook "
             "`rootlaw-validate` (`rootlaw validate --strict`, run when a JSON file "
             "changes; set `args: [my-pack]` in your `.pre-commit-config.yaml`).", "",
             "## Scenario files", "",
             "A rules scenario (`docs/scenarios.md`: an object without `kind`, with a "
             "scenario's keys, or naming `scenario.schema.json` in `\"$schema\"`) is "
             "recognised and read against the content: its factions, names, counts and "
             "action notations, and its position set, on the base game, the `--pack` packs "
             "and the pack the file lies in (a pack's `scenarios/` folder). It is not run: "
             "`rootlaw scenario FILE` says whether its expectations hold. A problem is "
             "`SCENARIO-INVALID` at its line and JSON pointer. A folder that is not a pack "
             "stands for the JSON files in it (`rootlaw validate tests/scenarios`).", "",
             "## Loader codes", "",
             "| code | severity | what it means | example |", "|---|---|---|---|"]
    for code, (meaning, example) in LOADER_CODES.items():
        sev = "error (*input*)" if code in INPUT_CODES else "error"
        lines.append(f"| `{code}` | {sev} | {meaning} | {example} |")
    lines += ["", "## Played games", "",
              "Some content passes every check below and still leaves no game an end (a map "
              "too small for the factions to score on). For each pack it validates, "
              "`rootlaw validate` plays a few seeded random games on each map the pack "
              "brings (its default map when it brings none; every faction of the bundle "
              "seated; seeds 1, 2, 3 ...) and shows what they did and how long they took "
              "on the `ok:` line: `--play N` (default 3, `0` turns it off), `--play-seconds "
              "S` (a budget for all of them, default 10; games it leaves undecided are "
              "counted, not reported). They run on the bundle's compiled core when one is "
              "built, else on the pure core: validate never compiles. A game is *stalled* "
              "when no faction reaches a VP it has not had before for 500 rounds (legal "
              "games have a long tail: `docs/simulate.md`).", "",
              "| code | severity | what it means | example |", "|---|---|---|---|"]
    for code, (sev, meaning, example) in PLAY_CODES.items():
        lines.append(f"| `{code}` | {sev} | {meaning} | {example} |")
    lines += ["", "## Semantic checks", "",
              "*reads*: one map, deck, faction or library, the bundle (a map, a deck and "
              "the factions together), or *uses*: each menu entry that runs a program of the "
              "bundle's libraries, for its faction (a card's entry: for every faction), on "
              "each map; a finding there is located at the entry and names the program's "
              "part (its pointer and library file).", "",
              "| code | severity | reads | what it finds | example | Law |",
              "|---|---|---|---|---|---|"]
    for c in CHECKS:
        lines.append(f"| `{c.code}` | {c.severity} | {c.scope} | {c.summary} | {c.example} "
                     f"| {c.law or '-'} |")
    lines.append("")
    return "\n".join(lines)


# The checks of uses that need the whole bundle: its libraries (an entry naming no
# program may name one of its pack's) and its map (what is never offered there).
_NEEDS_BUNDLE = (_entry_programs, _program_never, _forest_score, _corners_enough,
                 _edge_marked)
