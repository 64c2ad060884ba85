"""Games from outside, checked rather than trusted: a saved graph is never another game's,
keys that forget part of a state are refused, every `Game` keeps its own graph, broken
methods are named, exploring stays within its memory, and `compare` reports rules before
values, with a student's bug for each."""

import dataclasses
import json
import os
import re
import urllib.parse
import urllib.request
import warnings
from types import SimpleNamespace
from typing import NamedTuple

import pytest

import zermelo
from zermelo import _native
from zermelo._own import graph_head

HEAPS = (5, 6, 7, 9)
TRUTH = ["win", "lose", "win", "lose"]
"""Take 1 or 2, last take wins: the first player loses exactly on a multiple of 3."""


def take(state):
    return [n for n in (1, 2) if n <= state[0]]


class TupleRace(NamedTuple):
    heap: int
    name: str = "race"

    def start(self):
        return (self.heap, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return take(state)

    def play(self, state, n):
        return (state[0] - n, 1 - state[1])

    def outcome(self, state):
        return None if state[0] else 1 - state[1]


class SlotRace:
    __slots__ = ("heap",)
    name = "race"

    def __init__(self, heap):
        self.heap = heap

    start, to_move, moves, play, outcome = TupleRace.start, TupleRace.to_move, TupleRace.moves, TupleRace.play, TupleRace.outcome


@dataclasses.dataclass(slots=True, frozen=True)
class DataRace:
    heap: int
    name: str = "race"

    start, to_move, moves, play, outcome = TupleRace.start, TupleRace.to_move, TupleRace.moves, TupleRace.play, TupleRace.outcome


def closure_race(heap):
    """A game of lambdas closing over the heap."""
    return SimpleNamespace(
        name="race",
        start=lambda: (heap, 0),
        to_move=lambda s: s[1],
        moves=take,
        play=lambda s, n: (s[0] - n, 1 - s[1]),
        outcome=lambda s: None if s[0] else 1 - s[1],
    )


class ClassRace:
    """The heap is a class attribute, changed between games."""

    name = "race"
    heap = 0
    start, to_move, moves, play, outcome = TupleRace.start, TupleRace.to_move, TupleRace.moves, TupleRace.play, TupleRace.outcome


def class_race(heap):
    ClassRace.heap = heap
    return ClassRace()


@pytest.mark.parametrize("make", [TupleRace, SlotRace, DataRace, closure_race, class_race])
def test_a_saved_graph_is_never_another_games(data, make):
    assert [zermelo.open(make(h), data).solve(progress=False).value for h in HEAPS] == TRUTH
    # Read back from the saved graphs, still each its own.
    assert [zermelo.open(make(h), data).solve(progress=False).value for h in HEAPS] == TRUTH


class Waiting:
    """Take 1 or 2, or wait, but never wait twice in a row; the last take wins. A state is
    (heap, seat, whether the last move waited)."""

    name = "no-double-wait"

    def start(self):
        return (4, 0, False)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [] if not state[0] else [str(n) for n in take(state)] + ([] if state[2] else ["wait"])

    def play(self, state, move):
        if move == "wait":
            return (state[0], 1 - state[1], True)
        return (state[0] - int(move), 1 - state[1], False)

    def outcome(self, state):
        return None if state[0] else 1 - state[1]


class Forgetful(Waiting):
    """Its key forgets whether the last move waited."""

    def key(self, state):
        return state[:2]


def sequences(message):
    """The two move sequences a refusal names, as lists."""
    found = re.search(r"\((after \S+|at the start); (after \S+|at the start)\)", message)
    assert found, message
    return [[] if s == "at the start" else s[len("after ") :].split(",") for s in found.groups()]


def replay(game, moves):
    state = game.start()
    for move in moves:
        state = game.play(state, move)
    return state


def test_a_key_that_forgets_part_of_the_state_is_refused_with_both_move_sequences(data):
    game = Forgetful()
    with pytest.raises(ValueError) as e:
        zermelo.open(game, data)
    text = str(e.value)
    assert "\n" not in text and "give the game a key(state) of its own" in text
    first, second = sequences(text)
    a, b = replay(game, first), replay(game, second)
    # Both reach one key, and the states differ in their moves.
    assert game.key(a) == game.key(b) and sorted(game.moves(a)) != sorted(game.moves(b))
    assert zermelo.open(Waiting(), data).solve(progress=False).value in ("win", "lose", "draw")


class Passing:
    """Take 1 or 2, or pass; a second pass in a row ends the game in a draw. A state is
    (heap, seat, passes in a row)."""

    name = "passing"

    def start(self):
        return (3, 0, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [] if self.outcome(state) is not None else [str(n) for n in take(state)] + ["pass"]

    def play(self, state, move):
        if move == "pass":
            return (state[0], 1 - state[1], state[2] + 1)
        return (state[0] - int(move), 1 - state[1], 0)

    def outcome(self, state):
        return "draw" if state[2] == 2 else None if state[0] else 1 - state[1]

    def key(self, state):
        # Forgets a pass just played, but not whether the game is over.
        return (state[0], state[1], state[2] == 2)


def test_a_difference_one_move_later_names_the_parent_key(data):
    game = Passing()
    with pytest.raises(ValueError) as e:
        zermelo.open(game, data)
    text = str(e.value)
    assert "differ one move later" in text and "\n" not in text
    first, second = sequences(text)
    a, b = replay(game, first), replay(game, second)
    # The two states look alike (one key, the same moves, seat and outcome) ...
    assert game.key(a) == game.key(b) and str(game.key(a)) in text
    assert (sorted(game.moves(a)), game.to_move(a), game.outcome(a)) == (sorted(game.moves(b)), game.to_move(b), game.outcome(b))
    # ... but a move from both reaches different keys.
    assert any(game.key(game.play(a, m)) != game.key(game.play(b, m)) for m in game.moves(a))


class Marked:
    """A walk up to 3 that may start marked ("b" instead of "a"); a marked walk may also
    stop at 2. Its key forgets the mark, which shows only one move after the start."""

    name = "marked"

    def start(self):
        return (0, False)

    def to_move(self, state):
        return state[0] % 2

    def moves(self, state):
        if state[0] == 3 or state[0] == -1:
            return []
        return ["a", "b"] if state[0] == 0 else ["a", "stop"] if state == (2, True) else ["a"]

    def play(self, state, move):
        return (-1, True) if move == "stop" else (state[0] + 1, state[1] or move == "b")

    def outcome(self, state):
        return "draw" if state[0] in (3, -1) else None

    def key(self, state):
        return state[0]


def test_children_that_differ_name_their_parent_key(data):
    game = Marked()
    with pytest.raises(ValueError) as e:
        zermelo.open(game, data)
    text = str(e.value)
    # (1, False) and (1, True) share the key 1 and look alike; their children by "a" share
    # the key 2 and differ in their moves.
    assert text.startswith("marked: two states of the key '1' (after a; after b) differ one move later: by a, the moves differ: ")
    assert "(after a,a; after b,a)" in text


def test_serve_serves_the_game_it_was_given(data):
    a = zermelo.open(TupleRace(5), data)
    b = zermelo.open(TupleRace(6), data)
    assert a.spec != b.spec and a.spec.startswith("graph:name=race-")
    assert a.solve(progress=False).value == "win" and b.solve(progress=False).value == "lose"
    root = zermelo.serve(a, port=0, data=data, background=True).split("?")[0]

    def api(path, **query):
        with urllib.request.urlopen(root + path + "?" + urllib.parse.urlencode(query)) as answer:
            return json.loads(answer.read())

    assert api("api/moves", spec=a.spec)["value"] == "win"
    assert api("api/moves", spec=b.spec)["value"] == "lose"
    assert a.bot_move([], "perfect") == "2" and b.bot_move(["1"], "perfect") == "2"


class Seated(TupleRace):
    pass


def broken(**methods):
    """The race of 5 with some methods replaced."""

    class Broken:
        name = "broken"
        start, to_move, moves, play, outcome = TupleRace.start, TupleRace.to_move, TupleRace.moves, TupleRace.play, TupleRace.outcome
        heap = 5

    for name, method in methods.items():
        setattr(Broken, name, method)
    return Broken()


@pytest.mark.parametrize("seat", ["0", 0.5, None, -1, 10**30])
def test_a_seat_that_is_no_seat_is_named(data, seat):
    game = broken(to_move=lambda self, s: seat if s[0] == 3 else s[1])
    with pytest.raises(ValueError, match=rf"^broken: to_move\(state\) gave {re.escape(repr(seat))}, not a seat .* \(after 2\)$"):
        zermelo.open(game, data)


def test_a_start_that_raises_is_named(data):
    def start(self):
        raise RuntimeError("no board")

    with pytest.raises(ValueError, match=r"^broken: start\(\) raised RuntimeError: no board \(at the start\)$"):
        zermelo.open(broken(start=start), data)


def test_a_game_opening_itself_while_explored_is_refused(data):
    def moves(self, state):
        if state[0] == 3:
            zermelo.open(self, data)
        return take(state)

    with pytest.raises(ValueError) as e:
        zermelo.open(broken(moves=moves), data)
    text = str(e.value)
    assert "\n" not in text and "moves(state) raised" in text and "while it is being explored" in text and "(after " in text


def test_seats_numbered_from_one_are_refused(data):
    game = broken(to_move=lambda self, s: 1 + s[1], outcome=lambda self, s: None if s[0] else 2 - s[1])
    with pytest.raises(ValueError, match=r"^broken: to_move\(state\) gives seat 2 \(after 1\) but seat 0 never moves, wins or scores"):
        zermelo.open(game, data)
    # Named seats may be numbered as the game likes.
    game.seat_names = ["nobody", "first", "second"]
    assert zermelo.open(game, data).solve(progress=False).value == "win"


class Heaps:
    """Two heaps, take 1 or 2 from one: (n + 1)^2 * 2 positions."""

    name = "heaps"

    def __init__(self, n):
        self.n = n

    def start(self):
        return (self.n, self.n, 0)

    def to_move(self, state):
        return state[2]

    def moves(self, state):
        return [m for m in ("a1", "a2", "b1", "b2") if int(m[1]) <= state["ab".index(m[0])]]

    def play(self, state, move):
        n = int(move[1])
        return (state[0] - n, state[1], 1 - state[2]) if move[0] == "a" else (state[0], state[1] - n, 1 - state[2])

    def outcome(self, state):
        return None if state[0] or state[1] else 1 - state[2]


def test_exploring_stops_at_its_memory(data):
    with pytest.warns(UserWarning, match=r"^heaps: exploring took more than 1.0 MB of memory after [\d,]+ positions"):
        game = zermelo.open(Heaps(400), data, memory="1M", spill=False)
    with pytest.raises(zermelo.ZermeloError, match=r"^heaps: exploring took more than 1.0 MB .*a strong solve needs every position"):
        game.solve()


def tamper(path, head, change):
    """Rewrites a saved graph with its lists changed by `change`, saved for the same game."""
    spec, lists = _native.read_graph(str(path), head["version"], head["fingerprint"])
    lists = [list(field) for field in lists]
    change(lists)
    name = spec.split("=", 1)[1]
    _native.install_graph(name, *lists, version=head["version"])
    _native.save_graph(name, str(path), head["fingerprint"], True)


def test_a_saved_graph_that_is_not_the_games_is_explored_again(data):
    assert zermelo.open(Heaps(3), data).solve(progress=False).value == "lose"
    saved = data / "graphs" / "heaps-v1.json.zst"
    # The start said to be seat 1's to move, as a changed game of the same name and
    # version (and, say, code elsewhere) would leave it.
    tamper(saved, graph_head("heaps", "1", Heaps(3)), lambda f: f[1].__setitem__(0, 1))
    with pytest.warns(UserWarning, match=r"^heaps: the graph saved in .* is not this game's \(at the start, .*\): explored again$"):
        again = zermelo.open(Heaps(3), data)
    assert again.solve(progress=False).value == "lose"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert zermelo.open(Heaps(3), data).solve(progress=False).value == "lose"


def test_a_saved_graph_is_read_within_bounds(data):
    zermelo.open(Heaps(3), data)
    saved = data / "graphs" / "heaps-v1.json.zst"
    mark = graph_head("heaps", "1", Heaps(3))["fingerprint"]
    assert _native.read_graph(str(saved), "1", mark)[1][1][0] == 0
    assert _native.read_graph(str(saved), "1", mark, 100) is None
    # Another version's or another game's graph is not read.
    assert _native.read_graph(str(saved), "2", mark) is None
    assert _native.read_graph(str(saved), "1", "another") is None
    # A file that inflates far past its size is never read whole.
    bomb = data / "bomb.json.zst"
    _native.install_graph("bomb", [" " * (8 << 20), "end"], [0, 0], [None, 0], [0, 1, 1], [1], ["go"], version="1")
    _native.save_graph("bomb", str(bomb), mark, True)
    assert bomb.stat().st_size < 1 << 16
    assert _native.read_graph(str(bomb), "1", mark, 1 << 20) is None
    assert _native.read_graph(str(bomb), "1", mark) is not None
    # A named pipe is not read (it would wait for a writer): explored again.
    saved.unlink()
    os.mkfifo(saved)
    assert _native.read_graph(str(saved), "1", mark) is None
    assert zermelo.open(Heaps(3), data).solve(progress=False).value == "lose"


CELLS = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """A student's tic-tac-toe, X first."""

    name = "student-tictactoe"
    seat_names = ["X", "O"]
    lines = LINES

    def start(self):
        return "........."

    def to_move(self, state):
        return (9 - state.count(".")) % 2

    def moves(self, state):
        return [] if self.outcome(state) is not None else [CELLS[i] for i, c in enumerate(state) if c == "."]

    def play(self, state, move):
        i = CELLS.index(move)
        return state[:i] + "XO"[self.to_move(state)] + state[i + 1 :]

    def outcome(self, state):
        for a, b, c in self.lines:
            if state[a] != "." and state[a] == state[b] == state[c]:
                return "XO".index(state[a])
        return None if "." in state else "draw"


class NoDiagonal(TicTacToe):
    """One diagonal left out."""

    lines = LINES[:-1]


class OFirst(TicTacToe):
    """O moves first."""

    def to_move(self, state):
        return (10 - state.count(".")) % 2


def test_compare_agrees_with_a_right_game(data):
    assert zermelo.compare(TicTacToe(), "tictactoe", games=40, data=data).agree


def test_compare_finds_a_diagonal_left_out(data):
    found = zermelo.compare(NoDiagonal(), "tictactoe", games=200, seed=1, data=data)
    assert not found.agree and found.difference.startswith("the outcome differs: ")
    assert found.difference.endswith(" in the first, a win for X (seat 0) in the second") or found.difference.endswith(
        " in the first, a win for O (seat 1) in the second"
    )
    end = replay(TicTacToe(), found.moves)
    assert TicTacToe().outcome(end) is not None and NoDiagonal().outcome(end) is None
    assert {i for i, c in enumerate(end) if c == end[2] and c != "."} >= {2, 4, 6}


def test_compare_finds_the_wrong_player_first(data):
    found = zermelo.compare(OFirst(), "tictactoe", games=10, data=data)
    assert not found.agree and found.moves == []
    assert found.difference == "the player to move differs: O (seat 1) in the first, X (seat 0) in the second"


def test_compare_checks_the_first_games_key(data):
    found = zermelo.compare(Forgetful(), Waiting(), games=200, data=data, values=False)
    assert not found.agree and "the first game's key" in found.difference, str(found)
