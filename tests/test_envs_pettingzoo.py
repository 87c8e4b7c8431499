"""The PettingZoo environment: PettingZoo's own api_test, seed_test, max_cycles_test,
render_test and parallel_api_test for every faction mix the bundle has (with the
environment's defaults), and what the docs promise about
observations, masks, rewards, truncation and seeds."""

from __future__ import annotations

import functools
import pickle
import random
import types
import warnings

import pytest
from rl_extra import need

need("numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.parallel_test import parallel_api_test  # noqa: E402

from rootlaw.runtime import FirstAgent, Game, IllegalAction, RootlawError  # noqa: E402
from rootlaw.runtime.envs import faction_mixes  # noqa: E402
from rootlaw.runtime.envs.pettingzoo import env, parallel_env, raw_env  # noqa: E402

MIXES = faction_mixes()
mix_id = "-".join


@pytest.fixture(autouse=True)
def _quiet_advice():
    # PettingZoo's tests advise "player_0" names and Box observations; ours are the
    # factions and the classic-games dict with the mask (documented).
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*recommend agents to be named.*")
        warnings.filterwarnings("ignore", message=".*should be gymnasium.spaces.box.*")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        yield


def masked_random(obs, rng) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(e, rng, record=None):
    """Drive an AEC env to the end with random legal actions; returns the last() of
    each agent when it finished."""
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if record is not None:
            record.append((agent, obs["observation"].tolist(), reward))
        if terminated or truncated:
            final[agent] = (reward, terminated, truncated)
            e.step(None)
        else:
            e.step(masked_random(obs, rng))
    return final


# ---------------------------------------------------------------------- PettingZoo's tests


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_api_test(mix):
    # num_cycles large enough that the random game ends: termination is checked too.
    api_test(env(factions=list(mix)), num_cycles=1000)


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_seed_test(mix):
    seed_test(functools.partial(env, factions=list(mix)), num_cycles=300)


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_max_cycles_test(mix):
    # max_cycles_test samples actions without the mask: with the default rule the seat
    # policy replaces an illegal one and the game plays on (issue 15: the default used
    # to end the game at the first one, and the test failed).
    mod = types.SimpleNamespace(env=functools.partial(env, factions=list(mix)),
                                parallel_env=functools.partial(parallel_env,
                                                               factions=list(mix)))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="rootlaw: .* is not legal now")
        max_cycles_test(mod)


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_render_test(mix, capsys):
    # render_test asks for "human" first, then every mode the metadata lists (issue 15:
    # "human" was refused although PettingZoo expects it).
    render_test(functools.partial(env, factions=list(mix)))
    assert "turn " in capsys.readouterr().out  # "human" printed the board text


def test_the_render_modes_accepted_are_the_ones_listed():
    mix = list(MIXES[0])
    modes = raw_env.metadata["render_modes"]
    assert modes == ["human", "ansi", "svg"]
    for mode in modes:
        raw_env(factions=mix, render_mode=mode)
    with pytest.raises(RootlawError, match="render_mode is one of human, ansi, svg"):
        raw_env(factions=mix, render_mode="rgb_array")


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_parallel_api_test(mix):
    parallel_api_test(parallel_env(factions=list(mix)), num_cycles=1000)


# ---------------------------------------------------------------------- what is promised


def test_agents_are_the_seated_factions_and_spaces_are_the_bundles():
    mix = list(MIXES[0])
    e = env(factions=mix)
    e.reset(seed=1)
    g = e.unwrapped.game
    assert e.possible_agents == e.agents == mix
    for a in mix:
        assert e.action_space(a).n == g.space.size == g.info.num_actions
        assert e.observation_space(a)["observation"].shape == (g.info.observation_size,)
        assert e.observation_space(a)["action_mask"].shape == (g.info.num_actions,)
    assert e.action_space(mix[0]) is not e.action_space(mix[1])  # seeded separately


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_observation_is_the_seats_vector_and_the_mask_its_legal_actions(mix):
    e = env(factions=list(mix), seed=4)
    e.reset()
    g = e.unwrapped.game
    rng = np.random.default_rng(0)
    for _ in range(60):
        agent = e.agent_selection
        assert agent == g.factions[g.to_play]
        for seat, a in enumerate(mix):
            obs = e.observe(a)
            assert obs["observation"].dtype == np.int64
            assert obs["observation"].tolist() == list(g.observation_vector(seat))
            want = set(g.legal_actions()) if a == agent else set()
            assert set(np.flatnonzero(obs["action_mask"]).tolist()) == want
        assert e.unwrapped.legal_actions() == g.legal_actions()
        e.step(masked_random(e.observe(agent), rng))



