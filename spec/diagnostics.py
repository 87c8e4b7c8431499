"""Located diagnostics: every content error has a code, a file, a line and a JSON pointer.

Codes (stable, for CI logs and editor integrations):

- ``JSON-SYNTAX``  the file is not valid JSON
- ``FILE-MISSING`` a file or pack named by a manifest does not exist (or cannot be read)
- ``FILE-ENCODING`` a content file is not UTF-8 text
- ``KEY-UNKNOWN``  a key the schema does not define (often a typo)
- ``KEY-MISSING``  a required key is absent
- ``VALUE-INVALID`` a value of the wrong type or out of range
- ``REF-UNDEF``    a reference to an id that is not defined
- ``ID-DUP``       two documents of one kind in a pack, or two entries of a list, share an id
- ``PACK-CYCLE``   packs that require each other
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str = ""
    line: int = 0
    pointer: str = ""

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line:
            where += f":{self.line}"
        ptr = f" at {self.pointer}" if self.pointer else ""
        return f"{where}: {self.code}{ptr}: {self.message}"


class SpecError(Exception):
    """Raised with one or more diagnostics; str() lists them one per line."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


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

    A small scanner over the already-validated text; it only tracks positions.
    """
    lines: dict[str, int] = {}
    pos = 0
    n = len(text)
    dec = json.JSONDecoder()

    def line_at(i: int) -> int:
        return text.count("\n", 0, i) + 1

    def skip_ws(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, path: list) -> int:
        i = skip_ws(i)
        lines[pointer(path)] = line_at(i)
        c = text[i]
        if c == "{":
            i = skip_ws(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = dec.raw_decode(text, skip_ws(i))
                i = skip_ws(i)
                assert text[i] == ":"
                i = value(i + 1, [*path, key])
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
                i = value(i, [*path, k])
                k += 1
                i = skip_ws(i)
                if text[i] == ",":
                    i += 1
                    continue
                return i + 1
        _, end = dec.raw_decode(text, i)
        return end

    with contextlib.suppress(ValueError, AssertionError, IndexError):
        value(pos, [])  # positions are a nicety only
    return lines


def nearest_line(lines: dict[str, int], ptr: str) -> int:
    """The line of a pointer, or of its closest existing ancestor (for missing keys)."""
    while True:
        if ptr in lines:
            return lines[ptr]
        if not ptr:
            return 0
        ptr = ptr.rsplit("/", 1)[0]


def located(code: str, message: str, file: str | Path, parts: tuple | list) -> Diagnostic:
    """A diagnostic at a path of keys and indexes in a JSON file, with the line it is on."""
    ptr = pointer(parts)
    try:
        lines = line_index(Path(file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        lines = {}
    return Diagnostic(code, message, str(file), nearest_line(lines, ptr), ptr)
