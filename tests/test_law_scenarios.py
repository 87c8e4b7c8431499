"""The Law's rules as scenarios: tests/scenarios/<chapter>/*.json, each run on both cores.

A scenario is a position, decisions and what must hold after each step (docs/scenarios.md).
Besides passing, every scenario cites the Law, sits in its chapter's folder, expects
something, and every one of its expectations can fail: changed to a false value, the
scenario fails (a test that cannot fail is a defect).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.cli import main

FOLDER = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(FOLDER.rglob("*.json"))
IDS = [str(f.relative_to(FOLDER)) for f in FILES]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_law_scenario(path, core_kind):
    assert sc.run_file(path, pure=(core_kind == "pure")) == []


def test_there_are_law_scenarios_for_every_chapter_so_far():
    chapters = {f.parent.name for f in FILES}
    assert {"02-key-concepts", "03-victory", "04-key-actions", "06-marquise",
            "07-eyrie", "08-woodland-alliance"} <= chapters
    assert len(FILES) >= 150


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_a_law_scenario_cites_its_chapter_and_expects_something(path):
    data = load(path)
    sections = re.findall(r"\d+(?:\.\d+)*(?:\.[IVX]+)?", data.get("law", ""))
    assert sections, "a Law scenario names the sections it checks ('law')"
    chapter = str(int(path.parent.name.split("-")[0]))
    assert any(s.split(".")[0] == chapter for s in sections), \
        f"{path.parent.name}: cites {sections}"
    steps = data.get("steps", [{"expect": data.get("expect", {})}])
    assert any(s.get("expect") for s in steps), "a scenario with no expectation checks nothing"


def test_the_cli_runs_the_law_scenarios(capsys):
    rc = main(["scenario", str(FOLDER)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert out.splitlines()[-1] == f"{len(FILES)} passed, 0 failed"


# ---------------------------------------------------------------------- every expectation can fail


def _other_card(have: list[str], names: list[str]) -> str:
    return next(c for c in names if c not in have)


def _flip_list(v: list, pool: list[str]) -> list:
    """A list that differs: one item less, or one more."""
    return v[1:] if v else [pool[0]]


def _first(d: dict):
    k = next(iter(d))
    return k, d[k]


def mutate(key: str, v, g: Game, expect: dict) -> dict:
    """The expectations with `key` changed to a value that cannot hold if `v` holds."""
    out = copy.deepcopy(expect)
    cards = g.names["cards"]
    factions = g.factions
    if key in ("pieces", "crafted"):
        a, row = _first(v)
        b, n = _first(row)
        out[key][a][b] = n + 1 if n == 0 else n - 1
    elif key in ("supply", "out_of_game", "hand_size", "items", "vp"):
        a, n = _first(v)
        out[key][a] = n + 1 if n == 0 else n - 1
    elif key == "ruins":
        a, n = _first(v)
        out[key][a] = 1 - n
    elif key in ("deck_size",):
        out[key] = v + 1 if v == 0 else v - 1
    elif key in ("hands", "play_area"):
        a, lst = _first(v)
        out[key][a] = _flip_list(lst, [_other_card(lst, cards)])
    elif key == "columns":
        a, cols = _first(v)
        col, lst = _first(cols)
        out[key][a][col] = _flip_list(lst, [_other_card(lst, cards)])
    elif key == "zones":
        a, zones = _first(v)
        z, lst = _first(zones)
        out[key][a][z] = _flip_list(lst, [_other_card(lst, cards)])
    elif key == "boxes":
        a, boxes = _first(v)
        b, n = _first(boxes)
        out[key][a][b] = n + 1 if n == 0 else n - 1
    elif key == "used":
        a, lst = _first(v)
        out[key][a] = lst[1:] if lst else [g.names["effects"][0]]
    elif key in ("discard", "removed"):
        out[key] = _flip_list(v, [_other_card(v, cards)])
    elif key == "available_dominance":
        dom = [c for c in cards if c.endswith("-dominance") and c not in v]
        out[key] = v[1:] if v else dom[:1]
    elif key == "deck_top":
        out[key] = [_other_card(v, cards)] + v[1:]
    elif key == "dominance":
        a, c = _first(v)
        out[key][a] = None if c else "bird-dominance"
    elif key == "roles":
        a, r = _first(v)
        roles = g.names["roles"][g._seats[factions.index(a)]]
        out[key][a] = None if r else roles[0]
    elif key == "retired_roles":
        a, lst = _first(v)
        roles = g.names["roles"][g._seats[factions.index(a)]]
        out[key][a] = lst[1:] if lst else roles[:1]
    elif key in ("first_player", "to_play", "winner"):
        out[key] = next(f for f in factions if f != v) if v else factions[0]
    elif key == "rule":
        a, f = _first(v)
        out[key][a] = None if f else factions[0]
    elif key == "dice":
        out[key] = v[1:] if v else [[0, 0]]
    elif key == "turn":
        k, x = _first(v)
        if k == "faction":
            out[key][k] = next(f for f in factions if f != x)
        elif k == "phase":
            out[key][k] = "evening" if x != "evening" else "birdsong"
        elif k == "step":
            out[key][k] = "craft" if x != "craft" else "actions"
        else:
            out[key][k] = x + 1
    elif key == "counters":
        k, x = _first(v)
        if isinstance(x, bool):
            out[key][k] = not x
        elif isinstance(x, int):
            out[key][k] = x + 1
        else:
            a, y = _first(x)
            out[key][k][a] = (y + 1) if isinstance(y, int) else _flip_list(y, [cards[0]])
    elif key == "legal":
        out[key] = v[1:]
        out["not_legal"] = [v[0]] + expect.get("not_legal", [])
        if not out[key]:
            del out[key]
    elif key == "not_legal":
        out[key] = v[1:]
        out["legal"] = [v[0]] + expect.get("legal", [])
        if not out[key]:
            del out[key]
    elif key == "legal_exactly":
        out[key] = v[1:] if v else ["done"]
    elif key == "legal_starting_with":
        prefix, acts = _first(v)
        more = sorted(a for a in sc.expressible(g) if a.startswith(prefix) and a not in acts)
        out[key][prefix] = acts[1:] if acts else more[:1]
    elif key == "decision":
        out[key] = "actions" if v is None else ("march" if v != "march" else "ambush")
    else:
        raise AssertionError(f"no mutation for {key!r}: add one")
    return out


def _mutants(data: dict, g: Game):
    steps = data.get("steps")
    for i, s in enumerate(steps):
        for key, v in s.get("expect", {}).items():
            m = copy.deepcopy(data)
            m["steps"][i]["expect"] = mutate(key, v, g, s["expect"])
            yield f"/steps/{i}/expect/{key}", m


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_expectation_of_a_law_scenario_can_fail(path):
    data = load(path)
    g = Game(data.get("factions"), data.get("seed", 1))
    for where, mutant in _mutants(data, g):
        problems = sc.run_scenario(mutant)
        assert problems, f"{where}: a false expectation passes"
        assert not any("SCENARIO-INVALID" in p for p in problems), (where, problems)
