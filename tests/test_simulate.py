"""`rootlaw simulate`: seeded games on local processes or Ray, the same results on every
backend, the core built once in the parent, win rates with Wilson intervals, how games
were won, VP by round, a plot, clean errors and a clean Ctrl-C.

Ray and matplotlib come with the optional extras `rootlaw[ray]` and `rootlaw[plot]`.
Without them these tests skip with the reason, except where the environment demands
them (tox sets ROOTLAW_REQUIRE_EXTRAS): there a missing extra fails the test.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time
from array import array
from pathlib import Path

import pytest

from rootlaw.generator.build import cache_dir, core_key, module_name
from rootlaw.runtime import Game, base_bundle
from rootlaw.runtime import scenario as sc
from rootlaw.runtime import simulate as sm
from rootlaw.runtime.cli import build_parser, main
from rootlaw.runtime.core import load_core
from rootlaw.spec import resolve

ROOT = Path(__file__).resolve().parent.parent
HOMEBREW = ROOT / "examples" / "homebrew-map"
MQ_EY = "marquise,eyrie"


def need(extra: str, module: str):
    """Import an optional extra's module: skip without it, unless this environment must
    have it (ROOTLAW_REQUIRE_EXTRAS, set by tox), where its absence fails loudly."""
    try:
        return importlib.import_module(module)
    except ImportError:
        required = os.environ.get("ROOTLAW_REQUIRE_EXTRAS", "").replace(" ", "").split(",")
        if extra in required:
            pytest.fail(f"{module} is missing but ROOTLAW_REQUIRE_EXTRAS names {extra!r}: "
                        f"install rootlaw[{extra}]")
        pytest.skip(f"{module} not installed (pip install 'rootlaw[{extra}]')")


def run(capsys, *argv) -> tuple[int, str, str]:
    """main(argv) in process; an escaping exception (a traceback) fails the test."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit:
        raise
    except BaseException as e:  # noqa: BLE001 - the point is that nothing escapes
        pytest.fail(f"`rootlaw {' '.join(map(str, argv))}` raised {e!r}")
    out, err = capsys.readouterr()
    return rc, out, err


def simulate_json(capsys, *argv) -> tuple[str, str]:
    rc, out, err = run(capsys, "simulate", "--factions", MQ_EY, "--no-progress", "--json",
                       *argv)
    assert rc == 0, err
    return out, err


# ---------------------------------------------------------------------- the core's playout


@pytest.mark.parametrize("seed", [1, 2, 17])
def test_play_on_in_stages_plays_the_game_playout_plays(core_kind, seed):
    """seed_agent + play_on stopped at every round's end is Game.playout's game: the
    same final state, the same number of decisions; each stop is at the asked turn."""
    pure = core_kind == "pure"
    whole = Game(["marquise", "eyrie"], seed, pure=pure)
    n_whole = whole.playout(seed)
    staged = Game(["marquise", "eyrie"], seed, pure=pure)
    core, S = staged._core, staged.S
    core.seed_agent(seed)
    taken, stop = 0, 3
    while not staged.is_over:
        taken += core.play_on(1_000_000, stop)
        if not staged.is_over:
            assert staged.turn == stop  # stopped as the turn counter reached it
            assert staged.state[S["CURRENT"]] == staged.state[S["FIRST"]]  # a new round
        stop += 2
    assert taken == n_whole
    assert list(staged.state) == list(whole.state)


def test_play_on_respects_the_decision_cap_and_continues_the_agent_stream(core_kind):
    pure = core_kind == "pure"
    whole = Game(["eyrie", "marquise"], 5, pure=pure)
    trace = whole._core.playout_trace(5, 1_000_000)
    g = Game(["eyrie", "marquise"], 5, pure=pure)
    g._core.seed_agent(5)
    assert g._core.play_on(40, 0) == 40
    assert g._core.play_on(len(trace) - 40 + 10, 0) == len(trace) - 40
    assert list(g.state) == list(whole.state)


def test_records_match_game_playout_for_many_seeds():
    """simulate's game i is Game(factions, S+i).playout(S+i): winner, VP, turns,
    decisions; the last round's VP are the final VP."""
    mod = load_core(base_bundle()).module
    for seed in range(100, 130):
        g = Game(["marquise", "eyrie"], seed)
        g.playout(seed)
        rec = sm.play_game(mod, g._seats, seed, 1_000_000)
        assert rec.winner == g.winner and rec.vp == tuple(g.scores)
        assert (rec.turns, rec.decisions) == (g.turn, len(g.history))
        assert rec.vp_by_round[-1] == rec.vp
        assert len(rec.vp_by_round) == rec.rounds == -(-g.turn // 2)
        assert all(len(row) == 2 for row in rec.vp_by_round)


# ---------------------------------------------------------------------- statistics


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
    # Statistics in Medicine 17, Table I, method 3 (score interval without continuity
    # correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0000),
])
def test_wilson_interval_known_values(k, n, lo, hi):
    a, b = sm.wilson_interval(k, n)
    assert (round(a, 4), round(b, 4)) == (lo, hi)


