"""The OpenSpiel game "rootlaw": OpenSpiel's random_sim_test for every faction mix, state
serialization round trips, a whole game played by OpenSpiel's MCTS bot, and the seeds."""

from __future__ import annotations

from pathlib import Path

import pytest
from rl_extra import need

need("numpy", "pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python import observation  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import rootlaw.runtime.envs.openspiel as ros  # noqa: E402
from rootlaw.runtime import Game  # noqa: E402
from rootlaw.runtime.envs import faction_mixes  # noqa: E402
from rootlaw.runtime.errors import RootlawError  # noqa: E402

MIXES = faction_mixes()
mix_id = "-".join
ROOT = Path(__file__).resolve().parent.parent


def load(mix, **params):
    return pyspiel.load_game(ros.SHORT_NAME, {"factions": ",".join(mix), **params})


def test_registered_as_the_issue_asks():
    t = load(MIXES[0]).get_type()
    assert t.short_name == "rootlaw"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_tensor and t.provides_observation_tensor
    assert t.provides_information_state_string and t.provides_observation_string


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_random_sim_test(mix):
    # A whole random game with OpenSpiel's checks after every decision (clones, legal
    # actions sorted and named uniquely, observation and information-state tensors and
    # strings for every player, returns).  serialize=True cannot work for a Python game
    # with sampled chance (see test_openspiel_cannot_serialize_...): the same game with
    # its chance as a node is simulated with serialization below, and the round trip of
    # the state itself is tested here too.
    game = load(mix, seed=7)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_random_sim_test_with_serialization_when_the_deal_is_a_chance_node(mix):
    # With ``deals`` the initial state is a chance node over the deals (seeds): OpenSpiel
    # saves such a game whole, so random_sim_test round-trips game and state through
    # serialize_game_and_state at its check points.
    game = load(mix, seed=7, deals=5)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_deal_plays_its_seed_and_is_hidden_until_dealt():
    mix = MIXES[0]
    game = load(mix, seed=20, deals=4)
    assert game.max_chance_outcomes() == 4
    assert game.max_game_length() == game.get_parameters()["max_decisions"] + 1
    state = game.new_initial_state()
    assert state.is_chance_node() and not state.is_terminal()
    assert state.chance_outcomes() == [(k, 0.25) for k in range(4)]
    assert state.legal_actions() == [0, 1, 2, 3]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "deal seed 22"
    # Before the deal every seat sees nothing; the undealt state clones and saves as is.
    assert not any(state.observation_tensor(0))
    assert state.clone().is_chance_node()
    again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1]
    assert again.is_chance_node()
    again.apply_action(2)
    state.apply_action(2)
    g = Game(list(mix), 22)
    assert state.position.game.hand(0) == g.hand(0)
    g.playout(22)
    for a in g.history:
        assert not state.is_chance_node()
        state.apply_action(a)
    assert state.is_terminal()
    assert state.returns() == [1.0 if s == g.winner else -1.0 for s in range(len(mix))]
    # Mid-game (after the deal), game and state travel together.
    saved = pyspiel.serialize_game_and_state(game, again)
    restored = pyspiel.deserialize_game_and_state(saved)[1]
    assert str(restored) == str(again)
    with pytest.raises(RootlawError, match="deals"):
        load(mix, deals=-1)


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_state_serialization_round_trips(mix):
    # At the points random_sim_test would check (fewer than 10 decisions, powers of two).
    game = load(mix, seed=3)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    n = 0
    while not state.is_terminal():
        if n < 10 or n & (n - 1) == 0:
            copy = game.deserialize_state(state.serialize())
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.information_state_string(0) == state.information_state_string(0)
            # The generator travels with the state: the same dice after the same moves.
            for _ in range(20):
                if state.is_terminal():
                    break
                a = int(rng.choice(state.legal_actions()))
                state.apply_action(a)
                copy.apply_action(a)
                n += 1
                assert str(copy) == str(state)
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
        n += 1
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


