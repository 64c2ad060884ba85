"""`python -m zermelo`: the `zermelo` program's command line, with the same output."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "zermelo"


def run(program, args, data):
    """The exit status, stdout and stderr of `program` run with `args`, times left out."""
    out = subprocess.run([*program, "--data", str(data), *args], capture_output=True, text=True)
    return out.returncode, re.sub(r"\d+\.\d+ s\)", "TIME s)", out.stdout), out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "tictactoe"],
        ["moves", "nim:heaps=1/2/3"],
        ["solve", "tictactoe", "--solver", "nope"],
        ["solve"],
        ["--version"],
    ],
    ids=" ".join,
)
def test_python_m_zermelo_is_the_zermelo_program(args, tmp_path):
    module = run([sys.executable, "-m", "zermelo"], args, tmp_path / "module")
    binary = run([str(BINARY)], args, tmp_path / "binary")
    assert module == binary


def test_python_m_zermelo_json_is_the_zermelo_programs(tmp_path):
    args = ["--json", "solve", "tictactoe"]
    module = run([sys.executable, "-m", "zermelo"], args, tmp_path / "module")
    binary = run([str(BINARY)], args, tmp_path / "binary")
    documents = [json.loads(stdout) for _, stdout, _ in (module, binary)]
    for document in documents:
        assert document.pop("seconds") >= 0
    assert documents[0] == documents[1]


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE here")
def test_a_reader_that_stops_ends_it_quietly(tmp_path):
    """Output piped into a reader gone (`| head`) stops it by SIGPIPE, as the program: no
    traceback, no panic."""
    module = subprocess.Popen(
        [sys.executable, "-m", "zermelo", "--data", str(tmp_path), "graph", "tictactoe"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    module.stdout.close()
    assert module.wait() == -signal.SIGPIPE
    assert module.stderr.read() == b""


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="Ctrl-C is no signal here")
def test_ctrl_c_is_python_s_again_after_a_command_run_in_python(tmp_path):
    """A solve stops cleanly on Ctrl-C by a handler of its own, gone when it returns."""
    from zermelo._native import cli

    # Python's own handler, even where this process was started with Ctrl-C ignored.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert cli(["--data", str(tmp_path), "solve", "tictactoe", "--no-save"]) == 0
        with pytest.raises(KeyboardInterrupt):
            # To the main thread, whose sleep it then ends: sent to the process, the signal
            # may land on one of the solver's threads, seen by Python only after the sleep.
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            time.sleep(5)
    finally:
        signal.signal(signal.SIGINT, before)


RACE = '''
class Race:
    """Players take 1 or 2 from a pile of 7 in turn; whoever takes the last one wins."""

    name = "race"

    def start(self):
        return (7, 0)

    def to_move(self, state):
        return state[1]

    def moves(self, state):
        return [str(n) for n in (1, 2) if n <= state[0]]

    def play(self, state, move):
        return (state[0] - int(move), 1 - state[1])

    def outcome(self, state):
        return None if state[0] else 1 - state[1]
'''


def python_m(args, cwd, data):
    """The exit status, stdout and stderr of `python -m zermelo --data DATA ARGS` in `cwd`."""
    out = subprocess.run(
        [sys.executable, "-m", "zermelo", "--data", str(data), *args], capture_output=True, text=True, cwd=cwd
    )
    return out.returncode, out.stdout, out.stderr


@pytest.mark.parametrize("spec", ["race_games:Race", "games/race_file.py:Race"])
@pytest.mark.parametrize(
    "command",
    [["solve"], ["moves"], ["count"], ["graph"], ["play", "{spec}", "--first", "perfect", "--second", "random"], ["report"]],
    ids=lambda c: c[0],
)
def test_a_game_of_your_own_by_its_import_path_with_every_command(spec, command, tmp_path):
    """A pile of 7, taking 1 or 2: a multiple of 3 loses for the player to move, so the
    first player wins (taking 1), whichever command asks and however the game is named."""
    (tmp_path / "race_games.py").write_text(RACE)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "race_file.py").write_text(RACE)
    args = [a.replace("{spec}", spec) for a in command] if "{spec}" in command else [*command, spec]
    status, stdout, stderr = python_m(args, tmp_path, tmp_path / "data")
    assert status == 0, stderr
    if command[0] == "solve":
        assert "win in 5 for player 1" in stdout.splitlines()[0], stdout
    if command[0] == "moves":
        assert "player 1 to move: win in 5" in stdout, stdout
    if command[0] == "moves":
        # Taking 1 leaves 6, a multiple of 3: the only winning move.
        best = [line for line in stdout.splitlines() if "best" in line]
        assert len(best) == 1 and best[0].split()[0] == "1", stdout
    if command[0] == "count":
        # Piles 7 and 6 with one seat to move, 5 to 0 with either: 14.
        assert re.search(r"^positions: 14 ", stdout, re.M), stdout
    if command[0] == "report":
        assert "first moves" in stdout.lower(), stdout


def test_a_bad_import_path_is_one_line(tmp_path):
    (tmp_path / "race_games.py").write_text(RACE)
    status, stdout, stderr = python_m(["solve", "race_games:Nope"], tmp_path, tmp_path / "data")
    assert status != 0 and stdout == ""
    assert stderr.count("\n") == 1 and "race_games has no Nope" in stderr


def test_the_zermelo_program_sends_games_python_opens_to_python_m_zermelo(tmp_path):
    (tmp_path / "race_games.py").write_text(RACE)
    for spec in ["openspiel:tic_tac_toe", "race_games:Race", "race_games.py:Race"]:
        out = subprocess.run([str(BINARY), "--data", str(tmp_path), "solve", spec], capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode != 0 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and "python -m zermelo" in out.stderr, out.stderr


def test_python_m_zermelo_opens_openspiel_games(tmp_path):
    pytest.importorskip("pyspiel")
    status, stdout, stderr = python_m(["solve", "openspiel:tic_tac_toe"], tmp_path, tmp_path / "data")
    assert status == 0, stderr
    assert "draw" in stdout.splitlines()[0]


def test_a_bad_openspiel_name_is_one_line_with_the_closest_names(tmp_path):
    pytest.importorskip("pyspiel")
    status, stdout, stderr = python_m(["solve", "openspiel:tic_tac_to"], tmp_path, tmp_path / "data")
    assert status != 0 and stdout == ""
    assert stderr.count("\n") == 1 and "tic_tac_toe" in stderr and "connect_four" not in stderr, stderr
