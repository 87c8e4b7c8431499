"""The agents: the evaluation and the heuristic in the core (core/agent.py.j2), the
heuristic and search agents (runtime/agents.py, runtime/search.py), their specs and seeds.

Strength is measured by commands (``rootlaw simulate --agents``, ``--match``;
docs/agents.md), not asserted here beyond a handful of small seeded games."""

from __future__ import annotations

import json
import re

import pytest
from conftest import example_bundle
from test_simulate import need, run, simulate_json

from rootlaw.generator.tables import EVAL_TERMS
from rootlaw.runtime import Game, RandomAgent, RootlawError
from rootlaw.runtime.agents import (
    DEFAULT_WEIGHTS,
    HeuristicAgent,
    make_agent,
    parse_agents,
    parse_spec,
    seat_seed,
    table_agents,
    weights_array,
)
from rootlaw.runtime.hidden import check_agent
from rootlaw.runtime.search import DEFAULTS

W = weights_array()
MIXES = [("marquise", "eyrie"), ("eyrie", "alliance"), ("marquise", "eyrie", "alliance")]


def positions(factions, seed: int, every: int, limit: int = 2000, pure: bool = False):
    """Positions of a seeded random game, every so many decisions (the same game object,
    moved on between yields)."""
    g = Game(list(factions), seed, pure=pure)
    agent = RandomAgent(seed)
    while not g.is_over and len(g.history) < limit:
        if len(g.history) % every == 0:
            yield g
        g.apply(agent.choose(g, g.legal_actions()))


# ------------------------------------------------------------------ the evaluation


def only(term: str):
    return weights_array({t: int(t == term) for t in EVAL_TERMS})


def expected(g: Game, term: str) -> list[int]:
    """What one term of the evaluation counts for each seat, from the public API and the
    content (the other hands by size only: the evaluation of a sample reads them)."""
    out = []
    b = g.bundle
    pieces = [(f, name, p) for f in b.factions for name, p in f.pieces.items()]
    S, supply, out_ = g.S, g.S["SUPPLY"], g.S["OUT"]
    for seat, fid in enumerate(g.factions):
        spec = next(f for f in b.factions if f.id == fid)
        steps = [st for prog in (spec.setup, spec.turn.birdsong, spec.turn.daylight,
                                 spec.turn.evening, *spec.hooks.values()) for st in prog]
        income = {st.building for st in steps if st.op == "score_track"}
        limit = min([st.limit for st in steps if st.op == "discard_down_to"] or [10**6])
        board = g.piece_counts()
        n = 0
        for pc, (f, name, p) in enumerate(pieces):
            if f.id != fid:
                continue
            on_board = sum(row.get(name, 0) for row in board.values())
            placed = p.count - g.state[supply + pc] - g.state[out_ + pc]
            vp = list(p.track.vp) if p.track else []
            if term == p.kind:  # warrior, building, token: on the map
                n += on_board
            elif term == "income" and name in income and placed > 0 and p.kind != "warrior":
                n += vp[placed - 1]
            elif term == "next_step" and name not in income and p.kind != "warrior" \
                    and placed < p.count and placed < len(vp):
                n += vp[placed]
            elif term == "draw_bonus" and p.kind != "warrior" and p.track:
                n += sum(1 for at in p.track.draw_at if placed >= at)
        hand = len(g.hand(seat))
        n += {"vp": g.scores[seat] if g.state[S["DOMINANCE"] + seat] < 0 else 0,
              "rule": sum(1 for c in g.names["clearings"] if g.ruler(c) == fid),
              "boxed": sum(g.boxes(seat).values()),
              "card": min(hand, limit), "card_over": max(0, hand - limit),
              "column_card": sum(len(x) for x in g.columns(seat).values()),
              "zone_card": sum(len(x) for x in g.zones(seat).values()),
              "play_card": len(g.play_area(seat))}.get(term, 0)
        out.append(n)
    return out


@pytest.mark.parametrize("term", [t for t in EVAL_TERMS
                                  if t not in ("dominance", "dominance_step", "win")])
