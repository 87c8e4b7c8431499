"""Records made before the rules became programs (issue 12) load and replay to the same
end: the base pack's files changed (its standard library of programs), its rules did not,
so a save or log that records the old files is not refused as changed.

tests/golden/format-2/ holds logs and saves written by the engine before the move (the
three goldens as they were, a three-player game's log and save, a save mid-game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime.cli import main
from rootlaw.runtime.log import replay_log
from rootlaw.spec import resolve

OLD = Path(__file__).resolve().parent / "golden" / "format-2"
OLD_BASE_HASH = "795717446ad5143a"  # the base pack's files when these were written


def test_the_records_name_the_old_files():
    now = next(r for r in resolve().records if r.id == "base")
    assert now.hash != OLD_BASE_HASH
    for f in OLD.iterdir():
        text = f.read_text(encoding="utf-8")
        head = json.loads(text.splitlines()[0]) if f.suffix == ".jsonl" else json.loads(text)
        assert head["packs"][0]["hash"] == OLD_BASE_HASH, f.name


@pytest.mark.parametrize("log", sorted(p.name for p in OLD.glob("*.jsonl")))
def test_an_old_log_replays_to_the_same_end(log, capsys):
    g = replay_log(OLD / log)
    result = json.loads((OLD / log).read_text(encoding="utf-8").splitlines()[-1])
    assert g.is_over and g.winner_faction == result["winner"] and g.scores == result["vp"]
    assert main(["replay", str(OLD / log)]) == 0
    assert "replays to the same end" in capsys.readouterr().out


@pytest.mark.parametrize("save", sorted(p.name for p in OLD.glob("*.json")))
def test_an_old_save_loads(save):
    data = json.loads((OLD / save).read_text(encoding="utf-8"))
    g = Game.load(OLD / save)  # replays the actions and compares the state
    # The whole state but what answered frames left above the decision stack's depth
    # (Game.live_state: no part of the game; the parts moved how an effect's table lays
    # out its ops, so a leftover frame's op numbers differ).
    assert g.history == data["actions"] and len(g.state) == len(data["state"])
    assert g.live_state() == g.live_state(data["state"])


# The base factions' steps that name programs, as the bundle's hash reads them: each with
# every parameter its program has a default for, as the per-step models dumped them when
# the records above were made (models.ProgramStep; its program's defaults, bundle.py).
PROGRAM_STEP_DUMPS = {
    # the setup steps and the new roost (Law 6.3.1, 7.3.1, 7.4.3), as their models dumped
    "marquise/setup/0": {"op": "setup_home_token", "token": "keep"},
    "eyrie/setup/0": {"op": "setup_home_corner", "building": "roost", "warriors": 6},
    "eyrie/birdsong/2": {"op": "place_if_none", "building": "roost", "warriors": 3},
    "marquise/setup/1": {"op": "setup_warriors_everywhere", "count": 1},
    "alliance/setup/0": {"op": "draw_to_zone", "zone": "supporters", "count": 3},
    "alliance/evening/1": {"op": "draw", "count": 1, "bonus_building": None,
                           "bonus_buildings": ["fox-base", "rabbit-base", "mouse-base"]},
    "eyrie/birdsong/0": {"op": "draw_if_hand_empty", "count": 1},
    "eyrie/evening/0": {"op": "score_track", "building": "roost"},
    "eyrie/evening/1": {"op": "draw", "count": 1, "bonus_building": "roost",
                        "bonus_buildings": []},
    "eyrie/hooks/turmoil/0": {"op": "lose_vp_per_column_card", "suit": "bird"},
    "eyrie/hooks/turmoil/1": {"op": "discard_columns"},
    "marquise/evening/0": {"op": "draw", "count": 1, "bonus_building": "recruiter",
                           "bonus_buildings": []},
}


def test_the_steps_naming_programs_hash_as_their_models_did():
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    got = {}
    for f in b.canonical()["factions"]:
        programs = [("setup", f["setup"]),
                    *((ph, f["turn"][ph]) for ph in ("birdsong", "daylight", "evening")),
                    *((f"hooks/{h}", steps) for h, steps in f["hooks"].items())]
        for where, steps in programs:
            for i, s in enumerate(steps):
                if s["op"] in b.programs:
                    got[f"{f['id']}/{where}/{i}"] = s
    assert got == PROGRAM_STEP_DUMPS
    # (the defaults are the program's: the files write fewer of them)
    assert b.faction("eyrie").turn.evening[1].fields() == {"count": 1,
                                                           "bonus_building": "roost"}
