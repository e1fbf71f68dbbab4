"""A short self-play data loop: a built-in player plays itself, and every
decision becomes one training example, as AlphaZero-style training uses
them: what the deciding seat observed (its observation tensor, from its own
point of view, its own secrets only), the legal actions (the mask), the
action chosen (the policy target) and the seat's final return (the value
target). The examples are saved as NumPy arrays in one ``.npz`` file.

    python crates/python/examples/selfplay.py --game kabaleo --games 2 --out data.npz

The file holds ``observations`` (float32, N × planes × height × width),
``masks`` (int8, N × actions), ``actions`` (int32), ``seats`` (int8),
``returns`` (float32), ``games`` (int32: the game of each example) and
``planes`` (the planes' names).
"""

import argparse
import sys
from typing import Dict, List, Optional

import numpy as np
import numpy.typing as npt

import plateau


def selfplay(
    game: str, spec: str, games: int, seed: int = 1, max_plies: Optional[int] = None
) -> Dict[str, npt.NDArray[np.generic]]:
    """Play ``games`` games of ``spec`` against itself; return the examples
    as arrays (one row per decision)."""
    obs: List[npt.NDArray[np.float32]] = []
    masks: List[npt.NDArray[np.int8]] = []
    actions: List[int] = []
    seats: List[int] = []
    returns: List[float] = []
    game_of: List[int] = []
    planes: List[str] = []
    for i in range(games):
        state = plateau.State(game, seed=seed + i)
        planes = state.observation_planes()
        player = plateau.Player(game, spec, seed=seed + i)
        first = len(actions)
        while not state.is_terminal() and (max_plies is None or state.ply < max_plies):
            seat = state.current_player
            assert seat is not None
            move = player.choose(state)
            obs.append(state.observation_tensor(seat))
            masks.append(state.legal_actions_mask())
            actions.append(state.move_to_action(move))
            seats.append(seat)
            game_of.append(i)
            state.apply(move)
        final = state.returns()  # zeros when cut at max_plies
        returns.extend(final[s] for s in seats[first:])
    return {
        "observations": np.stack(obs).astype(np.float32),
        "masks": np.stack(masks).astype(np.int8),
        "actions": np.array(actions, dtype=np.int32),
        "seats": np.array(seats, dtype=np.int8),
        "returns": np.array(returns, dtype=np.float32),
        "games": np.array(game_of, dtype=np.int32),
        "planes": np.array(planes),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="kabaleo")
    ap.add_argument("--player", default="ai:2")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--max-plies", type=int)
    ap.add_argument("--out", default="selfplay.npz")
    args = ap.parse_args()
    data = selfplay(args.game, args.player, args.games, max_plies=args.max_plies)
    np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    print(f"{len(data['actions'])} decisions of {args.games} games written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