def test_observations_are_each_agents_buffers_or_fresh_arrays():
    """By default an agent's observation arrays are its own buffers, rewritten in place at
    its next observation; fresh_observations=True gives new arrays that keep their
    numbers.  Either way last() and observe() agree with the game."""
    mix = MIXES[0]
    for fresh in (False, True):
        e = env(factions=list(mix), seed=5, fresh_observations=fresh)
        e.reset()
        g = e.unwrapped.game
        kept = {}
        for _ in range(40):
            agent = e.agent_selection
            obs = e.last()[0]
            seat = mix.index(agent)
            assert obs["observation"].tolist() == list(g.observation_vector(seat))
            assert set(np.flatnonzero(obs["action_mask"])) == set(g.legal_actions())
            if agent in kept:
                before, numbers = kept[agent]
                assert (obs["observation"] is before["observation"]) is not fresh
                assert (obs["action_mask"] is before["action_mask"]) is not fresh
                if fresh:  # what the caller kept is what it was given
                    assert before["observation"].tolist() == numbers
            kept[agent] = (obs, obs["observation"].tolist())
            e.step(int(e.unwrapped.legal_actions()[0]))

@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_rewards_at_the_end_winner_one_others_minus_one(mix):
    e = env(factions=list(mix))
    e.reset(seed=11)
    final = play(e, np.random.default_rng(11))
    g = e.unwrapped.game
    assert g.is_over and g.winner is not None
    assert final == {a: (1.0 if a == g.winner_faction else -1.0, True, False) for a in mix}
    assert e.agents == []


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_a_stopped_game_truncates_everyone_with_zero(mix):
    e = env(factions=list(mix), max_decisions=50)
    e.reset(seed=2)
    final = play(e, np.random.default_rng(2))
    assert final == dict.fromkeys(mix, (0.0, False, True))
    assert len(e.unwrapped.game.history) == 50 and not e.unwrapped.game.is_over


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_max_cycles_asks_every_agent_equally_often(mix):
    # Root's decisions come in runs of one faction; an agent whose budget is spent
    # leaves (truncated, 0) and the seat policy plays its seat on.
    e = env(factions=list(mix), max_cycles=25)
    e.reset(seed=5)
    asked = dict.fromkeys(mix, 0)
    rng = np.random.default_rng(5)
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            final[agent] = (reward, terminated, truncated)
            e.step(None)
        else:
            asked[agent] += 1
            e.step(masked_random(obs, rng))
    assert asked == dict.fromkeys(mix, 25)
    assert final == dict.fromkeys(mix, (0.0, False, True))
    g = e.unwrapped.game
    assert len(g.history) > 25 * len(mix)  # the seat policy played seats that had left


def test_an_illegal_action_ends_the_game_offender_minus_one():
    mix = list(MIXES[0])
    e = env(factions=mix, illegal_action="terminate")
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)
    final = play(e, np.random.default_rng(0))
    assert final == {a: (-1.0 if a == agent else 0.0, True, False) for a in mix}


def test_illegal_action_random_and_raise():
    mix = list(MIXES[0])
    e = env(factions=mix)  # "random", the default
    assert e.unwrapped.illegal_action == "random"
    e.reset(seed=3)
    g = e.unwrapped.game
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match="is not legal now: the seat policy chose instead"):
        e.step(illegal)
    assert len(g.history) == 1 and e.unwrapped.illegal_actions == 1
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once per environment
        e.step(illegal)
    assert len(g.history) == 2 and e.unwrapped.illegal_actions == 2
    r = raw_env(factions=mix, illegal_action="raise")
    r.reset(seed=3)
    with pytest.raises(IllegalAction):
        r.step(illegal)
    assert r.game.history == []


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_reset_seed_is_the_game_of_that_seed_and_reproducible(mix):
    runs = []
    for _ in range(2):
        e = env(factions=list(mix))
        e.reset(seed=9)
        assert list(e.unwrapped.game.state) == list(Game(list(mix), 9).state)
        rec = []
        play(e, np.random.default_rng(1), rec)
        runs.append(rec)
    assert runs[0] == runs[1]
    # The constructor's seed is the first reset's game; later resets are reproducible.
    a, b = env(factions=list(mix), seed=9), env(factions=list(mix), seed=9)
    seeds = []
    for e in (a, b):
        e.reset()
        first = e.unwrapped.game_seed
        e.reset()
        seeds.append((first, e.unwrapped.game_seed))
    assert seeds[0] == seeds[1] and seeds[0][0] == 9 and seeds[0][1] != 9
    e = env(factions=list(mix))
    e.reset(seed=np.int64(-3))  # numpy and negative seeds are seeds too
    assert e.unwrapped.game_seed == -3


def test_seat_policy_plays_the_seats_that_left():
    mix = list(MIXES[0])
    e = env(factions=mix, max_cycles=3, seat_policy=lambda seed: FirstAgent())
    e.reset(seed=7)
    play(e, np.random.default_rng(0))
    g = e.unwrapped.game
    replay = Game(mix, 7)
    asked = dict.fromkeys(mix, 0)
    for a in g.history:  # every decision past an agent's budget is the first legal one
        f = replay.factions[replay.to_play]
        if asked[f] >= 3:
            assert a == replay.legal_actions()[0]
        asked[f] += 1
        replay.apply(a)


