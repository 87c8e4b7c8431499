"""JSON Patch (RFC 6902) over parsed JSON, with JSON pointers (RFC 6901).

Packs change existing content with JSON Patch rather than JSON Merge Patch (RFC 7386):
content is mostly arrays (turn steps, action menus, cards), and a merge patch can only
replace an array whole, so "the Marquise takes 4 actions" would mean copying her whole
Daylight.  A JSON Patch addresses one value (``/turn/daylight/1/count``) and can
``test`` what it expects to find, so a patch written for one version of a document
fails loudly, not silently, on another.

Written here rather than taken from a library: the operations are a few lines each,
``test`` must compare JSON types as the RFC says (``true`` is not ``1``; ``1`` is
``1.0``), every failure must become a coded error at the operation, and the bundle's
conflict check needs each operation's resolved location (``-`` as the index it meant),
which is what ``apply`` returns.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

_INDEX = re.compile(r"0|[1-9][0-9]*")


class PatchError(Exception):
    """An operation that cannot apply: ``code`` is PATCH-FAILED (no such location, a
    bad index, an invalid move) or PATCH-TEST (a test found another value)."""

    def __init__(self, code: str, message: str, path: tuple[str, ...] = ()):
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


@dataclass(frozen=True)
class Touch:
    """What an operation did, at its resolved location (array indexes as the index
    they meant, so '-' is the length of the array it was appended to).

    kind: 'set' (a value written: add to an object, replace, the target of move or
    copy), 'insert' (an array item added: later items shift), 'delete' (a value removed;
    from an array, later items shift), 'test' (read only).  ``value`` is what was set or
    tested."""

    kind: str
    path: tuple[str, ...]
    value: Any = None
    array: bool = False  # the last token is an index into an array
    append: bool = False  # an insert at the end: no item shifts


def parse_pointer(ptr: str) -> tuple[str, ...]:
    """RFC 6901: '' is the whole document; '~1' is '/' and '~0' is '~' in a token."""
    if ptr == "":
        return ()
    if not ptr.startswith("/"):
        raise PatchError("PATCH-FAILED", f"{ptr!r} is not a JSON pointer (it starts with '/')")
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in ptr[1:].split("/"))


def pointer_of(tokens: tuple[str, ...] | list[str]) -> str:
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def json_equal(a: Any, b: Any) -> bool:
    """Equality as RFC 6902 4.6 defines it: the same JSON type and value; numbers equal
    by value (1 == 1.0), but a boolean is never a number; objects regardless of order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return False


def _kind(v: Any) -> str:
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "an array"
    return "a value"


def _name(path: tuple[str, ...]) -> str:
    return pointer_of(path) or "the document"


def _index(token: str, arr: list, path: tuple[str, ...], *, adding: bool) -> int:
    if adding and token == "-":
        return len(arr)
    if not _INDEX.fullmatch(token):
        raise PatchError("PATCH-FAILED", f"{pointer_of(path)}: {token!r} is not an array "
                         "index (0, 1, 2 ...)", path)
    i = int(token)
    last = len(arr) if adding else len(arr) - 1
    if i > last:
        raise PatchError("PATCH-FAILED", f"{pointer_of(path)}: index {i} is past the end of "
                         f"the array ({len(arr)} items)", path)
    return i


def _get(doc: Any, path: tuple[str, ...]) -> Any:
    cur = doc
    for n, tok in enumerate(path):
        here = path[:n + 1]
        if isinstance(cur, dict):
            if tok not in cur:
                raise PatchError("PATCH-FAILED", f"{pointer_of(here)}: no such key", here)
            cur = cur[tok]
        elif isinstance(cur, list):
            cur = cur[_index(tok, cur, here, adding=False)]
        else:
            raise PatchError("PATCH-FAILED", f"{pointer_of(here)}: {_name(path[:n])} is "
                             f"{_kind(cur)}, not an object or array", here)
    return cur


def _container(doc: Any, path: tuple[str, ...]) -> Any:
    parent = _get(doc, path[:-1])
    if not isinstance(parent, (dict, list)):
        raise PatchError("PATCH-FAILED", f"{pointer_of(path)}: {_name(path[:-1])} is "
                         f"{_kind(parent)}, not an object or array", path)
    return parent


def _add(doc: Any, path: tuple[str, ...], value: Any) -> tuple[Any, Touch]:
    if not path:
        return value, Touch("set", path, value)
    parent = _container(doc, path)
    if isinstance(parent, dict):
        parent[path[-1]] = value
        return doc, Touch("set", path, value)
    i = _index(path[-1], parent, path, adding=True)
    append = i == len(parent)
    parent.insert(i, value)
    return doc, Touch("insert", (*path[:-1], str(i)), value, array=True, append=append)


