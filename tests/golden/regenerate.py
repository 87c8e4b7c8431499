"""Regenerate the golden playthroughs: `python tests/golden/regenerate.py`.

Each golden file is the JSON-lines log of a seeded random game. A behaviour change in
the rules shows up as a diff of these files; review it, then regenerate.
"""

from __future__ import annotations

from pathlib import Path

from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import play_game

HERE = Path(__file__).resolve().parent
GOLDEN_SEEDS = (1, 7, 42)
FACTIONS = ["marquise", "eyrie"]


def golden_path(seed: int) -> Path:
    return HERE / f"marquise-eyrie-seed{seed}.jsonl"


def render(seed: int, tmp: Path, pure: bool | None = None) -> str:
    out = tmp / f"seed{seed}.jsonl"
    play_game(base_bundle(), FACTIONS, seed, log_path=str(out), pure=pure)
    return out.read_text(encoding="utf-8")


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for seed in GOLDEN_SEEDS:
            golden_path(seed).write_text(render(seed, Path(d)), encoding="utf-8")
            print(f"wrote {golden_path(seed)}")
