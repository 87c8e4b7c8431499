"""The schema's findings in the author's words.

pydantic says how validation failed ("Field required", "Extra inputs are not
permitted", "Input should be 'fox', 'rabbit' or 'mouse'", "Unable to extract tag using
discriminator 'op'"); an author needs what the file says, what it should say and what
was meant.  ``explain`` takes one pydantic error and the parsed file, walks the models
along the error's location to the part of the schema it is about (a piece, a 'draw'
step, the 'suit' of a clearing ...) and says it in ``rootlaw.spec.words``' vocabulary:

- ``'cout' is not a key of a piece (did you mean 'count'?); a piece has: kind, ...``
- ``a piece needs 'count': the whole supply (Law 1.5.1)``
- ``'count' is a whole number, not the text "25"``
- ``'suit' is fox, rabbit or mouse, not 'foks' (did you mean 'fox'?)``
- ``'op' must name a step: place_at_buildings, craft, ..., not 'drawz' (did you mean
  'draw'?)``
- ``'count' is from 1 to 64, not 0``; ``'piece' is an id (...), not 'Wood'``

The codes stay the loader's (KEY-UNKNOWN, KEY-MISSING, VALUE-INVALID, and a model
validator's own); only the words change.  Every error type pydantic can give for these
models has its sentence, and any other gets "<subject> is <what the schema expects>,
not <what was found>", so pydantic's phrases never reach an author.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, Discriminator, Tag
from pydantic.fields import FieldInfo

from . import models as M
from .diagnostics import LocatedValueError
from .words import (
    article,
    did_you_mean,
    found,
    is_not,
    listing,
    needs_key,
    number,
    out_of_range,
    quoted,
    unknown_key,
)

# ---------------------------------------------------------------------- the nouns

NOUNS: dict[type, str] = {
    M.Clearing: "a clearing", M.Forest: "a forest", M.MapSpec: "a map", M.Card: "a card",
    M.DeckSpec: "a deck", M.Track: "a track", M.Piece: "a piece", M.Zone: "a zone",
    M.Box: "a box", M.FromBox: "a count from a box", M.FactionCard: "a faction card",
    M.Column: "a column", M.ColumnWay: "a way of taking a column's card", M.Role: "a role",
    M.Cycle: "a cycle", M.Turn: "a turn",
    M.FactionSpec: "a faction", M.PackSpec: "a pack manifest", M.PatchSpec: "a patch",
    M.ClearingFilter: "a clearing filter", M.TrackCost: "a track's next cost",
    M.WarriorsAt: "a count of warriors", M.PiecesAt: "a count of pieces",
    M.SumValue: "a sum", M.IfValue: "an 'if' value",
    M.AtLeast: "an 'at_least' condition", M.NoneOnMap: "a 'none_on_map' condition",
    M.NotCondition: "a 'not' condition", M.ClearingCount: "a count of clearings",
    M.OfSuit: "a piece of the clearing's suit",
}
"""What each model is, in the author's terms (members of a tagged union are named by
their tag: "a 'draw' step", "an 'effect' ability")."""
NOUNS[M.PieceChoice] = "a choice of a piece"  # choose's 'piece' (Law 6.5.4: which building)

UNIONS: list[tuple[Any, str]] = [
    (M.Document, "content file"), (M.Step, "step"), (M.Ability, "ability"),
    (M.MenuAction, "menu entry"),
    (M.AtOncePart, "part an 'if' carries out at once"),
    (M.Instruction, "program part"), (M.EffectOp, "effect op or part"),
    (M.Operation, "patch operation"),
]
"""The tagged unions: what their members are ("step": the 'op' of a step names it)."""

ELSEWHERE: dict[tuple[str, str], str] = {
    ("program part", "march"): "'march' is a menu entry (the Law's move, 4.2), not a "
                               "program part",
    ("program part", "craft"): "crafting (Law 4.1) is a step or a menu entry 'craft', not "
                               "a program part",
    ("program part", "build"): "'build' is the standard library's program (Law 6.5.4; "
                               "'build_ruled', 7.5.2.IV): a menu entry's 'action' or a "
                               "step's 'op' names it; a program places a building with "
                               "'place'",
    ("program part", "recruit"): "recruiting is the standard library's program "
                                 "'recruit_at' (or 'recruit_all'): a menu entry's 'action' "
                                 "or a step's 'op' names it; a program places warriors with "
                                 "'place'",
    ("program part", "actions"): "'actions' is a turn step or an effect program's part "
                                 "(a card's 'take more actions'), not a library program's",
    ("effect op or part", "move"): "an effect program moves with 'actions', a menu of one "
                                   "'march' entry (the Law's move, 4.2)",
    ("effect op or part", "battle"): "an effect program battles with 'actions', a menu of "
                                     "one 'battle' entry (the Law's battle, 4.3)",
}
"""The Law's verbs that the language says elsewhere than where they were written, by
(the union's noun, the word): told instead of the nearest spelling ('move' is not a
misspelt 'remove')."""

KEY_HINTS: dict[type, str] = {
    M.MovePart: "a program's 'move' moves the piece a second choice chose out of its "
                "forest; the Law's move (4.2) is a menu's 'march' entry or a Decree "
                "column's 'move'",
}
"""What a model whose name is also a Law's verb is, told with a key it does not have
(``{"op": "move", "count": 2}`` meant the Law's move)."""

PATTERNS: dict[str, str] = {
    r"^[a-z][a-z0-9-]*$": "an id (lowercase letters, digits and '-', starting with a letter)",
    r"^#[0-9a-fA-F]{6}$": "a colour '#rrggbb'",
    r"^[a-z][a-z0-9_-]*$": "a program's name (lowercase letters, digits, '_' and '-', "
                           "starting with a letter)",
    r"^\$[a-z][a-z0-9_]*$": "'$name', a number parameter of the program",
    r"^(fox|rabbit|mouse|\$[a-z][a-z0-9_]*)$": "a clearing suit (fox, rabbit, mouse) or "
                                              "'$name', a suit parameter of the program",
    r"^(\$[a-z][a-z0-9_]*|[a-z][a-z0-9-]*)$": "an id or '$name', a parameter of the program",
    M.FILTER_SUIT: "clearing, fox, rabbit or mouse, or '$name' (a suit parameter of the "
                   "program)",
    r"^(/([^~/]|~[01])*)*$": "a JSON pointer ('' for the whole document, or like "
                             "'/turn/daylight/1/count')",
    r"^(map|deck|faction):[a-z][a-z0-9-]*$": "kind:id, the kind map, deck or faction "
                                             "(like 'faction:marquise')",
}
"""What each pattern of the schema asks for."""
IDENT = r"^[a-z][a-z0-9-]*$"


@functools.cache
def _unions() -> tuple[dict[type, tuple[str, str]], dict[frozenset, str]]:
    """(model -> (its union's noun, its tag), a union's members -> its noun)."""
    member_of: dict[type, tuple[str, str]] = {}
    union_noun: dict[frozenset, str] = {}
    for union, name in UNIONS:
        members = list(get_args(_unwrap(union)[0]))
        union_noun[frozenset(members)] = name
        for member in members:
            m, meta = _unwrap(member)
            tagged = next((t.tag for t in meta if isinstance(t, Tag)), None)
            key = next(f for f in ("kind", "op", "action") if f in m.model_fields)
            ann = m.model_fields[key].annotation
            member_of[m] = (name, str(get_args(ann)[0] if get_origin(ann) is Literal else tagged))
    return member_of, union_noun


def noun(model: type) -> str:
    """'a piece', "a 'draw' step", "an 'effect' ability", 'a map'."""
    if model in NOUNS:
        return NOUNS[model]
    if model in _unions()[0]:
        union, tag = _unions()[0][model]
        return article(f"'{tag}' {union}")
    return article(model.__name__.lower())


def noun_at(frames: list[Frame], model: type) -> str:
    """A model's noun where the walk found it: a member of the tagged union it was
    reached through is named by that union ("a 'discard_down_to' step", not the effect
    op it may also be); else ``noun``."""
    for i in range(len(frames) - 1, 0, -1):
        if frames[i].ann is model and frames[i].how == "tag" and frames[i - 1].union and \
                model not in NOUNS:
            tag = _unions()[0].get(model, ("", str(frames[i].name)))[1]
            return article(f"'{tag}' {frames[i - 1].union}")
    if model not in NOUNS and model not in _unions()[0]:
        # An object with no noun of its own is named by where it is written, never by
        # the model's class name: a value or condition by its key ("a 'box' value"), a
        # small object by its field (a battle ability's 'attacking').
        for i in range(len(frames) - 1, 0, -1):
            f = frames[i]
            if f.ann is model and f.how == "tag" and isinstance(f.name, str):
                form = getattr(_discriminator(frames[i - 1].meta), "discriminator", None)
                kind = "value" if form is M._value_form else \
                    "condition" if form is M._condition_form else "object"
                return article(f"'{f.name}' {kind}")
            if f.ann is model and f.how == "field" and isinstance(f.name, str):
                return f"{f.name!r}"
    return noun(model)


def keys_of(model: type[BaseModel]) -> list[str]:
    """The keys a model's objects may have, as written in files ('from', not 'from_')."""
    return [f.alias or name for name, f in model.model_fields.items()]


# ---------------------------------------------------------------------- walking the models


def _unwrap(ann: Any) -> tuple[Any, list]:
    """An annotation without its Annotated layers, and their metadata (constraints,
    discriminators, tags), FieldInfos' own metadata included."""
    meta: list = []
    while get_origin(ann) is typing.Annotated:
        args = get_args(ann)
        ann = args[0]
        for m in args[1:]:
            meta.append(m)
            if isinstance(m, FieldInfo):
                meta.extend(m.metadata)
    return ann, meta


def _is_union(ann: Any) -> bool:
    return get_origin(ann) in (typing.Union, types.UnionType)


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _discriminator(meta: list) -> str | Discriminator | None:
    for m in meta:
        if isinstance(m, FieldInfo) and m.discriminator is not None:
            return m.discriminator
        if isinstance(m, Discriminator):
            return m
    return None


@dataclass
class Frame:
    """One step of a walk along an error's location: the schema's annotation there."""

    ann: Any
    meta: list
    how: str  # root, field, item (of a list or tuple), value (of an object), key, tag
    name: object = None  # the field, the object's key, the index, the tag
    model: type | None = None  # for a field: the model it belongs to
    union: str = ""  # at a tagged union: its noun ("step"); its discriminator in disc
    disc: str = ""
    tags: tuple = ()


def _frame(ann: Any, meta: list, how: str, name: object = None,
           model: type | None = None) -> Frame:
    base, more = _unwrap(ann)
    meta = [*meta, *more]
    # 'X | None' (no discriminator): the schema is X's, which may be left out or null.
    while _is_union(base) and _discriminator(meta) is None:
        members = [a for a in get_args(base) if a is not type(None)]
        if len(members) != 1:
            break
        base, more = _unwrap(members[0])
        meta = [*meta, *more]
    f = Frame(base, meta, how, name, model)
    disc = _discriminator(meta)
    if _is_union(base) and disc is not None:
        members = list(get_args(base))
        f.union = _unions()[1].get(frozenset(members), "")
        if isinstance(disc, str):
            f.disc = disc
            f.tags = tuple(get_args(_unwrap(m)[0].model_fields[disc].annotation)[0]
                           for m in members)
        elif isinstance(disc, Discriminator) and disc.discriminator in _OPEN_UNIONS:
            # A union of the engine's own members and a program named by its key: its
            # tags are the engine's, and a program's name
            f.disc = _OPEN_UNIONS[disc.discriminator]
            f.tags = (*(t.tag for m in members for t in _unwrap(m)[1]
                        if isinstance(t, Tag) and t.tag != "program"), "or a program's name")
    return f


_OPEN_UNIONS: dict[Any, str] = {M._step_tag: "op"}
"""The unions whose members are the engine's own and any program (models.ProgramStep),
told apart by this key."""


def walk(loc: tuple) -> tuple[list[Frame], tuple]:
    """The frames along a pydantic location from the document down, and the part of
    the location the schema has no place for (an unknown key)."""
    frames = [_frame(M.Document, [], "root")]
    i = 0
    while i < len(loc):
        f, seg = frames[-1], loc[i]
        base = f.ann
        nxt: Frame | None = None
        if _is_union(base):
            for m in get_args(base):
                mb, mmeta = _unwrap(m)
                tag = next((t.tag for t in mmeta if isinstance(t, Tag)), None)
                if tag == seg or (f.disc and _is_model(mb) and
                                  get_args(mb.model_fields[f.disc].annotation)[0] == seg):
                    nxt = _frame(m, [], "tag", seg)
                    break
        elif _is_model(base):
            fields = {(fi.alias or name): fi for name, fi in base.model_fields.items()}
            if seg in fields:
                fi = fields[seg]
                nxt = _frame(fi.annotation, [fi, *fi.metadata], "field", seg, base)
        elif get_origin(base) is list and isinstance(seg, int):
            nxt = _frame(get_args(base)[0], [], "item", seg)
        elif get_origin(base) is tuple and isinstance(seg, int) and seg < len(get_args(base)):
            nxt = _frame(get_args(base)[seg], [], "item", seg)
        elif get_origin(base) is dict:
            k, v = get_args(base)
            if i + 1 < len(loc) and loc[i + 1] == "[key]":
                nxt = _frame(k, [], "key", seg)
                i += 1
            else:
                nxt = _frame(v, [], "value", seg)
        if nxt is None:
            break
        frames.append(nxt)
        i += 1
    return frames, tuple(loc[i:])


# ---------------------------------------------------------------------- describing


def expected(f: Frame) -> str:
    """What the schema takes at a frame, in words: 'a whole number', 'an id (...)'."""
    base = f.ann
    if base is bool:
        return "true or false"
    if base is int:
        return "a whole number"
    if base is float:
        return "a number"
    if base is str:
        pattern = _pattern(f.meta)
        return PATTERNS.get(pattern, f"text matching {pattern}") if pattern else "text"
    if base is type(None):
        return "null"
    if base is Any:
        return "any JSON value"
    if get_origin(base) is Literal:
        return listing(get_args(base), " or ")
    if get_origin(base) is list:
        return "a list"
    if get_origin(base) is dict:
        return "an object"
    if get_origin(base) is tuple:
        args = {_unwrap(a)[0] for a in get_args(base)}
        each = {int: " of whole numbers", float: " of numbers", str: " of ids"}
        return f"a pair{each.get(args.pop(), '') if len(args) == 1 else ''} [a, b]"
    if _is_model(base):
        return "an object"
    if _is_union(base):
        if f.disc:
            return f"an object with {f.disc!r}"
        # Told apart by the value's type (models.ActionCount): each member's words.
        return listing(list(dict.fromkeys(expected(_frame(m, [], "item"))
                                          for m in get_args(base))), " or ")
    return "something else"


def _pattern(meta: list) -> str | None:
    return next((m.pattern for m in meta if getattr(m, "pattern", None)), None)


def _bound(meta: list, name: str) -> object:
    return next((getattr(m, name) for m in meta if getattr(m, name, None) is not None), None)


def _thing(f: Frame) -> str | None:
    """The noun of what a frame holds, when it is a model or a tagged union."""
    if _is_model(f.ann):
        return noun(f.ann)
    if f.union:
        return article(f.union)
    return None


def subject(frames: list[Frame]) -> str:
    """Who the sentence is about: "'count'", "each entry of 'cost'", "'boot' in
    'items'", 'a step', 'each key of 'pieces''."""
    f = frames[-1]
    if f.how == "tag" and len(frames) > 1:
        frames, f = frames[:-1], frames[-2]
    if f.how == "field":
        return f"{f.name!r}"
    if f.how == "root":
        return "a content file"
    if f.how in ("item", "value") and _thing(f):
        return _thing(f)  # type: ignore[return-value]
    up = [g for g in frames if g.how == "field"]
    field = f"{up[-1].name!r}" if up else "the document"
    if f.how == "key":
        return f"each key of {field}"
    depth = len(frames) - 1 - (frames.index(up[-1]) if up else 0)
    if f.how == "value" and depth == 1:
        return f"{f.name!r} in {field}"
    return f"each entry of {field}" if depth == 1 else f"each value in {field}"


def _doc(model: type[BaseModel] | None, key: str) -> str:
    """The first sentence of a field's docstring, when it is short: what it is for."""
    if model is None:
        return ""
    fi = next((fi for name, fi in model.model_fields.items() if (fi.alias or name) == key),
              None)
    text = " ".join((fi.description or "").split()) if fi else ""
    first = re.split(r"(?<=[a-z)])\. ", text, maxsplit=1)[0].rstrip(".")
    if not first or len(first) > 90:
        return ""
    return first[0].lower() + first[1:] if first[1:2].islower() else first


def _tag_suggestion(value: object) -> str:
    """An id written almost as ids are ('Bad Id', 'Wood'): the id it would be."""
    if not isinstance(value, str):
        return ""
    slug = re.sub(r"[^a-z0-9-]+", "-", value.strip().lower()).strip("-")
    slug = re.sub(r"^[^a-z]+", "", slug)
    return f" (did you mean {slug!r}?)" if slug and slug != value and \
        re.fullmatch(IDENT, slug) else ""


# ---------------------------------------------------------------------- explaining

CODES = {
    "extra_forbidden": "KEY-UNKNOWN",
    "missing": "KEY-MISSING",
    "union_tag_not_found": "KEY-MISSING",
}
"""The loader's code for each pydantic error type (any other: VALUE-INVALID)."""

SCENARIO_HINT = ("; a rules scenario has no 'kind' but its own keys (position, steps ...): "
                 "see docs/scenarios.md")


_UNION_BRANCH = re.compile(r"^(constrained-)?(str|int|bool)$|^list\[.*\]$")
"""pydantic's names of the branches of a union it tells apart by type alone (a program's
parameter given by a step or an entry: a name, a list of names, a whole number)."""
_EXTRA_FIELDS = (M.ProgramEntry, M.ProgramStep, M.ColumnWay, M.Column)
"""The models whose extra fields give a program's parameters."""


def explain(err: Mapping[str, Any], data: object) -> tuple[str, str, tuple]:
    """(code, message, extra location) for one pydantic error (``errors()`` item) of the
    parsed file ``data``; the extra location is a model validator's, relative to the
    model that raised it."""
    kind, loc, value = err["type"], tuple(err["loc"]), err.get("input")
    ctx = err.get("ctx") or {}
    code = CODES.get(kind, "VALUE-INVALID")
    frames, rest = walk(loc)
    f = frames[-1]
    if kind == "value_error":
        cause = ctx.get("error")
        if isinstance(cause, LocatedValueError):
            return cause.code, str(cause), cause.loc
        return code, str(cause or err["msg"]).removeprefix("Value error, "), ()
    if kind == "extra_forbidden":
        owner = f.ann if _is_model(f.ann) and len(rest) == 1 else None
        if owner is None:
            return code, f"{quoted(loc[-1])} is not a key here", ()
        said = unknown_key(loc[-1], noun_at(frames, owner), keys_of(owner))
        hint = KEY_HINTS.get(owner) if isinstance(owner, type) else None
        return code, said + (f" ({hint})" if hint else ""), ()
    if kind == "missing":
        if f.how != "field" or f.model is None:
            return code, f"{quoted(loc[-1] if loc else '')} is missing", ()
        near = [k for k in (_parent(data, loc) or {}) if k not in keys_of(f.model)]
        return code, needs_key(noun_at(frames, f.model), str(f.name),
                               why=_doc(f.model, str(f.name)),
                               near=near), ()
    if kind == "union_tag_not_found" and f.disc and f.union and not isinstance(value, dict):
        return "VALUE-INVALID", is_not(subject(frames), expected(f), value), ()
    if kind in ("union_tag_not_found", "union_tag_invalid") and f.disc:
        return code, _tag_message(kind, f, value, loc), ()
    if rest and f.ann in _EXTRA_FIELDS and not _UNION_BRANCH.match(str(rest[0])):
        # A field a step or a menu entry gives the program it names (models.ProgramEntry
        # and ProgramStep: their extra fields), of no type a parameter takes.
        return code, (f"{quoted(rest[0])} gives the program a parameter: a name, a list "
                      "of names or a whole number (a part such as 'if' belongs in a "
                      "library's program, which the step or entry names)"), ()
    if rest and rest[0] in ("constrained-str", "list[constrained-str]"):
        # A field of a name or a list of names (models.Ref | list[Ref]), fitting neither.
        field = next((x for x in reversed(loc[:len(loc) - len(rest)])
                      if isinstance(x, str)), "")
        hint = f" (did you mean {value.lower()!r}?)" if isinstance(value, str) and \
            value.lower() != value else ""
        return code, (f"{quoted(field)} is a name (an id: lowercase letters, digits and "
                      "'-'; or '$name' of a parameter) or a list of names, not "
                      f"{quoted(value)}{hint}"), ()
    if rest:  # a part of the file the schema has no place for (should not happen)
        return code, f"{quoted(rest[0])} is not a key here", ()
    who = subject(frames)
    if kind == "literal_error":
        choices = get_args(f.ann) if get_origin(f.ann) is Literal else ()
        return code, f"{who} is {expected(f)}, not {quoted(value)}" \
            f"{did_you_mean(value, choices)}", ()
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        hint = _tag_suggestion(value) if pattern == IDENT else ""
        what = PATTERNS.get(pattern, f"text matching {pattern}")
        return code, f"{who} is {what}, not {quoted(value)}{hint}", ()
    if kind in ("greater_than", "less_than"):  # no model has these; said all the same
        op, limit = ("more", ctx.get("gt")) if kind == "greater_than" else ("less", ctx.get("lt"))
        return code, f"{who} is {op} than {limit}, not {number(value)}", ()
    if kind in ("greater_than_equal", "less_than_equal"):
        # Both bounds when the schema has both: 'from 1 to 64', not only the one crossed.
        lo, hi = _bound(f.meta, "ge"), _bound(f.meta, "le")
        return code, out_of_range(who, value, ctx.get("ge") if lo is None else lo,
                                  ctx.get("le") if hi is None else hi), ()
    if kind in ("too_short", "too_long"):
        return code, _length(kind, who, f, ctx, value), ()
    if kind in ("string_too_long", "string_too_short"):
        n = ctx.get("max_length" if kind == "string_too_long" else "min_length")
        most = "at most" if kind == "string_too_long" else "at least"
        return code, f"{who} is {most} {n} characters long, not " \
            f"{len(value) if isinstance(value, str) else found(value)}", ()
    if f.how == "tag" and len(frames) > 1 and not frames[-2].disc:
        # A member of a union told apart by the value's type (models.ActionCount): the
        # value may be any of its members.
        return code, is_not(who, expected(frames[-2]), value), ()
    return code, is_not(who, expected(f), value), ()


def _parent(data: object, loc: tuple) -> dict | None:
    """The object of the parsed file that holds the key at the end of loc (pydantic's
    union-tag segments skipped)."""
    cur: Any = data
    for part in loc[:-1]:
        inside = (isinstance(cur, dict) and part in cur) or \
            (isinstance(cur, list) and isinstance(part, int) and part < len(cur))
        if inside:
            cur = cur[part]
    return cur if isinstance(cur, dict) else None


def _tag_message(kind: str, f: Frame, value: object, loc: tuple) -> str:
    tags = [str(t) for t in f.tags]
    what = article(f.union) if f.union else "this object"
    if kind == "union_tag_not_found":
        # Keys some member has are not misspellings of the tag ('id' is not 'kind').
        known = {k for m in _unions()[0] if _unions()[0][m][0] == f.union for k in keys_of(m)}
        near = [k for k in value if k not in known] if isinstance(value, dict) else []
        msg = needs_key(what, f.disc, near=near) + f", saying which: {listing(tags)}"
        return msg + (SCENARIO_HINT if not loc else "")
    written = value.get(f.disc) if isinstance(value, dict) else value
    hint = ELSEWHERE.get((f.union, written)) if isinstance(written, str) else None
    return f"{f.disc!r} must name {what}: {listing(tags)}, not {quoted(written)}" + \
        (f" ({hint})" if hint else did_you_mean(written, tags))


def _length(kind: str, who: str, f: Frame, ctx: dict, value: object) -> str:
    n = ctx.get("min_length" if kind == "too_short" else "max_length")
    actual = ctx.get("actual_length")
    if ctx.get("field_type") == "Tuple" or get_origin(f.ann) is tuple:
        return is_not(who, expected(f), value)
    unit = "entr" if ctx.get("field_type") == "Dictionary" else "item"
    plural = (unit + ("ies" if unit == "entr" else "s")) if n != 1 else \
        (unit + ("y" if unit == "entr" else ""))
    if kind == "too_short":
        return f"{who} needs at least {n} {plural}, not {actual}"
    return f"{who} holds at most {n} {plural}, not {actual}"


__all__ = ["CODES", "NOUNS", "PATTERNS", "UNIONS", "Frame", "expected", "explain",
           "keys_of", "noun", "subject", "walk"]
