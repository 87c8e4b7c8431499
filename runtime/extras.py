"""The optional extras (pyproject.toml): which modules each brings, and the one way a
missing one fails: ``ExtraMissing`` (code EXTRA-MISSING), raised before any game is
played, naming what needed it, the modules missing and the command that installs them.

``ExtraMissing`` is an ``ImportError`` too, so ``try: import ... except ImportError``
keeps working for the learning environments' modules.  The browser extra (Playwright)
serves the replay viewer's test only: no command needs it (``rootlaw replay --html``
writes a self-contained page).
"""

from __future__ import annotations

import importlib

from .errors import RootlawError

EXTRAS: dict[str, tuple[str, ...]] = {
    "ray": ("ray",),
    "plot": ("matplotlib",),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
    "browser": ("playwright",),
}


def install(extra: str) -> str:
    """The command that installs an extra."""
    return f'pip install "rootlaw[{extra}]"'


class ExtraMissing(RootlawError, ImportError):
    """An optional extra is not installed (or its modules cannot be imported)."""

    code = "EXTRA-MISSING"

    def __init__(self, message: str, *, name: str | None = None):
        RootlawError.__init__(self, message)
        self.name = name  # ImportError's: the first module missing
        self.msg = message


def unimportable(*modules: str) -> dict[str, str]:
    """The modules that cannot be imported here, each with why (missing, or broken)."""
    out = {}
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError as e:  # not installed, hidden (sys.modules[m] = None), broken
            out[m] = str(e)
    return out


def require(extra: str, what: str, *modules: str) -> None:
    """Raise ExtraMissing unless every module (default: the extra's) imports."""
    absent = unimportable(*(modules or EXTRAS[extra]))
    if absent:
        names = ", ".join(absent)
        raise ExtraMissing(f"{what} needs {names} (the {extra} extra): {install(extra)}",
                           name=next(iter(absent)))


__all__ = ["EXTRAS", "ExtraMissing", "install", "require", "unimportable"]
