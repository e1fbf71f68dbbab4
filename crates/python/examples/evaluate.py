"""A short evaluation: random against alpha-beta (ISMCTS for Kabaleo), each
game played from both seats, with the scores of the stronger player.

    python crates/python/examples/evaluate.py --games 4 --time 50ms
"""

import argparse

import plateau


def strong_spec(game: str, time: str) -> str:
    # Alpha-beta needs perfect information; Kabaleo hides the objectives.
    return f"ismcts:time={time}" if plateau.game_info(game)["hidden"] else f"alphabeta:time={time}"


def evaluate(game: str, games: int, time: str, seed: int = 1) -> float:
    """The strong player's mean score (1 a win, 0.5 a draw or shared win, 0 a loss)."""
    total = 0.0
    for i in range(games):
        state = plateau.State(game, seed=seed + i)
        strong_seat = i % 2  # both seats in turn
        players = {
            strong_seat: plateau.Player(game, strong_spec(game, time), seed=seed + i),
            1 - strong_seat: plateau.Player(game, "random", seed=seed + i),
        }
        while not state.is_terminal():
            state.apply(players[state.current_player].choose(state))
        total += score_of(state.returns(), strong_seat)
    return total / games


def score_of(returns: list, seat: int) -> float:
    """A two-player game's score for ``seat``: 1 a win, 0.5 a draw, 0 a loss."""
    mine, theirs = returns[seat], returns[1 - seat]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--time", default="50ms")
    ap.add_argument("--only")
    args = ap.parse_args()
    for g in plateau.games():
        if args.only and g["name"] != args.only:
            continue
        score = evaluate(g["name"], args.games, args.time)
        print(f"{g['name']:<10} strong player against random: {score * 100:.0f}% over {args.games} games")


if __name__ == "__main__":
    main()
