"""Build cache: render a bundle's core and compile it, keyed by the bundle's hash.

Layout of the cache (``$ROOTLAW_CACHE`` or ``~/.cache/rootlaw``)::

    <key>/rootlaw_core_<key>.py      the rendered source (the pure-Python path)
    <key>/rootlaw_core_<key>.*.so    the compiled core, when built

where key = hash(bundle content + generator sources), so a new rootlaw never picks up
a core built by an old one.

The base bundle's core is also compiled into the installed package by setup.py
(``rootlaw._core``), so a plain install needs no compiler at run time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from rootlaw.spec import Bundle
from rootlaw.spec.diagnostics import FileError

from .render import render_core

# Cython directives live here, in one place.  ROOTLAW_DEBUG=1 turns bounds checks on.
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "initializedcheck": False,
    "cdivision": False,  # keep Python's // and % so both paths agree
    "infer_types": True,
}


def directives() -> dict:
    d = dict(DIRECTIVES)
    if os.environ.get("ROOTLAW_DEBUG") == "1":
        d.update(boundscheck=True, wraparound=True, initializedcheck=True)
    return d


def compile_args() -> list[str]:
    """C compiler flags for the core.  Loops start on a 32-byte boundary: the hottest one
    (find_in's card scan) is 32 bytes, and where code before it happens to put it across
    a 64-byte line it runs ~20% slower (docs/design.md, "Speed and layout"); aligned, a
    change anywhere else in the core cannot move it onto a line boundary.  GCC and Clang
    take the flag; MSVC does not."""
    return [] if sys.platform == "win32" else ["-falign-loops=32"]


def cache_dir() -> Path:
    root = os.environ.get("ROOTLAW_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rootlaw")
    return Path(root)


def core_key(bundle: Bundle) -> str:
    """Cache key of a bundle's core: its content and the generator that renders it."""
    return hashlib.sha256((bundle.hash + generator_fingerprint()).encode()).hexdigest()[:16]


GENERATOR = Path(__file__).resolve().parent


def generator_sources() -> list[Path]:
    """What renders a core: the generator's modules and every template, the partials
    under templates/core/ included (a changed partial must not reuse a cached core)."""
    return sorted([*GENERATOR.glob("*.py"), *(GENERATOR / "templates").rglob("*.j2")])


@lru_cache(maxsize=1)
def generator_fingerprint() -> str:
    h = hashlib.sha256()
    for f in generator_sources():
        h.update(f.relative_to(GENERATOR).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def module_name(key: str) -> str:
    return f"rootlaw_core_{key}"


def write_atomic(path: Path, text: str, *, parents: bool = True) -> None:
    """Write a file so readers see the old or the new content, never a torn one.
    A failure is a FileError (IO-ERROR, an OSError too) naming the target path, not the
    temporary file.  ``parents=False``: a missing folder is an error, not created (for
    files a user names: saves, logs, --out)."""
    if not parents and not path.parent.is_dir():
        raise FileError(f"no folder {str(path.parent)!r} to write into", path=path, errno=2)
    try:
        _write_atomic(path, text, parents)
    except OSError as e:
        raise FileError(e.strerror or str(e), path=path, errno=e.errno) from e


def _write_atomic(path: Path, text: str, parents: bool) -> None:
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp creates 0600; give the file the mode a plain write would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def render_to_cache(bundle: Bundle) -> Path:
    """Render the bundle's core source into the cache (idempotent)."""
    h = core_key(bundle)
    path = cache_dir() / h / f"{module_name(h)}.py"
    source = render_core(bundle)
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        write_atomic(path, source)
    return path


def compiled_path(bundle: Bundle) -> Path | None:
    key = core_key(bundle)
    d = cache_dir() / key
    if not d.is_dir():
        return None
    from importlib.machinery import EXTENSION_SUFFIXES
    for suffix in EXTENSION_SUFFIXES:
        p = d / f"{module_name(key)}{suffix}"
        if p.exists():
            return p
    return None


def compile_core(bundle: Bundle, *, quiet: bool = True) -> Path:
    """Cythonize and compile the bundle's core into the cache; return the extension path."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    src = render_to_cache(bundle)
    out = src.parent
    ext = Extension(module_name(core_key(bundle)), [str(src)], extra_compile_args=compile_args())
    exts = cythonize([ext], compiler_directives=directives(), quiet=quiet,
                     build_dir=str(out / "build"))
    dist = Distribution({"ext_modules": exts, "script_name": "rootlaw-build"})
    cmd = build_ext(dist)
    cmd.build_lib = str(out)
    cmd.build_temp = str(out / "build" / "temp")
    cmd.inplace = False
    cmd.ensure_finalized()
    stdout = sys.stdout
    try:
        if quiet:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 -- closed in finally
        cmd.run()
    finally:
        if quiet and sys.stdout is not stdout:
            sys.stdout.close()
            sys.stdout = stdout
    path = compiled_path(bundle)
    if path is None:
        raise RuntimeError("the compiler produced no extension module")
    return path
