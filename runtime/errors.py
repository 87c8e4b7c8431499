"""Errors the runtime raises for bad input: each has a stable code and says where.

``RootlawError`` (defined with the content diagnostics in rootlaw.spec, so that a
content ``SpecError`` is one too) is the base of every error meant for users.
"""

from __future__ import annotations

from rootlaw.spec.diagnostics import RootlawError


class IllegalAction(RootlawError):
    code = "ACTION-ILLEGAL"


class SaveError(RootlawError):
    code = "SAVE-CORRUPT"


__all__ = ["IllegalAction", "RootlawError", "SaveError"]
