"""The environments' dependencies come with the optional extra ``rootlaw[rl]``."""

from __future__ import annotations

import importlib.util

from .. import extras

INSTALL = extras.install("rl")


def missing(*modules: str) -> list[str]:
    """The modules not installed (a cheap look, without importing them)."""
    out = []
    for m in modules:
        try:
            if importlib.util.find_spec(m) is None:
                out.append(m)
        except (ImportError, ValueError):  # hidden or half there
            out.append(m)
    return out


def require(what: str, *modules: str) -> None:
    """Raise EXTRA-MISSING (an ImportError too) naming the rl extra when a dependency
    cannot be imported."""
    extras.require("rl", what, *modules)
