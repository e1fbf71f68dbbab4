"""Plateau's computer players from Python."""

import threading
import time

import pytest

import plateau

SPECS = {
    "abalone": ["random", "greedy", "alphabeta:depth=2", "alphabeta:time=50ms", "mcts:iterations=200", "ai:1", "ai:3"],
    "colorito": ["random", "greedy", "alphabeta:depth=2", "mcts:iterations=200", "ai:2"],
    "kabaleo": ["random", "greedy", "ismcts:iterations=200", "mcts:iterations=100", "ai:3"],
    "abraxas": ["random", "greedy", "alphabeta:depth=2", "mcts:iterations=200", "ai:3"],
}


@pytest.mark.parametrize("game", sorted(SPECS))
def test_players_return_legal_moves(game):
    variants = [v["name"] for v in plateau.game_info(game)["variants"]][:2]
    for variant in variants:
        for spec in SPECS[game]:
            s = plateau.State(game, variant, seed=4)
            player = plateau.Player(game, spec, seed=1)
            assert player.game == game and player.spec == spec
            for _ in range(3):
                if s.is_terminal():
                    break
                choice = player.search(s)
                assert choice.move in s.legal_moves(), (spec, choice)
                assert choice.pv == [] or choice.pv[0] == choice.move
                assert choice.time >= 0 and choice.nodes >= 0 and choice.depth >= 0
                assert (choice.score is None) == (choice.score_kind is None) == (choice.score_value is None)
                s.apply(player.choose(s))


def test_search_info_of_alpha_beta():
    c = plateau.Player("abalone", "alphabeta:depth=3").search(plateau.State("abalone"))
    assert c.depth == 3 and c.nodes > 0 and len(c.pv) >= 1
    assert c.score_kind == "eval" and isinstance(c.score_value, float) and c.score
    assert repr(c).startswith("<plateau.Choice move=")


def test_seeds_make_choices_reproducible():
    def game(spec, seed):
        s = plateau.State("kabaleo", "3-players", seed=2)
        p = plateau.Player("kabaleo", spec, seed=seed)
        while not s.is_terminal():
            s.apply(p.choose(s))
        return s.history()

    assert game("ismcts:iterations=50", 7) == game("ismcts:iterations=50", 7)
    assert game("random:seed=3", None) == game("random:seed=3", None)
    assert game("random", 3) == game("random:seed=3", None)
    assert game("random", 3) != game("random", 4)


def test_bad_specs_and_misuse():
    with pytest.raises(ValueError, match="unknown game"):
        plateau.Player("chess", "random")
    with pytest.raises(ValueError):
        plateau.Player("abalone", "nonsense")
    with pytest.raises(ValueError, match="alpha-beta"):
        plateau.Player("kabaleo", "alphabeta:depth=2")
    with pytest.raises(ValueError, match="ai:1 to ai:6"):
        plateau.Player("abalone", "ai:7")
    p = plateau.Player("abalone", "random")
    with pytest.raises(ValueError, match="plays abalone"):
        p.choose(plateau.State("abraxas"))
    over = plateau.play_random(plateau.State("kabaleo", seed=1), rng_seed=1)
    with pytest.raises(ValueError, match="over"):
        plateau.Player("kabaleo", "random").choose(over)


def test_the_gil_is_released_while_searching():
    # While a one-second search runs on a thread, the main thread keeps running
    # Python code: were the GIL held during the search, the main thread
    # would not run at all until it ended (a tick or two at most).
    player = plateau.Player("abalone", "alphabeta:time=1s")
    state = plateau.State("abalone")
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("move", player.choose(state)))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert result["move"] in state.legal_moves()
    # With the GIL held, at most a tick or two; released, hundreds.
    assert ticks > 5
