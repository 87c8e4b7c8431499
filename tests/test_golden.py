"""Golden playthroughs: seeded games must replay to the committed transcripts.

On a deliberate rules change, run `python tests/golden/regenerate.py` and review the diff.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "golden_regenerate", Path(__file__).parent / "golden" / "regenerate.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("seed", golden.GOLDEN_SEEDS)
def test_playthrough_matches_golden(seed, tmp_path, core_kind):
    expected = golden.golden_path(seed).read_text(encoding="utf-8")
    got = golden.render(seed, tmp_path, pure=(core_kind == "pure"))
    if got != expected:
        exp_lines, got_lines = expected.splitlines(), got.splitlines()
        for i, (a, b) in enumerate(zip(exp_lines, got_lines, strict=False)):
            if a != b:
                pytest.fail(f"seed {seed}: first difference at line {i + 1}:\n"
                            f"  golden: {a}\n  now:    {b}\n"
                            "(if intended, run python tests/golden/regenerate.py)")
        pytest.fail(f"seed {seed}: length {len(got_lines)} != golden {len(exp_lines)}")


@pytest.mark.parametrize("seed", golden.GOLDEN_SEEDS)
def test_golden_log_replays(seed):
    from rootlaw.runtime.game import base_bundle
    from rootlaw.runtime.log import replay_log

    g = replay_log(golden.golden_path(seed), base_bundle())
    assert g.is_over and g.winner is not None
