"""The `rootlaw` command line, called in process (`main([...])`) and, for what only a
separate process shows (environment variables, tracebacks), as a subprocess."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rootlaw.generator import build as gbuild
from rootlaw.runtime import Game
from rootlaw.runtime.cli import main
from rootlaw.spec import resolve

DATA = Path(__file__).resolve().parent / "data"
SCENARIOS = DATA / "scenarios"

WINNER = re.compile(r"^winner: (\S+) seed=(\d+) turns=(\d+) decisions=(\d+) vp: (.*)$")
DECISION = re.compile(r"^  \[(setup|birdsong|daylight|evening)\] (\S+): (.+?)   \(vp ([\d-]+)\)$")
HEADER = re.compile(r"^-- turn (\d+): (\S+)$")
EVENT = re.compile(r"^      \S")  # what a decision set off (runtime/events.py), under it


def run(capsys, *argv) -> tuple[int, str, str]:
    """main(argv) in process; a traceback (an escaping exception) fails the test."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001 - the point is that nothing escapes
        pytest.fail(f"`rootlaw {' '.join(map(str, argv))}` raised {e!r} instead of "
                    f"reporting an error")
    out, err = capsys.readouterr()
    return rc, out, err


def cli_subprocess(*argv, env_extra=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "rootlaw.runtime.cli", *map(str, argv)],
                          env=env, capture_output=True, text=True, timeout=120, check=False)


# ---------------------------------------------------------------------- play


def test_play_prints_a_turn_by_turn_log_ending_with_the_winner(capsys):
    rc, out, err = run(capsys, "play", "--factions", "marquise,eyrie", "--seed", "7")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("rootlaw game: marquise, eyrie seed 7 ")
    assert lines[-1].startswith("winner: ")
    m = WINNER.match(lines[-1])
    assert m, lines[-1]
    winner, seed, turns, decisions, vp = m.groups()
    assert seed == "7"
    scores = dict(kv.split("=") for kv in vp.split())
    assert set(scores) == {"marquise", "eyrie"}
    assert winner in scores and int(scores[winner]) == max(map(int, scores.values()))
    assert int(scores[winner]) >= 30  # Law 3.1
    moves = [DECISION.match(x) for x in lines if x.startswith("  [")]
    assert all(moves), [x for x in lines if x.startswith("  [") and not DECISION.match(x)][:3]
    assert len(moves) == int(decisions)
    assert moves[-1].group(4) == "-".join(scores[f] for f in ("marquise", "eyrie"))
    headers = [HEADER.match(x) for x in lines if x.startswith("-- turn")]
    assert headers and all(headers)
    assert max(int(h.group(1)) for h in headers) == int(turns)
    # Every line is a header, a decision, what a decision set off (indented under it),
    # or one of the first two / the last line.
    assert all(HEADER.match(x) or DECISION.match(x) or EVENT.match(x) for x in lines[2:-1])
    assert sum(1 for x in lines if EVENT.match(x)) > len(moves) // 2


def test_play_is_deterministic(capsys):
    a = run(capsys, "play", "--seed", "7", "--factions", "marquise,eyrie")
    b = run(capsys, "play", "--seed", "7", "--factions", "marquise,eyrie")
    assert a == b


def test_play_turn_headers_match_the_turns_of_the_decisions(capsys, tmp_path):
    # Each "-- turn N: F" header comes once, in order, before the first decision of turn
    # N, and F is the faction taking that turn (it makes the turn's first decision); only
    # what that turn's automatic steps set off (Birdsong's wood ...) comes between.
    log = tmp_path / "g.jsonl"
    rc, out, err = run(capsys, "play", "--factions", "marquise,eyrie", "--seed", "7",
                       "--log", log)
    assert rc == 0, err
    records = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    expected = []
    for r in records:
        if r["type"] == "decision" and r["phase"] != "setup" and (
                not expected or expected[-1][0] != r["turn"]):
            expected.append((r["turn"], r["faction"]))
    printed = [(int(m.group(1)), m.group(2)) for m in map(HEADER.match, out.splitlines()) if m]
    assert printed == expected, "first differing header: " + next(
        (f"printed {p}, expected {e}" for p, e in zip(printed, expected, strict=False) if p != e),
        f"{len(printed)} headers printed, {len(expected)} expected")
    lines = out.splitlines()
    for i, x in enumerate(lines):
        h = HEADER.match(x)
        if h:
            j = i + 1
            while EVENT.match(lines[j]):
                j += 1
            d = DECISION.match(lines[j])
            assert d and d.group(2) == h.group(2), f"line {j + 1}: {lines[j]!r} after {x!r}"


def test_play_quiet_prints_one_line_per_game(capsys):
    rc, out, err = run(capsys, "play", "--games", "3", "--quiet", "--seed", "4")
    assert rc == 0, err
    lines = out.splitlines()
    games = [x for x in lines if x.startswith("game ")]
    assert len(games) == 3
    for i, x in enumerate(games):
        assert x.startswith(f"game {i + 1}: winner: ")
        assert "winner" in x and f"seed={4 + i}" in x
        assert WINNER.match(x.split(": ", 1)[1])
    assert lines[-1].startswith("wins: ")
    assert sum(int(kv.split("=")[1]) for kv in lines[-1][6:].split(", ")) == 3
    assert len(lines) == 4


