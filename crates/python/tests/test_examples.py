"""The example scripts (crates/python/examples) run, and what they produce
is what they say."""

import io
import json
import pathlib
import sys

import plateau

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "examples"))

import evaluate  # noqa: E402
import selfplay  # noqa: E402


def test_evaluate_scores_the_strong_player_against_random():
    # A score between 0 and 1 over both seat orders, for the hidden game
    # (ISMCTS) and one of perfect information (alpha-beta).
    score = evaluate.evaluate("kabaleo", 2, "20ms")
    assert 0.0 <= score <= 1.0
    score = evaluate.evaluate("abraxas", 2, "20ms")
    assert 0.0 <= score <= 1.0
    # Two games score a multiple of a quarter.
    assert (score * 4).is_integer()


def test_the_score_of_a_game_is_worked_by_hand():
    assert evaluate.score_of([1.0, -1.0], 0) == 1.0
    assert evaluate.score_of([1.0, -1.0], 1) == 0.0
    assert evaluate.score_of([0.0, 0.0], 1) == 0.5


def test_selfplay_writes_one_line_per_decision_with_the_seat_knowledge_only():
    out = io.StringIO()
    n = selfplay.selfplay("kabaleo", "greedy", 1, out, seed=3)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert n == len(lines) > 0
    # Replaying the moves written gives the game, and each line's return is
    # its seat's return at the end of that game.
    s = plateau.State("kabaleo", seed=3)
    for row in lines:
        seat = row["seat"]
        assert seat == s.current_player
        assert row["state"] == s.information_state(seat)
        assert row["move"] in row["state"]["legal_moves"]
        # What the seat knew: its own objective, none of the others'.
        objectives = row["state"]["view"]["objectives"]
        assert objectives[seat] is not None
        assert all(o is None for i, o in enumerate(objectives) if i != seat)
        s.apply(row["move"])
    assert s.is_terminal()
    assert [row["return"] for row in lines] == [s.returns()[row["seat"]] for row in lines]
