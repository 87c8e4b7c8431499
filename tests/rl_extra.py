"""The environment tests need the ``rl`` extra: without it they skip with the reason,
except where ``ROOTLAW_REQUIRE_RL=1`` (tox sets it), where they fail loudly."""

from __future__ import annotations

import os

import pytest

from rootlaw.runtime.envs import INSTALL
from rootlaw.runtime.envs._extra import missing


def need(*modules: str) -> None:
    """Call at the top of a test module, before importing the modules."""
    absent = missing(*modules)
    if not absent:
        return
    reason = f"needs {', '.join(absent)} (the rl extra: {INSTALL})"
    if os.environ.get("ROOTLAW_REQUIRE_RL") == "1":
        pytest.fail(f"ROOTLAW_REQUIRE_RL=1 but the rl extra is missing: {reason}",
                    pytrace=False)
    pytest.skip(reason, allow_module_level=True)
