"""Errors the runtime raises for bad input: each has a stable code and says where.

``RootlawError`` (defined with the content diagnostics in rootlaw.spec, so that a
content ``SpecError`` is one too) is the base of every error meant for users;
``FileError`` (IO-ERROR) is a file that cannot be read or written.
"""

from __future__ import annotations

from rootlaw.spec.diagnostics import FileError, RootlawError


class IllegalAction(RootlawError):
    code = "ACTION-ILLEGAL"


class SaveError(RootlawError):
    code = "SAVE-CORRUPT"


class LogError(RootlawError):
    """A game log that cannot be replayed: LOG-INVALID (not a log), LOG-DIVERGED (the
    rules disagree with it), LOG-BUNDLE (another bundle's log)."""

    code = "LOG-INVALID"


__all__ = ["FileError", "IllegalAction", "LogError", "RootlawError", "SaveError"]