def test_play_json_summarises_the_same_games_as_quiet(capsys):
    """A balance check: --json sums up exactly the games --quiet lists, one per seed."""
    rc, quiet, err = run(capsys, "play", "--games", "12", "--quiet", "--seed", "3")
    assert rc == 0, err
    rc, out, err = run(capsys, "play", "--games", "12", "--json", "--seed", "3")
    assert rc == 0, err
    summary = json.loads(out)
    rows = [WINNER.match(x.split(": ", 1)[1]) for x in quiet.splitlines()
            if x.startswith("game ")]
    assert summary["games"] == 12 and summary["seeds"] == [3, 14]
    assert summary["factions"] == ["marquise", "eyrie", "alliance"]  # the bundle's
    winners = [r.group(1) for r in rows]
    assert summary["wins"] == {f: winners.count(f) for f in ("marquise", "eyrie", "alliance")}
    assert summary["no_winner"] == 0
    # Counts, not rounded shares (5, 5 and 2 wins of 12 round to shares summing to 1.0001):
    # every game has one winner or none, and each rate is its count's share, rounded.
    assert sum(summary["wins"].values()) + summary["no_winner"] == summary["games"]
    assert summary["win_rate"] == {f: round(n / 12, 4) for f, n in summary["wins"].items()}
    assert 0.0 <= summary["first_player_win_rate"] <= 1.0
    turns = [int(re.search(r"turns=(\d+)", x).group(1)) for x in quiet.splitlines()
             if x.startswith("game ")]
    assert summary["mean_turns"] == pytest.approx(sum(turns) / 12, abs=0.01)


def test_play_quiet_agrees_with_the_verbose_game(capsys):
    # The fast path (whole game in the core) and the decision-by-decision path agree.
    _, quiet, _ = run(capsys, "play", "--quiet", "--seed", "7", "--factions", "marquise,eyrie")
    _, verbose, _ = run(capsys, "play", "--seed", "7", "--factions", "marquise,eyrie")
    assert quiet.splitlines()[0] == "game 1: " + verbose.splitlines()[-1]


@pytest.mark.parametrize("factions, code", [
    ("marquise,cats", "REF-UNDEF"),
    ("marquise", "VALUE-INVALID"),
    ("marquise,marquise", "VALUE-INVALID"),
])
def test_bad_factions_are_a_clear_error(capsys, factions, code):
    rc, out, err = run(capsys, "play", "--factions", factions)
    assert rc == 1
    assert out == ""
    assert err.startswith(f"rootlaw: {code}: ")
    if "cats" in factions:
        assert "unknown faction 'cats'" in err and "marquise" in err and "eyrie" in err
    assert "Traceback" not in err


def test_unknown_faction_in_a_subprocess_has_no_traceback():
    p = cli_subprocess("play", "--factions", "marquise,cats")
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.strip() == ("rootlaw: REF-UNDEF: unknown faction 'cats' (known: "
                                + ", ".join(f.id for f in resolve().factions) + ")")


def test_log_takes_one_game(capsys, tmp_path):
    rc, _, err = run(capsys, "play", "--games", "2", "--log", tmp_path / "g.jsonl")
    assert rc == 1 and "VALUE-INVALID" in err
    assert not (tmp_path / "g.jsonl").exists()


# ---------------------------------------------------------------------- info, schema, bench


def test_info_says_which_core_runs(capsys):
    rc, out, err = run(capsys, "info")
    assert rc == 0, err
    lines = out.splitlines()
    cores = [x for x in lines if x.startswith("core: ")]
    assert cores in (["core: compiled"], ["core: pure"])
    assert cores == [f"core: {'compiled' if Game().compiled else 'pure'}"]
    assert f"bundle: {resolve().hash}" in lines
    assert "packs: base" in lines


def test_info_counts_the_deck_and_the_factions_own_cards(capsys):
    """Issue 15: info said 56 cards where the deck holds 54: the 2 more are the Eyrie's
    Loyal Viziers.  Both counts are said, each for what it is."""
    rc, out, err = run(capsys, "info")
    assert rc == 0, err
    lines = out.splitlines()
    assert ("deck: standard, 54 cards (5 ambush, 20 item, 22 persistent, 3 immediate, "
            "4 dominance)") in lines
    assert "faction cards: 2 (eyrie: 2 loyal-vizier); 56 cards in the game" in lines


