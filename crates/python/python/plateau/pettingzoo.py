"""PettingZoo environments (the AEC API) for Plateau's four games.

``env(game, variant=None, options=None, render_mode=None, max_plies=None)``
makes the environment of one game and variant, wrapped in PettingZoo's usual
checks (``OrderEnforcingWrapper``); ``raw_env`` is the same without the
wrapper::

    from plateau.pettingzoo import env

    e = env("abalone")
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

- Agents are ``player_0`` … ``player_{n-1}`` (the game's seats in order).
  The agent to act is the seat whose decision it is: in Abraxas one turn may
  be several decisions of both players, and the environment simply selects
  whoever decides next.
- Actions are the game's integer actions (``docs/encoding/``):
  ``Discrete(num_distinct_actions)``. An action that names no legal move
  raises ``ValueError`` with the rules' reason (use the mask).
- Observations are dicts: ``observation``, the acting agent's observation
  tensor (``float32``, ``(planes, height, width)``, values in 0..1, from the
  agent's point of view, and for Kabaleo the agent's own objective and
  nothing of the others'); ``action_mask``, ``int8``, 1 for the legal
  actions when it is the agent's decision, all 0 otherwise.
- Rewards are 0 until the game ends, then each seat's return (two players:
  1, -1 or 0; more players: by rank, summing to 0). ``max_plies`` truncates
  a game after that many moves (every agent is then truncated, rewards 0).
- ``reset(seed=…)`` seeds the set-up (Kabaleo's deal): the same seed, the
  same game. At the end, ``infos[agent]["result"]`` is the result as a
  record writes it (``"1-0"``); ``env.unwrapped.game_state`` is the
  :class:`plateau.State` (its record, its moves as text).
- ``render()`` draws the position as text (``render_mode="ansi"`` returns
  it; ``"human"`` prints it) as a spectator sees it, never a secret.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import State, game_info

ObsType = Dict[str, Any]


def env(
    game: str,
    variant: Optional[str] = None,
    options: Optional[Dict[str, Any]] = None,
    render_mode: Optional[str] = None,
    max_plies: Optional[int] = None,
) -> AECEnv[str, ObsType, int]:
    """The environment of ``game`` (and ``variant``, ``options``), wrapped in
    PettingZoo's ``OrderEnforcingWrapper``."""
    inner = raw_env(game, variant, options, render_mode=render_mode, max_plies=max_plies)
    return wrappers.OrderEnforcingWrapper(inner)


class raw_env(AECEnv[str, ObsType, int]):
    """One of Plateau's games as a PettingZoo AEC environment (see the
    module's documentation)."""

    metadata: Dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "plateau_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        options: Optional[Dict[str, Any]] = None,
        render_mode: Optional[str] = None,
        max_plies: Optional[int] = None,
    ) -> None:
        super().__init__()
        info = game_info(game)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies is at least 1, not {max_plies}")
        self.game = info["name"]
        self.variant = variant
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.metadata = {**self.metadata, "name": f"plateau_{self.game}_v0"}
        # A first state checks the variant and options, and gives the spaces.
        self.game_state = State(self.game, variant, self.options, 0)
        n = self.game_state.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: List[str] = []
        shape = self.game_state.observation_shape
        actions = self.game_state.num_distinct_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._no_mask = np.zeros(actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game. ``seed`` is the set-up's seed (Kabaleo's deal); with
        ``None``, the next of a sequence drawn from the last seed given."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            setup_seed = seed
        else:
            rng = getattr(self, "_rng", None)
            if rng is None:
                rng = self._rng = np.random.default_rng()
            setup_seed = int(rng.integers(0, 2**63))
        self.game_state = State(self.game, self.variant, self.options, setup_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game_state.current_player
        # Once the game is over, PettingZoo steps every agent out in turn
        # (`_was_dead_step` picks the next one); until then, whoever decides.
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]

    def observe(self, agent: str) -> ObsType:
        seat = self._seat[agent]
        mask = self.game_state.legal_actions_mask() if self.game_state.current_player == seat else self._no_mask.copy()
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: an action is an integer (use the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply_action(int(action))
        self.infos[agent] = {}
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            result = self.game_state.result()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
                self.infos[a] = {"result": result}
        elif self.max_plies is not None and self.game_state.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {}
        self._accumulate_rewards()
        if self.game_state.is_terminal() or any(self.truncations.values()):
            # Every agent now steps out once, starting with the next seat.
            self.agent_selection = self.agents[(self._seat[agent] + 1) % len(self.agents)]
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The position as a spectator sees it, as text."""
        text = self.game_state.render("spectator")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


__all__ = ["env", "raw_env", "ObsType"]
