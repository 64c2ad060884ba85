"""The native Connect Four family values random positions of small boards as zermelo
values OpenSpiel's own `connect_four` (an independent implementation of the rules)
opened through `zermelo.open`: the same winner and the same distance to the end."""

import random

import pytest

import zermelo

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install open_spiel (or './python[openspiel]')")

BOARDS = [(4, 4), (3, 5), (4, 3)]
"""Rows and columns of the boards compared: small enough for OpenSpiel's to open in seconds."""


@pytest.mark.parametrize("rows,columns", BOARDS)
def test_native_connect_four_agrees_with_openspiels(rows, columns, data):
    spiel = pyspiel.load_game(f"connect_four(rows={rows},columns={columns})")
    theirs = zermelo.open(spiel, data)
    ours = zermelo.open(f"connect4:cols={columns},rows={rows}", data)
    rng = random.Random(46 + 10 * rows + columns)
    compared = 0
    while compared < 12:
        state = spiel.new_initial_state()
        moves = []
        for _ in range(rng.randrange(0, rows * columns - 1)):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            moves.append(str(action + 1))
        if state.is_terminal():
            continue
        native = ours.state(moves).value(progress=False)
        other = theirs.state(position=f"{state.current_player()}:{state}").value(progress=False)
        assert native.value == other.value, moves
        if other.remoteness is not None:
            assert native.remoteness == other.remoteness, moves
        compared += 1
