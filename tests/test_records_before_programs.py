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
    g = Game.load(OLD / save)  # replays the actions and compares the whole state
    assert g.history == data["actions"] and list(g.state) == data["state"]
