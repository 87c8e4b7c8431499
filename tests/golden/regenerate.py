"""Regenerate the golden playthroughs: `python tests/golden/regenerate.py`.

Each golden file is the JSON-lines log of a seeded random game. A behaviour change in
the rules shows up as a diff of these files; review it, then regenerate.

format-1/ holds a save and a log in format 1 (before saves and logs recorded their
packs: the bundle hash only), made from the same games: old files must keep loading
(tests/test_content.py).  They are written as rootlaw 0.1 wrote them, key for key.
"""

from __future__ import annotations

import json
from pathlib import Path

from rootlaw.runtime.game import Game, base_bundle
from rootlaw.runtime.log import play_game

HERE = Path(__file__).resolve().parent
GOLDEN_SEEDS = (1, 7, 42)
FACTIONS = ["marquise", "eyrie"]


def golden_path(seed: int) -> Path:
    return HERE / f"marquise-eyrie-seed{seed}.jsonl"


FORMAT_1 = HERE / "format-1"
FORMAT_1_LOG = FORMAT_1 / "log-seed7.jsonl"
FORMAT_1_SAVE = FORMAT_1 / "save-seed3.json"


def render(seed: int, tmp: Path, pure: bool | None = None) -> str:
    out = tmp / f"seed{seed}.jsonl"
    play_game(base_bundle(), FACTIONS, seed, log_path=str(out), pure=pure)
    return out.read_text(encoding="utf-8")


def format_1_log(log: str) -> str:
    """A log as format 1 wrote it: the header held the bundle, factions and seed only,
    and a decision no events (they came later in format 2)."""
    lines = log.splitlines()
    h = json.loads(lines[0])
    header = {"type": "header", "bundle": h["bundle"], "factions": h["factions"],
              "seed": h["seed"]}
    body = []
    for line in lines[1:]:
        rec = json.loads(line)
        rec.pop("events", None)
        body.append(json.dumps(rec))
    return "\n".join([json.dumps(header), *body]) + "\n"


def format_1_save() -> str:
    """A save as format 1 wrote it: the pack ids, no versions or hashes, map or deck."""
    g = Game(FACTIONS, 3)
    for i in range(40):
        legal = g.legal_actions()
        g.apply(legal[(i * 7) % len(legal)])
    d = g.to_dict()
    old = {"format": 1, "bundle": d["bundle"], "packs": [p["id"] for p in d["packs"]],
           "factions": d["factions"], "seed": d["seed"], "actions": d["actions"],
           "state": d["state"]}
    return json.dumps(old, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for seed in GOLDEN_SEEDS:
            golden_path(seed).write_text(render(seed, Path(d)), encoding="utf-8")
            print(f"wrote {golden_path(seed)}")
        FORMAT_1.mkdir(exist_ok=True)
        FORMAT_1_LOG.write_text(format_1_log(render(7, Path(d))), encoding="utf-8")
        FORMAT_1_SAVE.write_text(format_1_save(), encoding="utf-8")
        print(f"wrote {FORMAT_1_LOG} and {FORMAT_1_SAVE}")
