"""connectz.pettingzoo in PettingZoo's own connect_four_v3 (the extra
`connectz[pettingzoo]`; CI installs it). Seeded: each game's random player
draws from its own `random.Random(seed)`."""

import os
import random

import pytest

if not os.environ.get("CZ_REQUIRE_PETTINGZOO"):
    # CI sets CZ_REQUIRE_PETTINGZOO=1: there a missing PettingZoo fails.
    pytest.importorskip(
        "pettingzoo.classic",
        reason="PettingZoo is not installed: pip install 'connectz[pettingzoo]' (or 'pettingzoo[classic]')",
    )
from pettingzoo.classic import connect_four_v3  # noqa: E402

from connectz.pettingzoo import Opponent, action, position  # noqa: E402

GAMES = 20


def play(engine_agent, seed, engine):
    """One game, the engine as `engine_agent`, a seeded random player as
    the other; returns the engine's final reward (1 win, 0 draw, -1 loss)
    and the columns played (1-based)."""
    env = connect_four_v3.env()
    env.reset(seed=seed)
    rng = random.Random(seed)
    rewards = {}
    played = []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] = reward
        if termination or truncation:
            env.step(None)
            continue
        # The board alone gives the game so far (the order may differ, the
        # position not): every move of the game is held to it.
        assert sorted(position(observation)) == sorted(played)
        if agent == engine_agent:
            action = engine(observation)
        else:
            action = rng.choice([c for c, open_ in enumerate(observation["action_mask"]) if open_])
        played.append(action + 1)
        env.step(action)
    env.close()
    return rewards[engine_agent], played


def test_the_perfect_engine_wins_every_game_as_first_player():
    engine = Opponent("perfect")
    results = [play("player_0", seed, engine)[0] for seed in range(GAMES)]
    assert results == [1] * GAMES


def test_the_perfect_engine_never_loses_as_second_player():
    engine = Opponent("perfect")
    results = [play("player_1", seed, engine)[0] for seed in range(GAMES)]
    assert len(results) == GAMES and -1 not in results


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_level_plays_legal_moves_to_the_end(level):
    result, played = play("player_1", 5, Opponent(level, seed=5))
    assert result in (-1, 0, 1) and len(played) >= 7


def test_the_observation_is_read_with_row_0_on_top():
    env = connect_four_v3.env()
    env.reset(seed=0)
    env.step(3)  # player_0 in the middle column
    env.step(3)  # player_1 on it
    env.step(0)  # player_0 in the first column
    observation = env.last()[0]
    # player_1 to move: its counter is channel 0, its opponent's channel 1.
    assert observation["observation"][5][3].tolist() == [0, 1]
    assert observation["observation"][4][3].tolist() == [1, 0]
    assert sorted(position(observation)) == [1, 4, 4]
    # The board alone does as well as the dict; a level names a kept engine.
    assert action(observation["observation"], "perfect") == action(observation) == Opponent()(observation)
    env.close()
