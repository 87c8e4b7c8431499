"""One safe way to read JSON: content files, scenario files, saves and logs.

Whatever the bytes, reading returns data or raises ``JsonInputError`` (a SpecError with
one coded diagnostic) within a fraction of a second; nothing here can raise a
RecursionError, a MemoryError for a huge file, or a raw ValueError:

- a file larger than its kind's cap is ``FILE-TOO-BIG`` before it is parsed (caps below);
- bytes that are not UTF-8 are ``FILE-ENCODING`` (a UTF-8 byte-order mark is allowed);
- text that is not JSON is ``JSON-SYNTAX`` (with its line), and so are ``NaN`` and
  ``Infinity`` (Python accepts them, JSON does not) and integers of more than 4300
  digits (Python refuses to convert them);
- nesting deeper than ``MAX_DEPTH`` is ``JSON-DEPTH``: no rootlaw file needs more than
  about eight levels, and a bounded depth keeps every later walk (the line index, the
  models) safe;
- an object that names a key twice is reported (``KEY-DUP``): JSON parsers keep the
  last value silently, so the first is lost without a word.

The caps: content files 1 MiB (the whole base game is 16 KB, a faction or a deck a few
KB; a file sixty times the base game still fits, and reading, validating and locating
the problems of a file at the cap stays well under a second), scenario files 1 MiB (a
position and its expectations), saves 16 MiB (a save lists every action taken: a game
stopped at the decision cap of one million decisions needs about 7 MB), log lines 64 KiB
(a decision line is about 200 bytes; a log itself is read line by line, so a long game
has no cap).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from .diagnostics import Diagnostic, SpecError, pointer

MAX_DEPTH = 64
CONTENT_MAX_BYTES = 2**20
SCENARIO_MAX_BYTES = 2**20
SAVE_MAX_BYTES = 16 * 2**20
LOG_LINE_MAX_BYTES = 64 * 2**10


class JsonInputError(SpecError):
    """The input cannot be read as JSON at all (see the module docstring for codes)."""

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]


def _fail(code: str, message: str, file: str, line: int = 0, ptr: str = "") -> JsonInputError:
    return JsonInputError([Diagnostic(code, message, file, line, ptr)])


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n >= 2**20 else f"{n // 2**10} KiB"


def _open(path: str | os.PathLike) -> BinaryIO:
    """The file opened for reading bytes, or FILE-MISSING saying why not."""
    file = str(path)
    try:
        return open(path, "rb")  # noqa: SIM115 -- the callers close it
    except FileNotFoundError:
        raise _fail("FILE-MISSING", "no such file", file) from None
    except IsADirectoryError:
        raise _fail("FILE-MISSING", "a folder, not a file", file) from None
    except OSError as e:
        raise _fail("FILE-MISSING", f"cannot read: {e.strerror or e}", file) from None
    except ValueError:  # a NUL byte in the name
        raise _fail("FILE-MISSING", "not a usable file name", file) from None


def read_bytes(path: str | os.PathLike, *, max_bytes: int) -> bytes:
    """The file's bytes, or FILE-MISSING / FILE-TOO-BIG; never reads more than the cap."""
    file = str(path)
    with _open(path) as f:
        try:
            data = f.read(max_bytes + 1)
        except OSError as e:
            raise _fail("FILE-MISSING", f"cannot read: {e.strerror or e}", file) from None
    if len(data) > max_bytes:
        raise _fail("FILE-TOO-BIG", f"larger than {_size(max_bytes)}, the limit for this "
                    "kind of file", file)
    return data


def decode(data: bytes, file: str, line: int = 0) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _fail("FILE-ENCODING", f"not UTF-8 text: {e.reason} at byte {e.start}",
                    file, line) from None


def read_text(path: str | os.PathLike, *, max_bytes: int) -> str:
    return decode(read_bytes(path, max_bytes=max_bytes), str(path))


class _NotJson(ValueError):
    pass


def _constant(name: str) -> float:
    raise _NotJson(f"{name} is not a JSON number")


@dataclass
class Parsed:
    """Parsed JSON and the pointers of keys an object named twice (the later copy)."""

    data: object
    duplicates: list[str] = field(default_factory=list)