def test_the_readme_agrees_with_rootlaw_info(capsys):
    """What the README says of the base content, checked against `rootlaw info`: the
    deck's size and split, the factions' own cards, the game's total, the factions."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    flat = " ".join(readme.split())
    rc, out, err = run(capsys, "info")
    assert rc == 0, err
    info = {k: v for k, _, v in (ln.partition(": ") for ln in out.splitlines())}
    m = re.fullmatch(r"standard, (\d+) cards \((.*)\)", info["deck"])
    assert m, info["deck"]
    split = {kind: int(n) for n, kind in (x.split(" ") for x in m.group(2).split(", "))}
    r = re.search(r"the standard (\d+)-card deck \((\d+) item, (\d+) persistent, (\d+) ambush, "
                  r"(\d+) immediate and (\d+) dominance cards\)", flat)
    assert r, "the README no longer describes the deck"
    assert int(r.group(1)) == int(m.group(1)) == sum(split.values())
    assert [int(x) for x in r.groups()[1:]] == \
        [split[k] for k in ("item", "persistent", "ambush", "immediate", "dominance")]
    own = re.fullmatch(r"(\d+) \((.*)\); (\d+) cards in the game", info["faction cards"])
    assert own, info["faction cards"]
    assert f"its own {own.group(1)} Loyal Viziers" in flat
    assert f"a game tracks {own.group(3)} cards" in flat
    assert int(own.group(3)) == int(m.group(1)) + int(own.group(1))
    factions = info["factions"].split(", ")
    assert "Any two or three of the base game's three factions" in flat and len(factions) == 3
    assert " ".join(f"`{f}`," for f in factions[:2]) + f" `{factions[2]}`" in flat
    # A fourth seat needs a pack: the README's four-seat example plays.
    four = re.search(r"`rootlaw play --pack (\S+) --factions (\S+) --seed 7`", flat)
    assert four and len(four.group(2).split(",")) == 4
    rc, out, err = run(capsys, "play", "--pack", four.group(1), "--factions", four.group(2),
                       "--seed", "7", "--quiet", "--max-decisions", "200")
    assert rc == 0, err
    rc, out, err = run(capsys, "play", "--factions", ",".join([*factions, factions[0]]),
                       "--seed", "7", "--quiet")
    assert rc == 1 and "can only be seated once" in err
    # The compile time the README states is the one the notice states.
    from rootlaw.runtime.core import COMPILE_NOTICE
    assert "about 30 s on an idle 2-core machine" in COMPILE_NOTICE
    assert "about 30 s on an idle two-core machine" in flat


def test_info_with_rootlaw_pure_says_pure():
    p = cli_subprocess("info", env_extra={"ROOTLAW_PURE": "1"})
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "core: pure" in lines
    assert any(x.startswith("core origin: ") and "ROOTLAW_PURE" in x for x in lines)


def test_schema_check_is_ok(capsys):
    rc, out, _ = run(capsys, "schema", "--check")
    assert rc == 0
    assert out.startswith("ok: ") and out.rstrip().endswith("is up to date")



@pytest.fixture(scope="module")
def compiled_base():
    """The base game's core built (or waited for) before a bench: while another test
    process builds it, the bench would measure the pure path it falls back to."""
    gbuild.compile_core(resolve([]))

@pytest.mark.usefixtures("compiled_base")
def test_bench_json_structure(capsys):
    rc, out, err = run(capsys, "bench", "--json", "--games", "2", "--min-seconds", "0.1")
    assert rc == 0, err
    r = json.loads(out)
    assert r["games"] == 2 and r["bundle"] == resolve().hash
    assert r["compiled"] is not None, "bench ran without the compiled core"
    for path in ("compiled", "pure"):
        assert r[path]["decisions_per_s"] > 0
        assert r[path]["games_per_s"] > 0
        assert r[path]["decisions"] > 0 and r[path]["games"] >= 2
    assert r["speedup"] > 0
    assert r["speedup"] == pytest.approx(
        r["compiled"]["decisions_per_s"] / r["pure"]["decisions_per_s"])
    # Same seeded games on both cores: each core repeats them `rounds` times.
    assert r["pure"]["games"] == 2 * r["pure"]["rounds"]
    assert r["pure"]["decisions"] == r["pure"]["round_decisions"] * r["pure"]["rounds"]
    assert r["compiled"]["games"] == 2 * r["compiled"]["rounds"]
    assert r["compiled"]["decisions"] == \
        r["pure"]["round_decisions"] * r["compiled"]["rounds"]


@pytest.mark.usefixtures("compiled_base")
def test_bench_against_another_build_alternates_and_reports_the_ratio(capsys):
    """Issue 12: speed 'measured before and after alternately in one run and reported by
    rootlaw bench': --against another build's core of the same rules."""
    from rootlaw.runtime.core import load_core

    core = load_core(resolve(), pure=False)
    assert core.compiled, "bench ran without the compiled core"
    path = core.module.__file__  # a build of the same rules: this one
    rc, out, err = run(capsys, "bench", "--json", "--games", "2", "--min-seconds", "0",
                       "--rounds", "2", "--no-agents", "--no-pettingzoo", "--against", path,
                       "--factions", "marquise,eyrie", "--factions", "marquise,eyrie,alliance")
    assert rc == 0, err
    vs = json.loads(out)["against"]
    assert vs["path"] == path and [w["factions"] for w in vs["workloads"]] == \
        [["marquise", "eyrie"], ["marquise", "eyrie", "alliance"]]
    for w in vs["workloads"]:
        assert w["rounds"] >= 2 and w["timer"] == f"CPU time, best of {w['rounds']} rounds"
        assert w["same_games"] and w["this"]["decisions"] == w["other"]["decisions"] > 0
        assert w["ratio"] == pytest.approx(
            w["this"]["decisions_per_s"] / w["other"]["decisions_per_s"])
    rc, out, err = run(capsys, "bench", "--games", "1", "--min-seconds", "0", "--rounds", "1",
                       "--no-agents", "--no-pettingzoo", "--against", path)
    assert rc == 0 and re.search(r"against .* \(2 players\): this build \d+ decisions/s, "
                                 r"that one \d+: x\d\.\d{3} \(compiled playouts in "
                                 r"alternating rounds", out), out


@pytest.mark.usefixtures("compiled_base")
def test_bench_against_refuses_a_missing_file_or_a_core_of_other_rules(capsys, tmp_path):
    from conftest import example_bundle

    from rootlaw.generator import build as gbuild

    rc, out, err = run(capsys, "bench", "--against", str(tmp_path / "none.so"))
    assert rc != 0 and "FILE-MISSING" in err and "none.so: no such file" in err
    rc, out, err = run(capsys, "bench", "--against", str(tmp_path))
    assert rc != 0 and "FILE-MISSING" in err and "found 0" in err
    other = gbuild.compiled_path(example_bundle("four-actions"))  # compiled: other rules
    rc, out, err = run(capsys, "bench", "--against", str(other))
    assert rc != 0 and "VALUE-INVALID" in err and "a core of other rules" in err, err


@pytest.mark.usefixtures("compiled_base")
def test_bench_measures_every_figure_alike_and_says_how(capsys):
    """Issue 15: the playouts were wall time and the API CPU time, and nothing said so.
    Every figure is now the best round of CPU time, and says so with what it timed."""
    rc, out, err = run(capsys, "bench", "--json", "--games", "2", "--min-seconds", "0",
                       "--rounds", "2")
    assert rc == 0, err
    r = json.loads(out)
    assert r["timer"] == "CPU time, best of 2 rounds"
    for w in r["workloads"]:
        for path in ("compiled", "pure"):
            f = w[path]
            assert f["rounds"] >= 2 and f["timer"] == f"CPU time, best of {f['rounds']} rounds"
            assert "Core.playout" in f["timed"]
            # The rate is one round's decisions over the best round's CPU seconds.
            assert f["round_games"] == 2
            assert f["decisions_per_s"] == pytest.approx(f["round_decisions"] / f["seconds"],
                                                         rel=1e-3)
        assert w["compiled"]["round_decisions"] == w["pure"]["round_decisions"]
    assert r["api"]["timer"] == "CPU time, best of 2 rounds"
    assert "legal_actions()" in r["api"]["python_loop"]["timed"]
    if "skipped" not in r["pettingzoo"]:
        assert r["pettingzoo"]["timer"] == "CPU time, best of 2 rounds"

    rc, out, err = run(capsys, "bench", "--games", "2", "--min-seconds", "0", "--rounds", "2")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("every figure: the CPU time (time.process_time) of one round")
    figures = [ln for ln in lines if re.search(r"decisions/s|us/decision| us,", ln)
               and not ln.startswith("speedup")]
    assert len(figures) >= 6
    for ln in figures:  # each line: its unit, its clock, what it timed
        assert re.search(r"; CPU time, best of \d+ rounds\)", ln), ln
    assert all(re.search(r"\(Core\.playout of 2 seeded games", ln)
               for ln in figures if "playout:" in ln)


@pytest.mark.usefixtures("compiled_base")
def test_bench_measures_two_and_three_player_workloads(capsys):
    """By default the bundle's first two factions and its first three (Issue 6: a
    three-player workload); --factions names workloads, the first one is top-level."""
    rc, out, err = run(capsys, "bench", "--json", "--games", "2", "--min-seconds", "0",
                       "--rounds", "1", "--no-pettingzoo")
    assert rc == 0, err
    r = json.loads(out)
    ids = [f.id for f in resolve().factions]
    assert [w["factions"] for w in r["workloads"]] == [ids[:2], ids[:3]]
    assert r["factions"] == ids[:2] and r["compiled"] == r["workloads"][0]["compiled"]
    for w in r["workloads"]:
        assert w["compiled"]["decisions"] > 0 and w["pure"]["games"] == 2
        assert w["speedup"] == pytest.approx(
            w["compiled"]["decisions_per_s"] / w["pure"]["decisions_per_s"])
    rc, out, err = run(capsys, "bench", "--json", "--games", "1", "--min-seconds", "0",
                       "--rounds", "1", "--no-pettingzoo", "--factions", "eyrie,alliance",
                       "--factions", "alliance,eyrie,marquise")
    assert rc == 0, err
    r = json.loads(out)
    assert [w["factions"] for w in r["workloads"]] == [["eyrie", "alliance"],
                                                       ["alliance", "eyrie", "marquise"]]
    assert r["factions"] == ["eyrie", "alliance"]


@pytest.mark.usefixtures("compiled_base")
def test_bench_reports_the_python_api(capsys):
    """The Python API's figures: the loop, one call of each fast path, and the PettingZoo
    loop against the plain one (numbers here are only checked to be there: no timed
    tests)."""
    rc, out, err = run(capsys, "bench", "--json", "--games", "1", "--min-seconds", "0",
                       "--rounds", "1")
    assert rc == 0, err
    api = json.loads(out)["api"]
    assert api["core"] == "compiled" and api["positions"] > 50
    loop = api["python_loop"]
    assert loop["decisions"] > 0 and loop["decisions_per_s"] > 0 and loop["us_per_decision"] > 0
    for call in ("legal_actions_us", "observation_vector_us", "observation_vector_new_us",
                 "mask_us", "clone_us", "clone_core_us"):
        assert api[call] > 0, call
    spiel = json.loads(out)["openspiel"]
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert "rl extra" in spiel["skipped"]
    else:  # its loop against the python loop's decisions/s, timed alike
        assert spiel["timer"] == "CPU time, best of 1 round"
        assert "apply_action()" in spiel["timed"] and spiel["loop"]["decisions"] > 0
        assert spiel["of_plain"] == pytest.approx(
            spiel["loop"]["decisions_per_s"] / loop["decisions_per_s"], abs=1e-3)
    pz = json.loads(out)["pettingzoo"]
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        assert "rl extra" in pz["skipped"]
    else:  # the same seeded games through both: the same decisions
        assert pz["aec_over_plain"] > 0
        assert pz["aec"]["decisions"] == pz["aec_no_observation"]["decisions"] == \
            pz["aec_fresh_observations"]["decisions"] == pz["plain"]["decisions"] == \
            loop["decisions"]


@pytest.mark.usefixtures("compiled_base")
def test_bench_text_output(capsys):
    rc, out, err = run(capsys, "bench", "--games", "1", "--min-seconds", "0", "--rounds", "1",
                       "--no-pettingzoo")
    assert rc == 0, err
    assert re.search(r"^pure playout: \d+ decisions/s, [\d.]+ games/s \(Core.playout of 1 seeded "
                     r"games, \d+ decisions; CPU time, best of 1 round\)$", out, re.M)
    assert re.search(r"^-- 3 players: ", out, re.M)
    assert re.search(r"^python loop \(compiled core\): \d+ decisions/s, [\d.]+ us/decision",
                     out, re.M)
    assert re.search(r"^per call \(us per call, averaged over the \d+ positions of one game; "
                     r"CPU time, best of 1 round\): legal_actions [\d.]+ us, "
                     r"observation_vector [\d.]+ us \(new array [\d.]+ us\), mask [\d.]+ us, "
                     r"clone [\d.]+ us \(core [\d.]+ us\)$", out, re.M)
    assert "pettingzoo: skipped (not asked (--no-pettingzoo))" in out
    assert "openspiel: skipped (not asked (--no-pettingzoo))" in out


# ---------------------------------------------------------------------- logs and replays


@pytest.fixture(scope="module")
def game_log(tmp_path_factory) -> Path:
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["play", "--seed", "7", "--factions", "marquise,eyrie",
                     "--log", str(log)]) == 0
    assert out.getvalue().splitlines()[-1].startswith("winner: ")
    return log


def records(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]


def test_the_log_is_json_lines_header_decisions_result(game_log):
    recs = records(game_log)
    assert recs[0]["type"] == "header" and recs[0]["seed"] == 7
    assert recs[0]["factions"] == ["marquise", "eyrie"]
    assert recs[0]["bundle"] == resolve().hash
    assert recs[-1]["type"] == "result"
    decisions = recs[1:-1]
    assert all(r["type"] == "decision" for r in decisions)
    assert [r["i"] for r in decisions] == list(range(len(decisions)))
    assert recs[-1]["decisions"] == len(decisions)
    assert recs[-1]["vp"] == decisions[-1]["vp"]
    assert not [p for p in game_log.parent.iterdir() if p != game_log], "temp files left"


def test_play_log_then_replay_succeeds(capsys, game_log):
    rc, out, err = run(capsys, "replay", game_log)
    assert rc == 0, err
    winner = records(game_log)[-1]["winner"]
    n = records(game_log)[-1]["decisions"]
    assert out.strip() == (f"ok: {game_log} replays to the same end: winner: {winner} "
                           f"({n} decisions)")


def _tamper(src: Path, dst: Path, n: int, change) -> Path:
    """Copy a log, changing its n-th line (1-based) with change(record) -> str."""
    lines = src.read_text(encoding="utf-8").splitlines()
    lines[n - 1] = change(json.loads(lines[n - 1]))
    dst.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dst


def _other_legal_notation(log: Path, n: int) -> str:
    """A notation legal at the log's n-th line, other than the one the log took."""
    recs = records(log)
    g = Game(recs[0]["factions"], recs[0]["seed"])
    for r in recs[1:n - 1]:
        g.apply(r["action"])
    taken = recs[n - 1]["notation"]
    others = [t for t in g.legal() if t != taken]
    assert others, "pick a line with a choice"
    return others[0]


