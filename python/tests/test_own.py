"""Games of your own: the guide's tic-tac-toe in Python solved, played and compared with
the catalog's; the protocol's errors; states step by step; a course's Dots and Boxes
checked by `compare`; OpenSpiel games."""

import json
import random
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

import zermelo

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide" / "your-own-game.md"


def guide_game():
    """What the guide's first example defines before it opens its game."""
    block = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), re.S)[0]
    names = {}
    exec(compile(block.split("game = zermelo.open")[0], str(GUIDE), "exec"), names)
    return names


TicTacToe, CELLS = guide_game()["TicTacToe"], guide_game()["CELLS"]


def random_player(position, moves):
    return random.choice(moves)


def test_the_guide_tictactoe_is_a_draw_of_5478_positions(data):
    game = zermelo.open(TicTacToe(), data)
    solution = game.solve(progress=False)
    assert solution.value == "draw"
    assert int(solution.positions) == 5478
    first = game.moves(progress=False).moves
    assert len(first) == 9 and all(m.value == "draw" for m in first)
    # The same numbers as the catalog's tic-tac-toe.
    catalog = zermelo.open("tictactoe", data)
    assert int(game.count(progress=False).positions.total) == int(catalog.count(progress=False).positions.total)


def test_perfect_never_loses_to_a_random_player(data):
    random.seed(7)
    game = zermelo.open(TicTacToe(), data)
    standings = game.tournament(["perfect", random_player], games=20, progress=False)
    perfect = standings.players[0]
    assert perfect.player == "perfect" and perfect.losses == 0 and perfect.wins > 0


def test_compare_agrees_with_the_catalog(data):
    found = zermelo.compare(TicTacToe(), "tictactoe", games=30, seed=1, data=data)
    assert found.agree, str(found)
    assert str(found) == f"30 games and {found.positions} positions agree" and found.positions > 100


class Broken(TicTacToe):
    """Tic-tac-toe whose `play` fails once X holds the centre and O a corner."""

    name = "broken"

    def play(self, state, move):
        if state[4] == "X" and state[0] == "O":
            raise RuntimeError("no room")
        return super().play(state, move)


def test_a_method_that_raises_is_named_with_the_moves_to_it(data):
    with pytest.raises(ValueError) as e:
        zermelo.open(Broken(), data)
    text = str(e.value)
    assert "\n" not in text and "play(state, " in text and "RuntimeError: no room" in text
    moves = re.search(r"after (\S+)\)", text).group(1).split(",")
    # The moves named lead to the state where play fails.
    state = TicTacToe().start()
    for move in moves:
        state = TicTacToe().play(state, move)
    assert state[4] == "X" and state[0] == "O"


class Unhashable(TicTacToe):
    name = "unhashable"

    def start(self):
        return list(super().start())

    def play(self, state, move):
        return list(super().play("".join(state), move))

    def to_move(self, state):
        return super().to_move("".join(state))

    def moves(self, state):
        return super().moves("".join(state))

    def outcome(self, state):
        return super().outcome("".join(state))


def test_an_unhashable_state_asks_for_a_key(data):
    with pytest.raises((ValueError, TypeError)) as e:
        zermelo.open(Unhashable(), data)
    assert "unhashable" in str(e.value) and "key(state)" in str(e.value)

    class Keyed(Unhashable):
        name = "keyed"

        def key(self, state):
            return "".join(state)

    assert zermelo.open(Keyed(), data).solve(progress=False).value == "draw"


class EndsEarly(TicTacToe):
    """Says the game is drawn once five cells are taken, yet still lists the empty cells."""

    name = "ends-early"

    def outcome(self, state):
        return "draw" if state.count(".") == 4 else super().outcome(state)

    def moves(self, state):
        return [] if TicTacToe.outcome(self, state) is not None else [c for c, x in zip(CELLS, state) if x == "."]


def test_an_outcome_with_moves_left_is_refused(data):
    with pytest.raises(ValueError) as e:
        zermelo.open(EndsEarly(), data)
    text = str(e.value)
    assert "outcome(state) is 'draw' but moves(state) still has 4 moves" in text and "after " in text


