"""The agents: the evaluation and the heuristic in the core (core/agent.py.j2), the
heuristic and search agents (runtime/agents.py, runtime/search.py), their specs and seeds.

Strength is measured by commands (``rootlaw simulate --agents``, ``--match``;
docs/agents.md), not asserted here beyond a handful of small seeded games."""

from __future__ import annotations

import pytest

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
        n = g._core.play_heuristic(W, 1, 100, 120, 0)
        ends.append((n, list(g.state)))
    assert ends[0] == ends[1] == ends[2] and ends[0][0] == 120
    g = Game(["marquise", "eyrie"], 6)
    g._core.seed_agent(12)
    g._core.play_heuristic(W, 1, 100, 120, 0)
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