@pytest.mark.parametrize(("k", "n"), [(3, 10), (500, 1000), (1, 2000), (1999, 2000)])
def test_wilson_interval_is_the_score_test_inversion(k, n):
    """By definition the interval holds the p with |k/n - p| <= z sqrt(p(1-p)/n): its
    ends solve that with equality (checked by bisection, independently of the formula)."""
    z, phat = sm.Z95, k / n

    def outside(p):
        return abs(phat - p) - z * (p * (1 - p) / n) ** 0.5

    def root(a, b):  # outside(a) and outside(b) differ in sign
        for _ in range(200):
            m = (a + b) / 2
            if (outside(m) > 0) == (outside(a) > 0):
                a = m
            else:
                b = m
        return (a + b) / 2

    lo, hi = sm.wilson_interval(k, n)
    assert lo == pytest.approx(root(0.0, phat), abs=1e-12)
    assert hi == pytest.approx(root(phat, 1.0), abs=1e-12)


def test_spread_of_a_histogram():
    s = sm.spread({3: 1, 5: 2, 10: 1})  # 3 5 5 10
    assert s == {"mean": 5.75, "sd": 2.9861, "min": 3, "median": 5, "p90": 10, "p99": 10,
                 "max": 10}
    assert sm.spread({4: 1, 6: 1})["median"] == 5
    assert sm.spread({7: 1})["sd"] == 0.0


def test_percentiles_are_nearest_rank():
    """p90 of 1..100 is 90, p99 is 99; of 1..1000 with a tail, the tail shows in p99."""
    s = sm.spread(dict.fromkeys(range(1, 101), 1))
    assert (s["median"], s["p90"], s["p99"], s["max"]) == (50.5, 90, 99, 100)
    tail = {20: 980, 500: 15, 4000: 5}  # 1000 games: 2% long, 0.5% very long
    s = sm.spread(tail)
    assert (s["median"], s["p90"], s["p99"], s["max"]) == (20, 20, 500, 4000)
    assert sm.spread({})["p99"] is None


def test_stalled_turns_are_turns_without_a_new_best_vp():
    """runtime/stall.py: progress is a seat reaching a VP it has not had before; VP
    lost and won back (the Eyrie's turmoil, Law 7.7.2) is no progress."""
    from rootlaw.runtime.stall import Progress

    p = Progress([0, 0])
    moves = [p.turn(t, vp) for t, vp in enumerate(
        [(1, 0), (1, 0), (1, 2), (1, 1), (1, 2), (1, 2), (2, 2), (2, 2)], start=1)]
    assert moves == [True, False, True, False, False, False, True, False]
    assert (p.stalled, p.longest, p.longest_start, p.run, p.best) == (5, 3, 4, 1, [2, 2])
    assert not p.stuck(2, rounds=2) and p.stuck(1, rounds=1)


def test_a_legal_long_game_is_not_stuck_and_a_short_window_calls_it_stuck():
    """Three-player game 185 of simulate (seed 185) stalls for 3,178 rounds (9,536
    turns), then ends on VP in round 3,203: the long legal tail.  With check's window
    (stall.STALL_ROUNDS) it is played to its end; a window of 1,000 rounds stops it."""
    from rootlaw.runtime.stall import STALL_ROUNDS

    mod = load_core(base_bundle()).module
    seats = Game(["marquise", "eyrie", "alliance"], 1)._seats
    rec = sm.play_game(mod, seats, 185, 1_000_000)
    assert (rec.outcome, rec.rounds, rec.stuck) == ("vp", 3203, False)
    assert rec.longest_stall == 9536 and rec.longest_stall < STALL_ROUNDS * 3
    layout = mod.LAYOUT
    state = array("q", [0]) * layout["consts"]["STATE_SIZE"]
    core = mod.Core(state)
    core.init_game(185, seats)
    core.seed_agent(185)
    short = sm.play_rounds(core, state, layout["state"], 1_000_000, stall_rounds=1000)
    assert short.stuck and short.outcome == "stopped" and short.rounds < rec.rounds
    assert short.longest_stall == 3000


