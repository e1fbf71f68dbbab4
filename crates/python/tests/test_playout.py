"""Random playouts of every game and variant to the end, from Python."""

import random

import pytest

import plateau

from conftest import all_variants


def check_result(s):
    """The result string and the returns agree: winners (the best return)
    score 1 or 1/k, the others 0; returns sum to zero."""
    r = s.returns()
    assert len(r) == s.num_players
    assert abs(sum(r)) < 1e-6
    assert all(-1.0 <= x <= 1.0 for x in r)
    best = max(r)
    winners = [i for i, x in enumerate(r) if x == best]
    win = "1" if len(winners) == 1 else f"1/{len(winners)}"
    assert s.result() == "-".join(win if i in winners else "0" for i in range(s.num_players))


@pytest.mark.parametrize("game,variant", all_variants())
def test_random_playouts_to_the_end(game, variant):
    for seed in range(3):
        rng = random.Random(seed)
        s = plateau.State(game, variant, seed=seed)
        while not s.is_terminal():
            assert s.result() is None and s.returns() == [0.0] * s.num_players
            seat = s.current_player
            assert seat in range(s.num_players)
            moves = s.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            mv = rng.choice(moves)
            assert s.apply(mv) == mv
            assert s.movers()[-1] == seat
            assert s.ply < 10_000
        assert s.current_player is None
        assert s.legal_moves() == []
        assert s.termination()
        check_result(s)
        assert len(s.history()) == s.ply == len(s.movers())
        with pytest.raises(ValueError, match="over"):
            s.apply("anything")
        # The whole record replays to the same end.
        again = plateau.State.from_record(s.record())
        assert again.history() == s.history() and again.result() == s.result() and again.returns() == s.returns()
        assert again.view() == s.view()


def test_play_random_helper():
    s = plateau.play_random(plateau.State("kabaleo", "4-players", seed=3), rng_seed=1)
    assert s.is_terminal() and s.num_players == 4
    check_result(s)
    t = plateau.play_random(plateau.State("abalone"), rng_seed=1, max_plies=10)
    assert t.ply == 10