def test_openspiel_cannot_serialize_sampled_chance_python_games():
    # OpenSpiel serializes a sampled-chance game with its generator's state
    # (GetRNGState), which a Python game cannot provide in this OpenSpiel.  When that
    # changes, this fails: then random_sim_test of sampled games can run with
    # serialize=True too, not only games whose deal is a chance node (``deals``).
    game = load(MIXES[0])
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())


def test_initial_states_play_seed_plus_k_and_returns_are_the_outcome():
    mix = MIXES[0]
    game = load(mix, seed=10)
    for k in range(2):
        state = game.new_initial_state()
        state.clone()  # OpenSpiel's own states (clones, shapes) take no seed
        game.information_state_tensor_shape()
        g = Game(list(mix), 10 + k)
        assert str(state).endswith(f"seed {10 + k}, decisions: ")
        g.playout(10 + k)
        for a in g.history:
            state.apply_action(a)
        assert state.is_terminal()
        want = [1.0 if s == g.winner else -1.0 for s in range(len(mix))]
        assert state.returns() == want


def test_a_stopped_game_returns_zero():
    game = load(MIXES[0], max_decisions=30)
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 30 and state.returns() == [0.0] * len(MIXES[0])


def test_information_state_string_hides_a_card_put_face_down():
    # Law 8.5.1: Mobilize adds a card to the supporters face down.  The other seats'
    # perfect-recall strings must not tell which card went (they see one more
    # supporter); the Alliance's own string does.
    mix = ("alliance", "marquise", "eyrie")
    game = load(mix, seed=5)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while True:
        assert not state.is_terminal(), "no mobilize choice between two cards"
        names = {a: state.action_to_string(state.current_player(), a)
                 for a in state.legal_actions()}
        mob = [a for a, n in names.items() if n.startswith("mobilize ")]
        if state.current_player() == 0 and len(mob) >= 2:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    one, two = state.clone(), state.clone()
    one.apply_action(mob[0])
    two.apply_action(mob[1])
    assert one.information_state_string(0) != two.information_state_string(0)
    for seat in (1, 2):
        assert one.information_state_string(seat) == two.information_state_string(seat)
        assert one.information_state_string(seat) != state.information_state_string(seat)


def test_observation_tensor_is_the_seats_vector_and_public_views_hide_the_hand():
    mix = MIXES[0]
    game = load(mix, seed=4)
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(state.legal_actions()[0])
    g = state.position.game
    for seat in range(len(mix)):
        assert state.observation_tensor(seat) == [float(v)
                                                  for v in g.observation_vector(seat)]
        assert state.information_state_tensor(seat) == state.observation_tensor(seat)
    off, size = g.observation_layout["hand"]
    tensor = np.array(state.observation_tensor(0))
    assert tensor[off:off + size].sum() == len(g.hand(0)) > 0
    public = observation.make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert not public.tensor[off:off + size].any()
    assert public.tensor[:off].tolist() == tensor[:off].tolist()
    assert public.dict["hand"].shape == (size,)
    private = observation.make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False,
        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    private.set_from(state, 0)
    assert private.tensor.sum() == len(g.hand(0))
    with pytest.raises(ValueError, match="hands are hidden"):
        observation.make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_mcts_bot_plays_a_whole_game():
    # MCTS (few simulations, rollouts cut at 15 decisions) for the first seat against a
    # random player, to the real end of the game.
    mix = MIXES[0]
    game = load(mix, seed=2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, random_state=rng,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng, max_length=15))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert moves > 50
    assert sorted(state.returns()) == [-1.0] * (len(mix) - 1) + [1.0]


