"""The primitive catalogue, generated from the schema: every step, menu action, ability
and effect op the engine implements, with its parameters (like a linter's rule table).

``rootlaw catalogue --out docs/catalogue.md`` regenerates the committed copy; a test
fails when it is stale.
"""

from __future__ import annotations

import inspect
import types
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from . import models as M

CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "docs" / "catalogue.md"

_GROUPS = (
    ("Steps", "op", M.Step, "Turn, setup and hook programs are lists of steps."),
    ("Menu actions", "action", M.MenuAction, "Entries of an `actions` step's menu."),
    ("Abilities", "kind", M.Ability,
     "What a faction has, or a persistent card grants while it lies in a play area: static "
     "modifiers, usable effects (`effect`) and automatic reactions (`trigger`)."),
    ("Effect ops", "op", M.EffectOnlyOp,
     "The programs of usable effects, triggers and immediate cards (`do`, `on_craft`) are "
     "lists of effect ops and of the program parts `score`, `draw`, `remove`, "
     "`discard_all`, `give`, `show`, `into_box`, `place`, `if`, `discard` (of 'this' "
     "card) and `move` (of a player's warriors) (below: each compiled for "
     "its use, its `who` one "
     "of 'self', the player carrying out the program, 'target', the player its user "
     "chose, 'opponent', the other side of the battle, or 'holder', the ability's "
     "holder), run in order."),
    ("Program parts", "op", M.Instruction,
     "The parts of the language rules are programs of (docs/language.md): a library's "
     "`programs` are lists of parts run for one player, and a menu entry naming a program "
     "runs it with its fields as the program's parameters. A part names a piece, zone or "
     "box by id, `warrior` (the player's warrior), `piece` (the piece the first choice "
     "chose), or `$param`."),
)


# Parts of a faction that are lists of entries of their own (the key in a faction file,
# the model of one entry): what steps and menu actions name.
_PARTS = (
    ("zones", M.Zone),
    ("boxes", M.Box),
    ("cycles", M.Cycle),
)


def _members(union) -> list[type[BaseModel]]:
    inner = typing.get_args(union)[0]
    return [typing.get_args(m)[0] if typing.get_origin(m) is typing.Annotated else m
            for m in typing.get_args(inner)]


def _tag(model: type[BaseModel], tag: str) -> str:
    """A member's name in its group: its tag's value ('program': a menu entry naming a
    program, whose 'action' is any program's name)."""
    ann = model.model_fields[tag].annotation
    return typing.get_args(ann)[0] if typing.get_origin(ann) is typing.Literal else "program"


# Parts of programs that nest (a filter of the clearings adjacent to one, a value of
# values): named where they are used, spelled out in their own section.
_LANGUAGE = (
    ("clearing filter", M.ClearingFilter, ""),
    # Every value and condition, from the unions themselves (none left out: the
    # catalogue is where an author looks them up).
    *(("value", M._VALUE_MODELS[tag], key) for key, tag in M._VALUE_FORMS.items()),
    *(("condition", M._CONDITION_MODELS[tag], key)
      for key, tag in M._CONDITION_FORMS.items()),
    ("piece", M.OfSuit, "of_suit"), ("piece", M.RandomPiece, "random"),
    ("place", M.AtEachClearing, "each_clearing"), ("place", M.AtEach, "each"),
    ("place", M.AtEachForest, "each_forest"), ("place", M.AtForest, "forest"),
    ("forest filter", M.ForestFilter, ""),
)


