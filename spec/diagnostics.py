"""Located diagnostics: every content error has a code, a file, a line and a JSON pointer.

``LOADER_CODES`` are the codes of the loader (stable, for CI logs and editor
integrations); the semantic checks that run after it have their own table
(``rootlaw.spec.semantics.CHECKS``).  docs/validation.md lists both.

``INPUT_CODES`` are the codes that make an input unusable (it cannot be read as JSON at
all): ``rootlaw validate`` exits 2 for them, 1 for content findings.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

LOADER_CODES: dict[str, tuple[str, str]] = {  # code -> (what it means, an example)
    "JSON-SYNTAX": ("the file is not valid JSON (NaN and Infinity are not JSON either)",
                    '`{"id": "x",}`'),
    "JSON-DEPTH": ("the JSON is nested deeper than any rootlaw file needs (64 levels)",
                   "`[[[[...]]]]` 65 levels deep"),
    "FILE-MISSING": ("a file or pack named by a manifest does not exist (or cannot be read)",
                     '`"content": ["no-such-file.json"]`'),
    "FILE-ENCODING": ("a file is not UTF-8 text", "a file saved as UTF-16"),
    "FILE-TOO-BIG": ("a file is larger than its kind of file can sensibly be (content: 1 MiB)",
                     "a 50 MB content file"),
    "KEY-UNKNOWN": ("a key the schema does not define (often a typo: the message names the "
                    "key meant, and the keys there are)",
                    "`\"cout\": 25`: 'cout' is not a key of a piece (did you mean 'count'?)"),
    "KEY-MISSING": ("a required key is absent (a step's `op`, an ability's `kind`, a menu "
                    "entry's `action` too: the message lists what it may name)",
                    "a piece without `\"count\"`: a piece needs 'count'"),
    "KEY-DUP": ("an object names one key twice (JSON keeps only the last)",
                '`{"count": 25, "count": 20}`'),
    "VALUE-INVALID": ("a value of the wrong type, out of range, too long or short, not one "
                      "of its choices (an `op`, `kind` or `action` that names nothing, too), "
                      "or not an id; a misspelt choice gets a 'did you mean'",
                      "`\"count\": \"25\"`: 'count' is a whole number, not the text \"25\"; "
                      "`\"vp\": -1`; `\"op\": \"drawz\"` (did you mean 'draw'?)"),
    "REF-UNDEF": ("a reference to an id that is not defined (the message names the id meant "
                  "when one is close, or the ids there are when they are few)",
                  '`"piece": "timbr"`: unknown piece \'timbr\' (did you mean \'timber\'?)'),
    "ID-DUP": ("two documents of one kind in a pack, or two entries of a list, share an id",
               'two cards `"id": "twin-card"` in one deck'),
    "PACK-CYCLE": ("packs that require each other", '`a` requires `b`, `b` requires `a`'),
    "PACK-MISSING": ("a pack requires a pack that is neither named (`--pack`) nor on the "
                     "discovery path (`ROOTLAW_PACK_PATH`)", '`"requires": ["no-such-pack"]`'),
    "PACK-CONFLICT": ("two packs that do not require each other define or replace the same "
                      "document, patch the same value differently, or set different default "
                      "maps (or decks)", 'two packs each setting `/turn/daylight/1/count`'),
    "PACK-CODE": ("a pack asks to run code (`allow_code`), or `ROOTLAW_ALLOW_CODE` is set: "
                  "packs are data only", '`"allow_code": true`'),
    "PATCH-TARGET": ("a patch's target is not a document of the pack or of the packs it "
                     "requires", '`"target": "faction:otters"` without requiring the pack '
                     "that defines it"),
    "PATCH-FAILED": ("a patch operation cannot apply: no value at its path, an index past "
                     "the end, a move into itself, a change of the document's kind or id",
                     '`{"op": "replace", "path": "/turn/dusk", ...}`'),
    "PATCH-TEST": ("a patch's test operation found another value than it expects (the "
                   "document changed since the patch was written, or another pack changed it)",
                   '`{"op": "test", "path": "/turn/daylight/1/count", "value": 3}` on 4'),
    "TOO-MANY": ("a file with more than 100 problems: the first 100 are listed",
                 "`\"paths\": [[1, \"x\"], ...]` a thousand times"),
}
PLAY_CODES: dict[str, tuple[str, str, str]] = {  # code -> (severity, meaning, example)
    "PLAY-STALL": ("error", "not one of the seeded games `validate` plays on a pack's map "
                   "ends: each stalled (no faction reached a VP it had not had before for "
                   "500 rounds) or found no decision; the finding names the stall, the VP "
                   "and the factions that never scored", "a map of two clearings, every "
                   "slot filled at setup"),
    "PLAY-SLOW": ("warning", "some seeded games ended and some stalled 500 rounds: games "
                  "on this content can end but often freeze", "a map where one corner "
                  "leaves a faction no room to score"),
}
"""The codes of the seeded games ``rootlaw validate`` plays (rootlaw.runtime.probe)."""
INPUT_CODES = frozenset({"JSON-SYNTAX", "JSON-DEPTH", "FILE-MISSING", "FILE-ENCODING",
                         "FILE-TOO-BIG"})
SEVERITIES = ("error", "warning")


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str = ""
    line: int = 0
    pointer: str = ""
    severity: str = "error"
    """'error' breaks content (validate exits 1); 'warning' is worth a look (exit 0
    unless --strict)."""

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line:
            where += f":{self.line}"
        ptr = f" at {self.pointer}" if self.pointer else ""
        warn = " (warning)" if self.severity == "warning" else ""
        return f"{where}: {self.code}{warn}{ptr}: {self.message}"

    def as_dict(self) -> dict:
        return {"code": self.code, "severity": self.severity, "message": self.message,
                "file": self.file, "line": self.line, "pointer": self.pointer}


class RootlawError(Exception):
    """Base of every error meant for users: a stable code, a message and where.

    The CLI prints it without a traceback.  It lives in spec/ so that content errors
    (SpecError) and runtime errors (saves, logs, actions) are one hierarchy.
    """

    code = "ERROR"

    def __init__(self, message: str, *, code: str | None = None, where: str = ""):
        self.message = message
        if code:
            self.code = code
        self.where = where
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.where}: " if self.where else ""
        return f"{where}{self.code}: {self.message}"


class FileError(RootlawError, OSError):
    """A file that cannot be written or read (IO-ERROR), located at its path.  It is an
    OSError too, with errno, strerror and filename, for callers that catch those."""

    code = "IO-ERROR"

    def __init__(self, message: str, *, path: str | os.PathLike, errno: int | None = None):
        super().__init__(message, where=str(path))
        self.errno, self.strerror, self.filename = errno, message, str(path)

    def __str__(self) -> str:
        return RootlawError.__str__(self)


class SpecError(RootlawError):
    """Raised with one or more diagnostics; str() lists them one per line."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else Diagnostic("ERROR", "")
        where = first.file + (f":{first.line}" if first.line else "")
        super().__init__(first.message, code=first.code, where=where)

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class LocatedValueError(ValueError):
    """A model validator's error with a code and the location of the offending value.

    ``loc`` is a path of keys and indexes relative to the model that raised it; the
    loader joins it to the model's own location to point into the file.
    """

    def __init__(self, code: str, loc: tuple, message: str):
        super().__init__(message)
        self.code = code
        self.loc = tuple(loc)


