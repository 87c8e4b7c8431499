"""Choose the rules core for a bundle: the compiled one when there is one, else pure.

``ROOTLAW_PURE=1`` forces the pure-Python path.  Both paths run the same generated
source (Cython pure-Python mode), so they agree decision by decision.

Where a compiled core comes from, in order: the one installed with the package (the
base game's, when pip could compile it), the build cache, or a build made now: a bundle
with no compiled core (a mod, or the base game of an install made without a compiler)
is compiled on first use when a compiler is there, with a line on stderr, and cached
(``ROOTLAW_AUTO_BUILD=0`` turns that off).  A compiled file is loaded only when its sum
file says it is whole and this bundle's (generator/build.py).  A build that fails is
remembered in the cache (``build-failed.json`` beside it) and not tried again by every
command; ``rootlaw build`` tries again and says why it fails.

Compiling takes about half a minute on an idle two-core machine (measured: the base
game 27 s, a pack of one more faction 33 s) and minutes on a busy one, so the line on
stderr is followed by the time elapsed (``compile_progress``): updated in place every
second on a terminal, a line every ``TICK_LOG`` seconds in a log.

When a command ends up on the pure path without asking for it, the CLI says so once,
on stderr, with how to get the compiled core: "once" is remembered by a file in the
cache folder (``notices/pure-core``, written atomically), so it is once per cache (per
user), not once per process.  ``ROOTLAW_PURE_NOTICE=0`` silences it.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import shlex
import shutil
import sys
import sysconfig
import time
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
    why_pure: str = ""  # when pure without being asked to: why (for the notice)

    @property
    def layout(self) -> dict:
        return self.module.LAYOUT


def want_pure() -> bool:
    return os.environ.get("ROOTLAW_PURE", "") not in ("", "0")


def auto_build() -> bool:
    return os.environ.get("ROOTLAW_AUTO_BUILD", "1") not in ("", "0")


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


def compiler() -> str | None:
    """The C compiler a build would use ($CC, else Python's own), if it is on PATH."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    try:
        words = shlex.split(cc)
    except ValueError:
        return None
    return shutil.which(words[0]) if words else None


COMPILE_NOTICE = "one time: about 30 s on an idle 2-core machine, minutes on a busy one"
TICK_TTY = 1.0  # seconds between updates of the elapsed time on a terminal
TICK_LOG = 30.0  # ... and between "still compiling" lines elsewhere (a CI log)


@contextlib.contextmanager
def compile_progress(what: str, stream=None):
    """Say on stderr that ``what`` is compiling and, until the block ends, how long it
    has taken so far; then how long it took (the block may set ``done["path"]``)."""
    import threading

    stream = stream if stream is not None else sys.stderr
    tty = bool(getattr(stream, "isatty", lambda: False)())
    print(f"rootlaw: compiling the core for {what} ({COMPILE_NOTICE})...", file=stream,
          flush=True)
    t0 = time.perf_counter()
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(TICK_TTY if tty else TICK_LOG):
            elapsed = time.perf_counter() - t0
            with contextlib.suppress(OSError, ValueError):  # a closed stream: stay quiet
                if tty:
                    stream.write(f"\rrootlaw: compiling... {elapsed:.0f} s")
                else:
                    stream.write(f"rootlaw: still compiling ({elapsed:.0f} s)\n")
                stream.flush()

    ticker = threading.Thread(target=tick, name="rootlaw-compile-progress", daemon=True)
    ticker.start()
    done: dict = {}
    try:
        yield done
    finally:
        stop.set()
        ticker.join()
        if tty:
            stream.write("\r\033[K")  # the elapsed line goes: the result line follows
            stream.flush()
    if "path" in done:
        print(f"rootlaw: compiled in {time.perf_counter() - t0:.0f} s: {done['path']}",
              file=stream)


def _failed_marker(key: str) -> Path:
    return gbuild.cache_dir() / key / "build-failed.json"


def _build_now(bundle: Bundle, key: str) -> tuple[Path | None, str]:
    """Compile the bundle's core now if that is allowed and can work: (the extension or
    None, why not)."""
    if not auto_build():
        return None, "no compiled core for this bundle, and ROOTLAW_AUTO_BUILD=0"
    marker = _failed_marker(key)
    if marker.exists():
        return None, "compiling this bundle's core failed before (see " \
            f"{marker}; `rootlaw build` tries again)"
    if compiler() is None:
        return None, "no C compiler found"
    packs = ", ".join(bundle.packs) or "base"
    try:
        with compile_progress(packs) as done:
            so = done["path"] = gbuild.compile_core(bundle)
    except Exception as e:  # noqa: BLE001 -- any compiler failure: the pure path runs
        why = f"compiling failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
        with contextlib.suppress(OSError):  # a read-only cache: tried again next time
            gbuild.write_atomic(marker, json.dumps({"error": str(e), "compiler": compiler()})
                                + "\n")
        print(f"rootlaw: {why}; running the pure-Python core", file=sys.stderr)
        return None, why
    return so, ""


def forget_failed_build(bundle: Bundle) -> None:
    """An explicit build tries again: the failure marker goes."""
    _failed_marker(gbuild.core_key(bundle)).unlink(missing_ok=True)


_LOADED: dict[tuple[str, bool], CoreModule] = {}


def _load(bundle: Bundle, pure: bool) -> CoreModule:
    h = gbuild.core_key(bundle)
    tables = build_tables(bundle)
    pkg = _installed(h)
    installed_src: Path | None = None
    if pkg is not None:
        assert pkg.__file__ is not None  # a regular package: its __init__ sets CORE_KEY
        folder = Path(pkg.__file__).parent
        installed_src = folder / "base.py" if (folder / "base.py").exists() else None
        ext = gbuild.extension_in(folder, "base")
        if not pure and ext is not None:
            if gbuild.verified(ext, h):
                try:
                    mod = importlib.import_module("rootlaw._core.base")
                    if mod.compiled():
                        return CoreModule(mod, True, "installed", tables)
                except ImportError as e:
                    warnings.warn(f"rootlaw: compiled core failed to load ({e}); using pure "
                                  "Python", stacklevel=3)
            else:
                warnings.warn(f"rootlaw: the installed compiled core {ext} is damaged or "
                              "another build's (its sum does not match): not loaded",
                              stacklevel=3)
    why = ""
    if not pure:
        so = gbuild.compiled_path(bundle)
        if so is None:
            so, why = _build_now(bundle, h)
        if so is not None:
            try:
                mod = _load_path(so, gbuild.module_name(h))
                return CoreModule(mod, bool(mod.compiled()), "cache", tables)
            except ImportError as e:
                why = f"the cached core failed to load ({e})"
                warnings.warn(f"rootlaw: {why}; using pure Python", stacklevel=3)
    if installed_src is not None:
        return CoreModule(_load_path(installed_src, f"rootlaw_core_pure_{h}"), False,
                          "installed", tables, why)
    src = gbuild.render_to_cache(bundle)
    return CoreModule(_load_path(src, f"rootlaw_core_pure_{h}"), False, "cache", tables, why)


def compiled_available(bundle: Bundle) -> bool:
    """Whether a compiled core of the bundle is there to load (built into the cache or
    installed with the package), for a command that must not compile (validate)."""
    key = gbuild.core_key(bundle)
    loaded = _LOADED.get((key, False))
    if loaded is not None:
        return loaded.compiled
    return gbuild.compiled_path(bundle) is not None or _installed(key) is not None


def load_core(bundle: Bundle, pure: bool | None = None) -> CoreModule:
    """The core for a bundle; pure=None follows ROOTLAW_PURE."""
    key = (gbuild.core_key(bundle), want_pure() if pure is None else pure)
    held = _LOADED.get(key)
    if held is not None and not key[1] and not held.compiled and \
            gbuild.compiled_path(bundle) is not None:
        # The pure fallback taken while no compiled core was there (auto-build off, a
        # compiler busy elsewhere): once one is built, the next game loads it.
        del _LOADED[key]
    if key not in _LOADED:
        _LOADED[key] = _load(bundle, key[1])
        if _LOADED[key].why_pure:
            pure_notice(_LOADED[key].why_pure)
    return _LOADED[key]


# ---------------------------------------------------------------------- the notice

NOTICES = False  # the CLI turns the notice on; library users are not printed at


def notice_marker() -> Path:
    return gbuild.cache_dir() / "notices" / "pure-core"


def pure_notice(why: str) -> bool:
    """Say once (per cache folder) that the pure path runs and how to get the compiled
    core; whether it was said now."""
    if not NOTICES or os.environ.get("ROOTLAW_PURE_NOTICE", "1") in ("", "0"):
        return False
    marker = notice_marker()
    if marker.exists():
        return False
    build = "`rootlaw build` (with the same --pack/--map options)"
    how = f"run {build}" if compiler() else \
        ("install a C compiler (gcc or clang; on Windows the MSVC build tools), then run "
         f"{build} or reinstall rootlaw (`pip install --force-reinstall --no-binary rootlaw "
         "rootlaw`); commands also compile it on first use once a compiler is there")
    print(f"rootlaw: running the pure-Python core ({why}): the same rules, tens of times "
          f"slower than the compiled core. To get the compiled core, {how}. This notice is "
          f"shown once (remembered in {marker}).", file=sys.stderr)
    with contextlib.suppress(OSError):  # a read-only cache: said again next time
        gbuild.write_atomic(marker, f"shown {time.strftime('%Y-%m-%d %H:%M:%S')}: {why}\n")
    return True
