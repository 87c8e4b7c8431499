"""Train a linear policy on the PettingZoo environment and play it against the random
agent.  numpy only; a sketch of the loop, not a strong player.

    pip install "rootlaw[rl]"
    python examples/rl/train_linear.py --games 40 --epochs 3 --eval 40

1. A teacher: a few lines of priorities over the action types (craft, build, battle
   before moving, never "done" while anything else is legal), read from the mask and
   the action space alone.
2. Self-play: the teacher plays every seat; every decision is kept as (observation,
   legal actions, the teacher's choice).
3. Training: a linear softmax policy (one weight row per action of the fixed action
   space, scoring only the legal ones) learns the teacher's choices by cross-entropy.
   One policy plays every seat: the observation lists players from the observer's seat
   on, so "me" is always player 0.
4. Evaluation: the random agent, the teacher and the trained policy, each in the first
   seat against the random agent, on the same seeds.

From here, a reinforcement learner starts from the trained policy and improves it on
the rewards at the end of the game (docs/agents.md).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rootlaw.runtime import RandomAgent
from rootlaw.runtime.envs import faction_mixes
from rootlaw.runtime.envs.pettingzoo import env as root_env

PRIORITY = {"craft": 6, "build": 5, "activate": 5, "battle": 4, "add": 3, "recruit": 3,
            "recruit_all": 3, "move": 2, "done": 0}  # every other type: 1


def features(observation: np.ndarray) -> np.ndarray:
    # Counts and small indices; a signed log keeps the large ones (turn, deck) tame;
    # a constant 1 lets each action row learn a bias.
    x = observation.astype(np.float32)
    return np.append(np.sign(x) * np.log1p(np.abs(x)), np.float32(1.0))


class Teacher:
    def __init__(self, e, seed: int):
        space = e.unwrapped.game.space
        self.score = np.array([PRIORITY.get(space.decode(a)[0], 1)
                               for a in range(space.size)], dtype=np.float32)
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        noise = self.rng.random(len(legal)) * 0.5  # ties broken at random
        return int(legal[np.argmax(self.score[legal] + noise)])


class LinearPolicy:
    def __init__(self, num_actions: int, size: int, seed: int):
        self.w = np.zeros((num_actions, size), dtype=np.float32)
        self.rng = np.random.default_rng(seed)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, observation: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        p = self.probabilities(features(observation["observation"]), legal)
        return int(legal[self.rng.choice(len(legal), p=p)])

    def learn(self, x: np.ndarray, legal: np.ndarray, target: int, lr: float) -> float:
        """One cross-entropy step towards ``target``; returns its log-loss."""
        p = self.probabilities(x, legal)
        i = int(np.flatnonzero(legal == target)[0])
        grad = -p
        grad[i] += 1.0  # d log p(target) / d logits over the legal actions
        self.w[legal] += lr * np.outer(grad, x)
        return float(-np.log(p[i] + 1e-12))


def self_play(e, teacher: Teacher, games: int, seed: int) -> list[tuple]:
    data = []
    for i in range(games):
        e.reset(seed=seed + i)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            action = teacher.act(obs)
            data.append((features(obs["observation"]),
                         np.flatnonzero(obs["action_mask"]), action))
            e.step(action)
    return data


def train(policy: LinearPolicy, data: list[tuple], epochs: int, lr: float, seed: int):
    order = np.random.default_rng(seed)
    for epoch in range(epochs):
        loss = 0.0
        for k in order.permutation(len(data)):
            loss += policy.learn(*data[k], lr)
        print(f"epoch {epoch + 1}: mean log-loss {loss / max(len(data), 1):.3f} "
              f"over {len(data)} decisions")


def win_rate(e, act, factions: list[str], games: int, seed: int) -> float:
    """``act`` in the first seat against the random agent in the others."""
    wins = 0
    for i in range(games):
        e.reset(seed=seed + i)
        other = RandomAgent(seed + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                wins += agent == factions[0] and reward > 0
                e.step(None)
            elif agent == factions[0]:
                e.step(act(obs))
            else:
                e.step(other.choose(None, np.flatnonzero(obs["action_mask"]).tolist()))
    return wins / max(games, 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="self-play games of the teacher")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--eval", type=int, default=20, help="games against the random agent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--factions", default="", help="comma-separated (default: a bundle mix)")
    args = p.parse_args(argv)
    factions = [f for f in args.factions.split(",") if f] or list(faction_mixes()[0])
    t0 = time.perf_counter()
    e = root_env(factions=factions)
    e.reset(seed=args.seed)
    teacher = Teacher(e, args.seed)
    size = e.observation_space(factions[0])["observation"].shape[0] + 1
    policy = LinearPolicy(e.action_space(factions[0]).n, size, args.seed)
    train(policy, self_play(e, teacher, args.games, args.seed), args.epochs, args.lr,
          args.seed)
    rng = np.random.default_rng(args.seed)
    players = {
        "random": lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"]))),
        "teacher": teacher.act,
        "linear policy": policy.act,
    }
    for name, act in players.items():
        rate = win_rate(e, act, factions, args.eval, args.seed + 10_000)
        print(f"{factions[0]} ({name}) vs random: win rate {rate:.2f} over {args.eval} games")
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
