"""Integer actions and observation tensors from Python.

The encodings themselves (which action is which move, what each plane holds)
are checked against hand-worked examples in each game's crate
(``crates/<game>/tests/encode.rs``) and by the conformance kit on every
position of its random playouts. Here: the binding agrees with the moves as
text, perft counted through actions agrees with the command line's, an
action that names no legal move is refused and changes nothing, and the
tensors have the documented shape, type and range.
"""

import random

import numpy as np
import pytest

import plateau

from conftest import all_variants


def action_perft(s, depth):
    """Perft through the integer API only: legal_actions, apply_action, undo."""
    if depth == 0:
        return 1
    total = 0
    for a in s.legal_actions():
        s.apply_action(a)
        total += action_perft(s, depth - 1)
        s.undo()
    return total


@pytest.mark.parametrize("game,variant", all_variants())
def test_actions_agree_with_the_moves_as_text(game, variant):
    for seed in range(3):
        s = plateau.State(game, variant, seed=seed)
        n = s.num_distinct_actions
        rng = random.Random(seed)
        plies = 0
        while not s.is_terminal() and plies < 150:
            moves = s.legal_moves()
            actions = s.legal_actions()
            assert len(actions) == len(moves) == len(set(actions))
            assert all(0 <= a < n for a in actions)
            assert [s.action_to_move(a) for a in actions] == moves
            assert [s.move_to_action(m) for m in moves] == actions
            mask = s.legal_actions_mask()
            assert mask.dtype == np.int8 and mask.shape == (n,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)
            i = rng.randrange(len(actions))
            assert s.apply_action(actions[i]) == moves[i]
            assert s.history()[-1] == moves[i]
            plies += 1
        assert s.num_distinct_actions == n


@pytest.mark.parametrize("game,variant", all_variants())
def test_perft_through_actions_equals_the_command_line(game, variant, cli):
    s = plateau.State(game, variant, seed=3)
    for depth in (1, 2):
        expected = int(cli("perft", game, "--variant", variant, "--seed", "3", str(depth)).split()[-1])
        assert action_perft(s, depth) == expected, (game, variant, depth)
    assert s.ply == 0


def test_abalone_perft_3_through_actions_equals_the_published_figure():
    # docs/rules/abalone.md: 98,912 positions after three plies.
    assert action_perft(plateau.State("abalone"), 3) == 98_912


@pytest.mark.parametrize("game", [g["name"] for g in plateau.games()])
def test_actions_that_name_no_legal_move_are_refused(game):
    s = plateau.State(game, seed=1)
    s.apply_action(s.legal_actions()[0])
    before = (s.history(), s.legal_actions())
    n = s.num_distinct_actions
    legal = set(s.legal_actions())
    illegal = [a for a in range(n) if a not in legal][:50]
    for a in [-1, n, n + 1, 2**40] + illegal:
        with pytest.raises(ValueError):
            s.apply_action(a)
        assert (s.history(), s.legal_actions()) == before
    for a in (-1, n, 2**40):
        with pytest.raises(ValueError):
            s.action_to_move(a)
    with pytest.raises(ValueError):
        s.move_to_action("not a move at all")
    with pytest.raises(TypeError):
        s.apply_action("1")  # type: ignore[arg-type]


@pytest.mark.parametrize("game,variant", all_variants())
def test_observation_tensors_have_the_documented_form(game, variant):
    s = plateau.State(game, variant, seed=2)
    shape = s.observation_shape
    planes = s.observation_planes()
    assert len(shape) == 3 and all(d > 0 for d in shape) and len(planes) == shape[0]
    assert len(set(planes)) == len(planes)
    rng = random.Random(2)
    for _ in range(40):
        for seat in range(s.num_players):
            t = s.observation_tensor(seat)
            assert t.dtype == np.float32 and t.shape == shape
            assert t.min() >= 0.0 and t.max() <= 1.0
            t[...] = 7.0  # a fresh array each time: writing to it changes nothing
            assert s.observation_tensor(seat).max() <= 1.0
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    for bad in (-1, s.num_players):
        with pytest.raises(ValueError):
            s.observation_tensor(bad)


@pytest.mark.parametrize("game", [g["name"] for g in plateau.games()])
def test_observations_follow_the_position_and_the_seat(game):
    s = plateau.State(game, seed=5)
    first = [s.observation_tensor(seat) for seat in range(s.num_players)]
    # Two seats never see the same numbers at the start (each sees from its
    # own side, or knows its own secret).
    for a in range(s.num_players):
        for b in range(a + 1, s.num_players):
            assert not np.array_equal(first[a], first[b])
    s.apply_action(s.legal_actions()[0])
    assert not np.array_equal(s.observation_tensor(0), first[0])
    s.undo()
    assert np.array_equal(s.observation_tensor(0), first[0])


def test_a_kabaleo_seat_observes_its_own_objective():
    # The same public deal with the seat's own objective changed gives the
    # seat another observation (so that the test of test_hidden.py, the same
    # numbers whatever the others' objectives, is not met by a tensor that
    # shows no objective at all).
    truth = plateau.State("kabaleo", seed=11)
    deal = truth.deal(0)
    objs = truth.view("referee")["objectives"]
    colours = truth.view()["colours"]
    other = next(c for c in colours if c not in objs)
    parts = [p.strip() for p in deal.split(";")]
    changed = " ; ".join(
        "objectives " + " ".join([other] + ["?"] * (len(objs) - 1)) if p.startswith("objectives") else p for p in parts
    )
    rec = f'[Game "kabaleo"]\n[Variant "{truth.variant}"]\n[Deal "{changed}"]\n\n*\n'
    st = plateau.State.from_record(rec)
    assert not np.array_equal(st.observation_tensor(0), truth.observation_tensor(0))


def test_a_state_from_a_seat_deal_observes_only_that_seat():
    truth = plateau.State("kabaleo", seed=2)
    mine = plateau.State.from_record(truth.record(1))
    assert np.array_equal(mine.observation_tensor(1), truth.observation_tensor(1))
    with pytest.raises(ValueError, match="does not know seat 0"):
        mine.observation_tensor(0)
