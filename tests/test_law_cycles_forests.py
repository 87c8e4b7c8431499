"""Two primitives for homebrew factions, on both cores and in both seat orders:
score_forests (Law 2.4 forests, 2.5 rule) and cycles (run_stage, advance_cycle: a marker
going round a ring of stages, each stage running a hook of the faction's program).

The faction under test is tests/data/families/test-seasons.json: a tide cycle (ebb,
flood, slack; starting on flood) whose flood Birdsong places a warrior at each den and
whose slack Birdsong draws a card, a moon cycle (new, full) whose full Daylight adds a
one-move march, and an Evening that scores 2 VP per forest held (at least 2 clearings),
then turns the tide by one stage and the moon by three.

Autumn forests: 1_2_5_10, 1_9_10_12, 2_6_10_11_12, 3_6_11, 3_7_11_12, 4_7_8_12, 4_9_12.
"""

from __future__ import annotations

import pytest
from observation_reference import ObservationEncoder

from rootlaw.runtime import RandomAgent
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.errors import RootlawError
from rootlaw.runtime.render import render_svg

ORDERS = [("marquise", "test-seasons"), ("test-seasons", "marquise")]
T = "test-seasons"


def seats(g):
    return g.factions.index(T), g.factions.index("marquise")


def evening_vp(g, seat: int) -> int:
    """VP scored by the faction's Evening (held where the turn ends)."""
    before = g.scores[seat]
    sc.set_hand(g, seat, [])
    pos.set_stop(g, "end_of_turn")
    sc.goto(g, T, "evening")
    assert g.decision == "end_of_turn"
    return g.scores[seat] - before


# ---------------------------------------------------------------- Law 2.4: forests held


@pytest.mark.parametrize("order", ORDERS)
def test_a_forest_is_held_by_ruling_more_of_its_clearings_than_anyone(green_game, order):
    """Law 2.4, 2.5: forest 1_2_5_10 touches 1, 2, 5 and 10. Ruling 1 and 5 against the
    Marquise's 2 holds it (2 > 1, and at least the step's 2); 1_9_10_12 is not held with
    one clearing of it ruled (under 'min'). 2 VP per forest held."""
    g = green_game(order)
    me, cat = seats(g)
    sc.put(g, "1", "tide-warrior", 1)
    sc.put(g, "5", "tide-warrior", 2)
    sc.put(g, "2", "cat-warrior", 3)
    assert evening_vp(g, me) == 2
    assert g.scores[cat] == 0


@pytest.mark.parametrize("order", ORDERS)
def test_a_tie_for_most_clearings_holds_no_forest(green_game, order):
    """Law 2.4: held means more than any other player; 2 against 2 is nobody's."""
    g = green_game(order)
    me, _ = seats(g)
    sc.put(g, "1", "tide-warrior", 1)
    sc.put(g, "5", "tide-warrior", 1)
    sc.put(g, "2", "cat-warrior", 1)
    sc.put(g, "10", "cat-warrior", 1)
    assert evening_vp(g, me) == 0


@pytest.mark.parametrize("order", ORDERS)
def test_fewer_clearings_than_min_hold_nothing_alone(green_game, order):
    """One ruled clearing of a forest nobody else touches is below the step's 'min' 2."""
    g = green_game(order)
    me, _ = seats(g)
    sc.put(g, "5", "tide-warrior", 3)
    assert evening_vp(g, me) == 0


@pytest.mark.parametrize("order", ORDERS)
def test_rule_decides_not_presence_and_tokens_do_not_rule(green_game, order):
    """Law 2.5: rule is warriors plus buildings; a token does not count. The Marquise's
    two warriors in 5 outnumber the seasons' one, so it rules 5, and the seasons' shell
    in 2 rules nothing: forest 1_2_5_10 is the Marquise's 1 (clearing 5) against 1 (the
    seasons' clearing 1), a tie. A den in 2 (a building rules) makes it 2 against 1."""
    g = green_game(order)
    me, _ = seats(g)
    sc.put(g, "1", "tide-warrior", 1)
    sc.put(g, "5", "tide-warrior", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "2", "shell", 2)
    assert g.ruler("5") == "marquise" and g.ruler("2") is None
    assert evening_vp(g, me) == 0
    g2 = green_game(order)
    sc.put(g2, "1", "tide-warrior", 1)
    sc.put(g2, "5", "tide-warrior", 1)
    sc.put(g2, "5", "cat-warrior", 2)
    sc.put(g2, "2", "den", 1)
    assert evening_vp(g2, me) == 2


