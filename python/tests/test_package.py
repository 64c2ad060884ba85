"""The Python package: every game of the catalog through zermelo.open, results as the
command line's JSON documents, Python functions as players, errors as exceptions."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import zermelo

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "target" / "release" / "zermelo"


def cli_json(*args, data):
    """The JSON document of a `zermelo` command (the release binary `cargo test` built)."""
    out = subprocess.run([str(CLI), "--data", str(data), "--json", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def random_player(position, moves):
    return random.choice(moves)


def test_every_example_opens_lists_moves_and_plays(data):
    for game in zermelo.games():
        assert game.players and game.summary
        for spec in game.examples:
            g = zermelo.open(spec, data)
            start = g.moves()
            assert start.moves, spec
            legal = [m.move for m in start.moves]
            move = g.bot_move([], "random", seed=1)
            assert move in legal, spec
            after = g.moves([move])
            assert after.position != start.position
            record = g.play(["random"] * g.seats, seed=2)
            assert record.result and record.forfeit is None


def test_answers_equal_the_command_lines(data):
    for spec in ("tictactoe", "nim:heaps=1/2/3", "pawns:cols=3,rows=5", "dots:size=3"):
        g = zermelo.open(spec, data)
        ours = g.solve()
        theirs = cli_json("solve", spec, data=data)
        for key in ("value", "remoteness", "margin", "to_move", "solver"):
            assert ours[key] == theirs[key], (spec, key)
        view = g.moves()
        theirs = cli_json("moves", spec, data=data)
        theirs.pop("command")
        assert dict(view) == theirs


def test_domineering_proves_who_wins_and_gives_how_soon_when_asked(data):
    spec = "domineering:rows=4,cols=5"
    g = zermelo.open(spec, data)
    proved = g.solve(save=False, progress=False)
    timed = g.solve(save=False, progress=False, remoteness=True)
    assert (proved.solver, proved.remoteness) == ("proof", None)
    assert timed.solver == "alphabeta" and timed.remoteness is not None
    assert proved.value == timed.value == cli_json("solve", spec, "--no-save", data=data)["value"]
    # For the mover alone: the same value, no outcome class.
    alone = g.solve(save=False, progress=False, mover_only=True)
    assert alone.value == proved.value
    assert "class" in [f.key for f in proved.details]
    assert "class" not in [f.key for f in alone.details]
    view = g.moves(["a1"], progress=False)
    exact = g.moves(["a1"], progress=False, remoteness=True)
    values = [m.value for m in view.moves]
    assert values == sorted(values, key=lambda v: v != "win"), "the winning moves first"
    assert all(m.remoteness is None for m in view.moves)
    assert {m.move: m.value for m in view.moves} == {m.move: m.value for m in exact.moves}
    assert all(m.remoteness is not None for m in exact.moves)


def test_tictactoe_is_a_draw_and_counts_are_known(data):
    g = zermelo.open("tictactoe", data)
    assert g.solve().value == "draw"
    counts = g.count()
    assert counts.games.total == 255168
    assert g.count(symmetry=True).positions.total == 765


def test_a_python_random_player_never_beats_perfect():
    g = zermelo.open("tictactoe")
    s = g.tournament(["perfect", random_player], games=40, seed=3)
    rows = {r.player: r for r in s.players}
    assert rows["perfect"].losses == 0
    assert rows["random_player"].wins == 0 and rows["random_player"].forfeits == 0


def test_tournaments_show_and_plot_their_seats():
    s = zermelo.open("dots:size=3").tournament(["perfect", "greedy"], games=10, seed=1)
    first, second = s.seats
    assert first.name in s._repr_html_() and "(all)" in s._repr_html_()
    assert first.points_share.share > second.points_share.share
    assert s.ratings is None
    pytest.importorskip("matplotlib")
    import matplotlib
    import matplotlib.container

    matplotlib.use("Agg")
    _, seats = s.plot()
    # One bar per seat for whoever sat there, then one per player, each with its interval.
    heights = [round(b.get_height(), 6) for b in seats.patches]
    assert heights[:2] == [round(100 * r.points_share.share, 6) for r in s.seats]
    bars = [c for c in seats.containers if isinstance(c, matplotlib.container.BarContainer)]
    assert len(bars) == 3 and len(seats.patches) == 6
    (low, high), _ = [[y for _, y in seg] for seg in bars[0].errorbar.lines[2][0].get_segments()]
    assert (low, high) == pytest.approx((100 * first.points_share.low, 100 * first.points_share.high))
    three = zermelo.open("bigpoints:players=3").tournament(["greedy", "random", "random"], games=3)
    assert "Bradley–Terry" in three._repr_html_() and len(three.ratings) == 3


def test_a_python_random_player_never_wins_pawns_3x5_as_second(data):
    g = zermelo.open("pawns:cols=3,rows=5", data)
    assert g.solve().value == "win"
    for seed in range(10):
        record = g.play(["perfect", random_player], seed=seed)
        assert record.result == "White wins", record


def test_a_player_sees_the_turn_when_it_asks():
    seen = []

    def watcher(position, moves, turn):
        seen.append((position, turn["seat"], turn["to_move"], turn["game"]))
        return moves[0]

    zermelo.open("tictactoe").play([watcher, "random"], seed=1)
    assert seen[0] == (".../.../...", 0, "X", "tictactoe")
    assert all(seat == 0 for _, seat, _, _ in seen)


def test_an_illegal_answer_forfeits_and_an_exception_is_raised():
    g = zermelo.open("tictactoe")
    s = g.tournament([lambda p, m: "z9", "random"], games=4)
    assert s.players[0].forfeits == 4 and s.players[1].wins == 4

    def buggy(position, moves):
        raise RuntimeError("a bug in my bot")

    with pytest.raises(RuntimeError, match="a bug in my bot"):
        g.tournament([buggy, "random"], games=2)


def test_programs_play_through_the_protocol():
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'random_bot.py'}"
    s = zermelo.open("tictactoe").tournament(["perfect", bot], games=10)
    assert s.players[0].losses == 0 and s.players[1].forfeits == 0


def test_bad_input_raises_value_error_and_too_big_raises_zermelo_error(data):
    with pytest.raises(ValueError, match="unknown game"):
        zermelo.open("chess")
    with pytest.raises(ValueError, match="bad game spec"):
        zermelo.open("pawns:cols=99")
    g = zermelo.open("tictactoe", data)
    with pytest.raises(ValueError, match="bad move 'z9'"):
        g.moves(["a1", "z9"])
    with pytest.raises(ValueError, match="unknown player"):
        g.bot_move([], "nobody")
    with pytest.raises(ValueError, match="unknown solver"):
        g.solve("quantum")
    with pytest.raises(ValueError):
        g.tournament(["perfect", 42])
    with pytest.raises(zermelo.ZermeloError, match="memory"):
        zermelo.open("pawns:cols=8,rows=8", data).solve(memory="1M")


def test_positions_draw_themselves_with_move_values():
    view = zermelo.open("tictactoe").moves("a1,b2")
    svg = view._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    # Every empty square is a move, titled by its name; the cell of a draw has the draw's
    # colour of the palette shared by every front end.
    assert svg.count("<title>") == len(view.moves) == 7
    assert zermelo._results.palette()["draw"]["fill"] in svg
    assert "X to move: draw" in str(view)
    html = zermelo.open("nim:heaps=1/2").tournament(games=4)._repr_html_()
    assert "<table>" in html and "perfect" in html


def test_ctrl_c_stops_a_long_solve_promptly(data):
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            zermelo.open("mnk:m=5,n=5,k=4", data).solve(save=False, progress=False)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.monotonic() - start < 5


def test_the_gil_is_released_while_solving(data):
    import threading

    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    start = time.monotonic()
    zermelo.open("pawns:cols=4,rows=6", data).solve(save=False, progress=False)
    took = time.monotonic() - start
    stop.set()
    t.join()
    assert len(ticks) >= took / 0.01 / 4, (len(ticks), took)


def test_the_game_graph_of_tictactoe_has_the_known_counts():
    g = zermelo.open("tictactoe")
    graph = g.graph()
    assert len(graph.nodes) == graph.positions == 5478
    classes = g.graph(symmetry=True)
    assert len(classes.nodes) == 765
    assert sum(n.size for n in classes.nodes) == 5478
    start = graph.nodes[0]
    assert (start.position, start.value) == (".../.../...", "draw")
    nx = pytest.importorskip("networkx")
    d = classes.to_networkx()
    assert d.number_of_nodes() == 765 and nx.is_directed_acyclic_graph(d)
    assert {d.edges[e]["seat"] for e in d.edges} == {0, 1}


def test_the_graph_values_agree_with_the_solver(data):
    g = zermelo.open("subtraction:set=1/2/3,n=21", data)
    graph = g.graph()
    for node in graph.nodes:
        heaps = int(node.position.split(":")[1] or 0)
        assert (node.value == "lose") == (heaps % 4 == 0), node
    pawns = zermelo.open("pawns:cols=3,rows=5", data)
    assert pawns.graph().nodes[0].remoteness == pawns.solve().remoteness
    with pytest.raises(zermelo.ZermeloError, match="more than 100"):
        pawns.graph(max_positions=100)


def test_every_answer_starts_from_a_given_position(data):
    g = zermelo.open("tictactoe", data)
    reached = g.moves(["a1", "b3"])
    given = g.moves(position=reached.position)
    assert dict(given) == dict(reached)
    assert g.moves(["c1"], position=reached.position) == g.moves(["a1", "b3", "c1"])
    assert g.solve(position=reached.position).value == reached.value == "win"
    record = g.play(["perfect", "perfect"], position=reached.position)
    assert record.result == "X wins" and record.position == reached.position
    s = g.tournament(["perfect", random_player], games=10, position=reached.position)
    assert s.position == reached.position
    assert g.bot_move(position=reached.position) in reached.best
    with pytest.raises(ValueError, match="bad position"):
        g.moves(position="xxx/xxx/xxx")


def test_a_function_named_like_a_player_keeps_its_own_seat():
    def random(position, moves):  # noqa: the name of zermelo's random player
        return moves[0]

    s = zermelo.open("nim:heaps=1/2/3").tournament([random, "random"], games=4)
    assert [r.player for r in s.players] == ["random#2", "random"]


def test_a_family_maps_with_skipped_and_refused_members(data, tmp_path):
    m = zermelo.balance("mnk:m=3|4,n=3,k=3|4", seconds=20, data=data, progress=False)
    assert isinstance(m, zermelo.BalanceMap)
    assert m["keys"] == ["m", "k"]
    by_game = {r["game"]: r for r in m.rows()}
    assert by_game["mnk:m=3,n=3,k=3"]["value"] == "draw"
    assert by_game["mnk:m=4,n=3,k=3"]["value"] == "win"
    assert by_game["mnk:m=3,n=3,k=4"]["status"] == "refused"
    assert (m.first_wins, m.draws, m.refused) == (1, 2, 1)
    assert "<table" in m._repr_html_()
    m.to_csv(tmp_path / "map.csv")
    lines = (tmp_path / "map.csv").read_text().splitlines()
    assert lines[0].startswith("m,k,game,status,value") and len(lines) == 5
    assert m.plot() is not None
    over = zermelo.balance("mnk:m=7,n=7,k=5", seconds=0.1, data=data, progress=False)
    assert over.members[0]["status"] == "skipped" and over.members[0]["estimate"] is not None
    with pytest.raises(ValueError):
        zermelo.balance("mnk:m=3..4,q=1|2", data=data, progress=False)
    with pytest.raises(ValueError):
        zermelo.balance("mnk:m=3..4", configs=["2x2"], data=data, progress=False)
    sweep = zermelo.balance("bigpoints:colors=2,discs=2..3", progress=False)
    assert [c["discs"] for c in sweep.configs] == [2, 3]


def test_selfplay_estimates_what_the_command_line_does_and_draws_itself(data):
    e = zermelo.estimate("bigpoints:players=3", "greedy", games=60, seed=4, progress=False)
    assert isinstance(e, zermelo.Estimate) and e.games == 60 and len(e.seats) == 3
    assert abs(sum(s.points.share for s in e.seats) - 1) < 1e-9
    assert all(s.points.low <= s.points.share <= s.points.high for s in e.seats)
    theirs = cli_json("balance", "bigpoints:players=3", "--players", "greedy", "--games", "60", "--seed", "4", data=data)
    for key in ("seats", "draws", "plies", "margin", "first_move_advantage"):
        assert e[key] == theirs[key], key
    assert "first-move advantage" in e._repr_html_()
    import matplotlib

    matplotlib.use("Agg")
    assert len(e.plot().patches) == 9
    # Perfect play on tic-tac-toe: a draw every game; a Python player in every seat.
    drawn = zermelo.open("tictactoe").selfplay("perfect", 20, progress=False)
    assert drawn.draws.share == 1 and drawn.draws.high == 1
    stopped = zermelo.open("tictactoe").selfplay(random_player, 100_000, until=0.2, progress=False)
    assert stopped.reached and stopped.games == 100
    with pytest.raises(ValueError, match="at least one game"):
        zermelo.estimate("tictactoe", "random", games=0)
    with pytest.raises(ValueError, match="less than 1"):
        zermelo.estimate("tictactoe", "random", until=2)


def test_the_threads_are_set_once_before_the_first_solve():
    # Run in a fresh interpreter: this one's solves have started the threads already.
    script = (
        "import zermelo\n"
        "zermelo.set_threads(1)\n"
        "print(zermelo.open('dots:size=4').solve(save=False).margin)\n"
        "try:\n"
        "    zermelo.set_threads(2)\n"
        "except ValueError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    margin, refusal = out.splitlines()
    assert margin == "-3"
    assert "set once" in refusal and "1 now" in refusal
    with pytest.raises(ValueError, match="at least 1"):
        zermelo.set_threads(0)


def test_a_familys_study_runs_by_name_as_the_command_line_runs_it(data, tmp_path):
    heaps = zermelo.study("octal:code=0.77", "grundy", data=data, to=50, plot=tmp_path / "k.svg", progress=False)
    assert heaps.document["computed_to"] == 50 and heaps.text.startswith("octal game 0.77 (Kayles)")
    assert (tmp_path / "k.svg").read_text().startswith("<svg") and heaps.svg is not None
    theirs = cli_json("grundy", "octal:code=0.77", "--to", "50", data=data)
    for key in ("game", "preperiod", "period", "computed_to", "proven", "rare"):
        assert heaps.document[key] == theirs[key], key
    assert zermelo.open("subtraction:set=1/2", data).study("grundy", progress=False).document["period"] == 3
    studies = {g.name: [s.name for s in g.studies] for g in zermelo.games()}
    assert studies["octal"] == ["grundy"] and studies["bigpoints"] == ["balance"] and studies["nim"] == []
    sweep = zermelo.study("bigpoints:colors=2,discs=2", "balance", csv=tmp_path / "b.csv", progress=False)
    assert sweep.document["configs"][0]["solved"] == 3
    assert (tmp_path / "b.csv").read_text().startswith("colors,discs,white,black,board")
    with pytest.raises(ValueError, match="nim has no grundy study; the games with one: subtraction, octal"):
        zermelo.open("nim:heaps=3", data).study("grundy")
    # The keys are checked against the study's declaration: a key it does not take is a
    # TypeError, a value of the wrong kind or out of range a ValueError.
    with pytest.raises(TypeError, match="takes no 'depth'"):
        zermelo.study("octal:code=0.77", "grundy", depth=3)
    with pytest.raises(ValueError, match="to=many: 'many' is not a whole number"):
        zermelo.open("octal:code=0.77", data).study("grundy", to="many")
    with pytest.raises(ValueError, match="every_board=1: expected true or false"):
        zermelo.balance("bigpoints:colors=2,discs=2", every_board=1, progress=False)
    with pytest.raises(TypeError, match="the balance study takes no 'colour'"):
        zermelo.balance("bigpoints:colors=2,discs=2", colour=1, progress=False)
    keys = {k.name: k for g in zermelo.games() for s in g.studies for k in s["keys"]}
    assert (keys["to"].kind, keys["every_board"].default, keys["sample"].range) == ("int", "false", "1..=20000000")


def test_a_report_equals_the_command_lines_and_draws_itself(data):
    import matplotlib

    matplotlib.use("Agg")
    g = zermelo.open("pawns:cols=3,rows=5", data)
    report = g.report(2, progress=False)
    line = cli_json("report", "pawns:cols=3,rows=5", "--depth", "2", data=data)
    assert report.first_moves == line["first_moves"]
    assert report.certificate == line["certificate"]
    assert report.forgiveness == line["forgiveness"]
    winning = [m.move for m in g.moves().moves if m.value == "win"]
    assert sorted(m.move for m in report.first_moves.moves if m.value == "win") == sorted(winning)
    assert isinstance(report.first_moves.moves[0], zermelo.FirstMove)
    assert isinstance(report.first_moves.moves[0].replies, zermelo.Replies)
    assert "<svg" in report._repr_html_()
    assert len(report.plot().get_lines()) == len(report.forgiveness.seats)
