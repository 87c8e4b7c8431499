"""Every optional extra, missing, fails the same clear way: EXTRA-MISSING with what
needed it and the command that installs it, before any game is played, never a
traceback (issue 15: `simulate --ray` without Ray ended in ModuleNotFoundError).

Each run hides the extra's modules in a fresh interpreter (``sys.modules[name] = None``
makes ``import name`` fail as if it were not installed), so these tests run with every
extra installed too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from rootlaw.runtime.extras import EXTRAS, ExtraMissing, install, require, unimportable

HIDE_AND_RUN = """
import sys
for name in {hide!r}:
    sys.modules[name] = None
{body}
"""


def hidden(hide: list[str], body: str, timeout: float = 120) -> subprocess.CompletedProcess:
    code = HIDE_AND_RUN.format(hide=hide, body=body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, check=False)


def cli(hide: list[str], *argv: str) -> subprocess.CompletedProcess:
    return hidden(hide, "from rootlaw.runtime.cli import main\n"
                        f"sys.exit(main({list(argv)!r}))")


def test_the_extras_are_the_ones_pyproject_declares():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    declared = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    extras = declared["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    for extra, modules in EXTRAS.items():
        dists = " ".join(extras[extra]).replace("-", "_").lower()
        for m in modules:
            assert {"pyspiel": "open_spiel"}.get(m, m) in dists, (extra, m)


@pytest.mark.parametrize(("extra", "option"), [("ray", "--ray"), ("plot", "--plot")])
def test_simulate_without_its_extra_stops_before_any_game(extra, option, tmp_path):
    argv = ["simulate", "--factions", "marquise,eyrie", "--games", "40", "--no-progress"]
    argv += [option] if option == "--ray" else [option, str(tmp_path / "sim.png")]
    p = cli(list(EXTRAS[extra]), *argv)
    assert p.returncode == 1, p.stderr
    assert p.stderr == (f"rootlaw: EXTRA-MISSING: {option} needs {EXTRAS[extra][0]} (the "
                        f"{extra} extra): {install(extra)}\n")
    assert p.stdout == ""  # no header: no game was played, no core built
    assert list(tmp_path.iterdir()) == []


RL_MODULES = {"pettingzoo": ("numpy", "gymnasium", "pettingzoo"),
              "gymnasium": ("numpy", "gymnasium"), "openspiel": ("numpy", "pyspiel"),
              "table": ("numpy",), "bench": ("numpy", "gymnasium", "pettingzoo")}


@pytest.mark.parametrize("module", sorted(RL_MODULES))
@pytest.mark.parametrize("dependency", EXTRAS["rl"])
def test_each_environment_without_the_rl_extra_says_so(module, dependency):
    """Every environment module, each of its dependencies hidden in turn: EXTRA-MISSING
    (a RootlawError and an ImportError), naming the module missing and the install."""
    body = (f"try:\n"
            f"    import rootlaw.runtime.envs.{module}\n"
            f"    print('imported')\n"
            f"except ImportError as e:\n"
            f"    from rootlaw.runtime.errors import RootlawError\n"
            f"    print(type(e).__name__, isinstance(e, RootlawError), e.code, e.name, '|', e)\n")
    p = hidden([dependency], body)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    # What this machine lacks anyway counts too (the lighter test run has no rl extra).
    absent = {m for m in RL_MODULES[module] if unimportable(m)}
    if dependency not in RL_MODULES[module] and not absent:
        assert p.stdout.strip() == "imported"
        return
    kind, is_rootlaw, code, name, _, message = p.stdout.split(" ", 5)
    assert (kind, is_rootlaw, code) == ("ExtraMissing", "True", "EXTRA-MISSING")
    m = re.fullmatch(rf"EXTRA-MISSING: rootlaw\.runtime\.envs\.{module} needs (.+) \(the rl "
                     rf"extra\): {re.escape(install('rl'))}", message.strip())
    assert m, message
    # The hidden module, and those that import it (gymnasium needs numpy), in order.
    named = m.group(1).split(", ")
    assert set(named) <= set(RL_MODULES[module]) and name == named[0]
    assert dependency in named if dependency in RL_MODULES[module] else set(named) == absent


def test_bench_without_the_rl_extra_skips_pettingzoo_and_says_why():
    p = cli(["pettingzoo"], "bench", "--json", "--games", "1", "--min-seconds", "0",
            "--rounds", "1")
    assert p.returncode == 0, p.stderr
    why = json.loads(p.stdout)["pettingzoo"]["skipped"]
    # pettingzoo, and whatever else of the extra this machine lacks (numpy ...).
    m = re.fullmatch(rf"EXTRA-MISSING: rootlaw\.runtime\.envs\.bench needs (.+) \(the rl "
                     rf"extra\): {re.escape(install('rl'))}", why)
    assert m and "pettingzoo" in m.group(1).split(", "), why


def test_no_command_needs_the_browser_extra(tmp_path):
    """Playwright drives the viewer's test only: the viewer is written without it."""
    log, page = tmp_path / "g.jsonl", tmp_path / "replay.html"
    p = cli(list(EXTRAS["browser"]), "play", "--factions", "marquise,eyrie", "--seed", "7",
            "--log", str(log), "--max-decisions", "40")
    assert p.returncode == 0, p.stderr
    p = cli(list(EXTRAS["browser"]), "replay", str(log), "--html", str(page))
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_broken_extra_is_missing_too(monkeypatch):
    """An extra that is there but does not import is reported the same way."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ExtraMissing) as e:
        require("plot", "--plot")
    assert e.value.code == "EXTRA-MISSING" and e.value.name == "matplotlib"
    assert isinstance(e.value, ImportError)
