"""Plateau's board games for Python: Abalone, Colorito, Kabaleo and Abraxas,
with their rules in Rust, and Plateau's computer players, for game-AI research.

- :func:`games` lists the games, their variants, options and player levels.
- :class:`State` is one game in progress: legal moves as text or integer
  actions, apply and undo, returns, records, per-reader views, observation
  tensors and action masks (NumPy), information states and sampling for the
  game with hidden information (Kabaleo).
- :class:`Player` is one of Plateau's computer players (random, greedy,
  alpha-beta, MCTS, ISMCTS, levels ``ai:1`` to ``ai:6``).

- :mod:`plateau.pettingzoo` (PettingZoo AEC environments of every game) and
  :mod:`plateau.gym` (a Gymnasium environment against built-in players) need
  the ``envs`` extra (PettingZoo and Gymnasium); they are not imported here.

See the package's README for examples.
"""

from typing import Optional, Union

from ._plateau import Choice, Player, State, __version__, games
from ._types import GameInfo, InformationState, LevelInfo, OptionInfo, VariantInfo

#: Who looks at a state: a seat number (0-based), ``"spectator"`` or ``"referee"``.
Reader = Union[int, str]


def game_info(name: str) -> GameInfo:
    """The description of one game (an element of :func:`games`), found by
    name, case-insensitively. Raises ``ValueError`` for an unknown game."""
    for g in games():
        if g["name"] == name.lower():
            return g
    names = ", ".join(g["name"] for g in games())
    raise ValueError(f"unknown game {name!r}; the games are: {names}")


def play_random(state: State, rng_seed: Optional[int] = None, max_plies: Optional[int] = None) -> State:
    """Play uniformly random legal moves on ``state`` (in place) until the
    game is over, or until ``max_plies`` moves were played by this call, and
    return it. ``rng_seed`` seeds a fresh ``random.Random`` for the choices
    (Python's global generator is untouched)."""
    import random

    rng = random.Random(rng_seed)
    played = 0
    while not state.is_terminal() and (max_plies is None or played < max_plies):
        state.apply(rng.choice(state.legal_moves()))
        played += 1
    return state


__all__ = [
    "Choice",
    "GameInfo",
    "InformationState",
    "LevelInfo",
    "OptionInfo",
    "Player",
    "Reader",
    "State",
    "VariantInfo",
    "__version__",
    "game_info",
    "games",
    "play_random",
]
