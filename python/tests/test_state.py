"""`Game.state()` steps through any game from the rules alone: no solve, whatever its size;
`value()` is the one step that solves, within its budget."""

import os
import random
import time

import pytest

import zermelo

BIG = ["pawns:cols=8,rows=8", "mnk:m=8,n=8,k=5", "domineering:rows=11,cols=11", "dots:size=6", "bigpoints"]
"""Games far too big to solve in a test, each stepped through move by move."""


def files_in(folder):
    """Every file under `folder` (none when it does not exist)."""
    return [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names]


@pytest.mark.parametrize("spec", BIG)
def test_a_hundred_random_moves_of_a_big_game_need_no_solve(spec, data):
    game = zermelo.open(spec, data)
    rng = random.Random(7)
    state = game.state()
    played = 0
    while played < 100:
        if state.is_over():
            state = game.state()
        started = time.perf_counter()
        moves = state.legal_moves()
        state = state.play(rng.choice(moves))
        state.text, state.to_move, state.outcome(), state._repr_svg_()
        assert time.perf_counter() - started < 1.0, f"{spec}: move {played + 1} took over a second"
        played += 1
    assert state.moves == game.state(state.moves).moves
    assert files_in(data) == [], "stepping through a game solved and saved something"


def test_the_moves_listed_are_those_the_game_values(data):
    game = zermelo.open("dots:size=3", data)
    state = game.state(["1ab", "23a"])
    valued = game.moves(["1ab", "23a"], all=True, progress=False)
    assert sorted(state.legal_moves()) == sorted(m.move for m in valued.moves)
    assert state.to_move == valued.to_move and state.position == valued.position
    assert state.points() == valued.points


def negamax(state):
    """A student's own negamax over `state()`: 1, 0 or -1 for the player to move."""
    if state.is_over():
        outcome = state.outcome()
        return 0 if outcome == "draw" else -1  # the player who just moved won
    return max(-negamax(state.play(m)) for m in state.legal_moves())


def test_a_students_negamax_over_states_agrees_with_the_solver(data):
    game = zermelo.open("tictactoe", data)
    words = {1: "win", 0: "draw", -1: "lose"}
    for opening in (["a1", "b2", "c3"], ["b2", "a1", "c1"], ["a1", "a2", "b1"], ["b2", "b1", "a1", "c3"]):
        state = game.state(opening)
        assert words[negamax(state)] == state.value(progress=False).value


def test_a_depth_limited_search_over_a_big_game_works(data):
    game = zermelo.open("pawns:cols=8,rows=8", data)

    def mobility(state, depth):
        if depth == 0 or state.is_over():
            return len(state.legal_moves())
        return max(-mobility(state.play(m), depth - 1) for m in state.legal_moves())

    start = game.state()
    best = max(start.legal_moves(), key=lambda m: -mobility(start.play(m), 1))
    assert best in start.legal_moves()
    assert files_in(data) == []


def test_value_is_the_one_step_that_solves_and_honours_its_budget(data):
    state = zermelo.open("pawns:cols=8,rows=8", data).state(["a3"])
    with pytest.raises(zermelo.ZermeloError) as refused:
        state.value(memory="64M", progress=False)
    assert "\n" not in str(refused.value)
    small = zermelo.open("tictactoe", data).state(["a1"])
    assert small.value(seconds=30, progress=False).value == "draw"
