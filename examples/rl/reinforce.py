"""Learn to beat the random agent by reinforcement: REINFORCE (policy gradient) on the
Gymnasium environment, numpy only, a few minutes on one CPU core.

    pip install "rootlaw[rl]"
    python examples/rl/reinforce.py --episodes 1000 --eval 200

The learner plays one faction (default: the first seated, the Marquise) against the
seeded random agent in the other seats, through ``gymnasium.make("rootlaw/Root-v0")``.

1. The policy: a linear softmax over the legal actions (one weight row per action of the
   fixed action space, scoring only the legal ones, from the signed-log observation and
   a constant), so "done" and every other choice are learned alike.
2. The reward: the terminal one (win 1, loss -1) by default; ``--reward vp`` adds, at
   every step, the VP gained over 30 (the environments' shaped reward, docs/agents.md).
   Here the outcome alone teaches faster: against the random agent, points that do
   not lead to a win are a distraction (the figures are in docs/agents.md).
3. REINFORCE: play a batch of episodes with the current policy; weight each decision's
   log-probability gradient by its return to go minus a baseline (a linear estimate of
   that return from the features, fitted on the batches before), normalised; step the
   weights (Adam, on the rows that were used); repeat.
4. Evaluation: the learner's win rate against the random agent on fixed seeds, before
   training (the untrained policy is uniform: the random agent itself) and after.

Everything is seeded: the same arguments train the same weights and print the same
figures, on the compiled and on the pure core alike.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import rootlaw.runtime.envs  # noqa: F401 -- registers rootlaw/Root-v0
from rootlaw.runtime.envs import GYMNASIUM_ID, faction_mixes

SCALE = 0.1  # the observation's share of a logit, against the action's own bias (1)


def features(observation: np.ndarray) -> np.ndarray:
    # Counts and small indices; a signed log keeps the large ones (turn, deck) tame, and
    # SCALE keeps 1,286 of them from drowning the constant 1, with which each action's
    # row learns a bias of its own (most of what there is to learn: which moves pay).
    x = observation.astype(np.float64)
    return np.append(SCALE * np.sign(x) * np.log1p(np.abs(x)), 1.0)


class Policy:
    """A linear softmax over the legal actions, trained with Adam on the rows it uses."""

    def __init__(self, num_actions: int, size: int, seed: int, lr: float):
        self.w = np.zeros((num_actions, size))
        self.m = np.zeros_like(self.w)  # Adam's moments
        self.v = np.zeros_like(self.w)
        self.steps = 0
        self.lr = lr
        self.rng = np.random.default_rng(seed)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.w[legal] @ x
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, obs: dict, greedy: bool = False) -> tuple[int, np.ndarray, np.ndarray, int]:
        legal = np.flatnonzero(obs["action_mask"])
        x = features(obs["observation"])
        p = self.probabilities(x, legal)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), x, legal, i

    def update(self, grad: np.ndarray, rows: np.ndarray) -> None:
        """One Adam step (ascent) on the given rows of the weights."""
        b1, b2, eps = 0.9, 0.999, 1e-8
        self.steps += 1
        g = grad[rows]
        self.m[rows] = b1 * self.m[rows] + (1 - b1) * g
        self.v[rows] = b2 * self.v[rows] + (1 - b2) * g * g
        mh = self.m[rows] / (1 - b1 ** self.steps)
        vh = self.v[rows] / (1 - b2 ** self.steps)
        self.w[rows] += self.lr * mh / (np.sqrt(vh) + eps)


def episode(env, policy: Policy, seed: int) -> tuple[list, list[float], float]:
    """One game: the learner's decisions (x, legal, index chosen), its rewards, and the
    terminal outcome (1 win, -1 loss, 0 stopped)."""
    obs, _ = env.reset(seed=seed)
    steps, rewards = [], []
    while True:
        action, x, legal, i = policy.act(obs)
        steps.append((x, legal, i))
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(float(reward))
        if terminated or truncated:
            g = env.unwrapped.game
            won = 0.0 if not g.is_over else (1.0 if g.winner == env.unwrapped.seat else -1.0)
            return steps, rewards, won


class Baseline:
    """A linear estimate of the return to go from the features (ridge regression over
    the batches so far, older ones fading): what REINFORCE subtracts, so that a decision
    is credited with how much better its game went than such positions usually do (the
    return to go falls as a game goes on, whatever is chosen)."""

    def __init__(self, size: int, fade: float = 0.5, ridge: float = 1.0):
        self.xx = np.zeros((size, size))
        self.xg = np.zeros(size)
        self.u = np.zeros(size)
        self.fade, self.ridge = fade, ridge

    def __call__(self, xs: np.ndarray) -> np.ndarray:
        return xs @ self.u

    def fit(self, xs: np.ndarray, returns: np.ndarray) -> None:
        self.xx = self.fade * self.xx + xs.T @ xs
        self.xg = self.fade * self.xg + xs.T @ returns
        self.u = np.linalg.solve(self.xx + self.ridge * np.eye(len(self.u)), self.xg)


def train(env, policy: Policy, episodes: int, batch: int, seed: int,
          log=print) -> list[float]:
    """REINFORCE over ``episodes`` games (game seeds seed, seed+1 ...), a step per batch;
    returns the running win rate after each batch."""
    curve, wins = [], []
    baseline = Baseline(policy.w.shape[1])
    for start in range(0, episodes, batch):
        steps, returns = [], []
        for k in range(start, min(start + batch, episodes)):
            played, rewards, won = episode(env, policy, seed + k)
            steps += played
            returns.append(np.cumsum(rewards[::-1])[::-1])  # the return from each on
            wins.append(won > 0)
        g = np.concatenate(returns)
        xs = np.array([x for x, _, _ in steps])
        advantage = g - baseline(xs)  # the baseline of the batches before: unbiased
        advantage /= advantage.std() + 1e-8
        baseline.fit(xs, g)
        grad = np.zeros_like(policy.w)
        for (x, legal, i), a in zip(steps, advantage, strict=True):
            p = policy.probabilities(x, legal)
            p[i] -= 1.0  # -(d log pi(i) / d logits) over the legal actions
            grad[legal] -= a * np.outer(p, x)
        rows = np.flatnonzero(np.abs(grad).sum(axis=1))
        policy.update(grad / len(g), rows)
        curve.append(float(np.mean(wins[-100:])))
        log(f"episodes {min(start + batch, episodes):>5}: win rate {curve[-1]:.2f} "
            f"(last {min(len(wins), 100)})")
    return curve


def win_rate(env, policy: Policy, games: int, seed: int, greedy: bool = False) -> float:
    """The learner's wins over ``games`` games on seeds seed, seed+1 ... (no learning)."""
    state = policy.rng.bit_generator.state  # evaluation leaves the training stream alone
    policy.rng = np.random.default_rng(seed)
    wins = 0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        while True:
            obs, _, terminated, truncated, _ = env.step(policy.act(obs, greedy)[0])
            if terminated or truncated:
                g = env.unwrapped.game
                wins += g.is_over and g.winner == env.unwrapped.seat
                break
    policy.rng = np.random.default_rng()
    policy.rng.bit_generator.state = state
    return wins / max(games, 1)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=1000, help="training games")
    p.add_argument("--batch", type=int, default=10, help="games per gradient step")
    p.add_argument("--eval", type=int, default=200, help="games against the random agent")
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reward", choices=("terminal", "vp"), default="terminal")
    p.add_argument("--factions", default="", help="comma-separated (default: a bundle mix)")
    p.add_argument("--faction", default="", help="the learner (default: the first seated)")
    return p


