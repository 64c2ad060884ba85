"""Games of your own explored on worker processes: the same graph as one process finds,
node for node, and the same solution; failures, Ctrl-C and budgets stop every worker."""

import multiprocessing
import os
import signal
import threading
import time

import pytest

import zermelo
from zermelo._workers import explore
from test_own import Drawn, Race, Turned
from test_search import loops_file, random_graph


class Heaps:
    """Two heaps, a move taking 1 or 2 from one; who takes the last wins."""

    name = "heaps"
    MOVES = [(1, 0), (2, 0), (0, 1), (0, 2)]

    def __init__(self, n):
        self.n = n

    def start(self):
        return (self.n, self.n, 0)

    def to_move(self, state):
        return state[2]

    def moves(self, state):
        return [m for m in self.MOVES if m[0] <= state[0] and m[1] <= state[1]]

    def play(self, state, move):
        return (state[0] - move[0], state[1] - move[1], 1 - state[2])

    def outcome(self, state):
        return None if state[0] or state[1] else 1 - state[2]


GAMES = {
    "heaps": lambda: Heaps(40),
    "race with boards": lambda: Drawn(30, 3),
    "tic-tac-toe up to symmetry": Turned,
    "loopy file": loops_file,
    "random loopy": lambda: random_graph(7, size=40),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_two_workers_find_the_graph_and_solution_of_one(name, data):
    one, two = explore(GAMES[name]()), explore(GAMES[name](), workers=2)
    assert two.positions == one.positions > 1
    assert two.lists() == one.lists()
    assert two.graph.identity() == one.graph.identity()
    solved = [zermelo.open(GAMES[name](), data, save=False, workers=w).solve(progress=False) for w in (1, 2)]
    assert solved[0].value == solved[1].value and solved[0].remoteness == solved[1].remoteness


def test_three_workers_too():
    assert explore(Heaps(30), workers=3).lists() == explore(Heaps(30)).lists()


def test_openspiel_on_two_workers(data):
    pyspiel = pytest.importorskip("pyspiel")
    games = [zermelo.open(pyspiel.load_game("tic_tac_toe"), data, save=False, workers=w) for w in (1, 2)]
    values = [g.moves(progress=False) for g in games]
    assert values[0].moves == values[1].moves
    assert games[0].solve(progress=False).value == games[1].solve(progress=False).value == "draw"


class Broken(Heaps):
    """Its play fails on one position."""

    name = "broken"

    def play(self, state, move):
        if state[:2] == (3, 4):
            raise RuntimeError("no way")
        return super().play(state, move)


def test_a_failing_method_is_named_as_one_process_names_it():
    messages = []
    for workers in (1, 2):
        with pytest.raises(ValueError) as e:
            explore(Broken(6), workers=workers)
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert "play(state, (1, 0)) raised RuntimeError: no way (after " in messages[1]
    assert multiprocessing.active_children() == []


class Lambdas(Heaps):
    """Its states hold a function, which does not pickle."""

    name = "lambdas"

    def start(self):
        return (self.n, self.n, 0, lambda: 0)

    def play(self, state, move):
        return (*super().play(state[:3], move), state[3])

    def key(self, state):
        return state[:3]


def test_states_that_do_not_pickle_are_refused_in_one_line():
    with pytest.raises(ValueError, match=r"workers=2 explores on worker processes, which takes a game and states that pickle"):
        explore(Lambdas(5), workers=2)
    assert explore(Lambdas(5)).positions == explore(Heaps(5)).positions


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, 256])
def test_a_bad_number_of_workers_is_refused(workers):
    with pytest.raises(ValueError, match="workers="):
        explore(Heaps(3), workers=workers)


def test_a_catalog_game_takes_no_workers(data):
    with pytest.raises(ValueError, match="workers= explores a game of your own"):
        zermelo.open("tictactoe", data, workers=2)


class Slow(Heaps):
    """Heaps whose moves take a while: long enough to interrupt."""

    name = "slow"

    def moves(self, state):
        time.sleep(0.0005)
        return super().moves(state)


def test_ctrl_c_stops_every_worker():
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            explore(Slow(400), workers=2)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 30
    assert multiprocessing.active_children() == []


class Interrupted(Heaps):
    """A method that raises KeyboardInterrupt, as Ctrl-C inside the game's code does."""

    name = "interrupted"

    def outcome(self, state):
        if state[:2] == (2, 2):
            raise KeyboardInterrupt
        return super().outcome(state)


def test_an_interrupt_inside_a_worker_reaches_the_caller():
    with pytest.raises(KeyboardInterrupt):
        explore(Interrupted(8), workers=2)
    assert multiprocessing.active_children() == []


class Dies(Heaps):
    """A worker process that ends in the middle (as one killed for its memory does)."""

    name = "dies"

    def moves(self, state):
        if state[:2] == (5, 5) and multiprocessing.parent_process() is not None:
            os._exit(3)
        return super().moves(state)


def test_a_worker_that_ends_is_an_error_not_a_hang():
    with pytest.raises(zermelo.ZermeloError, match=r"exploring worker \d ended unexpectedly \(exit code 3\)"):
        explore(Dies(20), workers=2)
    assert multiprocessing.active_children() == []


def test_budgets_hold_on_workers():
    with pytest.raises(zermelo.ZermeloError, match=r"has more than 100 positions \(max_positions=100\)"):
        explore(Heaps(100), max_positions=100, workers=2)
    with pytest.raises(zermelo.ZermeloError, match=r"exploring took more than 1.0 MB of memory after .* on 2 processes"):
        explore(Heaps(300), memory=1 << 20, workers=2)
    assert multiprocessing.active_children() == []
