"""Load content files and packs into validated models, with located diagnostics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from .diagnostics import (
    Diagnostic,
    LocatedValueError,
    SpecError,
    line_index,
    located,
    nearest_line,
    pointer,
)
from .models import Document, PackSpec

_DOCUMENT: TypeAdapter[Document] = TypeAdapter(Document)

_CODES = {
    "extra_forbidden": "KEY-UNKNOWN",
    "missing": "KEY-MISSING",
    "union_tag_invalid": "VALUE-INVALID",
    "union_tag_not_found": "KEY-MISSING",
}


def _strip_schema_key(data: object) -> object:
    # "$schema" lets editors autocomplete; it is not content.
    if isinstance(data, dict) and "$schema" in data:
        data = {k: v for k, v in data.items() if k != "$schema"}
    return data


def parse_document(text: str, file: str = "<input>"):
    """Parse and validate one content document; raise SpecError with located diagnostics."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SpecError([Diagnostic("JSON-SYNTAX", e.msg, file, e.lineno)]) from None
    data = _strip_schema_key(data)
    try:
        return _DOCUMENT.validate_python(data)
    except ValidationError as e:
        lines = line_index(text)
        diags = []
        for err in e.errors():
            loc = _content_loc(err["loc"], data)
            code = _CODES.get(err["type"], "VALUE-INVALID")
            msg = err["msg"]
            if err["type"] == "value_error":
                msg = msg.removeprefix("Value error, ")
                cause = err.get("ctx", {}).get("error")
                if isinstance(cause, LocatedValueError):
                    # A model validator's error: its location is relative to the model.
                    code, loc = cause.code, [*loc, *cause.loc]
            ptr = pointer(loc)
            diags.append(Diagnostic(code, msg, file, nearest_line(lines, ptr), ptr))
        raise SpecError(diags) from None


def _content_loc(loc: tuple, data: object) -> list:
    """Drop pydantic's union-tag segments (e.g. 'faction', 'rule_ties') from a location."""
    out: list = []
    cur: Any = data  # walks dicts and lists of parsed JSON
    for part in loc:
        in_dict = isinstance(cur, dict) and part in cur
        in_list = isinstance(cur, list) and isinstance(part, int) and part < len(cur)
        if in_dict or in_list:
            out.append(part)
            cur = cur[part]
        elif isinstance(cur, dict) and isinstance(part, str) and part not in cur and \
                part in {"faction", "map", "deck", "pack"} | _tag_values(cur):
            continue  # a tagged-union branch name
        else:
            out.append(part)
            cur = None
    return out


def _tag_values(d: dict) -> set:
    return {v for k, v in d.items() if k in ("kind", "op", "action") and isinstance(v, str)}


def load_file(path: str | Path):
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError([Diagnostic("FILE-MISSING", "no such file", str(path))]) from None
    except UnicodeDecodeError as e:
        raise SpecError([Diagnostic("FILE-ENCODING", f"not UTF-8 text: {e.reason} at byte "
                                    f"{e.start}", str(path))]) from None
    except OSError as e:
        raise SpecError([Diagnostic("FILE-MISSING", f"cannot read: {e.strerror or e}",
                                    str(path))]) from None
    return parse_document(text, str(path))


def load_pack(manifest: str | Path) -> tuple[PackSpec, list[tuple[str, object]]]:
    """Load a pack manifest and its content files: (pack, [(file, document), ...]).

    Two documents of one kind and id in one pack are an ID-DUP (overriding is for a
    later pack)."""
    manifest = Path(manifest)
    if manifest.is_dir():
        manifest = manifest / "pack.json"
    pack = load_file(manifest)
    if not isinstance(pack, PackSpec):
        raise SpecError([Diagnostic("VALUE-INVALID", "expected a pack manifest (kind 'pack')",
                                    str(manifest), 1, "/kind")])
    docs: list[tuple[str, object]] = []
    errors: list[Diagnostic] = []
    seen: dict[tuple[str, str], str] = {}
    root = manifest.parent.resolve()
    for i, rel in enumerate(pack.content):
        f = manifest.parent / rel
        if Path(rel).is_absolute() or not f.resolve().is_relative_to(root):
            # A pack is one folder: what it lists must live inside it.
            errors.append(located("VALUE-INVALID", f"content file {rel!r} is outside the pack "
                                  "folder", manifest, ["content", i]))
            continue
        try:
            doc = load_file(f)
        except SpecError as e:
            if e.diagnostics[0].code == "FILE-MISSING":
                errors.append(located("FILE-MISSING", f"content file {rel!r} not found",
                                      manifest, ["content", i]))
            else:
                errors.extend(e.diagnostics)
            continue
        if isinstance(doc, PackSpec):
            errors.append(Diagnostic("VALUE-INVALID", "a pack cannot list another pack as content",
                                     str(f), 1, "/kind"))
            continue
        key = (doc.kind, doc.id)
        if key in seen:
            errors.append(located("ID-DUP", f"{doc.kind} {doc.id!r} is also defined by "
                                            f"{seen[key]!r} in this pack", f, ["id"]))
            continue
        seen[key] = rel
        docs.append((str(f), doc))
    if errors:
        raise SpecError(errors)
    return pack, docs
