"""The catalogue from Python: games(), making states, refusing bad set-ups."""

import copy

import pytest

import plateau

from conftest import all_variants


def test_games_lists_the_four_games_with_their_facts():
    games = plateau.games()
    assert [g["name"] for g in games] == ["abalone", "colorito", "kabaleo", "abraxas"]
    for g in games:
        assert g["title"] and g["summary"] and g["notation"]
        assert 1 <= g["min_players"] <= g["max_players"] <= 4
        assert isinstance(g["hidden"], bool) and isinstance(g["uses_seed"], bool)
        assert g["variants"], g["name"]
        for v in g["variants"]:
            assert v["name"] and v["help"]
            assert all(isinstance(k, str) and isinstance(x, str) for k, x in v["options"].items())
        for o in g["options"]:
            assert o["kind"] in ("int", "optional-int", "bool", "choice", "text", "content")
            assert o["help"] and o["values"]
            if o["kind"] in ("int", "optional-int"):
                assert o["min"] <= o["max"]
            if o["kind"] == "choice":
                assert o["choices"]
        assert [l["level"] for l in g["levels"]] == [1, 2, 3, 4, 5, 6]
    kabaleo = plateau.game_info("Kabaleo")
    assert kabaleo["hidden"] and kabaleo["uses_seed"] and kabaleo["max_players"] == 4
    assert not plateau.game_info("abalone")["hidden"]


@pytest.mark.parametrize("game,variant", all_variants())
def test_every_variant_starts(game, variant):
    s = plateau.State(game, variant)
    assert s.game == game
    assert s.variant == variant
    assert s.ply == 0 and s.history() == [] and s.movers() == []
    assert s.current_player in range(s.num_players)
    assert not s.is_terminal() and s.result() is None and s.termination() is None
    assert s.returns() == [0.0] * s.num_players
    assert s.legal_moves()
    assert isinstance(s.view(), dict) and isinstance(s.view(0), dict) and isinstance(s.view("spectator"), dict)
    assert s.render() and s.render(0) and s.render("spectator") == s.render("spectator")
    assert "\x1b[" not in s.render(), "no colours"
    assert repr(s).startswith(f"<plateau.State {game} ")
    assert [s.seat_name(i) for i in range(s.num_players)]


def test_options_variants_and_errors():
    s = plateau.State("kabaleo", options={"players": 3, "golden-rule": False}, seed=5)
    assert s.num_players == 3
    assert s.options == {"players": "3", "golden-rule": "false"}
    with pytest.raises(ValueError, match="unknown game"):
        plateau.State("chess")
    with pytest.raises(ValueError):
        plateau.State("abalone", "no-such-variant")
    with pytest.raises(ValueError):
        plateau.State("kabaleo", options={"players": 9})
    with pytest.raises(ValueError):
        plateau.State("abalone", options={"no-such-option": "1"})
    with pytest.raises(ValueError, match="seat"):
        s.view(3)
    with pytest.raises(ValueError, match="reader"):
        s.view("nobody")
    with pytest.raises(ValueError):
        s.seat_name(-1)


def test_clone_and_copies_are_independent():
    s = plateau.State("abalone")
    s.apply(s.legal_moves()[0])
    for c in (s.clone(), copy.copy(s), copy.deepcopy(s)):
        assert c.history() == s.history() and c.record() == s.record()
        c.apply(c.legal_moves()[0])
        assert c.ply == 2 and s.ply == 1


def test_undo_restores_the_start():
    s = plateau.State("abraxas")
    start = (s.view(), s.legal_moves(), s.record())
    for _ in range(10):
        s.apply(s.legal_moves()[-1])
    for _ in range(10):
        s.undo()
    assert (s.view(), s.legal_moves(), s.record()) == start
    with pytest.raises(ValueError, match="no move"):
        s.undo()


def test_apply_returns_the_canonical_text():
    s = plateau.State("abalone")
    mv = s.legal_moves()[0]
    assert s.apply(mv.upper()) == mv
    assert s.history() == [mv]


@pytest.mark.parametrize("game,variant", all_variants())
def test_states_pickle_through_their_record(game, variant):
    import pickle

    s = plateau.State(game, variant, seed=3)
    s.apply(s.legal_moves()[0])
    for state in [s, plateau.State.from_record(s.record(0))]:
        back = pickle.loads(pickle.dumps(state))
        assert back.record() == state.record() and back.view() == state.view()
        assert back.legal_moves() == state.legal_moves()
