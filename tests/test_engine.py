"""Whole-game properties: termination, determinism, invariants, compiled/pure agreement."""

from __future__ import annotations

import pytest

from rootlaw.runtime import Game, IllegalAction, RandomAgent, RootlawError, base_bundle
from rootlaw.runtime import scenario as sc


def test_compiled_core_is_loaded():
    # The installed package must run the compiled core (not silently fall back).
    assert Game(seed=1, pure=False).compiled


def test_pure_core_is_pure():
    assert not Game(seed=1, pure=True).compiled


TWO = ["marquise", "eyrie"]


@pytest.mark.parametrize("seed", range(1, 301))
def test_random_games_end_with_a_winner(seed):
    g = Game(TWO, seed, pure=False)
    g.playout(seed)
    assert g.is_over and g.winner is not None  # Law 3.1: someone reaches 30 VP
    assert g.scores[g.winner] >= 30  # no dominance in two-player games (Law 5.1.3)


def test_seed_and_choices_reproduce_a_game():
    a = Game(seed=11)  # every faction of the bundle
    assert a.num_players == len(a.bundle.factions)
    a.playout(5)
    b = Game(seed=11)
    for act in a.history:
        b.apply(act)
    assert list(a.state) == list(b.state)


@pytest.mark.parametrize("seed", range(1, 101))
def test_compiled_and_pure_agree_decision_by_decision(seed):
    fast = Game(TWO, seed, pure=False)
    slow = Game(TWO, seed, pure=True)
    agent_f, agent_s = RandomAgent(seed), RandomAgent(seed)
    n = 0
    while not fast.is_over:
        lf, ls = fast.legal_actions(), slow.legal_actions()
        assert lf == ls, f"decision {n}: legal actions differ"
        a, b = agent_f.choose(fast, lf), agent_s.choose(slow, ls)
        fast.apply(a)
        slow.apply(b)
        assert list(fast.state) == list(slow.state), f"decision {n}: states differ"
        n += 1
    assert slow.is_over and fast.winner == slow.winner


# Games of three, and of two with the Woodland Alliance, in every seat order: each
# ends with a winner, by 30 VP or by dominance (Law 3.1, 3.3; dominance cards stay in
# the deck with three or more players, Law 5.1.3).
MIXES = [["marquise", "eyrie", "alliance"], ["alliance", "marquise", "eyrie"],
         ["eyrie", "alliance", "marquise"], ["marquise", "alliance"], ["alliance", "marquise"],
         ["eyrie", "alliance"], ["alliance", "eyrie"]]


@pytest.mark.parametrize("factions", MIXES, ids=["-".join(m) for m in MIXES])
def test_games_with_the_alliance_end_with_a_winner(factions):
    for seed in range(1, 41):
        g = Game(factions, seed, pure=False)
        g.playout(seed)
        assert g.is_over and g.winner is not None, seed
        won = g.scores[g.winner] >= 30 or g.state[g.S["DOMINANCE"] + g.winner] >= 0
        assert won, seed


@pytest.mark.parametrize("seed", range(1, 101))
def test_compiled_and_pure_agree_on_three_player_games(seed):
    # Capped at 250 decisions a game to keep the pure side quick; the seat order turns
    # with the seed so the Alliance sits first, second and third.
    factions = MIXES[seed % 3]
    fast = Game(factions, seed, pure=False)
    slow = Game(factions, seed, pure=True)
    agent = RandomAgent(seed)
    n = 0
    while not fast.is_over and n < 250:
        lf, ls = fast.legal_actions(), slow.legal_actions()
        assert lf == ls, f"decision {n}: legal actions differ"
        a = agent.choose(fast, lf)
        fast.apply(a)
        slow.apply(a)
        assert list(fast.state) == list(slow.state), f"decision {n}: states differ"
        n += 1


def test_illegal_action_changes_nothing(new_game):
    g = new_game(seed=3)
    before = list(g.state)
    with pytest.raises(IllegalAction) as e:
        g.apply(g.space.size - 1 if g.space.size - 1 not in g.legal_actions() else 0)
    assert e.value.code == "ACTION-ILLEGAL"
    assert list(g.state) == before
    with pytest.raises(IllegalAction):
        g.apply(-5)
    with pytest.raises(IllegalAction):
        g.apply("fly to the moon")
    assert list(g.state) == before


def test_clone_is_independent(new_game):
    g = new_game(seed=5)
    for _ in range(20):
        g.apply(g.legal_actions()[-1])
    h = g.clone()
    h.apply(h.legal_actions()[0])
    assert list(g.state) != list(h.state)
    assert len(h.history) == len(g.history) + 1