def _midgame(mix=("marquise", "eyrie", "alliance"), seed=4, steps=120):
    game = load(mix, seed=seed)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def test_a_clone_plays_a_future_nobody_knew_not_the_real_one():
    """Law 1.2: the deck's order and the dice to come are nobody's.  A clone (what
    OpenSpiel's MCTS searches on) has them sampled again; hands and the board are the
    state's; the state itself plays on its own seeded future."""
    _, state = _midgame()
    g = state.position.game
    deck = sorted(g.state[g.S["DECK"] + i] for i in range(g.state[g.S["DECK_LEN"]]))
    clones = [state.clone().position.game for _ in range(6)]
    rng_at = g.S["RNG"]
    assert len({c.state[rng_at] for c in clones} | {g.state[rng_at]}) == 7
    orders = set()
    for c in clones:
        assert c.history == g.history
        assert [c.hand(q) for q in range(3)] == [g.hand(q) for q in range(3)]
        assert c.piece_counts() == g.piece_counts()
        order = [c.state[c.S["DECK"] + i] for i in range(c.state[c.S["DECK_LEN"]])]
        assert sorted(order) == deck
        orders.add(tuple(order))
    assert len(orders) > 1, "the deck's order was never sampled again"
    real = Game(g.factions, g.seed)
    for a in g.history:
        real.apply(a)
    assert list(real.state) == list(g.state)  # the state is the game its seed plays


def test_resample_from_infostate_keeps_the_player_s_information_state():
    _, state = _midgame()
    for player in range(3):
        key = state.information_state_string(player)
        views = []
        for k in range(4):
            sample = state.resample_from_infostate(player, lambda k=k: (k + 0.5) / 4)
            assert sample.information_state_string(player) == key
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert sample.legal_actions() == state.legal_actions() or \
                state.current_player() != player
            sg = sample.position.game
            views.append(tuple(tuple(sg.hand(q)) for q in range(3) if q != player))
        assert len(set(views)) > 1, "nothing hidden from the player was sampled again"


def test_ismcts_bot_plays_a_whole_game():
    """OpenSpiel's information-set MCTS (it needs resample_from_infostate) as the first
    seat against a random player, to the real end of the game."""
    from open_spiel.python.algorithms import ismcts

    game = load(MIXES[0], seed=5)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng, max_length=10),
                           uct_c=2.0, max_simulations=3, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert moves > 50 and state.position.game.is_over


def test_packs_parameter_loads_a_pack():
    pack = ROOT / "examples" / "homebrew-map"
    game = load(MIXES[0], packs=str(pack), map="thicket", seed=1)
    state = game.new_initial_state()
    g = state.position.game
    assert g.bundle.map.id == "thicket" and g.bundle.hash != Game(list(MIXES[0])).bundle.hash
    assert game.num_distinct_actions() == g.space.size
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    pyspiel.random_sim_test(load(MIXES[0], packs=str(pack), map="thicket", max_decisions=200),
                            num_sims=1,
                            serialize=False, verbose=False)


# ---------------------------------------------------------------------- lazy histories, speed


