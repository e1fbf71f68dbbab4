"""The example scripts (crates/python/examples) run, and what they produce
is what they say."""

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import plateau

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

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


def test_selfplay_examples_are_the_games_decisions_with_the_seats_knowledge_only(tmp_path):
    data = selfplay.selfplay("kabaleo", "greedy", 2, seed=3)
    n = len(data["actions"])
    assert n > 0 and all(len(data[k]) == n for k in ("observations", "masks", "actions", "seats", "returns", "games"))
    assert data["observations"].dtype == np.float32 and data["masks"].dtype == np.int8
    # Replaying the actions gives the games; each example holds what its
    # seat observed (a state knowing only that seat's deal observes the
    # same), the legal actions, and the seat's return at the end.
    for g in range(2):
        rows = np.flatnonzero(data["games"] == g)
        s = plateau.State("kabaleo", seed=3 + g)
        assert list(data["planes"]) == s.observation_planes()
        for r in rows:
            seat = int(data["seats"][r])
            assert seat == s.current_player
            mine = plateau.State.from_record(s.record(seat))
            assert np.array_equal(data["observations"][r], mine.observation_tensor(seat))
            assert np.array_equal(data["masks"][r], s.legal_actions_mask())
            assert data["masks"][r][data["actions"][r]] == 1
            s.apply_action(int(data["actions"][r]))
        assert s.is_terminal()
        assert [float(data["returns"][r]) for r in rows] == pytest.approx([s.returns()[data["seats"][r]] for r in rows])
    # The command line writes them to a file.
    out = tmp_path / "data.npz"
    subprocess.run(
        [sys.executable, str(EXAMPLES / "selfplay.py"), "--game", "abalone", "--player", "greedy",
         "--games", "1", "--max-plies", "6", "--out", str(out)],
        check=True, capture_output=True, timeout=300,
    )
    saved = np.load(out)
    assert saved["observations"].shape[0] == 6 and saved["returns"].tolist() == [0.0] * 6