def test_render_ansi_and_svg():
    mix = list(MIXES[0])
    e = env(factions=mix, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "turn 0 setup" in text and mix[0] in text
    assert env(factions=mix).unwrapped.render_mode is None
    # The board picture comes from rootlaw.runtime.render (the same drawing as `rootlaw
    # render`), the public view: it parses as SVG and shows no hand.
    assert "svg" in raw_env.metadata["render_modes"]
    e = env(factions=mix, render_mode="svg")
    e.reset(seed=1)
    picture = e.render()
    assert picture.startswith("<svg") or picture.startswith("<?xml")
    import xml.etree.ElementTree as ET
    ET.fromstring(picture)


def test_env_pickles_for_vector_envs():
    mix = list(MIXES[0])
    e = pickle.loads(pickle.dumps(raw_env(factions=mix, seed=3, max_cycles=10)))
    e.reset()
    assert e.game_seed == 3 and e.max_cycles == 10 and e.possible_agents == mix


def test_bad_arguments_are_coded_errors():
    from rootlaw.runtime import RootlawError
    for kw in ({"factions": ["nobody"]}, {"max_cycles": 0}, {"illegal_action": "ignore"},
               {"seed": "x"}, {"render_mode": "nonsense"}):
        with pytest.raises(RootlawError):
            raw_env(**kw)


def test_wrapper_checks_order_and_bounds():
    mix = list(MIXES[0])
    e = env(factions=mix)
    with pytest.raises(AttributeError):
        e.agent_selection  # noqa: B018 -- before reset
    e.reset(seed=1)
    n = e.action_space(e.agent_selection).n
    for bad in (n, -1, None, True, 1.0):
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(bad)
    assert e.unwrapped.game.history == []
    e.step(np.int64(e.unwrapped.game.legal_actions()[0]))  # numpy integers are actions
    assert len(e.unwrapped.game.history) == 1


def test_wrapper_checks_the_loop_and_the_end():
    # PettingZoo's order enforcing: step before reset is an error; agent_iter demands a
    # step between two agents; a step once every agent has left warns and does nothing.
    mix = list(MIXES[0])
    e = env(factions=mix)
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=1)
    it = iter(e.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    e.step(e.unwrapped.legal_actions()[0])
    next(it)
    raw = e.unwrapped
    rng = random.Random(1)
    for _ in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else rng.choice(raw.legal_actions()))
    assert raw.agents == [] and raw.game.is_over
    decisions = len(raw.game.history)
    from pettingzoo.utils.env_logger import EnvLogger
    EnvLogger.mqueue.clear()
    e.step(None)
    assert any("after all agents are terminated" in m for m in EnvLogger.mqueue)
    assert len(raw.game.history) == decisions


def test_bench_reports_both_loops():
    from rootlaw.runtime.envs.bench import run

    out = run(list(MIXES[0]), games=1, seed=1, rounds=1)
    for loop in ("plain", "aec", "aec_fresh_observations", "aec_mask_pick",
                 "aec_no_observation"):
        assert out[loop]["decisions"] > 0 and out[loop]["decisions_per_s"] > 0
    assert out["aec_over_plain"] > 0 and out["observation_vector_us"] > 0


# ---------------------------------------------------------------------- the shaped reward


def test_the_vp_reward_adds_up_to_final_vp_over_30_plus_the_terminal_reward():
    """reward="vp": what each agent's last() reports over the game (what came since it
    last acted) adds up to its final VP / 30 plus the terminal reward; the default
    gives the terminal reward alone."""
    mix = list(MIXES[0])
    for reward in ("vp", "terminal"):
        e = env(factions=mix, reward=reward)
        e.reset(seed=6)
        got = dict.fromkeys(mix, 0.0)
        steps_with_vp = 0
        rng = np.random.default_rng(6)
        for agent in e.agent_iter():
            obs, r, terminated, truncated, _ = e.last()
            got[agent] += r
            steps_with_vp += 0 < abs(r) < 1
            e.step(None if terminated or truncated else masked_random(obs, rng))
        g = e.unwrapped.game
        final = [1.0 if s == g.winner else -1.0 for s in range(len(mix))]
        for seat, a in enumerate(mix):
            vp = g.scores[seat] / 30 if reward == "vp" else 0.0
            assert got[a] == pytest.approx(vp + final[seat]), (reward, a)
        assert (steps_with_vp > 10) == (reward == "vp")


def test_the_vp_reward_in_the_parallel_view_is_per_step():
    mix = list(MIXES[0])
    p = parallel_env(factions=mix, reward="vp")
    p.reset(seed=8)
    got = dict.fromkeys(mix, 0.0)
    rng = np.random.default_rng(8)
    while p.agents:
        actions = {a: (masked_random(p.aec.observe(a), rng) if a == p.aec.agent_selection
                       else 0) for a in p.agents}
        _, rewards, _, _, _ = p.step(actions)
        for a, r in rewards.items():
            got[a] += r
    g = p.aec.game
    for seat, a in enumerate(mix):
        assert got[a] == pytest.approx(g.scores[seat] / 30 + (1.0 if seat == g.winner
                                                              else -1.0))


@pytest.mark.parametrize("mix", MIXES[:3], ids=mix_id)
def test_api_tests_pass_with_the_vp_reward(mix):
    api_test(env(factions=list(mix), reward="vp"), num_cycles=1000)
    parallel_api_test(parallel_env(factions=list(mix), reward="vp"), num_cycles=1000)
