"""The search of a game of your own (`solve(strong=False)`, `open(..., search=True)`)
against the graph solver on every position of loopy and loop-free games, and against
OpenSpiel's own alpha-beta."""

import json
import random
import warnings
from pathlib import Path

import pytest

import zermelo
from zermelo._search import Searcher

from test_own import Drawn, Race, TicTacToe

ROOT = Path(__file__).resolve().parents[2]


class GraphGame:
    """A game given as a graph: `seats[n]` the seat to move at node `n` (`None` at an
    end), `ends[n]` its outcome, `edges[n]` its moves (text, node reached); node 0 starts."""

    def __init__(self, name, seats, ends, edges):
        self.name, self.seats, self.ends, self.edges = name, seats, ends, edges

    def start(self):
        return 0

    def to_move(self, node):
        return self.seats[node] or 0

    def moves(self, node):
        return [m for m, _ in self.edges[node]]

    def play(self, node, move):
        return dict(self.edges[node])[move]

    def outcome(self, node):
        return self.ends[node]


def loops_file():
    """The guide's loopy graph file as a game of your own."""
    doc = json.loads((ROOT / "examples" / "graphs" / "loops.json").read_text())
    ids = [n["id"] for n in doc["nodes"]]
    seats, ends, edges = [], [], []
    for n in doc["nodes"]:
        result = n.get("result")
        seats.append(n.get("seat"))
        ends.append(None if result is None else "draw" if result == "draw" else doc["players"].index(result.split()[0]))
        edges.append([(e["move"], ids.index(e["target"])) for e in doc["edges"] if e["source"] == n["id"]])
    return GraphGame("loops", seats, ends, edges)


def random_graph(seed, size=24):
    """A random game graph with loops (self-loops too), a seat moving twice in a row and
    ends of every kind."""
    rng = random.Random(seed)
    seats, ends, edges = [], [], []
    for n in range(size):
        if n and rng.random() < 0.25:
            seats.append(None)
            ends.append(rng.choice([0, 1, "draw"]))
            edges.append([])
        else:
            seats.append(rng.randrange(2))
            ends.append(None)
            edges.append([(f"m{k}", rng.randrange(size)) for k in range(rng.randint(1, 3))])
    # Every node without moves into it reachable from the start.
    edges[0] += [(f"to{n}", n) for n in range(1, size, 5)]
    return GraphGame(f"random-{seed}", seats, ends, edges)


def every_position_agrees(game, data, memory=None):
    """The search's value and remoteness equal the graph solver's at every position (with
    a table of `memory` bytes)."""
    explored = zermelo.open(game, data, explore=True)
    search = Searcher(game, memory)
    checked = 0
    for node in range(len(game.seats)):
        try:
            strong = explored.solve(position=str(node), save=False, progress=False)
        except ValueError:
            continue  # not reachable from the start
        value, remoteness, best = search.value(node)
        assert (value, remoteness) == (strong.value, strong.remoteness), f"{game.name} node {node}"
        if best is not None:
            # The best move keeps the value.
            values = {m.move: m.value for m in explored.moves(position=str(node), progress=False).moves}
            assert values[game.moves(node)[best]] == value, f"{game.name} node {node}"
        checked += 1
    return checked


def test_the_loopy_graph_file_agrees_with_the_graph_solver(data):
    assert every_position_agrees(loops_file(), data) == 8


@pytest.mark.parametrize("seed", range(40))
def test_random_loopy_graphs_agree_with_the_graph_solver(data, seed):
    # Half of them with the smallest table, its entries replaced all the time.
    assert every_position_agrees(random_graph(seed, 16 + seed % 20), data, 32768 if seed % 2 else None) > 3


