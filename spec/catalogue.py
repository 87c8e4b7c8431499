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
    ("Effect ops", "op", M.EffectOp,
     "The programs of usable effects, triggers and immediate cards (`do`, `on_craft`) are "
     "lists of effect ops, run in order. 'self' is the player carrying out the program, "
     "'target' the player its user chose, 'opponent' the other side of the battle."),
    ("Program parts", "op", M.Instruction,
     "The parts of the language rules are programs of (docs/language.md): a library's "
     "`programs` are lists of parts run for one player, and a menu entry naming a program "
     "runs it with its fields as the program's parameters. A part names a piece, zone or "
     "box by id, `warrior` (the player's warrior), or `$param`."),
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
    return list(typing.get_args(inner))


def _type_name(ann) -> str:
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if ann is type(None):
        return "null"
    if isinstance(ann, type) and issubclass(ann, BaseModel):  # a small object, spelled out
        return "{" + ", ".join(f'"{f.alias or n}": {_type_name(f.annotation)}'
                               for n, f in ann.model_fields.items()) + "}"
    if origin is typing.Annotated:
        inner = args[0]
        if inner is str:
            return "id"
        if typing.get_origin(inner) in (typing.Union, types.UnionType):
            if "ScoreOp" in str(inner):
                return "effect op"
            return "menu action" if "Action" in str(inner) else "one of the union"
        return _type_name(inner)
    if origin is typing.Literal:
        return " / ".join(str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        return " or ".join(_type_name(a) for a in rest) + ("?" if len(rest) < len(args) else "")
    if origin in (list, tuple):
        return f"list of {_type_name(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {_type_name(args[0])} to {_type_name(args[1])}"
    return getattr(ann, "__name__", str(ann))


def _param(name: str, f: FieldInfo) -> str:
    default = "required" if f.is_required() else f"default `{f.default!r}`"
    doc = (f.description or "").replace("\n", " ")
    return f"`{name}` ({_type_name(f.annotation)}, {default}){': ' + doc if doc else ''}"


def catalogue_markdown() -> str:
    lines = ["# Primitive catalogue", "",
             "Generated from `spec/models.py` by `rootlaw catalogue`; do not edit by hand.",
             "Content names these primitives; the engine implements each once and never",
             "names the content that uses it.", ""]
    for title, tag, union, intro in _GROUPS:
        lines += [f"## {title}", "", intro, "", "| name | what it does | parameters |",
                  "|---|---|---|"]
        for model in _members(union):
            fields = model.model_fields
            tag_value = typing.get_args(fields[tag].annotation)[0]
            doc = " ".join(inspect.cleandoc(model.__doc__ or "").split())
            params = [_param(n, f) for n, f in fields.items() if n != tag]
            lines.append(f"| `{tag_value}` | {doc} | {'<br>'.join(params) or '-'} |")
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
              "entries of these names run these programs, written in the parts above.", "",
              "| program | Law | action | parameters | parts |", "|---|---|---|---|---|"]
    for pid, prog in lib.programs.items():
        params = ", ".join(f"`{k}` ({v})" for k, v in prog.params.items()) or "-"
        parts = ", ".join(f"`{x.op}`" for x in prog.do)
        lines.append(f"| `{pid}` | {prog.law} | `{prog.verb}` | {params} | {parts} |")
    lines.append("")
    return "\n".join(lines)