class Blurred(TicTacToe):
    """Names every move by its row only, so that moves of one position print alike."""

    name = "blurred"

    def move_text(self, move):
        return move[1]


class BadSeat(TicTacToe):
    """Says seat 2 won, in a game of two."""

    name = "bad-seat"

    def outcome(self, state):
        return 2 if super().outcome(state) == 0 else super().outcome(state)


def test_moves_printed_alike_and_a_bad_outcome_are_refused_with_the_position(data):
    with pytest.raises(ValueError, match=r"^blurred: two moves print the same \(define move_text\(move\)\) \(at the start\)$"):
        zermelo.open(Blurred(), data)
    with pytest.raises(ValueError) as e:
        zermelo.open(BadSeat(), data)
    assert "outcome(state) is 2: not a seat 0..1, 'draw' or a list of 2 points (after " in str(e.value)


def test_moves_that_are_no_list_are_named():
    class NoMoves(TicTacToe):
        name = "no-moves"

        def moves(self, state):
            return None if state.count(".") == 7 else super().moves(state)

    with pytest.raises(ValueError, match=r"^no-moves: moves\(state\) gave NoneType, not a list of moves \(after "):
        zermelo.open(NoMoves())


def test_too_many_positions_are_refused_in_one_line(data):
    with pytest.warns(UserWarning, match="opened without exploring"):
        game = zermelo.open(TicTacToe(), data, max_positions=1000)
    with pytest.raises(zermelo.ZermeloError) as e:
        game.solve()
    assert str(e.value).startswith("my-tictactoe has more than 1,000 positions (max_positions=1000): a strong solve needs")


def test_ctrl_c_stops_exploring():
    class Interrupted(TicTacToe):
        name = "interrupted"
        calls = 0

        def play(self, state, move):
            Interrupted.calls += 1
            if Interrupted.calls == 100:
                raise KeyboardInterrupt
            return super().play(state, move)

    with pytest.raises(KeyboardInterrupt):
        zermelo.open(Interrupted())
    with pytest.raises(ValueError, match="no graph is installed under the name 'interrupted'"):
        zermelo.open("graph:name=interrupted")


def test_a_game_without_the_methods_is_refused():
    with pytest.raises(ValueError, match="lacks moves, play, outcome"):
        zermelo.open(type("Half", (), {"start": lambda self: 0, "to_move": lambda self, s: 0})())


def test_state_steps_through_a_catalog_game(data):
    game = zermelo.open("tictactoe", data)
    state = game.state()
    assert state.to_move == "X" and len(state.legal_moves()) == 9 and state.value().value == "draw"
    for move in ["a1", "b1", "a2", "b2"]:
        state = state.play(move)
    assert state.value().value == "win" and state.value().remoteness == 1
    with pytest.raises(ValueError, match="'b2' is not a legal move after a1,b1,a2,b2"):
        state.play("b2")
    over = state.play("a3")
    assert over.is_over() and over.outcome() == "X wins" and over.legal_moves() == []
    assert over._repr_svg_().startswith("<svg")
    assert game.state(position=over.position).is_over()


def test_state_steps_through_a_game_of_your_own(data):
    game = zermelo.open(TicTacToe(), data)
    state = game.state(["b2"])
    assert state.to_move == "O" and state.legal_moves() == sorted(TicTacToe().moves("....X...."))
    assert state.value().value == "draw"
    with pytest.raises(ValueError, match="'b2' is not a legal move after b2"):
        state.play("b2")
    state = state.play("a2").play("a1").play("b1")
    assert state.to_move == "X" and state.value().value == "win" and state.value().remoteness == 1
    end = state.play("c3")
    assert end.is_over() and end.outcome() is not None and end.legal_moves() == []


