"""The example packs (examples/*/pack.json): each validates clean with --strict, its rules
scenarios pass on both cores, and the homebrew faction (examples/hedge-druids) plays:
300 seeded games against each base faction, in both seat orders and three at a table,
end with a winner; the conformance kit holds; its win rates against random opponents
stay neither hopeless nor dominant."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import example_bundle

from rootlaw.runtime import Game
from rootlaw.runtime.cli import main
from rootlaw.runtime.conformance import check_bundle
from rootlaw.runtime.scenario import run_file
from rootlaw.spec import Bundle

ROOT = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in (ROOT / "examples").glob("*/pack.json"))
DRUIDS = ROOT / "examples" / "hedge-druids"
SCENARIOS = [(pack, f) for pack in PACKS for f in sorted((pack / "scenarios").glob("*.json"))]


def bundle_of(pack: Path) -> Bundle:
    return example_bundle(pack.name)  # compiled before any game loads its core


def test_every_example_pack_has_scenarios():
    assert {p.name for p in PACKS} >= {"hedge-druids", "homebrew-map", "four-actions",
                                       "mire-toads", "lizard-cult", "keepers-in-iron",
                                       "corvid-conspiracy"}
    for pack in PACKS:
        assert any((pack / "scenarios").glob("*.json")), pack.name


@pytest.mark.parametrize("pack", PACKS, ids=[p.name for p in PACKS])
def test_example_packs_validate_clean_with_strict(capsys, pack):
    rc = main(["validate", "--strict", str(pack)])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith(f"ok: {pack} ") and "warning" not in out


@pytest.mark.parametrize("pack, path", SCENARIOS,
                         ids=[f"{p.name}/{f.stem}" for p, f in SCENARIOS])
def test_example_scenarios_pass_on_both_cores(pack, path, core_kind):
    assert run_file(path, bundle=bundle_of(pack), pure=core_kind == "pure") == []


@pytest.mark.parametrize("pack, prefix", [("hedge-druids", "D"), ("mire-toads", "T"),
                                          ("lizard-cult", "10"), ("keepers-in-iron", "15"),
                                          ("corvid-conspiracy", "13")])
def test_a_homebrew_faction_s_scenarios_cover_its_rules(pack, prefix):
    """Every numbered rule of the pack README's own section (D: the druids, T: the
    toads; 10, 13 and 15: the Lizard Cult's, the Corvids' and the Keepers' sections of
    the Law) is cited by a scenario."""
    import json
    import re

    readme = (ROOT / "examples" / pack / "README.md").read_text(encoding="utf-8")
    rules = set(re.findall(rf"\*\*({prefix}\.\d+\.\d+)\*\*", readme))
    cited = set()
    for f in (ROOT / "examples" / pack / "scenarios").glob("*.json"):
        cited |= set(re.findall(rf"{prefix}\.\d+\.\d+", json.loads(f.read_text())["law"]))
    assert rules and rules <= cited, sorted(rules - cited)


TABLES = [("druids", "marquise"), ("marquise", "druids"), ("druids", "eyrie"),
          ("eyrie", "druids"), ("druids", "alliance"), ("alliance", "druids"),
          ("druids", "marquise", "eyrie"), ("druids", "marquise", "alliance"),
          ("alliance", "eyrie", "druids"), ("druids", "marquise", "eyrie", "alliance")]


@pytest.mark.parametrize("factions", TABLES, ids=["-".join(t) for t in TABLES])
def test_300_seeded_games_end_with_a_winner(factions):
    """As `rootlaw play --pack examples/hedge-druids --factions ... --games 300`: random
    agents seeded by the game's seed, on the compiled core."""
    b = bundle_of(DRUIDS)
    wins = dict.fromkeys(factions, 0)
    for seed in range(1, 301):
        g = Game(list(factions), seed, bundle=b, pure=False)
        assert g.compiled
        g.playout(seed)
        assert g.is_over and g.winner_faction is not None, seed
        wins[g.winner_faction] += 1
    assert all(wins.values()), wins  # everybody wins some