def _type_name(ann) -> str:
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if ann is type(None):
        return "null"
    for m in (args[1:] if origin is typing.Annotated else ()):
        form = getattr(m, "discriminator", None)
        if form is M._value_form:
            return "value"
        if form is M._condition_form:
            return "condition"
    named = {model: kind for kind, model, _ in _LANGUAGE}
    if isinstance(ann, type) and ann in named:
        return named[ann]
    if isinstance(ann, type) and issubclass(ann, BaseModel):  # a small object, spelled out
        return "{" + ", ".join(f'"{f.alias or n}": {_field_type(f)}'
                               for n, f in ann.model_fields.items()) + "}"
    if origin is typing.Annotated:
        inner = args[0]
        if inner is str:
            return "id"
        if typing.get_origin(inner) in (typing.Union, types.UnionType):
            if "HitsOp" in str(inner):
                return "effect op or part"
            if "Action" in str(inner):
                return "menu action"
            members = [typing.get_args(a)[0] if typing.get_origin(a) is typing.Annotated
                       else a for a in typing.get_args(inner)]
            if any(typing.get_origin(a) is typing.Literal for a in members):
                # A word or an object, told apart by its form (models: a placement's
                # 'at', a filter's 'adjacent_to'): its members, each named
                return " or ".join(dict.fromkeys(_type_name(a) for a in members))
            return "one of the union"
        return _type_name(inner)
    if origin is typing.Literal:
        return " / ".join(str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        return " or ".join(dict.fromkeys(_type_name(a) for a in rest)) + \
            ("?" if len(rest) < len(args) else "")
    if origin in (list, tuple):
        return f"list of {_type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {_type_name(args[0])} to {_type_name(args[1])}"
    return getattr(ann, "__name__", str(ann))


def _field_type(f: FieldInfo) -> str:
    """A field's type in words (a value or condition: its discriminator says so)."""
    for m in f.metadata:
        form = getattr(m, "discriminator", None)
        if form is M._value_form:
            return "value"
        if form is M._condition_form:
            return "condition"
    return _type_name(f.annotation)


def _param(name: str, f: FieldInfo) -> str:
    default = "required" if f.is_required() else f"default `{f.default!r}`"
    doc = (f.description or "").replace("\n", " ")
    return f"`{f.alias or name}` ({_field_type(f)}, {default}){': ' + doc if doc else ''}"


def content_files(examples: Path | None = None) -> list[tuple[str, object]]:
    """The content the catalogue counts uses in: the base pack's files and the packs of
    the folder ``examples`` (a checkout's examples/: each ``*/pack.json``), each as
    (its pack folder/file name, its document)."""
    from .loader import load_pack

    manifests = [Path(__file__).resolve().parent / "content" / "base" / "pack.json"]
    if examples is not None:
        manifests += sorted(Path(examples).glob("*/pack.json"))
    out = []
    for manifest in manifests:
        _, docs = load_pack(manifest)
        out += [(f"{manifest.parent.name}/{Path(f).name}", d) for f, d in docs]
    return out


def _walk(obj, seen: set[type]) -> None:
    seen.update(type(m) for m in M.walk(obj))


def uses(files: list[tuple[str, object]]) -> dict[type, list[str]]:
    """Each model of the content (a step, a menu action ...) -> the content files that use
    it, in order; a program part -> the programs that use it (a library is one file
    holding many rules: a part serves each program it is in), and the files whose effect
    programs hold it."""
    parts = set(_members(M.Instruction))
    out: dict[type, list[str]] = {}
    for name, doc in files:
        seen: set[type] = set()
        _walk(doc, seen)
        for model in (seen - parts if isinstance(doc, M.LibrarySpec) else seen):
            out.setdefault(model, []).append(name)
        if not isinstance(doc, M.LibrarySpec):
            continue
        for pid, prog in doc.programs.items():
            in_prog: set[type] = set()
            _walk(prog, in_prog)
            for model in in_prog & parts:
                out.setdefault(model, []).append(f"{doc.id}:{pid}")
    return out


# Where a primitive may appear, by the group whose union holds it.  A primitive is one
# operation of the Law: one model in two groups (the turn step 'actions' is an effect
# program's part too), or the twin models below, one operation spelled by each place's
# key (a step's 'op', a menu entry's 'action'), is listed once, where it first appears.
_PLACES = {"Steps": "a step", "Menu actions": "a menu entry", "Abilities": "an ability",
           "Effect ops": "an effect program's part", "Program parts": "a program's part"}
_TWINS: dict[type[BaseModel], type[BaseModel]] = {
    M.CraftAction: M.Craft,  # Law 4.1: crafting, in its own step or as one of the actions
    M.ProgramEntry: M.ProgramStep,  # a program of the libraries run, by its name
}


def primitive(model: type[BaseModel]) -> type[BaseModel]:
    """The model a primitive is listed by (a twin's: the one it is the twin of)."""
    return _TWINS.get(model, model)


def members(model: type[BaseModel]) -> list[type[BaseModel]]:
    """The models of one primitive: the one it is listed by, then its twins."""
    return [model] + [t for t, m in _TWINS.items() if m is model]


def places(model: type[BaseModel]) -> list[str]:
    """The groups of the catalogue a primitive may appear in, in order (the first lists
    it)."""
    ms = members(primitive(model))
    return [title for title, _, union, _ in _GROUPS
            if any(m in _members(union) for m in ms)]


def _group_of(model: type[BaseModel]) -> str:
    """The first group whose union holds this model itself."""
    return next(title for title, _, union, _ in _GROUPS if model in _members(union))


def _files(used: dict[type, list[str]], model: type[BaseModel]) -> list[str]:
    """The files (and programs) using a primitive, any of its models, in order."""
    out: list[str] = []
    for m in members(model):
        out += [f for f in used.get(m, []) if f not in out]
    return out


def use_counts(files: list[tuple[str, object]]) -> dict[str, int]:
    """'group name' (e.g. 'Steps craft') -> how many content files (for a program part:
    programs) use that primitive, for every primitive of the catalogue's groups, each
    once: under the first group that holds it (a twin's files counted with its
    primitive's)."""
    used = uses(files)
    out = {}
    for title, tag, union, _ in _GROUPS:
        for model in _members(union):
            if primitive(model) is model and places(model)[0] == title:
                out[f"{title} {_tag(model, tag)}"] = len(_files(used, model))
    return out


def _used_by(files: list[str]) -> str:
    return ", ".join(f"`{f}`" for f in files) if files else "(none)"


def catalogue_markdown(examples: Path | None = None) -> str:
    """The catalogue; its 'used by' column counts the base pack and the packs of
    ``examples`` (``rootlaw catalogue`` in a checkout: its examples/ folder)."""
    lines = ["# Primitive catalogue", "",
             "Generated from `spec/models.py` by `rootlaw catalogue`; do not edit by hand.",
             "Content names these primitives; the engine implements each once and never",
             "names the content that uses it.", ""]
    files = content_files(examples)
    used = uses(files)
    counts = use_counts(files)
    ones = sum(1 for n in counts.values() if n == 1)
    lines += [f"Used by (the last column): the content files that use each primitive, of "
              f"the base pack{' and the example packs' if examples is not None else ''} (for a "
              f"program part: the programs, as "
              f"library:program, and the files whose effect programs hold it). Of the "
              f"{len(counts)} primitives, "
              f"{sum(1 for n in counts.values() if n > 1)} are used by more than one file, "
              f"{ones} by one ({100 * ones / len(counts):.0f}%) and "
              f"{sum(1 for n in counts.values() if n == 0)} by none.", ""]
    for title, tag, union, intro in _GROUPS:
        lines += [f"## {title}", "", intro, "",
                  "| name | what it does | parameters | used by |", "|---|---|---|---|"]
        for model in _members(union):
            where = places(model)
            if primitive(model) is not model or where[0] != title:
                continue  # listed once, where it first appears
            fields = model.model_fields
            tag_value = _tag(model, tag)
            doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
            for twin in members(model)[1:]:
                doc += " As " + _PLACES[_group_of(twin)] + ": " + " ".join(
                    inspect.cleandoc(twin.__doc__ or "").split())
            if len(where) > 1:
                doc += " May appear as: " + ", ".join(_PLACES[w] for w in where) + "."
            params = [_param(n, f) for n, f in fields.items() if n != tag]
            lines.append(f"| `{tag_value}` | {doc} | {'<br>'.join(params) or '-'} | "
                         f"{_used_by(_files(used, model))} |")
        lines.append("")
    lines += ["## Values, conditions and filters", "",
              "What program parts read: a *value* is a whole number, a number parameter "
              "(`$name`) or one of the objects below; a *condition* tests the game; a "
              "*piece* is an id, `warrior`, `$name` or the object below; a "
              "*clearing filter* (a choice's `clearing`, a card's `matching`) passes the "
              "clearings that pass each of its tests. 'The clearing' is the one the "
              "program's first choice chose.", "",
              "| kind | key | what it is | parameters |", "|---|---|---|---|"]
    for kind, model, key in _LANGUAGE:
        doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
        params = [_param(n, f) for n, f in model.model_fields.items()]
        keys = f"`{key}`" if key else ", ".join(f"`{k}`" for k in model.model_fields)
        lines.append(f"| {kind} | {keys} | {doc} | {'<br>'.join(params)} |")
    lines.append("")
    lines += ["## Faction parts", "",
              "Keys of a faction file whose entries steps and menu actions name.", "",
              "| key | what an entry is | parameters |", "|---|---|---|"]
    for key, model in _PARTS:
        doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
        params = [_param(n, f) for n, f in model.model_fields.items()]
        lines.append(f"| `{key}` | {doc} | {'<br>'.join(params)} |")
    lines.append("")
    from .bundle import standard_library  # content, read at run time: not the schema's

    lib = standard_library()
    lines += ["## The standard programs", "",
              f"The base pack's library (`spec/content/base/library.json`, `{lib.id}`): menu "
              "entries of these names run these programs, written in the parts above, and "
              "so do steps of these names (a program with no action: it chooses nothing; one "
              "whose action is `clearing`: a step's choice of a clearing).",
              "",
              "| program | Law | action | parameters | parts |", "|---|---|---|---|---|"]
    for pid, prog in lib.programs.items():
        named = ", ".join(f"`{k}` ({v if isinstance(v, str) else v.type})"
                          for k, v in prog.params.items()) or "-"
        ops = ", ".join(f"`{x.op}`" for x in prog.do)
        action = f"`{prog.verb}`" if prog.verb is not None else "none (a step)"
        lines.append(f"| `{pid}` | {prog.law} | {action} | {named} | {ops} |")
    lines.append("")
    return "\n".join(lines)