@pytest.mark.parametrize("game", [Race(11, 3), Drawn(13, 4), TicTacToe()], ids=["race", "heuristic", "tictactoe"])
def test_moves_by_search_equal_the_strong_solve(data, game):
    explored = zermelo.open(game, data)
    searched = zermelo.open(game, data, search=True)
    assert isinstance(searched, zermelo.SearchedGame)
    rng = random.Random(3)
    line = []
    while True:
        strong = explored.moves(line, progress=False)
        found = searched.moves(line)
        assert sorted((m.move, m.value, m.remoteness, m.best) for m in found.moves) == sorted(
            (m.move, m.value, m.remoteness, m.best) for m in strong.moves
        ), line
        assert (found.value, found.remoteness, found.terminal) == (strong.value, strong.remoteness, strong.terminal)
        if found.terminal:
            break
        assert searched.bot_move(line) in found.best
        line.append(rng.choice([m.move for m in found.moves]))
    strong = explored.solve(progress=False)
    solved = searched.solve(strong=False, remoteness=True)
    assert (solved.value, solved.remoteness, solved.solver) == (strong.value, strong.remoteness, "search")
    # Who wins alone, without the second search for how soon.
    quick = zermelo.open(game, data, search=True).solve(strong=False)
    assert (quick.value, quick.remoteness) == (strong.value, None)
    # The explored game searches too, when asked.
    again = explored.solve(strong=False, remoteness=True)
    assert (again.value, again.remoteness, again.solver) == (strong.value, strong.remoteness, "search")


def test_a_game_too_big_to_explore_is_answered_by_search(data):
    with pytest.warns(UserWarning, match=r"my-tictactoe has more than 1,000 positions \(max_positions=1000\): opened without exploring"):
        game = zermelo.open(TicTacToe(), data, max_positions=1000)
    assert game.solve(strong=False).value == "draw"
    assert game.moves(["b2", "b1"]).value == "win"  # an edge against the centre loses
    with pytest.raises(zermelo.ZermeloError, match="more than 1,000 positions.*a strong solve needs every position explored"):
        game.solve()
    with pytest.raises(zermelo.ZermeloError, match="an opening book needs every position explored"):
        game.solve(strong=False, book=2)
    with pytest.raises(zermelo.ZermeloError, match="the player 'random' needs every position"):
        game.bot_move([], "random")
    with pytest.raises(ValueError, match=r"'z9' is no legal move \(after b2; legal: "):
        game.moves(["b2", "z9"])


def test_a_game_of_three_seats_too_big_is_refused_as_before(data):
    class Three(TicTacToe):
        name = "three"
        seat_names = ["X", "O", "Z"]

    with pytest.raises(zermelo.ZermeloError, match=r"^three has more than 100 positions \(max_positions=100\)$"):
        zermelo.open(Three(), data, max_positions=100)
    with pytest.raises(ValueError, match="the search takes games of two seats, not 3"):
        zermelo.open(Three(), data, search=True)


def test_the_search_keeps_to_its_time_and_memory(data):
    game = zermelo.open(Race(5_000, 2), search=True)
    with pytest.raises(zermelo.ZermeloError, match="went 2000 moves deep"):
        game.solve(strong=False, remoteness=True)
    deep = zermelo.open(Race(1_900, 2), search=True).solve(strong=False, remoteness=True)
    strong = zermelo.open(Race(1_900, 2), data).solve(progress=False)
    assert (deep.value, deep.remoteness) == (strong.value, strong.remoteness)
    with pytest.raises(ValueError, match="too little for the search's table"):
        Searcher(TicTacToe(), memory=100)
    slow = zermelo.open(Race(2_000, 2), search=True)
    with pytest.raises(zermelo.ZermeloError, match="no answer within 0.001 s"):
        slow.solve(strong=False, seconds=0.001)


def test_ctrl_c_stops_the_search():
    class Interrupted(TicTacToe):
        calls = 0

        def play(self, state, move):
            Interrupted.calls += 1
            if Interrupted.calls == 500:
                raise KeyboardInterrupt
            return super().play(state, move)

    with pytest.raises(KeyboardInterrupt):
        zermelo.open(Interrupted(), search=True).solve(strong=False)


def test_a_catalog_game_is_not_searched(data):
    with pytest.raises(ValueError, match="strong=False searches a game of your own"):
        zermelo.open("tictactoe", data).solve(strong=False)


pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize(
    "name", ["tic_tac_toe", "connect_four(rows=4,columns=4)", "breakthrough(rows=4,columns=3)", "hex(board_size=2)"]
)
def test_openspiel_values_equal_its_alpha_beta(name):
    from open_spiel.python.algorithms import minimax

    spiel = pyspiel.load_game(name)
    theirs, _ = minimax.alpha_beta_search(spiel)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = zermelo.open(spiel, search=True).solve(strong=False)
    # OpenSpiel's value is the first player's return.
    assert ours.to_move == "player 0"
    assert {"win": 1, "draw": 0, "lose": -1}[ours.value] == theirs