class Race:
    """A heap of `heap` counters, each move taking 1 to `take`; who takes the last wins."""

    def __init__(self, heap, take):
        self.heap, self.take = heap, take
        self.name = "race"

    def start(self):
        return (self.heap, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [n for n in range(1, self.take + 1) if n <= state[0]]

    def play(self, state, n):
        return (state[0] - n, 1 - state[1])

    def outcome(self, state):
        return None if state[0] else 1 - state[1]


class Drawn(Race):
    """The race with a board and a heuristic: a heap off a multiple of take + 1 is good."""

    def render(self, state):
        return "o" * state[0] + f"  ({state[0]} left)"

    def heuristic(self, state):
        return 1 if state[0] % (self.take + 1) else -1


def test_render_and_heuristic_reach_the_board_and_the_search_player(data):
    game = zermelo.open(Drawn(7, 3), data)
    assert game.state().text.strip() == "ooooooo  (7 left)"
    assert game.state(["3"]).text.strip() == "oooo  (4 left)"
    # Depth 1 with the heuristic finds the move leaving a multiple of 4, as perfect play does.
    assert game.bot_move([], "search:1") == "3" == game.bot_move([], "perfect")


class Pictured(TicTacToe):
    """Tic-tac-toe drawn as a grid: a click on an empty cell plays there."""

    name = "pictured"

    def picture(self, state):
        return [
            [cell if cell != "." else {"move": CELLS[3 * row + col], "color": "#eeeeee"} for col, cell in enumerate(state[3 * row : 3 * row + 3])]
            for row in range(3)
        ]


def test_a_picture_gives_a_clickable_board(data):
    game = zermelo.open(Pictured(), data)
    view = game.moves(["b2", "a3"], progress=False)
    cells = [s for s in view.picture.shapes if s.kind == "cell"]
    assert len(cells) == 9
    assert sorted(s.move for s in cells if s.move) == sorted(m.move for m in view.moves)
    assert {s.label for s in cells if s.label} == {"X", "O"}
    # The top row is drawn at the top: a3, taken by O, is its first cell.
    top_left = min(cells, key=lambda s: (s.y, s.x))
    assert top_left.label == "O"
    svg = game.state(["b2", "a3"])._repr_svg_()
    assert svg.count("<title>") == 7


class Counted(Pictured):
    """The pictured tic-tac-toe, counting the calls of `moves` and `play`."""

    name = "counted"
    calls = 0

    def moves(self, state):
        Counted.calls += 1
        return super().moves(state)

    def play(self, state, move):
        Counted.calls += 1
        return super().play(state, move)


class CountedAnew(Counted):
    """The same game in a new version."""

    version = "2"


def opened(game, data, **options):
    """The game opened, with how many calls of its methods that took."""
    Counted.calls = 0
    return zermelo.open(game, data, **options), Counted.calls


def test_a_second_open_reads_the_saved_graph_without_exploring(data):
    first, calls = opened(Counted(), data)
    explored = calls_of(first)
    assert calls >= explored > 5478

    def verified(calls):
        """Whether `calls` are those of checking the saved graph: a few games, not exploring."""
        return 0 < calls < explored / 15

    solution = first.solve(progress=False)
    again, calls = opened(Counted(), data)
    assert verified(calls)
    assert again.solve(progress=False).value == solution.value == "draw"
    assert int(again.solve(progress=False).positions) == int(solution.positions) == 5478
    # States reached by moves from the start, and pictures, are as explored.
    after = ["b2", "a3", "c1"]
    assert again.state(after).play("a1").value() == first.state(after).play("a1").value()
    assert again.moves(after, progress=False).picture == first.moves(after, progress=False).picture
    # A new version, or explore=True, explores again.
    assert opened(CountedAnew(), data)[1] >= explored
    assert opened(Counted(), data, explore=True)[1] >= explored
    # A damaged file is explored again and saved anew.
    saved = data / "graphs" / "counted-v1.json.zst"
    saved.write_bytes(saved.read_bytes()[:1000])
    damaged, calls = opened(Counted(), data)
    assert calls >= explored and damaged.solve(progress=False).value == "draw"
    assert verified(opened(Counted(), data)[1])


def calls_of(game):
    """The calls of `moves` and `play` exploring `game` takes, its keys unchecked: one per
    position and move."""
    graph = game.graph(progress=False)
    return len(graph.nodes) + sum(edge.count for edge in graph.edges)


SYMMETRIES = [
    [3 * r + c for r, c in (transform(divmod(i, 3)) for i in range(9))]
    for transform in [
        lambda p: p,
        lambda p: (p[1], 2 - p[0]),
        lambda p: (2 - p[0], 2 - p[1]),
        lambda p: (2 - p[1], p[0]),
        lambda p: (p[0], 2 - p[1]),
        lambda p: (2 - p[0], p[1]),
        lambda p: (p[1], p[0]),
        lambda p: (2 - p[1], 2 - p[0]),
    ]
]
"""The 8 symmetries of the square, each the cell every cell goes to."""


class Turned(TicTacToe):
    """Tic-tac-toe up to its symmetries, reading moves in any case and spacing."""

    name = "turned"

    def canonical(self, state):
        return min("".join(state[i] for i in cells) for cells in SYMMETRIES)

    def parse_move(self, state, text):
        return text.replace(" ", "").lower()


def test_canonical_explores_a_class_once(data):
    game = zermelo.open(Turned(), data)
    assert game.classes and not zermelo.open(TicTacToe(), data).classes
    solution = game.solve(progress=False)
    catalog = zermelo.open("tictactoe", data).count(symmetry=True, progress=False)
    assert solution.value == "draw" and int(solution.positions) == int(catalog.positions.total)
    # Nine first moves, to three classes: a corner, an edge, the centre.
    first = game.moves(progress=False).moves
    assert len(first) == 9 and all(m.value == "draw" for m in first)
    assert len({game.state([m.move]).position for m in first}) == 3


def test_parse_move_reads_the_moves_given(data):
    game = zermelo.open(Turned(), data)
    assert game.moves("B2", progress=False).moves == game.moves("b2", progress=False).moves
    state = game.state(["B 2"]).play("A3")
    assert state.moves == ["b2", "a3"] and state.value() == game.state(["b2", "a3"]).value()
    with pytest.raises(ValueError, match="'ZZ' is not a legal move after b2"):
        game.state(["b2"]).play("ZZ")

    class Refusing(Turned):
        def parse_move(self, state, text):
            raise KeyError(text)

    with pytest.raises(ValueError, match=r"parse_move\(state, 'b2'\) raised KeyError: 'b2' \(at the start\)"):
        zermelo.open(Refusing(), data).state(["b2"])


def test_balance_maps_a_family_of_your_own(data, tmp_path):
    found = zermelo.balance(Race, heap=range(1, 9), take=range(1, 4), data=data)
    assert len(found.members) == 24 and found.refused == 0 and found.skipped == 0
    for m in found.members:
        heap, take = int(m["keys"]["heap"]), int(m["keys"]["take"])
        # The first player loses exactly when the heap is a multiple of take + 1.
        assert m.value == ("lose" if heap % (take + 1) == 0 else "win"), m.game
        # Its first moves: a winning one exactly when the first player wins.
        assert any(f["value"] == "win" for f in m["first_moves"]) == (m.value == "win"), m.game
    found.to_csv(tmp_path / "race.csv")
    assert (tmp_path / "race.csv").read_text().count("\n") == 25


class Waiting:
    """A heap of counters; a move takes 1 or 2, or waits (the heap unchanged, the turn
    passing): whoever takes the last counter wins. Waiting forever is a draw."""

    name = "waiting"

    def __init__(self, heap):
        self.heap = heap

    def start(self):
        return (self.heap, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [] if not state[0] else [n for n in ("1", "2") if int(n) <= state[0]] + ["wait"]

    def play(self, state, move):
        return (state[0] - (0 if move == "wait" else int(move)), 1 - state[1])

    def outcome(self, state):
        return None if state[0] else 1 - state[1]


def test_a_game_with_cycles_has_the_draws_worked_out_by_hand(data):
    # By hand: with 1 or 2 counters the mover takes them all and wins. With 3, taking
    # leaves 1 or 2 to the other player, who wins, so both wait forever: a draw. With 4
    # or more, taking 1 leaves at least 3 (a draw), and nothing wins: a draw too.
    game = zermelo.open(Waiting(7), data)
    assert game.solve(progress=False).value == "draw"
    for heap in range(1, 8):
        value = game.state(position=str((heap, 0))).value()
        assert value.value == ("win" if heap <= 2 else "draw"), heap
        if heap <= 2:
            assert value.remoteness == 1
    three = game.state(position="(3, 1)")
    assert {m: three.play(m).value().value for m in three.legal_moves()} == {"1": "win", "2": "win", "wait": "draw"}


def test_the_page_serves_a_game_of_your_own(data):
    game = zermelo.open(TicTacToe(), data)
    url = zermelo.serve(game, port=0, data=data, background=True)
    assert "?spec=graph:name=my-tictactoe-" in url
    root = url.split("?")[0]

    def api(path, **query):
        with urllib.request.urlopen(root + path + "?" + urllib.parse.urlencode(query)) as answer:
            return json.loads(answer.read())

    assert "<html" in urllib.request.urlopen(url).read().decode().lower()
    # A move played, the bot answers, and the answer is among the moves the page shows.
    after = api("api/moves", spec=game.spec, moves="a1")
    assert after["to_move"] == "O" and len(after["moves"]) == 8
    bot = api("api/bot", spec=game.spec, moves="a1")
    assert bot["move"] in [m["move"] for m in after["moves"] if m["best"]]
    assert api("api/moves", spec=game.spec, moves=f"a1,{bot['move']}")["value"] == "draw"


# A course's Dots and Boxes on 2x2 boxes (3x3 dots), moves in the catalog's notation: a
# line `1ab` joins a1 and b1, `12a` joins a1 and a2.
LINES = [f"{r}{c}" for r in "123" for c in ("ab", "bc")] + [f"{r}{c}" for r in ("12", "23") for c in "abc"]
BOXES = [
    [LINES.index(t) for t in (f"{r}{cols}", f"{r + 1}{cols}", f"{r}{r + 1}{cols[0]}", f"{r}{r + 1}{cols[1]}")]
    for r in (1, 2)
    for cols in ("ab", "bc")
]


class Dots:
    """A state is (lines drawn as bits, seat to move, boxes of seat 0, boxes of seat 1)."""

    name = "course-dots"
    extra_turn = True

    def start(self):
        return (0, 0, 0, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [t for i, t in enumerate(LINES) if not state[0] >> i & 1]

    def play(self, state, move):
        lines, seat, *boxes = state
        drawn = lines | 1 << LINES.index(move)
        closed = sum(all(drawn >> i & 1 for i in box) and not all(lines >> i & 1 for i in box) for box in BOXES)
        boxes[seat] += closed
        if not (closed and self.extra_turn):
            seat = 1 - seat
        return (drawn, seat, *boxes)

    def outcome(self, state):
        return [state[2], state[3]] if state[0] == (1 << len(LINES)) - 1 else None


class NoExtraTurn(Dots):
    """The same, but the turn passes after closing a box: one rule wrong."""

    name = "course-dots-wrong"
    extra_turn = False


def test_compare_agrees_with_a_correct_dots_and_catches_a_wrong_one(data):
    right = zermelo.compare(Dots(), "dots:size=3", games=40, seed=3, data=data)
    assert right.agree, str(right)
    # Small enough to solve, and the values differ from the start; but a rule comes
    # first: the turn passes after the first box closed.
    assert zermelo.open(NoExtraTurn(), data).solve(progress=False).value != zermelo.open("dots:size=3", data).solve(progress=False).value
    wrong = zermelo.compare(NoExtraTurn(), "dots:size=3", games=40, seed=3, data=data)
    assert not wrong.agree and re.fullmatch(r"the player to move differs: seat (\d) in the first, .+ \(seat (?!\1)\d\) in the second", wrong.difference), str(wrong)
    before = Dots().start()
    for move in wrong.moves[:-1]:
        before = Dots().play(before, move)
    after = Dots().play(before, wrong.moves[-1])
    assert after[2] + after[3] > before[2] + before[3], "the last move reported closes a box"


pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install open_spiel (or './python[openspiel]')")


def test_openspiel_tic_tac_toe_is_a_draw(data):
    game = zermelo.open(pyspiel.load_game("tic_tac_toe"), data)
    solution = game.solve(progress=False)
    assert solution.value == "draw" and int(solution.positions) == 5478
    assert zermelo.open("openspiel:tic_tac_toe", data).solve(progress=False).value == "draw"


def test_openspiel_dots_and_boxes_has_the_margin_of_the_catalog(data):
    spiel = zermelo.open("openspiel:dots_and_boxes(num_rows=2,num_cols=2,utility_margin=true)", data).solve(progress=False)
    ours = zermelo.open("dots:size=3", data).solve(progress=False)
    assert spiel.value == ours.value
    assert spiel.margin == ours.margin


def test_openspiel_nim(data):
    game = pyspiel.load_game("nim")
    params = game.get_parameters()
    solution = zermelo.open(game, data).solve(progress=False)
    # Misère nim: the player to move loses exactly when every heap is 1 and their count
    # is odd, or some heap is bigger than 1 and the heaps' xor is 0.
    heaps = [int(h) for h in params["pile_sizes"].split(";")]
    xor = 0
    for h in heaps:
        xor ^= h
    loses = (xor == 0) if any(h > 1 for h in heaps) else (len(heaps) % 2 == 1)
    assert params["is_misere"] and solution.value == ("lose" if loses else "win")


def test_openspiel_connect_four_4x5(data):
    from open_spiel.python.algorithms import minimax

    spiel = pyspiel.load_game("connect_four(rows=4,columns=5)")
    game = zermelo.open(spiel, data)
    solution = game.solve(progress=False)
    assert int(solution.positions) > 1_000_000 and solution.value in ("win", "lose", "draw")
    # Positions after 8 random moves, valued by OpenSpiel's own alpha-beta, agree.
    rng = random.Random(5)
    for _ in range(4):
        state = spiel.new_initial_state()
        for _ in range(8):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        theirs, _ = minimax.alpha_beta_search(spiel, state=state.clone(), maximizing_player_id=state.current_player())
        ours = game.state(position=f"{state.current_player()}:{state}").value().value
        assert ours == {1: "win", 0: "draw", -1: "lose"}[int(theirs)]


def test_openspiel_games_with_chance_or_hidden_information_are_refused():
    with pytest.raises(ValueError, match="^OpenSpiel's kuhn_poker\\(\\) has chance: "):
        zermelo.open(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="has simultaneous moves"):
        zermelo.open("openspiel:oshi_zumo")


class Keyed(TicTacToe):
    """Tic-tac-toe keyed by a frozenset of marks (the same set printed in any order, and
    made in the order the moves came), whose moves are numbers and floats alike."""

    name = "keyed"

    def key(self, state):
        return (frozenset((i, c) for i, c in enumerate(state) if c != "."), state.count("."))


def test_keys_are_fingerprinted_by_value_not_by_text(data):
    from zermelo._own import explore

    found = explore(Keyed())
    assert found.positions == 5478
    lists = found.lists()
    assert len(set(lists.texts)) == 5478 and len(lists.labels) == len(lists.targets)
    # One string per distinct move.
    assert len({id(label) for label in lists.labels}) == 9


def test_fingerprints_follow_python_equality_and_texts_python_str():
    from zermelo._native import Explorer

    key = (1, "a", None, frozenset({1, 2}), b"x")
    graph = Explorer(key, str, True)
    assert graph.text(0) == str(key)
    assert graph.find((1.0, "a", None, frozenset({2, 1}), b"x")) == 0
    assert graph.find((True, "a", None, frozenset([2, 1, 2]), b"x")) == 0
    assert graph.find((2, "a", None, frozenset({1, 2}), b"x")) is None
    assert graph.find(("1", "a", None, frozenset({1, 2}), b"x")) is None
    with pytest.raises(TypeError):
        graph.find([1])
    for plain in [(720, -3, (1,), ()), "....X....", 10**30, (None, (2, (3, 4)))]:
        assert Explorer(plain, str, True).text(0) == str(plain)


def test_unsaved_graphs_are_not_written(data):
    game = zermelo.open(TicTacToe(), data, save=False)
    assert game.solve(progress=False).value == "draw"
    assert not (data / "graphs").exists()
    saved = zermelo.open(TicTacToe(), data)
    assert list((data / "graphs").iterdir()) and saved.solve(progress=False).value == "draw"


def test_openspiel_boards_are_read_from_the_key(data):
    game = zermelo.open(pyspiel.load_game("tic_tac_toe"), data, save=False)
    state = game.state(["x(1,1)"])
    assert state.position.startswith("1:") and state.text.rstrip("\n") == state.position[2:]
    assert "x" in state.text