def _first_choice_line(log: Path) -> int:
    recs = records(log)
    g = Game(recs[0]["factions"], recs[0]["seed"])
    for n, r in enumerate(recs[1:-1], 2):
        if n > 20 and len(g.legal_actions()) > 1:
            return n
        g.apply(r["action"])
    raise AssertionError("no choice in the log")


TAMPERS = {
    "vp": lambda r: json.dumps({**r, "vp": [v + 5 for v in r["vp"]]}),
    "action": lambda r: json.dumps({**r, "action": r["action"] + 1}),
    "not-json": lambda r: json.dumps(r)[:-7],
    "unknown-type": lambda r: json.dumps({**r, "type": "decisoin"}),
}


@pytest.mark.parametrize("kind", sorted(TAMPERS))
def test_a_tampered_log_is_a_located_error(capsys, game_log, tmp_path, kind):
    n = _first_choice_line(game_log)
    bad = _tamper(game_log, tmp_path / "bad.jsonl", n, TAMPERS[kind])
    rc, out, err = run(capsys, "replay", bad)
    assert rc == 1
    assert out == ""
    code = "LOG-INVALID" if kind in ("not-json", "unknown-type") else "LOG-DIVERGED"
    assert err.startswith(f"rootlaw: {bad}:{n}: {code}: "), err


