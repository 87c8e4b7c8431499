"""The install an author gets: compiled extensions loaded only when whole and their own
(a sum file), a mod's core compiled on first use, a failed build remembered, and the
pure-core notice said once per cache (generator/build.py, runtime/core.py)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from rootlaw.generator import build as gbuild
from rootlaw.runtime import core as rcore
from rootlaw.spec import resolve

ROOT = Path(__file__).resolve().parent.parent
FOUR = ROOT / "examples" / "four-actions"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache, and this process's loaded cores forgotten."""
    monkeypatch.setenv("ROOTLAW_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("ROOTLAW_PURE", raising=False)
    monkeypatch.setattr(rcore, "_LOADED", {})
    return tmp_path / "cache"


def fake_extension(bundle, data: bytes = b"\x7fELF" + bytes(5000)) -> Path:
    key = gbuild.core_key(bundle)
    ext = gbuild.cache_dir() / key / f"{gbuild.module_name(key)}{EXTENSION_SUFFIXES[0]}"
    ext.parent.mkdir(parents=True, exist_ok=True)
    ext.write_bytes(data)
    return ext


def test_an_extension_is_used_only_when_its_sum_says_it_is_whole_and_its_own(cache):
    bundle = resolve([FOUR])
    key = gbuild.core_key(bundle)
    ext = fake_extension(bundle)
    assert gbuild.compiled_path(bundle) is None  # no sum: a torn or foreign file
    gbuild.write_sum(ext, key)
    assert gbuild.compiled_path(bundle) == ext
    with open(ext, "r+b") as f:  # truncated, as by an interrupted copy or a full disk
        f.truncate(1000)
    assert gbuild.compiled_path(bundle) is None
    ext.write_bytes(b"\x7fELF" + bytes(4999) + b"x")  # same size, other bytes
    assert gbuild.compiled_path(bundle) is None
    gbuild.write_sum(ext, "0" * 16)  # another key's sum (a copied cache folder)
    assert gbuild.compiled_path(bundle) is None
    gbuild.sum_path(ext).write_text("{not json", encoding="utf-8")
    assert gbuild.compiled_path(bundle) is None


def test_a_torn_extension_is_never_loaded_the_pure_path_runs(cache, capsys, monkeypatch):
    """Before sums, a truncated extension in the cache was loaded (a bus error)."""
    bundle = resolve([FOUR])
    fake_extension(bundle)  # not an extension at all: loading it would fail or crash
    core = rcore.load_core(bundle)
    assert not core.compiled and core.origin == "cache"
    assert core.why_pure == "no compiled core for this bundle, and ROOTLAW_AUTO_BUILD=0"


def test_a_failed_build_is_remembered_not_tried_by_every_command(cache, capsys, monkeypatch):
    calls = []

    def broken(bundle, quiet=True):
        calls.append(bundle.hash)
        raise RuntimeError("gcc: fatal error: no input files")

    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "1")
    monkeypatch.setattr(rcore, "compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(gbuild, "compile_core", broken)
    bundle = resolve([FOUR])
    core = rcore.load_core(bundle)
    err = capsys.readouterr().err
    assert ("rootlaw: compiling the core for base, four-actions (one time: about 30 s on an idle "
            "2-core machine, minutes on a busy one)...") in err
    assert "compiling failed: gcc: fatal error: no input files" in err
    assert not core.compiled and calls == [bundle.hash]
    marker = cache / gbuild.core_key(bundle) / "build-failed.json"
    assert marker.exists()
    monkeypatch.setattr(rcore, "_LOADED", {})  # another command
    assert not rcore.load_core(bundle).compiled and calls == [bundle.hash]
    assert "failed before" in rcore.load_core(bundle).why_pure
    assert capsys.readouterr().err == ""
    rcore.forget_failed_build(bundle)  # what `rootlaw build` does first
    assert not marker.exists()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False])
def test_compiling_shows_the_time_elapsed(monkeypatch, tty):
    """Issue 15: the notice promised ~15 s where a pack took 47 to 203 s.  It now says
    what to expect (measured) and shows the time elapsed while the compiler runs: in
    place on a terminal, a line now and then in a log; then how long it took."""
    monkeypatch.setattr(rcore, "TICK_TTY", 0.05)
    monkeypatch.setattr(rcore, "TICK_LOG", 0.05)
    out = _Terminal() if tty else io.StringIO()
    with rcore.compile_progress("base, four-actions", out) as done:
        time.sleep(0.4)  # the compiler at work
        done["path"] = "/cache/core.so"
    text = out.getvalue()
    lines = text.split("\n")
    assert lines[0] == ("rootlaw: compiling the core for base, four-actions (one time: about "
                        "30 s on an idle 2-core machine, minutes on a busy one)...")
    if tty:
        assert text.count("\rrootlaw: compiling... 0 s") >= 3 and "\r\033[K" in text
    else:
        assert "\r" not in text and text.count("rootlaw: still compiling (0 s)\n") >= 3
    assert re.search(r"rootlaw: compiled in \d+ s: /cache/core.so\n$", text)
    assert not any(t.name == "rootlaw-compile-progress" for t in threading.enumerate())


