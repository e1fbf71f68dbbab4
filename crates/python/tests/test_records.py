"""Records round-trip between Python and the command line: ``plateau replay``
reads what Python writes, and Python replays what ``plateau arena
--records`` writes."""

import json
import pathlib
import random

import pytest

import plateau

from conftest import all_variants


def replay_json(cli, path):
    return json.loads(cli("replay", str(path), "--json"))


@pytest.mark.parametrize("game,variant", all_variants())
def test_the_command_line_replays_python_records(game, variant, cli, tmp_path):
    rng = random.Random(3)
    s = plateau.State(game, variant, seed=42)
    stops = {5, 17}
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_moves()))
        if s.ply in stops or s.is_terminal():
            readers = [None] + (list(range(s.num_players)) + ["spectator"] if plateau.game_info(game)["hidden"] else [])
            for reader in readers:
                path = tmp_path / f"game-{s.ply}-{reader}.txt"
                path.write_text(s.record(reader))
                out = replay_json(cli, path)
                assert out["game"] == game and out["variant"] == variant
                assert out["history"] == s.history()
                assert out["plies"] == s.ply
                assert out["result"] == (s.result() or "*")
                if s.is_terminal():
                    assert out["returns"] == pytest.approx(s.returns())


ARENAS = [
    ("abalone", "belgian-daisy", 2),
    ("colorito", "standard", 2),
    ("kabaleo", "standard", 2),
    ("kabaleo", "4-players", 4),
    ("abraxas", "level-2", 2),
]


@pytest.mark.parametrize("game,variant,seats", ARENAS, ids=[f"{g}-{v}" for g, v, _ in ARENAS])
def test_python_replays_arena_records(game, variant, seats, cli, tmp_path):
    players = ["--player", "greedy:seed=1"] + ["--player", "random:seed=2"] * (seats - 1)
    cli("arena", "--game", game, "--variant", variant, *players, "--games", str(seats), "--records", str(tmp_path))
    files = sorted(pathlib.Path(tmp_path).glob("*.txt"))
    assert len(files) == seats
    for f in files:
        text = f.read_text()
        s = plateau.State.from_record(text)
        assert s.game == game and s.variant == variant and s.is_terminal()
        tag = next(line for line in text.splitlines() if line.startswith("[Result "))
        assert tag == f'[Result "{s.result()}"]'
        assert replay_json(cli, f)["history"] == s.history()
        # Python's record of it replays to the same game, tags kept.
        again = plateau.State.from_record(s.record())
        assert again.history() == s.history() and again.result() == s.result()
        tags = [line for line in text.splitlines() if line.startswith("[")]
        assert tags == [line for line in s.record().splitlines() if line.startswith("[")]


def test_bare_move_lists_and_bad_records():
    s = plateau.State.from_record("1. a1b2 i5h5 2. a2b3 *", game="abalone")
    assert s.history() == ["a1b2", "i5h5", "a2b3"] and s.variant == "standard"
    with pytest.raises(ValueError, match="Game"):
        plateau.State.from_record("1. a1b2 *")
    with pytest.raises(ValueError, match="ply 2"):
        plateau.State.from_record('[Game "abalone"]\n\n1. a1b2 a1b2 *\n')
    with pytest.raises(ValueError):
        plateau.State.from_record('[Game "abalone"]\n[Result "1-0"]\n\n1. a1b2 1-0-0\n')
    # A resignation read from a record ends the game off the board; undo takes it back.
    r = plateau.State.from_record('[Game "abalone"]\n[Termination "resignation"]\n\n1. a1b2 0-1\n')
    assert r.result() == "0-1" and r.termination() == "resignation" and r.is_terminal()
    r.undo()
    assert not r.is_terminal() and r.ply == 1
