"""The PettingZoo and Gymnasium environments.

PettingZoo's own API test (``pettingzoo.test.api_test``) and seed test run on
every game and variant; Gymnasium's environment checker on every game. Games
are then played to the end through each environment and compared with the
rules' result.
"""

import random

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import plateau
import plateau.gym
from plateau.gym import PlateauEnv
from plateau.pettingzoo import env as aec_env
from plateau.pettingzoo import raw_env

from conftest import all_variants

GAMES = [g["name"] for g in plateau.games()]


@pytest.mark.parametrize("game,variant", all_variants())
def test_pettingzoo_api_test(game, variant):
    api_test(aec_env(game, variant), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_seed_test(game):
    seed_test(lambda: aec_env(game), num_cycles=50)


def play_aec(e, seed, rng):
    """Play a game with random legal actions; return the rewards summed per
    agent and the environment's state at the end."""
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        state = e.unwrapped.game_state
        seat = e.possible_agents.index(agent)
        assert state.current_player == seat
        assert np.array_equal(obs["observation"], state.observation_tensor(seat))
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert sorted(legal) == sorted(state.legal_actions())
        e.step(rng.choice(legal))
    return totals


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_games_end_with_the_rules_returns(game):
    e = raw_env(game)
    rng = random.Random(1)
    for seed in range(2):
        totals = play_aec(e, seed, rng)
        state = e.game_state
        assert state.is_terminal()
        assert [totals[a] for a in e.possible_agents] == pytest.approx(state.returns())


def test_pettingzoo_kabaleo_agents_observe_only_their_own_objective():
    e = raw_env("kabaleo", "4-players")
    e.reset(seed=9)
    state = e.game_state
    for seat, agent in enumerate(e.possible_agents):
        assert np.array_equal(e.observe(agent)["observation"], state.observation_tensor(seat))
        # A state that knows only this seat's secrets observes the same.
        mine = plateau.State.from_record(state.record(seat))
        assert np.array_equal(e.observe(agent)["observation"], mine.observation_tensor(seat))
    text = e.render()
    assert text == state.render("spectator")


def test_pettingzoo_truncation_and_refusals():
    e = raw_env("abalone", max_plies=4)
    e.reset(seed=0)
    with pytest.raises(ValueError):
        e.step(e.action_space("player_0").n)  # out of the action space
    steps = 0
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 4 and e.game_state.ply == 4
    with pytest.raises(ValueError):
        raw_env("abalone", variant="no-such-variant")
    with pytest.raises(ValueError):
        raw_env("chess")


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker(game):
    # The checker steps with actions drawn from the whole action space, most
    # of them illegal: they end the episode with illegal_reward.
    check_env(PlateauEnv(game, opponent="random", illegal_reward=-1.0), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_registered_environments(game):
    title = plateau.game_info(game)["title"]
    env = gymnasium.make(f"plateau/{title}-v0", opponent="greedy")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    env.close()


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_games_against_built_in_players(game):
    rng = random.Random(4)
    for seat in range(2):
        env = PlateauEnv(game, opponent="greedy", seat=seat, opponent_seed=7)
        obs, info = env.reset(seed=seat)
        total, steps = 0.0, 0
        while True:
            state = env.unwrapped.game_state
            assert state.current_player == seat
            assert np.array_equal(obs, state.observation_tensor(seat))
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            steps += 1
            if terminated or truncated:
                break
        assert terminated and not truncated
        assert total == state.returns()[seat] and info["result"] == state.result()
        # The opponents' moves are those of the history, between ours.
        assert len(state.history()) >= steps


def test_gymnasium_illegal_actions():
    env = PlateauEnv("abalone")
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        env.step(illegal)
    assert env.unwrapped.game_state.ply == 0
    env = PlateauEnv("abalone", illegal_reward=-1.0)
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and "illegal" in info
    with pytest.raises(ValueError):
        PlateauEnv("abalone", seat=2)


def test_gymnasium_random_seat_and_truncation():
    seats = set()
    for seed in range(12):
        env = PlateauEnv("kabaleo", variant="3-players", seat=None, max_plies=5)
        obs, info = env.reset(seed=seed)
        seats.add(env.seat)
        assert env.unwrapped.game_state.current_player == env.seat
        while True:
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if terminated or truncated:
                break
        assert truncated and reward == 0
    assert seats == {0, 1, 2}
