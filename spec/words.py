"""The author's words: how a finding names a key, a value and what was expected.

One vocabulary for every reader of authored files: the content loader (whose schema
errors ``rootlaw.spec.explain`` puts in these words), the model validators and the
semantic checks (a reference to an id that is not defined), and the scenario reader
(``rootlaw.runtime.scenario``).  So an author reads, wherever the mistake is:

- ``'cout' is not a key of a piece (did you mean 'count'?); a piece has: kind, ...``
- ``a piece needs 'count'``
- ``'count' is a whole number, not the text "25"``
- ``'count' is from 1 to 64, not 0``
- ``unknown piece 'timbr' (did you mean 'timber'?)``

Nothing here imports the models: they use it too.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable

MAX_CHOICES = 2000
"""The most names a suggestion is looked for among: difflib compares the word with each
of them, and a fuzzed file can define twenty thousand (an exact match up to case is
still found among more)."""
CUTOFF = 0.55
"""How alike (difflib's ratio) a name must be to be suggested when it starts with the
same letter ('foks' is 0.57 of 'fox', 'cout' 0.89 of 'count'; 'cats' 0.17 of
'marquise')."""
CUTOFF_ANY = 0.75
"""... and when it does not ('ofx' is 0.67 of 'fox'; 'night' is 0.62 of 'daylight',
which no one misspells it as)."""


def suggestion(word: object, choices: Iterable[object], most: int = MAX_CHOICES) -> str | None:
    """The known name closest to a misspelt one, or None when none is close (or there
    are more than ``most`` names and none is the word in another case)."""
    if not isinstance(word, str) or not word:
        return None
    names = [c for c in dict.fromkeys(str(c) for c in choices) if c != word]
    folded = word.casefold()
    same_case = [c for c in names if c.casefold() == folded or
                 c.casefold().replace("_", "-") == folded.replace("_", "-")]
    if same_case:
        return same_case[0]
    if len(names) > most or len(word) > 200:
        return None
    for name in difflib.get_close_matches(word, names, n=5, cutoff=CUTOFF):
        same_start = name[:1].casefold() == folded[:1]
        if same_start or difflib.SequenceMatcher(None, word, name).ratio() >= CUTOFF_ANY:
            return name
    return None


def did_you_mean(word: object, choices: Iterable[object], most: int = MAX_CHOICES) -> str:
    """`` (did you mean 'count'?)`` for a misspelt name, or '' when no name is close."""
    best = suggestion(word, choices, most)
    return f" (did you mean {best!r}?)" if best is not None else ""


def article(noun: str) -> str:
    """'a piece', 'an effect', "an 'effect' ability" (by the sound of the first letter)."""
    first = noun.lstrip("'\"")[:1].lower()
    return f"{'an' if first and first in 'aeio' else 'a'} {noun}"


def listing(names: Iterable[object], last: str = ", ") -> str:
    """Names joined by commas ('fox, rabbit, mouse'), or with 'or' before the last one
    (``last=" or "``: 'fox, rabbit or mouse')."""
    items = [str(n) for n in names]
    if len(items) < 2 or last == ", ":
        return ", ".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def quoted(v: object, limit: int = 40) -> str:
    """A name as the author wrote it: 'foks' (a text), or what else it is (found)."""
    if isinstance(v, str):
        text = v if len(v) <= limit else v[:limit] + "..."
        return repr(text)
    return found(v)


def found(v: object, limit: int = 40) -> str:
    """What a value is, for '... not <found>': the text "25", the number 1.5, true,
    null, a list of 3 items, an object."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        text = number(v)
        return text if text.startswith("a number") else f"the number {text}"
    if isinstance(v, str):
        text = v if len(v) <= limit else v[:limit] + "..."
        return "the empty text \"\"" if not v else f"the text {json.dumps(text)}"
    if isinstance(v, (list, tuple)):
        return "an empty list" if not v else \
            f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if isinstance(v, dict):
        return "an empty object" if not v else "an object"
    return type(v).__name__


def is_not(subject: str, expected: str, value: object) -> str:
    """``'count' is a whole number, not the text "25"``."""
    return f"{subject} is {expected}, not {found(value)}"


def bounds(lo: object = None, hi: object = None) -> str:
    """'from 1 to 64', 'at least 1', 'at most 64'."""
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def out_of_range(subject: str, value: object, lo: object = None, hi: object = None) -> str:
    """``'count' is from 1 to 64, not 0``."""
    return f"{subject} is {bounds(lo, hi)}, not {number(value)}"


def number(v: object) -> str:
    """A number as written, or how many digits it has when it is too long to read."""
    text = str(v)
    return f"a number of {len(text.lstrip('-'))} digits" if len(text) > 24 else text


def pointer_subject(ptr: str) -> str:
    """Who a sentence about the value at a JSON pointer is about: its key ("'count'"),
    or for a numbered entry (of a list, or of an object keyed by clearing), "each entry
    of 'dice'"."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]
    if not parts:
        return "the file"
    if parts[-1].isdigit() and len(parts) > 1:
        return f"each entry of {parts[-2]!r}"
    return repr(parts[-1])


def unknown_key(key: object, noun: str, known: Iterable[str]) -> str:
    """``'cout' is not a key of a piece (did you mean 'count'?); a piece has: kind, count``."""
    keys = list(known)
    has = f"; {noun} has: {listing(keys)}" if keys else f"; {noun} has no keys"
    return f"{quoted(key)} is not a key of {noun}{did_you_mean(key, keys)}{has}"


def needs_key(noun: str, key: str, *, why: str = "", near: Iterable[str] = ()) -> str:
    """``a piece needs 'count'`` (with what it is for, and the written key it may be
    misspelt as: ``(did you mean 'count' where it says 'cout'?)``)."""
    close = [k for k in near if isinstance(k, str) and suggestion(k, [key]) == key]
    typo = f" (did you mean {key!r} where it says {close[0]!r}?)" if close else ""
    return f"{noun} needs {key!r}{typo}{': ' + why if why else ''}"


def unknown_name(what: str, name: object, known: Iterable[object], *,
                 list_known: int | None = 0) -> str:
    """``unknown piece 'timbr' (did you mean 'timber'?)``; when no name is close, the
    known names (``list_known``: when there are at most that many; None: always)."""
    names = [str(k) for k in known]
    hint = did_you_mean(name, names)
    if not hint and list_known != 0 and (list_known is None or len(names) <= list_known):
        hint = f" (known: {listing(names) or 'none'})"
    written = str(name) if isinstance(name, int) and not isinstance(name, bool) else \
        quoted(name)
    return f"unknown {what} {written}{hint}"
