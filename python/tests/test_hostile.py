"""The hostile-input corpus from Python: player functions that hang, recurse or answer
nonsense, numbers out of every range, files that are not tables. Each test names the
item of the audit it keeps fixed; nothing may hang, panic or raise the wrong exception."""

import math
import os
import signal
import subprocess
import sys
import time

import pytest

import zermelo


def _sleeper(seconds):
    def slow(position, moves):
        time.sleep(seconds)
        return moves[0]

    return slow


# Item 2: a function past its move time forfeits, and the game goes on without it.
def test_a_function_past_its_move_time_forfeits():
    g = zermelo.open("tictactoe")
    start = time.monotonic()
    record = g.play([_sleeper(2), "random"], move_time=0.3)
    assert time.monotonic() - start < 2
    assert "no move within 0.3 s" in record.forfeit
    # In a tournament, a function still thinking over its last move forfeits the next at once.
    s = g.tournament([_sleeper(2), "random"], games=2, move_time=0.3, progress=False)
    assert s.players[0].forfeits == 2 and s.players[1].wins == 2
    assert time.monotonic() - start < 4


# Item 2: Ctrl-C while a player function thinks raises KeyboardInterrupt within a second.
def test_ctrl_c_stops_a_function_that_never_answers():
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            zermelo.open("tictactoe").play([_sleeper(2), "random"], move_time=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert time.monotonic() - start < 1.3


# Item 3: the threads are capped as the command line's --threads is.
def test_too_many_threads_are_refused():
    with pytest.raises(ValueError, match="at most 1024 threads, not 1000000"):
        zermelo.set_threads(10**6)


# Item 4: a player function playing through itself is stopped at a depth, with why.
def test_a_player_recursing_through_itself_is_refused():
    g = zermelo.open("tictactoe")

    def mirror(position, moves):
        return g.bot_move(position=position, player=mirror)

    with pytest.raises(ValueError, match="nest more than 8 deep"):
        g.bot_move([], mirror)


# Item 8: every duration is checked once, with one message, never a panic.
@pytest.mark.parametrize("seconds", [math.inf, 1e300, math.nan, -1.0, 0.0])
def test_bad_seconds_are_a_value_error(data, seconds):
    g = zermelo.open("tictactoe", data)
    for call in (
        lambda: g.solve(seconds=seconds, progress=False),
        lambda: g.graph(seconds=seconds, progress=False),
        lambda: g.moves(seconds=seconds, progress=False),
        lambda: zermelo.balance("mnk:m=3,n=3,k=3", seconds=seconds, data=data, progress=False),
    ):
        with pytest.raises(ValueError, match="is not a number of seconds from 0.001 to 31536000"):
            call()
    with pytest.raises(ValueError, match="move_time: .* is not a number of seconds from 0.001 to 86400"):
        g.play(["random", "random"], move_time=seconds)
    with pytest.raises(ValueError, match=r"save_every=.* is out of range 0\.1\.\.=86400|save_every=.* is not a number"):
        zermelo.study("octal:code=0.77", "grundy", to=10, save_every=seconds, data=data, progress=False)


# Item 8: a size past the machine's memory names the size asked for.
def test_too_much_memory_names_what_was_asked(data):
    g = zermelo.open("tictactoe", data)
    with pytest.raises(ValueError, match="'99999999T' is more than the .* this machine has"):
        g.solve(memory="99999999T", progress=False)
    with pytest.raises(ValueError, match="'1000000000000000000 bytes' is more than"):
        g.solve(memory=10**18, progress=False)


# Item 9: integers out of range are a ValueError, not an OverflowError.
def test_integers_out_of_range_are_a_value_error(data):
    g = zermelo.open("tictactoe", data)
    for call in (
        lambda: g.bot_move([], "random", seed=-1),
        lambda: g.tournament(["random", "random"], games=2**70, progress=False),
        lambda: g.tournament(["random", "random"], games=-1, progress=False),
        lambda: g.play(["random", "random"], seed=2**64),
        lambda: g.graph(max_positions=-5, progress=False),
        lambda: g.solve(memory=-1, progress=False),
        lambda: g.selfplay("random", games=2**65, progress=False),
    ):
        with pytest.raises(ValueError, match="is not a whole number from 0 to 18446744073709551615"):
            call()


# Item 9: a player answering something other than text forfeits as an illegal answer.
def test_a_player_answering_a_number_forfeits():
    g = zermelo.open("tictactoe")
    record = g.play([lambda p, m: 5, "random"])
    assert record.forfeit and "answered 5, not a move" in record.forfeit
    s = g.tournament([lambda p, m: 5, "random"], games=4, progress=False)
    assert s.players[0].forfeits == 4 and s.players[1].wins == 4


# Item 9: sample=0 is refused as the command line's --sample 0 is.
def test_a_sample_of_none_is_refused(data):
    with pytest.raises(ValueError, match=r"sample=0 is out of range 1\.\.="):
        zermelo.balance("bigpoints:colors=2,discs=2", sample=0, data=data, progress=False)


# Item 7: a named pipe where a table should be is refused at once, in one line.
def test_a_named_pipe_for_a_table_is_refused_at_once(data):
    g = zermelo.open("pawns:cols=2,rows=4", data)
    g.solve(progress=False)
    (table,) = [p for p in data.iterdir() if p.suffix == ".zdb"]
    table.unlink()
    os.mkfifo(table)
    start = time.monotonic()
    with pytest.raises(zermelo.ZermeloError, match="is a named pipe, not a file"):
        zermelo.open("pawns:cols=2,rows=4", data).moves(progress=False)
    assert time.monotonic() - start < 2


# Item 6: a graph reports its nodes as it goes, and its memory is bounded as a search's.
def test_a_graph_reports_progress_and_stops_at_its_memory(data):
    seen = []
    g = zermelo.open("tictactoe", data)
    g._native.graph(lambda what, done, total: seen.append((what, total)), max_positions=10**12)
    assert seen and seen[-1][0] == "nodes" and 5478 <= seen[-1][1] < 10**12
    with pytest.raises(zermelo.ZermeloError, match="needs more than the 1 MiB of memory it may use"):
        zermelo.open("pawns:cols=4,rows=6", data).graph(max_positions=10**12, memory="1M", progress=False)


def _running(marker):
    """The processes whose command line starts `sleep MARKER`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if f.read().startswith(b"sleep\0" + marker.encode()):
                    found.append(int(pid))
        except OSError:
            pass
    return found


def _within(seconds, done):
    until = time.monotonic() + seconds
    while time.monotonic() < until and not done():
        time.sleep(0.05)
    return done()


# Item 10: a program a Python player runs dies with Python, even killed by SIGKILL.
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_programs_die_with_python(sig):
    marker = f"301.2{sig}"
    script = f"import zermelo; zermelo.open('tictactoe').play(['cmd:sleep {marker}', 'random'], move_time=60)"
    python = subprocess.Popen([sys.executable, "-c", script])
    try:
        assert _within(10, lambda: _running(marker)), "the program never started"
        python.send_signal(sig)
        python.wait(5)
        assert _within(3, lambda: not _running(marker)), _running(marker)
    finally:
        python.kill()
        python.wait()