def test_each_term_of_the_evaluation_counts_what_it_says(term):
    seen = 0
    for factions in MIXES:
        for g in positions(factions, 3, every=23):
            assert g._core.worth_of_seats(only(term)) == expected(g, term), \
                (term, factions, len(g.history))
            seen += sum(expected(g, term))
    assert seen > 0, f"no position had anything for {term}"


def test_a_seat_s_utility_is_its_worth_less_the_best_other_and_a_won_game_is_won():
    for g in positions(MIXES[2], 4, every=41):
        worth = g._core.worth_of_seats(W)
        for p in range(3):
            assert g._core.evaluate(p, W) == worth[p] - max(worth[q] for q in range(3) if q != p)
    g = Game(list(MIXES[0]), 5)
    g.playout(5)
    assert g._core.evaluate(g.winner, W) == DEFAULT_WEIGHTS["win"]
    assert g._core.evaluate(1 - g.winner, W) == -DEFAULT_WEIGHTS["win"]


# ------------------------------------------------------------------ the heuristic in the core


def snapshot(g: Game):
    return list(g.state), g._core.knowledge(0), g._core.legal_actions()


@pytest.mark.parametrize("factions", MIXES, ids=lambda f: "-".join(x[0] for x in f))
def test_the_look_ahead_leaves_the_game_as_it_was_and_both_cores_agree(factions):
    """Law 1.2's agents run on samples; here the core's own look-ahead is checked: every
    action's value and the choice are the same on the compiled and the pure core, and
    the state, the knowledge and the listing are put back."""
    fast = Game(list(factions), 8)
    slow = Game(list(factions), 8, pure=True)
    agent = RandomAgent(8)
    looked = 0
    while not fast.is_over and len(fast.history) < 400:
        legal = fast.legal_actions()
        if len(fast.history) % 13 == 0 and len(legal) > 1:
            before = snapshot(fast)
            for g in (fast, slow):
                g._core.seed_agent(3)
            vf, vs = fast._core.heuristic_values(W, 2), slow._core.heuristic_values(W, 2)
            assert vf == vs and len(vf) == len(legal)
            assert snapshot(fast) == before and snapshot(slow) == before
            for g in (fast, slow):
                g._core.seed_agent(3)  # the same stream: the same values
            cf, cs = fast._core.heuristic(W, 2), slow._core.heuristic(W, 2)
            assert cf == cs and cf in legal
            assert snapshot(fast) == before
            # The choice has the best value ('done' when nothing beats standing still).
            assert vf[legal.index(cf)] == max(vf)
            looked += 1
        a = agent.choose(fast, legal)
        fast.apply(a)
        slow.apply(a)
    assert looked >= 8


def test_heuristic_playouts_agree_on_both_cores_and_follow_the_seed():
    ends = []
    for pure in (False, True, False):
        g = Game(["marquise", "eyrie"], 6, pure=pure)
        g._core.seed_agent(11)
        n = g._core.play_heuristic(W, 1, 100, 80, 0)
        ends.append((n, list(g.state)))
    assert ends[0] == ends[1] == ends[2] and ends[0][0] == 80
    g = Game(["marquise", "eyrie"], 6)
    g._core.seed_agent(12)
    g._core.play_heuristic(W, 1, 100, 80, 0)
    assert list(g.state) != ends[0][1]


def test_a_heuristic_playout_stops_at_the_turn_asked():
    g = Game(["marquise", "eyrie", "alliance"], 2)
    g._core.seed_agent(1)
    g._core.play_heuristic(W, 1, 0, 10**6, 7)
    assert g.turn == 7 and not g.is_over
    g._core.play_heuristic(W, 1, 0, 10**6, 0)
    assert g.is_over


def test_looking_ahead_records_no_events():
    g = Game(["marquise", "eyrie"], 3)
    g.record_events()
    while len(g.legal_actions()) < 3:
        g.apply(g.legal_actions()[0])
    g.take_events()
    g._core.heuristic_values(W, 2)
    assert g.take_events() == []
    g.apply(g.legal_actions()[0])
    assert g.take_events() != []  # still recording