def test_the_summary_reports_the_tail(capsys):
    """Percentiles, games over 100 and 1,000 rounds, stalled turns (docs/simulate.md)."""
    out, _ = simulate_json(capsys, "--factions", "marquise,eyrie,alliance", "--games", "200",
                           "--seed", "100", "--jobs", "1")
    data = json.loads(out)
    rounds = data["length"]["rounds"]
    assert rounds["median"] <= rounds["p90"] <= rounds["p99"] <= rounds["max"]
    assert data["rounds_over"] == {"100": 3, "1000": 1}  # over 1,000: seed 185 only
    assert rounds["max"] == 3203
    st = data["stalls"]
    assert 0 < st["stalled_turns"] < sum(r * 3 for r in data["playing_by_round"])
    assert 0 < st["share"] < 1 and st["longest"]["max"] == 9536
    rc = main(["simulate", "--factions", "marquise,eyrie,alliance", "--games", "200",
               "--seed", "100", "--jobs", "1"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "long games: 3 over 100 rounds (1.5%), 1 over 1000 rounds (0.5%)" in text
    assert re.search(r"^longest stall +[0-9.]+ +[0-9.]+ +\d+ +\d+ +\d+ +\d+ +9536$", text, re.M)
    assert f"stalled turns: {st['stalled_turns']} ({100 * st['share']:.1f}% of all turns" in text


def test_chunks_depend_on_the_number_of_games_only():
    for games in (1, 7, 200, 201, 12_345, 1_000_000):
        cs = sm.chunks(games)
        assert sum(c for _, c in cs) == games
        assert [f for f, _ in cs] == sorted({f for f, _ in cs})
        assert all(1 <= c <= sm.MAX_CHUNK for _, c in cs)


# ---------------------------------------------------------------------- how games end


def _finish_turn_with_done(g):
    """Answer 'done' (else the first legal action) until the turn passes on."""
    seat = g.current
    while not g.is_over and g.current == seat:
        legal = g.legal()
        g.apply("done" if "done" in legal else g.legal_actions()[0])


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_a_dominance_win_is_classified_as_dominance(core_kind, factions):
    """Law 3.3.1: the Marquise activates fox dominance while ruling three fox clearings;
    she wins at the start of her next Birdsong, whatever the Eyrie does meanwhile."""
    g = Game(list(factions), 1, pure=core_kind == "pure")
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    cat, bird = g.factions.index("marquise"), g.factions.index("eyrie")
    for c in ("1", "6", "8"):  # four warriors each: one Eyrie turn cannot take them
        sc.put(g, c, "cat-warrior", 4)
    sc.put(g, "3", "roost", 1)
    sc.set_hand(g, cat, [])
    sc.set_hand(g, bird, [])
    sc.move_card(g, "fox-dominance", g.consts["LOC_HAND"] + cat, prefer=(2,))
    sc.set_vp(g, cat, 12)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("activate fox-dominance")
    _finish_turn_with_done(g)
    assert not g.is_over and g.factions[g.current] == "eyrie"
    g._core.seed_agent(9)
    rec = sm.play_rounds(g._core, g.state, g.S, 100_000)
    assert (rec.outcome, rec.winner) == ("dominance", cat)
    assert g.state[g.S["TURN"]] == rec.turns and g.current == cat
    tally = sm.Tally(2)
    tally.add(rec)
    assert tally.outcomes["dominance"][cat] == 1 and tally.wins[cat] == 1
    assert tally.outcomes["vp"] == [0, 0] and tally.stopped == 0


def test_a_thirty_vp_win_is_classified_as_vp():
    """Law 3.1: the first to 30 VP wins (seed 11 is such a game, as most are)."""
    mod = load_core(base_bundle()).module
    g = Game(["marquise", "eyrie"], 11)
    rec = sm.play_game(mod, g._seats, 11, 1_000_000)
    assert rec.outcome == "vp" and rec.winner >= 0
    assert rec.vp[rec.winner] >= 30 > rec.vp[1 - rec.winner]


def test_a_game_at_the_decision_cap_is_stopped():
    mod = load_core(base_bundle()).module
    g = Game(["marquise", "eyrie"], 11)
    rec = sm.play_game(mod, g._seats, 11, 120)
    assert (rec.outcome, rec.winner, rec.decisions) == ("stopped", -1, 120)
    assert len(rec.vp_by_round) == rec.rounds
    tally = sm.Tally(2)
    tally.add(rec)
    assert tally.stopped == 1 and tally.wins == [0, 0]


def test_stopped_games_in_the_summary(capsys):
    out, _ = simulate_json(capsys, "--games", "6", "--seed", "1", "--jobs", "1",
                           "--max-decisions", "50")
    data = json.loads(out)
    assert data["outcomes"] == {"vp": 0, "dominance": 0, "coalition": 0, "stopped": 6}
    assert data["length"]["decisions"]["max"] == 50
    for r in data["results"].values():
        assert r["wins"] == 0 and r["win_rate"] == 0.0
        assert r["win_rate_ci95"][0] == 0.0 and 0 < r["win_rate_ci95"][1] < 0.5


# ---------------------------------------------------------------------- the same results


def test_jobs_1_and_jobs_2_give_byte_identical_json_and_workers_never_compile(capsys):
    one, _ = simulate_json(capsys, "--games", "36", "--seed", "5", "--jobs", "1")
    # This bundle's own cache folder (other tests, on other test workers, may be building
    # cores of their own in the shared cache meanwhile).
    own = cache_dir() / core_key(base_bundle())
    before = sorted(p.name for p in own.rglob("*"))
    two, err = simulate_json(capsys, "--games", "36", "--seed", "5", "--jobs", "2")
    assert one == two
    assert_workers_only_loaded(err, at_most=2)
    assert before and sorted(p.name for p in own.rglob("*")) == before  # nothing built
    data = json.loads(one)
    assert list(data) == ["format", "bundle", "factions", "seed", "seeds", "games_requested",
                          "games", "interrupted", "max_decisions", "confidence", "outcomes",
                          "results", "turn_order", "playing_by_round", "length",
                          "rounds_over", "stalls"]
    assert data["games"] == 36 and not data["interrupted"]
    res = data["results"]
    assert sum(r["wins"] for r in res.values()) + data["outcomes"]["stopped"] == 36
    for r in res.values():
        assert r["win_rate_ci95"][0] <= r["win_rate"] <= r["win_rate_ci95"][1]
        # The last round's mean is the mean final VP: ended games keep their scores.
        assert r["mean_vp_by_round"][-1] == r["mean_vp"]
    assert data["playing_by_round"][0] == 36
    assert len(data["playing_by_round"]) == data["length"]["rounds"]["max"]


def assert_workers_only_loaded(err: str, at_most: int) -> int:
    """The workers' report: how many ran chunks (a worker that started late may have
    found none left), and that none of them compiled."""
    m = re.search(r"workers: (\d+) worker process(es)? ran the core built here", err)
    assert m, err
    assert 1 <= int(m.group(1)) <= at_most
    assert "none compiled" in err
    return int(m.group(1))


def test_totals_do_not_depend_on_the_order_chunks_finish_in():
    """Chunks merged in any order give the same summary, to the byte."""
    mod = load_core(base_bundle()).module
    seats = (0, 1)
    tallies = [sm.run_chunk(mod, sm.ChunkTask(i, first, count, 60, seats, 10**6))
               for i, (first, count) in enumerate(sm.chunks(30))]
    texts = set()
    for order in (range(len(tallies)), reversed(range(len(tallies))), [2, 0, 1, *range(3, 30)]):
        sim = sm.Simulation(bundle="b", factions=["marquise", "eyrie"], seed=60,
                            games_requested=30, max_decisions=10**6, core_key="k",
                            core_compiled=True, backend="test", total=sm.Tally(2))
        for i in order:
            sim.total.merge(tallies[i])
        texts.add(json.dumps(sm.summary(sim)))
    assert len(texts) == 1


def test_simulate_agrees_with_play(capsys):
    """Game i is the game `rootlaw play --seed S+i` plays."""
    out, _ = simulate_json(capsys, "--games", "25", "--seed", "40", "--jobs", "1")
    rc, played, err = run(capsys, "play", "--factions", MQ_EY, "--seed", "40", "--games", "25",
                          "--json")
    assert rc == 0, err
    sim, play = json.loads(out), json.loads(played)
    assert {f: r["wins"] for f, r in sim["results"].items()} == play["wins"]
    assert {f: r["mean_vp"] for f, r in sim["results"].items()} == \
        {f: round(v, 4) for f, v in play["mean_vp"].items()}
    assert sim["length"]["turns"]["mean"] == play["mean_turns"]


def test_a_homebrew_map_pack_runs_on_workers(capsys):
    """A pack's core is built (compiled when it can be) once in the parent; the workers
    load that one and give the results one process gives."""
    args = ("--pack", HOMEBREW, "--map", "thicket", "--games", "24", "--seed", "2")
    one, _ = simulate_json(capsys, *args, "--jobs", "1")
    two, err = simulate_json(capsys, *args, "--jobs", "2")
    assert one == two
    n = assert_workers_only_loaded(err, at_most=2)
    bundle = resolve([HOMEBREW], map_id="thicket")
    assert json.loads(one)["bundle"] == bundle.hash != base_bundle().hash
    if load_core(bundle).compiled:  # the workers ran the compiled core the parent built
        assert f"({n} compiled, 0 pure)" in err


def test_the_json_is_the_same_on_the_pure_core(capsys):
    compiled, _ = simulate_json(capsys, "--games", "4", "--seed", "8", "--jobs", "1")
    pure, _ = simulate_json(capsys, "--games", "4", "--seed", "8", "--jobs", "1", "--pure")
    assert compiled == pure


def test_a_shipped_core_installs_into_an_empty_cache(tmp_path, monkeypatch):
    """What a Ray worker on another machine does: write the artifact into its own cache,
    load it, play the same games; a second call finds it installed."""
    bundle = base_bundle()
    mod = load_core(bundle).module
    key = core_key(bundle)
    art = sm.core_artifact(mod, key, bundle)
    monkeypatch.setenv("ROOTLAW_CACHE", str(tmp_path))
    monkeypatch.setattr(sm, "_LOADED", {})
    for name in (module_name(key), f"rootlaw_core_pure_{key}"):
        if name in sys.modules:
            monkeypatch.delitem(sys.modules, name)
    shipped, installed = sm.install_artifact(art)
    assert installed and Path(shipped.__file__).parent == tmp_path / key
    assert bool(shipped.compiled()) == bool(mod.compiled())
    seats = Game(["marquise", "eyrie"], 1)._seats
    for seed in (3, 4):
        assert sm.play_game(shipped, seats, seed, 10**6) == sm.play_game(mod, seats, seed, 10**6)
    assert sm.install_artifact(art) == (shipped, installed)  # loaded once per process
    path, _, written = sm.install_files(art)
    assert path == Path(shipped.__file__) and not written  # in this cache: not written again


def test_a_shipped_extension_is_vouched_for_and_a_truncated_one_is_written_again(
        tmp_path, monkeypatch):
    """An installed extension gets the sum file a local build writes, so later loads in
    that cache use it (build.verified) instead of rebuilding; a truncated copy left in the
    cache is never trusted: it is written again."""
    from rootlaw.generator.build import verified

    bundle = base_bundle()
    mod = load_core(bundle).module
    key = core_key(bundle)
    art = sm.core_artifact(mod, key, bundle)
    if art.ext_bytes is None:
        pytest.skip("no compiled core to ship on this machine")
    monkeypatch.setenv("ROOTLAW_CACHE", str(tmp_path))
    path, _, written = sm.install_files(art)
    assert written and verified(path, key)
    path.write_bytes(path.read_bytes()[:1000])  # a copy cut short
    assert not verified(path, key)
    again, _, written = sm.install_files(art)
    assert again == path and written and verified(path, key)
    assert path.read_bytes() == art.ext_bytes


def test_ray_gives_the_same_json_and_installs_the_shipped_core(capsys, tmp_path, monkeypatch):
    """One short run on a local Ray instance (2 CPUs, no dashboard).  The workers get an
    empty cache of their own: they install the core from the task payload, never
    compile it, and give the bytes --jobs 1 gives."""
    need("ray", "ray")
    one, _ = simulate_json(capsys, "--games", "24", "--seed", "5", "--jobs", "1")
    load_core(base_bundle())  # the parent's core is loaded; the workers' cache is empty
    monkeypatch.setenv("ROOTLAW_CACHE", str(tmp_path / "worker-cache"))
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    t0 = time.perf_counter()
    on_ray, err = simulate_json(capsys, "--games", "24", "--seed", "5", "--jobs", "2", "--ray")
    print(f"ray run: {time.perf_counter() - t0:.1f} s", file=sys.stderr)  # for the record
    assert on_ray == one
    assert "installed it from the payload" in err and "none compiled" in err
    assert list((tmp_path / "worker-cache").iterdir())[0].name == core_key(base_bundle())


def test_the_ray_option_alone_starts_a_local_instance():
    p = build_parser()
    base = ["simulate", "--games", "1"]
    assert p.parse_args([*base, "--ray"]).ray == "local"
    assert p.parse_args([*base, "--ray", "10.0.0.5:6379"]).ray == "10.0.0.5:6379"
    assert p.parse_args(base).ray is None


# ---------------------------------------------------------------------- the plot


def test_plot_writes_a_png_a_person_can_read(capsys, tmp_path):
    need("plot", "matplotlib")
    from matplotlib.container import ErrorbarContainer

    from rootlaw.runtime.simulate_plot import figure, shown_rounds

    png = tmp_path / "sim.png"
    rc, out, err = run(capsys, "simulate", "--factions", MQ_EY, "--games", "20", "--seed", "3",
                       "--jobs", "1", "--no-progress", "--json", "--plot", png)
    assert rc == 0, err
    raw = png.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR"
    width, height = struct.unpack(">II", raw[16:24])
    assert width >= 800 and height >= 400
    assert [p.name for p in tmp_path.iterdir()] == ["sim.png"]  # no temporary left over

    data = json.loads(out)
    fig = figure(data)
    wins_ax, vp_ax, share_ax = fig.axes
    assert wins_ax.get_ylabel() == "win rate" and wins_ax.get_xlabel() == "faction"
    assert vp_ax.get_xlabel() == "round" and "mean VP" in vp_ax.get_ylabel()
    assert "still playing" in share_ax.get_ylabel()
    assert "rootlaw simulate" in fig.get_suptitle() and wins_ax.get_title()
    bars = [c for c in wins_ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 1 and bars[0].has_yerr
    # The error bars span the Wilson intervals of the JSON.
    segments = bars[0].lines[2][0].get_segments()
    spans = [(round(s[0][1], 4), round(s[1][1], 4)) for s in segments]
    assert spans == [tuple(data["results"][f]["win_rate_ci95"]) for f in data["factions"]]
    assert [t.get_text() for t in wins_ax.get_legend().get_texts()] == \
        ["win rate", "95% CI (Wilson)"]
    legend = [t.get_text() for t in vp_ax.get_legend().get_texts()]
    assert legend[:2] == ["marquise", "eyrie"] and "games still playing" in legend
    lines = {ln.get_label(): ln for ln in vp_ax.get_lines()}
    # The rounds up to the one by which 95% of the games ended (the tail: its own test).
    last = shown_rounds(data["playing_by_round"], data["games"])
    assert list(lines["eyrie"].get_ydata()) == \
        data["results"]["eyrie"]["mean_vp_by_round"][:last]


def _hex(c) -> str:
    from matplotlib.colors import to_hex
    return to_hex(c)


def test_the_plot_paints_each_faction_in_its_own_colour(capsys, tmp_path):
    """The bars and the VP lines take each faction's ``color``, as ``render`` does:
    the Marquise orange and the Eyrie blue (matplotlib's cycle had them the other way)."""
    need("plot", "matplotlib")
    from rootlaw.runtime.render import faction_colour
    from rootlaw.runtime.simulate_plot import faction_colours, figure

    out, _ = simulate_json(capsys, "--games", "12", "--seed", "3", "--jobs", "1")
    data = json.loads(out)
    specs = {f.id: f for f in base_bundle().factions}
    want = {f: faction_colour(specs[f]) for f in data["factions"]}
    assert want == {"marquise": "#e07b22", "eyrie": "#2f6db5"}
    assert faction_colours(base_bundle(), data["factions"]) == want
    fig = figure(data, faction_colours(base_bundle(), data["factions"]))
    wins_ax, vp_ax, _ = fig.axes
    bars = wins_ax.patches[:len(data["factions"])]
    assert [_hex(b.get_facecolor()) for b in bars] == list(want.values())
    lines = {ln.get_label(): _hex(ln.get_color()) for ln in vp_ax.get_lines()}
    assert {f: lines[f] for f in want} == want


def _long_tail(data: dict, longest: int) -> dict:
    """The summary with a tail added: one game in 20 plays on to round ``longest``
    (rounds past the last get the last round's figures, as an ended game keeps its VP)."""
    data = json.loads(json.dumps(data))
    playing = data["playing_by_round"]
    extra = max(1, data["games"] // 20)
    data["games"] += extra
    playing = [n + extra for n in playing] + [extra] * (longest - len(playing))
    data["playing_by_round"] = playing
    for r in data["results"].values():
        by_round = r["mean_vp_by_round"]
        by_round += [by_round[-1]] * (longest - len(by_round))
    return data


def test_the_vp_panel_shows_the_rounds_most_games_play_and_states_the_tail(capsys):
    """A 2,000-round game does not squeeze the first rounds into a sliver: the round axis
    ends where at most 5% of the games are still playing, and the plot says how many ran
    longer and how long the longest was."""
    need("plot", "matplotlib")
    from rootlaw.runtime.simulate_plot import figure, shown_rounds, tail_note

    assert shown_rounds([100] * 10 + [6, 5, 4], 100) == 11   # after round 11: 5 playing
    assert shown_rounds([100, 50, 20], 100) == 3              # no tail: every round
    assert tail_note([100] * 10 + [6, 5, 4], 100, 11) == \
        "5 of 100 games (5.0%) ran past round 11,\nthe longest to round 13 (not shown)"
    assert tail_note([100, 50, 20], 100, 3) == ""

    out, _ = simulate_json(capsys, "--games", "40", "--seed", "3", "--jobs", "1")
    data = _long_tail(json.loads(out), 2275)
    fig = figure(data)
    _, vp_ax, share_ax = fig.axes
    last = shown_rounds(data["playing_by_round"], data["games"])
    assert last < 100  # the ordinary games, not the tail
    assert data["playing_by_round"][last] <= 0.05 * data["games"]
    assert data["playing_by_round"][last - 1] > 0.05 * data["games"]
    assert vp_ax.get_xlim() == (0.5, last + 0.5)
    assert max(ln.get_xdata()[-1] for ln in vp_ax.get_lines()[:2]) == last
    tail = [t for t in share_ax.texts if t.get_gid() == "tail"]
    assert len(tail) == 1
    extra = data["playing_by_round"][last]
    assert f"{extra} of {data['games']} games" in tail[0].get_text()
    assert "the longest to round 2275" in tail[0].get_text()
    _assert_inside(fig, share_ax, tail)


def _assert_inside(fig, ax, texts) -> None:
    """Each text lies within the axes and clear of every legend of the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    legends = [a.get_legend() for a in fig.axes if a.get_legend() is not None]
    for t in texts:
        tb = t.get_window_extent(renderer)
        assert box.x0 <= tb.x0 and tb.x1 <= box.x1 and box.y0 <= tb.y0 and tb.y1 <= box.y1, \
            (t.get_text(), tb, box)
        for leg in legends:
            assert not tb.overlaps(leg.get_window_extent(renderer)), t.get_text()


@pytest.mark.parametrize("rate", [0.0, 0.5, 0.9, 0.998, 1.0])
def test_win_rate_labels_stay_readable_up_to_a_hundred_percent(capsys, rate):
    """At any win rate, 100% too, the label sits inside the axes, over its bar's interval,
    and no legend covers it."""
    need("plot", "matplotlib")
    from rootlaw.runtime.simulate_plot import figure

    out, _ = simulate_json(capsys, "--games", "12", "--seed", "3", "--jobs", "1")
    data = json.loads(out)
    a, b = data["factions"]
    data["results"][a].update(win_rate=rate, win_rate_ci95=[max(0, rate - 0.01),
                                                            min(1, rate + 0.004)])
    data["results"][b].update(win_rate=1 - rate, win_rate_ci95=[max(0, 0.99 - rate),
                                                                min(1, 1.004 - rate)])
    fig = figure(data)
    wins_ax = fig.axes[0]
    labels = [t for t in wins_ax.texts if t.get_gid() == "rate"]
    assert [t.get_text() for t in labels] == [f"{100 * rate:.1f}%", f"{100 * (1 - rate):.1f}%"]
    _assert_inside(fig, wins_ax, labels)
    for t, f in zip(labels, (a, b), strict=True):
        assert t.xy[1] == pytest.approx(data["results"][f]["win_rate_ci95"][1])


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "VALUE-INVALID: --games must be at least 1"),
    (["--games", "5", "--jobs", "0"], "VALUE-INVALID: --jobs must be at least 1"),
    (["--games", "5", "--max-decisions", "0"], "VALUE-INVALID: --max-decisions"),
    (["--games", "5", "--factions", "marquise,cats"], "REF-UNDEF: unknown faction 'cats'"),
    (["--games", "5", "--factions", "marquise,marquise"], "VALUE-INVALID"),
    (["--games", "5", "--plot", "/no/such/folder/x.png"], "no folder"),
])
def test_bad_arguments_are_clean_errors(capsys, args, message):
    argv = ["simulate", "--no-progress", *args]
    if "--factions" not in args:
        argv += ["--factions", MQ_EY]
    rc, out, err = run(capsys, *argv)
    assert rc == 1 and message in err and "Traceback" not in err
    assert out == ""  # nothing played


def test_bad_arguments_in_a_subprocess_have_no_traceback():
    p = subprocess.run([sys.executable, "-m", "rootlaw.runtime.cli", "simulate", "--games",
                        "0"], capture_output=True, text=True, timeout=120, check=False)
    assert p.returncode == 1 and "VALUE-INVALID" in p.stderr and "Traceback" not in p.stderr


# ---------------------------------------------------------------------- Ctrl-C


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_stops_the_workers_and_prints_what_finished():
    """Ctrl-C reaches the whole process group: the parent terminates its workers, prints
    the games of the chunks that finished and exits 130, without a traceback."""
    p = subprocess.Popen([sys.executable, "-m", "rootlaw.runtime.cli", "simulate",
                          "--factions", MQ_EY, "--games", "400000", "--jobs", "2",
                          "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        header = p.stdout.readline()
        assert header.startswith("simulate: 400000 games"), header + p.stderr.read()
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = [c for c in _children(p.pid)
                       if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
        assert len(workers) == 2, "the worker processes did not start"
        time.sleep(3)  # let some chunks finish (none finished is reported the same way)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "interrupted: " in err and " of 400000 games finished" in err
    assert "faction" in out and "games in" in out  # the tables of what finished
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_while_the_workers_start_prints_no_traceback():
    """A Ctrl-C as soon as the worker processes exist, while they are still starting up
    (before their initializer): they start with Ctrl-C ignored, so none of them dies
    with a KeyboardInterrupt traceback, and the parent reports as always."""
    p = subprocess.Popen([sys.executable, "-m", "rootlaw.runtime.cli", "simulate",
                          "--factions", MQ_EY, "--games", "400000", "--jobs", "2",
                          "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
            workers = [c for c in _children(p.pid)
                       if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
        assert len(workers) == 2, "the worker processes did not start"
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "interrupted: " in err


def _replayed(data: dict, ranges: list[tuple[int, int]]) -> dict:
    """The summary of exactly the games in ``ranges`` (seed ranges, each inside one chunk
    or made of whole ones), replayed here on the compiled core, chunk by chunk."""
    requested, seed = data["games_requested"], data["seed"]
    size = sm.chunk_size(requested)
    seats = tuple(Game(data["factions"], seed)._seats)
    mod = load_core(base_bundle()).module
    sim = sm.Simulation(bundle=data["bundle"], factions=data["factions"], seed=seed,
                        games_requested=requested, max_decisions=data["max_decisions"],
                        core_key="k", core_compiled=True, backend="test",
                        total=sm.Tally(len(seats)), interrupted=data["interrupted"])
    for lo, hi in ranges:
        for first in range(lo - seed, hi - seed + 1, size):
            index = first // size
            count = min(size - first % size, hi - seed + 1 - first)
            sim.chunk_tallies[index] = sm.run_chunk(
                mod, sm.ChunkTask(index, first, count, seed, seats, data["max_decisions"]))
    for index in sorted(sim.chunk_tallies):
        sim.total.merge(sim.chunk_tallies[index])
    assert sim.played() == ranges
    return sm.summary(sim)


def _seed_ranges(err: str) -> list[tuple[int, int]]:
    m = re.search(r"games finished \(seeds ([\d., ]+)\)", err)
    assert m, err
    return [tuple(int(x) for x in (r.split("..") * 2)[:2]) for r in m.group(1).split(", ")]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_keeps_the_games_finished_inside_unfinished_chunks():
    """Issue 15: Ctrl-C a few seconds into a million games reported 0 games (whole chunks
    only).  On the pure core no 1,000-game chunk can finish in those seconds, so every
    game counted here was finished inside a chunk that was not: the workers return the
    first games of their chunks, the summary counts them, and it is exactly the summary
    of those seeds' games replayed here."""
    p = subprocess.Popen([sys.executable, "-m", "rootlaw.runtime.cli", "simulate",
                          "--factions", MQ_EY, "--games", "1000000", "--jobs", "2", "--pure",
                          "--json", "--no-progress"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = [c for c in _children(p.pid)
                       if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
        assert len(workers) == 2, "the worker processes did not start"
        time.sleep(4)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=90)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, err
    assert "Traceback" not in err
    data = json.loads(out)
    assert data["interrupted"] and data["games_requested"] == 1_000_000
    ranges = _seed_ranges(err)
    assert data["games"] > 0 and data["games"] == sum(b - a + 1 for a, b in ranges)
    assert f"interrupted: {data['games']} of 1000000 games finished" in err
    size = sm.chunk_size(1_000_000)
    assert all(a % size == 0 and b - a + 1 < size for a, b in ranges)  # parts of chunks
    res = data["results"]
    assert sum(r["wins"] for r in res.values()) + data["outcomes"]["stopped"] == data["games"]
    assert data["playing_by_round"][0] == data["games"]
    assert data == _replayed(data, ranges)


def test_ctrl_c_in_this_process_ends_the_game_in_play_and_keeps_it(monkeypatch):
    """--jobs 1: the first Ctrl-C (a real SIGINT, sent during the 7th game) lets that
    game finish and stops the chunk there: exactly 7 games, seeds 100..106."""
    played = []
    real = sm.play_game

    def game(mod, seats, seed, max_decisions):
        played.append(seed)
        if len(played) == 7:
            os.kill(os.getpid(), signal.SIGINT)
        return real(mod, seats, seed, max_decisions)

    monkeypatch.setattr(sm, "play_game", game)
    before = signal.getsignal(signal.SIGINT)
    sim = sm.simulate(base_bundle(), ["marquise", "eyrie"], games=600, seed=100, jobs=1)
    assert signal.getsignal(signal.SIGINT) is before  # the handler is put back
    assert sim.interrupted and sim.games == 7 and played == list(range(100, 107))
    assert sim.played() == [(100, 106)]
    data = sm.summary(sim)
    assert data == _replayed(data, [(100, 106)])


def test_ray_chunks_in_flight_return_their_games_on_ctrl_c(monkeypatch):
    """On Ray the driver's SIGINT never reaches the workers: a Ctrl-C raises the stop
    flag and the chunks in flight return their games so far (the pure core: no chunk can
    finish), the same games as replayed here."""
    need("ray", "ray")
    import _thread
    import threading

    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    real_init = sm._ray_init
    wait = [6.0]
    returned = threading.Event()

    def press(first: float) -> None:
        # Ctrl-C once Ray is up.  A press can be lost (twice on a busy CI machine the run
        # went on into its million pure games): pressed again, as a user would, but only
        # after the grace time, so a press that arrived never has its grace cut short.
        delay = first
        while not returned.wait(delay):
            _thread.interrupt_main()
            delay = 2 * sm.STOP_GRACE + first

    def init(address, jobs):
        started = real_init(address, jobs)
        returned.clear()
        threading.Thread(target=press, args=(wait[0],), daemon=True).start()
        return started

    monkeypatch.setattr(sm, "_ray_init", init)
    # On a busy machine the workers may not have finished a game when the Ctrl-C comes
    # (they start, load the core, then play): nothing to return yet is no test, so the
    # Ctrl-C comes later, up to twice.
    for _ in range(3):
        try:
            sim = sm.simulate(base_bundle(), ["marquise", "eyrie"], games=1_000_000, seed=9,
                              jobs=2, ray="local", pure=True)
        finally:
            returned.set()  # no press after the run: it would land in the next test
        assert sim.interrupted
        if sim.games:
            break
        wait[0] *= 2
    assert sim.games > 0
    ranges = sim.played()
    size = sm.chunk_size(1_000_000)
    assert all((a - 9) % size == 0 and b - a + 1 < size for a, b in ranges)
    data = sm.summary(sim)
    assert data == _replayed(data, ranges)


def test_an_interrupted_run_reports_the_chunks_that_finished(monkeypatch):
    """A Ctrl-C between chunks (simulated: the fourth chunk raises KeyboardInterrupt)
    keeps exactly the chunks that finished, whole."""
    calls = []
    real = sm.run_chunk

    def chunk(mod, task, stop=None):
        calls.append(task.index)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(mod, task, stop)

    monkeypatch.setattr(sm, "run_chunk", chunk)
    sim = sm.simulate(base_bundle(), ["marquise", "eyrie"], games=600, seed=1, jobs=1)
    assert sim.interrupted and sorted(sim.chunk_tallies) == [0, 1, 2]
    assert sim.games == 3 * sm.chunk_size(600)
    data = sm.summary(sim)
    assert data["interrupted"] and data["games"] == sim.games and data["games_requested"] == 600


def test_records_carry_round_rows_from_a_fresh_state():
    """The per-round rows start with round 1 and the turn counter's rounds."""
    mod = load_core(base_bundle()).module
    layout = mod.LAYOUT
    state = array("q", [0]) * layout["consts"]["STATE_SIZE"]
    core = mod.Core(state)
    core.init_game(21, Game(["marquise", "eyrie"], 21)._seats)
    core.seed_agent(21)
    rec = sm.play_rounds(core, state, layout["state"], 1_000_000)
    assert rec.rounds == len(rec.vp_by_round) == -(-state[layout["state"]["TURN"]] // 2)


def test_without_a_compiler_the_parent_runs_the_pure_path(tmp_path, monkeypatch):
    """No compiled core anywhere and compiling fails: a note, and the pure path."""
    from rootlaw.generator import build as gbuild
    from rootlaw.runtime import core as rcore

    def no_compiler(bundle, quiet=True):
        raise RuntimeError("no C compiler")

    monkeypatch.setenv("ROOTLAW_CACHE", str(tmp_path))
    monkeypatch.delenv("ROOTLAW_PURE", raising=False)
    monkeypatch.setattr(rcore, "_LOADED", {})
    monkeypatch.setattr(rcore, "_installed", lambda key: None)
    monkeypatch.setattr(gbuild, "compile_core", no_compiler)
    mod, compiled, notes = sm.prepare_core(base_bundle())
    assert not compiled and not mod.compiled()
    assert notes == ["compiling the core failed (no C compiler); running the pure-Python path"]


def test_a_worker_that_dies_is_a_coded_error():
    """A worker that cannot start (here: its core file is gone) breaks the pool: the
    run ends with WORKER-FAILED (the command prints it as a coded error), the workers
    stopped."""
    ref = sm.CoreRef(key="gone", name="rootlaw_core_gone", path="/no/such/core.py",
                     compiled=False)
    tasks = [sm.ChunkTask(i, i, 1, 1, (0, 1), 1000) for i in range(4)]
    with pytest.raises(sm.RootlawError) as e:
        sm._run_processes(ref, tasks, 2, lambda *a: pytest.fail("no chunk can finish"))
    assert e.value.code == "WORKER-FAILED"