def test_a_log_taking_another_legal_decision_diverges(capsys, game_log, tmp_path):
    n = _first_choice_line(game_log)
    other = _other_legal_notation(game_log, n)
    bad = _tamper(game_log, tmp_path / "bad.jsonl", n,
                  lambda r: json.dumps({**r, "notation": other}))
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1
    assert err.startswith(f"rootlaw: {bad}:{n}: LOG-DIVERGED: ")


def test_a_log_with_a_changed_winner_diverges_at_the_result_line(capsys, game_log, tmp_path):
    recs = records(game_log)
    loser = next(f for f in recs[0]["factions"] if f != recs[-1]["winner"])
    bad = _tamper(game_log, tmp_path / "bad.jsonl", len(recs),
                  lambda r: json.dumps({**r, "winner": loser}))
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1
    assert "LOG-DIVERGED" in err
    assert err.startswith(f"rootlaw: {bad}:{len(recs)}: LOG-DIVERGED: "), err


def test_a_log_whose_result_claims_a_stop_diverges(capsys, game_log, tmp_path):
    recs = records(game_log)
    bad = _tamper(game_log, tmp_path / "bad.jsonl", len(recs),
                  lambda r: json.dumps({**r, "stopped": True}))
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1 and err.startswith(f"rootlaw: {bad}:{len(recs)}: LOG-DIVERGED: "), err


