"""Train a linear softmax policy by self-play on the PettingZoo environment, then play it
against the random agent.  numpy only; a sketch of the loop, not a strong player.

    pip install "rootlaw[rl]"
    python examples/rl/linear_selfplay.py --episodes 50 --eval 20

One policy plays every seat: the observation lists players from the observer's seat
on, so "me" is always player 0.  The policy scores only the legal actions (the mask)
with one weight row per action of the fixed action space; REINFORCE with the reward at
the end of the game (win 1, loss -1) nudges the rows of the actions each seat took.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rootlaw.runtime import RandomAgent
from rootlaw.runtime.envs import faction_mixes
from rootlaw.runtime.envs.pettingzoo import env as root_env


def features(observation: np.ndarray) -> np.ndarray:
    # Counts and small indices; a signed log keeps the large ones (turn, deck) tame.
    x = observation.astype(np.float32)
    return np.sign(x) * np.log1p(np.abs(x))


class LinearPolicy:
    def __init__(self, num_actions: int, size: int, seed: int):
        self.w = np.zeros((num_actions, size), dtype=np.float32)
        self.rng = np.random.default_rng(seed)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, observation: dict) -> tuple[int, tuple]:
        legal = np.flatnonzero(observation["action_mask"])
        x = features(observation["observation"])
        p = self.probabilities(x, legal)
        i = int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), (legal, x, p, i)

    def reinforce(self, steps: list[tuple], reward: float, lr: float) -> None:
        for legal, x, p, i in steps:
            grad = -p
            grad[i] += 1.0  # d log p(a) / d logits over the legal actions
            self.w[legal] += (lr * reward) * np.outer(grad, x)


def train(policy: LinearPolicy, factions: list[str], episodes: int, seed: int, lr: float):
    e = root_env(factions=factions)
    for episode in range(episodes):
        e.reset(seed=seed + episode)
        steps: dict[str, list] = {a: [] for a in e.possible_agents}
        rewards: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                rewards[agent] = reward
                e.step(None)
                continue
            action, step = policy.act(obs)
            steps[agent].append(step)
            e.step(action)
        for agent, reward in rewards.items():
            policy.reinforce(steps[agent], reward, lr)
        winner = e.unwrapped.game.winner_faction or "none"
        print(f"episode {episode + 1}: winner {winner}, "
              f"decisions {len(e.unwrapped.game.history)}")


def evaluate(policy: LinearPolicy, factions: list[str], games: int, seed: int) -> float:
    """The policy in the first seat against the random agent in the others."""
    e = root_env(factions=factions)
    wins = 0
    for i in range(games):
        e.reset(seed=seed + i)
        other = RandomAgent(seed + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                if agent == factions[0] and reward > 0:
                    wins += 1
                e.step(None)
            elif agent == factions[0]:
                e.step(policy.act(obs)[0])
            else:
                e.step(other.choose(None, np.flatnonzero(obs["action_mask"]).tolist()))
    return wins / games


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=20)
    p.add_argument("--eval", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--factions", default="", help="comma-separated (default: a bundle mix)")
    args = p.parse_args(argv)
    factions = [f for f in args.factions.split(",") if f] or list(faction_mixes()[0])
    e = root_env(factions=factions)
    space = e.observation_space(factions[0])["observation"].shape[0]
    policy = LinearPolicy(e.action_space(factions[0]).n, space, args.seed)
    t0 = time.perf_counter()
    train(policy, factions, args.episodes, args.seed, args.lr)
    rate = evaluate(policy, factions, args.eval, args.seed + 10_000)
    print(f"{factions[0]} (linear policy) vs random: win rate {rate:.2f} over {args.eval} "
          f"games; {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
