"""A Gymnasium environment: one seat of a Plateau game, the other seats
played by one of Plateau's computer players.

::

    import gymnasium as gym
    import plateau.gym  # registers the environments

    env = gym.make("plateau/Abalone-v0", opponent="alphabeta:depth=2")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

- ``PlateauEnv(game, variant=None, options=None, opponent="random",
  seat=0, opponent_seed=None, max_plies=None, illegal_reward=None,
  render_mode=None)``: the learner plays ``seat`` (``None``: a seat drawn
  at random at each reset, from the reset's seed); every other seat is
  played by ``opponent`` (seeded by ``opponent_seed``, or else from the
  reset's seed, so that a seeded reset replays the same episode for the
  same actions), a player spec such as ``"random"``, ``"greedy"``,
  ``"alphabeta:depth=2"``, ``"mcts:iterations=500"``, ``"ismcts:…"`` or a
  level ``"ai:3"`` (see :func:`plateau.games`), each opponent seat with its
  own player. The opponents' moves are made before ``reset`` and ``step``
  return, so the learner always observes a position where it decides (or
  the end). In Abraxas, a turn of several decisions gives the learner
  several steps in a row.
- Observation: the learner's observation tensor (``float32``,
  ``(planes, height, width)``, values in 0..1; ``docs/encoding/``).
  ``info["action_mask"]`` (``int8``) marks the legal actions, as does
  :meth:`PlateauEnv.action_masks` (the name maskable PPO implementations
  call).
- Action: ``Discrete(num_distinct_actions)``. An illegal action raises
  ``ValueError`` with the rules' reason, unless ``illegal_reward`` is set:
  then it ends the episode (``terminated``) with that reward and
  ``info["illegal"]`` set.
- Reward: 0 until the game ends, then the learner's return (1 win, -1 loss,
  0 draw with two players; by rank with more). ``max_plies`` truncates.
- ``info``: ``action_mask``, ``moves`` (the moves played since the last
  step, the opponents' included, in notation), and at the end ``result``.
  ``env.unwrapped.game_state`` is the :class:`plateau.State` (its record).

The environments ``plateau/Abalone-v0``, ``plateau/Colorito-v0``,
``plateau/Kabaleo-v0`` and ``plateau/Abraxas-v0`` are registered on import;
``gym.make`` passes any keyword to :class:`PlateauEnv`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from . import Player, State, game_info, games

Obs = npt.NDArray[np.float32]
Info = Dict[str, Any]


class PlateauEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a Plateau game against built-in players (see the
    module's documentation)."""

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        options: Optional[Dict[str, Any]] = None,
        opponent: str = "random",
        seat: Optional[int] = 0,
        opponent_seed: Optional[int] = None,
        max_plies: Optional[int] = None,
        illegal_reward: Optional[float] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        name = game_info(game)["name"]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies is at least 1, not {max_plies}")
        self.game = name
        self.variant = variant
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.illegal_reward = illegal_reward
        self.game_state = State(name, variant, self.options, 0)
        n = self.game_state.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat {seat} does not exist: this game has seats 0 to {n - 1}")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.opponent = opponent
        self.opponent_seed = opponent_seed
        # Checks the spec now; new players at each reset (see reset).
        self.opponents = self._players(0)
        self.observation_space = spaces.Box(0.0, 1.0, self.game_state.observation_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game_state.num_distinct_actions)

    def _players(self, base: int) -> Dict[int, Player]:
        # One player per seat (players keep tables and trees during a game).
        seed = base if self.opponent_seed is None else self.opponent_seed
        return {s: Player(self.game, self.opponent, seed + s) for s in range(self.game_state.num_players)}

    def _play_opponents(self, moves: List[str]) -> None:
        while not self.game_state.is_terminal() and self.game_state.current_player != self.seat:
            if self.max_plies is not None and self.game_state.ply >= self.max_plies:
                return
            seat = self.game_state.current_player
            assert seat is not None
            moves.append(self.game_state.apply(self.opponents[seat].choose(self.game_state)))

    def _info(self, moves: List[str]) -> Info:
        info: Info = {"action_mask": self.action_masks(), "moves": moves}
        if self.game_state.is_terminal():
            info["result"] = self.game_state.result()
        return info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each legal action of the learner, 0 elsewhere (``int8``)."""
        if self.game_state.current_player == self.seat:
            return self.game_state.legal_actions_mask()
        return np.zeros(self.game_state.num_distinct_actions, dtype=np.int8)

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Obs, Info]:
        super().reset(seed=seed)
        setup_seed = int(self.np_random.integers(0, 2**63))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.game_state.num_players))
        self.game_state = State(self.game, self.variant, self.options, setup_seed)
        # Fresh opponents, seeded from opponent_seed or else from the reset's
        # seed: the same seed, the same episode for the same actions.
        self.opponents = self._players(int(self.np_random.integers(0, 2**32)))
        moves: List[str] = []
        self._play_opponents(moves)
        if self.render_mode == "human":
            self.render()
        return self.game_state.observation_tensor(self.seat), self._info(moves)

    def step(self, action: Union[int, np.int64]) -> Tuple[Obs, float, bool, bool, Info]:
        if self.game_state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        moves: List[str] = []
        try:
            moves.append(self.game_state.apply_action(int(action)))
        except ValueError as e:
            if self.illegal_reward is None:
                raise
            info = self._info(moves)
            info["illegal"] = str(e)
            return self.game_state.observation_tensor(self.seat), float(self.illegal_reward), True, False, info
        self._play_opponents(moves)
        terminated = self.game_state.is_terminal()
        reward = float(self.game_state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_plies is not None and self.game_state.ply >= self.max_plies
        if self.render_mode == "human":
            self.render()
        return self.game_state.observation_tensor(self.seat), reward, terminated, truncated, self._info(moves)

    def render(self) -> Optional[str]:
        """The position as the learner's seat sees it, as text."""
        text = self.game_state.render(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _register() -> None:
    for g in games():
        env_id = f"plateau/{g['title']}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="plateau.gym:PlateauEnv", kwargs={"game": g["name"]})


_register()

__all__ = ["PlateauEnv"]