def test_every_forest_held_scores(green_game):
    """Law 2.4: each forest held scores. Ruling 1, 9, 10 and 12 alone holds 1_9_10_12
    (all 4), 1_2_5_10 (1 and 10), 2_6_10_11_12 (10 and 12) and 4_9_12 (9 and 12), not
    3_7_11_12 or 4_7_8_12 (12 alone) or 3_6_11: 4 forests, 8 VP."""
    g = green_game(ORDERS[0])
    me, _ = seats(g)
    for c in ("1", "9", "10", "12"):
        sc.put(g, c, "tide-warrior", 1)
    assert evening_vp(g, me) == 2 * 4


# ---------------------------------------------------------------- cycles


@pytest.mark.parametrize("order", ORDERS)
def test_cycle_markers_start_on_their_start_stage(green_game, order):
    g = green_game(order, setup=False)
    me, cat = seats(g)
    assert g.cycles(me) == {"tide": "flood", "moon": "new"}
    assert g.cycles(cat) == {}
    assert g.observation(cat)["players"][me]["cycles"] == {"tide": "flood", "moon": "new"}


@pytest.mark.parametrize("order", ORDERS)
def test_run_stage_runs_the_hook_of_the_current_stage_then_the_next_step(green_game, order):
    """In flood, Birdsong's run_stage runs 'surge' (a warrior at each den), and the
    step after it (a shell at each den) runs too; in ebb, no hook: shells only."""
    g = green_game(order)
    me, _ = seats(g)
    sc.put(g, "3", "den", 1)
    pos.set_stop(g, "end_of_phase")
    pos.set_cycle(g, me, "tide", "flood")
    sc.goto(g, T, "birdsong")
    assert sc.count(g, "3", "tide-warrior") == 1 and sc.count(g, "3", "shell") == 1
    assert g.decision == "end_of_phase" and g.phase == "birdsong"
    pos.set_cycle(g, me, "tide", "ebb")
    sc.goto(g, T, "birdsong")
    assert sc.count(g, "3", "tide-warrior") == 1 and sc.count(g, "3", "shell") == 2


@pytest.mark.parametrize("order", ORDERS)
def test_a_stage_hook_with_a_decision_returns_to_the_program(green_game, order):
    """Moon full: after Daylight's actions step, run_stage runs 'moonlit', one march of
    one move (a decision); then the Daylight program ends as it would have. Moon new:
    no hook, Daylight ends after the actions."""
    g = green_game(order)
    me, _ = seats(g)
    sc.put(g, "3", "tide-warrior", 2)
    sc.set_hand(g, me, [])
    pos.set_stop(g, "end_of_phase")
    pos.set_cycle(g, me, "moon", "full")
    sc.goto(g, T, "daylight")
    g.apply("done")  # the two actions of the main program
    assert g.decision == "actions" and g.phase == "daylight"
    assert "move 3->6 x1" in g.legal()
    g.apply("move 3->6 x1")  # one move, one action: no second move (no 'march' frame)
    assert sc.count(g, "6", "tide-warrior") == 1
    assert g.decision == "end_of_phase" and g.phase == "daylight"
    pos.set_cycle(g, me, "moon", "new")
    sc.goto(g, T, "daylight")
    g.apply("done")
    assert g.decision == "end_of_phase" and g.phase == "daylight"


@pytest.mark.parametrize("order", ORDERS)
def test_advance_cycle_goes_round_the_ring(green_game, order):
    """Each Evening the tide moves on one stage (flood, slack, ebb, flood ...) and the
    moon three stages of two (new, full, new ...): after the last stage, the first."""
    g = green_game(order)
    me, _ = seats(g)
    pos.set_stop(g, "end_of_turn")
    seen = []
    for _ in range(4):
        sc.set_hand(g, me, [])
        sc.goto(g, T, "evening")
        seen.append((g.cycles(me)["tide"], g.cycles(me)["moon"]))
    assert seen == [("slack", "full"), ("ebb", "new"), ("flood", "full"), ("slack", "new")]


