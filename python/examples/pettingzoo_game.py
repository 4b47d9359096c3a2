"""One game of PettingZoo's connect_four_v3: connectz's perfect engine as
player_0 against a seeded random player, printed move by move.

    pip install 'connectz[pettingzoo]'
    python python/examples/pettingzoo_game.py [seed] [level]
"""

import random
import sys

from pettingzoo.classic import connect_four_v3

from connectz.pettingzoo import Opponent


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    level = sys.argv[2] if len(sys.argv) > 2 else "perfect"
    engine = Opponent(level, seed=seed)
    rng = random.Random(seed)
    env = connect_four_v3.env()
    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            print(f"{agent}: reward {reward}")
            env.step(None)
            continue
        if agent == "player_0":
            action = engine(observation)
        else:
            mask = observation["action_mask"]
            action = rng.choice([c for c in range(len(mask)) if mask[c]])
        print(f"{agent} plays column {action + 1}")
        env.step(action)
    env.close()


if __name__ == "__main__":
    main()
