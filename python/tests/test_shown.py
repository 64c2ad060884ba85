"""What people look at: results print as `zermelo` prints them and show as tables in
notebooks; a game of your own on the page with its own board, name and rules."""

import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

import zermelo


def cli(*args, data):
    """What `python -m zermelo ARGS` prints."""
    done = subprocess.run(
        [sys.executable, "-m", "zermelo", "--data", str(data), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.rstrip("\n")


def test_results_print_as_the_command_line_prints_them(data):
    game = zermelo.open("tictactoe", data)
    after = game.moves(["a1"], progress=False)
    # The value with the player to move, as `zermelo moves` says it.
    assert "O to move: draw" in str(after)
    assert str(after) == cli("moves", "tictactoe", "--moves", "a1", data=data)
    assert str(game.count(progress=False)) == cli("count", "tictactoe", data=data)
    assert str(game.report(progress=False)) == cli("report", "tictactoe", data=data)
    standings = game.tournament(["perfect", "random"], games=6, seed=3, progress=False)
    assert str(standings) == cli("tournament", "tictactoe", "--players", "perfect,random", "--games", "6", "--seed", "3", data=data)
    # The solve's line but for its time, which differs from run to run.
    timed = re.compile(r"\d+\.\d+ s\)")
    solved = timed.sub("", str(game.solve(progress=False)))
    assert solved == timed.sub("", cli("solve", "tictactoe", data=data))
    assert solved.startswith("tictactoe: draw for X, who moves first (")
    assert str(game.play(["perfect", "perfect"])) == "draw after 9 moves"
    assert str(game.selfplay("random", games=20, progress=False)).startswith("20 games of tictactoe, random in every seat")


def test_graphs_and_balances_print_as_the_command_line_prints_them(data):
    # The graph in Graphviz DOT, as `zermelo graph` prints it.
    graph = zermelo.open("subtraction:set=1/2/3,n=5", data).graph(progress=False)
    assert str(graph) == cli("graph", "subtraction:set=1/2/3,n=5", data=data)
    assert str(graph).startswith('digraph "subtraction:set=1/2/3,n=5" {')
    # The balance tables but for the seconds each took, which differ from run to run.
    timed = re.compile(r"\d+\.\d\d\b|\d+\.\d s$", re.M)
    family = "mnk:m=2..3,n=3,k=3"
    balance_map = zermelo.balance(family, seconds=20, data=data, progress=False)
    printed = timed.sub("", str(balance_map))
    assert printed == timed.sub("", cli("balance", family, "--seconds", "20", data=data))
    assert printed.splitlines()[0].split()[:2] == ["m", "result"] and "2 members: " in printed
    sweep = zermelo.balance("bigpoints:colors=2,discs=2", data=data, progress=False)
    printed = timed.sub("", str(sweep))
    assert printed == timed.sub("", cli("balance", "bigpoints:colors=2,discs=2", data=data))
    assert printed.startswith("config ")
    for result in (graph, balance_map, sweep):
        assert "<table" in result._repr_html_() or "edges" in result._repr_html_(), type(result).__name__


def test_results_show_as_tables_in_notebooks(data):
    game = zermelo.open("tictactoe", data)
    for result in (game.solve(progress=False), game.count(progress=False), game.moves(["a1"], progress=False),
                   game.play(["perfect", "random"]), game.tournament(["perfect", "random"], games=4, progress=False)):
        assert "<table" in result._repr_html_(), type(result).__name__
    moves = game.moves(["a1"], progress=False)._repr_html_()
    assert "<svg" in moves and "O to move: " in moves and "b2" in moves


def test_the_report_in_a_notebook_is_the_page_of_report_html(data, tmp_path):
    game = zermelo.open("dots:size=2", data)
    report = game.report(depth=2, compensate="komi=-1..1", progress=False)
    shown = report._repr_html_()
    page = tmp_path / "report.html"
    cli("report", "dots:size=2", "--depth", "2", "--compensate", "komi=-1..1", "--html", str(page), data=data)
    assert shown in page.read_text()
    # Real tables, the replies under their first move, the sweep as a chart, the certificate in a box.
    assert shown.count("<table>") >= 4 and "<pre>" in shown and 'class="cert"' in shown
    assert 'class="replies"' in shown and "komi=" in shown and shown.count("<svg") == 2
    assert report.certificate.sha256 in shown


# The command line's report and Python's are one library call: the same JSON byte for
# byte, but for the wall-clock timings, which differ from run to run.
TIMED = re.compile(r'"(seconds|games_per_second)": [-+.e0-9]+|[.0-9]+ games/s \([.0-9]+ s\)')


@pytest.mark.parametrize(
    "spec, kw, flags",
    [
        ("tictactoe", {}, []),
        ("dots:size=2", {"compensate": "komi=-2..2"}, ["--compensate", "komi=-2..2"]),
        ("bigpoints:board=1221", {}, []),
        ("bigpoints:players=3,board=1221", {}, []),
    ],
)
def test_the_report_is_one_call_for_both_front_ends(data, spec, kw, flags):
    report = zermelo.open(spec, data).report(progress=False, **kw)
    printed = cli("report", spec, *flags, "--json", data=data)
    assert TIMED.sub("", report.to_json()) == TIMED.sub("", printed)
    assert TIMED.sub("", str(report)) == TIMED.sub("", cli("report", spec, *flags, data=data))


def test_python_reports_on_a_game_of_three_seats(data):
    report = zermelo.open("bigpoints:players=3,board=1221", data).report(selfplay=30, progress=False)
    assert isinstance(report, zermelo.SeatsReport)
    assert report.seats == 3 and report.selfplay.games == 30 and report.scores is None and report.notes
    assert str(report).startswith("bigpoints:players=3,board=1221: 3 seats\nexact scores left out: ")
    with pytest.raises(ValueError, match="^compensate=komi=0..1: is for games of two seats"):
        zermelo.open("bigpoints:players=3,board=1221", data).report(compensate="komi=0..1", progress=False)
    with pytest.raises(ValueError, match="^player=random: is for games of more than two seats"):
        zermelo.open("tictactoe", data).report(player="random", progress=False)


class Race:
    """Take 1 or 2 counters from a heap; whoever takes the last one wins."""

    name = "counter-race"
    seat_names = ["Ann", "Bob"]

    def __init__(self, heap=5):
        self.heap = heap

    def start(self):
        return (self.heap, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [t for t in (1, 2) if t <= state[0]]

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def outcome(self, state):
        return None if state[0] else 1 - state[1]

    def render(self, state):
        return "o " * state[0] + f"\n{state[0]} left"


class Squares(Race):
    """The race drawn as a row of squares: a click on the last one or two takes them."""

    name = "counter-squares"

    def picture(self, state):
        heap = state[0]
        return [[{"text": "o", "move": heap - i if heap - i <= 2 else None} for i in range(heap)] or [None]]

    def move_text(self, move):
        return str(move)


def served(game, data):
    """The address of the page serving `game`, and a function asking its API."""
    url = zermelo.serve(game, port=0, data=data, background=True)
    root = url.split("?")[0]

    def api(path, **query):
        with urllib.request.urlopen(root + path + "?" + urllib.parse.urlencode(query)) as answer:
            return json.loads(answer.read())

    return url, api


def test_the_page_shows_a_game_of_your_own_as_it_draws_itself(data):
    # A raw game object is opened as zermelo.open opens it.
    url, api = served(Race(), data)
    spec = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["spec"][0]
    mine = [g for g in api("api/games")["own"] if g["spec"] == spec]
    assert mine == [{"spec": spec, "name": "counter-race", "how_to_play": Race.__doc__}]
    view = api("api/moves", spec=spec)
    # Its render() is the board; no picture of buttons in place of one.
    assert view["board"].strip() == "o o o o o \n5 left".strip() and view["picture"] is None
    assert view["to_move"] == "Ann" and view["value"] == "win"


def test_the_page_draws_the_picture_of_a_game_that_has_one(data):
    game = zermelo.open(Squares(), data)
    _, api = served(game, data)
    view = api("api/moves", spec=game.spec, moves="2")
    cells = [s for s in view["picture"]["shapes"] if s["kind"] == "cell"]
    assert len(cells) == 3 and sorted(s["move"] for s in cells if s["move"]) == ["1", "2"]
    assert any(g["name"] == "counter-squares" for g in api("api/games")["own"])