# ------------------------------------------------------------------ the agents


def play(factions, specs, seed: int, limit: int = 3000) -> Game:
    g = Game(list(factions), seed)
    agents = table_agents([parse_spec(s) for s in specs], seed)
    while not g.is_over and len(g.history) < limit:
        g.apply(agents[g.to_play].choose(g, g.legal_actions()))
    return g


def test_the_heuristic_beats_random_agents():
    """A handful of seeded games, the heuristic in each seat (strength itself is measured
    by `rootlaw simulate --match`, docs/agents.md)."""
    wins = games = 0
    for seed in range(3):
        for seat in range(2):
            specs = ["heuristic" if q == seat else "random" for q in range(2)]
            g = play(("marquise", "eyrie"), specs, seed)
            wins += g.winner == seat
            games += 1
    assert wins == games


def test_an_agent_follows_its_seed_and_the_seat():
    moves = []
    for seed in (5, 5, 6):
        g = Game(["marquise", "eyrie"], 1)
        agent = HeuristicAgent(seed)
        seen = []
        while len(seen) < 30:
            legal = g.legal_actions()
            a = agent.choose(g, legal)
            if len(legal) > 1:
                seen.append(a)
            g.apply(a)
        moves.append(seen)
    assert moves[0] == moves[1] != moves[2]
    assert seat_seed(5, 0) != seat_seed(5, 1) != seat_seed(6, 1)
    assert seat_seed(5, 0) == seat_seed(5, 0) < 2**64


def test_a_table_of_random_agents_is_the_core_s_playout():
    specs = parse_agents("random", 2)
    g = play(("marquise", "eyrie"), ["random", "random"], 9)
    fast = Game(["marquise", "eyrie"], 9)
    fast.playout(9)
    assert g.history == fast.history and len(table_agents(specs, 9)) == 2
    # Any other table: each seat its own stream, from the game seed and the seat.
    mixed = table_agents(parse_agents("random,heuristic", 2), 9)
    assert type(mixed[0]).__name__ == "SeatedRandom"


def test_agent_specs():
    assert str(parse_spec("heuristic:samples=1:rule=60")) == "heuristic:samples=1:rule=60"
    agent = make_agent("heuristic:samples=3:rule=60", 1)
    assert agent.samples == 3
    assert agent.weights[EVAL_TERMS.index("rule")] == 60
    assert agent.weights[EVAL_TERMS.index("vp")] == DEFAULT_WEIGHTS["vp"]
    assert [s.name for s in parse_agents("heuristic, random", 2)] == ["heuristic", "random"]
    assert [s.name for s in parse_agents("first", 3)] == ["first"] * 3
    for bad, says in [("nobody", "unknown agent 'nobody'"), ("heuristic:samples", "key=value"),
                      ("heuristic:samples=0", "at least 1"), ("heuristic:tea=1", "no option 'tea'"),
                      ("heuristic:samples=x", "is a number"), ("random:samples=2", "no option")]:
        with pytest.raises(RootlawError) as e:
            parse_spec(bad)
        assert e.value.code == "AGENT-INVALID" and says in e.value.message, (bad, e.value)
    with pytest.raises(RootlawError) as e:
        parse_agents("random,random,random", 2)
    assert "3 agents for 2 seats" in e.value.message


# ------------------------------------------------------------------ honest about hidden information


class CheatingHeuristic:
    """A heuristic agent given the whole state: it looks ahead on the game itself (the
    real hands, deck and dice to come), not on a sample of what its seat cannot see."""

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, game, legal):
        core = game.clone()._core
        core.seed_agent(self.seed)
        return core.heuristic(W, 2)


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("eyrie", "alliance", "marquise")],
                         ids=["m-e", "e-a-m"])
def test_the_heuristic_chooses_from_its_seat_s_view_alone(factions):
    """Law 1.2: in games its seat cannot tell apart (the other hands, the deck's order
    and the dice to come dealt again), the same seed chooses the same action; an agent
    given the whole state does not, so the check can fail."""
    compared, peeks = check_agent(HeuristicAgent, factions=factions, games=2,
                                  every=5)
    assert compared > 60 and not peeks, "\n".join(map(str, peeks[:5]))
    compared, peeks = check_agent(CheatingHeuristic, factions=factions, games=2, every=5)
    assert compared > 60 and peeks, "the cheating agent was not caught"