def eager_strings(state) -> list[str]:
    """Every seat's information-state string as the game built them before issue 15:
    at every decision, each seat's entry (a digest of what it saw, who decided, its own
    choices) recorded there and then.  The lazy trail must give these very strings."""
    from hashlib import blake2b

    g = state.position.game
    replay = Game(list(g.factions), g.seed, bundle=g.bundle)
    seen: list[list[str]] = [[] for _ in g.factions]
    for a in g.history:
        actor = replay.to_play
        for seat, row in enumerate(seen):
            saw = blake2b(replay.observation_vector(seat).tobytes(), digest_size=8).hexdigest()
            row.append(f"{saw}/{actor}:{a if seat == actor else '?'}")
        replay.apply(a)
    return [f"p{seat}:{','.join(map(str, g.observation_vector(seat)))}|{','.join(row)}"
            for seat, row in enumerate(seen)]


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_information_state_strings_are_built_lazily_and_are_the_same(mix):
    """Issue 15: every seat's string was built at every decision (most of its cost).
    Now nothing is built while playing, and the strings asked for, at any point, of a
    clone, of a copy through serialize() or after a deal, are the eager ones."""
    for params in ({"seed": 11}, {"seed": 11, "deals": 3}):
        game = load(mix, **params)
        state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(1)
        rng = np.random.default_rng(11)
        clones = []
        n = 0
        while not state.is_terminal():
            if n in (0, 1, 2, 40, 41, 150) or n % 97 == 0:
                want = eager_strings(state)
                assert [state.information_state_string(p) for p in range(len(mix))] == want
                clones.append((state.clone(), want))
                copy = game.deserialize_state(state.serialize())
                assert [copy.information_state_string(p) for p in range(len(mix))] == want
            if n == 60:
                assert len(state.trail.seen[0]) == 41  # nothing built since asked at 41
            state.apply_action(int(rng.choice(state.legal_actions())))
            n += 1
        assert [state.information_state_string(p) for p in range(len(mix))] == \
            eager_strings(state)
        for clone, want in clones:  # a clone keeps its own history, and goes on alone
            assert [clone.information_state_string(p) for p in range(len(mix))] == want
            if not clone.is_terminal():
                clone.apply_action(clone.legal_actions()[0])
                assert clone.information_state_string(0) == eager_strings(clone)[0]


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_legal_actions_from_python_are_pyspiels_own(mix):
    """RootState.legal_actions answers from Python what pyspiel's C++ State.legal_actions
    answers (it skips the trips back into Python): for the seat to play and every other,
    at the chance node, in play and once terminal."""
    def both(state, *player):
        return state.legal_actions(*player), pyspiel.State.legal_actions(state, *player)

    for params in ({"seed": 4, "max_decisions": 300}, {"seed": 4, "deals": 2}):
        state = load(mix, **params).new_initial_state()
        rng = np.random.default_rng(4)
        while True:
            mine, theirs = both(state)
            assert mine == theirs
            for p in range(len(mix)):
                assert both(state, p)[0] == both(state, p)[1], p
            if state.is_terminal():
                assert mine == []
                break
            if state.is_chance_node():
                assert both(state, pyspiel.PlayerId.CHANCE)[0] == mine == [0, 1]
            state.apply_action(int(rng.choice(mine)))


def test_the_bench_loop_plays_the_games_of_the_seeds():
    """random_games, the loop `rootlaw bench` times, plays game seed+k as its k-th."""
    n = ros.random_games(list(MIXES[0]), 3, 21)
    want = 0
    for k in range(3):
        state = load(MIXES[0], seed=21 + k).new_initial_state()
        from rootlaw.runtime import RandomAgent
        agent = RandomAgent(21 + k)
        while not state.is_terminal():
            state.apply_action(agent.choose(None, state.legal_actions()))
            want += 1
    assert n == want > 0


@pytest.mark.parametrize("resample", [True, False], ids=["infostate", "clone"])
def test_a_sampled_states_history_strings_follow_its_own_world(resample):
    """A sampled state (resample_from_infostate, or a clone's fresh future) plays on in a
    world of its own: the history its information-state strings tell is rendered in
    that world, never by replaying its decisions in the world it was sampled from (where
    a card only the sample dealt is not there: ACTION-ILLEGAL, as ISMCTS once met).
    Rendered at every decision or once at the end, the strings are the same."""
    game = load(MIXES[0], seed=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(7)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    for p in range(game.num_players()):
        state.information_state_string(p)  # rendered up to here, in the real world
    player = state.current_player()

    def sampled():
        return state.resample_from_infostate(player, lambda: 0.25) if resample else \
            state.clone()

    sample, twin = sampled(), sampled()  # the twin: the same world when resampled
    assert sample.information_state_string(player) == state.information_state_string(player)
    for _ in range(200):
        if sample.is_terminal():
            break
        for p in range(game.num_players()):
            sample.information_state_string(p)  # rendered at every decision
        action = int(rng.choice(sample.legal_actions()))
        sample.apply_action(action)
        if resample:
            twin.apply_action(action)
    for p in range(game.num_players()):
        told = sample.information_state_string(p)
        assert sample.clone().information_state_string(p) == told  # the same past
        if resample:
            assert twin.information_state_string(p) == told, p  # rendered once, here
