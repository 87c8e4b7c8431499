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
    "FILE-TOO-BIG": ("a file is larger than its kind of file can sensibly be (content: 4 MiB)",
                     "a 50 MB content file"),
    "KEY-UNKNOWN": ("a key the schema does not define (often a typo)", '`"cout": 25`'),
    "KEY-MISSING": ("a required key is absent", 'a piece without `"count"`'),
    "KEY-DUP": ("an object names one key twice (JSON keeps only the last)",
                '`{"count": 25, "count": 20}`'),
    "VALUE-INVALID": ("a value of the wrong type or out of range",
                      '`"count": "25"`, `"count": true`, `"vp": -1`'),
    "REF-UNDEF": ("a reference to an id that is not defined",
                  '`"piece": "timber"` with no piece `timber`'),
    "ID-DUP": ("two documents of one kind in a pack, or two entries of a list, share an id",
               'two cards `"id": "twin-card"` in one deck'),
    "PACK-CYCLE": ("packs that require each other", '`a` requires `b`, `b` requires `a`'),
}
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


def line_index(text: str) -> dict[str, int]:
    """Map every JSON pointer in a valid JSON document to the line where its value starts.

    A small scanner over the already-read text (see jsonio: its nesting is bounded, so
    the recursion is too); it only tracks positions.  Lines come from one sorted list
    of newline offsets, so a document of n values costs O(n log n), not O(n^2).
    """
    lines: dict[str, int] = {}
    dec = json.JSONDecoder()
    newlines = [m.start() for m in re.finditer("\n", text)]
    ws = re.compile(r"[ \t\r\n]*")

    def line_at(i: int) -> int:
        return bisect.bisect_left(newlines, i) + 1

    def skip_ws(i: int) -> int:
        return ws.match(text, i).end()  # type: ignore[union-attr]  # '*' always matches

    def value(i: int, path: str) -> int:
        i = skip_ws(i)
        lines[path] = line_at(i)
        c = text[i]
        if c == "{":
            i = skip_ws(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = dec.raw_decode(text, skip_ws(i))
                i = skip_ws(i)
                assert text[i] == ":"
                i = value(i + 1, path + "/" + str(key).replace("~", "~0").replace("/", "~1"))
                i = skip_ws(i)
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        if c == "[":
            i = skip_ws(i + 1)
            if text[i] == "]":
                return i + 1
            k = 0
            while True:
                i = value(i, f"{path}/{k}")
                k += 1
                i = skip_ws(i)
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        _, end = dec.raw_decode(text, i)
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


_LINES: dict[tuple[str, int, int], dict[str, int]] = {}  # (path, mtime_ns, size) -> index


def file_lines(file: str | Path) -> dict[str, int]:
    """The line index of a file, computed once per version of the file (a check can
    report many findings in one file)."""
    from .jsonio import CONTENT_MAX_BYTES, JsonInputError, read_text

    try:
        st = os.stat(file)
    except OSError:
        return {}
    key = (str(file), st.st_mtime_ns, st.st_size)
    if key not in _LINES:
        try:
            text = read_text(file, max_bytes=CONTENT_MAX_BYTES)
        except JsonInputError:
            return {}
        if len(_LINES) > 64:
            _LINES.clear()
        _LINES[key] = line_index(text)
    return _LINES[key]


def located(code: str, message: str, file: str | Path, parts: tuple | list,
            severity: str = "error") -> Diagnostic:
    """A diagnostic at a path of keys and indexes in a JSON file, with the line it is on."""
    ptr = pointer(parts)
    return Diagnostic(code, message, str(file), nearest_line(file_lines(file), ptr), ptr,
                      severity)
