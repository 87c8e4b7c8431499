"""Build: render the base bundle's rules core, then cythonize it.

The three top-level folders install as ``rootlaw.spec``, ``rootlaw.generator`` and
``rootlaw.runtime``.  The generated core goes to ``build/generated/<core key>/rootlaw/_core/``
(never committed; the key covers the content and the generator, so a build/ folder left
by another checkout or version is never reused) and installs as ``rootlaw._core.base``:
the compiled extension, its sum file (key, size, sha256: the runtime loads the extension
only when they agree), and its source, which is also the pure-Python path.  A compiled
extension already in build/ that is not this key's, or not whole, is rebuilt.  Without a
working compiler the install still succeeds, pure Python only (``rootlaw info`` says
which core runs, and the first command says so once).
"""

import importlib.util
import os
import sys
import types
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
BUILD = HERE / "build" / "generated"


def _import_source_tree():
    """Import rootlaw.spec and rootlaw.generator from the source folders."""
    if "rootlaw" not in sys.modules:
        pkg = types.ModuleType("rootlaw")
        pkg.__path__ = []
        sys.modules["rootlaw"] = pkg
    for sub in ("spec", "generator"):
        name = f"rootlaw.{sub}"
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(
            name, HERE / sub / "__init__.py", submodule_search_locations=[str(HERE / sub)])
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules["rootlaw.spec"], sys.modules["rootlaw.generator"]


_KEY = []  # the base core's key, computed once


def core_key() -> str:
    if not _KEY:
        spec, gen = _import_source_tree()
        _KEY.append(gen.build.core_key(spec.resolve()))
    return _KEY[0]


def generated() -> Path:
    return BUILD / core_key()


def generate_base_core() -> Path:
    spec, gen = _import_source_tree()
    bundle = spec.resolve()
    out = generated() / "rootlaw" / "_core"
    out.mkdir(parents=True, exist_ok=True)
    source = gen.render_core(bundle)
    target = out / "base.py"
    if not target.exists() or target.read_text(encoding="utf-8") != source:
        target.write_text(source, encoding="utf-8")
    init = out / "__init__.py"
    init.write_text('"""The base bundle\'s rules core (generated at build time)."""\n'
                    f'BUNDLE_HASH = "{bundle.hash}"\n'
                    f'CORE_KEY = "{core_key()}"\n', encoding="utf-8")
    return target


class optional_build_ext(build_ext):
    """Compile the core; fall back to the pure-Python path when compiling fails."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # noqa: BLE001 -- no compiler: the pure path still works
            print(f"rootlaw: compiling the core failed ({e}); installing the pure-Python path",
                  file=sys.stderr)

    def build_extension(self, ext):
        _, gen = _import_source_tree()
        target = Path(self.get_ext_fullpath(ext.name))
        if target.exists() and not gen.build.verified(target, core_key()):
            # Another key's extension, or a torn one: never installed as this one.
            target.unlink()
            gen.build.sum_path(target).unlink(missing_ok=True)
        try:
            super().build_extension(ext)
        except Exception as e:  # noqa: BLE001 -- as above, per extension
            print(f"rootlaw: compiling {ext.name} failed ({e}); pure-Python path only",
                  file=sys.stderr)
            return
        if target.exists():
            gen.build.write_sum(target, core_key())


def extensions():
    core = generate_base_core()
    if os.environ.get("ROOTLAW_NO_COMPILE") == "1":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("rootlaw: Cython not available; installing the pure-Python path", file=sys.stderr)
        return []
    _, gen = _import_source_tree()
    from setuptools import Extension
    rel = os.path.relpath(core, HERE)
    return cythonize([Extension("rootlaw._core.base", [rel],
                                extra_compile_args=gen.build.compile_args())],
                     compiler_directives=gen.build.directives(), quiet=True,
                     build_dir=str(generated() / "cython"))


setup(
    packages=["rootlaw.spec", "rootlaw.generator", "rootlaw.runtime", "rootlaw.runtime.envs",
              "rootlaw._core"],
    package_dir={
        "rootlaw.spec": "spec",
        "rootlaw.generator": "generator",
        "rootlaw.runtime": "runtime",
        "rootlaw._core": os.path.relpath(generated() / "rootlaw" / "_core", HERE),
    },
    package_data={
        "rootlaw.spec": ["content/*/*.json", "schema/*.json", "py.typed"],
        "rootlaw.generator": ["templates/*.j2", "templates/core/*.j2", "py.typed"],
        "rootlaw.runtime": ["py.typed", "scenario_examples.json", "viewer.html.in"],
        "rootlaw._core": ["base.py"],
    },
    ext_modules=extensions(),
    cmdclass={"build_ext": optional_build_ext},
    zip_safe=False,
)