@pytest.mark.parametrize("order", ORDERS)
def test_cycles_turn_through_the_engines_own_turn_flow(green_game, order):
    """Through whole rounds of a game, the tide is turned once per turn of its own."""
    g = green_game(order, clear=False)
    me, _ = seats(g)
    agent = RandomAgent(3)
    ring = ["ebb", "flood", "slack"]
    turns = 0
    last = g.turn
    while turns < 9 and not g.is_over:
        g.apply(agent.choose(g, g.legal_actions()))
        if g.turn != last:
            last = g.turn
            if g.current != me:  # the seasons' own turn just ended
                turns += 1
                assert g.cycles(me)["tide"] == ring[(1 + turns) % 3]
        assert list(invariant_violations(g)) == []
    assert turns == 9 or g.is_over


def test_goto_reaches_a_step_of_the_current_stages_hook(green_game):
    """A scenario's turn {phase, step} finds a step of a hook that run_stage runs in the
    current stage (the slack tide's 'draw'); the program goes on after run_stage. In
    another stage the step is not there: a coded error."""
    g = green_game(ORDERS[0])
    me, _ = seats(g)
    sc.put(g, "3", "den", 1)
    assert "draw" in pos.steps_of(g, T, "birdsong")
    sc.set_hand(g, me, [])
    pos.set_stop(g, "end_of_phase")
    pos.set_cycle(g, me, "tide", "slack")
    sc.goto(g, T, "birdsong", "draw")
    assert len(g.hand(me)) == 1 and sc.count(g, "3", "shell") == 1  # the step after
    assert sc.count(g, "3", "tide-warrior") == 0
    pos.set_cycle(g, me, "tide", "flood")
    with pytest.raises(RootlawError) as e:
        sc.goto(g, T, "birdsong", "draw")
    assert e.value.code == "REF-UNDEF"


def test_scenario_files_set_and_check_cycles(green_game, core_kind):
    data = {
        "name": "the tide turns at the end of the Evening", "law": "-",
        "factions": ["marquise", T], "stop_at": "end_of_turn",
        "position": {"clear": True, "hands": {T: []}, "cycles": {T: {"tide": "slack"}},
                     "turn": {"faction": T, "phase": "evening"}},
        "steps": [{"expect": {"cycles": {T: {"tide": "ebb", "moon": "full"}}}}],
    }
    bundle = green_game(("marquise", T), setup=False).bundle
    assert sc.run_scenario(data, bundle=bundle, pure=core_kind == "pure") == []
    data["position"]["cycles"] = {T: {"tide": "spring"}}
    [problem] = sc.run_scenario(data, bundle=bundle, pure=core_kind == "pure")
    assert "SCENARIO-INVALID" in problem and "/position/cycles/test-seasons/tide" in problem


@pytest.mark.parametrize("order", ORDERS)
def test_the_observation_shows_every_seats_cycles(green_game, order, core_kind):
    """The cycles field: each seat's markers from the observer on (public), the same as
    the reference encoder at every decision of a game."""
    g = green_game(order, clear=False)
    me, _ = seats(g)
    enc = ObservationEncoder(g.consts, g.names)
    agent = RandomAgent(5)
    off, size = g.observation_layout["cycles"]
    ncyc = g.consts["NCYC"]
    assert size == g.consts["P"] * ncyc and ncyc == 2
    for _ in range(400 if core_kind == "compiled" else 120):
        if g.is_over:
            break
        for seat in range(g.num_players):
            v = g.observation_vector(seat)
            assert v == enc.encode(g, seat)
            rel = (me - seat) % g.num_players
            stages = [g.names["stages"][g._seats[me]][k].index(g.cycles(me)[cy])
                      for k, cy in enumerate(g.names["cycles"][g._seats[me]])]
            assert list(v[off + rel * ncyc:off + (rel + 1) * ncyc]) == stages
        g.apply(agent.choose(g, g.legal_actions()))


def test_the_board_picture_marks_the_current_stage(green_game):
    g = green_game(ORDERS[0])
    me, _ = seats(g)
    pos.set_cycle(g, me, "tide", "slack")
    svg = render_svg(g)
    assert 'data-cycle="tide" data-stage="slack"' in svg
    assert '<g class="stage" data-stage="slack" data-current="1">' in svg
    assert '<g class="stage" data-stage="ebb">' in svg
