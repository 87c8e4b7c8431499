"""Load content files and packs into validated models, with located diagnostics."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

from pydantic import TypeAdapter, ValidationError

from . import models as M
from .diagnostics import (
    MAX_PER_FILE,
    Diagnostic,
    SpecError,
    line_index,
    located,
    nearest_line,
    pointer,
    too_many,
    unlocated,
    with_lines,
)
from .explain import explain
from .jsonio import CONTENT_MAX_BYTES, parse, read_text
from .models import Document, PackSpec, PatchSpec

_DOCUMENT: TypeAdapter[Document] = TypeAdapter(Document)
DOCUMENT_KINDS = tuple(get_args(t.model_fields["kind"].annotation)[0] for t in
                       (M.PackSpec, M.MapSpec, M.DeckSpec, M.FactionSpec, M.PatchSpec,
                        M.LibrarySpec))
"""The kinds of content document ('kind': pack, map, deck, faction, patch, library)."""

def _strip_schema_key(data: object) -> object:
    # "$schema" lets editors autocomplete; it is not content.
    if isinstance(data, dict) and "$schema" in data:
        data = {k: v for k, v in data.items() if k != "$schema"}
    return data


def parse_document(text: str, file: str = "<input>"):
    """Parse and validate one content document; raise SpecError with located diagnostics
    (every problem of the file at once: keys named twice, then the schema's findings)."""
    parsed = parse(text, file, duplicates="report")
    data = _strip_schema_key(parsed.data)
    found: list[tuple[str, str, str]] = []  # (code, message, pointer)
    for ptr in parsed.duplicates:
        key = ptr.rsplit("/", 1)[1]
        found.append(("KEY-DUP", f"the key {key!r} appears twice in one object (JSON keeps "
                                 "only the last one)", ptr))
    doc, problems, total = validate_data(data, MAX_PER_FILE - len(found))
    found += problems
    total += len(parsed.duplicates)
    if not total:
        return doc
    found = found[:MAX_PER_FILE]
    lines = line_index(text, {ptr for _, _, ptr in found})
    diags = [Diagnostic(code, msg, file, nearest_line(lines, ptr), ptr)
             for code, msg, ptr in found]
    if total > len(found):
        diags.append(too_many(file, total - len(found)))
    raise SpecError(diags) from None


def validate_data(data: object, limit: int = MAX_PER_FILE
                  ) -> tuple[object, list[tuple[str, str, str]], int]:
    """Validate parsed JSON as a content document: (the document or None, up to limit
    problems as (code, message, JSON pointer), how many problems in all).  Only the
    problems listed are located and described."""
    try:
        return _DOCUMENT.validate_python(data), [], 0
    except ValidationError as e:
        errors = [x for x in e.errors(include_url=False) if not _other_branch(x)]
    found: list[tuple[str, str, str]] = []
    for err in errors[:max(0, limit)]:
        # pydantic's words say how validation failed; explain says what the file says,
        # what it should say and what was meant, in the author's terms.
        code, msg, inner = explain(err, data)
        found.append((code, msg, pointer([*_content_loc(err["loc"], data), *inner])))
    # One finding where pydantic tried several branches of a union the same way (a
    # step's field, a string, a list or a number: one 'not a key here').
    unique = list(dict.fromkeys(found))
    return None, unique, len(errors) - (len(found) - len(unique))


def _content_loc(loc: tuple, data: object) -> list:
    """Drop pydantic's union-tag segments (e.g. 'faction', 'rule_ties') from a location."""
    out: list = []
    cur: Any = data  # walks dicts and lists of parsed JSON
    # The branch name of the dict reached last is skipped once, as its first segment
    # (the document's: 'patch' is a key of patches too).
    tag_seen = bool(loc) and isinstance(data, dict) and loc[0] == data.get("kind")
    if tag_seen:
        loc = loc[1:]
    for part in loc:
        if part == "[key]":
            continue  # pydantic's mark of a key (not its value): the pointer is the key's
        if not tag_seen and isinstance(cur, dict) and part in _tag_values(cur):
            tag_seen = True
            continue  # its tagged-union branch name, even where a key reads the same ('if')
        in_dict = isinstance(cur, dict) and part in cur
        in_list = isinstance(cur, list) and isinstance(part, int) and part < len(cur)
        if in_dict or in_list:
            out.append(part)
            cur = cur[part]
            tag_seen = False
        elif isinstance(cur, dict) and isinstance(part, str) and part not in cur and \
                part in {"faction", "map", "deck", "pack"} | _tag_values(cur):
            continue  # a tagged-union branch name
        elif part in M.UNION_TAGS:
            continue  # a union told apart by the value's type (models.ActionCount)
        elif isinstance(part, str) and _PYDANTIC_BRANCH.match(part):
            continue  # pydantic's name of an untagged union's branch ('constrained-str')
        else:
            out.append(part)
            cur = None
    return out


_PYDANTIC_BRANCH = re.compile(r"^(constrained-)?(str|int|bool|float)$|"
                              r"^(list|dict|tuple|set)\[.*\]$")
"""The names pydantic gives the branches of a union it cannot tell apart by a tag (a
step's field: a string, a list of strings or a number; a literal): no key of a file."""


def _other_branch(err: Any) -> bool:
    """An error of a name-or-list union's branch that the value is plainly not of: the
    name's for a list, the list's for a text (the other branch's error says more)."""
    loc, value = err["loc"], err.get("input")
    return ("constrained-str" in loc and isinstance(value, list)) or (
        err["type"] == "list_type" and isinstance(value, str) and
        any(isinstance(x, str) and x.startswith("list[") for x in loc))


def _tag_values(d: dict) -> set:
    """The union tags a document's object may be reached by: its kind, op or action as
    written, and the tag a first spelling is read as (a step's 'end_phase': 'stop')."""
    tags = {v for k, v in d.items() if k in ("kind", "op", "action") and isinstance(v, str)}
    return tags | {M.STEP_FIRST_SPELLINGS[v] for v in tags if v in M.STEP_FIRST_SPELLINGS}


def load_file(path: str | Path):
    """Read (see jsonio: size, encoding, depth) and validate one content file."""
    return parse_document(read_text(path, max_bytes=CONTENT_MAX_BYTES), str(path))


def load_pack(manifest: str | Path) -> tuple[PackSpec, list[tuple[str, object]]]:
    """Load a pack manifest and its content files: (pack, [(file, document), ...]), the
    documents (patches too) in the order the manifest lists them.

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
    errors: list[Diagnostic] = []  # in the content files, located by their loader
    listing: list[Diagnostic] = []  # in the manifest: located at the end, in one read
    seen: dict[tuple[str, str], str] = {}
    listed: dict[Path, int] = {}
    root = manifest.parent.resolve()
    for i, rel in enumerate(pack.content):
        f = manifest.parent / rel
        try:
            real = f.resolve()
            inside = not Path(rel).is_absolute() and real.is_relative_to(root)
        except (OSError, ValueError, RuntimeError):  # a NUL byte, a symlink loop ...
            listing.append(unlocated("VALUE-INVALID", f"content file {rel!r} is not a usable "
                                     "file name", manifest, ["content", i]))
            continue
        if not inside:
            # A pack is one folder: what it lists must live inside it.
            listing.append(unlocated("VALUE-INVALID", f"content file {rel!r} is outside the "
                                     "pack folder", manifest, ["content", i]))
            continue
        if real in listed:
            # Read once: a file listed twice (a copy-paste slip, or a manifest that names
            # one file thousands of times) is one problem per extra entry, not a reload.
            listing.append(unlocated("ID-DUP", f"content file {rel!r} is listed twice (first "
                                     f"at /content/{listed[real]})", manifest, ["content", i]))
            continue
        listed[real] = i
        try:
            doc = load_file(f)
        except SpecError as e:
            if e.diagnostics[0].code == "FILE-MISSING":
                listing.append(unlocated("FILE-MISSING", f"content file {rel!r} not found",
                                         manifest, ["content", i]))
            else:
                errors.extend(e.diagnostics)
            continue
        if isinstance(doc, PackSpec):
            errors.append(Diagnostic("VALUE-INVALID", "a pack cannot list another pack as content",
                                     str(f), 1, "/kind"))
            continue
        if isinstance(doc, PatchSpec):  # patches have no id: several may change one document
            docs.append((str(f), doc))
            continue
        key = (doc.kind, doc.id)
        if key in seen:
            errors.append(located("ID-DUP", f"{doc.kind} {doc.id!r} is also defined by "
                                            f"{seen[key]!r} in this pack", f, ["id"]))
            continue
        seen[key] = rel
        docs.append((str(f), doc))
    if listing:
        # As in every file: at most MAX_PER_FILE listed, the rest counted.
        extra = len(listing) - MAX_PER_FILE
        listing = with_lines(listing[:MAX_PER_FILE]) + \
            ([too_many(str(manifest), extra)] if extra > 0 else [])
    if errors or listing:
        raise SpecError(listing + errors)
    return pack, docs
