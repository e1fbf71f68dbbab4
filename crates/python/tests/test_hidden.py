"""Kabaleo's hidden objectives from Python: what one seat may know, and
states sampled from it.

As the conformance kit does (crates/conformance, ``run_hidden``), every state
consistent with a seat's knowledge must give that seat the same information
state: for many seeds, every variant, several points of each game and every
seat, the test builds, from a record with a full ``Deal`` tag, the state of
every assignment of the other seats' objectives (each a colour of the game
other than the seat's own, all different), and checks that the seat's
information state and observation tensor are the same in each and in the
true state, deal included (the core masks a full deal for the seat). The seat's own deal hides every
other objective (``?``), and its record replays to the same information
state. Samples drawn from the seat's knowledge agree with it and draw the
other objectives at random.
"""

import itertools
import json
import random

import numpy as np
import pytest

import plateau

VARIANTS = [v["name"] for v in plateau.game_info("kabaleo")["variants"]]


def objectives(deal):
    part = next(p.strip() for p in deal.split(";") if p.strip().startswith("objectives"))
    return part.split()[1:]


def with_objectives(deal, letters):
    parts = [p.strip() for p in deal.split(";")]
    return " ; ".join("objectives " + " ".join(letters) if p.startswith("objectives") else p for p in parts)


def record_from_deal(variant, deal, moves):
    head = f'[Game "kabaleo"]\n[Variant "{variant}"]\n[Deal "{deal}"]\n\n'
    return head + " ".join(moves) + " *\n"


@pytest.mark.parametrize("variant", VARIANTS)
def test_information_states_hide_the_other_objectives(variant):
    checked = 0
    for seed in range(24):
        truth = plateau.State("kabaleo", variant, seed=seed)
        n = truth.num_players
        colours = truth.view()["colours"]
        true_objectives = truth.view("referee")["objectives"]
        rng = random.Random(seed)
        plies = sorted({0, 1, rng.randrange(2, 12), rng.randrange(12, 20)})
        moves = []
        for target in plies:
            while truth.ply < target:
                mv = rng.choice(truth.legal_moves())
                truth.apply(mv)
                moves.append(mv)
            assert not truth.is_terminal()
            for seat in range(n):
                info = truth.information_state(seat)
                deal = info["deal"]
                mine = objectives(deal)
                assert mine[seat] == true_objectives[seat]
                assert all(mine[o] == "?" for o in range(n) if o != seat), deal
                assert [x for i, x in enumerate(info["view"]["objectives"]) if i != seat] == [None] * (n - 1)
                observed = truth.observation_tensor(seat)
                text = json.dumps(info, sort_keys=True)
                assert '"seed"' not in text.lower()
                # Every assignment of the others' objectives gives the same
                # information state.
                others = [c for c in colours if c != true_objectives[seat]]
                seen_truth = False
                for assignment in itertools.permutations(others, n - 1):
                    letters = list(assignment)
                    letters.insert(seat, true_objectives[seat])
                    st = plateau.State.from_record(record_from_deal(variant, with_objectives(deal, letters), moves))
                    assert st.view("referee")["objectives"] == letters
                    other = st.information_state(seat)
                    assert other == info, (seed, seat, letters)
                    # The observation tensor too: the same numbers whatever
                    # the others' objectives.
                    assert np.array_equal(st.observation_tensor(seat), observed), (seed, seat, letters)
                    assert st.legal_actions() == truth.legal_actions()
                    seen_truth |= letters == true_objectives
                    checked += 1
                assert seen_truth
                # The seat's own record replays from its deal to the same
                # information state, deal included.
                rec = truth.record(seat)
                assert "[Seed" not in rec and "[Deal" in rec
                mine_state = plateau.State.from_record(rec)
                assert mine_state.information_state(seat) == info
                # States sampled from the seat's knowledge agree with it.
                drawn = set()
                for k in range(12):
                    sample = truth.sample(seat, k)
                    assert sample.information_state(seat) == info
                    assert np.array_equal(sample.observation_tensor(seat), observed)
                    assert sample.history() == truth.history()
                    assert sample.legal_moves() == truth.legal_moves()
                    assert sample.view("referee")["objectives"][seat] == true_objectives[seat]
                    drawn.add(tuple(sample.view("referee")["objectives"]))
                # At least three colours are free for the others: twelve
                # seeds draw more than one assignment.
                assert len(drawn) > 1, drawn
    assert checked > 100


def test_seat_records_and_their_limits():
    truth = plateau.State("kabaleo", "3-players", seed=11)
    for _ in range(4):
        truth.apply(truth.legal_moves()[0])
    mine = plateau.State.from_record(truth.record(1))
    assert mine.deal(1) == truth.deal(1)
    with pytest.raises(ValueError, match="seat 1"):
        mine.information_state(0)
    with pytest.raises(ValueError, match="seat 1"):
        mine.deal(2)
    spectator = plateau.State.from_record(truth.record("spectator"))
    assert "?" in spectator.record() and "[Seed" not in truth.record("spectator")
    with pytest.raises(ValueError, match="spectator"):
        spectator.information_state(0)
    # A finished game reveals every objective to everyone: records carry the seed.
    plateau.play_random(truth, rng_seed=2)
    assert "[Seed" in truth.record(0)
    assert None not in truth.information_state(0)["view"]["objectives"]


def test_games_without_secrets():
    s = plateau.State("abalone")
    s.apply(s.legal_moves()[3])
    assert s.deal(0) is None
    info = s.information_state(1)
    assert info["deal"] is None and info["history"] == s.history() and info["seat"] == 1
    assert info["view"] == s.view(1)
    sample = s.sample(0, 5)
    assert sample.record() == s.record()
