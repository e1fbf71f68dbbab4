"""An illegal or unreadable move raises ValueError with the rules' message
and changes nothing."""

import random

import pytest

import plateau

from conftest import all_variants


def snapshot(s):
    return (s.ply, s.history(), s.legal_moves(), s.view(), s.record(), s.render(), s.current_player, s.returns())


@pytest.mark.parametrize("game,variant", all_variants())
def test_illegal_moves_change_nothing(game, variant):
    rng = random.Random(5)
    s = plateau.State(game, variant, seed=9)
    seen = set()
    refused = 0
    for _ in range(40):
        if s.is_terminal():
            break
        legal = set(s.legal_moves())
        before = snapshot(s)
        # Moves legal elsewhere but not here, and text that is no move at all.
        candidates = [m for m in sorted(seen - legal)][:8] + ["", "zz99", "??", "1-0", "a1b2c3d4e5"]
        for text in candidates:
            if text in legal:
                continue
            with pytest.raises(ValueError) as e:
                s.apply(text)
            assert str(e.value), "a message says why"
            assert snapshot(s) == before, text
            refused += 1
        seen |= legal
        s.apply(rng.choice(sorted(legal)))
    assert refused > 40


def test_the_rules_message():
    s = plateau.State("abalone")
    with pytest.raises(ValueError) as e:
        s.apply("i5h5")  # a White marble: not Black's move
    assert str(e.value)
    assert s.ply == 0
