"""The environments' dependencies come with the optional extra ``rootlaw[rl]``."""

from __future__ import annotations

import importlib.util

INSTALL = 'pip install "rootlaw[rl]"'


def missing(*modules: str) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require(what: str, *modules: str) -> None:
    """Raise a clear ImportError naming the extra when a dependency is not installed."""
    absent = missing(*modules)
    if absent:
        raise ImportError(f"{what} needs {', '.join(absent)}: {INSTALL}", name=absent[0])