def parse(text: str, file: str = "<input>", *, max_depth: int = MAX_DEPTH,
          duplicates: str = "error", line: int = 0) -> Parsed:
    """Parse JSON text.  ``duplicates``: 'error' raises KEY-DUP at the first key an
    object names twice; 'report' returns their pointers in ``Parsed.duplicates``.
    ``line`` is the line of the text in its file (for one line of a JSON-lines file)."""
    dup_objects: list[tuple[dict, str]] = []

    def pairs(items: list[tuple[str, object]]) -> dict:
        d: dict = {}
        for k, v in items:
            if k in d:
                dup_objects.append((d, k))
            d[k] = v
        return d

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=_constant)
    except json.JSONDecodeError as e:
        raise _fail("JSON-SYNTAX", f"{e.msg} (column {e.colno})", file,
                    line or e.lineno) from None
    except RecursionError:
        raise _fail("JSON-DEPTH", f"nested deeper than {max_depth} levels", file,
                    line) from None
    except _NotJson as e:
        at = line or _line_of(text, r"(?<![\w\"])(-?Infinity|NaN)(?![\w\"])")
        raise _fail("JSON-SYNTAX", str(e), file, at) from None
    except ValueError as e:  # an integer too long for int() (sys.get_int_max_str_digits)
        at = line or _line_of(text, r"\d{" + str(sys.get_int_max_str_digits() + 1) + ",}")
        raise _fail("JSON-SYNTAX", f"a number too long to read ({str(e).split(':')[0]})",
                    file, at) from None
    too_deep = None if _shallow(text, max_depth) else _first_too_deep(data, max_depth)
    if too_deep is not None:
        raise _fail("JSON-DEPTH", f"nested deeper than {max_depth} levels", file, line,
                    pointer(too_deep))
    dups = _pointers_of(data, dup_objects) if dup_objects else []
    if dups and duplicates == "error":
        key = dups[0].rsplit("/", 1)[1]
        raise _fail("KEY-DUP", f"the key {key!r} appears twice in one object", file, line,
                    dups[0])
    return Parsed(data, dups)


def _line_of(text: str, regex: str) -> int:
    """The line of the first match (a best guess for errors the parser does not place)."""
    m = re.search(regex, text)
    return text.count("\n", 0, m.start()) + 1 if m else 0


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


def _shallow(text: str, max_depth: int) -> bool:
    """Whether parsed JSON text nests at most max_depth levels, found on the text by the
    regular-expression engine (strings dropped, then the innermost bracket pairs, one
    level a pass): much faster than walking a big document's containers."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(max_depth):
        if not brackets:
            return True
        brackets = _INNERMOST.sub("", brackets)
    return not brackets


def _first_too_deep(data: object, max_depth: int) -> list | None:
    """The path of the first value nested deeper than max_depth, or None (iterative)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    deepest: object = None
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            deepest = node
            break
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, (dict, list)))
    if deepest is None:
        return None
    # Found: recover its path (a second walk, only on failure).
    stack2: list[tuple[object, list]] = [(data, [])]
    while stack2:
        node, path = stack2.pop()
        if node is deepest:
            return path
        if len(path) > max_depth:
            continue
        items = node.items() if isinstance(node, dict) else \
            enumerate(node) if isinstance(node, list) else ()
        stack2.extend((v, [*path, k]) for k, v in items if isinstance(v, (dict, list)))
    return []


def _pointers_of(data: object, dup_objects: list[tuple[dict, str]]) -> list[str]:
    """JSON pointers of duplicated keys, in document order of their objects."""
    wanted: dict[int, list[str]] = {}
    for d, k in dup_objects:
        wanted.setdefault(id(d), []).append(k)
    out: list[str] = []
    stack: list[tuple[object, list]] = [(data, [])]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k in wanted.get(id(node), []):
                out.append(pointer([*path, k]))
            stack.extend((v, [*path, k]) for k, v in reversed(node.items())
                         if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, [*path, i]) for i, v in reversed(list(enumerate(node)))
                         if isinstance(v, (dict, list)))
    return out


def read_json(path: str | os.PathLike, *, max_bytes: int, duplicates: str = "error"
              ) -> tuple[str, Parsed]:
    """Read and parse one JSON file: (text, parsed)."""
    text = read_text(path, max_bytes=max_bytes)
    return text, parse(text, str(path), duplicates=duplicates)


def read_json_lines(path: str | os.PathLike, *,
                    max_line_bytes: int = LOG_LINE_MAX_BYTES) -> Iterator[tuple[int, object]]:
    """(line number, data) for each line of a JSON-lines file, read as a stream (no cap
    on the number of lines, a cap on each line's length)."""
    file = str(path)
    with _open(path) as f:
        n = 0
        while True:
            try:
                raw = f.readline(max_line_bytes + 1)
            except OSError as e:
                raise _fail("FILE-MISSING", f"cannot read: {e.strerror or e}", file,
                            n + 1) from None
            if not raw:
                return
            n += 1
            if len(raw) > max_line_bytes:
                raise _fail("FILE-TOO-BIG", f"a line longer than {_size(max_line_bytes)}",
                            file, n)
            yield n, parse(decode(raw, file, n), file, line=n).data