def pointer(parts: tuple | list) -> str:
    """RFC 6901 JSON pointer for a path of keys and indexes."""
    out = []
    for p in parts:
        s = str(p).replace("~", "~0").replace("/", "~1")
        out.append(s)
    return "/" + "/".join(out) if out else ""


def line_index(text: str, wanted: set[str] | None = None) -> dict[str, int]:
    """Map JSON pointers in a valid JSON document to the line where their value starts:
    every pointer, or only ``wanted`` ones and their ancestors.

    A small scanner over the already-read text (see jsonio: its nesting is bounded, so
    the recursion is too); it only tracks positions.  A subtree that holds no wanted
    pointer is skipped by the C JSON decoder, and lines come from one sorted list of
    newline offsets, so finding a few lines in a big file is fast.
    """
    lines: dict[str, int] = {}
    dec = json.JSONDecoder()
    newlines = [m.start() for m in re.finditer("\n", text)]
    ws = re.compile(r"[ \t\r\n]*")
    want: set[str] | None = None
    children: dict[str, int] = {}  # wanted pointer -> how many of its children are wanted
    if wanted is not None:
        want = set()
        for w in wanted:
            ptr = w
            while ptr not in want:
                want.add(ptr)
                if not ptr:
                    break
                ptr = ptr.rsplit("/", 1)[0]
                children[ptr] = children.get(ptr, 0) + 1

    def line_at(i: int) -> int:
        return bisect.bisect_left(newlines, i) + 1

    def skip_ws(i: int) -> int:
        return ws.match(text, i).end()  # type: ignore[union-attr]  # '*' always matches

    def value(i: int, path: str) -> int:
        i = skip_ws(i)
        if want is not None and path not in want:
            return dec.raw_decode(text, i)[1]
        lines[path] = line_at(i)
        c = text[i]
        if c not in "{[":
            return dec.raw_decode(text, i)[1]
        # With wanted pointers: an array's end from the C decoder, and its items scanned
        # only up to the last wanted one (not a 200,000-item list to its end).  Objects
        # are scanned to the end: a key named twice is located at its last copy.
        end, left = -1, -1
        if want is not None and c == "[":
            end = dec.raw_decode(text, i)[1]
            left = children.get(path, 0)
        i = skip_ws(i + 1)
        if text[i] in "}]":
            return i + 1
        k = 0
        while left != 0:
            if c == "{":
                key, i = dec.raw_decode(text, skip_ws(i))
                i = skip_ws(i)
                assert text[i] == ":"
                child = path + "/" + str(key).replace("~", "~0").replace("/", "~1")
                i += 1
            else:
                child = f"{path}/{k}"
                k += 1
            if left > 0 and child in want:  # type: ignore[operator]  # left > 0: want is set
                left -= 1
            i = skip_ws(value(i, child))
            if text[i] != ",":
                return i + 1
            i += 1
        return end

    with contextlib.suppress(ValueError, AssertionError, IndexError, RecursionError):
        value(0, "")  # positions are a nicety only
    return lines


