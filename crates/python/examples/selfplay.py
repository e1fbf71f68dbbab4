"""A short self-play data loop: a built-in player plays itself, and every
decision is written as one JSON line: what the deciding seat knew (its
information state), the move chosen, and the seat's final return — the
(state, policy target, value target) triples of AlphaZero-style training,
with states as Plateau's information states (observation tensors come with
the integer actions of issue 18).

    python crates/python/examples/selfplay.py --game kabaleo --games 2 --out data.jsonl
"""

import argparse
import json
import sys
from typing import IO, Optional

import plateau


def selfplay(game: str, spec: str, games: int, out: IO[str], seed: int = 1, max_plies: Optional[int] = None) -> int:
    """Play ``games`` games of ``spec`` against itself; write one line per decision; return the number of lines."""
    lines = 0
    for i in range(games):
        state = plateau.State(game, seed=seed + i)
        player = plateau.Player(game, spec, seed=seed + i)
        decisions = []
        while not state.is_terminal() and (max_plies is None or state.ply < max_plies):
            seat = state.current_player
            move = player.choose(state)
            decisions.append((seat, state.information_state(seat), move))
            state.apply(move)
        returns = state.returns()  # zeros when cut at max_plies
        for seat, info, move in decisions:
            out.write(json.dumps({"game": game, "seat": seat, "state": info, "move": move, "return": returns[seat]}) + "\n")
            lines += 1
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="kabaleo")
    ap.add_argument("--player", default="ai:2")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--max-plies", type=int)
    ap.add_argument("--out")
    args = ap.parse_args()
    out = open(args.out, "w") if args.out else sys.stdout
    n = selfplay(args.game, args.player, args.games, out, max_plies=args.max_plies)
    print(f"{n} decisions written", file=sys.stderr)


if __name__ == "__main__":
    main()