def test_a_log_cut_before_its_result_line_is_invalid(capsys, game_log, tmp_path):
    lines = game_log.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "cut.jsonl"
    bad.write_text("\n".join(lines[:50] + lines[-1:]) + "\n", encoding="utf-8")
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1 and "LOG-INVALID" in err and "goes on after the last decision" in err


def test_a_stopped_game_log_replays(capsys, tmp_path):
    log = tmp_path / "cap.jsonl"
    rc, _, err = run(capsys, "play", "--seed", "2", "--max-decisions", "30", "--quiet",
                     "--log", log)
    assert rc == 0, err
    assert records(log)[-1]["stopped"] is True and records(log)[-1]["winner"] is None
    rc, out, err = run(capsys, "replay", log)
    assert rc == 0, err
    assert "(30 decisions)" in out


def test_a_truncated_log_does_not_replay_ok(capsys, game_log, tmp_path):
    lines = game_log.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "cut.jsonl"
    bad.write_text("\n".join(lines[:50]) + "\n", encoding="utf-8")  # no result line
    rc, out, err = run(capsys, "replay", bad)
    assert rc == 1, f"a log cut after 49 decisions replays as ok: {out.strip()}"
    assert "LOG-INVALID" in err and str(bad) in err


@pytest.mark.parametrize("drop", ["seed", "factions"])
def test_a_log_header_missing_a_key_is_log_invalid(capsys, game_log, tmp_path, drop):
    bad = _tamper(game_log, tmp_path / "bad.jsonl", 1,
                  lambda r: json.dumps({k: v for k, v in r.items() if k != drop}))
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1
    assert err.startswith(f"rootlaw: {bad}:1: LOG-INVALID: "), err


def test_a_log_of_another_bundle_is_log_bundle(capsys, game_log, tmp_path):
    bad = _tamper(game_log, tmp_path / "bad.jsonl", 1,
                  lambda r: json.dumps({**r, "bundle": "0" * 16}))
    rc, _, err = run(capsys, "replay", bad)
    assert rc == 1
    assert err.startswith(f"rootlaw: {bad}:1: LOG-BUNDLE: ")


def test_a_missing_log_is_log_invalid(capsys, tmp_path):
    rc, _, err = run(capsys, "replay", tmp_path / "nope.jsonl")
    assert rc == 1 and "LOG-INVALID" in err and "nope.jsonl" in err


def test_a_tampered_log_in_a_subprocess_exits_1_without_traceback(game_log, tmp_path):
    n = _first_choice_line(game_log)
    bad = _tamper(game_log, tmp_path / "bad.jsonl", n, TAMPERS["vp"])
    p = cli_subprocess("replay", bad)
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    assert p.stderr.startswith(f"rootlaw: {bad}:{n}: LOG-DIVERGED: ")


# ---------------------------------------------------------------------- scenarios


def test_scenario_passes(capsys):
    rc, out, err = run(capsys, "scenario", SCENARIOS / "ok")
    assert rc == 0, out + err
    lines = out.splitlines()
    assert lines[0] == f"ok   {SCENARIOS / 'ok' / 'march.json'}"
    assert lines[-1] == "1 passed, 0 failed"


def test_scenario_pure_runs_the_pure_core(capsys, monkeypatch):
    """--pure runs each scenario on the pure-Python core (as play --pure does); without
    it, the core the bundle has."""
    from rootlaw.runtime import scenario as scenario_module
    seen = []
    real = scenario_module.Game

    def game(*args, **kw):
        g = real(*args, **kw)
        seen.append(g.compiled)
        return g

    monkeypatch.setattr(scenario_module, "Game", game)
    rc, out, err = run(capsys, "scenario", "--pure", SCENARIOS / "ok")
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "1 passed, 0 failed"
    assert seen == [False]
    from rootlaw.generator import build as gbuild
    from rootlaw.runtime.game import base_bundle
    gbuild.compile_core(base_bundle())  # (auto-build is off in the tests)
    rc, out, err = run(capsys, "scenario", SCENARIOS / "ok")
    assert rc == 0, out + err
    assert seen == [False, True]


def test_failing_scenario_reports_fail(capsys):
    f = SCENARIOS / "bad" / "march-wrong-count.json"
    rc, out, _ = run(capsys, "scenario", f)
    assert rc == 1
    lines = out.splitlines()
    assert lines[0] == f"FAIL {f}"
    assert lines[1] == f"  {f}#/expect/pieces/1/cat-warrior: cat-warrior in 1: 2 != 3"
    assert lines[-1] == "0 passed, 1 failed"


def test_scenario_with_an_illegal_decision_fails_at_it(capsys):
    f = SCENARIOS / "invalid" / "illegal-do.json"
    rc, out, _ = run(capsys, "scenario", f)
    assert rc == 1
    assert out.splitlines()[0] == f"FAIL {f}"
    assert f"{f}#/do/0: ACTION-ILLEGAL" in out


