"""The Gymnasium environment: registered as rootlaw/Root-v0, Gymnasium's check_env for
every faction mix and learner seat, and what the docs promise."""

from __future__ import annotations

import pytest
from rl_extra import need

need("numpy", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from rootlaw.runtime import FirstAgent, Game, IllegalAction  # noqa: E402
from rootlaw.runtime.envs import GYMNASIUM_ID, faction_mixes  # noqa: E402

MIXES = faction_mixes()
mix_id = "-".join


def make(mix, **kw):
    return gymnasium.make(GYMNASIUM_ID, factions=list(mix), **kw)


def episode(env, seed, rng):
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        assert obs["action_mask"].any()
        obs, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            return reward, terminated, truncated, steps, obs


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_check_env_for_every_learner_seat(mix):
    for faction in mix:
        env = make(mix, faction=faction, render_mode="ansi")
        check_env(env.unwrapped)
        env.close()


def test_every_listed_render_mode_renders(capsys):
    """The modes accepted are the metadata's; "human" prints and returns None."""
    mix = list(MIXES[0])
    for mode in make(mix).unwrapped.metadata["render_modes"]:
        env = make(mix, render_mode=mode)
        env.reset(seed=1)
        out = env.unwrapped.render()
        assert (out is None) == (mode == "human"), mode
        env.close()
    assert "turn 0 setup" in capsys.readouterr().out


@pytest.mark.parametrize("mix", MIXES, ids=mix_id)
def test_an_episode_is_one_learner_against_the_seat_policy(mix):
    for seat, faction in enumerate(mix):
        env = make(mix, faction=faction)
        reward, terminated, truncated, steps, obs = episode(env, 21, np.random.default_rng(0))
        g = env.unwrapped.game
        assert terminated and not truncated and g.is_over
        assert reward == (1.0 if g.winner == seat else -1.0)
        assert not obs["action_mask"].any()
        # The learner took `steps` decisions, the seat policy all the others.
        replay = Game(list(mix), 21)
        mine = 0
        for a in g.history:
            mine += replay.to_play == seat
            replay.apply(a)
        assert mine == steps < len(g.history)


def test_observation_is_the_learners_view():
    mix = MIXES[0]
    env = make(mix, faction=mix[1])
    obs, _ = env.reset(seed=3)
    g = env.unwrapped.game
    assert g.to_play == 1
    assert obs["observation"].tolist() == list(g.observation_vector(1))
    assert set(np.flatnonzero(obs["action_mask"]).tolist()) == set(g.legal_actions())
    assert (env.unwrapped.action_masks() == obs["action_mask"]).all()


def test_a_stopped_game_truncates_with_zero():
    env = make(MIXES[0], max_decisions=40)
    reward, terminated, truncated, _, _ = episode(env, 2, np.random.default_rng(2))
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert len(env.unwrapped.game.history) == 40


def test_reset_seed_is_the_game_of_that_seed_and_reproducible():
    mix = MIXES[0]
    runs, next_seeds = [], []
    for _ in range(2):
        env = make(mix, faction=mix[1])
        episode(env, 5, np.random.default_rng(1))
        g = env.unwrapped.game
        assert env.unwrapped.game_seed == 5
        replay = Game(list(mix), 5)  # the game of seed 5, whoever played it
        for a in g.history:
            replay.apply(a)
        assert list(replay.state) == list(g.state)
        runs.append(list(g.history))
        env.reset()
        next_seeds.append(env.unwrapped.game_seed)
    assert runs[0] == runs[1]
    assert next_seeds[0] == next_seeds[1] != 5


def test_a_given_opponent_plays_the_other_seats():
    mix = MIXES[0]
    env = make(mix, faction=mix[0], opponent=lambda seed: FirstAgent())
    episode(env, 8, np.random.default_rng(3))
    replay = Game(list(mix), 8)
    for a in env.unwrapped.game.history:
        if replay.to_play != 0:
            assert a == replay.legal_actions()[0]
        replay.apply(a)


def test_illegal_actions():
    mix = MIXES[0]
    env = make(mix)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert not obs["action_mask"].any()
    env = make(mix, illegal_action="random")
    env.reset(seed=3)
    env.step(illegal)
    assert env.unwrapped.illegal_actions == 1
    env = make(mix, illegal_action="raise")
    env.reset(seed=3)
    with pytest.raises(IllegalAction):
        env.step(illegal)


def test_the_vp_reward_is_the_vp_gained_at_each_step_over_30():
    """reward="vp": each step's reward is the VP the learner gained over 30 (plus the
    terminal reward at the end); the episode's return is final VP / 30 + the outcome."""
    mix = list(MIXES[0])
    env = make(mix, reward="vp")
    obs, _ = env.reset(seed=9)
    g = env.unwrapped.game
    rng = np.random.default_rng(9)
    total, before = 0.0, g.scores[0]
    while True:
        obs, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        end = (1.0 if g.winner == 0 else -1.0) if terminated else 0.0
        assert reward == pytest.approx((g.scores[0] - before) / 30 + end)
        before = g.scores[0]
        total += reward
        if terminated or truncated:
            break
    assert total == pytest.approx(g.scores[0] / 30 + (1.0 if g.winner == 0 else -1.0))
    with pytest.raises(Exception, match="reward is one of terminal, vp"):
        make(mix, reward="points")