def test_a_failed_compile_stops_the_clock_and_says_nothing_more(monkeypatch):
    monkeypatch.setattr(rcore, "TICK_LOG", 0.05)
    out = io.StringIO()
    with pytest.raises(RuntimeError), rcore.compile_progress("base", out):
        raise RuntimeError("gcc failed")
    assert "compiled in" not in out.getvalue()
    assert not any(t.name == "rootlaw-compile-progress" for t in threading.enumerate())


def test_without_a_compiler_nothing_is_tried(cache, monkeypatch):
    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "1")
    monkeypatch.setenv("CC", "no-such-compiler-here")
    monkeypatch.setattr(gbuild, "compile_core", lambda *a, **k: pytest.fail("compiled"))
    assert rcore.compiler() is None
    assert rcore.load_core(resolve([FOUR])).why_pure == "no C compiler found"


def test_the_pure_notice_is_said_once_per_cache(cache, capsys, monkeypatch):
    monkeypatch.setattr(rcore, "NOTICES", True)
    monkeypatch.setenv("ROOTLAW_PURE_NOTICE", "1")
    assert rcore.pure_notice("no C compiler found")
    err = capsys.readouterr().err
    assert err.startswith("rootlaw: running the pure-Python core (no C compiler found)")
    assert "`rootlaw build`" in err and str(rcore.notice_marker()) in err
    assert rcore.notice_marker().exists()
    assert not rcore.pure_notice("no C compiler found")
    assert capsys.readouterr().err == ""


def rootlaw(*args, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rootlaw.runtime.cli", *map(str, args)],
                          capture_output=True, text=True, env={**os.environ, **env},
                          timeout=120, check=False)


def test_the_first_command_on_the_pure_path_says_so_once_not_once_per_process(tmp_path):
    env = {"ROOTLAW_CACHE": str(tmp_path / "cache"), "ROOTLAW_PURE_NOTICE": "1"}
    args = ("play", "--pack", FOUR, "--seed", "1", "--quiet", "--max-decisions", "50")
    first = rootlaw(*args, env=env)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("rootlaw: running the pure-Python core") == 1
    second = rootlaw(*args, env=env)
    assert second.returncode == 0 and second.stderr == ""
    # Asked for the pure path: nothing to say.
    asked = rootlaw(*args, "--pure", env={**env, "ROOTLAW_CACHE": str(tmp_path / "other")})
    assert asked.returncode == 0 and asked.stderr == ""


def test_auto_build_compiles_a_mods_core_once_on_first_use(cache, capsys, monkeypatch):
    """The one test that compiles: a mod's core is built on first use (a progress line),
    cached with its sum, loaded from the cache by the next command; truncated, it is
    never loaded again (before sums: a bus error), the pure path runs until rebuilt."""
    if rcore.compiler() is None:
        pytest.skip("no C compiler on this machine")
    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "1")
    bundle = resolve([FOUR])
    core = rcore.load_core(bundle)
    err = capsys.readouterr().err
    assert ("rootlaw: compiling the core for base, four-actions (one time: about 30 s on an idle "
            "2-core machine, minutes on a busy one)...") in err
    assert "rootlaw: compiled in " in err
    assert core.compiled and core.origin == "cache"
    ext = gbuild.compiled_path(bundle)
    assert ext is not None and gbuild.verified(ext, gbuild.core_key(bundle))
    monkeypatch.setattr(rcore, "_LOADED", {})  # the next command
    assert rcore.load_core(bundle).compiled and capsys.readouterr().err == ""
    # A truncated copy put in its place (a new file: this process has the old one mapped,
    # and truncating a mapped file under it is a bus error here too).
    torn = ext.with_name("torn")
    torn.write_bytes(ext.read_bytes()[:ext.stat().st_size // 8])
    os.replace(torn, ext)
    assert gbuild.compiled_path(bundle) is None
    env = {"ROOTLAW_CACHE": str(cache), "ROOTLAW_AUTO_BUILD": "0"}
    p = rootlaw("play", "--pack", FOUR, "--seed", "1", "--quiet", env=env)
    assert p.returncode == 0, f"exit {p.returncode}: {p.stderr}"  # 135 (SIGBUS) before
    assert p.stdout.startswith("game 1: winner:")


def test_a_pure_fallback_gives_way_to_a_core_built_later(monkeypatch):
    """A game asked for the compiled core while none was built (auto-build off) runs the
    pure one; once the core is built (by another command, or a test's compile), the next
    game in the same process loads the compiled one, not the fallback it remembered."""
    from rootlaw.runtime.game import base_bundle
    b = base_bundle()
    gbuild.compile_core(b)
    monkeypatch.setattr(rcore, "_LOADED", {})
    pure = rcore.load_core(b, pure=True)
    assert not pure.compiled
    # What a load with no compiled core there left behind under the compiled key:
    rcore._LOADED[(gbuild.core_key(b), False)] = pure
    assert rcore.load_core(b, pure=False).compiled
