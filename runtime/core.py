"""Choose the rules core for a bundle: the compiled one when there is one, else pure.

``ROOTLAW_PURE=1`` forces the pure-Python path.  Both paths run the same generated
source (Cython pure-Python mode), so they agree decision by decision.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from rootlaw.generator import build as gbuild
from rootlaw.generator.tables import Tables, build_tables
from rootlaw.spec import Bundle


@dataclass(frozen=True)
class CoreModule:
    module: ModuleType
    compiled: bool
    origin: str
    tables: Tables

    @property
    def layout(self) -> dict:
        return self.module.LAYOUT


def want_pure() -> bool:
    return os.environ.get("ROOTLAW_PURE", "") not in ("", "0")


def _load_path(path: Path, name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def _installed(key: str) -> ModuleType | None:
    """The core compiled into the installed package, if it is this bundle's."""
    try:
        pkg = importlib.import_module("rootlaw._core")
    except ImportError:
        return None
    if getattr(pkg, "CORE_KEY", None) != key:
        return None
    return pkg


_LOADED: dict[tuple[str, bool], CoreModule] = {}


def _load(bundle: Bundle, pure: bool) -> CoreModule:
    h = gbuild.core_key(bundle)
    tables = build_tables(bundle)
    pkg = _installed(h)
    if pkg is not None:
        assert pkg.__file__ is not None  # a regular package: its __init__ sets CORE_KEY
        src = Path(pkg.__file__).with_name("base.py")
        if not pure:
            try:
                mod = importlib.import_module("rootlaw._core.base")
                if mod.compiled():
                    return CoreModule(mod, True, "installed", tables)
            except ImportError as e:
                warnings.warn(f"rootlaw: compiled core failed to load ({e}); using pure Python",
                              stacklevel=3)
        if src.exists():
            return CoreModule(_load_path(src, f"rootlaw_core_pure_{h}"), False, "installed",
                              tables)
    if not pure:
        so = gbuild.compiled_path(bundle)
        if so is not None:
            try:
                mod = _load_path(so, gbuild.module_name(h))
                return CoreModule(mod, bool(mod.compiled()), "cache", tables)
            except ImportError as e:
                warnings.warn(f"rootlaw: cached core failed to load ({e}); using pure Python",
                              stacklevel=3)
    src = gbuild.render_to_cache(bundle)
    return CoreModule(_load_path(src, f"rootlaw_core_pure_{h}"), False, "cache", tables)


def load_core(bundle: Bundle, pure: bool | None = None) -> CoreModule:
    """The core for a bundle; pure=None follows ROOTLAW_PURE."""
    key = (gbuild.core_key(bundle), want_pure() if pure is None else pure)
    if key not in _LOADED:
        _LOADED[key] = _load(bundle, key[1])
    return _LOADED[key]
