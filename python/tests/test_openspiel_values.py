"""OpenSpiel's games opened by zermelo value every position as OpenSpiel's own
`alpha_beta_search` does from the same state."""

import random

import pytest

import zermelo

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install open_spiel (or './python[openspiel]')")
minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")

GAMES = [
    "tic_tac_toe",
    "breakthrough(rows=4,columns=3)",
    "clobber(rows=3,columns=3)",
    "hex(num_rows=3,num_cols=3)",
    "mnk(m=3,n=3,k=3)",
    "nim(pile_sizes=1;2;4)",
    "dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)",
    "y(board_size=3)",
]
"""Games of OpenSpiel's registry at sizes that open in a second or two."""


def random_state(spiel, rng):
    """A state after a few random moves that is not over."""
    while True:
        state = spiel.new_initial_state()
        for _ in range(rng.randrange(0, 6)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            return state


@pytest.mark.parametrize("spec", GAMES)
def test_values_agree_with_openspiels_alpha_beta(spec, data):
    spiel = pyspiel.load_game(spec)
    game = zermelo.open(spiel, data)
    rng = random.Random(3)
    for _ in range(8):
        state = random_state(spiel, rng)
        mover = state.current_player()
        theirs, _ = minimax.alpha_beta_search(spiel, state=state.clone(), maximizing_player_id=mover)
        ours = game.state(position=f"{mover}:{state}").value(progress=False)
        assert ours.value == ("win" if theirs > 0 else "lose" if theirs < 0 else "draw"), state.history()
        if ours.get("margin") is not None:
            assert ours.margin == theirs, state.history()


def test_a_game_that_comes_back_to_a_position_counts_its_moves(data):
    # Quoridor's pawns can walk back and forth; OpenSpiel ends it after a number of moves.
    game = zermelo.open("openspiel:quoridor(board_size=3,wall_count=0)", data)
    assert game.source.counted
    spiel = pyspiel.load_game("quoridor(board_size=3,wall_count=0)")
    state = spiel.new_initial_state()
    for action in state.legal_actions()[:1]:
        state.apply_action(action)
    position = f"{state.current_player()}@{state.move_number()}:{state}"
    assert game.state(position=position).legal_moves()
    assert zermelo.open("openspiel:quoridor(board_size=3,wall_count=0)", data).source.counted, "read back counted"
    # A game whose text leaves out more than the moves played is refused, naming two paths.
    assert not zermelo.open("openspiel:tic_tac_toe", data).source.counted
    with pytest.raises(ValueError, match=r"two states of the key .*\(after .*; after .*\) differ"):
        zermelo.open("openspiel:oware(num_houses_per_player=2,num_seeds_per_house=1)", data)