# ------------------------------------------------------------------ the search


def test_the_search_beats_random_agents_at_a_small_budget():
    wins = games = 0
    for seed in range(2):
        for seat in range(2):
            specs = ["ismcts:iterations=12" if q == seat else "random" for q in range(2)]
            g = play(("eyrie", "marquise"), specs, seed)
            wins += g.winner == seat
            games += 1
    assert wins == games


def test_the_search_follows_its_seed_and_budget():
    def choices(spec: str, seed: int, n: int = 6):
        g = Game(["marquise", "eyrie"], 4)
        agent = make_agent(spec, seed)
        out, iterations = [], []
        while len(out) < n:
            legal = g.legal_actions()
            a = agent.choose(g, legal)
            if len(legal) > 1:
                out.append(a)
                iterations.append(agent.last_iterations)
            g.apply(a)
        return out, iterations

    a, its = choices("ismcts:iterations=8", 1)
    assert (a, its) == choices("ismcts:iterations=8", 1) and its == [8] * 6
    _, timed = choices("ismcts:seconds=0.02", 1, n=2)  # a time budget: what fits in it
    assert all(n >= 1 for n in timed)


def test_search_specs():
    agent = make_agent("ismcts:iterations=50:rollout=random:c=0.5:horizon=2:vp=120", 3)
    assert (agent.iterations, agent.rollout, agent.c, agent.horizon) == (50, "random", 0.5, 2)
    assert agent.weights[EVAL_TERMS.index("vp")] == 120
    for bad, says in [("ismcts:rollout=smart", "one of heuristic, random"),
                      ("ismcts:iterations=0", "at least 1"), ("ismcts:depth=-1", "at least 0"),
                      ("ismcts:budget=3", "no option 'budget'")]:
        with pytest.raises(RootlawError) as e:
            parse_spec(bad)
        assert e.value.code == "AGENT-INVALID" and says in e.value.message, (bad, e.value)