def nearest_line(lines: dict[str, int], ptr: str) -> int:
    """The line of a pointer, or of its closest existing ancestor (for missing keys)."""
    while True:
        if ptr in lines:
            return lines[ptr]
        if not ptr:
            return 0
        ptr = ptr.rsplit("/", 1)[0]


def with_lines(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with the lines of their pointers, one read and one scan per file."""
    from .jsonio import CONTENT_MAX_BYTES, JsonInputError, read_text

    wanted: dict[str, set[str]] = {}
    for d in diags:
        if d.file and not d.line:
            wanted.setdefault(d.file, set()).add(d.pointer)
    lines: dict[str, dict[str, int]] = {}
    for file, ptrs in wanted.items():
        try:
            lines[file] = line_index(read_text(file, max_bytes=CONTENT_MAX_BYTES), ptrs)
        except JsonInputError:
            lines[file] = {}
    return [dataclasses.replace(d, line=nearest_line(lines[d.file], d.pointer))
            if d.file in lines and not d.line else d for d in diags]


def located(code: str, message: str, file: str | Path, parts: tuple | list,
            severity: str = "error") -> Diagnostic:
    """A diagnostic at a path of keys and indexes in a JSON file, with the line it is on."""
    return with_lines([unlocated(code, message, file, parts, severity)])[0]


def unlocated(code: str, message: str, file: str | Path, parts: tuple | list,
              severity: str = "error") -> Diagnostic:
    """A diagnostic at a path in a file, its line still to find (see with_lines)."""
    return Diagnostic(code, message, str(file), 0, pointer(parts), severity)


MAX_PER_FILE = 100


def too_many(file: str, unlisted: int, limit: int = MAX_PER_FILE) -> Diagnostic:
    return Diagnostic("TOO-MANY", f"{unlisted} more problems in this file are not listed "
                      f"(the first {limit} are)", file)