def test_scenario_with_a_typo_in_expect_does_not_pass_silently(capsys):
    # An unknown 'expect' key checks nothing; the file must fail, not pass.
    f = SCENARIOS / "invalid" / "expect-typo.json"
    rc, out, _ = run(capsys, "scenario", f)
    assert rc == 1, f"a scenario whose only expectation is misspelt passes:\n{out}"
    assert out.splitlines()[0] == f"FAIL {f}"
    assert "peices" in out


def test_scenario_with_a_bad_position_fails_that_file_and_goes_on(capsys):
    bad, good = SCENARIOS / "invalid" / "unknown-piece.json", SCENARIOS / "ok" / "march.json"
    rc, out, err = run(capsys, "scenario", bad, good)
    assert rc == 1
    assert f"FAIL {bad}" in out.splitlines(), out + err
    assert "timber" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_example_pack_scenarios_pass_on_its_map(capsys):
    """The homebrew example's scenarios hold on its own map (and are map-specific: on
    Autumn, where clearing 1 touches 9 and not 6, the march one names moves that map
    cannot express, an invalid scenario there)."""
    example = Path(__file__).resolve().parent.parent / "examples" / "homebrew-map"
    rc, out, err = run(capsys, "scenario", "--pack", str(example), "--map", "thicket",
                       str(example / "scenarios"))
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "3 passed, 0 failed"
    rc, out, _ = run(capsys, "scenario", "--pack", str(example), "--map", "autumn",
                     str(example / "scenarios" / "march-along-thicket-paths.json"))
    assert rc == 1 and "#/expect/legal_starting_with/move 1->/2: SCENARIO-INVALID: " \
        "'move 1->6 x1' is no action this game can express" in out


def test_a_packs_own_scenarios_run_with_the_pack_unasked(capsys):
    """A scenario inside a pack's folder is the pack's: its own scenarios/ run without
    --pack (on the pack's default map), as validate runs them."""
    example = Path(__file__).resolve().parent.parent / "examples" / "homebrew-map"
    rc, out, err = run(capsys, "scenario", str(example / "scenarios"))
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "3 passed, 0 failed"