class Peeking:
    """A game whose determinize hands out the game itself (a clone of the whole state):
    a search given it searches the real hands, deck and dice to come."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def determinize(self, seat, rng=None, **kw):
        if rng is not None and not isinstance(rng, int):
            rng.getrandbits(63)
        return self._game.clone()


class CheatingSearch:
    def __init__(self, seed: int):
        self.agent = make_agent("ismcts:iterations=10", seed)

    def choose(self, game, legal):
        return self.agent.choose(Peeking(game), legal)


def test_the_search_chooses_from_its_seat_s_view_alone():
    """Law 1.2 for the search: every iteration searches a fresh sample of what its seat
    cannot see, so twins of a game give the same choice; searching the game itself
    does not (the check fails on it)."""
    honest = check_agent(lambda s: make_agent("ismcts:iterations=10", s),
                         factions=("marquise", "eyrie"), games=1, every=6)
    assert honest[0] > 20 and not honest[1], "\n".join(map(str, honest[1][:5]))
    cheat = check_agent(CheatingSearch, factions=("marquise", "eyrie"), games=1, every=6)
    assert cheat[0] > 20 and cheat[1], "the cheating search was not caught"


# ------------------------------------------------------------------ where people use them


def test_simulate_with_agents_is_the_same_on_one_process_and_two(capsys):
    argv = ["--games", "4", "--seed", "3", "--agents", "heuristic,ismcts:iterations=4"]
    one, _ = simulate_json(capsys, *argv, "--jobs", "1")
    two, err = simulate_json(capsys, *argv, "--jobs", "2")
    assert one == two and "none compiled" in err
    data = json.loads(one)
    assert data["agents"] == ["heuristic", "ismcts:iterations=4"] and data["games"] == 4
    assert sum(x["wins"] for x in data["turn_order"]) + data["outcomes"]["stopped"] == 4
    # Game i is the game play --agents plays with seed 3 + i.
    rc, out, _ = run(capsys, "play", "--factions", "marquise,eyrie", "--seed", "3", "--games",
                     "4", "--agents", "heuristic,ismcts:iterations=4", "--json")
    played = json.loads(out)
    assert rc == 0 and played["agents"] == data["agents"]
    assert played["wins"] == {f: r["wins"] for f, r in data["results"].items()}


def test_simulate_with_random_agents_is_the_random_simulation(capsys):
    plain, _ = simulate_json(capsys, "--games", "30", "--seed", "2", "--jobs", "1")
    said, _ = simulate_json(capsys, "--games", "30", "--seed", "2", "--jobs", "1",
                            "--agents", "random")
    assert plain == said and "agents" not in json.loads(plain)


def test_simulate_with_agents_on_ray(capsys, monkeypatch):
    need("ray", "ray")
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    argv = ["--games", "2", "--seed", "8", "--agents", "ismcts:iterations=3,heuristic"]
    one, _ = simulate_json(capsys, *argv, "--jobs", "1")
    on_ray, err = simulate_json(capsys, *argv, "--jobs", "2", "--ray")
    assert on_ray == one and "none compiled" in err


def test_a_match_is_seat_balanced(capsys):
    rc, out, err = run(capsys, "simulate", "--factions", "marquise,eyrie,alliance", "--match",
                       "heuristic,random", "--games", "3", "--seed", "1", "--jobs", "1",
                       "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["kind"] == "match" and data["a"] == "heuristic" and data["b"] == "random"
    seats = data["seatings"]
    assert [s["faction"] for s in seats] == ["marquise", "eyrie", "alliance"]
    assert [s["agents"] for s in seats][1] == ["random", "heuristic", "random"]
    a = data["result"]["a"]
    assert a["games"] == 9 and a["wins"] == sum(s["a"]["wins"] for s in seats)
    assert a["win_rate_ci95"][0] <= a["win_rate"] <= a["win_rate_ci95"][1]
    assert a["wins"] + data["result"]["b"]["wins"] + sum(s["stopped"] for s in seats) == 9
    rc, text, _ = run(capsys, "simulate", "--factions", "marquise,eyrie", "--match",
                      "heuristic,random", "--games", "2", "--jobs", "1")
    assert rc == 0 and "A as marquise" in text and "A as eyrie" in text and "95% CI" in text


def test_a_round_robin_sets_every_table_beside_random_agents(capsys):
    rc, out, err = run(capsys, "simulate", "--factions", "marquise,eyrie,alliance",
                       "--round-robin", "--agents", "heuristic", "--games", "2",
                       "--baseline-games", "20", "--jobs", "1", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert [t["factions"] for t in data["tables"]] == [
        ["marquise", "eyrie"], ["marquise", "alliance"], ["eyrie", "alliance"],
        ["marquise", "eyrie", "alliance"]]
    for t in data["tables"]:
        assert t["agent"]["games"] == 2 and t["random"]["games"] == 20
        assert len(t["agent"]["turn_order"]) == len(t["factions"])
    baseline, _ = simulate_json(capsys, "--games", "20", "--seed", "0", "--jobs", "1")
    first = json.loads(baseline)["results"]
    assert {f: r["wins"] for f, r in data["tables"][0]["random"]["results"].items()} == \
        {f: r["wins"] for f, r in first.items()}


@pytest.mark.parametrize("argv, says", [
    (["play", "--agents", "wizard"], "unknown agent 'wizard'"),
    (["play", "--factions", "marquise,eyrie", "--agents", "random,random,random"],
     "3 agents for 2 seats"),
    (["simulate", "--games", "2", "--agents", "ismcts:iterations=none"], "is a number"),
    (["simulate", "--games", "2", "--match", "heuristic"], "two agent specs"),
    (["simulate", "--games", "2", "--match", "a,b", "--round-robin"], "one at a time"),
    (["simulate", "--games", "2", "--round-robin", "--agents", "random,heuristic"],
     "one agent spec"),
])
def test_bad_agent_options_are_clean_errors(capsys, argv, says):
    rc, _, err = run(capsys, *argv)
    assert rc == 1 and says in err and "Traceback" not in err


def test_a_game_of_agents_is_logged_and_replays(capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    rc, out, err = run(capsys, "play", "--factions", "marquise,eyrie", "--seed", "1",
                       "--agents", "ismcts:iterations=4,heuristic", "--log", log)
    assert rc == 0 and "winner: " in out, err
    rc, out, _ = run(capsys, "replay", log)
    assert rc == 0 and "replays to the same end" in out


def test_bench_reports_the_agents(capsys):
    rc, out, err = run(capsys, "bench", "--json", "--games", "1", "--min-seconds", "0",
                       "--rounds", "1", "--no-pettingzoo", "--factions", "marquise,eyrie")
    assert rc == 0, err
    (ag,) = json.loads(out)["agents"]
    assert ag["factions"] == ["marquise", "eyrie"]
    h, m = ag["heuristic"], ag["ismcts"]
    assert h["positions"] > 50 and h["decisions"] == h["positions"] and h["decisions_per_s"] > 0
    budget = DEFAULTS["iterations"]
    assert m["searches"] == 6 and m["iterations"] == 6 * budget and m["iterations_per_s"] > 0
    assert set(m["time_share"]) == {"determinize", "priors", "rollout", "tree"}
    assert 0.99 <= sum(m["time_share"].values()) <= 1.01
    rc, out, _ = run(capsys, "bench", "--games", "1", "--min-seconds", "0", "--rounds", "1",
                     "--no-pettingzoo", "--factions", "marquise,eyrie")
    assert ag["timer"] == "CPU time, best of 1 round" and "choose()" in ag["timed"]
    assert re.search(r"^heuristic agent \(marquise, eyrie\): \d+ decisions/s, \d+ us a "
                     r"decision \(choose\(\) at the \d+ positions with a choice of a game it "
                     r"plays; CPU time, best of 1 round\)$", out, re.M)
    assert re.search(r"^search agent \(marquise, eyrie\): ismcts \("
                     rf"{budget} iterations, rollout heuristic\) \d+ iterations/s, \d+ ms a "
                     r"decision, time: determinize \d+%, priors \d+%, rollout \d+%, tree "
                     r"\d+% \(choose\(\) at 6 of those positions; CPU time, best of 1 round\)$",
                     out, re.M)
    rc, out, _ = run(capsys, "bench", "--json", "--games", "1", "--min-seconds", "0",
                     "--rounds", "1", "--no-pettingzoo", "--no-agents")
    assert json.loads(out)["agents"] == {"skipped": "not asked (--no-agents)"}


def test_the_search_chooses_alike_on_both_cores():
    fast = Game(["marquise", "eyrie"], 5)
    slow = Game(["marquise", "eyrie"], 5, pure=True)
    agent = RandomAgent(5)
    while len(fast.history) < 40 or len(fast.legal_actions()) < 3:
        a = agent.choose(fast, fast.legal_actions())
        fast.apply(a)
        slow.apply(a)
    spec = "ismcts:iterations=3:horizon=1"
    assert make_agent(spec, 2).choose(fast, fast.legal_actions()) == \
        make_agent(spec, 2).choose(slow, slow.legal_actions())


def test_a_pack_s_faction_is_played_as_a_base_one():
    """Nothing in the agents names content: the example pack's druids (cycles of their
    own, tracks, rule ties) are played by the same evaluation, honestly."""
    bundle = example_bundle("hedge-druids")
    wins = 0
    for seed in range(2):
        g = Game(["druids", "marquise"], seed, bundle=bundle)
        agents = [HeuristicAgent(seed), RandomAgent(seed)]
        while not g.is_over:
            g.apply(agents[g.to_play].choose(g, g.legal_actions()))
        wins += g.winner == 0
    assert wins == 2
    compared, peeks = check_agent(HeuristicAgent, bundle, ("druids", "marquise"), games=1,
                                  every=4)
    assert compared > 20 and not peeks