def _remove(doc: Any, path: tuple[str, ...]) -> tuple[Any, Touch]:
    if not path:
        raise PatchError("PATCH-FAILED", "the whole document cannot be removed", path)
    parent = _container(doc, path)
    if isinstance(parent, dict):
        if path[-1] not in parent:
            raise PatchError("PATCH-FAILED", f"{pointer_of(path)}: no such key", path)
        value = parent.pop(path[-1])
        return value, Touch("delete", path)
    i = _index(path[-1], parent, path, adding=False)
    value = parent.pop(i)
    return value, Touch("delete", (*path[:-1], str(i)), array=True)


def apply(doc: Any, op: dict) -> tuple[Any, list[Touch]]:
    """Apply one operation (a dict with 'op', 'path' and 'value' or 'from') to doc, in
    place where it can be; returns the new document (a new one when the whole document
    is replaced) and what the operation touched.  Values are copied in, so the patch and
    the document never share objects."""
    kind = op["op"]
    path = parse_pointer(op["path"])
    if kind == "add":
        doc, t = _add(doc, path, copy.deepcopy(op["value"]))
        return doc, [t]
    if kind == "remove":
        _, t = _remove(doc, path)
        return doc, [t]
    if kind == "replace":
        if path:
            _get(doc, path)  # must exist
            parent = _container(doc, path)
            key: Any = path[-1] if isinstance(parent, dict) else \
                _index(path[-1], parent, path, adding=False)
            parent[key] = copy.deepcopy(op["value"])
            return doc, [Touch("set", path, op["value"], array=isinstance(parent, list))]
        return copy.deepcopy(op["value"]), [Touch("set", path, op["value"])]
    if kind in ("move", "copy"):
        src = parse_pointer(op["from"])
        if kind == "move":
            if src == path:
                _get(doc, src)
                return doc, []  # moving a value onto itself changes nothing
            if path[:len(src)] == src:
                raise PatchError("PATCH-FAILED", f"cannot move {pointer_of(src)} into itself "
                                 f"({pointer_of(path)})", path)
            value, t1 = _remove(doc, src)
            doc, t2 = _add(doc, path, value)
            return doc, [t1, t2]
        doc, t = _add(doc, path, copy.deepcopy(_get(doc, src)))
        return doc, [t]
    if kind == "test":
        found = _get(doc, path)
        if not json_equal(found, op["value"]):
            raise PatchError("PATCH-TEST", f"{pointer_of(path) or 'the document'} is "
                             f"{_shown(found)}, not {_shown(op['value'])}", path)
        return doc, [Touch("test", path, op["value"])]
    raise PatchError("PATCH-FAILED", f"unknown operation {kind!r}", path)


def apply_all(doc: Any, ops: list[dict]) -> Any:
    """Apply a whole patch to a copy of doc (the RFC's all-or-nothing document)."""
    doc = copy.deepcopy(doc)
    for op in ops:
        doc, _ = apply(doc, op)
    return doc


def _shown(v: Any) -> str:
    import json

    text = json.dumps(v)
    return text if len(text) <= 60 else text[:57] + "..."


def overlap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether one location holds the other (or they are the same)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def shifts(t: Touch, path: tuple[str, ...]) -> bool:
    """Whether an array insert or delete t moves the item that path goes through: an
    item at or after its index (an append moves nothing)."""
    if t.kind not in ("insert", "delete") or not t.array or t.append:
        return False
    arr, n = t.path[:-1], int(t.path[-1])
    k = len(arr)
    return len(path) > k and path[:k] == arr and _INDEX.fullmatch(path[k]) is not None \
        and int(path[k]) >= n


def clash(earlier: Touch, later: Touch) -> bool:
    """Whether two changes from packs that do not know each other are incompatible: they
    write the same value differently, one writes inside what the other writes or
    removes, or one shifts the array items the other addresses.  Two writes of an equal
    value to one place agree; tests only read (a failing test is reported on its own)."""
    if earlier.kind == "test" or later.kind == "test":
        return False
    if overlap(earlier.path, later.path):
        same = earlier.kind == later.kind == "set" and earlier.path == later.path
        return not (same and json_equal(earlier.value, later.value))
    return shifts(earlier, later.path) or shifts(later, earlier.path)