def test_an_unwritable_log_is_a_located_error_not_a_traceback(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    target = blocker / "game.jsonl"  # a path under a regular file cannot be created
    rc, out, err = run(capsys, "play", "--seed", "1", "--log", str(target))
    assert rc == 1
    assert "Traceback" not in err
    assert f"{blocker}" in err and "IO-ERROR" in err


def test_scenario_with_no_files_fails(capsys, tmp_path):
    rc, out, err = run(capsys, "scenario", str(tmp_path))
    assert rc == 1 and "SCENARIO-NONE" in err


def test_too_few_factions_message(capsys):
    rc, out, err = run(capsys, "play", "--factions", "marquise")
    assert rc == 1 and "a game needs 2 to 3 factions (this bundle has 3)" in err


@pytest.mark.parametrize("quiet", [True, False])
def test_a_game_that_does_not_end_stops_at_the_cap(capsys, quiet):
    """Content that never ends (or a small cap) stops the game without a winner instead
    of hanging; the summary counts it."""
    args = ["play", "--seed", "2", "--max-decisions", "30"] + (["--quiet"] if quiet else [])
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    last = [x for x in out.splitlines() if "winner:" in x][-1]
    assert "winner: none" in last and "decisions=30 " in last
    assert "(stopped after 30 decisions)" in last
    rc, out, err = run(capsys, "play", "--seed", "2", "--games", "3", "--json",
                       "--max-decisions", "30")
    assert json.loads(out)["no_winner"] == 3


def test_scenario_decision_and_exact_legal_set_are_checked(capsys, tmp_path):
    example = Path(__file__).resolve().parent.parent / "examples" / "homebrew-map"
    data = json.loads((example / "scenarios" / "ambush-question.json").read_text())
    data["expect"] = {"decision": "foil", "legal_exactly": ["done", "spend anvil"]}
    f = tmp_path / "wrong.json"
    f.write_text(json.dumps(data))
    rc, out, _ = run(capsys, "scenario", "--pack", str(example), "--map", "thicket", f)
    assert rc == 1
    assert "#/expect/decision: decision: ambush != foil" in out
    assert "#/expect/legal_exactly: legal ['done'] != ['done', 'spend anvil']" in out


def test_check_runs_the_conformance_kit_on_the_base_game(capsys):
    rc, out, err = run(capsys, "check", "--games", "3", "--agreement", "1")
    assert rc == 0, out + err
    lines = out.splitlines()
    assert lines[1].startswith("games: 3 played from seed 1, 3 won, 0 stopped")
    assert lines[-1] == "ok"


@pytest.mark.parametrize("table", ["marquise,eyrie", "eyrie,alliance,marquise"])
def test_check_says_which_factions_each_game_seats(capsys, table):
    """--factions: the header names the table played, in its seat order (Law 5.1), and
    the bundle's other factions apart from it."""
    rc, out, err = run(capsys, "check", "--factions", table, "--games", "1",
                       "--agreement", "0")
    assert rc == 0, out + err
    head = out.splitlines()[0]
    seats = table.replace(",", ", ")
    assert head.endswith(f"each game seats {seats}" +
                         (" (of the bundle's marquise, eyrie, alliance)"
                          if table.count(",") == 1 else "") + ", in this order"), head


def test_check_fails_on_a_pack_whose_scenario_fails(capsys, tmp_path):
    import shutil

    example = Path(__file__).resolve().parent.parent / "examples" / "homebrew-map"
    pack = tmp_path / "mod"
    shutil.copytree(example, pack)
    bad = json.loads((pack / "scenarios" / "ambush-question.json").read_text())
    bad["expect"]["to_play"] = "marquise"
    (pack / "scenarios" / "ambush-question.json").write_text(json.dumps(bad))
    rc, out, _ = run(capsys, "check", "--pack", pack, "--map", "thicket", "--games", "2")
    assert rc == 1
    assert "scenarios: 3 run" in out
    assert any(x.startswith("FAIL scenario ") and "to play" in x for x in out.splitlines())
    assert out.splitlines()[-1] == "FAILED: 1 problem"


def test_a_game_past_the_checked_decisions_plays_on_and_fails_only_when_stuck(capsys):
    """A random game can be legally long (docs/simulate.md): past the decisions checked
    with invariants it is played on to its end, and only a stuck one fails."""
    rc, out, _ = run(capsys, "check", "--games", "2", "--agreement", "0",
                     "--max-decisions", "40")
    lines = out.splitlines()
    assert rc == 0, out
    assert lines[1].startswith("games: 2 played from seed 1, 2 won, 0 stopped, 0 stuck, ")
    assert lines[1].endswith("invariants checked after each of a game's first 40")
    assert lines[2].startswith("stalls: the longest ") and \
        lines[2].endswith(" rounds without progress (stuck at 20000); 2 games played on past "
                          "the checked decisions")
    # A window of one round: a game whose VP stand still for a round is "stuck".
    rc, out, _ = run(capsys, "check", "--games", "2", "--agreement", "0",
                     "--max-decisions", "40", "--stall-rounds", "1")
    fails = [x for x in out.splitlines() if x.startswith("FAIL ")]
    assert rc == 1 and fails
    assert all(" stuck: no faction reached a VP it had not had before in 1 rounds (from round "
               in x and x.endswith("can the content end a game?") for x in fails)


def test_check_finds_a_pack_on_which_no_game_ends_stuck(capsys):
    pack = Path(__file__).resolve().parent / "data" / "packs" / "too-small-map"
    rc, out, _ = run(capsys, "check", "--pack", pack, "--games", "1", "--agreement", "0",
                     "--max-decisions", "1000", "--stall-rounds", "300")
    assert rc == 1
    assert "games: 1 played from seed 1, 0 won, 0 stopped, 1 stuck" in out
    [fail] = [x for x in out.splitlines() if x.startswith("FAIL ")]
    assert fail.startswith("FAIL seed 1: stuck: no faction reached a VP it had not had before "
                           "in 300 rounds (from round ")


def test_perft_command_prints_counts_and_divide(capsys):
    rc, out, err = run(capsys, "perft", "--seed", "1", "--after", "0", "--depth", "2",
                       "--divide")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("position: seed 1 after 0 decisions (setup")
    assert "perft 1 4" in lines and "perft 2 16" in lines
    divided = [x for x in lines if x.startswith("  clearing ")]
    assert len(divided) == 4 and sum(int(x.rsplit(": ", 1)[1]) for x in divided) == 16


# ---------------------------------------------------------------------- Law 5.2 reach

LOW_REACH = Path(__file__).resolve().parent / "data" / "packs" / "low-reach"


def test_play_and_simulate_warn_below_the_viable_reach_but_play(capsys):
    """Law 5.2.1: a table whose factions' reach (5.2.2) adds up to less than the viable
    sum for its player count is warned about, not refused: the games are played."""
    for cmd in (["play", "--games", "1", "--quiet", "--max-decisions", "10"],
                ["simulate", "--games", "2", "--no-progress", "--max-decisions", "10"]):
        rc, out, err = run(capsys, *cmd, "--pack", LOW_REACH, "--factions",
                           "eyrie,test-stoats")
        assert rc == 0, err
        assert "warning: the factions' reach adds up to 9 (eyrie 7 + test-stoats 2), " \
            "below the 17 Law 5.2.1 recommends for 2 players" in err
        assert out.strip()
    rc, _, err = run(capsys, "play", "--games", "1", "--quiet", "--max-decisions", "10",
                     "--factions", "marquise,eyrie")
    assert rc == 0 and "reach" not in err  # 10 + 7 = 17: viable


def test_reach_sums_by_player_count():
    """Law 5.2.1's table (2: 17, 3: 18, 4: 21, 5: 25, 6: 28) against the seated
    factions' reach; a faction without a known reach leaves nothing to judge by."""
    from rootlaw.runtime.reach import VIABLE_REACH, reach_warning
    from rootlaw.spec import Bundle, resolve

    assert VIABLE_REACH == {2: 17, 3: 18, 4: 21, 5: 25, 6: 28}
    assert reach_warning(resolve(), ["marquise", "eyrie"]) is None  # 17
    low = resolve([LOW_REACH])
    assert reach_warning(low, ["marquise", "eyrie", "test-stoats"]) is None  # 19 >= 18
    assert "adds up to 12 (marquise 10 + test-stoats 2), below the 17" in \
        reach_warning(low, ["marquise", "test-stoats"])
    unknown = low.factions[-1].model_copy(update={"reach": None})
    b = Bundle(low.map, low.deck, (*low.factions[:-1], unknown))
    assert reach_warning(b, ["eyrie", "test-stoats"]) is None