def main(argv: list[str] | None = None) -> int:
    run(parser().parse_args(argv))
    return 0


def run(args, log=print) -> dict:
    """Train and evaluate as ``main`` does; returns the figures and the policy."""
    factions = [f for f in args.factions.split(",") if f] or list(faction_mixes()[0])
    # The observation arrays are rewritten in place (features() copies what it keeps),
    # so Gymnasium's checker, which wants new arrays at every step, is left out.
    env = gymnasium.make(GYMNASIUM_ID, factions=factions,
                         faction=args.faction or factions[0], reward=args.reward,
                         fresh_observations=False, disable_env_checker=True)
    learner = env.unwrapped.faction
    size = env.observation_space["observation"].shape[0] + 1  # features() adds the 1
    policy = Policy(env.action_space.n, size, args.seed, args.lr)
    eval_seed = 1_000_000 + args.seed  # games never trained on
    before = win_rate(env, policy, args.eval, eval_seed)
    log(f"{learner} vs random, before training: win rate {before:.3f} over {args.eval} "
        f"games")
    t0 = time.process_time()
    curve = train(env, policy, args.episodes, args.batch, args.seed, log)
    seconds = time.process_time() - t0
    after = win_rate(env, policy, args.eval, eval_seed)
    log(f"{learner} vs random, after {args.episodes} training games "
        f"({seconds:.0f} s of CPU): win rate {after:.3f} over {args.eval} games")
    env.close()
    return {"before": before, "after": after, "seconds": seconds, "curve": curve,
            "policy": policy}


if __name__ == "__main__":
    raise SystemExit(main())
