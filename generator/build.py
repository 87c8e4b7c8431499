"""Build cache: render a bundle's core and compile it, keyed by the bundle's hash.

Layout of the cache (``$ROOTLAW_CACHE`` or ``~/.cache/rootlaw``)::

    <key>/rootlaw_core_<key>.py              the rendered source (the pure-Python path)
    <key>/rootlaw_core_<key>.*.so            the compiled core, when built
    <key>/rootlaw_core_<key>.*.so.sum.json   its key, size and sha256, written last
    <key>/build/                             cython's C file, objects (scratch)

where key = hash(bundle content + generator sources), so a new rootlaw never picks up
a core built by an old one.  An extension is loaded only when its sum file says it is
this key's and its size and sha256 agree: a truncated or stale file (an interrupted
build, a copy, another checkout's) is never loaded (a truncated extension is a bus
error, not an ImportError), it is rebuilt.  A build writes the extension elsewhere and
moves it into place, then writes the sum, so a process that has the old one loaded is
never handed a file that changes under it; builds of one key take turns (a lock file).

The base bundle's core is also compiled into the installed package by setup.py
(``rootlaw._core``, with the same sum file), so a plain install needs no compiler at
run time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
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


def compile_args() -> list[str]:
    """C compiler flags for the core.  Loops start on 32-byte boundaries: left to the
    default, a hot loop (the card scan in find_in) straddled a fetch window whenever code
    earlier in the module grew by the wrong amount, and playouts ran 15-20% slower
    (docs/design.md, "Speed and layout").  GCC and Clang take the flag; MSVC does not."""
    return [] if sys.platform == "win32" else ["-falign-loops=32"]


def directives() -> dict:
    d = dict(DIRECTIVES)
    if os.environ.get("ROOTLAW_DEBUG") == "1":
        d.update(boundscheck=True, wraparound=True, initializedcheck=True)
    return d


def cache_dir() -> Path:
    root = os.environ.get("ROOTLAW_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rootlaw")
    return Path(root)


def core_key(bundle: Bundle) -> str:
    """Cache key of a bundle's core: its content and the generator that renders it."""
    return hashlib.sha256((bundle.content_hash + generator_fingerprint()).encode()).hexdigest()[:16]


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


def write_atomic(path: Path, data: str | bytes, *, parents: bool = True,
                 mode: int | None = None) -> None:
    """Write a file (text as UTF-8, or bytes) so readers see the old or the new content,
    never a torn one.  A failure is a FileError (IO-ERROR, an OSError too) naming the
    target path, not the temporary file.  ``parents=False``: a missing folder is an
    error, not created (for files a user names: saves, logs, --out).  ``mode``: the
    file's permissions (default: what a plain write would give under the umask)."""
    if not parents and not path.parent.is_dir():
        raise FileError(f"no folder {str(path.parent)!r} to write into", path=path, errno=2)
    try:
        _write_atomic(path, data.encode("utf-8") if isinstance(data, str) else data,
                      parents, mode)
    except OSError as e:
        raise FileError(e.strerror or str(e), path=path, errno=e.errno) from e


def _write_atomic(path: Path, data: bytes, parents: bool, mode: int | None) -> None:
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is None:
            # mkstemp creates 0600; give the file the mode a plain write would.
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
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


SUM_SUFFIX = ".sum.json"


def sum_path(ext: Path) -> Path:
    return ext.with_name(ext.name + SUM_SUFFIX)


def file_sum(path: Path) -> dict:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return {"size": path.stat().st_size, "sha256": h.hexdigest()}


def write_sum(ext: Path, key: str) -> None:
    """Record, after a successful build, what the extension for key is."""
    write_atomic(sum_path(ext), json.dumps({"key": key, **file_sum(ext)}) + "\n")


def verified(ext: Path, key: str) -> bool:
    """Whether ext is key's extension, whole: its sum file names key and its size and
    sha256 agree (the size is checked first: a truncated file costs no hashing)."""
    try:
        want = json.loads(sum_path(ext).read_text(encoding="utf-8"))
        if not isinstance(want, dict) or want.get("key") != key or \
                want.get("size") != ext.stat().st_size:
            return False
        return want.get("sha256") == file_sum(ext)["sha256"]
    except (OSError, ValueError):
        return False


def extension_in(folder: Path, stem: str) -> Path | None:
    """The extension file named stem in folder for this Python, if there is one."""
    from importlib.machinery import EXTENSION_SUFFIXES
    for suffix in EXTENSION_SUFFIXES:
        p = folder / f"{stem}{suffix}"
        if p.exists():
            return p
    return None


def compiled_path(bundle: Bundle) -> Path | None:
    """The bundle's compiled core in the cache, if there is one that is whole and its
    own (see the module docstring); None means it needs building."""
    key = core_key(bundle)
    ext = extension_in(cache_dir() / key, module_name(key))
    return ext if ext is not None and verified(ext, key) else None


@contextlib.contextmanager
def build_lock(folder: Path) -> Iterator[None]:
    """One build of a key at a time, across processes (where the OS has file locks)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # Windows: builds do not take turns, but still never tear a file
        yield
        return
    with open(folder / "build.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def compile_core(bundle: Bundle, *, quiet: bool = True) -> Path:
    """Cythonize and compile the bundle's core into the cache; return the extension path
    (at once when a whole one is there already)."""
    key = core_key(bundle)
    out = cache_dir() / key
    with build_lock(out):
        done = compiled_path(bundle)
        if done is not None:
            return done
        return _compile(bundle, key, out, quiet)


def _compile(bundle: Bundle, key: str, out: Path, quiet: bool) -> Path:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    src = render_to_cache(bundle)
    name = module_name(key)
    ext = Extension(name, [str(src)], extra_compile_args=compile_args())
    # force: a C file left by an interrupted or failed build is never reused.
    exts = cythonize([ext], compiler_directives=directives(), quiet=quiet, force=True,
                     build_dir=str(out / "build"))
    (out / "build").mkdir(parents=True, exist_ok=True)
    lib = Path(tempfile.mkdtemp(dir=out / "build", prefix="lib-"))
    try:
        dist = Distribution({"ext_modules": exts, "script_name": "rootlaw-build"})
        cmd = build_ext(dist)
        cmd.build_lib = str(lib)
        cmd.build_temp = str(out / "build" / "temp")
        cmd.inplace = False
        cmd.force = True
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
        built = extension_in(lib, name)
        if built is None:
            raise RuntimeError("the compiler produced no extension module")
        target = out / built.name
        # A new file moved into place: a process that has the old one mapped keeps it.
        os.replace(built, target)
        write_sum(target, key)
    finally:
        shutil.rmtree(lib, ignore_errors=True)
    return target
