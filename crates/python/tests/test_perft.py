"""Perft from Python: the published figures, and the command line's.

Abalone's figures for the standard and Belgian daisy layouts are the published
ones of docs/rules/abalone.md (checked there against a naive generator written
from the rules; the Python benchmark's own move generator finds them too).
For the other games and variants no figures are published: the release
build's ``plateau perft GAME N`` gives them, and comparing with it only checks
the binding (the rules crates check their move generators themselves).
"""

import pytest

import plateau

from conftest import all_variants

PUBLISHED = {
    "standard": [44, 1_936, 98_912],
    "belgian-daisy": [52, 2_692, 149_322],
}


@pytest.mark.parametrize("layout", sorted(PUBLISHED))
def test_abalone_perft_equals_the_published_figures(layout):
    s = plateau.State("abalone", layout)
    assert [s.perft(d) for d in (1, 2, 3)] == PUBLISHED[layout]


@pytest.mark.parametrize("game,variant", all_variants())
def test_perft_equals_the_command_line(game, variant, cli):
    seeds = [0, 7] if plateau.game_info(game)["uses_seed"] else [0]
    for seed in seeds:
        s = plateau.State(game, variant, seed=seed)
        for depth in (1, 2, 3):
            expected = int(cli("perft", game, "--variant", variant, "--seed", str(seed), str(depth)).split()[-1])
            assert s.perft(depth) == expected, (game, variant, seed, depth)


def test_perft_after_moves_equals_the_command_line(cli, tmp_path):
    s = plateau.State("abraxas", "level-3")
    for _ in range(5):
        s.apply(s.legal_moves()[len(s.legal_moves()) // 2])
    path = tmp_path / "game.txt"
    path.write_text(s.record())
    assert s.perft(2) == int(cli("perft", "abraxas", "--record", str(path), "2").split()[-1])
    assert s.perft(0) == 1
