"""Perft: decision-tree counts for fixed positions (tests/perft/*.perft).

Golden playthroughs follow one path per game; perft covers every legal branch to a few
decisions deep, so a change in what is legal anywhere near those positions shows up.
On a mismatch the failure prints ``divide``: the count below each first decision.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rootlaw.runtime.perft import divide, parse_file, perft, position

FILES = sorted((Path(__file__).resolve().parent / "perft").glob("*.perft"))
CASES = [(f, setup, counts, line) for f in FILES
         for setup, counts, line in parse_file(f.read_text(encoding="utf-8"))]


def _game(setup: dict, pure: bool):
    return position(setup["factions"].split(","), int(setup["seed"]),
                    int(setup.get("after", 0)), pure=pure)


@pytest.mark.parametrize("path, setup, counts, line", CASES,
                         ids=[f"{c[0].name}:{c[3]}" for c in CASES])
def test_perft_counts(path, setup, counts, line):
    g = _game(setup, pure=False)
    for depth, expected in counts:
        got = perft(g, depth)
        if got != expected:
            rows = "\n".join(f"  {k}: {v}" for k, v in sorted(divide(g, depth).items()))
            pytest.fail(f"{path.name}:{line}: perft {depth} = {got}, expected {expected}\n"
                        f"divide {depth}:\n{rows}\n"
                        "(if intended, run python tests/perft/regenerate.py)")


@pytest.mark.parametrize("path, setup, counts, line", CASES,
                         ids=[f"{c[0].name}:{c[3]}" for c in CASES])
def test_perft_divide_agrees_on_both_cores(path, setup, counts, line):
    assert divide(_game(setup, pure=True), 2) == divide(_game(setup, pure=False), 2)


def test_perft_of_the_opening_follows_the_law():
    """Law 6.3.1: the Marquise's first setup decision is the keep's corner: four."""
    g = position(["marquise", "eyrie"], 1, 0)
    assert sorted(divide(g, 1)) == ["clearing 1", "clearing 2", "clearing 3", "clearing 4"]


def test_a_bad_perft_file_is_reported_with_its_line():
    with pytest.raises(ValueError, match="line 2"):
        parse_file("setup seed=1 factions=marquise,eyrie\nperft one 4\nperft\n")
