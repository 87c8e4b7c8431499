"""Errors the runtime raises for bad input: each has a stable code and says where."""

from __future__ import annotations


class RootlawError(Exception):
    """Base of every error meant for users; the CLI prints it without a traceback."""

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


class IllegalAction(RootlawError):
    code = "ACTION-ILLEGAL"


class SaveError(RootlawError):
    code = "SAVE-CORRUPT"