def test_decision_names_what_is_asked(mid_game):
    """Game.decision: the step op, or the interrupt on top of it; public, in the
    observation too; None once the game is over."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "workshop", 1)
    sc.set_hand(g, 0, ["anvil"])
    sc.set_hand(g, 1, ["mouse-crossbow"])
    sc.goto(g, "marquise", "daylight")
    assert g.decision == "craft"
    g.apply("done")
    assert g.decision == "actions"
    sc.set_dice(g, 0, 0)
    g.apply("battle 5 eyrie")
    assert g.decision == "ambush" and g.to_play == 1
    assert g.observation(0)["decision"] == g.observation(1)["decision"] == "ambush"
    g.apply("done")
    assert g.decision == "actions"
    g.state[g.S["OVER"]] = 1
    assert g.decision is None


def test_every_decision_of_a_game_has_a_name(new_game):
    g = new_game(seed=3)
    agent = RandomAgent(3)
    seen = set()
    while not g.is_over:
        seen.add(g.decision)
        g.apply(agent.choose(g, g.legal_actions()))
    assert None not in seen
    assert {"actions", "craft", "resolve_columns", "ambush"} <= seen


def test_game_info_is_static_and_consistent(new_game):
    g = new_game()
    info = g.info
    assert info.factions == ("marquise", "eyrie", "alliance")  # the bundle's, not the seats
    assert (info.min_players, info.max_players) == (2, 3)
    assert info.num_actions == g.space.size
    assert info.observation_size == len(g.observation_vector(0))
    assert info.victory_points == 30  # Law 3.1
    g.playout(1, 50)
    assert g.info == info  # no state in it


# ---------------------------------------------------------------------- the automatic-step bound


def test_a_loop_of_automatic_steps_is_a_coded_error_not_a_hang(monkeypatch):
    """Issue 15: a rules bug in a mandatory step made apply() hang (the decision loop had
    a bound, the automatic steps none).  The bug, on the pure core: a battle's stages
    never advance (battle_continue does nothing), so run() goes round for ever at the
    first battle.  run() stops after its bound of passes and apply() raises ENGINE-LOOP.
    (Content cannot loop the same way: a hook that runs a hook is refused, HOOK-NESTED.)"""
    g = Game(TWO, 4, pure=True)
    monkeypatch.setattr(type(g._core), "battle_continue", lambda self: 0)
    agent = RandomAgent(4)
    with pytest.raises(RootlawError) as e:
        for _ in range(2000):
            g.apply(agent.choose(g, g.legal_actions()))
    assert e.value.code == "ENGINE-LOOP"
    assert "automatic steps ran 200000 passes without reaching a decision" in str(e.value)
    assert g._core.fault and g.state[g.S["B_STAGE"]] != 0  # stuck in the battle
    with pytest.raises(RootlawError, match="ENGINE-LOOP"):  # and it stays broken
        g._core.advance()


def _seats(factions):
    return Game(factions, 1)._seats


@pytest.mark.parametrize("entry", ["init_game", "apply", "playout", "play_on", "advance"])
def test_every_entry_point_raises_engine_loop_at_the_bound(core_kind, entry):
    """The bound lowered to 2 passes (0 for init_game() and advance(), which may need no
    more) trips on the base game: each entry point into the core raises ENGINE-LOOP
    instead of going on from a half-run state."""
    from array import array

    from rootlaw.runtime.core import load_core

    mod = load_core(base_bundle(), pure=core_kind == "pure").module
    state = array("q", [0]) * mod.LAYOUT["consts"]["STATE_SIZE"]
    core = mod.Core(state)
    assert core.run_bound == 200_000 and core.fault == 0
    if entry != "init_game":
        core.init_game(5, _seats(TWO))
    core.run_bound = 0 if entry in ("init_game", "advance") else 2
    with pytest.raises(RootlawError) as e:
        if entry == "init_game":
            core.init_game(5, _seats(TWO))
        elif entry == "apply":
            for _ in range(1000):
                core.apply(core.legal_actions()[0])
        elif entry == "playout":
            core.playout_trace(5, 10_000)
        elif entry == "play_on":
            core.seed_agent(5)
            core.play_on(10_000, 0)
        else:
            core.advance()
    assert e.value.code == "ENGINE-LOOP" and core.fault
    assert core.clone().fault  # a clone of a broken game is broken too


def test_the_bound_is_far_above_what_games_need():
    """Random games of the base factions never need more than a few dozen passes of
    automatic work between two decisions (the bound is 200,000)."""
    from array import array

    from rootlaw.runtime.core import load_core

    mod = load_core(base_bundle(), pure=False).module
    for factions in (TWO, ["marquise", "eyrie", "alliance"]):
        for seed in range(300):
            core = mod.Core(array("q", [0]) * mod.LAYOUT["consts"]["STATE_SIZE"])
            core.run_bound = 60
            core.init_game(seed, _seats(factions))
            core.playout(seed, 1_000_000)
            assert core.fault == 0