def win_rate(b: Bundle, factions: list[str], games: int = 300) -> float:
    """Of the first faction, over seeds 1..games (as rootlaw simulate --seed 1)."""
    won = 0
    for seed in range(1, games + 1):
        g = Game(factions, seed, bundle=b, pure=False)
        g.playout(seed)
        won += g.winner_faction == factions[0]
    return won / games


@pytest.mark.parametrize("opponent", ["marquise", "eyrie"])
def test_the_druids_are_neither_hopeless_nor_dominant_against_random_play(opponent):
    """Balance against random opponents (rootlaw simulate --games 300 --seed 1): the win
    rate stays between 35% and 65% (README: the figures and how they were tuned)."""
    assert 0.35 <= win_rate(bundle_of(DRUIDS), ["druids", opponent]) <= 0.65


def test_against_the_alliance_the_druids_do_better_than_the_base_factions():
    """Random Alliance players beat random Marquise and Eyrie players most of the time;
    the druids fare better than either against it, on the same seeds, and still win
    more than one game in five."""
    b = bundle_of(DRUIDS)
    druids = win_rate(b, ["druids", "alliance"])
    assert druids >= 0.2
    assert druids > win_rate(b, ["eyrie", "alliance"]) > win_rate(b, ["marquise", "alliance"])


def test_the_conformance_kit_holds_for_the_druids():
    """rootlaw check --pack examples/hedge-druids: invariants after every decision of
    random games (every faction of the bundle), both cores agree, the scenarios pass."""
    rep = check_bundle(bundle_of(DRUIDS), games=6, agreement=2,
                       scenario_paths=[DRUIDS / "scenarios"])
    assert rep.ok, rep.failures[:5]
    assert rep.winners == 6 and rep.agreement_games == 2 and rep.scenarios >= 6


def test_the_readable_log_shows_the_season(capsys):
    assert main(["play", "--pack", str(DRUIDS), "--factions", "druids,marquise",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "-- turn 2: druids (wheel: spring)" in out
    assert "-- turn 4: druids (wheel: summer)" in out
    assert "-- turn 1: marquise\n" in out


# ---- the Mire Toads (examples/mire-toads): a faction written as data only, on parts no
# base faction uses (a pile taking every discard, revealed cards, replace, own verbs)

TOADS = ROOT / "examples" / "mire-toads"


def test_the_toads_are_written_in_data_only():
    """The pack holds data only (a faction and a library, no code), and the engine's
    code names none of it (the repo-wide check of tests/test_repo.py covers names of
    the base game; this one the toads' own)."""
    assert sorted(p.name for p in TOADS.iterdir() if p.is_file()) == [
        "README.md", "pack.json", "rites.json", "toads.json"]
    import re

    words = re.compile(r"\b(toads?|mire|croaks?|wallow)\b")
    for folder in ("spec", "generator", "runtime"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".j2", ".in") and "content" not in path.parts:
                found = words.findall(path.read_text(encoding="utf-8").lower())
                assert not found, (path, found)


TOAD_TABLES = [("mire-toads", "marquise"), ("marquise", "mire-toads"),
               ("mire-toads", "eyrie"), ("alliance", "mire-toads"),
               ("mire-toads", "marquise", "eyrie"), ("alliance", "eyrie", "mire-toads")]


@pytest.mark.parametrize("factions", TOAD_TABLES, ids=["-".join(t) for t in TOAD_TABLES])
def test_100_seeded_toad_games_end_with_a_winner(factions):
    """As `rootlaw play --pack examples/mire-toads --factions ... --games 100`: random
    agents seeded by the game's seed, on the compiled core; both seat orders."""
    b = bundle_of(TOADS)
    wins = dict.fromkeys(factions, 0)
    for seed in range(1, 101):
        g = Game(list(factions), seed, bundle=b, pure=False)
        assert g.compiled
        g.playout(seed)
        assert g.is_over and g.winner_faction is not None, seed
        wins[g.winner_faction] += 1
    assert wins["mire-toads"] > 0, wins
